"""The shortcuts that keep a recommendation in milliseconds give what the plain ways give: models built
without validation, per-object caches and the decision without its texts (test_fast_paths_engine.py: facts
rewritten for the engine and rule messages compiled through the bytecode cache; test_fast_paths_copies.py:
what modified copies of the knowledge base share)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR
from hypothesis import HealthCheck, given, settings
from test_robustness import valid_workloads

from gpu_advisor.engine.apps.recommend import decide_workload, recommend
from gpu_advisor.engine.calc.performance import replica_performances
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.common.caching import clear_caches, per_object
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import PriceDate, Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.pipeline.fit import gpu_fit_facts
from gpu_advisor.engine.present.memo import elsewhere

PRICE_DATE = {
    "document": "cloud-gpu-costs-2026",
    "title": "Cloud GPU costs",
    "as_of": dt.date(2026, 3, 27),
    "used_for": "GPU offers",
    "origin": None,
}


# --- trusted --------------------------------------------------------------------------------------------


def test_a_trusted_model_equals_the_validated_one_and_serializes_alike() -> None:
    built = trusted(PriceDate, **PRICE_DATE)
    validated = PriceDate(**PRICE_DATE)
    assert built == validated
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_fields_set == validated.model_fields_set


def test_a_trusted_model_keeps_the_field_order_whatever_the_call_order() -> None:
    built = trusted(PriceDate, **dict(reversed(PRICE_DATE.items())))
    assert list(built.model_dump()) == ["document", "title", "as_of", "used_for", "origin"]


def test_a_trusted_model_names_missing_and_unknown_fields() -> None:
    values = {key: value for key, value in PRICE_DATE.items() if key != "title"}
    with pytest.raises(TypeError, match=r"PriceDate: missing fields \['title'\], unknown fields \['titel'\]"):
        trusted(PriceDate, **values, titel="x")


# --- per-object caches ----------------------------------------------------------------------------------


class Box:
    def __init__(self, value: int) -> None:
        self.value = value


def test_per_object_caches_by_identity_and_by_value_for_strings_and_numbers() -> None:
    calls: list[tuple[Any, ...]] = []

    @per_object
    def work(box: Box, label: str, factor: float) -> float:
        calls.append((box, label, factor))
        return box.value * factor

    first, twin = Box(2), Box(2)
    label = "".join(["lab", "el"])
    assert work(first, label, 1.5) == 3.0
    same_label = "".join(["la", "bel"])
    assert same_label is not label
    assert work(first, same_label, 1.5) == 3.0  # an equal string, another object: cached
    assert work(twin, label, 1.5) == 3.0  # an equal but other object: worked out again
    assert work(first, label, 2.0) == 4.0
    assert work(first, label, 2) == 4.0  # an int is not the float of the same value
    assert len(calls) == 4


def test_a_cached_object_is_kept_alive_so_its_id_cannot_come_back() -> None:
    import gc
    import weakref

    @per_object
    def work(box: Box) -> int:
        return box.value

    box = Box(7)
    alive = weakref.ref(box)
    work(box)
    del box
    gc.collect()
    assert alive() is not None


def test_a_one_argument_cache_holds_a_bounded_number_of_objects() -> None:
    calls: list[Box] = []

    @per_object
    def work(box: Box) -> int:
        calls.append(box)
        return box.value

    boxes = [Box(index) for index in range(40)]
    assert [work(box) for box in boxes] == list(range(40))
    assert work(boxes[-1]) == 39
    assert len(calls) == 40
    assert work(boxes[0]) == 0  # long dropped: worked out again
    assert len(calls) == 41


def test_a_cache_can_be_given_its_size_and_every_cache_can_be_emptied() -> None:
    calls: list[int] = []

    @per_object(entries=3)
    def work(box: Box, factor: int) -> int:
        calls.append(box.value)
        return box.value * factor

    box = Box(5)
    assert [work(box, factor) for factor in (1, 2, 3)] == [5, 10, 15]
    assert work(box, 3) == 15 and len(calls) == 3  # still held
    assert work(box, 4) == 20  # the fourth entry starts the cache over
    assert work(box, 1) == 5 and len(calls) == 5
    clear_caches()
    assert work(box, 1) == 5 and len(calls) == 6


# --- calculators cached per model ------------------------------------------------------------------------


def test_a_sizing_is_worked_out_once_per_model_precision_and_context_and_per_knowledge_base() -> None:
    knowledge = load_knowledge()
    model = knowledge.model("llama-3.1-70b")
    figures = size_model(knowledge, 70.6, 70.6, "fp8", model, 8192)
    assert size_model(knowledge, 70.6, 70.6, "fp8", model, 8192) is figures
    assert size_model(knowledge, 70.6, 70.6, "bf16", model, 8192) is not figures
    assert size_model(knowledge, 70.6, 70.6, "fp8", model, 4096) is not figures
    copy = knowledge.model_copy()
    assert size_model(copy, 70.6, 70.6, "fp8", model, 8192) is not figures
    performances = replica_performances(knowledge, figures, 500, 300)
    assert replica_performances(knowledge, figures, 500, 300) is performances
    assert replica_performances(knowledge, figures, 500, 301) is not performances
    facts = gpu_fit_facts(knowledge, figures, "workload")
    assert gpu_fit_facts(knowledge, figures, "workload") is facts
    assert [fact.scenario for fact in gpu_fit_facts(knowledge, figures, "quantized")] == ["quantized"] * len(
        facts
    )


CACHE_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"context_tokens": 6000},
    {"avg_input_tokens": 700, "avg_output_tokens": 90},
    {"model": {"precision": "int8"}},
)
"""Each changes one input of the cached calculators: context (sizing), token counts (replica
performance), precision (sizing and GPU-fit facts)."""


def cache_variant_workloads() -> list[Any]:
    import yaml

    workloads = []
    for path in sorted(EXAMPLES_DIR.glob("*.yaml")):
        base = yaml.safe_load(path.read_text(encoding="utf-8"))
        for change in CACHE_VARIANTS:
            data = {**base, **change}
            if "model" in change:
                data["model"] = {**base["model"], **change["model"]}
            workloads.append(validate_workload(data, path.stem))
    return workloads


def test_recommendations_from_cached_calculations_are_the_ones_worked_out_afresh() -> None:
    """A cache key that left out an input would hand one variant another's figures: every variant,
    run after all the others have filled the caches, must equal its run from empty caches."""
    workloads = cache_variant_workloads()
    afresh = []
    for workload in workloads:
        clear_caches()
        afresh.append(recommend(workload, EVALUATED_ON).model_dump_json())
    assert len(set(afresh)) == len(workloads)  # every variant changes the result
    for workload in workloads:
        recommend(workload, EVALUATED_ON)
    assert [recommend(w, EVALUATED_ON).model_dump_json() for w in reversed(workloads)] == afresh[::-1]


# --- the decision without its texts ---------------------------------------------------------------------


def assert_same_decision(data: dict[str, Any]) -> None:
    workload = validate_workload(data, "test")
    try:
        full = recommend(workload, EVALUATED_ON)
    except InputError:
        with pytest.raises(InputError):
            decide_workload(workload, EVALUATED_ON)
        return
    # Models built without validation hold what validation accepts: the result read back from its JSON
    # is the same result (a value outside a literal or a bound would fail here).
    written = full.model_dump_json()
    assert Recommendation.model_validate_json(written).model_dump_json() == written
    summary = decide_workload(workload, EVALUATED_ON)
    assert summary.workload == full.workload.name
    assert summary.decision == full.decision
    assert summary.fired_rules == full.fired_rules
    # A finding about a route the decision does not take, or a GPU it does not use, is left to the memo,
    # which names it apart.
    attention = [
        f.rule_id for f in full.findings if f.severity in ("critical", "warning") and not elsewhere(full, f)
    ]
    assert summary.attention == tuple(dict.fromkeys(attention))


@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_the_decision_alone_is_the_recommendations_decision_for_every_example(path: Any) -> None:
    """Also: the result, written as JSON and validated, is the same result."""
    import yaml

    assert_same_decision(yaml.safe_load(path.read_text(encoding="utf-8")))


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_workloads)
def test_the_decision_alone_is_the_recommendations_decision_for_any_workload(data: dict[str, Any]) -> None:
    assert_same_decision(data)
