"""An office purchase costs the cards alone (the machines they go into are taken to stand ready): the
Summary says how much the machines may cost before the cheapest other self-hosted route costs less, and
which card is bought for the spare replica."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

CONTRACTS = {
    "name": "vertragspruefung-ch",
    "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 200,
    "avg_input_tokens": 6000,
    "avg_output_tokens": 600,
    "context_tokens": 16384,
    "schedule": "office_hours",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "CH",
}


def test_the_machines_may_cost_the_lead_over_the_write_off() -> None:
    """Two RTX 5090 at $1,999 cost $386.78 a month in capital and power; RunPod Serverless bills $469.70:
    a lead of $82.93 a month, $2,985 over 36 months for the two machines."""
    result = run(CONTRACTS)
    own, serverless = result.decision, result.serverless_option
    assert own.deployment == "own_hardware" and serverless is not None
    assert (round(own.usd_per_month, 2), round(serverless.usd_per_month, 2)) == (386.78, 469.7)
    lead = serverless.usd_per_month - own.usd_per_month
    assert (round(lead), round(lead * 36)) == (83, 2985)
    summary = render_memo(result).split("## Summary")[1].split("## Why")[0]
    assert (
        "Buying leads the cheapest other self-hosted route (RunPod Serverless, $470 a month) by $83 a month: "
        "the machines the cards go into, left out of that figure, may cost $2,985 in all over the 36 months "
        "before RunPod Serverless costs less.\n"
        "One of the 2 machines' cards is bought for the spare replica the rules add (SIZ011): $193 a month "
        "and $1,999 of the purchase. min_replicas: 1 leaves it out; a failed machine then stops the service."
    ) in summary


def test_data_that_stays_in_the_building_has_no_route_to_weigh_the_machines_against() -> None:
    """On premises every cloud route is excluded (DEP006): no lead to spend on the machines."""
    result = run({**CONTRACTS, "on_premises_required": True})
    assert result.decision.deployment == "own_hardware"
    summary = render_memo(result).split("## Summary")[1].split("## Why")[0]
    assert "The cards are bought up front: $3,998" in summary
    assert "Buying leads the cheapest other" not in summary
