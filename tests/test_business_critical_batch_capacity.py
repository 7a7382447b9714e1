"""A business-critical batch on an hourly rental rents its cards at each run's start: PRC032 says that
a start may find none free, and what keeping them every calendar hour would cost. PRC019 said so of
services only, and the memo of a nightly run on Lambda's 8 x B200 said nothing of it."""

from __future__ import annotations

from helpers import run
from test_option_busy_share import BATCH


def test_prc032_names_the_rental_its_runs_hours_and_the_month_kept() -> None:
    result = run(BATCH)
    (message,) = [" ".join(f.message.split()) for f in result.findings if f.rule_id == "PRC032"]
    best = result.best_option
    assert best is not None and best.usd_per_hour is not None
    # Two 8-card instances, so that a lost one leaves the window's replicas (SIZ038): 16 cards at $6.69
    # an hour (each instance's $53.52) over the month's 730 hours: $78,139. The runs on 16 one-card
    # replicas take 0.948 hours and 28 s of weights' load, billed as 58 minutes on 22 workdays: 21.3 hours.
    assert round(best.usd_per_hour * result.load.calendar_hours_per_month) == 78_139
    # The cheapest admitted option that holds its capacity for a term: AWS's capacity block, its 16
    # cards for the runs' days.
    reserving = [
        o for o in result.options if o.pricing in ("reserved", "capacity_block") and not o.excluded_by
    ]
    cheapest = min(reserving, key=lambda o: o.usd_per_month)
    assert (cheapest.provider, cheapest.offer, cheapest.gpus, round(cheapest.usd_per_month)) == (
        "aws",
        "p5-capacity-block",
        16,
        50_435,
    )
    assert message == (
        "The cheapest rental, lambda 8-gpu-plan, rents its 16 cards at each run's start and is priced for "
        "the 21.3 hours a month its runs take. Capacity paid by the hour is not reserved: a provider may "
        "have none free when a run starts, and the run then misses its window. For a business-critical "
        "batch reserve capacity for the runs (the cheapest reservation or capacity block admitted for this "
        "workload is aws p5-capacity-block (16 × h100-sxm), about $50,435 a month), keep the cards (every "
        "calendar hour, about $78,139 a month at this price), or confirm with the provider that they are "
        "there at each start."
    )
    assert "PRC019" not in {f.rule_id for f in result.findings}


def test_not_for_a_batch_that_is_not_business_critical() -> None:
    result = run({**BATCH, "business_critical": False})
    assert "PRC032" not in {f.rule_id for f in result.findings}


def test_where_no_reservation_is_admitted_the_message_says_so() -> None:
    """The message's other branch, rendered from the rule's text with no reserving option: it does not
    send the reader to a capacity block the workload may not have."""
    from test_message_wording import message

    said = message(
        "PRC032",
        "economics",
        "en",
        best_option_provider="scaleway",
        best_option_offer="h100-sxm-4-80g",
        best_option_cards_rented=8,
        best_option_billed_hours_per_month=46.2,
        best_option_usd_per_hour=23.0,
        reserving_name="",
    )
    assert (
        "reserve capacity for the runs (no reservation or capacity block in the catalog is admitted for "
        "this workload: ask a provider for one), keep the cards (every calendar hour, about $16,790 a month "
        "at this price)" in said
    )
