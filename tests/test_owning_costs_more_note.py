"""The buy-versus-rent break-even compares one owned card with one rented card. Where the servers hold
more cards than the rental bills (a business-critical service's replicas spread over two servers), the
break-even utilization alone read as "owning pays at 50 % use" while the rental cost half as much for the
same work: the memo says so beside it."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

HOSPITAL = {
    "name": "ch-hospital-transcript-summaries",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 4000,
    "avg_input_tokens": 6000,
    "avg_output_tokens": 700,
    "load_pattern": "steady",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "business_critical": True,
    "company_country": "CH",
}


def test_the_memo_says_where_owning_costs_more_than_the_compared_rental() -> None:
    result = run(HOSPITAL)
    own = result.own_hardware
    assert own is not None and own.rent_usd_per_month_same_hours is not None
    # Two 8-card servers (the replicas spread, SIZ015) against 4 rented cards billed every hour (PRC033).
    assert (own.nodes, own.gpus_per_server, own.rent_gpus_rented) == (2, 8, 4)
    assert own.rent_billed_hours_per_month == 730
    rent, owned = own.rent_usd_per_month_same_hours, own.usd_per_month
    assert (round(rent), round(owned)) == (11_211, 22_428)
    memo = " ".join(render_memo(result).split())
    assert (
        "For this workload owning costs more at the use it gets: the compared rental bills $11,211 a month "
        "for the same work, owning $22,428, $11,217 more, its servers holding 16 cards "
        "where the rental bills 4; the break-even compares one owned card with one rented card." in memo
    )
    assert round(owned - rent) == 11_217


def test_no_such_note_where_owning_costs_less() -> None:
    # Around the clock at forty times the load, the servers' cards are used and owning undercuts renting.
    busy = {**HOSPITAL, "name": "busy", "requests_per_day": 160_000, "schedule": "always"}
    result = run(busy)
    own = result.own_hardware
    assert own is not None and own.rent_usd_per_month_same_hours is not None
    assert own.usd_per_month <= own.rent_usd_per_month_same_hours
    assert "owning costs more at the use it gets" not in " ".join(render_memo(result).split())
