"""Any input gives a result or a clean error, results keep their invariants, and the engine holds up under
many evaluations from several threads."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpu_advisor.api import size
from gpu_advisor.cli import main
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.apps.sweep.variables import apply_knowledge, parse_vary
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import MAX_INPUT_BYTES
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload

FAST = settings(max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

# --- strategies ----------------------------------------------------------------------------------------

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
"""Any JSON-like structure, including NaN, infinities and integers too large for a C long."""


model_ids = [m.id for m in load_knowledge().models.models]
model_spec = st.one_of(
    st.fixed_dictionaries(
        {"name": st.sampled_from(model_ids), "precision": st.sampled_from(["bf16", "fp8", "int4"])},
        optional={"custom_weights": st.booleans()},
    ),
    st.fixed_dictionaries(
        {
            "params_b": st.floats(min_value=0.1, max_value=2000),
            "precision": st.sampled_from(["fp32", "bf16", "fp16", "fp8", "int8", "int4"]),
        },
    ),
)
valid_workloads = st.fixed_dictionaries(
    {
        "name": st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=20),
        "model": model_spec,
        "requests_per_day": st.one_of(
            st.integers(min_value=1, max_value=50_000_000), st.sampled_from([200_000, 1_000_000, 5_000_000])
        ),
    },
    optional={
        "avg_input_tokens": st.integers(min_value=1, max_value=20_000),
        "avg_output_tokens": st.integers(min_value=1, max_value=5_000),
        "context_tokens": st.integers(min_value=1, max_value=200_000),
        "load_pattern": st.sampled_from(["steady", "variable", "batch"]),
        "schedule": st.sampled_from(["always", "workdays", "office_hours"]),
        "hours_per_month": st.floats(min_value=1, max_value=744),
        "utilization": st.floats(min_value=0.01, max_value=1),
        "latency_sensitive": st.booleans(),
        "personal_data": st.booleans(),
        "on_premises_required": st.booleans(),
        "model_stable": st.booleans(),
        "company_country": st.sampled_from(["DE", "US", "CN", "FR"]),
        "volume_growing": st.booleans(),
        "devops_capacity": st.booleans(),
        "business_critical": st.booleans(),
        "framework": st.sampled_from(["pytorch", "jax", "tensorflow"]),
        "needs_gpu": st.booleans(),
        "load_profile": st.lists(st.floats(min_value=0, max_value=1000), min_size=24, max_size=24),
        "batch_window_hours": st.floats(min_value=0.25, max_value=24),
        "min_replicas": st.integers(min_value=1, max_value=50),
    },
).map(
    # A batch window goes with a batch only (refused beside another load pattern).
    lambda w: (
        w if w.get("load_pattern") == "batch" else {k: v for k, v in w.items() if k != "batch_window_hours"}
    )
)
"""Workloads the model accepts (the engine may still reject some: a catalog contradiction, say)."""
FIELDS = [
    "name",
    "model",
    "requests_per_day",
    "utilization",
    "hours_per_month",
    "company_country",
    "load_profile",
    "batch_window_hours",
    "min_replicas",
    "extra",
]


def spoil(workload: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """One field (or a model field) replaced with anything."""
    spoiled = {**workload, "model": dict(workload["model"])}
    if key == "model":
        spoiled["model"]["precision"] = value
    else:
        spoiled[key] = value
    return spoiled


workloads = st.one_of(
    *[valid_workloads] * 4,
    st.builds(spoil, valid_workloads, st.sampled_from(FIELDS), junk),
)


def evaluate(data: Any) -> Recommendation | None:
    """A result, or None for a clean InputError; anything else escapes and fails the test."""
    try:
        return run(data)
    except InputError as error:
        assert str(error).strip(), "an input error must say what is wrong"
        return None


def check_invariants(result: Recommendation) -> None:
    for row in result.sizing.gpus:
        if row.gpus_recommended is not None and row.gpus_for_weights is not None:
            assert row.gpus_recommended >= row.gpus_for_weights, row.gpu
    decision = result.decision
    assert decision.usd_per_month is None or decision.usd_per_month >= 0
    assert all(o.usd_per_month >= 0 and o.usd_per_gpu_hour > 0 for o in result.options)
    assert all(a.usd_per_month >= 0 for a in result.api_costs)
    assert result.own_hardware.usd_per_month >= 0
    chosen = [o for o in result.options if o.chosen]
    priced = decision.deployment in ("dedicated_cloud", "serverless") and decision.offer is not None
    assert len(chosen) == (1 if priced else 0)
    if chosen:
        assert (chosen[0].provider, chosen[0].offer, chosen[0].usd_per_month) == (
            decision.provider,
            decision.offer,
            decision.usd_per_month,
        )
    policy = result.sizing_policy
    usable = 1 / (1 + policy.estimate_error_taken_off) if policy else 1.0
    target = policy.headroom_target_share * usable if policy else 1.0
    for option in result.options:
        # No plan, rented or serverless, runs its peak above the headroom target once the estimate's error
        # band is taken off; a batch fills at most its window.
        limit = target if option.hours_per_day_running is None else usable
        assert option.capacity_utilization_at_peak <= limit + 1e-9, option
        billing = option.serverless
        if billing is not None:
            parts = (
                billing.busy_hours_per_month
                + billing.idle_hours_per_month
                + billing.cold_start_hours_per_month
            )
            assert parts == pytest.approx(option.billed_hours_per_month)
            assert min(billing.busy_hours_per_month, billing.idle_hours_per_month) >= 0
    assert result.load.busy_share is None or 0 <= result.load.busy_share <= 1
    workload = result.workload
    gdpr = (
        workload.personal_data_region == "eu"
        or load_knowledge().data_protection_region(workload.company_country) == "eu"
    )
    if workload.personal_data and gdpr:
        # The GDPR applies (people in the EU, or a company established there): EU regions only.
        assert all(o.eu for o in chosen), "personal data under the GDPR chosen outside the EU"
    if result.workload.latency_sensitive:
        assert decision.pricing != "spot", "latency-sensitive workload on spot"


# --- properties ---------------------------------------------------------------------------------------


@FAST
@given(workloads)
def test_any_workload_gives_a_result_with_its_invariants_or_a_clean_error(data: dict[str, Any]) -> None:
    result = evaluate(data)
    if result is not None:
        check_invariants(result)
        # Same input, same output: byte for byte.
        assert run(data).model_dump_json() == result.model_dump_json()


@FAST
@given(junk)
def test_any_structure_is_validated_or_rejected_cleanly(data: Any) -> None:
    try:
        validate_workload(data, "fuzz")
    except InputError as error:
        assert str(error).startswith("fuzz: ")


def cli_recommend(text: str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(
        main, ["recommend", "-", "--format", "json", "--as-of", "2026-11-30"], input=text
    )
    exception = None if isinstance(result.exception, SystemExit) else result.exception
    return result.exit_code, result.output, exception


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(workloads, junk), st.sampled_from(["json", "yaml"]))
def test_cli_gives_a_result_or_exit_2_never_a_traceback(data: Any, syntax: str) -> None:
    text = json.dumps(data) if syntax == "json" else yaml.safe_dump(data, allow_unicode=True)
    code, output, exception = cli_recommend(text)
    assert exception is None, f"uncaught {exception!r}"
    assert code in (0, 2), output
    assert "Traceback" not in output
    if code == 2:
        assert output.startswith("error: ")
    else:
        check_invariants(Recommendation.model_validate_json(output))


@settings(max_examples=60, deadline=None, database=None)
@given(st.text(max_size=200))
def test_cli_survives_arbitrary_text(text: str) -> None:
    code, _, exception = cli_recommend(text)
    assert exception is None, f"uncaught {exception!r}"
    assert code in (0, 2)


@pytest.mark.parametrize("load_pattern", ["steady", "variable", "batch"])
@pytest.mark.parametrize("model", ["llama-3.1-70b", "llama-3.1-8b"])
def test_invariants_where_residency_and_latency_bind(model: str, load_pattern: str) -> None:
    """The property test samples widely; this grid makes sure the residency and spot invariants meet
    workloads that are actually served by dedicated cloud GPUs."""
    for personal_data in (False, True):
        for latency_sensitive in (False, True):
            workload = {
                "name": "grid",
                "model": {"name": model, "precision": "fp8"},
                "requests_per_day": 2_000_000,
                "load_pattern": load_pattern,
                "utilization": 0.9,
                "personal_data": personal_data,
                "latency_sensitive": latency_sensitive,
            }
            check_invariants(run(workload))


def test_latency_sensitive_stays_off_spot_even_when_spot_is_cheapest() -> None:
    knowledge = load_knowledge()
    spot, _ = parse_vary("price:vast/spot/h100-pcie=0.05:0.05:0.01", knowledge)
    cheap_spot = apply_knowledge(spot, 0.05, knowledge, knowledge.own_server().id)
    workload = {
        "name": "batch-8b",
        "model": {"name": "llama-3.1-8b", "precision": "fp8"},
        "requests_per_day": 2_000_000,
        "load_pattern": "batch",
        "utilization": 0.9,
    }
    pricing = {}
    for latency_sensitive in (False, True):
        case = validate_workload({**workload, "latency_sensitive": latency_sensitive}, "test")
        result = recommend(case, EVALUATED_ON, knowledge=cheap_spot)
        check_invariants(result)
        pricing[latency_sensitive] = result.decision.pricing
    assert pricing == {False: "spot", True: pricing[True]} and pricing[True] != "spot"


# --- many evaluations, several threads ------------------------------------------------------------


BASE = {"name": "t", "model": {"name": "llama-3.1-70b", "precision": "fp8"}, "requests_per_day": 1000}


def variant(index: int) -> dict[str, Any]:
    return {
        **BASE,
        "name": f"t{index}",
        "requests_per_day": 1000 + 37_000 * index,
        "personal_data": index % 2 == 0,
    }


def test_threads_give_the_serial_results() -> None:
    serial = [run(variant(i)).model_dump_json() for i in range(40)]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda i: run(variant(i % 40)).model_dump_json(), range(160)))
    assert threaded == serial * 4


def test_more_evaluations_than_live_sessions_allowed() -> None:
    # durable-rules allows 1,024 live sessions per ruleset and crashes past them: every evaluation must
    # close its session, from any thread.
    def card_counts(index: int) -> tuple[Any, ...]:
        result = size(precision="fp8", params_b=float(1 + index % 50))
        return tuple(row.gpus_recommended for row in result.gpus)

    expected = [card_counts(i) for i in range(50)]
    with ThreadPoolExecutor(4) as pool:
        counts = list(pool.map(card_counts, range(1500)))
    assert counts == [expected[i % 50] for i in range(1500)]


# --- huge and deeply nested input -----------------------------------------------------------------


def recommend_process(text: str, timeout: float = 10) -> tuple[int, str]:
    """`gpu-advisor recommend -` in its own process, so a hang fails the test instead of stalling it."""
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "gpu_advisor.cli", "recommend", "-", "--as-of", "2026-11-30"],
            input=text,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"no answer within {timeout} s")
    return completed.returncode, completed.stderr


def test_huge_input_is_rejected_fast() -> None:
    text = "name: " + "x" * (MAX_INPUT_BYTES + 10)
    code, output, exception = cli_recommend(text)
    assert (code, exception) == (2, None)
    assert f"input is larger than {MAX_INPUT_BYTES} bytes" in output


def test_nesting_beyond_the_limit_is_rejected() -> None:
    nested: Any = 1
    for _ in range(40):
        nested = {"a": nested}
    code, output, exception = cli_recommend(json.dumps({**BASE, "model": nested}))
    assert (code, exception) == (2, None)
    assert "nested deeper than 20 levels" in output


def test_very_deep_nesting_is_rejected_without_a_traceback() -> None:
    code, stderr = recommend_process("[" * 50_000 + "]" * 50_000)
    assert code == 2 and "Traceback" not in stderr, stderr[-300:]


def test_alias_expansion_bomb_is_rejected_fast() -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    # Expanded, the document holds 9^9 (387 million) strings: minutes and gigabytes. 30 s leaves room for
    # the process's start on a loaded machine (3 s failed there) and still catches an expansion.
    code, stderr = recommend_process("\n".join(lines) + "\n", timeout=30)
    assert code == 2, stderr[-300:]


def test_list_as_a_mapping_key_is_rejected_without_a_traceback() -> None:
    code, output, exception = cli_recommend("? [1, 2]\n: x\n")
    assert (code, exception) == (2, None), output
