"""A proposal to use a managed API is held to the rules the recommendation applies to APIs (DEP036):
where its provider processes personal data, the SLA a business-critical workload needs, company policy.
Before, an API proposal was judged by DEP016 and DEP017 only: DeepInfra's 70B (no place guaranteed) for a
German company's personal data passed every check, and a provider that sells no GPUs here (DeepInfra) was
refused as an unknown value. The proposal names the API as ``recommend`` names its decision: ``provider``
and ``offer`` (the API's ID)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from test_api_without_self_hosting import approving

from gpu_advisor.cli import main

AS_OF = "2026-11-30"
CONTRACTS: dict[str, Any] = {
    "name": "vertrags-assistent",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 5000,
    "avg_input_tokens": 2000,
    "avg_output_tokens": 500,
    "personal_data": True,
    "company_country": "DE",
}
# 5,000 requests x 30.42 days x 2,500 tokens at IONOS's 0.65 EUR per million tokens both ways, 1.16 USD
# per EUR.
IONOS_USD_PER_MONTH = round(5000 * 30.42 * 2500 * 0.65 / 1e6 * 1.16, 2)


def checked(
    tmp_path: Path, proposal: dict[str, Any], workload: dict[str, Any] = CONTRACTS, *args: str
) -> Any:
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": workload, "proposal": proposal}), encoding="utf-8")
    return CliRunner().invoke(main, ["check", str(path), "--as-of", AS_OF, "--format", "json", *args])


def document(tmp_path: Path, proposal: dict[str, Any], *args: Any) -> dict[str, Any]:
    result = checked(tmp_path, proposal, *args)
    assert result.exit_code in (0, 1), result.output
    (data,) = json.loads(result.output)
    return data  # type: ignore[no-any-return]


def statuses(data: dict[str, Any]) -> dict[str, str]:
    return {item["rule_id"]: item["status"] for item in data["results"]}


def test_an_api_that_guarantees_no_place_fails_for_personal_data(tmp_path: Path) -> None:
    data = document(
        tmp_path, {"deployment": "api", "provider": "deepinfra", "offer": "llama-3.3-70b-deepinfra"}
    )
    (item,) = [i for i in data["results"] if i["rule_id"] == "DEP036"]
    assert (data["status"], item["status"]) == ("fail", "fail")
    assert item["message"] == (
        "Llama 3.3 70B Instruct Turbo (DeepInfra), whose provider guarantees no place where it processes "
        "the requests, is excluded for this workload by RES001 (GDPR: personal data of people in the "
        "EU/EEA stays in EU regions); the recommendation compares only the APIs the rules admit."
    )
    assert item["evidence"] == {
        "deployment": "api",
        "api_excluded": True,
        "region": "unknown",
        "jurisdiction": "unknown",
        "countries": "",
    }
    assert data["location"] == {"jurisdictions": ["unknown"], "countries": []}


def test_an_eu_hosted_api_passes_and_is_priced_as_recommend_prices_it(tmp_path: Path) -> None:
    # The provider alone: its API of the workload's size class, Llama 3.3 70B in Germany.
    data = document(tmp_path, {"deployment": "api", "provider": "ionos"})
    assert data["status"] == "pass"
    assert statuses(data) == {
        "DEP016": "pass",
        "DEP036": "pass",
        "DEP037": "pass",
        "DEP033": "pass",
        "DEP017": "pass",
        "KNB012": "pass",
    }
    assert data["usd_per_month"] == IONOS_USD_PER_MONTH == 286.71
    assert data["location"] == {"jurisdictions": ["EU"], "countries": ["DE"]}
    assert data["recommendation"]["offer"] == "llama-3.3-70b-ionos"


def test_a_business_critical_workload_needs_the_apis_sla(tmp_path: Path) -> None:
    """IONOS publishes no availability commitment for its AI Model Hub, so PRV003 excludes it as it
    excludes it from the recommendation's comparison."""
    workload = {**CONTRACTS, "business_critical": True}
    data = document(tmp_path, {"deployment": "api", "offer": "llama-3.3-70b-ionos"}, workload)
    (item,) = [i for i in data["results"] if i["rule_id"] == "DEP036"]
    assert item["status"] == "fail"
    assert item["message"] == (
        "Llama 3.3 70B Instruct (IONOS AI Model Hub), whose provider processes the requests in the EU, is "
        "excluded for this workload by PRV003 (Business-critical: enterprise SLA required); the "
        "recommendation compares only the APIs the rules admit."
    )


def test_company_policy_excludes_an_api_it_does_not_approve(tmp_path: Path) -> None:
    workload = {**CONTRACTS, "personal_data": False}
    args = ("--policy", approving(tmp_path, ["ionos"]))
    together = document(tmp_path, {"deployment": "api", "offer": "llama-3.3-70b-together"}, workload, *args)
    ionos = document(tmp_path, {"deployment": "api", "offer": "llama-3.3-70b-ionos"}, workload, *args)
    (item,) = [i for i in together["results"] if i["rule_id"] == "DEP036"]
    assert (
        "is excluded for this workload by ORG133 (Company policy: approved providers only)" in item["message"]
    )
    assert statuses(ionos)["DEP036"] == "pass"


def test_an_api_of_a_smaller_model_warns(tmp_path: Path) -> None:
    data = document(
        tmp_path,
        {"deployment": "api", "offer": "llama-3.1-8b-deepinfra"},
        {**CONTRACTS, "personal_data": False},
    )
    (item,) = [i for i in data["results"] if i["rule_id"] == "DEP037"]
    assert item["status"] == "warn"
    assert item["message"] == (
        "Llama 3.1 8B Instruct Turbo (DeepInfra) hosts an open model of 8B parameters; the workload is "
        "sized for a 70B model, so the answers are not the sized model's and its price compares with a "
        "smaller class than the recommendation's."
    )
    assert statuses(data)["DEP036"] == "pass"


def test_an_api_the_catalog_does_not_price_is_unknown(tmp_path: Path) -> None:
    data = document(tmp_path, {"deployment": "api", "provider": "ionos", "offer": "llama-4-maverick-ionos"})
    found = statuses(data)
    assert (found["KNB012"], found["DEP036"], found["DEP037"]) == ("warn", "unknown", "unknown")
    assert data["usd_per_month"] is None
    assert data["location"] == {"jurisdictions": [], "countries": []}


def test_an_api_proposal_names_no_hardware(tmp_path: Path) -> None:
    result = checked(tmp_path, {"deployment": "api", "provider": "deepinfra", "gpu": "h100-sxm"})
    assert result.exit_code == 2
    assert (
        "proposal.gpu: a managed API runs on its provider's GPUs, where its provider says: leave it out"
        in (result.output)
    )


def test_a_provider_of_apis_only_is_no_gpu_provider(tmp_path: Path) -> None:
    result = checked(tmp_path, {"deployment": "dedicated_cloud", "provider": "deepinfra"})
    assert result.exit_code == 2
    assert "proposal.provider: unknown value 'deepinfra'" in result.output
