"""A proposal whose cards do not divide into whole replicas: SIZ012 said "3 × h100-sxm carry the peak"
where one replica of two cards carries it and the third card holds no replica of that size (Llama 3.1 70B
FP8's eight key-value heads split over 1, 2, 4 or 8 cards, not 3)."""

from __future__ import annotations

from typing import Any

import yaml
from helpers import invoke

from gpu_advisor.api import check

HR_CHAT: dict[str, Any] = {
    "name": "hr-chat",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 40_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "latency_sensitive": True,
    "company_country": "DE",
}


def proposal(gpus: int) -> dict[str, Any]:
    return {
        "name": f"{gpus} H100",
        "deployment": "dedicated_cloud",
        "provider": "runpod",
        "offer": "community",
        "gpu": "h100-sxm",
        "gpus": gpus,
        "pricing": "on_demand",
    }


def siz012(gpus: int) -> Any:
    results = check({"workload": HR_CHAT, "proposal": proposal(gpus)}).results
    return {item.rule_id: item for item in results}["SIZ012"]


def test_a_card_left_over_is_said_to_hold_no_replica() -> None:
    item = siz012(3)
    assert item.status == "warn"
    assert item.message.startswith(
        "3 × h100-sxm hold 1 replica of 2 cards, which carries the peak (the card left over holds no "
        "replica of this size), but the workload needs 4 cards of this GPU"
    )
    document = yaml.safe_dump({"workload": HR_CHAT, "proposal": proposal(3)}, allow_unicode=True)
    german = " ".join(invoke("check", "-", "--lang", "de", stdin=document).output.split())
    assert (
        "3 × h100-sxm fassen 1 Replikat aus 2 Karten, das die Spitze trägt (die übrige Karte fasst kein "
        "Replikat dieser Größe), aber der Workload braucht 4 Karten dieser GPU"
    ) in german


def test_whole_replicas_carry_the_peak_as_before() -> None:
    item = siz012(2)
    assert item.status == "warn"
    assert item.message.startswith("2 × h100-sxm carry the peak, but the workload needs 4 cards of this GPU")
