"""RunPod prices an instance that runs always (an active worker, $0.468 per L4-hour) below one that
scales with the load (a flex worker, $0.684). An instance that the load runs in at least 0.468 / 0.684 =
68 % of the served hours bills less running through all of them: a tagging model at 30 million requests a
day keeps five L4 instances so, billed as active workers, the rest of the month's instance-hours as flex
ones, as the provider bills them. Before, every hour was priced at the flex price, though no latency
target kept an instance warm."""

from __future__ import annotations

import math
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import run

from gpu_advisor.cli import main
from gpu_advisor.engine.calc.serverless_hours import HourDemand, always_on_instances

TAGGER: dict[str, Any] = {
    "name": "tagger",
    "model": {
        "params_b": 1.2,
        "precision": "bf16",
        "custom_weights": True,
        "attention_shape": {
            "num_hidden_layers": 16,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "head_dim": 64,
        },
    },
    "requests_per_day": 30_000_000,
    "avg_input_tokens": 200,
    "avg_output_tokens": 8,
    "load_pattern": "steady",
    "latency_sensitive": False,
    "company_country": "NL",
}


def test_the_base_load_s_instances_are_billed_as_always_on() -> None:
    result = run(TAGGER)
    (option,) = [
        o
        for o in result.options
        if (o.provider, o.gpu, o.regions) == ("runpod", "l4", ("eu-datacenters",))
        and o.pricing == "serverless"
    ]
    billing = option.serverless
    assert billing is not None
    assert (billing.instances_kept, billing.kept_for_price, billing.kept_warm) == (5, 5, True)
    always_on, flex = 5 * 730, option.billed_hours_per_month - 5 * 730
    assert option.usd_per_month == pytest.approx(always_on * 0.468 + flex * 0.684, abs=1e-6)
    # Priced at the flex price every hour, the same month would cost a quarter more.
    assert option.billed_hours_per_month * 0.684 > 1.25 * option.usd_per_month


def test_a_product_without_a_lower_always_on_price_keeps_no_instance_for_price() -> None:
    """Modal bills a running instance as one that scales: no instance is kept for the price."""
    result = run(TAGGER)
    modal = [o for o in result.options if o.provider == "modal"]
    assert modal and all(o.serverless is not None and o.serverless.instances_kept == 0 for o in modal)


def test_the_memo_says_why_the_instances_run_always() -> None:
    workload = yaml.safe_dump(TAGGER)
    memo = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30"], input=workload).output
    assert (
        "Scaling with the load, 5 instances would be up (serving, or waiting out their idle timeout) through "
        "most served hours, so they run through all of them, at the product's lower price for instances that "
        "run always; more start when the load needs them." in memo
    )
    assert "The service cannot wait for a cold start" not in memo


def test_an_instance_runs_always_where_the_load_runs_it_long_enough() -> None:
    """Four served hours needing 2.5, 2.5, 1.5 and 0.5 instances: 3, 3, 2 instances all hour, and one
    that scales to zero in the last. With no idle timeout or start, that one is up while a request is in
    flight, 1 - e^(-rate x seconds) of the hour: 0.9 at rate x seconds = ln 10. The first instance runs
    1 + 1 + 1 + 0.9 = 3.9 of the 4 hours, the second 3, the third 2: at 68.4 % (2.736 hours) the first
    two run always, the third scales. A 60 s idle timeout keeps the last hour's one up all hour (e^(0.23
    x 62.3) is past the point where a gap outlasts it), so the first runs 4 hours."""
    quiet = math.log(10) / 10
    hours = tuple(
        HourDemand(served=1.0, rate=rate, seconds=10.0, busy=1.0, needed=needed, hour=hour)
        for hour, (needed, rate) in enumerate([(2.5, 1.0), (2.5, 1.0), (1.5, 1.0), (0.5, quiet)])
    )
    ratio = 0.468 / 0.684
    assert always_on_instances(hours, spare=0, ratio=ratio, timeout=0.0, cold=0.0) == 2
    assert always_on_instances(hours, spare=0, ratio=1.0, timeout=0.0, cold=0.0) == 0
    assert always_on_instances(hours, spare=0, ratio=0.4, timeout=0.0, cold=0.0) == 3
    assert always_on_instances(hours, spare=0, ratio=0.9, timeout=0.0, cold=0.0) == 1
    assert always_on_instances(hours, spare=0, ratio=0.99, timeout=0.0, cold=0.0) == 0
    assert always_on_instances(hours, spare=0, ratio=0.99, timeout=60.0, cold=0.0) == 1


def test_the_band_gives_way_to_the_prices_where_a_variable_load_s_endpoint_costs_less() -> None:
    """A 70B chat in office hours, variable load, users who can wait: a GPU is needed in every paid hour,
    above the band's top, but DEP024 (steady loads only) does not set serverless aside, and RunPod's B200
    endpoint, one active worker and flex ones for the busier hours, costs less than the cheapest rental.
    DEP012 said only that dedicated GPUs are more economical, beside a serverless recommendation."""
    workload = {
        "name": "office-70b",
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 200_000,
        "avg_input_tokens": 800,
        "avg_output_tokens": 250,
        "load_pattern": "variable",
        "schedule": "office_hours",
        "latency_sensitive": False,
        "personal_data": True,
        "company_country": "DE",
    }
    result = run(workload)
    option, best = result.serverless_option, result.best_option
    assert result.decision.deployment == "serverless" and option is not None and best is not None
    (band,) = [f.message for f in result.findings if f.rule_id == "DEP012"]
    assert " ".join(band.split()).endswith(
        f"Here the serverless endpoint as priced costs less than the cheapest other self-hosted route the "
        f"rules weigh (${option.usd_per_month:,.2f} against ${best.usd_per_month:,.2f} a month), so the "
        "priced comparison, not this line, is the one to read."
    )
    assert option.usd_per_month < best.usd_per_month


def test_dep018_counts_the_starts_of_the_instances_added_as_theirs_not_the_kept_ones() -> None:
    """The tagger on a variable load around the clock: two instances kept for their price never stop, so
    the month's starts are all of instances added for busier hours; DEP018 said "in their starts", as if
    the kept ones started."""
    result = run(dict(TAGGER, load_pattern="variable"))
    option = result.serverless_option
    assert option is not None and option.serverless is not None
    billing = option.serverless
    assert (billing.instances_kept, billing.kept_restarts_per_month) == (2, 0.0)
    assert round(billing.scale_ups_per_month) == 548
    (dep018,) = [f for f in result.findings if f.rule_id == "DEP018"]
    assert (
        "with 2 kept warm in every paid hour, 3.81 in the starts of 548 instances added for busier hours)"
        in (dep018.message)
    )


def test_dep018_counts_both_where_kept_instances_restart_and_others_are_added() -> None:
    """Office hours at 3 million requests a day: the two kept instances start again before each of the 22
    served days (44 starts) and one is added for a busier hour each day (22 more): the month's start
    hours are theirs and the added ones', 66 starts of the cold start each."""
    result = run(dict(TAGGER, load_pattern="variable", schedule="office_hours", requests_per_day=3_000_000))
    option = result.serverless_option
    assert option is not None and option.serverless is not None
    billing = option.serverless
    assert (billing.instances_kept, billing.kept_restarts_per_month, billing.scale_ups_per_month) == (
        2,
        44,
        22,
    )
    assert billing.cold_start_hours_per_month == pytest.approx((44 + 22) * billing.cold_start_seconds / 3600)
    (dep018,) = [f for f in result.findings if f.rule_id == "DEP018"]
    assert "0.46 in starts, theirs and those of 22 instances added for busier hours)" in dep018.message


def test_the_count_kept_is_the_first_one_not_worth_keeping_found_without_counting_up() -> None:
    """The count is found by bisection (counting up one instance at a time took over two minutes for a
    billion requests a day): every count below it is up in at least the price ratio of the served hours,
    the next one in less. 60,000 instances at noon, 10 an hour otherwise, all hours served whole: the
    10th instance runs in all 24 hours, the 11th in 1 of them, under 0.684: 10 are kept."""
    demand = tuple(
        HourDemand(
            served=1.0, rate=1.0, seconds=1.0, busy=1.0, needed=60_000.0 if hour == 12 else 10.0, hour=hour
        )
        for hour in range(24)
    )
    assert always_on_instances(demand, 0, 0.684, 5.0, 10.0) == 10
    # A ratio at or below 1 in 24 keeps every instance the busiest hour runs.
    assert always_on_instances(demand, 0, 1 / 48, 5.0, 10.0) == 60_000
    # The spare runs all hour too: 10 + 1 kept through every hour, the 12th only at noon.
    assert always_on_instances(demand, 1, 0.684, 5.0, 10.0) == 11
