"""Result models of owning: an owned server's cost lines (where each line's figure comes from: the
company country's default, the documents' US figure standing in, or your own; the depreciation period),
its cost per GPU-hour, and its position against the rentals (``OwnHardware``)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict

from gpu_advisor.engine.domain.options import ThroughputAlone
from gpu_advisor.engine.domain.result_model import ResultModel

CostLineName = Literal["power", "rack", "colocation", "staff"]
CostOrigin = Literal["country", "documents", "yours", "none", "not_costed"]
CostUnit = Literal["kwh", "kw_month", "month", "year"]


class _Result(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, protected_namespaces=())


class CostPart(_Result):
    """One sourced figure behind a line, in its own currency."""

    amount: float
    currency: str
    note: str
    source: str
    as_of: dt.date
    up_to_kwh_per_year: float | None = None
    """The tariff band the price is sold for (``CostFigure.up_to_kwh_per_year``)."""
    beyond_band: str | None = None
    """What a consumer above the band pays instead (``CostFigure.beyond_band``)."""
    quoted: dict[str, float] = {}
    """Further amounts of the source in ``currency`` that ``note`` names at its ``{name}`` places (a
    second tariff, a fixed monthly fee), with VAT where ``amount`` has it (``CostFigure.quoted``)."""
    vat: Literal["excluded", "not_stated"] | None = None
    """What the source says of VAT, which ``note`` words at its ``{vat}`` place: the case's own words, net
    or with ``OwnCosts.vat_rate`` added (``CostFigure.vat``)."""


class CostLine(_Result):
    """One of the lines a country's defaults set, for one server."""

    line: CostLineName
    origin: CostOrigin
    """country: the company country's figure; documents: the documents' US figure, because the country
    has none; yours: your overrides; none: the server needs no such line, so it is zero (housed in a rack,
    not in colocation, or the other way round; an office machine's housing and staff); not_costed: the
    server needs the line but no sourced figure exists for it (the staff line of a country the catalog has
    no salary for), so its zero is unknown, not nothing (``OwnCosts.staff_uncosted``)."""
    country: str
    """Whose figure it is: the company country, the documents' (US), or empty for yours, none and
    not_costed."""
    unit: CostUnit
    """What ``parts`` and ``usd`` are per: kWh, kW of the node's draw and month, month, or year (a
    salary)."""
    parts: tuple[CostPart, ...] = ()
    """The sourced figures, added up (the parts of a power price); empty for yours, none and not_costed."""
    usd: float
    """The figure in USD per ``unit``."""
    share: float | None = None
    """The staff line: the share of an engineer's salary one server takes."""
    usd_per_month: float
    """The line for one server and month, in USD."""


class StaffBasis(_Result):
    share: float
    covers: str
    note: str
    assumption: bool
    source: str
    as_of: dt.date


class TaxNote(_Result):
    """The company country's tax write-off rule for computer hardware, beside the economic life."""

    country: str
    useful_life_years: int
    applies_from: dt.date
    note: str
    source: str
    as_of: dt.date


class OwnCosts(_Result):
    """Which defaults an owned server is costed at, and why."""

    country: str
    """The workload's company_country (``tco``: --country)."""
    country_name: str | None
    """None: the knowledge base has no defaults for the country; the documents' figures stand in."""
    not_found: str | None
    """What was looked for the country and not found."""
    housing: Literal["datacenter", "in_house", "office"]
    """datacenter: a rack or colocation at the country's defaults; in_house: the company's own rack (the
    data must stay in the building); office: a machine in an office, with no housing or staff line."""
    node_kw: float
    """The node's draw: GPUs x watts per GPU x the overhead factor; power and colocation scale with it."""
    power_overhead: float = 1.0
    """That overhead factor: the rest of the server (CPUs, network cards, power-supply losses) over the
    cards' rated draw; 1 where only a card is added to a machine that runs anyway."""
    gpu_watts: float = 0.0
    """A card's rated draw, which the power line charges in every hour of the month."""
    idle_watts: float | None = None
    """A card's measured draw holding a model with no request in flight, its note, source and date
    (``OwnServer.idle_draw``); None where the catalog has none."""
    idle_note: str | None = None
    idle_source: str | None = None
    idle_as_of: dt.date | None = None
    idle_power_share: float = 0.0
    """What a powered-on server draws idle as a share of its rated power (knowledge/own_hardware.yaml
    ``idle_power_share``): the estimate TCO028 reads, which the memo names beside the power line."""
    hours_per_month: float
    months: int
    """The economic life the capital is written off over."""
    depreciation_years: tuple[int, ...]
    """The periods one may choose (``--depreciation-years``, ``depreciation_years``)."""
    lines: tuple[CostLine, ...]
    staff: StaffBasis
    tax: TaxNote | None
    chf_per_eur: float | None = None
    """Where a line's figure is in Swiss francs: the rate it is converted to EUR at (then to USD at the
    EUR rate), its date and source; None otherwise."""
    chf_per_eur_as_of: dt.date | None = None
    chf_per_eur_source: str | None = None
    borrowing_rate_per_year: float | None = None
    """The company country's rate on new loans to companies (``CountryCosts.borrowing_rate_per_year``), its
    note, source and date; None where the catalog has none for the country."""
    borrowing_note: str | None = None
    borrowing_source: str | None = None
    borrowing_as_of: dt.date | None = None
    vat_rate: float | None = None
    """The VAT rate the capital, power and housing lines include (``vat_rates.applied``: the company
    cannot recover input VAT); None: they are net. The staff line, a salary, carries none."""
    staff_uncosted: bool = False
    """True: the staff line is not costed (origin not_costed) because the catalog has no sourced salary
    for the country and none of yours is given; owning costs more than the lines say. False where staff
    is costed, and where the server needs none (an office machine, the documents' own workstation case:
    origin none), which is no gap in the catalog."""


class UsdPerGpuHour(ResultModel):
    capital: float
    power: float
    rack: float
    total: float
    colocation: float = 0.0
    staff: float = 0.0


class ServerLoss(ResultModel):
    """What the loss of one owned server takes, the replicas spread evenly over the servers (a server
    holds whole replicas: the cards per replica divide into its cards as often as they go)."""

    replicas: int
    """The own route's replicas, spares included."""
    peak_replicas: int
    """Those the peak needs."""
    spare_replicas: int
    cards_per_replica: int
    replicas_per_server_max: int
    """The most replicas one server holds: a failed server takes them all down."""
    idle_card_replicas: int
    """More replicas the servers' idle cards hold, with no further purchase."""
    replicas_left: int = 0
    """The replicas left when the fullest server is lost, as planned (the idle cards left idle)."""
    replicas_left_with_idle: int
    """The replicas left when the fullest server is lost, with the idle cards' replicas running too."""
    servers_to_survive_loss: int
    """The fewest servers, each full of replicas, of which any one may be lost with the peak's replicas
    left: one more than the peak's replicas fill."""
    servers_short: int = 0
    """The servers beyond those costed that surviving the loss of any one takes: 0 where the peak's
    replicas are left after it, on the other servers or with the replicas the idle cards hold."""


class CappedServer(ResultModel):
    """A catalog server that would carry the load with more machines than the catalog costs of it
    (``max_servers``: an office workstation and its spare), so owning is costed on another."""

    server: str
    server_name: str
    machines_needed: int
    max_servers: int


class OwnHardware(ResultModel):
    applicable: bool
    housing_excluded_by: tuple[str, ...] = ()
    """The rules whose exclusions keep ``server`` out of where it stands (``housing``): every catalog
    server that carries the load is excluded, and buying is not applicable."""
    server: str
    server_name: str
    gpus_per_server: int
    gpu: str
    nodes: int
    gpus_needed: int
    node_utilization: float
    """Busy card-hours over the nodes' calendar card-hours: ``gpus_needed`` × ``replica_busy_share`` ×
    the paid hours (at most the server's calendar hours) over all cards × the calendar hours."""
    replicas: int = 0
    """The replicas the needed cards hold, ``spare_replicas`` among them."""
    spare_replicas: int = 0
    spare_servers: int = 0
    """The servers bought for the spare replicas alone: ``nodes`` less those the replicas the peak needs
    would take (0 where the spares fit the servers' free cards, or min_replicas set the replicas)."""
    replica_busy_share: float = 0.0
    """The share of the paid hours in which a request is in flight on each replica, requests sent to an
    idle replica whenever one is idle (``calc.traffic.busy_replicas``; a batch: its running hours).
    Where no plan runs on the server's GPU, the load's own busy share."""
    rent_below_utilization: float | None = None
    """The documents' edge the rules compare ``node_utilization`` with (knowledge/thresholds.yaml): below
    it, rent (TCO004); the memo prints the utilization beside it with the decimals that tell them apart."""
    usd_per_gpu_hour: UsdPerGpuHour
    usd_per_month: float
    power_usd_per_month: float = 0.0
    """The servers' power line a month, within ``usd_per_month``: every card at its rated draw in every
    hour, busy or not (the documents' line)."""
    usd_per_month_at_busy_share: float = 0.0
    """What the servers would cost a month with the power line at their busy share instead: the busy hours
    (``node_utilization``) at the rated draw, the others at the idle share of it
    (knowledge/own_hardware.yaml ``idle_power_share``). Not the costed figure; TCO028 says where it would
    turn buy versus rent."""
    break_even_utilization: float | None
    compared_with: str | None
    rent_usd_per_gpu_hour: float | None
    """The compared offer's price per GPU-hour."""
    break_even_low_price: float | None
    """Break-even at the low and high end of the server price range, and with the residual value."""
    break_even_high_price: float | None
    break_even_residual: float | None
    server_price_usd_low: float
    server_price_usd_high: float
    residual_share_scenario: float
    capital_usd_per_month: float
    server_price_usd: float
    capital_usd: float
    """What the nodes cost up front: nodes × server_price_usd (an office machine's: its card's price)."""
    residual: float
    costs: OwnCosts
    """Where the power, rack, colocation and staff figures come from, and the depreciation period."""
    write_off_months: int = 0
    compared_billing: Literal["hourly", "committed"] | None = None
    compared_commitment_months: int | None = None
    rent_gpus_rented: int | None = None
    rent_usd_per_month: float | None = None
    rent_usd_per_month_same_hours: float | None = None
    """What the compared offer costs a month for the same work as owning: its bill as planned (a
    reservation every calendar hour; a pay-per-hour offer the hours its plan runs), ``rent_usd_per_month``."""
    rent_billed_hours_per_month: float | None = None
    """The hours a month the compared offer bills."""
    cheapest_same_hours: str | None = None
    """provider/offer/gpu of the admitted rental whose monthly bill for this workload is the least."""
    cheapest_same_hours_billing: Literal["hourly", "committed"] | None = None
    cheapest_same_hours_usd_per_month: float | None = None
    cheapest_billed_hours_per_month: float | None = None
    """The hours a month that rental bills."""
    throughput_alone: ThroughputAlone | None = None
    """The servers sized for throughput alone (``ThroughputAlone``), where the latency targets (a dropped
    default's included) take more servers than that on the server's GPU; None otherwise."""
    capped_servers: tuple[CappedServer, ...] = ()
    """Catalog servers listed before ``server`` whose GPU would carry the load on more machines than
    their ``max_servers`` (``calc.own_hardware.capped_servers``)."""
    server_loss: ServerLoss | None = None
    """What losing one server takes, where a server holds whole replicas of the plan; None otherwise."""
    financing_usd_per_month: float | None = None
    """What financing the servers at the company country's rate on new loans would add a month to the
    capital line (``calc.own_hardware.financing_usd_per_month``, all servers); None without a rate."""
    kwh_per_year: float = 0.0
    """What the servers draw in a year at the draw they are costed with: nodes x node kW x the hours a
    month x 12 (a power tariff sold for less consumption is said to be exceeded)."""
    latency_targets_usd_per_month: float | None = None
    """What the latency targets add at least to the servers' monthly cost: ``usd_per_month`` less that of
    ``throughput_alone``'s servers (another server may hold that plan for less); None where they add no
    server."""
