"""Sentences of the memo that said less than the figures behind them: the next best offer (or serverless
option) was the chosen one in another region at the same price; one card read "(1 cards)"; and a
latency-sensitive workload sent to a managed API read "That is within the workload's latency targets" of
the self-hosted fleet only, as if the API had been checked."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import EXAMPLES_DIR, STEADY_IN_THE_BAND, knowledge_with, run
from test_stale_route_price import SPORADIC

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge_from
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

CLAIMS = {
    "name": "claims-triage",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 1200,
    "avg_output_tokens": 200,
    "load_pattern": "steady",
    "schedule": "always",
    "business_critical": True,
    "company_country": "DE",
}
WEEKLY = {
    "name": "weekly-catalog",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 500_000,
    "avg_input_tokens": 700,
    "avg_output_tokens": 120,
    "load_pattern": "batch",
    "batch_window_hours": 12,
    "batch_runs_per_month": 4.35,
    "company_country": "DE",
}
INTERNAL = yaml.safe_load((EXAMPLES_DIR / "internal-assistant.yaml").read_text(encoding="utf-8"))
CHAT = {
    "name": "consumer-chat-70b",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 400,
    "avg_output_tokens": 200,
    "load_pattern": "variable",
    "schedule": "always",
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 500,
    "max_time_per_output_token_ms": 50,
    "company_country": "DE",
}


def scaleway_in_two_jurisdictions(directory: Path) -> Knowledge:
    """The catalog with a UK region added to Scaleway and its 2-card H100 instance sold there as in Paris
    (the catalog lists EU regions only): one offer in two jurisdictions at the same price."""
    copy = knowledge_with(
        directory,
        "providers.yaml",
        '      - {id: pl-waw-2, name: "Warsaw 2", jurisdiction: EU, countries: [PL]}\n',
        '      - {id: pl-waw-2, name: "Warsaw 2", jurisdiction: EU, countries: [PL]}\n'
        '      - {id: uk-lon-1, name: "London 1", jurisdiction: UK, countries: [GB]}\n',
    )
    offers = copy / "offers.yaml"
    text = offers.read_text(encoding="utf-8")
    start = text.index("    offer: h100-sxm-2-80g\n")
    end = text.index("    regions: [fr-par-2]\n", start)
    offers.write_text(
        text[:end] + "    regions: [fr-par-2, uk-lon-1]\n" + text[end + len("    regions: [fr-par-2]\n") :]
    )
    return load_knowledge_from(copy)


def test_the_next_best_offer_is_another_offer_not_the_chosen_one_elsewhere(tmp_path: Path) -> None:
    # Own weights: no API serves them, and Scaleway's 2-card H100 instances are decided.
    claims = {**CLAIMS, "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True}}
    result = run(claims, knowledge=scaleway_in_two_jurisdictions(tmp_path))
    best = result.best_option
    assert best is not None and (best.provider, best.offer, best.gpus) == ("scaleway", "h100-sxm-2-80g", 6)
    assert result.decision.deployment == "dedicated_cloud"
    # Scaleway sells the same H100 at the same price in both regions: the second row of the admitted
    # offers is the chosen offer again.
    same = [o for o in result.options if (o.provider, o.offer) == ("scaleway", "h100-sxm-2-80g")]
    assert len(same) == 2 and same[0].usd_per_month == same[1].usd_per_month
    memo = render_memo(result)
    # 6 x $4.19 x 730 h.
    assert "Next best dedicated offer: lambda 2-gpu-plan (6 × h100-sxm) at $18,352 per month." in memo
    assert "Next best dedicated offer: scaleway" not in memo


def test_one_compared_card_is_a_card() -> None:
    result = run(WEEKLY)
    assert result.own_hardware.rent_gpus_rented == 1
    assert "h (1 card) |" in render_memo(result)
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert "h (1 Karte) |" in german
    # One owned card: the office machine's row.
    office = run({**INTERNAL, "latency_sensitive": False})
    assert office.own_hardware.nodes * office.own_hardware.gpus_per_server == 1
    assert "| Own hardware (1 card) |" in render_memo(office)


def test_the_next_best_serverless_option_is_another_product_or_gpu() -> None:
    # RunPod's L4 is chosen in its pool of every data centre (at the same price the EU data centres, which
    # promise no stock of it, come after it); the same product in its other region is not the next best:
    # Modal's L4 is.
    result = run(STEADY_IN_THE_BAND)
    chosen = result.serverless_option
    assert result.decision.deployment == "serverless" and chosen is not None
    assert (chosen.provider, chosen.gpu, chosen.regions) == ("runpod", "l4", ("variable",))
    memo = render_memo(result)
    assert "The next serverless option: Modal serverless functions on l4 (unknown) at $423 per month." in memo
    assert "The next serverless option: RunPod" not in memo


def test_an_api_decision_says_its_latency_is_not_checked() -> None:
    result = run(CHAT)
    assert result.decision.deployment == "api"
    # The peak: 2,000,000 requests over 24 hours, 23.15 a second on average, times the variable profile's
    # busiest hour (2.31) and its busiest minutes (1.27).
    assert result.load.peak_requests_per_second == pytest.approx(2_000_000 / 86_400 * 2.31 * 1.27, rel=0.01)
    memo = render_memo(result)
    assert (
        "That is within the workload's latency targets (the first token within 500 ms, 50 ms per token)."
        in memo
    )
    assert (
        "These latencies are the self-hosted replicas', not the managed API's: the catalog holds no latency "
        "of the API, so the targets are not checked for the recommendation (its default limits on requests, "
        "where the catalog records them, are in the findings). Measure its time to the first token and per "
        "token at the peak's 68 requests/s before relying on it."
    ) in memo
    # Self-hosted, the figures are the recommendation's own: no such sentence.
    hosted = run({**CHAT, "model": {"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True}})
    assert hosted.decision.deployment != "api"
    assert "not the managed API's" not in render_memo(hosted)


def test_a_decision_on_another_gpu_than_the_cheapest_rental_gives_its_own_latency() -> None:
    """An 8B model with its own weights at 300 requests a day: RunPod Serverless on an L4 is recommended,
    the cheapest rental is an RTX 5090, whose figures the Load section quotes; the section now gives the
    L4's too, from its sizing row."""
    result = run(SPORADIC)
    assert (result.decision.deployment, result.decision.gpu) == ("serverless", "l4")
    assert result.best_option is not None and result.best_option.gpu == "rtx-5090"
    l4 = next(g for g in result.sizing.gpus if g.gpu == "l4")
    assert l4.time_to_first_token_ms is not None and l4.time_per_output_token_ms is not None
    sentence = (
        "The recommendation runs on l4 instead, one card a replica: at the peak its first token comes after "
        f"about {round(l4.time_to_first_token_ms)} ms, then about {round(l4.time_per_output_token_ms)} ms "
        'per output token (its row under "Sizing"); the figures above are those of the cheapest rental\'s '
        "rtx-5090 replicas."
    )
    assert sentence in " ".join(render_memo(result).split())
    # Where the decision is the cheapest rental's GPU, no such sentence.
    assert "The recommendation runs on" not in render_memo(run(CHAT))
