"""The calibration data: its split, engines and the rules checked when it loads; the per-set error
statistics worked out by hand; the report's text for a fixed input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.knowledge import KNOWLEDGE_DIR

FIRST = "nim-llama33-70b-fp8-2xh100-5000-500-c1"


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, target)
    return target


def edit_calibration(directory: Path, change) -> None:
    path = directory / "calibration.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_the_data_covers_what_the_report_claims() -> None:
    measurements = load_knowledge().calibration.measurements
    held_out = [m for m in measurements if m.split == "held_out"]
    assert len(measurements) >= 30
    assert len(held_out) * 3 >= len(measurements)
    assert {m.gpu for m in measurements} >= {"h100-sxm", "h200"}
    assert {m.precision for m in measurements} >= {"fp8", "bf16"}
    assert {m.model for m in measurements} >= {"mixtral-8x7b", "qwen3-235b-a22b", "deepseek-r1"}
    assert len({m.serving_engine for m in measurements}) >= 2


def test_the_split_follows_the_stated_rule() -> None:
    """fit: the TensorRT-LLM "v1.0" overview (commit 00f37686) and NIM 1.8.0; held_out: every other source."""
    for m in load_knowledge().calibration.measurements:
        url = m.source.url or ""
        fit_source = "00f37686aa854010d68bcbd0f4ab000221541ca6" in url or m.engine == "NVIDIA NIM 1.8.0"
        assert m.split == ("fit" if fit_source else "held_out"), m.id


def test_both_concurrency_and_rate_are_refused(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(request_rate_per_second=2))
    with pytest.raises(KnowledgeError, match=f"entry '{FIRST}'.*at most one of concurrency and request_rate"):
        load_knowledge_from(knowledge_copy)


def test_a_split_outside_fit_and_held_out_is_refused(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(split="test"))
    with pytest.raises(KnowledgeError, match=f"entry '{FIRST}': field measurements.0.split"):
        load_knowledge_from(knowledge_copy)


def test_the_split_and_engine_are_required(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].pop("serving_engine"))
    with pytest.raises(KnowledgeError, match=r"field measurements\.0\.serving_engine: Field required"):
        load_knowledge_from(knowledge_copy)


def test_an_unknown_serving_engine_is_refused(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(serving_engine="nim"))
    with pytest.raises(KnowledgeError, match=r"field measurements\.0\.serving_engine"):
        load_knowledge_from(knowledge_copy)


def test_a_measurement_without_any_figure_is_refused(knowledge_copy: Path) -> None:
    def strip(data) -> None:
        data["measurements"][0].update(
            output_tokens_per_second=None,
            time_to_first_token_ms=None,
            inter_token_latency_ms=None,
            tolerance=None,
        )

    edit_calibration(knowledge_copy, strip)
    with pytest.raises(KnowledgeError, match="give at least one measured figure"):
        load_knowledge_from(knowledge_copy)


def test_duplicate_ids_across_measurements_and_references(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["references"][0].update(id=FIRST))
    with pytest.raises(KnowledgeError, match=f"calibration\\.yaml: entry '{FIRST}': duplicate id"):
        load_knowledge_from(knowledge_copy)


def test_an_unknown_model_or_gpu_is_refused(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(model="llama-9", gpu="h900"))
    with pytest.raises(KnowledgeError) as error:
        load_knowledge_from(knowledge_copy)
    assert f"entry '{FIRST}': field model: unknown model 'llama-9'" in str(error.value)
    assert f"entry '{FIRST}': field gpu: unknown GPU 'h900'" in str(error.value)
