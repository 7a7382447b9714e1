"""Whether an API's model thinks before it answers is sourced: a hosted model outside the catalog that
reasons cites its card (``ApiPrice.reasoning_source``); a catalog model's card is cited in models.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import knowledge_with

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from

QWEN_CARD = '    reasoning_source: {url: "https://huggingface.co/Qwen/Qwen3.5-9B"'


def test_qwen35_9b_thinks_by_its_cards_default() -> None:
    (qwen,) = [a for a in load_knowledge().api_prices.apis if a.id == "qwen3.5-9b-ovhcloud"]
    assert qwen.model is None and qwen.model_reasoning
    assert (
        qwen.reasoning_source is not None
        and qwen.reasoning_source.url == "https://huggingface.co/Qwen/Qwen3.5-9B"
    )


def test_a_reasoning_model_outside_the_catalog_without_its_source_is_refused(tmp_path: Path) -> None:
    directory = knowledge_with(tmp_path, "api_prices.yaml", _line_starting(QWEN_CARD), "")
    with pytest.raises(KnowledgeError, match=r"reasons cites where \(reasoning_source\)"):
        load_knowledge_from(directory)


def test_a_catalog_models_api_does_not_cite_it_again(tmp_path: Path) -> None:
    r1 = '    model_active_params_b: 37\n    model_reasoning: true\n    note: "R1-0528'
    cited = '    reasoning_source: {url: "https://huggingface.co/deepseek-ai/DeepSeek-R1"}\n'
    directory = knowledge_with(tmp_path, "api_prices.yaml", r1, r1.replace("    note", cited + "    note"))
    with pytest.raises(KnowledgeError, match="reasoning_source is for a model outside the catalog"):
        load_knowledge_from(directory)


def _line_starting(prefix: str) -> str:
    from gpu_advisor.knowledge import KNOWLEDGE_DIR

    text = (KNOWLEDGE_DIR / "api_prices.yaml").read_text(encoding="utf-8")
    (line,) = [line for line in text.splitlines() if line.startswith(prefix)]
    return line + "\n"
