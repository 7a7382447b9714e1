"""A proposal below the cards its peak needs: SIZ009 counts the replicas the workload keeps beyond the
peak and says what the latency checks found at the peak; SIZ016 warns a business-critical service whose
only replica runs on one machine."""

from __future__ import annotations

import datetime as dt
from typing import Any

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

AS_OF = dt.date(2026, 12, 3)

INSURER = {
    "name": "insurer-support-dach",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 350,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "CH",
    "personal_data_region": "eu",
    "business_critical": True,
}
"""A Swiss insurer's support bot on EU customers' data (a walkthrough's workload): 2 replicas of 2 H100
carry its peak, and a business-critical service gets a third."""

ONE_BOX = {
    "name": "one scaleway 2xH100 box",
    "deployment": "dedicated_cloud",
    "provider": "scaleway",
    "offer": "h100-sxm-2-80g",
    "gpu": "h100-sxm",
    "gpus": 2,
    "pricing": "on_demand",
    "region": "fr-par-2",
}


def results(workload: dict[str, Any], proposal: dict[str, Any]) -> dict[str, Any]:
    document = ProposalDocument.model_validate({"workload": workload, "proposal": proposal})
    return {item.rule_id: item for item in check_document(document, "p.yaml", 1, AS_OF).results}


def test_one_replica_that_keeps_up_at_the_peak_is_warned_without_contradicting_the_latency_checks() -> None:
    found = results(INSURER, ONE_BOX)
    assert (found["LAT005"].status, found["LAT006"].status) == ("pass", "pass")
    assert found["SIZ009"].status == "warn"
    assert found["SIZ009"].message == (
        "2 × h100-sxm hold the weights, but the peak needs about 4 cards of this GPU (6 with the replicas "
        "the workload keeps beyond its peak): replicas sized so that the busiest minutes fill at most 70 % "
        "of the estimated throughput, after the estimate's error band is taken off. At the estimated peak "
        "the proposed replicas are not saturated, but they have no room for a burst or for an estimate that "
        "was optimistic (LAT005 and LAT006 say whether they meet the latency targets, LAT013 and LAT014 "
        "whether they do with a replica lost)."
    )
    assert found["SIZ016"].status == "warn"
    assert found["SIZ016"].message == (
        "The proposal runs its only replica on one instance: a failure of that machine, its maintenance, "
        "or a GPU fault that stops it takes the whole service down. Run a second replica on another "
        "machine (SIZ015; every rental and owned server gpu-advisor prices is placed so)."
    )


def test_a_replica_the_peak_overloads_expects_queueing() -> None:
    """Four times the requests: the one replica cannot carry the peak (its prompts queue without bound:
    LAT005 fails), and SIZ009 expects queueing. The requests the engine admits decode in its full batch,
    about 74 ms between tokens, within the default target: LAT006 passes (it failed on a time between
    tokens said to grow without bound, which a full batch's step does not)."""
    busier = {**INSURER, "requests_per_day": 240_000}
    found = results(busier, ONE_BOX)
    assert (found["LAT005"].status, found["LAT006"].status) == ("fail", "pass")
    assert round(found["LAT006"].evidence["time_per_output_token_intact_ms"]) == 74
    assert found["SIZ009"].message.endswith("Expect queueing and rising latency at peak.")
    assert "not saturated" not in found["SIZ009"].message
    # The wait that grows without bound is no figure in the evidence (it read 1e12 ms), and says why.
    # LAT005 and LAT006 read the peak on all the proposed replicas (here the one).
    evidence = found["LAT005"].evidence
    assert evidence["time_to_first_token_intact_ms"] is None and evidence["peak_overloads_intact"] is True
    assert "peak_overloads_replicas" not in evidence
    # The time between tokens of the requests admitted is a figure (the full batch's step), not unbounded.
    assert "peak_overloads_intact" not in found["LAT006"].evidence
    # Where the replicas carry the peak, the evidence gives the figure.
    carried = results(INSURER, ONE_BOX)["LAT005"].evidence
    assert carried["time_to_first_token_intact_ms"] > 0 and "peak_overloads_intact" not in carried


def test_two_replicas_the_peak_needs_on_one_machine_hold_no_spare() -> None:
    """Two replicas of 2 H100 on one 4-card instance: the peak needs both, so SIZ016 says the machine
    takes the service down, and not that a spare goes with it."""
    two = {**ONE_BOX, "offer": "h100-sxm-4-80g", "gpus": 4}
    found = results({**INSURER, "latency_sensitive": False}, two)
    assert found["SIZ016"].status == "warn"
    assert found["SIZ016"].message.startswith(
        "The proposal runs all its replicas on one instance: a failure of that machine, its maintenance, or "
        "a GPU fault that stops it takes the whole service down. Spread them over two"
    )


def test_where_the_latency_targets_set_the_peaks_cards_siz009_says_so() -> None:
    """A first token within 100 ms: the latency targets, not the 70 % headroom, set the cards the peak
    needs on H100 (8, and 4 more for the business-critical spare), and SIZ009 says which."""
    found = results({**INSURER, "max_time_to_first_token_ms": 100}, ONE_BOX)
    assert found["SIZ009"].status == "warn"
    assert (
        "8 cards of this GPU (12 with the replicas the workload keeps beyond its peak): replicas sized so"
        in (found["SIZ009"].message)
    )
    assert "replicas sized so that the peak keeps the latency targets." in found["SIZ009"].message
    assert "70 %" not in found["SIZ009"].message


def test_cards_that_hold_no_replica_are_named_as_why_latency_is_unknown() -> None:
    """One H100 for a 70B model in BF16 (two hold its weights): SIZ007 fails it, and the checks that need a
    replica's latency say why they cannot tell, instead of asking the proposal for a latency field."""
    workload = {
        "name": "chat",
        "model": {"name": "llama-3.1-70b", "precision": "bf16"},
        "requests_per_day": 100_000,
    }
    found = results(workload, {**ONE_BOX, "gpus": 1})
    assert found["SIZ007"].status == "fail"
    assert found["LAT005"].status == "unknown"
    assert found["LAT005"].message.endswith(
        "the proposed cards hold no replica of the model (SIZ007 and SIZ009 say what one needs), so there is "
        "no replica to estimate."
    )
