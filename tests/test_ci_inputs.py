"""The CI templates refuse inputs that resolve outside the working tree (a symbolic link to .git/config in a
pull request), and no error message quotes more of a file that is not YAML than the offending character."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import REPO_ROOT

from gpu_advisor.cli import main

CI_DIR = REPO_ROOT / "examples" / "ci"
GIT_CONFIG = (
    "[core]\n\trepositoryformatversion = 0\n"
    '[remote "origin"]\n\turl = https://x-access-token:ghs_SECRET123@github.com/o/r.git\n'
    '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0LXRva2Vu\n'
)
GOOD = "workload: {name: w, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 5000}\n"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


@pytest.fixture
def pull_request(tmp_path: Path) -> tuple[Path, str, str]:
    """A repository whose last commit adds a good proposal and one linked to .git/config."""
    repo = tmp_path / "repo"
    (repo / "proposals").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "README").write_text("base\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    (repo / "proposals" / "good.yaml").write_text(GOOD)
    (repo / "proposals" / "x.yaml").symlink_to("../.git/config")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "change")
    return repo, base, git(repo, "rev-parse", "HEAD")


def test_the_github_workflow_refuses_a_linked_proposal(pull_request: tuple[Path, str, str]) -> None:
    repo, _, _ = pull_request
    workflow = yaml.safe_load((CI_DIR / "github-actions.yml").read_text(encoding="utf-8"))
    step = next(s for s in workflow["jobs"]["check"]["steps"] if s.get("id") == "inputs")
    env = {**workflow["env"], "PATH": "/usr/bin:/bin"}
    run = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "::error file=proposals/x.yaml::refused" in run.stdout
    assert "good.yaml" not in run.stdout
    (repo / "proposals" / "x.yaml").unlink()
    run = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


def test_the_gitlab_pipeline_refuses_a_linked_proposal(pull_request: tuple[Path, str, str]) -> None:
    repo, _, _ = pull_request
    pipeline = yaml.safe_load((CI_DIR / "gitlab-ci.yml").read_text(encoding="utf-8"))
    refusal = pipeline["gpu-advisor-check"]["script"][0]
    env = {**pipeline["variables"], "PATH": "/usr/bin:/bin"}
    run = subprocess.run(["bash", "-e", "-c", refusal], cwd=repo, env=env, capture_output=True, text=True)
    assert run.returncode == 1
    assert "refused proposals/x.yaml: a symbolic link" in run.stdout


def test_an_error_about_a_file_that_is_not_yaml_quotes_none_of_its_lines(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(GIT_CONFIG, encoding="utf-8")
    for line in GIT_CONFIG.splitlines()[1:]:
        # each line alone, and the file, as a proposal, a workload, a batch and a policy
        single = tmp_path / "line.yaml"
        single.write_text(line + "\n", encoding="utf-8")
        for path in (config, single):
            for args in (
                ["check", str(path)],
                ["recommend", str(path)],
                ["batch", str(path), "--jobs", "1"],
                ["rules", "--policy", str(tmp_path)],
            ):
                result = CliRunner().invoke(main, args)
                output = result.output + (result.stderr if result.stderr_bytes else "")
                assert result.exit_code in (1, 2), (args, output)  # batch: a bad row skipped is 1
                assert "Traceback" not in output
                for secret in (
                    "SECRET123",
                    "AUTHORIZATION",
                    "c2VjcmV0",
                    "repositoryformatversion",
                    "github.com",
                ):
                    assert secret not in output, (args, output)
