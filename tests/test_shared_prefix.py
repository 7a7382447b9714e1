"""A prompt start every request shares (a system prompt, instructions, a shared document) is computed once
by the serving engine's prefix cache (vLLM's automatic prefix caching, SGLang's radix cache, TensorRT-LLM's
KV block reuse, each on by default): a request prefills the rest of its prompt, attending over the whole,
and its KV cache holds the rest beside one shared copy, while each decode step still reads the whole
context. A RAG assistant whose 6,000-token prompts share 4,000 was estimated as if every prompt were
computed whole: its time to first token three times what the engines do, its cards overcounted."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from helpers import invoke, knowledge_with, run

from gpu_advisor.api import render_memo
from gpu_advisor.engine.calc.performance import replica_roofline
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from

RAG: dict[str, Any] = {
    "name": "rag-assistant",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 200_000,
    "avg_input_tokens": 6_000,
    "avg_output_tokens": 300,
    "shared_prefix_tokens": 4_000,
    "load_pattern": "variable",
    "company_country": "DE",
}


def rooflines(prefix: int) -> tuple[Any, Any]:
    """Llama 3.3 70B FP8 on two H100: the roofline of a 6,000-token prompt with and without ``prefix``
    shared tokens."""
    knowledge = load_knowledge()
    model = next(m for m in knowledge.models.models if m.id == "llama-3.3-70b")
    figures = size_model(knowledge, 70, 70, "fp8", model, 8192)
    fit = next(f for f in figures.fits if f.gpu == "h100-sxm")
    whole = replica_roofline(knowledge, figures, fit, 6_000, 300, 2)
    shared = figures.model_copy(update={"shared_prefix_tokens": prefix})
    return whole, replica_roofline(knowledge, shared, fit, 6_000, 300, 2)


def without_prefix_caching(tmp_path: Any) -> Any:
    """The shipped knowledge with vLLM caching no prefixes."""
    vllm = '    chunked_prefill: true\n    prefix_caching: {}\n    prefix_caching_source: {{url: "https://github.com/vllm'
    directory = knowledge_with(tmp_path, "throughput.yaml", vllm.format("true"), vllm.format("false"))
    return load_knowledge_from(directory)


def test_a_prompt_after_a_cached_prefix_computes_only_its_own_tokens() -> None:
    whole, shared = rooflines(4_000)
    assert whole is not None and shared is not None
    assert (shared.input_tokens, shared.shared_prefix_tokens) == (2_000, 4_000)
    # The weights' multiply-adds are linear in the tokens computed: 2,000 of 6,000.
    assert shared.prefill_compute_seconds == pytest.approx(whole.prefill_compute_seconds * 2_000 / 6_000)
    # Attention: 2,000 tokens over the 4,000 before them and half of their own, 2,000 x 4,000 + 2,000² / 2
    # = 10,000,000 pairs, against 6,000² / 2 = 18,000,000 for the whole prompt.
    assert shared.prefill_attention_seconds == pytest.approx(whole.prefill_attention_seconds * 10 / 18)
    # A decode step reads every sequence's whole context, the shared start included.
    assert shared.kv_seconds_per_sequence == whole.kv_seconds_per_sequence
    assert shared.attention_seconds_per_sequence == whole.attention_seconds_per_sequence
    # vLLM chunks a prompt by 8,192 tokens on an H100: one chunk either way.
    assert (whole.prefill_chunks, shared.prefill_chunks) == (1, 1)


def test_the_kv_cache_holds_each_request_beside_one_shared_copy() -> None:
    """The cache held 36 whole requests of 6,300 tokens, 226,800 tokens in all (short of 37's 233,100);
    with 4,000 shared once, each request keeps 2,300 of its own: (226,800 + r - 4,000) / 2,300, at least
    96 and short of 99 for the cache's remainder r below 6,300."""
    whole, shared = rooflines(4_000)
    assert whole is not None and shared is not None
    assert whole.max_batch == 36
    assert (
        math.floor((36 * 6_300 - 4_000) / 2_300)
        <= shared.max_batch
        < math.floor((37 * 6_300 - 4_000) / 2_300)
    )
    assert shared.max_batch == 97


def test_an_engine_that_caches_no_prefix_computes_every_prompt_whole(tmp_path: Any) -> None:
    knowledge = without_prefix_caching(tmp_path)
    model = next(m for m in knowledge.models.models if m.id == "llama-3.3-70b")
    figures = size_model(knowledge, 70, 70, "fp8", model, 8192)
    fit = next(f for f in figures.fits if f.gpu == "h100-sxm")
    shared = figures.model_copy(update={"shared_prefix_tokens": 4_000})
    roofline = replica_roofline(knowledge, shared, fit, 6_000, 300, 2)
    assert roofline is not None
    assert (roofline.input_tokens, roofline.shared_prefix_tokens, roofline.max_batch) == (6_000, 0, 36)


def test_without_the_engines_prefix_cache_the_texts_say_nothing_of_one(tmp_path: Any) -> None:
    result = run(RAG, knowledge=without_prefix_caching(tmp_path))
    assert (result.workload.shared_prefix_tokens, result.sizing.shared_prefix_tokens) == (4_000, 0)
    memo = render_memo(result)
    # The fact stays in the Workload table; nothing says the engine computes it once.
    assert "| Shared prompt start |" in memo
    assert "prefix cache keeps once a replica" not in memo and "cached-input" not in memo


def test_the_memo_says_what_the_shared_start_changes_and_what_the_api_bill_leaves_out() -> None:
    result = run(RAG)
    assert result.workload.shared_prefix_tokens == 4_000
    assert "shared_prefix_tokens" not in result.workload.defaults_used
    row = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    # Two H100 a replica run 97 requests at once where they ran 36, so fewer replicas carry the peak.
    assert (row.cards_per_replica, row.concurrent_requests) == (2, 97)
    whole = run({**RAG, "shared_prefix_tokens": 0})
    whole_row = next(g for g in whole.sizing.gpus if g.gpu == "h100-sxm")
    assert whole_row.concurrent_requests == 36
    assert row.replicas is not None and whole_row.replicas is not None and row.replicas < whole_row.replicas
    memo = render_memo(result)
    assert (
        "| Shared prompt start | the first 4,000 of each prompt's 6,000 tokens, the same in every request |"
        in memo.splitlines()
    )
    flat = " ".join(memo.split())
    assert (
        "Every request begins with the same 4,000 prompt tokens (shared_prefix_tokens), which vllm's prefix "
        "cache keeps once a replica: each prompt's prefill computes its other 2,000 tokens, attending over "
        "the whole prompt, and its KV cache holds those and the answer beside the one shared copy. Each "
        "decode step is taken to read every sequence's whole context, as paged attention does. A replica's "
        "first request, or one after the cache has dropped the prefix, computes it once more. vLLM's "
        "FlashAttention backend may read a long shared start once a step instead (cascade attention" in flat
    )
    assert (
        "Every prompt token is priced at the API's input price, the 4,000 tokens each prompt shares with the "
        "others too: a provider that bills input its cache serves at a lower price bills less, but the "
        "catalog holds no cached-input prices" in flat
    )
    assert "Shared prompt start" not in render_memo(whole)
    # Cascade attention is vLLM's: an SGLang memo does not name it.
    sglang = render_memo(run({**RAG, "serving_engine": "sglang"}))
    assert "which sglang's prefix cache keeps once a replica" in " ".join(sglang.split())
    assert "cascade attention" not in sglang
    routed_self = run({**RAG, "personal_data": True, "on_premises_required": True})
    assert (
        "- The self-hosted figures count on every prompt beginning with the same 4,000 tokens, byte for "
        "byte: a prompt whose start differs (a timestamp, a user's name or a retrieved passage placed "
        "before the shared text) is computed whole, and the replicas carry fewer requests than planned."
        in render_memo(routed_self)
    )


def test_a_shared_start_as_long_as_the_prompt_is_refused_naming_the_field() -> None:
    said = invoke("recommend", "-", stdin=json.dumps({**RAG, "shared_prefix_tokens": 6_000}))
    assert said.exit_code == 2
    assert (
        "shared_prefix_tokens: 6,000 tokens is not less than an average prompt, 6,000 tokens: the shared "
        "prefix is the start of every prompt, and each prompt adds tokens of its own" in said.output
    )


def test_a_refusal_against_the_default_prompt_says_it_is_the_default() -> None:
    left_out = {key: value for key, value in RAG.items() if key != "avg_input_tokens"}
    said = invoke("recommend", "-", stdin=json.dumps(left_out))
    assert said.exit_code == 2
    assert (
        "shared_prefix_tokens: 4,000 tokens is not less than an average prompt, 300 tokens: the shared "
        "prefix is the start of every prompt, and each prompt adds tokens of its own; 300 is the default: "
        "give the average prompt's tokens as avg_input_tokens, its shared start included" in said.output
    )


def test_size_takes_it_as_an_option() -> None:
    options = ("size", "--model", "llama-3.3-70b", "--precision", "fp8", "--gpu", "h100-sxm", "--cards", "2")
    shape = ("--input-tokens", "6000", "--output-tokens", "300", "--concurrency", "50")
    said = invoke(*options, *shape, "--shared-prefix-tokens", "4000", "--format", "json")
    assert said.exit_code == 0, said.output
    result = json.loads(said.output)
    assert result["shared_prefix_tokens"] == 4_000
    text = invoke(*options, *shape, "--shared-prefix-tokens", "4000")
    assert (
        "Shared prompt start: the first 4,000 tokens of every prompt, which the vllm prefix cache keeps once "
        "a replica:" in text.output
    )
    refused = invoke(*options, *shape, "--shared-prefix-tokens", "6000")
    assert refused.exit_code == 2
    assert "--shared-prefix-tokens: 6,000 tokens is not less than an average prompt, 6,000 tokens" in (
        refused.output
    )
    # Against the default prompt, the refusal names the option that sets it.
    defaulted = invoke(*options, "--shared-prefix-tokens", "5000")
    assert defaulted.exit_code == 2
    assert (
        "300 is the default: give the average prompt's tokens as --input-tokens, its shared start included"
        in (defaulted.output)
    )
