"""The coverage map: every heuristic and figure of the source documents, and where gpu-advisor holds it.

``rules/coverage.yaml`` is the map; ``gpu-advisor rules coverage`` renders it (``docs/coverage.md``).
Loading checks that every named rule, knowledge entry and calculator exists.

"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import KNOWLEDGE_FILES, describe_validation_error
from gpu_advisor.engine.rulebook.schema import Rulebook
from gpu_advisor.rules import RULES_DIR

COVERAGE_FILE = "coverage.yaml"


class Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class Heuristic(Strict):
    document: str
    section: str
    statement: str
    rules: tuple[str, ...] = ()
    calculators: tuple[str, ...] = ()


class Figure(Strict):
    document: str
    statement: str
    entries: tuple[str, ...]
    tests: tuple[str, ...] = ()
    note: str | None = None


class CoverageMap(Strict):
    schema_version: Literal[1]
    heuristics: tuple[Heuristic, ...] = Field(min_length=1)
    figures: tuple[Figure, ...] = Field(min_length=1)


def knowledge_entry_ids(knowledge: Knowledge) -> set[str]:
    """Every addressable knowledge entry as 'file:id'."""
    ids: set[str] = set()
    for name in KNOWLEDGE_FILES:
        file_model = getattr(knowledge, name)
        for field_name in type(file_model).model_fields:
            value = getattr(file_model, field_name)
            if not isinstance(value, tuple):
                ids.add(f"{name}:{field_name}")
                continue
            for entry in value:
                key = next(
                    (
                        getattr(entry, attr)
                        for attr in ("id", "key", "field", "precision", "country", "load_pattern")
                        if hasattr(entry, attr)
                    ),
                    None,
                )
                if key is None and hasattr(entry, "offer"):
                    key = entry.key
                if key is not None:
                    ids.add(f"{name}:{key}")
    return ids


def calculator_exists(dotted: str) -> bool:
    module_name, _, attribute = dotted.rpartition(".")
    module = importlib.import_module(f"gpu_advisor.{module_name}")
    return callable(getattr(module, attribute, None))


def check_coverage(coverage: CoverageMap, rulebook: Rulebook, knowledge: Knowledge) -> list[str]:
    problems = []
    documents = {d.id for d in knowledge.documents.documents}
    entries = knowledge_entry_ids(knowledge)
    where = RULES_DIR / COVERAGE_FILE
    for heuristic in coverage.heuristics:
        if heuristic.document not in documents:
            problems.append(f"{where}: heuristic {heuristic.statement[:40]!r}: unknown document")
        if not heuristic.rules and not heuristic.calculators:
            problems.append(
                f"{where}: heuristic {heuristic.statement[:40]!r}: names no rule and no calculator"
            )
        problems += [f"{where}: unknown rule {r}" for r in heuristic.rules if r not in rulebook.ids]
        problems += [
            f"{where}: unknown calculator {c}" for c in heuristic.calculators if not calculator_exists(c)
        ]
    for figure in coverage.figures:
        if figure.document not in documents:
            problems.append(f"{where}: figure {figure.statement[:40]!r}: unknown document")
        if not figure.entries and not figure.tests and not figure.note:
            problems.append(f"{where}: figure {figure.statement[:40]!r}: names no entry, test or note")
        problems += [f"{where}: unknown knowledge entry {e}" for e in figure.entries if e not in entries]
    return problems


@cache
def load_coverage() -> CoverageMap:
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.rulebook.loading import load_rulebook

    path = RULES_DIR / COVERAGE_FILE
    data = read_yaml(path)
    try:
        coverage = CoverageMap.model_validate(data)
    except ValidationError as error:
        raise KnowledgeError(describe_validation_error(path, data, error)) from None
    problems = check_coverage(coverage, load_rulebook(), load_knowledge())
    if problems:
        raise KnowledgeError("\n".join(problems))
    return coverage
