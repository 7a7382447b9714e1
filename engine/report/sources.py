"""The dated sources of every price a result shows, and of the serving engine's start it bills."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from gpu_advisor.engine.calc.listing_frames import offer_price_origin
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Citation
from gpu_advisor.engine.domain.own_costs import OwnCosts
from gpu_advisor.engine.domain.results import ApiCost, EngineStartSource, Option, PriceDate, PriceOrigin
from gpu_advisor.engine.rulebook.conclusions import option_filters
from gpu_advisor.engine.rulebook.schema import Rule

COST_DEFAULTS = "own-server cost defaults"
GPU_OFFERS = "GPU offers"
SERVERLESS_PRICES = "serverless GPU prices"
API_PRICES = "managed API prices"
OWN_SERVER_LINES = "own-server cost lines"
"""What the dated sources of the prices a decision may take are listed for (``price_age.py``)."""
VAT_RATE = "VAT rate"
"""What the source of the VAT rate every purchase is priced with is listed for (``gross_prices.py``)."""
PLATFORM_START = "serverless platform start"
"""What the source of a serverless product's own part of a cold start (``start_seconds``) is listed for."""
WEIGHTS_LOAD = "weights load rate"
"""What the source of the rate a replica loads its weights at, as it starts, is listed for."""
WITHDRAWALS = "managed API withdrawals"
"""What the source of a price's withdrawal (``ApiPrice.withdrawn_on``, KNB018) is listed for."""


SLA_FIELD = "enterprise_sla"
"""The option field an exclusion reads where it asks for a published SLA."""
WITHDRAWN_FIELD = "withdrawn"
"""The option field an exclusion reads where it leaves out a price whose product is withdrawn."""


def price_dates(
    knowledge: Knowledge,
    options: Sequence[Option],
    apis: Sequence[ApiCost],
    own: OwnCosts | None = None,
    rules: Sequence[Rule] = (),
    serverless: Option | None = None,
    own_server: str | None = None,
) -> tuple[PriceDate, ...]:
    """The dated sources of every price the result shows: offers considered, API prices, the own-server
    lines, the company country's cost defaults behind them and the exchange rate; where a fired rule
    (``rules``) excluded options by their SLA, the pages behind each shown API's SLA verdict, and where
    one excluded withdrawn prices, the pages behind every withdrawal; the page naming the settings of the
    serverless option the memo describes (``serverless``); the price of the own server the result costs
    (``own_server``). Entries of one source and date are listed once."""
    sources = dated_sources(knowledge)
    used = {sources.offers[o.provider, o.offer, o.gpu] for o in options}
    used.update(sources.apis[a.api] for a in apis)
    used.update(sources.api_withdrawals[a.api] for a in apis if a.api in sources.api_withdrawals)
    filtered = {f.field for _, f in option_filters(rules)}
    if SLA_FIELD in filtered:
        used.update(sources.api_terms[a.api] for a in apis)
    if WITHDRAWN_FIELD in filtered:
        # KNB018's message names every withdrawn price, shown in the API table or not.
        used.update(sources.api_withdrawals.values())
    used.update(sources.always)
    if own_server is not None and own_server in sources.servers:
        used.add(sources.servers[own_server])
    billing = serverless.serverless if serverless is not None else None
    if billing is not None and billing.settings is not None:
        used.add(sources.endpoint_settings[billing.product])
    used.update(start_sources(sources, (*options, serverless) if serverless is not None else options, rules))
    if own is not None:
        used.update(
            PriceDate(document=part.source, title=part.source, as_of=part.as_of, used_for=COST_DEFAULTS)
            for line in own.lines
            if line.origin == "country"
            for part in line.parts
        )
        if any(line.line == "staff" and line.origin == "country" for line in own.lines):
            staff = own.staff
            used.add(
                PriceDate(
                    document=staff.source, title=staff.source, as_of=staff.as_of, used_for=COST_DEFAULTS
                )
            )
        # The franc rate the costs say they were converted at (``resolve_costs``).
        if own.chf_per_eur_source is not None and own.chf_per_eur_as_of is not None:
            used.add(
                PriceDate(
                    document=own.chf_per_eur_source,
                    title=own.chf_per_eur_source,
                    as_of=own.chf_per_eur_as_of,
                    used_for="EUR/CHF exchange rate",
                )
            )
    return tuple(sorted(used, key=lambda p: (p.as_of, p.document, p.used_for)))


def start_cited(rules: Sequence[Rule]) -> bool:
    """A fired rule's message gives a batch run's start where no option may bill it: SIZ041's, of a start
    that, with one request after it, takes the whole window."""
    return any(rule.id == "SIZ041" for rule in rules)


def start_sources(sources: DatedSources, options: Sequence[Option], rules: Sequence[Rule]) -> set[PriceDate]:
    """The sources of the starts ``options`` bill: each serverless product's own part of a cold start,
    and the rate the weights load at, where a cold start or a batch run on rented cards loads them or
    SIZ041's message gives a start that fills the window."""
    platforms = {
        o.serverless.product for o in options if o.serverless is not None and o.serverless.cold_start_seconds
    }
    used = {sources.platform_starts[product] for product in platforms}
    loads = any(
        o.weights_load_hours or (o.serverless is not None and o.serverless.cold_start_weights_seconds)
        for o in options
    )
    if loads or start_cited(rules):
        used.add(sources.weights_load)
    return used


def engine_start_source(
    knowledge: Knowledge, engine_id: str, options: Sequence[Option], cited: bool = False
) -> EngineStartSource | None:
    """The measured start of ``engine_id`` (or of the engine standing in for it) where one of ``options``
    bills it (a batch run on rented cards, or a serverless option, whose cold start holds it) or a finding
    ``cited`` it (SIZ041: a start that, with one request after it, takes the whole window); None where
    neither, or the catalog measures no start."""
    if not cited and not any(
        o.engine_start_hours or (o.serverless is not None and o.serverless.cold_start_engine_seconds)
        for o in options
    ):
        return None
    engine, measured = knowledge.serving_engine(engine_id), knowledge.throughput.measured_start(engine_id)
    source, as_of = measured.start_source, measured.start_as_of
    if measured.start_seconds is None or source is None or as_of is None:
        return None
    title = knowledge.document(source.document).title if source.document else source.title
    document = source.document or source.url or ""
    return EngineStartSource(
        engine=engine.name,
        seconds=measured.start_seconds,
        document=document,
        title=title or document,
        as_of=as_of,
        stand_in=measured.name if measured.id != engine.id else None,
    )


@dataclass(frozen=True)
class DatedSources:
    """The dated source of every price in the knowledge base, one ``PriceDate`` per source, date and use."""

    offers: dict[tuple[str, str, str], PriceDate]
    """(provider, offer or serverless product, GPU) -> its source."""
    apis: dict[str, PriceDate]
    api_terms: dict[str, PriceDate]
    """API -> the page its SLA verdict (``enterprise_sla``) rests on."""
    api_withdrawals: dict[str, PriceDate]
    """API -> the page that says its product no longer serves the priced model (``withdrawn_on``)."""
    endpoint_settings: dict[str, PriceDate]
    """Serverless product -> the page that names its scaling settings (``EndpointSettings``)."""
    platform_starts: dict[str, PriceDate]
    """Serverless product -> the page its own part of a cold start comes from, as of the product's date."""
    weights_load: PriceDate
    """The page the rate a replica loads its weights at comes from."""
    always: tuple[PriceDate, ...]
    """The own-server lines and the exchange rate, which every result shows, and the VAT rate every price
    includes where the knowledge base's copy carries one."""
    servers: dict[str, PriceDate]
    """Own server -> its price's source: the one the result costs, where it is not the default server
    (the RTX 5090 workstation)."""


@per_object
def dated_sources(knowledge: Knowledge) -> DatedSources:
    """The dated source of every offer and API price and of the lines every result shows, worked out
    once per knowledge base (a source's title: the document's, else the citation's first title)."""
    made: dict[tuple[str, dt.date, str], PriceDate] = {}

    def dated(
        citation: Citation, as_of: dt.date, used_for: str, origin: PriceOrigin | None = None
    ) -> PriceDate:
        document = citation.document or citation.url or ""
        key = (document, as_of, used_for)
        if key not in made:
            title = knowledge.document(citation.document).title if citation.document else citation.title
            made[key] = PriceDate(
                document=document, title=title or document, as_of=as_of, used_for=used_for, origin=origin
            )
        return made[key]

    server = knowledge.own_server()
    rate = knowledge.eur_to_usd()
    vat = knowledge.vat_rates.applied
    return DatedSources(
        offers={
            **{
                (o.provider, o.offer, o.gpu): dated(
                    o.source, o.as_of, GPU_OFFERS, offer_price_origin(o) if o.origin else None
                )
                for o in knowledge.offers.offers
            },
            **{
                (p.provider, p.id, g.gpu): dated(p.source, p.as_of, SERVERLESS_PRICES)
                for p in knowledge.serverless.products
                for g in p.gpus
            },
        },
        apis={a.id: dated(a.source, a.as_of, API_PRICES) for a in knowledge.api_prices.apis},
        api_terms={
            a.id: dated(a.sla_source, a.sla_as_of, "managed API SLA terms") for a in knowledge.api_prices.apis
        },
        api_withdrawals={
            a.id: dated(a.withdrawn_source, a.withdrawn_on, WITHDRAWALS)
            for a in knowledge.api_prices.apis
            if a.withdrawn_source is not None and a.withdrawn_on is not None
        },
        endpoint_settings={
            p.id: dated(p.settings.source, p.settings.as_of, "serverless endpoint settings")
            for p in knowledge.serverless.products
            if p.settings is not None
        },
        platform_starts={
            p.id: dated(p.start_source, p.as_of, PLATFORM_START) for p in knowledge.serverless.products
        },
        weights_load=dated(
            knowledge.serverless.weights_load_source, knowledge.serverless.weights_load_as_of, WEIGHTS_LOAD
        ),
        always=(
            dated(server.source, server.as_of, OWN_SERVER_LINES),
            dated(rate.source, rate.as_of, "EUR/USD exchange rate"),
            # The VAT every price includes, where the company cannot recover it (``gross_prices``).
            *((dated(vat.source, vat.as_of, VAT_RATE),) if vat is not None else ()),
        ),
        servers={s.id: dated(s.source, s.as_of, OWN_SERVER_LINES) for s in knowledge.own_hardware.servers},
    )
