"""Each rule on its own: for every rule a fact on which it fires and one on which it stays silent,
asserted straight into the engine without the pipeline or the catalog's prices (tests/rule_cases/, one
file per rule family, in the manner of sqlfluff's rule cases). A case names the base fact's fields it
changes and every rule that fires on the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import TESTS_DIR

from gpu_advisor.engine.pipeline.engines import rules_engine
from gpu_advisor.engine.rulebook.facts import FACT_MODELS, Fact, WorkloadFacts
from gpu_advisor.engine.rulebook.loading import load_rulebook

CASES_DIR = TESTS_DIR / "rule_cases"
BASE: dict[str, Any] = yaml.safe_load((CASES_DIR / "base_facts.yaml").read_text(encoding="utf-8"))
FAMILY_FILES = sorted(path for path in CASES_DIR.glob("*.yaml") if path.name != "base_facts.yaml")


def load_cases() -> list[dict[str, Any]]:
    cases = []
    for path in FAMILY_FILES:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in document["cases"]:
            assert case["rule"].startswith(document["family"]), f"{path.name}: {case['name']}"
            cases.append(case)
    return cases


CASES = load_cases()


def case_facts(case: dict[str, Any]) -> tuple[Fact, Fact | None]:
    """The case's fact (the base fact of its kind with the case's fields) and the workload's facts beside
    it; both are validated, so a case cannot state a field or type the facts do not have."""
    model = FACT_MODELS[case["fact"]]
    own = {**BASE[case["fact"]], **{k: v for k, v in case["facts"].items() if k in model.model_fields}}
    workload = {
        **BASE["workload_facts"],
        **{k: v for k, v in case["facts"].items() if k not in model.model_fields},
    }
    if not model.about_workload:
        assert workload == BASE["workload_facts"], f"{case['name']}: sets fields {case['fact']} facts lack"
        return model(**own), None
    return model(**own), WorkloadFacts(**workload)


def fired(case: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The rules that fire on the case's fact, and (checks) those that apply."""
    fact, workload = case_facts(case)
    with rules_engine().session() as session:
        firings = session.assert_fact(fact, workload)
    return (
        sorted({f.rule_id for f in firings if not f.applicability}),
        sorted({f.rule_id for f in firings if f.applicability}),
    )


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_rule_case(case: dict[str, Any]) -> None:
    violations, applies = fired(case)
    assert violations == sorted(case["fired_exactly"])
    if "applies_exactly" in case:
        assert applies == sorted(case["applies_exactly"])
    assert case["expect"] in ("fires", "silent")
    assert (case["rule"] in violations) == (case["expect"] == "fires")


def test_every_rule_has_a_case_where_it_fires_and_one_where_it_is_silent() -> None:
    firing = {c["rule"] for c in CASES if c["expect"] == "fires"}
    silent = {c["rule"] for c in CASES if c["expect"] == "silent"}
    rule_ids = set(load_rulebook().ids)
    assert rule_ids - firing == set(), "rules without a firing case"
    assert rule_ids - silent == set(), "rules without a silent case"
    assert {c["rule"] for c in CASES} - rule_ids == set(), "cases name unknown rules"


def test_the_base_facts_are_complete() -> None:
    for kind, model in FACT_MODELS.items():
        assert set(BASE[kind]) == set(model.model_fields) - {"kind"}, kind
    assert set(BASE["workload_facts"]) == set(WorkloadFacts.model_fields)


def test_case_files_are_one_per_family() -> None:
    families = {Path(path).stem for path in FAMILY_FILES}
    assert families == {rule_id[:3] for rule_id in load_rulebook().ids}


# --- option exclusions on every kind of listing ------------------------------------------------------------


def test_an_option_exclusion_applies_to_every_listing_that_has_its_field() -> None:
    """A rule's ``exclude_options`` acts on GPU offers, serverless products and API prices alike wherever
    the listing has the field it names: PRV003's ``enterprise_sla = false`` excludes the API prices
    without an SLA, as it excludes the offers of providers known to publish none, and not those whose SLA
    is not established (null); PRV001's ``provider_kind`` is no field of an API price."""
    from gpu_advisor.engine.calc.api_costs import api_listings
    from gpu_advisor.engine.calc.listings import listings
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.pipeline.constraints import api_exclusions, option_fields, rule_exclusions

    knowledge, rulebook = load_knowledge(), load_rulebook()
    sla_rule = rulebook.rule("PRV003")
    apis = api_listings(knowledge)
    assert "enterprise_sla" in option_fields(apis)
    by_sla = api_exclusions(apis, [sla_rule])
    assert [bool(excluded) for excluded in by_sla] == [not listing.api.enterprise_sla for listing in apis]
    assert set(by_sla) == {(), ("PRV003",)}
    offers = listings(knowledge)
    assert [bool(e) for e in rule_exclusions(offers, [sla_rule])] == [
        listing.attributes["enterprise_sla"] is False for listing in offers
    ]
    devops_rule = rulebook.rule("PRV001")
    assert "provider_kind" not in option_fields(apis)
    assert set(api_exclusions(apis, [devops_rule])) == {()}
