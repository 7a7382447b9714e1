"""Schemas of the knowledge base and its loader.

Every entry carries ``source`` and ``as_of``; files carry ``schema_version``. Loading validates each file
with pydantic and then the references between files (an offer's GPU, provider and regions; a citation's
document), so a corrupt knowledge base fails at start-up with the file, the entry and the field named.
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..knowledge import KNOWLEDGE_DIR
from .errors import KnowledgeError
from .identity_cache import per_object
from .parse_cache import SAFE_LOADER, parsed

SCHEMA_VERSION = 1

Precision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4"]
PRECISIONS: tuple[str, ...] = ("fp32", "bf16", "fp16", "fp8", "int8", "int4")
Interconnect = Literal["nvlink", "xgmi", "pcie"]
PricingKind = Literal["on_demand", "spot", "reserved", "capacity_block"]
Jurisdiction = Literal["EU", "US", "UK", "CH", "unknown"]

PositiveFloat = Annotated[float, Field(gt=0)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Citation(Strict):
    """Where a figure or rule comes from: a source document and section, or a public URL."""

    document: str | None = None
    section: str | None = None
    url: str | None = None
    title: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _url_shorthand(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"url": data}
        return data

    @model_validator(mode="after")
    def _one_kind(self) -> Citation:
        if (self.document is None) == (self.url is None):
            raise ValueError("a source names either a document (with a section) or a url")
        if self.document is not None and not self.section:
            raise ValueError("a document citation needs a section")
        return self

    def label(self) -> str:
        if self.document is not None:
            return f"{self.document}, {self.section}"
        return self.title or self.url or ""


class Sourced(Strict):
    source: Citation
    as_of: dt.date


class Document(Strict):
    id: str
    title: str
    language: str
    published: dt.date | None
    as_of: dt.date
    summary: str


class Gpu(Sourced):
    id: str
    name: str
    vendor: Literal["nvidia", "amd", "google", "aws"]
    memory_gb: PositiveFloat
    memory_bandwidth_gb_s: PositiveFloat
    bf16_dense_tflops: PositiveFloat
    fp8_dense_tflops: PositiveFloat | None
    fp4_dense_tflops: PositiveFloat | None
    tdp_watts: PositiveFloat
    interconnect: Interconnect
    segment: Literal["datacenter", "consumer"]
    note: str | None = None


class Region(Strict):
    id: str
    name: str
    jurisdiction: Jurisdiction


class Provider(Sourced):
    id: str
    name: str
    kind: Literal["hyperscaler", "neocloud", "marketplace", "european"]
    enterprise_sla: bool
    regions: tuple[Region, ...] = Field(min_length=1)


class Offer(Sourced):
    provider: str
    offer: str
    gpu: str
    usd_per_gpu_hour: PositiveFloat
    usd_per_gpu_hour_low: PositiveFloat | None = None
    usd_per_gpu_hour_high: PositiveFloat | None = None
    instance_usd_per_hour: PositiveFloat | None = None
    pricing: PricingKind
    billing: Literal["hourly", "committed"] = "hourly"
    """hourly: paid for the hours used; committed: a reservation is paid for every calendar hour."""
    commitment_months: int | None = Field(default=None, gt=0)
    gpus_per_instance: int = Field(ge=1)
    regions: tuple[str, ...] = Field(min_length=1)
    price_jurisdiction: Jurisdiction
    """Where the list price applies; other jurisdictions' regions are priced by estimate (EU premium)."""
    note: str | None = None

    @property
    def key(self) -> str:
        return f"{self.provider}/{self.offer}/{self.gpu}"

    @model_validator(mode="after")
    def _consistent_prices(self) -> Offer:
        low, high = self.usd_per_gpu_hour_low, self.usd_per_gpu_hour_high
        if (low is None) != (high is None):
            raise ValueError("usd_per_gpu_hour_low and usd_per_gpu_hour_high come together")
        if low is not None and high is not None and not low <= self.usd_per_gpu_hour <= high:
            raise ValueError("usd_per_gpu_hour must lie within usd_per_gpu_hour_low..usd_per_gpu_hour_high")
        if (self.pricing == "reserved") != (self.billing == "committed"):
            raise ValueError("reserved offers, and only they, are billed as committed")
        if self.instance_usd_per_hour is not None:
            per_gpu = self.instance_usd_per_hour / self.gpus_per_instance
            if abs(per_gpu - self.usd_per_gpu_hour) > 0.01:
                raise ValueError(
                    f"instance_usd_per_hour / gpus_per_instance is {per_gpu:.4f}, "
                    f"not usd_per_gpu_hour {self.usd_per_gpu_hour}"
                )
        return self


class ApiPrice(Sourced):
    id: str
    name: str
    kind: Literal["proprietary", "open_weights_hosted"]
    currency: Literal["EUR", "USD"]
    input_per_million_tokens: PositiveFloat
    output_per_million_tokens: PositiveFloat
    stands_in_up_to_params_b: PositiveFloat | None = None
    """An open-weights API can replace a self-hosted open model of at most this size; None: no
    like-for-like comparison (a proprietary model)."""
    model_params_b: PositiveFloat | None = None
    """The size of the open model the API hosts; None for a proprietary model, whose size is not public."""


class OwnServer(Sourced):
    id: str
    name: str
    gpu: str
    gpus_per_server: int = Field(ge=1)
    max_servers: int | None = Field(ge=1)
    """How many of these a workload may use; None: as many nodes as it needs."""
    default: bool
    """The server ``gpu-advisor tco`` shows and rule messages quote."""
    price_usd: PositiveFloat
    price_usd_low: PositiveFloat
    price_usd_high: PositiveFloat
    months: int = Field(gt=0)
    hours_per_month: PositiveFloat
    gpu_watts: PositiveFloat
    power_overhead_factor: float = Field(ge=1)
    usd_per_kwh: float = Field(ge=0)
    rack_usd_per_month: float = Field(ge=0)
    residual_share: float = Field(ge=0, lt=1)
    residual_share_scenario: float = Field(ge=0, lt=1)
    note: str | None = None

    @model_validator(mode="after")
    def _price_in_range(self) -> OwnServer:
        if not self.price_usd_low <= self.price_usd <= self.price_usd_high:
            raise ValueError("price_usd must lie within price_usd_low..price_usd_high")
        return self


class ModelConfig(Strict):
    id: str
    name: str
    hf_repo: str
    params_b: PositiveFloat
    params_b_exact: PositiveFloat | None
    active_params_b: PositiveFloat
    architecture: str
    attention: Literal["gqa", "mla"]
    num_layers: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    kv_lora_rank: int | None = Field(default=None, gt=0)
    qk_rope_head_dim: int | None = Field(default=None, gt=0)
    max_context_tokens: int = Field(gt=0)
    num_experts: int | None = Field(default=None, gt=0)
    experts_per_token: int | None = Field(default=None, gt=0)
    source: Citation
    as_of: dt.date

    @model_validator(mode="after")
    def _shape(self) -> ModelConfig:
        if self.active_params_b > self.params_b:
            raise ValueError("active_params_b cannot exceed params_b")
        if self.attention == "mla" and (self.kv_lora_rank is None or self.qk_rope_head_dim is None):
            raise ValueError("mla attention needs kv_lora_rank and qk_rope_head_dim")
        return self


class Threshold(Sourced):
    key: str
    value: float
    unit: str
    description: str
    currency: Literal["USD", "EUR"] | None = None
    """For money thresholds: EUR values are converted to USD at the catalog's dated rate."""


class Schedule(Sourced):
    id: Literal["always", "workdays", "office_hours"]
    hours_per_month: PositiveFloat
    hours_per_day: PositiveFloat
    days_per_month: PositiveFloat
    description: str


class BytesPerParameter(Sourced):
    precision: Precision
    bytes: PositiveFloat


class CardCounts(Sourced):
    counts: tuple[int, ...] = Field(min_length=1)
    node_gpus: int = Field(gt=0)

    @field_validator("counts")
    @classmethod
    def _ascending(cls, counts: tuple[int, ...]) -> tuple[int, ...]:
        if list(counts) != sorted(set(counts)) or counts[0] < 1:
            raise ValueError("counts must be positive, ascending and unique")
        return counts


class KvCache(Sourced):
    bytes_per_element_by_precision: dict[Precision, PositiveFloat]


class ReferenceGpu(Sourced):
    gpu: str


class QuantizationSteps(Sourced):
    steps: dict[Precision, Precision]


class RestrictedCountry(Sourced):
    country: str = Field(pattern=r"^[A-Z]{2}$")
    name: str


class ExchangeRate(Sourced):
    from_currency: Literal["EUR", "USD"]
    to_currency: Literal["EUR", "USD"]
    rate: PositiveFloat


class WorkloadDefault(Sourced):
    field: str
    value: str | int | float | bool


class MarketFigure(Sourced):
    """A figure of the documents that is neither an offer nor a spec: a range or a single value."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    description: str
    value_low: float
    value_high: float
    unit: str

    @model_validator(mode="after")
    def _ordered(self) -> MarketFigure:
        if self.value_low > self.value_high:
            raise ValueError("value_low must not exceed value_high")
        return self


class EuRegionPremium(Sourced):
    value: float = Field(ge=0, lt=1)
    value_low: float = Field(ge=0, lt=1)
    value_high: float = Field(ge=0, lt=1)


class Efficiency(Sourced):
    decode_bandwidth_share: float = Field(gt=0, le=1)
    compute_share: float = Field(gt=0, le=1)
    kv_memory_share: float = Field(gt=0, le=1)


class TensorParallelEfficiency(Sourced):
    interconnect: Interconnect
    efficiency_per_doubling: float = Field(gt=0, le=1)


class Concurrency(Sourced):
    max_sequences: int = Field(ge=1)
    min_sequences_at_full_context: int = Field(ge=1)


class PeakToAverage(Sourced):
    load_pattern: Literal["steady", "variable", "batch"]
    factor: float = Field(ge=1)
    waits_for_paid_hours: bool = False
    """Requests wait for the paid hours (a batch job), so fewer paid hours than the schedule's serve the
    month's requests in them; otherwise requests arrive on the schedule, paid or not."""


class Measurement(Sourced):
    """A published throughput measurement of one replica."""

    id: str
    model: str
    precision: Precision
    gpu: str
    gpus: int = Field(ge=1)
    input_tokens: int = Field(gt=0)
    output_tokens: int = Field(gt=0)
    concurrency: int | None = Field(ge=1)
    output_tokens_per_second: PositiveFloat | None
    total_tokens_per_second: PositiveFloat | None
    time_to_first_token_ms: PositiveFloat | None
    inter_token_latency_ms: PositiveFloat | None
    engine: str | None
    tolerance: float | None = Field(gt=0)
    """Largest relative error of the estimate accepted by the tests; None: shown, not held to it."""
    note: str | None = None

    @model_validator(mode="after")
    def _one_throughput(self) -> Measurement:
        if (self.output_tokens_per_second is None) == (self.total_tokens_per_second is None):
            raise ValueError("give exactly one of output_tokens_per_second and total_tokens_per_second")
        return self


class ThroughputReference(Sourced):
    """A published throughput figure that names too little (hardware, lengths) to calibrate with."""

    id: str
    description: str
    value: float
    unit: str
    note: str | None = None


class UtilizationDefault(Sourced):
    load_pattern: Literal["steady", "variable", "batch"]
    utilization: float = Field(gt=0, le=1)
    latency_sensitive: bool


# --- files -------------------------------------------------------------------------------------------


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


class ExchangeRatesFile(VersionedFile):
    rates: tuple[ExchangeRate, ...]


class MarketFiguresFile(VersionedFile):
    figures: tuple[MarketFigure, ...]


class PricingAssumptionsFile(VersionedFile):
    eu_region_premium: EuRegionPremium


class CalibrationFile(VersionedFile):
    measurements: tuple[Measurement, ...]
    references: tuple[ThroughputReference, ...]


class ThroughputFile(VersionedFile):
    efficiency: Efficiency
    tensor_parallel: tuple[TensorParallelEfficiency, ...]
    concurrency: Concurrency
    peak_to_average: tuple[PeakToAverage, ...]


class WorkloadDefaultsFile(VersionedFile):
    defaults: tuple[WorkloadDefault, ...]
    utilization_by_load_pattern: tuple[UtilizationDefault, ...]


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
    exchange_rates: ExchangeRatesFile
    workload_defaults: WorkloadDefaultsFile
    market_figures: MarketFiguresFile
    pricing_assumptions: PricingAssumptionsFile
    throughput: ThroughputFile
    calibration: CalibrationFile

    # -- look-ups ----------------------------------------------------------------------------------------
    def gpu(self, gpu_id: str) -> Gpu:
        return _by_id(self.gpus.gpus, gpu_id)

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

    def peak_to_average(self, load_pattern: str) -> PeakToAverage:
        return next(p for p in self.throughput.peak_to_average if p.load_pattern == load_pattern)

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


def _by_id(entries: tuple[Any, ...], entry_id: str) -> Any:
    return _index_by_id(entries)[entry_id]


@per_object
def _thresholds_by_key(thresholds: tuple[Threshold, ...]) -> dict[str, Threshold]:
    return {threshold.key: threshold for threshold in reversed(thresholds)}  # the first of duplicates


@per_object
def _index_by_id(entries: tuple[Any, ...]) -> dict[str, Any]:
    return {entry.id: entry for entry in reversed(entries)}  # the first of duplicates, as a scan finds


# --- loading -----------------------------------------------------------------------------------------

KNOWLEDGE_FILES: dict[str, type[VersionedFile]] = {
    "documents": DocumentsFile,
    "gpus": GpusFile,
    "providers": ProvidersFile,
    "offers": OffersFile,
    "api_prices": ApiPricesFile,
    "own_hardware": OwnHardwareFile,
    "models": ModelsFile,
    "thresholds": ThresholdsFile,
    "schedules": SchedulesFile,
    "sizing": SizingFile,
    "export_control": ExportControlFile,
    "exchange_rates": ExchangeRatesFile,
    "workload_defaults": WorkloadDefaultsFile,
    "market_figures": MarketFiguresFile,
    "pricing_assumptions": PricingAssumptionsFile,
    "throughput": ThroughputFile,
    "calibration": CalibrationFile,
}


def read_yaml(path: Path) -> Any:
    """A knowledge, rules or policy file, parsed (from the parse cache when the file is unchanged)."""
    try:
        text = path.read_bytes()
    except OSError as error:
        raise KnowledgeError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        return parsed(text, SAFE_LOADER, _parse_utf8)
    except UnicodeDecodeError as error:
        raise KnowledgeError(f"{path}: not UTF-8 text ({error})") from None
    except yaml.YAMLError as error:
        raise KnowledgeError(f"{path}: not valid YAML ({error})") from None


def _parse_utf8(text: bytes) -> Any:
    return yaml.load(text.decode("utf-8"), Loader=SAFE_LOADER)


def describe_validation_error(path: Path, data: Any, error: ValidationError) -> str:
    """Name the file, the entry (by its id where it has one) and the field of each problem."""
    lines = [f"{path}: invalid knowledge file"]
    for problem in error.errors():
        location = problem["loc"]
        entry = _entry_label(data, location)
        field = ".".join(str(part) for part in location)
        lines.append(f"  {entry}field {field}: {problem['msg']}")
    return "\n".join(lines)


def _entry_label(data: Any, location: tuple[Any, ...]) -> str:
    if len(location) >= 2 and isinstance(data, dict) and isinstance(location[1], int):
        entries = data.get(location[0])
        if (
            isinstance(entries, list)
            and location[1] < len(entries)
            and isinstance(entries[location[1]], dict)
        ):
            entry = entries[location[1]]
            name = entry.get("id") or entry.get("key") or entry.get("field") or entry.get("precision")
            if name is None and "provider" in entry:
                name = f"{entry.get('provider')}/{entry.get('offer')}/{entry.get('gpu')}"
            if name is not None:
                return f"entry {name!r}: "
    return ""


def load_file(path: Path, schema: type[VersionedFile]) -> VersionedFile:
    data = read_yaml(path)
    try:
        return schema.model_validate(data)
    except ValidationError as error:
        raise KnowledgeError(describe_validation_error(path, data, error)) from None


def load_knowledge_from(directory: Path) -> Knowledge:
    files = {name: load_file(directory / f"{name}.yaml", schema) for name, schema in KNOWLEDGE_FILES.items()}
    knowledge = Knowledge.model_validate(files)
    check_references(knowledge, directory)
    return knowledge


@cache
def load_knowledge() -> Knowledge:
    """The shipped knowledge base, loaded once per process."""
    return load_knowledge_from(KNOWLEDGE_DIR)


def check_references(knowledge: Knowledge, directory: Path) -> None:
    """Cross-file consistency: unique ids, known GPUs, providers, regions and documents."""
    problems: list[str] = []

    def unique(file: str, ids: list[str]) -> None:
        seen: set[str] = set()
        for entry_id in ids:
            if entry_id in seen:
                problems.append(f"{directory / file}: entry {entry_id!r}: duplicate id")
            seen.add(entry_id)

    unique("documents.yaml", [d.id for d in knowledge.documents.documents])
    unique("gpus.yaml", [g.id for g in knowledge.gpus.gpus])
    unique("providers.yaml", [p.id for p in knowledge.providers.providers])
    unique("offers.yaml", [o.key for o in knowledge.offers.offers])
    unique("api_prices.yaml", [a.id for a in knowledge.api_prices.apis])
    unique("models.yaml", [m.id for m in knowledge.models.models])
    unique("thresholds.yaml", [t.key for t in knowledge.thresholds.thresholds])
    unique("schedules.yaml", [s.id for s in knowledge.schedules.schedules])
    unique("sizing.yaml", [b.precision for b in knowledge.sizing.bytes_per_parameter])
    unique("workload_defaults.yaml", [d.field for d in knowledge.workload_defaults.defaults])
    unique("market_figures.yaml", [f.id for f in knowledge.market_figures.figures])
    unique("calibration.yaml", [m.id for m in knowledge.calibration.measurements])

    gpu_ids = {g.id for g in knowledge.gpus.gpus}
    providers = {p.id: p for p in knowledge.providers.providers}
    document_ids = {d.id for d in knowledge.documents.documents}

    for offer in knowledge.offers.offers:
        where = f"{directory / 'offers.yaml'}: entry {offer.key!r}"
        if offer.gpu not in gpu_ids:
            problems.append(f"{where}: field gpu: unknown GPU {offer.gpu!r}")
        provider = providers.get(offer.provider)
        if provider is None:
            problems.append(f"{where}: field provider: unknown provider {offer.provider!r}")
        else:
            region_ids = {r.id for r in provider.regions}
            for region in offer.regions:
                if region not in region_ids:
                    problems.append(f"{where}: field regions: {region!r} is not a region of {provider.id}")
    if {t.interconnect for t in knowledge.throughput.tensor_parallel} != {"nvlink", "xgmi", "pcie"}:
        problems.append(f"{directory / 'throughput.yaml'}: tensor_parallel needs nvlink, xgmi and pcie")
    if {p.load_pattern for p in knowledge.throughput.peak_to_average} != {"steady", "variable", "batch"}:
        problems.append(f"{directory / 'throughput.yaml'}: peak_to_average needs steady, variable and batch")
    model_ids = {m.id for m in knowledge.models.models}
    for measurement in knowledge.calibration.measurements:
        where = f"{directory / 'calibration.yaml'}: entry {measurement.id!r}"
        if measurement.model not in model_ids:
            problems.append(f"{where}: field model: unknown model {measurement.model!r}")
        if measurement.gpu not in gpu_ids:
            problems.append(f"{where}: field gpu: unknown GPU {measurement.gpu!r}")
    if knowledge.sizing.reference_gpu.gpu not in gpu_ids:
        problems.append(f"{directory / 'sizing.yaml'}: reference_gpu: unknown GPU")
    if sum(server.default for server in knowledge.own_hardware.servers) != 1:
        problems.append(f"{directory / 'own_hardware.yaml'}: exactly one server must be the default")
    for server in knowledge.own_hardware.servers:
        if server.gpu not in gpu_ids:
            problems.append(f"{directory / 'own_hardware.yaml'}: entry {server.id!r}: field gpu: unknown GPU")
    for precision in PRECISIONS:
        if precision not in {b.precision for b in knowledge.sizing.bytes_per_parameter}:
            problems.append(
                f"{directory / 'sizing.yaml'}: bytes_per_parameter: missing precision {precision!r}"
            )
    if {s.id for s in knowledge.schedules.schedules} != {"always", "workdays", "office_hours"}:
        problems.append(
            f"{directory / 'schedules.yaml'}: schedules must be always, workdays and office_hours"
        )

    for file, entry_id, citation in _citations(knowledge):
        if citation.document is not None and citation.document not in document_ids:
            where = f"{directory / file}: entry {entry_id!r}"
            problems.append(f"{where}: field source: unknown document {citation.document!r}")
    if problems:
        raise KnowledgeError("\n".join(problems))


def _citations(knowledge: Knowledge) -> list[tuple[str, str, Citation]]:
    found: list[tuple[str, str, Citation]] = []
    for name in KNOWLEDGE_FILES:
        file_model = getattr(knowledge, name)
        for field_name in type(file_model).model_fields:
            value = getattr(file_model, field_name)
            entries = value if isinstance(value, tuple) else (value,)
            for entry in entries:
                citation = getattr(entry, "source", None)
                if isinstance(citation, Citation):
                    entry_id = str(
                        getattr(entry, "id", None)
                        or getattr(entry, "key", None)
                        or getattr(entry, "field", "")
                    )
                    found.append((f"{name}.yaml", entry_id, citation))
    return found
