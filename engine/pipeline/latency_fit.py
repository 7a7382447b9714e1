"""The ``latency_fit`` facts: for a workload with latency targets, what a lone request sees on each GPU
that holds the model, beside the bar the latency rules hold it to: the GPU and card count whose replicas
come nearest every target at once (the closest), the fastest, and the plainest that meets each target.

The bar is worked out on the model as given. The model one quantization step down is judged against the
same bar, so the quantized GPUs a latency rule rules out are those that come less near the targets than
the recommendation's own replicas: quantizing onto them would buy a cheaper fleet with a longer wait.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from gpu_advisor.engine.calc.calibration import latency_margin
from gpu_advisor.engine.calc.card_keys import parse_cards
from gpu_advisor.engine.calc.latency import OperatingPoint, lone_request
from gpu_advisor.engine.calc.performance import PERFORMANCES_KEPT, ReplicaPerformance, candidate_performances
from gpu_advisor.engine.calc.policy import kept_target, shortfall
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.rulebook.facts import LatencyFitFact

EVERY_GPU = "*"
"""``latency_fit_facts``' witnesses without workload rules: every GPU at every card count."""

Candidate = tuple[ReplicaPerformance, OperatingPoint]
"""A replica's performance at one card count and what a lone request sees on it."""

Defaulted = tuple[bool, bool]
"""Whether the time-to-first-token and the time-per-output-token targets are defaults."""


@dataclass(frozen=True)
class LatencyBar:
    """What the latency rules compare every GPU with, from the model as given."""

    max_ttft_ms: float | None
    max_tpot_ms: float | None
    margin: float
    """How far above a lone request's time a target must lie to be planned to (``calc.policy``)."""
    fastest_ttft: Candidate
    fastest_tpot: Candidate
    closest: Candidate
    """The GPU and card count whose replicas come nearest every target at once."""
    meeting_ttft: Candidate
    meeting_tpot: Candidate
    """The plainest that meets each target (the fastest where none does)."""
    defaulted: Defaulted = (False, False)
    """Whether each target is the default of a latency-sensitive service rather than the workload's
    own (the rules drop a default no GPU meets: LAT010, LAT011)."""

    def shortfall(self, point: OperatingPoint) -> float:
        return shortfall(point, self.max_ttft_ms, self.max_tpot_ms, self.margin)

    def held_to_closest(self) -> LatencyBar:
        """The bar another sizing of the model is held to, target by target: each target, or where the
        closest GPU's replicas keep more than it, what they keep. The closest meets it by construction, so
        the rules for a GPU that misses a target another meets (LAT001, LAT002) judge every target apart:
        coming nearer on one target does not buy a longer wait on the other."""
        ttft, tpot = self.kept_ms(self.closest[1])
        return replace(
            self,
            max_ttft_ms=ttft if self.max_ttft_ms is not None else None,
            max_tpot_ms=tpot if self.max_tpot_ms is not None else None,
        )

    def kept_ms(self, point: OperatingPoint) -> tuple[float, float]:
        """What replicas whose lone request sees ``point`` keep of each target (0: no target)."""
        return (
            kept_target(point.time_to_first_token_ms, self.max_ttft_ms, self.margin) or 0.0,
            kept_target(point.time_per_output_token_ms, self.max_tpot_ms, self.margin) or 0.0,
        )


def standing_candidates(
    knowledge: Knowledge, figures: SizingFigures, input_tokens: int, output_tokens: int, unsuitable: str
) -> dict[str, tuple[ReplicaPerformance, ...]]:
    """Every card count of every GPU the gpu_fit rules left standing (``unsuitable``: the GPUs they ruled
    out, comma-separated)."""
    ruled_out = unsuitable.split(",")
    return {
        gpu: candidates
        for gpu, candidates in candidate_performances(knowledge, figures, input_tokens, output_tokens).items()
        if gpu not in ruled_out
    }


@per_object(entries=PERFORMANCES_KEPT)
def latency_bar(
    knowledge: Knowledge,
    figures: SizingFigures,
    input_tokens: int,
    output_tokens: int,
    max_ttft_ms: float | None,
    max_tpot_ms: float | None,
    unsuitable: str,
    admitted: str = EVERY_GPU,
    ttft_defaulted: bool = False,
    tpot_defaulted: bool = False,
    /,
) -> LatencyBar | None:
    """The bar among the ``admitted`` GPUs (a ``cards_key``: the GPUs an option the workload's rules admit
    runs on, at most the cards it sells a replica on; ``EVERY_GPU`` for ``gpu-advisor size``, which has
    no workload rules); None without a target or without a GPU to compare."""
    if max_ttft_ms is None and max_tpot_ms is None:
        return None
    standing = standing_candidates(knowledge, figures, input_tokens, output_tokens, unsuitable)
    # The fastest any admitted GPU gets at any card count it is sold in, for the rules that tell a GPU
    # that misses a target from a target none meets: a GPU the workload cannot have proves nothing.
    most = parse_cards(admitted) if admitted != EVERY_GPU else {}
    every = [
        (p, lone_request(p.roofline))
        for gpu, candidates in standing.items()
        for p in candidates
        if admitted == EVERY_GPU or p.cards <= most.get(gpu, 0)
    ]
    if not every:
        # No admitted option holds a replica: no GPU can be compared, so none misses by comparison.
        return None
    margin = latency_margin(knowledge)
    line = 1 + margin
    ttft = min(every, key=lambda item: (item[1].time_to_first_token_ms, item[0].cards))
    tpot = min(every, key=lambda item: (item[1].time_per_output_token_ms, item[0].cards))
    # Meeting a target is being planned to it: a lone request plus the estimate's latency error within it
    # (``calc.policy``). The closest GPU over every target at once is the one whose replicas come nearest:
    # where none meets them all, the rules keep it and what comes as near (one GPU always stands).
    closest = min(
        every,
        key=lambda item: (shortfall(item[1], max_ttft_ms, max_tpot_ms, margin), item[0].cards, item[0].gpu),
    )
    # A rule that tells a GPU another one meets the target names the plainest that does: one that meets
    # every target first (not one another rule rules out), the fewest cards, then the GPU with the lowest
    # on-demand price in the catalog (one it has no price for last), then the fastest; not an 8-card
    # replica of a card nobody rents, nor the dearest card of one.
    listed = [offer for offer in knowledge.offers.offers if offer.pricing == "on_demand"]
    price = {gpu: min(o.usd_per_gpu_hour for o in listed if o.gpu == gpu) for gpu in {o.gpu for o in listed}}

    def plainest(
        meeting: list[Candidate], fallback: Candidate, alone_ms: Callable[[Candidate], float]
    ) -> Candidate:
        return min(
            meeting,
            key=lambda item: (
                shortfall(item[1], max_ttft_ms, max_tpot_ms, margin) > 1.0,  # one another rule rules out
                item[0].cards,
                price.get(item[0].gpu, math.inf),
                alone_ms(item),
            ),
            default=fallback,
        )

    meets_ttft = [
        item
        for item in every
        if max_ttft_ms is not None and item[1].time_to_first_token_ms * line <= max_ttft_ms
    ]
    meets_tpot = [
        item
        for item in every
        if max_tpot_ms is not None and item[1].time_per_output_token_ms * line <= max_tpot_ms
    ]
    return LatencyBar(
        max_ttft_ms=max_ttft_ms,
        max_tpot_ms=max_tpot_ms,
        margin=margin,
        fastest_ttft=ttft,
        fastest_tpot=tpot,
        closest=closest,
        meeting_ttft=plainest(meets_ttft, ttft, lambda item: item[1].time_to_first_token_ms),
        meeting_tpot=plainest(meets_tpot, tpot, lambda item: item[1].time_per_output_token_ms),
        defaulted=(ttft_defaulted, tpot_defaulted),
    )


@per_object(entries=PERFORMANCES_KEPT)
def latency_fit_facts(
    knowledge: Knowledge,
    figures: SizingFigures,
    input_tokens: int,
    output_tokens: int,
    max_ttft_ms: float | None,
    max_tpot_ms: float | None,
    unsuitable: str,
    cards: str,
    admitted: str = EVERY_GPU,
    ttft_defaulted: bool = False,
    tpot_defaulted: bool = False,
    /,
) -> tuple[LatencyFitFact, ...]:
    """One fact per GPU the gpu_fit rules left standing, for a workload with latency targets: what a lone
    request sees on it at the cards per replica the load is sized with (``cards``, from ``cards_key``: a
    count that meets the targets where one does), against the bar among the ``admitted`` GPUs
    (``latency_bar``). The same for every workload with this sizing, token counts, targets and counts, so
    built once."""
    bar = latency_bar(
        knowledge,
        figures,
        input_tokens,
        output_tokens,
        max_ttft_ms,
        max_tpot_ms,
        unsuitable,
        admitted,
        ttft_defaulted,
        tpot_defaulted,
    )
    if bar is None:
        return ()
    standing = standing_candidates(knowledge, figures, input_tokens, output_tokens, unsuitable)
    return judged_facts(bar, standing, cards, speaks=True)


@per_object(entries=PERFORMANCES_KEPT)
def facts_against_bar(
    knowledge: Knowledge,
    bar: LatencyBar,
    figures: SizingFigures,
    input_tokens: int,
    output_tokens: int,
    unsuitable: str,
    cards: str,
    /,
) -> tuple[LatencyFitFact, ...]:
    """The facts of another sizing of the model (one quantization step down) against the model as given's
    ``bar``, held to what its closest GPU keeps of each target (``LatencyBar.held_to_closest``): a quantized
    GPU stands only where it comes as near every target as the recommendation's replicas. None of them
    speaks for the rules about every GPU missing a target (LAT003, LAT004): that is the model as given's
    to say."""
    standing = standing_candidates(knowledge, figures, input_tokens, output_tokens, unsuitable)
    return judged_facts(bar.held_to_closest(), standing, cards, speaks=False)


def judged_facts(
    bar: LatencyBar, standing: dict[str, tuple[ReplicaPerformance, ...]], cards: str, speaks: bool
) -> tuple[LatencyFitFact, ...]:
    """One fact per GPU in ``standing`` at its chosen card count (``cards``), against ``bar``."""
    chosen = parse_cards(cards)
    closest, ttft, tpot = bar.closest, bar.fastest_ttft, bar.fastest_tpot
    line = 1 + bar.margin
    facts = []
    for gpu, candidates in standing.items():
        performance = next((p for p in candidates if p.cards == chosen.get(gpu)), candidates[0])
        point = lone_request(performance.roofline)
        kept = bar.kept_ms(point)
        closest_kept = bar.kept_ms(closest[1])
        facts.append(
            LatencyFitFact(
                gpu=gpu,
                cards_per_replica=performance.cards,
                time_to_first_token_alone_ms=point.time_to_first_token_ms,
                time_per_output_token_alone_ms=point.time_per_output_token_ms,
                time_to_first_token_kept_ms=kept[0],
                time_per_output_token_kept_ms=kept[1],
                ttft_target_given=bar.max_ttft_ms is not None,
                max_time_to_first_token_ms=bar.max_ttft_ms or 0.0,
                tpot_target_given=bar.max_tpot_ms is not None,
                max_time_per_output_token_ms=bar.max_tpot_ms or 0.0,
                ttft_target_defaulted=bar.defaulted[0],
                tpot_target_defaulted=bar.defaulted[1],
                latency_margin=bar.margin,
                fastest_time_to_first_token_kept_ms=ttft[1].time_to_first_token_ms * line,
                fastest_time_per_output_token_kept_ms=tpot[1].time_per_output_token_ms * line,
                shortfall_alone=bar.shortfall(point),
                closest_gpu=closest[0].gpu,
                closest_cards=closest[0].cards,
                closest_shortfall_alone=bar.shortfall(closest[1]),
                closest_meets_targets=bar.shortfall(closest[1]) <= 1.0,
                closest_time_to_first_token_kept_ms=closest_kept[0],
                closest_time_per_output_token_kept_ms=closest_kept[1],
                fastest_ttft_gpu=ttft[0].gpu,
                fastest_ttft_cards=ttft[0].cards,
                fastest_time_to_first_token_alone_ms=ttft[1].time_to_first_token_ms,
                fastest_tpot_gpu=tpot[0].gpu,
                fastest_tpot_cards=tpot[0].cards,
                fastest_time_per_output_token_alone_ms=tpot[1].time_per_output_token_ms,
                meeting_ttft_gpu=bar.meeting_ttft[0].gpu,
                meeting_ttft_cards=bar.meeting_ttft[0].cards,
                meeting_time_to_first_token_alone_ms=bar.meeting_ttft[1].time_to_first_token_ms,
                meeting_tpot_gpu=bar.meeting_tpot[0].gpu,
                meeting_tpot_cards=bar.meeting_tpot[0].cards,
                meeting_time_per_output_token_alone_ms=bar.meeting_tpot[1].time_per_output_token_ms,
                fastest_for_ttft=speaks and gpu == ttft[0].gpu,
                fastest_for_tpot=speaks and gpu == tpot[0].gpu,
            )
        )
    return tuple(facts)
