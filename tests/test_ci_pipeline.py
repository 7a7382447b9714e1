"""The GitLab merge request pipeline example, run: each job's ``script`` entries in one bash session, as
the runner runs them, with the pipeline's variables and GitLab's predefined ones, against the sample
repository of proposals (the ``ci_sample`` fixture, conftest.py). ``curl`` (GitLab's notes API), ``python
-m pip install`` and ``conftest test`` are the stand-ins of ``ci_runs.py``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml
from ci_runs import MARKER, search_path
from helpers import EXAMPLES_DIR

PIPELINE = EXAMPLES_DIR / "ci" / "gitlab-ci.yml"


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
    ci_sample: dict[str, Any], tmp_path: Path
) -> None:
    log = tmp_path / "log"
    log.mkdir()
    jobs = run_pipeline(ci_sample["repo"], ci_sample["base"], ci_sample["passing"], log, tmp_path)
    assert {job: code for job, (code, _) in jobs.items()} == {
        "gpu-advisor-check": 0,
        "gpu-advisor-policies": 0,
    }, jobs
    (note,) = json.loads((log / "notes.json").read_text())
    assert note["body"].startswith(MARKER + "\n")
    assert "| **Total** | | **$40,179** | **$17,357** | **-$22,822** | | |" in note["body"]
    run_pipeline(ci_sample["repo"], ci_sample["base"], ci_sample["passing"], log, tmp_path)
    assert len(json.loads((log / "notes.json").read_text())) == 1
    assert "--request PUT" in (log / "curl").read_text()
    assert "/projects/42/merge_requests/7/notes/100" in (log / "curl").read_text()


def test_the_merge_request_pipeline_fails_a_failing_proposal(
    ci_sample: dict[str, Any], tmp_path: Path
) -> None:
    from junitparser import Failure, JUnitXml

    log = tmp_path / "log"
    log.mkdir()
    jobs = run_pipeline(ci_sample["repo"], ci_sample["base"], ci_sample["failing"], log, tmp_path)
    assert {job: code for job, (code, _) in jobs.items()} == {
        "gpu-advisor-check": 1,
        "gpu-advisor-policies": 1,
    }, jobs
    (note,) = json.loads((log / "notes.json").read_text())
    assert "### hr-on-runpod: ❌ fail" in note["body"]
    report = JUnitXml.fromfile(str(ci_sample["repo"] / "gpu-advisor" / "check.junit.xml"))
    failed = [
        case.name for suite in report for case in suite if any(isinstance(r, Failure) for r in case.result)
    ]
    assert failed == ["RES005 Personal data in a jurisdiction its law does not admit"]
    assert (
        "FAIL - gpu-advisor/check.json - gpu_advisor.residency - hr-on-runpod"
        in jobs["gpu-advisor-policies"][1]
    )
    conftest_report = (ci_sample["repo"] / "conftest.junit.xml").read_text()
    assert conftest_report.count("<failure") == 2
