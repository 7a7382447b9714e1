"""A managed API the comparison leaves out only because its model answers without thinking (KNB021), where it
costs less than the recommendation: the Summary names it and the workload field that would compare it."""

from __future__ import annotations

from typing import Any

from helpers import run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

QWEN3: dict[str, Any] = {
    "name": "qwen3-assistant",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 800,
    "load_pattern": "variable",
    "schedule": "always",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "DE",
}
LEFT_OUT = (
    "(KNB021): where answers without thinking serve the workload, `model.reasoning: false` compares it."
)


def test_a_cheaper_api_of_a_model_that_does_not_think_is_named_in_the_summary() -> None:
    result = run(QWEN3)
    assert result.decision.deployment == "own_hardware"
    # Scaleway's EUR 0.75 / 2.25 per million tokens: 60,000 requests x 730.08 / 24 days x (3,000 x 0.75 +
    # 800 x 2.25) / 1e6 = EUR 7,392.06, x 1.16 USD per EUR = $8,574.79.
    scaleway = next(a for a in result.api_costs if a.api == "qwen3-235b-a22b-2507-scaleway")
    assert round(60_000 * 730.08 / 24 * (3000 * 0.75 + 800 * 2.25) / 1e6 * 1.16, 2) == 8574.79
    assert round(scaleway.usd_per_month, 2) == 8574.79
    assert scaleway.excluded_by == ("KNB021",)
    summary = render_memo(result).split("## Why")[0]
    assert (
        "Qwen3 235B A22B Instruct 2507 (Scaleway Generative APIs) would cost $8,575 per month, less than the "
        "recommendation, but its model answers without thinking where this workload's model thinks first, so "
        "the comparison leaves it out " + LEFT_OUT
    ) in summary


def test_with_thinking_off_the_api_is_compared_and_the_sentence_is_gone() -> None:
    result = run({**QWEN3, "model": {**QWEN3["model"], "reasoning": False}})
    scaleway = next(a for a in result.api_costs if a.api == "qwen3-235b-a22b-2507-scaleway")
    assert scaleway.excluded_by == ()
    assert LEFT_OUT not in render_memo(result)


def test_an_api_excluded_for_another_reason_too_is_not_named() -> None:
    # With personal data RES001 also excludes Together AI's $1,971 (no location stated): Scaleway's is named.
    assert "Together AI" not in render_memo(run(QWEN3)).split("## Why")[0]


def test_an_api_decision_on_another_model_s_price_names_the_cheaper_direct_one() -> None:
    # Without personal data the decision is an API at DeepSeek-R1's price (a reasoning model standing in);
    # Together AI's Qwen3 235B Instruct at $0.20 / $0.60 per million tokens is left out by KNB021: 60,000 x
    # 730.08 / 24 x (3,000 x 0.20 + 800 x 0.60) / 1e6 = $1,971.22.
    result = run({**QWEN3, "personal_data": False})
    assert result.decision.deployment == "api"
    together = next(a for a in result.api_costs if a.api == "qwen3-235b-a22b-2507-together")
    assert together.excluded_by == ("KNB021",)
    worked_out = 60_000 * 730.08 / 24 * (3000 * 0.20 + 800 * 0.60) / 1e6
    assert round(worked_out, 2) == 1971.22
    assert round(together.usd_per_month, 2) == round(worked_out, 2)
    summary = render_memo(result).split("## Why")[0]
    assert (
        "Qwen3 235B A22B Instruct 2507 FP8 (Together AI) would cost $1,971 per month, "
        "less than the recommendation"
    ) in summary


def test_an_api_that_does_not_take_the_workload_s_answers_is_not_named() -> None:
    # Answers of 17,000 tokens: Scaleway's answer cap (16,000) refuses them, so model.reasoning: false
    # would not compare it either.
    result = run({**QWEN3, "avg_output_tokens": 17_000})
    scaleway = next(a for a in result.api_costs if a.api == "qwen3-235b-a22b-2507-scaleway")
    assert scaleway.exceeded_limit is not None
    assert scaleway.excluded_by == ("KNB021",)
    assert LEFT_OUT not in render_memo(result)


def test_the_left_out_api_in_german() -> None:
    summary = render_memo(run(QWEN3), Format.named("de")).split("## Begründung")[0]
    assert (
        "Qwen3 235B A22B Instruct 2507 (Scaleway Generative APIs) würde 8.575 $ pro Monat kosten, "
        "weniger als die Empfehlung, doch das Modell dahinter antwortet ohne Nachdenken, wo das Modell "
        "dieses Workloads zuerst nachdenkt, daher lässt der Vergleich diesen Preis aus (KNB021): Wo "
        "Antworten ohne Nachdenken dem Workload genügen, nimmt `model.reasoning: false` ihn in den "
        "Vergleich auf."
    ) in summary
