"""TCO017 recommends buying where every rental bills more for the schedule's paid hours; where the load
profile leaves some of them without requests (PRC024), the same rental stopped in those hours may bill
less than owning, and the Summary said nothing of it: an internal tool used two hours a workday was told
to buy two RTX 5090 at $310 a month against a rental billed 264 hours ($364), which at its 44 hours with
requests bills $61."""

from __future__ import annotations

from helpers import EVALUATED_ON, run

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.formats import Format

TOOL = {
    "name": "sporadic-default-latency",
    "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 1500,
    "avg_input_tokens": 800,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "schedule": "workdays",
    "load_profile": [0] * 10 + [1, 1] + [0] * 12,
    "company_country": "DE",
}


def tco017(workload: dict[str, object]) -> str:
    result = run(workload)
    (message,) = [f.message for f in result.findings if f.rule_id == "TCO017"]
    return " ".join(message.split())


def test_the_rental_at_the_hours_with_requests_is_set_beside_owning() -> None:
    result = run(TOOL)
    assert result.decision.deployment == "own_hardware"
    # 22 workdays x 2 hours = 44 of the 264 paid hours; the rental's $364.32 for 264 hours is $60.72.
    assert result.own_hardware.cheapest_same_hours_usd_per_month is not None
    assert round(result.own_hardware.cheapest_same_hours_usd_per_month * 44 / 264) == 61
    message = tco017(TOOL)
    assert message.endswith(
        "Stopped in the paid hours the load profile leaves without requests (PRC024), that rental would bill "
        "about $61 a month for the 44 hours with requests, less than owning: where the service need not be "
        "up in the others, give hours_per_month: 44 and the memo weighs the two at those hours."
    )
    german = recommend(validate_workload(TOOL, "test"), EVALUATED_ON, fmt=Format(lang="de"))
    (text,) = [" ".join(f.message.split()) for f in german.findings if f.rule_id == "TCO017"]
    assert "würde diese Miete etwa 61 $ im Monat für die 44 Stunden mit Anfragen abrechnen" in text


def test_not_where_every_paid_hour_has_requests() -> None:
    result = run({**TOOL, "hours_per_month": 44})
    assert result.decision.deployment == "dedicated_cloud" and round(result.decision.usd_per_month or 0) == 61
    # The workdays schedule serves 7:00 to 19:00: requests in every one of those hours.
    assert "PRC024" not in tco017({**TOOL, "load_profile": [0] * 7 + [1] * 12 + [0] * 5})


def test_not_where_the_rental_at_those_hours_still_bills_more() -> None:
    """One empty hour of twelve (7:00): $364.32 x 242 / 264 = $333.96, above owning's $309.52."""
    result = run({**TOOL, "load_profile": [0] * 8 + [1] * 11 + [0] * 5})
    assert {"PRC024", "TCO017"} <= {f.rule_id for f in result.findings}
    assert "PRC024" not in tco017({**TOOL, "load_profile": [0] * 8 + [1] * 11 + [0] * 5})
