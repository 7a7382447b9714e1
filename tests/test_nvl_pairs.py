"""An H100 NVL is sold in pairs joined by an NVLink bridge; a tensor-parallel group beyond the pair
all-reduces over PCIe. A replica that needs more than the pair is a multi-card PCIe replica (NET001), and
wider replicas are not tried where the pair holds the model."""

from __future__ import annotations

from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload


def result(model: str, requests_per_day: int, context_tokens: int = 8192) -> Recommendation:
    workload = {
        "name": "nvl",
        "model": {"name": model, "precision": "fp8"},
        "requests_per_day": requests_per_day,
        "context_tokens": context_tokens,
    }
    return recommend(validate_workload(workload, "test"), EVALUATED_ON)


def nvl_row(r: Recommendation) -> tuple[int | None, tuple[str, ...]]:
    row = next(g for g in r.sizing.gpus if g.gpu == "h100-nvl")
    return row.cards_per_replica if row.replicas is not None else None, row.not_recommended_by


def test_a_replica_beyond_the_bridged_pair_is_a_pcie_replica() -> None:
    # 405 GB of FP8 weights need eight 94 GB cards: four pairs that reach each other over PCIe.
    r = result("llama-3.1-405b", 20_000)
    assert nvl_row(r) == (None, ("NET001",))
    nvl_findings = [f.message for f in r.findings if f.rule_id == "NET001" and "h100-nvl" in f.message]
    assert nvl_findings == [
        "One replica needs 8 × h100-nvl cards, which only reach each other over PCIe; tensor parallelism "
        "depends on the link between the cards, so this GPU is not recommended for the model even where it "
        "is cheaper per hour."
    ]


def test_a_model_the_pair_holds_runs_on_pairs_however_busy() -> None:
    # 70 GB of FP8 weights on a 94 GB card: at an 8k context a load runs single cards, light or heavy
    # (six 8k sequences fit beside the weights, or two and 81 requests of the default length: more than a
    # card keeps in flight within the headroom); at a 32k context one card holds no two full-context
    # sequences, and the load runs on bridged pairs, never a four-card group over PCIe.
    assert nvl_row(result("llama-3.1-70b", 20_000)) == (1, ())
    assert nvl_row(result("llama-3.1-70b", 3_000_000)) == (1, ())
    assert nvl_row(result("llama-3.1-70b", 20_000, 32_768)) == (2, ())
    assert nvl_row(result("llama-3.1-70b", 3_000_000, 32_768)) == (2, ())
