"""A business-critical batch gets a spare replica (SIZ035): one replica more than its window needs, so
that a replica failing during a run leaves the others to finish the day's work in time. The day's work is
fixed, so on an offer billed by the second the spare costs only its daily weight load; the memo says
what the window needs and what the spare is for, and `check` warns of a batch proposal without it."""

from __future__ import annotations

import math
from typing import Any

import pytest
from helpers import invoke, run

from gpu_advisor.engine.present.memo import render_memo

# 600,000 summaries a night within six hours: one replica of 1 × B200 serves about 6.28 requests/s.
NIGHTLY: dict[str, Any] = {
    "name": "nightly-summaries",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 600_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 400,
    "load_pattern": "batch",
    "batch_window_hours": 6,
    "business_critical": True,
}

PROPOSAL = """\
workload:
  name: nightly-summaries
  model: {name: llama-3.1-70b, precision: fp8}
  requests_per_day: 600000
  avg_input_tokens: 1500
  avg_output_tokens: 400
  load_pattern: batch
  batch_window_hours: 6
  business_critical: true
proposal:
  name: five b200 on lambda
  deployment: dedicated_cloud
  provider: lambda
  offer: 8-gpu-plan
  gpu: b200
  gpus: 5
  pricing: on_demand
"""


def flat(text: str) -> str:
    return " ".join(text.split())


def b200_row(workload: dict[str, Any]) -> Any:
    return next(row for row in run(workload).sizing.gpus if row.gpu == "b200")


def test_the_window_s_replicas_and_one_more() -> None:
    """The day's work is 600,000 requests over one replica's rate; the window needs what finishes it in
    6 hours with the estimate's error band taken off, and the spare is one more."""
    r = run(NIGHTLY)
    assert "SIZ035" in r.fired_rules
    row = next(row for row in r.sizing.gpus if row.gpu == "b200")
    work_hours = 600_000 / row.requests_per_second_per_replica / 3600
    window = math.ceil(work_hours * (1 + r.sizing_policy.estimate_error_taken_off) / 6)
    assert window == 5
    assert (row.replicas, row.spare_replicas) == (window + 1, 1)
    # The same work over one replica more: each runs a sixth of it.
    assert row.hours_per_day_running == pytest.approx(work_hours / 6)


def test_no_spare_where_the_batch_is_not_business_critical_or_sets_its_replicas() -> None:
    plain = run({**NIGHTLY, "business_critical": False})
    assert "SIZ035" not in plain.fired_rules
    row = next(row for row in plain.sizing.gpus if row.gpu == "b200")
    assert (row.replicas, row.spare_replicas) == (5, 0)
    own = run({**NIGHTLY, "min_replicas": 5})
    assert "SIZ035" not in own.fired_rules
    row = next(row for row in own.sizing.gpus if row.gpu == "b200")
    assert (row.replicas, row.spare_replicas) == (5, 0)


def test_billed_by_the_second_the_spare_costs_its_daily_weight_load() -> None:
    """RunPod's community B200 at $5.98 an hour, billed by the second: six replicas run the same work as
    five, each loading the 16-bit checkpoint (140 GB at 2.5 GB/s, 56 s) before its run and each run's
    seconds rounded up, so the spare adds about one weight load a day and nothing else."""
    spare, lean = run(NIGHTLY), run({**NIGHTLY, "business_critical": False})
    assert spare.sizing.sixteen_bit_checkpoint_gb == 140.0
    work_hours = (
        600_000 / next(g for g in spare.sizing.gpus if g.gpu == "b200").requests_per_second_per_replica / 3600
    )

    def runpod(r: Any) -> Any:
        return next(o for o in r.options if (o.provider, o.offer, o.gpu) == ("runpod", "community", "b200"))

    def bill(replicas: int) -> float:
        seconds_a_day = math.ceil((work_hours / replicas + 140.0 / 2.5 / 3600) * 3600)
        return replicas * 5.98 * 30.42 * seconds_a_day / 3600

    with_spare, without = runpod(spare), runpod(lean)
    assert (with_spare.replicas, without.replicas) == (6, 5)
    assert with_spare.usd_per_month == pytest.approx(bill(6))
    assert without.usd_per_month == pytest.approx(bill(5))
    # $2.93 a month: 30.42 weight loads of 56 s at $5.98 an hour, and the seconds rounded up.
    assert with_spare.usd_per_month - without.usd_per_month == pytest.approx(2.93, abs=0.005)


def test_the_memo_says_what_the_window_needs_and_what_the_spare_is_for() -> None:
    """Lambda's B200 comes as an 8-card instance: the run uses all 8 replicas, the spare among them, and
    costs nothing more than the same instance without it (no spare cost is named)."""
    r = run(NIGHTLY)
    best = r.best_option
    assert best is not None and (best.provider, best.offer, best.replicas, best.spare_replicas) == (
        "lambda",
        "8-gpu-plan",
        8,
        1,
    )
    assert best.spare_usd_per_month is None
    memo = flat(render_memo(r))
    assert (
        "The window needs 5 replicas, the sizing table counts 6, spares included; lambda 8-gpu-plan bills "
        "whole instances, 8 cards here, and the run uses every replica they hold, so it finishes sooner on "
        "the cards it pays for. The count includes the spare the rules add (SIZ035): should a replica fail "
        "during a run, the others still finish the day's work within the window."
    ) in memo
    assert "pays for the spare replica" not in memo


def test_a_stated_minimum_above_the_window_s_need_is_named_as_the_workload_s() -> None:
    memo = flat(render_memo(run({**NIGHTLY, "business_critical": False, "min_replicas": 6})))
    assert (
        "6 replicas do a run's work in 4.4 hours each, 74 % of the window; the count keeps the window even "
        "if the estimate is +7 % too high. 6 GPUs in all. "
        "The workload's min_replicas (6) runs one replica beyond the window's need: should a replica fail "
        "during a run, the others still finish the day's work within the window."
    ) in memo


def test_check_warns_of_a_batch_proposal_without_the_spare(tmp_path: Any) -> None:
    path = tmp_path / "proposal.yaml"
    path.write_text(PROPOSAL, encoding="utf-8")
    result = invoke("check", str(path), "--as-of", "2026-11-30")
    assert (
        "SIZ012 No spare replica for a workload that needs one 5 × b200 finish the day's work within its "
        "window, but the workload needs 6 cards of this GPU: the spare replica the rules add for a "
        "business-critical batch (SIZ035), or the workload's own min_replicas. A card that fails during a "
        "run takes its replica down, and the run ends late."
    ) in flat(result.output)
