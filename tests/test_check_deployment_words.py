"""DEP016 names the proposal's and the recommendation's deployments in words, in both languages: the English
message printed the raw values ("runs the workload as dedicated_cloud; the rules recommend api")."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main


def test_the_deployments_are_named_in_words(tmp_path: Path) -> None:
    # The example's four reserved H100 for a chat of 5,000 requests a day with the public model: under the
    # documents' API line the rules recommend a managed API.
    document = yaml.safe_load((EXAMPLES_DIR / "proposals" / "public-chat.yaml").read_text(encoding="utf-8"))
    document["workload"]["model"]["custom_weights"] = False
    document["workload"]["requests_per_day"] = 5000
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    runner = CliRunner(env={"COLUMNS": "400"})
    english = " ".join(runner.invoke(main, ["check", str(path)]).output.split())
    assert (
        "The proposal runs the workload on dedicated cloud GPUs; the rules recommend a managed API for it "
        "(see gpu-advisor recommend for the reasons)."
    ) in english
    german = " ".join(runner.invoke(main, ["check", str(path), "--lang", "de"]).output.split())
    assert (
        "Der Vorschlag betreibt den Workload als „Dedizierte Cloud-GPUs“; die Regeln empfehlen dafür "
        "„Verwaltete API“ (die Gründe nennt gpu-advisor recommend)."
    ) in german
