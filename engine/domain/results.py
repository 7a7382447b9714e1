"""Result models: what ``size``, ``tco`` and ``recommend`` return, as JSON and to the templates.

Field names are a contract with other tools: add fields freely, never rename."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from gpu_advisor.engine.domain.accuracy import SizingPolicy, ThroughputAccuracy
from gpu_advisor.engine.domain.chart_results import ApiVersusSelfHosted, BuyVersusRent, Charts, ServerGrowth
from gpu_advisor.engine.domain.choices import Deployment, PricingKind, Severity, Topic
from gpu_advisor.engine.domain.fleets import AutoscaledFleetBilling, InstanceCount
from gpu_advisor.engine.domain.gpu_sizing import GpuSizing, LaunchCommand, OperatingPointResult
from gpu_advisor.engine.domain.knowledge.api_prices import RequestLimit
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.model_spec import AttentionShape
from gpu_advisor.engine.domain.options import (
    EngineStartSource,
    Option,
    PriceOrigin,
    ScaleToZero,
    ServerlessBilling,
    StartUpBreakEven,
)
from gpu_advisor.engine.domain.own_costs import OwnHardware
from gpu_advisor.engine.domain.result_model import RESULT_SCHEMA_VERSION, ResultModel
from gpu_advisor.engine.domain.tco_results import BreakEven, TcoResult, TcoScenario
from gpu_advisor.engine.domain.weights_layout import WeightsLayout
from gpu_advisor.engine.domain.workload import ResolvedWorkload
from gpu_advisor.engine.domain.workload_ranges import WorkloadRanges

__all__ = [
    "RESULT_SCHEMA_VERSION",
    "ApiVersusSelfHosted",
    "BreakEven",
    "BuyVersusRent",
    "Charts",
    "EngineStartSource",
    "GpuSizing",
    "InstanceCount",
    "LaunchCommand",
    "OperatingPointResult",
    "Option",
    "PriceOrigin",
    "ResultModel",
    "ScaleToZero",
    "ServerlessBilling",
    "TcoResult",
    "TcoScenario",
]


class Finding(ResultModel):
    rule_id: str
    subject: str | None
    """What the rule fired on when it fires once per item (the GPU of a gpu_fit fact); None otherwise."""
    about_its_gpu: bool = False
    """What it says holds for ``subject``, the GPU, only (a rule on one GPU's fit), not for the workload
    (a latency rule names the fastest GPU, and says what holds for every GPU)."""
    route: Deployment | None = None
    """The one route it speaks of (``Rule.about_route``: the compared API, the cheapest self-hosted route
    or rental), where it is not about the decision as such; None otherwise."""
    topic: Topic
    severity: Severity
    title: str
    message: str
    rationale: str
    source: str
    origin: Literal["builtin", "organization"] = "builtin"
    """Organization rules come from --policy files."""


class SizeResult(ResultModel):
    schema_version: int = RESULT_SCHEMA_VERSION
    model: str | None
    params_b: float
    active_params_b: float
    precision: str
    bytes_per_parameter: float
    weights_gb: float
    weights_params_b: float = 0.0
    """The parameters the weights hold: a catalog model's exact count, else the size given."""
    weights_layout: WeightsLayout | None = None  # a catalog model's: what a quantized checkpoint keeps 16 bit
    sixteen_bit_checkpoint_gb: float | None = None
    """The 16-bit checkpoint a replica reads and quantizes to FP8 as it starts, where it does."""
    kv_bytes_per_token: float | None
    kv_bytes_per_token_used: float
    """The KV figure sizing and throughput use: the model's own, or the closest catalog model's."""
    kv_estimated_from: str | None
    kv_split_heads: int | None = None
    """The parts a tensor-parallel group divides a token's KV cache into (``calc.sizing.kv_copies``): KV
    heads (``kv_estimated_from``'s where it stands in), 1 for latent attention, where every card keeps the
    whole latent (``kv_latent``). More cards keep copies (the GPU rows' ``kv_cache_copies``)."""
    kv_latent: bool = False
    card_counts: tuple[int, ...] = ()
    """The card counts a replica may run on: those whose tensor-parallel group splits the model's heads."""
    context_tokens: int
    shared_prefix_tokens: int = 0
    """The prompt start every request shares, computed once by the serving engine's prefix cache (0 where
    the engine caches no prefixes)."""
    min_sequences_at_full_context: int
    """The usual card count holds the KV cache of this many full-context sequences."""
    min_sequences_under_light_load: int = 0
    """A replica below the usual count holds at least this many (``knowledge/throughput.yaml``)."""
    full_context_room_under_light_load: int = 0
    """A replica below the usual count is planned with room for this many full-context requests beside
    the requests in flight at their own length (``knowledge/throughput.yaml``)."""
    serving_engine: str = "vllm"
    kv_bytes_per_element: float = 2.0
    """1: an FP8 KV cache; 2: 16-bit (the engine's default for the weights, or as given)."""
    input_tokens: int | None = None
    output_tokens: int | None = None
    concurrency: int | None = None
    cards: int | None = None
    """The cards per replica asked about (``--gpu ID --cards N``): the row shows that configuration, met
    targets or not, instead of the count a recommendation would choose."""
    attention_shape: AttentionShape | None = None
    """The attention shape given for a model given by its size (``--attention-shape``,
    ``model.attention_shape``), as given; None for a catalog model or where none was given."""
    max_time_to_first_token_ms: float | None = None
    max_time_per_output_token_ms: float | None = None
    default_targets_dropped: tuple[str, ...] = ()
    """Default latency targets no GPU can be planned to, not held at the peak (LAT010, LAT011)."""
    load: Load | None
    gpus: tuple[GpuSizing, ...]
    findings: tuple[Finding, ...]
    batch_window_cut_from: float | None = None
    """``size``: the batch window asked for where the schedule cut it to ``load.hours_per_day``."""
    sizing_policy: SizingPolicy | None = None
    """With a load: what a replica is sized to carry (the headroom target, the estimate's error band)."""


class ApiCost(ResultModel):
    api: str
    name: str
    kind: str
    currency: str
    usd_per_month: float
    usd_per_request: float
    as_of: dt.date
    compared: bool
    """Used by the comparison: the cheapest admitted price of the model, else of the nearest larger class."""
    model_params_b: float | None = None
    """The size of the hosted open model; None for a proprietary one."""
    provider: str | None = None
    input_per_million_tokens: float = 0.0
    output_per_million_tokens: float = 0.0
    batch: bool = False
    """The provider's batch API (same ``api`` ID): its discount off both prices, in ``currency``."""
    jurisdiction: str = "unknown"
    """Where the provider processes requests (EU, US, CN, unknown: no location guaranteed)."""
    countries: tuple[str, ...] = ()
    """The countries it processes them in, where the catalog knows them (ISO codes)."""
    stands_in: bool = False
    """Its price may stand in for the workload's model: a hosted open model of its size or larger
    (``large_enough``) that takes the workload's requests (no ``exceeded_limit``)."""
    large_enough: bool = False
    """A hosted open model of the workload's size or larger (total and active parameters)."""
    exceeded_limit: RequestLimit | None = None
    """The product's recorded limit the workload's requests exceed: ``window`` (its context window is
    below the serving context) or ``answer`` (its answer cap is below the average answer); such a price
    cannot stand in, whatever its size."""
    context_window_tokens: int | None = None
    max_output_tokens: int | None = None
    concurrent_requests: int | None = None
    """Default limits (None: not in the catalog): requests in flight at once, requests and tokens (input
    and output) a minute, each per ``rate_limit_scope`` (a model each, or a whole contract)."""
    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None
    rate_limit_scope: Literal["account", "project", "organization", "contract"] = "account"
    same_model: bool = False
    excluded_by: tuple[str, ...] = ()
    withdrawn_on: dt.date | None = None
    """The day its provider stopped serving the priced model (KNB018); None while it serves it."""
    listed: bool = False
    """Shown beside the comparison (proprietary ones, those that stand in up to the compared class, and
    ``cheaper_same_size``)."""
    nearest_smaller: bool = False
    """Where no price of the workload's model size or larger is compared, or a larger model's is and costs
    more: the cheapest admitted price of the largest smaller class that takes its requests (another,
    smaller model: no bound for the workload's). Set whatever the rules say of the API; the memo shows it
    only where none rules the API out."""
    cheaper_same_size: bool = False
    """The cheapest admitted price of another hosted model of the compared price's size, where it costs
    less than the compared price of the workload's own model, or of a class price that stands in for a
    larger model than its own (the comparison keeps the compared one)."""


class Proposal(ResultModel):
    rule_id: str
    deployment: Deployment
    precedence: int
    status: Literal["won", "lost", "ruled_out"]
    ruled_out_by: tuple[str, ...]


class Resolution(ResultModel):
    winner_rule_id: str
    proposals: tuple[Proposal, ...]
    ruled_out: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Deployment -> IDs of the fired rules that rule it out (whatever the precedence they beat)."""
    barred: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """The same for the rules that rule it out as a legal or technical bar; a deployment in ``ruled_out``
    but not here is set aside on cost or strategy, and may still be chosen for a reason the rules do not
    know (DEP041)."""

    def is_barred(self, proposal: Proposal) -> bool:
        """A rule that removed ``proposal`` is a bar (``barred``); else it was set aside on cost or
        strategy, or not removed at all."""
        return bool(set(proposal.ruled_out_by) & set(self.barred.get(proposal.deployment, ())))


class Decision(ResultModel):
    deployment: Deployment
    pricing: PricingKind | None
    provider: str | None
    offer: str | None
    gpu: str | None
    gpus: int | None
    usd_per_month: float | None
    instance_gpus: int | None = None
    """A serverless decision: the cards of one instance (``gpus`` counts those of every instance the peak
    runs), as a proposal of it names them (``gpus``: one instance's); None otherwise."""
    cost_is_estimate: bool = False
    """True where the cost is not a catalog price (no deployment is estimated since serverless products
    are priced: kept for readers of older results)."""
    estimate_break_even_utilization: float | None = None
    """Kept for readers of older results; always None."""
    deciding_rule_id: str
    priced_with_another_model: bool = False
    """A managed API decision priced at another model's price (no price of this model that the workload
    may use): that model instead, or a price to ask for (the memo says which)."""
    latency_targets_unchecked: bool = False
    """A managed API decision for a workload with latency targets (its own, or the default of
    latency-sensitive work): the catalog holds no latency of the API, so they are not checked; measure
    them at the peak before relying on it (the memo's Load and capacity section says so)."""
    ruled_out_by: tuple[str, ...] = ()
    """The rules that ruled the decided route out as well: every proposal was, and the one with the
    weakest objection won. Not empty only where the workload's facts ask for something no route
    satisfies; resolve that conflict before signing."""


def apart_from(decision: Decision, route: str | None, about_its_gpu: bool, subject: str | None) -> bool:
    """A finding speaks of a route the decision does not take (``route``), or of the fit of a GPU it
    does not use (an API uses none): the memo names it apart from the decision's constraints, and a
    decision summary leaves it out of what needs attention. A decision on hardware still to be sized (no
    GPU named) keeps every GPU's finding."""
    if route is not None:
        return route != decision.deployment
    return (
        about_its_gpu
        and (decision.deployment == "api" or decision.gpu is not None)
        and subject != decision.gpu
    )


class DecisionSummary(ResultModel):
    """What a recommendation decides, without its texts and tables: for batch tables and sweeps, which
    show nothing else and so need not render it."""

    schema_version: int = RESULT_SCHEMA_VERSION
    workload: str
    decision: Decision
    fired_rules: tuple[str, ...]
    attention: tuple[str, ...]
    """IDs of the fired rules with a critical or warning finding, in catalog order; not those that speak
    only of a route the decision does not take or a GPU it does not use (``apart_from``), which the memo
    names apart."""


class PurchasesVat(ResultModel):
    """The VAT every purchase is priced with: the company cannot recover it (the workload's
    ``input_vat_recoverable: false``); staff costs carry none."""

    country: str
    rate: float
    law: str
    """The provision that sets the rate (``§ 12(1) UStG``)."""
    source: str
    as_of: dt.date


class PriceDate(ResultModel):
    document: str
    title: str
    as_of: dt.date
    used_for: str
    origin: PriceOrigin | None = None
    """Set where the prices come from an overrides file or an import."""


class OtherRoute(ResultModel):
    """A route the decision did not take that no rule rules out, with its monthly cost: the next best
    rental (the best one where another route is decided), the own servers, the best serverless option or
    the compared managed API (``report/other_routes.py``)."""

    kind: Literal["dedicated_cloud", "own_hardware", "serverless", "api"]
    usd_per_month: float
    name: str
    """The offer, the own server, the serverless product or the API, as the catalog names it."""
    provider: str = ""
    """The provider of a rental ("" elsewhere)."""
    gpu: str = ""
    """The GPU of a rental ("" elsewhere)."""
    count: int = 0
    """A rental's cards, or the own servers bought (0 elsewhere)."""


class Recommendation(ResultModel):
    schema_version: int = RESULT_SCHEMA_VERSION
    evaluated_on: dt.date
    workload: ResolvedWorkload
    decision: Decision
    resolution: Resolution
    sizing: SizeResult
    load: Load
    throughput_accuracy: ThroughputAccuracy
    replicas: int | None
    """Replicas of the chosen option (a mixed fleet: its busiest hour's), or of the best rental when no
    rented or serverless option is chosen."""
    options: tuple[Option, ...]
    best_option: Option | None
    """The cheapest dedicated option no rule excluded (within a preferred pricing kind), whatever the
    decision."""
    serverless_option: Option | None = None
    """The cheapest serverless option no rule excluded, whatever the decision."""
    ranges_not_drawn: WorkloadRanges | None = None
    """The ranges the workload file gives where the run did not draw them (``--scenarios N`` does): the
    result prices requests_per_day's point value (``Range.point``) and no growth."""
    mixed_fleet: Option | None = None  # the cheapest mixed fleet (its ``fleet`` block), where one is priced
    autoscaled_fleet: AutoscaledFleetBilling | None = None  # the best option scaled by the hour (DEP032)
    owned_base_usd_per_month: float | None = None
    """Owned servers for the base with hourly cards for the busier hours, a month, where that mix is priced
    (TCO022 names it; the rules do not decide on it)."""
    batch_start_up: StartUpBreakEven | None = None
    """A batch rented by the hour: the start-up a run from which another rental bills less."""
    sizing_policy: SizingPolicy | None = None
    spot_interruption_overhead: float = 0.0
    """The share of a spot rental's hours added for work redone after interruptions."""
    api_costs: tuple[ApiCost, ...]
    own_hardware: OwnHardware
    findings: tuple[Finding, ...]
    fired_rules: tuple[str, ...]
    price_dates: tuple[PriceDate, ...]
    oldest_open_price: dt.date
    """The oldest date of the prices the decision could take (``report/price_age.py``)."""
    engine_start: EngineStartSource | None = None
    """The serving engine's start the options bill, where one does (a batch run on rented cards, a
    serverless cold start) and the catalog measures it."""
    charts: Charts
    saving_worth_mentioning: float = 0.0
    """The share below which two monthly figures are read as even (thresholds.yaml): price dates and
    discounts move prices by more."""
    foreign_reach_providers: tuple[str, ...] = ()
    """The catalog's providers, by id, whose parent company is in a state whose law reaches data its
    companies control abroad, other than the company's own (``pipeline.foreign_reach``; RES015)."""
    own_growth: ServerGrowth | None = None
    """Where the decision buys own servers: how far the load may grow on them (``report.charts``)."""
    exchange_rate_usd_per_eur: float
    exchange_rate_as_of: dt.date
    exchange_rate_assumed: bool = False
    """The EUR/USD rate is gpu-advisor's own assumption (knowledge/exchange_rates.yaml), not a published
    rate; an overrides file's ``exchange_rate`` replaces it."""
    exchange_rate_chf_per_eur: float | None = None
    """The EUR/CHF rate (knowledge/exchange_rates.yaml) and its date: amounts shown in CHF are converted
    through the EUR, at ``exchange_rate_usd_per_eur`` over this."""
    exchange_rate_chf_as_of: dt.date | None = None
    exchange_rate_chf_source: str | None = None
    best_spot_notice_seconds: int | None = None
    """Where the best option is spot: its provider's notice before it takes the capacity back (None:
    none documented, or not spot); ``best_spot_notice_up_to``: at most that, best effort."""
    best_spot_notice_up_to: bool = False
    own_server_gpus: tuple[str, ...] = ()
    """The GPUs the catalog prices an own server of (``own_hardware.yaml``): owning another GPU is not
    compared."""
    next_best_option: Option | None = None
    """Where a rental is decided (the best option chosen): the next best dedicated offer no rule excluded,
    another offer, not the best one in another region at the same price; None elsewhere, or where no
    other offer stands."""
    other_routes: tuple[OtherRoute, ...] = ()
    """The routes not decided that no rule rules out, cheapest first (``OtherRoute``)."""
    scale_to_zero: ScaleToZero | None = None
    """Where a serverless product scaling to zero bills less than the cheapest route standing: its bill
    and its cold starts (None where none is priced)."""
    purchases_vat: PurchasesVat | None = None
    """The VAT rate every price and purchase of the result includes; None: they are net of VAT (the
    company recovers it, or the catalog has no rate for its country: KNB023)."""

    @property
    def usd_per_chf(self) -> float | None:
        """What a franc is in USD at the result's rates, through the EUR (None: the franc's rate not
        recorded)."""
        chf_per_eur = self.exchange_rate_chf_per_eur
        return self.exchange_rate_usd_per_eur / chf_per_eur if chf_per_eur else None
