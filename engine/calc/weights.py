"""A catalog model's weights in its precision (``WeightsLayout``): a quantized checkpoint (AWQ and GPTQ INT4,
llm-compressor's and ModelOpt's FP8 and INT8) keeps the token embedding and the output layer (lm_head) in
16 bit and INT4 adds a scale and a zero point to every group of weights (``sizing.yaml``,
``quantized_checkpoints``): Llama 3.1 70B in INT4 is 68.45B x (0.5 + 2.5 / 128) bytes + 2 x 128,256 x
8,192 x 2 bytes = 39.76 GB (the checkpoint lists 39.77), not 70.55B x 0.5 bytes = 35.28 GB. A model given
by its size has no vocabulary or width here: its embedding and output layer are taken as the same share of
its active parameters as in the catalog model of its kind nearest to them (``nearest_of_its_kind``),
so that a custom 70.55B model in INT4 weighs what the catalog's Llama 3.1 70B does, not 4.5 GB less. The
share falls with size (Llama 3.1 8B 13 %, 70B 3 %, 405B 1 %) and varies with the vocabulary (Mistral 7B
3.7 %, Qwen2.5 7B 14 %): the stand-in nearest in size is an estimate, which the memo names."""

from __future__ import annotations

from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.models import ModelConfig
from gpu_advisor.engine.domain.weights_layout import WeightsLayout


def weights_layout(
    knowledge: Knowledge,
    model: ModelConfig,
    params_b: float,
    precision: str,
    stands_in_for_active_b: float | None = None,
) -> WeightsLayout:
    """The layout of ``params_b`` parameters in ``precision``: a catalog ``model``'s own, or, where it
    stands in for a model given by its size with ``stands_in_for_active_b`` active parameters, its
    embedding's and output layer's share of its parameters applied to those. The active ones, not all: a
    mixture's embedding is as wide as its active path (Qwen3-235B-A22B's 1.24B are 5.6 % of its 22B
    active, 0.5 % of its 235B), and it can never exceed the parameters a forward pass reads."""
    bytes_per_parameter = knowledge.bytes_per_parameter(precision)
    checkpoints = knowledge.sizing.quantized_checkpoints
    quantized = checkpoints.of(precision)
    kept = model.embedding_and_output_params / 1e9
    looked_up = model.looked_up_params / 1e9
    if stands_in_for_active_b is not None:
        # The stand-in's own share of its active parameters: its exact count where it is dense.
        dense = model.active_params_b >= model.params_b
        share = stands_in_for_active_b / (
            (model.params_b_exact or model.params_b) if dense else model.active_params_b
        )
        kept, looked_up = kept * share, looked_up * share
    return trusted(
        WeightsLayout,
        quantized_params_b=params_b - kept,
        bytes_per_parameter=bytes_per_parameter,
        group_size=quantized.group_size if quantized is not None else None,
        bytes_per_group=quantized.bytes_per_group if quantized is not None else 0.0,
        kept_params_b=kept,
        kept_bytes_per_parameter=checkpoints.kept_bytes_per_parameter
        if quantized is not None
        else bytes_per_parameter,
        looked_up_params_b=looked_up,
        kept_share_from=model.id if stands_in_for_active_b is not None else None,
    )
