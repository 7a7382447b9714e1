"""The ``latency_fit`` fact: can a GPU meet the workload's latency targets at all?

One per GPU that holds the model, for a workload with latency targets: what a lone request sees on an
idle replica of the cards per replica the load is sized with (no load makes it faster; a count that
meets the targets where one does), the targets, and the fastest GPU and card count's figures, so that a
rule can tell a GPU that misses a target others meet from a target no GPU meets.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from gpu_advisor.engine.rulebook.fact_base import Fact, Guard


class LatencyFitFact(Fact):
    shared_between_evaluations: ClassVar[bool] = True

    kind: Literal["latency_fit"] = "latency_fit"
    gpu: str
    cards_per_replica: int
    time_to_first_token_alone_ms: float
    """A lone prompt's prefill and its first decode step on an idle replica."""
    time_per_output_token_alone_ms: float
    """One decode step for a lone sequence: the fastest any load sees."""
    time_to_first_token_kept_ms: float
    time_per_output_token_kept_ms: float
    """What this GPU's replicas can be planned to keep at the peak: the target, or a lone request's time
    plus the estimate's mean latency error where that is more (``calc.policy``)."""
    ttft_target_given: bool
    max_time_to_first_token_ms: Annotated[float, Guard("ttft_target_given")]
    tpot_target_given: bool
    max_time_per_output_token_ms: Annotated[float, Guard("tpot_target_given")]
    ttft_target_defaulted: bool
    tpot_target_defaulted: bool
    """The target is the default of a latency-sensitive service (``workload_defaults.yaml``), not one the
    workload states."""
    latency_margin: float
    """How far above a lone request's time a target must lie to be planned to (the estimate's mean
    latency error, ``calc.policy``)."""
    fastest_time_to_first_token_kept_ms: float
    """The fastest lone time to first token plus the margin: the closest any GPU's replicas can be
    planned to."""
    fastest_time_per_output_token_kept_ms: float
    shortfall_alone: float
    """How far this GPU's replicas are from the targets: the largest ratio of a lone request's time plus
    the margin to a target (1 or less: planned to every target)."""
    closest_gpu: str
    """The GPU (of those the workload may have) and card count whose replicas come nearest every target
    at once: the least ``shortfall_alone``."""
    closest_cards: int
    closest_shortfall_alone: float
    closest_meets_targets: bool
    """The closest GPU can be planned to every target."""
    closest_time_to_first_token_kept_ms: float
    closest_time_per_output_token_kept_ms: float
    """What the closest GPU's replicas keep (0 for a target the workload does not set)."""
    fastest_ttft_gpu: str
    """The GPU with the shortest lone time to first token among those the workload may have (sold where
    it may run them, with the cards a replica needs) that hold the model, at any card count up to a
    node."""
    fastest_ttft_cards: int
    fastest_time_to_first_token_alone_ms: float
    fastest_tpot_gpu: str
    fastest_tpot_cards: int
    fastest_time_per_output_token_alone_ms: float
    meeting_ttft_gpu: str
    """The GPU and card count a rule names as meeting the time-to-first-token target: of those that meet
    it, the fewest cards, then the lowest on-demand price per GPU-hour in the catalog, then the fastest;
    the fastest where none meets it."""
    meeting_ttft_cards: int
    meeting_time_to_first_token_alone_ms: float
    meeting_tpot_gpu: str
    """The same for the time-per-output-token target."""
    meeting_tpot_cards: int
    meeting_time_per_output_token_alone_ms: float
    fastest_for_ttft: bool
    """This GPU is ``fastest_ttft_gpu``: a rule about every GPU missing the target speaks once, here."""
    fastest_for_tpot: bool
