"""The two scenario inputs that are not prices: the throughput estimate's error, drawn from minus to plus
the calibration's held-out error, and the serverless break-even, drawn within the documents' band. Each is
worked out by hand on a workload where it alone decides: a service one replica short at the top of the
error's range, and a steady service whose busy share lies inside the band."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR, STEADY_IN_THE_BAND, decile, knowledge_with

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.calc.calibration import calibration_rows
from gpu_advisor.engine.calc.replicas import at_throughput
from gpu_advisor.engine.common.errors import EngineError, KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.workload import load_workload, validate_workload
from gpu_advisor.engine.pipeline.engines import rules_engine_reading

AS_OF = EVALUATED_ON.isoformat()
DRAWS_PER_SCENARIO = 6
"""server price, EU premium, spot discount, reserved price, throughput error, serverless break-even."""
THROUGHPUT, BREAK_EVEN = 4, 5

# 646,000 requests a day of an 8B model on OVH's L40S, reserved monthly: at the estimate one replica
# carries the peak within the headroom, just (the peak, 646,000 / 86,400 x 1.6891 = 12.63 requests a
# second, fills 96 % of what the headroom allows: 0.7 / 1.071 of the replica's 20.14). The load was
# 690,000 until a multiplication blended its reads and FLOPs: the L40S, near its ridge point at this
# batch, lost about 5 % of its throughput and needed a second replica at the estimate.
ONE_REPLICA_SHORT = {
    "name": "one-replica-short",
    "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 646000,
    "load_pattern": "steady",
    "schedule": "always",
    "on_premises_required": False,
    "devops_capacity": False,
    "latency_sensitive": False,
}


def recommend_json(tmp_path: Path, workload: dict, *args: str) -> dict:
    path = tmp_path / f"{workload['name']}.json"
    path.write_text(json.dumps(workload))
    result = CliRunner().invoke(main, ["recommend", str(path), "--format", "json", "--as-of", AS_OF, *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def draws(seed: int, scenarios: int) -> list[list[float]]:
    """The uniform numbers of every scenario, drawn as ``run.draw`` draws them: one per input, in the
    order of knowledge/uncertainty.yaml."""
    rng = random.Random(seed)
    return [[rng.random() for _ in range(DRAWS_PER_SCENARIO)] for _ in range(scenarios)]


def held_out_error() -> float:
    rows = calibration_rows(load_knowledge())
    errors = [r.error for r in rows if r.split == "held_out" and r.error is not None]
    return sum(abs(e) for e in errors) / len(errors)


def test_the_throughput_error_is_the_calibrations_held_out_error(tmp_path: Path) -> None:
    """docs/calibration.md: 180 held-out throughput measurements, a mean absolute error of 7 %."""
    size = held_out_error()
    assert round(size, 2) == 0.07
    data = recommend_json(tmp_path, ONE_REPLICA_SHORT, "--scenarios", "10")
    row = next(i for i in data["robustness"]["inputs"] if i["id"] == "throughput_error")
    assert (row["low"], row["high"], row["point"]) == (-size, size, 0.0)
    assert (row["shape"], row["unit"], row["origin"]) == ("uniform", "share", "knowledge")
    assert "calibration of the throughput estimate (docs/calibration.md" in row["source"]
    held_out = [m.as_of for m in load_knowledge().calibration.measurements if m.split == "held_out"]
    assert row["as_of"] == max(held_out).isoformat()


def test_a_replica_more_where_the_drawn_error_passes_the_headroom(tmp_path: Path) -> None:
    """One L40S replica carries the peak while (1 + e) times the estimate's share of the headroom stays
    at most 1: e* = share / utilization at peak - 1, about +4.2 %. A drawn error above e* needs a second
    replica at twice the monthly price, so the L40S month takes two values and its percentiles follow
    from the draws; in those scenarios OVH's monthly A100 PCIe wins: its one replica, about 9 % faster
    than the L40S's at this batch, carries the peak up to an error of about +13 %, beyond the range
    drawn, so its month is the same in every scenario, above one L40S and below two."""
    data = recommend_json(tmp_path, ONE_REPLICA_SHORT, "--scenarios", "400", "--seed", "5")
    best = data["best_option"]
    assert (best["provider"], best["offer"], best["replicas"]) == ("ovhcloud", "l40s-monthly", 1)
    policy = data["sizing_policy"]
    share = policy["headroom_target_share"] / (1 + policy["estimate_error_taken_off"])
    crossing = share / best["capacity_utilization_at_peak"] - 1
    size = held_out_error()
    assert -size < crossing < size
    errors = [-size + u[THROUGHPUT] * 2 * size for u in draws(5, 400)]
    month = best["usd_per_month"]
    costs = [month if e <= crossing else 2 * month for e in errors]
    rb = data["robustness"]
    bands = rb["cost_usd_per_month"]
    assert (bands["p10"], bands["p50"], bands["p90"]) == pytest.approx(
        [decile(costs, k) for k in (1, 5, 9)], rel=1e-12
    )
    assert rb["recommended_win_share"] == sum(1 for e in errors if e <= crossing) / 400
    a100 = next(g for g in data["sizing"]["gpus"] if g["gpu"] == "a100-80gb-pcie")
    assert a100["replicas"] == 1
    assert share / a100["capacity_utilization_at_peak"] - 1 > size
    a100_month = next(o for o in data["options"] if o["offer"] == "a100-monthly")["usd_per_month"]
    assert month < a100_month < 2 * month
    rival = rb["cost_usd_per_month"]["rival"]
    assert (rival["deployment"], rival["provider"], rival["offer"]) == (
        "dedicated_cloud",
        "ovhcloud",
        "a100-monthly",
    )
    assert (rival["p10"], rival["p50"], rival["p90"]) == pytest.approx([a100_month] * 3, rel=1e-12)
    row = next(s for s in rb["sensitivity"] if s["input"] == "throughput_error")
    assert (row["cost_at_low"], row["cost_at_high"]) == pytest.approx((month, 2 * month), rel=1e-12)
    assert (row["decision_cost_at_low"], row["decision_cost_at_high"]) == pytest.approx(
        (month, a100_month), rel=1e-12
    )
    assert row["decision_changes"] is True
    assert rb["sensitivity"][0]["input"] == "throughput_error"


def test_a_plan_at_another_throughput_redoes_only_the_ceiling() -> None:
    workload = validate_workload(ONE_REPLICA_SHORT, "test")
    evaluation = evaluate_workload(workload, EVALUATED_ON)
    plan = evaluation.market.plans["l40s"]
    load, sizing = evaluation.capacity.load, evaluation.market.replicas.sizing
    slower = at_throughput(plan, 1 / 1.1, load, sizing)
    rps = plan.requests_per_second_per_replica / 1.1
    assert slower.requests_per_second_per_replica == pytest.approx(rps, rel=1e-15)
    assert slower.replicas == math.ceil(load.peak_requests_per_second / (rps * sizing.capacity_share)) == 2
    assert slower.utilization == pytest.approx(
        load.average_requests_per_second * load.served_share_of_paid_hours / (2 * rps), rel=1e-12
    )
    assert slower.service.alone == pytest.approx(plan.service.alone * 1.1, rel=1e-15)
    assert (slower.cards_per_replica, slower.roofline) == (plan.cards_per_replica, plan.roofline)
    assert at_throughput(plan, 1.0, load, sizing) is plan


def test_the_break_even_decides_where_the_busy_share_lies_in_the_band(tmp_path: Path) -> None:
    """DEP024 rules serverless out for a steady service at or above the band's upper edge. Drawn from
    30 % to 50 % (uniform), the edge lies above the busy share u in (0.5 - u) / 0.2 of the scenarios,
    and serverless wins exactly those: the throughput error, which moves u, is held at zero."""
    overrides = tmp_path / "held.yaml"
    overrides.write_text("ranges:\n  throughput_error: {low: 0, high: 0}\n")
    data = recommend_json(
        tmp_path, STEADY_IN_THE_BAND, "--scenarios", "400", "--seed", "5", "--overrides", str(overrides)
    )
    assert data["decision"]["deployment"] == "serverless"
    busy = data["load"]["busy_share"]
    assert 0.3 < busy < 0.5
    edges = [0.3 + u[BREAK_EVEN] * 0.2 for u in draws(5, 400)]
    rb = data["robustness"]
    assert rb["recommended_win_share"] == sum(1 for edge in edges if edge > busy) / 400
    assert rb["recommended_win_share"] == pytest.approx((0.5 - busy) / 0.2, abs=0.05)
    row = rb["sensitivity"][0]
    assert (row["input"], row["low"], row["high"]) == ("serverless_break_even", 0.3, 0.5)
    assert (row["effect_on"], row["decision_changes"]) == ("decision", True)
    rival = rb["cost_usd_per_month"]["rival"]
    # at 30 % the dedicated rival is the decision, at 50 % serverless: the decided month moves between them
    assert row["effect"] == pytest.approx(rival["p50"] - data["decision"]["usd_per_month"], rel=1e-12)
    assert (row["decision_cost_at_low"], row["decision_cost_at_high"]) == pytest.approx(
        (rival["p50"], data["decision"]["usd_per_month"]), rel=1e-12
    )
    condition = rb["loses_when"][0]
    assert (condition["input"], condition["direction"]) == ("serverless_break_even", "below")
    assert condition["value"] < busy


def test_the_rules_read_a_drawn_threshold_from_the_facts() -> None:
    """An engine that reads the band's upper edge from the facts fires DEP024 where the busy share is at
    or above the value given, and gives the compiled engine's firings at the threshold's own value."""
    workload = validate_workload(STEADY_IN_THE_BAND, "test")
    compiled = evaluate_workload(workload, EVALUATED_ON)
    busy = compiled.market.time_utilization
    engine = rules_engine_reading(None, frozenset({"serverless_utilization_high"}))

    def rules_at(edge: float) -> list[str]:
        evaluator = engine.with_thresholds({"serverless_utilization_high": edge})
        return [r.id for r in evaluate_workload(workload, EVALUATED_ON, evaluator).rules]

    assert rules_at(0.5) == [r.id for r in compiled.rules]
    assert "DEP024" in rules_at(round(busy, 2) - 0.01)
    assert "DEP024" not in rules_at(round(busy, 2) + 0.01)
    with pytest.raises(EngineError, match="expects values for"), engine.session():
        pass


@pytest.mark.parametrize(
    ("before", "after", "problem"),
    [
        ("    low_figure: serverless_utilization_low\n", "", "field low_figure: given for rule_threshold"),
        (
            "low_figure: serverless_utilization_low",
            "low_figure: stale_price_days",
            "field low_figure: 'days' is not the unit of 'serverless_utilization_high'",
        ),
        ("figure: serverless_utilization_high", "figure: serverless_utilization_hgh", "no threshold"),
        ("    figure: held_out\n", "    figure: tested\n", "no calibration set 'tested'"),
        (
            '    source: {document: gpu-advisor, section: "calibration',
            '    sorce: {document: gpu-advisor, section: "calibration',
            "sorce",
        ),
    ],
)
def test_a_bad_entry_for_the_new_inputs_is_refused(
    tmp_path: Path, before: str, after: str, problem: str
) -> None:
    copy = knowledge_with(tmp_path, "uncertainty.yaml", before, after)
    with pytest.raises(KnowledgeError, match=problem):
        load_knowledge_from(copy)


def test_a_gpu_fit_rule_cannot_read_a_drawn_threshold(tmp_path: Path) -> None:
    """A scenario's GPU-fit firings are the base's (worked out once for every evaluation), so a rule on
    gpu_fit facts that read a threshold scenarios draw would never see the draw: refused at load."""
    policy = tmp_path / "policy"
    policy.mkdir()
    (policy / "odd.yaml").write_text(
        """schema_version: 1
family: ORG
rules:
  - id: ORG950
    name: odd-memory-rule
    topic: sizing
    severity: info
    fact: gpu_fit
    when:
      - {fact: memory_gb, op: lt, threshold: serverless_utilization_high}
    title: "Odd"
    message: "Odd."
    rationale: "A test of the load check."
    source: {document: gpu-advisor, section: "test"}
"""
    )
    result = CliRunner().invoke(main, ["rules", "--policy", str(policy)])
    assert result.exit_code == 2
    assert "ORG950" in result.output
    assert "'serverless_utilization_high' is drawn by scenarios" in result.output


def test_a_scenario_s_batch_run_still_bills_its_weights_load() -> None:
    """A drawn throughput error rebuilds each replica plan; the weights a batch's replicas load at each
    run's start do not depend on it, and were dropped (0 h), so every scenario billed the bare run."""
    workload = load_workload(str(EXAMPLES_DIR / "nightly-batch.yaml"))
    evaluation = evaluate_workload(workload, EVALUATED_ON)
    load, sizing = evaluation.capacity.load, evaluation.market.replicas.sizing
    loaded = {gpu: p for gpu, p in evaluation.market.plans.items() if p.weights_load_hours > 0}
    assert load.served_in_paid_hours and loaded
    for plan in loaded.values():
        slower = at_throughput(plan, 1 / 1.1, load, sizing)
        assert slower.weights_load_hours == plan.weights_load_hours
        rps = plan.requests_per_second_per_replica / 1.1
        assert slower.requests_per_second_per_replica == pytest.approx(rps, rel=1e-15)
