"""``check`` names a recommended mixed fleet as ``recommend`` does: its reserved base and its hourly peak,
each with its offer and cards. It once printed "hybrid (12 × h100-sxm at aws p5-reserved-3y)" for a fleet
of 8 reserved cards at AWS and up to 4 hourly ones at Lambda: the decision's card count is the two
together, its offer the base's."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from helpers import NEGOTIATED_AWS, negotiated_aws, run

from gpu_advisor.cli import main

AS_OF = "2026-11-30"
# Own weights (no model API may serve them) at 4 million requests a day, steady, for a team with a
# negotiated AWS rate (helpers.NEGOTIATED_AWS): 4 replicas of 2 × H100 every hour, reserved on one 8-GPU
# P5 instance for three years, and up to 2 replicas more (4 cards) on Lambda's 2-GPU instances, by the
# hour, in the busier hours.
WORKLOAD: dict[str, Any] = {
    "name": "chat-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 4_000_000,
    "load_pattern": "steady",
}
ALL_RESERVED = {
    "name": "all-reserved",
    "deployment": "dedicated_cloud",
    "provider": "aws",
    "offer": "p5-reserved-3y",
    "gpu": "h100-sxm",
    "gpus": 16,
    "pricing": "reserved",
    "region": "us-east-1",
}


def check(tmp_path: Path, *args: str) -> str:
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": WORKLOAD, "proposal": ALL_RESERVED}), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["check", str(path), "--as-of", AS_OF, "--overrides", NEGOTIATED_AWS, *args]
    )
    assert result.exit_code == 0, result.output  # DEP016 warns: the run passes
    return result.output


def test_the_workload_is_a_fleet_whose_decision_counts_both_parts() -> None:
    result = run(WORKLOAD, knowledge=negotiated_aws())
    decision = result.decision
    assert (decision.deployment, decision.gpus, decision.provider, decision.offer) == (
        "hybrid",
        12,
        "aws",
        "p5-reserved-3y",
    )
    assert result.mixed_fleet is not None and result.mixed_fleet.fleet is not None
    fleet = result.mixed_fleet.fleet
    assert (fleet.base_gpus_rented, fleet.base_provider, fleet.base_offer) == (8, "aws", "p5-reserved-3y")
    assert (fleet.peak_gpus_rented_max, fleet.peak_provider, fleet.peak_offer) == (4, "lambda", "2-gpu-plan")
    assert fleet.base_gpus_rented + fleet.peak_gpus_rented_max == decision.gpus


def test_the_check_line_names_the_base_and_the_peak(tmp_path: Path) -> None:
    lines = check(tmp_path).splitlines()
    assert lines[1] == (
        "  recommended: hybrid (8 x h100-sxm at aws p5-reserved-3y + up to 4 x h100-sxm at lambda 2-gpu-plan "
        "in the busier hours), $17,214 per month"
    )


def test_the_check_line_in_german(tmp_path: Path) -> None:
    lines = check(tmp_path, "--lang", "de").splitlines()
    assert lines[1] == (
        "  empfohlen: Hybrid (8 x h100-sxm bei aws p5-reserved-3y + bis zu 4 x h100-sxm bei lambda "
        "2-gpu-plan in den stärkeren Stunden), 17.214 $ pro Monat"
    )


def test_the_markdown_names_the_base_and_the_peak(tmp_path: Path) -> None:
    # 8 × $1.90 × 730 h = $11,096 reserved, and at Lambda one 2-card replica more in 14 hours of the day
    # and two more in 5: 48 card-hours a day × 30.42 days × $4.19 = $6,118.07; $17,214.
    assert (
        "The rules recommend **hybrid**: 8 × h100-sxm at aws p5-reserved-3y + up to 4 × h100-sxm at lambda "
        "2-gpu-plan in the busier hours, $17,214 per month."
    ) in check(tmp_path, "--format", "markdown")


def test_the_json_gives_the_fleet_beside_the_decision(tmp_path: Path) -> None:
    (data,) = json.loads(check(tmp_path, "--format", "json"))
    assert data["recommendation"]["gpus"] == 12
    fleet = data["recommended_fleet"]
    assert (fleet["base_gpus_rented"], fleet["base_provider"], fleet["base_offer"]) == (
        8,
        "aws",
        "p5-reserved-3y",
    )
    assert (fleet["peak_gpus_rented_max"], fleet["peak_provider"], fleet["peak_offer"]) == (
        4,
        "lambda",
        "2-gpu-plan",
    )


def test_a_recommendation_that_is_no_fleet_keeps_its_line(tmp_path: Path) -> None:
    path = tmp_path / "proposal.yaml"
    small = {**WORKLOAD, "requests_per_day": 1_000_000}
    path.write_text(yaml.safe_dump({"workload": small, "proposal": ALL_RESERVED}), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["check", str(path), "--as-of", AS_OF, "--overrides", NEGOTIATED_AWS, "--format", "json"]
    )
    (data,) = json.loads(result.output)
    assert data["recommendation"]["deployment"] != "hybrid"
    assert data["recommended_fleet"] is None
    text = (
        CliRunner()
        .invoke(main, ["check", str(path), "--as-of", AS_OF, "--overrides", NEGOTIATED_AWS, "--show-all"])
        .output
    )
    line = "  recommended: dedicated_cloud (3 x h200 at runpod community), $7,862 per month"
    assert text.splitlines()[1] == line


def test_a_mixed_fleet_on_an_old_list_price_is_warned() -> None:
    """KNB008: evaluated on 2027-04-30, the fleet's peak is Lambda's list of 2026-09-20 (222 days
    before), its base the team's rate of 2026-11-28; the memo warned of a stale price for a single offer
    (KNB001) but not for a reservation of three years. At 2026-11-30 no price is stale."""
    result = run(WORKLOAD, evaluated_on=dt.date(2027, 4, 30), knowledge=negotiated_aws())
    assert result.decision.deployment == "hybrid" and "KNB008" in result.fired_rules
    (message,) = [f.message for f in result.findings if f.rule_id == "KNB008"]
    assert message.startswith("The mixed fleet (aws/p5-reserved-3y + lambda/2-gpu-plan (h100-sxm)) saves ")
    assert "with a list price 222 days old, older than 180 days" in message
    earlier = run(WORKLOAD, evaluated_on=dt.date(2026, 11, 30), knowledge=negotiated_aws())
    assert earlier.decision.deployment == "hybrid" and "KNB008" not in earlier.fired_rules


def test_the_recommended_mix_proposed_as_hybrid_costs_what_recommend_prices_it_at(tmp_path: Path) -> None:
    """A hybrid proposal names its reservation and the busiest hour's cards: it is priced as the mixed
    fleet recommend builds on that reservation ($11,096 + $6,118.07 = $17,214), not as 12 reserved cards in
    every hour (two P5, $22,192), and passes the cost check."""
    hybrid = {**ALL_RESERVED, "name": "the recommended mix", "deployment": "hybrid", "gpus": 12}
    path = tmp_path / "hybrid.yaml"
    path.write_text(yaml.safe_dump({"workload": WORKLOAD, "proposal": hybrid}), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["check", str(path), "--as-of", AS_OF, "--overrides", NEGOTIATED_AWS, "--format", "json"]
    )
    (data,) = json.loads(result.output)
    recommended = 8 * 1.90 * 730 + 48 * 30.42 * 4.19  # 48 card-hours a day at Lambda
    assert round(recommended) == 17214
    assert round(data["usd_per_month"]) == round(data["recommendation"]["usd_per_month"]) == 17214
    status = {item["rule_id"]: item["status"] for item in data["results"]}
    assert (status["DEP016"], status["DEP033"], status["SIZ009"]) == ("pass", "pass", "pass")
    # A dedicated proposal of the same 12 cards on the reservation bills two P5 every hour.
    path.write_text(
        yaml.safe_dump({"workload": WORKLOAD, "proposal": {**ALL_RESERVED, "gpus": 12}}), encoding="utf-8"
    )
    (dedicated,) = json.loads(
        CliRunner()
        .invoke(
            main, ["check", str(path), "--as-of", AS_OF, "--overrides", NEGOTIATED_AWS, "--format", "json"]
        )
        .output
    )
    assert dedicated["usd_per_month"] == 16 * 1.90 * 730


def test_a_hybrid_runs_no_more_cards_than_its_gpus_name(tmp_path: Path) -> None:
    """``gpus`` is the busiest hour's cards in all: a hybrid of 8, its whole base, rents nothing at
    Lambda, costs the reservation alone (8 x $1.90 x 730 = $11,096) and PRC020 says its hourly offer
    never runs, and SIZ009 that 4 replicas do not carry the peak; one of 10 rents at most one replica (2
    cards) there: the peak's 5 replicas without the spare the recommended mix of 12 runs (SIZ012)."""
    path = tmp_path / "hybrid.yaml"

    def checked(gpus: int) -> dict[str, Any]:
        proposal = {**ALL_RESERVED, "deployment": "hybrid", "gpus": gpus, "base_gpus": 8}
        proposal |= {"peak_provider": "lambda", "peak_offer": "2-gpu-plan"}
        path.write_text(yaml.safe_dump({"workload": WORKLOAD, "proposal": proposal}), encoding="utf-8")
        result = CliRunner().invoke(
            main, ["check", str(path), "--as-of", AS_OF, "--overrides", NEGOTIATED_AWS, "--format", "json"]
        )
        (data,) = json.loads(result.output)
        return data

    base_only = checked(8)
    status = {item["rule_id"]: item["status"] for item in base_only["results"]}
    assert base_only["usd_per_month"] == round(8 * 1.90 * 730, 2)
    assert (status["PRC020"], status["SIZ009"]) == ("warn", "warn")
    # PRC020 does not call the load flat: the proposal's cards leave the hourly offer no hour.
    (prc020,) = [item["message"] for item in base_only["results"] if item["rule_id"] == "PRC020"]
    assert prc020.startswith("The proposal's 8 cards are its reservation's, aws p5-reserved-3y: they leave")
    assert "propose dedicated_cloud" not in prc020
    # Ten cards: one replica (2 cards) at Lambda in each of the 19 hours a day that need more than the
    # base's 4, 38 card-hours a day; the recommended mix of 12 runs up to two there (two in 5 of those
    # hours), 48 card-hours a day (30.42 days a month, $4.19 a card-hour).
    ten = checked(10)
    status = {item["rule_id"]: item["status"] for item in ten["results"]}
    assert ten["usd_per_month"] == round(8 * 1.90 * 730 + 38 * 4.19 * 30.42, 2) == 15939.47
    assert checked(12)["usd_per_month"] == round(8 * 1.90 * 730 + 48 * 4.19 * 30.42, 2) == 17214.07
    assert (status["PRC020"], status["SIZ009"], status["SIZ012"]) == ("pass", "pass", "warn")


def test_a_hybrid_proposal_may_name_its_hourly_offer(tmp_path: Path) -> None:
    """peak_provider/peak_offer pick the busier hours' offer: Lambda's gives the recommended mix; RunPod's
    community H100 is sold where the location is unknown, so it makes no mix with a US reservation and
    the cost is unknown, not the reservation alone; beside another deployment the fields are refused."""
    path = tmp_path / "hybrid.yaml"

    def checked(proposal: dict[str, Any]) -> Any:
        path.write_text(yaml.safe_dump({"workload": WORKLOAD, "proposal": proposal}), encoding="utf-8")
        return CliRunner().invoke(
            main, ["check", str(path), "--as-of", AS_OF, "--overrides", NEGOTIATED_AWS, "--format", "json"]
        )

    hybrid = {**ALL_RESERVED, "deployment": "hybrid", "gpus": 12}
    (lambda_peak,) = json.loads(
        checked({**hybrid, "peak_provider": "lambda", "peak_offer": "2-gpu-plan"}).output
    )
    assert round(lambda_peak["usd_per_month"]) == 17214
    (runpod_peak,) = json.loads(
        checked({**hybrid, "peak_provider": "runpod", "peak_offer": "community"}).output
    )
    assert runpod_peak["usd_per_month"] is None
    refused = checked({**ALL_RESERVED, "peak_provider": "lambda"})
    assert refused.exit_code == 2
    assert (
        "proposal.peak_provider: a mixed fleet's hourly offer: only with deployment: hybrid" in refused.output
    )


def test_a_named_peak_is_priced_as_named_and_judged(tmp_path: Path) -> None:
    """A hybrid whose busier hours run on AWS's P5 spot fails PRC007 (spot for a latency-sensitive
    service) and is priced, not left unknown; one on AWS's P5 on demand costs more than the recommended
    mix and DEP033 says so."""
    path = tmp_path / "hybrid.yaml"
    hybrid = {**ALL_RESERVED, "deployment": "hybrid", "gpus": 12, "peak_provider": "aws"}

    def checked(peak_offer: str) -> dict[str, Any]:
        proposal = {**hybrid, "peak_offer": peak_offer}
        path.write_text(yaml.safe_dump({"workload": WORKLOAD, "proposal": proposal}), encoding="utf-8")
        result = CliRunner().invoke(
            main, ["check", str(path), "--as-of", AS_OF, "--overrides", NEGOTIATED_AWS, "--format", "json"]
        )
        (data,) = json.loads(result.output)
        return data

    def status(data: dict[str, Any], rule_id: str) -> str:
        return next(item["status"] for item in data["results"] if item["rule_id"] == rule_id)

    spot = checked("p5-spot")
    assert spot["usd_per_month"] is not None and status(spot, "PRC007") == "fail"
    dear = checked("p5-on-demand")
    assert dear["usd_per_month"] > dear["recommendation"]["usd_per_month"]
    assert status(dear, "DEP033") == "warn" and status(dear, "PRC007") == "pass"
