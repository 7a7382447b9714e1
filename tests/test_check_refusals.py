"""Proposals ``check`` refuses as input: fields the deployment does not use (a provider, offer or spot
tier for bought servers, a price tier for serverless, servers for a rental), and a bad workload beside a
bad proposal, listed together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from test_check_api import checked

WORKLOAD = {
    "name": "x",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 5,
}


@pytest.mark.parametrize(
    ("proposal", "field", "said"),
    [
        # A spot tier on bought servers passed PRC007 (spot for a latency-sensitive service) unsaid.
        (
            {"deployment": "own_hardware", "server": "hgx-h100-8", "servers": 1, "pricing": "spot"},
            "pricing",
            "not for own hardware: its servers are bought (server, servers); leave it out",
        ),
        (
            {"deployment": "own_hardware", "servers": 1, "provider": "aws", "offer": "p5-spot"},
            "provider",
            "not for own hardware: its servers are bought (server, servers); leave it out",
        ),
        (
            {"deployment": "serverless", "provider": "modal", "gpu": "h100-sxm", "pricing": "spot"},
            "pricing",
            "a serverless product bills the time its instances are up: leave pricing out",
        ),
        (
            {"deployment": "dedicated_cloud", "provider": "aws", "gpu": "h100-sxm", "servers": 5},
            "servers",
            "the servers to buy: only with deployment: own_hardware",
        ),
    ],
)
def test_a_field_the_deployment_does_not_use_is_refused(
    tmp_path: Path, proposal: dict[str, Any], field: str, said: str
) -> None:
    result = checked(tmp_path, proposal)
    assert result.exit_code == 2
    assert f"proposal.{field}: {said}" in result.output


def test_serverless_pricing_may_be_named_as_it_is() -> None:
    from gpu_advisor.engine.domain.proposal import ProposalInput

    stated = ProposalInput.model_validate({"deployment": "serverless", "pricing": "serverless"})
    assert stated.pricing == "serverless"


def test_a_bad_workload_and_a_bad_proposal_are_refused_together(tmp_path: Path) -> None:
    """Only the proposal's problems were listed, the workload's only after they were fixed (the HTTP
    service listed both)."""
    workload = {"name": "x", "model": {"name": "llama-3.1-70b", "precision": "fp9"}, "requests_per_day": -5}
    result = checked(tmp_path, {"deployment": "dedicated_cloud", "gpus": -2}, workload)
    assert result.exit_code == 2
    assert result.output.endswith(
        "proposal.yaml (proposal 1): invalid proposal\n"
        "  workload.model.precision: Input should be 'fp32', 'bf16', 'fp16', 'fp8', 'int8' or 'int4' "
        "(got 'fp9')\n"
        "  workload.requests_per_day: Input should be greater than 0 (got -5)\n"
        "  proposal.gpus: Input should be greater than 0 (got -2)\n"
    )


def test_every_waiver_of_no_check_is_refused_in_one_error(tmp_path: Path) -> None:
    """Only the first waiver naming no check was said; the next were found one fixed run at a time."""
    from helpers import invoke

    from gpu_advisor.engine.rulebook.loading import load_rulebook

    checks = ", ".join(sorted(rule.id for rule in load_rulebook().rules if rule.fact == "proposal"))
    path = tmp_path / "proposal.yaml"
    waivers = [
        {"rule": "XYZ999", "reason": "r"},
        {"rule": "NET002", "reason": "r"},  # a check: waived as before
        {"rule": "DEP006", "reason": "r"},
        {"rule": "prc0077", "reason": "r"},
    ]
    document = {"workload": WORKLOAD, "proposal": {"deployment": "api"}, "waivers": waivers}
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = invoke("check", str(path))
    assert (result.exit_code, result.output) == (
        2,
        f"error: {path} (proposal 1): invalid proposal\n"
        f"  waivers.0.rule: unknown value 'XYZ999'; allowed: {checks}\n"
        "  waivers.2.rule: DEP006 is a rule of the decision, not a check: it has no outcome to waive; the "
        f"checks are {checks}\n"
        f"  waivers.3.rule: unknown value 'PRC0077'; allowed: {checks} (did you mean 'PRC007'?)\n",
    )
    german = invoke("check", str(path), "--lang", "de").output
    assert german == (
        f"Fehler: {path} (Vorschlag 1): ungültiger Vorschlag\n"
        f"  waivers.0.rule: unbekannter Wert 'XYZ999'; zulässig: {checks}\n"
        "  waivers.2.rule: DEP006 ist eine Regel der Entscheidung, keine Prüfung: Es gibt kein Ergebnis, das "
        f"sich ausnehmen ließe; die Prüfungen sind {checks}\n"
        f"  waivers.3.rule: unbekannter Wert 'PRC0077'; zulässig: {checks} (meinten Sie 'PRC007'?)\n"
    )
    # One alone is said on one line, as before.
    document["waivers"] = waivers[:2]
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    alone = invoke("check", str(path))
    assert (alone.exit_code, alone.output) == (
        2,
        f"error: {path} (proposal 1): waivers.0.rule: unknown value 'XYZ999'; allowed: {checks}\n",
    )
