"""The knowledge base's consistency across files: unique IDs, known references (GPUs, providers,
regions, models, documents), complete tables, and a default for every workload field that takes one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.choices import INTERCONNECTS, LOAD_PATTERNS, PRECISIONS, SCHEDULES
from gpu_advisor.engine.domain.knowledge.api_prices import class_bound_problems
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.cost_checks import cost_default_problems
from gpu_advisor.engine.domain.knowledge.entries import Citation, Offer
from gpu_advisor.engine.domain.knowledge.uncertain_ranges import uncertainty_problems


def check_references(knowledge: Knowledge, directory: Path, files: tuple[str, ...]) -> None:
    """Every problem across the files, or nothing; ``files``: the knowledge base's file names."""
    problems = [
        *duplicate_ids(knowledge, directory),
        *offer_references(knowledge, directory),
        *spot_notice_problems(knowledge, directory),
        *api_price_references(knowledge, directory),
        *class_bound_problems(knowledge.api_prices.apis, str(directory / "api_prices.yaml")),
        *serverless_references(knowledge, directory),
        *calibration_references(knowledge, directory),
        *incomplete_tables(knowledge, directory),
        *workload_default_problems(knowledge, directory),
        *citation_references(knowledge, directory, files),
        *cost_default_problems(knowledge, directory),
        *uncertainty_problems(knowledge, directory),
        *unknown_countries(knowledge, directory),
        *vat_rate_problems(knowledge, directory),
    ]
    if problems:
        raise KnowledgeError("\n".join(problems))


def duplicate_ids(knowledge: Knowledge, directory: Path) -> list[str]:
    tables: dict[str, list[str]] = {
        "documents.yaml": [d.id for d in knowledge.documents.documents],
        "gpus.yaml": [g.id for g in knowledge.gpus.gpus],
        "providers.yaml": [p.id for p in knowledge.providers.providers],
        "offers.yaml": [o.key for o in knowledge.offers.offers],
        "api_prices.yaml": [a.id for a in knowledge.api_prices.apis],
        "models.yaml": [m.id for m in knowledge.models.models],
        "thresholds.yaml": [t.key for t in knowledge.thresholds.thresholds],
        "schedules.yaml": [s.id for s in knowledge.schedules.schedules],
        "sizing.yaml": [b.precision for b in knowledge.sizing.bytes_per_parameter],
        "workload_defaults.yaml": [d.field for d in knowledge.workload_defaults.defaults],
        "market_figures.yaml": [f.id for f in knowledge.market_figures.figures],
        "calibration.yaml": [
            *(m.id for m in knowledge.calibration.measurements),
            *(r.id for r in knowledge.calibration.references),
        ],
        "serverless.yaml": [p.id for p in knowledge.serverless.products],
        "countries.yaml": [c.id for c in knowledge.countries.code_lists],
    }
    problems = []
    for file, ids in tables.items():
        seen: set[str] = set()
        for entry_id in ids:
            if entry_id in seen:
                problems.append(f"{directory / file}: entry {entry_id!r}: duplicate id")
            seen.add(entry_id)
    return problems


def offer_references(knowledge: Knowledge, directory: Path) -> list[str]:
    gpu_ids = {g.id for g in knowledge.gpus.gpus}
    providers = {p.id: p for p in knowledge.providers.providers}
    problems = []
    for offer in knowledge.offers.offers:
        where = f"{directory / 'offers.yaml'}: entry {offer.key!r}"
        if offer.gpu not in gpu_ids:
            problems.append(f"{where}: field gpu: unknown GPU {offer.gpu!r}")
        provider = providers.get(offer.provider)
        if provider is None:
            problems.append(f"{where}: field provider: unknown provider {offer.provider!r}")
            continue
        region_ids = {r.id for r in provider.regions}
        problems += [
            f"{where}: field regions: {region!r} is not a region of {provider.id}"
            for region in offer.regions
            if region not in region_ids
        ]
    problems += superseded_references(knowledge, directory)
    for server in knowledge.own_hardware.servers:
        if server.gpu not in gpu_ids:
            problems.append(f"{directory / 'own_hardware.yaml'}: entry {server.id!r}: field gpu: unknown GPU")
    if knowledge.sizing.reference_gpu.gpu not in gpu_ids:
        problems.append(f"{directory / 'sizing.yaml'}: reference_gpu: unknown GPU")
    problems += [
        f"{directory / 'throughput.yaml'}: communication: field link_share_gpus: unknown GPU {gpu!r}"
        for gpu in knowledge.throughput.communication.link_share_gpus
        if gpu not in gpu_ids
    ]
    return problems


def superseded_references(knowledge: Knowledge, directory: Path) -> list[str]:
    """An offer superseded by others names newer offers of the same provider, GPU and pricing, priced for
    the same jurisdiction (their region names may differ: Google's "us" and "us-central1"), for the same
    term and not superseded themselves, that sell its instance sizes between them."""
    problems = []
    for offer in knowledge.offers.offers:
        if offer.superseded_by is None:
            continue
        where = f"{directory / 'offers.yaml'}: entry {offer.key!r}: field superseded_by"
        newer = knowledge.successors(offer)
        found = {o.offer for o in newer}
        missing = [name for name in offer.successor_names if name not in found]
        if missing:
            problems.append(f"{where}: no offer {missing[0]!r} of {offer.provider} for {offer.gpu}")
            continue
        problems += [f"{where}: {p}" for o in newer if (p := superseding_problem(offer, o))]
        sold = {size for o in newer for size in o.instance_gpus}
        if not set(offer.instance_gpus) <= sold:
            problems.append(f"{where}: the newer offers do not sell every instance size it does")
    return problems


def superseding_problem(offer: Offer, newer: Offer) -> str:
    """Why ``newer`` cannot replace ``offer``'s price ("" where it can); the instance sizes are checked
    over all the offers that replace it."""
    if newer.pricing != offer.pricing:
        return f"{newer.key} is of another pricing ({newer.pricing}, not {offer.pricing})"
    if newer.as_of <= offer.as_of:
        return f"{newer.key} is not newer ({newer.as_of.isoformat()})"
    if newer.superseded_by is not None:
        return f"{newer.key} is superseded itself"
    if newer.price_jurisdiction != offer.price_jurisdiction:
        return f"{newer.key} is priced for another jurisdiction ({newer.price_jurisdiction})"
    if newer.commitment_months != offer.commitment_months:
        return f"{newer.key} is a commitment of another term ({newer.commitment_months} months)"
    return ""


def spot_notice_problems(knowledge: Knowledge, directory: Path) -> list[str]:
    """Every provider that sells spot states its notice before taking the capacity back (seconds: null
    where its pages document none): the pricing rules name it; and, where it has an SLA, whether that
    covers its spot capacity."""
    sellers: dict[str, str] = {}
    for offer in knowledge.offers.offers:
        if offer.pricing == "spot":
            sellers.setdefault(offer.provider, offer.key)
    providers = [p for p in knowledge.providers.providers if p.id in sellers]
    return [
        *(
            f"{directory / 'providers.yaml'}: entry {p.id!r}: field spot_notice: missing, but it sells spot "
            f"({sellers[p.id]} in offers.yaml); write seconds: null where its pages document none"
            for p in providers
            if p.spot_notice is None
        ),
        # An SLA for the instances sold at list price does not say it holds for capacity the provider may
        # take back: where the provider has one (or it is unknown), its spot verdict is stated.
        *(
            f"{directory / 'providers.yaml'}: entry {p.id!r}: field spot_sla: missing, but it sells spot "
            f"({sellers[p.id]} in offers.yaml) and its enterprise_sla is not false"
            for p in providers
            if p.spot_sla is None and p.enterprise_sla is not False
        ),
    ]


def api_price_references(knowledge: Knowledge, directory: Path) -> list[str]:
    """A hosted model named by its catalog ID has the catalog's size (total and, for a mixture of
    experts, active parameters) and reasons as the catalog's model does."""
    models = {m.id: m for m in knowledge.models.models}
    problems = []
    for api in knowledge.api_prices.apis:
        if api.model is None:
            continue
        where = f"{directory / 'api_prices.yaml'}: entry {api.id!r}"
        model = models.get(api.model)
        if model is None:
            problems.append(f"{where}: field model: unknown model {api.model!r}")
            continue
        active = model.active_params_b if model.active_params_b < model.params_b else None
        if (api.model_params_b, api.model_active_params_b) != (model.params_b, active):
            problems.append(
                f"{where}: field model_params_b: {api.model} has {model.params_b:g}B parameters"
                + (f", {active:g}B active" if active is not None else "")
            )
        if api.model_reasoning != model.reasoning:
            problems.append(f"{where}: field model_reasoning: {api.model} has reasoning {model.reasoning}")
    return problems


def serverless_references(knowledge: Knowledge, directory: Path) -> list[str]:
    """Every serverless product names a known provider, its regions and known GPUs, each GPU and
    instance size once."""
    gpu_ids = {g.id for g in knowledge.gpus.gpus}
    providers = {p.id: p for p in knowledge.providers.providers}
    problems = []
    for product in knowledge.serverless.products:
        where = f"{directory / 'serverless.yaml'}: entry {product.id!r}"
        provider = providers.get(product.provider)
        if provider is None:
            problems.append(f"{where}: field provider: unknown provider {product.provider!r}")
        else:
            region_ids = {r.id for r in provider.regions}
            problems += [
                f"{where}: field regions: {r.region!r} is not a region of {provider.id}"
                for r in product.regions
                if r.region not in region_ids
            ]
        sizes = [(g.gpu, size) for g in product.gpus for size in g.instance_gpus]
        problems += [
            f"{where}: field gpus: unknown GPU {g.gpu!r}" for g in product.gpus if g.gpu not in gpu_ids
        ]
        if len(sizes) != len(set(sizes)):
            problems.append(f"{where}: field gpus: a GPU and instance size is priced twice")
    return problems


def calibration_references(knowledge: Knowledge, directory: Path) -> list[str]:
    gpu_ids = {g.id for g in knowledge.gpus.gpus}
    model_ids = {m.id for m in knowledge.models.models}
    problems = []
    for measurement in knowledge.calibration.measurements:
        where = f"{directory / 'calibration.yaml'}: entry {measurement.id!r}"
        if measurement.model not in model_ids:
            problems.append(f"{where}: field model: unknown model {measurement.model!r}")
        if measurement.gpu not in gpu_ids:
            problems.append(f"{where}: field gpu: unknown GPU {measurement.gpu!r}")
    return problems


def incomplete_tables(knowledge: Knowledge, directory: Path) -> list[str]:
    """Tables the calculators look every choice up in must hold every choice."""
    problems = []
    if {t.interconnect for t in knowledge.throughput.tensor_parallel} != set(INTERCONNECTS):
        problems.append(f"{directory / 'throughput.yaml'}: tensor_parallel needs {', '.join(INTERCONNECTS)}")
    problems += [
        f"{directory / 'gpus.yaml'}: entry {gpu.id!r}: field link: an NVLink card needs its link's rate"
        for gpu in knowledge.gpus.gpus
        if gpu.interconnect == "nvlink" and gpu.link is None
    ]
    if sorted(p.load_pattern for p in knowledge.load_profiles.profiles) != sorted(LOAD_PATTERNS):
        problems.append(
            f"{directory / 'load_profiles.yaml'}: one profile for each of {', '.join(LOAD_PATTERNS)}"
        )
    if sum(server.default for server in knowledge.own_hardware.servers) != 1:
        problems.append(f"{directory / 'own_hardware.yaml'}: exactly one server must be the default")
    precisions = {b.precision for b in knowledge.sizing.bytes_per_parameter}
    problems += [
        f"{directory / 'sizing.yaml'}: bytes_per_parameter: missing precision {precision!r}"
        for precision in PRECISIONS
        if precision not in precisions
    ]
    if {s.id for s in knowledge.schedules.schedules} != set(SCHEDULES):
        problems.append(f"{directory / 'schedules.yaml'}: schedules must be {', '.join(SCHEDULES)}")
    utilization = sorted(u.load_pattern for u in knowledge.workload_defaults.utilization_by_load_pattern)
    if utilization != sorted(LOAD_PATTERNS):
        problems.append(
            f"{directory / 'workload_defaults.yaml'}: utilization_by_load_pattern: one entry for each of "
            f"{', '.join(LOAD_PATTERNS)}"
        )
    rates = [(r.from_currency, r.to_currency) for r in knowledge.exchange_rates.rates]
    if ("EUR", "USD") not in rates:
        problems.append(
            f"{directory / 'exchange_rates.yaml'}: rates: no EUR to USD rate (EUR prices need it)"
        )
    if ("EUR", "CHF") not in rates:
        problems.append(
            f"{directory / 'exchange_rates.yaml'}: rates: no EUR to CHF rate (amounts in CHF and Swiss cost "
            "defaults need it)"
        )
    return problems


def citation_references(knowledge: Knowledge, directory: Path, files: tuple[str, ...]) -> list[str]:
    document_ids = {d.id for d in knowledge.documents.documents}
    problems = []
    for file, entry_id, citation in _citations(knowledge, files):
        if citation.document is not None and citation.document not in document_ids:
            where = f"{directory / file}: entry {entry_id!r}"
            problems.append(f"{where}: field source: unknown document {citation.document!r}")
    return problems


def _citations(knowledge: Knowledge, files: tuple[str, ...]) -> list[tuple[str, str, Citation]]:
    found: list[tuple[str, str, Citation]] = []
    for name in files:
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


def unknown_countries(knowledge: Knowledge, directory: Path) -> list[str]:
    """Every country code the other files name is one countries.yaml lists: a code outside it would never
    match a workload's (which is checked against the same list)."""
    named: list[tuple[str, str, str]] = [
        *(
            ("data_protection.yaml", r.region, c)
            for r in knowledge.data_protection.regions
            for c in r.countries
        ),
        *(("export_control.yaml", e.name, e.country) for e in knowledge.export_control.restricted_countries),
        *(
            ("data_protection.yaml", e.law, e.country)
            for e in knowledge.data_protection.extraterritorial_access
        ),
        *(("providers.yaml", p.id, p.parent.country) for p in knowledge.providers.providers if p.parent),
        *(("cost_defaults.yaml", c.country, c.country) for c in knowledge.cost_defaults.countries),
        ("cost_defaults.yaml", "fallback", knowledge.cost_defaults.fallback),
        *(
            ("cost_defaults.yaml", f"tax {t.country}", t.country)
            for t in knowledge.cost_defaults.depreciation.tax
        ),
        *(
            ("providers.yaml", f"{p.id}/{r.id}", c)
            for p in knowledge.providers.providers
            for r in p.regions
            for c in r.countries
        ),
        *(("api_prices.yaml", a.id, c) for a in knowledge.api_prices.apis for c in a.countries),
        *(("vat_rates.yaml", r.country, r.country) for r in knowledge.vat_rates.rates),
        (
            "workload_defaults.yaml",
            "company_country",
            str(knowledge.workload_default_values()["company_country"]),
        ),
    ]
    return [
        f"{directory / file}: entry {entry!r}: country {code!r} is not in countries.yaml"
        for file, entry, code in named
        if not knowledge.is_country(code)
    ]


def vat_rate_problems(knowledge: Knowledge, directory: Path) -> list[str]:
    """No rate applied in the shipped file: the evaluation of a workload that cannot recover input VAT
    sets it on its copy (``gross_prices.with_vat``)."""
    if knowledge.vat_rates.applied is not None:
        return [f"{directory / 'vat_rates.yaml'}: field applied: set for one evaluation only"]
    return []
