"""PRC012 gives the reason the cheapest rental pays for idle cards: a business-critical bank's four
single-H200 replicas at OVHcloud (sold in 8-card instances) are placed on two instances for SIZ015, and
the memo said only that the offer 'is sold in instances of 8 cards, so [it] pays for 16 × h200 to run 4'
(one instance holds the four)."""

from __future__ import annotations

from pathlib import Path

from helpers import EU_BANK, EVALUATED_ON

from gpu_advisor import api

POLICY = str(Path(__file__).resolve().parent.parent / "examples" / "org-policy")


def prc012(result) -> str:
    return next(f.message for f in result.findings if f.rule_id == "PRC012")


def test_the_second_instance_a_business_critical_service_needs_is_named_with_its_cards() -> None:
    result = api.recommend(EU_BANK, EVALUATED_ON, policy_dir=POLICY)
    best = result.best_option
    assert best is not None
    offer = (best.provider, best.offer, best.gpu, best.instance_gpus)
    assert offer == ("ovhcloud", "h200-1920", "h200", (8,))
    # Four one-card replicas (three for the peak, a spare) fit one 8-card instance. On two, the loss of
    # one must leave three: six replicas run, three an instance, 16 cards billed, 10 idle.
    assert (best.gpus, best.gpus_rented, best.replicas) == (6, 16, 6)
    idle = 10 * best.usd_per_gpu_hour * best.billed_hours_per_month
    assert prc012(result).startswith(
        "ovhcloud h200-1920 is sold in instances of 8 cards, and the business-critical replicas go on at "
        "least two instances (SIZ015; 8 of the cards are for that), so the cheapest admitted option pays "
        f"for 16 × h200 to run 6: 10 idle, about ${idle:,.0f} a month."
    )


def test_idle_cards_of_one_instance_are_put_down_to_the_instance_size_alone() -> None:
    result = api.recommend({**EU_BANK, "business_critical": False}, EVALUATED_ON, policy_dir=POLICY)
    best = result.best_option
    assert best is not None and best.instance_gpus == (8,) and best.gpus_rented == 8
    assert "SIZ015" not in prc012(result)
    assert prc012(result).startswith(
        f"ovhcloud {best.offer} is sold in instances of 8 cards, so the cheapest admitted option pays for "
        f"8 × {best.gpu} to run {best.gpus}: "
    )
