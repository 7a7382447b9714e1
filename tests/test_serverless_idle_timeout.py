"""The idle timeout a serverless product accepts, and what a longer one bills, with the figures worked out
by hand here."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError
from test_serverless_billing import FLAT, SIZING, flat_load, product

from gpu_advisor.engine.calc.serverless_hours import hourly_demand, service_month
from gpu_advisor.engine.calc.traffic import ServiceTime, daily_traffic
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.knowledge.serving import ServerlessProduct


def test_a_longer_idle_timeout_bills_more_even_where_a_cold_start_outlasts_it() -> None:
    # One request every 120 s around the clock (λ = 1/120 a second), 50 s each, a 300 s cold start,
    # per-second billing (half a second of rounding per start). The cold start is longer than a 60 s
    # idle timeout, and longer than the mean gap between requests (λC = 2.5).
    #
    # 60 s: an up period lasts U = 300 + (e^(110/120) - 1) × 120 = 300 + 1.50094 × 120 = 480.11 s and a
    #   down period 120 s on average: up 480.11 / 600.11 = 80.004 % of the time, one start per cycle,
    #   3600 / 600.11 = 5.9989 an hour; billed (0.80004 + 5.9989 × 0.5 / 3600) × 720 hours = 576.63
    #   instance-hours a month, 4,319.2 starts.
    # 600 s: U = 300 + (e^(650/120) - 1) × 120 = 300 + 224.127 × 120 = 27,195.3 s: up 27,195.3 / 27,315.3
    #   = 99.561 % of the time, 0.13179 starts an hour; billed (0.99561 + 0.13179 × 0.5 / 3600) × 720 =
    #   716.85 instance-hours, 94.9 starts.
    # The longer timeout bills 140.2 instance-hours more: a request that arrives while an instance starts
    # waits in that start, so a stop followed by a start is up no longer than staying up would have been,
    # and the time down is saved.
    service = ServiceTime.constant(50.0, replicas=1)
    demand = hourly_demand(
        daily_traffic(FLAT, 0, 24), flat_load(1 / 120), service, 100.0, 100.0 * SIZING.capacity_share
    )
    minute = service_month(demand, product(idle=60), 300.0, 30.0, 0, None)
    ten_minutes = service_month(demand, product(idle=600), 300.0, 30.0, 0, None)
    assert math.expm1(110 / 120) == pytest.approx(1.50094, abs=1e-5)
    assert math.expm1(650 / 120) == pytest.approx(224.127, abs=1e-3)
    assert minute.busy + minute.idle + minute.cold == pytest.approx(576.63, abs=0.01)
    assert minute.starts == pytest.approx(4319.2, abs=0.1)
    assert ten_minutes.busy + ten_minutes.idle + ten_minutes.cold == pytest.approx(716.85, abs=0.01)
    assert ten_minutes.starts == pytest.approx(94.9, abs=0.1)


def test_the_catalog_states_the_idle_timeouts_each_product_accepts() -> None:
    ranges = {
        product.id: None
        if product.settings is None or product.settings.idle_timeout_range is None
        else (
            product.settings.idle_timeout_range.minimum_seconds,
            product.settings.idle_timeout_range.maximum_seconds,
        )
        for product in load_knowledge().serverless.products
    }
    assert ranges == {"functions": (2, 1200), "serverless": (1, 3600), "inference-endpoints": None}


def test_a_default_idle_timeout_outside_the_products_range_is_refused() -> None:
    entry = product(idle=5).model_dump(mode="json", exclude_none=True)
    entry["settings"] = {
        "minimum": "min_containers",
        "maximum": "max_containers",
        "idle_timeout": "scaledown_window",
        "idle_timeout_range": {
            "minimum_seconds": 10,
            "maximum_seconds": 1200,
            "source": "https://example.org/settings",
            "as_of": "2026-12-07",
        },
        "source": "https://example.org/settings",
        "as_of": "2026-12-07",
    }
    with pytest.raises(ValidationError) as refused:
        ServerlessProduct.model_validate(entry)
    assert [error["msg"] for error in refused.value.errors()] == [
        "Value error, idle_timeout_seconds lies outside settings.idle_timeout_range"
    ]
    entry["idle_timeout_seconds"] = 10
    assert ServerlessProduct.model_validate(entry).idle_timeout_seconds == 10
