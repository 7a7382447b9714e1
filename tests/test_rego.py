"""The examples for approval pipelines, checked by real clients.

The Rego policies in ``examples/policies`` are evaluated by a real Rego interpreter (``regopy``, a declared
test dependency: without it this module fails to import, it does not skip) against real JSON results of the
example workloads, and against results derived from real ones, so that every ``deny`` and ``warn`` rule is
shown to fire and to stay silent. The CI definitions in ``examples/ci`` are parsed as YAML, and every
gpu-advisor command line in them is checked against the real command-line interface.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import click
import pytest
import regopy
import yaml
from helpers import EXAMPLES_DIR

from gpu_advisor import api
from gpu_advisor.cli import main

POLICY_DIR = EXAMPLES_DIR / "policies"
CI_DIR = EXAMPLES_DIR / "ci"
EVALUATED_ON = dt.date(2026, 11, 30)
PACKAGES = ("budget", "findings", "residency", "spot")

Result = dict[str, Any]
Verdicts = dict[str, set[str]]


# --- evaluating the policies ---------------------------------------------------------------------------


@functools.cache
def _recommendation(example: str, overrides_json: str) -> Result:
    overrides = json.loads(overrides_json)
    if overrides:
        workload = yaml.safe_load((EXAMPLES_DIR / f"{example}.yaml").read_text(encoding="utf-8"))
        workload.update(overrides)
        loaded = api.workload_from_dict(workload, f"{example} (modified)")
    else:
        loaded = api.load_workload(str(EXAMPLES_DIR / f"{example}.yaml"))
    return api.recommend(loaded, evaluated_on=EVALUATED_ON).model_dump(mode="json")


def real_result(example: str, **workload_changes: Any) -> Result:
    """The JSON result of an example workload (optionally with changed inputs), as the engine gives it."""
    return copy.deepcopy(_recommendation(example, json.dumps(workload_changes, sort_keys=True)))


def interpreter(data: dict[str, Any] | None = None) -> regopy.Interpreter:
    """Every policy loaded at once, as ``conftest test --all-namespaces --policy examples/policies`` does."""
    rego = regopy.Interpreter()
    if data is not None:
        rego.add_data(data)
    for path in sorted(POLICY_DIR.glob("*.rego")):
        rego.add_module(path.name, path.read_text(encoding="utf-8"))
    return rego


def set_input(rego: regopy.Interpreter, result: Result) -> None:
    """The result as JSON text, as conftest and OPA read a result file. (``set_input`` with a Python dict
    would round floats to six decimals, so that a cost could not be compared exactly with a budget.)"""
    rego.set_input_term(json.dumps(result))


def query(rego: regopy.Interpreter, expression: str) -> Any:
    output = rego.query(expression)
    assert output.ok(), f"{expression}: {output}"
    assert len(output) == 1, f"{expression}: {output}"
    (value,) = output[0].expressions
    return value


def verdicts(result: Result, data: dict[str, Any] | None = None) -> Verdicts:
    """Every non-empty ``deny`` and ``warn`` set, keyed ``package.rule`` (a package may define only one)."""
    rego = interpreter(data)
    set_input(rego, result)
    found: Verdicts = {}
    for package in PACKAGES:
        document = query(rego, f"data.gpu_advisor.{package}")
        for rule in ("deny", "warn"):
            messages = document.get(rule, [])
            assert isinstance(messages, list), f"{package}.{rule} is not a set: {messages!r}"
            assert all(isinstance(message, str) for message in messages)
            assert len(set(messages)) == len(messages)
            if messages:
                found[f"{package}.{rule}"] = set(messages)
    return found


def choose(result: Result, provider: str, offer: str, jurisdiction: str) -> Result:
    """The result with the chosen option moved to another of its real options, the decision to match."""
    matches = [
        option
        for option in result["options"]
        if (option["provider"], option["offer"], option["jurisdiction"]) == (provider, offer, jurisdiction)
    ]
    assert len(matches) == 1, f"no single option {provider} {offer} {jurisdiction}"
    for option in result["options"]:
        option["chosen"] = option is matches[0]
    decision = result["decision"]
    decision.update(
        deployment="dedicated_cloud",
        provider=provider,
        offer=offer,
        pricing=matches[0]["pricing"],
        gpu=matches[0]["gpu"],
        gpus=matches[0]["gpus"],
        usd_per_month=matches[0]["usd_per_month"],
    )
    return result


def chosen(result: Result) -> list[tuple[str, str, str, str, bool]]:
    return [
        (o["provider"], o["offer"], o["pricing"], o["jurisdiction"], o["eu"])
        for o in result["options"]
        if o["chosen"]
    ]


# --- the policies load and answer in the conftest convention -------------------------------------------


def test_every_policy_is_a_gpu_advisor_package_with_deny_and_warn_sets() -> None:
    assert sorted(path.stem for path in POLICY_DIR.glob("*.rego")) == sorted(PACKAGES)
    rego = interpreter()
    set_input(rego, real_result("public-chat"))
    packages = query(rego, "data.gpu_advisor")
    assert sorted(packages) == sorted(PACKAGES)
    assert all("deny" in packages[name] for name in PACKAGES)
    assert {name for name in PACKAGES if "warn" in packages[name]} == {"budget", "findings"}


def test_a_broken_policy_is_an_error_not_an_empty_set() -> None:
    rego = regopy.Interpreter()
    with pytest.raises(regopy.RegoError):
        rego.add_module("broken.rego", "package gpu_advisor.broken\n\ndeny contains msg if { msg := }\n")
        rego.query("data.gpu_advisor.broken.deny")


# --- real results of the example workloads -------------------------------------------------------------


def knb(workload: str, *rule_ids: str) -> set[str]:
    return {
        f"workload {workload}: finding {rule_id} needs review before approval "
        f"(gpu-advisor rules show {rule_id})"
        for rule_id in rule_ids
    }


REAL_EXAMPLES: dict[str, Verdicts] = {
    # Personal data, and the engine chose an EU option: residency stays silent.
    # Scaleway's own September price: no stale price (KNB001) any more.
    "hr-assistant": {"findings.warn": knb("hr-assistant", "KNB003")},
    # Personal data on own hardware, 20,851 USD a month at a German company's cost defaults (power, staff;
    # the documents' rack, as the data stays in the building): over the default budget of 20,000.
    "deepseek-on-premises": {
        "budget.warn": {
            "workload research-reasoning: the decision own_hardware (hgx-h100-8) costs 20851 USD per month, "
            "over the budget of 20000 USD per month"
        }
    },
    # The managed API; its stated utilization is near enough the load's busy share.
    "internal-assistant": {},
    # A serverless B200 batch at a price of August 2026: nothing stale.
    "nightly-batch": {},
    # The managed API without personal data: nothing to say.
    "prototype": {},
    # The managed API of the same model, priced in November 2026.
    "public-chat": {},
}


def test_every_example_workload_is_covered() -> None:
    assert sorted(REAL_EXAMPLES) == sorted(path.stem for path in EXAMPLES_DIR.glob("*.yaml"))


@pytest.mark.parametrize("example", sorted(REAL_EXAMPLES))
def test_real_result_of_example(example: str) -> None:
    assert verdicts(real_result(example)) == REAL_EXAMPLES[example]


def test_the_facts_the_real_results_rest_on() -> None:
    """What makes the silent residency and spot verdicts above meaningful."""
    hr = real_result("hr-assistant")
    assert hr["workload"]["personal_data"] is True
    assert chosen(hr) == [("scaleway", "h100-sxm-8-80g", "on_demand", "EU", True)]
    deepseek = real_result("deepseek-on-premises")
    assert deepseek["workload"]["personal_data"] is True
    assert deepseek["decision"]["deployment"] == "own_hardware"
    assert round(deepseek["decision"]["usd_per_month"]) == 20851
    assert chosen(deepseek) == []
    public_chat = real_result("public-chat")
    assert public_chat["workload"]["latency_sensitive"] is True
    assert public_chat["decision"]["deployment"] == "api" and chosen(public_chat) == []
    nightly = real_result("nightly-batch")
    assert chosen(nightly) == [("runpod", "community", "on_demand", "unknown", False)]
    assert real_result("prototype")["decision"]["deployment"] == "api"


# --- residency -----------------------------------------------------------------------------------------


def outside(workload: str, region: str, provider: str, offer: str, pricing: str, jurisdiction: str) -> str:
    return (
        f"workload {workload} handles personal data (people in: {region}), but the chosen option {provider} "
        f"{offer} ({pricing}, jurisdiction {jurisdiction}) lies outside the jurisdictions its law admits"
    )


def test_residency_denies_personal_data_on_the_chosen_non_eu_option() -> None:
    result = real_result("nightly-batch")
    result["workload"]["personal_data"] = True
    assert result["workload"]["personal_data_region"] == "ch"  # from the company's country, CH
    assert verdicts(result)["residency.deny"] == {
        outside("nightly-reports", "ch", "runpod", "community", "on_demand", "unknown")
    }


def test_residency_denies_a_chosen_option_moved_out_of_the_eu() -> None:
    result = choose(real_result("hr-assistant"), "aws", "p5-on-demand", "US")
    assert verdicts(result)["residency.deny"] == {
        outside("hr-assistant", "eu", "aws", "p5-on-demand", "on_demand", "US")
    }


def test_residency_accepts_a_chosen_option_moved_within_the_eu() -> None:
    result = choose(real_result("hr-assistant"), "aws", "p5-on-demand-stockholm", "EU")
    assert "residency.deny" not in verdicts(result)


def test_residency_accepts_a_uk_option_for_swiss_personal_data_and_denies_a_us_one() -> None:
    swiss = real_result("hr-assistant", company_country="CH")
    assert swiss["workload"]["personal_data_region"] == "ch"
    assert chosen(swiss) == [("lambda", "on-demand", "on_demand", "UK", False)]
    assert "residency.deny" not in verdicts(swiss)
    moved = choose(swiss, "aws", "p5-on-demand", "US")
    assert verdicts(moved)["residency.deny"] == {
        outside("hr-assistant", "ch", "aws", "p5-on-demand", "on_demand", "US")
    }


def test_residency_accepts_a_us_option_for_us_personal_data_of_a_us_company() -> None:
    result = choose(real_result("hr-assistant", company_country="US"), "aws", "p5-on-demand", "US")
    assert result["workload"]["personal_data_region"] == "us"
    assert "residency.deny" not in verdicts(result)


def test_residency_holds_a_company_in_the_eu_to_the_engine_exclusions_for_us_personal_data() -> None:
    # The people's region (us) sets no limit of its own; the company's law does, through RES006.
    result = real_result("hr-assistant", personal_data_region="us")
    assert {o["jurisdiction"] for o in result["options"] if "RES006" in o["excluded_by"]} == {
        "US",
        "UK",
        "unknown",
    }
    moved = choose(result, "aws", "p5-on-demand", "US")
    assert verdicts(moved)["residency.deny"] == {
        outside("hr-assistant", "us", "aws", "p5-on-demand", "on_demand", "US")
    }


def test_residency_denies_personal_data_sent_to_a_managed_api() -> None:
    result = real_result("prototype")
    result["workload"]["personal_data"] = True
    assert verdicts(result)["residency.deny"] == {
        "workload support-prototype handles personal data, but the decision sends it to the managed API "
        "llama-3.1-70b-deepinfra (processing in unknown)"
    }


def test_residency_lets_us_personal_data_of_a_us_company_go_to_a_managed_api() -> None:
    result = real_result("prototype", company_country="US")
    result["workload"]["personal_data"] = True
    result["workload"]["personal_data_region"] = "us"
    assert result["decision"]["deployment"] == "api"
    assert "residency.deny" not in verdicts(result)


def test_residency_admits_personal_data_at_an_api_that_processes_in_the_eu() -> None:
    result = real_result("prototype", personal_data=True)
    # The cheapest 70B API that processes requests in the EU (IONOS, Germany).
    assert result["decision"] == {**result["decision"], "deployment": "api", "offer": "llama-3.3-70b-ionos"}
    assert "residency.deny" not in verdicts(result)


# --- budget --------------------------------------------------------------------------------------------


def test_budget_warns_over_a_budget_given_as_data() -> None:
    result = real_result("deepseek-on-premises")
    assert verdicts(result, {"budget": {"usd_per_month": 15000}})["budget.warn"] == {
        "workload research-reasoning: the decision own_hardware (hgx-h100-8) costs 20851 USD per month, "
        "over the budget of 15000 USD per month"
    }


def test_budget_default_is_20000_usd() -> None:
    result = real_result("deepseek-on-premises")
    result["decision"]["usd_per_month"] = 19999.99
    assert "budget.warn" not in verdicts(result)
    result["decision"]["usd_per_month"] = 20000.01
    assert verdicts(result)["budget.warn"] == {
        "workload research-reasoning: the decision own_hardware (hgx-h100-8) costs 20000 USD per month, "
        "over the budget of 20000 USD per month"
    }


def test_budget_is_silent_at_exactly_the_budget() -> None:
    result = real_result("deepseek-on-premises")
    exact = {"budget": {"usd_per_month": result["decision"]["usd_per_month"]}}
    assert "budget.warn" not in verdicts(result, exact)


def test_budget_names_the_managed_api_it_warns_about() -> None:
    result = real_result("prototype")
    # 3,000 requests a day x 30.42 days x 450 tokens x 0.40 USD per million = $16.43.
    assert verdicts(result, {"budget": {"usd_per_month": 15}})["budget.warn"] == {
        "workload support-prototype: the decision api (llama-3.1-70b-deepinfra) costs 16 USD per month, "
        "over the budget of 15 USD per month"
    }


def test_budget_is_silent_without_a_monthly_cost() -> None:
    # Above the largest hosted model: the catalog has no price for the API it recommends.
    result = real_result("prototype", model={"params_b": 1000, "precision": "fp8"})
    assert result["decision"]["usd_per_month"] is None
    assert "budget.warn" not in verdicts(result, {"budget": {"usd_per_month": 1}})


@pytest.mark.parametrize(
    ("budget", "shown"), [("lots", "lots"), (0, "0"), (-5, "-5")], ids=["text", "zero", "negative"]
)
def test_budget_that_is_not_a_positive_number_is_denied(budget: Any, shown: str) -> None:
    result = real_result("deepseek-on-premises")
    result["decision"]["usd_per_month"] = 19999.99  # under the default budget
    found = verdicts(result, {"budget": {"usd_per_month": budget}})
    assert found["budget.deny"] == {
        f"data.budget.usd_per_month must be a positive number of USD, got {shown}"
    }
    assert "budget.warn" not in found


# --- spot ----------------------------------------------------------------------------------------------


def test_spot_is_accepted_for_a_batch_workload() -> None:
    result = choose(real_result("nightly-batch"), "vast", "spot", "unknown")
    assert result["workload"]["latency_sensitive"] is False
    assert chosen(result) == [("vast", "spot", "spot", "unknown", False)]
    assert "spot.deny" not in verdicts(result)


def test_spot_is_denied_for_a_latency_sensitive_workload() -> None:
    result = choose(real_result("nightly-batch"), "vast", "spot", "unknown")
    result["workload"]["latency_sensitive"] = True
    assert verdicts(result)["spot.deny"] == {
        "workload nightly-reports is latency-sensitive, but the chosen option vast spot is spot capacity, "
        "which can be reclaimed at any time"
    }


def test_spot_is_silent_for_a_latency_sensitive_workload_on_demand() -> None:
    result = real_result("nightly-batch")
    result["workload"]["latency_sensitive"] = True
    assert "spot.deny" not in verdicts(result)


# --- findings ------------------------------------------------------------------------------------------


def test_findings_lists_come_from_data() -> None:
    rules = {"findings": {"warn_rule_ids": [], "deny_rule_ids": ["RES001", "TCO005"]}}
    assert verdicts(real_result("hr-assistant"), rules) == {
        "findings.deny": {
            "workload hr-assistant: finding RES001 blocks approval (gpu-advisor rules show RES001)"
        }
    }
    assert verdicts(real_result("prototype"), rules) == {}


# --- the CI examples -----------------------------------------------------------------------------------


def load_ci(name: str) -> dict[Any, Any]:
    document = yaml.safe_load((CI_DIR / name).read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def github_scripts(workflow: dict[Any, Any]) -> dict[str, str]:
    return {
        f"{job_id}: {step.get('name', index)}": step["run"]
        for job_id, job in workflow["jobs"].items()
        for index, step in enumerate(job["steps"])
        if "run" in step
    }


def gitlab_scripts(pipeline: dict[Any, Any]) -> dict[str, str]:
    return {
        f"{job_id}: {key} {index}": line
        for job_id, job in pipeline.items()
        if isinstance(job, dict)
        for key in ("before_script", "script")
        for index, line in enumerate(job.get(key, []))
    }


def gpu_advisor_commands(scripts: dict[str, str]) -> list[list[str]]:
    """Every ``gpu-advisor ...`` command line of the scripts, split into words."""
    commands = []
    for script in scripts.values():
        for line in script.replace("\\\n", " ").splitlines():
            match = re.search(r"\bgpu-advisor ([a-z]+ .*)", line)
            if match and not line.lstrip().startswith("#"):
                words = shlex.split(match.group(1).split("||")[0].split(" 2>")[0].split(" <")[0])
                commands.append(words)
    return commands


def options_of(command: str) -> dict[str, click.Option]:
    assert isinstance(main, click.Group)
    params = main.commands[command].params
    return {name: param for param in params if isinstance(param, click.Option) for name in param.opts}


def assert_real_command_lines(commands: list[list[str]]) -> set[tuple[str, str]]:
    """Each command and option exists in the command-line interface, each --format value is allowed;
    the (command, format) pairs used."""
    assert commands
    for words in commands:
        options = options_of(words[0])
        for index, word in enumerate(words):
            if word.startswith("-"):
                assert word in options, f"gpu-advisor {words[0]} has no option {word}"
                choice = options[word].type
                if isinstance(choice, click.Choice):
                    assert words[index + 1] in choice.choices, f"{' '.join(words)}: {words[index + 1]}"
    return {(words[0], words[words.index("--format") + 1]) for words in commands}


def test_github_actions_workflow() -> None:
    workflow = load_ci("github-actions.yml")
    trigger = workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key "on" as true
    assert trigger == {"pull_request": {"paths": ["proposals/**"]}}
    assert set(workflow["jobs"]) == {"changes", "check", "comment", "policies"}
    scripts = github_scripts(workflow)
    text = "\n".join(scripts.values())
    assert 'git diff --name-only --diff-filter=ACMR "$BASE_SHA...$HEAD_SHA" -- proposals/' in text
    assert 'gpu-advisor check "$PROPOSAL" "${org[@]}" --format markdown --output check.md' in text
    assert 'gpu-advisor check "$PROPOSAL" "${org[@]}" --format sarif --output gpu-advisor.sarif' in text
    assert 'gh pr comment "$PR_NUMBER" --body-file comment.md' in text
    assert 'gpu-advisor recommend "$workload" "${org[@]}" --format json' in text
    assert 'org=(--policy "$ORG_POLICY_DIR")' in text
    assert "--policy" in options_of("check") and "--policy" in options_of("recommend")
    assert 'test --all-namespaces --policy "$REGO_DIR"' in text
    check_steps = workflow["jobs"]["check"]["steps"]
    assert any(step.get("uses", "").startswith("github/codeql-action/upload-sarif@") for step in check_steps)
    assert workflow["jobs"]["check"]["permissions"]["security-events"] == "write"
    assert workflow["jobs"]["comment"]["permissions"]["pull-requests"] == "write"
    # Pull-request data reaches the scripts only through the environment, never as inline expressions.
    assert not [name for name, script in scripts.items() if "${{" in script]
    assert assert_real_command_lines(gpu_advisor_commands(scripts)) == {
        ("check", "markdown"),
        ("check", "sarif"),
        ("recommend", "json"),
    }


def test_gitlab_ci_job() -> None:
    pipeline = load_ci("gitlab-ci.yml")
    jobs = {name for name, job in pipeline.items() if isinstance(job, dict) and "script" in job}
    assert jobs == {"gpu-advisor-check", "gpu-advisor-recommend", "gpu-advisor-policies"}
    for name in jobs:
        rules = pipeline[name].get("rules") or pipeline[pipeline[name]["extends"]]["rules"]
        assert rules == [
            {"if": '$CI_PIPELINE_SOURCE == "merge_request_event"', "changes": ["proposals/**/*"]}
        ]
    assert pipeline["gpu-advisor-check"]["artifacts"]["reports"]["junit"] == "gpu-advisor/*.junit.xml"
    assert pipeline["gpu-advisor-policies"]["needs"] == ["gpu-advisor-recommend"]
    scripts = gitlab_scripts(pipeline)
    text = "\n".join(scripts.values())
    assert '"$CI_MERGE_REQUEST_DIFF_BASE_SHA" HEAD -- proposals/' in text
    assert 'gpu-advisor check "$proposal" "$@" --format markdown --output "gpu-advisor/$name.md"' in text
    assert 'gpu-advisor check "$proposal" "$@" --format junit --output "gpu-advisor/$name.junit.xml"' in text
    assert "/merge_requests/$CI_MERGE_REQUEST_IID/notes" in text
    assert 'gpu-advisor recommend "$workload" "$@" --format json' in text
    assert 'set -- --policy "$ORG_POLICY_DIR"' in text
    assert "--policy" in options_of("check") and "--policy" in options_of("recommend")
    assert 'set -- --all-namespaces --policy "$REGO_DIR"' in text
    assert 'conftest test "$@" results/*.json' in text
    assert assert_real_command_lines(gpu_advisor_commands(scripts)) == {
        ("check", "markdown"),
        ("check", "junit"),
        ("recommend", "json"),
    }


def embedded_python(script: str) -> str:
    match = re.search(r"python - <<'PY'\n(.*?)\n\s*PY\n", script, re.DOTALL)
    assert match, "no embedded Python program"
    return textwrap.dedent(match.group(1))


PROPOSAL_FILES = {
    # One proposal, a list of them, a mapping with "proposals", and a file gpu-advisor check rejects.
    "proposals/one.yaml": {"workload": {"name": "a"}, "proposal": {"deployment": "api"}},
    "proposals/team/list.json": [
        {"workload": {"name": "b"}, "proposal": {"deployment": "api"}},
        {"workload": {"name": "c"}, "proposal": {"deployment": "api"}},
    ],
    "proposals/many.yml": {"proposals": [{"workload": {"name": "d"}, "proposal": {"deployment": "api"}}]},
    "proposals/no-workload.yaml": {"proposal": {"deployment": "api"}},
}


@pytest.mark.parametrize("name", ["github-actions.yml", "gitlab-ci.yml"])
def test_ci_examples_extract_the_workload_of_every_proposal(name: str, tmp_path: Path) -> None:
    """The program that feeds each proposal's workload to ``gpu-advisor recommend``, run on real files."""
    document = load_ci(name)
    scripts = github_scripts(document) if name == "github-actions.yml" else gitlab_scripts(document)
    (program,) = [embedded_python(script) for script in scripts.values() if "python - <<'PY'" in script]
    for path, content in PROPOSAL_FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(yaml.safe_dump(content), encoding="utf-8")
    (tmp_path / "proposals/broken.yaml").write_text("workload: [", encoding="utf-8")
    changed = [*PROPOSAL_FILES, "proposals/broken.yaml"]
    (tmp_path / "gpu-advisor").mkdir()
    (tmp_path / "gpu-advisor/changed.txt").write_text("\n".join(changed) + "\n", encoding="utf-8")
    (tmp_path / "workloads").mkdir()
    run = subprocess.run(
        [sys.executable, "-"],
        input=program,
        cwd=tmp_path,
        env={**os.environ, "PROPOSALS": json.dumps(changed)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "proposals/no-workload.yaml: proposal 1 has no workload mapping, skipped",
        "proposals/broken.yaml: not readable as YAML or JSON, skipped",
    ]
    workloads = sorted((tmp_path / "workloads").iterdir())
    assert {path.name: json.loads(path.read_text(encoding="utf-8")) for path in workloads} == {
        "proposals_one-1.json": {"name": "a"},
        "proposals_team_list-1.json": {"name": "b"},
        "proposals_team_list-2.json": {"name": "c"},
        "proposals_many-1.json": {"name": "d"},
    }
