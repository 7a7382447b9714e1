"""PRV006 names the MI300X as an alternative where it needs fewer cards than the H100; it said "the
catalog has no rental price for it, so ask providers" even where an overrides file priced one and the
memo recommended it."""

from __future__ import annotations

from helpers import EVALUATED_ON, TESTS_DIR, run

from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
from gpu_advisor.engine.domain.knowledge.base import Knowledge

# 70B in BF16 (141 GB) fits one 192 GB MI300X where the H100 needs 4 cards.
WORKLOAD = {
    "name": "mi300x-friendly",
    "model": {"name": "llama-3.3-70b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 200_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "latency_sensitive": True,
    "company_country": "US",
}


def prv006(knowledge: Knowledge | None = None) -> str:
    result = run(WORKLOAD, knowledge=knowledge)
    (message,) = [f.message for f in result.findings if f.rule_id == "PRV006"]
    return " ".join(message.split())


def test_without_a_price_it_says_to_ask_providers() -> None:
    assert prv006().endswith(
        "competitive on price/performance; the catalog has no rental price for it, so ask providers."
    )


def test_with_a_price_it_says_the_rentals_are_priced() -> None:
    quoted = knowledge_with_overrides(str(TESTS_DIR / "rates" / "mi300x-quote.yaml"), EVALUATED_ON)
    assert prv006(quoted).endswith(
        "competitive on price/performance; its rentals are priced among the options."
    )
