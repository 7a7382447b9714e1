"""``tco``: an owned 8-GPU server's cost per GPU-hour and its break-even against every offer."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.calc.costs import ServerAssumptions, break_even_utilization, own_hardware_cost
from gpu_advisor.engine.calc.own_hardware import per_gpu_hour
from gpu_advisor.engine.calc.server_costs import MONTHS_PER_YEAR, resolve_costs
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite, franc_rate
from gpu_advisor.engine.domain.knowledge.costs import YourCosts
from gpu_advisor.engine.domain.knowledge.entries import OwnServer
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.own_costs import OwnCosts
from gpu_advisor.engine.domain.requests import TcoRequest
from gpu_advisor.engine.domain.results import BreakEven, TcoResult, TcoScenario

YOUR_LINES = ("usd_per_kwh", "rack_usd_per_month", "colocation_usd_per_month", "staff_usd_per_month")
"""The request's fields that replace the company country's defaults rather than the server's."""


QUOTES = {
    "server_price_eur": ("server_price_usd", "EUR"),
    "server_price_chf": ("server_price_usd", "CHF"),
    "eur_per_kwh": ("usd_per_kwh", "EUR"),
}
"""The figures given in another currency than USD, by field: the USD field each stands for, and its
currency."""


def tco(request: TcoRequest | None = None, knowledge: Knowledge | None = None) -> TcoResult:
    """Own 8-GPU server cost per GPU-hour in its lines (capital, power, rack, colocation, staff) at the
    company country's defaults, and break-even utilization against every catalog offer of the same GPU;
    ``request`` replaces any of the server's assumptions."""
    knowledge = knowledge or load_knowledge()
    request = request or TcoRequest()
    server, catalog_server = tco_server(knowledge, request.gpu)
    given = request.replaced()
    # Named as given: a quote in euros is said to be one.
    overridden = tuple(sorted(given))
    for field, (usd_field, currency) in QUOTES.items():
        if field in given:
            # A quote in euros or francs, at the catalog's rates as every figure in them is.
            given[usd_field] = given.pop(field) * knowledge.usd_per(currency)
    country = request.country or str(knowledge.workload_default_values()["company_country"])
    capital: dict[str, Any] = {k: v for k, v in given.items() if k not in YOUR_LINES}
    if "depreciation_years" in capital:
        capital["months"] = capital.pop("depreciation_years") * MONTHS_PER_YEAR
    yours = {k: v for k, v in given.items() if k in YOUR_LINES}
    base = ServerAssumptions.from_server(server).model_copy(update=capital)
    priced = resolve_costs(
        knowledge, server, base, country, YourCosts(**yours) if yours else knowledge.cost_defaults.yours
    )
    assumptions = priced.assumptions
    cost = own_hardware_cost(assumptions)
    # Another card count is the user's server, not the catalog's: neither its name nor its price range
    # belongs to it. The user's own price replaces the range too (as an overrides file's does).
    catalogs = catalog_server and assumptions.gpus_per_server == server.gpus_per_server
    price_range = catalogs and "server_price_usd" not in given
    return TcoResult(
        server=server.id if catalogs else None,
        gpu=server.gpu,
        **assumptions.model_dump(),
        hours_written_off=cost.hours_written_off,
        node_kw=cost.node_kw,
        power_usd_per_month=cost.power_usd_per_month,
        capital_usd_per_month=cost.capital_usd_per_month,
        colocation_total_usd_per_month=cost.colocation_usd_per_month,
        server_usd_per_month=cost.server_usd_per_month,
        usd_per_gpu_hour=per_gpu_hour(assumptions),
        costs=priced.costs,
        break_even=break_evens(knowledge, server, cost.total),
        scenarios=scenarios(server, assumptions, price_range=price_range),
        overridden=overridden,
        source=cite(server.source, knowledge),
        # A GPU the catalog prices no server of draws its TDP: the GPU's datasheet is a source too.
        power_source=None
        if catalog_server or "gpu_watts" in given
        else cite(knowledge.gpu(server.gpu).source, knowledge),
        as_of=server.as_of,
        **rates_used(
            knowledge,
            priced.costs,
            eur_price=request.server_price_eur is not None or request.eur_per_kwh is not None,
            chf_price=request.server_price_chf is not None,
        ),
    )


def rates_used(
    knowledge: Knowledge, costs: OwnCosts, eur_price: bool, chf_price: bool = False
) -> dict[str, Any]:
    """The EUR rate the lines' figures pass through, as the result says it (a memo in EUR needs it too),
    and the currencies they are in; a franc figure's rate is the costs' own (``OwnCosts.chf_per_eur``)."""
    eur = knowledge.eur_to_usd()
    currencies = {part.currency for line in costs.lines for part in line.parts}
    if eur_price:
        currencies.add("EUR")
    if chf_price:
        currencies.add("CHF")
    return {
        "exchange_rate_usd_per_eur": eur.rate,
        "exchange_rate_as_of": eur.as_of,
        "exchange_rate_assumed": eur.source.document == "gpu-advisor",
        **franc_rate(knowledge),
        "currencies": tuple(sorted(currencies)),
    }


def tco_server(knowledge: Knowledge, gpu: str | None) -> tuple[OwnServer, bool]:
    """The server costed and whether the catalog prices it: the default one, the catalog's server of
    ``gpu``, or, for a GPU the catalog prices no server of, the default server's lines with that GPU at
    its TDP (its price is the request's, which the request requires)."""
    default = knowledge.own_server()
    if gpu is None or gpu == default.gpu:
        return default, True
    listed = knowledge.own_server_of(gpu)
    if listed is not None:
        return listed, True
    # The idle draw measured on the default server's GPU is no measurement of this one.
    update = {"gpu": gpu, "gpu_watts": knowledge.gpu(gpu).tdp_watts, "idle_draw": None}
    return default.model_copy(update=update), False


def break_evens(
    knowledge: Knowledge, server: OwnServer, own_usd_per_gpu_hour: float
) -> tuple[BreakEven, ...]:
    """The break-even utilization against every catalog offer of the server's GPU, cheapest first; not
    against a figure its provider's own newer list replaces (``superseded_by``: KNB010 keeps it out of
    the recommendation too)."""
    return tuple(
        BreakEven(
            provider=offer.provider,
            offer=offer.offer,
            gpu=offer.gpu,
            pricing=offer.pricing,
            usd_per_gpu_hour=offer.usd_per_gpu_hour,
            utilization=break_even_utilization(own_usd_per_gpu_hour, offer.usd_per_gpu_hour),
            as_of=offer.as_of,
            billing=offer.billing,
            commitment_months=offer.commitment_months,
        )
        for offer in sorted(
            knowledge.current_offers(gpu=server.gpu),
            key=lambda o: (o.usd_per_gpu_hour, o.provider, o.offer),
        )
    )


def scenarios(
    server: OwnServer, assumptions: ServerAssumptions, price_range: bool = True
) -> tuple[TcoScenario, ...]:
    """The cost per GPU-hour at the ends of the documents' price range (``price_range``: the server is
    the catalog's, whose range it is) and with a resale value."""
    ends = (("low price", server.price_usd_low), ("high price", server.price_usd_high)) if price_range else ()
    return tuple(
        TcoScenario(
            name=name,
            server_price_usd=price,
            residual=residual,
            usd_per_gpu_hour=per_gpu_hour(
                assumptions.model_copy(update={"server_price_usd": price, "residual": residual})
            ),
        )
        for name, price, residual in (
            *((name, price, assumptions.residual) for name, price in ends),
            ("residual value", assumptions.server_price_usd, server.residual_share_scenario),
        )
    )
