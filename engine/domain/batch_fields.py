"""Workload fields that apply to a batch only, and those a batch cannot have (or only a business-critical
service has): each is refused where it would be ignored, since the likelier mistake is a forgotten
``load_pattern`` (the default is steady)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationInfo, field_validator

from gpu_advisor.engine.common.wording import Words, WordsError

BATCH_FIELDS = ("batch_window_hours", "batch_runs_per_month")
"""The fields a batch only has: its window and how often a month it runs."""

LATENCY_TARGETS = ("max_time_to_first_token_ms", "max_time_per_output_token_ms")
"""The fields a batch cannot have: its requests wait for the window's cards by design."""


def only_for_a_batch(value: float | None, info: ValidationInfo) -> float | None:
    """A batch's field (its window, its runs a month) on a workload that is not a batch would be ignored:
    it is refused instead, since the likelier mistake is a batch whose ``load_pattern`` was forgotten (the
    default is steady) than a value meant to be ignored. A load pattern that is itself invalid is reported
    alone."""
    if value is None or "load_pattern" not in info.data:
        return value
    pattern = info.data["load_pattern"]
    if pattern is None:
        from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

        pattern = load_knowledge().workload_default_values()["load_pattern"]
        if pattern != "batch":
            raise WordsError(
                Words(
                    "applies to load_pattern: batch only, and this workload's load_pattern is %(pattern)s by "
                    "default; set load_pattern: batch or leave %(field)s out",
                    pattern=pattern,
                    field=info.field_name,
                )
            )
    elif pattern != "batch":
        raise WordsError(
            Words(
                "applies to load_pattern: batch only, and this workload's load_pattern is %(pattern)s; set "
                "load_pattern: batch or leave %(field)s out",
                pattern=pattern,
                field=info.field_name,
            )
        )
    return value


def no_target_for_a_batch(value: float | None, info: ValidationInfo) -> float | None:
    """A latency target on a batch would be ignored (its requests wait for the window's cards): refused."""
    if value is not None and info.data.get("load_pattern") == "batch":
        raise WordsError(
            Words("a batch has no latency targets, its requests wait for its window; leave it out")
        )
    return value


def only_for_a_critical_service(value: bool | None, info: ValidationInfo) -> bool | None:
    """``capacity_confirmed`` prices a business-critical service's rentals for its paid hours (PRC033
    keeps them every hour otherwise) and its mixed fleets (PRC034 prices none otherwise), and records the
    confirmation PRC032 asks a business-critical batch for at each run's start: on any other workload it
    would be ignored, so it is refused."""
    if not value:
        return value
    if info.data.get("business_critical") is not True:
        raise WordsError(
            Words(
                "applies to a business-critical workload only (no other's rented cards are kept every hour "
                "or asked for at each run's start); set business_critical: true or leave it out"
            )
        )
    return value


def paired_field_validators() -> dict[str, Any]:
    """The checks of the workload fields that apply only beside another's value, for the input model."""
    return {
        "_batch_fields": field_validator(*BATCH_FIELDS)(only_for_a_batch),
        "_no_batch_targets": field_validator(*LATENCY_TARGETS)(no_target_for_a_batch),
        "_confirmed_cards": field_validator("capacity_confirmed")(only_for_a_critical_service),
    }
