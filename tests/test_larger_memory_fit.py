"""SIZ005 ("larger-memory cards hold it in fewer cards") fires past 70B only where a card with more memory
than the H100 holds a replica in fewer cards (``constraints.larger_memory_fewer_cards``): Qwen2.5-72B at
INT4 (36 GB of weights) fits one card of every kind, at FP8 (72 GB) it takes two H100 and one H200."""

from __future__ import annotations

import datetime as dt

import pytest

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 4)


def cards_with_kv_reserve(precision: str) -> tuple[dict[str, int | None], tuple[str, ...]]:
    workload = {
        "name": "qwen-72b",
        "model": {"name": "qwen2.5-72b", "precision": precision},
        "requests_per_day": 25_000,
        "company_country": "DE",
    }
    result = recommend(validate_workload(workload, "test"), EVALUATED_ON)
    return {g.gpu: g.gpus_with_kv_reserve for g in result.sizing.gpus}, result.fired_rules


@pytest.mark.parametrize(
    ("precision", "h100", "h200", "fires"),
    [("int4", 1, 1, False), ("fp8", 2, 1, True)],
)
def test_siz005_fires_where_a_larger_memory_card_needs_fewer_cards(
    precision: str, h100: int, h200: int, fires: bool
) -> None:
    cards, fired = cards_with_kv_reserve(precision)
    assert (cards["h100-sxm"], cards["h200"]) == (h100, h200)
    assert ("SIZ005" in fired) is fires
