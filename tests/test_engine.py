"""The durable-rules adapter survives the engine's measured traps (see engine/adapter.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from helpers import EVALUATED_ON, EXAMPLES_DIR

from gpu_advisor.api import size
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import load_workload
from gpu_advisor.engine.rulebook.durable import RulesEngine
from gpu_advisor.engine.rulebook.facts import GpuFitFact
from gpu_advisor.engine.rulebook.loading import load_rulebook

SESSION_LIMIT = 1024  # durable-rules' live sessions per ruleset; the 1,025th raises MemoryError


def quiet_fact(index: int) -> GpuFitFact:
    """A fact that matches no rule: a 1B model on one big NVLink card."""
    return GpuFitFact(
        scenario="workload",
        gpu=f"gpu-{index}",
        vendor="nvidia",
        interconnect="nvlink",
        segment="datacenter",
        memory_gb=192.0,
        weights_gb=2.0,
        gpus_for_weights=1,
        gpus_with_kv_reserve=1,
        multi_card=False,
        fits=True,
        needs_two_nodes=False,
        node_memory_gb=1536.0,
        native_precision=True,
        reference_gpus=1,
        tensor_parallel=1,
        tensor_split_refused=False,
        tensor_parallel_loadable=1,
    )


def test_sessions_whose_facts_match_no_rule_are_deleted() -> None:
    engine = RulesEngine(load_rulebook(), load_knowledge().threshold_values())
    for index in range(SESSION_LIMIT * 2):
        with engine.session() as session:
            assert session.assert_fact(quiet_fact(index)) == []


def test_many_evaluations_do_not_exhaust_sessions() -> None:
    for index in range(SESSION_LIMIT + 100):
        result = size(precision="bf16", params_b=1 + index % 5)
        assert result.weights_gb == 2 * (1 + index % 5)


def test_threads_get_the_serial_answers() -> None:
    workloads = [load_workload(str(path)) for path in sorted(EXAMPLES_DIR.glob("*.yaml"))]
    serial = [recommend(w, EVALUATED_ON) for w in workloads]
    with ThreadPoolExecutor(max_workers=8) as pool:
        parallel = list(pool.map(lambda w: recommend(w, EVALUATED_ON), workloads * 10))
    assert parallel == serial * 10


def test_numbers_written_with_an_exponent_reach_the_engine() -> None:
    """durable-rules cannot parse 1e-05 or 1e+16; facts carry numbers it can."""
    engine = RulesEngine(load_rulebook(), load_knowledge().threshold_values())
    tiny = quiet_fact(0).model_copy(update={"weights_gb": 2e-5, "memory_gb": 1e17})
    with engine.session() as session:
        assert session.assert_fact(tiny) == []
    assert tiny.payload()["weights_gb"] == 0.0
    assert tiny.payload()["memory_gb"] == 10**17
