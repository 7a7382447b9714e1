"""RES018: the revDSG admits EU/EEA and UK regions for a Swiss company's personal data (RES008), but data
processed in an admitted region abroad still leave Switzerland. The rule reads the route the decision
takes (the decision fact): a rental, a serverless product, a mixed fleet or a managed API. The finding
names the country that route runs in and the sector rules that may still require Switzerland (banking
secrecy, FINMA Circular 2018/3), and the Summary says so. Where the decided route runs in Switzerland
(Google Cloud's Zurich L4), or on the company's own servers, nothing is said, whatever the other routes
do; nor to a company elsewhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR, merged, run

from gpu_advisor import api
from gpu_advisor.cli import main
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.pipeline.abroad import Route, abroad
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.rulebook.details import CountryPlace
from gpu_advisor.engine.rulebook.loading import load_rulebook
from gpu_advisor.engine.rulebook.schema import Rule

HR: dict[str, Any] = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
"""The HR assistant of a German company: its fine-tuned 70B on employee records."""
SWISS_HR = merged(HR, {"company_country": "CH"})

# A Swiss support bot on an 8B model: the API is decided, Mistral Small 24B at IONOS in Germany (the
# cheapest rental, OVHcloud's two L4 in Gravelines, is not).
SWISS_BOT: dict[str, Any] = {
    "name": "ch-support-bot",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 20000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 200,
    "load_pattern": "steady",
    "schedule": "workdays",
    "personal_data": True,
    "company_country": "CH",
}
# The bank's own fine-tuned 8B (no API serves it) and no team to run servers: OVHcloud's L4 in Gravelines.
SWISS_OWN_BOT = merged(
    SWISS_BOT,
    {"model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True}, "devops_capacity": False},
)
# The same at 2,000 requests a day, as they come: Hugging Face's endpoint in Ireland (RunPod's direct
# endpoint runs a worker the team would build, PRV031).
SWISS_LIGHT_BOT = merged(SWISS_OWN_BOT, {"requests_per_day": 2000, "load_pattern": "variable"})

POLICY = """\
schema_version: 1
family: ORG
rules:
  - id: ORG020
    name: %s
    topic: residency
    severity: critical
    fact: workload
    when: []
    then:
      exclude_options:
        - {field: %s}
    title: "Company policy"
    message: "Company policy."
    rationale: "The bank's outsourcing rules."
    source: {document: cloud-gpu-costs-2026, section: "DACH-Perspektive: Datenschutz und GPU-Souveränität"}
"""
SWISS_RENTALS_ONLY = (
    "countries, not_in: [CH], and_also: [{field: provider_kind, not_in: [european]}]}\n"
    "        - {field: countries, not_in: [CH], and_also: [{field: provider_kind, equals: european}]"
)
"""Every rental and serverless product outside Switzerland excluded, of every kind of provider; the
managed APIs, which have no provider kind, are not."""

SECTOR_RULES = (
    ", outside Switzerland: a disclosure abroad, which the revDSG permits without further guarantees where "
    "the Federal Council has found the state's law adequate (Art. 16(1)), as its list does for the EU/EEA "
    "states (DSV, SR 235.11, Annex 1). Sector rules may still require Switzerland: banking secrecy (Banking "
    "Act, Art. 47) and, for banks, insurers and the other institutions it covers, FINMA Circular 2018/3, "
    "which permits outsourcing abroad only where the institution, its audit firm and FINMA can exercise "
    "their rights of inspection and audit and a restructuring or resolution in Switzerland stays possible. "
    "Where they keep the data in Switzerland, an organization policy that keeps only the options there "
    "(`{field: countries, not_in: [CH]}`, README: Organization policies) makes the rules decide so."
)
"""What RES018 says after the route and its countries, whichever route it is."""
LEAVE = (
    "the personal data leave Switzerland, for a state whose law the Federal Council's list under the "
    "revDSG finds adequate, but for a bank, an insurer or another institution FINMA supervises, banking "
    "secrecy or FINMA's outsourcing rules may still require Switzerland"
)


def finding(result: Any, rule_id: str) -> str:
    (message,) = [f.message for f in result.findings if f.rule_id == rule_id]
    return str(message)


def summary(memo: str) -> str:
    return " ".join(memo.split("## Summary")[1].split("## Why")[0].split())


def policy(tmp_path: Path, name: str, test: str) -> Path:
    (tmp_path / "policy.yaml").write_text(POLICY % (name, test), encoding="utf-8")
    return tmp_path


def test_a_swiss_company_s_rental_in_paris_says_the_data_leave_switzerland() -> None:
    result = run(SWISS_HR)
    best = result.best_option
    assert best is not None
    assert (best.provider, best.offer, best.regions, best.countries, best.chosen) == (
        "scaleway",
        "h100-sxm-4-80g",
        ("fr-par-2",),
        ("FR",),
        True,
    )
    assert "RES008" not in result.fired_rules  # the people are in Switzerland: RES007 is the law's rule
    assert finding(result, "RES018") == (
        "The chosen rental, scaleway h100-sxm-4-80g (4 × h100-sxm), processes the personal data in France"
        + SECTOR_RULES
    )
    (res018,) = [f for f in result.findings if f.rule_id == "RES018"]
    assert res018.route is None  # about the decision itself, not a route beside it
    assert f"The chosen rental runs in fr-par-2 (FR): {LEAVE} (RES018)." in summary(render_memo(result))


def test_a_swiss_company_s_serverless_workers_in_the_eu_say_the_data_leave_switzerland() -> None:
    result = run(SWISS_LIGHT_BOT)
    chosen = result.serverless_option
    assert chosen is not None
    assert (result.decision.deployment, chosen.provider, chosen.regions, chosen.countries, chosen.chosen) == (
        "serverless",
        "huggingface",
        ("aws-eu-west-1",),
        ("IE",),
        True,
    )
    assert finding(result, "RES018") == (
        "The chosen serverless product, Hugging Face Inference Endpoints (aws-eu-west-1, 1 × l4), processes "
        "the personal data in Ireland" + SECTOR_RULES
    )
    assert f"The chosen serverless product runs in aws-eu-west-1 (IE): {LEAVE} (RES018)." in summary(
        render_memo(result)
    )


def test_the_german_memo_lists_the_countries_as_they_read_after_in() -> None:
    """German gives the Netherlands an article: "in Rumänien, ..., den Niederlanden", not "Niederlande";
    and several states are "Staaten, deren", not "einen Staat, dessen". A team that can build RunPod's
    worker is served from its EU pool, in five countries."""
    bot = merged(SWISS_LIGHT_BOT, {"devops_capacity": True})
    memo = CliRunner().invoke(main, ["recommend", "-", "--lang", "de"], input=json.dumps(bot))
    assert memo.exit_code == 0, memo.output
    assert (
        "Das gewählte Serverless-Produkt, RunPod Serverless (eu-datacenters, 1 × l4), verarbeitet die "
        "personenbezogenen Daten in Rumänien, Schweden, den Niederlanden, Tschechien oder Frankreich, "
        "außerhalb der Schweiz"
    ) in " ".join(memo.output.split())
    assert (
        "Das gewählte Serverless-Produkt läuft in eu-datacenters (RO, SE, NL, CZ, FR): Die personenbezogenen "
        "Daten verlassen die Schweiz, in Staaten, deren Gesetzgebung"
    ) in memo.output


def test_a_swiss_company_s_api_hosted_in_germany_says_the_data_leave_switzerland() -> None:
    result = run(SWISS_BOT)
    assert (result.decision.deployment, result.decision.provider, result.decision.offer) == (
        "api",
        "ionos",
        "mistral-small-24b-ionos",
    )
    assert finding(result, "RES018") == (
        "The chosen managed API, Mistral Small 24B Instruct (IONOS AI Model Hub), processes the personal "
        "data in Germany" + SECTOR_RULES
    )
    # The line under the decision says where ("Its provider processes the requests in the EU (DE)."):
    # the RES018 line does not say it again.
    memo = summary(render_memo(result))
    assert "Its provider processes the requests in the EU (DE)." in memo
    assert f"With the requests to the API, t{LEAVE[1:]} (RES018)." in memo


def test_a_swiss_company_s_mixed_fleet_names_its_country() -> None:
    """A business-critical 8B chat of a Swiss shop: one reserved L40S at OVHcloud in Gravelines and
    hourly ones in the busier hours. The Summary says the data leave; the finding says where."""
    shop = {
        "name": "shop-chat",
        "model": {"name": "llama-3.1-8b", "precision": "fp16", "custom_weights": True},
        "requests_per_day": 250_000,
        "avg_input_tokens": 600,
        "avg_output_tokens": 200,
        "load_pattern": "variable",
        "business_critical": True,
        # Without the confirmation a business-critical service around the clock prices no mix (PRC034).
        "capacity_confirmed": True,
        "min_replicas": 1,
        "personal_data": True,
        "company_country": "CH",
    }
    result = run(shop)
    assert (result.decision.deployment, result.decision.provider) == ("hybrid", "ovhcloud")
    assert finding(result, "RES018") == (
        "The chosen mixed fleet, ovhcloud/l40s-monthly + ovhcloud/l40s (l40s), processes the personal data "
        "in France" + SECTOR_RULES
    )
    assert f"The chosen route runs outside Switzerland (RES018 says where): {LEAVE}." in summary(
        render_memo(result)
    )


def test_the_german_memo_names_the_country_in_german() -> None:
    output = CliRunner().invoke(main, ["recommend", "-", "--lang", "de"], input=json.dumps(SWISS_HR)).output
    assert (
        "Die gewählte Miete läuft in fr-par-2 (FR): Die personenbezogenen Daten verlassen die Schweiz, in "
        "einen Staat, dessen Gesetzgebung die Liste des Bundesrats nach revDSG als angemessen einstuft, aber "
        "für eine Bank, eine Versicherung oder ein anderes von der FINMA beaufsichtigtes Institut können das "
        "Bankgeheimnis oder die Auslagerungsregeln der FINMA dennoch die Schweiz verlangen (RES018).\n"
    ) in output
    assert (
        "Die gewählte Miete, scaleway h100-sxm-4-80g (4 × h100-sxm), verarbeitet die personenbezogenen Daten "
        "in Frankreich, außerhalb der Schweiz: eine Bekanntgabe ins Ausland"
    ) in output


def test_the_german_memo_names_the_api_s_country_in_german() -> None:
    output = CliRunner().invoke(main, ["recommend", "-", "--lang", "de"], input=json.dumps(SWISS_BOT)).output
    assert (
        "Mit den Anfragen an die API verlassen die personenbezogenen Daten die Schweiz, in einen Staat, "
        "dessen Gesetzgebung die Liste des Bundesrats nach revDSG als angemessen einstuft, aber für eine "
        "Bank, eine Versicherung oder ein anderes von der FINMA beaufsichtigtes Institut können das "
        "Bankgeheimnis oder die Auslagerungsregeln der FINMA dennoch die Schweiz verlangen (RES018).\n"
    ) in output
    assert (
        "Die gewählte Managed API, Mistral Small 24B Instruct (IONOS AI Model Hub), verarbeitet die "
        "personenbezogenen Daten in Deutschland, außerhalb der Schweiz"
    ) in output


def test_a_rental_in_two_countries_names_both(tmp_path: Path) -> None:
    """Scaleway's L4 runs in Paris and Warsaw: the data go to one of them."""
    kept = "provider, not_in: [scaleway, gcp, aws, azure, stackit]"
    result = api.recommend(SWISS_OWN_BOT, EVALUATED_ON, policy_dir=policy(tmp_path, "no-ovhcloud", kept))
    best = result.best_option
    assert best is not None
    assert (result.decision.deployment, best.provider, best.offer, best.countries) == (
        "dedicated_cloud",
        "scaleway",
        "l4-24g",
        ("FR", "PL"),
    )
    assert finding(result, "RES018") == (
        "The chosen rental, scaleway l4-24g (2 × l4), processes the personal data in France or Poland"
        + SECTOR_RULES
    )


def test_nothing_is_said_where_the_decided_rental_runs_in_switzerland(tmp_path: Path) -> None:
    """Without a policy the bot's own model is rented from OVHcloud in France, by the month (its hourly
    cards kept every hour, PRC036, would cost more); a policy that keeps only
    Swiss rentals and serverless products decides Google Cloud's Zurich L4, and RES018 stays silent,
    though the API compared (barred for the bank's own weights, DEP005) is hosted in Germany."""
    assert finding(run(SWISS_OWN_BOT), "RES018").startswith(
        "The chosen rental, ovhcloud l4-monthly (2 × l4), "
    )
    swiss = policy(tmp_path, "swiss-rentals-only", SWISS_RENTALS_ONLY)
    result = api.recommend(SWISS_OWN_BOT, EVALUATED_ON, policy_dir=swiss)
    best = result.best_option
    assert best is not None
    assert (result.decision.deployment, best.provider, best.offer, best.countries, best.usd_per_gpu_hour) == (
        "dedicated_cloud",
        "gcp",
        "g2-standard-4-europe-west6",
        ("CH",),
        0.975748092,
    )
    (compared,) = [a for a in result.api_costs if a.compared]
    assert (compared.api, compared.countries, compared.excluded_by) == (
        "mistral-small-24b-ionos",
        ("DE",),
        (),
    )
    assert "RES018" not in result.fired_rules


def test_nothing_is_said_where_the_api_is_decided_in_switzerland_s_stead(tmp_path: Path) -> None:
    """The same policy leaves the support bot its API in Germany: RES018 speaks of it."""
    swiss = policy(tmp_path, "swiss-rentals-only", SWISS_RENTALS_ONLY)
    result = api.recommend(SWISS_BOT, EVALUATED_ON, policy_dir=swiss)
    assert (result.decision.deployment, result.decision.provider) == ("api", "ionos")
    assert finding(result, "RES018").startswith("The chosen managed API, Mistral Small 24B Instruct ")


def test_nothing_is_said_of_the_company_s_own_servers() -> None:
    """With a team to run it, the bank's own model is cheapest on an owned RTX 5090 workstation: no
    region abroad, though the cheapest rental (France) and the API (Germany) are."""
    result = run(merged(SWISS_OWN_BOT, {"devops_capacity": None}))
    assert (result.decision.deployment, result.decision.offer) == ("own_hardware", "workstation-rtx-5090")
    assert result.best_option is not None and result.best_option.countries == ("FR",)
    assert "RES018" not in result.fired_rules


def test_a_company_outside_switzerland_is_not_told() -> None:
    result = run(HR)
    best = result.best_option
    assert best is not None and best.countries == ("FR",) and best.chosen
    assert "RES018" not in result.fired_rules


def test_a_uk_company_s_region_in_great_britain_is_not_abroad() -> None:
    """countries.yaml takes UK for GB, the code the catalog's regions use."""
    knowledge = load_knowledge()
    in_london = Route("a rental in London", ("GB",), "UK")
    assert abroad(knowledge, in_london, "UK") == (False, (), "")
    assert abroad(knowledge, in_london, "GB") == (False, (), "")
    assert abroad(knowledge, in_london, "CH") == (True, (CountryPlace(code="GB", name="GB"),), "UK")
    assert abroad(knowledge, None, "CH") == (False, (), "")
    assert abroad(knowledge, Route("variable locations", (), "unknown"), "CH") == (False, (), "")


@pytest.mark.parametrize(
    "then",
    [
        {"exclude_options": [{"field": "countries", "not_in": ["CH"]}]},
        {"rule_out": {"deployments": ["api"], "precedence": 50}},
    ],
)
def test_a_rule_on_the_decision_concludes_nothing(then: dict[str, Any]) -> None:
    """The decision fact is asserted once the decision is settled: an exclusion or a rule-out there would
    come too late to change it, so a rule that concludes one is refused at load."""
    declared = load_rulebook().rule("RES018").model_dump()
    assert Rule.model_validate(declared).fact == "decision"
    with pytest.raises(
        ValueError, match="decision rules fire once the decision is settled: they conclude nothing"
    ):
        Rule.model_validate({**declared, "then": then})
