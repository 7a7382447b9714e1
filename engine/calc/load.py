"""The workload's load: requests per second in each hour of a served day, their average and the peak the
replicas are sized for; for a batch, the window its work is done in."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_advisor.engine.calc.traffic import (
    SECONDS_PER_HOUR,
    DailyTraffic,
    daily_traffic,
    hourly_rates,
    share_outside_busiest_hours,
    share_outside_served_hours,
)
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import Schedule
from gpu_advisor.engine.domain.load import Load


def scheduled_window(schedule: Schedule, window_hours: float) -> float:
    """A batch's window within the schedule's hours a day: the hours its work may take, whatever the
    GPUs' paid hours (what a batch sent to an API has)."""
    return min(window_hours, schedule.hours_per_day)


def batch_window(
    schedule: Schedule, paid_hours_per_month: float, window_hours: float, runs_per_month: float | None = None
) -> float:
    """The hours a run of a batch must be done in: its window, within the schedule's hours a day and the
    paid hours of a run (the paid hours a month over its runs, the schedule's days by default)."""
    runs = schedule.days_per_month if runs_per_month is None else runs_per_month
    return min(scheduled_window(schedule, window_hours), paid_hours_per_month / runs)


def traffic_for(
    knowledge: Knowledge,
    schedule: Schedule,
    paid_hours_per_month: float,
    load_pattern: str,
    profile: Sequence[float],
    window_hours: float | None,
    runs_per_month: float | None = None,
) -> DailyTraffic:
    """How a served day's requests spread: work that waits for its GPUs (a batch) flat over its window
    (``window_hours``, a batch's only) from the schedule's first hour, other loads over the schedule's
    hours by their profile."""
    if knowledge.load_profile(load_pattern).work_waits:
        assert window_hours is not None, "a batch has its window (pipeline.defaults.complete_workload)"
        window = batch_window(schedule, paid_hours_per_month, window_hours, runs_per_month)
        return daily_traffic((1.0,) * 24, schedule.first_hour, window)
    return daily_traffic(tuple(profile), schedule.first_hour, schedule.hours_per_day)


def workload_load(
    knowledge: Knowledge,
    requests_per_day: int,
    schedule: Schedule,
    paid_hours_per_month: float,
    load_pattern: str,
    profile: Sequence[float],
    profile_given: bool,
    window_hours: float | None,
    input_tokens: int,
    output_tokens: int,
    days_per_month: float | None = None,
) -> Load:
    """The load without the busy share, which needs a GPU's service time (``with_busy_share``).
    ``days_per_month``: the days a month the load comes (a batch's runs); default the schedule's."""
    days = schedule.days_per_month if days_per_month is None else days_per_month
    traffic = traffic_for(
        knowledge, schedule, paid_hours_per_month, load_pattern, profile, window_hours, days_per_month
    )
    batch = knowledge.load_profile(load_pattern).work_waits
    average = requests_per_day / (traffic.hours_per_day * SECONDS_PER_HOUR)
    within_hour = 1.0 if batch else knowledge.load_profile(load_pattern).peak_within_hour
    peak = average * traffic.busiest * within_hour
    # Around the clock every paid hour is an hour requests come in (a 31-day month pays 744 hours), and
    # fewer paid hours than that still leave the requests coming around the clock.
    around_the_clock = traffic.hours_per_day >= 24 and days >= schedule.days_per_month
    served_hours = traffic.hours_per_day * days
    serving_hours = max(paid_hours_per_month, schedule.hours_per_month) if around_the_clock else served_hours
    # Fewer hours paid than served: the GPUs run in the busiest, and the rest's requests find none.
    lost = (
        0.0
        if batch or serving_hours <= paid_hours_per_month
        else share_outside_busiest_hours(
            tuple(profile), schedule.first_hour, schedule.hours_per_day, paid_hours_per_month / days
        )
    )
    rates = hourly_rates(traffic, average)
    return Load(
        hours_per_day=traffic.hours_per_day,
        average_requests_per_second=average,
        peak_factor=peak / average if average else 1.0,
        peak_requests_per_second=peak,
        peak_output_tokens_per_second=peak * output_tokens,
        peak_input_tokens_per_second=peak * input_tokens,
        schedule_hours_per_month=schedule.hours_per_month,
        calendar_hours_per_month=knowledge.calendar_hours_per_month(),
        served_in_paid_hours=batch,
        served_share_of_paid_hours=min(1.0, serving_hours / paid_hours_per_month),
        paid_hours_per_month=paid_hours_per_month,
        served_hours_per_month=serving_hours,
        requests_share_in_paid_hours=1.0 - lost,
        busiest_hour_requests_per_second=average * traffic.busiest,
        peak_within_hour=within_hour,
        first_hour=schedule.first_hour,
        quiet_hours_per_day=max(0, round(traffic.hours_per_day) - sum(1 for rate in rates if rate > 0)),
        profile_share_outside_served=share_outside_served_hours(
            tuple(profile), schedule.first_hour, schedule.hours_per_day
        )
        if profile_given and not batch
        else 0.0,
        profile=rates,
        profile_source="input" if profile_given and not batch else "load_pattern",
    )
