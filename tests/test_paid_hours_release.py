"""A service priced for fewer hours than the month's on a rental paid by the hour holds its price only
where its cards are released outside the paid hours (PRC023; PRC019 for a business-critical one): the
memo said "$3,911 per month for 264 billed hours" and never that the instances must be ended at 19:00
and at weekends. The paid hours are the workload's (``hours_per_month``), which may differ from its
schedule's."""

from __future__ import annotations

from typing import Any

import yaml
from helpers import EXAMPLES_DIR, run

HR: dict[str, Any] = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
# Scaleway's 4-card H100 SXM instance at its EUR list price and the catalog's rate: $3,910.99 for 264
# hours, $14.81 an instance-hour; every calendar hour, 14.81 x 730 = $10,814.


def release(result: Any) -> list[tuple[str, str]]:
    return [
        (f.rule_id, " ".join(f.message.split())) for f in result.findings if f.rule_id in ("PRC019", "PRC023")
    ]


def message(hours: int, month: str, left_running: str) -> str:
    return (
        f"The cheapest rental, scaleway h100-sxm-4-80g, is priced for the {hours} paid hours a month: where "
        "it is rented, its 4 cards must be released when the paid hours end (the instances terminated, or "
        "stopped where the provider no longer bills a stopped instance's GPUs) and rented again when they "
        f"start, by a script or a scheduler. Left running every calendar hour they cost about {left_running} "
        f"a month instead of {month}. Capacity paid by the hour is not reserved: a start may find none free."
    )


def test_a_workdays_service_is_told_to_release_its_cards() -> None:
    result = run(HR)
    assert result.best_option is not None and result.best_option.billed_hours_per_month == 264
    assert release(result) == [("PRC023", message(264, "$3,911", "$10,814"))]


def test_the_paid_hours_are_the_workloads_not_the_schedules() -> None:
    """400 paid hours on workdays: priced for 400, and left running the same 730 hours' bill."""
    result = run({**HR, "hours_per_month": 400})
    assert result.best_option is not None and result.best_option.billed_hours_per_month == 400
    assert release(result) == [("PRC023", message(400, "$5,926", "$10,814"))]
    around_the_clock = run({**HR, "schedule": "always", "hours_per_month": 300})
    assert release(around_the_clock) == [("PRC023", message(300, "$4,444", "$10,814"))]


def test_every_hour_paid_needs_no_release() -> None:
    assert release(run({**HR, "schedule": "always"})) == []
