"""A model given by its size with its attention shape (``model.attention_shape``, ``size
--attention-shape``): its KV cache per token comes from that shape, not from the grouped-query catalog model
that otherwise stands in, and the card counts follow. Figures worked out from vLLM's memory rule in
``knowledge/throughput.yaml`` (90 % of the cards' memory, less the weights and 3.5 GiB per card)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import run

from gpu_advisor import api
from gpu_advisor.cli import main
from gpu_advisor.engine.apps.questionnaire import load_questions
from gpu_advisor.engine.common.errors import InputError

GIB = 2**30
# Llama 2 13B's config.json: 40 layers of 40 heads of 128, one key-value head per query head.
MHA_13B = {"num_hidden_layers": 40, "num_attention_heads": 40, "num_key_value_heads": 40, "head_dim": 128}
MHA_13B_KV_BYTES = 2 * 40 * 40 * 128 * 2  # key and value, layers, heads, head width, 16-bit elements
WORKLOAD: dict[str, Any] = {
    "name": "custom 13B",
    "model": {"params_b": 13, "precision": "bf16", "custom_weights": True},
    "requests_per_day": 20_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 300,
}


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_the_kv_cache_per_token_is_the_given_shapes() -> None:
    assert MHA_13B_KV_BYTES == 819_200
    result = api.size(params_b=13, precision="bf16", attention_shape=MHA_13B)
    assert result.kv_bytes_per_token == MHA_13B_KV_BYTES
    assert result.kv_estimated_from is None


def test_the_shape_sets_the_card_count_where_the_stand_in_would_undercount() -> None:
    # 8 sequences of the default 8,192-token context on h100-sxm (80 GiB) beside 26 GB of BF16 weights.
    needed = 8 * 8_192 * MHA_13B_KV_BYTES
    one_card = 0.9 * 80 * GIB - 26e9 - 3.5 * GIB
    two_cards = 0.9 * 160 * GIB - 26e9 - 2 * 3.5 * GIB
    assert one_card < needed <= two_cards
    stand_in_needed = 8 * 8_192 * (2 * 32 * 8 * 128 * 2)  # llama-3.1-8b: 32 layers, 8 KV heads of 128
    assert stand_in_needed <= one_card

    def h100_cards(**shape: Any) -> int | None:
        result = api.size(params_b=13, precision="bf16", **shape)
        return next(f.gpus_with_kv_reserve for f in result.gpus if f.gpu == "h100-sxm")

    assert h100_cards(attention_shape=MHA_13B) == 2
    assert h100_cards() == 1


def test_the_attention_compute_and_the_layers_are_the_given_shapes() -> None:
    from gpu_advisor.engine.calc.sizing import size_model
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.domain.model_spec import AttentionShape

    shape = AttentionShape(**MHA_13B)
    figures = size_model(load_knowledge(), 13.0, 13.0, "bf16", shape, 8_192)
    # A multiply and an add per element of q·k and of the weighted sum of values, for 40 heads of 128 in
    # each of 40 layers.
    assert figures.attention_flops_per_token_pair == 2 * 40 * 40 * (128 + 128) == 819_200
    assert figures.decode_attention_flops_per_token_pair == 819_200
    assert figures.num_layers == 40


def test_a_grouped_query_shape_gives_the_figure_of_the_catalog_model_it_describes() -> None:
    llama_8b = {"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128}
    given = api.size(params_b=8, precision="bf16", attention_shape=llama_8b)
    catalog = api.size(model="llama-3.1-8b", precision="bf16")
    assert given.kv_bytes_per_token == catalog.kv_bytes_per_token == 131_072


def test_the_memo_says_where_the_kv_figure_comes_from() -> None:
    given = run({**WORKLOAD, "model": {**WORKLOAD["model"], "attention_shape": MHA_13B}})
    assert given.workload.attention_shape is not None
    assert given.workload.attention_shape.num_key_value_heads == 40
    memo = api.render_memo(given)
    assert (
        "KV cache: 819,200 bytes per token from the attention shape given (40 layers, 40 key-value heads of "
        "128), on top of the weights." in memo
    )
    stood_in = api.render_memo(run(WORKLOAD))
    assert (
        "KV cache: about 131,072 bytes per token, estimated from llama-3.1-8b, a grouped-query model (no "
        "attention shape was given for this model). A model with more layers or KV heads holds more per "
        "token, one without grouped-query attention several times more: give model.attention_shape from its "
        "config.json."
    ) in stood_in


def test_the_json_result_carries_the_shape() -> None:
    result = run({**WORKLOAD, "model": {**WORKLOAD["model"], "attention_shape": MHA_13B}})
    data = json.loads(result.model_dump_json())
    assert data["workload"]["attention_shape"] == MHA_13B
    assert data["sizing"]["attention_shape"] == MHA_13B
    assert data["sizing"]["kv_bytes_per_token"] == MHA_13B_KV_BYTES


def test_a_catalog_model_refuses_a_shape() -> None:
    workload = {
        **WORKLOAD,
        "model": {"name": "llama-3.1-8b", "precision": "bf16", "attention_shape": MHA_13B},
    }
    with pytest.raises(InputError) as caught:
        run(workload)
    assert caught.value.field == "model.attention_shape"
    assert "llama-3.1-8b has its own attention shape" in str(caught.value)


@pytest.mark.parametrize(
    ("shape", "words"),
    [
        ({**MHA_13B, "num_key_value_heads": 3}, "num_key_value_heads must divide num_attention_heads"),
        ({**MHA_13B, "head_dim": 0}, "greater than 0"),
        ({k: v for k, v in MHA_13B.items() if k != "head_dim"}, "head_dim"),
        ({**MHA_13B, "hidden_size": 5120}, "hidden_size"),
    ],
)
def test_a_bad_shape_is_an_input_error_naming_the_field(shape: dict[str, int], words: str) -> None:
    with pytest.raises(InputError) as caught:
        api.recommend({**WORKLOAD, "model": {**WORKLOAD["model"], "attention_shape": shape}})
    assert "model.attention_shape" in str(caught.value)
    assert words in str(caught.value)


def test_size_on_the_command_line() -> None:
    data = json.loads(
        invoke(
            "size",
            "--params-b",
            "13",
            "--precision",
            "bf16",
            "--attention-shape",
            "40,40,40,128",
            "--format",
            "json",
        ).output
    )
    assert data["kv_bytes_per_token"] == MHA_13B_KV_BYTES
    # The shape as given, by config.json's names, as the workload's JSON gives it.
    assert data["attention_shape"] == MHA_13B
    text = invoke(
        "size", "--params-b", "13", "--precision", "bf16", "--attention-shape", "40,40,40,128"
    ).output
    assert (
        "KV cache: 819,200 bytes per token (from the attention shape given: 40 layers, 40 attention heads, "
        "40 key-value heads of 128) (16-bit, the vllm default)"
    ) in text


def test_size_without_a_shape_gives_none() -> None:
    for args in (["--model", "llama-3.1-8b"], ["--params-b", "13"]):
        data = json.loads(invoke("size", *args, "--precision", "bf16", "--format", "json").output)
        assert data["attention_shape"] is None


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--params-b", "13", "--attention-shape", "40,40"], "give four whole numbers separated by commas"),
        (["--params-b", "13", "--attention-shape", "40,40,x,128"], "give four whole numbers"),
        (
            ["--model", "llama-3.1-8b", "--attention-shape", "40,40,40,128"],
            "--attention-shape goes with --params-b",
        ),
        (["--params-b", "13", "--attention-shape", "0,40,40,128"], "--attention-shape (num_hidden_layers)"),
    ],
)
def test_size_refuses_a_bad_shape(args: list[str], words: str) -> None:
    result = invoke("size", "--precision", "bf16", *args)
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output


def test_ask_from_a_file_keeps_the_shape_and_the_fields_it_does_not_ask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "custom.yaml"
    model = {**WORKLOAD["model"], "attention_shape": MHA_13B}
    source.write_text(yaml.safe_dump({**WORKLOAD, "model": model, "serving_engine": "sglang"}), "utf-8")
    result = CliRunner().invoke(
        main,
        ["ask", "--as-of", "2026-11-30", "--from", str(source), "--save", "out.yaml", "--memo", "out.md"],
        input="\n" * (len(load_questions()) + 2),
    )
    assert result.exit_code == 0, result.output
    saved = yaml.safe_load((tmp_path / "out.yaml").read_text("utf-8"))
    assert saved["model"]["attention_shape"] == MHA_13B
    assert saved["serving_engine"] == "sglang"
    assert "KV cache: 819,200 bytes per token from the attention shape given" in (
        tmp_path / "out.md"
    ).read_text("utf-8")
