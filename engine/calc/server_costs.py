"""An owned server's assumptions at the company country's defaults (``cost_defaults.yaml``).

The documents cost a server in three lines (capital, power, rack) at US prices. Here the power price,
the housing (a rack, or colocation per kW of the node's draw) and a staff line come from the company's
country; a figure the country lacks is the documents' (US), and the result says so line by line. Your
own figures (``--overrides``, ``tco`` options) win over both. A rack or colocation figure of yours
replaces the housing; an office machine has no rack, colocation or staff line. A server whose data must
stay in the building (``on_premises_required``) stands in the company's own rack, never in colocation:
its rack line is the country's rack price, else the documents'.
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

from gpu_advisor.engine.calc.costs import ServerAssumptions
from gpu_advisor.engine.common.caching import cleared_with_the_others
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite
from gpu_advisor.engine.domain.knowledge.costs import CostFigure, CountryCosts, TaxDepreciation, YourCosts
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.own_costs import (
    CostLine,
    CostLineName,
    CostPart,
    CostUnit,
    OwnCosts,
    StaffBasis,
    TaxNote,
)

MONTHS_PER_YEAR = 12


class ServerCosts(NamedTuple):
    assumptions: ServerAssumptions
    costs: OwnCosts


def server_costs(
    knowledge: Knowledge, server: OwnServer, country: str, in_house: bool = False
) -> ServerCosts:
    """``server`` for a company in ``country``, with the user's figures of the knowledge base's
    overrides; ``in_house``: the data must stay in the building. The same for every workload of that
    country, so worked out once; and once for every price of the server (a scenario's draw, a sweep's
    value), which only the capital assumption carries: the costs are kept by the server's other fields,
    the cost defaults, the exchange rates, the idle share, the documents they read and the VAT rate."""
    parts = (
        knowledge.cost_defaults,
        knowledge.exchange_rates,
        knowledge.own_hardware.idle_power_share,
        knowledge.documents,
        knowledge.vat_rates,
    )
    key = (*map(id, parts), _UNPRICED_SERVER(server.__dict__), country, in_house)
    found = _COSTS.get(key)
    if found is None:
        if len(_COSTS) >= COSTS_KEPT:
            _COSTS.clear()
        base = ServerAssumptions.from_server(server)
        # The parts are kept with the costs, so their ids stay theirs while the entry exists.
        found = _COSTS[key] = (
            parts,
            resolve_costs(knowledge, server, base, country, knowledge.cost_defaults.yours, in_house),
        )
    costs = found[1]
    if costs.assumptions.server_price_usd == server.price_usd:
        return costs
    return costs._replace(
        assumptions=costs.assumptions.model_copy(update={"server_price_usd": server.price_usd})
    )


NOT_READ_BY_COSTS = frozenset({"price_usd", "price_usd_low", "price_usd_high", "translations"})
"""What ``server_priced_at`` changes, and the server's texts: the costs read none of them (the capital
assumption aside)."""
_UNPRICED_SERVER = operator.itemgetter(*(n for n in OwnServer.model_fields if n not in NOT_READ_BY_COSTS))
COSTS_KEPT = 256
_COSTS: dict[tuple[Any, ...], tuple[tuple[Any, ...], ServerCosts]] = {}
cleared_with_the_others(_COSTS.clear)


def resolve_costs(
    knowledge: Knowledge,
    server: OwnServer,
    base: ServerAssumptions,
    country: str,
    yours: YourCosts | None,
    in_house: bool = False,
) -> ServerCosts:
    """``base`` (the documents' lines, with any of your capital and power-draw figures) with the power
    price, housing and staff set by ``yours``, else the country's defaults, else the documents'."""
    own = knowledge.country_costs(country)
    fallback = knowledge.fallback_costs()
    node_kw = base.gpu_watts * base.gpus_per_server * base.power_overhead / 1000
    hours = base.hours_per_month
    power = _power(knowledge, own, fallback, yours, node_kw * hours)
    if server.housing == "office":
        lines = (power, _none("rack", "month"), _none("colocation", "month"), _none("staff", "month"))
    else:
        rack, colocation = _housing(knowledge, own, fallback, yours, node_kw, in_house)
        lines = (power, rack, colocation, _staff(knowledge, own, yours))
    _, rack_line, colocation_line, staff_line = lines
    per_kw = colocation_line.usd if colocation_line.unit == "kw_month" else 0.0
    assumptions = base.model_copy(
        update={
            "usd_per_kwh": power.usd,
            "rack_usd_per_month": rack_line.usd_per_month,
            "colocation_usd_per_kw_month": per_kw,
            "colocation_usd_per_month": colocation_line.usd_per_month if not per_kw else 0.0,
            "staff_usd_per_month": staff_line.usd_per_month,
        }
    )
    share = knowledge.cost_defaults.staff_share
    tax = next((t for t in knowledge.cost_defaults.depreciation.tax if t.country == country), None)
    francs = (
        knowledge.exchange_rate("EUR", "CHF")
        if any(part.currency == "CHF" for line in lines for part in line.parts)
        else None
    )
    costs = OwnCosts(
        chf_per_eur=francs.rate if francs else None,
        chf_per_eur_as_of=francs.as_of if francs else None,
        chf_per_eur_source=cite(francs.source, knowledge) if francs else None,
        **_borrowing(knowledge, own),
        country=country,
        country_name=own.name if own is not None else None,
        not_found=own.not_found if own is not None else None,
        housing="office" if server.housing == "office" else "in_house" if in_house else "datacenter",
        node_kw=node_kw,
        power_overhead=base.power_overhead,
        gpu_watts=base.gpu_watts,
        idle_power_share=knowledge.own_hardware.idle_power_share.value,
        **_idle(knowledge, server),
        hours_per_month=hours,
        months=base.months,
        depreciation_years=knowledge.cost_defaults.depreciation.years,
        lines=lines,
        vat_rate=knowledge.vat_rates.applied.rate if knowledge.vat_rates.applied is not None else None,
        staff_uncosted=staff_line.origin == "not_costed",
        staff=StaffBasis(
            share=share.value,
            covers=share.covers,
            note=share.note,
            assumption=share.assumption,
            source=cite(share.source, knowledge),
            as_of=share.as_of,
        ),
        tax=_tax_note(knowledge, tax, office=server.housing == "office") if tax is not None else None,
    )
    return ServerCosts(assumptions, costs)


def _tax_note(knowledge: Knowledge, tax: TaxDepreciation, office: bool) -> TaxNote:
    """The country's write-off rule; for a card bought for an office computer, what the rule says of one
    where the catalog has that reading (a data-centre server's otherwise)."""
    note, source, as_of = tax.note, tax.source, tax.as_of
    if office and tax.office_note is not None and tax.office_source is not None and tax.office_as_of:
        note, source, as_of = tax.office_note, tax.office_source, tax.office_as_of
    return TaxNote(
        country=tax.country,
        useful_life_years=tax.useful_life_years,
        applies_from=tax.applies_from,
        note=note,
        source=cite(source, knowledge),
        as_of=as_of,
    )


def _parts(knowledge: Knowledge, figures: tuple[CostFigure, ...]) -> tuple[CostPart, ...]:
    return tuple(
        CostPart(
            amount=f.value,
            currency=f.currency,
            note=f.note,
            source=cite(f.source, knowledge),
            as_of=f.as_of,
            up_to_kwh_per_year=f.up_to_kwh_per_year,
            beyond_band=f.beyond_band,
            quoted=dict(f.quoted),
            vat=f.vat,
        )
        for f in figures
    )


def _usd(knowledge: Knowledge, figures: tuple[CostFigure, ...]) -> float:
    return sum(f.value * knowledge.usd_per(f.currency) for f in figures)


def _line(
    knowledge: Knowledge,
    line: CostLineName,
    unit: CostUnit,
    owner: CountryCosts,
    figures: tuple[CostFigure, ...],
    to_month: float,
) -> CostLine:
    """A country's figure (the documents' where ``owner`` is the fallback); ``to_month``: what turns
    one ``unit`` into a month's amount for one server."""
    usd = _usd(knowledge, figures)
    # The documents' country may hold a figure of another source (the US staff salary): it is that
    # country's, not the documents'.
    documents = owner.documents and all(figure.source.document is not None for figure in figures)
    return CostLine(
        line=line,
        origin="documents" if documents else "country",
        country=owner.country,
        unit=unit,
        parts=_parts(knowledge, figures),
        usd=usd,
        usd_per_month=usd * to_month,
    )


def _yours(line: CostLineName, unit: CostUnit, usd: float, to_month: float) -> CostLine:
    return CostLine(line=line, origin="yours", country="", unit=unit, usd=usd, usd_per_month=usd * to_month)


def _none(line: CostLineName, unit: CostUnit) -> CostLine:
    """A line the server does not need: zero because there is nothing to pay."""
    return CostLine(line=line, origin="none", country="", unit=unit, usd=0.0, usd_per_month=0.0)


def _not_costed(line: CostLineName, unit: CostUnit) -> CostLine:
    """A line the server needs that no sourced figure costs: zero because it is unknown."""
    return CostLine(line=line, origin="not_costed", country="", unit=unit, usd=0.0, usd_per_month=0.0)


def _idle(knowledge: Knowledge, server: OwnServer) -> dict[str, Any]:
    """The card's measured idle draw beside the rated one the power line charges, where the catalog has it."""
    idle = server.idle_draw
    if idle is None:
        return {}
    return {
        "idle_watts": idle.watts,
        "idle_note": idle.note,
        "idle_source": cite(idle.source, knowledge),
        "idle_as_of": idle.as_of,
    }


def _power(
    knowledge: Knowledge,
    own: CountryCosts | None,
    fallback: CountryCosts,
    yours: YourCosts | None,
    kwh_per_month: float,
) -> CostLine:
    if yours is not None and yours.usd_per_kwh is not None:
        return _yours("power", "kwh", yours.usd_per_kwh, kwh_per_month)
    owner = own if own is not None and own.electricity_per_kwh else fallback
    return _line(knowledge, "power", "kwh", owner, owner.electricity_per_kwh, kwh_per_month)


def _housing(
    knowledge: Knowledge,
    own: CountryCosts | None,
    fallback: CountryCosts,
    yours: YourCosts | None,
    node_kw: float,
    in_house: bool,
) -> tuple[CostLine, CostLine]:
    """The rack and colocation lines: yours, else the country's housing, else the documents' rack; in
    the company's own building, the country's rack price, else the documents'."""
    if yours is not None and (
        yours.rack_usd_per_month is not None or yours.colocation_usd_per_month is not None
    ):
        your_rack, your_colocation = yours.rack_usd_per_month, yours.colocation_usd_per_month
        return (
            _yours("rack", "month", your_rack, 1) if your_rack is not None else _none("rack", "month"),
            _yours("colocation", "month", your_colocation, 1)
            if your_colocation is not None
            else _none("colocation", "month"),
        )
    if in_house:
        owner = own if own is not None and own.rack_per_month is not None else fallback
    else:
        owner = (
            own
            if own is not None and (own.rack_per_month is not None or own.colocation_per_kw_month is not None)
            else fallback
        )
    if owner.colocation_per_kw_month is not None and not in_house:
        colocation = (owner.colocation_per_kw_month,)
        return _none("rack", "month"), _line(knowledge, "colocation", "kw_month", owner, colocation, node_kw)
    rack = (owner.rack_per_month,) if owner.rack_per_month is not None else ()
    return _line(knowledge, "rack", "month", owner, rack, 1), _none("colocation", "month")


def _staff(knowledge: Knowledge, own: CountryCosts | None, yours: YourCosts | None) -> CostLine:
    if yours is not None and yours.staff_usd_per_month is not None:
        return _yours("staff", "month", yours.staff_usd_per_month, 1)
    if own is None or own.staff_salary_per_year is None:
        return _not_costed("staff", "year")
    share = knowledge.cost_defaults.staff_share.value
    line = _line(knowledge, "staff", "year", own, (own.staff_salary_per_year,), share / MONTHS_PER_YEAR)
    return line.model_copy(update={"share": share})


def _borrowing(knowledge: Knowledge, own: CountryCosts | None) -> dict[str, Any]:
    """The company country's rate on new loans to companies; none where the country has none (the
    documents' US figures have no rate to stand in)."""
    rate = own.borrowing_rate_per_year if own is not None else None
    if rate is None:
        return {}
    return {
        "borrowing_rate_per_year": rate.value,
        "borrowing_note": rate.note,
        "borrowing_source": cite(rate.source, knowledge),
        "borrowing_as_of": rate.as_of,
    }
