"""An option's busy share is read on its own plan: a batch's options may run more replicas than their
GPU's sizing plan (whole instances) for fewer hours, and the share of the paid hours they run is theirs.
A business-critical nightly batch on Lambda's 8-card B200 instance ran 8 replicas for 1.88 hours a day
while the JSON said 31.3 %, the 4-replica sizing plan's 3.76 hours over the 12 paid hours."""

from __future__ import annotations

import pytest
from helpers import run, run_waves, wave_seconds

BATCH = {
    "name": "business-critical-batch",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 300_000,
    "avg_input_tokens": 2000,
    "avg_output_tokens": 300,
    "load_pattern": "batch",
    "schedule": "workdays",
    "batch_window_hours": 6,
    "business_critical": True,
    "company_country": "DE",
}


def test_a_batch_option_s_busy_share_is_its_own_running_hours_over_the_paid_hours() -> None:
    result = run(BATCH)
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.replicas) == ("lambda", "8-gpu-plan", 16)
    # 22 workdays of 12 paid hours: 264 hours; 16 replicas on two instances (a lost one leaves the
    # window's, SIZ038) run 0.949 hours a day (18,750 requests each, 130 at once: 144 full waves of 23.672 s,
    # 130 over a B200 replica's 5.492 requests/s, with the exact 70.55 GB of weights, 299 decode steps a
    # request as its prompt's pass yields the first of its 300 tokens, each step reading at 0.86 of the
    # bandwidth, and one wave of 30, 9.07 s): 20.9 / 264 = 7.9 %, the Load section's figure.
    row = next(g for g in result.sizing.gpus if g.gpu == "b200")
    assert row.requests_per_second_per_replica is not None
    assert (row.cards_per_replica, round(row.requests_per_second_per_replica, 3)) == (1, 5.492)
    assert (row.concurrent_requests, run_waves(300_000, 16, 130)) == (130, (144, 30))
    last = wave_seconds(30, "llama-3.1-70b", "fp8", "b200", 1, (2000, 300))
    assert round(last, 2) == 9.07
    assert best.hours_per_day_running == pytest.approx(
        (144 * 130 / row.requests_per_second_per_replica + last) / 3600
    )
    assert best.hours_per_day_running is not None and round(best.hours_per_day_running, 3) == 0.949
    assert best.busy_share == 0.079 == result.load.busy_share
    for option in result.options:
        if option.serverless is None and option.hours_per_day_running is not None:
            assert option.busy_share == round(option.hours_per_day_running * 22 / 264, 3), option
    four = next(o for o in result.options if (o.provider, o.gpu) == ("runpod", "b200"))
    # RunPod's 4 replicas run 75,000 requests each, 576 full waves and one of 120: 3.794 hours a day, 31.6 %.
    assert run_waves(300_000, 4, 130) == (576, 120)
    four_run = 576 * 130 / row.requests_per_second_per_replica
    four_run += wave_seconds(120, "llama-3.1-70b", "fp8", "b200", 1, (2000, 300))
    assert four.hours_per_day_running == pytest.approx(four_run / 3600)
    assert round(four_run / 3600, 3) == 3.794
    assert (four.replicas, four.busy_share) == (4, 0.316)


def test_a_service_option_s_busy_share_is_its_gpu_s() -> None:
    """A request in flight on any replica does not depend on how many replicas there are: every option
    of one GPU reads the same share."""
    result = run({**BATCH, "load_pattern": "steady", "batch_window_hours": None, "schedule": "always"})
    shares = {o.busy_share for o in result.options if o.gpu == "h100-sxm" and o.serverless is None}
    assert len(shares) == 1
