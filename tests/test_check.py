"""gpu-advisor check: every applicable rule judges a concrete proposal; exit codes and output formats."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, LAMBDA_UK, TESTS_DIR, case_knowledge, merged

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.rulebook.conclusions import is_bar
from gpu_advisor.engine.rulebook.loading import load_rulebook

CASES: dict[str, Any] = yaml.safe_load(
    (TESTS_DIR / "scenarios" / "proposals.yaml").read_text(encoding="utf-8")
)
# The OASIS SARIF 2.1.0 schema (errata 01), kept beside the tests so the check runs from a clean clone.
SARIF_SCHEMA = TESTS_DIR / "schemas" / "sarif-schema-2.1.0.json"


def document(case: dict[str, Any]) -> dict[str, Any]:
    return {
        "workload": merged(CASES["base_workload"], case.get("workload", {})),
        "proposal": merged(CASES["base_proposal"], case.get("proposal", {})),
        "waivers": case.get("waivers", []),
    }


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: c["name"])
def test_check_case(case: dict[str, Any]) -> None:
    result = check_document(
        ProposalDocument.model_validate(document(case)),
        "case.yaml",
        1,
        dt.date(2026, 11, 30),
        knowledge=case_knowledge(case),
        scenarios=case.get("scenarios"),
        # ``policy``: a directory of examples/ whose organization rules the case runs with.
        policy_dir=str(EXAMPLES_DIR / case["policy"]) if "policy" in case else None,
    )
    statuses = {item.rule_id: item.status for item in result.results}
    for rule_id, expected in case["results"].items():
        assert statuses.get(rule_id) == expected, (
            f"{rule_id}: {statuses.get(rule_id)} != {expected}; {statuses}"
        )
    if "status" in case:
        assert result.status == case["status"]
    assert sorted(item.rule_id for item in result.results if item.waived) == sorted(case.get("waived", []))


def test_every_check_has_a_violating_and_a_passing_case() -> None:
    violated: set[str] = set()
    passed: set[str] = set()
    for case in CASES["cases"]:
        for rule_id, status in case["results"].items():
            if status is not None:  # not applicable: neither
                (passed if status == "pass" else violated).add(rule_id)
    checks = {rule.id for rule in load_rulebook().rules if rule.is_check}
    assert checks - violated == set(), "checks without a violating case"
    assert checks - passed == set(), "checks without a passing case"


def write_cases(tmp_path: Path, names: list[str]) -> Path:
    chosen = [document(c) for c in CASES["cases"] if c["name"] in names]
    path = tmp_path / "proposals.yaml"
    path.write_text(yaml.safe_dump(chosen, sort_keys=False), encoding="utf-8")
    return path


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, [*args, "--as-of", "2026-11-30"], input=stdin)


SOUND = "a sound proposal passes every check"
PCIE = "two H100 PCIe cards for a 70B tensor-parallel replica"
RESERVATION = "a three-year reservation for a variable load"


def test_exit_codes(tmp_path: Path) -> None:
    assert invoke("check", str(write_cases(tmp_path, [SOUND]))).exit_code == 0
    assert invoke("check", str(write_cases(tmp_path, [SOUND, PCIE]))).exit_code == 1
    assert invoke("check", str(write_cases(tmp_path, [SOUND, PCIE])), "--soft-fail").exit_code == 0
    warning_only = write_cases(tmp_path, [RESERVATION])
    assert invoke("check", str(warning_only)).exit_code == 0
    assert invoke("check", str(warning_only), "--fail-on", "warn").exit_code == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("workload: {}\n", "proposal: Field required"),
        ("- 1\n", "a proposal is a mapping with workload and proposal"),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, gpu: h100-sxn}\n",
            "proposal.gpu: unknown value 'h100-sxn'",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: api}\nwaivers: [{rule: NET002, reason: '  '}]\n",
            "a waiver needs a written reason",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: api}\n"
            "waivers: [{rule: DEP016, reason: test}, {rule: NET020, reason: test}]\n",
            "waivers.1.rule: unknown value 'NET020'",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: api}\nwaivers: [{rule: DEP006, reason: test}]\n",
            "waivers.0.rule: DEP006 is a rule of the decision, not a check: it has no outcome to waive; "
            "the checks are DEP016, DEP017,",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 0}\n"
            "proposal: {deployment: api}\n",
            "requests_per_day: Input should be greater than 0",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: lambda, gpu: h100-sxm, region: EU}\n",
            "proposal.region: lambda has no region in EU; its regions are in US",
        ),
        (
            # Only what the provider could be checked in is offered: not CH or EU for Lambda (its US region).
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: lambda, gpu: h100-sxm, region: us-east-1}\n",
            "proposal.region: unknown value 'us-east-1'; allowed: US, us",
        ),
        (
            # AWS lists no on-demand P5 in Frankfurt: it was priced there, with the EU premium on top.
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: aws, offer: p5-on-demand-2026-09,"
            " gpu: h100-sxm, region: eu-central-1}\n",
            "proposal.region: the catalog lists no price of aws p5-on-demand-2026-09 in eu-central-1 (EU); "
            "it lists one in US",
        ),
        (
            # Two HGX servers hold 16 cards: a service cannot run on 20 of them.
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: own_hardware, server: hgx-h100-8, servers: 2, gpus: 20}\n",
            "proposal.gpus: 20, but 2 × hgx-h100-8 hold 16 cards: name the cards the service runs on, at "
            "most all of theirs, or more servers",
        ),
        (
            # Neither server nor GPU named: the servers are the one the evaluation selects (an HGX H100),
            # as the proposal is priced; 100 cards passed, priced as 16 and judged as 100.
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: own_hardware, servers: 2, gpus: 100}\n",
            "proposal.gpus: 100, but 2 × hgx-h100-8 hold 16 cards: name the cards the service runs on, at "
            "most all of theirs, or more servers",
        ),
        (
            # The Stockholm P5 named in Frankfurt: the same jurisdiction, but priced and judged as in
            # Germany, where the catalog lists no P5 of AWS's.
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: aws, offer: p5-on-demand-stockholm,"
            " gpu: h100-sxm, region: eu-central-1}\n",
            "proposal.region: the catalog lists no price of aws p5-on-demand-stockholm in eu-central-1 (DE); "
            "it lists one in eu-north-1 (SE)",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: aws, offer: p5-on-demand-2026-09,"
            " gpu: h100-sxm, region: EU}\n",
            "proposal.region: the catalog lists no price of aws p5-on-demand-2026-09 in EU; it lists one in "
            "US",
        ),
        (
            # A marketplace's offer of variable locations named in the EU: personal data passed the
            # residency check on the proposal's word, where recommend excludes the offer.
            "workload: {name: x, model: {name: llama-3.1-70b, precision: fp8}, requests_per_day: 5,"
            " personal_data: true, company_country: DE}\n"
            "proposal: {deployment: dedicated_cloud, provider: vast, offer: spot, gpu: h100-pcie,"
            " region: EU}\n",
            "proposal.region: the catalog lists no price of vast spot in EU; it lists one in variable "
            "(unknown)",
        ),
        (
            # Priced at the 3-year rate while PRC008 read "on_demand" and passed a variable load.
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: aws, offer: p5-reserved-3y-2026-09,"
            " gpu: h100-sxm, pricing: on_demand}\n",
            "proposal.pricing: on_demand, but aws p5-reserved-3y-2026-09 is sold as reserved",
        ),
        (
            # A mixed fleet on an hourly base was priced as a plain rental without a word.
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: hybrid, provider: lambda, offer: on-demand, gpu: h100-sxm, gpus: 2}\n",
            "proposal.offer: a mixed fleet's busier hours and reserved base go with a reservation; lambda "
            "on-demand bills by the hour",
        ),
        (
            # Priced at the spot rate while PRC007 read "reserved" and passed a latency-sensitive service.
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: aws, offer: p5-spot, gpu: h100-sxm,"
            " pricing: reserved}\n",
            "proposal.pricing: reserved, but aws p5-spot is sold as spot: name the offer sold at the "
            "pricing meant",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: aws, offer: p5-on-demand, gpu: h100-sxm,"
            " pricing: spot}\n",
            "proposal.pricing: spot, but aws p5-on-demand is sold as on_demand",
        ),
        (
            # RunPod's EU data centres are where its serverless endpoints may be pinned; the catalog prices
            # its community pods in variable locations only.
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: runpod, offer: community, gpu: h100-sxm,"
            " region: eu-datacenters}\n",
            "proposal.region: the catalog lists no price of runpod community in eu-datacenters (EU); it "
            "lists one in variable (unknown)",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: vast, gpu: h100-pcie, region: EU}\n",
            "proposal.region: vast has no region in EU; its regions are in variable (unknown)",
        ),
        (
            "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
            "proposal: {deployment: dedicated_cloud, provider: runpod, gpu: h100-sxm, region: mars-1}\n",
            "proposal.region: unknown value 'mars-1'; allowed: EU, eu-datacenters, variable",
        ),
    ],
)
def test_bad_proposals_exit_2(text: str, expected: str) -> None:
    result = invoke("check", "-", stdin=text)
    assert result.exit_code == 2
    assert expected in result.output
    assert "Traceback" not in result.output


def test_a_jurisdiction_on_a_marketplace_with_variable_locations_is_accepted() -> None:
    text = (
        "workload: {name: x, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5}\n"
        "proposal: {deployment: dedicated_cloud, provider: runpod, gpu: h100-sxm, gpus: 1,"
        " pricing: on_demand, region: EU}\n"
    )
    result = invoke("check", "-", stdin=text)
    assert result.exit_code == 0, result.output
    assert "proposal.region" not in result.output


def test_text_and_markdown(tmp_path: Path) -> None:
    path = write_cases(tmp_path, [PCIE])
    text = invoke("check", str(path)).output
    assert "FAIL    NET002 A multi-card replica over PCIe" in text
    markdown = invoke("check", str(path), "--format", "markdown").output
    # The first line is the marker a CI step finds its comment by, to update it in place.
    assert markdown.startswith("<!-- gpu-advisor check -->\n## gpu-advisor check\n")
    assert "| ❌ fail (fails the run) | NET002 | A multi-card replica over PCIe |" in markdown


def test_json_carries_evidence_and_sources(tmp_path: Path) -> None:
    data = json.loads(invoke("check", str(write_cases(tmp_path, [PCIE])), "--format", "json").output)
    net = next(item for item in data[0]["results"] if item["rule_id"] == "NET002")
    assert net["status"] == "fail"
    assert net["evidence"] == {"gpu_known": True, "gpu_interconnect": "pcie", "multi_card": True}
    assert net["source"].startswith("Wie viele GPUs braucht KI-Inferenz")
    assert data[0]["recommendation"]["deployment"] == "dedicated_cloud"


def test_waiver_and_reason_in_every_format(tmp_path: Path) -> None:
    path = write_cases(tmp_path, ["a waived failure does not fail the proposal"])
    result = invoke("check", str(path))
    assert result.exit_code == 0
    assert "waived: two-week load test with a smaller model on the same cards" in result.output
    sarif = json.loads(invoke("check", str(path), "--format", "sarif").output)
    suppressed = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "NET002"]
    assert suppressed[0]["suppressions"][0]["justification"].startswith("two-week load test")


def test_sarif_is_valid_against_the_official_schema(tmp_path: Path) -> None:
    import jsonschema

    path = write_cases(
        tmp_path, [SOUND, PCIE, "personal data without a region on an offer with US and UK regions"]
    )
    document = json.loads(invoke("check", str(path), "--format", "sarif", "--overrides", LAMBDA_UK).output)
    jsonschema.validate(document, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    levels = {(r["ruleId"], r["level"]) for r in document["runs"][0]["results"]}
    assert ("NET002", "error") in levels
    # A check that cannot tell is a result to review: SARIF gives it no level (its kind is not "fail").
    assert ("RES005", "none") in levels


def test_junit_reads_back(tmp_path: Path) -> None:
    from junitparser import Failure, JUnitXml, Skipped

    path = write_cases(tmp_path, [SOUND, PCIE])
    report = tmp_path / "report.xml"
    invoke("check", str(path), "--format", "junit", "-o", str(report))
    xml = JUnitXml.fromfile(str(report))
    suites = list(xml)
    assert len(suites) == 2
    failed = [
        case.name for suite in suites for case in suite if any(isinstance(r, Failure) for r in case.result)
    ]
    assert failed == ["NET002 A multi-card replica over PCIe"]
    assert not any(isinstance(r, Skipped) for suite in suites for case in suite for r in case.result)


def test_schema_command_prints_json_schema() -> None:
    for kind, title in (
        ("workload", "Workload"),
        ("proposal", "ProposalDocument"),
        ("result", "Recommendation"),
        ("check-result", "CheckResult"),
    ):
        result = CliRunner().invoke(main, ["schema", kind])
        assert result.exit_code == 0
        assert json.loads(result.output)["title"] == title


def test_reference_evaluator_agrees_on_every_case() -> None:
    from reference_evaluator import ReferenceEvaluator

    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    reference = ReferenceEvaluator(load_rulebook(), load_knowledge().threshold_values())
    for case in CASES["cases"]:
        parsed = ProposalDocument.model_validate(document(case))
        knowledge = case_knowledge(case)
        engine = check_document(parsed, "case.yaml", 1, dt.date(2026, 11, 30), knowledge=knowledge)
        plain = check_document(
            parsed, "case.yaml", 1, dt.date(2026, 11, 30), evaluator=reference, knowledge=knowledge
        )
        assert engine == plain, case["name"]


def test_show_all_states_a_passing_check_once() -> None:
    """A passing check's line said the rule's title (the condition it looks for, as if it held) and the
    next line repeated it as "Not the case: ..."; now the one line says it is not the case."""
    from helpers import EXAMPLES_DIR

    proposal = str(EXAMPLES_DIR / "proposals" / "public-chat.yaml")
    result = CliRunner().invoke(main, ["check", proposal, "--show-all", "--as-of", "2026-11-30"])
    lines = result.output.splitlines()
    expected = '  PASS    DEP016 Not the case: "The proposal\'s deployment differs from the recommendation".'
    assert expected in lines
    assert sum("The proposal's deployment differs from the recommendation" in line for line in lines) == 1


def test_buying_a_gpu_the_catalog_prices_no_server_of_has_no_cost_not_another_servers() -> None:
    # The catalog prices own servers of h100-sxm and rtx-5090 only: eight H200 to buy have no price (it
    # had quoted the HGX H100 node's $10,425 a month).
    text = (
        "workload: {name: x, model: {name: llama-3.1-70b, precision: fp8}, requests_per_day: 800,"
        " on_premises_required: true, personal_data: true}\n"
        "proposal: {deployment: own_hardware, gpu: h200, gpus: 8}\n"
    )
    data = json.loads(invoke("check", "-", "--format", "json", stdin=text).output)
    assert data[0]["usd_per_month"] is None
    bought = "proposal: {deployment: own_hardware, gpu: h100-sxm, gpus: 8}\n"
    priced = json.loads(
        invoke("check", "-", "--format", "json", stdin=text.split("proposal")[0] + bought).output
    )
    assert priced[0]["usd_per_month"] is not None and priced[0]["usd_per_month"] > 0


@pytest.mark.parametrize(
    "proposal",
    [
        # A marketplace offer of variable locations in them.
        {"provider": "runpod", "offer": "community", "gpu": "h100-sxm", "region": "variable"},
        # GCP's offer is listed in its group of US regions: us-central1 is one of them.
        {"provider": "gcp", "offer": "a3-high-on-demand", "gpu": "h100-sxm", "region": "us-central1"},
        # A serverless proposal is not held to a rental offer of the same name.
        {"deployment": "serverless", "provider": "runpod", "offer": "community", "region": "eu-datacenters"},
    ],
)
def test_a_region_where_the_catalog_prices_the_offer_is_accepted(proposal: dict[str, str]) -> None:
    document = {
        "workload": {
            "name": "x",
            "model": {"name": "llama-3.1-8b", "precision": "bf16"},
            "requests_per_day": 5,
        },
        "proposal": {"deployment": "dedicated_cloud", **proposal},
    }
    result = invoke("check", "-", stdin=json.dumps(document))
    assert result.exit_code in (0, 1), result.output


def test_the_bars_a_proposal_fails_on_are_marked_in_the_rules() -> None:
    """DEP017 fails a proposal only on a rule-out marked a bar (own weights on a model API, data that
    stays in the building, no catalog offer or hardware); every other rule-out weighs cost or strategy,
    and DEP041 warns of it."""
    rules = load_rulebook().rules
    assert sorted(r.id for r in rules if is_bar(r)) == ["DEP005", "DEP006", "DEP009", "DEP015"]
    assert sorted(r.id for r in rules if r.then.rule_out is not None and not is_bar(r)) == [
        "DEP024",
        "DEP042",
        "DEP046",
        "TCO003",
        "TCO004",
        "TCO015",
        "TCO016",
    ]


def test_each_proposal_of_a_file_keeps_its_place_beside_its_waivers() -> None:
    """The second proposal of tests/web/failing-proposal.yaml has a waiver: reading its waivers must not
    change the place the proposal is reported at."""
    result = CliRunner().invoke(
        main,
        [
            "check",
            str(TESTS_DIR / "web" / "failing-proposal.yaml"),
            "--as-of",
            "2026-11-30",
            "--format",
            "json",
        ],
    )
    checked = json.loads(result.output)
    assert [c["index"] for c in checked] == [1, 2]
    assert [c["counts"]["waived"] for c in checked] == [0, 1]


def test_own_hardware_running_on_every_card_its_servers_hold_is_checked() -> None:
    """The refusal's boundary: two HGX servers' 16 cards, named with the servers or not, are checked (and
    priced as the two servers); more are refused (above)."""
    workload = {"name": "x", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 5}
    for proposal in (
        {"deployment": "own_hardware", "servers": 2, "gpus": 16},
        {"deployment": "own_hardware", "server": "hgx-h100-8", "servers": 2, "gpus": 16},
    ):
        document = ProposalDocument.model_validate(
            {"workload": workload, "proposal": {"name": "p", **proposal}}
        )
        result = check_document(document, "p.yaml", 1, dt.date(2026, 12, 6))
        assert round(result.usd_per_month or 0) == 22_015, proposal


def test_owned_servers_whose_named_cards_lose_the_peak_with_a_server_are_warned() -> None:
    """SIZ033 reads the cards the service runs on: three HGX servers running a business-critical 70B on
    12 of their 24 cards carry six 2-card replicas, two a server, and a lost server leaves four where the
    peak needs five; it counted only the servers (three, as many as replicas on all cards need)."""
    workload = {
        "name": "x",
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 1_100_000,
        "avg_input_tokens": 1000,
        "avg_output_tokens": 300,
        "business_critical": True,
        "on_premises_required": True,
        "company_country": "DE",
    }
    proposal = {"name": "p", "deployment": "own_hardware", "server": "hgx-h100-8", "servers": 3, "gpus": 12}
    document = ProposalDocument.model_validate({"workload": workload, "proposal": proposal})
    items = {i.rule_id: i for i in check_document(document, "p.yaml", 1, dt.date(2026, 12, 6)).results}
    assert items["SIZ033"].status == "warn"
    assert items["SIZ033"].message == (
        "The proposal runs 6 replicas on its 3 servers' cards: the loss of the fullest server leaves 4 "
        "where the peak needs 5. Run replicas on all their 24 cards, which keeps the peak through the loss "
        "of any one, or accept the peak short until the server is back."
    )
    document = ProposalDocument.model_validate({"workload": workload, "proposal": {**proposal, "gpus": 24}})
    items = {i.rule_id: i for i in check_document(document, "p.yaml", 1, dt.date(2026, 12, 6)).results}
    assert items["SIZ033"].status == "pass"
