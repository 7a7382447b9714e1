"""How long an offer binds decides what the reservation rules exclude: a load that is not steady (PRC004)
or a model still changing (PRC005) rules out reservations of a year or more, not OVHcloud's monthly
instances, which bind for a month; a proposal is warned of its term as the catalog gives it (PRC008)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import VOICE_ASSISTANT, run

from gpu_advisor.cli import main
from gpu_advisor.engine.domain.knowledge.entries import commitment_term

# The voice assistant without its own latency targets (a latency-sensitive service's defaults apply).
VARIABLE: dict[str, Any] = {
    key: value for key, value in VOICE_ASSISTANT.items() if not key.startswith("max_time_")
}


def test_terms() -> None:
    assert [commitment_term("on_demand", m) for m in (None, 1, 11, 12, 36)] == [
        "none",
        "months",
        "months",
        "years",
        "years",
    ]
    # A reservation whose term is not stated binds the documents' 1 to 3 years.
    assert [commitment_term("reserved", m) for m in (None, 12)] == ["years", "years"]


def test_a_variable_load_keeps_the_monthly_instances_and_drops_the_yearly_reservations() -> None:
    result = run(VARIABLE)
    assert "PRC004" in result.fired_rules
    excluded = {(o.provider, o.offer): o.excluded_by for o in result.options}
    assert "PRC004" not in excluded["ovhcloud", "l40s-monthly"]
    assert "PRC004" in excluded["aws", "p5-reserved-1y"]
    assert "PRC004" in excluded["aws", "p5-reserved-3y"]
    # The monthly L40S: 2 cards billed every calendar hour at €1.380822 (OVH's list price) × 1.16 USD per
    # EUR = $1.6018 a GPU-hour: 2 × 1.6018 × 730 = $2,338.56 a month.
    (monthly,) = [o for o in result.options if (o.provider, o.offer) == ("ovhcloud", "l40s-monthly")]
    assert monthly.usd_per_gpu_hour == pytest.approx(1.380822 * 1.16)
    assert monthly.usd_per_month == pytest.approx(2 * 1.380822 * 1.16 * 730)


def test_a_model_still_changing_keeps_the_monthly_instances_and_drops_the_yearly_reservations() -> None:
    result = run({**VARIABLE, "load_pattern": "steady", "model_stable": False})
    assert "PRC005" in result.fired_rules and "PRC004" not in result.fired_rules
    excluded = {(o.provider, o.offer): o.excluded_by for o in result.options}
    assert "PRC005" not in excluded["ovhcloud", "l40s-monthly"]
    assert "PRC005" in excluded["aws", "p5-reserved-1y"] and "PRC005" in excluded["aws", "p5-reserved-3y"]


@pytest.mark.parametrize(
    ("offer", "gpu", "gpus", "warning"),
    [
        ("l40s-monthly", "l40s", 2, None),
        (
            "p5-reserved-3y",
            "h100-sxm",
            8,
            "The proposal reserves capacity for 36 months, but the load pattern is variable",
        ),
    ],
)
def test_a_proposal_is_warned_of_its_reservation_as_the_catalog_gives_its_term(
    tmp_path: Path, offer: str, gpu: str, gpus: int, warning: str | None
) -> None:
    provider = "aws" if offer.startswith("p5") else "ovhcloud"
    proposal = {
        "deployment": "dedicated_cloud",
        "provider": provider,
        "offer": offer,
        "gpu": gpu,
        "gpus": gpus,
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": VARIABLE, "proposal": {**proposal, "pricing": "reserved"}}))
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30"])
    output = result.output
    assert result.exit_code in (0, 1) and "#1 voice-assistant (dedicated_cloud)" in output, output
    if warning is None:
        assert "PRC008" not in output
    else:
        assert "WARN    PRC008" in output and warning in output.replace("\n          ", " ")


def test_a_reservation_without_a_stated_term_binds_for_years() -> None:
    """An import or override may give a reserved price without commitment_months: it is a reservation
    of the documents' 1 to 3 years, not an offer that binds for nothing."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    (one_year,) = [o for o in load_knowledge().offers.offers if o.offer == "p5-reserved-1y"]
    assert one_year.commitment == "years"
    assert one_year.model_copy(update={"commitment_months": None}).commitment == "years"
    (monthly,) = [o for o in load_knowledge().offers.offers if o.offer == "l40s-monthly"]
    assert monthly.commitment == "months"
    assert monthly.model_copy(update={"commitment_months": None}).commitment == "years"


def test_a_proposal_many_times_dearer_is_told_how_many_times(tmp_path: Path) -> None:
    """DEP033 speaks in times where the proposal costs twice the recommendation or more."""
    small = {**VARIABLE, "requests_per_day": 20_000, "schedule": "office_hours", "load_pattern": "steady"}
    node = {"deployment": "own_hardware", "gpu": "h100-sxm", "gpus": 8}
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": small, "proposal": node}))
    output = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30"]).output
    flat = " ".join(output.split())
    assert "WARN DEP033" in flat and " times the recommendation's $" in flat and "% more than" not in flat


def test_twice_the_recommendation_is_said_as_twice(tmp_path: Path) -> None:
    """A Swiss hospital's two owned servers where one holds its two replicas: $22,427.85 against
    $11,213.93. The proposal's cost was rounded to cents before its share was taken, 0.99999992 more,
    which read "99.99 % more"; both unrounded, it is twice the recommendation."""
    hospital = {
        "name": "ch-hospital",
        "model": {"name": "qwen2.5-72b", "precision": "fp8"},
        "requests_per_day": 15_000,
        "avg_input_tokens": 2500,
        "avg_output_tokens": 400,
        "load_pattern": "variable",
        "latency_sensitive": True,
        "personal_data": True,
        "on_premises_required": True,
        "min_replicas": 2,
        "company_country": "CH",
    }
    servers = {"deployment": "own_hardware", "server": "hgx-h100-8", "servers": 2, "gpus": 4}
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": hospital, "proposal": servers}))
    output = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30"]).output
    flat = " ".join(output.split())
    assert "The proposal costs $22,428/month, 2 times the recommendation's $11,214/month" in flat
