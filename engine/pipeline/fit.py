"""Stage 1, GPU fit: which GPUs may serve one replica of the model. One ``gpu_fit`` fact per GPU, for the
model as given and one quantization step down; the rules declare GPUs unsuitable. Where a replica spans
several cards, one ``instance_fit`` fact per offer of the GPU: the rules declare offers unsuitable whose
instances cannot hold a replica on one fast link."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_advisor.engine.calc.card_keys import parse_cards
from gpu_advisor.engine.calc.gpu_fit import GpuFit
from gpu_advisor.engine.calc.listing_frames import offer_linked_sizes, stages_over_cluster_network
from gpu_advisor.engine.calc.performance import replica_interconnect
from gpu_advisor.engine.calc.sizing import SIZINGS_KEPT, SizingFigures, parallelism
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.pipeline.batch_start import batch_start_fact
from gpu_advisor.engine.pipeline.capacity import Capacity
from gpu_advisor.engine.pipeline.latency_fit import (
    EVERY_GPU,
    facts_against_bar,
    latency_bar,
    latency_fit_facts,
)
from gpu_advisor.engine.rulebook.conclusions import dropped_targets, unsuitable_gpus, unsuitable_offers
from gpu_advisor.engine.rulebook.durable import Evaluator, FactSession, Firing
from gpu_advisor.engine.rulebook.facts import Fact, GpuFitFact, InstanceFitFact, LatencyFitFact
from gpu_advisor.engine.rulebook.schema import Rulebook

WORKLOAD_SCENARIO = "workload"


QUANTIZED_SCENARIO = "quantized"


def gpu_fit_fact(
    fit: GpuFit,
    figures: SizingFigures,
    knowledge: Knowledge,
    scenario: str,
    reference: GpuFit,
    chosen: dict[str, int],
) -> GpuFitFact:
    """``reference``: the fit on the reference GPU, which every GPU's fact compares itself with;
    ``chosen``: the cards per replica the load runs on each GPU (where it is planned; else the usual
    count, as for ``size`` without a load)."""
    gpu = knowledge.gpu(fit.gpu)
    # A GPU with no usual count may carry a light load on fewer cards (``count_limits.below_usual_count``).
    cards = chosen.get(fit.gpu, fit.gpus_with_kv_reserve)
    reference_cards = chosen.get(reference.gpu, reference.gpus_with_kv_reserve)
    interconnect = replica_interconnect(knowledge, gpu, cards) if cards else fit.interconnect
    node_gpus = knowledge.sizing.card_counts.node_gpus
    native = figures.precision != "fp8" or gpu.fp8_dense_tflops is not None
    tensor = parallelism(node_gpus, cards)[0] if cards else 0
    return GpuFitFact(
        scenario=scenario,
        gpu=fit.gpu,
        vendor=gpu.vendor,
        interconnect=interconnect,
        segment=fit.segment,
        memory_gb=float(fit.memory_gb),
        weights_gb=float(figures.weights_gb),
        gpus_for_weights=fit.gpus_for_weights or 0,
        gpus_with_kv_reserve=cards or 0,
        multi_card=cards is not None and cards > 1,
        fits=cards is not None,
        needs_two_nodes=fit.gpus_for_weights is None or fit.gpus_for_weights > node_gpus,
        node_memory_gb=float(node_gpus * fit.memory_gb),
        native_precision=native,
        reference_gpus=reference_cards or 0,
        tensor_parallel=tensor,
        tensor_split_refused=figures.refuses_tensor_split(tensor),
        tensor_parallel_loadable=figures.loadable_tensor_split(tensor),
        serving_engine=figures.serving_engine,
        engine_runs_on_gpu=knowledge.serving_engine(figures.serving_engine).runs_on(gpu),
        engine_runs_precision=knowledge.serving_engine(figures.serving_engine).runs_precision_on(
            gpu, figures.precision, figures.num_experts is not None
        ),
        rented=bool(knowledge.current_offers(gpu=fit.gpu)),
    )


@per_object(entries=2 * SIZINGS_KEPT)  # a sizing serves as given and as a quantized variant
def gpu_fit_facts(
    knowledge: Knowledge, figures: SizingFigures, scenario: str, cards: str = "", /
) -> tuple[GpuFitFact, ...]:
    """The GPU-fit facts of one sizing at the cards per replica the load was sized with (``cards``, from
    ``cards_key``; the usual counts without one), in catalog order: the same for every workload with this
    sizing and counts, so built and validated once (facts are frozen)."""
    reference = next(f for f in figures.fits if f.gpu == knowledge.sizing.reference_gpu.gpu)
    chosen = parse_cards(cards)
    return tuple(gpu_fit_fact(fit, figures, knowledge, scenario, reference, chosen) for fit in figures.fits)


@per_object(entries=2 * SIZINGS_KEPT)
def instance_fit_facts(
    knowledge: Knowledge, figures: SizingFigures, scenario: str, cards: str = "", /
) -> tuple[InstanceFitFact, ...]:
    """One fact per offer whose GPU runs the model's replicas on several cards, in catalog order; at the
    cards per replica the load was sized with (``cards``, from ``cards_key``), else the fewest that hold
    the model."""
    fits = {fit.gpu: fit for fit in figures.fits}
    chosen = parse_cards(cards)
    facts = []
    for offer in knowledge.offers.offers:
        fit = fits.get(offer.gpu)
        count = chosen.get(offer.gpu, fit.gpus_with_kv_reserve) if fit is not None else None
        if fit is None or count is None or count < 2:
            continue
        facts.append(
            InstanceFitFact(
                scenario=scenario,
                provider=offer.provider,
                offer=offer.offer,
                gpu=offer.gpu,
                interconnect=replica_interconnect(knowledge, knowledge.gpu(offer.gpu), count),
                multi_card=count > 1,
                cards_per_replica=count,
                largest_linked_instance_gpus=max(offer_linked_sizes(offer), default=0),
                largest_instance_gpus=offer.instance_gpus[-1],
                stages_over_cluster_network=stages_over_cluster_network(offer, count, knowledge),
            )
        )
    return tuple(facts)


def assert_gpu_fits(
    session: FactSession, figures: SizingFigures, knowledge: Knowledge, scenario: str, cards: str = ""
) -> list[Firing]:
    return [
        firing
        for fact in gpu_fit_facts(knowledge, figures, scenario, cards)
        for firing in session.assert_fact(fact)
    ]


@dataclass(frozen=True)
class GpuVerdicts:
    firings: tuple[Firing, ...]
    """The rules that fired on the model as given, in firing order."""
    unsuitable: dict[str, list[str]]
    """GPU -> the rules that declared it unsuitable for the model as given."""
    dropped: tuple[str, ...]
    """The default latency targets the rules drop (``Conclusion.drop_default_target``): the workload is
    judged again without them (``pipeline.evaluation``)."""
    quantized_unsuitable: dict[str, list[str]]
    """The same for the model one quantization step down."""
    unsuitable_offers: dict[str, list[str]]
    """Offer key (provider/offer/gpu) -> the rules that declared it unable to carry the model as given."""
    quantized_unsuitable_offers: dict[str, list[str]]
    admitted: str = EVERY_GPU
    """The GPUs the workload may have, with the most cards a replica of each may span (``cards_key``):
    those of the rentals, serverless products and own servers its rules leave standing."""
    planned_time_to_first_token_ms: float | None = None
    planned_time_per_output_token_ms: float | None = None
    """The nearest the workload's replicas can be planned to at the peak on the GPUs it may have: what
    the closest GPU's replicas keep (its target, or where even that GPU's lone request comes within the
    estimate's latency error of it or misses it, that lone time plus the error; ``calc.policy``); None
    without a target."""


@per_object(entries=2 * SIZINGS_KEPT)
def fit_firings(evaluator: Evaluator, facts: tuple[Fact, ...], /) -> tuple[Firing, ...]:
    """What the rules make of one sizing's GPU-fit facts. A rule reads one fact, and a GPU-fit fact holds
    nothing of the workload, so the same facts fire the same rules in every evaluation: the engine
    evaluates them once per sizing, in a session of their own."""
    with evaluator.session() as session:
        return tuple(firing for fact in facts for firing in session.assert_fact(fact))


def judge_gpus(
    evaluator: Evaluator,
    capacity: Capacity,
    knowledge: Knowledge,
    rulebook: Rulebook,
    resolved: ResolvedWorkload | None = None,
    admitted: str = EVERY_GPU,
) -> GpuVerdicts:
    """The rules' verdicts on every GPU and offer; with ``resolved``, also on the GPUs that cannot meet
    its latency targets (a service's, ``latency_fit`` facts), compared with the ``admitted`` GPUs
    (``latency_fit_facts``), and on a batch run's start (``batch_start_fact``)."""
    firings = fit_firings(
        evaluator, sizing_facts(knowledge, capacity.figures, WORKLOAD_SCENARIO, capacity.cards)
    )
    planned: tuple[float | None, float | None] = (None, None)
    bar = None
    if resolved is not None and not capacity.load.served_in_paid_hours:
        tokens = (resolved.avg_input_tokens, resolved.avg_output_tokens)
        targets = (resolved.max_time_to_first_token_ms, resolved.max_time_per_output_token_ms)
        defaulted = (
            "max_time_to_first_token_ms" in resolved.defaults_used,
            "max_time_per_output_token_ms" in resolved.defaults_used,
        )
        unsuitable = ",".join(sorted(unsuitable_gpus(firings, rulebook)))
        # Two booleans, not a tuple: the caches key values by value and other objects by identity.
        bar = latency_bar(knowledge, capacity.figures, *tokens, *targets, unsuitable, admitted, *defaulted)
        facts = latency_fit_facts(
            knowledge, capacity.figures, *tokens, *targets, unsuitable, capacity.cards, admitted, *defaulted
        )
        if facts:
            firings = (*firings, *fit_firings(evaluator, facts))
            planned = planned_targets(facts[0])
    if resolved is not None:
        # A batch: whether a run's replica finishes a request in its window on some GPU (no count is
        # planned whose replicas finish none after their start, ``calc.batch_window``).
        tokens = (resolved.avg_input_tokens, resolved.avg_output_tokens)
        band = capacity.sizing.estimate_error_taken_off if capacity.sizing is not None else 0.0
        start = batch_start_fact(knowledge, capacity.figures, capacity.load, *tokens, band)
        if start is not None:
            with evaluator.session() as session:
                firings = (*firings, *session.assert_fact(start))
    quantized = capacity.quantized_figures
    quantized_firings: tuple[Firing, ...] = ()
    if quantized:
        quantized_firings = fit_firings(
            evaluator, sizing_facts(knowledge, quantized, QUANTIZED_SCENARIO, capacity.quantized_cards)
        )
        if bar is not None and resolved is not None:
            # The quantized model held to the model as given's latency bar: quantization that lengthens
            # the wait beyond what the recommendation's replicas keep is no saving (OPT001).
            unsuitable = ",".join(sorted(unsuitable_gpus(quantized_firings, rulebook)))
            against = facts_against_bar(
                knowledge,
                bar,
                quantized,
                resolved.avg_input_tokens,
                resolved.avg_output_tokens,
                unsuitable,
                capacity.quantized_cards,
            )
            quantized_firings = (*quantized_firings, *fit_firings(evaluator, against))
    return GpuVerdicts(
        firings=tuple(firings),
        unsuitable=unsuitable_gpus(firings, rulebook),
        dropped=dropped_targets(firings, rulebook),
        quantized_unsuitable=unsuitable_gpus(quantized_firings, rulebook),
        unsuitable_offers=unsuitable_offers(firings, rulebook),
        quantized_unsuitable_offers=unsuitable_offers(quantized_firings, rulebook),
        admitted=admitted,
        planned_time_to_first_token_ms=planned[0],
        planned_time_per_output_token_ms=planned[1],
    )


def planned_targets(fact: LatencyFitFact) -> tuple[float | None, float | None]:
    """``GpuVerdicts.planned_*`` from any latency_fit fact (they share the targets and the closest GPU):
    what the closest GPU's replicas keep."""
    return (
        fact.closest_time_to_first_token_kept_ms if fact.ttft_target_given else None,
        fact.closest_time_per_output_token_kept_ms if fact.tpot_target_given else None,
    )


@per_object(entries=2 * SIZINGS_KEPT)
def sizing_facts(
    knowledge: Knowledge, figures: SizingFigures, scenario: str, cards: str, /
) -> tuple[Fact, ...]:
    """The GPU-fit facts of one sizing, then its instance-fit facts at the cards per replica (``cards``,
    from ``cards_key``): the same object for every workload of the sizing and counts, so their firings
    are worked out once (``fit_firings``)."""
    return (
        *gpu_fit_facts(knowledge, figures, scenario, cards),
        *instance_fit_facts(knowledge, figures, scenario, cards),
    )
