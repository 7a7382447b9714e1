"""Details: values a rule's message shows but no condition reads. Not asserted into the engine, they reach
the message template beside the fired fact's fields, typed like them; a rule's conditions name only fact
fields, its message details too (checked when the rules load)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.common.wording import Words


class Details(BaseModel):
    # A name with words in it (``Words``) is said in the message's language when the message is written.
    model_config = ConfigDict(
        defer_build=True, extra="forbid", frozen=True, protected_namespaces=(), arbitrary_types_allowed=True
    )


class OtherPrice(Details):
    """Another catalog price of the best option's provider for the same GPU."""

    offer: str
    usd_per_gpu_hour: float
    pricing: str
    as_of: dt.date


class CountryPlace(Details):
    """A country an option's regions are in: its ISO code and the knowledge base's English name (the code
    where it has none), which the ``country`` filter says in the reader's language."""

    code: str
    name: str


class ServerlessDetails(Details):
    """The cheapest admitted serverless option and the best dedicated one, as the messages name them."""

    serverless_name: str
    """'RunPod Serverless (eu-datacenters, 1 × h200)' ("" without an option)."""
    serverless_gpu: str
    serverless_instance_gpus: int
    serverless_billed_hours: float
    serverless_busy_hours: float
    serverless_idle_hours: float
    serverless_cold_start_hours: float
    serverless_cold_starts: float
    """Starts from zero (a request waits for each)."""
    serverless_starts_between_requests: float
    """Those that follow a gap between requests longer than the idle timeout (not a day's first)."""
    serverless_scale_ups: float
    """Instances added for busier hours while others serve (their starts are in the cold-start hours)."""
    serverless_cold_start_seconds: float
    serverless_break_even_seconds: float = 0.0
    """Seconds more per start at which the scaling bill reaches the alternative's (0: not worked out)."""
    serverless_break_even_beyond: bool = False
    """It stays below even with that many more: the longest start a product may state."""
    serverless_kept_warm_instances: int
    """Instances kept warm around the clock (0: it scales to zero)."""
    serverless_kept_for_price: int = 0
    """Of them, those kept running at the product's lower always-on price (not for latency)."""
    serverless_kept_run_on: bool = False
    """The kept instances run on after each served day as the product scales them to zero (a schedule
    that leaves hours unserved, on a product not paused at once): their run-on is in the idle hours."""
    serverless_kept_every_hour: bool = False
    """The kept instances run every calendar hour, the endpoint's minimum not changed on the schedule
    (PRC035)."""
    alternative_name: str | Words
    """The cheapest other self-hosted route, as the messages name it ("" without one)."""
    alternative_kind: str
    """own_hardware or dedicated_cloud ("" without one)."""
    alternative_staff_uncosted: str = ""
    """The company's country, where the alternative is own hardware whose staff line has no sourced
    salary there (``OwnCosts.staff_uncosted``); "" otherwise."""
    model_weights_gb: float
    alternative_billed_hours: float = 0.0
    """The hours a month the alternative's cards are billed, where it is a rental (0 otherwise): every
    calendar hour for a reservation, or for cards kept outside the paid hours (PRC033)."""
    set_aside_serverless_name: str = ""
    """Where no serverless product is admitted: the cheapest one priced that no residency rule excludes, as
    ``serverless_name`` names it ("" where none is, or one is admitted). DEP012 sets it against the
    alternative; ``set_aside_serverless_*``: its month, its billed GPU-hours and the rules that exclude it."""
    set_aside_serverless_usd_per_month: float = 0.0
    set_aside_serverless_gpu_hours: float = 0.0
    set_aside_serverless_by: tuple[str, ...] = ()
    serverless_sla: str = ""
    """The serverless product's provider's enterprise SLA: 'published', 'none' or 'unknown' (could not be
    established, providers.yaml); "" without an option. ``alternative_sla``: the alternative's provider's
    ("" for own hardware, a mixed fleet or none)."""
    alternative_sla: str = ""


class ApiDetails(Details):
    api_name: str
    """The compared API's name ("" without one)."""
    api_as_of: str
    """The date of its price (YYYY-MM-DD; "" without one)."""
    api_provider: str = ""
    """Its provider ("" where the price names none: a document's figure for any host of the model)."""
    in_flight_gpu: str = ""
    """The GPU whose service time the load's requests in flight are worked out on (``Load.busy_share_gpu``;
    "" where none is)."""
    window_requests_per_second: float = 0.0
    """A batch: its window's rate (``window_in_flight``; 0 for a service)."""
    request_seconds_alone: float = 0.0
    """A batch: one request's seconds alone on a replica of ``window_gpu``."""
    window_gpu: str = ""
    """A batch: the GPU whose lone request is the shortest planned (``api_comparison.Window``)."""
    api_rate_limit_scope: str = ""
    """What the compared API's limits count over: account, project, organization (a model each), contract."""
    window_cut_short: str | Words = ""
    """That API, its window and its model's (``api_windows.cut_window_words``; "" without one)."""
    self_hosted_kind: str
    """The deployment the self-hosted figure is: serverless, own_hardware or dedicated_cloud."""
    self_hosted_name: str | Words
    """What the self-hosted figure buys, as the messages name it."""
    self_hosted_staff_uncosted: str = ""
    """The company's country, where the self-hosted figure is the own servers' and lacks its staff line
    (the catalog has no sourced salary for it); "" otherwise."""
    self_hosted_as_of: str
    """The date of the price it rests on (YYYY-MM-DD; "" without one)."""
    self_hosted_provider_name: str = ""
    """The provider billing it ("" for own hardware and a mixed fleet)."""
    self_hosted_spare_usd_per_month: float = 0.0
    """What the spare replicas a rule adds cost in it, where it is a rental (``SelfHosted``)."""
    self_hosted_spare_replicas: int = 0
    """How many they are."""
    self_hosted_capital_usd: float = 0.0
    """Own hardware: what its servers cost up front (``OwnHardware.capital_usd``), which the monthly
    figure writes off; 0 for a rental."""
    stopgap_name: str | Words = ""
    """The cheapest route that binds no purchase and no term (``routes.stopgap_route``), what a workload
    waiting for an API it may use runs on where the cheapest route standing binds a year or more (""
    without one)."""
    stopgap_kind: str = ""
    stopgap_usd_per_month: float = 0.0
    scale_to_zero_name: str
    """The serverless product priced scaling to zero ("" without one)."""
    scale_to_zero_usd_per_month: float
    scale_to_zero_cold_start_seconds: float
    """How long a request waits for an instance to start from zero (platform start, weights loaded)."""
    scale_to_zero_starts_per_month: float
    """Starts from zero a month, each making a request wait for the cold start."""
    standing_name: str | Words
    """The cheapest route still standing that the scale-to-zero price is compared with."""
    standing_usd_per_month: float
    standing_kept_warm: bool
    """That route is the serverless option itself, kept warm: the same product the note prices scaled
    to zero."""
    api_excluded_by: str = ""
    """The rules that exclude the API prices of the model's size or larger that take its requests
    ('PRV003, RES001'; "" where none is excluded or none stands in)."""
    unusable_api_name: str = ""
    """The cheapest of those prices the workload may not use ("" where none is)."""
    api_exceeded_limit: str = ""
    """Prices of the model's size or larger exist, but every one takes shorter requests than the
    workload's: ``window`` where some context window is too short, else ``answer`` (its answer cap);
    "" otherwise."""
    # The owned base and its hourly peaks (TCO022); the defaults where none is priced.
    owned_base_server_name: str = ""
    """The own server the owned base is costed on."""
    owned_base_nodes: int = 0
    """Owned servers for the base."""
    owned_base_quietest_replicas: int = 0
    owned_base_replicas: int = 0
    """The replicas the owned servers hold in every hour (``calc.fleets.base_placements``)."""
    owned_base_base_usd_per_month: float = 0.0
    owned_base_peak_name: str = ""
    """provider/offer of the hourly cards for the busier hours."""
    owned_base_peak_gpus_max: int = 0
    owned_base_peak_gpu_hours: float = 0.0
    owned_base_peak_usd_per_month: float = 0.0
    owned_base_usd_per_month: float = 0.0
    owned_base_staff_uncosted: bool = False
    """The own server's cost lines have no staff figure for the company's country (no sourced salary):
    owning costs more than the figure says."""


class EconomicsDetails(Details):
    own_cards_per_replica: int = 0
    """The cards a replica needs on the own server's GPU (0 where the model does not fit it)."""
    own_replicas: int = 0
    """The replicas the own route's plan runs (its GPU's plan)."""
    own_loss_replicas_left: int = 0
    """The replicas the loss of the fullest owned server leaves as planned; with the replicas the idle
    cards hold running too, ``own_loss_left_with_idle``; the peak needs ``own_loss_peak_replicas``."""
    own_loss_left_with_idle: int = 0
    own_loss_peak_replicas: int = 0
    own_idle_card_replicas: int = 0
    """The replicas the owned servers' idle cards hold, with no further purchase."""
    own_server_gpu: str = ""
    own_staff_uncosted_country: str = ""
    """The company's country where the own server's cost has no staff line (no sourced salary): owning
    costs more than its figure says ("" where staff is costed)."""
    own_hardware_ruled_out_by: str = ""
    """IDs of the workload's rules that ruled own hardware out (TCO015: no DevOps capacity), for DEP009,
    which would otherwise name it the remaining route."""
    own_financing_usd_per_month: float = 0.0
    """What borrowing the servers' price at ``own_borrowing_rate_per_year`` adds a month (0 without a
    rate)."""
    own_borrowing_rate_per_year: float = 0.0
    stated_utilization: float
    """The workload's own utilization, where it states one (KNB003 compares it with the busy share)."""
    own_usd_per_gpu_hour: float
    rent_usd_per_gpu_hour: float
    """Cheapest eligible rental price per GPU-hour of the own server's GPU (0 when there is none)."""
    replica_gpus_on_server_gpu: int
    server_gpus: int
    server_name: str
    """The own server's catalog name (an 8-GPU node, or an office workstation)."""
    load_utilization: float
    """The busy share the load itself gives the cheapest admitted option's GPU (0 without one)."""
    break_even_low_price: float
    break_even_high_price: float
    break_even_residual: float
    compared_with: str
    """provider/offer of the rental buying must beat ("" without one)."""
    rent_usd_per_month: float
    """Its monthly bill as it bills (0 without one)."""
    rent_usd_per_month_same_hours: float
    rent_gpus_rented: int
    own_nodes: int
    own_gpus: int
    """The owned cards: nodes × cards per server."""
    server_price_usd: float
    cheapest_same_hours_name: str
    reserving_name: str | Words = ""
    """The cheapest admitted option that holds its capacity for a term (``Alternatives.reserving``), as
    the messages name it, and its monthly bill ("" and 0 without one)."""
    reserving_usd_per_month: float = 0.0
    """provider/offer/gpu of the admitted rental whose monthly bill is the least ("" without one)."""
    cheapest_same_hours_billing: str
    cheapest_billed_hours_per_month: float
    hours_with_requests_per_month: float = 0.0
    """A service whose load profile leaves paid hours without requests (PRC024): the paid hours a month
    that have requests, at which a rental stopped in the others would bill; 0 where none is empty."""
    rent_usd_per_month_at_hours_with_requests: float = 0.0
    """What the rental buying is compared with bills at those hours (0 where it bills every hour)."""
    """The hours a month that rental bills (0 without one)."""
    mixed_fleet_name: str
    """Its base's and its peak's offers ("" without a mixed fleet)."""
    mixed_fleet_two_providers: bool = False
    """Its reserved base and its hourly instances are two providers' (two contracts, one load balancer
    across both)."""
    mixed_fleet_base_usd_per_month: float
    mixed_fleet_base_offer: str = ""
    """Its base's provider and offer ("aws p5-reserved-3y-2026-09"), the GPU and the cards it rents."""
    mixed_fleet_base_gpu: str = ""
    mixed_fleet_base_cards_rented: int = 0
    mixed_fleet_quietest_replicas: int
    """The replicas every hour needs; the base's instances hold ``mixed_fleet_base_replicas``."""
    mixed_fleet_busiest_replicas: int
    mixed_fleet_loss_replicas: int = 0
    """Of the quietest's and the busiest's, those every hour runs so that a lost instance carrying several
    leaves the hour's need (``MixedFleet.loss_replicas``)."""
    mixed_fleet_base_replicas: int
    mixed_fleet_peak_usd_per_month: float
    mixed_fleet_peak_gpu_hours: float
    autoscaled_usd_per_month: float
    autoscaled_undercuts_recommendation: bool = False
    """Set once the decision is settled (``with_the_decision``): the scaled fleet bills less than the
    recommendation by at least ``saving_worth_mentioning`` (``calc.fleet_billing.undercuts``)."""
    autoscaled_gpu_hours: float
    autoscaled_fewest_replicas: int
    """The fewest replicas of a served hour, and the most (the fixed fleet's count)."""
    autoscaled_most_replicas: int
    fixed_fleet_is_mixed: bool
    """The fleet compared is the mixed fleet (a reserved base, hourly instances for the busier hours)."""
    fixed_fleet_name: str | Words
    """The fixed rented fleet the autoscaled bill is compared with, and its monthly cost."""
    fixed_fleet_usd_per_month: float
    recommended_deployment: str
    recommended_usd_per_month: float
    """The settled decision and its monthly cost ("" and 0 until it is settled; 0 where it has no price),
    which DEP032 sets the scaled fleet against."""
    best_option_offer: str
    best_option_gpu: str
    best_option_gpus: int
    best_option_gpus_rented: int
    best_option_usd_per_hour: float
    best_option_idle_usd_per_month: float
    """What the best option's idle cards cost a month."""
    best_option_spread_cards: int = 0
    """The cards the best option rents beyond one placement of its replicas because business-critical
    replicas go on at least two instances (SIZ015); 0 where spreading adds none."""
    best_option_replica_room: int
    """Replicas its idle cards could carry."""
    best_option_replicas: int
    best_option_window_replicas: int = 0
    """The replicas its window needs (a batch's, with the spot rework) or its peak (a service's)."""
    best_option_replicas_on_fullest_instance: int = 0
    best_option_instance_count: int = 0
    """Its instances, and the most replicas one of them carries (what the loss of one takes)."""
    best_option_cards_per_replica: int
    best_option_instance_sizes: tuple[int, ...]
    """The instance sizes it is sold in, in cards."""
    best_option_cluster_network: str = ""
    """The network its provider documents between its instances (``Offer.cluster_network``), its
    bandwidth per instance in Gbit/s and what it takes ("", 0 and "" without one)."""
    best_option_cluster_gbps: float = 0.0
    best_option_cluster_condition: str = ""
    best_option_reserve_with: str = ""
    """How its provider reserves the instances a commitment that reserves none leaves free
    (``CapacityNotReserved.reserve_with``), and the two sources, '; '-separated ("" otherwise)."""
    best_option_capacity_sources: str = ""
    best_option_commitment_months: int = 0
    """The term of that commitment, in months."""
    best_option_term_months: int = 0
    """How long the cheapest rental binds, in months (0: by the hour, no term)."""
    unbound_option_name: str | Words = ""
    """The cheapest admitted rental bound by no term (``Alternatives.unbound``; "" without one)."""
    unbound_option_usd_per_month: float = 0.0
    mixed_fleet_base_reserve_with: str = ""
    """The same three of the mixed fleet's base (PRC028)."""
    mixed_fleet_base_capacity_sources: str = ""
    mixed_fleet_base_commitment_months: int = 0
    best_option_other_prices: tuple[OtherPrice, ...]
    """The provider's other catalog prices for the same GPU."""
    sla_unknown_providers: str | Words
    """The admitted rentals' providers whose SLA is not established, ', '-separated, alphabetical."""
    sla_unknown_provider_count: int = 0
    """How many providers ``sla_unknown_providers`` names (the message agrees with it in number)."""
    foreign_reach_providers: str | Words = ""
    """The admitted options' providers whose parent company is within reach of a foreign state's data-access
    law (``pipeline.foreign_reach``), as a sentence lists them; RES015."""
    foreign_reach_provider_count: int = 0
    foreign_reach_laws: str | Words = ""
    """The laws that reach them."""
    european_providers_admitted: str | Words = ""
    """The admitted options' European providers, as a sentence lists them ("" without one)."""
    best_option_foreign_reach: bool = False
    """The cheapest admitted rental is of one of those providers."""
    best_option_sla_unknown: bool
    """The best option's provider is one of them."""
    sla_established_best_name: str | Words
    """The cheapest admitted option of a provider with an enterprise SLA, as the messages name it ("" without
    one), and its monthly cost."""
    sla_established_best_usd_per_month: float
    sla_established_best_as_of: str
    """The date of its list price (YYYY-MM-DD; "" without one)."""
    mixed_fleet_sla_unknown_parts: str
    """The parts of the mixed fleet (``base``, ``peak`` or ``both``) whose provider's SLA is not
    established ("" where none is, or no mixed fleet is priced)."""
    mixed_fleet_sla_unknown_names: tuple[str, ...]
    """Those providers' names, each once (the message joins them in its language)."""
    hyperscaler_best_usd_per_month: float
    hyperscaler_best_name: str | Words
    """The cheapest eligible hyperscaler option, as the messages name it ("" without one): its GPU may
    differ from the best option's."""
    hyperscaler_best_gpu: str
    hyperscaler_best_usd_per_gpu_hour: float
    best_option_usd_per_gpu_hour: float
    best_option_billed_hours_per_month: float = 0.0
    """The hours a month the best option is billed for (a batch: its runs, rounded as the offer bills)."""
    non_eu_best_usd_per_month: float
    non_eu_best_name: str | Words
    """The cheapest offer the residency rules exclude, as the messages name it ("" without one)."""
    best_option_name: str | Words
    """The best option, as the messages name it ("" without one)."""
    eu_premium: float
    reference_gpu: str
    reference_gpus: int
    reference_usd_per_hour: float
    reference_provider: str
    reference_offer: str
    reference_pricing: str
    reference_cards_per_replica: int
    quantized_precision: str
    quantized_best_gpu: str
    quantized_best_cards_rented: int
    quantized_best_name: str | Words = ""
    """The cheapest rental of the quantized model, as ``best_option_name`` names the model's as given."""
    quantized_same_offer: bool = False
    """That rental is the best option's offer and GPU, on fewer cards."""
    quantized_weights_gb: float
    quantized_gpu_latency_rules: str
    """The latency rules that rule the quantized option's GPU out for the model as given (comma-separated;
    empty: none): quantized, it comes within the targets."""
    quantized_best_sla_unknown: bool = False
    """The catalog could not check whether that rental's provider publishes an enterprise SLA (PRV011)."""
    quantized_latency_ms: tuple[float, float] | None = None
    """That rental's GPU, quantized: the mean time to first token and per output token at the peak by the
    estimate; None for a batch."""
    best_option_latency_ms: tuple[float, float] | None = None
    """The same for the best option's GPU with the model as given."""
