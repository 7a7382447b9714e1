"""Two sentences a reader needs to weigh the memo of a business-critical chatbot: an API chosen on a gap
within the noise of price dates (DEP011 says the two are even, and that the API's price is another
model's), and a rental that runs more replicas than the Sizing table (spread over its instances, SIZ015)."""

from __future__ import annotations

from typing import Any

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.present.memo import render_memo

CHATBOT: dict[str, Any] = {
    "name": "kunden-chatbot",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 120_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 250,
    "load_pattern": "variable",
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 500,
    "max_time_per_output_token_ms": 30,
    "personal_data": True,
    "business_critical": True,
    "company_country": "DE",
}
EVEN = "on price alone they are even"


def dep011(result: Any) -> str:
    return " ".join(next(f.message for f in result.findings if f.rule_id == "DEP011").split())


def test_an_api_within_the_noise_of_the_self_hosted_route_is_even_on_price() -> None:
    result = run(CHATBOT)
    assert result.decision.deployment == "api" and result.decision.priced_with_another_model
    # $6,669.28 against $6,872.10: 3.0 % apart, under the 5 % line (thresholds.yaml).
    assert round(6872.10 / 6669.28 - 1, 3) == 0.030
    assert dep011(result).endswith(
        "so the API is the cheaper route while it may be used. The two lie within 5 % of each other, a gap "
        "smaller than price dates and discounts move prices by: on price alone they are even, and the API's "
        "price is another model's, standing in for the workload's: weigh the self-hosted route, which runs "
        "the model itself, before taking the API on price."
    )
    assert "$6,669.28/month" in dep011(result) and "$6,872.10/month" in dep011(result)


def test_an_api_well_below_the_self_hosted_route_is_not_called_even() -> None:
    result = run(read_example(EXAMPLES_DIR / "public-chat.yaml"))
    assert result.decision.deployment == "api"
    assert EVEN not in dep011(result)


def test_a_rental_spread_over_its_instances_says_why_it_runs_more_replicas() -> None:
    result = run(CHATBOT)
    row = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    assert (row.replicas, row.spare_replicas) == (3, 1)
    best = result.best_option
    assert best is not None and (best.offer, best.replicas, best.spare_replicas) == ("h100-sxm-2-80g", 4, 2)
    memo = " ".join(render_memo(result).split())
    assert (
        "2 spare replicas on top keep the peak served when replicas fail or are updated: 4 GPUs in all. "
        "That is one replica more than the Sizing table's 3: the replicas are spread over the offer's "
        "instances so that the loss of any one still leaves those the peak needs (SIZ015)."
    ) in memo


def test_a_rental_with_the_sizing_table_s_replicas_says_nothing_more() -> None:
    memo = render_memo(run({**CHATBOT, "business_critical": False}))
    assert "than the Sizing table's" not in memo
