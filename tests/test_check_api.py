"""A proposal to use a managed API is held to the rules the recommendation applies to APIs (DEP036):
where its provider processes personal data, the SLA a business-critical workload needs, company policy.
Before, an API proposal was judged by DEP016 and DEP017 only: DeepInfra's 70B (no place guaranteed) for a
German company's personal data passed every check, and a provider that rents no GPUs here (DeepInfra) was
refused as an unknown value. The proposal names the API as ``recommend`` names its decision: ``provider``
and ``offer`` (the API's ID)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from helpers import ONE_RTX_5090_AT_RUNPOD
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
NO_PERSONAL_DATA = {**CONTRACTS, "personal_data": False}
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


def item(data: dict[str, Any], rule_id: str) -> dict[str, Any]:
    (found,) = [i for i in data["results"] if i["rule_id"] == rule_id]
    return found  # type: ignore[no-any-return]


def test_an_api_that_guarantees_no_place_fails_for_personal_data(tmp_path: Path) -> None:
    data = document(
        tmp_path, {"deployment": "api", "provider": "deepinfra", "offer": "llama-3.3-70b-deepinfra"}
    )
    found = item(data, "DEP036")
    assert (data["status"], found["status"]) == ("fail", "fail")
    assert found["message"] == (
        "Llama 3.3 70B Instruct Turbo (DeepInfra) is excluded for this workload, as it is from the "
        "recommendation's comparison; the rules that exclude it: RES001 (GDPR: gpu-advisor keeps personal "
        "data of people in the EU/EEA in EU regions). Its provider guarantees no place where it processes "
        "the requests."
    )
    assert found["evidence"] == {
        "deployment": "api",
        "deployment_ruled_out_firmly": False,
        "api_excluded": True,
        "region": "unknown",
        "jurisdiction": "unknown",
        "countries": "",
    }
    assert data["location"] == {"jurisdictions": ["unknown"], "countries": []}


def test_an_eu_hosted_api_passes_and_is_priced_as_recommend_prices_it(tmp_path: Path) -> None:
    # The provider alone: its API of the workload's size class, Llama 3.3 70B in Germany. It is another
    # model than the workload's Llama 3.1 70B, which is the one warning (DEP054).
    data = document(tmp_path, {"deployment": "api", "provider": "ionos"})
    assert data["status"] == "warn"
    assert item(data, "DEP054")["message"] == (
        "Llama 3.3 70B Instruct (IONOS AI Model Hub) hosts another model than the workload's llama-3.1-70b: "
        "its price, limits and window are that model's, and its answers are not the sized model's, so a "
        "test on the workload's own requests must show that they are good enough before the swap is "
        "approved."
    )
    assert statuses(data) == {
        "DEP054": "warn",
        "DEP016": "pass",
        "DEP036": "pass",
        "DEP037": "pass",
        "DEP038": "pass",
        "DEP039": "pass",
        "DEP033": "pass",
        "DEP017": "pass",
        "DEP041": "pass",
        "DEP053": "pass",
        "KNB012": "pass",
        "KNB017": "pass",
        "LAT012": "pass",
        # IONOS takes 300 requests a minute per contract; the workload's busiest minutes send fewer.
        "PRV021": "pass",
    }
    assert data["usd_per_month"] == IONOS_USD_PER_MONTH == 286.71
    assert data["location"] == {"jurisdictions": ["EU"], "countries": ["DE"]}
    assert data["recommendation"]["offer"] == data["api"]["api"] == "llama-3.3-70b-ionos"


def test_an_api_whose_window_is_not_recorded_is_to_be_confirmed_for_long_requests(tmp_path: Path) -> None:
    """The catalog records no window for IONOS's Llama 3.3 70B; Scaleway serves the same model with
    100,000 of its 131,072 tokens, shorter than a 110,000-token prompt with its 1,000-token answer: the
    memo asks to confirm IONOS's window, and so does check (DEP039). Llama 3 70B's 8,192 is its model's
    own, no provider's cut. With 2,000-token prompts no cut window is that short, and DEP039 passes (the
    EU-hosted API's test above)."""
    workload = {**NO_PERSONAL_DATA, "avg_input_tokens": 110_000, "avg_output_tokens": 1_000}
    data = document(tmp_path, {"deployment": "api", "offer": "llama-3.3-70b-ionos"}, workload)
    found = item(data, "DEP039")
    assert (found["status"], item(data, "DEP038")["status"]) == ("warn", "pass")
    assert found["message"] == (
        "The catalog does not record how long a request Llama 3.3 70B Instruct (IONOS AI Model Hub) takes, "
        "and providers cut windows below their models' own, some below the context this workload is served "
        "with (Llama 3.3 70B Instruct (Scaleway Generative APIs): a window of 100,000 tokens, of its model's "
        "131,072; the workload is served with a context of 111,000 tokens and answers of 1,000 tokens on "
        "average): confirm with the provider that it takes requests of up to 111,000 tokens, prompt and "
        "answer together, before relying on it."
    )


def test_a_business_critical_workload_needs_the_apis_sla(tmp_path: Path) -> None:
    """IONOS publishes no availability commitment for its AI Model Hub, so PRV003 excludes it as it
    excludes it from the recommendation's comparison."""
    workload = {**CONTRACTS, "business_critical": True}
    found = item(
        document(tmp_path, {"deployment": "api", "offer": "llama-3.3-70b-ionos"}, workload), "DEP036"
    )
    assert found["status"] == "fail"
    assert found["message"] == (
        "Llama 3.3 70B Instruct (IONOS AI Model Hub) is excluded for this workload, as it is from the "
        "recommendation's comparison; the rules that exclude it: PRV003 (Business-critical: enterprise SLA "
        "required). Its provider processes the requests in the EU."
    )


def test_company_policy_excludes_an_api_it_does_not_approve(tmp_path: Path) -> None:
    args = ("--policy", approving(tmp_path, ["ionos"]))
    together = document(
        tmp_path, {"deployment": "api", "offer": "llama-3.3-70b-together"}, NO_PERSONAL_DATA, *args
    )
    ionos = document(tmp_path, {"deployment": "api", "offer": "llama-3.3-70b-ionos"}, NO_PERSONAL_DATA, *args)
    assert (
        "the rules that exclude it: ORG133 (Company policy: approved providers only)."
        in (item(together, "DEP036")["message"])
    )
    assert statuses(ionos)["DEP036"] == "pass"


def test_an_api_of_a_smaller_model_warns(tmp_path: Path) -> None:
    data = document(tmp_path, {"deployment": "api", "offer": "llama-3.1-8b-deepinfra"}, NO_PERSONAL_DATA)
    found = item(data, "DEP037")
    assert found["status"] == "warn"
    assert found["message"] == (
        "Llama 3.1 8B Instruct Turbo (DeepInfra) hosts an open model of 8B parameters; the workload is "
        "sized for a 70B model, so its answers are not the sized model's: a test on the workload's own "
        "requests must show that they are good enough."
    )
    assert statuses(data)["DEP036"] == "pass"


def test_a_larger_mixture_of_experts_with_fewer_active_parameters_is_a_smaller_model(tmp_path: Path) -> None:
    """DeepSeek's own API (the provider named alone: it sells no API of the workload's size, so its one
    API) hosts 671B parameters, 37B of them active per token: fewer than the 70B dense model computes
    with."""
    data = document(tmp_path, {"deployment": "api", "provider": "deepseek"}, NO_PERSONAL_DATA)
    assert data["api"] == {
        "api": "deepseek-r1-deepseek",
        "name": "DeepSeek-R1 (DeepSeek API, deepseek-reasoner)",
        "provider": "deepseek",
        "batch": False,
    }
    assert item(data, "DEP037")["message"] == (
        "DeepSeek-R1 (DeepSeek API, deepseek-reasoner) hosts an open model of 671B parameters, 37B of them "
        "active per token; the workload is sized for a 70B model, so the hosted model computes each token "
        "with fewer parameters and its answers are not the sized model's: a test on the workload's own "
        "requests must show that they are good enough."
    )
    # With personal data, China or no place guaranteed is no place for it, the API named or its provider.
    for proposal in ({"deployment": "api", "provider": "deepseek"}, {"deployment": "api", "offer": "gpt-4o"}):
        assert statuses(document(tmp_path, proposal))["DEP036"] == "fail"


def test_a_provider_named_alone_is_judged_as_the_recommendations_comparison_chooses(tmp_path: Path) -> None:
    """DeepInfra hosts Llama 3.1 70B (the workload's model) and Llama 3.3 70B (cheaper): the comparison
    takes the workload's own model, and so does the proposal, at the same price; naming nothing is the
    API the recommendation compared."""
    named = document(tmp_path, {"deployment": "api", "provider": "deepinfra"}, NO_PERSONAL_DATA)
    unnamed = document(tmp_path, {"deployment": "api"}, NO_PERSONAL_DATA)
    assert named["recommendation"]["offer"] == "llama-3.1-70b-deepinfra"
    assert named["api"]["api"] == unnamed["api"]["api"] == "llama-3.1-70b-deepinfra"
    recommended = round(named["recommendation"]["usd_per_month"], 2)
    # 5,000 requests x 30.42 days x 2,500 tokens at DeepInfra's 0.40 USD per million tokens.
    assert named["usd_per_month"] == unnamed["usd_per_month"] == recommended == 152.1


def test_a_batch_workload_is_priced_at_the_batch_api_it_may_use(tmp_path: Path) -> None:
    """A nightly batch returned within a day may use DeepInfra's batch API: the proposal is priced
    through it and says so."""
    workload = {**NO_PERSONAL_DATA, "load_pattern": "batch", "batch_window_hours": 24}
    data = document(tmp_path, {"deployment": "api", "offer": "llama-3.1-70b-deepinfra"}, workload)
    assert data["api"] == {
        "api": "llama-3.1-70b-deepinfra",
        "name": "Llama 3.1 70B Instruct Turbo (DeepInfra)",
        "provider": "deepinfra",
        "batch": True,
    }
    service = document(tmp_path, {"deployment": "api", "offer": "llama-3.1-70b-deepinfra"}, NO_PERSONAL_DATA)
    assert service["api"]["batch"] is False
    # 5,000 requests x 30.42 days x 2,500 tokens at 0.40 USD per million, 20 % off through the batch API.
    per_request = round(5000 * 30.42 * 2500 * 0.40 / 1e6, 2)
    assert (data["usd_per_month"], service["usd_per_month"]) == (round(per_request * 0.8, 2), per_request)
    assert (round(per_request * 0.8, 2), per_request) == (121.68, 152.1)
    text = checked(
        tmp_path,
        {"deployment": "api", "offer": "llama-3.1-70b-deepinfra"},
        workload,
        "--format",
        "text",
        "--show-all",
    )
    assert "  proposed: deepinfra llama-3.1-70b-deepinfra (batch API), $122 per month" in text.output


def test_a_provider_that_hosts_only_smaller_models_is_judged_by_its_largest(tmp_path: Path) -> None:
    """IONOS hosts a 24B and a 70B model: for a 405B workload neither stands in, and the proposal naming
    IONOS alone is its 70B, the nearest class below, not its cheaper 24B."""
    workload = {**NO_PERSONAL_DATA, "model": {"name": "llama-3.1-405b", "precision": "fp8"}}
    data = document(tmp_path, {"deployment": "api", "provider": "ionos"}, workload)
    assert data["api"]["api"] == "llama-3.3-70b-ionos"
    assert statuses(data)["DEP037"] == "warn"
    markdown = checked(
        tmp_path, {"deployment": "api", "provider": "ionos"}, workload, "--format", "markdown", "--show-all"
    )
    assert "(judged as ionos llama-3.3-70b-ionos)" in markdown.output


def test_nothing_named_where_every_api_is_excluded_is_the_api_still_to_be_found(tmp_path: Path) -> None:
    """DeepSeek-R1 for a German company's personal data: the catalog's APIs of the model (DeepInfra's,
    no guaranteed location; DeepSeek's, in China and withdrawn) are excluded, so the recommendation is an
    API still to be found (DEP043), and a proposal naming no API means that one: the checks that need the
    API cannot tell until it is named (judged as DeepSeek's, it failed the recommendation's own route).
    Naming DeepSeek's fails."""
    workload = {**CONTRACTS, "model": {"name": "deepseek-r1", "precision": "fp8"}}
    data = document(tmp_path, {"deployment": "api"}, workload)
    assert data["recommendation"]["usd_per_month"] is None and data["status"] == "unknown"
    assert [statuses(data)[rule] for rule in ("DEP036", "DEP037", "DEP038", "DEP039")] == ["unknown"] * 4
    # KNB016 says why, as DEP043 does in the memo: name the API the team has found.
    assert statuses(data)["KNB016"] == "warn"
    named = document(tmp_path, {"deployment": "api", "offer": "deepseek-r1-deepseek"}, workload)
    assert (named["api"]["api"], statuses(named)["DEP036"]) == ("deepseek-r1-deepseek", "fail")
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    memo = CliRunner().invoke(main, ["recommend", str(path), "--as-of", AS_OF])
    assert (
        "Recommendation: **Managed API**, though every API price the catalog has for a model of this size "
        "or larger is excluded for this workload (KNB018, RES001): ask the providers for one it may use."
        in memo.output
    )


def test_a_business_critical_api_has_no_machines_to_spread(tmp_path: Path) -> None:
    data = document(tmp_path, {"deployment": "api"}, {**NO_PERSONAL_DATA, "business_critical": True})
    assert "SIZ016" not in statuses(data)


def test_a_provider_that_sells_no_api_is_warned_and_no_gpu_is_judged(tmp_path: Path) -> None:
    """Lambda rents GPUs and sells no API in the catalog: its offer name is not read as one of its GPU
    offers, so no GPU check applies, and the checks that need the API cannot tell."""
    data = document(tmp_path, {"deployment": "api", "provider": "lambda", "offer": "on-demand"})
    found = statuses(data)
    assert (found["KNB012"], found["DEP036"], found["DEP037"], found["DEP038"]) == (
        "warn",
        "unknown",
        "unknown",
        "unknown",
    )
    assert not {"NET002", "NET004", "SIZ008", "SIZ012"} & found.keys()
    assert item(data, "DEP036")["message"] == (
        'Cannot tell whether "The proposed API is one the rules exclude for this workload": the catalog has '
        "no API of the provider proposed."
    )
    assert item(data, "KNB012")["message"] == (
        "lambda sells no managed API in the catalog, so the price of the one proposed, where it processes "
        "the requests and its SLA cannot be checked: the checks that need them report unknown."
    )
    assert (data["usd_per_month"], data["api"]) == (None, None)
    assert data["location"] == {"jurisdictions": [], "countries": []}


def test_an_api_id_is_one_of_the_catalogs(tmp_path: Path) -> None:
    typo = checked(tmp_path, {"deployment": "api", "offer": "llama-3.3-70b-inos"})
    assert typo.exit_code == 2
    assert "proposal.offer: unknown value 'llama-3.3-70b-inos'" in typo.output
    assert "(did you mean 'llama-3.3-70b-ionos'?)" in typo.output
    other = checked(tmp_path, {"deployment": "api", "provider": "ionos", "offer": "llama-3.3-70b-deepinfra"})
    assert other.exit_code == 2
    assert "allowed: llama-3.3-70b-ionos, mistral-small-24b-ionos" in other.output
    # A provider that sells no API: its offer may be any name (KNB012 warns), but not another's API.
    lambda_r1 = checked(
        tmp_path, {"deployment": "api", "provider": "lambda", "offer": "deepseek-r1-deepseek"}
    )
    assert lambda_r1.exit_code == 2
    assert (
        "proposal.offer: deepseek-r1-deepseek is an API of deepseek; lambda sells no API in the catalog"
        in (lambda_r1.output)
    )


def test_an_api_proposal_names_no_hardware(tmp_path: Path) -> None:
    for field, value in (("gpu", "h100-sxm"), ("pricing", "on_demand"), ("region", "EU")):
        result = checked(tmp_path, {"deployment": "api", "provider": "deepinfra", field: value})
        assert result.exit_code == 2
        assert f"proposal.{field}: not for a managed API" in result.output


def test_a_provider_of_apis_only_is_no_gpu_provider(tmp_path: Path) -> None:
    result = checked(tmp_path, {"deployment": "dedicated_cloud", "provider": "deepinfra"})
    assert result.exit_code == 2
    assert "proposal.provider: unknown value 'deepinfra'" in result.output


BANK: dict[str, Any] = {
    "name": "bank-assistant",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 15_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 300,
    "schedule": "workdays",
    "personal_data": True,
    "business_critical": True,
    "company_country": "DE",
}


def test_the_recommendation_named_beside_a_proposal_says_when_it_is_another_model(tmp_path: Path) -> None:
    """A German bank's 8B assistant: the only EU API with an SLA open to it is Scaleway's Mistral Small
    24B, so the recommendation is another model's API; the check said only 'scaleway
    mistral-small-24b-scaleway, $86 per month' beside the bank's 8B proposal."""
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": BANK, "proposal": ONE_RTX_5090_AT_RUNPOD}), encoding="utf-8")
    text = CliRunner().invoke(main, ["check", str(path), "--as-of", AS_OF]).output
    assert (
        "  recommended: api (at scaleway mistral-small-24b-scaleway, another model), $86 per month\n" in text
    )
    markdown = CliRunner().invoke(main, ["check", str(path), "--as-of", AS_OF, "--format", "markdown"]).output
    assert (
        "The rules recommend **api**: scaleway mistral-small-24b-scaleway (another model), $86 per month."
        in markdown
    )


def test_an_api_proposal_for_stated_latency_targets_is_warned_that_they_are_not_checked(
    tmp_path: Path,
) -> None:
    """A voice agent states 150 ms to the first token and 15 ms a token: the catalog has no API latency,
    so a gate sees the targets are unchecked (it passed, 9 of 9). Left to the defaults, nothing is said."""
    stated = {**NO_PERSONAL_DATA, "max_time_to_first_token_ms": 150, "max_time_per_output_token_ms": 15}
    proposal = {"deployment": "api", "provider": "deepinfra", "offer": "llama-3.3-70b-deepinfra"}
    data = document(tmp_path, proposal, stated)
    found = item(data, "LAT012")
    assert (data["status"], found["status"]) == ("warn", "warn")
    assert found["message"] == (
        "The workload states its latency targets (the first token within 150 ms and 15 ms per output "
        "token), and the catalog holds no latency of a managed API: whether Llama 3.3 70B Instruct Turbo "
        "(DeepInfra) keeps them at the workload's peak is not checked. Measure its time to the first token "
        "and per token at the peak before relying on it."
    )
    assert statuses(document(tmp_path, proposal, NO_PERSONAL_DATA))["LAT012"] == "pass"
    # One target stated: the other (100 ms a token, the default) is not called stated.
    one = item(
        document(tmp_path, proposal, {**NO_PERSONAL_DATA, "max_time_to_first_token_ms": 150}), "LAT012"
    )
    assert one["message"].startswith(
        "The workload states a latency target (the first token within 150 ms), and the catalog holds no "
        "latency of a managed API: whether Llama 3.3 70B Instruct Turbo (DeepInfra) keeps it "
    )
