"""Buy versus rent says when the cheapest rental's GPU has no own-server price in the catalog, so that a
reader does not take the owned figure for that GPU's."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

CONSUMER_70B = {
    "name": "consumer-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 400,
    "avg_output_tokens": 200,
    "load_pattern": "variable",
    "company_country": "US",
}
SENTENCE = "The catalog prices own hardware for these GPUs only"


def test_a_rental_gpu_without_an_own_server_price_is_named() -> None:
    result = run(CONSUMER_70B)
    assert result.own_server_gpus == ("rtx-5090", "h100-sxm")
    assert result.best_option is not None and result.best_option.gpu == "b200"
    assert result.own_hardware.gpu == "h100-sxm"
    assert (
        f"{SENTENCE}: rtx-5090, h100-sxm. Owning b200, the GPU of the cheapest rental, is not compared, so "
        "buying is weighed on h100-sxm."
    ) in render_memo(result)


def test_no_sentence_where_the_cheapest_rental_is_on_the_own_servers_gpu() -> None:
    personal = {"requests_per_day": 200_000, "personal_data": True, "company_country": "DE"}
    result = run({**CONSUMER_70B, **personal})
    assert result.best_option is not None and result.best_option.gpu in result.own_server_gpus
    assert SENTENCE not in render_memo(result)
