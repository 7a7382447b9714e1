"""A hybrid proposal whose mix the catalog prices in an unusual way: its reserved base already holds the
busiest hour (the hourly offer never runs, PRC020), no mix is priced at all, or it leaves its cards out.
Figures worked out by hand from the negotiated AWS rates (tests/rates/negotiated-aws.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

from test_check_fleet import WORKLOAD
from test_check_peak import HYBRID, checked, results


def test_a_mix_whose_base_holds_every_hour_is_priced_as_its_reservation(tmp_path: Path) -> None:
    """200,000 requests a day around the clock never need more than the four 2 x H100 replicas one
    8-card P5 instance holds: Lambda's hourly H100 (named for the busier hours) never runs. The proposal
    is priced as the reservation alone, 8 cards x 1.90 USD (the negotiated 3-year rate) x 730 hours =
    11,096 USD a month, where before it had no price; PRC020 says the hourly offer never runs, and
    Lambda's list (248 days old) prices nothing, so KNB014 judges the base's fresh rate alone."""
    workload = {**WORKLOAD, "requests_per_day": 200_000, "schedule": "always"}
    result = checked(tmp_path, workload, {**HYBRID, "gpus": 8})
    (data,) = json.loads(result.output)
    assert data["usd_per_month"] == 8 * 1.90 * 730
    by_rule = {item["rule_id"]: item for item in data["results"]}
    assert (by_rule["PRC013"]["status"], by_rule["KNB014"]["status"]) == ("pass", "pass")
    # Over the term, only the reserved base binds; the hourly part (here none) only while it runs.
    assert by_rule["DEP033"]["message"].endswith(
        "over its 36-month term at this load: the reservation binds its base for the term, the hourly "
        "part only while it runs); see gpu-advisor recommend for what the rules weighed."
    )
    prc020 = by_rule["PRC020"]
    assert (prc020["status"], prc020["part"]) == ("warn", "proposal")
    assert prc020["message"] == (
        "The reservation, aws p5-reserved-3y, holds the busiest hour's replicas in every hour: the load "
        "never needs more than it carries, so the hourly offer for the busier hours would never run, and "
        "the cost checks price the reservation alone. A mixed fleet pays where the busier hours need "
        "replicas beyond the base; here propose dedicated_cloud on the reservation, or keep the hourly "
        "offer as a fallback for load above the estimate and say so."
    )


def test_a_mix_the_catalog_cannot_price_says_why(tmp_path: Path) -> None:
    """Office hours leave the nights unserved, so no reservation is priced beside Lambda's hourly H100
    (a reservation bills every hour, and no hour of a mix's base may go without a replica): the cost
    checks cannot tell, and say the catalog prices no such mix rather than that the proposal left out its
    cost."""
    workload = {**WORKLOAD, "requests_per_day": 400_000, "load_pattern": "variable"}
    workload["schedule"] = "office_hours"
    prc013 = results(tmp_path, workload, {**HYBRID, "gpus": 8})["PRC013"]
    assert prc013["status"] == "unknown"
    assert prc013["message"] == (
        'Cannot tell whether "Whole instances: the proposal pays for cards it leaves idle": the catalog '
        "prices no mixed fleet of the proposed reservation and the busier hours' offer it names for this "
        "workload (a mix needs an hourly offer of the same GPU in the same jurisdiction, and a service with "
        "a replica in every hour)."
    )


def test_a_mix_without_its_cards_is_not_told_they_all_idle(tmp_path: Path) -> None:
    """A hybrid that leaves gpus out is priced (the cards billed are the busiest hour's), but PRC013
    cannot set billed cards against proposed ones it was not given: unknown, naming the field, where it
    said all 8 billed cards were paid for and idle."""
    workload = {**WORKLOAD, "requests_per_day": 200_000, "schedule": "always"}
    proposal = {key: value for key, value in HYBRID.items() if key != "gpus"}
    prc013 = results(tmp_path, workload, proposal)["PRC013"]
    assert prc013["status"] == "unknown"
    assert prc013["message"] == (
        'Cannot tell whether "Whole instances: the proposal pays for cards it leaves idle": the proposal '
        "does not give its gpus, which this check needs."
    )
