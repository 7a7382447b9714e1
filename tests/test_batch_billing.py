"""A batch on dedicated GPUs is billed for the hours it runs, as each offer bills them: its billing
increment (per second, per minute, whole hours where it publishes none), spot's rework, a reservation's
calendar hours; the batch window within the schedule and the paid hours. Figures worked out by hand."""

from __future__ import annotations

import math

import pytest
from helpers import EXAMPLES_DIR, read_example, run, run_waves, wave_seconds

from gpu_advisor.engine.calc.costs import BatchRun, billed_hours, running_hours_billed
from gpu_advisor.engine.calc.load import batch_window
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo


def test_a_days_run_is_billed_to_the_offers_increment() -> None:
    hours = 2.3456  # 2 h 20 min 44.16 s
    assert running_hours_billed(hours, 1) == pytest.approx(8445 / 3600)  # per second: 8,444.16 s -> 8,445
    assert running_hours_billed(hours, 60) == pytest.approx(141 / 60)  # per minute: 140.7 -> 141
    assert running_hours_billed(hours, None) == 3  # no published increment: whole hours
    assert running_hours_billed(5.0 + 1e-12, None) == 5  # a float's noise is no extra hour
    assert running_hours_billed(1e-12, 1) == 1 / 3600  # a run of a moment is one increment


def test_batch_hours_on_hourly_spot_and_reserved_offers() -> None:
    knowledge = load_knowledge()
    offers = {o.key: o for o in knowledge.offers.offers}
    run_ = BatchRun(hours_per_day=2.3456, days_per_month=22)
    lambda_ = offers["lambda/on-demand/h100-sxm"]  # per minute
    assert billed_hours(lambda_, 176, 730, run_, 0.05) == pytest.approx(141 / 60 * 22)
    spot = offers["vast/spot/h100-pcie"]  # per second, plus 5 % redone after interruptions
    assert billed_hours(spot, 176, 730, run_, 0.05) == pytest.approx(8445 / 3600 * 22 * 1.05)
    gmi = offers["gmi/on-demand/h100-sxm"]  # no published increment
    assert billed_hours(gmi, 176, 730, run_, 0.05) == 3 * 22
    reserved = offers["aws/p5-reserved-3y/h100-sxm"]
    assert billed_hours(reserved, 176, 730, run_, 0.05) == 730  # every calendar hour
    assert billed_hours(gmi, 176, 730, None, 0.05) == 176  # a service: the paid hours


def test_a_batch_window_is_cut_by_the_schedule_and_the_paid_hours() -> None:
    office = load_knowledge().schedule("office_hours")  # 8 hours on 22 days
    assert batch_window(office, 176, 10) == 8
    assert batch_window(office, 88, 10) == 4  # 88 paid hours on 22 days
    assert batch_window(load_knowledge().schedule("always"), 730, 6) == 6


def test_a_nightly_batch_is_priced_for_the_hours_it_runs() -> None:
    # 300,000 requests a night for a 70B FP8 model, within the default 8-hour window from 0:00.
    result = run(
        {
            "name": "nightly",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 300_000,
            "load_pattern": "batch",
        }
    )
    best = result.best_option
    plan = next(g for g in result.sizing.gpus if g.gpu == best.gpu)
    # One replica of 1 × B200 holds 653 of these requests (300 tokens in, 150 out) at once: 192 GB x 0.9
    # less the FP8 checkpoint's 72.65 GB (68.45B parameters x 1 byte and the 16-bit embedding and lm_head,
    # 2 x 128,256 x 8,192 x 2 bytes) and vLLM's 3.5 GiB leave 96.39 GB, 653.7 requests of 450 tokens x
    # 327,680 bytes. The night's 300,000 take 459 full waves of 18.484 s (653 over the replica's 35.329
    # requests/s) and one of 273, 8.512 s: 8,492.5 s, 2.359 hours.
    rate = plan.requests_per_second_per_replica
    assert (best.replicas, plan.concurrent_requests, round(rate, 3)) == (1, 653, 35.329)
    assert run_waves(300_000, 1, 653) == (459, 273)
    last = wave_seconds(273, "llama-3.1-70b", "fp8", "b200", 1, (300, 150))
    assert round(last, 3) == 8.512
    hours = (459 * 653 / rate + last) / 3600
    assert best.hours_per_day_running == pytest.approx(hours) == pytest.approx(2.359, abs=5e-4)
    assert hours < 8
    # Batch prefers spot (PRC001) where it costs no more; here RunPod's B200 on demand, billed per second,
    # runs the night's work on one card for less than any spot offer.
    assert (best.provider, best.offer, best.gpu, best.pricing) == ("runpod", "community", "b200", "on_demand")
    # Each run bills its hours and the weights' load at its start, by the second: the 16-bit checkpoint vLLM
    # quantizes to FP8 as it loads it, 70.55 billion parameters in 141.1 GB at 2.5 GB/s: 56.44 s; and vLLM's
    # own start beyond it, 21.8 s at best (knowledge/throughput.yaml).
    load = 141.1 / 2.5 + 21.8
    assert best.billed_hours_per_month == pytest.approx(math.ceil(hours * 3600 + load) / 3600 * 30.42)
    spot = [o for o in result.options if o.pricing == "spot" and not o.excluded_by]
    assert spot and all(o.usd_per_month > best.usd_per_month for o in spot)
    p5_spot = next(o for o in spot if (o.provider, o.offer) == ("aws", "p5-spot"))
    # P5 spot is sold as 8-GPU instances, which hold four 2-card replicas: the batch runs on all four.
    assert (p5_spot.gpus, p5_spot.gpus_rented, p5_spot.replicas) == (8, 8, 4)
    overhead = 1 + result.spot_interruption_overhead
    assert p5_spot.billed_hours_per_month == pytest.approx(
        math.ceil(p5_spot.hours_per_day_running * 3600 + load) / 3600 * 30.42 * overhead
    )
    assert best.usd_per_month == pytest.approx(best.usd_per_hour * best.billed_hours_per_month)
    assert best.billed_hours_per_month < 100  # not 730 hours a month
    assert result.load.busy_share == round(hours * 30.42 / 730, 3)  # stated to 0.1 %
    # About 5.2 GPU-hours a night on one H200: 141 GiB x 0.9 less 72.65 GB and 3.5 GiB leave 59.85 GB, 405.9
    # requests of 147.456 MB: 405 at once, 16.118 requests/s, the night's 300,000 in 740 full waves of
    # 25.127 s and one of 300, 18.998 s: 18,612.7 s, 5.170 hours, and 78.2 s for the weights' load and
    # vLLM's start; some 158 hours a month ((5.170 + 0.022) x 30.42), about $567 at RunPod's 3.59 per hour:
    # not 730 hours.
    h200 = next(o for o in result.options if (o.provider, o.offer, o.gpu) == ("runpod", "community", "h200"))
    h200_plan = next(g for g in result.sizing.gpus if g.gpu == "h200")
    h200_rate = h200_plan.requests_per_second_per_replica
    assert (h200_plan.concurrent_requests, round(h200_rate, 3)) == (405, 16.118)
    assert run_waves(300_000, 1, 405) == (740, 300)
    h200_last = wave_seconds(300, "llama-3.1-70b", "fp8", "h200", 1, (300, 150))
    night = (740 * 405 / h200_rate + h200_last) / 3600
    assert h200.gpus == 1 and h200.hours_per_day_running == pytest.approx(night)
    assert (round(h200_last, 3), round(night * 3600, 1)) == (18.998, 18_612.7)
    # The run's 18,612.7 s and the start's 78.24 s bill 18,691 s.
    assert h200.billed_hours_per_month == pytest.approx(math.ceil(night * 3600 + load) / 3600 * 30.42)
    assert math.ceil(night * 3600 + load) == 18_691
    assert h200.usd_per_month == pytest.approx(3.59 * h200.billed_hours_per_month)
    assert h200.usd_per_month == pytest.approx(3.59 * (5.170 + 78 / 3600) * 30.42, abs=1)
    assert h200.usd_per_month == pytest.approx(567, abs=1)


DE_EXTRACTION = {
    "name": "de-doc-extract",
    "model": {"name": "qwen2.5-72b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 3_000,
    "avg_output_tokens": 600,
    "load_pattern": "batch",
    "schedule": "workdays",
    "batch_window_hours": 4,
    "personal_data": True,
    "company_country": "DE",
}
"""A German document-extraction batch on personal data (a walkthrough's workload)."""


def test_a_run_on_every_replica_its_whole_instances_hold_says_why_it_has_more() -> None:
    """A German document-extraction batch (72B in FP8, 60,000 requests in a 4-hour window): the window
    needs 3 replicas of 2 H100, the sizing table's count; Scaleway bills its 8-card instance whole, and
    the run uses all 4 replicas it holds. The memo says why its Load section counts 4 and the table 3."""
    r = run(DE_EXTRACTION)
    best = r.best_option
    row = next(g for g in r.sizing.gpus if g.gpu == "h100-sxm")
    assert best is not None and (best.provider, best.offer, best.replicas, best.gpus_rented) == (
        "scaleway",
        "h100-sxm-8-80g",
        4,
        8,
    )
    assert row.replicas == 3
    assert (
        "The window needs 3 replicas (the sizing table's count); scaleway h100-sxm-8-80g bills whole "
        "instances, 8 cards here, and the run uses every replica they hold, so it finishes sooner on the "
        "cards it pays for."
    ) in " ".join(render_memo(r).split())


def test_a_batch_whose_spot_offers_are_all_excluded_says_why_it_runs_on_another_pricing() -> None:
    """PRC001 prefers spot for a batch; a German company's personal data excludes every spot offer of
    the catalog (RES001: none runs in the EU), and the options section says so; PRV005, which advises
    batch on spot, stays silent. The Swiss nightly batch
    without personal data keeps admitted spot offers: nothing is said."""
    r = run(DE_EXTRACTION)
    assert "PRC001" in r.fired_rules
    # Nor is the batch told it is the spot part of a multi-provider strategy (PRV005).
    assert "PRV005" not in r.fired_rules
    spot = [o for o in r.options if o.pricing == "spot"]
    assert spot and all("RES001" in o.excluded_by for o in spot)
    assert (
        "PRC001 prefers spot for this batch, but every spot offer is excluded for it (NET001, NET003, "
        "RES001), so it runs on another pricing."
    ) in " ".join(render_memo(r).split())
    nightly = run(read_example(EXAMPLES_DIR / "nightly-batch.yaml"))
    assert "PRC001" in nightly.fired_rules and "PRV005" in nightly.fired_rules
    assert any(o.pricing == "spot" and not o.excluded_by for o in nightly.options)
    assert "PRC001 prefers spot" not in render_memo(nightly)
