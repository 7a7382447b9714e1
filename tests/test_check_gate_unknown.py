"""The gate cannot be passed by leaving a fact out, nor by a waiver the pipeline's owner refuses: a critical
check that cannot tell (``unknown``: a personal-data proposal at AWS that names no region, so RES005 cannot
see the jurisdiction) fails the run, and ``--unwaivable`` refuses the proposal's waivers of a rule (a
proposal's author had waived RES005 with the one word "ok", and ``check`` passed a German company's
personal data in a US region, ``--hard-fail-on RES005`` or not)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main

WORKLOAD = {
    "name": "hr-chat",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "personal_data": True,
    "company_country": "DE",
}
NO_REGION = {
    "name": "aws without a region",
    "deployment": "dedicated_cloud",
    "provider": "aws",
    "gpu": "h100-sxm",
    "gpus": 8,
    "pricing": "on_demand",
}
IN_THE_US = {
    "name": "lambda in the US",
    "deployment": "dedicated_cloud",
    "provider": "lambda",
    "offer": "8-gpu-plan",
    "gpu": "h100-sxm",
    "gpus": 8,
    "pricing": "on_demand",
    "region": "US",
}
WAIVED = [{"rule": "RES005", "reason": "ok"}]


def check(tmp_path: Path, proposal: dict[str, Any], *options: str, waivers: Any = None) -> Any:
    document: dict[str, Any] = {"workload": WORKLOAD, "proposal": proposal}
    if waivers:
        document["waivers"] = waivers
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", *options])


def entry(result: Any) -> dict[str, Any]:
    (found,) = json.loads(result.output)
    return found


def statuses(result: Any) -> dict[str, str]:
    return {item["rule_id"]: item["status"] for item in entry(result)["results"]}


@pytest.mark.parametrize(
    ("options", "exit_code"),
    [
        ((), 1),  # RES005 is critical: its unknown gates
        (("--pass-unknown",), 0),
        (("--soft-fail-on", "RES005"), 0),  # named soft: it does not
        (("--soft-fail-on", "critical"), 0),  # every severity soft
        (("--soft-fail-on", "warning"), 1),  # critical is above warning
        (("--hard-fail-on", "NET002"), 0),  # only what --hard-fail-on names gates (rule 3)
        (("--hard-fail-on", "RES016"), 1),  # RES016 is a warning, and unknown: named by ID, it gates
        (("--hard-fail-on", "critical"), 1),
    ],
)
def test_a_critical_check_that_cannot_tell_fails_the_run(
    tmp_path: Path, options: tuple[str, ...], exit_code: int
) -> None:
    assert statuses(check(tmp_path, NO_REGION, "--format", "json"))["RES005"] == "unknown"
    result = check(tmp_path, NO_REGION, *options)
    assert result.exit_code == exit_code, result.output
    marked = "UNKNOWN RES005 Personal data in a jurisdiction its law does not admit [fails the run]"
    assert (marked in result.output) == (exit_code == 1 and "RES016" not in options)


def test_an_unknown_warning_fails_the_run_only_where_named_by_id(tmp_path: Path) -> None:
    """RES016 (a warning) is unknown too: neither --fail-on warn nor --hard-fail-on warning makes it gate
    (KNB004's warning, no offer named, does under --fail-on warn)."""
    result = check(tmp_path, NO_REGION, "--fail-on", "warn", "--soft-fail-on", "RES005")
    assert result.exit_code == 1
    unmarked = "UNKNOWN RES016 The proposed provider's parent company is within a foreign data-access law\n"
    assert unmarked in result.output
    assert "KNB004 The proposed offer is not in the catalog [fails the run]" in result.output
    severity = check(tmp_path, NO_REGION, "--hard-fail-on", "warning", "--soft-fail-on", "RES005")
    assert unmarked in severity.output


def test_an_unwaivable_waived_failure_counts_and_fails_the_run(tmp_path: Path) -> None:
    assert check(tmp_path, IN_THE_US).exit_code == 1
    assert check(tmp_path, IN_THE_US, waivers=WAIVED).exit_code == 0
    assert check(tmp_path, IN_THE_US, "--hard-fail-on", "RES005", waivers=WAIVED).exit_code == 0
    for named in ("RES005", "critical", "warning"):
        result = check(tmp_path, IN_THE_US, "--unwaivable", named, waivers=WAIVED)
        assert result.exit_code == 1, named
        assert (
            "  FAIL    RES005 Personal data in a jurisdiction its law does not admit [fails the run]\n"
            in (result.output)
        )
        said = "          waived: ok; --unwaivable names this rule: the waiver does not lift it\n"
        assert said in result.output
        assert "0 failed" not in result.output and ", 1 failed, " in result.output
    # Another rule named: RES005's waiver stands.
    assert check(tmp_path, IN_THE_US, "--unwaivable", "RES016", waivers=WAIVED).exit_code == 0
    # The pipeline owner's refusal holds where --hard-fail-on names other rules only.
    assert (
        check(
            tmp_path, IN_THE_US, "--unwaivable", "RES005", "--hard-fail-on", "NET002", waivers=WAIVED
        ).exit_code
        == 1
    )
    found = entry(check(tmp_path, IN_THE_US, "--unwaivable", "RES005", "--format", "json", waivers=WAIVED))
    (res005,) = [item for item in found["results"] if item["rule_id"] == "RES005"]
    assert (found["status"], res005["waived"], res005["waiver_refused"], res005["waiver_reason"]) == (
        "fail",
        False,
        True,
        "ok",
    )
    assert found["counts"]["waived"] == 0


def test_a_proposal_failed_by_a_refused_waiver_is_not_hidden_as_passed(tmp_path: Path) -> None:
    """Every other finding waived: the report used to say '1 proposal passed every check' and exit 1."""
    waivers = [*WAIVED, {"rule": "DEP016", "reason": "ok"}, {"rule": "DEP033", "reason": "ok"}]
    result = check(tmp_path, IN_THE_US, "--unwaivable", "RES005", waivers=waivers)
    assert result.exit_code == 1
    assert "passed every check" not in result.output
    assert "#1 lambda in the US: FAIL\n" in result.output


def test_an_unwaivable_waived_result_is_a_junit_failure_and_a_rejected_sarif_suppression(
    tmp_path: Path,
) -> None:
    junit = check(tmp_path, IN_THE_US, "--unwaivable", "RES005", "--format", "junit", waivers=WAIVED).output
    assert '<failure message="The workload processes personal data' in junit
    assert "fail (waiver refused by --unwaivable: ok): The workload processes personal data" in junit
    sarif = json.loads(
        check(tmp_path, IN_THE_US, "--unwaivable", "RES005", "--format", "sarif", waivers=WAIVED).output
    )
    (res005,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "RES005"]
    assert res005["suppressions"] == [{"kind": "external", "justification": "ok", "status": "rejected"}]
    assert res005["properties"]["gates"] is True
    plain = json.loads(check(tmp_path, IN_THE_US, "--format", "sarif", waivers=WAIVED).output)
    (waived,) = [r for r in plain["runs"][0]["results"] if r["ruleId"] == "RES005"]
    assert waived["suppressions"] == [{"kind": "external", "justification": "ok"}]
    assert waived["properties"]["gates"] is False


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (("--unwaivable", "RES999"), "--unwaivable: unknown value 'RES999'"),
        (
            ("--unwaivable", "RES005", "--soft-fail-on", "RES005"),
            "--unwaivable: RES005 named by both --unwaivable and --soft-fail-on",
        ),
        (
            ("--unwaivable", "RES005", "--skip-rule", "RES005"),
            "--unwaivable: RES005 named by both --unwaivable and --skip-rule",
        ),
        # By severity too: RES005 is critical.
        (
            ("--unwaivable", "RES005", "--soft-fail-on", "critical"),
            "--unwaivable: RES005 named by both --unwaivable and --soft-fail-on",
        ),
        (
            ("--unwaivable", "critical", "--soft-fail-on", "RES005"),
            "--unwaivable: RES005 named by both --unwaivable and --soft-fail-on",
        ),
    ],
)
def test_unwaivable_refusals_are_bad_input(tmp_path: Path, options: tuple[str, ...], said: str) -> None:
    result = check(tmp_path, IN_THE_US, *options, waivers=WAIVED)
    assert result.exit_code == 2
    assert said in result.output


def test_a_waiver_of_a_check_that_cannot_tell_is_said_not_to_lift_it(tmp_path: Path) -> None:
    """RES005 waived on a proposal without its region: the waiver lifts a failure, not an unknown, and
    the report says why the run still fails (it said nothing of the waiver)."""
    result = check(tmp_path, NO_REGION, waivers=[{"rule": "RES005", "reason": "SCCs signed"}])
    assert result.exit_code == 1
    assert (
        "          a waiver lifts a failure or a warning, not a check that cannot tell: give the fact it "
        "needs (waived: SCCs signed)\n"
    ) in result.output


def test_owned_cards_no_catalog_server_prices_are_unknown_on_cost_and_do_not_fail_the_run(
    tmp_path: Path,
) -> None:
    """Eight owned B200: the catalog prices no B200 server, so the proposal has no monthly cost. DEP033
    (advice) said nothing and the proposal passed every check; it is unknown, says why, and an advice
    check that cannot tell does not fail the run unless named (--hard-fail-on DEP033)."""
    owned = {"name": "eight owned B200", "deployment": "own_hardware", "gpu": "b200", "gpus": 8}
    result = check(tmp_path, owned)
    assert result.exit_code == 0, result.output
    assert (
        "  UNKNOWN DEP033 The proposal costs more than the recommendation\n"
        '          Cannot tell whether "The proposal costs more than the recommendation": the catalog prices '
        "no server of the proposed GPU, so the proposal has no monthly cost to compare (gpu-advisor tco "
        "--server-price works one out at a quoted price).\n"
    ) in result.output
    assert check(tmp_path, owned, "--hard-fail-on", "DEP033").exit_code == 1


def test_a_serverless_size_the_catalog_does_not_price_says_so_not_that_fields_are_missing(
    tmp_path: Path,
) -> None:
    """Four H100 a worker at RunPod Serverless: the product and cards are given, and the catalog prices
    no such worker (SIZ018 says so). DEP033 said the proposal does not give its offer and gpus."""
    workload = {**WORKLOAD, "personal_data": False, "model": {"name": "llama-3.1-70b", "precision": "fp8"}}
    document = {
        "workload": workload,
        "proposal": {
            "name": "rp",
            "deployment": "serverless",
            "provider": "runpod",
            "offer": "serverless",
            "gpu": "h100-sxm",
            "gpus": 4,
            "pricing": "serverless",
        },
    }
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    dep033 = next(item for item in entry(result)["results"] if item["rule_id"] == "DEP033")
    assert (dep033["status"], dep033["message"]) == (
        "unknown",
        'Cannot tell whether "The proposal costs more than the recommendation": the catalog prices no '
        "instance of the proposed GPU and cards at this serverless product (SIZ017, SIZ024 or SIZ025 says "
        "why), so the proposal has no monthly cost to compare.",
    )


def test_an_unknown_result_gives_no_placeholder_figure_as_evidence(tmp_path: Path) -> None:
    """DEP033 unknown for eight owned B200 (no price): its evidence showed an extra cost share of 0.0, a
    reader's '0 % more'; only the facts that are known are evidence."""
    owned = {"name": "eight owned B200", "deployment": "own_hardware", "gpu": "b200", "gpus": 8}
    result = check(tmp_path, owned, "--format", "json")
    dep033 = next(item for item in entry(result)["results"] if item["rule_id"] == "DEP033")
    assert (dep033["status"], dep033["evidence"]) == ("unknown", {"recommendation_priced": True})
