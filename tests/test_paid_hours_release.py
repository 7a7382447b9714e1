"""A service priced for fewer hours than the month's on a rental paid by the hour holds its price only
where its cards are released outside the paid hours (PRC023; PRC019 for a business-critical one): the
memo said "$3,911 per month for 264 billed hours" and never that the instances must be ended at 19:00
and at weekends. The paid hours are the workload's (``hours_per_month``), which may differ from its
schedule's."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from helpers import EXAMPLES_DIR, negotiated_aws, run

from gpu_advisor.api import render_memo

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
    assert "(PRC023)" not in summary(run({**HR, "schedule": "always"}))


def test_the_summary_says_the_headline_needs_the_release() -> None:
    """check of the same plan warns of it (PRC022): the Summary says what the headline assumes beside it,
    with the finding's figure (3,910.99 x 730 / 264 = $10,814)."""
    assert (
        "The recommended $3,911 a month assumes its 4 cards are released outside the 264 paid hours a month "
        "by a script or a scheduler and rented again when they start (PRC023): left running every hour of "
        "the month, they cost about $10,814 a month." in summary(run(HR))
    )


def summary(result: Any) -> str:
    memo = render_memo(result)
    return memo[memo.index("## Summary") : memo.index("## Why")]


def test_a_business_critical_service_is_told_above_the_fold_what_holding_its_cards_costs() -> None:
    """Business-critical (PRC019): two 2-card H100 instances at Scaleway, $15.36 an hour for the 4 cards,
    priced for 264 hours ($4,054); kept every one of the month's 730 hours, 15.357936 x 730 = $11,211.
    Owning (two HGX servers, $22,015) costs more, and no reservation is admitted: neither is named."""
    # The provider confirms the cards: PRC019 prices the paid hours (PRC033 keeps the cards otherwise).
    result = run({**HR, "business_critical": True, "capacity_confirmed": True})
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented) == ("h100-sxm-2-80g", 4)
    assert round(best.usd_per_hour * 730) == 11_211
    assert result.own_hardware.usd_per_month > 11_211
    assert (
        "The recommended $4,054 a month has the 4 cards released outside the 264 paid hours a month and "
        "rented again when they start, on the provider's word that they are free then (capacity_confirmed, "
        "PRC019): kept every hour of the month, they cost about $11,211 a month.\n6 constraints"
        in summary(result)
    )
    # RES004 explains the serverless endpoints the residency rules excluded: not this rental's.
    assert "One more concerns a route the decision does not take (RES004, see Risks and caveats)." in summary(
        result
    )


FR_BANK: dict[str, Any] = {
    "name": "fr-bank",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 80_000,
    "avg_input_tokens": 2_500,
    "avg_output_tokens": 600,
    "load_pattern": "steady",
    "schedule": "workdays",
    # Confirmed cards: priced for the paid hours, PRC019 warns (PRC033 would keep the cards otherwise).
    "capacity_confirmed": True,
    "latency_sensitive": True,
    "personal_data": True,
    "business_critical": True,
    "company_country": "FR",
}


def test_owning_below_the_held_cards_is_named_beside_them() -> None:
    """A French bank's Qwen3-235B assistant on workdays: 12 H100 at Scaleway, 12 x $3.70359 an hour,
    $11,733 for 264 hours and 12 x 3.70359 x 730 = $32,443 held every hour; two owned HGX H100 servers
    (Eurostat's French business power price, the documents' US rack, no staff: France has no sourced
    salary) cost $19,109 at the documents' power price and 2 x 7.28 kW x 730 h x (0.1534 x 1.16 - 0.12)
    = $616 more at France's: $19,725. TCO004
    set owning aside against the released rental, which is said; a strategy rule-out keeps it unsaid."""
    result = run(FR_BANK)
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented) == ("h100-sxm-4-80g", 12)
    assert round(best.usd_per_gpu_hour, 5) == 3.70359
    assert round(best.usd_per_hour * 730) == round(12 * 3.70359 * 730) == 32_443
    own = result.own_hardware
    assert round(19_109 + 2 * 7.28 * 730 * (0.1534 * 1.16 - 0.12)) == 19_725
    assert (own.nodes, round(own.usd_per_month)) == (2, 19_725)
    assert result.resolution.ruled_out["own_hardware"] == ("TCO004",)
    assert (
        "kept every hour of the month, they cost about $32,443 a month.\n"
        "Owning servers for the load costs less than that before staff (no sourced salary for FR): 2 × HGX "
        "H100 8-GPU, $19,725 a month (see Buy versus rent).\n"
        "TCO004 sets owning aside against the rental as priced, with its cards released.\n" in summary(result)
    )
    unstable = run({**FR_BANK, "model_stable": False})
    assert "TCO003" in unstable.resolution.ruled_out["own_hardware"]
    assert "they cost about $32,443 a month.\n" in summary(unstable)
    assert "Owning servers" not in summary(unstable)


def test_a_cheaper_reservation_is_named_beside_the_held_cards() -> None:
    """A US team's 750,000 requests a day: 16 H100 on Scaleway's 2-card instances at EUR 3.3099 a card
    ($3.84 at 1.16), 16 x 3.84 x 730 = $44,845 held every hour; AWS's 3-year P5 reservation at the team's
    negotiated $1.90, three 8-GPU instances (11 replicas, four an instance at most, so that a lost
    instance leaves the 7 the peak needs: SIZ015), 24 x 1.90 x 730 = $33,288 (at AWS's list price of
    $2.97216 the same instances bill $52,072, more than the held cards too); three owned HGX H100, which
    keep the peak through the loss of one, $29,795 (the documents' US figures, $28,663, and the US staff
    line, 3 x 5 % of $90,520 a year / 12 = $1,131.50: staff counted, the sentence names no missing
    salary)."""
    result = run(
        {
            **HR,
            "business_critical": True,
            "capacity_confirmed": True,
            "company_country": "US",
            "personal_data": False,
            "requests_per_day": 750_000,
        },
        knowledge=negotiated_aws(),
    )
    best = result.best_option
    assert best is not None and (best.provider, best.gpus_rented) == ("scaleway", 16)
    assert best.usd_per_gpu_hour == pytest.approx(3.3099 * 1.16)
    reserved = next(o for o in result.options if o.pricing == "reserved" and not o.excluded_by)
    assert (reserved.offer, reserved.gpus_rented, reserved.replicas) == ("p5-reserved-3y", 24, 11)
    assert reserved.usd_per_gpu_hour == 1.90
    assert round(best.usd_per_hour * 730) == round(16 * 3.3099 * 1.16 * 730) == 44_845
    assert round(reserved.usd_per_month) == round(24 * 1.90 * 730) == 33_288
    listed = next(o for o in result.options if o.offer == "p5-reserved-3y-2026-09")
    assert round(listed.usd_per_month) == round(24 * 2.97216 * 730) == 52_072
    assert round(result.own_hardware.usd_per_month) == round(28_663.18 + 3 * 90_520 * 0.05 / 12) == 29_795
    assert (
        "kept every hour of the month, they cost about $44,845 a month.\n"
        "Owning servers for the load costs less than that: 3 × HGX H100 8-GPU, $29,795 a month (see Buy "
        "versus rent).\n"
        "TCO004 sets owning aside against the rental as priced, with its cards released.\n"
        "A reservation costs less than the cards kept every hour: aws p5-reserved-3y, 24 cards for "
        "36 months, $33,288 a month (see Options considered).\n" in summary(result)
    )


def test_a_cheaper_api_is_named_beside_the_held_cards() -> None:
    """A US public chat on workdays, one million requests a day: 8 H100 on Scaleway's 2-card instances at
    $3.84 a card, 8 x 3.84 x 730 = $22,423 held every hour; the compared API (Llama 3.3 70B at Scaleway,
    another model) is admitted and costs less than that."""
    result = run(
        {
            "name": "public-chat",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 1_000_000,
            "avg_input_tokens": 300,
            "avg_output_tokens": 150,
            "load_pattern": "steady",
            "schedule": "workdays",
            "capacity_confirmed": True,
            "latency_sensitive": True,
            "business_critical": True,
            "company_country": "US",
        }
    )
    best = result.best_option
    assert best is not None and (best.provider, best.gpus_rented) == ("scaleway", 8)
    assert round(8 * 3.3099 * 1.16 * 730) == round(best.usd_per_hour * 730) == 22_423
    api = next(a for a in result.api_costs if a.compared)
    assert "api" not in result.resolution.ruled_out and api.usd_per_month < 22_423
    assert (
        "they cost about $22,423 a month.\n"
        f"The managed API compared, Llama 3.3 70B Instruct (Scaleway Generative APIs), another model, costs "
        f"less than that: ${api.usd_per_month:,.0f} a month, and holds no cards.\n" in summary(result)
    )


def test_a_one_month_reservation_is_said_in_the_singular() -> None:
    """Own weights of an 8B model in office hours for a French company: two L40S at OVHcloud by the hour,
    2 x $1.624 = $3.248 an hour, $2,371 held every hour; its monthly price, a one-month commitment, costs
    less."""
    result = run(
        {
            "name": "internal-assistant",
            "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
            "requests_per_day": 20_000,
            "avg_input_tokens": 300,
            "avg_output_tokens": 150,
            "load_pattern": "steady",
            "schedule": "office_hours",
            "capacity_confirmed": True,
            "latency_sensitive": True,
            "business_critical": True,
            "company_country": "FR",
        }
    )
    best = result.best_option
    assert best is not None and (best.offer, best.gpus_rented) == ("l40s", 2)
    assert round(best.usd_per_gpu_hour, 6) == 1.624
    assert round(2 * 1.624 * 730) == round(best.usd_per_hour * 730) == 2_371
    reserved = next(o for o in result.options if o.pricing == "reserved" and not o.excluded_by)
    assert (reserved.offer, reserved.commitment_months) == ("l40s-monthly", 1)
    assert (
        "A reservation costs less than the cards kept every hour: ovhcloud l40s-monthly, 2 cards for one "
        f"month, ${reserved.usd_per_month:,.0f} a month (see Options considered).\n" in summary(result)
    )
