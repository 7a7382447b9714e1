"""The GitHub Actions example, run: every job's ``run:`` steps executed in order by bash, as the runner
executes them (``bash --noprofile --norc -eo pipefail``, the workflow's, job's and step's ``env``, the
``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY`` files), against a sample repository whose pull requests
add a passing and a failing proposal.

``act`` is not used (it pulls runner images). The ``uses:`` steps are done here: checkout is the sample
repository's working tree at the pull request's head, setup-python the test's Python, upload-sarif
validates the SARIF file against the SARIF 2.1.0 schema, the artifact steps copy the files. Three
commands are stand-ins on ``PATH``: ``python -m pip install`` checks that what it is asked to install is
the gpu-advisor checkout (the package is the one under test, already installed), ``gh`` keeps the pull
request's comments in a file, and ``docker run ... conftest test`` evaluates the policies with regopy,
with conftest's exit codes (1 on a deny).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from helpers import EXAMPLES_DIR, REPO_ROOT, TESTS_DIR

WORKFLOW = EXAMPLES_DIR / "ci" / "github-actions.yml"
PIPELINE = EXAMPLES_DIR / "ci" / "gitlab-ci.yml"
SARIF_SCHEMA = TESTS_DIR / "schemas" / "sarif-schema-2.1.0.json"
MARKER = "<!-- gpu-advisor check -->"
NONE = "\N{EN DASH}"  # an empty cell of the Markdown tables

SOUND = """\
# The team's chat service: its own weights, so a rental.
workload:
  name: public-chat
  model: {name: llama-3.1-70b, precision: fp8, custom_weights: true}
  requests_per_day: 1000000
  load_pattern: steady
  latency_sensitive: true
proposal:
  name: public-chat
  deployment: dedicated_cloud
  provider: aws
  offer: p5-reserved-3y
  gpu: h100-sxm
  gpus: 6
  pricing: reserved
  region: us-east-1
"""

HR_ON_A_MARKETPLACE = """\
proposals:
  - workload: {name: faq, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5000}
    proposal: {name: faq, deployment: api}
  # Personal data of a German company on a marketplace whose locations vary: RES005 fails.
  - workload:
      name: hr-assistant
      model: {name: llama-3.1-70b, precision: fp8}
      requests_per_day: 20000
      personal_data: true
      company_country: DE
    proposal:
      name: hr-on-runpod
      deployment: dedicated_cloud
      provider: runpod
      offer: community
      gpu: h100-sxm
      gpus: 2
      pricing: on_demand
"""

STAND_INS = {
    # python -m pip install PACKAGE: PACKAGE must be the gpu-advisor checkout; anything else runs Python.
    "python": f"""#!/bin/bash
if [ "$1 $2 $3" = "-m pip install" ]; then
  package="${{@: -1}}"
  test -f "$package/pyproject.toml" && grep -q '^name = "gpu-advisor"' "$package/pyproject.toml" || exit 1
  echo "$package" >> "$STAND_IN_LOG/pip"
  exit 0
fi
exec {sys.executable} "$@"
""",
    "gh": f"""#!{sys.executable}
import json, os, sys
from pathlib import Path
store = Path(os.environ["STAND_IN_LOG"]) / "comments.json"
comments = json.loads(store.read_text()) if store.exists() else []
args = sys.argv[1:]
with open(Path(os.environ["STAND_IN_LOG"]) / "gh", "a") as log:
    log.write(" ".join(args) + "\\n")
assert args[0] == "api", args
if "--jq" in args:  # the listing, filtered as the workflow's jq filter does
    for c in comments:
        if c["body"].startswith({MARKER!r}):
            print(c["id"])
    sys.exit(0)
method = args[args.index("--method") + 1]
body = Path(next(a for a in args if a.startswith("body=@"))[len("body=@"):]).read_text()
if method == "POST":
    comments.append({{"id": len(comments) + 1, "body": body}})
else:
    comment_id = int(args[args.index("--method") + 2].rsplit("/", 1)[1])
    next(c for c in comments if c["id"] == comment_id)["body"] = body
store.write_text(json.dumps(comments))
""",
    "docker": f"""#!/bin/sh
exec {sys.executable} {TESTS_DIR / "rego_runner.py"} "$@"
""",
    "conftest": f"""#!/bin/sh
exec {sys.executable} {TESTS_DIR / "rego_runner.py"} "$@"
""",
    # GitLab's notes API: GET lists the notes, POST adds one, PUT .../notes/ID replaces its body.
    "curl": f"""#!{sys.executable}
import json, os, sys
from pathlib import Path
store = Path(os.environ["STAND_IN_LOG"]) / "notes.json"
notes = json.loads(store.read_text()) if store.exists() else []
args = sys.argv[1:]
with open(Path(os.environ["STAND_IN_LOG"]) / "curl", "a") as log:
    log.write(" ".join(args) + "\\n")
assert "PRIVATE-TOKEN: token" in args, args
url = args[-1]
if "--request" not in args:
    print(json.dumps(notes))
    sys.exit(0)
method = args[args.index("--request") + 1]
body = Path(args[args.index("--data-urlencode") + 1][len("body@"):]).read_text()
if method == "POST":
    notes.append({{"id": 100 + len(notes), "body": body}})
else:
    next(n for n in notes if n["id"] == int(url.rsplit("/", 1)[1]))["body"] = body
store.write_text(json.dumps(notes))
""",
}


@dataclass
class Run:
    """One workflow run: each job's outcome and each step's output."""

    jobs: dict[str, bool] = field(default_factory=dict)
    output: dict[str, str] = field(default_factory=dict)
    sarif: list[dict[str, Any]] = field(default_factory=list)


def expression(text: str, context: dict[str, str]) -> str:
    """``${{ name }}`` replaced from the context; an expression the test does not know fails it."""
    return re.sub(r"\$\{\{\s*([^}]+?)\s*\}\}", lambda m: context[m.group(1)], text)


def stand_ins(tmp: Path) -> Path:
    directory = tmp / "bin"
    directory.mkdir(exist_ok=True)
    for name, script in STAND_INS.items():
        (directory / name).write_text(script, encoding="utf-8")
        (directory / name).chmod(0o755)
    return directory


def search_path(tmp: Path) -> str:
    """The stand-ins first, then this Python's scripts (gpu-advisor), then the system's. Checked, since
    a real pip here would install the sample's gpu-advisor over the one under test."""
    directory = stand_ins(tmp)
    path = os.pathsep.join([str(directory), str(Path(sys.executable).parent), os.environ["PATH"]])
    for name in STAND_INS:
        assert shutil.which(name, path=path) == str(directory / name), name
    return path


def run_workflow(repo: Path, base: str, head: str, log: Path, tmp: Path) -> Run:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    path = search_path(tmp)
    subprocess.run(["git", "checkout", "-q", head], cwd=repo, check=True)
    context = {
        "github.event.pull_request.base.sha": base,
        "github.event.pull_request.head.sha": head,
        "github.event.pull_request.number": "7",
        "github.repository": "example/gpu-proposals",
        "github.token": "token",
        "env.PYTHON_VERSION": workflow["env"]["PYTHON_VERSION"],
    }
    run = Run()
    artifacts = tmp / "artifacts"
    for job_id, job in workflow["jobs"].items():
        workspace = repo  # every job starts on the checked-out head
        runner_temp = tmp / f"runner-{job_id}"
        if runner_temp.exists():
            subprocess.run(["git", "worktree", "remove", "--force", str(runner_temp / "base")], cwd=repo)
            shutil.rmtree(runner_temp)
        runner_temp.mkdir()
        for leftover in ("gpu-advisor",):
            shutil.rmtree(workspace / leftover, ignore_errors=True)
        outputs: dict[str, str] = {}
        failed = False
        for index, step in enumerate(job["steps"]):
            condition = step.get("if", "")
            if failed and "always()" not in condition:
                continue
            uses = step.get("uses", "")
            if uses.startswith("github/codeql-action/upload-sarif@"):
                sarif = workspace / step["with"]["sarif_file"]
                if sarif.exists():
                    run.sarif.append(json.loads(sarif.read_text(encoding="utf-8")))
                continue
            if uses.startswith("actions/upload-artifact@"):
                shutil.copytree(workspace / step["with"]["path"], artifacts / step["with"]["name"])
                continue
            if uses.startswith("actions/download-artifact@"):
                source = artifacts / step["with"]["name"]
                if source.exists():
                    shutil.copytree(source, workspace / step["with"]["path"], dirs_exist_ok=True)
                continue
            if uses:
                assert uses.startswith(("actions/checkout@", "actions/setup-python@")), uses
                continue
            context.update({f"steps.{k}": v for k, v in outputs.items()})
            env = {
                **{k: str(v) for k, v in workflow["env"].items()},
                **{k: expression(str(v), context) for k, v in job.get("env", {}).items()},
                **{k: expression(str(v), context) for k, v in step.get("env", {}).items()},
            }
            github_output = runner_temp / f"output-{index}"
            github_output.touch()
            completed = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                cwd=workspace,
                env={
                    **os.environ,
                    **env,
                    "PATH": path,
                    "GITHUB_OUTPUT": str(github_output),
                    "GITHUB_STEP_SUMMARY": str(runner_temp / "summary.md"),
                    "RUNNER_TEMP": str(runner_temp),
                    "STAND_IN_LOG": str(log),
                },
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            run.output[f"{job_id}: {step.get('name', index)}"] = completed.stdout + completed.stderr
            for line in github_output.read_text(encoding="utf-8").splitlines():
                key, _, value = line.partition("=")
                outputs[f"{step['id']}.outputs.{key}"] = value
            failed = failed or completed.returncode != 0
        run.jobs[job_id] = not failed
    shutil.rmtree(artifacts, ignore_errors=True)
    return run


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A repository of proposals: the base, a pull request that changes a proposal and adds a passing
    one, and one that adds a failing one."""
    repo = tmp_path_factory.mktemp("sample") / "gpu-proposals"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "ci@example.org")
    git(repo, "config", "user.name", "CI")
    shutil.copytree(EXAMPLES_DIR / "policies", repo / "rego")
    (repo / "proposals").mkdir()
    on_demand = SOUND.replace("gpus: 6", "gpus: 8").replace("p5-reserved-3y", "p5-on-demand")
    (repo / "proposals" / "public-chat.yaml").write_text(
        on_demand.replace("pricing: reserved", "pricing: on_demand"), encoding="utf-8"
    )
    (repo / ".gitignore").write_text("tools/\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    # gpu-advisor as the workflow expects it: a checkout under tools/.
    (repo / "tools").mkdir()
    (repo / "tools" / "gpu-advisor").symlink_to(REPO_ROOT)
    git(repo, "checkout", "-q", "-b", "passing")
    (repo / "proposals" / "public-chat.yaml").write_text(SOUND, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "a three-year reservation")
    passing = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-b", "failing", base)
    (repo / "proposals" / "team").mkdir()
    (repo / "proposals" / "team" / "hr.yaml").write_text(HR_ON_A_MARKETPLACE, encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "hr assistant")
    failing = git(repo, "rev-parse", "HEAD")
    return {"repo": repo, "base": base, "passing": passing, "failing": failing}


def test_the_workflow_passes_a_passing_proposal_and_comments_once(
    sample: dict[str, Any], tmp_path: Path
) -> None:
    log = tmp_path / "log"
    log.mkdir()
    run = run_workflow(sample["repo"], sample["base"], sample["passing"], log, tmp_path)
    assert run.jobs == {"check": True, "comment": True, "policies": True}, "\n".join(
        f"{k}: {v}" for k, v in run.output.items()
    )
    assert (log / "pip").read_text().splitlines() == ["./tools/gpu-advisor"]
    (comment,) = json.loads((log / "comments.json").read_text())
    body = comment["body"]
    assert body.startswith(MARKER + "\n## gpu-advisor check\n")
    # 8 H100 on demand at $3.90 for 730 hours: $22,776; 6 cards reserved for three years bill the whole
    # 8-card instance (P5 reserved sells 8 only) at $1.90: $11,096; the difference is -$11,680.
    assert (
        f"| public-chat (`proposals/public-chat.yaml`) | changed | $22,776 | $11,096 | -$11,680 | {NONE} |"
        in body
    )
    assert "| **Total** | | **$22,776** | **$11,096** | **-$11,680** | | |" in body
    # A second push updates the same comment.
    again = run_workflow(sample["repo"], sample["base"], sample["passing"], log, tmp_path)
    assert again.jobs["comment"]
    assert len(json.loads((log / "comments.json").read_text())) == 1
    assert "--method PATCH repos/example/gpu-proposals/issues/comments/1" in (log / "gh").read_text()
    (sarif,) = run.sarif
    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    # The documentation of the gpu-advisor installed (here: this checkout), never a page that may not exist.
    uri = sarif["runs"][0]["tool"]["driver"]["informationUri"]
    assert uri.startswith("file://") and uri.endswith("/README.md#checking-a-proposal")
    assert (
        "\n## Checking a proposal\n" in Path(uri[len("file://") : -len("#checking-a-proposal")]).read_text()
    )
    assert sarif["runs"][0]["results"] == []  # the passing proposal: nothing to report


def test_the_workflow_fails_a_failing_proposal(sample: dict[str, Any], tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.mkdir()
    run = run_workflow(sample["repo"], sample["base"], sample["failing"], log, tmp_path)
    assert run.jobs == {"check": False, "comment": True, "policies": False}, "\n".join(
        f"{k}: {v}" for k, v in run.output.items()
    )
    (comment,) = json.loads((log / "comments.json").read_text())
    assert "### hr-on-runpod: ❌ fail" in comment["body"]
    assert "| RES005 |" in comment["body"]
    policies = run.output["policies: Evaluate the Rego policies with conftest"]
    assert (
        "FAIL - gpu-advisor/check.json - gpu_advisor.residency - hr-on-runpod (proposals/team/hr.yaml line 5)"
        in policies
    )
    (sarif,) = run.sarif
    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    located = {
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in sarif["runs"][0]["results"]
    }
    # Each result on the line of its own proposal: the second proposal of hr.yaml starts on line 5.
    assert ("RES005", "proposals/team/hr.yaml", 5) in located
    assert {line for rule, uri, line in located if uri == "proposals/team/hr.yaml"} == {5}


# --- GitLab --------------------------------------------------------------------------------------------


def run_pipeline(repo: Path, base: str, head: str, log: Path, tmp: Path) -> dict[str, Any]:
    """The merge request pipeline's jobs, each job's script entries in one bash session, as the runner
    runs them; the exit code and output of each job."""
    pipeline = yaml.safe_load(PIPELINE.read_text(encoding="utf-8"))
    subprocess.run(["git", "checkout", "-q", head], cwd=repo, check=True)
    subprocess.run(["git", "worktree", "prune"], cwd=repo, check=True)
    shutil.rmtree(repo / "gpu-advisor", ignore_errors=True)
    builds = tmp / "builds"
    shutil.rmtree(builds, ignore_errors=True)
    builds.mkdir()
    subprocess.run(["git", "worktree", "prune"], cwd=repo, check=True)
    env = {
        **os.environ,
        **{key: str(value) for key, value in pipeline["variables"].items()},
        "CI_MERGE_REQUEST_DIFF_BASE_SHA": base,
        "CI_BUILDS_DIR": str(builds),
        "CI_API_V4_URL": "https://gitlab.example.org/api/v4",
        "CI_PROJECT_ID": "42",
        "CI_MERGE_REQUEST_IID": "7",
        "GPU_ADVISOR_API_TOKEN": "token",
        "PATH": search_path(tmp),
        "STAND_IN_LOG": str(log),
    }
    jobs = {}
    for job in ("gpu-advisor-check", "gpu-advisor-policies"):
        completed = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", "\n".join(pipeline[job]["script"])],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        jobs[job] = (completed.returncode, completed.stdout + completed.stderr)
    return jobs


def test_the_merge_request_pipeline_passes_a_passing_proposal_and_updates_its_note(
    sample: dict[str, Any], tmp_path: Path
) -> None:
    log = tmp_path / "log"
    log.mkdir()
    jobs = run_pipeline(sample["repo"], sample["base"], sample["passing"], log, tmp_path)
    assert {job: code for job, (code, _) in jobs.items()} == {
        "gpu-advisor-check": 0,
        "gpu-advisor-policies": 0,
    }, jobs
    (note,) = json.loads((log / "notes.json").read_text())
    assert note["body"].startswith(MARKER + "\n")
    assert "| **Total** | | **$22,776** | **$11,096** | **-$11,680** | | |" in note["body"]
    run_pipeline(sample["repo"], sample["base"], sample["passing"], log, tmp_path)
    assert len(json.loads((log / "notes.json").read_text())) == 1
    assert "--request PUT" in (log / "curl").read_text()
    assert "/projects/42/merge_requests/7/notes/100" in (log / "curl").read_text()


def test_the_merge_request_pipeline_fails_a_failing_proposal(sample: dict[str, Any], tmp_path: Path) -> None:
    from junitparser import Failure, JUnitXml

    log = tmp_path / "log"
    log.mkdir()
    jobs = run_pipeline(sample["repo"], sample["base"], sample["failing"], log, tmp_path)
    assert {job: code for job, (code, _) in jobs.items()} == {
        "gpu-advisor-check": 1,
        "gpu-advisor-policies": 1,
    }, jobs
    (note,) = json.loads((log / "notes.json").read_text())
    assert "### hr-on-runpod: ❌ fail" in note["body"]
    report = JUnitXml.fromfile(str(sample["repo"] / "gpu-advisor" / "check.junit.xml"))
    failed = [
        case.name for suite in report for case in suite if any(isinstance(r, Failure) for r in case.result)
    ]
    assert failed == ["RES005 Personal data in a jurisdiction its law does not admit"]
    assert (
        "FAIL - gpu-advisor/check.json - gpu_advisor.residency - hr-on-runpod"
        in jobs["gpu-advisor-policies"][1]
    )
    conftest_report = (sample["repo"] / "conftest.junit.xml").read_text()
    assert conftest_report.count("<failure") == 2
