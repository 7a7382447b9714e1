"""The knowledge base as one validated object: its files and the look-ups the calculators use."""

from __future__ import annotations

from typing import Any, TypeVar

from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.errors import InputError, unknown_country
from gpu_advisor.engine.domain.choices import PersonalDataRegion
from gpu_advisor.engine.domain.knowledge.api_prices import ApiPrice
from gpu_advisor.engine.domain.knowledge.costs import CountryCosts
from gpu_advisor.engine.domain.knowledge.engines import ServingEngine
from gpu_advisor.engine.domain.knowledge.entries import (
    Citation,
    Document,
    Offer,
    OwnServer,
    Strict,
)
from gpu_advisor.engine.domain.knowledge.figures import (
    DataProtectionRegion,
    ExchangeRate,
    MarketFigure,
    Schedule,
    Threshold,
    UtilizationDefault,
)
from gpu_advisor.engine.domain.knowledge.files import (
    ApiPricesFile,
    CalibrationFile,
    CostDefaultsFile,
    CountriesFile,
    CountryCodeList,
    DataProtectionFile,
    DocumentsFile,
    ExchangeRatesFile,
    ExportControlFile,
    GpusFile,
    LoadProfilesFile,
    MarketFiguresFile,
    ModelsFile,
    OffersFile,
    OwnHardwareFile,
    PricingAssumptionsFile,
    ProvidersFile,
    SchedulesFile,
    ServerlessFile,
    SizingFile,
    ThresholdsFile,
    ThroughputFile,
    UncertaintyFile,
    WorkloadDefaultsFile,
)
from gpu_advisor.engine.domain.knowledge.gpus import Gpu
from gpu_advisor.engine.domain.knowledge.models import ModelConfig
from gpu_advisor.engine.domain.knowledge.providers import Provider
from gpu_advisor.engine.domain.knowledge.serving import LoadProfile
from gpu_advisor.engine.domain.knowledge.vat import VatRatesFile
from gpu_advisor.engine.i18n.formats import Format


class Knowledge(Strict):
    """The whole knowledge base, validated and cross-checked."""

    documents: DocumentsFile
    gpus: GpusFile
    providers: ProvidersFile
    offers: OffersFile
    api_prices: ApiPricesFile
    own_hardware: OwnHardwareFile
    models: ModelsFile
    thresholds: ThresholdsFile
    schedules: SchedulesFile
    sizing: SizingFile
    export_control: ExportControlFile
    countries: CountriesFile
    data_protection: DataProtectionFile
    exchange_rates: ExchangeRatesFile
    workload_defaults: WorkloadDefaultsFile
    market_figures: MarketFiguresFile
    pricing_assumptions: PricingAssumptionsFile
    throughput: ThroughputFile
    calibration: CalibrationFile
    load_profiles: LoadProfilesFile
    serverless: ServerlessFile
    cost_defaults: CostDefaultsFile
    uncertainty: UncertaintyFile
    vat_rates: VatRatesFile

    # -- look-ups ----------------------------------------------------------------------------------------
    def gpu(self, gpu_id: str) -> Gpu:
        return _by_id(self.gpus.gpus, gpu_id)

    def serving_engine(self, engine_id: str) -> ServingEngine:
        return _by_id(self.throughput.serving_engines, engine_id)

    def provider(self, provider_id: str) -> Provider:
        return _by_id(self.providers.providers, provider_id)

    def spot_sellers(self) -> dict[str, Provider]:
        """The providers that state a spot notice (every one that sells spot does), by ID, in the
        catalog's order: what the pricing rules' messages name."""
        return {p.id: p for p in self.providers.providers if p.spot_notice is not None}

    def superseded_offers(self) -> list[tuple[Offer, tuple[Offer, ...]]]:
        """Each offer whose provider's newer list prices replace it (``superseded_by``), with those newer
        offers, in the catalog's order: what KNB010's message names."""
        return [(offer, newer) for offer in self.offers.offers if (newer := self.successors(offer))]

    def withdrawn_apis(self) -> list[ApiPrice]:
        """The API prices whose products no longer serve the priced model (``withdrawn_on``), in the
        catalog's order: what KNB018's message names."""
        return [api for api in self.api_prices.apis if api.withdrawn_on is not None]

    def successors(self, offer: Offer) -> tuple[Offer, ...]:
        """The provider's newer offers that replace ``offer`` (``superseded_by``; checked at load)."""
        named = (self.offer(offer.provider, name, offer.gpu) for name in offer.successor_names)
        return tuple(newer for newer in named if newer is not None)

    def successor(self, offer: Offer, replica_cards: int = 1) -> Offer | None:
        """The newer offer that replaces ``offer`` for a replica of ``replica_cards``: where several sell
        its sizes between them (one offer a size), the one of the smallest size that holds the replica, so
        that a proposal naming the older offer is not billed cards it does not use; None where none
        replaces it."""
        newer = self.successors(offer)
        if not newer:
            return None

        def smallest_holding(candidate: Offer) -> int:
            sizes = candidate.instance_gpus
            return min((size for size in sizes if size >= replica_cards), default=max(sizes))

        holding = [o for o in newer if max(o.instance_gpus) >= replica_cards]
        return min(holding or newer, key=smallest_holding)

    def current(self, offer: Offer, replica_cards: int = 1) -> Offer:
        """``offer`` at the price its provider charges now: the newer offer that replaces it for a
        replica of ``replica_cards`` (``successor``), else itself (what the cost checks price a proposal
        at, KNB011)."""
        return self.successor(offer, replica_cards) or offer

    def current_offers(self, provider: str | None = None, gpu: str | None = None) -> list[Offer]:
        """The offers at the prices their providers charge now (none a newer list replaces), of that
        provider and GPU where given, in the catalog's order."""
        return [
            o
            for o in self.offers.offers
            if o.superseded_by is None and provider in (None, o.provider) and gpu in (None, o.gpu)
        ]

    def offer(self, provider: str | None, name: str | None, gpu: str | None = None) -> Offer | None:
        """The catalog offer a provider sells under that name (of that GPU where one is given); None where
        there is none, or a name is missing."""
        return next(
            (
                o
                for o in self.offers.offers
                if (o.provider, o.offer) == (provider, name) and gpu in (None, o.gpu)
            ),
            None,
        )

    def model(self, model_id: str) -> ModelConfig:
        return _by_id(self.models.models, model_id)

    def document(self, document_id: str) -> Document:
        return _by_id(self.documents.documents, document_id)

    def schedule(self, schedule_id: str) -> Schedule:
        return _by_id(self.schedules.schedules, schedule_id)

    def calendar_hours_per_month(self) -> float:
        """The hours of a whole month: what a reservation bills and an owned machine stands, the
        around-the-clock schedule's."""
        return self.schedule("always").hours_per_month

    def load_profile(self, load_pattern: str) -> LoadProfile:
        return next(p for p in self.load_profiles.profiles if p.load_pattern == load_pattern)

    def utilization_default(self, load_pattern: str) -> UtilizationDefault:
        """The load pattern's assumed utilization and latency sensitivity."""
        return next(
            u for u in self.workload_defaults.utilization_by_load_pattern if u.load_pattern == load_pattern
        )

    def latency_target(self, field: str) -> float:
        found = next(t.value for t in self.workload_defaults.latency_targets if t.field == field)
        return float(found)

    def threshold(self, key: str) -> Threshold:
        return _thresholds_by_key(self.thresholds.thresholds)[key]

    def figure(self, figure_id: str) -> MarketFigure:
        return _by_id(self.market_figures.figures, figure_id)

    def figures_by_id(self) -> dict[str, MarketFigure]:
        return {figure.id: figure for figure in self.market_figures.figures}

    def threshold_values(self) -> dict[str, float]:
        return {t.key: t.value for t in self.thresholds.thresholds}

    def export_restricted(self, country: str) -> bool:
        """The country is on the documents' export-control list for data-center GPUs."""
        return any(entry.country == country for entry in self.export_control.restricted_countries)

    def provider_ids(self) -> tuple[str, ...]:
        """Every provider a filter or an option may name: the catalog's (providers.yaml, in its order),
        then, sorted, those that sell only an API (DeepSeek, Mistral)."""
        own = [p.id for p in self.providers.providers]
        apis_only = {a.provider for a in self.api_prices.apis if a.provider} - set(own)
        return (*own, *sorted(apis_only))

    def country_codes(self) -> frozenset[str]:
        """The country codes gpu-advisor accepts (knowledge/countries.yaml)."""
        return _country_codes(self.countries.code_lists)

    def is_country(self, code: str) -> bool:
        return code in self.country_codes()

    def check_country(self, field: str, code: str) -> None:
        """Refuse a country code the knowledge base does not list, naming ``field``."""
        if code not in self.country_codes():
            meant = self.countries.meant_by.get(code)
            raise InputError(unknown_country(field, code, meant), field=field)

    def data_protection_region(self, country: str) -> PersonalDataRegion:
        """The data-protection region of a country (ISO 3166 code): the region that lists it, else 'other'."""
        return _regions_by_country(self.data_protection.regions).get(country, "other")

    def region_countries(self, provider_id: str, region_ids: tuple[str, ...]) -> tuple[str, ...]:
        """The countries of a provider's regions, each once, in the order the regions name them; empty
        where none names its countries."""
        regions = {region.id: region for region in self.provider(provider_id).regions}
        found = (country for region_id in region_ids for country in regions[region_id].countries)
        return tuple(dict.fromkeys(found))

    def workload_default_values(self) -> dict[str, Any]:
        """Workload field -> the value used when a workload leaves it out."""
        return {entry.field: entry.value for entry in self.workload_defaults.defaults}

    def bytes_per_parameter(self, precision: str) -> float:
        for entry in self.sizing.bytes_per_parameter:
            if entry.precision == precision:
                return entry.bytes
        raise KeyError(precision)

    def own_server(self, server_id: str | None = None) -> OwnServer:
        """The server with ``server_id``, or the default one."""
        servers = self.own_hardware.servers
        if server_id is None:
            return next(server for server in servers if server.default)
        return _by_id(servers, server_id)

    def own_server_of(self, gpu: str) -> OwnServer | None:
        """The catalog's server of ``gpu`` (the first listed); None where it prices none."""
        return next((server for server in self.own_hardware.servers if server.gpu == gpu), None)

    def country_costs(self, country: str) -> CountryCosts | None:
        """The country's own-hardware cost defaults, None where the knowledge base has none."""
        return next((c for c in self.cost_defaults.countries if c.country == country), None)

    def fallback_costs(self) -> CountryCosts:
        """The documents' own (US) figures, which stand in where a country has none."""
        return next(c for c in self.cost_defaults.countries if c.country == self.cost_defaults.fallback)

    def usd_per(self, currency: str) -> float:
        """What one unit of ``currency`` is in USD at the catalog's dated rates."""
        if currency == "USD":
            return 1.0
        usd_per_eur = self.eur_to_usd().rate
        if currency == "EUR":
            return usd_per_eur
        for rate in self.exchange_rates.rates:
            if (rate.from_currency, rate.to_currency) == ("EUR", currency):
                return usd_per_eur / rate.rate
        raise KeyError(f"EUR->{currency}")

    def display_format(self, lang: str = "en", currency: str = "USD") -> Format:
        """How amounts are written in ``lang`` and ``currency``, converted at the catalog's dated rates
        (ValueError for a language or currency it does not know)."""
        return Format.named(lang, currency, self.eur_to_usd().rate, self.usd_per("CHF"))

    def eur_to_usd(self) -> ExchangeRate:
        return self.exchange_rate("EUR", "USD")

    def exchange_rate(self, from_currency: str, to_currency: str) -> ExchangeRate:
        """The catalog's rate of a pair (``exchange_rates.yaml``); KeyError where it has none."""
        for rate in self.exchange_rates.rates:
            if (rate.from_currency, rate.to_currency) == (from_currency, to_currency):
                return rate
        raise KeyError(f"{from_currency}->{to_currency}")

    def listed_jurisdictions(self) -> frozenset[str]:
        """The jurisdictions the catalog lists an option in: a rental's or serverless product's region, or
        where a managed API processes requests (the residency rules' messages say which they lack)."""
        regions = {(p.id, r.id): r.jurisdiction for p in self.providers.providers for r in p.regions}
        return frozenset(
            {regions[o.provider, region] for o in self.offers.offers for region in o.regions}
            | {regions[p.provider, r.region] for p in self.serverless.products for r in p.regions}
            | {a.jurisdiction for a in self.api_prices.apis}
        )

    def offer_regions_by_jurisdiction(self, offer: Offer) -> dict[str, tuple[str, ...]]:
        """The offer's region IDs grouped by jurisdiction, jurisdictions in sorted order."""
        regions = {region.id: region for region in self.provider(offer.provider).regions}
        grouped: dict[str, list[str]] = {}
        for region_id in offer.regions:
            grouped.setdefault(regions[region_id].jurisdiction, []).append(region_id)
        return {jurisdiction: tuple(grouped[jurisdiction]) for jurisdiction in sorted(grouped)}


E = TypeVar("E")


def _by_id(entries: tuple[E, ...], entry_id: str) -> E:
    found: E = _index_by_id(entries)[entry_id]
    return found


@per_object
def _country_codes(code_lists: tuple[CountryCodeList, ...]) -> frozenset[str]:
    return frozenset(code for entry in code_lists for code in entry.codes)


@per_object
def _regions_by_country(regions: tuple[DataProtectionRegion, ...]) -> dict[str, PersonalDataRegion]:
    return {country: entry.region for entry in regions for country in entry.countries}


@per_object
def _thresholds_by_key(thresholds: tuple[Threshold, ...]) -> dict[str, Threshold]:
    return {threshold.key: threshold for threshold in reversed(thresholds)}  # the first of duplicates


@per_object
def _index_by_id(entries: tuple[Any, ...]) -> dict[str, Any]:
    return {entry.id: entry for entry in reversed(entries)}  # the first of duplicates, as a scan finds


def cite_all(citations: tuple[Citation, ...], knowledge: Knowledge) -> str:
    """Several citations, '; '-separated, in the order given."""
    return "; ".join(cite(citation, knowledge) for citation in citations)


LIST_PRICE_CLEARED: dict[str, Any] = {
    "currency": "USD",
    "list_price_per_gpu_hour": None,
    "list_instance_price_per_hour": None,
    "vat": None,
}
"""The fields that make an offer a USD price of its own (a negotiated rate, a swept price)."""


def server_priced_at(server: OwnServer, price: float) -> OwnServer:
    """``server`` at another price (a sweep's value, a scenario's draw). The market range stays quoted in
    messages; it widens only to take in a price outside it."""
    return server.model_copy(
        update={
            "price_usd": price,
            "price_usd_low": min(server.price_usd_low, price),
            "price_usd_high": max(server.price_usd_high, price),
        }
    )


def relisted_offers(offers: OffersFile, usd_per_eur: float) -> OffersFile:
    """The offers with every EUR list price converted again at ``usd_per_eur`` (another rate than the
    knowledge base's, such as the user's own)."""
    return offers.model_copy(
        update={
            "offers": tuple(
                o.model_copy(update={"usd_per_gpu_hour": o.list_price_per_gpu_hour * usd_per_eur})
                if o.currency == "EUR" and o.list_price_per_gpu_hour is not None
                else o
                for o in offers.offers
            )
        }
    )


def cite(citation: Citation, knowledge: Knowledge) -> str:
    """'Title (date), section' for a document citation; 'title <url>' for a public page."""
    if citation.document is not None:
        document = knowledge.document(citation.document)
        cited = f"{document.title} ({document.as_of.isoformat()}), {citation.section}"
        return f"{cited} <{document.url}>" if document.url else cited
    return f"{citation.title} <{citation.url}>" if citation.title else str(citation.url)


def franc_rate(knowledge: Knowledge) -> dict[str, Any]:
    """The EUR/CHF rate amounts in CHF pass through, its date and its source, as a result states them
    (``Recommendation.exchange_rate_chf_per_eur``, ``TcoResult``'s alike)."""
    rate = knowledge.exchange_rate("EUR", "CHF")
    return {
        "exchange_rate_chf_per_eur": rate.rate,
        "exchange_rate_chf_as_of": rate.as_of,
        "exchange_rate_chf_source": cite(rate.source, knowledge),
    }
