"""Owning against renting, each as it bills, worked by hand for single workloads: a mixed fleet (a
reserved base, hourly cards for the busier hours), an hourly rental and a batch rental at their own
bills, and an owned node busy when its own replica is (the grid over server price and load is in
test_commitments.py)."""

from __future__ import annotations

import math

import pytest
from helpers import CLAIMS_BATCH, EVALUATED_ON, EXAMPLES_DIR, lambda_uk, negotiated_aws, run
from test_commitments import MARKETS, RELATIVE, own_per_gpu_hour, with_server_price

from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.recommend import evaluate_workload, recommend
from gpu_advisor.engine.calc.latency import at_rate
from gpu_advisor.engine.domain.workload import load_workload, validate_workload

CHAT_3M = MARKETS["open-market"]


def test_a_mixed_fleet_reserves_what_every_hour_needs_and_rents_the_busier_hours() -> None:
    """Three million requests a day of a 70B FP8 service around the clock on the steady profile: on H100
    (two cards a replica, 25.02 requests/s each, 66 % of it usable after the headroom and the error band,
    0.70 / 1.061: 16.51) the hours need 3 to 5 replicas, spare included: 34.7 requests/s on average times
    the hour's factor times 1.27 within it. One reserved 8-GPU P5 holds 4 of them every hour; hours 12 to
    16 (factors 1.13 to 1.33, above 3 x 16.51 / (34.7 x 1.27) = 1.123; hour 8's 1.11 is not) need a
    fifth, 2 cards on Lambda's hourly 2-GPU H100 instance ($4.19) for 5 hours a day (GMI's $2.10 sells
    single cards only, which a 2-card replica cannot use: NET003); hours 22 and 23 (0.70, 0.72, at most
    2 x 16.51 / (34.7 x 1.27) = 0.749; hour 21's 0.77 is not) need only three."""
    workload = validate_workload({**CHAT_3M, "name": "chat-3m", "requests_per_day": 3_000_000}, "test")
    result = recommend(workload, EVALUATED_ON, knowledge=negotiated_aws())
    mixed = result.mixed_fleet
    assert mixed is not None and mixed.fleet is not None
    fleet = mixed.fleet
    plan = next(g for g in result.sizing.gpus if g.gpu == "h100-sxm")
    # 25.02: the 72.65 GB of FP8 weights (the 16-bit embedding and lm_head among them) leave KV room for
    # 504 sequences. A request's 150 tokens take 149 decode steps, its first coming from its prompt's pass,
    # so a full batch's pass carries 504 x (1 + 300 / 149) = 1,519 tokens (the decode tokens and the
    # 300-token prompts replacing the one in 149 sequences that finishes each step), an all-reduce of
    # 1,519 x 8,192 = 12.4 million elements, where the 2-card table gives 0.37 of the link (0.34 at 8.4
    # million, 0.39 at 16.8 million), not 0.41.
    assert plan.requests_per_second_per_replica == pytest.approx(25.02, abs=0.01)
    assert plan.concurrent_requests == 504
    usable = plan.requests_per_second_per_replica * 0.70 / (1 + result.throughput_accuracy.highest_error)
    assert usable == pytest.approx(16.51, abs=0.01)
    hourly = result.load.average_requests_per_second * 1.27
    assert 1.11 < 3 * usable / hourly < 1.13 and 0.72 < 2 * usable / hourly < 0.77
    assert fleet.replicas_by_hour == (4,) * 12 + (5,) * 5 + (4,) * 5 + (3, 3)
    assert (fleet.base_provider, fleet.base_offer, fleet.base_replicas, fleet.base_replicas_hosted) == (
        "aws",
        "p5-reserved-3y",
        3,
        4,
    )
    assert fleet.base_usd_per_month == pytest.approx(8 * 1.90 * 730)  # $11,096
    days = result.workload.days_per_month  # 30.42
    assert (fleet.peak_provider, fleet.peak_offer, fleet.peak_gpus_rented_max) == ("lambda", "2-gpu-plan", 2)
    assert fleet.peak_gpu_hours_per_month == pytest.approx(2 * 5 * days)  # 304.20 card-hours
    assert fleet.peak_usd_per_month == pytest.approx(2 * 5 * days * 4.19)  # $1,274.60
    assert mixed.usd_per_month == pytest.approx(8 * 1.90 * 730 + 2 * 5 * days * 4.19)  # $12,370.60
    best = result.best_option
    # The cheapest single-kind fleet: four B200 replicas (one card each) every hour, 4 x 5.98 x 730.
    assert best is not None and (best.provider, best.offer, best.gpu, best.gpus) == (
        "runpod",
        "community",
        "b200",
        4,
    )
    assert best.usd_per_month == pytest.approx(4 * 5.98 * 730)  # $17,461.60
    assert result.decision.deployment == "hybrid"
    assert result.decision.deciding_rule_id == "DEP025"
    assert result.decision.usd_per_month == pytest.approx(mixed.usd_per_month)
    assert mixed.chosen
    memo = render_memo(result)
    assert (
        "Recommendation: **Hybrid**, a mixed fleet of h100-sxm: 8 cards reserved at aws p5-reserved-3y, "
        "holding 4 replicas in every hour, and up to 2 cards more at lambda 2-gpu-plan in the busier hours, "
        "**$12,371 per month**."
    ) in memo
    peak_row = "| Peak: by the hour, in the busier hours | lambda 2-gpu-plan ($4.19/GPU-hour) | up to 2 | "
    assert peak_row in memo
    # The hourly part rests on capacity no provider promises in every hour, as DEP025 says.
    assert (
        "from on-demand capacity no provider promises in every hour: where the peak must be served, agree "
        "capacity for those hours with the provider."
    ) in " ".join(next(f.message for f in result.findings if f.rule_id == "DEP025").split())
    # AWS's base and Lambda's hourly cards: two providers to contract and balance the load across.
    assert (
        "The base and the hourly instances are two providers': two contracts, and one load balancer in "
        "front of both clouds."
    ) in " ".join(next(f.message for f in result.findings if f.rule_id == "DEP025").split())
    # 1 - 12,370.60 / 17,461.60 = 29 %.
    assert "29 % less than the cheapest single-kind fleet at $17,461.60/month" in memo


def test_a_mixed_fleet_that_owning_undercuts_is_shown_not_chosen() -> None:
    """With a $100,000 server, two owned nodes ($9,585, the US staff line included) undercut the mixed
    fleet ($12,371): owning wins, and the memo shows the mixed fleet for comparison."""
    knowledge = with_server_price(negotiated_aws(), 100_000)
    workload = validate_workload({**CHAT_3M, "name": "chat-3m", "requests_per_day": 3_000_000}, "test")
    result = recommend(workload, EVALUATED_ON, knowledge=knowledge)
    assert result.decision.deployment == "own_hardware"
    assert result.own_hardware.usd_per_month == pytest.approx(2 * own_per_gpu_hour(100_000) * 8 * 730)
    assert "TCO016" not in result.fired_rules  # the mixed fleet costs more than owning
    assert result.mixed_fleet is not None and not result.mixed_fleet.chosen
    assert "DEP025" in result.fired_rules  # proposed, but owning's proposal takes precedence
    assert "Shown for comparison; the decision is Own hardware." in render_memo(result)


def test_an_hourly_rental_is_compared_at_its_own_bill_not_at_the_busy_share() -> None:
    """The internal assistant (office hours, 176 paid hours a month) on RunPod's community RTX 5090,
    two cards: a dedicated card runs through the idle minutes between requests, so owning is compared with
    the bill, 2 × $0.69 × 176 h = $242.88, not with the 73 % of it in which a request is in flight."""
    result = recommend(load_workload(str(EXAMPLES_DIR / "internal-assistant.yaml")), EVALUATED_ON)
    own = result.own_hardware
    assert result.workload.hours_per_month == 176
    compared = (own.compared_with, own.compared_billing, own.rent_gpus_rented)
    assert compared == ("runpod/community", "hourly", 2)
    assert own.rent_usd_per_month_same_hours == pytest.approx(2 * 0.69 * 176, rel=RELATIVE)
    assert own.rent_billed_hours_per_month == 176
    assert own.cheapest_same_hours_usd_per_month == pytest.approx(2 * 0.69 * 176, rel=RELATIVE)
    assert result.load.busy_share is not None and result.load.busy_share < 0.8
    memo = render_memo(result)
    assert (
        "| Compared offer: runpod/community, rtx-5090 ($0.69/GPU-hour) | $243 | as billed: 176 h (2 cards) "
        "| — | utilization 26 % |"
    ) in memo
    # The cheapest admitted rental is the best rental: one row, not two.
    assert "Cheapest admitted rental" not in memo


def test_a_batch_rental_is_compared_at_the_hours_its_own_run_bills() -> None:
    """The nightly batch is compared with Azure's spot ND H100 v5 (the server's GPU) at the hours its
    own run bills, the figure of its row in the options table: one figure for one offer in the memo."""
    result = recommend(load_workload(str(EXAMPLES_DIR / "nightly-batch.yaml")), EVALUATED_ON)
    own = result.own_hardware
    compared = next(
        o for o in result.options if f"{o.provider}/{o.offer}" == own.compared_with and o.gpu == own.gpu
    )
    assert own.compared_with == "azure/nd-h100-v5-spot"
    assert own.rent_usd_per_month_same_hours == compared.usd_per_month
    assert own.rent_billed_hours_per_month == compared.billed_hours_per_month
    # Each night's run rounded to Azure's whole minutes, on 22 nights, plus the spot overhead for work
    # redone; 16 cards (two 8-GPU instances) at the spot price.
    nightly = own.rent_billed_hours_per_month / (1 + result.spot_interruption_overhead)
    minutes = nightly / result.workload.days_per_month * 60
    assert minutes == pytest.approx(round(minutes), abs=1e-6)
    # 285 minutes a night (the run's 283.33 and the 16-bit checkpoint's load, 72.71B x 2 bytes = 145.42 GB
    # at 2.5 GB/s: 58.2 s): 285 / 60 x 22 nights x 1.05 = 109.7 hours billed.
    assert compared.hours_per_day_running is not None
    load_minutes = 72.71 * 2 / 2.5 / 60
    assert round(minutes) == math.ceil(compared.hours_per_day_running * 60 + load_minutes) == 285
    assert own.rent_billed_hours_per_month == pytest.approx(285 / 60 * 22 * 1.05)
    assert compared.usd_per_month == pytest.approx(
        compared.gpus_rented * compared.usd_per_gpu_hour * own.rent_billed_hours_per_month, rel=RELATIVE
    )
    memo = render_memo(result)
    bill = f"${compared.usd_per_month:,.0f}"
    assert (
        f"| Compared offer: azure/nd-h100-v5-spot, h100-sxm ($2.37/GPU-hour) | {bill} | as billed: 110 h "
        "(16 cards) |" in memo
    )
    # The cheapest admitted rental is RunPod's B200, the best rental: shown once.
    assert own.cheapest_same_hours == "runpod/community/b200"
    assert "Cheapest admitted rental" not in memo


UNDERWRITING = {
    "name": "underwriting-70b",
    "model": {"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True},
    "avg_input_tokens": 600,
    "avg_output_tokens": 200,
    "load_pattern": "steady",
    # The same rate in every hour, so that one hour's figures are the month's.
    "load_profile": [1] * 24,
    "latency_sensitive": True,
    "min_replicas": 3,
    "personal_data": True,
    "company_country": "CH",
}
"""A Swiss 70B service on its own weights with three 2-card replicas at least, on one 8-card HGX H100."""


def each_replica_busy(in_flight: float, replicas: int) -> float:
    """E[min(N, n)] / n for N Poisson with mean ``in_flight``: each replica's busy share where requests go
    to an idle replica whenever one is idle."""
    p = [math.exp(-in_flight) * in_flight**k / math.factorial(k) for k in range(replicas)]
    return (replicas - sum((replicas - k) * p[k] for k in range(replicas))) / replicas


def test_an_owned_nodes_cards_are_busy_when_their_own_replica_is() -> None:
    """At 30,000 requests a day, 1.31 requests are in flight on average (λS; each step reads the 70.55 GB
    the FP8 weights hold): one is in flight somewhere 1 - e^(-1.31) = 73.0 % of the time, but min(N, 3)
    of the three replicas are busy, each 41.7 % of the time. Six of the node's eight cards busy 41.7 % of
    the time make 31 % of its card-hours, under the documents' 50 % line. Counting the fleet's 73.0 % on
    every card put the node at 55 %, above it, and
    TCO001 said buy as if the line were crossed; the node still undercuts every rental, which TCO017
    says."""
    result = run({**UNDERWRITING, "requests_per_day": 30_000})
    in_flight = result.load.requests_in_flight_average
    # λS with S the latency model's at the rate each of the three replicas carries on average.
    workload = validate_workload({**UNDERWRITING, "requests_per_day": 30_000}, "t")
    own = evaluate_workload(workload, EVALUATED_ON).market.plans["h100-sxm"]
    rate = 30_000 / 86_400
    assert own.replicas == 3
    assert in_flight == pytest.approx(3 * at_rate(own.roofline, rate / 3).in_flight, rel=0.01)
    assert in_flight == pytest.approx(1.3091, abs=1e-4)
    assert result.load.busy_share == pytest.approx(round(1 - math.exp(-in_flight), 3))
    own = result.own_hardware
    # Two of the three replicas are spares: the peak needs one, min_replicas asks for three.
    assert (own.gpus_needed, own.replicas, own.spare_replicas) == (6, 3, 2)
    assert (own.nodes, own.gpus_per_server) == (1, 8)
    each = each_replica_busy(in_flight, 3)
    assert own.replica_busy_share == pytest.approx(round(each, 3))
    assert own.node_utilization == pytest.approx(6 * round(each, 3) / 8)
    assert (f"{each:.1%}", f"{6 * each / 8:.0%}", f"{6 * (1 - math.exp(-in_flight)) / 8:.0%}") == (
        "41.7%",
        "31%",
        "55%",
    )
    assert result.decision.deciding_rule_id == "TCO017"
    message = " ".join(next(f.message for f in result.findings if f.rule_id == "TCO017").split())
    assert message.startswith("The owned node's cards would emit tokens in only 31 % of their calendar hours")
    assert (
        "The 6 cards the load needs hold 3 replicas, each with a request in flight in 42 % of 730 paid "
        "hours a month (each request sent to an idle replica whenever one is idle, the 2 spares among them); "
        "over the 8 cards' calendar hours the node is busy 31 %."
    ) in " ".join(render_memo(result).split())


def test_a_node_below_the_per_hour_break_even_that_still_undercuts_the_rentals_says_below() -> None:
    """At 60,000 requests a day each 2-card replica is busy 71.9 % of the time, six of the node's eight
    H100: 54 % of its card-hours, below the break-even of $1.92 / $2.99 = 64 % (Swiss cost lines: EKZ's
    26.04 Rp./kWh, the documents' rack, 5 % of 105,000 CHF a year). The node still costs less
    than Lambda's six H100 billed every hour ($13,096.20), in the UK region a team's contract adds
    (tests/rates/lambda-uk.yaml; the catalog has none): TCO001 decides, and says below, not above."""
    result = run({**UNDERWRITING, "requests_per_day": 60_000}, knowledge=lambda_uk())
    assert result.decision.deciding_rule_id == "TCO001"
    each = each_replica_busy(result.load.requests_in_flight_average, 3)
    assert f"{each:.1%}" == "71.9%"
    assert result.own_hardware.node_utilization == pytest.approx(6 * round(each, 3) / 8)
    message = " ".join(next(f.message for f in result.findings if f.rule_id == "TCO001").split())
    assert (
        "would emit tokens in 54 % of their calendar hours (a request in flight; not their throughput), "
        "below the break-even of 64 % against $2.99 per "
        "h100-sxm GPU-hour at lambda/on-demand-uk ($1.92 own cost per GPU-hour), which a rental billed only "
        "for busy hours would set; a "
        "dedicated rental bills its cards in every paid hour, and the node's $11,213.93/month undercuts"
    ) in message
    assert "$13,096.20/month (lambda/on-demand-uk/h100-sxm, billed 730 hours a month)" in message
    # Capital, power at 7.28 kW, the rack, staff: CHF at 1.16 / 0.9197 USD.
    node = 285_000 / 36 + 7.28 * 730 * 0.2604 / 0.9197 * 1.16 + 1_000 + 105_000 / 0.9197 * 1.16 * 0.05 / 12
    assert round(node, 2) == 11_213.93


def test_one_card_is_said_as_one() -> None:
    """A nightly 8B batch needs one card of the owned 8-GPU node: the memo says so in the singular. The
    card runs 12.8 % of the 730 hours (the node's eight cards 12.8 % / 8 = 1.6 %)."""
    workload = validate_workload(CLAIMS_BATCH, "test")
    result = recommend(workload, EVALUATED_ON)
    own = result.own_hardware
    assert (own.gpus_needed, own.replicas, own.nodes * own.gpus_per_server) == (1, 1, 8)
    assert own.node_utilization == pytest.approx(own.replica_busy_share / 8)
    assert (
        "The one card the load needs holds its replica, running in 13 % of 730 paid hours a month; over the "
        "8 cards' calendar hours the node is busy 2 %.\n" in render_memo(result)
    )


def test_a_one_card_workstation_is_said_as_one() -> None:
    """20,000 short 8B requests a night that may not leave the building: one RTX 5090 workstation, its one
    card running 4.9 % of the month's 730 hours, which are its calendar hours too."""
    workload = validate_workload(
        {
            **CLAIMS_BATCH,
            "requests_per_day": 20_000,
            "personal_data": False,
            "on_premises_required": True,
            "company_country": "DE",
        },
        "test",
    )
    result = recommend(workload, EVALUATED_ON)
    own = result.own_hardware
    assert (own.server, own.nodes * own.gpus_per_server) == ("workstation-rtx-5090", 1)
    # 1.169 hours a night (the run and the weights' load) x 30.42 nights / 730 hours, rounded.
    assert own.node_utilization == own.replica_busy_share == pytest.approx(0.049)
    assert (
        "The one card the load needs holds its replica, running in 5 % of 730 paid hours a month; over the "
        "month's calendar hours it is busy 5 %.\n" in render_memo(result)
    )
