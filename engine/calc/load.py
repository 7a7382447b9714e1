"""The workload's load: average and peak requests per second over the hours it is served."""

from __future__ import annotations

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import Schedule
from gpu_advisor.engine.domain.load import Load

SECONDS_PER_HOUR = 3600


HOURS_PER_DAY = 24


def workload_load(
    knowledge: Knowledge,
    requests_per_day: int,
    schedule: Schedule,
    paid_hours_per_month: float,
    load_pattern: str,
    input_tokens: int,
    output_tokens: int,
) -> Load:
    pattern = knowledge.peak_to_average(load_pattern)
    served_in_paid_hours = pattern.waits_for_paid_hours and paid_hours_per_month < schedule.hours_per_month
    hours_per_day = (
        paid_hours_per_month / schedule.days_per_month if served_in_paid_hours else schedule.hours_per_day
    )
    # Around the clock every paid hour is an hour requests come in (a 31-day month pays 744 hours).
    around_the_clock = schedule.hours_per_day >= HOURS_PER_DAY
    serving_hours = paid_hours_per_month if around_the_clock else schedule.hours_per_month
    average = requests_per_day / (hours_per_day * SECONDS_PER_HOUR)
    peak = average * pattern.factor
    return Load(
        hours_per_day=hours_per_day,
        average_requests_per_second=average,
        peak_factor=pattern.factor,
        peak_requests_per_second=peak,
        peak_output_tokens_per_second=peak * output_tokens,
        peak_input_tokens_per_second=peak * input_tokens,
        schedule_hours_per_month=schedule.hours_per_month,
        served_in_paid_hours=served_in_paid_hours,
        served_share_of_paid_hours=1.0
        if served_in_paid_hours
        else min(1.0, serving_hours / paid_hours_per_month),
    )
