"""The busy share (time with a request in flight) is worked out on the GPU of a route the workload's
rules leave standing, and the memo says whose GPU it is. A workload whose data must stay in the building
has its rentals and serverless products ruled out (DEP006); its busy share was worked out on the cheapest
serverless product's H200, while the memo's decision is a bought H100 node."""

from __future__ import annotations

from helpers import EVALUATED_ON, EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.pipeline.busy_shares import load_gpu
from gpu_advisor.engine.present.memo import render_memo

ON_PREMISES = read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml")


def test_the_busy_share_of_a_workload_kept_in_the_building_is_the_own_servers() -> None:
    result = run(ON_PREMISES)
    assert (result.decision.deployment, result.own_hardware.gpu) == ("own_hardware", "h100-sxm")
    assert result.serverless_option is not None and result.serverless_option.gpu == "h200"
    assert (result.load.busy_share_gpu, result.load.busy_share_route) == ("h100-sxm", "own_hardware")
    assert round(result.load.service_seconds_alone or 0, 1) == 26.1
    assert (
        "One request takes 26.1 s on an idle replica of h100-sxm (the own server's GPU, as the rules leave "
        "neither a rental nor serverless standing), longer as more share it;"
    ) in " ".join(render_memo(result).split())


def test_an_admitted_rental_sets_the_busy_share_and_is_named() -> None:
    result = run({**ON_PREMISES, "on_premises_required": False, "personal_data": False})
    assert result.best_option is not None
    assert (result.load.busy_share_gpu, result.load.busy_share_route) == (result.best_option.gpu, "rental")
    assert f"idle replica of {result.best_option.gpu} (the best rental's GPU)," in " ".join(
        render_memo(result).split()
    )


def test_an_own_route_on_the_rentals_gpu_keeps_its_own_plan() -> None:
    """A batch kept in the building: the best rental (Scaleway's 8-card H100, ruled out by DEP006) runs
    two replicas for 1.08 h a night on its whole instance; the own server's one replica runs 2.16 h (its
    3.86 requests/s, a decode step reading the output layer but not the token embedding). The
    busy share is the own route's, so it comes from the own plan, not the rental's on the same GPU."""
    workload = {
        "name": "onprem-batch",
        "model": {"name": "llama-3.1-70b", "precision": "bf16"},
        "requests_per_day": 30_000,
        "avg_input_tokens": 2000,
        "avg_output_tokens": 500,
        "load_pattern": "batch",
        "personal_data": True,
        "on_premises_required": True,
    }
    result = run(workload)
    assert result.best_option is not None and result.best_option.gpu == "h100-sxm"
    assert (result.load.busy_share_gpu, result.load.busy_share_route) == ("h100-sxm", "own_hardware")
    own_plan = next(row for row in result.sizing.gpus if row.gpu == "h100-sxm")
    assert own_plan.replicas == 1
    hours = 30_000 / (own_plan.requests_per_second_per_replica * 3600)
    assert f"{hours:.2f}" == "2.16"
    assert result.load.busy_share == round(hours * 30.42 / 730, 3) == 0.090


def test_where_the_rules_leave_no_route_with_a_gpu_the_label_says_so() -> None:
    evaluation = evaluate_workload(validate_workload(ON_PREMISES, "test"), EVALUATED_ON)
    market = evaluation.market
    best = market.alternatives.best
    assert best is not None
    everything = ("dedicated_cloud", "serverless", "own_hardware")
    chosen = load_gpu(best, market.serverless, market.plans, evaluation.knowledge, everything, market.server)
    assert chosen == (best.gpu, "ruled_out")
    assert load_gpu(best, market.serverless, market.plans, evaluation.knowledge, (), market.server) == (
        best.gpu,
        "rental",
    )


FRENCH_BANK = {
    "name": "french-bank-reasoning",
    # In BF16 (1,342 GB), which no 16 cards of H100 or A100 hold: in FP8 two HGX H100 servers a replica
    # hold it, as a light load's replicas capped by their KV cache.
    "model": {"name": "deepseek-r1", "precision": "bf16"},
    "requests_per_day": 50_000,
    "avg_input_tokens": 8000,
    "avg_output_tokens": 2000,
    "context_tokens": 131_072,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "latency_sensitive": False,
    "personal_data": True,
    "business_critical": True,
    "company_country": "FR",
}
"""Every option whose GPU holds DeepSeek-R1 in BF16 at 128k is excluded (EU data, an SLA, two-node B200
and H200 without InfiniBand), and neither the reference GPU (H100) nor the catalog's own servers hold it."""


def test_where_rules_exclude_every_option_the_cheapest_rentals_gpu_sets_the_busy_share() -> None:
    """The load pattern's assumed 35 % stood in for the utilization, and DEP008 said a GPU was needed in
    35 % of the paid hours, inside the serverless band, for 50,000 requests in 8 hours. Worked out on
    the cheapest rental's B200 (though excluded), a request is in flight every hour: 100 %, and DEP012
    (dedicated) replaces DEP008."""
    result = run(FRENCH_BANK)
    # RunPod's B200, then Lambda's; H200 needs 8 replicas of 16 cards and comes after them.
    assert [option.gpu for option in result.options][:3] == ["b200", "b200", "h200"]
    assert all(option.excluded_by or option.ruled_out_by for option in result.options)
    assert (result.load.busy_share_gpu, result.load.busy_share_route) == ("b200", "excluded")
    assert result.load.busy_share == 1.0
    assert result.workload.utilization_source == "derived"
    fired = {finding.rule_id for finding in result.findings}
    assert "DEP012" in fired and "DEP008" not in fired
    memo = " ".join(render_memo(result).split())
    whose = "the cheapest rental's GPU, though the rules leave no option standing"
    assert f"idle replica of b200 ({whose})" in memo
    # The headline names the own servers the catalog prices and the GPUs that do hold the model.
    assert (
        "Recommendation: **Own hardware**. The catalog prices own servers of these GPUs only: rtx-5090, "
        "h100-sxm; none holds this model. It needs servers sized for it, which the catalog cannot price: on "
        "h200, b200, mi300x, the Sizing table gives the cards it needs (no rental or serverless product of "
        "them in the catalog is open to this workload, see Options considered)."
    ) in memo


def test_a_model_no_catalog_gpu_holds_keeps_the_assumed_utilization_and_the_plain_headline() -> None:
    huge = {**FRENCH_BANK, "model": {"params_b": 4000, "precision": "bf16"}}
    result = run(huge)
    assert result.load.busy_share is None and result.load.busy_share_route is None
    assert result.workload.utilization_source == "load_pattern_default"
    assert (
        "Recommendation: **Own hardware**. No server in the catalog holds this model: it needs hardware "
        "sized for it, which the catalog cannot price."
    ) in " ".join(render_memo(result).split())
