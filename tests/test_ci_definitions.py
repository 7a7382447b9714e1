"""The CI definitions in ``examples/ci``, parsed as YAML: their triggers, jobs, permissions and scripts;
every gpu-advisor command line in them checked against the real command-line interface (each command,
option and ``--format`` value exists); and their install step's guard, run by bash, taking gpu-advisor
from its repository, never by name from a package index. ``test_ci_workflow.py`` and
``test_ci_pipeline.py`` run them."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import click
import pytest
import yaml
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main

CI_DIR = EXAMPLES_DIR / "ci"


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
            match = re.match(r"\s*gpu-advisor ([a-z]+ .*)", line)  # a command, not a message
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
    assert set(workflow["jobs"]) == {"check", "comment", "policies"}
    scripts = github_scripts(workflow)
    text = "\n".join(scripts.values())
    assert 'base=$(git merge-base "$BASE_SHA" "$HEAD_SHA")' in text
    assert (
        'gpu-advisor check "$PROPOSALS_DIR" "${org[@]}" --compare-to "$RUNNER_TEMP/base/$PROPOSALS_DIR"'
        in text
    )
    assert (
        'gh api --method PATCH "repos/$GH_REPO/issues/comments/$id" -F body=@gpu-advisor/comment.md' in text
    )
    assert 'startswith("<!-- gpu-advisor check -->")' in text
    assert 'test --all-namespaces --policy "$REGO_DIR" "${data_args[@]}" gpu-advisor/check.json' in text
    assert "--policy" in options_of("check")
    # Least privilege: read-only by default; each job adds only what it writes.
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["jobs"]["check"]["permissions"] == {
        "contents": "read",
        "security-events": "write",
        "actions": "read",
    }
    assert workflow["jobs"]["comment"]["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert "permissions" not in workflow["jobs"]["policies"]
    check_steps = workflow["jobs"]["check"]["steps"]
    assert any(step.get("uses", "").startswith("github/codeql-action/upload-sarif@") for step in check_steps)
    # Pull-request data reaches the scripts only through the environment, never as inline expressions.
    assert not [name for name, script in scripts.items() if "${{" in script]
    assert assert_real_command_lines(gpu_advisor_commands(scripts)) == {
        ("check", "markdown"),
        ("check", "sarif"),
        ("check", "json"),
    }


UNREGISTERED = re.compile(r"^[A-Za-z0-9._-]+(\[[a-z,]+\])?([=<>!~]=?[^ ]*)?$")
"""A requirement pip would look up on a package index: a bare name, optionally with extras and a version."""


@pytest.mark.parametrize("name", ["github-actions.yml", "gitlab-ci.yml"])
def test_ci_installs_gpu_advisor_from_its_repository_never_from_an_index(name: str) -> None:
    document = load_ci(name)
    package = (document.get("env") or document["variables"])["GPU_ADVISOR_PACKAGE"]
    assert package == "./tools/gpu-advisor"
    assert not UNREGISTERED.match(package)
    installs = re.findall(r"pip install .*", (CI_DIR / name).read_text(encoding="utf-8"))
    assert installs and all(line.endswith('"$GPU_ADVISOR_PACKAGE"') for line in installs)


@pytest.mark.parametrize(
    ("package", "accepted"),
    [
        ("./tools/gpu-advisor", True),
        (
            "gpu-advisor @ git+https://example.org/team/gpu-advisor@" + "0123456789abcdef" * 2 + "01234567",
            True,
        ),
        ("gpu-advisor", False),
        ("gpu-advisor==0.1.0", False),
        ("gpu-advisor @ git+https://example.org/team/gpu-advisor@main", False),
        ("gpu-advisor @ git+https://example.org/team/gpu-advisor", False),
    ],
)
@pytest.mark.parametrize("name", ["github-actions.yml", "gitlab-ci.yml"])
def test_the_install_step_refuses_a_name_or_an_unpinned_url(
    name: str, package: str, accepted: bool, tmp_path: Path
) -> None:
    """The install step's own guard, run by bash with a stand-in pip."""
    document = load_ci(name)
    scripts = github_scripts(document) if name == "github-actions.yml" else gitlab_scripts(document)
    (script,) = [s for s in scripts.values() if "GPU_ADVISOR_PACKAGE" in s and "pip install" in s]
    (tmp_path / "tools" / "gpu-advisor").mkdir(parents=True)
    (tmp_path / "tools" / "gpu-advisor" / "pyproject.toml").write_text('name = "gpu-advisor"\n')
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").write_text('#!/bin/bash\necho installed "${@: -1}"\n')
    (tmp_path / "bin" / "python").chmod(0o755)
    run = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", script],
        cwd=tmp_path,
        env={
            **os.environ,
            "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
            "GPU_ADVISOR_PACKAGE": package,
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode == 0) == accepted, run.stdout + run.stderr
    assert (f"installed {package}" in run.stdout) == accepted


def test_gitlab_ci_job() -> None:
    pipeline = load_ci("gitlab-ci.yml")
    jobs = {name for name, job in pipeline.items() if isinstance(job, dict) and "script" in job}
    assert jobs == {"gpu-advisor-check", "gpu-advisor-policies"}
    assert pipeline["gpu-advisor-check"]["rules"] == [
        {"if": '$CI_PIPELINE_SOURCE == "merge_request_event"', "changes": ["proposals/**/*"]}
    ]
    assert pipeline["gpu-advisor-policies"]["rules"] == [
        {
            "if": '$CI_PIPELINE_SOURCE == "merge_request_event"',
            "changes": ["proposals/**/*"],
            "when": "always",
        }
    ]
    assert pipeline["gpu-advisor-check"]["artifacts"]["reports"]["junit"] == "gpu-advisor/check.junit.xml"
    assert pipeline["gpu-advisor-policies"]["needs"] == [{"job": "gpu-advisor-check", "artifacts": True}]
    scripts = gitlab_scripts(pipeline)
    text = "\n".join(scripts.values())
    assert 'git worktree add --detach "$base" "$CI_MERGE_REQUEST_DIFF_BASE_SHA"' in text
    assert 'gpu-advisor check "$PROPOSALS_DIR" "$@" --compare-to "$base/$PROPOSALS_DIR"' in text
    assert "/merge_requests/$CI_MERGE_REQUEST_IID/notes" in text
    assert 'method=PUT; target="$notes/$note"' in text
    assert 'set -- --all-namespaces --policy "$REGO_DIR"' in text
    assert 'conftest test "$@" gpu-advisor/check.json' in text
    assert assert_real_command_lines(gpu_advisor_commands(scripts)) == {
        ("check", "markdown"),
        ("check", "junit"),
        ("check", "json"),
    }
