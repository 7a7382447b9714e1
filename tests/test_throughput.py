"""From load to replicas: the throughput estimate, its calibration, peak sizing and derived utilization."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner
from helpers import REPO_ROOT, run

from gpu_advisor.api import size
from gpu_advisor.cli import main
from gpu_advisor.engine.calc.calibration import calibration_rows
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.i18n.environment import render
from gpu_advisor.engine.present.docs import render_calibration

MID_SIZE_1000_PER_MINUTE = {
    "name": "1,000 requests per minute",
    "model": {"name": "llama-3.1-70b", "precision": "bf16"},
    "requests_per_day": 1000 * 60 * 24,
}


@pytest.mark.parametrize("row", calibration_rows(load_knowledge()), ids=lambda r: r.id)
def test_estimate_within_the_stated_tolerance(row) -> None:
    assert row.estimate is not None
    if row.tolerance is not None:
        assert abs(row.error) <= row.tolerance, f"{row.id}: {row.estimate:.0f} against {row.published}"


def test_calibration_table_is_up_to_date() -> None:
    committed = (REPO_ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    assert render_calibration(load_knowledge()) == committed, (
        "regenerate: gpu-advisor calibration > docs/calibration.md"
    )
    assert CliRunner().invoke(main, ["calibration"]).output == committed


def test_every_measurement_is_in_the_table() -> None:
    table = (REPO_ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    for measurement in load_knowledge().calibration.measurements:
        assert f"| {measurement.id} |" in table


def test_thousand_requests_a_minute_land_on_a_few_gpus() -> None:
    # "Bei 1.000 Anfragen pro Minute braucht ein mittelgroßes Modell vier bis acht GPUs permanent."
    result = run(MID_SIZE_1000_PER_MINUTE)
    h100 = next(row for row in result.sizing.gpus if row.gpu == "h100-sxm")
    assert 4 <= h100.gpus_total <= 8
    assert 1 < result.decision.gpus <= 8


def test_replicas_follow_the_peak() -> None:
    result = run(MID_SIZE_1000_PER_MINUTE)
    load = result.load
    assert load.average_requests_per_second == pytest.approx(1000 / 60)
    assert load.peak_factor == 1.5
    assert load.peak_requests_per_second == pytest.approx(25)
    for row in result.sizing.gpus:
        if row.replicas is not None:
            assert row.replicas == max(1, math.ceil(25 / row.requests_per_second_per_replica))
            assert row.gpus_total == row.replicas * row.gpus_recommended
            assert row.utilization == pytest.approx(
                min(1.0, (1000 / 60) / (row.replicas * row.requests_per_second_per_replica))
            )


def test_batch_is_sized_for_throughput_not_peak() -> None:
    steady = run({**MID_SIZE_1000_PER_MINUTE, "load_pattern": "steady"})
    batch = run({**MID_SIZE_1000_PER_MINUTE, "load_pattern": "batch"})
    assert batch.load.peak_factor == 1.0
    assert batch.load.peak_requests_per_second < steady.load.peak_requests_per_second


def test_variable_load_needs_more_replicas_than_steady() -> None:
    steady = run({**MID_SIZE_1000_PER_MINUTE, "load_pattern": "steady"})
    variable = run({**MID_SIZE_1000_PER_MINUTE, "load_pattern": "variable"})
    h100 = {
        r.load.peak_factor: next(g for g in r.sizing.gpus if g.gpu == "h100-sxm") for r in (steady, variable)
    }
    assert h100[3.0].replicas > h100[1.5].replicas


def test_a_batch_paid_fewer_hours_than_the_schedule_is_served_in_the_paid_hours() -> None:
    # Around the clock is 730 hours on 30.42 days; a batch job paid 176 of them waits for them, so
    # 1,440,000 requests a day are served in 176 / 30.42 = 5.79 hours a day, not spread over 24.
    always = {**MID_SIZE_1000_PER_MINUTE, "load_pattern": "batch"}
    paid = run({**always, "hours_per_month": 176})
    compressed_average = 1_440_000 * 30.42 / (176 * 3600)
    assert paid.load.served_in_paid_hours is True
    assert paid.load.hours_per_day == pytest.approx(176 / 30.42)
    assert paid.load.average_requests_per_second == pytest.approx(compressed_average)
    assert paid.load.served_share_of_paid_hours == 1.0
    spread = run(always)
    assert (spread.load.served_in_paid_hours, spread.load.hours_per_day) == (False, 24)
    h100 = [next(g for g in r.sizing.gpus if g.gpu == "h100-sxm") for r in (paid, spread)]
    assert h100[0].replicas > h100[1].replicas
    capacity = h100[0].replicas * h100[0].requests_per_second_per_replica
    assert h100[0].utilization == pytest.approx(min(1.0, compressed_average / capacity))


def test_requests_that_do_not_wait_keep_the_schedule_when_fewer_hours_are_paid() -> None:
    # A steady service's requests arrive around the clock whether a GPU runs or not: the sizing keeps
    # the schedule's load, and PRC009 says that the paid hours leave requests without a GPU.
    steady = {**MID_SIZE_1000_PER_MINUTE, "load_pattern": "steady"}
    paid = run({**steady, "hours_per_month": 176})
    spread = run(steady)
    assert paid.load == spread.load
    assert paid.load.served_in_paid_hours is False
    assert [(g.gpu, g.replicas) for g in paid.sizing.gpus] == [
        (g.gpu, g.replicas) for g in spread.sizing.gpus
    ]
    assert "PRC009" in paid.fired_rules
    assert "PRC009" not in spread.fired_rules


def test_more_paid_hours_than_the_schedule_idle_and_lower_utilization() -> None:
    office = {**MID_SIZE_1000_PER_MINUTE, "schedule": "office_hours"}
    served = run(office)
    paid = run({**office, "hours_per_month": 730})
    assert paid.load.hours_per_day == served.load.hours_per_day == 8
    assert paid.load.average_requests_per_second == served.load.average_requests_per_second
    assert paid.load.served_share_of_paid_hours == pytest.approx(176 / 730)
    assert served.load.served_share_of_paid_hours == 1.0
    rows = {row.gpu: row for row in served.sizing.gpus if row.replicas is not None}
    for row in paid.sizing.gpus:
        if row.replicas is not None:
            assert row.replicas == rows[row.gpu].replicas
            assert row.utilization == pytest.approx(rows[row.gpu].utilization * 176 / 730)


def test_around_the_clock_every_paid_hour_is_served() -> None:
    # A 31-day month pays 744 hours around the clock: requests come in all of them, none idle.
    always = {**MID_SIZE_1000_PER_MINUTE, "schedule": "always"}
    month_of_31_days = run({**always, "hours_per_month": 744})
    assert month_of_31_days.load.served_share_of_paid_hours == 1.0
    assert month_of_31_days.best_option.utilization == run(always).best_option.utilization


def memo(result: Recommendation) -> str:
    return render("memo.md.j2", r=result, version="test")


def test_the_memo_says_when_paid_hours_and_schedule_differ() -> None:
    base = {**MID_SIZE_1000_PER_MINUTE, "requests_per_day": 100_000, "load_pattern": "batch"}
    fewer = memo(run({**base, "hours_per_month": 176}))
    assert (
        "Only 176 hours a month are paid, fewer than the schedule's 730: the batch waits for them, and the "
        "month's requests are served in the paid hours, 5.79 hours a day." in fewer
    )
    more = memo(run({**base, "schedule": "office_hours", "hours_per_month": 730}))
    assert (
        "730 hours a month are paid, and requests come in 24 % of them: the cards idle in the rest, and "
        "utilization counts them." in more
    )
    neither = memo(run(base))
    assert "hours a month are paid" not in neither


def test_derived_utilization_unless_given() -> None:
    derived = run(MID_SIZE_1000_PER_MINUTE)
    assert derived.workload.utilization_source == "derived"
    assert derived.workload.utilization == pytest.approx(derived.best_option.utilization)
    given = run({**MID_SIZE_1000_PER_MINUTE, "utilization": 0.9})
    assert (given.workload.utilization, given.workload.utilization_source) == (0.9, "input")
    assert given.best_option.utilization == derived.best_option.utilization  # options keep the load's figure


def test_low_volume_derives_low_utilization_and_serverless() -> None:
    result = run(
        {
            "name": "quiet",
            "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
            "requests_per_day": 20000,
        }
    )
    assert result.workload.utilization < 0.30
    assert result.decision.deployment == "serverless"


def test_longer_context_needs_four_h100() -> None:
    # "Ein 70B-Modell mit längerem Kontext oder mehr Nebenläufigkeit: üblich sind 4×H100."
    short = size(precision="fp8", model="llama-3.1-70b", context_tokens=8192)
    long = size(precision="fp8", model="llama-3.1-70b", context_tokens=131072)
    count = {
        r.context_tokens: next(g for g in r.gpus if g.gpu == "h100-sxm").gpus_recommended
        for r in (short, long)
    }
    assert count == {8192: 2, 131072: 4}


def test_size_with_load_shows_replicas_per_gpu() -> None:
    result = CliRunner().invoke(
        main,
        [
            "size",
            "--model",
            "llama-3.1-70b",
            "--precision",
            "bf16",
            "--requests-per-day",
            "1440000",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    h100 = next(g for g in data["gpus"] if g["gpu"] == "h100-sxm")
    assert (h100["gpus_recommended"], h100["replicas"], h100["gpus_total"]) == (4, 2, 8)
    assert data["load"]["peak_requests_per_second"] == pytest.approx(25)


def test_size_without_load_has_no_replicas() -> None:
    result = size(precision="bf16", model="llama-3.1-8b")
    assert result.load is None
    assert all(row.replicas is None for row in result.gpus)
    with_load = size(
        precision="bf16",
        model="llama-3.1-8b",
        load=dict(
            requests_per_day=1000,
            avg_input_tokens=300,
            avg_output_tokens=150,
            load_pattern="steady",
            schedule="always",
        ),
    )
    assert next(g for g in with_load.gpus if g.gpu == "rtx-5090").replicas == 1


def test_memo_shows_the_chain_from_load_to_cost() -> None:
    text = (
        CliRunner()
        .invoke(
            main, ["recommend", str(REPO_ROOT / "examples" / "public-chat.yaml"), "--as-of", "2026-11-30"]
        )
        .output
    )
    load = text.index("## Load and capacity")
    assert "requests/s on average" in text[load:]
    assert (
        "one replica carries the peak: 2 GPUs in all, at 42 % utilization, $2,774 per month." in text[load:]
    )
    assert "| Utilization | 42 % (derived from the load) |" in text
    assert "Accuracy: the throughput estimate" in text


def test_a_31_day_month_never_makes_an_owned_node_busier_than_always() -> None:
    # 744 paid hours of full use against the server's 730 calendar hours came to 102 %.
    on_premises = {**MID_SIZE_1000_PER_MINUTE, "on_premises_required": True, "utilization": 1.0}
    assert run({**on_premises, "hours_per_month": 744}).own_hardware.node_utilization == 1.0
    assert run({**on_premises, "hours_per_month": 365}).own_hardware.node_utilization < 1.0
