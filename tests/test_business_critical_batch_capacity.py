"""A business-critical batch on an hourly rental rents its cards at each run's start: PRC032 says that
a start may find none free, and what keeping them every calendar hour would cost. PRC019 said so of
services only, and the memo of a nightly run on Lambda's 8 x B200 said nothing of it."""

from __future__ import annotations

import pytest
from helpers import run
from test_option_busy_share import BATCH


def test_prc032_names_the_rental_its_runs_hours_and_the_month_kept() -> None:
    result = run(BATCH)
    (message,) = [" ".join(f.message.split()) for f in result.findings if f.rule_id == "PRC032"]
    best = result.best_option
    assert best is not None and best.usd_per_hour is not None
    # Two 8-card instances, so that a lost one leaves the window's replicas (SIZ038): 16 cards at $6.69
    # an hour (each instance's $53.52) over the month's 730 hours: $78,139. The runs on 16 one-card
    # replicas take 0.953 hours (test_option_busy_share.py), the FP8 checkpoint's 72.65 GB load at 2.5 GB/s
    # 29.06 s and vLLM's start 21.8 s: 58.03 minutes, billed as 59 on 22 workdays, 21.6 hours.
    assert round(best.usd_per_hour * result.load.calendar_hours_per_month) == 78_139
    assert best.hours_per_day_running is not None and round(best.hours_per_day_running, 3) == 0.953
    assert (best.weights_load_hours, best.engine_start_hours) == (
        pytest.approx(72.651346 / 2.5 / 3600),
        pytest.approx(21.8 / 3600),
    )
    assert best.billed_hours_per_month == pytest.approx(59 / 60 * 22)
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
        "the 21.6 hours a month its runs take. Capacity paid by the hour is not reserved: a provider may "
        "have none free when a run starts, and the run then misses its window. For a business-critical "
        "batch reserve capacity for the runs (the cheapest reservation or capacity block admitted for this "
        "workload is aws p5-capacity-block (16 × h100-sxm), about $50,435 a month), keep the cards (every "
        "calendar hour, about $78,139 a month at this price), or confirm with the provider that they are "
        "there at each start (capacity_confirmed: true records it). Owned servers hold their cards at every "
        "run and cost less than either: 2 × HGX H100 8-GPU, about $22,015 a month (see Buy versus rent)."
    )
    # The owned figure is Buy versus rent's: two servers at $11,007.54 each (capital, power, colocation
    # and staff), below both the capacity block's $50,435 and the kept cards' $78,139.
    assert result.own_hardware is not None
    assert (result.own_hardware.nodes, round(result.own_hardware.usd_per_month)) == (2, 22_015)
    assert "PRC019" not in {f.rule_id for f in result.findings}


def test_a_confirmation_recorded_is_to_be_held_in_writing() -> None:
    """capacity_confirmed on a business-critical batch records what PRC032 asks for: the warning stays (the
    bill still assumes every start finds the cards), says to hold the confirmation in writing, and no
    longer asks for it."""
    result = run({**BATCH, "capacity_confirmed": True})
    (message,) = [" ".join(f.message.split()) for f in result.findings if f.rule_id == "PRC032"]
    assert message == (
        "The cheapest rental, lambda 8-gpu-plan, rents its 16 cards at each run's start and is priced for "
        "the 21.6 hours a month its runs take. Capacity paid by the hour is not reserved: a provider may "
        "have none free when a run starts, and the run then misses its window. The workload says its "
        "provider confirms the cards at each run's start (capacity_confirmed): hold that confirmation in "
        "writing, for the 16 cards each run starts with. Without it, reserve capacity for the runs (the "
        "cheapest reservation or capacity block admitted for this workload is aws p5-capacity-block "
        "(16 × h100-sxm), about $50,435 a month), or keep the cards (every calendar hour, about $78,139 a "
        "month at this price). Owned servers hold their cards at every run and cost less than either: "
        "2 × HGX H100 8-GPU, about $22,015 a month (see Buy versus rent)."
    )
    # The Workload table shows what was given, as it does for a service.
    from gpu_advisor.api import render_memo

    assert "| Rented cards confirmed at each start (capacity_confirmed) | yes |" in render_memo(result)
    assert "| Rented cards confirmed at each start (capacity_confirmed) | no (default) |" in render_memo(
        run(BATCH)
    )


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
        **OWNED,
        own_usd_per_month=20_000.0,
    )
    assert (
        "reserve capacity for the runs (no reservation or capacity block in the catalog is admitted for "
        "this workload: ask a provider for one), keep the cards (every calendar hour, about $16,790 a month "
        "at this price)" in said
    )
    # $23.00 an hour over 730 hours is $16,790: owned servers at $20,000 cost more and are not named.
    assert "Owned servers" not in said


# What the messages read of the owned servers, as ``EconomicsDetails`` gives them.
OWNED = {
    "own_nodes": 1,
    "server_name": "HGX H100 8-GPU",
    "own_staff_uncosted_country": "",
    "own_hardware_ruled_out_by": "",
    "own_loss_left_with_idle": 0,
    "own_loss_peak_replicas": 3,
}
KEPT_RENTAL = {
    "best_option_provider": "lambda",
    "best_option_offer": "8-gpu-plan",
    "best_option_cards_rented": 16,
    "best_option_billed_hours_per_month": 22.8,
    "best_option_usd_per_hour": 107.04,
}


def _prc032(lang: str, **changes: object) -> str:
    from test_message_wording import message

    return message("PRC032", "economics", lang, **{**KEPT_RENTAL, **OWNED, **changes})


def test_owned_servers_cheaper_than_holding_rented_capacity_are_named_with_a_lost_servers_toll() -> None:
    """$107.04 an hour kept for 730 hours is $78,139 and the capacity block $69,737: one owned server at
    $11,007 holds its cards for less than either, and its loss leaves none of the window's 3 replicas."""
    said = _prc032(
        "en",
        reserving_name="aws p5-capacity-block",
        reserving_usd_per_month=69_737.0,
        own_usd_per_month=11_007.0,
    )
    assert said.endswith(
        "Owned servers hold their cards at every run and cost less than either: 1 × HGX H100 8-GPU, about "
        "$11,007 a month (see Buy versus rent), though a lost server leaves 0 of the 3 replicas the window "
        "needs and makes that run late."
    )
    german = _prc032(
        "de",
        reserving_name="aws p5-capacity-block",
        reserving_usd_per_month=69_737.0,
        own_usd_per_month=11_007.0,
    )
    assert german.endswith(
        "Eigene Server halten ihre Karten bei jedem Lauf und kosten weniger als beides: 1 × HGX H100 8-GPU, "
        "etwa 11.007 $ im Monat (siehe Kaufen oder mieten), wobei ein ausgefallener Server 0 der 3 "
        "Replikate lässt, die das Zeitfenster braucht, und diesen Lauf verspätet."
    )


def test_owned_servers_are_compared_with_the_cheaper_of_the_block_and_the_kept_cards() -> None:
    """Owning at $60,000 is below the kept cards' $78,139 but above the block's $50,000: not named."""
    said = _prc032(
        "en",
        reserving_name="aws p5-capacity-block",
        reserving_usd_per_month=50_000.0,
        own_usd_per_month=60_000.0,
    )
    assert "Owned servers" not in said


def test_owning_ruled_out_or_inapplicable_is_not_named_and_uncosted_staff_is_said() -> None:
    for changes in ({"own_hardware_ruled_out_by": "TCO015"}, {"own_hardware_applicable": False}):
        assert "Owned servers" not in _prc032("en", reserving_name="", own_usd_per_month=11_007.0, **changes)
    said = _prc032(
        "en",
        reserving_name="",
        own_usd_per_month=11_007.0,
        own_staff_uncosted_country="FR",
        own_loss_left_with_idle=3,
    )
    assert said.endswith(
        "Owned servers hold their cards at every run and cost less than keeping the rented cards: 1 × HGX "
        "H100 8-GPU, about $11,007 a month before staff (no sourced salary for FR; see Buy versus rent)."
    )
