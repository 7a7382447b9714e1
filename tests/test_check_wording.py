"""Proposal checks in words: DEP016 names the deployments (the English message printed raw values such as
"dedicated_cloud"), and PRC022 says what keeping hourly cards every calendar hour costs."""

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
        "„Managed API“ (die Gründe nennt gpu-advisor recommend)."
    ) in german


def test_hourly_cards_for_office_hours_say_what_every_hour_costs(tmp_path: Path) -> None:
    # One p5.48xlarge on demand (55.04 USD an instance-hour) for the office schedule's 176 hours: 9,687 USD
    # a month; kept every one of the 730 calendar hours, 40,179 USD.
    document = {
        "workload": {
            "name": "office-legal",
            "model": {"name": "llama-3.3-70b", "precision": "fp8"},
            "requests_per_day": 50_000,
            "business_critical": True,
            # The provider confirms the cards each morning: else they are priced kept (PRC033) and PRC022
            # is silent.
            "capacity_confirmed": True,
            "schedule": "office_hours",
        },
        "proposal": {
            "name": "hourly H100 for office hours",
            "deployment": "dedicated_cloud",
            "provider": "aws",
            "offer": "p5-on-demand-2026-09",
            "gpu": "h100-sxm",
            "gpus": 8,
            "pricing": "on_demand",
        },
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    assert (round(55.04 * 176), round(55.04 * 730)) == (9687, 40179)
    runner = CliRunner(env={"COLUMNS": "400"})
    english = " ".join(runner.invoke(main, ["check", str(path)]).output.split())
    assert (
        "by a script or a scheduler; left running every calendar hour they cost about $40,179 a month at "
        "this price instead of $9,687. Capacity paid by the hour is not reserved: a provider may have none "
        "free at the next start. The workload says its provider confirms the cards at each start "
        "(capacity_confirmed): hold that confirmation in writing for this business-critical service."
    ) in english
    german = " ".join(runner.invoke(main, ["check", str(path), "--lang", "de"]).output.split())
    assert "kosten sie zu diesem Preis etwa 40.179 $ im Monat statt 9.687 $." in german
    # Not business-critical: the same release and its cost, without the advice to keep the cards.
    document["workload"]["business_critical"] = False
    del document["workload"]["capacity_confirmed"]
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    internal = " ".join(runner.invoke(main, ["check", str(path)]).output.split())
    assert (
        "WARN PRC022 Rented by the hour for the paid hours: released outside them, and not promised back"
        in (internal)
    )
    assert "left running every calendar hour they cost about $40,179 a month" in internal
    assert "for this business-critical service" not in internal
