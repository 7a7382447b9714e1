"""The knowledge base as one validated object: its files and the look-ups the calculators use."""

from __future__ import annotations

import datetime as dt
import typing
from typing import Any, Literal, TypeVar

from pydantic import Field, model_validator

from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.choices import PersonalDataRegion, ServingEngineId
from gpu_advisor.engine.domain.knowledge.costs import (
    CountryCode,
    CountryCosts,
    Depreciation,
    StaffShare,
    YourCosts,
)
from gpu_advisor.engine.domain.knowledge.engines import ServingEngine
from gpu_advisor.engine.domain.knowledge.entries import (
    ApiPrice,
    Citation,
    Document,
    Gpu,
    ModelConfig,
    Offer,
    OwnServer,
    PositiveFloat,
    Provider,
    Strict,
)
from gpu_advisor.engine.domain.knowledge.figures import (
    BytesPerParameter,
    CardCounts,
    ComputeMath,
    Concurrency,
    DataProtectionRegion,
    Efficiency,
    EuRegionPremium,
    ExchangeRate,
    KvCache,
    MarketFigure,
    Measurement,
    QuantizationSteps,
    ReferenceGpu,
    RestrictedCountry,
    Schedule,
    StepOverheads,
    TensorParallelEfficiency,
    Threshold,
    ThroughputReference,
    UtilizationDefault,
    WorkloadDefault,
)
from gpu_advisor.engine.domain.knowledge.serving import (
    Headroom,
    LoadProfile,
    Redundancy,
    ServerlessProduct,
    SpotInterruption,
)
from gpu_advisor.engine.domain.knowledge.uncertainty import AnalysisSettings, UncertainInput


class VersionedFile(Strict):
    schema_version: Literal[1]


class DocumentsFile(VersionedFile):
    documents: tuple[Document, ...]


class GpusFile(VersionedFile):
    gpus: tuple[Gpu, ...]


class ProvidersFile(VersionedFile):
    providers: tuple[Provider, ...]


class OffersFile(VersionedFile):
    offers: tuple[Offer, ...]


class ApiPricesFile(VersionedFile):
    apis: tuple[ApiPrice, ...]


class OwnHardwareFile(VersionedFile):
    servers: tuple[OwnServer, ...]


class ModelsFile(VersionedFile):
    models: tuple[ModelConfig, ...]


class ThresholdsFile(VersionedFile):
    thresholds: tuple[Threshold, ...]


class SchedulesFile(VersionedFile):
    schedules: tuple[Schedule, ...]


class SizingFile(VersionedFile):
    bytes_per_parameter: tuple[BytesPerParameter, ...]
    card_counts: CardCounts
    kv_cache: KvCache
    reference_gpu: ReferenceGpu
    quantization_steps: QuantizationSteps


class ExportControlFile(VersionedFile):
    restricted_countries: tuple[RestrictedCountry, ...]


class DataProtectionFile(VersionedFile):
    regions: tuple[DataProtectionRegion, ...]

    @model_validator(mode="after")
    def _each_country_once(self) -> DataProtectionFile:
        seen: dict[str, str] = {}
        for entry in self.regions:
            for country in entry.countries:
                if country in seen:
                    raise ValueError(f"country {country} is listed in {seen[country]} and {entry.region}")
                seen[country] = entry.region
        if len({entry.region for entry in self.regions}) != len(self.regions):
            raise ValueError("each region is listed once")
        return self


class ExchangeRatesFile(VersionedFile):
    rates: tuple[ExchangeRate, ...]


class MarketFiguresFile(VersionedFile):
    figures: tuple[MarketFigure, ...]


class PricingAssumptionsFile(VersionedFile):
    eu_region_premium: EuRegionPremium
    spot_interruption: SpotInterruption


class UncertaintyFile(VersionedFile):
    inputs: tuple[UncertainInput, ...]
    analysis: AnalysisSettings


class CalibrationFile(VersionedFile):
    measurements: tuple[Measurement, ...]
    references: tuple[ThroughputReference, ...]


class ThroughputFile(VersionedFile):
    efficiency: Efficiency
    step_overheads: StepOverheads
    tensor_parallel: tuple[TensorParallelEfficiency, ...]
    concurrency: Concurrency
    compute_math: ComputeMath
    headroom: Headroom
    redundancy: Redundancy
    serving_engines: tuple[ServingEngine, ...]

    @model_validator(mode="after")
    def _every_engine_once(self) -> ThroughputFile:
        ids = [engine.id for engine in self.serving_engines]
        if sorted(ids) != sorted(set(typing.get_args(ServingEngineId))):
            raise ValueError("serving_engines lists each of vllm, sglang and trtllm once")
        return self


class LoadProfilesFile(VersionedFile):
    profiles: tuple[LoadProfile, ...]


class ServerlessFile(VersionedFile):
    weights_load_gb_per_second: PositiveFloat
    weights_load_source: Citation
    weights_load_as_of: dt.date
    products: tuple[ServerlessProduct, ...]


class CostDefaultsFile(VersionedFile):
    fallback: CountryCode
    """The country whose figures stand in where a country has none: the documents' own (US)."""
    staff_share: StaffShare
    depreciation: Depreciation
    countries: tuple[CountryCosts, ...] = Field(min_length=1)
    yours: YourCosts | None = None
    """Set from an overrides file for one run; never in the shipped file."""


class WorkloadDefaultsFile(VersionedFile):
    defaults: tuple[WorkloadDefault, ...]
    utilization_by_load_pattern: tuple[UtilizationDefault, ...]
    latency_targets: tuple[WorkloadDefault, ...]
    """What a latency-sensitive workload that sets no target is held to."""


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

    # -- look-ups ----------------------------------------------------------------------------------------
    def gpu(self, gpu_id: str) -> Gpu:
        return _by_id(self.gpus.gpus, gpu_id)

    def serving_engine(self, engine_id: str) -> ServingEngine:
        return _by_id(self.throughput.serving_engines, engine_id)

    def provider(self, provider_id: str) -> Provider:
        return _by_id(self.providers.providers, provider_id)

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

    def eur_to_usd(self) -> ExchangeRate:
        for rate in self.exchange_rates.rates:
            if rate.from_currency == "EUR" and rate.to_currency == "USD":
                return rate
        raise KeyError("EUR->USD")

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
