"""The memo's requests-per-day chart: at the workload's own volume its self-hosted line is the decision's
cost of the best rental, so that the chart and the summary never disagree about which is cheaper."""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import EXAMPLES_DIR

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import load_workload

AS_OF = dt.date(2026, 11, 30)


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES_DIR.glob("*.yaml")))
def test_at_the_workloads_volume_the_chart_shows_the_best_rentals_cost(example: str) -> None:
    result = recommend(load_workload(str(EXAMPLES_DIR / example)), AS_OF)
    chart = result.charts.api_versus_self_hosted
    if chart is None:
        assert result.best_option is None or result.api_costs == () or result.workload.on_premises_required
        return
    assert result.best_option is not None
    at = chart.requests_per_day.index(result.workload.requests_per_day)
    assert chart.self_hosted_usd_per_month[at] == pytest.approx(result.best_option.usd_per_month, rel=1e-12)


def test_public_chat_the_api_is_cheaper_in_the_chart_as_in_the_summary() -> None:
    """At 1,000,000 requests a day the API ($5,476) beats 3 x h200 with the spare ($7,862): the chart's
    line left out the spare and the headroom and drew self-hosted below the API ($5,241)."""
    result = recommend(load_workload(str(EXAMPLES_DIR / "public-chat.yaml")), AS_OF)
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and result.best_option is not None
    at = chart.requests_per_day.index(1_000_000)
    assert result.decision.deployment == "api"
    assert chart.api_usd_per_month[at] < chart.self_hosted_usd_per_month[at]
    per_replica = result.best_option.usd_per_month / result.best_option.replicas
    assert chart.self_hosted_usd_per_month[at] == pytest.approx(3 * per_replica)


def test_a_batch_costs_the_hours_its_work_runs() -> None:
    """nightly-batch, billed by the hour it runs: a tenth of the work bills about a tenth of the hours."""
    result = recommend(load_workload(str(EXAMPLES_DIR / "nightly-batch.yaml")), AS_OF)
    chart = result.charts.api_versus_self_hosted
    assert chart is not None and result.best_option is not None
    own = chart.requests_per_day.index(result.workload.requests_per_day)
    lower = chart.requests_per_day.index(30_000)
    ratio = chart.self_hosted_usd_per_month[lower] / chart.self_hosted_usd_per_month[own]
    assert ratio == pytest.approx(30_000 / result.workload.requests_per_day, rel=0.01)
