"""gpu-advisor check in a pull-request pipeline: directories, --compare-to, gating by rule and severity,
waivers that expire, SARIF located at each proposal, JUnit failures that match the exit code."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import REPO_ROOT, TESTS_DIR, merged

from gpu_advisor.cli import main

CASES: dict[str, Any] = yaml.safe_load((TESTS_DIR / "scenarios" / "proposals.yaml").read_text("utf-8"))
SCHEMAS = [
    TESTS_DIR / "schemas" / "sarif-schema-2.1.0.json",
    # The copy shared beside the repository, where there is one (the project's CI lays it there).
    REPO_ROOT.parent / "shared" / "schemas" / "sarif-schema-2.1.0.json",
]

SOUND = "a sound proposal passes every check"
PCIE = "two H100 PCIe cards for a 70B tensor-parallel replica"
RESERVATION = "a three-year reservation for a variable load"


def document(name: str, **extra: Any) -> dict[str, Any]:
    case = next(c for c in CASES["cases"] if c["name"] == name)
    return {
        "workload": merged(CASES["base_workload"], case.get("workload", {})),
        "proposal": merged(CASES["base_proposal"], case.get("proposal", {})),
        **extra,
    }


def write(path: Path, *documents: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(list(documents), sort_keys=False), encoding="utf-8")
    return path


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, ["check", *args, "--as-of", "2026-11-30"])


def as_json(*args: str) -> list[dict[str, Any]]:
    result = invoke(*args, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


# --- SARIF ---------------------------------------------------------------------------------------------


def test_sarif_results_sit_at_the_line_of_their_own_proposal(tmp_path: Path) -> None:
    import jsonschema

    path = write(tmp_path / "two.yaml", document(PCIE), document(RESERVATION))
    starts = [n + 1 for n, line in enumerate(path.read_text().splitlines()) if line.startswith("- ")]
    assert len(starts) == 2 and starts[0] == 1 and starts[1] > 1
    sarif = json.loads(invoke(str(path), "--format", "sarif").output)
    for schema in SCHEMAS:
        if schema.exists():
            jsonschema.validate(sarif, json.loads(schema.read_text(encoding="utf-8")))
    lines = {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in sarif["runs"][0]["results"]
    }
    assert ("NET002", starts[0]) in lines
    assert ("PRC008", starts[1]) in lines
    assert {line for _, line in lines} == set(starts)


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (
            "proposals:\n  # first\n  - workload: {}\n    proposal: {}\n  - {workload: {}, proposal: {}}\n",
            [3, 5],
        ),
        ('[\n  {"workload": {},\n   "proposal": {}},\n  {"workload": {}, "proposal": {}}\n]\n', [2, 4]),
        ("\n\nworkload: {}\nproposal: {}\n", [3]),
        ("workload: {}\nproposals:\n  - name: a\n  - {name: b}\n", [3, 4]),
    ],
    ids=["proposals-block-and-flow", "json-list", "one-mapping", "one-workload-its-proposals"],
)
def test_the_line_of_each_proposal(text: str, lines: list[int]) -> None:
    from gpu_advisor.engine.apps.check.files import document_lines

    assert document_lines(text, len(lines)) == lines


def test_sarif_names_the_installed_repository_documentation_not_a_package_index(tmp_path: Path) -> None:
    sarif = json.loads(invoke(str(write(tmp_path / "p.yaml", document(PCIE))), "--format", "sarif").output)
    uri = sarif["runs"][0]["tool"]["driver"].get("informationUri", "")
    assert "pypi.org" not in uri
    # This checkout is installed from its directory (pip's direct_url.json): its own README.
    assert uri.startswith("file://") and uri.endswith("/README.md#checking-a-proposal")


COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (
            {
                "url": "https://github.com/team/gpu-advisor.git",
                "vcs_info": {"vcs": "git", "commit_id": COMMIT},
            },
            f"https://github.com/team/gpu-advisor/blob/{COMMIT}/README.md#checking-a-proposal",
        ),
        (
            {"url": "https://gitlab.com/team/gpu-advisor", "vcs_info": {"vcs": "git", "commit_id": COMMIT}},
            f"https://gitlab.com/team/gpu-advisor/-/blob/{COMMIT}/README.md#checking-a-proposal",
        ),
        (
            {
                "url": "https://git.example.org/team/gpu-advisor.git",
                "vcs_info": {"vcs": "git", "commit_id": COMMIT},
            },
            "https://git.example.org/team/gpu-advisor",
        ),
        (
            {"url": "file:///builds/team/tools/gpu-advisor", "dir_info": {}},
            "file:///builds/team/tools/gpu-advisor/README.md#checking-a-proposal",
        ),
        ({"url": "ssh://git@github.com/team/gpu-advisor.git", "vcs_info": {"vcs": "git"}}, None),
        ({"url": "https://token@github.com/team/gpu-advisor.git", "vcs_info": {"vcs": "git"}}, None),
        ({"url": "file:///tmp/gpu_advisor-0.1.0.tar.gz", "archive_info": {}}, None),
    ],
    ids=["github", "gitlab", "other-host", "path", "ssh", "credentials", "archive"],
)
def test_documentation_uri_from_the_installation_record(
    direct_url: dict[str, Any], expected: str | None
) -> None:
    from gpu_advisor.engine.present.sarif import documentation_uri

    assert documentation_uri(direct_url) == expected


# --- waivers and counts --------------------------------------------------------------------------------


def test_a_waived_warning_is_counted_once(tmp_path: Path) -> None:
    waiver = {"rule": "PRC008", "reason": "the load is planned to level out", "owner": "capacity-team"}
    path = write(tmp_path / "p.yaml", document(RESERVATION, waivers=[waiver]))
    text = invoke(str(path)).output
    # DEP016 and DEP033 still warn (the rules recommend serverless, which costs less); PRC008 is waived
    # and counted as such only.
    assert "  24 passed, 2 with warnings, 0 failed, 0 unknown, 1 waived\n" in text
    assert "waived: the load is planned to level out (owner: capacity-team)" in text
    (result,) = as_json(str(path))
    assert result["counts"] == {"pass": 24, "warn": 2, "fail": 0, "unknown": 0, "waived": 1}


def test_an_expired_waiver_fails_the_run_again(tmp_path: Path) -> None:
    # A rule ID in small letters, as --skip-rule and `rules show` take it (it was refused).
    waiver = {"rule": "net002", "reason": "load test", "owner": "platform-team", "until": "2026-11-29"}
    path = write(tmp_path / "p.yaml", document(PCIE, waivers=[waiver]))
    result = invoke(str(path))
    assert result.exit_code == 1
    assert "WARN    KNB006 A waiver is past its end date" in result.output
    assert (
        "The waiver of NET002 (2026-11-29, platform-team) (rule, end date, owner) has ended" in result.output
    )
    # The day before, it still held.
    assert CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-29"]).exit_code == 0


def test_a_waiver_end_date_must_be_a_date(tmp_path: Path) -> None:
    waiver = {"rule": "NET002", "reason": "load test", "until": "end of quarter"}
    result = invoke(str(write(tmp_path / "p.yaml", document(PCIE, waivers=[waiver]))))
    assert result.exit_code == 2
    assert "waivers.0.until" in result.output and "a date as YYYY-MM-DD" in result.output
    assert "Traceback" not in result.output


# --- gating --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "options", "exit_code"),
    [
        (PCIE, [], 1),
        (PCIE, ["--soft-fail-on", "NET002"], 0),
        (PCIE, ["--soft-fail-on", "critical"], 0),
        (PCIE, ["--hard-fail-on", "PRC008"], 0),  # only PRC008 gates, and it passes
        (PCIE, ["--hard-fail-on", "warning"], 1),  # critical is above warning
        (
            PCIE,
            ["--hard-fail-on", "critical", "--soft-fail-on", "NET002"],
            0,
        ),  # a named rule before a severity
        (PCIE, ["--hard-fail-on", "NET002", "--soft-fail-on", "critical"], 1),
        (PCIE, ["--skip-rule", "NET002"], 0),
        (PCIE, ["--skip-rule", "net002"], 0),  # as `rules show` takes an ID (it was refused)
        (PCIE, ["--soft-fail"], 0),
        (RESERVATION, [], 0),
        (RESERVATION, ["--fail-on", "warn"], 1),
        (RESERVATION, ["--hard-fail-on", "PRC008"], 1),  # a warning of a named rule gates
        (RESERVATION, ["--hard-fail-on", "critical"], 0),  # PRC008 is advice
        (RESERVATION, ["--fail-on", "warn", "--soft-fail-on", "advice"], 0),
        (RESERVATION, ["--fail-on", "warn", "--soft-fail-on", "PRC008"], 1),  # DEP016 still warns
        (RESERVATION, ["--fail-on", "warn", "--soft-fail-on", "DEP016,PRC008"], 1),  # DEP033 warns
        (RESERVATION, ["--fail-on", "warn", "--soft-fail-on", "DEP016,DEP033,PRC008"], 0),
    ],
)
def test_gating_by_rule_and_severity(tmp_path: Path, case: str, options: list[str], exit_code: int) -> None:
    result = invoke(str(write(tmp_path / "p.yaml", document(case))), *options)
    assert result.exit_code == exit_code, result.output


def test_skip_rule_leaves_the_rule_out_and_works_out_the_status_again(tmp_path: Path) -> None:
    path = write(tmp_path / "p.yaml", document(PCIE))
    (before,) = as_json(str(path))
    assert before["status"] == "fail"
    (after,) = as_json(str(path), "--skip-rule", "NET002")
    assert "NET002" not in {item["rule_id"] for item in after["results"]}
    assert after["status"] == "warn" and after["counts"]["fail"] == 0
    assert after["counts"]["pass"] == before["counts"]["pass"]


@pytest.mark.parametrize("option", ["--hard-fail-on", "--soft-fail-on", "--skip-rule"])
def test_an_unknown_rule_or_severity_is_bad_input(tmp_path: Path, option: str) -> None:
    result = invoke(str(write(tmp_path / "p.yaml", document(PCIE))), option, "NET020")
    assert result.exit_code == 2
    assert f"{option}: unknown value 'NET020'" in result.output


def junit_failures(xml: str) -> list[str]:
    from junitparser import Failure, JUnitXml

    report = JUnitXml.fromstring(xml)
    return [
        case.name for suite in report for case in suite if any(isinstance(r, Failure) for r in case.result)
    ]


def test_junit_reports_what_gates_the_run_as_failures(tmp_path: Path) -> None:
    path = str(write(tmp_path / "p.yaml", document(RESERVATION)))
    title = "PRC008 A 1- to 3-year reservation for a load that is not steady"
    assert junit_failures(invoke(path, "--format", "junit").output) == []
    assert "warn (does not fail the run)" in invoke(path, "--format", "junit").output
    differs = "DEP016 The proposal's deployment differs from the recommendation"
    dearer = "DEP033 The proposal costs more than the recommendation"
    failures = junit_failures(invoke(path, "--format", "junit", "--fail-on", "warn").output)
    assert failures == [differs, dearer, title]
    assert junit_failures(invoke(path, "--format", "junit", "--hard-fail-on", "PRC008").output) == [title]
    pcie = str(write(tmp_path / "pcie.yaml", document(PCIE)))
    assert junit_failures(invoke(pcie, "--format", "junit", "--soft-fail-on", "NET002").output) == []


def test_one_workload_beside_its_proposals(tmp_path: Path) -> None:
    """``workload`` beside ``proposals: [...]`` (and ``waivers`` that hold for each): every proposal is
    checked against that one workload, each reported at the line its list item starts on, with the
    results of the same proposals written out as documents of their own."""
    workload = document(PCIE)["workload"]
    proposals = [document(PCIE)["proposal"], document(RESERVATION)["proposal"]]
    waivers = [{"rule": "NET002", "reason": "load test"}]
    path = tmp_path / "shared.yaml"
    shared = {"workload": workload, "proposals": proposals, "waivers": waivers}
    path.write_text(yaml.safe_dump(shared, sort_keys=False), encoding="utf-8")
    starts = [n + 1 for n, line in enumerate(path.read_text().splitlines()) if line.startswith("- ")]
    separate = write(
        tmp_path / "separate.yaml",
        # Copies: YAML would write the shared objects as aliases, which gpu-advisor's input refuses.
        *(
            copy.deepcopy({"workload": workload, "proposal": proposal, "waivers": waivers})
            for proposal in proposals
        ),
    )
    together, apart = as_json(str(path)), as_json(str(separate))
    assert [r["line"] for r in together] == starts[:2]
    assert [r["results"] for r in together] == [r["results"] for r in apart]
    # The waivers beside the workload hold for each proposal: the PCIe pair's NET002 failure is waived.
    assert any(item["rule_id"] == "NET002" and item.get("waived") for item in together[0]["results"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "workload: {}\nproposals: [{name: a}]\nname: team\n",
            "beside workload and proposals a file takes waivers only (got name)",
        ),
        ("workload: {}\nproposals: {name: a}\n", "proposals: a list of proposals, each as under proposal:"),
        ("workload: {}\nproposals: []\n", "no proposal in the file"),
    ],
    ids=["another-key", "proposals-a-mapping", "no-proposal"],
)
def test_a_shared_workload_file_that_is_not_one_says_what_it_takes(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "shared.yaml"
    path.write_text(text, encoding="utf-8")
    result = invoke(str(path))
    assert result.exit_code == 2
    assert result.output == f"error: {path}: {expected}\n"


def test_control_characters_in_a_proposals_free_text_are_refused(tmp_path: Path) -> None:
    """A proposal name or a waiver reason with a control character broke the JUnit report (XML refuses
    it) and rang the terminal; a reason may still run over lines."""
    bad_name = document(RESERVATION)
    bad_name["proposal"] = {**bad_name["proposal"], "name": "x\u0001y"}
    refused = invoke(str(write(tmp_path / "n.yaml", bad_name)))
    assert refused.exit_code == 2
    assert (
        "proposal.name: one line of text, without control characters such as tabs or line breaks "
        "(got 'x\\x01y')\n" in refused.output
    )
    waiver = {"rule": "PRC008", "reason": "ok\u0001bad"}
    refused = invoke(str(write(tmp_path / "w.yaml", document(RESERVATION, waivers=[waiver]))))
    assert refused.exit_code == 2
    assert (
        "waivers.0.reason: text without control characters other than tabs and line breaks "
        "(got 'ok\\x01bad')\n" in refused.output
    )
    lines = {"rule": "PRC008", "reason": "the load is planned\nto level out"}
    assert invoke(str(write(tmp_path / "l.yaml", document(RESERVATION, waivers=[lines])))).exit_code == 0


def test_one_rule_waived_twice_is_refused(tmp_path: Path) -> None:
    """Two waivers of one rule were accepted and the report showed the last reason alone."""
    waivers = [{"rule": "PRC008", "reason": "x"}, {"rule": "PRC008", "reason": "y"}]
    refused = invoke(str(write(tmp_path / "w.yaml", document(RESERVATION, waivers=waivers))))
    assert refused.exit_code == 2
    assert "waivers: PRC008 waived twice; one waiver a rule" in refused.output
