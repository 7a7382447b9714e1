"""The GitHub Actions example, run: every job's ``run:`` steps executed in order by bash, as the runner
executes them (``bash --noprofile --norc -eo pipefail``, the workflow's, job's and step's ``env``, the
``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY`` files), against a sample repository whose pull requests
add a passing and a failing proposal.

``act`` is not used (it pulls runner images). The ``uses:`` steps are done here: checkout is the sample
repository's working tree at the pull request's head, setup-python the test's Python, upload-sarif
validates the SARIF file against the SARIF 2.1.0 schema, the artifact steps copy the files. Three
commands are stand-ins on ``PATH`` (``ci_runs.py``): ``python -m pip install``, ``gh`` and ``docker run
... conftest test``. The sample repository is the ``ci_sample`` fixture (conftest.py); the GitLab
pipeline's run is in ``test_ci_pipeline.py``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from ci_runs import MARKER, NONE, search_path
from helpers import EXAMPLES_DIR, TESTS_DIR

WORKFLOW = EXAMPLES_DIR / "ci" / "github-actions.yml"
SARIF_SCHEMA = TESTS_DIR / "schemas" / "sarif-schema-2.1.0.json"


@dataclass
class Run:
    """One workflow run: each job's outcome and each step's output."""

    jobs: dict[str, bool] = field(default_factory=dict)
    output: dict[str, str] = field(default_factory=dict)
    sarif: list[dict[str, Any]] = field(default_factory=list)


def expression(text: str, context: dict[str, str]) -> str:
    """``${{ name }}`` replaced from the context; an expression the test does not know fails it."""
    return re.sub(r"\$\{\{\s*([^}]+?)\s*\}\}", lambda m: context[m.group(1)], text)


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


def test_the_workflow_passes_a_passing_proposal_and_comments_once(
    ci_sample: dict[str, Any], tmp_path: Path
) -> None:
    log = tmp_path / "log"
    log.mkdir()
    run = run_workflow(ci_sample["repo"], ci_sample["base"], ci_sample["passing"], log, tmp_path)
    assert run.jobs == {"check": True, "comment": True, "policies": True}, "\n".join(
        f"{k}: {v}" for k, v in run.output.items()
    )
    assert (log / "pip").read_text().splitlines() == ["./tools/gpu-advisor"]
    (comment,) = json.loads((log / "comments.json").read_text())
    body = comment["body"]
    assert body.startswith(MARKER + "\n## gpu-advisor check\n")
    # 8 H100 on demand at $6.88 (AWS's list) for 730 hours: $40,179.20; 6 cards on a three-year savings
    # plan bill the whole 8-card instance (P5 sells 8 only) at $2.97216: $17,357; the difference is
    # -$22,822. The two
    # idle cards of the change's instance are a new finding (the base's eight fill theirs).
    assert (
        "| public-chat (`proposals/public-chat.yaml`) | changed | $40,179 | $17,357 | -$22,822 | PRC013 warn "
        f"| {NONE} |" in body
    )
    assert "| **Total** | | **$40,179** | **$17,357** | **-$22,822** | | |" in body
    # A second push updates the same comment.
    again = run_workflow(ci_sample["repo"], ci_sample["base"], ci_sample["passing"], log, tmp_path)
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
    # The passing proposal: two warnings, that the reservation ($17,357) costs more than the recommended
    # RunPod H200 ($7,862) and pays for two idle cards, which do not fail the run.
    assert [(r["ruleId"], r["level"]) for r in sarif["runs"][0]["results"]] == [
        ("DEP033", "warning"),
        ("PRC013", "warning"),
    ]


def test_the_workflow_fails_a_failing_proposal(ci_sample: dict[str, Any], tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.mkdir()
    run = run_workflow(ci_sample["repo"], ci_sample["base"], ci_sample["failing"], log, tmp_path)
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
