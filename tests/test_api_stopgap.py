"""DEP043: where no API the workload may use is priced, the recommendation stays an API a provider has to
offer, and the memo names what the workload runs on until one is found. Where the cheapest route standing
is servers to buy (a purchase for years), the stopgap is the cheapest route that binds no purchase and no
term: DeepSeek-R1 for a German company's personal data, around the clock, waits on Hugging Face's EU
endpoint, not on $1.1 million of HGX servers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload

AS_OF = dt.date(2026, 11, 30)
R1: dict[str, Any] = {
    "name": "r1-legal",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 3_000,
    "avg_input_tokens": 4_000,
    "avg_output_tokens": 1_500,
    "personal_data": True,
    "company_country": "DE",
}


def dep043(workload: dict[str, Any]) -> tuple[Any, str]:
    result = recommend(validate_workload(workload, "test"), AS_OF)
    (finding,) = [f for f in result.findings if f.rule_id == "DEP043"]
    return result, finding.message


def test_the_stopgap_binds_no_purchase_where_the_cheapest_route_is_own_servers() -> None:
    result, message = dep043(R1)
    assert result.decision.deployment == "api"
    # Hugging Face bills an H200 at 5.00 USD an hour; 2 instances of 8 (a spare for a latency-sensitive
    # service), kept warm every hour of the month.
    chosen = result.serverless_option
    assert chosen is not None and (chosen.gpu, chosen.gpus, chosen.usd_per_gpu_hour) == ("h200", 16, 5.0)
    assert round(chosen.usd_per_month, 2) == 2 * 8 * 5.00 * 730 == 58_400
    own = result.own_hardware
    assert own is not None and round(own.usd_per_month, 2) == 44_029.11
    assert message.endswith(
        "Until one is found, the priced route that binds no purchase and no term is serverless: Hugging Face "
        "Inference Endpoints (aws-eu-west-1, 8 × h200) at $58,400.00/month. The cheapest self-hosted route "
        "the rules leave standing, own hardware (4 × HGX H100 8-GPU (32 × h100-sxm)) at $44,029.11/month, "
        "binds a purchase of servers for years: it pays only where no API the workload may use is found."
    )


def test_where_the_cheapest_route_binds_nothing_it_is_the_stopgap() -> None:
    """In office hours the owned servers would idle two thirds of the month: the cheapest route standing
    is a rental, named as before."""
    result, message = dep043({**R1, "schedule": "office_hours"})
    assert result.decision.deployment == "api"
    assert "binds no purchase" not in message
    assert message.endswith(
        "Until one is found, the priced route is the cheapest self-hosted one the rules leave standing "
        "(aws p5-on-demand-stockholm (32 × h100-sxm)) at $41,460.53/month."
    )


def test_a_reservation_is_no_stopgap_either() -> None:
    """A 500B model given by its size, business-critical, a team without DevOps capacity: the cheapest
    route standing is AWS's 3-year reservation; the stopgap is the cheapest rental sold by the hour."""
    workload = {
        "name": "big-critical",
        "model": {"params_b": 500, "precision": "fp8"},
        "requests_per_day": 300,
        "load_pattern": "steady",
        "business_critical": True,
        "devops_capacity": False,
        "company_country": "US",
    }
    result = recommend(validate_workload(workload, "test"), AS_OF)
    (finding,) = [f for f in result.findings if f.rule_id == "DEP044"]
    assert finding.message.endswith(
        "Until one is found, the priced route that binds no purchase and no term is scaleway "
        "h100-sxm-8-80g (16 × h100-sxm) at $42,900.24/month. The cheapest self-hosted route the rules leave "
        "standing, aws p5-reserved-3y-2026-09 (16 × h100-sxm) at $34,714.83/month, binds a term for years: "
        "it pays only where no API the workload may use is found."
    )
