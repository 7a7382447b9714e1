"""A full batch's memo says what a lone prompt's prefill takes: its passes alone, the weights' reads and
the layers' fixed time with its arithmetic, as a lone request's first token is, not the arithmetic alone
(which a mixture of experts' reads outweigh)."""

from __future__ import annotations

from gpu_advisor.engine.calc.latency import (
    lone_prefill_seconds,
    lone_request,
    prompt_pass_seconds,
    saturation,
)
from gpu_advisor.engine.calc.performance import replica_roofline
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

KNOWLEDGE = load_knowledge()


def r1_on_eight_b200():
    model = KNOWLEDGE.model("deepseek-r1")
    figures = size_model(KNOWLEDGE, model.params_b, model.active_params_b, "fp8", model, 4000, "vllm")
    fit = next(f for f in figures.fits if f.gpu == "b200")
    roofline = replica_roofline(KNOWLEDGE, figures, fit, 1000, 2000, 8)
    assert roofline is not None
    return roofline


def test_a_full_batch_states_the_lone_prompts_passes() -> None:
    roofline = r1_on_eight_b200()
    assert roofline.prefill_chunks == 1
    alone = prompt_pass_seconds(roofline, 0.0)
    assert lone_prefill_seconds(roofline) == alone
    assert saturation(roofline).time_to_first_token_ms == alone * 1000
    # The same as a lone request's first token on an idle replica.
    assert lone_request(roofline).time_to_first_token_ms == saturation(roofline).time_to_first_token_ms
    # A thousand prompt tokens' arithmetic is a third of it: the pass reads the experts the tokens touch.
    assert roofline.prefill_seconds < alone / 2.5
