"""The knowledge base's files as validated models: one per file of ``knowledge/``, each with its
``schema_version`` (``base.Knowledge`` holds them together)."""

from __future__ import annotations

import datetime as dt
import typing
from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.choices import ServingEngineId
from gpu_advisor.engine.domain.knowledge.api_prices import ApiPrice
from gpu_advisor.engine.domain.knowledge.costs import (
    CountryCode,
    CountryCosts,
    Depreciation,
    StaffShare,
    YourCosts,
)
from gpu_advisor.engine.domain.knowledge.engines import ServingEngine
from gpu_advisor.engine.domain.knowledge.entries import (
    Citation,
    Document,
    IdlePowerShare,
    Offer,
    OwnServer,
    PositiveFloat,
    Sourced,
    Strict,
)
from gpu_advisor.engine.domain.knowledge.figures import (
    BytesPerParameter,
    CardCounts,
    Communication,
    ComputeMath,
    Concurrency,
    DataProtectionRegion,
    Efficiency,
    EuRegionPremium,
    ExchangeRate,
    ExtraterritorialAccess,
    KvCache,
    MarketFigure,
    Measurement,
    QuantizationSteps,
    QuantizedCheckpoints,
    ReferenceGpu,
    RestrictedCountry,
    Schedule,
    StepOverheads,
    TailShare,
    TensorParallelEfficiency,
    Threshold,
    ThroughputReference,
    UtilizationDefault,
    WorkloadDefault,
)
from gpu_advisor.engine.domain.knowledge.gpus import Gpu
from gpu_advisor.engine.domain.knowledge.models import ModelConfig
from gpu_advisor.engine.domain.knowledge.providers import Provider
from gpu_advisor.engine.domain.knowledge.serving import (
    Headroom,
    InstanceStart,
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
    idle_power_share: IdlePowerShare


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
    quantized_checkpoints: QuantizedCheckpoints


class ExportControlFile(VersionedFile):
    restricted_countries: tuple[RestrictedCountry, ...]


class DataProtectionFile(VersionedFile):
    regions: tuple[DataProtectionRegion, ...]
    extraterritorial_access: tuple[ExtraterritorialAccess, ...] = ()

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
        reaching = [entry.country for entry in self.extraterritorial_access]
        if len(set(reaching)) != len(reaching):
            raise ValueError("extraterritorial_access lists each country once")
        return self


class CountryCodeList(Sourced):
    """Country codes of one kind (ISO 3166-1's assigned ones, a reserved one in common use)."""

    id: str
    codes: tuple[CountryCode, ...] = Field(min_length=1)
    same_as: CountryCode | None = None
    """The code of another list that names the same country: two countries are compared by it (UK, which
    ISO reserves for the United Kingdom, is GB, the code the catalog's regions use)."""


class CountriesFile(VersionedFile):
    """The country codes accepted wherever a country is named (knowledge/countries.yaml)."""

    code_lists: tuple[CountryCodeList, ...] = Field(min_length=1)
    meant_by: dict[CountryCode, CountryCode] = Field(default_factory=dict)
    """Codes in use for a country the lists name by another (the EU's EL for Greece, GR): refused all the
    same, naming the code meant."""
    meant_by_source: Citation | None = None

    @model_validator(mode="after")
    def _each_code_once(self) -> CountriesFile:
        codes = [code for entry in self.code_lists for code in entry.codes]
        repeated = sorted({code for code in codes if codes.count(code) > 1})
        if repeated:
            raise ValueError(f"codes listed more than once: {', '.join(repeated)}")
        listed = set(codes)
        wrong = sorted(
            f"{used}: {meant}"
            for used, meant in self.meant_by.items()
            if used in listed or meant not in listed
        )
        if wrong:
            raise ValueError(f"meant_by names a listed code, or means one not listed: {', '.join(wrong)}")
        if self.meant_by and self.meant_by_source is None:
            raise ValueError("meant_by needs its meant_by_source")
        unlisted = sorted(
            f"{entry.id}: {entry.same_as}"
            for entry in self.code_lists
            if entry.same_as is not None and (entry.same_as not in listed or entry.same_as in entry.codes)
        )
        if unlisted:
            raise ValueError(f"same_as names a code no other list holds: {', '.join(unlisted)}")
        return self

    def same_country(self, code: str) -> str:
        """``code`` as two countries are compared: the code its list is ``same_as`` (UK: GB), else itself."""
        return next((e.same_as for e in self.code_lists if e.same_as is not None and code in e.codes), code)


class ExchangeRatesFile(VersionedFile):
    rates: tuple[ExchangeRate, ...]


class MarketFiguresFile(VersionedFile):
    figures: tuple[MarketFigure, ...]


class PricingAssumptionsFile(VersionedFile):
    eu_region_premium: EuRegionPremium
    spot_interruption: SpotInterruption
    instance_start: InstanceStart


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
    communication: Communication
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
        measured = {engine.id for engine in self.serving_engines if engine.start_seconds is not None}
        for engine in self.serving_engines:
            stand_in = engine.start_stand_in
            if stand_in is not None and stand_in not in measured:
                raise ValueError(f"{engine.id}: start_stand_in {stand_in} has no start_seconds of its own")
        return self

    def measured_start(self, engine_id: str) -> ServingEngine:
        """The engine whose measured start ``engine_id``'s runs are billed (itself, or its
        ``start_stand_in``); its ``start_seconds`` is None where neither has one."""
        engine = next(e for e in self.serving_engines if e.id == engine_id)
        stand_in = engine.start_stand_in
        return engine if stand_in is None else next(e for e in self.serving_engines if e.id == stand_in)

    def engine_start_seconds(self, engine_id: str) -> float:
        """The seconds ``engine_id``'s start is billed beyond the weights' load (``measured_start``); 0
        where neither it nor a stand-in is measured."""
        return self.measured_start(engine_id).start_seconds or 0.0


class LoadProfilesFile(VersionedFile):
    profiles: tuple[LoadProfile, ...]


class ServerlessFile(VersionedFile):
    weights_load_gb_per_second: PositiveFloat
    weights_load_source: Citation
    weights_load_as_of: dt.date
    products: tuple[ServerlessProduct, ...]

    def weights_load_seconds(self, weights_gb: float) -> float:
        """How long a replica takes to load ``weights_gb`` of weights at the catalog's load rate: a
        serverless cold start's share beyond the platform's start, and a dedicated batch run's at its
        start (a floor, as the instances' boot is not known)."""
        return weights_gb / self.weights_load_gb_per_second


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
    latency_tail_share: TailShare
    """The share of the requests whose time to first token the memo's tail figure bounds."""
