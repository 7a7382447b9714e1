"""The durable-rules engine and the plain-Python reference evaluator agree on generated workloads."""

from __future__ import annotations

import datetime as dt
from typing import Any

from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_evaluator import ReferenceEvaluator

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.rulebook.loading import load_rulebook

REFERENCE = ReferenceEvaluator(load_rulebook(), load_knowledge().threshold_values())
MODEL_IDS = [m.id for m in load_knowledge().models.models]
DEFAULT_CONTEXT = 8192
SMALLEST_MAX_CONTEXT = min(m.max_context_tokens for m in load_knowledge().models.models)


@st.composite
def models(draw: st.DrawFn) -> dict[str, Any]:
    precision = draw(st.sampled_from(["fp32", "bf16", "fp16", "fp8", "int8", "int4"]))
    custom = draw(st.booleans())
    if draw(st.booleans()):
        return {"name": draw(st.sampled_from(MODEL_IDS)), "precision": precision, "custom_weights": custom}
    total = draw(st.floats(min_value=0.5, max_value=1500, allow_nan=False))
    model: dict[str, Any] = {"params_b": total, "precision": precision, "custom_weights": custom}
    if draw(st.booleans()):
        model["active_params_b"] = draw(st.floats(min_value=0.1, max_value=total))
    return model


@st.composite
def workloads(draw: st.DrawFn) -> dict[str, Any]:
    workload: dict[str, Any] = {
        "name": "generated",
        "model": draw(models()),
        # Around the 10,000 and 100,000 lines, and far from them.
        "requests_per_day": draw(
            st.one_of(
                st.sampled_from([1, 9_999, 10_000, 10_001, 99_999, 100_000, 100_001]),
                st.integers(min_value=1, max_value=5_000_000),
            )
        ),
    }
    optional = {
        "avg_input_tokens": st.integers(min_value=1, max_value=20_000),
        "avg_output_tokens": st.integers(min_value=1, max_value=5_000),
        "load_pattern": st.sampled_from(["steady", "variable", "batch"]),
        "schedule": st.sampled_from(["always", "workdays", "office_hours"]),
        "utilization": st.one_of(st.sampled_from([0.3, 0.5, 1.0]), st.floats(min_value=0.01, max_value=1.0)),
        "latency_sensitive": st.booleans(),
        "personal_data": st.booleans(),
        "on_premises_required": st.booleans(),
        "model_stable": st.booleans(),
        "company_country": st.sampled_from(["DE", "AT", "CH", "CN", "US", "HK"]),
        "hours_per_month": st.floats(min_value=1, max_value=744),
        "volume_growing": st.booleans(),
        "devops_capacity": st.booleans(),
        "business_critical": st.booleans(),
        "framework": st.sampled_from(["pytorch", "jax", "tensorflow"]),
        "needs_gpu": st.booleans(),
    }
    for field, strategy in optional.items():
        if draw(st.booleans()):
            workload[field] = draw(strategy)
    # A context window, when given, holds an average request and stays within every catalog model's.
    request = workload.get("avg_input_tokens", 300) + workload.get("avg_output_tokens", 150)
    if request > DEFAULT_CONTEXT or draw(st.booleans()):
        workload["context_tokens"] = draw(st.integers(min_value=request, max_value=SMALLEST_MAX_CONTEXT))
    return workload


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workload=workloads(), days=st.integers(min_value=0, max_value=800))
def test_engine_agrees_with_reference_evaluator(workload: dict[str, Any], days: int) -> None:
    evaluated_on = dt.date(2026, 10, 10) + dt.timedelta(days=days)
    from_engine = run(workload, evaluated_on)
    from_reference = run(workload, evaluated_on, REFERENCE)
    assert from_engine.fired_rules == from_reference.fired_rules
    assert from_engine == from_reference


def test_reference_evaluator_detects_a_difference() -> None:
    """The comparison can fail: a reference that ignores one rule disagrees on a workload where it fires."""
    rulebook = load_rulebook()
    crippled = ReferenceEvaluator(
        rulebook.model_copy(update={"rules": tuple(r for r in rulebook.rules if r.id != "DEP001")}),
        load_knowledge().threshold_values(),
    )
    workload = {"name": "w", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 10}
    assert "DEP001" in run(workload).fired_rules
    assert "DEP001" not in run(workload, evaluator=crippled).fired_rules
