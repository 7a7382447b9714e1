"""What the runs of the CI examples (``test_ci_workflow.py``, ``test_ci_pipeline.py``) share: a sample
repository whose pull requests add a passing and a failing proposal, and the commands that stand in on
``PATH`` for what a runner would fetch. ``python -m pip install`` checks that what it is asked to install
is the gpu-advisor checkout (the package is the one under test, already installed), ``gh`` keeps a pull
request's comments in a file, ``curl`` keeps a merge request's notes (GitLab's notes API), and ``docker
run ... conftest test`` evaluates the policies with regopy, with conftest's exit codes (1 on a deny)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from helpers import EXAMPLES_DIR, REPO_ROOT, TESTS_DIR

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
  offer: p5-reserved-3y-2026-09
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


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def sample_repository(repo: Path) -> dict[str, Any]:
    """A repository of proposals at ``repo``: the base, a pull request that changes a proposal and adds a
    passing one, and one that adds a failing one; the repository and the three commits."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "ci@example.org")
    git(repo, "config", "user.name", "CI")
    shutil.copytree(EXAMPLES_DIR / "policies", repo / "rego")
    (repo / "proposals").mkdir()
    on_demand = SOUND.replace("gpus: 6", "gpus: 8").replace("p5-reserved-3y-2026-09", "p5-on-demand-2026-09")
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
