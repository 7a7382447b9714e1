"""The card-to-card links of gpus.yaml: an NVLink card must state its link's rate (the tensor-parallel
all-reduces run at it), a card reaches one other card at most at its links' total, and a model given by its
attention shape all-reduces activations of its heads times their width."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.model_spec import AttentionShape
from gpu_advisor.knowledge import KNOWLEDGE_DIR


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, target, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return target


def edit_gpu(directory: Path, gpu_id: str, change: Any) -> None:
    path = directory / "gpus.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(next(gpu for gpu in data["gpus"] if gpu["id"] == gpu_id))
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_an_nvlink_card_without_its_link_is_refused(knowledge_copy: Path) -> None:
    edit_gpu(knowledge_copy, "h200", lambda gpu: gpu.pop("link"))
    with pytest.raises(
        KnowledgeError, match="entry 'h200': field link: an NVLink card needs its link's rate"
    ):
        load_knowledge_from(knowledge_copy)


def test_a_peer_rate_above_the_total_is_refused(knowledge_copy: Path) -> None:
    edit_gpu(knowledge_copy, "mi300x", lambda gpu: gpu["link"].update(peer_gb_s=1000))
    with pytest.raises(KnowledgeError, match="peer_gb_s: a card reaches one other card at most"):
        load_knowledge_from(knowledge_copy)


def test_a_pcie_card_needs_no_link() -> None:
    knowledge = load_knowledge()
    assert [g.id for g in knowledge.gpus.gpus if g.link is None] == [
        g.id for g in knowledge.gpus.gpus if g.interconnect == "pcie"
    ]


def test_a_given_attention_shape_sets_the_activation_width() -> None:
    # A 13B model without grouped-query attention: 40 layers of 40 heads of 128, activations 5,120 wide;
    # without a shape the nearest catalog model stands in (Llama 3.1 8B, 4,096).
    knowledge = load_knowledge()
    shape = AttentionShape(num_hidden_layers=40, num_attention_heads=40, num_key_value_heads=40, head_dim=128)
    given = size_model(knowledge, 13.0, 13.0, "bf16", shape, 8192)
    assert (given.num_layers, given.hidden_size) == (40, 5120)
    stand_in = size_model(knowledge, 13.0, 13.0, "bf16", None, 8192)
    assert (stand_in.kv_estimated_from, stand_in.hidden_size) == ("llama-3.1-8b", 4096)
