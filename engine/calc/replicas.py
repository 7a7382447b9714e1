"""From load to replicas: how many replicas each GPU needs, and how busy they are.

A service is sized for its peak with headroom: the busiest minutes may fill at most the target share
(``knowledge/throughput.yaml``, headroom) of what the replicas deliver, after the throughput estimate's
error band is taken off (the estimate overstates published measurements by up to the band's top). A rule
may add spare replicas beyond that (``add_spare_replica``); a workload's ``min_replicas`` sets the least.

A batch is work, not a load: the day's requests are shared among as many replicas as finish them within
the batch's window, each replica's run its waves of as many as it holds at once (``calc.batch_run``): not
shorter than one request's time at that number, however high the full batch's throughput. It runs
saturated while it runs, so no headroom applies; the error band still does, so that the window holds if
the estimate is optimistic. Its replicas run full at the batch their KV cache holds at the requests' own
length, so a count below the usual one (the light load's, ``GpuFit.gpus_for_light_load``) carries it at
that count's throughput where that does the work on fewer cards."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import NamedTuple

from gpu_advisor.engine.calc import batch_run
from gpu_advisor.engine.calc.batch_window import run_start_in_window
from gpu_advisor.engine.calc.count_limits import below_usual_count, kv_held_rate, over_pcie
from gpu_advisor.engine.calc.latency import OperatingPoint, at_rate, saturation
from gpu_advisor.engine.calc.performance import ReplicaPerformance, candidate_performances
from gpu_advisor.engine.calc.policy import (
    KeptTargets,
    Sizing,
    kept_targets,
    rate_within_targets,
    shortfall_alone,
    usable_rate,
)
from gpu_advisor.engine.calc.request_times import request_times
from gpu_advisor.engine.calc.roofline import Roofline
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.calc.traffic import ServiceTime
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.load import Load


class ReplicaPlan(NamedTuple):
    """How one GPU type carries the load: replicas, cards in all, how busy they are. A named tuple: about
    twenty are built per recommendation from computed figures, and none leaves the engine as it is."""

    gpu: str
    cards_per_replica: int
    replicas: int
    """All replicas: those the peak (or the batch's window) needs, and the spares."""
    replicas_for_peak: int
    spare_replicas: int
    gpus: int
    gpus_for_peak: int
    requests_per_second_per_replica: float
    output_tokens_per_second_per_replica: float
    utilization: float
    """Average load over the replicas' capacity in the paid hours: a throughput share, not time."""
    capacity_utilization_at_peak: float
    """The peak over what all replicas deliver by the estimate; for a batch, the day's work over what
    they deliver in its window."""
    hours_per_day_running: float | None
    """A batch: the hours a day its replicas run to finish the day's work (None for a service)."""
    service: ServiceTime
    batch: int
    decode_bound: str
    roofline: Roofline
    """The replica's step times: the latency at any load follows (``latency_at_peak``)."""
    peak_requests_per_second_per_replica: float | None
    """A service's peak over the replicas sized for it, spares aside (a spare standing in); None: a batch."""
    pipeline_stages: int
    latency_bound: bool
    """The latency targets, not the throughput headroom, set the replicas for the peak."""
    rate_within_targets_per_replica: float | None
    """The highest request rate per replica that keeps its kept latency targets (``kept_targets``) within
    the headroom; None without targets."""
    meets_latency_targets: bool | None
    """The replicas are planned to every latency target itself: a lone request plus the estimate's mean
    latency error is within each (``calc.policy``); None without targets."""
    kept_targets: KeptTargets | None
    """The targets the replicas keep at the peak (``kept_targets``); None without targets or for a
    batch."""
    replicas_for_throughput: int
    """The replicas of this size the peak needs within the headroom alone, spares aside: where the latency
    targets set ``replicas_for_peak``, what they add beyond this is their cost (a batch: its window's)."""
    spread: bool = False
    """Its replicas run on at least two instances (``Sizing.spread``)."""
    weights_load_hours: float = 0.0
    """A batch: the time each run's replicas take to load the weights before they serve, at the catalog's
    load rate (``serverless.weights_load_gb_per_second``, as a serverless cold start counts it), each
    instance of a replica its own share at once (``checkpoint.weights_load_hours``): a floor, as the
    instances' boot is not known. An hourly rental bills it with the run (``listings.plan_hours``).
    0 for a service: a service's daily start on an hourly offer is not billed (docs/economics.md, "What is
    not modelled")."""
    engine_start_hours: float = 0.0
    """A batch: its serving engine's start beyond the weights' load, at best, billed beside it."""
    rate_kv_holds: float | None = None
    """A service's replica below the usual card count (a light load's): the highest rate per replica
    whose requests in flight its KV cache holds with room kept for full-context ones (``kv_held_rate``),
    where that is less than the headroom lets it carry; its replicas carry at most this. None otherwise."""
    replicas_without_kv_cap: int = 0
    """Where ``rate_kv_holds`` caps the replicas: those the peak would take without the cap, spares aside
    (what keeping room for full-context requests costs); 0 elsewhere."""
    window_replicas: float = 0.0
    """A batch: the replicas its window needs with the estimate's error band taken off, before rounding
    up and spares aside (0 for a service); a spot offer adds what the work it redoes needs
    (``listings.price_plan``)."""
    rework_replicas: int = 0
    """A batch on a spot offer: the replicas added so that a run with the work redone after interruptions
    still keeps the window (``listings.price_plan``); 0 elsewhere."""
    spares_asked: int = 0
    min_replicas: int = 1
    """The sizing policy's spares and fewest replicas, added again to a count from ``window_replicas``."""
    spread_runs: bool = False
    """A batch: its replicas on rented instances placed so that the loss of any one leaves those the
    window needs (``Sizing.spread_runs``, ``listings.price_plan``)."""
    run_requests: int = 0
    """A batch: a run's requests, shared among its replicas (``batch_run.run_requests``); 0: a service."""
    run_window_seconds: float = 0.0
    """A batch: the most a replica's run may take (``batch_run.window_seconds``); 0: a service."""

    @property
    def start_hours(self) -> float:
        """A batch run's start before it serves: the weights' load and the engine's start."""
        return self.weights_load_hours + self.engine_start_hours


def _for_peak(rps: float, within: float | None, load: Load, sizing: Sizing, held: float | None = None) -> int:
    """The replicas a service's peak needs, spares aside; ``within``: the rate per replica within the
    latency targets (``rate_within_targets``); ``held``: at most this rate (``ReplicaPlan.rate_kv_holds``)."""
    return max(1, math.ceil(load.peak_requests_per_second / usable_rate(rps, within, sizing, held)))


def _count_order(
    performance: ReplicaPerformance,
    held: Mapping[int, float | None],
    starts: Mapping[int, tuple[float, float]],
    figures: SizingFigures,
    load: Load,
    sizing: Sizing,
) -> tuple[float, bool, int, bool, int]:
    """How ``plans_by_gpu`` ranks a card count: one planned to every latency target first, else the
    closest (``shortfall_alone``, ``Sizing.choosing_cards``); then one the engine loads split over its
    tensor-parallel group (else SIZ020 relaunches it in a layout the estimate does not model); then the
    fewest cards for the peak (a batch: for its window's work, fewer cards a replica at a lower rate or
    more at a higher one, as each count's throughput at the batch its KV cache holds decides); then one
    its KV cache does not cap (a capped replica carries less a card in every hour below the peak); then
    fewer cards. ``held``, ``starts``: by card count, ``ReplicaPlan.rate_kv_holds`` and a batch run's
    start (``batch_window.run_start``)."""
    if load.served_in_paid_hours:
        shortfall, within = 1.0, None
    else:
        shortfall = shortfall_alone(performance, sizing.choosing_cards())
        within = rate_within_targets(performance, sizing)
    cards = performance.cards
    if load.served_in_paid_hours:
        rps, start = performance.requests_per_second, sum(starts[cards])
        window = batch_run.window_replicas(load, sizing, performance.roofline, performance.batch, rps, start)
        for_peak = max(1, math.ceil(window)) * cards
    else:
        for_peak = _for_peak(performance.requests_per_second, within, load, sizing, held[cards]) * cards
    refused = figures.refuses_tensor_split(performance.tensor_parallel)
    return shortfall, refused, for_peak, held[cards] is not None, cards


def plan_replicas(
    performance: ReplicaPerformance,
    load: Load,
    sizing: Sizing,
    held: float | None = None,
    start: tuple[float, float] = (0.0, 0.0),
) -> ReplicaPlan:
    """``performance``'s replicas at ``load``; ``held``: ``ReplicaPlan.rate_kv_holds`` (``kv_held_rate``);
    ``start``: a batch run's weights' load and engine start, in hours (``batch_window.run_start``)."""
    within = None if load.served_in_paid_hours else rate_within_targets(performance, sizing)
    kept = None if within is None else kept_targets(performance.roofline, sizing)
    return _planned(
        performance.gpu,
        performance.cards,
        performance.batch,
        performance.decode_bound,
        performance.roofline,
        performance.pipeline_stages,
        performance.requests_per_second,
        performance.output_tokens_per_second,
        ServiceTime(*request_times(performance.roofline, performance.batch), replicas=1),
        within,
        kept,
        load,
        sizing,
        held,
        start,
    )


def at_throughput(plan: ReplicaPlan, factor: float, load: Load, sizing: Sizing) -> ReplicaPlan | None:
    """``plan`` for replicas that carry ``factor`` times the estimated rate (a scenario's drawn error of
    the throughput estimate): the rate, the rate within the latency targets and the output tokens scale
    by it, a request's time in flight by its inverse, and the replicas follow; the cards per replica and
    the step times (the latencies shown) stay the estimate's. None for a batch whose replicas, that much
    slower, fit no request in the window their start leaves (``batch_run.window_replicas``)."""
    if factor == 1.0:
        return plan
    service = plan.service.scaled(factor)
    rps = plan.requests_per_second_per_replica * factor
    if load.served_in_paid_hours and not batch_run.fits_window(
        load, sizing, plan.roofline, plan.batch, rps, plan.start_hours
    ):
        return None
    within, held = plan.rate_within_targets_per_replica, plan.rate_kv_holds
    # The weights' load at each batch run's start does not depend on the throughput: it stays billed.
    return _planned(
        plan.gpu,
        plan.cards_per_replica,
        plan.batch,
        plan.decode_bound,
        plan.roofline,
        plan.pipeline_stages,
        rps,
        plan.output_tokens_per_second_per_replica * factor,
        service,
        None if within is None else within * factor,
        plan.kept_targets,
        load,
        sizing,
        None if held is None else held * factor,
        (plan.weights_load_hours, plan.engine_start_hours),
    )


def _planned(
    gpu: str,
    cards: int,
    batch: int,
    decode_bound: str,
    roofline: Roofline,
    pipeline_stages: int,
    rps: float,
    output_tokens_per_second: float,
    service: ServiceTime,
    within: float | None,
    kept: KeptTargets | None,
    load: Load,
    sizing: Sizing,
    held: float | None = None,
    start: tuple[float, float] = (0.0, 0.0),
) -> ReplicaPlan:
    """A replica's plan from its rate (and, for a service, its rate within the latency targets) at
    ``load``: the replicas and how busy they are are the only parts that depend on the load and the
    rate. ``start``: a batch run's weights' load and engine start, billed with each run."""
    requests = 0
    if load.served_in_paid_hours:
        requests = batch_run.run_requests(load)
        window = batch_run.window_replicas(load, sizing, roofline, batch, rps, sum(start))
        run_window = batch_run.window_seconds(load, sizing, sum(start))
        for_peak = for_throughput = max(1, math.ceil(window))
        uncapped = 0
        replicas = max(for_peak + sizing.spare_replicas, sizing.min_replicas)
        # The replicas share the requests; the fullest one's waves are the run (``batch_run``). The
        # throughput share is the work at full throughput over what the replicas deliver in the window.
        hours_running: float | None = batch_run.run_hours(requests, roofline, batch, rps, replicas)
        at_peak = load.average_requests_per_second / rps / replicas
        average_share = at_peak * load.served_share_of_paid_hours
        peak_rate: float | None = None
    else:
        for_peak = _for_peak(rps, within, load, sizing, held)
        for_throughput = for_peak if within is None else _for_peak(rps, None, load, sizing, held)
        uncapped = _for_peak(rps, within, load, sizing) if held is not None else 0
        replicas = max(for_peak + sizing.spare_replicas, sizing.min_replicas)
        hours_running, window, run_window = None, 0.0, 0.0
        at_peak = load.peak_requests_per_second / (replicas * rps)
        average_share = load.average_requests_per_second * paid_hour_scale(load) / (replicas * rps)
        peak_rate = load.peak_requests_per_second / for_peak  # as while a spare stands in for a lost one
    return ReplicaPlan(
        gpu=gpu,
        cards_per_replica=cards,
        replicas=replicas,
        replicas_for_peak=for_peak,
        spare_replicas=replicas - for_peak,
        gpus=replicas * cards,
        gpus_for_peak=for_peak * cards,
        requests_per_second_per_replica=rps,
        output_tokens_per_second_per_replica=output_tokens_per_second,
        utilization=min(1.0, average_share),
        capacity_utilization_at_peak=at_peak,
        hours_per_day_running=hours_running,
        # Built, not ``_replace``d: a named tuple's ``_replace`` costs several times as much, per plan.
        service=ServiceTime(service.rates, service.times, replicas),
        batch=batch,
        decode_bound=decode_bound,
        roofline=roofline,
        peak_requests_per_second_per_replica=peak_rate,
        pipeline_stages=pipeline_stages,
        # The targets set the replicas only where they need more than the throughput does: a lower rate
        # per replica that rounds to the same count changes nothing.
        latency_bound=for_peak > for_throughput,
        rate_within_targets_per_replica=within,
        # Every target is kept as given only where a lone request plus the margin is within it.
        meets_latency_targets=None
        if kept is None
        else kept == (sizing.max_time_to_first_token_ms, sizing.max_time_per_output_token_ms),
        kept_targets=kept,
        replicas_for_throughput=for_throughput,
        spread=sizing.spread,
        rate_kv_holds=held,
        replicas_without_kv_cap=uncapped if uncapped < for_peak else 0,
        window_replicas=window,
        weights_load_hours=start[0],
        engine_start_hours=start[1],
        spares_asked=sizing.spare_replicas,
        min_replicas=sizing.min_replicas,
        spread_runs=sizing.spread_runs,
        run_requests=requests,
        run_window_seconds=run_window,
    )


PEAKS_KEPT = 256
"""Operating points at the peak kept, one per plan (a few per recommendation)."""


@per_object(entries=PEAKS_KEPT)
def latency_at_peak(plan: ReplicaPlan) -> OperatingPoint:
    """What a user sees at the peak: a service's peak spread over the replicas (queueing for the prefill
    included); a batch's replicas with their batch full. Kept per plan, a tuple never changed once made:
    the sizing table and the economics details ask for the best option's, and the plans of a capacity
    are themselves kept (``capacity.plan_capacity``)."""
    if plan.peak_requests_per_second_per_replica is None:
        return saturation(plan.roofline)
    return at_rate(plan.roofline, plan.peak_requests_per_second_per_replica)


def paid_hour_scale(load: Load) -> float:
    """The average load of a paid hour over that of a served hour: the served hours over the paid ones,
    times, where fewer are paid, the share of the requests the busiest paid hours carry (more paid hours
    leave the cards idle in the rest)."""
    # The share is 1 wherever every served hour is paid.
    return load.served_hours_per_month / load.paid_hours_per_month * load.requests_share_in_paid_hours


def plans_by_gpu(
    knowledge: Knowledge,
    figures: SizingFigures,
    load: Load,
    input_tokens: int,
    output_tokens: int,
    sizing: Sizing,
    cards: Mapping[str, int] | None = None,
    only: Collection[str] | None = None,
) -> dict[str, ReplicaPlan]:
    """A replica plan for every GPU that can hold the model with KV reserve (of ``only``, where given:
    each GPU's plan depends on nothing of the others'): at the cards per replica given (``cards``: the
    counts a plan without spares chose), else at the count that carries the load on the fewest cards
    among those that can meet the latency targets (all counts where none can)."""
    plans = {}
    fits = {fit.gpu: fit for fit in figures.fits}
    for gpu, candidates in candidate_performances(knowledge, figures, input_tokens, output_tokens).items():
        if only is not None and gpu not in only:
            continue
        fit = fits[gpu]
        given = cards.get(gpu) if cards is not None else None
        if given is not None:
            # Narrowed first: what follows is worked out for the counts that remain only.
            candidates = (
                tuple(p for p in candidates if p.cards == given)
                or tuple(p for p in candidates if not below_usual_count(p.cards, fit))[:1]
            )
        # A service's count below the usual one carries at most the rate whose requests in flight its KV
        # cache holds with room kept for full-context ones: more replicas of it carry the rest. A batch
        # runs its replicas full at the batch their KV cache holds at its own request length (the rate
        # ``replica_performance`` estimates at every count), so a count below the usual one carries it at
        # that rate where it costs fewer cards for the window's work (``_count_order``).
        held = {p.cards: kv_held_rate(knowledge, figures, fit, p, load, sizing) for p in candidates}
        # A batch run's start on each count, in hours: a count whose replicas finish no request in the
        # window after it is none (``calc.batch_window``); the others' work is counted in what it leaves.
        starts = {
            p.cards: start
            for p in candidates
            if (start := run_start_in_window(knowledge, figures, load, p, sizing)) is not None
        }
        in_window = starts.keys()
        if given is None:
            # A replica whose cards all-reduce over PCIe is the wrong offer (NET001), so it is not chosen
            # where a count on one card or one link carries the load, however many more cards it takes.
            linked = tuple(
                p for p in candidates if not over_pcie(knowledge, gpu, p.cards) and p.cards in in_window
            )
            candidates = linked or candidates
        candidates = tuple(p for p in candidates if p.cards in in_window)
        if not candidates:
            continue  # cards given on a GPU with no usual count, or no count serves within the window
        # The winning count's plan only: the others are compared by what decides between them.
        chosen = (
            candidates[0]
            if len(candidates) == 1
            else min(candidates, key=lambda p: _count_order(p, held, starts, figures, load, sizing))
        )
        plans[gpu] = plan_replicas(chosen, load, sizing, held[chosen.cards], starts[chosen.cards])
    return plans
