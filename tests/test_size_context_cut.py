"""``size --gpu --cards`` evaluates the cards asked for: where their KV cache holds less than the serving
context, the launch line sets what it holds (an engine refuses to start with a context its cache cannot
hold), and the JSON gives the replica's own KV capacity beside the usual count's."""

from __future__ import annotations

import json

from helpers import invoke

ARGS = (
    "size",
    "--params-b",
    "13",
    "--attention-shape",
    "40,40,40,128",
    "--precision",
    "bf16",
    "--gpu",
    "rtx-5090",
    "--cards",
    "1",
    "--concurrency",
    "2",
)


def test_one_card_that_holds_less_than_the_context_starts_with_what_it_holds() -> None:
    """RTX 5090, 32 GiB: vLLM takes 0.9 of it, 30.92 GB; less 26 GB of weights and 3.5 GiB of reserve,
    1.165 GB of KV cache, 1,422 tokens of 819,200 bytes (40 layers x 40 KV heads x 128 x 2 x 2 bytes):
    1,408 in whole 32-token blocks, where the serving context is 8,192."""
    cache = 32 * 2**30 * 0.9 - 13e9 * 2 - 3.5 * 2**30
    per_token = 40 * 40 * 128 * 2 * 2
    assert (per_token, int(cache // per_token), int(cache // per_token) // 32 * 32) == (819200, 1422, 1408)
    result = invoke(*ARGS)
    assert result.exit_code == 0, result.output
    assert "  rtx-5090: vllm serve MODEL --tensor-parallel-size 1 --max-model-len 1408\n" in result.output
    assert (
        "    serving context cut to 1,408 tokens: the KV cache of 1 card holds about 1,422, less than the "
        "8,192 the workload is sized for" in result.output
    )
    row = next(
        g for g in json.loads(invoke(*ARGS, "--format", "json").output)["gpus"] if g["gpu"] == "rtx-5090"
    )
    assert (
        row["replica_kv_tokens_capacity"],
        row["launch"]["context_tokens"],
        row["launch"]["context_cut"],
    ) == (
        1422,
        1408,
        True,
    )
    assert row["kv_tokens_capacity"] > 8 * 8192  # the usual count's: 4 cards


def test_cards_that_hold_the_context_keep_it() -> None:
    """One 80 GiB H100 holds the 13B model's weights and far more than one 8,192-token context."""
    args = [a if a != "rtx-5090" else "h100-sxm" for a in ARGS]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert "--max-model-len 8192" in result.output
    assert "serving context cut" not in result.output
