"""DEP011 says what the spare replicas cost in the rental it compares the API with: a service whose
rental needs one replica for its peak pays as much again for the spare (SIZ011), and that spare can be
what makes the API the cheaper route."""

from __future__ import annotations

from typing import Any

from helpers import run

MIXTRAL = {
    "name": "mixtral-search",
    "model": {"name": "mixtral-8x7b", "precision": "bf16"},
    "requests_per_day": 250_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 200,
    "load_pattern": "variable",
    "schedule": "always",
    "latency_sensitive": True,
    "serving_engine": "sglang",
    "company_country": "FR",
}


def message(result: Any, rule: str) -> str:
    return str(next(f.message for f in result.findings if f.rule_id == rule))


def test_the_spare_that_makes_the_api_cheaper_is_named() -> None:
    """2 × h200 at runpod community, $3.59 an hour each for 730 hours: $5,241.40, of which the spare
    replica's card is half ($2,620.70), less than the API's $4,106.70 without it."""
    result = run(MIXTRAL)
    best = result.best_option
    assert best is not None
    assert (best.gpus_rented, best.usd_per_gpu_hour, best.spare_replicas) == (2, 3.59, 1)
    assert best.spare_usd_per_month == 3.59 * 730
    assert "SIZ011" in result.fired_rules and result.decision.deployment == "api"
    assert message(result, "DEP011").endswith(
        "so the API is the cheaper route while it may be used. Of the rental's $5,241.40, $2,620.70 pays for "
        "the spare replica the sizing rules keep for failures and updates: without it the rental would cost "
        "$2,620.70/month, less than the API (min_replicas: 1 leaves it out, and a failed replica or an "
        "update then takes part of the peak's capacity with it)."
    )


def test_without_the_spare_the_rental_is_the_decision() -> None:
    result = run({**MIXTRAL, "min_replicas": 1})
    assert result.decision.deployment == "dedicated_cloud"
    assert "DEP011" not in result.fired_rules


def test_a_spare_that_does_not_decide_is_named_without_the_alternative() -> None:
    """150,000 requests a day: the API's $2,464.02 is below the rental even without its spare."""
    result = run({**MIXTRAL, "requests_per_day": 150_000})
    assert message(result, "DEP011").endswith(
        "so the API is the cheaper route while it may be used. Of the rental's $5,241.40, $2,620.70 pays for "
        "the spare replica the sizing rules keep for failures and updates."
    )


def test_a_rental_without_spares_is_compared_as_before() -> None:
    """min_replicas: 1 keeps no spare: one h200 at $2,620.70 against the API's $1,971.22."""
    result = run({**MIXTRAL, "requests_per_day": 120_000, "min_replicas": 1})
    assert result.best_option is not None and result.best_option.spare_usd_per_month is None
    assert message(result, "DEP011").endswith(
        "at $2,620.70/month (runpod community (1 × h200)), so the API is the cheaper route while it may be "
        "used."
    )


def test_a_business_critical_service_is_not_told_to_drop_its_spare() -> None:
    """The same service, business-critical: SIZ010 keeps the spare, so the memo says what the rental
    would cost without it but not that min_replicas: 1 leaves it out. Its rental is Scaleway's (an SLA):
    two instances of 2 x h100-sxm, one of them the spare, half of $11,211.29."""
    result = run({**MIXTRAL, "business_critical": True})
    assert {"SIZ010", "DEP011"} <= set(result.fired_rules) and result.decision.deployment == "api"
    # The API's price is another model's (a 70B class price for Mixtral 8x7B): DEP011 ends with what keeping
    # the workload's model costs, $11,211.29 - $7,939.62 = $3,271.67, 41 % of the API's price.
    assert message(result, "DEP011").endswith(
        "so the API is the cheaper route while it may be used. Of the rental's $11,211.29, $5,605.65 pays "
        "for the spare replica the sizing rules keep for failures and updates: without it the rental would "
        "cost $5,605.65/month, less than the API, but a business-critical service keeps it (SIZ010): a "
        "failed replica or an update would otherwise take part of the peak's capacity with it. The API's "
        "price is another model's, standing in for the workload's: keeping the workload's own model, as the "
        "self-hosted route does, costs $3,272 a month more (41 % of the API's price), to weigh against the "
        "change of model."
    )
