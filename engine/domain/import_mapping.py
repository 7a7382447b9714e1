"""The table that maps a published price catalog's names to the knowledge base's IDs
(``knowledge/import_mapping.yaml``): providers by the name a format gives its cloud, GPUs by the
format's accelerator name (where one name covers two cards, narrowed by provider, instance name or
memory), and region codes that lie within a catalog region. Every entry is sourced and dated, and it is
checked against the knowledge base when it is loaded.
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Literal

from pydantic import ValidationError

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Citation, Strict
from gpu_advisor.engine.domain.knowledge.loading import describe_validation_error
from gpu_advisor.knowledge import KNOWLEDGE_DIR

MAPPING_FILE = KNOWLEDGE_DIR / "import_mapping.yaml"

VendorFormat = Literal["skypilot", "gpuhunt"]


class ProviderName(Strict):
    format: VendorFormat
    name: str
    """The cloud's name in the format (SkyPilot's catalog directory, gpuhunt's catalog file name)."""
    provider: str
    source: Citation
    as_of: dt.date


class GpuName(Strict):
    format: VendorFormat
    name: str
    """The accelerator's name as the format writes it (SkyPilot ``AcceleratorName``, gpuhunt ``gpu_name``)."""
    gpu: str
    providers: tuple[str, ...] = ()
    """Only for these catalog providers; empty: any provider."""
    instance_contains: str | None = None
    """Only where the instance name contains this text (case-insensitive)."""
    gpu_memory_gb: float | None = None
    """Only where the format gives this memory per card (gpuhunt ``gpu_memory``)."""
    source: Citation
    as_of: dt.date
    note: str | None = None

    def matches(self, name: str, provider: str, instance: str, memory_gb: float | None) -> bool:
        return (
            self.name == name
            and (not self.providers or provider in self.providers)
            and (self.instance_contains is None or self.instance_contains.lower() in instance.lower())
            and (self.gpu_memory_gb is None or memory_gb == self.gpu_memory_gb)
        )


class RegionName(Strict):
    provider: str
    """The catalog provider."""
    region: str
    """The region or data-centre code as the formats write it."""
    catalog_region: str
    """The catalog region (``providers.yaml``) that holds it."""
    source: Citation
    as_of: dt.date


class ImportMappingFile(Strict):
    schema_version: Literal[1]
    providers: tuple[ProviderName, ...]
    gpus: tuple[GpuName, ...]
    regions: tuple[RegionName, ...]

    def provider(self, fmt: str, name: str) -> str | None:
        return next((p.provider for p in self.providers if p.format == fmt and p.name == name), None)

    def format_name(self, fmt: str, provider: str) -> str | None:
        """The format's name of the catalog provider ``provider`` (None where it maps none)."""
        return next((p.name for p in self.providers if p.format == fmt and p.provider == provider), None)

    def gpu(self, fmt: str, name: str, provider: str, instance: str, memory_gb: float | None) -> str | None:
        """The catalog GPU of the first entry that matches; None where none does (also where the name is
        known but ambiguous for this provider or instance)."""
        for entry in self.gpus:
            if entry.format == fmt and entry.matches(name, provider, instance, memory_gb):
                return entry.gpu
        return None

    def region(self, provider: str, code: str) -> str | None:
        return next(
            (r.catalog_region for r in self.regions if r.provider == provider and r.region == code), None
        )


def check_mapping(mapping: ImportMappingFile, knowledge: Knowledge) -> list[str]:
    gpu_ids = {g.id for g in knowledge.gpus.gpus}
    providers = {p.id: {r.id for r in p.regions} for p in knowledge.providers.providers}
    where = MAPPING_FILE
    problems = [
        f"{where}: providers: {p.format}/{p.name}: unknown provider {p.provider!r}"
        for p in mapping.providers
        if p.provider not in providers
    ]
    for g in mapping.gpus:
        if g.gpu not in gpu_ids:
            problems.append(f"{where}: gpus: {g.format}/{g.name}: unknown GPU {g.gpu!r}")
        problems += [
            f"{where}: gpus: {g.format}/{g.name}: unknown provider {p!r}"
            for p in g.providers
            if p not in providers
        ]
    for r in mapping.regions:
        if r.catalog_region not in providers.get(r.provider, set()):
            problems.append(
                f"{where}: regions: {r.provider}/{r.region}: {r.catalog_region!r} is not a region"
            )
    return problems


@cache
def load_mapping_file() -> ImportMappingFile:
    data = read_yaml(MAPPING_FILE)
    try:
        return ImportMappingFile.model_validate(data)
    except ValidationError as error:
        raise KnowledgeError(describe_validation_error(MAPPING_FILE, data, error)) from None


def load_mapping(knowledge: Knowledge) -> ImportMappingFile:
    """The mapping table, validated and checked against ``knowledge``."""
    mapping = load_mapping_file()
    problems = check_mapping(mapping, knowledge)
    if problems:
        raise KnowledgeError("\n".join(problems))
    return mapping
