"""Serverless instance-hours by what they are for: an instance serves while a request is in flight on it,
at whatever part of its throughput; the work at full throughput is told apart, not called serving."""

from __future__ import annotations

import math

import pytest
from helpers import EXAMPLES_DIR, read_example, run

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
    # 238.9 hours: each decode step reads the 70B's exact 70.55 GB of FP8 weights, at 0.86 of the card's
    # bandwidth, and the multiplications run at 0.58 of its FP8 rate; a request's first token comes from
    # its prompt's pass, so it takes 149 decode steps for its 150 tokens (239.3 hours at 150 steps and
    # 0.87, 238.6 at 149 and 0.87). The prefills take 57 % of an instance's time at its full batch of
    # 667, so the step fewer saves 0.3 % of the hours, not 1/150.
    assert round(work, 1) == 238.9
    memo = " ".join(render_memo(r).split())
    assert "| Serving requests | 1,460.0 |" in render_memo(r)
    assert (
        "An instance counts as serving while a request is in flight on it, however many: at an instance's "
        "full throughput the month's requests would take 238.9 instance-hours. The difference is throughput "
        "the running instances leave unused: fewer requests in flight than an instance could batch, and the "
        "headroom kept for the busiest minutes and the latency targets."
    ) in memo


def test_a_batch_serves_its_work_and_says_nothing_of_unused_throughput() -> None:
    """A batch's instances run at full throughput until the work is done: serving hours are the work,
    and the memo has no sentence on the difference."""
    r = run(read_example(EXAMPLES_DIR / "nightly-batch.yaml"))
    so = r.serverless_option
    assert so is not None and so.serverless is not None
    assert so.serverless.busy_hours_per_month == pytest.approx(so.serverless.work_hours_per_month)
    assert not math.isclose(so.serverless.busy_hours_per_month, 0.0)
    assert "An instance counts as serving" not in render_memo(r)
