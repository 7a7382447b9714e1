"""Judging a concrete proposal: what someone intends to do for a workload, checked by every applicable rule.

A proposal file holds one or many documents, each a workload, a proposal (deployment, provider and
offer, GPU and count, pricing, region, or servers to buy) and optional waivers. The workload is evaluated
as for ``recommend``; then a ``proposal`` fact is asserted, with the workload's facts, into a session of
its own, where the proposal checks (rules of fact kind ``proposal``) fire. Each check that applies gives
``pass``, ``warn``, ``fail`` or ``unknown`` (the proposal leaves out a fact the check needs), with the
evidence it read.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import ValidationError

from gpu_advisor.engine.apps.check.proposal_facts import proposal_fact, validate_references
from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.common.errors import InputError, unknown_value_message
from gpu_advisor.engine.common.user_input import load_yaml, read_input_text
from gpu_advisor.engine.domain.input_errors import input_error
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite_all
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.proposal import CheckItem, CheckResult, ProposalDocument, Status, Waiver
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.environment import render
from gpu_advisor.engine.pipeline.engines import rules_engine
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.report.findings import render_rule_message
from gpu_advisor.engine.rulebook.details import ProposalDetails
from gpu_advisor.engine.rulebook.durable import Evaluator, Firing
from gpu_advisor.engine.rulebook.facts import ProposalFact
from gpu_advisor.engine.rulebook.guards import effective_needs, fields_read
from gpu_advisor.engine.rulebook.schema import Rule


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


LOCATION_FACTS = frozenset({"eu", "region", "jurisdiction", "jurisdiction_excluded"})
"""Proposal facts about where it runs: a check that reads one shows the region, its jurisdictions and
their countries in its evidence."""


def check_items(
    fact: ProposalFact,
    details: ProposalDetails,
    firings: list[Firing],
    evaluation: Evaluation,
    waivers: list[Waiver],
) -> tuple[CheckItem, ...]:
    applicable = {f.rule_id for f in firings if f.applicability}
    violated = {f.rule_id for f in firings if not f.applicability}
    waived = {w.rule: w.reason for w in waivers}
    data = {**evaluation.facts.model_dump(mode="json"), **fact.model_dump(mode="json")}
    items = []
    for rule in evaluation.rulebook.rules:
        if not rule.is_check or rule.id not in applicable:
            continue
        missing = [name for name in effective_needs(rule) if not data[f"{name}_known"]]
        if missing:
            status: Status = "unknown"
        elif rule.id in violated:
            status = rule.then.verdict  # type: ignore[assignment]
        else:
            status = "pass"
        items.append(check_item(rule, status, missing, data, details, evaluation, waived.get(rule.id)))
    return tuple(items)


def check_item(
    rule: Rule,
    status: Status,
    missing: list[str],
    data: dict[str, Any],
    details: ProposalDetails,
    evaluation: Evaluation,
    waiver_reason: str | None,
) -> CheckItem:
    knowledge, rulebook = evaluation.knowledge, evaluation.rulebook
    evidence = {name: data[name] for name in fields_read(rule.applies + rule.when)}
    if LOCATION_FACTS & evidence.keys() and data["region"]:
        # Where the proposal runs, down to the countries of its regions, beside the check's verdict on it.
        evidence.update({name: data[name] for name in ("region", "jurisdiction", "countries")})
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
        message = render_rule_message(rule, data, knowledge, rulebook, details=details)
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
        source=cite_all(rule.citations, knowledge),
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
    statuses: tuple[Status, ...] = ("fail", "warn", "unknown")
    return next((status for status in statuses if status in counted), "pass")


def check_document(
    document: ProposalDocument,
    file: str,
    index: int,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    policy_dir: str | None = None,
    knowledge: Knowledge | None = None,
) -> CheckResult:
    knowledge = knowledge or load_knowledge()
    origin = f"{file} (proposal {index})"
    workload = validate_workload(document.workload, f"{origin}: workload")
    validate_references(document.proposal, knowledge, origin)
    evaluation = evaluate_workload(workload, evaluated_on, evaluator, knowledge, policy_dir)
    rule_ids = set(evaluation.rulebook.ids)
    for waiver in document.waivers:
        if waiver.rule not in rule_ids:
            raise InputError(
                f"{origin}: {unknown_value_message('waivers.rule', waiver.rule, sorted(rule_ids))}"
            )
    fact, details = proposal_fact(document.proposal, evaluation)
    with (evaluator or rules_engine(policy_dir)).session() as session:
        firings = session.assert_fact(fact, evaluation.facts)
    items = check_items(fact, details, firings, evaluation, document.waivers)
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
        recommendation=evaluation.decision,
        status=overall_status(items),
        counts=counts,
        results=items,
    )


def check_file(
    path: str,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    policy_dir: str | None = None,
    knowledge: Knowledge | None = None,
) -> list[CheckResult]:
    return [
        check_document(document, path, index, evaluated_on, evaluator, policy_dir, knowledge)
        for index, document in read_proposal_documents(path)
    ]
