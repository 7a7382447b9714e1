"""RES018: the revDSG admits EU/EEA and UK regions for a Swiss company's personal data (RES008), but data
processed in an admitted region abroad still leave Switzerland. The finding names the country of the
cheapest admitted rental and the sector rules that may still require Switzerland (banking secrecy, FINMA
Circular 2018/3), and the Summary says so where that rental is chosen. Where it runs in Switzerland
(Google Cloud's Zurich L4 under a Swiss-only policy) nothing is said; nor to a company elsewhere."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR, merged, run

from gpu_advisor import api
from gpu_advisor.cli import main
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.pipeline.abroad import abroad
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.rulebook.details import CountryPlace

HR: dict[str, Any] = yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text(encoding="utf-8"))
"""The HR assistant of a German company: its fine-tuned 70B on employee records."""
SWISS_HR = merged(HR, {"company_country": "CH"})

# A Swiss support bot on an 8B model: two L4 cards, cheapest at OVHcloud in Gravelines.
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
        "The cheapest admitted rental, scaleway h100-sxm-4-80g (4 × h100-sxm), processes the personal data "
        "in France, outside Switzerland: a disclosure abroad, which the revDSG permits without further "
        "guarantees where the Federal Council has found the state's law adequate (Art. 16(1)), as its list "
        "does for the EU/EEA states (DSV, SR 235.11, Annex 1). Sector rules may still require Switzerland: "
        "banking secrecy (Banking Act, Art. 47) and, for banks, insurers and the other institutions it "
        "covers, FINMA Circular 2018/3, which permits outsourcing abroad only where the institution, its "
        "audit firm and FINMA can exercise their rights of inspection and audit and a restructuring or "
        "resolution in Switzerland stays possible. Where they keep the data in Switzerland, an organization "
        "policy that keeps only the options there (`{field: countries, not_in: [CH]}`, README: Organization "
        "policies) makes the rules decide so."
    )
    assert (
        "The chosen rental runs in fr-par-2 (FR): the personal data leave Switzerland, for a state whose law "
        "the Federal Council's list under the revDSG finds adequate, but banking secrecy or FINMA's "
        "outsourcing rules may still require Switzerland (RES018)."
    ) in summary(render_memo(result))


def test_the_german_memo_names_the_country_in_german() -> None:
    output = CliRunner().invoke(main, ["recommend", "-", "--lang", "de"], input=json.dumps(SWISS_HR)).output
    assert (
        "Die gewählte Miete läuft in fr-par-2 (FR): Die personenbezogenen Daten verlassen die Schweiz, in "
        "einen Staat, dessen Gesetzgebung die Liste des Bundesrats nach revDSG als angemessen einstuft, aber "
        "das Bankgeheimnis oder die Auslagerungsregeln der FINMA können dennoch die Schweiz verlangen "
        "(RES018).\n"
    ) in output
    assert (
        "Die günstigste zugelassene Miete, scaleway h100-sxm-4-80g (4 × h100-sxm), verarbeitet die "
        "personenbezogenen Daten in Frankreich, außerhalb der Schweiz: eine Bekanntgabe ins Ausland"
    ) in output


def test_a_rental_in_two_countries_names_both(tmp_path: Path) -> None:
    """Scaleway's L4 runs in Paris and Warsaw: the data go to one of them."""
    kept = "provider, not_in: [scaleway, gcp, aws, azure, stackit]"
    result = api.recommend(SWISS_BOT, EVALUATED_ON, policy_dir=policy(tmp_path, "no-ovhcloud", kept))
    best = result.best_option
    assert best is not None
    assert (best.provider, best.offer, best.countries) == ("scaleway", "l4-24g", ("FR", "PL"))
    assert finding(result, "RES018").startswith(
        "The cheapest admitted rental, scaleway l4-24g (2 × l4), processes the personal data in France or "
        "Poland, outside Switzerland: "
    )


def test_nothing_is_said_where_the_cheapest_rental_runs_in_switzerland(tmp_path: Path) -> None:
    """Without a policy the bot's cheapest rental is OVHcloud's L4 in France; a Swiss-only policy keeps
    Google Cloud's Zurich L4, and RES018 stays silent."""
    assert "in France, outside Switzerland" in finding(run(SWISS_BOT), "RES018")
    swiss_only = policy(tmp_path, "swiss-regions-only", "countries, not_in: [CH]")
    result = api.recommend(SWISS_BOT, EVALUATED_ON, policy_dir=swiss_only)
    best = result.best_option
    assert best is not None
    assert (best.provider, best.offer, best.countries, best.usd_per_gpu_hour) == (
        "gcp",
        "g2-standard-4-europe-west6",
        ("CH",),
        0.975748092,
    )
    assert "RES018" not in result.fired_rules


def test_a_company_outside_switzerland_is_not_told() -> None:
    result = run(HR)
    best = result.best_option
    assert best is not None and best.countries == ("FR",)
    assert "RES018" not in result.fired_rules


def test_a_uk_company_s_region_in_great_britain_is_not_abroad() -> None:
    """countries.yaml accepts UK beside GB, the code the catalog's regions use."""
    knowledge = load_knowledge()
    in_london = cast(
        Market,
        SimpleNamespace(
            alternatives=SimpleNamespace(best=SimpleNamespace(countries=("GB",), jurisdiction="UK"))
        ),
    )
    assert abroad(knowledge, in_london, "UK") == (False, (), "")
    assert abroad(knowledge, in_london, "CH") == (True, (CountryPlace(code="GB", name="GB"),), "UK")
