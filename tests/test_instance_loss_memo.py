"""A service's spare replica covers a failed card, not an instance that carries more replicas than the
spares: the memo says so where the best rental places them so (a service that is not business-critical,
whose replicas are not spread, SIZ015), from the replicas on the fullest instance
(``Option.replicas_on_fullest_instance``, the replicas spread as evenly as the instances allow)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main

AS_OF = "2026-11-30"

SPORADIC: dict[str, Any] = {
    "name": "sporadic-tool",
    "model": {"name": "qwen2.5-32b", "precision": "bf16"},
    "requests_per_day": 2000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "latency_sensitive": True,
    "company_country": "AT",
}
"""Latency-sensitive, so a spare (SIZ010): RunPod's 2-card H100 PCIe instance carries both replicas."""

CONSTANT_405B: dict[str, Any] = {
    "name": "constant-405b",
    "model": {"name": "llama-3.1-405b", "precision": "fp8"},
    "requests_per_day": 400000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 400,
    "load_pattern": "steady",
    "schedule": "always",
    "utilization": 0.9,
    "latency_sensitive": True,
    "company_country": "DE",
}
"""Six replicas of 4 × H200 (five for the peak and a spare) on three 8-card instances: two on each."""

ALL_ON_ONE = (
    "It does not cover a lost instance: the 2 replicas all run on one, and a fault of its host, its "
    "maintenance or a GPU fault that stops it takes the service down until it is replaced.\n"
)
REMEDY = (
    "Where the service must survive the loss of an instance, set business_critical: true: the rules then "
    "place the replicas so that it does, on more instances where that takes them (SIZ015), and ask more "
    "of the providers too (an enterprise SLA, PRV003), which may change the offer.\n"
)

CLAIMS_CH: dict[str, Any] = {
    "name": "claims-ch",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 120000,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 500,
    "load_pattern": "steady",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "CH",
}
"""Own weights, so no API: the recommendation rents Scaleway's one 8-card H100 instance, four replicas of
two cards on it, one of them the spare."""


def run(tmp_path: Path, workload: dict[str, Any], *args: str) -> str:
    path = tmp_path / "workload.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    result = CliRunner().invoke(main, ["recommend", str(path), "--as-of", AS_OF, *args])
    assert result.exit_code == 0, result.output
    return result.output


def best_option(tmp_path: Path, workload: dict[str, Any]) -> dict[str, Any]:
    option: dict[str, Any] = json.loads(run(tmp_path, workload, "--format", "json"))["best_option"]
    return option


def test_a_spare_on_the_instance_of_the_others_is_said_not_to_cover_its_loss(tmp_path: Path) -> None:
    best = best_option(tmp_path, SPORADIC)
    assert (best["offer"], best["gpu"], best["replicas"], best["spare_replicas"]) == (
        "community",
        "h100-pcie",
        2,
        1,
    )
    assert best["instances"] == [{"gpus": 2, "count": 1}]
    assert best["replicas_on_fullest_instance"] == 2
    memo = run(tmp_path, SPORADIC)
    assert (
        "One spare replica on top keeps the peak served when a replica fails or is updated: 2 GPUs in all.\n"
        + ALL_ON_ONE
    ) in memo
    # The managed API is the recommendation: the rental is shown for comparison, with no way out to take.
    assert "Recommendation: **Managed API**" in memo
    assert REMEDY not in memo


def test_where_the_rental_is_the_recommendation_the_way_out_is_said(tmp_path: Path) -> None:
    best = best_option(tmp_path, CLAIMS_CH)
    assert (best["chosen"], best["provider"], best["instances"]) == (
        True,
        "scaleway",
        [{"gpus": 8, "count": 1}],
    )
    assert (best["replicas"], best["spare_replicas"], best["replicas_on_fullest_instance"]) == (4, 1, 4)
    assert (
        "It does not cover a lost instance: the 4 replicas all run on one, and a fault of its host, its "
        "maintenance or a GPU fault that stops it takes the service down until it is replaced.\n" + REMEDY
    ) in run(tmp_path, CLAIMS_CH)


def test_replicas_over_several_instances_count_those_one_carries(tmp_path: Path) -> None:
    best = best_option(tmp_path, CONSTANT_405B)
    assert best["instances"] == [{"gpus": 8, "count": 3}]
    # Six replicas of four cards over three instances of eight: two on each.
    assert (best["replicas"], best["spare_replicas"], best["replicas_on_fullest_instance"]) == (6, 1, 2)
    assert (
        "It does not cover a lost instance: one here carries 2 of the 6 replicas, and the replicas left (4) "
        "are fewer than the 5 the peak needs.\n"
    ) in run(tmp_path, CONSTANT_405B)


def test_a_business_critical_service_spreads_its_replicas_and_says_nothing_of_the_kind(
    tmp_path: Path,
) -> None:
    critical = {**SPORADIC, "business_critical": True}
    best = best_option(tmp_path, critical)
    assert (best["replicas"], best["spare_replicas"], best["replicas_on_fullest_instance"]) == (2, 1, 1)
    memo = run(tmp_path, critical)
    assert "does not cover a lost instance" not in memo
    assert REMEDY not in memo


def test_a_service_without_a_spare_makes_no_such_claim(tmp_path: Path) -> None:
    relaxed = {**SPORADIC, "latency_sensitive": False}
    best = best_option(tmp_path, relaxed)
    assert best["spare_replicas"] == 0
    assert "does not cover a lost instance" not in run(tmp_path, relaxed)


def test_the_managed_api_table_names_the_country_it_knows(tmp_path: Path) -> None:
    german = {**SPORADIC, "model": {"name": "llama-3.3-70b", "precision": "fp8"}, "personal_data": True}
    memo = run(tmp_path, german)
    assert "| Llama 3.3 70B Instruct (IONOS AI Model Hub) | EU (DE) |" in memo
    assert "| Llama 3.3 70B Instruct (OVHcloud AI Endpoints) | EU (FR) |" in memo
