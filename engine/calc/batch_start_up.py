"""How long a batch run's start-up may take before another rental costs less than the recommended one.

A batch rented by the hour is priced for its running hours only: starting the instances and loading the
weights for each run are not billed in those figures, because the catalog has no sourced start-up time
of a dedicated instance. They are billed in practice, at the instances' hourly rate, once a run. An offer
with a dearer instance-hour and a shorter run (more or faster cards) wins on running hours alone, and
loses that lead as start-up grows: after ``m`` hours of start-up a run, option ``o`` bills
``usd_per_month + runs * m * usd_per_hour``. The recommendation stays the cheaper of the two until

    m = (rival.usd_per_month - best.usd_per_month) / (runs * (best.usd_per_hour - rival.usd_per_hour))

which only a rival with a cheaper instance-hour has. A serverless rival's bill already counts its cold
starts: its start-up adds nothing here, so its instance-hour counts as zero. The break-even ignores
billing increments (a start-up that crosses into another increment bills it whole), so it is stated as
about.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpu_advisor.engine.domain.options import Option, StartUpBreakEven

HOURLY = ("on_demand", "spot")
"""The pricing kinds whose bill follows the hours a run takes (a reservation bills every hour)."""


def start_up_break_even(
    options: Iterable[Option], best: Option | None, runs_per_month: float
) -> StartUpBreakEven | None:
    """The least start-up a run, in minutes, at which an admitted hourly rental would bill less than
    ``best`` (the recommended hourly rental), and that rental; None where ``best`` is not billed by the
    hour or no admitted rental has a cheaper instance-hour."""
    if best is None or best.pricing not in HOURLY or best.serverless is not None or runs_per_month <= 0:
        return None
    found: StartUpBreakEven | None = None
    for rival in options:
        starts_priced = rival.serverless is not None
        start_up_rate = 0.0 if starts_priced else rival.usd_per_hour
        if (
            rival is best
            or rival.excluded_by
            or rival.fleet is not None
            or (rival.pricing not in HOURLY and not starts_priced)
            or start_up_rate >= best.usd_per_hour
            # A cheaper rival lost on a preference (its pricing kind, or a rule), not on start-up.
            or rival.usd_per_month < best.usd_per_month
        ):
            continue
        extra = rival.usd_per_month - best.usd_per_month
        minutes = 60 * extra / (runs_per_month * (best.usd_per_hour - start_up_rate))
        if found is None or minutes < found.minutes:
            found = StartUpBreakEven(
                minutes=minutes,
                provider=rival.provider,
                offer=rival.offer,
                gpu=rival.gpu,
                gpus=rival.gpus,
                usd_per_month=rival.usd_per_month,
                usd_per_hour=rival.usd_per_hour,
                starts_priced=starts_priced,
            )
    return found
