"""The memo's requests-per-day chart prices every self-hosted point as a recommendation at that volume
prices the same route: at the workload's own volume the line is the decided (or, where the API is decided,
the compared) monthly cost, and at any other volume it is what ``recommend`` reports there for the same
option. The workloads of ``tests/volume_chart/`` are ones on which the chart once disagreed with the
tool's own prices (whole instances, a batch spread over an instance's cards, own hardware decided), and
one each where serverless and a mixed fleet are decided."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR, TESTS_DIR, negotiated_aws, run

from gpu_advisor.engine.apps.recommend import evaluate_workload, recommend
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import load_workload, validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.pipeline.volumes import route_month_at
from gpu_advisor.engine.present.chart_labels import own_servers
from gpu_advisor.engine.present.memo import render_memo

VOLUME_DIR = TESTS_DIR / "volume_chart"
WORKLOADS = sorted([*EXAMPLES_DIR.glob("*.yaml"), *VOLUME_DIR.glob("*.yaml")])


def result_of(
    path: Path, requests_per_day: int | None = None, knowledge: Knowledge | None = None
) -> Recommendation:
    workload = load_workload(str(path))
    if requests_per_day is not None:
        data = workload.model_dump(mode="json", exclude_unset=True)
        workload = validate_workload({**data, "requests_per_day": requests_per_day}, "test")
    return recommend(workload, EVALUATED_ON, knowledge=knowledge)


def as_json(result: Recommendation) -> dict[str, Any]:
    """The result as ``recommend --format json`` writes it."""
    return json.loads(result.model_dump_json())  # type: ignore[no-any-return]


def route_cost(result: dict[str, Any], kind: str, like: dict[str, Any]) -> float:
    """The monthly cost ``result`` (JSON) reports for the route ``kind``: the own hardware, or the option
    of the option table with the provider, offer, GPU and regions of ``like``."""
    if kind == "own_hardware":
        return float(result["own_hardware"]["usd_per_month"])
    keys = ("provider", "offer", "gpu", "jurisdiction", "regions", "pricing")
    [same] = [o for o in result["options"] if all(o[k] == like[k] for k in keys)]
    return float(same["usd_per_month"])


def followed(result: Recommendation) -> dict[str, Any] | None:
    """The option the chart's line follows (as JSON), None for own hardware."""
    chart = result.charts.api_versus_self_hosted
    assert chart is not None
    if chart.self_hosted_kind == "own_hardware":
        return None
    option = result.serverless_option if chart.self_hosted_kind == "serverless" else result.best_option
    assert option is not None
    return json.loads(option.model_dump_json())  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", WORKLOADS, ids=lambda p: p.stem)
def test_at_the_workloads_volume_the_line_is_the_decided_cost(path: Path) -> None:
    result = result_of(path)
    chart, decision = result.charts.api_versus_self_hosted, result.decision
    if chart is None:
        # No like-for-like API to draw (deepseek-on-premises, w05's Swiss residency).
        assert not any(api.compared for api in result.api_costs)
        return
    at = chart.requests_per_day.index(result.workload.requests_per_day)
    hosted = chart.self_hosted_usd_per_month[at]
    if decision.deployment == "api":
        assert chart.api_usd_per_month[at] == decision.usd_per_month
        assert chart.self_hosted_follows == "api_comparison"
        option = followed(result)
        expected = route_cost(as_json(result), chart.self_hosted_kind, option or {})
        assert hosted == expected
    elif decision.deployment == "hybrid":
        # A mixed fleet is not priced at other volumes: the line is the cheapest rental, labelled so, and
        # the decided cost is given beside it.
        assert (chart.self_hosted_kind, chart.self_hosted_follows) == ("dedicated_cloud", "cheapest_rental")
        assert result.best_option is not None and hosted == result.best_option.usd_per_month
        assert chart.decided_usd_per_month == decision.usd_per_month
    else:
        assert chart.self_hosted_follows == "decision"
        assert chart.self_hosted_kind == decision.deployment
        assert hosted == decision.usd_per_month


OTHER_VOLUMES = (3_000, 30_000, 3_000_000)


@pytest.mark.parametrize("path", WORKLOADS, ids=lambda p: p.stem)
def test_at_other_volumes_the_line_is_what_recommend_reports_there(path: Path) -> None:
    """Two volumes other than the workload's own: the same route in ``recommend``'s JSON there (the
    option of the table where the decision picks another option)."""
    result = result_of(path)
    chart = result.charts.api_versus_self_hosted
    if chart is None:
        return
    option = followed(result)
    [compared] = [api for api in result.api_costs if api.compared]
    volumes = [v for v in OTHER_VOLUMES if v != result.workload.requests_per_day][:2]
    for volume in volumes:
        there = as_json(result_of(path, volume))
        at = chart.requests_per_day.index(volume)
        expected = route_cost(there, chart.self_hosted_kind, option or {})
        assert chart.self_hosted_usd_per_month[at] == pytest.approx(expected, rel=1e-12), volume
        [api] = [a for a in there["api_costs"] if (a["api"], a["batch"]) == (compared.api, compared.batch)]
        assert chart.api_usd_per_month[at] == pytest.approx(api["usd_per_month"], rel=1e-12), volume


def test_a_batch_on_whole_instances_is_spread_over_their_cards() -> None:
    """w18: lambda 8-gpu-plan sells 8 × b200 only; the business-critical batch's replicas go on two of
    them, so that a lost one leaves the window's (SIZ038), and the day's work runs on all 16 cards, billed
    by the minute. At 30,000 requests a day: the work / 16 cards and the weights' load (the 16-bit
    checkpoint vLLM quantizes to FP8 as it loads it, 140 GB at 2.5 GB/s, 56 s), rounded up to whole
    minutes, on 30.42 days, 16 cards at $6.69 ($543, as recommend prices it at that volume; the chart said
    $3,663 before it priced the work by the cards)."""
    result = result_of(VOLUME_DIR / "w18-batch-critical.yaml")
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and chart.self_hosted_offer == "8-gpu-plan"
    rps = next(g for g in result.sizing.gpus if g.gpu == "b200").requests_per_second_per_replica
    assert rps is not None
    # 3.709 requests/s a B200 replica: 100,000 requests are 28.08 minutes on 16 cards, 30 billed, $1,628.
    for volume, dollars in ((30_000, 543), (100_000, 1_628), (200_000, 3_148)):
        minutes = math.ceil(volume / rps / 16 / 60 + 140 / 2.5 / 60)
        cost = minutes / 60 * 30.42 * 16 * 6.69
        assert chart.self_hosted_usd_per_month[chart.requests_per_day.index(volume)] == pytest.approx(cost)
        assert round(cost) == dollars
    assert chart.self_hosted_shape == "batch_proportional"


def test_a_service_on_whole_instances_pays_for_the_whole_instance() -> None:
    """w07 at 1,130,000 requests a day: its cheapest rental is AWS's P5 reserved for three years, sold as
    8-card instances only. The service's 17 replicas of 2 cards and a spare run as 21, four to an
    instance, so that the loss of one leaves the 17 (SIZ015): 42 cards billed as 48 (six instances); a
    thousandth of the volume, a replica of 2 cards and its spare, still bills whole instances: two, as
    the business-critical service's spare may not share the other's machine, 16 × $1.90 × 730 = $22,192
    (the chart had drawn the replicas' share of one instance's bill). A reserved base with hourly peaks,
    $53,051 (its busier hours on Lambda's 2-GPU instances at $4.19), is decided below that rental
    ($66,576) and the six owned servers that keep the peak through the loss of one ($59,589). (A replica
    carries 2.021 requests/s beside 72.65 GB of FP8 weights, the 16-bit embedding and lm_head among them:
    at the file's 1,100,000 the same 21 run, and the mix bills $52,032.)"""
    data = load_workload(str(VOLUME_DIR / "w07-rag-api-hybrid.yaml")).model_dump(
        mode="json", exclude_unset=True
    )
    # Its provider confirms the busier hours' cards: else no mix is priced (PRC034).
    workload = validate_workload({**data, "requests_per_day": 1_130_000, "capacity_confirmed": True}, "test")
    evaluation = evaluate_workload(workload, EVALUATED_ON, knowledge=negotiated_aws())
    result = recommend(workload, EVALUATED_ON, knowledge=negotiated_aws())
    best = result.best_option
    assert best is not None and (best.offer, best.gpus, best.gpus_rented) == ("p5-reserved-3y", 42, 48)
    assert round(best.usd_per_month) == round(48 * 1.90 * 730) == 66_576
    assert result.decision.deployment == "hybrid" and "SIZ015" in result.fired_rules
    assert round(result.decision.usd_per_month or 0) == 53_051
    month = route_month_at(evaluation, "dedicated_cloud")
    assert month is not None
    assert month(1_130_000).usd_per_month == pytest.approx(48 * 1.90 * 730)
    assert month(1_000).usd_per_month == pytest.approx(16 * 1.90 * 730)


def test_a_reservation_sold_in_8_card_instances_bills_8_cards_at_any_volume() -> None:
    """w07's cheapest rental, AWS P5 reserved for 3 years, sells 8 × h100-sxm only: 1,000 requests a day
    need 2 replicas of 2 cards (one the spare), billed as whole instances (the chart said $5,642): one
    8-card instance for both, $11,096, where they may share a machine; two, $22,192, for the
    business-critical service, whose spare may not (SIZ015)."""
    workload = load_workload(str(VOLUME_DIR / "w07-rag-api.yaml"))
    assert workload.business_critical
    for critical, instances in ((True, 2), (False, 1)):
        changed = workload.model_copy(update={"business_critical": critical})
        evaluation = evaluate_workload(changed, EVALUATED_ON, knowledge=negotiated_aws())
        month = route_month_at(evaluation, "dedicated_cloud")
        assert month is not None
        assert month(1_000).name == "p5-reserved-3y"
        assert month(1_000).usd_per_month == pytest.approx(instances * 8 * 1.90 * 730)


def test_own_hardware_decided_is_the_line() -> None:
    """w07 with the same load in every hour (3,200,000 requests a day): the decision is own hardware,
    drawn at 3,000,000 requests a day as 9 servers (those that keep the business-critical peak through
    the loss of one), $89,384 with staff, below the API; the chart drew the rental above the API."""
    result = result_of(VOLUME_DIR / "w07-rag-api-flat.yaml")
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and result.decision.deployment == "own_hardware"
    at = chart.requests_per_day.index(3_000_000)
    assert chart.self_hosted_kind == "own_hardware" and chart.self_hosted_shape == "servers"
    per_server = result.own_hardware.usd_per_gpu_hour.total * 8 * 730
    assert chart.self_hosted_usd_per_month[at] == pytest.approx(9 * per_server)
    assert round(9 * (9_554.39 + 90_520 * 0.05 / 12)) == round(chart.self_hosted_usd_per_month[at]) == 89_384
    assert chart.self_hosted_usd_per_month[at] < chart.api_usd_per_month[at]


def test_a_mixed_fleet_decided_below_owning_for_the_busiest_hour() -> None:
    """w07 with the published steady profile, not business-critical: 23 to 43 replicas by hour. A
    reserved base of 32 replicas (64 cards × $1.90 × 730 = $88,768) and Lambda's hourly H100 for the rest
    cost less than owning 11 servers for the busiest hour. The base is whole 8-card P5 instances of four
    2-card replicas, and an instance pays reserved where its replicas are needed in more than $1.90 /
    $4.19 = 45 % of their hours (Lambda sells 2-card instances by the hour at $4.19): the 29th to 32nd
    replicas are needed in 64 of their 96 replica-hours a day (67 %), so they pay in the base; the 33rd
    to 36th in 39 (41 %), so they do not. A replica carries 2.306 requests/s (beside 72.65 GB of FP8
    weights, the 16-bit embedding and lm_head among them), 1.522 usable within 70 % of it and the 6.06 %
    error band: hour 11's 38.15 requests/s x 1.27 needs 31.84 replicas, 33 with the spare; hour 6's 37.41
    need 31.22, 33; the 40.00 requests/s of hours 7, 17 and 18 need 33.39, 35 with the spare, and hour
    8's 41.11 need 34.31, 36. (At 2.322 requests/s, beside 70.55 GB, the busiest hour ran 42.)"""
    data = load_workload(str(VOLUME_DIR / "w07-rag-api.yaml")).model_dump(mode="json", exclude_unset=True)
    result = recommend(
        validate_workload({**data, "business_critical": False}, "test"),
        EVALUATED_ON,
        knowledge=negotiated_aws(),
    )
    assert result.decision.deployment == "hybrid"
    fleet = result.mixed_fleet.fleet
    hours = fleet.replicas_by_hour
    assert (min(hours), max(hours), fleet.base_replicas_hosted) == (23, 43, 32)

    def needed(first: int) -> int:
        """Replica-hours a day of the four replicas from the ``first``th on (one 8-card instance)."""
        return sum(min(4, max(0, count - first + 1)) for count in hours)

    assert (needed(29), needed(33)) == (64, 39)
    assert needed(29) / 96 > 1.90 / 4.19 > needed(33) / 96
    assert (fleet.peak_provider, fleet.peak_offer) == ("lambda", "2-gpu-plan")
    assert fleet.base_usd_per_month == pytest.approx(64 * 1.90 * 730)
    assert result.mixed_fleet.usd_per_month < result.own_hardware.usd_per_month


def test_a_business_critical_mixed_fleet_runs_the_replicas_a_lost_instance_takes() -> None:
    """w07 business-critical (SIZ015), its provider confirming the busier hours' cards: a lost 8-card P5
    instance takes four replicas where each hour has one spare, so every hour runs three more (26 to 46):
    $110,826 a month, below the 12 owned servers that keep the peak through the loss of one ($119,179 with
    their staff), and decided."""
    data = load_workload(str(VOLUME_DIR / "w07-rag-api.yaml")).model_dump(mode="json", exclude_unset=True)
    # Its provider confirms the busier hours' cards: else no mix is priced (PRC034).
    critical = recommend(
        validate_workload({**data, "capacity_confirmed": True}, "test"),
        EVALUATED_ON,
        knowledge=negotiated_aws(),
    )
    relaxed = recommend(
        validate_workload({**data, "business_critical": False}, "test"),
        EVALUATED_ON,
        knowledge=negotiated_aws(),
    )
    assert critical.mixed_fleet is not None and relaxed.mixed_fleet is not None
    hours, lean = critical.mixed_fleet.fleet.replicas_by_hour, relaxed.mixed_fleet.fleet.replicas_by_hour
    assert hours == tuple(count + 3 for count in lean) and (min(hours), max(hours)) == (26, 46)
    # 36 replicas reserved (72 cards x $1.90 x 730 h = $99,864) and the 43 replica-hours a day above them
    # on Lambda's 2-card instances (2 x 43 x 30.42 x $4.19 = $10,962): $110,826 (a replica carries 2.306
    # requests/s beside 72.65 GB of FP8 weights, within a 6.06 % error band; at 2.322 beside 70.55 GB, 42
    # replica-hours made $110,571).
    assert round(critical.mixed_fleet.usd_per_month) == 110_826
    assert (critical.decision.deployment, round(critical.own_hardware.usd_per_month)) == (
        "hybrid",
        119_179,
    )


def test_on_premises_the_line_is_own_hardware_and_the_api_is_marked_ruled_out() -> None:
    """w04: on premises (DEP006). The chart drew the API and AWS, both ruled out; it now draws the own
    servers (two up to 300,000 requests a day, the business-critical service's spare on a machine of its
    own (SIZ015): 2 × $10,425) and marks the API as ruled out. The API drawn is the one the workload's
    other rules admit: EU-hosted (personal data) with an SLA (business-critical, PRV003), Scaleway's."""
    result = result_of(VOLUME_DIR / "w04-bank-onprem.yaml")
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and result.decision.deployment == "own_hardware"
    assert chart.api_ruled_out_by == ("DEP006",)
    assert chart.self_hosted_kind == "own_hardware"
    one_server = result.own_hardware.usd_per_gpu_hour.total * 8 * 730
    assert round(one_server) == 10_425
    at = chart.requests_per_day.index
    assert chart.self_hosted_usd_per_month[at(1_000)] == pytest.approx(2 * one_server)
    assert chart.self_hosted_usd_per_month[at(300_000)] == pytest.approx(2 * one_server)
    memo = render_memo(result)
    assert (
        "Legend: 🟦 blue line, the managed API (Llama 3.3 70B Instruct (Scaleway Generative APIs)), which "
        "this workload may not use (DEP006): drawn for comparison only; 🟧 orange line, the recommendation, "
        "own hardware (HGX H100 8-GPU)." in memo
    )
    assert "p5-on-demand-stockholm, 2 × h100-sxm per replica" not in memo


def test_api_decided_the_line_is_the_route_it_was_weighed_against() -> None:
    """w02: the API ($8,945) was weighed against RunPod's serverless H200 ($10,593, cheaper than one
    own 8-GPU server), not against the cheapest rental: the line is the serverless product."""
    result = result_of(VOLUME_DIR / "w02-chat-70b-de.yaml")
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and result.decision.deployment == "api"
    assert (chart.self_hosted_kind, chart.self_hosted_follows) == ("serverless", "api_comparison")
    at = chart.requests_per_day.index(300_000)
    assert result.serverless_option is not None
    assert chart.self_hosted_usd_per_month[at] == result.serverless_option.usd_per_month
    assert round(chart.self_hosted_usd_per_month[at]) == 10_593
    assert result.serverless_option.usd_per_month < result.own_hardware.usd_per_month


def test_a_larger_volume_may_need_a_larger_server() -> None:
    """An 8B model on premises: one RTX 5090 workstation ($310) carries up to 100,000 requests a day;
    300,000 need the 8-GPU server ($10,425), which the catalog selects once the workstations would exceed
    their count. The label names both."""
    result = run(
        {
            "name": "onprem-8b",
            "model": {"name": "llama-3.1-8b", "precision": "bf16"},
            "requests_per_day": 60_000,
            "avg_input_tokens": 800,
            "avg_output_tokens": 250,
            "load_pattern": "steady",
            "schedule": "workdays",
            "latency_sensitive": True,
            "on_premises_required": True,
            "company_country": "DE",
        }
    )
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and result.decision.deployment == "own_hardware"
    at = chart.requests_per_day.index
    assert chart.self_hosted_servers[at(60_000)] == "RTX 5090 workstation"
    assert chart.self_hosted_servers[at(100_000)] == "RTX 5090 workstation"
    assert chart.self_hosted_servers[at(300_000)] == "HGX H100 8-GPU"
    assert chart.self_hosted_usd_per_month[at(60_000)] == result.decision.usd_per_month
    assert round(chart.self_hosted_usd_per_month[at(300_000)]) == 10_425
    # The chart samples 100,000 and 300,000: the change lies between them, not at 300,000. The PNG and
    # SVG charts label it with the same words.
    label = "RTX 5090 workstation; HGX H100 8-GPU from between 100,000 and 300,000 requests a day"
    assert f"own hardware ({label})" in render_memo(result)
    assert own_servers(chart, Format()) == label
    assert own_servers(chart, Format.named("de")) == (
        "RTX-5090-Workstation; HGX H100 8-GPU ab einer Last zwischen 100.000 und 300.000 Anfragen pro Tag"
    )


def test_a_per_second_batch_is_captioned_proportional_with_the_start_unbilled() -> None:
    """w11: vast spot bills by the second, so 1,000 requests a day cost cents (the one replica's seconds
    that volume needs and its weights' load, plus the 5 % of spot work redone). The caption says so and
    that the instances' daily boot is not billed, as the decision does not bill it either."""
    result = result_of(VOLUME_DIR / "w11-spot-batch.yaml")
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and chart.self_hosted_shape == "batch_proportional"
    rps = next(g for g in result.sizing.gpus if g.gpu == "h100-pcie").requests_per_second_per_replica
    assert rps is not None
    # One replica at 1,000 requests a day, the weights (Qwen2.5-7B's exact 7.62B parameters x 2 bytes
    # = 15.24 GB) loaded at 2.5 GB/s and vLLM's 21.8 s start, in whole seconds.
    assert result.sizing.weights_gb == pytest.approx(7.62 * 2)
    seconds = math.ceil(1_000 / rps + 7.62 * 2 / 2.5 + 21.8)
    cost = seconds / 3600 * 30.42 * 1.05 * 1.49
    assert chart.self_hosted_usd_per_month[0] == pytest.approx(cost)
    memo = render_memo(result)
    assert "Nearly proportional to the work" in memo
    assert "one more replica at a time" not in memo
    assert "booting the instances for each run is billed neither in this line nor" in memo


def test_the_sizing_sentence_gives_the_peak_on_the_replicas_it_counts() -> None:
    """w10: one replica carries the peak and a spare is added; the peak fills 28 % of the one replica (14 %
    spread over both, which the sentence gave). The latency targets lower what a replica may carry, but
    throughput alone needs one replica too, so the headroom is said to size it."""
    result = result_of(VOLUME_DIR / "w10-latency.yaml")
    best = result.best_option
    assert best is not None and (best.replicas, best.spare_replicas) == (2, 1)
    assert round(best.capacity_utilization_at_peak * 100) == 14
    # 200,000 requests / 86,400 s x 1.33 x 1.27 = 3.91 requests/s at the peak, on one H200 replica's 14.17,
    # 119 decode steps a request after its prompt's pass, at the bandwidth share of 0.86 and the compute
    # share of 0.58 (14.20 beside 70.55 GB of weights: the 72.65 GB of the FP8 checkpoint, its embedding
    # and lm_head in 16 bit, leave KV room for 351 sequences, not 363).
    per_replica = next(g for g in result.sizing.gpus if g.gpu == best.gpu).requests_per_second_per_replica
    peak = 200_000 / 86_400 * 1.33 * 1.27
    assert best.gpu == "h200" and round(per_replica or 0, 2) == 14.17
    assert round(peak / (per_replica or 1) * 100) == 28 and peak == pytest.approx(3.91, abs=0.01)
    memo = render_memo(result)
    assert "too high: one replica for the peak. At the peak it runs at 28 % of its estimated" in memo
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert "ein Replikat für die Spitze. In der Spitze läuft es bei 28 %" in german


def test_volumes_where_the_route_has_no_price_are_left_out() -> None:
    """A 70B model at one request a day is weighed against RunPod's serverless A100s, one card per
    instance. From 100,000 requests a day a replica takes 2 cards (they carry the peak on fewer cards in
    all; beside the 72.65 GB of FP8 weights, the 16-bit embedding and lm_head among them, one card keeps
    little KV cache), which no instance of the product holds: ``recommend`` there offers no such option,
    and the chart leaves those volumes out and says so."""
    workload = {
        "name": "generated",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 1,
        "latency_sensitive": False,
        "context_tokens": 450,
    }
    result = run(workload)
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and chart.self_hosted_kind == "serverless"
    assert chart.self_hosted_unpriced == (100_000, 300_000, 1_000_000, 3_000_000, 10_000_000)
    assert chart.requests_per_day == (1, 1_000, 3_000, 10_000, 30_000)
    option = followed(result)
    assert option is not None
    there = as_json(run({**workload, "requests_per_day": 1_000_000}))
    keys = ("provider", "offer", "gpu", "regions")
    assert not [o for o in there["options"] if all(o[k] == option[k] for k in keys)]
    assert "has no price at 100,000, 300,000, 1,000,000, 3,000,000, 10,000,000 requests a day" in render_memo(
        result
    )
