"""A GPU kept off the card that holds its weights by the full context's KV cache says which serving
context would run a replica there: Llama 3.1 8B in 16 bits fits one 24 GB L4, but its cache beside the
weights holds fewer than the two 8,192-token sequences a replica below the usual count keeps, so the
light count is two cards, which all-reduce over PCIe (NET001), and the sizing row said only
"not recommended (NET001)" for five million 820-token requests a night. Worked out by hand from the
card's memory and the model's KV cache."""

from __future__ import annotations

import datetime as dt
from typing import Any

from click.testing import CliRunner

from gpu_advisor.api import render_memo
from gpu_advisor.cli import main
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

EVALUATED_ON = dt.date(2026, 12, 7)
GIB = 2**30

NIGHTLY: dict[str, Any] = {
    "name": "nightly-classification",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 5_000_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 20,
    "load_pattern": "batch",
    "company_country": "DE",
}

# vLLM keeps 90 % of the L4's 24 GB less its 3.5 GiB reserve beside 16.06 GB of weights (the catalog's
# 8.03B parameters x 2 bytes): 1.78 GB, 13,594 tokens of 131,072 bytes (32 layers x 8 KV heads x 128 x 2
# x 2 bytes), two sequences of 6,797 tokens.
CACHE_TOKENS = (0.9 * 24e9 - 3.5 * GIB - 8.03e9 * 2) / (32 * 8 * 128 * 2 * 2)
LONGEST = 6_797


def test_the_longest_context_two_sequences_of_which_one_l4_keeps() -> None:
    assert int(CACHE_TOKENS) == 13_594
    assert int(CACHE_TOKENS / 2) == LONGEST
    result = recommend(validate_workload(NIGHTLY, "test"), EVALUATED_ON)
    rows = {g.gpu: g for g in result.sizing.gpus}
    assert (rows["l4"].gpus_for_weights, rows["l4"].gpus_for_light_load) == (1, 2)
    assert rows["l4"].context_tokens_on_one_card == LONGEST
    assert rows["l4"].not_recommended_by == ("NET001",)
    # One H100 keeps the weights and two full-context sequences: nothing to shorten.
    assert rows["h100-sxm"].context_tokens_on_one_card is None
    memo = render_memo(result)
    (line,) = [row for row in memo.splitlines() if row.startswith("| l4 |")]
    assert line.endswith(
        "| not recommended (NET001); 1 card holds the weights but not 2 sequences of the 8,192-token "
        "context: a context_tokens of 6,797 or less runs a replica on it |"
    )


def test_at_that_context_the_l4_runs_a_replica_on_one_card_and_one_token_more_does_not() -> None:
    """The figure is the boundary the sizing itself draws, not a second estimate of it."""
    at = recommend(validate_workload({**NIGHTLY, "context_tokens": LONGEST}, "test"), EVALUATED_ON)
    l4 = next(g for g in at.sizing.gpus if g.gpu == "l4")
    assert (l4.cards_per_replica, l4.not_recommended_by, l4.context_tokens_on_one_card) == (1, (), None)
    beyond = recommend(validate_workload({**NIGHTLY, "context_tokens": LONGEST + 1}, "test"), EVALUATED_ON)
    l4 = next(g for g in beyond.sizing.gpus if g.gpu == "l4")
    assert (l4.not_recommended_by, l4.context_tokens_on_one_card) == (("NET001",), 6_797)


def test_not_offered_where_an_average_request_would_not_fit_that_context() -> None:
    """A 7,000-token prompt and its answer outgrow 6,797 tokens: no context_tokens that short is valid."""
    long = recommend(validate_workload({**NIGHTLY, "avg_input_tokens": 7_000}, "test"), EVALUATED_ON)
    assert "runs a replica on it" not in render_memo(long)


SIZE = ["size", "--model", "llama-3.1-8b", "--precision", "bf16"]


def test_size_says_it_with_its_own_option() -> None:
    said = CliRunner().invoke(main, SIZE)
    assert said.exit_code == 0, said.output
    assert (
        "\nl4: 1 card holds the weights but not 2 sequences of the 8,192-token context: "
        "--context-tokens 6797 or less runs a replica on it under a light load (give --requests-per-day; "
        "without a load the table shows the usual count).\n"
    ) in said.output
    # With a load the sizing plans the light count itself: the line says no more.
    loaded = CliRunner().invoke(main, [*SIZE, "--requests-per-day", "30000"])
    assert "--context-tokens 6797 or less runs a replica on it.\n" in loaded.output
    long = CliRunner().invoke(
        main,
        [*SIZE, "--requests-per-day", "1000", "--input-tokens", "7000", "--output-tokens", "20"],
    )
    assert long.exit_code == 0, long.output
    assert "--context-tokens 6797" not in long.output
