"""The rule catalog: every rule is complete, cited, and compiles to the engine's form."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from gpu_advisor.engine.calc.api_costs import api_listings
from gpu_advisor.engine.calc.listing_frames import option_attributes
from gpu_advisor.engine.calc.serverless import serverless_listings
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.rulebook.compiler import compile_rule
from gpu_advisor.engine.rulebook.loading import load_rulebook, load_rulebook_from
from gpu_advisor.engine.rulebook.schema import OPTION_KINDS, OptionFilter, OptionTest
from gpu_advisor.rules import RULE_FILES, RULES_DIR


def test_catalog_files_are_listed_explicitly() -> None:
    assert {p.name for p in RULES_DIR.glob("*.yaml")} - {"coverage.yaml"} == set(RULE_FILES)


def test_ids_are_stable_and_families_match() -> None:
    for file_name in RULE_FILES:
        data = yaml.safe_load((RULES_DIR / file_name).read_text(encoding="utf-8"))
        assert all(rule["id"].startswith(data["family"]) for rule in data["rules"]), file_name


def test_every_rule_cites_a_document_section_and_has_a_rationale() -> None:
    documents = {d.id for d in load_knowledge().documents.documents} - {"gpu-advisor"}
    for rule in load_rulebook().rules:
        assert rule.source.document in documents, rule.id
        assert rule.source.section and rule.rationale.strip() and rule.title.strip(), rule.id


def test_no_number_in_a_rule_condition() -> None:
    for rule in load_rulebook().rules:
        for condition in rule.when:
            assert not isinstance(condition.value, (int, float)) or isinstance(condition.value, bool), rule.id


def test_compiled_form_reads_thresholds_from_data() -> None:
    rule = load_rulebook().rule("DEP001")
    assert compile_rule(rule, {"api_max_requests_per_day": 123}) == {
        "all": [
            {
                "m": {
                    "$and": [
                        {"kind": "workload"},
                        {"$lt": {"requests_per_schedule_day": 123}},
                        {"on_premises_required": False},
                    ]
                }
            }
        ]
    }
    thresholds = load_knowledge().threshold_values()
    assert compile_rule(load_rulebook().rule("DEP003"), thresholds)["all"][0]["m"]["$and"] == [
        {"kind": "api"},
        {"$gte": {"requests_per_schedule_day": thresholds["api_max_requests_per_day"]}},
        {"$lte": {"requests_per_schedule_day": thresholds["self_hosting_min_requests_per_day"]}},
        {"$lte": {"api_usd_per_month": {"$m": "self_hosted_usd_per_month"}}},
        {"api_ruled_out": False},
        {"on_premises_required": False},
        # The guards of the two amounts, which the rule file leaves to the fact declaration.
        {"api_priced": True},
        {"self_hosted_priced": True},
    ]


def write_rules(directory: Path, rules: list[dict]) -> None:
    (directory / "x.yaml").write_text(yaml.safe_dump({"schema_version": 1, "family": "DEP", "rules": rules}))


RULE = {
    "id": "DEP900",
    "name": "test-rule",
    "topic": "deployment",
    "severity": "info",
    "fact": "workload",
    "when": [{"fact": "requests_per_day", "op": "lt", "threshold": "api_max_requests_per_day"}],
    "title": "t",
    "message": "m",
    "rationale": "r",
    "source": {"document": "gpu-choice-2026", "section": "Entscheidungshilfe"},
}


NOT_EU = {"field": "eu", "equals": False}
IN_EEA = {"field": "jurisdiction", "equals": "EEA"}
PROVIDER_X = {"field": "provider", "equals": "x"}
IN_OFFICE = {"field": "housing", "equals": "office"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"when": [{"fact": "request_per_day", "op": "lt", "threshold": "api_max_requests_per_day"}]},
            "'request_per_day' is not a field of workload facts",
        ),
        (
            {"when": [{"fact": "requests_per_day", "op": "lt", "threshold": "api_max"}]},
            "unknown threshold key 'api_max'",
        ),
        ({"when": [{"fact": "personal_data", "value": "yes"}]}, "personal_data is bool, got 'yes'"),
        (
            {"when": [{"fact": "load_pattern", "op": "lt", "threshold": "api_max_requests_per_day"}]},
            "a threshold compares with a number",
        ),
        ({"source": {"document": "nowhere", "section": "x"}}, "unknown document 'nowhere'"),
        ({"see_also": [{"document": "nowhere", "section": "x"}]}, "see_also.0: unknown document 'nowhere'"),
        (
            {"when": [{"fact": "personal_data_region", "value": "eea"}]},
            "personal_data_region is one of eu, ch, uk, us, other, got 'eea'",
        ),
        (
            {"when": [{"fact": "company_region", "op": "in", "values": ["ch", "gb"]}]},
            "company_region is one of eu, ch, uk, us, other, got 'gb'",
        ),
        (
            {"then": {"exclude_options": [{"field": "jurisdiction", "not_in": ["EU", "EEA"]}]}},
            "jurisdiction is never 'EEA' (one of 'CH', 'CN', 'EU', 'UK', 'US', 'unknown'), so the options "
            "it was meant to admit are excluded",
        ),
        (
            {"then": {"exclude_options": [{**NOT_EU, "and_also": [{**IN_EEA}]}]}},
            "jurisdiction is never 'EEA' (one of 'CH', 'CN', 'EU', 'UK', 'US', 'unknown'), so this test "
            "matches no option",
        ),
        # A misspelt provider in an allow-list would exclude the provider it meant to approve.
        (
            {"then": {"exclude_options": [{"field": "provider", "not_in": ["aws", "ovhclod"]}]}},
            "did you mean 'ovhcloud'?), so the options it was meant to admit are excluded",
        ),
        # A yes-or-no field takes true or false: "no" would match no option.
        (
            {"then": {"exclude_options": [{"field": "eu", "equals": "no"}]}},
            "eu is never 'no' (one of false, true), so this test matches no option",
        ),
        (
            {"then": {"exclude_options": [{"field": "pricing", "not_in": ["ondemand", "reserved"]}]}},
            "pricing is never 'ondemand'",
        ),
        (
            {"then": {"exclude_options": [{"field": "gpu", "not_in": ["h100"]}]}},
            "gpu is never 'h100'",
        ),
        # A name field compared with true or false (True == 1 in Python, and no provider is 1).
        (
            {"then": {"exclude_options": [{"field": "provider", "equals": True}]}},
            "provider is never true",
        ),
        (
            {"then": {"exclude_options": [{**NOT_EU, "and_also": [{"field": "managed"}]}]}},
            "gives exactly one of equals or not_in",
        ),
        (
            {
                "then": {
                    "exclude_options": [{"field": "housing", "equals": "office", "and_also": [PROVIDER_X]}]
                }
            },
            "name housing, provider, fields no one kind of option has together",
        ),
    ],
)
def test_bad_rule_declarations_are_rejected(tmp_path: Path, change: dict, message: str) -> None:
    write_rules(tmp_path, [{**RULE, **change}])
    with pytest.raises(KnowledgeError, match=re.escape(message)):
        load_rulebook_from(tmp_path, ("x.yaml",), load_knowledge())


def test_a_proposal_check_naming_a_provider_the_catalog_lacks_is_rejected(tmp_path: Path) -> None:
    """ORG004's allow-list with OVHcloud misspelt would fail every OVHcloud proposal as not approved."""
    check = {
        **RULE,
        "fact": "proposal",
        "when": [{"fact": "provider", "op": "not_in", "values": ["aws", "ovhclod"]}],
        "then": {"verdict": "fail"},
    }
    write_rules(tmp_path, [check])
    with pytest.raises(
        KnowledgeError,
        match=re.escape(
            "field when.0: no provider is named 'ovhclod' in the catalog; did you mean 'ovhcloud'?"
        ),
    ):
        load_rulebook_from(tmp_path, ("x.yaml",), load_knowledge())
    write_rules(
        tmp_path, [{**check, "when": [{"fact": "provider", "op": "not_in", "values": ["aws", "ovhcloud"]}]}]
    )
    assert [r.id for r in load_rulebook_from(tmp_path, ("x.yaml",), load_knowledge()).rules][-1] == "DEP900"


def test_duplicate_rule_ids_are_rejected(tmp_path: Path) -> None:
    write_rules(tmp_path, [RULE, {**RULE, "name": "other"}])
    with pytest.raises(KnowledgeError, match="DEP900: duplicate id"):
        load_rulebook_from(tmp_path, ("x.yaml",), load_knowledge())


def test_numbers_as_literal_values_are_rejected(tmp_path: Path) -> None:
    write_rules(tmp_path, [{**RULE, "when": [{"fact": "requests_per_day", "op": "lt", "value": 10000}]}])
    with pytest.raises(KnowledgeError):
        load_rulebook_from(tmp_path, ("x.yaml",), load_knowledge())


def test_an_option_filter_excludes_only_where_all_its_tests_hold() -> None:
    unmanaged_neocloud = OptionFilter(
        field="provider_kind", equals="neocloud", and_also=(OptionTest(field="managed", equals=False),)
    )
    assert unmanaged_neocloud.fields == {"provider_kind", "managed"}
    assert unmanaged_neocloud.excludes({"provider_kind": "neocloud", "managed": False})
    assert not unmanaged_neocloud.excludes({"provider_kind": "neocloud", "managed": True})
    assert not unmanaged_neocloud.excludes({"provider_kind": "hyperscaler", "managed": False})


def test_the_option_kinds_name_the_fields_each_kind_of_option_has() -> None:
    # The fields a filter may combine are the attributes each kind of listing carries.
    knowledge = load_knowledge()
    offer = knowledge.offers.offers[0]
    rental = option_attributes(offer, "EU", offer.regions, knowledge)
    serverless = serverless_listings(knowledge)[0].attributes
    api = api_listings(knowledge)[0].attributes
    assert set(rental) == set(serverless) == OPTION_KINDS["rental"]
    assert set(api) == OPTION_KINDS["api"]
