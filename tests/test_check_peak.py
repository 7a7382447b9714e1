"""A hybrid proposal that names its busier hours' offer (``peak_provider``, ``peak_offer``) has that offer
judged by the checks of where and with whom it runs, as the base is. Before, only the base's provider and
region were read: a German company's personal data on an EU reservation with Lambda (US, UK) for the busier
hours passed RES005, and a peak at a provider company policy does not approve passed ORG004."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main

AS_OF = "2026-11-30"
WORKLOAD: dict[str, Any] = {
    "name": "chat-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 4_000_000,
    "load_pattern": "steady",
}
# The recommended mix of tests/test_check_fleet.py, its peak named: 8 reserved H100 at AWS and up to 4
# hourly ones at Lambda.
HYBRID: dict[str, Any] = {
    "name": "mix",
    "deployment": "hybrid",
    "provider": "aws",
    "offer": "p5-reserved-3y",
    "gpu": "h100-sxm",
    "gpus": 12,
    "pricing": "reserved",
    "region": "us-east-1",
    "peak_provider": "lambda",
    "peak_offer": "on-demand",
}
ORG_POLICY = str(Path(__file__).resolve().parents[1] / "examples" / "org-policy")


def checked(tmp_path: Path, workload: dict[str, Any], proposal: dict[str, Any], *args: str) -> Any:
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": workload, "proposal": proposal}), encoding="utf-8")
    return CliRunner().invoke(main, ["check", str(path), "--as-of", AS_OF, "--format", "json", *args])


def results(tmp_path: Path, workload: dict[str, Any], proposal: dict[str, Any], *args: str) -> dict[str, Any]:
    result = checked(tmp_path, workload, proposal, *args)
    assert result.exit_code in (0, 1), result.output
    (data,) = json.loads(result.output)
    return {item["rule_id"]: item for item in data["results"]}


def test_a_peak_outside_the_eu_fails_residency(tmp_path: Path) -> None:
    """EU reservation (Frankfurt), Lambda for the busier hours: Lambda has regions in the US and the UK
    only, so the pair makes no mix in the EU (the cost is unknown) and the peak's place fails RES005;
    without peak fields the mix is the cheapest admitted one, in the EU, and RES005 passes."""
    workload = {**WORKLOAD, "personal_data": True, "company_country": "DE"}
    proposal = {**HYBRID, "region": "eu-central-1"}
    items = results(tmp_path, workload, proposal)
    res005 = items["RES005"]
    assert (res005["status"], res005["part"]) == ("fail", "peak")
    assert res005["message"] == (
        "The busier hours' offer (lambda on-demand): The workload processes personal data, and the "
        "proposed region (UK/US, US, GB) lies outside the jurisdictions the law that applies admits: "
        "RES001 (GDPR: personal data of people in the EU/EEA stays in EU regions)."
    )
    assert res005["evidence"]["jurisdiction"] == "UK/US"
    unnamed = {k: v for k, v in proposal.items() if k not in ("peak_provider", "peak_offer")}
    base_only = results(tmp_path, workload, unnamed)["RES005"]
    assert (base_only["status"], base_only["part"]) == ("pass", "proposal")


def test_a_peak_at_a_provider_policy_does_not_approve_fails(tmp_path: Path) -> None:
    """examples/org-policy approves AWS, Google Cloud, Azure and OVHcloud: Lambda's peak fails ORG004 and
    the run fails; AWS's own P5 on demand for the peak passes it."""
    result = checked(tmp_path, WORKLOAD, HYBRID, "--policy", ORG_POLICY)
    assert result.exit_code == 1
    (data,) = json.loads(result.output)
    org004 = next(item for item in data["results"] if item["rule_id"] == "ORG004")
    assert (org004["status"], org004["part"]) == ("fail", "peak")
    assert org004["message"] == (
        "The busier hours' offer (lambda on-demand): lambda is not an approved provider (AWS, Google "
        "Cloud, Azure, OVHcloud)."
    )
    aws_peak = {**HYBRID, "peak_provider": "aws", "peak_offer": "p5-on-demand"}
    assert results(tmp_path, WORKLOAD, aws_peak, "--policy", ORG_POLICY)["ORG004"]["status"] == "pass"


def test_a_business_critical_peak_without_an_established_sla_is_warned(tmp_path: Path) -> None:
    """AWS publishes an enterprise SLA, Lambda's is not established (knowledge/providers.yaml): the base
    passes PRV012, the peak warns."""
    items = results(tmp_path, {**WORKLOAD, "business_critical": True}, HYBRID)
    prv012 = items["PRV012"]
    assert (prv012["status"], prv012["part"]) == ("warn", "peak")
    assert prv012["message"].startswith(
        "The busier hours' offer (lambda on-demand): The workload is business-critical and whether lambda "
        "publishes an enterprise SLA"
    )
    assert results(tmp_path, WORKLOAD, HYBRID).get("PRV012") is None  # not business-critical: no check


def test_a_marketplace_peak_for_a_team_without_devops_fails(tmp_path: Path) -> None:
    items = results(
        tmp_path,
        {**WORKLOAD, "devops_capacity": False},
        {**HYBRID, "peak_provider": "runpod", "peak_offer": "secure"},
    )
    assert (items["PRV010"]["status"], items["PRV010"]["part"]) == ("fail", "peak")
    assert items["PRV010"]["message"].startswith(
        "The busier hours' offer (runpod secure): runpod (marketplace)"
    )
    sound = results(
        tmp_path,
        {**WORKLOAD, "devops_capacity": False},
        {**HYBRID, "peak_provider": "aws", "peak_offer": "p5-on-demand"},
    )
    assert (sound["PRV010"]["status"], sound["PRV010"]["part"]) == ("pass", "proposal")


def test_a_peak_offer_the_catalog_does_not_know_is_named_and_its_unknowns_are_not_reported(
    tmp_path: Path,
) -> None:
    """KNB004 names the unknown peak offer; the peak part has no pricing to read, but PRC008 keeps the
    base's result rather than reporting the peak's 'cannot tell'. German as well."""
    proposal = {**HYBRID, "peak_offer": "spot-ish"}
    items = results(tmp_path, WORKLOAD, proposal)
    assert (items["KNB004"]["status"], items["KNB004"]["part"]) == ("warn", "peak")
    assert items["KNB004"]["message"] == (
        "The busier hours' offer (lambda spot-ish): lambda has no catalog offer for h100-sxm under that "
        "name, so its price and date cannot be checked; the cost checks use what the proposal states."
    )
    assert (items["PRC008"]["status"], items["PRC008"]["part"]) == ("pass", "proposal")
    german = results(tmp_path, WORKLOAD, proposal, "--lang", "de")["KNB004"]["message"]
    assert german.startswith(
        "Das Angebot der stärkeren Stunden (lambda spot-ish): lambda hat im Katalog kein"
    )


def test_the_recommended_mix_named_passes_as_the_base_does(tmp_path: Path) -> None:
    """The peak part changes nothing where the named peak is as sound as the base: every result is the
    proposal's."""
    items = results(tmp_path, WORKLOAD, HYBRID)
    assert {item["part"] for item in items.values()} == {"proposal"}
    assert {item["status"] for item in items.values()} == {"pass"}


def test_peak_fields_name_a_known_provider_beside_a_reservation(tmp_path: Path) -> None:
    typo = checked(tmp_path, WORKLOAD, {**HYBRID, "peak_provider": "lamda"})
    assert typo.exit_code == 2
    assert "proposal.peak_provider: unknown value 'lamda'" in typo.output
    assert "(did you mean 'lambda'?)" in typo.output
    hourly = checked(tmp_path, WORKLOAD, {**HYBRID, "offer": "p5-on-demand", "pricing": "on_demand"})
    assert hourly.exit_code == 2
    assert (
        "proposal.peak_provider: the busier hours' offer goes with a reservation; aws p5-on-demand bills "
        "by the hour"
    ) in hourly.output
