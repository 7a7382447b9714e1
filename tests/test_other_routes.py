"""``Recommendation.other_routes``: the routes not decided that no rule rules out, cheapest first, which
the Summary's stale-price line (KNB001) and an office purchase's lead read; and ``next_best_option``."""

from __future__ import annotations

from helpers import run
from test_office_machines_lead import CONTRACTS
from test_serverless_set_aside_gpu_time import BIG_STEADY
from test_stale_price_flip import L70, QWEN

from gpu_advisor.engine.domain.results import OtherRoute, Recommendation
from gpu_advisor.engine.present.memo import render_memo


def routes(result: Recommendation) -> list[tuple[str, str, int]]:
    return [(r.kind, r.name, round(r.usd_per_month)) for r in result.other_routes]


def test_an_office_purchase_stands_beside_serverless_and_the_best_rental_not_the_api() -> None:
    """Own cards decided ($387); RunPod Serverless $470, the best rental (2 OVHcloud L40S) $572; the API
    is ruled out (DEP005), own hardware is the decision."""
    result = run(CONTRACTS)
    assert result.decision.deployment == "own_hardware"
    assert result.resolution.ruled_out == {"api": ("DEP005",)}
    assert routes(result) == [("serverless", "RunPod Serverless", 470), ("dedicated_cloud", "l40s", 572)]
    rental = result.other_routes[1]
    assert (rental.provider, rental.gpu, rental.count) == ("ovhcloud", "l40s", 2)
    # No rental is decided: the best one is the rental route, and no next best is named.
    best = result.best_option
    assert best is not None and not best.chosen and (best.provider, best.offer) == ("ovhcloud", "l40s")
    assert result.next_best_option is None


def test_data_that_must_stay_in_the_building_leaves_no_other_route() -> None:
    result = run({**CONTRACTS, "on_premises_required": True})
    assert "DEP006" in result.resolution.ruled_out["dedicated_cloud"]
    assert result.other_routes == ()


def test_a_chosen_rental_stands_beside_the_next_offer_the_own_servers_and_the_api() -> None:
    """The US service of test_stale_price_flip run by a Swiss company: Scaleway's 2-card H100 instances
    decided (four, a replica each: 8 x $3.84 x 730 h = $22,423); two owned HGX H100 at the Swiss cost
    lines $22,428, the compared API $23,819 and Lambda's 2-card instances, the same four at $4.19
    ($24,470), cheapest first; serverless is ruled out (DEP024)."""
    result = run({**L70, "company_country": "CH"})
    assert result.decision.deployment == "dedicated_cloud" and round(result.decision.usd_per_month) == 22423
    assert result.resolution.ruled_out == {"serverless": ("DEP024",)}
    assert routes(result) == [
        ("own_hardware", "HGX H100 8-GPU", 22428),
        ("api", "Llama 3.3 70B Instruct (Scaleway Generative APIs)", 23819),
        ("dedicated_cloud", "2-gpu-plan", 24470),
    ]
    assert result.other_routes[0].count == 2
    after = result.next_best_option
    assert after is not None and (after.provider, after.offer) == ("lambda", "2-gpu-plan")


def test_routes_the_rules_rule_out_are_left_out() -> None:
    """Own hardware ruled out (TCO004) and serverless (DEP024): the next rental alone stands."""
    result = run(QWEN)
    assert result.resolution.ruled_out == {"serverless": ("DEP024",), "own_hardware": ("TCO004",)}
    assert routes(result) == [("dedicated_cloud", "4-gpu-plan", 8638)]
    assert result.other_routes[0] == OtherRoute(
        kind="dedicated_cloud",
        usd_per_month=result.other_routes[0].usd_per_month,
        name="4-gpu-plan",
        provider="lambda",
        gpu="h100-sxm",
        count=8,
    )


def test_a_serverless_decision_stands_beside_the_best_rental_and_the_own_servers() -> None:
    """A variable load of a million requests on own weights: Modal decided ($12,182); the best rental
    ($17,462) and two owned HGX H100 ($22,015) stand; the API is ruled out (DEP005)."""
    result = run({**BIG_STEADY, "requests_per_day": 1_000_000, "load_pattern": "variable"})
    assert (result.decision.deployment, round(result.decision.usd_per_month)) == ("serverless", 12182)
    assert result.resolution.ruled_out == {"api": ("DEP005",)}
    assert routes(result) == [
        ("dedicated_cloud", "community", 17462),
        ("own_hardware", "HGX H100 8-GPU", 22015),
    ]
    assert result.next_best_option is None


def test_a_purchase_without_a_staff_line_says_the_staff_cost_that_turns_it() -> None:
    """The US service of test_stale_price_flip for a French company: two owned HGX H100 at the documents'
    US cost lines (France has no cost defaults), $19,109 a month, undercut Scaleway's 2-card instances
    ($22,423) by $3,314, less than any operations staff costs; France has no sourced salary, so the memo
    says that margin is the staff cost at which renting wins, and Scaleway stands beside the decision."""
    result = run({**L70, "company_country": "NO"})
    assert (result.decision.deployment, result.own_hardware.nodes) == ("own_hardware", 2)
    assert round(result.decision.usd_per_month) == 19109
    assert routes(result)[0] == ("dedicated_cloud", "h100-sxm-2-80g", 22423)
    assert (
        "The nodes' figure leaves staff out, not costed (the catalog has no sourced salary for NO): a staff "
        "cost above "
        "$3,314 a month makes that rental the cheaper; add yours before relying on the comparison."
    ) in " ".join(render_memo(result).split())
