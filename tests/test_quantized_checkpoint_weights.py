"""A catalog model's quantized weights are sized as its published checkpoints hold them
(knowledge/sizing.yaml, quantized_checkpoints): the token embedding and the output layer (lm_head), each
vocab_size x hidden_size parameters, stay in 16 bit, and INT4 adds 2.5 bytes of scale and zero point to
every 128 weights. A model given by its size takes the nearest catalog model's share of embedding and
output layer. Every figure below is worked out by hand from models.yaml's counts."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, flat, read_example, run
from pydantic import ValidationError

from gpu_advisor.cli import main
from gpu_advisor.engine.calc.performance import step_reads
from gpu_advisor.engine.calc.sizing import SizingFigures, size_model
from gpu_advisor.engine.domain.knowledge.figures import QuantizedCheckpoints
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

KNOWLEDGE = load_knowledge()


def figures(model_id: str, precision: str) -> SizingFigures:
    model = KNOWLEDGE.model(model_id)
    return size_model(KNOWLEDGE, model.params_b, model.active_params_b, precision, model, 8192, "vllm")


@pytest.mark.parametrize(
    ("model_id", "precision", "gb"),
    [
        # Llama 3.1 70B: 70.55B - 2 x 128,256 x 8,192 (2,101,346,304) = 68,448,653,696 parameters x
        # (0.5 + 2.5 / 128) bytes = 35,561,214,615.5, + 2,101,346,304 x 2 bytes = 39,763,907,223.5 bytes
        # (hugging-quants' AWQ checkpoint lists 39.77 GB), not 70.55B x 0.5 = 35.28 GB.
        ("llama-3.1-70b", "int4", 39.763907),
        # Llama 3.1 8B: 8.03B - 2 x 128,256 x 4,096 (1,050,673,152) = 6,979,326,848 x 1 byte + 1,050,673,152
        # x 2 bytes = 9,080,673,152 bytes (neuralmagic's FP8 checkpoint lists 5 + 4.08 GB), not 8.03 GB.
        ("llama-3.1-8b", "fp8", 9.080673),
        # INT8 holds the same as FP8.
        ("llama-3.1-8b", "int8", 9.080673),
        # 16 bit keeps every parameter at 2 bytes: 8.03B x 2.
        ("llama-3.1-8b", "bf16", 16.06),
    ],
)
def test_a_quantized_checkpoint_keeps_its_embedding_and_output_layer_in_16_bit(
    model_id: str, precision: str, gb: float
) -> None:
    assert figures(model_id, precision).weights_gb == gb


def test_a_model_given_by_its_size_takes_the_nearest_catalog_models_share_for_its_embedding() -> None:
    """No vocabulary or width is known: the embedding and output layer are Llama 3.1 70B's share (the
    catalog model nearest 70B, ahead of Llama 3.3 70B by ID): 2,101,346,304 x 70 / 70.55 =
    2,084,964,440.54 parameters in 16 bit, the other 67,915,035,559.46 x (0.5 + 2.5 / 128) bytes: 39.45 GB,
    not 70B x 0.5 = 35 GB."""
    sized = size_model(KNOWLEDGE, 70.0, 70.0, "int4", None, 8192, "vllm")
    layout = sized.weights_layout
    assert layout is not None
    assert (sized.weights_gb, layout.kept_share_from) == (39.453912, "llama-3.1-70b")
    assert round(layout.kept_params_b * 1e9) == 2_084_964_441
    # A catalog model's own layout names no stand-in.
    own = figures("llama-3.1-70b", "int4").weights_layout
    assert own is not None and own.kept_share_from is None


def test_a_dense_model_given_by_its_size_takes_a_dense_models_share_and_a_mixture_a_mixtures() -> None:
    """A dense 14.77B is nearest Mixtral 8x7B's 12.9B active, but a mixture's vocabulary says nothing of a
    dense model's: Mixtral's 32,000 tokens would give it 0.30B of embedding and output layer. It takes
    Llama 3.1 8B's 13 % instead: 2 x 128,256 x 4,096 x 14.77 / 8.03 = 1.93B. A mixture of 47B with 13B
    active takes Mixtral's: 2 x 32,000 x 4,096 x 13 / 12.9 = 0.26B."""
    dense = size_model(KNOWLEDGE, 14.77, 14.77, "int4", None, 8192, "vllm").weights_layout
    assert dense is not None and dense.kept_share_from == "llama-3.1-8b"
    assert round(dense.kept_params_b * 1e9) == round(2 * 128_256 * 4_096 * 14.77 / 8.03)
    mixture = size_model(KNOWLEDGE, 47.0, 13.0, "int4", None, 8192, "vllm").weights_layout
    assert mixture is not None and mixture.kept_share_from == "mixtral-8x7b"
    assert round(mixture.kept_params_b * 1e9) == round(2 * 32_000 * 4_096 * 13 / 12.9)


def test_a_mixture_given_by_its_size_takes_the_share_of_its_active_parameters() -> None:
    """Qwen3-235B-A22B given by its size: its 151,936 x 4,096 x 2 = 1,244,659,712 embedding and output
    parameters are 5.66 % of its 22B active (0.53 % of its 235.09B), and 22B active get them all back,
    so it weighs what the catalog model does (124 GB in INT4), not 0.12B of them."""
    sized = size_model(KNOWLEDGE, 235.09, 22.0, "int4", None, 8192, "vllm")
    layout = sized.weights_layout
    assert layout is not None and layout.kept_share_from == "qwen3-235b-a22b"
    assert round(layout.kept_params_b * 1e9) == 1_244_659_712
    assert sized.weights_gb == figures("qwen3-235b-a22b", "int4").weights_gb


def test_a_dense_model_given_by_its_size_takes_the_share_of_the_model_nearest_its_active_parameters() -> None:
    """A dense 200B is nearest Qwen3-235B-A22B in total parameters, but its width goes with its 200B
    active ones, nearest Llama 3.1 405B's 405: 4,202,692,608 x 200 / 405.85 = 2.07B of embedding and
    output layer (1 %), not Qwen3's 5.7 % of 22B active applied to 200B (11.3B)."""
    sized = size_model(KNOWLEDGE, 200.0, 200.0, "fp8", None, 8192, "vllm")
    layout = sized.weights_layout
    assert layout is not None and layout.kept_share_from == "llama-3.1-405b"
    assert round(layout.kept_params_b * 1e9) == round(4_202_692_608 * 200 / 405.85)
    assert sized.weights_gb == 202.071057


def test_a_model_given_by_its_size_and_shape_fits_where_the_catalog_model_does() -> None:
    """Llama 3.1 70B given by its size and attention shape weighs what the catalog's does (39.76 GB in
    INT4), so one L40S refuses it as it refuses the catalog model; both fit two."""
    shape = ["--params-b", "70.55", "--attention-shape", "80,64,8,128"]
    for model in (shape, ["--model", "llama-3.1-70b"]):
        args = ["size", *model, "--precision", "int4", "--gpu", "l40s", "--concurrency", "8"]
        one = CliRunner().invoke(main, [*args, "--cards", "1"])
        assert "1 × l40s cannot hold the weights and one request of 450 tokens" in one.output, model
        assert CliRunner().invoke(main, [*args, "--cards", "2"]).exit_code == 0, model
    custom = CliRunner().invoke(main, ["size", *shape, "--precision", "int4"]).output
    assert (
        "Weights: 68.45B x (0.5 + 2.5 / 128) bytes (2.5 bytes of scale and zero point for every 128 "
        "weights) + 2.1B of the token embedding and output layer x 2 bytes (a quantized checkpoint keeps "
        "them in 16 bit; their share of the parameters is llama-3.1-70b's, the dense catalog model nearest "
        "in size, as the model's own vocabulary and width are not given) = 39.8 GB\n"
    ) in custom


def test_a_decode_step_reads_the_output_layer_at_16_bit_and_not_the_embedding() -> None:
    """Llama 3.1 70B in FP8: 68,448,653,696 x 1 byte + the lm_head's 1,050,673,152 x 2 bytes = 70.55 GB
    a step; the embedding's 1,050,673,152 are looked up, not read. In INT4: 68,448,653,696 x 0.51953125
    + 2,101,346,304 = 37,662,560,919.5 bytes."""
    fp8, int4 = figures("llama-3.1-70b", "fp8"), figures("llama-3.1-70b", "int4")
    assert round(step_reads(fp8)(70.55)) == 70_550_000_000
    assert round(step_reads(int4)(70.55) * 2) == 2 * 37_662_560_919.5


def test_the_size_command_shows_how_the_weights_add_up() -> None:
    output = CliRunner().invoke(main, ["size", "--model", "llama-3.1-70b", "--precision", "int4"]).output
    assert (
        "Weights: 68.45B x (0.5 + 2.5 / 128) bytes (2.5 bytes of scale and zero point for every 128 "
        "weights) + 2.1B of the token embedding and output layer x 2 bytes (a quantized checkpoint keeps "
        "them in 16 bit) = 39.8 GB\n"
    ) in output
    fp8 = CliRunner().invoke(main, ["size", "--model", "llama-3.1-8b", "--precision", "fp8"]).output
    assert (
        "Weights: 6.98B x 1 byte + 1.05B of the token embedding and output layer x 2 bytes (a quantized "
        "checkpoint keeps them in 16 bit) = 9.1 GB\n"
    ) in fp8


def test_the_memo_says_whose_share_a_model_given_by_its_size_takes() -> None:
    """Quantized, the embedding's share changes the weights, and the memo says whose it is; in 16 bit
    every parameter weighs 2 bytes and the memo says nothing of it."""
    sentence = (
        "The token embedding and output layer are taken as the same share of the parameters as in "
        "llama-3.1-70b, the dense catalog model nearest in size, as the model's own vocabulary and width are "
        "not given: a model with a larger vocabulary or width holds more."
    )
    hr = read_example(EXAMPLES_DIR / "hr-assistant.yaml")
    int4 = run({**hr, "model": {"params_b": 70, "precision": "int4", "custom_weights": True}})
    assert sentence in flat(render_memo(int4))
    bf16 = run({**hr, "model": {"params_b": 70, "precision": "bf16", "custom_weights": True}})
    assert "token embedding" not in render_memo(bf16)
    # A mixture's share is of its active parameters, and the memo says so.
    mixture = {"params_b": 235.09, "active_params_b": 22, "precision": "int4", "custom_weights": True}
    moe = flat(render_memo(run({**hr, "model": mixture})))
    assert (
        "The token embedding and output layer are taken as the same share of the parameters (of a "
        "mixture's active ones) as in qwen3-235b-a22b, the catalog mixture nearest in active parameters"
    ) in moe


def test_a_precision_is_listed_once_among_the_quantized_checkpoints() -> None:
    """``of`` reads the first entry of a precision: a second entry of it is refused at load."""
    data = KNOWLEDGE.sizing.quantized_checkpoints.model_dump()
    data["precisions"] = [*data["precisions"], data["precisions"][0]]
    with pytest.raises(ValidationError, match="precisions listed more than once: fp8"):
        QuantizedCheckpoints.model_validate(data)
    assert QuantizedCheckpoints.model_validate(KNOWLEDGE.sizing.quantized_checkpoints.model_dump())
