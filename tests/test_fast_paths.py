"""The shortcuts that keep a recommendation in milliseconds give what the plain ways give: models built
without validation, per-object caches, the decision without its texts, facts rewritten for the engine,
and rule messages compiled through the bytecode cache."""

from __future__ import annotations

import datetime as dt
import typing
from typing import Any

import pytest
from gpu_advisor.engine.adapter import fired_rule_name
from gpu_advisor.engine.advisor import decide_workload, recommend
from gpu_advisor.engine.errors import EngineError, InputError
from gpu_advisor.engine.facts import FACT_MODELS, GpuFitFact, _float_fields
from gpu_advisor.engine.identity_cache import per_object
from gpu_advisor.engine.knowledge import load_knowledge
from gpu_advisor.engine.result import PriceDate
from gpu_advisor.engine.trusted import trusted
from gpu_advisor.engine.workload import validate_workload
from helpers import EVALUATED_ON, EXAMPLES_DIR
from hypothesis import HealthCheck, given, settings
from test_robustness import valid_workloads

PRICE_DATE = {
    "document": "cloud-gpu-costs-2026",
    "title": "Cloud GPU costs",
    "as_of": dt.date(2026, 3, 27),
    "used_for": "GPU offers",
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
    assert list(built.model_dump()) == ["document", "title", "as_of", "used_for"]


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
    assert work(first, "a", 1.5) == 3.0
    assert work(first, "".join(["a"]), 1.5) == 3.0  # an equal string of another object: cached
    assert work(twin, "a", 1.5) == 3.0  # an equal but other object: worked out again
    assert work(first, "a", 2.0) == 4.0
    assert len(calls) == 3


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


# --- the decision without its texts ---------------------------------------------------------------------


def assert_same_decision(data: dict[str, Any]) -> None:
    workload = validate_workload(data, "test")
    try:
        full = recommend(workload, EVALUATED_ON)
    except InputError:
        with pytest.raises(InputError):
            decide_workload(workload, EVALUATED_ON)
        return
    summary = decide_workload(workload, EVALUATED_ON)
    assert summary.workload == full.workload.name
    assert summary.decision == full.decision
    assert summary.fired_rules == full.fired_rules
    attention = [f.rule_id for f in full.findings if f.severity in ("critical", "warning")]
    assert summary.attention == tuple(dict.fromkeys(attention))


@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_the_decision_alone_is_the_recommendations_decision_for_every_example(path: Any) -> None:
    import yaml

    assert_same_decision(yaml.safe_load(path.read_text(encoding="utf-8")))


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_workloads)
def test_the_decision_alone_is_the_recommendations_decision_for_any_workload(data: dict[str, Any]) -> None:
    assert_same_decision(data)


# --- facts for the engine -------------------------------------------------------------------------------


def float_typed(annotation: Any) -> bool:
    return annotation is float or float in typing.get_args(annotation)


@pytest.mark.parametrize("kind", sorted(FACT_MODELS))
def test_every_float_field_of_a_fact_is_rewritten_for_the_engine(kind: str) -> None:
    model = FACT_MODELS[kind]
    floats = {name for name, field in model.model_fields.items() if float_typed(field.annotation)}
    assert floats == set(_float_fields(model))


def test_a_fact_payload_rewrites_only_numbers_the_engine_cannot_read() -> None:
    fact = GpuFitFact(
        scenario="workload",
        gpu="h100-sxm",
        vendor="nvidia",
        interconnect="nvlink",
        segment="datacenter",
        memory_gb=80.0,
        weights_gb=3e-6,
        gpus_for_weights=1,
        gpus_with_kv_reserve=1,
        multi_card=False,
        fits=True,
        needs_two_nodes=False,
        node_memory_gb=2.5e16,
        native_precision=True,
        reference_gpus=1,
    )
    payload = fact.payload()
    assert payload["memory_gb"] == 80.0
    assert payload["weights_gb"] == 0.0
    assert payload["node_memory_gb"] == 25_000_000_000_000_000
    assert isinstance(payload["node_memory_gb"], int)
    assert list(payload) == list(GpuFitFact.model_fields)


def test_an_action_the_engine_cannot_name_is_an_engine_error() -> None:
    assert fired_rule_name('{"DEP001":{"m":{"sid": "1"}}}') == "DEP001"
    with pytest.raises(EngineError, match="could not name"):
        fired_rule_name("[1, 2]")


# --- rule messages through the bytecode cache ----------------------------------------------------------


def test_rule_messages_are_kept_compiled_between_runs(tmp_path: Any, monkeypatch: Any) -> None:
    """A fresh process compiles a fired rule's message once and finds it in the cache the next time."""
    import subprocess
    import sys

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    script = (
        "import datetime as dt;"
        "from gpu_advisor.engine.advisor import recommend;"
        "from gpu_advisor.engine.workload import load_workload;"
        f"recommend(load_workload({str(EXAMPLES_DIR / 'public-chat.yaml')!r}), dt.date(2026, 11, 30))"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
    cached = sorted((tmp_path / "gpu-advisor" / "jinja").iterdir())
    fired = recommend(validate_workload(_example("public-chat"), "test"), EVALUATED_ON).findings
    assert len(cached) >= len({f.rule_id for f in fired})
    stamps = {path.name: path.stat().st_mtime_ns for path in cached}
    subprocess.run([sys.executable, "-c", script], check=True)
    assert {path.name: path.stat().st_mtime_ns for path in cached} == stamps


def _example(name: str) -> dict[str, Any]:
    import yaml

    return yaml.safe_load((EXAMPLES_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


def test_the_listings_of_a_modified_knowledge_base_are_its_own() -> None:
    from gpu_advisor.engine.options import listings

    knowledge = load_knowledge()
    offers = knowledge.offers.model_copy(
        update={
            "offers": tuple(o.model_copy(update={"usd_per_gpu_hour": 9.99}) for o in knowledge.offers.offers)
        }
    )
    cheaper = knowledge.model_copy(update={"offers": offers})
    assert {listing.offer.usd_per_gpu_hour for listing in listings(cheaper)} == {9.99}
    assert 9.99 not in {listing.offer.usd_per_gpu_hour for listing in listings(knowledge)}


def test_the_library_decides_from_a_mapping() -> None:
    from gpu_advisor.api import decide

    summary = decide(_example("public-chat"), EVALUATED_ON)
    assert (
        summary.decision
        == recommend(validate_workload(_example("public-chat"), "test"), EVALUATED_ON).decision
    )
    with pytest.raises(InputError, match="requests_per_day"):
        decide({**_example("public-chat"), "requests_per_day": -1}, EVALUATED_ON)
