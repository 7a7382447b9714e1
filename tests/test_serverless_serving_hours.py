"""Serverless instance-hours by what they are for: an instance serves while a request is in flight on it,
at whatever part of its throughput; the work at full throughput is told apart, not called serving."""

from __future__ import annotations

import math

import pytest
from helpers import EXAMPLES_DIR, read_example, run, run_waves, wave_seconds

from gpu_advisor.engine.present.memo import render_memo


def test_kept_warm_instances_that_share_a_busy_service_serve_every_hour() -> None:
    """The public chat on Modal's B200: two instances kept warm all month (one replica and the spare),
    each with requests in flight in every hour. Their work at full throughput is a sixth of that, which
    the memo says; it does not call the rest idle."""
    r = run(read_example(EXAMPLES_DIR / "public-chat.yaml"))
    so = r.serverless_option
    assert so is not None and so.serverless is not None
    b, row = so.serverless, next(g for g in r.sizing.gpus if g.gpu == so.gpu)
    assert (b.kept_warm, so.replicas, b.instance_gpus) == (True, 2, 1)
    # 2 instances x 730 hours, all billed, all serving.
    assert so.billed_hours_per_month == pytest.approx(2 * 730)
    assert b.busy_hours_per_month == pytest.approx(2 * 730)
    assert b.idle_hours_per_month == pytest.approx(0.0, abs=1e-6)
    # The work: the month's requests (30.42 days of 24 hours, the API section's month) over one
    # instance's estimated requests/s, in hours.
    work = r.load.average_requests_per_second * 30.42 * 24 / row.requests_per_second_per_replica
    assert b.work_hours_per_month == pytest.approx(work)
    # 239.2 hours: each decode step reads 70.55 GB of the 70B's 72.65 GB of FP8 weights (the 16-bit
    # output layer, not the 16-bit embedding, whose rows it only looks up), at 0.86 of the card's
    # bandwidth, and the multiplications run at 0.58 of its FP8 rate; a request's first token comes from
    # its prompt's pass, so it takes 149 decode steps for its 150 tokens. The prefills take most of an
    # instance's time at its full batch of 653 (667 beside 70.55 GB of weights: 238.9 hours).
    assert round(work, 1) == 239.2
    memo = " ".join(render_memo(r).split())
    assert "| Serving requests | 1,460.0 |" in render_memo(r)
    assert (
        "An instance counts as serving while a request is in flight on it, however many: at an instance's "
        "full throughput the month's requests would take 239.2 instance-hours. The difference is throughput "
        "the running instances leave unused: fewer requests in flight than an instance could batch, and the "
        "headroom kept for the busiest minutes and the latency targets."
    ) in memo


def test_a_batch_serves_its_work_and_says_nothing_of_unused_throughput() -> None:
    """A batch's instances run until their share of the work is done: serving hours are their runs, each
    instance's share in waves of as many as it holds, the last one partial, a little over the work at
    full throughput; the memo has no sentence on unused throughput."""
    r = run(read_example(EXAMPLES_DIR / "nightly-batch.yaml"))
    so = r.serverless_option
    assert so is not None and so.serverless is not None and so.hours_per_day_running is not None
    b, row = so.serverless, next(g for g in r.sizing.gpus if g.gpu == so.gpu)
    # Beside the FP8 checkpoint's 75.20 GB (70.22B parameters at 1 byte, the 16-bit embedding and lm_head's
    # 2.49B at 2), a B200's 192 GB x 0.9 less the weights and vLLM's 3.5 GiB leave 93.84 GB: 114.5 requests
    # of 2,500 tokens x 327,680 bytes, 114 at once. A replica's 4.0954 requests/s: 1 / (0.1144 s of prefill
    # + 499 steps of 29.657 ms / 114). 4 one-card instances run 100,000 requests each: 877 full waves of
    # 114 / 4.0954 = 27.84 s and one of 22, 6.7845 hours, on 22 workdays: 597.04 hours. At full throughput
    # the 400,000 would take 596.88: the last wave's 22 take 11.87 s, not 22 / 4.0954 = 5.37 s.
    assert (so.replicas, b.instance_gpus, row.concurrent_requests) == (4, 1, 114)
    assert b.busy_hours_per_month == pytest.approx(4 * so.hours_per_day_running * 22)
    assert round(so.hours_per_day_running, 4) == 6.7845
    rate = row.requests_per_second_per_replica
    assert rate is not None and round(rate, 4) == 4.0954
    assert b.work_hours_per_month == pytest.approx(400_000 / rate / 3600 * 22)
    assert run_waves(400_000, 4, 114) == (877, 22)
    last = wave_seconds(22, "qwen2.5-72b", "fp8", "b200", 1, (2000, 500))
    assert (round(last, 2), round(22 / rate, 2)) == (11.87, 5.37)
    assert so.hours_per_day_running == pytest.approx((877 * 114 / rate + last) / 3600)
    assert b.busy_hours_per_month - b.work_hours_per_month == pytest.approx(
        4 * (last - 22 / rate) / 3600 * 22
    )
    assert (round(b.busy_hours_per_month, 2), round(b.work_hours_per_month, 2)) == (597.04, 596.88)
    assert not math.isclose(so.serverless.busy_hours_per_month, 0.0)
    assert "An instance counts as serving" not in render_memo(r)
