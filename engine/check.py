"""Judging a concrete proposal: what someone intends to do for a workload, checked by every applicable rule.

A proposal file holds one or many documents, each a workload, a proposal (deployment, provider and
offer, GPU and count, pricing, region, or servers to buy) and optional waivers. The workload is evaluated
as for ``recommend``; then a ``proposal`` fact is asserted into the same engine session, where the
proposal checks (rules of fact kind ``proposal``) fire. Each check that applies gives ``pass``, ``warn``,
``fail`` or ``unknown`` (the proposal leaves out a fact the check needs), with the evidence it read.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .adapter import Evaluator, Firing
from .advisor import Evaluation, evaluate
from .costs import ServerAssumptions, node_busy_share, own_hardware_cost, rent
from .errors import InputError, unknown_value_message
from .facts import ProposalFact
from .findings import cite, render_rule_message
from .knowledge import Knowledge, Offer, OwnServer, load_knowledge
from .options import regional_price
from .result import Decision, ResultModel
from .rulebook import Deployment, PricingKind, Rule
from .text import render
from .workload import (
    Workload,
    input_error,
    load_yaml,
    read_input_text,
    validate_workload,
)

CHECK_SCHEMA_VERSION = 1
Status = Literal["pass", "warn", "fail", "unknown"]
RENTAL_DEPLOYMENTS = ("dedicated_cloud", "hybrid")
CLOUD_HOSTED_DEPLOYMENTS = (*RENTAL_DEPLOYMENTS, "serverless")
SELF_MANAGED_PROVIDER_KINDS = ("neocloud", "marketplace")
JURISDICTIONS = ("EU", "US", "UK", "CH")


class StrictInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ProposalInput(StrictInput):
    """What someone intends to do. Leave out what is not decided; checks that need it report 'unknown'."""

    name: str | None = Field(default=None, max_length=200)
    deployment: Deployment
    provider: str | None = None
    offer: str | None = None
    gpu: str | None = None
    gpus: int | None = Field(default=None, gt=0, le=100_000)
    """Cards in all (replicas x cards per replica)."""
    pricing: PricingKind | None = None
    region: str | None = None
    """A region ID of the provider (eu-central-1) or a jurisdiction (EU, US, UK, CH)."""
    server: str | None = None
    """Own hardware: the server type to buy (knowledge/own_hardware.yaml); default the catalog's."""
    servers: int | None = Field(default=None, gt=0, le=10_000)


class Waiver(StrictInput):
    rule: str
    reason: str = Field(min_length=1)

    @field_validator("reason")
    @classmethod
    def _reason_is_written(cls, reason: str) -> str:
        if not reason.strip():
            raise ValueError("a waiver needs a written reason")
        return reason


class ProposalDocument(StrictInput):
    workload: dict[str, Any]
    proposal: ProposalInput
    waivers: list[Waiver] = Field(default_factory=list)


class CheckItem(ResultModel):
    rule_id: str
    name: str
    topic: str
    severity: str
    origin: Literal["builtin", "organization"]
    status: Status
    title: str
    message: str
    evidence: dict[str, Any]
    """The proposal facts the check read, with their values."""
    knowledge: tuple[str, ...]
    """Knowledge entries behind the verdict: thresholds and prices, with their dates."""
    source: str
    waived: bool
    waiver_reason: str | None


class CheckResult(ResultModel):
    schema_version: int = CHECK_SCHEMA_VERSION
    file: str
    index: int
    """Position of the proposal in its file, from 1."""
    name: str
    evaluated_on: dt.date
    proposal: ProposalInput
    recommendation: Decision
    status: Status
    """fail if any check failed (waived ones do not count), else warn, else unknown, else pass."""
    counts: dict[str, int]
    results: tuple[CheckItem, ...]


# --- reading proposal files --------------------------------------------------------------------------


def read_proposal_documents(path: str) -> list[tuple[int, ProposalDocument]]:
    """The proposals of a file (YAML or JSON; one mapping, a list, or a mapping with 'proposals')."""
    data = load_yaml(read_input_text(path), path)
    if isinstance(data, dict) and set(data) == {"proposals"}:
        data = data["proposals"]
    documents = data if isinstance(data, list) else [data]
    if not documents:
        raise InputError(f"{path}: no proposal in the file")
    parsed = []
    for index, document in enumerate(documents, start=1):
        origin = f"{path} (proposal {index})"
        if not isinstance(document, dict):
            raise InputError(f"{origin}: a proposal is a mapping with workload and proposal")
        try:
            parsed.append((index, ProposalDocument.model_validate(document)))
        except ValidationError as error:
            raise input_error(origin, error, ProposalDocument, "proposal") from None
    return parsed


# --- the proposal fact -------------------------------------------------------------------------------


def validate_references(proposal: ProposalInput, knowledge: Knowledge, origin: str) -> None:
    """Names in the proposal must exist in the catalog; a typo is an input error, not a silent 'unknown'."""
    checks = [
        ("proposal.provider", proposal.provider, [p.id for p in knowledge.providers.providers]),
        ("proposal.gpu", proposal.gpu, [g.id for g in knowledge.gpus.gpus]),
        ("proposal.server", proposal.server, [s.id for s in knowledge.own_hardware.servers]),
    ]
    for field, value, allowed in checks:
        if value is not None and value not in allowed:
            raise InputError(f"{origin}: {unknown_value_message(field, value, allowed)}", field=field)
    if proposal.region is not None and proposal.region not in JURISDICTIONS:
        regions = {r.id for p in knowledge.providers.providers for r in p.regions}
        if proposal.provider is not None:
            regions = {r.id for r in knowledge.provider(proposal.provider).regions}
        if proposal.region not in regions:
            allowed = sorted(regions) + list(JURISDICTIONS)
            raise InputError(
                f"{origin}: {unknown_value_message('proposal.region', proposal.region, allowed)}",
                field="proposal.region",
            )
    if proposal.region in JURISDICTIONS and proposal.provider is not None:
        # A jurisdiction the provider has no region in cannot be where it runs: checking the proposal as
        # if it did would pass a residency rule on a promise the provider cannot keep. Marketplaces with
        # variable locations (jurisdiction unknown) are left to the residency rules.
        served = sorted({r.jurisdiction for r in knowledge.provider(proposal.provider).regions})
        if served and "unknown" not in served and proposal.region not in served:
            raise InputError(
                f"{origin}: proposal.region: {proposal.provider} has no region in {proposal.region}; "
                f"its regions are in {', '.join(served)}",
                field="proposal.region",
            )


def catalog_offer(proposal: ProposalInput, knowledge: Knowledge) -> Offer | None:
    for offer in knowledge.offers.offers:
        if (offer.provider, offer.offer) == (proposal.provider, proposal.offer) and proposal.gpu in (
            None,
            offer.gpu,
        ):
            return offer
    return None


def proposal_jurisdictions(
    proposal: ProposalInput, offer: Offer | None, knowledge: Knowledge
) -> tuple[str, ...]:
    """The jurisdictions the proposal may run in: the one its region names, else every jurisdiction of
    its offer's (or provider's) regions; empty when the proposal names none of these."""
    if proposal.region in JURISDICTIONS:
        return (proposal.region,)
    providers = (
        [knowledge.provider(proposal.provider)] if proposal.provider else list(knowledge.providers.providers)
    )
    if proposal.region is not None:
        for provider in providers:
            for region in provider.regions:
                if region.id == proposal.region:
                    return (region.jurisdiction,)
    if offer is not None:
        return tuple(knowledge.offer_regions_by_jurisdiction(offer))
    if proposal.provider is not None:
        return tuple(sorted({region.jurisdiction for region in providers[0].regions}))
    return ()


def own_server_for(proposal: ProposalInput, evaluation: Evaluation) -> OwnServer:
    knowledge = evaluation.knowledge
    if proposal.server is not None:
        return knowledge.own_server(proposal.server)
    if proposal.gpu is not None:
        for server in knowledge.own_hardware.servers:
            if server.gpu == proposal.gpu:
                return server
    return evaluation.server


def proposal_fact(proposal: ProposalInput, evaluation: Evaluation) -> ProposalFact:
    knowledge = evaluation.knowledge
    resolved = evaluation.resolved
    buying = proposal.deployment == "own_hardware"
    rental = proposal.deployment in RENTAL_DEPLOYMENTS
    offer = catalog_offer(proposal, knowledge)
    server = own_server_for(proposal, evaluation) if buying else None
    gpu = proposal.gpu or (offer.gpu if offer else None) or (server.gpu if server else None)
    gpus = proposal.gpus
    if gpus is None and buying and server is not None and proposal.servers is not None:
        gpus = proposal.servers * server.gpus_per_server
    fit = next((f for f in evaluation.figures.fits if f.gpu == gpu), None)
    per_replica = fit.gpus_with_kv_reserve if fit else None
    if per_replica is not None and gpus is not None:
        per_replica = min(per_replica, gpus)
    plan = evaluation.plans.get(gpu) if gpu else None
    pricing = proposal.pricing or (offer.pricing if offer else None)
    jurisdictions = proposal_jurisdictions(proposal, offer, knowledge)
    # EU or not is known when every possible jurisdiction agrees (all EU, or none EU).
    eu_known = bool(jurisdictions) and (set(jurisdictions) == {"EU"} or "EU" not in jurisdictions)
    jurisdiction = jurisdictions[0] if len(jurisdictions) == 1 else None
    provider = knowledge.provider(proposal.provider) if proposal.provider else None

    ruled_out_by = [
        rule.id
        for rule in evaluation.rules
        if rule.then.rule_out is not None and proposal.deployment in rule.then.rule_out.deployments
    ]
    usd_per_month, cost_known = proposal_cost(proposal, evaluation, offer, jurisdiction, gpus, server)
    servers = proposal.servers or (math.ceil((gpus or 0) / server.gpus_per_server) if server and gpus else 0)
    needed = plan.gpus if plan else 0
    node_cards = servers * server.gpus_per_server if server else 0
    utilization = resolved.utilization or 0.0
    node_utilization = (
        node_busy_share(needed, utilization, resolved.hours_per_month, node_cards, server) if server else 0.0
    )

    return ProposalFact(
        deployment=proposal.deployment,
        recommended_deployment=evaluation.decision.deployment,
        deployment_differs=proposal.deployment != evaluation.decision.deployment,
        deployment_ruled_out=bool(ruled_out_by) and proposal.deployment != evaluation.decision.deployment,
        ruled_out_by=", ".join(ruled_out_by),
        rental=rental,
        cloud_hosted=proposal.deployment in CLOUD_HOSTED_DEPLOYMENTS,
        buying=buying,
        gpu=gpu or "",
        gpu_known=gpu is not None,
        gpus=gpus or 0,
        gpus_known=gpus is not None,
        gpu_fits=fit is not None and fit.gpus_with_kv_reserve is not None,
        gpu_interconnect=knowledge.gpu(gpu).interconnect if gpu else "",
        multi_card=per_replica is not None and per_replica > 1,
        gpu_unsuitable=bool(gpu and gpu in evaluation.unsuitable),
        unsuitable_by=", ".join(evaluation.unsuitable.get(gpu or "", [])),
        gpus_for_weights=(fit.gpus_for_weights or 0) if fit else 0,
        gpus_needed=needed,
        pricing=pricing or "",
        pricing_known=pricing is not None,
        region=proposal.region or "/".join(jurisdictions),
        region_known=eu_known,
        eu=eu_known and jurisdictions[0] == "EU",
        provider=proposal.provider or "",
        provider_known=provider is not None,
        provider_kind=provider.kind if provider else "",
        provider_self_managed=provider is not None and provider.kind in SELF_MANAGED_PROVIDER_KINDS,
        enterprise_sla=provider.enterprise_sla if provider else False,
        offer_known=offer is not None,
        usd_per_month=float(usd_per_month),
        cost_known=cost_known,
        servers=servers,
        server_gpus=server.gpus_per_server if server else 0,
        node_utilization=float(node_utilization),
        node_has_idle_gpus=bool(server and needed < node_cards),
        load_pattern=resolved.load_pattern,
        personal_data=resolved.personal_data,
        on_premises_required=resolved.on_premises_required,
        latency_sensitive=resolved.latency_sensitive,
        business_critical=resolved.business_critical,
        devops_capacity=resolved.devops_capacity,
        export_restricted_country=knowledge.export_restricted(resolved.company_country),
        company_country=resolved.company_country,
    )


def proposal_cost(
    proposal: ProposalInput,
    evaluation: Evaluation,
    offer: Offer | None,
    jurisdiction: str | None,
    gpus: int | None,
    server: OwnServer | None,
) -> tuple[float, bool]:
    """Monthly cost of what is proposed, where the catalog can price it."""
    knowledge = evaluation.knowledge
    if proposal.deployment == "own_hardware" and server is not None and (proposal.servers or gpus):
        servers = proposal.servers or math.ceil((gpus or 0) / server.gpus_per_server)
        return servers * own_hardware_cost(ServerAssumptions.from_server(server)).server_usd_per_month, True
    if offer is not None and gpus is not None:
        price, _ = regional_price(offer, jurisdiction or offer.price_jurisdiction, knowledge)
        calendar = knowledge.calendar_hours_per_month()
        return rent(offer, gpus, evaluation.resolved.hours_per_month, calendar, price).usd_per_month, True
    return 0.0, False


# --- results -----------------------------------------------------------------------------------------


def check_items(
    fact: ProposalFact, firings: list[Firing], evaluation: Evaluation, waivers: list[Waiver]
) -> tuple[CheckItem, ...]:
    applicable = {f.rule_id for f in firings if f.applicability}
    violated = {f.rule_id for f in firings if not f.applicability}
    waived = {w.rule: w.reason for w in waivers}
    data = fact.model_dump(mode="json")
    items = []
    for rule in evaluation.rulebook.rules:
        if not rule.is_check or rule.id not in applicable:
            continue
        missing = [name for name in rule.needs if not data[f"{name}_known"]]
        if missing:
            status: Status = "unknown"
        elif rule.id in violated:
            status = rule.then.verdict  # type: ignore[assignment]
        else:
            status = "pass"
        items.append(check_item(rule, status, missing, data, evaluation, waived.get(rule.id)))
    return tuple(items)


def check_item(
    rule: Rule,
    status: Status,
    missing: list[str],
    data: dict[str, Any],
    evaluation: Evaluation,
    waiver_reason: str | None,
) -> CheckItem:
    knowledge, rulebook = evaluation.knowledge, evaluation.rulebook
    read = dict.fromkeys(
        [c.fact for c in (*rule.applies, *rule.when)] + [c.other_fact for c in rule.when if c.other_fact]
    )
    evidence = {name: data[name] for name in read if name is not None}
    thresholds = rulebook.threshold_values(knowledge)
    entries = [
        f"thresholds: {key} = {thresholds[key]:g} ({threshold_date(key, evaluation)})"
        for key in dict.fromkeys(rule.threshold_keys)
    ]
    offer = next(
        (
            o
            for o in knowledge.offers.offers
            if (o.provider, o.gpu) == (data["provider"], data["gpu"]) and data["offer_known"]
        ),
        None,
    )
    if offer is not None and rule.topic in ("pricing", "residency", "provider", "knowledge"):
        entries.append(
            f"offers: {offer.key} at {offer.usd_per_gpu_hour:g} USD per GPU-hour ({offer.as_of.isoformat()})"
        )
    if status in ("fail", "warn"):
        message = render_rule_message(rule, data, knowledge, rulebook)
    else:
        message = " ".join(render("check_message.txt.j2", rule=rule, status=status, missing=missing).split())
    return CheckItem(
        rule_id=rule.id,
        name=rule.name,
        topic=rule.topic,
        severity=rule.severity,
        origin=rulebook.origin(rule.id),
        status=status,
        title=rule.title,
        message=message,
        evidence=evidence,
        knowledge=tuple(entries),
        source=cite(rule.source, knowledge),
        waived=waiver_reason is not None and status in ("fail", "warn"),
        waiver_reason=waiver_reason,
    )


def threshold_date(key: str, evaluation: Evaluation) -> str:
    for threshold in (*evaluation.knowledge.thresholds.thresholds, *evaluation.rulebook.thresholds):
        if threshold.key == key:
            return threshold.as_of.isoformat()
    return "?"


def overall_status(items: tuple[CheckItem, ...]) -> Status:
    counted = [item.status for item in items if not item.waived]
    for status in ("fail", "warn", "unknown"):
        if status in counted:
            return status  # type: ignore[return-value]
    return "pass"


def check_document(
    document: ProposalDocument,
    file: str,
    index: int,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    policy_dir: str | None = None,
) -> CheckResult:
    knowledge = load_knowledge()
    origin = f"{file} (proposal {index})"
    workload: Workload = validate_workload(document.workload, f"{origin}: workload")
    validate_references(document.proposal, knowledge, origin)
    built: list[ProposalFact] = []

    def build(evaluation: Evaluation) -> ProposalFact:
        built.append(proposal_fact(document.proposal, evaluation))
        return built[0]

    recommendation, firings, evaluation = evaluate(
        workload, evaluated_on, evaluator, knowledge, policy_dir, proposal=build
    )
    rule_ids = set(evaluation.rulebook.ids)
    for waiver in document.waivers:
        if waiver.rule not in rule_ids:
            raise InputError(
                f"{origin}: {unknown_value_message('waivers.rule', waiver.rule, sorted(rule_ids))}"
            )
    items = check_items(built[0], firings, evaluation, document.waivers)
    counts = {
        status: sum(item.status == status for item in items) for status in ("pass", "warn", "fail", "unknown")
    }
    counts["waived"] = sum(item.waived for item in items)
    return CheckResult(
        file=file,
        index=index,
        name=document.proposal.name or f"{workload.name} ({document.proposal.deployment})",
        evaluated_on=evaluated_on,
        proposal=document.proposal,
        recommendation=recommendation.decision,
        status=overall_status(items),
        counts=counts,
        results=items,
    )


def check_file(
    path: str, evaluated_on: dt.date, evaluator: Evaluator | None = None, policy_dir: str | None = None
) -> list[CheckResult]:
    return [
        check_document(document, path, index, evaluated_on, evaluator, policy_dir)
        for index, document in read_proposal_documents(path)
    ]
