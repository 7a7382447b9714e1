"""Proposals ``check`` refuses as input: fields the deployment does not use (a provider, offer or spot
tier for bought servers, a price tier for serverless, servers for a rental), and a bad workload beside a
bad proposal, listed together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_check_api import checked


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
