"""vLLM's OpenAI server takes up to 8,192 tokens a step on cards of at least 70 GiB other than the A100,
2,048 on others (EngineArgs.get_batch_defaults), the same split as its 1,024 and 256 sequences: a long
prompt is prefilled in chunks of that size, and on a small card in more of them."""

from __future__ import annotations

from gpu_advisor.engine.calc.performance import replica_performances
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge


def test_the_step_budget_follows_the_card() -> None:
    knowledge = load_knowledge()
    vllm, trtllm = knowledge.serving_engine("vllm"), knowledge.serving_engine("trtllm")
    step = {gpu: vllm.max_batched_tokens_on(knowledge.gpu(gpu)) for gpu in ("h100-sxm", "l40s", "a100-80gb")}
    assert step == {"h100-sxm": 8192, "l40s": 2048, "a100-80gb": 2048}
    sequences = {gpu: vllm.max_sequences_on(knowledge.gpu(gpu)) for gpu in ("h100-sxm", "l40s", "a100-80gb")}
    assert sequences == {"h100-sxm": 1024, "l40s": 256, "a100-80gb": 256}
    # TensorRT-LLM has one default, whatever the card.
    assert {trtllm.max_batched_tokens_on(knowledge.gpu(g)) for g in ("h100-sxm", "l40s")} == {8192}


def test_a_3000_token_prompt_takes_two_chunks_on_an_l40s_and_one_on_an_h100() -> None:
    knowledge = load_knowledge()
    model = knowledge.model("qwen2.5-32b")
    figures = size_model(knowledge, model.params_b, model.active_params_b, "fp8", model, 8192, "vllm")
    chunks = {p.gpu: p.roofline.prefill_chunks for p in replica_performances(knowledge, figures, 3000, 500)}
    # ceil(3,000 / 2,048) = 2 on the L40S and the A100; ceil(3,000 / 8,192) = 1 on the H100.
    assert (chunks["l40s"], chunks["a100-80gb"], chunks["h100-sxm"]) == (2, 2, 1)
    # The TensorRT-LLM profile runs a prompt in one pass (no chunked prefill).
    whole = size_model(knowledge, model.params_b, model.active_params_b, "fp8", model, 8192, "trtllm")
    assert {p.roofline.prefill_chunks for p in replica_performances(knowledge, whole, 3000, 500)} == {1}
