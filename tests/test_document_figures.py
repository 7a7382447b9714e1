"""The worked figures of the source documents, reproduced exactly (to the documents' rounding)."""

from __future__ import annotations

import pytest
from helpers import merged, run

from gpu_advisor.api import size
from gpu_advisor.engine.apps.tco import tco
from gpu_advisor.engine.calc.checkpoint import weights_gb
from gpu_advisor.engine.calc.costs import (
    ServerAssumptions,
    billed_hours,
    break_even_utilization,
    own_hardware_cost,
    rent,
)
from gpu_advisor.engine.calc.sizing import kv_bytes_per_token
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.requests import TcoRequest


def offer(provider: str, name: str, gpu: str):
    for entry in load_knowledge().offers.offers:
        if (entry.provider, entry.offer, entry.gpu) == (provider, name, gpu):
            return entry
    raise AssertionError(f"no offer {provider}/{name}/{gpu}")


# --- card-count document: weights and card counts -----------------------------------------------------


@pytest.mark.parametrize(
    ("params_b", "precision", "expected_gb"),
    [
        (8, "bf16", 16),
        (32, "bf16", 64),
        (70, "bf16", 140),
        (70, "fp8", 70),
        (405, "fp8", 405),
        (671, "fp8", 671),
        (70, "int4", 35),
        (7, "fp32", 28),
    ],
)
def test_weights_are_parameters_times_bytes(params_b: float, precision: str, expected_gb: float) -> None:
    assert weights_gb(params_b, load_knowledge().bytes_per_parameter(precision)) == expected_gb


def counts(result, gpu: str) -> tuple[int | None, int | None]:
    row = next(r for r in result.gpus if r.gpu == gpu)
    return row.gpus_for_weights, row.gpus_recommended


@pytest.mark.parametrize(
    ("model", "params_b", "precision", "gpu", "expected"),
    [
        # "70B in BF16 auf zwei H100 ... Ein öffentlicher Dienst nimmt dafür üblicherweise 4 Karten."
        ("llama-3.1-70b", None, "bf16", "h100-sxm", (2, 4)),
        # "Eine H200 hat 141 GB ... fast keinen KV-Cache. Üblich bleiben 2 Karten."
        ("llama-3.1-70b", None, "bf16", "h200", (1, 2)),
        # "70B in FP8 sind etwa 70 GB, üblicherweise 2 H100." / "eine H200 für $3.59"
        ("llama-3.1-70b", None, "fp8", "h100-sxm", (1, 2)),
        ("llama-3.1-70b", None, "fp8", "h200", (1, 1)),
        # "32B in BF16 ... Üblich sind 2 Karten. Eine H200 oder eine B200 hat noch Luft."
        (None, 32, "bf16", "h100-sxm", (1, 2)),
        (None, 32, "bf16", "h200", (1, 1)),
        (None, 32, "bf16", "b200", (1, 1)),
        # "32B in BF16 sind 64 GB und passen nicht auf eine 5090 mit 32 GB" (one card). Two hold 2 x 32 GiB =
        # 68.7 GB, but vLLM keeps 3.5 GiB per card for activations and CUDA graphs: 61.2 GB, too little;
        # four cards load the weights, and leave no room for the KV cache of eight 8,192-token sequences.
        (None, 32, "bf16", "rtx-5090", (4, None)),
        # "Ein internes 8B-Werkzeug: eine RTX 5090 (32 GB) oder eine L40S (48 GB) trägt BF16."
        ("llama-3.1-8b", None, "bf16", "rtx-5090", (1, 1)),
        ("llama-3.1-8b", None, "bf16", "l40s", (1, 1)),
        # "405 GB passen in die 640 GB von 8×H100. 671 GB FP8 passen nicht ... 8×H200 ... oder 16×H100."
        ("llama-3.1-405b", None, "fp8", "h100-sxm", (8, 8)),
        ("deepseek-r1", None, "fp8", "h100-sxm", (16, 16)),
        ("deepseek-r1", None, "fp8", "h200", (8, 8)),
    ],
)
def test_card_counts_of_the_document(model, params_b, precision, gpu, expected) -> None:
    result = size(precision=precision, model=model, params_b=params_b)
    assert counts(result, gpu) == expected


def test_eight_h100_cannot_hold_671_gb() -> None:
    h100 = load_knowledge().gpu("h100-sxm")
    assert 8 * h100.memory_gb == 640 < 671
    h200 = load_knowledge().gpu("h200")
    assert 8 * h200.memory_gb == 1128


def test_kv_cache_per_token_from_attention_shape() -> None:
    knowledge = load_knowledge()
    # Llama 3.1 70B: 2 (K and V) x 80 layers x 8 KV heads x 128 dims x 2 bytes (BF16)
    assert kv_bytes_per_token(knowledge.model("llama-3.1-70b"), 2) == 327_680
    # DeepSeek-R1 MLA: 61 layers x (512 latent + 64 rotary) x 1 byte (FP8 cache)
    assert kv_bytes_per_token(knowledge.model("deepseek-r1"), 1) == 35_136


def test_moe_is_sized_by_total_parameters() -> None:
    # Every one of the 671.03B parameters: 669.18B x 1 byte + the embedding and lm_head the FP8 checkpoint
    # keeps in 16 bit, 2 x 129,280 x 7,168 x 2 bytes = 672.883358 GB.
    result = size(precision="fp8", model="deepseek-r1")
    assert (result.weights_params_b, result.weights_gb) == (671.03, 672.883358)
    assert result.active_params_b == 37


# --- card-count document: monthly rental costs --------------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "name", "gpu", "cards", "hours", "expected_usd"),
    [
        ("runpod", "community", "h100-sxm", 1, 730, 1963.70),  # "2,69 × 730 ≈ $1.964"
        ("runpod", "community", "h100-sxm", 8, 730, 15709.60),  # "acht Karten etwa $15.710"
        ("lambda", "8-gpu-plan", "h100-sxm", 8, 730, 23301.60),  # "bei Lambda $3.99 sind etwa $23.300"
        ("aws", "p5-capacity-block", "h100-sxm", 8, 730, 34864.80),  # "bei AWS $5.97 etwa $34.865"
        ("runpod", "community", "h100-sxm", 1, 264, 710.16),  # "eine H100 auf Community etwa $710"
        ("runpod", "community", "h100-sxm", 2, 264, 1420.32),  # "zwei Karten etwa $1.420 im Monat"
        ("runpod", "community", "rtx-5090", 1, 176, 121.44),  # "etwa $121 im Monat"
    ],
)
def test_monthly_rental_costs(provider, name, gpu, cards, hours, expected_usd) -> None:
    # One-card replicas: the document prices cards, whichever instance sizes carry them.
    sold = offer(provider, name, gpu)
    rental = rent(sold, 1, cards, hours, sold.instance_gpus)
    assert rental.usd_per_month == pytest.approx(expected_usd)


def test_hourly_rates_of_the_70b_fp8_replica() -> None:
    # "Community-Miete 2 × $2.69 = $5.38 pro Stunde. Eine H200 kostet $3.59, eine B200 $5.98."
    h100, h200, b200 = (offer("runpod", "community", gpu) for gpu in ("h100-sxm", "h200", "b200"))
    assert rent(h100, 2, 1, 1, (2, 4, 8)).usd_per_hour == pytest.approx(5.38)
    assert rent(h200, 1, 1, 1, ()).usd_per_hour == pytest.approx(3.59)
    assert rent(b200, 1, 1, 1, ()).usd_per_hour == pytest.approx(5.98)


def test_capacity_block_per_accelerator() -> None:
    block = offer("aws", "p5-capacity-block", "h100-sxm")
    assert block.instance_usd_per_hour == 47.757
    assert block.instance_gpus == (8,)
    assert block.instance_usd_per_hour / 8 == pytest.approx(5.970, abs=0.0005)


def test_reservation_is_paid_for_every_calendar_hour() -> None:
    reservation = offer("aws", "p5-reserved-3y", "h100-sxm")
    reserved = rent(reservation, 2, 1, billed_hours(reservation, 264, 730, None, 0.05), (8,))
    # Reserved P5 capacity is sold as the 8-GPU p5.48xlarge only: a 2-card replica pays for 8 cards.
    assert (reserved.billed_hours_per_month, reserved.gpus_rented) == (730, 8)
    assert reserved.usd_per_month == pytest.approx(8 * 1.90 * 730)


def test_eight_gpu_plan_rounds_up_to_whole_instances() -> None:
    rental = rent(offer("lambda", "8-gpu-plan", "h100-sxm"), 2, 1, 730, (8,))
    assert (rental.gpus_rented, rental.placement.replicas_hosted) == (8, 4)


# --- card-count document: own 8-GPU server ------------------------------------------------------------


def default_assumptions() -> ServerAssumptions:
    return ServerAssumptions.from_server(load_knowledge().own_server())


def test_three_cost_lines_at_the_midpoint() -> None:
    cost = own_hardware_cost(default_assumptions())
    assert cost.usd_per_gpu_capital == 35_625  # 285,000 / 8
    assert cost.hours_written_off == 26_280  # 36 x 730
    assert round(cost.capital, 2) == 1.36
    assert cost.node_kw == pytest.approx(7.28)  # 8 x 700 W x 1.3
    assert round(cost.power_usd_per_month) == 638  # 7.28 x 730 x 0.12
    assert round(cost.power, 2) == 0.11
    assert round(cost.rack, 2) == 0.17
    assert round(cost.total, 2) == 1.64


@pytest.mark.parametrize(("price", "capital", "total"), [(250_000, 1.19, 1.47), (320_000, 1.52, 1.80)])
def test_price_range(price: float, capital: float, total: float) -> None:
    cost = own_hardware_cost(default_assumptions().model_copy(update={"server_price_usd": price}))
    assert (round(cost.capital, 2), round(cost.total, 2)) == (capital, total)


def test_residual_value_of_thirty_percent() -> None:
    cost = own_hardware_cost(default_assumptions().model_copy(update={"residual": 0.30}))
    assert (round(cost.capital, 2), round(cost.total, 2)) == (0.95, 1.23)


@pytest.mark.parametrize(("rent_price", "expected"), [(2.69, 0.61), (3.99, 0.41), (5.97, 0.27)])
def test_break_even_utilization_at_the_midpoint(rent_price: float, expected: float) -> None:
    total = own_hardware_cost(default_assumptions()).total
    assert round(break_even_utilization(total, rent_price), 2) == expected


@pytest.mark.parametrize(("price", "expected"), [(250_000, 0.55), (320_000, 0.67)])
def test_break_even_at_the_ends_of_the_price_range(price: float, expected: float) -> None:
    total = own_hardware_cost(default_assumptions().model_copy(update={"server_price_usd": price})).total
    assert round(break_even_utilization(total, 2.69), 2) == expected


def test_break_even_with_residual_value() -> None:
    total = own_hardware_cost(default_assumptions().model_copy(update={"residual": 0.30})).total
    assert round(break_even_utilization(total, 2.69), 2) == 0.46


def test_tco_result_lists_break_even_per_offer() -> None:
    # The documents' own figures, as a country without cost defaults takes them (the US adds a staff line;
    # the US and a German company's are in test_cost_defaults.py).
    result = tco(TcoRequest(country="NO"))
    rows = {(b.provider, b.offer): round(b.utilization, 2) for b in result.break_even}
    assert rows[("runpod", "community")] == 0.61
    assert rows[("lambda", "8-gpu-plan")] == 0.41
    assert rows[("aws", "p5-capacity-block")] == 0.27
    assert round(result.usd_per_gpu_hour.total, 2) == 1.64


# --- the worked scenarios, end to end -----------------------------------------------------------------

SCENARIO_BASE = {
    "name": "scenario",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 150000,
    "load_pattern": "steady",
    "utilization": 0.7,
    "latency_sensitive": True,
    "personal_data": False,
    "on_premises_required": False,
    "model_stable": True,
    "company_country": "DE",
}


def test_internal_8b_assistant_on_a_community_5090() -> None:
    # "Ein interner 8B-Assistent ... Eine Community-5090 für 176 Stunden im Monat kostet etwa $121." The
    # document counts one card: min_replicas 1 replaces the spare a latency-sensitive service gets.
    result = run(
        merged(
            SCENARIO_BASE,
            {
                "model": {"name": "llama-3.1-8b", "precision": "bf16"},
                "requests_per_day": 20000,
                "schedule": "office_hours",
                "min_replicas": 1,
            },
        )
    )
    best = result.best_option
    assert (best.provider, best.gpu, best.gpus) == ("runpod", "rtx-5090", 1)
    assert best.usd_per_month == pytest.approx(121.44)
    # The catalog's hosted price of the model itself (DeepInfra, 0.02 / 0.04 USD per million tokens) is
    # lower still: 20,000 x 22 days x 12 / 1e6 = $5.28 a month.
    assert (result.decision.deployment, result.decision.usd_per_month) == ("api", pytest.approx(5.28))


def test_public_70b_fp8_service_on_workdays() -> None:
    # "üblicherweise 2×H100. Zum Community-Preis und 264 Stunden sind zwei Karten etwa $1.420 im Monat ...
    #  Ein H200-Replikat senkt die Stundenrechnung von $5.38 auf $3.59."
    result = run(merged(SCENARIO_BASE, {"schedule": "workdays", "min_replicas": 1}))
    community = next(
        o for o in result.options if (o.provider, o.offer, o.gpu) == ("runpod", "community", "h100-sxm")
    )
    assert (community.gpus, community.usd_per_hour) == (2, pytest.approx(5.38))
    assert community.usd_per_month == pytest.approx(1420.32)
    assert (result.best_option.gpu, result.best_option.usd_per_month) == ("h200", pytest.approx(3.59 * 264))
    assert result.own_hardware.node_utilization < 0.5  # "noch kein Grund, einen 8-GPU-Server zu kaufen"
    assert result.decision.deployment != "own_hardware"


def test_two_card_service_does_not_justify_a_node() -> None:
    # "Wer zwei H100 braucht und einen Acht-Karten-Node kauft, lässt sechs Karten leer." (One replica, as
    # the document counts it: min_replicas 1 replaces the spare.)
    result = run(merged(SCENARIO_BASE, {"utilization": 1.0, "min_replicas": 1}))
    assert result.own_hardware.gpus_needed == 2
    # Two of eight cards, each needed nearly all the time (a request in flight in 99 % of the hours).
    assert result.own_hardware.node_utilization == pytest.approx(0.25, abs=0.005)
    assert {"TCO002", "TCO004"} <= set(result.fired_rules)
    assert result.decision.deployment != "own_hardware"


# --- the documents' own arithmetic, held between the figures the knowledge base keeps -----------------

HOURS_PER_MONTH = 730


def figure(figure_id: str):
    return load_knowledge().figure(figure_id)


def test_self_hosted_cost_per_request_is_the_gpu_hour_over_an_hour_of_requests() -> None:
    """'3 €/Stunde ÷ (50 Requests/s × 3.600) ≈ 0,000016 €': the document rounds 0.0000167 down."""
    per_request = figure("gpu_hour_h100_cloud_eur").value_low / (
        figure("llama70b_optimized_requests_per_second").value_low * 3600
    )
    assert per_request == pytest.approx(figure("cost_per_request_self_hosted_eur").value_low, rel=0.05)
    assert figure("cost_per_request_api_eur").value_low / per_request == pytest.approx(120)


def test_gpu_month_range_is_the_h100_list_range_over_a_month() -> None:
    """2,800 to 5,000 € per GPU-month is the 3.90 to 6.98 (AWS to Azure) H100 hour over 730 hours."""
    per_gpu_month = figure("medium_model_10_rps_eur_per_gpu_month")
    assert per_gpu_month.value_low / HOURS_PER_MONTH == pytest.approx(
        offer("aws", "p5-on-demand", "h100-sxm").usd_per_gpu_hour, rel=0.03
    )
    assert per_gpu_month.value_high / HOURS_PER_MONTH == pytest.approx(
        figure("h100_on_demand_usd_range").value_high, rel=0.03
    )


def test_the_1000_rpm_example_costs_a_gpu_month_within_that_range() -> None:
    gpus, monthly = figure("medium_model_1000_rpm_gpus"), figure("medium_model_1000_rpm_eur_per_month")
    per_gpu_month = figure("medium_model_10_rps_eur_per_gpu_month")
    assert per_gpu_month.value_low <= monthly.value_low / gpus.value_low <= per_gpu_month.value_high
    assert per_gpu_month.value_low <= monthly.value_high / gpus.value_high <= per_gpu_month.value_high


def test_a_reservation_pays_off_only_above_its_price_share_of_the_calendar_hours() -> None:
    """1.90 USD reserved for 3 years against 3.90 on demand: a reservation billed 730 hours costs what
    paying by the hour costs for 730 × 1.90 / 3.90 = 355.6 hours, 48.7 % of the month."""
    reserved = offer("aws", "p5-reserved-3y", "h100-sxm").usd_per_gpu_hour
    on_demand = offer("aws", "p5-on-demand", "h100-sxm").usd_per_gpu_hour
    assert (reserved, on_demand) == (1.90, 3.90)
    assert figure("reserved_aws_h100_usd").value_low == reserved
    assert figure("aws_h100_on_demand_usd").value_low == on_demand
    share = load_knowledge().threshold("reservation_min_paid_share").value
    assert share == pytest.approx(reserved / on_demand, abs=0.0005)
    assert HOURS_PER_MONTH * share == pytest.approx(355.5, abs=0.1)
