"""A card count is a layout the serving engine must load: vLLM and SGLang refuse a block-quantized FP8
checkpoint split over more cards than its 128 x 128 blocks divide (SIZ020). Qwen3-235B-A22B-FP8's
experts are 1,536 wide: over 8 cards each holds 192, a block and a half (vllm-project/vllm#17569)."""

from __future__ import annotations

import pytest
from helpers import invoke, run
from pydantic import ValidationError

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.knowledge.models import Fp8Checkpoint
from gpu_advisor.engine.present.memo import render_memo

KNOWLEDGE = load_knowledge()

QWEN = {
    "name": "qwen-assistant",
    "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
    "requests_per_day": 200_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 500,
    "load_pattern": "variable",
    "company_country": "DE",
}


def checkpoint(model_id: str) -> Fp8Checkpoint:
    model = next(model for model in KNOWLEDGE.models.models if model.id == model_id)
    assert model.fp8_checkpoint is not None
    return model.fp8_checkpoint


def test_a_block_size_goes_with_the_widths_it_splits() -> None:
    source = {"url": "https://example.org", "title": "t"}
    for given in ({"weight_block": 128}, {"split_widths": [1536]}):
        with pytest.raises(ValidationError, match="weight_block and split_widths go together"):
            Fp8Checkpoint.model_validate({"hf_repo": "x/y", "source": source, "as_of": "2026-01-01", **given})


def test_which_splits_cut_a_block() -> None:
    qwen = checkpoint("qwen3-235b-a22b")
    # 1,536 / 2 = 768 and / 4 = 384 are 6 and 3 blocks; / 8 = 192 and / 16 = 96 are not whole blocks.
    assert [qwen.splits_a_block(cards) for cards in (1, 2, 4, 8, 16)] == [False, False, False, True, True]
    deepseek = checkpoint("deepseek-r1")
    # 2,048 / 16 = 128 and 18,432 / 16 = 1,152 (9 blocks) load; 18,432 / 32 = 576 is 4.5 blocks
    # (sgl-project/sglang#3345), and 2,048 / 32 = 64 half of one.
    assert [deepseek.splits_a_block(cards) for cards in (8, 16, 32)] == [False, False, True]
    # A scale per row (Meta's FP8 405B) has no block to cut.
    assert [checkpoint("llama-3.1-405b").splits_a_block(cards) for cards in (8, 16)] == [False, False]
    # Only the engines known to check it refuse; TensorRT-LLM converts checkpoints its own way.
    refusing = {engine.id: engine.fp8_block_split_refused for engine in KNOWLEDGE.throughput.serving_engines}
    assert refusing == {"vllm": True, "sglang": True, "trtllm": None}


def test_qwen3_fp8_on_eight_cards_is_told_to_run_expert_parallel_or_four_cards_a_layer() -> None:
    result = run(QWEN)
    warned = [finding for finding in result.findings if finding.rule_id == "SIZ020"]
    rows = {row.gpu: row for row in result.sizing.gpus}
    # Every GPU whose replica splits each layer over 8 cards, and only those: the H100 and H200 run
    # it on 4 cards a replica.
    assert sorted(f.message.split(",")[0] for f in warned) == ["On a10g", "On l4", "On l40s", "On rtx-5090"]
    assert (rows["h100-sxm"].cards_per_replica, rows["h200"].cards_per_replica) == (4, 4)
    l40s = next(f for f in warned if f.message.startswith("On l40s"))
    assert l40s.message.startswith(
        "On l40s, a replica of 8 cards splits each layer over 8 cards (tensor parallelism), which leaves a "
        "card part of one of the blocks the model's FP8 checkpoint scales its weights in: the serving "
        "engine refuses to load it that way. Keep each expert whole on its card with expert parallelism "
        "(vLLM --enable-expert-parallel, SGLang --ep-size), or split each layer over 4 cards with pipeline "
        "stages for the rest, whose decode step then takes as long as on 4 cards"
    )


def test_tensorrt_llm_bf16_and_deepseek_are_not_warned() -> None:
    for workload in (
        {**QWEN, "serving_engine": "trtllm"},
        {**QWEN, "model": {"name": "qwen3-235b-a22b", "precision": "bf16"}},
        {**QWEN, "model": {"name": "deepseek-r1", "precision": "fp8"}},
    ):
        assert "SIZ020" not in {finding.rule_id for finding in run(workload).findings}, workload


def test_the_summary_lists_only_what_concerns_the_decision() -> None:
    """The decision is an API: SIZ020's GPUs are none it uses, so the summary names the rule as one
    more and lists it under Risks and caveats, not among the constraints that shaped the decision."""
    result = run(QWEN)
    assert result.decision.deployment == "api"
    memo = render_memo(result)
    summary = memo.split("## Summary")[1].split("### How the rules decided")[0]
    # No constraint or warning concerns the API itself (DeepSeek-R1's price, the reasoning model's stand-in:
    # KNB021): PRC002's spot offers are rentals.
    assert "constraint or warning applies" not in summary and "constraints and warnings apply" not in summary
    aside = "A constraint or warning concerns only GPUs the decision does not use (SIZ020, see Risks and "
    aside += "caveats).\n"
    assert aside in summary
    # PRC002 (spot rentals), PRV004 (the cheapest rental's marketplace) and PRV013 (Modal's SLA) speak of
    # routes not taken.
    routes = (
        "3 more concern routes the decision does not take (PRC002, PRV004, PRV013, see Risks and caveats).\n"
    )
    assert routes in summary
    assert "**SIZ020**" not in summary
    risks = memo.split("## Risks and caveats")[1].split("\n## ")[0]
    listed = (
        "- **SIZ020** The FP8 checkpoint does not load split over this many cards: l40s, l4, rtx-5090, a10g"
    )
    assert listed in risks


def test_size_judges_the_cards_asked_about_without_a_load() -> None:
    """`size --gpu X --cards N` with no load has no replica plan: the GPU-fit rules judged the usual
    count (4 H100 for Qwen3-235B in FP8) instead of the 8 asked about."""
    args = ("size", "--model", "qwen3-235b-a22b", "--precision", "fp8", "--gpu", "h100-sxm", "--cards")
    eight, four = invoke(*args, "8"), invoke(*args, "4")
    assert (eight.exit_code, four.exit_code) == (0, 0)
    assert (
        "SIZ020 The FP8 checkpoint does not load split over this many cards: On h100-sxm, a replica of 8"
        in (eight.output)
    )
    assert "SIZ020" not in four.output


def test_a_latency_finding_named_after_the_fastest_gpu_stays_among_the_decisions_constraints() -> None:
    """LAT010 fires on the fastest GPU's latency fact (b200 here) but says what holds for every GPU: a
    default latency target no GPU can be planned to. The decision (88 owned H100) is sized by it, so the
    summary lists it rather than setting it aside as about a GPU the decision does not use."""
    rag = {
        "name": "rag-long",
        "model": {"name": "llama-3.1-70b", "precision": "bf16", "custom_weights": True},
        "requests_per_day": 20_000,
        "avg_input_tokens": 100_000,
        "avg_output_tokens": 400,
        "load_pattern": "variable",
        "company_country": "DE",
    }
    result = run(rag)
    assert result.decision.gpu == "h100-sxm"
    flags = {(f.rule_id, f.subject): f.about_its_gpu for f in result.findings if f.subject}
    assert flags[("LAT010", "b200")] is False and flags[("NET001", "h100-pcie")] is True
    summary = render_memo(result).split("## Summary")[1].split("### How the rules decided")[0]
    assert "- **LAT010**" in summary
    assert "only GPUs the decision does not use" not in summary


def test_the_brief_ranks_findings_about_unused_gpus_last() -> None:
    """The brief's top findings: SIZ020 (a warning about GPUs an API decision does not use), PRV004 and
    PRC002 (about rentals it does not take) come after the findings about the decision, although more
    severe."""
    from gpu_advisor.engine.present.memo import render_brief

    top = render_brief(run(QWEN)).split("### Top findings")[1]
    assert top.startswith(
        "\n\n- **DEP011** · advice: Above the self-hosting line, the hosted API is still cheaper"
    )
    assert "**PRC002**" not in top and "**SIZ020**" not in top and "**PRV004**" not in top
