"""The typed facts asserted into the rules engine, one model per fact kind. durable-rules compares missing
properties and mixed types silently, so every fact is complete: each field is always present with its
declared type. Rule declarations are checked against these models at load.

Evaluation asserts the kinds stage by stage, each reading the conclusions of the one before:
``gpu_fit`` (one per GPU: can this card type serve one replica?), ``workload`` (constraints from the
workload's own facts), ``serverless`` (the serverless products priced against the best dedicated option),
``economics`` (buy versus rent and the other comparisons over the options the constraints left), ``api``
(the managed API against the cheapest self-hosted route the rules left standing), ``decision`` (the
route the proposals settled on), and for a check ``proposal`` (what someone intends to do).

The facts about a workload (``workload``, ``economics``, ``proposal``) carry the workload's own fields,
derived from ``ResolvedWorkload`` (``WorkloadFacts``), beside the stage's fields. A field that only means
something under a condition names that condition with ``Guard`` (the best option's price means nothing
without an option); the rule compiler adds the guard to every rule that reads the field. Values a rule
message shows but no condition reads are not facts: they reach the message as details (``details.py``).
"""

from __future__ import annotations

import typing
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import create_model
from pydantic.fields import FieldInfo

from gpu_advisor.engine.domain.choices import FactKind
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.rulebook.api_facts import ApiFact
from gpu_advisor.engine.rulebook.batch_start_facts import BatchStartFact
from gpu_advisor.engine.rulebook.decision_facts import DecisionFact
from gpu_advisor.engine.rulebook.fact_base import (
    LARGEST_ENGINE_FLOAT,
    SMALLEST_ENGINE_NUMBER,
    Fact,
    Guard,
    _float_fields,
    engine_number,
)
from gpu_advisor.engine.rulebook.latency_facts import LatencyFitFact
from gpu_advisor.engine.rulebook.proposal_facts import ProposalFact
from gpu_advisor.engine.rulebook.robustness_facts import RobustnessFact
from gpu_advisor.engine.rulebook.workload_context import WorkloadContext

__all__ = [
    "LARGEST_ENGINE_FLOAT",
    "SMALLEST_ENGINE_NUMBER",
    "ApiFact",
    "Fact",
    "Guard",
    "LatencyFitFact",
    "ProposalFact",
    "RobustnessFact",
    "WorkloadContext",
    "_float_fields",
    "engine_number",
]

NOT_FACTS = frozenset({"name", "utilization_source", "load_pattern_source"})
"""Scalar workload fields that are no facts: the name is free text for people; where the utilization comes
from is settled only after the prices are compared, later than the first facts are asserted; where the load
pattern comes from is said in the memo, and the rules read the pattern itself."""


def _is_scalar(annotation: Any) -> bool:
    if annotation in (str, int, float, bool):
        return True
    return typing.get_origin(annotation) is Literal


def _workload_facts() -> type[WorkloadContext]:
    """Every scalar field of ``ResolvedWorkload`` (nothing that may be None), beside ``WorkloadContext``."""
    fields: dict[str, Any] = {
        name: (info.annotation, ...)
        for name, info in ResolvedWorkload.model_fields.items()
        if _is_scalar(info.annotation) and name not in NOT_FACTS
    }
    return create_model("WorkloadFacts", __base__=WorkloadContext, __module__=__name__, **fields)


WorkloadFacts = _workload_facts()
"""The workload's facts, asserted beside every fact about the workload."""


# --- the fact kinds -------------------------------------------------------------------------------------


class GpuFitFact(Fact):
    shared_between_evaluations: ClassVar[bool] = True

    kind: Literal["gpu_fit"] = "gpu_fit"
    scenario: str
    """"workload": the workload as given; "quantized": one quantization step down (for OPT rules)."""
    gpu: str
    vendor: str
    interconnect: str
    segment: str
    memory_gb: float
    weights_gb: float
    gpus_for_weights: int
    """0 when even the largest allowed count cannot hold the weights."""
    gpus_with_kv_reserve: Annotated[int, Guard("fits")]
    """Cards per replica: the count the load runs on (below the usual count for a light load), or the
    usual count where no load is planned; 0 when even the largest allowed count leaves no KV reserve."""
    multi_card: bool
    fits: bool
    needs_two_nodes: bool
    """The weights alone need more cards than one node holds."""
    node_memory_gb: float
    native_precision: bool
    """The card computes in the workload's precision natively (FP8 needs FP8 tensor cores)."""
    reference_gpus: int
    """Cards per replica on the reference GPU (H100 SXM), as ``gpus_with_kv_reserve``; 0 when it cannot
    hold the model."""
    tensor_parallel: int
    """Cards per pipeline stage of ``gpus_with_kv_reserve`` (they split each layer); 0 where none."""
    tensor_split_refused: bool
    """The serving engine refuses to load the workload's block-quantized FP8 checkpoint over
    ``tensor_parallel`` cards: a card would hold part of a quantization block."""
    tensor_parallel_loadable: Annotated[int, Guard("tensor_split_refused")]
    """The most cards, halving ``tensor_parallel``, that split each layer into whole blocks."""
    serving_engine: str = "vllm"
    engine_runs_on_gpu: bool = True
    """The serving engine runs on cards of this GPU's vendor (``ServingEngine.gpu_vendors``)."""
    engine_runs_precision: bool = True
    """The serving engine serves the workload's precision on this GPU (TensorRT-LLM: no FP8 without FP8
    tensor cores, ``ServingEngine.fp8_needs_fp8_tensor_cores``)."""
    rented: bool = False
    """The knowledge base prices a current rental of this GPU (an overrides file may add one)."""


class InstanceFitFact(Fact):
    """One per offer whose GPU needs several cards for a replica: can the offer's instances hold one
    replica with all its cards on one fast link?"""

    shared_between_evaluations: ClassVar[bool] = True

    kind: Literal["instance_fit"] = "instance_fit"
    scenario: str
    """As on gpu_fit facts: the model as given, or one quantization step down."""
    provider: str
    offer: str
    gpu: str
    interconnect: str
    multi_card: bool
    cards_per_replica: int
    largest_linked_instance_gpus: int
    """The offer's largest instance whose cards share the fast link; 0 when none does."""
    largest_instance_gpus: int
    stages_over_cluster_network: bool = False
    """A replica larger than the largest instance runs as pipeline stages of whole linked instances over
    a network the provider documents between them (``listing_frames.stages_over_cluster_network``)."""


class WorkloadFact(Fact):
    about_workload: ClassVar[bool] = True

    kind: Literal["workload"] = "workload"
    weights_gb: float
    fits_any_gpu: bool
    """Some catalog GPU holds a replica with KV reserve at 16 cards or fewer."""
    fits_one_small_card: bool
    """One card of at most ``small_card_max_memory_gb`` holds a replica with KV reserve."""
    larger_memory_fewer_cards: bool
    """A catalog GPU with more memory than the reference GPU holds a replica with KV reserve in fewer
    cards than the reference GPU (or where the reference GPU holds none)."""
    superseded_prices_listed: bool
    """The catalog lists prices its providers' own newer ones replace (offers' ``superseded_by``)."""
    withdrawn_api_stands_in: bool
    """The catalog lists an API price whose product no longer serves the priced model (``withdrawn_on``) and
    that is large enough to stand in for the workload's model (``api_costs.large_enough``): the comparison
    could take it, for the model's own price or as a larger model's where the model's are excluded."""
    other_reasoning_api_stands_in: bool = False
    """Among the API prices the comparison would choose among (the model's own, else the nearest size
    class above it: ``api_costs.nearest_class``), before the rules' exclusions or after the other rules'
    (``constraints.workload_firings``), one hosts a reasoning model where the workload's model does not
    reason, or the other way round (``ApiPrice.model_reasoning``, the workload's ``reasoning``): KNB021
    and KNB022 keep such prices out of the comparison."""


OPTION = "has_eligible_option"
OWNED = "own_hardware_applicable"
SERVERLESS = "serverless_offered"


class ServerlessFact(Fact):
    """The serverless products' cost beside the best dedicated option, and the time-based utilization."""

    about_workload: ClassVar[bool] = True

    kind: Literal["serverless"] = "serverless"
    utilization: float
    """The time-based utilization: the load's busy share (paid hours with a request in flight); where no
    GPU holds the model, the workload's utilization."""
    serverless_fits: bool
    """Some serverless product's instance holds a replica of the model."""
    serverless_residency_excluded: bool = False
    """A residency rule (topic ``residency``, company policy's too) excluded some such product somewhere."""
    serverless_offered: bool
    """Some such product no rule excluded: the cheapest is ``serverless_usd_per_month``."""
    serverless_usd_per_month: Annotated[float, Guard(SERVERLESS)]
    serverless_kept_warm: bool
    """A rule keeps a serverless instance warm (latency-sensitive): it is priced so."""
    serverless_scales_to_zero: bool
    """The cheapest serverless option, as it scales with the load (instances kept for latency only, not for
    a lower always-on price), stops between requests in the served hours at least once a month: none is
    kept warm and gaps outlast its idle timeout (a day's first start does not count). False where none is."""
    serverless_stops_where_rentals_bill: bool = False
    """Rentals kept through the unpaid hours for want of automation (PRC036); the cheapest endpoint is not."""
    has_alternative: bool
    """Another self-hosted route stands after the economics stage (own hardware or dedicated GPUs)."""
    alternative_usd_per_month: Annotated[float, Guard("has_alternative")]  # the cheapest of them


class EconomicsFact(Fact):
    about_workload: ClassVar[bool] = True

    kind: Literal["economics"] = "economics"
    utilization: float
    hourly_share_of_calendar: float = 1.0
    """The month's share an hourly rental is billed (PRC033 keeps cards every hour): PRC006, PRC014."""
    has_eligible_option: bool
    """Some option no rule excluded: the best option (``best_option_*``) exists."""
    best_option_usd_per_month: Annotated[float, Guard(OPTION)]
    best_option_price_age_days: Annotated[int, Guard(OPTION)]
    best_option_provider: Annotated[str, Guard(OPTION)]
    best_option_provider_kind: Annotated[str, Guard(OPTION)]
    best_option_pricing: Annotated[str, Guard(OPTION)]
    best_option_tdp_watts: Annotated[float, Guard(OPTION)]
    best_option_cards_needed: Annotated[int, Guard(OPTION)]
    """Cards the best option's replicas use."""
    best_option_cards_rented: Annotated[int, Guard(OPTION)]
    """Cards its whole instances bill."""
    best_option_has_other_prices: Annotated[bool, Guard(OPTION)]
    best_option_has_spare: Annotated[bool, Guard(OPTION)]
    """Its plan runs more replicas than the peak needs (a spare, or a stated min_replicas above it); a
    batch's, more than its window needs once its fullest instance is lost (``runs_beyond_need``)."""
    best_option_capacity_not_reserved: Annotated[bool, Guard(OPTION)] = False
    """A committed price that reserves no instances (a savings plan, ``Offer.capacity_not_reserved``)."""
    best_option_commitment: Annotated[Literal["none", "months", "years"], Guard(OPTION)] = "none"
    """How long it binds (``commitment_term``): a term of years is weighed for a team without DevOps."""
    sla_unknown_admitted: bool
    """Some priced rental no rule excluded is of a provider whose SLA is not established (null)."""
    foreign_reach_admitted: bool = False
    """Some rental or serverless product no rule excluded is of a provider whose parent company is in a
    state whose law reaches data its companies control abroad, other than the company's own (RES015)."""
    spot_option_admitted: bool
    """Some spot offer no rule excluded is priced for the workload."""
    server_gpu_watts: float
    own_hardware_applicable: bool
    """The catalog's own server uses a GPU that can serve the model."""
    own_usd_per_month: Annotated[float, Guard(OWNED)]
    own_usd_per_month_at_busy_share: Annotated[float, Guard(OWNED)] = 0.0
    """What owning would cost a month with the power line at the servers' busy share, the idle hours at
    the idle share of the rated draw (``OwnHardware.usd_per_month_at_busy_share``): not the costed figure."""
    own_at_busy_share_saving: Annotated[float, Guard(OWNED)] = 0.0
    """That figure's saving on the cheapest rental for the same work, as a share of the rental's bill
    (0.35: 35 % less; negative where it costs more; 0 without a rental)."""
    own_rental_compared: bool = False
    own_rental_gap_share: Annotated[float, Guard("own_rental_compared")] = 0.0
    """|owning - that rental| over the cheaper of the two (TCO029)."""
    own_in_an_office: Annotated[bool, Guard(OWNED)] = False
    """The own route is costed on office machines (``housing: office``: no housing or staff line)."""
    own_price_age_days: Annotated[int, Guard(OWNED)] = 0
    """Days since the own server's price was read (its catalog date, or an overrides file's)."""
    own_defaults_left: bool = True
    """Some own-server figure is no figure of the user's: the server's price, the power price, the
    housing or the staff line (an overrides file's ``own_server`` gives them all)."""
    own_spare_in_the_same_node: Annotated[bool, Guard(OWNED)]
    """The own route is one node, and the spare replica the rules add runs in it beside the others."""
    own_loss_needs_idle_replicas: Annotated[bool, Guard(OWNED)] = False
    """As planned with a spare, losing the fullest of two or more owned servers leaves fewer replicas than
    the peak needs, and replicas on the cards the servers leave idle make up for it (SIZ032; those cards
    are then not idle to TCO002 and TCO020)."""
    own_has_spare: Annotated[bool, Guard(OWNED)] = False
    """Its plan runs more replicas than the peak needs (a spare, or a stated min_replicas above the need),
    as ``best_option_has_spare`` says of the cheapest rental."""
    own_replica_spans_servers: Annotated[bool, Guard(OWNED)] = False
    """A replica on the own server's GPU needs more cards than one server holds: its servers reach each
    other over the network between them (InfiniBand), which the own figure does not price."""
    best_option_stages_over_cluster_network: Annotated[bool, Guard(OPTION)] = False
    """The best option's replicas each run as pipeline stages on several instances, over the network its
    provider documents between them (NET006)."""
    node_utilization: Annotated[float, Guard(OWNED)]
    node_has_idle_gpus: Annotated[bool, Guard(OWNED)]
    needed_cards_utilization: Annotated[float, Guard(OWNED)]
    """The node's utilization counted over the cards the load needs only: where it is above the rent line
    and the node's is below, the idle cards tip the machine under it (TCO002)."""
    rent_comparison_available: bool
    """An admitted rental of the own server's GPU exists, so the break-even figures are defined."""
    break_even_utilization: Annotated[float, Guard(OWNED, "rent_comparison_available")]
    """Owned cost per GPU-hour over the compared rental's price: against a pay-per-hour offer the node
    utilization at which owning costs what renting the busy card-hours costs; against a reservation (paid
    every calendar hour, as owning) a plain price ratio."""
    rent_against_billing: Literal["hourly", "committed", "none"]
    """How the rental buying must beat (the cheapest admitted rental of the own server's GPU) bills:
    committed (a reservation, every calendar hour), hourly (the hours used), none where there is none."""
    rent_against_commitment_months: Annotated[int, Guard("rent_comparison_available")]
    """The compared reservation's term; 0 for a pay-per-hour offer."""
    server_write_off_months: Annotated[int, Guard(OWNED)]
    cheapest_rental_usd_per_month_same_hours: Annotated[float, Guard(OPTION)]
    """The least monthly bill of any admitted rental for the same work as owning: a reservation every
    calendar hour, a pay-per-hour offer the hours its plan runs (a service every paid hour, a batch its
    run), whole instances as sold."""
    rental_to_beat_billing: Literal["hourly", "committed", "none"]
    """How the rental buying must beat bills: the best option, what would be rented instead; none where
    no rental is admitted. Against a committed one (a reservation) the idle hours are paid either way."""
    mixed_fleet_priced: bool
    """A mixed fleet is priced: a reservation for a base of replicas in every hour, an hourly offer of the
    same GPU for the busier hours' further replicas (``calc.fleets``)."""
    mixed_fleet_usd_per_month: Annotated[float, Guard("mixed_fleet_priced")]
    mixed_fleet_price_age_days: Annotated[int, Guard("mixed_fleet_priced")]
    """Days since the older of its base's and its peak's list prices."""
    mixed_fleet_saving: Annotated[float, Guard("mixed_fleet_priced", OPTION)]
    """1 - the mixed fleet's monthly cost over the best option's: what it saves on renting one kind alone."""
    mixed_fleet_base_capacity_not_reserved: Annotated[bool, Guard("mixed_fleet_priced")] = False
    """Its base is a committed price that reserves no instances, as ``best_option_capacity_not_reserved``
    says of the cheapest rental."""
    mixed_fleet_has_spare: Annotated[bool, Guard("mixed_fleet_priced")] = False
    """Its hours run a replica more than their load needs (a spare), as ``best_option_has_spare`` says of
    the cheapest rental."""
    autoscaled_priced: bool
    """The best option is an hourly offer carrying a service, priced also scaled hour by hour with the
    day's load (``calc.fleets.price_autoscaled``)."""
    autoscaled_varies: Annotated[bool, Guard("autoscaled_priced")]
    """Some served hour needs fewer replicas than the busiest: scaling has something to follow."""
    autoscaled_saving: Annotated[float, Guard("autoscaled_priced", OPTION)]
    """1 - that bill over the cheapest fixed rented fleet priced (the best option, or the mixed fleet
    where it costs less)."""
    utilization_given: bool
    """The workload states its utilization (otherwise it is derived from the load)."""
    utilization_gap: Annotated[float, Guard("utilization_given", OPTION)]
    """|stated - load-derived| utilization."""
    hyperscaler_option_available: bool
    saving_vs_hyperscaler: Annotated[float, Guard(OPTION, "hyperscaler_option_available")]
    non_eu_cheaper: bool
    """Personal data only: the cheapest option that only the residency rules exclude costs less."""
    reference_option_available: bool
    best_fewer_cards_than_reference: Annotated[bool, Guard(OPTION, "reference_option_available")]
    """A replica of the best option takes fewer cards than one on the reference GPU (H100)."""
    best_replica_usd_per_hour: Annotated[float, Guard(OPTION)]
    """The cards of one replica of the best option, at its price per GPU-hour."""
    reference_replica_usd_per_hour: Annotated[float, Guard(OPTION, "reference_option_available")]
    quantization_available: bool
    quantized_has_option: bool
    quantized_best_usd_per_month: Annotated[float, Guard("quantization_available", "quantized_has_option")]
    quantized_saving: Annotated[float, Guard(OPTION, "quantization_available", "quantized_has_option")]
    """The share of the best option's monthly cost the quantized model's best option saves (negative where
    it costs more)."""


FACT_MODELS: dict[str, type[Fact]] = {
    "gpu_fit": GpuFitFact,
    "instance_fit": InstanceFitFact,
    "latency_fit": LatencyFitFact,
    "batch_start": BatchStartFact,
    "workload": WorkloadFact,
    "serverless": ServerlessFact,
    "economics": EconomicsFact,
    "api": ApiFact,
    "decision": DecisionFact,
    "robustness": RobustnessFact,
    "proposal": ProposalFact,
}
FACT_KINDS: tuple[str, ...] = tuple(FACT_MODELS)


@cache
def fact_fields(kind: FactKind) -> dict[str, FieldInfo]:
    """Every field a rule on facts of ``kind`` may read: the kind's own, and the workload's where the
    fact is about the workload."""
    model = FACT_MODELS[kind]
    fields = dict(model.model_fields)
    if model.about_workload:
        fields = {**WorkloadFacts.model_fields, **fields}
    return fields


@cache
def guards(kind: FactKind) -> dict[str, tuple[str, ...]]:
    """Field -> the boolean fields that must hold for it to mean something."""
    found: dict[str, tuple[str, ...]] = {}
    for name, info in fact_fields(kind).items():
        for marker in info.metadata:
            if isinstance(marker, Guard):
                found[name] = marker.fields
    return found


def _check_no_shadowing() -> None:
    """A stage's own field must not hide a workload field of the same name (the payloads merge)."""
    for kind, model in FACT_MODELS.items():
        if model.about_workload:
            clash = (set(model.model_fields) - {"kind"}) & set(WorkloadFacts.model_fields)
            if clash:
                raise TypeError(f"{kind} facts repeat workload fields: {sorted(clash)}")


_check_no_shadowing()
