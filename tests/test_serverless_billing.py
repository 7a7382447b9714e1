"""How serverless products bill, with the figures worked out by hand here: instance-hours scaling to zero,
kept warm, scaling between hours, and a batch (the day's traffic and the busy share: test_billing.py)."""

from __future__ import annotations

import math

import pytest
from helpers import run

from gpu_advisor.engine.calc.policy import Sizing
from gpu_advisor.engine.calc.serverless_hours import (
    HourDemand,
    batch_month,
    hourly_demand,
    service_month,
    single_instance_hour,
)
from gpu_advisor.engine.calc.traffic import ServiceTime, daily_traffic
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.knowledge.serving import ServerlessProduct
from gpu_advisor.engine.domain.load import Load

FLAT = (1.0,) * 24
SIZING = Sizing(capacity_share=0.5, batch_capacity_share=1.0, spare_replicas=0, min_replicas=1)
SIZING_FULL = Sizing(capacity_share=1.0, batch_capacity_share=1.0, spare_replicas=0, min_replicas=1)


def product(idle: float = 60, start: float = 1, increment: int = 1) -> ServerlessProduct:
    return ServerlessProduct.model_validate(
        {
            "id": "test",
            "provider": "modal",
            "name": "test product",
            "billing_increment_seconds": increment,
            "idle_timeout_seconds": idle,
            "start_seconds": start,
            "start_source": "https://example.org/cold-starts",
            "regions": [{"region": "global", "price_multiplier": 1.0}],
            "gpus": [{"gpu": "h100-sxm", "usd_per_gpu_hour": 4.0, "instance_gpus": [1]}],
            "source": "https://example.org/pricing",
            "as_of": "2026-11-30",
        }
    )


def flat_load(average_rps: float, hours: float = 24.0, batch: bool = False) -> Load:
    return Load(
        hours_per_day=hours,
        average_requests_per_second=average_rps,
        peak_factor=1.0,
        peak_requests_per_second=average_rps,
        peak_output_tokens_per_second=0.0,
        peak_input_tokens_per_second=0.0,
        schedule_hours_per_month=730.0,
        calendar_hours_per_month=730.0,
        served_in_paid_hours=batch,
        served_share_of_paid_hours=1.0,
        paid_hours_per_month=730.0,
        served_hours_per_month=730.0,
        busiest_hour_requests_per_second=average_rps,
        peak_within_hour=1.0,
        first_hour=0,
        profile=(average_rps,) * 24,
        profile_source="load_pattern",
    )


# --- serverless ---------------------------------------------------------------------------------------


def test_scale_to_zero_bills_busy_time_idle_tails_and_cold_starts() -> None:
    # 0.01 requests/s around the clock, 2 s each, a 60 s idle timeout, a 9 s cold start, per-second
    # billing (half a second of rounding per start). An up period lasts U = 9 + (e^0.62 - 1) / 0.01 =
    # 94.89 s, a down period 100 s on average: the instance is up 94.89 / 194.89 = 48.69 % of the time and
    # starts 0.01 / 1.9489 = 0.005131 times a second, 18.47 times an hour.
    service = ServiceTime.constant(2.0, replicas=1)
    demand = hourly_demand(
        daily_traffic(FLAT, 0, 24), flat_load(0.01), service, 100.0, 100.0 * SIZING.capacity_share
    )
    month = service_month(demand, product(), 9.0, 30.0, 0, None)
    up_period = 9 + math.expm1(0.62) / 0.01
    assert up_period == pytest.approx(94.89, abs=0.01)
    starts = 0.01 / (1 + 0.01 * up_period)
    billed = 0.01 * up_period / (1 + 0.01 * up_period) + starts * 0.5
    assert month.busy == pytest.approx((1 - math.exp(-0.02)) * 24 * 30)
    assert month.cold == pytest.approx(starts * 9 * 24 * 30)
    assert month.busy + month.idle + month.cold == pytest.approx(billed * 24 * 30)
    assert month.busy + month.idle + month.cold == pytest.approx(352.4, abs=0.1)
    assert month.starts == pytest.approx(starts * 3600 * 24 * 30)
    assert month.starts / (24 * 30) == pytest.approx(18.47, abs=0.01)
    assert month.kept == 0


def test_a_busier_hour_runs_the_instances_its_busiest_minutes_need() -> None:
    # 3 requests/s on instances carrying 1 request/s at the headroom target, with a burst of 1.27:
    # 3.81 instances are needed, so 4 run all hour, and a rule's spare makes 5.
    service = ServiceTime.constant(2.0, replicas=1)
    load = flat_load(3.0).model_copy(update={"peak_within_hour": 1.27})
    demand = hourly_demand(daily_traffic(FLAT, 0, 24), load, service, 2.0, 2.0 * SIZING.capacity_share)
    assert demand[0].needed == pytest.approx(3.81)
    assert service_month(demand, product(), 9.0, 30.0, 0, None).idle + service_month(
        demand, product(), 9.0, 30.0, 0, None
    ).busy == pytest.approx(4 * 24 * 30)
    spared = service_month(demand, product(), 9.0, 30.0, 1, None)
    assert spared.busy + spared.idle == pytest.approx(5 * 24 * 30)
    # The work is 1.5 instances' throughput, but the 5 instances share the 3 requests/s: each sees 0.6
    # a second, 2 s each, and has a request in flight 1 - e^-1.2 = 69.9 % of the hour. An instance at
    # part of its throughput serves all the while: 3.49 of the 5 instance-hours an hour serve requests.
    assert spared.busy == pytest.approx(5 * -math.expm1(-1.2) * 24 * 30)
    assert spared.busy == pytest.approx(2515.7, abs=0.1)
    assert spared.starts == 0


def test_warm_instances_are_billed_every_hour_of_the_month() -> None:
    # Two instances kept for the month's 730 hours; office-hours traffic at 0.5 requests/s needs half an
    # instance: nothing beyond the two.
    service = ServiceTime.constant(2.0, replicas=1)
    office = daily_traffic(FLAT, 9, 8)
    demand = hourly_demand(office, flat_load(0.5, hours=8), service, 1.0, SIZING_FULL.capacity_share)
    month = service_month(demand, product(), 9.0, 22.0, 0, (2, 730.0))
    assert month.kept == 1460
    assert month.busy + month.idle + month.cold == pytest.approx(1460)
    # The two kept instances share the 0.5 requests/s: each is busy 1 - e^(-0.25 x 2) of an office hour.
    assert month.busy == pytest.approx(2 * (1 - math.exp(-0.5)) * 8 * 22)
    assert month.cold == 0 and month.starts == 0
    # At 3 requests/s an instance carries 1 request/s: three run in the office hours, one beyond the two.
    # It starts at 9:00 (a 9 s cold start within its first hour) and, stopped at 17:00, waits out the
    # 60 s idle timeout and half a second of rounding, billed: 22 days of each.
    busy = hourly_demand(office, flat_load(3.0, hours=8), service, 1.0, SIZING_FULL.capacity_share)
    month = service_month(busy, product(), 9.0, 22.0, 0, (2, 730.0))
    assert month.scale_ups == pytest.approx(22) and month.starts == 0
    assert month.cold == pytest.approx(22 * 9 / 3600)
    assert month.busy + month.idle + month.cold == pytest.approx(1460 + 1 * 8 * 22 + 22 * 60.5 / 3600)


def test_instances_kept_for_the_schedules_hours_stop_and_start_each_served_day() -> None:
    """Two instances kept for office hours only (176 of the month's hours): with the minimum set to zero
    after 17:00, each runs out the 60 s idle timeout (and half a second of rounding) before it scales to
    zero, and starts again before 9:00 (a 9 s cold start), both billed, on each of the 22 days."""
    service = ServiceTime.constant(2.0, replicas=1)
    office = daily_traffic(FLAT, 9, 8)
    demand = hourly_demand(office, flat_load(0.5, hours=8), service, 1.0, SIZING_FULL.capacity_share)
    month = service_month(demand, product(), 9.0, 22.0, 0, (2, 176.0), restarts_daily=True)
    assert month.kept == 352 and month.kept_restarts == 44 and month.starts == 0
    assert month.cold == pytest.approx(44 * 9 / 3600)
    assert month.busy + month.idle + month.cold == pytest.approx(352 + 44 * (9 + 60.5) / 3600)
    # The autoscaler stops all but the last after its scale-down time (here 20 s), the last after the
    # idle timeout: 20 + 60 s and a second of rounding a day.
    shorter = product().model_copy(update={"scale_down_seconds": 20.0})
    scaled = service_month(demand, shorter, 9.0, 22.0, 0, (2, 176.0), restarts_daily=True)
    assert scaled.busy + scaled.idle + scaled.cold == pytest.approx(352 + 22 * (2 * 9 + 20 + 60 + 1) / 3600)
    # Paused at the schedule's end (Hugging Face), they stop at once: the starts and the rounding only.
    paused = product().model_copy(update={"paused_at_once": {"url": "https://example.org/pause"}})
    stopped = service_month(demand, paused, 9.0, 22.0, 0, (2, 176.0), restarts_daily=True)
    assert stopped.busy + stopped.idle + stopped.cold == pytest.approx(352 + 22 * (2 * 9 + 1) / 3600)
    # Kept for every hour of the month, they never stop: nothing beyond the kept hours.
    around = service_month(demand, product(), 9.0, 22.0, 0, (2, 730.0))
    assert around.kept_restarts == 0 and around.busy + around.idle + around.cold == pytest.approx(1460)


def test_a_schedules_kept_instances_restarts_are_in_the_memo() -> None:
    """The workdays schedule (12 hours on 22 days) keeps two RunPod instances warm for the HR assistant:
    each is billed a restart and the idle timeout after each day, which the table counts and the memo
    says."""
    from helpers import EVALUATED_ON, EXAMPLES_DIR

    from gpu_advisor.api import load_workload, recommend
    from gpu_advisor.engine.present.memo import render_memo

    result = recommend(load_workload(str(EXAMPLES_DIR / "hr-assistant.yaml")), EVALUATED_ON)
    assert result.serverless_option is not None
    billing = result.serverless_option.serverless
    assert billing.kept_warm and billing.kept_restarts_per_month == 44
    memo = " ".join(render_memo(result).split())
    assert "| Cold starts (44 starts of the kept instances before the served days) |" in memo
    # A restart: RunPod's 2.3 s start, the 70B's FP8 checkpoint (68.45B parameters at 1 byte and the
    # 16-bit embedding and lm_head, 2 x 128,256 x 8,192 x 2 bytes: 72.65 GB) at 2.5 GB/s, 29.06 s, and
    # vLLM's 21.8 s start: 53.16 s, shown as 53.2 s.
    assert billing.cold_start_seconds == pytest.approx(2.3 + 72.651346 / 2.5 + 21.8)
    assert (
        "So, every served day, the kept instances run on after the last request as the product scales to "
        "zero (the last 5 s, the others its scale-down time) and start again before the next day's first "
        "hour (at least 53.2 s): both are billed, in the table above." in memo
    )


def test_instances_added_for_busier_hours_start_cold_and_removed_ones_wait_out_the_timeout() -> None:
    # Around the clock: 2 instances from midnight to noon, 4 from noon to midnight. At 12:00 two start
    # (a 9 s cold start each, within the hour they run); at 0:00 two stop after the 60 s idle timeout and
    # half a second of rounding, billed. 30 days.
    demand = tuple(
        HourDemand(served=1.0, rate=1.0, seconds=2.0, busy=1.0, needed=1.5 if hour < 12 else 3.5, hour=hour)
        for hour in range(24)
    )
    month = service_month(demand, product(), 9.0, 30.0, 0, None)
    # Added while two serve: no request waits for them, so they are no starts from zero.
    assert month.scale_ups == pytest.approx(2 * 30) and month.starts == 0
    assert month.cold == pytest.approx(2 * 9 / 3600 * 30)
    assert month.busy + month.idle + month.cold == pytest.approx(
        (2 * 12 + 4 * 12) * 30 + 2 * 60.5 / 3600 * 30
    )
    # The same instances every hour: nothing starts or stops.
    flat = tuple(d._replace(needed=1.5) for d in demand)
    steady = service_month(flat, product(), 9.0, 30.0, 0, None)
    assert steady.starts == steady.scale_ups == steady.cold == 0
    assert steady.busy + steady.idle == pytest.approx(2 * 24 * 30)


def test_an_hour_one_instance_carries_counts_as_one_running_between_busier_hours() -> None:
    # 0.5 instances needed until noon (one instance, scaling to zero between requests), 3.5 after: at
    # 12:00 three are added to the one, at midnight three stop. The one instance's own starts from zero
    # are the scale-to-zero model's, not steps.
    demand = tuple(
        HourDemand(served=1.0, rate=0.01, seconds=2.0, busy=0.02, needed=0.5 if hour < 12 else 3.5, hour=hour)
        for hour in range(24)
    )
    month = service_month(demand, product(), 9.0, 30.0, 0, None)
    assert month.scale_ups == pytest.approx(3 * 30)
    _, per_second = single_instance_hour(0.01, 2.0, 60, 9.0)
    assert month.starts == pytest.approx(per_second * 3600 * 12 * 30)


def test_a_product_whose_autoscaler_removes_instances_on_its_own_clock_bills_that_tail() -> None:
    # As above, on a product with a one-hour idle timeout (to zero) and 300 s to remove an instance while
    # others serve (Hugging Face): the two stopped at midnight run on 300 s and half a second each.
    demand = tuple(
        HourDemand(served=1.0, rate=1.0, seconds=2.0, busy=1.0, needed=1.5 if hour < 12 else 3.5, hour=hour)
        for hour in range(24)
    )
    hugging_face = product(idle=3600).model_copy(update={"scale_down_seconds": 300.0})
    month = service_month(demand, hugging_face, 9.0, 30.0, 0, None)
    assert month.busy + month.idle + month.cold == pytest.approx(
        (2 * 12 + 4 * 12) * 30 + 2 * 300.5 / 3600 * 30
    )
    with pytest.raises(ValueError, match="scale_down_seconds needs a scale_down_source"):
        ServerlessProduct.model_validate({**product().model_dump(), "scale_down_seconds": 300})
    with pytest.raises(ValueError, match="managed: true needs a managed_source"):
        ServerlessProduct.model_validate({**product().model_dump(), "managed": True})
    with pytest.raises(ValueError, match="longer_waits_above_gpus and longer_waits_source go together"):
        ServerlessProduct.model_validate({**product().model_dump(), "longer_waits_above_gpus": 2})


def test_a_busy_day_after_none_running_starts_from_zero_and_ends_waiting_out_the_idle_timeout() -> None:
    # Office hours 9 to 17 need 3 instances, no traffic otherwise, on a product with a one-hour idle
    # timeout and 300 s to remove an instance while others serve. At 9:00 the first start is from zero (a
    # request waits for it) and two more are added; at 17:00 two stop after 300 s and the last after the
    # idle timeout, each with half a minute of rounding. 22 days.
    demand = tuple(
        HourDemand(served=1.0, rate=1.0, seconds=2.0, busy=1.0, needed=2.5, hour=hour)
        for hour in range(9, 17)
    )
    product_ = product(idle=3600, increment=60).model_copy(update={"scale_down_seconds": 300.0})
    month = service_month(demand, product_, 9.0, 22.0, 0, None)
    assert month.starts == pytest.approx(22) and month.scale_ups == pytest.approx(2 * 22)
    assert month.scale_downs == pytest.approx(2 * 22)
    assert month.cold == pytest.approx(3 * 9 / 3600 * 22)
    tails = (2 * (300 + 30) + (3600 + 30)) / 3600
    assert month.busy + month.idle + month.cold == pytest.approx((3 * 8 + tails) * 22)


def test_one_instance_that_never_idles_long_enough_still_starts_each_morning_and_waits_each_evening() -> None:
    # Office hours one instance carries, with a request every second or so against a one-hour idle
    # timeout: within the hours it never scales to zero (the steady state counts no start), but it starts
    # from zero at 9:00 and waits out the hour after 17:00, billed, every one of the 22 days.
    demand = tuple(
        HourDemand(served=1.0, rate=1.0, seconds=2.0, busy=0.9, needed=0.5, hour=hour)
        for hour in range(9, 17)
    )
    month = service_month(demand, product(idle=3600, increment=60), 9.0, 22.0, 0, None)
    assert month.starts == pytest.approx(22) and month.scale_ups == 0
    assert month.cold == pytest.approx(9 / 3600 * 22)
    assert month.busy + month.idle + month.cold == pytest.approx((8 + (3600 + 30) / 3600) * 22)


def test_kept_instances_busy_every_hour_have_no_idle_time_not_a_rounding_error_below_zero() -> None:
    # Two instances busy in every tenth of an hour served, one of them kept: 48 kept hours, 48 more, 96
    # busy. Summed in floating point, the idle hours come out at -1.4e-14 unless held at zero.
    demand = tuple(
        HourDemand(served=0.1, rate=1.0, seconds=2.0, busy=2.0, needed=1.5, hour=hour) for hour in range(24)
    )
    month = service_month(demand, product(), 9.0, 20.0, 0, (1, 48.0))
    assert month.busy == pytest.approx(96)
    assert month.idle == 0.0


def test_a_serverless_batch_bills_its_work_and_one_start_a_day_per_instance() -> None:
    # Two instances whose runs take an hour each: 2 instance-hours of work a day; each starts once (9 s)
    # and waits out 60 s and half a second of rounding.
    month = batch_month(2.0, 2, product(), 9.0, 30.0)
    assert month.busy == pytest.approx(2 * 30)
    assert month.cold == pytest.approx(2 * 9 / 3600 * 30)
    assert month.idle == pytest.approx(2 * 60.5 / 3600 * 30)
    assert month.starts == 60


def test_a_sporadic_workload_priced_by_hand() -> None:
    # 40 requests a day, spread evenly over the day, for 70B FP8 own weights on RunPod's H200 flex worker
    # (USD 5.58 an hour, 5 s idle timeout, 2.3 s start plus the 70B's FP8 checkpoint, 68.45B parameters
    # at 1 byte and the 16-bit embedding and lm_head's 2.10B at 2 bytes, 72.65 GB at 2.5 GB/s, 29.06 s,
    # and vLLM's 21.8 s start = 53.16 s cold start, billed per second). Each
    # hour is a renewal process of up periods U = C + (e^(λ(S+T)) - 1) / λ and down periods 1/λ.
    workload = {
        "name": "sporadic",
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 40,
        "load_pattern": "variable",
        "latency_sensitive": False,
        "load_profile": [1.0] * 24,
    }
    result = run(workload)
    chosen = result.serverless_option
    # Its pool of every data centre: at the same price, before the EU data centres (stock unpublished).
    assert (chosen.provider, chosen.offer, chosen.gpu, chosen.regions) == (
        "runpod",
        "serverless",
        "h200",
        ("variable",),
    )
    rate, seconds, cold = 40 / 86_400, result.load.service_seconds_alone, 2.3 + 72.651346 / 2.5 + 21.8
    up_period = cold + math.expm1(rate * (seconds + 5)) / rate
    per_second = rate / (1 + rate * up_period)
    billed_share = rate * up_period / (1 + rate * up_period) + per_second * 0.5
    hours = billed_share * 24 * 30.42
    # S is the lone request's time plus, at 40 a day, a few microseconds' chance of another's prompt
    # ahead of it (``traffic.ServiceTime``): 2 millionths of the bill.
    assert chosen.billed_hours_per_month == pytest.approx(hours, rel=1e-5)
    assert chosen.billed_hours_per_month != pytest.approx(hours, rel=1e-7)
    assert chosen.usd_per_month == pytest.approx(hours * 5.58, rel=1e-5)
    assert chosen.serverless.cold_starts_per_month == pytest.approx(per_second * 86_400 * 30.42)
    assert 35 * 30.42 < chosen.serverless.cold_starts_per_month < 40 * 30.42  # most requests start one
    assert result.decision.usd_per_month == chosen.usd_per_month


def test_a_sporadic_workload_on_the_catalogs_products() -> None:
    # 40 requests a day for 70B FP8 own weights, not latency-sensitive: the cheapest product scales to
    # zero between requests, and nearly every request starts an instance.
    result = run(
        {
            "name": "sporadic",
            "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
            "requests_per_day": 40,
            "load_pattern": "variable",
            "latency_sensitive": False,
        }
    )
    chosen = result.serverless_option
    assert chosen is not None and chosen.chosen
    billing = chosen.serverless
    knowledge = load_knowledge()
    product_entry = next(p for p in knowledge.serverless.products if p.id == billing.product)
    # The weights are the 70B's FP8 checkpoint: 68.45B parameters at 1 byte and the 16-bit embedding and
    # lm_head's 2.10B at 2 bytes, 72.65 GB; vLLM's start, 21.8 s.
    cold = product_entry.start_seconds + 72.651346 / knowledge.serverless.weights_load_gb_per_second + 21.8
    assert billing.cold_start_seconds == pytest.approx(cold)
    assert not billing.kept_warm
    assert 0.9 * 40 * 30.42 < billing.cold_starts_per_month <= 40 * 30.42
    assert chosen.usd_per_month == pytest.approx(chosen.billed_hours_per_month * chosen.usd_per_gpu_hour)
    assert chosen.usd_per_month < result.best_option.usd_per_month / 10
    assert result.decision.cost_is_estimate is False
