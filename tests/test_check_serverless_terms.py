"""A serverless proposal is priced as the product bills its instances for the workload: where a
latency-sensitive service keeps instances warm, the check says how many and under which setting, since a
proposal that leaves the product's default scales to zero and makes a request wait for a start."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import invoke

PROPOSAL = """\
workload:
  name: chat8b
  model: {name: llama-3.1-8b, precision: bf16}
  requests_per_day: 20000
  latency_sensitive: LATENCY
proposals:
  - name: modal l40s
    deployment: serverless
    provider: modal
    offer: functions
    gpu: l40s
"""


def test_the_instances_kept_warm_and_their_setting_are_named(tmp_path: Path) -> None:
    """Two L40S instances kept warm in every hour at Modal's $1.9512 an hour: 2 x 1.9512 x 730 = $2,849;
    a start loads 16 GB of weights at Modal's 2.5 GB/s after its 1 s boot, and vLLM starts in 21.8 s:
    29.2 s."""
    path = tmp_path / "p.yaml"
    path.write_text(PROPOSAL.replace("LATENCY", "true"), encoding="utf-8")
    result = invoke("check", str(path))
    assert "proposed: $2,849 per month" in result.output
    assert (
        "  Priced with 2 instances kept running in the 730 paid hours a month (`min_containers`: 2): set "
        "that, or the endpoint scales to zero and a request that finds no instance waits at least 29.2 s for "
        "a start. GPU time only: Modal serverless functions bills CPU cores ($0.0472 per core-hour) and "
        "memory ($0.00799 per GiB-hour) on top.\n"
    ) in result.output
    data = json.loads(invoke("check", str(path), "--format", "json").output)
    billing = data[0]["serverless"]
    assert (billing["instances_kept"], billing["settings"]["minimum"]) == (2, "min_containers")
    assert round(2 * 1.9512 * 730) == 2849


def test_a_proposal_that_may_wait_is_priced_scaling_to_zero(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(PROPOSAL.replace("LATENCY", "false"), encoding="utf-8")
    result = invoke("check", str(path))
    assert "  Priced scaling to zero: about " in result.output
    assert "requests a month find no instance running and wait at least 29.2 s for a start." in result.output


def test_a_part_time_service_keeps_its_instances_in_the_paid_hours_only(tmp_path: Path) -> None:
    """Office hours: 2 x 1.9512 x 176 = $687 kept warm, plus the daily starts; the setting is 2 in those
    hours and 0 outside them (left at 2 around the clock it would bill 2 x 1.9512 x 730 = $2,849)."""
    path = tmp_path / "p.yaml"
    path.write_text(
        PROPOSAL.replace("LATENCY", "true").replace(
            "  latency_sensitive: true\n", "  latency_sensitive: true\n  schedule: office_hours\n"
        ),
        encoding="utf-8",
    )
    result = invoke("check", str(path))
    assert "proposed: $689 per month" in result.output
    assert (
        "Priced with 2 instances kept running in the 176 paid hours a month (`min_containers`: 2 in them, 0 "
        "outside them)"
    ) in result.output
