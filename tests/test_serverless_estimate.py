"""Serverless has no price in the documents, only its break-even against a dedicated GPU (30 to 50 %
utilization): the estimate built on it takes part in the API-versus-self-hosting comparison."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from gpu_advisor import api
from gpu_advisor.cli import main
from gpu_advisor.engine.economics import serverless_estimate
from gpu_advisor.engine.knowledge import load_knowledge
from gpu_advisor.engine.result import Recommendation
from helpers import EVALUATED_ON, EXAMPLES_DIR


def hr_assistant_workload(**changes: Any) -> dict[str, Any]:
    """The HR assistant without own weights or personal data, so the managed API is a real contender."""
    workload = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
    workload.update(
        model={"name": "llama-3.1-70b", "precision": "fp8"}, personal_data=False, load_pattern="variable"
    )
    workload.update(changes)
    return workload


def hr_assistant_on_a_public_model(**changes: Any) -> Recommendation:
    workload = api.workload_from_dict(hr_assistant_workload(**changes), "test")
    return api.recommend(workload, evaluated_on=EVALUATED_ON)


@pytest.mark.parametrize(("utilization", "expected"), [(0.4, 1000.0), (0.1, 250.0), (0.8, 2000.0)])
def test_a_used_serverless_hour_costs_2_5_dedicated_hours(utilization: float, expected: float) -> None:
    assert serverless_estimate(load_knowledge(), 1000.0, utilization) == pytest.approx(expected)


def test_low_utilization_compares_the_api_with_the_serverless_estimate() -> None:
    result = hr_assistant_on_a_public_model(utilization=0.1)
    assert result.decision.deployment == "serverless"
    assert result.decision.cost_is_estimate is True
    assert result.decision.usd_per_month == pytest.approx(947.76 * 0.1 / 0.4)
    [dep004] = [f for f in result.findings if f.rule_id == "DEP004"]
    assert "self-hosted option at $236.94/month undercuts the managed API at $979.97/month" in dep004.message


def test_high_utilization_compares_the_api_with_the_dedicated_price() -> None:
    result = hr_assistant_on_a_public_model(utilization=0.65)
    assert result.decision.deployment == "dedicated_cloud"
    assert result.decision.cost_is_estimate is False
    [dep004] = [f for f in result.findings if f.rule_id == "DEP004"]
    assert "self-hosted option at $947.76/month undercuts the managed API at $979.97/month" in dep004.message


def test_the_memo_says_the_serverless_cost_is_an_estimate(tmp_path: Path) -> None:
    path = tmp_path / "workload.yaml"
    path.write_text(yaml.safe_dump(hr_assistant_workload(utilization=0.1)), encoding="utf-8")
    result = CliRunner().invoke(main, ["recommend", str(path), "--as-of", EVALUATED_ON.isoformat()])
    assert result.exit_code == 0, result.output
    memo = result.stdout
    assert (
        "Recommendation: **Serverless inference (pay per request)**, about **$237 per month**, an estimate: "
        "the documents give no serverless price but its break-even against a dedicated GPU (30 to 50 % "
        "utilization), so a used serverless hour is taken to cost about 2.5 dedicated hours." in memo
    )
