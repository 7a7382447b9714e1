"""The ``api`` fact: the managed API against the cheapest self-hosted route the rules left standing,
asserted after the serverless and economics stages have settled which routes stand."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from gpu_advisor.engine.rulebook.fact_base import Fact, Guard

API = "api_priced"


class ApiFact(Fact):
    """The managed API against the cheapest self-hosted route the rules left standing."""

    about_workload: ClassVar[bool] = True

    kind: Literal["api"] = "api"
    api_priced: bool
    """A managed API in the catalog can serve the workload's volume (its price is known)."""
    api_usd_per_month: Annotated[float, Guard(API)]
    api_same_model: Annotated[bool, Guard(API)] = False
    """The compared price is the workload's own model's, not a stand-in (``ApiCost.same_model``)."""
    api_model_params_b: Annotated[float, Guard(API)]
    """The size of the open model behind the compared API; 0 for a proprietary model."""
    api_price_age_days: Annotated[int, Guard(API)]
    """Days between the compared API price's date and the evaluation."""
    api_window_recorded: Annotated[bool, Guard(API)] = True
    """The catalog records the compared API's context window."""
    windows_cut_short: bool = False
    """Another API the catalog prices serves its model with a window cut below the model's own and below
    the workload's serving context (``api_windows.window_cut_short``): providers sell windows that short."""
    unusable_api_priced: bool = False
    """No API price the workload may use stands in for its model, but the catalog has some of its size or
    larger that a rule excludes or that take shorter requests: the cheapest of them is what an API would
    cost at the prices known (``unusable_api_usd_per_month``)."""
    unusable_api_usd_per_month: Annotated[float, Guard("unusable_api_priced")] = 0.0
    self_hosted_priced: bool
    """A self-hosted route the rules left standing has a price."""
    self_hosted_usd_per_month: Annotated[float, Guard("self_hosted_priced")]
    """The cheapest of the self-hosted routes (serverless, own hardware, dedicated) whose proposal
    stands after the serverless and economics stages."""
    self_hosted_saving_vs_api: Annotated[float, Guard(API, "self_hosted_priced")] = 0.0
    """1 - the self-hosted route's cost over the API's: the share of the API's bill it saves (negative
    where it costs more)."""
    self_hosted_saving_usd_per_month: Annotated[float, Guard(API, "self_hosted_priced")] = 0.0
    """The API's bill less the self-hosted route's (negative where the route costs more)."""
    self_hosted_commits: Annotated[bool, Guard("self_hosted_priced")] = False
    """The route binds a purchase or a term of a year or more: own servers, a reservation, a mixed
    fleet's reserved base (``routes.binds_years``)."""
    operating_staff_known: bool = False
    """The company's country has a staff line for an owned server (``cost_defaults.yaml``)."""
    operating_staff_usd_per_month: Annotated[float, Guard("operating_staff_known")] = 0.0
    """That line a month: the share of an engineer's salary that operating one server takes, the least a
    self-hosted route costs in staff beside its bill (gpu-advisor's assumption, DEP046)."""
    self_hosted_kind: Annotated[str, Guard("self_hosted_priced")]
    """Its deployment: serverless, own_hardware, dedicated_cloud or hybrid."""
    self_hosted_price_age_days: Annotated[int, Guard("self_hosted_priced")]
    """Days between the date of the price it rests on and the evaluation."""
    self_hosted_peak_usd_per_hour: Annotated[float, Guard("self_hosted_priced")]
    """What it costs in its busiest hour (``routes.SelfHosted.peak_usd_per_hour``)."""
    self_hosted_spend_limited: bool
    """Its provider starts an account with a limit on what it may spend an hour (``SpendLimit``)."""
    self_hosted_spend_limit_usd_per_hour: Annotated[
        float, Guard("self_hosted_priced", "self_hosted_spend_limited")
    ]
    self_hosted_peak_instances: Annotated[int, Guard("self_hosted_priced")] = 0
    """A serverless route's instances (workers) in its busiest hour (0 for other routes)."""
    self_hosted_workers_limited: Annotated[bool, Guard("self_hosted_priced")] = False
    """The route is a serverless product that runs a known number of workers by default."""
    self_hosted_workers_per_endpoint: Annotated[
        int, Guard("self_hosted_priced", "self_hosted_workers_limited")
    ] = 0
    self_hosted_workers_per_account: Annotated[
        int, Guard("self_hosted_priced", "self_hosted_workers_limited")
    ] = 0
    self_hosted_idle_scale_down: Annotated[bool, Guard("self_hosted_priced")] = False
    """The route is a serverless product that scales down an endpoint idle for days (``IdleScaleDown``)."""
    self_hosted_workers_lowered_after_days: Annotated[
        float, Guard("self_hosted_priced", "self_hosted_idle_scale_down")
    ] = 0.0
    self_hosted_workers_lowered_to: Annotated[
        int, Guard("self_hosted_priced", "self_hosted_idle_scale_down")
    ] = 0
    self_hosted_workers_stopped_after_days: Annotated[
        float, Guard("self_hosted_priced", "self_hosted_idle_scale_down")
    ] = 0.0
    idle_days_between_runs: float = 0.0
    """A batch's days without a request from the end of one run to the start of the next, its runs spread
    evenly over the calendar month; 0 for a service, which is sent requests every day."""
    api_batch: Annotated[bool, Guard(API)]
    """The compared price is the provider's batch API: its work is queued, not held in flight."""
    api_concurrency_limited: Annotated[bool, Guard(API)]
    """The compared API's product allows an account a known number of requests in flight by default."""
    api_concurrent_requests: Annotated[int, Guard(API, "api_concurrency_limited")]
    api_requests_per_minute_limited: Annotated[bool, Guard(API)] = False
    """The compared API's product takes a known number of requests a minute by default."""
    api_requests_per_minute: Annotated[int, Guard(API, "api_requests_per_minute_limited")] = 0
    api_tokens_per_minute_limited: Annotated[bool, Guard(API)] = False
    """It takes a known number of tokens (input and output) a minute by default."""
    api_tokens_per_minute: Annotated[int, Guard(API, "api_tokens_per_minute_limited")] = 0
    minute_rate_known: bool = False
    """The requests a minute the API must take are worked out: a service's busiest minutes, or a batch's
    window (its requests spread evenly over it; ``api_comparison.minute_rate``)."""
    requests_per_minute_needed: Annotated[float, Guard("minute_rate_known")] = 0.0
    tokens_per_minute_needed: Annotated[float, Guard("minute_rate_known")] = 0.0
    """Those requests' tokens, input and output at the workload's averages."""
    peak_in_flight_known: bool
    """The load's requests in flight at the peak are worked out (``Load.requests_in_flight_peak``)."""
    peak_requests_in_flight: Annotated[float, Guard("peak_in_flight_known")]
    window_in_flight_known: bool
    """A batch: the requests it keeps in flight at least to finish within its window are worked out."""
    window_requests_in_flight: Annotated[float, Guard("window_in_flight_known")]
    """The window's rate times one request's time alone on the fastest replica planned: an API as fast
    keeps this many in flight, one that batches them longer more (``api_comparison.Window``)."""
    serverless_sla: Literal["published", "none", "unknown"]
    """Whether the provider of the cheapest admitted serverless option publishes an enterprise SLA for it
    (providers.yaml); unknown where the catalog could not establish it, or no serverless option stands."""
    api_ruled_out: bool
    """A rule fired so far rules the API out (own weights, DEP005; data that stays in the building; a
    policy): its price is no longer a route the comparison rules weigh."""
    serverless_ruled_out: bool
    """A rule fired so far rules serverless out (DEP024 for a busy steady service, a policy): stating
    the latency sensitivity would not bring it back."""
    scale_to_zero_priced: bool
    """A rule keeps serverless instances warm for a latency-sensitive workload, and some admitted
    serverless product can carry it scaling to zero instead (its price:
    ``ApiDetails.scale_to_zero_usd_per_month``)."""
    scale_to_zero_waits: Annotated[bool, Guard("scale_to_zero_priced")]
    """Scaling to zero, a request finds no instance running and waits for a cold start in a typical
    month (at least one start from zero a month): the latency question is real."""
    scale_to_zero_saving: Annotated[float, Guard("scale_to_zero_priced")]
    """The share of the cheapest route still standing (the self-hosted one, or the API where no rule
    has ruled it out) that scaling serverless to zero would save; 0 or less where it saves nothing."""
    cheapest_standing_priced: bool
    """Some route still stands with a price: the self-hosted one, or the API where no rule has ruled it
    out (its name: ``ApiDetails.standing_name``)."""
    cheapest_standing_usd_per_month: Annotated[float, Guard("cheapest_standing_priced")]
    """The cheapest of them a month: what a budget rule reads as the cost of running the workload."""
    owned_base_priced: bool
    """Owned servers for a base of replicas in every hour and an hourly offer of their GPU for the busier
    hours are priced (``calc.fleets.cheapest_owned_base_fleet``), and some route still stands."""
    owned_base_saving: Annotated[float, Guard("owned_base_priced")]
    """1 - that bill over the cheapest route still standing (the self-hosted one, or the API where no
    rule has ruled it out)."""
