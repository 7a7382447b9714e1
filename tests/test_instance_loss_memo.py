"""A service's spare replica covers a failed card, not an instance that carries more replicas than the
spares: the memo says so where the best rental places them so (a service that is not business-critical,
whose replicas are not spread, SIZ015), from the replicas on the fullest instance
(``Option.replicas_on_fullest_instance``, the replicas spread as evenly as the instances allow), and
where smaller instances of the offer would cover it on the same cards, says so
(``Option.instances_covering_a_loss_at_no_cost``)."""

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

REMEDY = (
    "Where the service must survive the loss of an instance, set business_critical: true: the rules then "
    "place the replicas so that it does, on more instances where that takes them (SIZ015), and ask more "
    "of the providers too (an enterprise SLA, PRV003), which may change the offer.\n"
)

CLAIMS_CH: dict[str, Any] = {
    "name": "claims-ch",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 115000,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 500,
    "load_pattern": "steady",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "CH",
}
"""Own weights, so no API: the recommendation rents Scaleway's one 8-card H100 instance, four replicas of
two cards on it, one of them the spare. At 115,000 requests a day three replicas carry the peak at 63 % of
their capacity; at 120,000, with a replica at 2.11 requests/s beside the exact 70.55 GB of weights (2.12
beside 70 GB), three would run at 65.6 %, above the 65.4 % (70 % / 1.07) the headroom allows, and a fifth
replica takes the service onto five 2-card instances."""


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
    """RunPod's one 2-card H100 PCIe pod carries both replicas; the same cards as two 1-card pods, at the
    same price per card, would cover a lost pod: the memo says both, and leaves the choice to the team
    (more pods to run, each with its disk and weights)."""
    best = best_option(tmp_path, SPORADIC)
    assert (best["offer"], best["gpu"], best["replicas"], best["spare_replicas"]) == (
        "community",
        "h100-pcie",
        2,
        1,
    )
    assert best["instances"] == [{"gpus": 2, "count": 1}]
    assert (best["replicas_on_fullest_instance"], best["instances_covering_a_loss_at_no_cost"]) == (2, 2)
    memo = run(tmp_path, SPORADIC)
    assert (
        "One spare replica on top keeps the peak served when a replica fails or is updated: 2 GPUs in all.\n"
        "It does not cover a lost instance: both replicas run on one, and a fault of its host, its "
        "maintenance or a GPU fault that stops it takes the service down until it is replaced.\n"
        "The offer also comes in smaller instances at the same price per card: the replicas on 2 instances "
        "would cover it on the same cards and at the same GPU bill (more instances to run, each with its own "
        "disk and copy of the weights, which the estimate does not price; ask the provider to put them on "
        "separate hosts).\n"
    ) in memo
    # The managed API is the recommendation: the rental is shown for comparison, with no way out to take.
    assert "Recommendation: **Managed API**" in memo
    assert REMEDY not in memo
    german = run(tmp_path, SPORADIC, "--lang", "de")
    assert (
        "Ein zusätzliches Ersatzreplikat sichert die Spitze ab, wenn ein Replikat ausfällt oder aktualisiert "
        "wird: 2 GPUs insgesamt.\nEine ausgefallene Instanz deckt es nicht ab: Beide Replikate laufen auf "
        "einer, und ein Fehler ihres Hosts, ihre Wartung oder ein GPU-Fehler, der sie anhält, legt den "
        "Dienst still, bis sie ersetzt ist.\n"
    ) in german
    assert "Die 2 Replikate" not in german
    # the latency at the peak leaves the spare aside, as while it stands in for a lost replica
    assert (
        "Latenz in der Spitze, die Last auf die dafür ausgelegten Replikate verteilt (ohne Ersatzreplikate, "
        "wie wenn eines für ein ausgefallenes Replikat einspringt): das erste Token nach"
    ) in german


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
    assert (
        "Eine ausgefallene Instanz deckt es nicht ab: Die 4 Replikate laufen alle auf einer, und ein Fehler "
        "ihres Hosts, ihre Wartung oder ein GPU-Fehler, der sie anhält, legt den Dienst still, bis sie "
        "ersetzt ist.\n"
    ) in run(tmp_path, CLAIMS_CH, "--lang", "de")


def test_replicas_over_several_instances_count_those_one_carries(tmp_path: Path) -> None:
    """The claims assistant at 250,000 requests a day: eight replicas of 2 × H100 on two of Scaleway's
    8-card instances (its smaller ones would bill more here), four on each; losing one leaves four of the
    seven the peak needs."""
    busier = {**CLAIMS_CH, "requests_per_day": 250000}
    best = best_option(tmp_path, busier)
    assert (best["offer"], best["instances"]) == ("h100-sxm-8-80g", [{"gpus": 8, "count": 2}])
    assert (best["replicas"], best["spare_replicas"], best["replicas_on_fullest_instance"]) == (8, 1, 4)
    # Scaleway sells its 2- and 4-card H100 SXM as other offers at other prices: no spread at no cost.
    assert best["instances_covering_a_loss_at_no_cost"] == 0
    assert (
        "It does not cover a lost instance: one here carries 4 of the 8 replicas, and the replicas left (4) "
        "are fewer than the 7 the peak needs.\n" + REMEDY
    ) in run(tmp_path, busier)


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
