"""The search for the volume where the own servers' cost steps (the memo's "room to grow") works on whole
requests a day: at a handful a day the middle of two neighbouring volumes rounds back to one of them, and
the search must stop there instead of spinning (a 405B on-premises workload at 2 requests a day hung
``recommend``)."""

from __future__ import annotations

from gpu_advisor.engine.pipeline.volumes import RoutePoint
from gpu_advisor.engine.report.charts import _last_held, next_server_at, remembered


def servers_up_to(step: int):  # type: ignore[no-untyped-def]
    """One server up to ``step`` requests a day ($1,000), two beyond it."""

    def month_at(volume: int) -> RoutePoint:
        return RoutePoint(usd_per_month=1000.0 if volume <= step else 2000.0, name="hgx")

    return month_at


def test_neighbouring_volumes_end_the_search() -> None:
    month_at = servers_up_to(2)
    assert _last_held(2, 3, month_at, lambda p: p.usd_per_month == 1000.0) == (2, 3)


def test_a_step_at_a_few_requests_a_day_is_found_to_the_request() -> None:
    month_at = servers_up_to(4)
    assert _last_held(2, 100, month_at, lambda p: p.usd_per_month == 1000.0) == (4, 5)
    assert next_server_at(2, (2, 100), month_at) == (4, 2000.0)


def test_the_search_prices_each_volume_it_reads_once_and_no_other() -> None:
    asked: list[int] = []
    servers = servers_up_to(50)

    def month_at(volume: int) -> RoutePoint:
        asked.append(volume)
        return servers(volume)

    assert next_server_at(20, (10, 20, 30, 100, 300), remembered(month_at)) == (50, 2000.0)
    # Below the workload's volume and beyond the first that costs more, nothing is priced.
    assert asked[:3] == [20, 30, 100]
    assert 10 not in asked and 300 not in asked
    assert len(asked) == len(set(asked))


def test_a_large_step_is_placed_within_two_percent() -> None:
    month_at = servers_up_to(550_000)
    last, first = _last_held(100_000, 1_000_000, month_at, lambda p: p.usd_per_month == 1000.0)
    assert last <= 550_000 < first and first / last <= 1.02


def test_the_workloads_that_hung_are_recommended() -> None:
    from helpers import run

    on_premises = {
        "name": "onprem",
        "model": {"name": "llama-3.1-405b", "precision": "bf16"},
        "requests_per_day": 2,
        "avg_output_tokens": 100_000,
        "on_premises_required": True,
    }
    assert run(on_premises).decision.deployment == "own_hardware"
    small = {
        "name": "hr",
        "model": {"name": "llama-3.1-70b", "precision": "int8"},
        "requests_per_day": 10,
        "personal_data": True,
    }
    assert run(small).decision is not None
