"""The charts of a recommendation as data: buy versus rent over utilization, and the managed API against
the self-hosted route over daily volume (``report/charts.py`` fills them; the memo, the PNGs and the web
page draw them). Field names are a contract with other tools: add fields freely, never rename."""

from __future__ import annotations

from typing import Literal

from gpu_advisor.engine.domain.choices import Deployment
from gpu_advisor.engine.domain.result_model import ResultModel


class BuyVersusRent(ResultModel):
    utilization: tuple[float, ...]
    own_usd_per_month: tuple[float, ...]
    rent_usd_per_month: tuple[float, ...]
    compared_with: str
    break_even_utilization: float
    compared_billing: Literal["hourly", "committed"] = "hourly"


SelfHostedLineKind = Literal["dedicated_cloud", "own_hardware", "serverless"]
SelfHostedLineFollows = Literal["decision", "api_comparison", "cheapest_rental"]
SelfHostedLineShape = Literal[
    "replicas", "servers", "serverless", "batch_hours", "batch_proportional", "reserved"
]


class ApiVersusSelfHosted(ResultModel):
    """The managed API against one self-hosted route at other daily volumes of the same workload, each
    point priced as a recommendation at that volume prices the route."""

    requests_per_day: tuple[int, ...]
    api_usd_per_month: tuple[float, ...]
    self_hosted_usd_per_month: tuple[float, ...]
    api: str
    self_hosted: str
    """The self-hosted line's label, in English (the memo builds its own from the fields below)."""
    self_hosted_provider: str = ""
    """The rental's or serverless product's provider; "" for own hardware."""
    self_hosted_offer: str = ""
    """The rental's offer, the serverless product's name or the own server's name."""
    self_hosted_gpu: str = ""
    self_hosted_cards_per_replica: int = 0
    """At the workload's own volume (another volume may choose another count, as its evaluation would)."""
    self_hosted_kind: SelfHostedLineKind = "dedicated_cloud"
    self_hosted_follows: SelfHostedLineFollows = "decision"
    """What the line is: the decided route; the route the decision to use the API was weighed against; or,
    where the decided route is not priced at other volumes (a mixed fleet), the cheapest rental."""
    self_hosted_shape: SelfHostedLineShape = "replicas"
    """How the line grows: a service's replicas for each volume's peak on the instances the offer sells;
    own servers; a serverless bill; a batch billed in whole hours (steps) or in seconds or minutes
    (proportional to the work, the daily start unbilled); a batch on a reservation (every calendar hour)."""
    self_hosted_servers: tuple[str, ...] = ()
    """Own hardware: the server each point buys (a larger volume may need a larger server)."""
    decided: Deployment | None = None
    decided_usd_per_month: float | None = None
    """The decision's monthly cost at the workload's volume where the line is not the decided route."""
    api_ruled_out_by: tuple[str, ...] = ()
    """The rules that rule the managed API out for this workload: its line is drawn for comparison only."""
    api_barred: bool = False
    """One of them is a legal or technical bar (``Resolution.barred``): the workload may not use the API;
    otherwise the rules set it aside on cost or strategy."""
    self_hosted_unpriced: tuple[int, ...] = ()
    """Volumes left out of the chart because the route has no price there: a serverless product whose
    instances cannot hold a replica of the cards that volume needs, or own servers where only a server
    the rules keep out of where it stands would carry that volume (``self_hosted_unpriced_excluded_by``)."""
    self_hosted_unpriced_excluded_by: tuple[str, ...] = ()
    """Own servers: the rules that exclude where the catalog's servers stand, for the volumes left out."""
    self_hosted_next_step_requests_per_day: int | None = None
    """Own servers: the highest volume above the workload's they still hold before one more server of
    the same kind is needed (to within ``charts.STEP_WIDTH``, rounded down to three significant figures);
    None for other routes, where the chart's points above the workload's volume all cost the same, or
    where the next step is another server."""
    self_hosted_next_step_usd_per_month: float = 0.0
    """What the own servers cost a month just beyond that step: more than today's by one server, or by
    the servers one more replica spans (a replica over two nodes); 0 without a step."""
    self_hosted_next_step_servers: int = 0
    """The servers that step adds (that cost over one server's); 0 without a step."""
    self_hosted_next_step_resolution: float = 0.0
    """How closely that step is placed, as a share of the volume (``charts.STEP_WIDTH`` less 1): where
    the step is the workload's own volume, the servers hold at most that much more."""
    self_hosted_loss_survived_requests_per_day: int | None = None
    """Own servers: the highest volume at which they still keep the peak's replicas running through the
    loss of any one server, where that lies below the next step (``charts.loss_survived_up_to``); None
    where it does not (or the servers do not survive a loss today: the memo says what that takes)."""


class ServerGrowth(ResultModel):
    """How far the load may grow on the own servers a decision buys before one more is needed: the
    memo's Summary states it whether or not a managed API is compared (the volume chart, drawn only
    beside an API, carries the same figures as ``self_hosted_next_step_*``). Field names are a contract
    with other tools: add, never rename."""

    next_step_requests_per_day: int | None = None
    """The highest volume above the workload's the servers still hold (``charts.next_server_at``); None
    where every volume priced above it costs the same, or where the next step is another server."""
    next_step_usd_per_month: float = 0.0
    """What the own servers cost a month just beyond that step; 0 without a step."""
    next_step_servers: int = 0
    """The servers that step adds; 0 without a step."""
    next_step_resolution: float = 0.0
    """How closely the step is placed, as a share of the volume (``charts.STEP_WIDTH`` less 1)."""
    loss_survived_requests_per_day: int | None = None
    """The highest volume at which the servers keep the peak's replicas through the loss of any one,
    where that lies below the next step (``charts.loss_survived_up_to``)."""


class Charts(ResultModel):
    buy_versus_rent: BuyVersusRent | None
    api_versus_self_hosted: ApiVersusSelfHosted | None
