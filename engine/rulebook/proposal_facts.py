"""The ``proposal`` fact of ``gpu-advisor check``: what someone intends to do, next to what the workload
needs. Asserted with the workload's facts beside it (``facts.py``)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from gpu_advisor.engine.rulebook.fact_base import Fact, Guard


class ProposalFact(Fact):
    """What someone intends to do, next to what the workload needs (``gpu-advisor check``).

    Fields a proposal may leave out are guarded by a ``<name>_known`` flag; a check that reads one that
    is not known reports 'unknown' instead of guessing.
    """

    about_workload: ClassVar[bool] = True

    kind: Literal["proposal"] = "proposal"
    deployment: str
    recommended_deployment: str
    deployment_differs: bool
    rentals_kept_every_hour: bool = False
    """A rule keeps a business-critical service's hourly rentals every calendar hour (PRC033): the
    proposal's too are priced so."""
    deployment_ruled_out: bool
    """A fired rule rules the proposed deployment out (and the recommendation is another)."""
    deployment_ruled_out_firmly: bool = False
    """One of those rules marks its rule-out a bar (``rule_out.bar``): a legal or technical one (own
    weights on a model API, data that may not leave the building, no catalog hardware), not cost or
    strategy."""
    rental: bool
    cloud_hosted: bool
    """Runs in a provider's region: dedicated, hybrid or serverless (the residency checks apply)."""
    buying: bool
    gpu: str
    gpu_known: bool
    gpus: Annotated[int, Guard("gpus_known")]
    gpus_known: bool
    gpu_fits: bool
    """The proposed GPU holds the model with KV reserve at 16 cards or fewer."""
    gpu_interconnect: str
    multi_card: bool
    """A replica on the proposed GPU spans several cards."""
    cards_per_replica: Annotated[int, Guard("gpu_fits")]
    largest_linked_instance_gpus: Annotated[int, Guard("offer_known")]
    """The offer's largest instance whose cards share a fast link; 0 when none does."""
    stages_over_cluster_network: Annotated[bool, Guard("offer_known")] = False
    """A replica larger than the offer's largest instance runs as pipeline stages of whole linked
    instances over a network its provider documents between them (NET004 admits it)."""
    gpu_unsuitable: bool
    gpu_vendor: Annotated[str, Guard("gpu_known")] = ""
    engine_runs_on_gpu: Annotated[bool, Guard("gpu_known")] = True
    engine_runs_precision: Annotated[bool, Guard("gpu_known")] = True
    """The serving engine serves the workload's precision on the proposed GPU (SIZ029)."""
    """The serving engine runs on cards of the proposed GPU's vendor (``ServingEngine.gpu_vendors``)."""
    gpus_for_weights: int
    gpus_needed: int
    """Cards the load needs on the proposed GPU with headroom and the spare replicas the rules add
    (replicas x cards per replica). For a serverless proposal, whose cards are one instance's and whose
    product starts the instances the peak needs and replaces a failed one: one replica's memory cards
    (``memory_cards_per_replica``)."""
    gpus_for_peak: int
    """The same without the spares: what the peak needs within the headroom target (serverless: one
    replica's memory cards, as ``gpus_needed``)."""
    memory_cards_per_replica: int = 0
    """The fewest cards of the proposed GPU whose memory holds a replica: the weights, the engine's
    reserve and the KV cache of the fewest full-context sequences a replica is planned with
    (``GpuFit.gpus_for_light_load``); 0 where none does."""
    latency_known: bool
    """A service whose proposal names a GPU and cards that hold a replica: its latency at peak is
    worked out (not for a batch, whose requests wait their turn by design)."""
    ttft_target_given: bool
    max_time_to_first_token_ms: Annotated[float, Guard("ttft_target_given")]
    tpot_target_given: bool
    max_time_per_output_token_ms: Annotated[float, Guard("tpot_target_given")]
    batch_run_known: bool = False
    """A batch whose proposal names a GPU and cards that hold a replica: its run's hours are worked out."""
    batch_run_hours: Annotated[float, Guard("batch_run_known")] = 0.0
    """The hours a run's work takes on the proposed replicas at the estimated throughput."""
    batch_start_hours: Annotated[float, Guard("batch_run_known")] = 0.0
    """Of them, the run's start: the weights' load and the engine's (``batch_window.run_start``)."""
    batch_request_seconds: Annotated[float, Guard("batch_run_known")] = 0.0
    """One request alone on a proposed replica after its start: the least a run's work takes."""
    batch_serves_in_window: Annotated[bool, Guard("batch_run_known")] = True
    """The start and one request take less than the window (``batch_window.serves_in_window``)."""
    batch_run_window_hours: Annotated[float, Guard("batch_run_known")] = 0.0
    """The hours the run must be done in: the workload's window within its schedule's hours a day."""
    batch_slack_hours: Annotated[float, Guard("batch_run_known")] = 0.0
    """The window's hours the run leaves (negative where it overruns it)."""
    batch_runs_daily: Annotated[bool, Guard("batch_run_known")] = False
    """The batch runs on every day of its schedule (not weekly: ``batch_runs_per_month``)."""
    batch_run_interval_hours: Annotated[float, Guard("batch_run_known")] = 24.0
    """The hours from one run's start to the next: a day where it runs daily, else the calendar month's
    hours over its runs (a weekly job: about 168); a run longer than that never catches up (SIZ019)."""
    batch_restart_hours: Annotated[float, Guard("batch_run_known")] = 0.0
    """What a replica lost to an interruption takes to serve again: a new instance launched and the
    weights loaded (``proposal_batch.restart_hours``; a floor, finding capacity again unknown)."""
    time_to_first_token_alone_ms: Annotated[float, Guard("latency_known")]
    time_per_output_token_alone_ms: Annotated[float, Guard("latency_known")]
    """A lone request on one proposed replica: the least any number of replicas gives."""
    time_to_first_token_at_peak_ms: Annotated[float, Guard("latency_known")]
    time_per_output_token_at_peak_ms: Annotated[float, Guard("latency_known")]
    peak_overloads_replicas: Annotated[bool, Guard("latency_known")]
    """The replicas the peak is worked out on (``replicas_left_at_peak``) cannot carry it: the queue, and
    so the wait, grows without bound."""
    replica_lost_at_peak: Annotated[bool, Guard("latency_known")] = False
    """The peak's latency is worked out on the proposed replicas beside the spares the rules ask for, as
    while they stand in for lost ones: fewer than all of them serve (LAT013's and LAT014's messages)."""
    replicas_left_at_peak: Annotated[int, Guard("latency_known")] = 0
    """The replicas the ``*_at_peak_ms`` figures are worked out on (all of them where no spare is asked)."""
    time_to_first_token_intact_ms: Annotated[float, Guard("latency_known")] = 0.0
    time_per_output_token_intact_ms: Annotated[float, Guard("latency_known")] = 0.0
    """The peak spread over all the proposed replicas, none lost (LAT005, LAT006); a serverless
    proposal's lone request on one instance, as ``*_at_peak_ms``."""
    peak_overloads_intact: Annotated[bool, Guard("latency_known")] = False
    """All the proposed replicas together cannot carry the peak: the queue grows without bound."""
    busiest_hour_requests_per_second: Annotated[float, Guard("latency_known")] = 0.0
    """The busiest hour's mean arrival rate (``Load.busiest_hour_requests_per_second``)."""
    proposed_requests_per_second: Annotated[float, Guard("latency_known")] = 0.0
    """What the proposed replicas serve at saturation at the estimate: replicas times one replica's
    ``requests_per_second``."""
    gpu_misses_latency_targets: Annotated[bool, Guard("gpu_known")]
    """A latency rule ruled the proposed GPU out for the workload (LAT001, LAT002, LAT007): another GPU
    it may have comes nearer its targets."""
    time_to_first_token_planned_ms: Annotated[float, Guard("latency_known")]
    time_per_output_token_planned_ms: Annotated[float, Guard("latency_known")]
    """The nearest the workload's replicas can be planned to at the peak on the GPUs it may have
    (``GpuVerdicts.planned_*``): its target, or the fastest GPU's lone time plus the estimate's mean
    latency error where the target lies below that; 0 without a target."""
    pricing: Annotated[str, Guard("pricing_known")]
    pricing_known: bool
    spot_in_proposal: bool
    """The proposal rents spot capacity: its pricing, or the busier hours' offer a hybrid names."""
    commitment: Literal["none", "months", "years", "unknown"]
    """How long the proposed offer binds (``Offer.commitment``); unknown where the catalog has no such
    offer at the proposed pricing."""
    capacity_not_reserved: bool = False
    """The proposed offer, at its pricing, is a commitment that reserves no instances (a savings plan,
    ``Offer.capacity_not_reserved``)."""
    region: str
    region_known: bool
    """Whether the proposal runs in the EU is known: every jurisdiction it may run in agrees."""
    eu: Annotated[bool, Guard("region_known")]
    jurisdiction: str
    """The jurisdictions the proposal may run in (EU, US, UK, CH, unknown), '/'-separated; "" if none."""
    countries: str
    """The countries of the regions it may run in (ISO codes, ', '-separated); "" where not known."""
    country_known: bool = False
    """It runs in one country: its regions name that one and no other."""
    country: Annotated[str, Guard("country_known")] = ""
    """That country (ISO 3166 code), for an organization's rule that keeps data in some countries
    (``{fact: country, op: not_in, values: [DE]}``); "" where it is not known."""
    jurisdiction_known: bool
    """The residency rules give every jurisdiction the proposal may run in the same answer."""
    jurisdiction_excluded: Annotated[bool, Guard("jurisdiction_known")]
    """The residency rules that fired for the workload exclude the jurisdiction it runs in (their
    conclusions, as they exclude options)."""
    provider_foreign_reach: bool = False
    """A foreign data-access law reaches the proposed provider's parent company (``provider_foreign_law``)."""
    provider_foreign_law: str = ""
    """The law that obliges the proposed provider's parent company to disclose data it controls wherever
    stored (``data_protection.yaml``: extraterritorial_access), as named there; "" where none reaches it,
    or where it is the company's own state's (RES016)."""
    provider: str
    provider_known: bool
    provider_kind: str
    provider_self_managed: Annotated[bool, Guard("provider_known")]
    """A neo-cloud or marketplace: GPUs without the managed services around them (not a managed
    serverless endpoint, whose platform deploys, scales and serves the model)."""
    sla_not_established: bool
    """The proposal names a catalog provider whose SLA verdict is not established (providers.yaml:
    enterprise_sla null): PRV012 warns of it, and PRV009, which needs a verdict, does not apply."""
    enterprise_sla: Annotated[bool, Guard("provider_known")]
    """False also where the verdict is not established (``sla_not_established``)."""
    offer_known: bool
    """provider/offer/gpu is a catalog offer."""
    offer_superseded: Annotated[bool, Guard("offer_known")]
    """The offer's list price is one its provider's own newer list replaces (``superseded_by``)."""
    offer_price_age_days: Annotated[int, Guard("offer_known")]
    """Days from the date of the list price the cost checks use (the newer list's where one replaces the
    offer's) to the day of the evaluation."""
    serverless_product_known: bool
    """A serverless proposal's provider sells the serverless product it names in the catalog (or, naming
    none, sells one); False for other deployments."""
    serverless_instance_gpus_max: Annotated[int, Guard("serverless_product_known")] = 0
    """The most cards one instance of the named serverless product has on the proposed GPU, as the
    catalog prices it (0: it sells that GPU not at all)."""
    serverless_instance_priced: Annotated[bool, Guard("serverless_product_known")] = True
    """The proposed instance (``gpus``, one instance's cards) is a size the catalog prices the named
    product at on the proposed GPU (True where the proposal names no count)."""
    serverless_instance_holds_plan: Annotated[bool, Guard("serverless_product_known")] = True
    """An instance of the proposed size holds whole replicas as the recommendation plans them, on a GPU
    of the product that suits the model (the proposed one where it names one): the sizes the check can
    price (True where the proposal names no count)."""
    serverless_larger_instances_unpriced: Annotated[bool, Guard("serverless_product_known")] = False
    """The product sells larger instances than the catalog prices (``larger_instances_unpriced``)."""
    serverless_request_queue: Annotated[bool, Guard("serverless_product_known")] = False
    """The proposed product passes requests through a queue of its platform whose location is not stated
    (``ServerlessProduct.request_queue``, RES017)."""
    serverless_priced: bool = False
    """A serverless proposal the catalog prices: its product's limits below are those of the product as
    priced (``check.proposal_serverless_limits``), as the api fact's ``self_hosted_*`` are for recommend."""
    serverless_peak_instances: Annotated[int, Guard("serverless_priced")] = 0
    """Its instances (workers) in the busiest hour (a batch: during a run)."""
    serverless_price_age_days: Annotated[int, Guard("serverless_priced")] = 0
    """Days from the date of the product's price to the evaluation."""
    serverless_peak_usd_per_hour: Annotated[float, Guard("serverless_priced")] = 0.0
    """What its busiest hour costs (``routes.SelfHosted.peak_usd_per_hour``)."""
    serverless_spend_limited: Annotated[bool, Guard("serverless_priced")] = False
    """Its provider starts an account with a limit on what it may spend an hour (``SpendLimit``)."""
    serverless_spend_limit_usd_per_hour: Annotated[
        float, Guard("serverless_priced", "serverless_spend_limited")
    ] = 0.0
    serverless_workers_limited: Annotated[bool, Guard("serverless_priced")] = False
    """The product runs a known number of workers by default."""
    serverless_workers_per_endpoint: Annotated[
        int, Guard("serverless_priced", "serverless_workers_limited")
    ] = 0
    serverless_workers_per_account: Annotated[
        int, Guard("serverless_priced", "serverless_workers_limited")
    ] = 0
    serverless_idle_scale_down: Annotated[bool, Guard("serverless_priced")] = False
    """The product scales down an endpoint idle for days (``IdleScaleDown``)."""
    serverless_workers_lowered_after_days: Annotated[
        float, Guard("serverless_priced", "serverless_idle_scale_down")
    ] = 0.0
    serverless_workers_lowered_to: Annotated[
        int, Guard("serverless_priced", "serverless_idle_scale_down")
    ] = 0
    serverless_workers_stopped_after_days: Annotated[
        float, Guard("serverless_priced", "serverless_idle_scale_down")
    ] = 0.0
    idle_days_between_runs: float = 0.0
    """A batch's days without a request between runs, its runs spread evenly over the calendar month; 0
    for a service."""
    rental_policy_known: bool = True
    """Whether the organization rules' exclusions of the proposed rental are known: not where they exclude
    some of the offers it may mean and not others, or it names no provider (``check.proposal_policy``)."""
    rental_policy_excluded: Annotated[bool, Guard("rental_policy_known")] = False
    """They exclude the proposed rental wherever it may run, as they exclude it from the recommendation's
    options."""
    serverless_excluded: Annotated[bool, Guard("serverless_product_known")] = False
    """The rules that fired for the workload exclude every option of the product the recommendation
    weighed (its GPUs that suit the model and hold a replica, on the proposed GPU and in the proposed
    region where it names them), as they exclude them from its options (where the data may be processed,
    an SLA, how it is run, company policy); False where it weighed none."""
    usd_per_month: float
    cost_known: bool
    server_housing_excluded: bool
    """The proposed own server stands where a fired rule excludes own servers (an office machine for a
    business-critical workload)."""
    costs_compared: bool
    """The proposal and the recommendation both have a monthly price (``extra_cost_share``)."""
    recommendation_priced: bool = False
    """The recommendation has a monthly price: a proposal without one (a server the catalog does not
    price) cannot be compared with it, which DEP033 reports as unknown rather than passing."""
    extra_cost_share: Annotated[float, Guard("cost_known")]
    """The proposal's monthly cost over the recommendation's, minus 1 (0.56: 56 % more)."""
    servers: int
    server_gpus: int
    server_known: bool = False
    """A catalog server holds the proposal's GPU: without one, the servers the cards take are not known."""
    servers_needed: int = 0
    """The fewest of the proposed servers that hold the cards the workload needs (0 without a server)."""
    servers_spreading: int = 0
    """The most servers that keep the peak's replicas through the loss of any one, each holding a replica
    (with replicas on all their cards, or the named cards' where the proposal names them;
    ``own_hardware.servers_spreading``; 0 where a replica is larger than a server, and for a batch, whose
    run restarts on the servers left and keeps no peak through a loss): up to that many, a server is what
    survives a lost machine, not idle (TCO027)."""
    server_loss_short: bool = False
    """Business-critical owned servers of which the loss of any one leaves the peak short: fewer servers
    than ``servers_needed``, or, where the proposal names the cards the service runs on (``gpus``), their
    replicas spread over the servers leave fewer than the peak needs (SIZ033)."""
    server_loss_left: int = 0
    """Where ``gpus`` are named: the replicas the loss of the fullest server leaves, those the peak needs,
    and the replicas on the named cards (0 otherwise)."""
    server_loss_peak: int = 0
    server_loss_replicas: int = 0
    batch_server_loss_short: bool = False
    """A business-critical batch on owned servers: the loss of the fullest proposed server during a run
    leaves fewer replicas than the window needs (SIZ040); with the counts below (0 otherwise)."""
    batch_server_loss_left: int = 0
    batch_server_loss_window: int = 0
    batch_server_loss_replicas: int = 0
    server_loss_needs_idle_replicas: bool = False
    """Business-critical owned servers proposed without named cards, as many as keeping the peak through
    a lost server takes, which keep it only with replicas on the cards the load leaves idle: those cards
    are not idle (``own_hardware.idle_cards_keep_the_peak``, as the recommendation's SIZ032 reads it)."""
    node_utilization: float
    node_has_idle_gpus: bool
    rental_to_beat_billing: Literal["hourly", "committed", "none"]
    """How the rental buying must beat in the workload's evaluation bills (see ``EconomicsFact``)."""
    rental_priced: bool
    """Some admitted rental is priced for the workload (its monthly bill: the next field)."""
    cheapest_rental_usd_per_month: Annotated[float, Guard("rental_priced")]
    """The least monthly bill of an admitted rental for the workload, as owning is compared with it."""
    service_on_one_machine: bool
    """The proposal runs all its replicas, one or more, on one instance or one server (SIZ016)."""
    instance_loss_short: bool = False
    """A business-critical rental on two instances or more: the loss of its fullest instance leaves fewer
    replicas than the peak needs (``apps.check.instance_loss``, SIZ034)."""
    lost_instance_leaves_too_few: bool = False
    """A business-critical rental of two replicas or more, on one instance or more: the loss of its fullest
    instance leaves fewer replicas than the peak or the window needs (``apps.check.instance_loss``; a
    batch's, SIZ039)."""
    gpus_billed: Annotated[int, Guard("cost_known")]
    """The cards the proposed rental's whole instances bill (PRC013 compares them with ``gpus``); 0 for
    own hardware."""
    base_gpus_stated: bool = False
    """A hybrid proposal states the cards it reserves (``base_gpus``) and its mix is priced."""
    base_gpus: Annotated[int, Guard("base_gpus_stated")] = 0
    base_gpus_billed: Annotated[int, Guard("base_gpus_stated")] = 0
    """The cards the reservation's whole instances bill for that base (PRC018 compares them)."""
    base_cost_compared: bool = False
    """A hybrid states its base, and the base that costs least on its reservation is priced too."""
    base_extra_cost_share: Annotated[float, Guard("base_cost_compared")] = 0.0
    """The stated base's mix over that cheapest mix, minus 1 (0.09: 9 % more)."""
    mix_priced: bool = False
    """A hybrid proposal's mix of its reservation and an hourly offer is priced."""
    peak_runs: Annotated[bool, Guard("mix_priced")] = False
    """The mix's hourly offer runs in some hour: the busier hours need replicas beyond the base's."""
    peak_capped: Annotated[bool, Guard("mix_priced")] = False
    """The proposal's ``gpus`` hold fewer replicas than some hour needs, so the mix runs no more (the
    capacity checks judge the shortfall)."""
    offer_billed: bool = True
    """The offer this fact names enters the proposal's cost; False for a hybrid's busier-hours offer
    where the mix never runs it (its list price then prices nothing)."""
    api_named: bool = False
    """A managed-API proposal names its provider or its API (``offer``: the API's ID)."""
    api_known: bool = False
    """A managed-API proposal means an API the catalog prices: the one it names, its provider's of the
    workload's size class, or (naming none) the one the recommendation compared."""
    api_excluded: Annotated[bool, Guard("api_known")] = False
    """The rules that fired for the workload exclude that API, as they exclude it from the comparison
    (where its provider processes the requests, its SLA, how it is sold, company policy)."""
    api_hosts_smaller_model: Annotated[bool, Guard("api_known")] = False
    """That API hosts an open model smaller than the workload's (in parameters, or active ones)."""
    api_hosts_other_model: Annotated[bool, Guard("api_known")] = False
    """The API hosts another model than the workload's (a proprietary one, or an open one of another family
    or size) that is not a smaller open one (``api_hosts_smaller_model``, DEP037)."""
    api_reasons_otherwise: Annotated[bool, Guard("api_known")] = False
    """That API's model thinks before it answers where the workload's does not, or answers without a
    chain of thought where the workload's model thinks first (``reasoning``)."""
    api_requests_too_short: Annotated[bool, Guard("api_known")] = False
    """That API's context window (where the catalog records it) is below the workload's serving context,
    or its answer cap below the average answer: it cannot take the workload's requests."""
    api_window_recorded: Annotated[bool, Guard("api_known")] = False
    """The catalog records that API's context window."""
    api_windows_cut_short: Annotated[bool, Guard("api_known")] = False
    """Another API the catalog prices serves its model with a window cut below the model's own and below
    the workload's serving context (``api_windows.window_cut_short``): providers sell windows that short."""
    api_price_age_days: Annotated[int, Guard("api_known")] = 0
    """Days between the proposed API's price date and the evaluation."""
    api_batch: bool = False
    """The proposed API is its provider's batch API: it queues the work, and no limit on requests applies."""
    api_concurrency_limited: bool = False
    """The proposed API takes a known number of requests in flight by default
    (``apps/check/proposal_api_limits.py``)."""
    api_concurrent_requests: int = 0
    in_flight_known: bool = False
    """The workload's requests in flight are worked out (a batch's: where a GPU holds the model)."""
    requests_in_flight_needed: float = 0.0
    """A service's requests in flight at its peak; a batch's at least, sent within its window."""
    api_requests_per_minute_limited: bool = False
    """It takes a known number of requests a minute by default."""
    api_requests_per_minute: int = 0
    api_tokens_per_minute_limited: bool = False
    """It takes a known number of tokens (input and output) a minute by default."""
    api_tokens_per_minute: int = 0
    minute_rate_known: bool = False
    """The requests a minute the API must take are worked out (``api_comparison.minute_rate``)."""
    requests_per_minute_needed: float = 0.0
    """A service's busiest minutes, a batch's window: its requests and their tokens a minute."""
    tokens_per_minute_needed: float = 0.0
    waivers_dated: bool = False
    """The proposal has a waiver with an end date (``until``)."""
    waiver_expired: bool = False
    """A waiver's end date lies before the day of the evaluation."""
    robustness_known: bool = False
    """``check --scenarios N``: the workload's scenarios were drawn and evaluated."""
    proposal_win_share: Annotated[float, Guard("robustness_known")] = 0.0
    """The share of those scenarios whose decision is the proposal (the fields it names agree)."""
