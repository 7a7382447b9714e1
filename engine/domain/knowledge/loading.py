"""Loading the knowledge base: every file validated with pydantic, then the references between files (an
offer's GPU, provider and regions; a citation's document), so a corrupt knowledge base fails at start-up
with the file, the entry and the field named.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.choices import LOAD_PATTERNS, PRECISIONS, SCHEDULES
from gpu_advisor.engine.domain.knowledge.base import (
    ApiPricesFile,
    CalibrationFile,
    DocumentsFile,
    ExchangeRatesFile,
    ExportControlFile,
    GpusFile,
    Knowledge,
    MarketFiguresFile,
    ModelsFile,
    OffersFile,
    OwnHardwareFile,
    PricingAssumptionsFile,
    ProvidersFile,
    SchedulesFile,
    SizingFile,
    ThresholdsFile,
    ThroughputFile,
    VersionedFile,
    WorkloadDefaultsFile,
)
from gpu_advisor.engine.domain.knowledge.entries import Citation
from gpu_advisor.knowledge import KNOWLEDGE_DIR

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
    if {p.load_pattern for p in knowledge.throughput.peak_to_average} != set(LOAD_PATTERNS):
        problems.append(f"{directory / 'throughput.yaml'}: peak_to_average needs {', '.join(LOAD_PATTERNS)}")
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
    if {s.id for s in knowledge.schedules.schedules} != set(SCHEDULES):
        problems.append(f"{directory / 'schedules.yaml'}: schedules must be {', '.join(SCHEDULES)}")

    problems += workload_default_problems(knowledge, directory)

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


def workload_default_problems(knowledge: Knowledge, directory: Path) -> list[str]:
    """Every workload field left to a documented default has one, of the field's type and bounds, and
    every default names such a field."""
    from pydantic import TypeAdapter

    from gpu_advisor.engine.domain.workload import Given, ResolvedWorkload, declared_type, fields_given

    where = directory / "workload_defaults.yaml"
    expected = fields_given(Given.DEFAULT)
    defaults = {entry.field: entry.value for entry in knowledge.workload_defaults.defaults}
    problems = [
        f"{where}: no default for the workload field {name!r}" for name in expected if name not in defaults
    ]
    for name, value in defaults.items():
        if name not in expected:
            problems.append(f"{where}: entry {name!r}: not a workload field that takes a default")
            continue
        adapter: TypeAdapter[Any] = TypeAdapter(declared_type(ResolvedWorkload.model_fields[name]))
        try:
            adapter.validate_python(value, strict=True)
        except ValidationError as error:
            problems.append(f"{where}: entry {name!r}: field value: {error.errors()[0]['msg']}")
    return problems
