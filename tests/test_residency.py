"""Where personal data may run, by the law that applies (rules/residency.yaml), end to end: the region of
the people (personal_data_region, by default the company's), the options each law admits, the countries
the options name, and a proposal held to the same rules. The rules one by one are in
tests/rule_cases/RES.yaml; the scenarios in tests/scenarios/ pin the decisions."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, TESTS_DIR, lambda_uk, merged, run

from gpu_advisor.cli import main
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.results import Option, Recommendation
from gpu_advisor.knowledge import KNOWLEDGE_DIR

BASE: dict[str, Any] = yaml.safe_load((TESTS_DIR / "scenarios" / "workloads.yaml").read_text("utf-8"))["base"]
"""A public 70B FP8 chat service of a German company, 400,000 requests a day."""


def personal(knowledge: Knowledge | None = None, **changes: Any) -> Recommendation:
    return run(merged(BASE, {"personal_data": True, **changes}), knowledge=knowledge)


def admitted(result: Recommendation) -> list[Option]:
    """Every option no rule excluded (rentals and serverless products)."""
    return [option for option in result.options if not option.excluded_by]


def residency_exclusions(option: Option) -> list[str]:
    return [rule_id for rule_id in option.excluded_by if rule_id.startswith("RES")]


def finding(result: Recommendation, rule_id: str) -> str:
    (message,) = [f.message for f in result.findings if f.rule_id == rule_id]
    return message


# --- the field and its default ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("country", "region"),
    [
        ("DE", "eu"),
        ("AT", "eu"),
        ("NO", "eu"),
        ("LI", "eu"),
        ("CH", "ch"),
        ("GB", "uk"),
        ("UK", "uk"),
        ("US", "us"),
        ("JP", "other"),
        ("CN", "other"),
    ],
)
def test_the_region_of_the_people_defaults_to_the_company_country(country: str, region: str) -> None:
    workload = run(merged(BASE, {"company_country": country, "requests_per_day": 5000})).workload
    assert workload.personal_data_region == region
    assert "personal_data_region" in workload.defaults_used


def test_a_given_region_is_kept_and_not_listed_as_a_default() -> None:
    workload = run(merged(BASE, {"personal_data_region": "us", "requests_per_day": 5000})).workload
    assert workload.company_country == "DE"
    assert workload.personal_data_region == "us"
    assert "personal_data_region" not in workload.defaults_used


@pytest.mark.parametrize("value", ["eea", "EUR", "de", "", 1, True])
def test_an_invalid_region_exits_2_naming_the_field(value: object) -> None:
    document = {"name": "x", "model": {"name": "llama-3.1-70b", "precision": "fp8"}, "requests_per_day": 5}
    result = CliRunner().invoke(
        main, ["recommend", "-"], input=json.dumps({**document, "personal_data_region": value})
    )
    assert result.exit_code == 2
    assert "personal_data_region: " in result.output
    assert "Traceback" not in result.output


def test_the_json_schema_names_the_regions() -> None:
    """Listed as the workload names them, and a pattern that takes the other cases the workload takes
    (tests/test_region_spelling.py): 'Eu' as well as 'EU', nothing else."""
    result = CliRunner().invoke(main, ["schema", "workload"])
    listed, spelled, _none = json.loads(result.output)["properties"]["personal_data_region"]["anyOf"]
    assert listed["enum"] == ["eu", "ch", "uk", "us", "other"]
    pattern = spelled["pattern"]
    assert all(re.fullmatch(pattern, v) for v in ("eu", "EU", "Eu", "eU", "oThEr", "Ch"))
    assert not any(re.fullmatch(pattern, v) for v in ("eux", "e u", "de", "", "EU "))


# --- the law that applies, option by option -------------------------------------------------------------


def test_a_us_company_with_personal_data_of_people_in_the_us_can_choose_a_us_region() -> None:
    result = personal(
        company_country="US",
        devops_capacity=False,
        model={"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    )
    assert all(not residency_exclusions(option) for option in result.options)
    # One 8-GPU P5 on a three-year savings plan at AWS's US list price, every hour of the month, is admitted.
    (p5,) = [o for o in result.options if (o.provider, o.offer) == ("aws", "p5-reserved-3y-2026-09")]
    assert (p5.jurisdiction, p5.countries, p5.excluded_by) == ("US", ("US",), ())
    assert p5.usd_per_month == pytest.approx(8 * 2.97216 * 730)
    # Scaleway's 4-card instance in Paris bills the four cards only, and costs less.
    (chosen,) = [option for option in result.options if option.chosen]
    assert (chosen.provider, chosen.offer, chosen.jurisdiction, chosen.gpus_rented) == (
        "scaleway",
        "h100-sxm-4-80g",
        "EU",
        4,
    )
    assert chosen.usd_per_month == pytest.approx(4 * chosen.usd_per_gpu_hour * 730)
    assert chosen.usd_per_month < p5.usd_per_month
    assert "HIPAA" in finding(result, "RES013")


def test_a_swiss_company_gets_swiss_eu_or_uk_regions_under_the_revdsg() -> None:
    # The catalog has no UK region: the overrides add Lambda's H100 in the UK (tests/rates/lambda-uk.yaml).
    result = personal(lambda_uk(), company_country="CH")
    jurisdictions = {option.jurisdiction for option in admitted(result)}
    assert jurisdictions <= {"CH", "EU", "UK"}
    assert {"EU", "UK"} <= jurisdictions
    for option in result.options:
        if option.jurisdiction in ("US", "unknown"):
            assert "RES007" in option.excluded_by, option
    # The best rental is Lambda's UK region; a managed API that processes requests in the EU costs less.
    best = result.best_option
    assert best is not None
    assert (best.provider, best.offer, best.jurisdiction, best.countries) == (
        "lambda",
        "on-demand-uk",
        "UK",
        ("GB",),
    )
    assert best.usd_per_month == pytest.approx(4 * 2.99 * 730)
    assert result.decision.deployment == "api"
    assert next(a for a in result.api_costs if a.api == result.decision.offer).jurisdiction == "EU"
    message = finding(result, "RES007")
    assert "revised Federal Act on Data Protection applies (revDSG/nFADP, SR 235.1, Art. 3)" in message
    assert "Art. 16(1)" in message and "DSV, SR 235.11, Annex 1" in message
    assert "RES001" not in result.fired_rules


def test_a_uk_company_gets_uk_eu_or_swiss_regions_under_the_uk_gdpr() -> None:
    result = personal(company_country="GB")
    assert {option.jurisdiction for option in admitted(result)} <= {"UK", "EU", "CH"}
    for option in result.options:
        if option.jurisdiction in ("US", "unknown"):
            assert "RES009" in option.excluded_by, option
    message = finding(result, "RES009")
    assert "the UK GDPR and the Data Protection Act 2018 apply (UK GDPR Art. 3)" in message
    assert "Art. 44A, 45A" in message and "DPA 2018, Sch. 21 paras 4, 5" in message


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"personal_data_region": "us"},
        {"personal_data_region": "ch"},
        {"personal_data_region": "uk"},
        {"personal_data_region": "other"},
        {"company_country": "FR", "requests_per_day": 1_000_000},
        {"company_country": "AT", "load_pattern": "variable", "schedule": "office_hours"},
        {"model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 50_000},
        {"company_country": "CH", "personal_data_region": "eu"},
        {"company_country": "US", "personal_data_region": "eu"},
    ],
)
def test_personal_data_under_the_gdpr_never_gets_a_non_eu_option(changes: dict[str, Any]) -> None:
    result = personal(**changes)
    assert result.options
    for option in admitted(result):
        assert option.jurisdiction == "EU", option
    # A managed API only where it processes requests in the EU.
    assert all(a.jurisdiction == "EU" for a in result.api_costs if not a.excluded_by)
    if result.decision.deployment == "api":
        assert next(a for a in result.api_costs if a.api == result.decision.offer).jurisdiction == "EU"
    chosen = [option for option in result.options if option.chosen]
    assert all(option.jurisdiction == "EU" for option in chosen)


def test_a_swiss_company_with_personal_data_of_people_in_the_eu_keeps_to_the_stricter_set() -> None:
    result = personal(lambda_uk(), company_country="CH", personal_data_region="eu")
    assert {"RES001", "RES008"} <= set(result.fired_rules)
    uk = [option for option in result.options if option.jurisdiction == "UK"]
    assert uk and all(residency_exclusions(option) == ["RES001"] for option in uk)


def test_a_country_without_a_law_table_keeps_the_eu_default_and_says_so() -> None:
    result = personal(company_country="BR")
    assert result.workload.personal_data_region == "other"
    assert {option.jurisdiction for option in admitted(result)} == {"EU"}
    assert "gpu-advisor has no table of their law" in finding(result, "RES011")


# --- countries ------------------------------------------------------------------------------------------


def test_options_name_the_countries_of_their_regions() -> None:
    result = personal(requests_per_day=1_000_000)
    countries = {(o.provider, o.offer, o.jurisdiction): o.countries for o in result.options}
    # AWS sells no P5 in Frankfurt; its EU price is Stockholm's.
    assert countries[("aws", "p5-on-demand-stockholm", "EU")] == ("SE",)
    assert countries[("aws", "p5-reserved-3y-2026-09", "US")] == ("US",)
    assert countries[("azure", "nd-h100-v5-swedencentral", "EU")] == ("SE",)
    assert countries[("lambda", "on-demand", "US")] == ("US",)
    assert countries[("runpod", "serverless", "EU")] == ("RO", "SE", "NL", "CZ", "FR")
    assert countries[("huggingface", "inference-endpoints", "EU")] == ("IE",)
    assert countries[("gcp", "a3-high-europe-west4", "EU")] == ("NL",)
    assert countries[("runpod", "community", "unknown")] == ()


def test_the_memo_shows_the_countries_and_whose_data_it_is() -> None:
    from gpu_advisor.engine.present.memo import render_memo

    memo = render_memo(personal(lambda_uk(), company_country="CH"))
    assert "| Whose personal data | people in Switzerland (from the company country) |" in memo
    assert "| on-demand-uk | h100-sxm | 4 | on-demand | UK (GB) | $2.99 |" in memo
    assert "| on-demand | EU (SE) | $7.36 |" in memo
    assert "| on-demand | EU (FR) | $3.67 (€3.17) |" in memo
    assert "| reserved | US | $1.90 |" in memo


# --- check ----------------------------------------------------------------------------------------------


def check(tmp_path: Path, workload: dict[str, Any], proposal: dict[str, Any]) -> dict[str, Any]:
    document = {
        "workload": {
            "name": "chat",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 400000,
            "personal_data": True,
            **workload,
        },
        "proposal": {
            "deployment": "dedicated_cloud",
            "provider": "aws",
            "offer": "p5-on-demand",
            "gpu": "h100-sxm",
            "gpus": 4,
            "pricing": "on_demand",
            **proposal,
        },
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json", "--soft-fail"])
    assert result.exit_code == 0, result.output
    (item,) = [i for i in json.loads(result.output)[0]["results"] if i["rule_id"] == "RES005"]
    return dict(item)


def test_check_evidence_names_the_countries_of_the_proposed_region(tmp_path: Path) -> None:
    # AWS's P5 in Stockholm: an offer the catalog lists in that region (it lists none in Frankfurt).
    item = check(
        tmp_path, {"company_country": "CH"}, {"offer": "p5-on-demand-stockholm", "region": "eu-north-1"}
    )
    assert item["status"] == "pass"
    assert item["evidence"] == {
        "personal_data": True,
        "cloud_hosted": True,
        "jurisdiction_excluded": False,
        "region": "eu-north-1",
        "jurisdiction": "EU",
        "countries": "SE",
    }


def test_check_fails_a_swiss_proposal_in_the_us_naming_the_rule_and_law(tmp_path: Path) -> None:
    item = check(tmp_path, {"company_country": "CH"}, {"region": "us-east-1"})
    assert item["status"] == "fail"
    assert item["message"] == (
        "The workload processes personal data, and the proposed region (us-east-1, US) lies outside the "
        "jurisdictions the law that applies admits: RES007 (revDSG: gpu-advisor keeps personal data of "
        "people in Switzerland in Swiss, EU/EEA or UK regions). aws sells h100-sxm where the workload may "
        "run, in eu-north-1."
    )


def test_check_passes_a_us_company_in_us_east_1(tmp_path: Path) -> None:
    item = check(tmp_path, {"company_country": "US"}, {"region": "us-east-1"})
    assert item["status"] == "pass"
    assert item["evidence"]["countries"] == "US"


def test_check_fails_personal_data_of_an_eu_company_on_a_marketplace(tmp_path: Path) -> None:
    item = check(tmp_path, {}, {"provider": "vast", "offer": "spot", "gpu": "h100-pcie", "pricing": "spot"})
    assert item["status"] == "fail"
    assert item["evidence"]["jurisdiction"] == "unknown"
    rule = "RES001 (GDPR: gpu-advisor keeps personal data of people in the EU/EEA in EU regions)"
    assert rule in item["message"]


# --- the knowledge behind it ----------------------------------------------------------------------------


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, target, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return target


def edit(directory: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = directory / f"{name}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_the_eea_is_the_eu_with_iceland_liechtenstein_and_norway() -> None:
    (eu,) = [entry for entry in load_knowledge().data_protection.regions if entry.region == "eu"]
    # The 27 member states, the seven EU territories with codes of their own (France's six outermost
    # regions, Finland's Aland Islands), and the EEA three.
    assert len(eu.countries) == 27 + 7 + 3
    assert {"IS", "LI", "NO"} <= set(eu.countries)
    assert not {"CH", "GB", "UK"} & set(eu.countries)


def test_a_country_in_two_regions_is_rejected(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "data_protection", lambda d: d["regions"][0]["countries"].append("CH"))
    with pytest.raises(KnowledgeError) as error:
        load_knowledge_from(knowledge_copy)
    assert "data_protection.yaml" in str(error.value)
    assert "country CH is listed in eu and ch" in str(error.value)


def test_the_other_region_lists_no_countries(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "data_protection", lambda d: d["regions"][3].update(region="other"))
    with pytest.raises(KnowledgeError, match="'other' is every country no region lists"):
        load_knowledge_from(knowledge_copy)


def test_a_document_url_must_be_https(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "documents", lambda d: d["documents"][-1].update(url="ftp://example.org/law"))
    with pytest.raises(KnowledgeError, match=r"entry 'uk-dpa-2018': field documents\.\d+\.url"):
        load_knowledge_from(knowledge_copy)


def test_the_residency_premium_names_the_two_offers_it_compares() -> None:
    """RES003 compares the cheapest admitted offer with the cheapest one only the residency rules
    exclude, which may be another GPU: the HR assistant's 4 × H100 at Scaleway in Paris ($3,911) against
    2 × H200 at RunPod community, 2 × $3.59 × 264 workday hours = $1,895.52. It gave the two sums only."""
    result = run(yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text()))
    assert result.best_option is not None
    premium = result.best_option.usd_per_month / (2 * 3.59 * 264) - 1
    assert finding(result, "RES003").startswith(
        "Among rentals on one offer, keeping the personal data in the admitted jurisdictions costs "
        + f"{premium:.0%}".replace("%", " %")
        + " more than the cheapest one the residency rules exclude (scaleway h100-sxm-4-80g "
        "(4 × h100-sxm) at $3,911/month against runpod community (2 × h200) at $1,896/month, each the "
        "cheapest GPU and offer on its side;"
    )


def test_the_residency_premium_of_rentals_is_not_said_of_a_serverless_recommendation() -> None:
    """A Swiss call centre's summaries on serverless GPUs in the EU: the rentals' premium (148 %) says
    nothing about the serverless route recommended, which costs the same outside: RES003 says whose price
    it measures. Where a rental is the recommendation (the HR assistant), it says nothing more."""
    centre = {
        "name": "ch-callcentre-summary",
        "model": {"name": "qwen2.5-32b", "precision": "bf16"},
        "requests_per_day": 60000,
        "avg_input_tokens": 3000,
        "avg_output_tokens": 250,
        "load_pattern": "variable",
        "schedule": "workdays",
        "latency_sensitive": False,
        "personal_data": True,
        "model_stable": True,
        "company_country": "CH",
    }
    result = run(centre)
    assert result.decision.deployment == "serverless"
    assert finding(result, "RES003").endswith(
        "If only part of the traffic carries personal data, run that part in the admitted regions and the "
        "rest on the cheaper GPUs, where rentals run it: the recommendation is serverless GPUs, whose price "
        "this rental premium does not measure."
    )
    rental = run(yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text()))
    assert rental.decision.deployment == "dedicated_cloud"
    assert finding(rental, "RES003").endswith(
        "run that part in the admitted regions and the rest on the cheaper GPUs."
    )


def test_the_memo_says_which_rules_on_personal_data_are_not_assessed() -> None:
    """A Swiss bank reads "residency" as more than data-protection law: the memo says what it leaves out."""
    from gpu_advisor.engine.present.memo import render_memo

    line = (
        "- Where personal data may be processed follows data-protection law alone (GDPR, the Swiss revDSG, "
        "UK GDPR); sector rules (banking secrecy and a financial supervisor's outsourcing rules, such as "
        "FINMA's, BaFin's or the FMA's, health-data law, a customer's contract) are not assessed, and a "
        "provider's exposure to foreign authorities (such as the US CLOUD Act) only where the catalog "
        "records its parent company (RES015): check them before choosing a provider. Where they keep the "
        "data in one country, an organization policy that keeps only the options whose regions lie in it "
        "(`{field: countries, not_in: [CH]}` for CH, README: Organization policies) makes the rules decide "
        "so.\n"
    )
    assert line in render_memo(personal(company_country="CH"))
    assert "CLOUD Act" not in render_memo(personal(personal_data=False))


def test_the_swiss_and_uk_laws_say_which_regions_the_catalog_lacks() -> None:
    """Swiss, EU and UK regions qualify under the revDSG and UK GDPR; the catalog has a Swiss region
    (Google Cloud's europe-west6, Zurich) but no UK one: the message names the UK, and nothing once an
    overrides file adds a UK region."""
    message = finding(personal(company_country="CH"), "RES007")
    assert message.endswith(
        "Where the GDPR applies too, only EU regions remain. The catalog lists no region in the UK."
    )
    assert finding(personal(company_country="GB"), "RES009").endswith(
        "Where the GDPR applies too, only EU regions remain. The catalog lists no region in the UK."
    )
    with_uk = finding(personal(lambda_uk(), company_country="CH"), "RES007")
    assert with_uk.endswith("Where the GDPR applies too, only EU regions remain.")


def test_the_swiss_region_is_admitted_for_swiss_personal_data_and_kept_by_a_swiss_only_policy() -> None:
    """Google Cloud's Zurich L4 instances: admitted under the revDSG, excluded under the GDPR (the tool
    relies on no adequacy decision), and priced at Google's list price in Switzerland (no EU premium)."""
    swiss = personal(company_country="CH", model={"name": "llama-3.1-8b", "precision": "fp8"})
    zurich = [o for o in swiss.options if o.provider == "gcp" and o.regions == ("europe-west6",)]
    assert [(o.offer, o.jurisdiction, o.countries, o.price_basis) for o in zurich] == [
        ("g2-standard-4-europe-west6", "CH", ("CH",), "list"),
        ("g2-standard-europe-west6", "CH", ("CH",), "list"),
    ]
    assert [o.usd_per_gpu_hour for o in zurich] == [0.975748092, 1.360363676]
    assert not any(residency_exclusions(o) for o in zurich)
    german = personal(model={"name": "llama-3.1-8b", "precision": "fp8"})
    assert all(
        residency_exclusions(o) == ["RES001"]
        for o in german.options
        if o.provider == "gcp" and o.regions == ("europe-west6",)
    )
