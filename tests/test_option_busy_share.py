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
    # window's, SIZ038) run 0.953 hours a day. The FP8 checkpoint holds 68.45B parameters x 1 byte and the
    # 16-bit embedding and lm_head, 2 x 128,256 x 8,192 x 2 bytes: 72.65 GB. A B200's 192 GB x 0.9 less
    # that and vLLM's 3.5 GiB leave 96.39 GB, 127.9 requests of 2,300 tokens x 327,680 bytes: 127 at once.
    # Each replica runs 18,750 requests: 147 full waves of 23.224 s (127 over the replica's 5.468
    # requests/s, 299 decode steps a request as its prompt's pass yields the first of its 300 tokens, each
    # step reading at 0.86 of the bandwidth) and one wave of 81, 16.43 s: 3,430.4 s. 20.96 / 264 = 7.9 %,
    # the Load section's figure.
    row = next(g for g in result.sizing.gpus if g.gpu == "b200")
    assert row.requests_per_second_per_replica is not None
    assert (row.cards_per_replica, round(row.requests_per_second_per_replica, 3)) == (1, 5.468)
    assert (row.concurrent_requests, run_waves(300_000, 16, 127)) == (127, (147, 81))
    last = wave_seconds(81, "llama-3.1-70b", "fp8", "b200", 1, (2000, 300))
    assert round(last, 2) == 16.43
    assert best.hours_per_day_running == pytest.approx(
        (147 * 127 / row.requests_per_second_per_replica + last) / 3600
    )
    assert best.hours_per_day_running is not None and round(best.hours_per_day_running, 3) == 0.953
    assert best.busy_share == 0.079 == result.load.busy_share
    for option in result.options:
        if option.serverless is None and option.hours_per_day_running is not None:
            assert option.busy_share == round(option.hours_per_day_running * 22 / 264, 3), option
    four = next(o for o in result.options if (o.provider, o.gpu) == ("runpod", "b200"))
    # RunPod's 4 replicas run 75,000 requests each, 590 full waves and one of 70 (14.83 s): 13,717.2 s,
    # 3.810 hours a day, x 22 / 264 = 31.75 %, 31.8 %.
    assert run_waves(300_000, 4, 127) == (590, 70)
    four_run = 590 * 127 / row.requests_per_second_per_replica
    four_run += wave_seconds(70, "llama-3.1-70b", "fp8", "b200", 1, (2000, 300))
    assert four.hours_per_day_running == pytest.approx(four_run / 3600)
    assert round(four_run / 3600, 3) == 3.810
    assert (four.replicas, four.busy_share) == (4, 0.318)


def test_a_service_option_s_busy_share_is_its_gpu_s() -> None:
    """A request in flight on any replica does not depend on how many replicas there are: every option
    of one GPU reads the same share."""
    result = run({**BATCH, "load_pattern": "steady", "batch_window_hours": None, "schedule": "always"})
    shares = {o.busy_share for o in result.options if o.gpu == "h100-sxm" and o.serverless is None}
    assert len(shares) == 1
