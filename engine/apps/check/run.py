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

from gpu_advisor.engine.apps.check.files import proposal_origin, proposals_under
from gpu_advisor.engine.apps.check.gating import counts, overall
from gpu_advisor.engine.apps.check.peak_part import merged, peak_part
from gpu_advisor.engine.apps.check.proposal_facts import own_server_for, proposal_fact
from gpu_advisor.engine.apps.check.references import bought_cards, validate_references
from gpu_advisor.engine.apps.check.robustness import proposal_robustness, proposal_win_share
from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.calc.latency import UNBOUNDED_MS
from gpu_advisor.engine.common.errors import InputError, unknown_value_problem
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.fleets import MixedFleetBilling
from gpu_advisor.engine.domain.input_errors import prefixed, problems_error, words_problem
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite_all
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.proposal import (
    CheckItem,
    CheckResult,
    ProposalDocument,
    ProposedApi,
    Status,
    Waiver,
)
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.environment import render
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.pipeline.engines import rules_engine
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.report.findings import render_rule_message
from gpu_advisor.engine.report.recommendation import purchases_vat
from gpu_advisor.engine.rulebook.durable import Evaluator, Firing
from gpu_advisor.engine.rulebook.facts import ProposalFact, guards
from gpu_advisor.engine.rulebook.guards import effective_needs, fields_read
from gpu_advisor.engine.rulebook.proposal_details import ProposalDetails
from gpu_advisor.engine.rulebook.schema import Rule
from gpu_advisor.engine.rulebook.texts import rule_text

LOCATION_FACTS = frozenset({"eu", "region", "jurisdiction", "jurisdiction_excluded", "api_excluded"})
"""Proposal facts about where it runs: a check that reads one shows the region, its jurisdictions and
their countries in its evidence."""


def check_items(
    fact: ProposalFact,
    details: ProposalDetails,
    firings: list[Firing],
    evaluation: Evaluation,
    waivers: list[Waiver],
    fmt: Format = DEFAULT_FORMAT,
) -> tuple[CheckItem, ...]:
    applicable = {f.rule_id for f in firings if f.applicability}
    violated = {f.rule_id for f in firings if not f.applicability}
    waived = {w.rule: w for w in waivers}
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
        items.append(check_item(rule, status, missing, data, details, evaluation, waived.get(rule.id), fmt))
    return tuple(items)


def check_item(
    rule: Rule,
    status: Status,
    missing: list[str],
    data: dict[str, Any],
    details: ProposalDetails,
    evaluation: Evaluation,
    waiver: Waiver | None,
    fmt: Format = DEFAULT_FORMAT,
) -> CheckItem:
    knowledge, rulebook = evaluation.knowledge, evaluation.rulebook
    title = rule_text(rule, fmt.lang).title
    guarded = guards(rule.fact)
    # A figure whose guard is among the missing facts is a placeholder (a cost share of 0 for a proposal
    # with no price): an unknown result gives no evidence of it.
    evidence = {
        name: data[name]
        for name in fields_read(rule.applies + rule.when)
        if not any(guard.removesuffix("_known") in missing for guard in guarded.get(name, ()))
    }
    unbounded = [name for name, value in evidence.items() if value == UNBOUNDED_MS]
    if unbounded:
        # A wait that grows without bound is compared as UNBOUNDED_MS; the evidence gives no figure for
        # it (null) and says why: all the proposed replicas (an intact figure) or those left after a loss
        # cannot carry the peak.
        overloaded = {
            "peak_overloads_intact" if name.endswith("_intact_ms") else "peak_overloads_replicas"
            for name in unbounded
        }
        evidence.update(dict.fromkeys(unbounded), **dict.fromkeys(overloaded, True))
    if LOCATION_FACTS & evidence.keys() and data["region"]:
        # Where the proposal runs, down to the countries of its regions, beside the check's verdict on it.
        evidence.update({name: data[name] for name in ("region", "jurisdiction", "countries")})
    thresholds = rulebook.threshold_values(knowledge)
    entries = [
        f"thresholds: {key} = {thresholds[key]:g} ({threshold_date(key, evaluation)})"
        for key in dict.fromkeys(rule.threshold_keys)
    ]
    # The offer the proposal (or its busier hours' part) names, not the first of its provider's GPU.
    offer = knowledge.offer(data["provider"], details.offer, data["gpu"]) if data["offer_known"] else None
    if offer is not None and rule.topic in ("pricing", "residency", "provider", "knowledge"):
        vat = knowledge.vat_rates.applied
        with_vat = f" with {vat.rate * 100:g} % VAT" if vat is not None else ""
        entries.append(
            f"offers: {offer.key} at {offer.usd_per_gpu_hour:g} USD per GPU-hour{with_vat} "
            f"({offer.as_of.isoformat()})"
        )
    if status in ("fail", "warn"):
        message = render_rule_message(rule, data, knowledge, rulebook, fmt, details=details)
    else:
        message = " ".join(
            render(
                "check_message.txt.j2",
                fmt,
                title=title,
                status=status,
                missing=missing,
                api_named=data["api_named"],
                unknown_offer=data["rental"] and not data["offer_known"] and bool(details.offer),
                unpriced=details.unpriced,
                buying=data["deployment"] == "own_hardware",
                gpu_given=data["gpu_known"],
                # Why a latency is missing where the proposal gives its cards: too few for a replica.
                no_replica=data["gpus_known"] and data["gpus"] < data["memory_cards_per_replica"],
            ).split()
        )
    return CheckItem(
        rule_id=rule.id,
        name=rule.name,
        topic=rule.topic,
        severity=rule.severity,
        origin=rulebook.origin(rule.id),
        status=status,
        title=title,
        message=message,
        evidence=evidence,
        knowledge=tuple(entries),
        source=cite_all(rule.citations, knowledge),
        waived=waiver is not None and status in ("fail", "warn"),
        waiver_reason=waiver.reason if waiver else None,
        waiver_owner=waiver.owner if waiver else None,
        waiver_until=waiver.until if waiver else None,
    )


def threshold_date(key: str, evaluation: Evaluation) -> str:
    for threshold in (*evaluation.knowledge.thresholds.thresholds, *evaluation.rulebook.thresholds):
        if threshold.key == key:
            return threshold.as_of.isoformat()
    return "?"


def active_waivers(waivers: list[Waiver], evaluated_on: dt.date) -> tuple[list[Waiver], list[Waiver]]:
    """The waivers that hold on the day of the evaluation (``until`` is the last day), and those past
    their end date."""
    active = [w for w in waivers if w.until is None or w.until >= evaluated_on]
    return active, [w for w in waivers if w not in active]


def waiver_facts(waivers: list[Waiver], expired: list[Waiver]) -> tuple[dict[str, bool], str]:
    """The proposal facts about its waivers (KNB006 reads them), and the expired ones for the message."""
    facts = {"waivers_dated": any(w.until is not None for w in waivers), "waiver_expired": bool(expired)}
    named = "; ".join(f"{w.rule} ({w.until}, {w.owner or '-'})" for w in expired)
    return facts, named


def check_document(
    document: ProposalDocument,
    file: str,
    index: int,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    policy_dir: str | None = None,
    knowledge: Knowledge | None = None,
    line: int = 1,
    fmt: Format = DEFAULT_FORMAT,
    scenarios: int | None = None,
    seed: int = 1,
) -> CheckResult:
    """``scenarios``: also draw the workload's scenarios and state how often the proposal is their
    decision (``robustness.py``)."""
    knowledge = knowledge or load_knowledge()
    origin = proposal_origin(file, index)
    where = Words.joined("%(origin)s: workload", origin=origin)
    workload = validate_workload(document.workload, where)
    validate_references(document.proposal, knowledge, origin)
    try:
        evaluation = evaluate_workload(workload, evaluated_on, evaluator, knowledge, policy_dir)
    except InputError as error:
        # A value the knowledge base refuses (a country it does not list, a context beyond the model's) is
        # found while evaluating: named with the proposal's file and workload, as the reader's errors are.
        if error.origin is not None:
            raise
        raise prefixed(error, where, error.field) from None
    bought_cards(document.proposal, own_server_for(document.proposal, evaluation), origin)
    refuse_waivers_of_no_check(document.waivers, evaluation, origin)
    fact, details, peak, jurisdiction, place, api, billed = proposal_fact(
        document.proposal, evaluation, fmt.lang
    )
    active, expired = active_waivers(document.waivers, evaluated_on)
    facts, named = waiver_facts(document.waivers, expired)
    if scenarios is not None:
        robustness = proposal_robustness(
            document.workload,
            workload,
            evaluation,
            policy_dir,
            scenarios,
            seed,
            Words.joined("%(origin)s: workload", origin=origin),
        )
        share = proposal_win_share(document.proposal, robustness)
        fact = fact.model_copy(update={"robustness_known": True, "proposal_win_share": share})
    fact = fact.model_copy(update=facts)
    details = details.model_copy(update={"expired_waivers": named})
    engine = evaluator or rules_engine(policy_dir)
    with engine.session() as session:
        firings = session.assert_fact(fact, evaluation.facts)
    items = check_items(fact, details, firings, evaluation, active, fmt)
    part = peak_part(document.proposal, peak, jurisdiction, fact, details, evaluation, fmt.lang)
    if part is not None:
        # The busier hours' offer is judged in a session of its own, as a proposal of its own.
        with engine.session() as session:
            peak_firings = session.assert_fact(part.fact, evaluation.facts)
        peak_items = check_items(part.fact, part.details, peak_firings, evaluation, active, fmt)
        order = [rule.id for rule in evaluation.rulebook.rules]
        items = merged(items, peak_items, part.proposal, order, fmt)
    return CheckResult(
        file=file,
        index=index,
        line=line,
        name=document.proposal.name or f"{workload.name} ({document.proposal.deployment})",
        evaluated_on=evaluated_on,
        workload=evaluation.workload,
        proposal=document.proposal,
        usd_per_month=round(fact.usd_per_month, 2) if fact.cost_known else None,
        unpriced="" if fact.cost_known else details.unpriced,
        billed_hours_per_month=details.hours_billed if fact.cost_known and details.hours_billed else None,
        location=place,
        api=ProposedApi(api=api.api, name=api.name, provider=api.provider, batch=api.batch) if api else None,
        serverless=billed,
        recommendation=evaluation.decision,
        purchases_vat=purchases_vat(evaluation.knowledge),
        recommended_fleet=recommended_fleet(evaluation),
        status=overall(items),
        counts=counts(items),
        results=items,
    )


def recommended_fleet(evaluation: Evaluation) -> MixedFleetBilling | None:
    """The mixed fleet the recommendation is, as the memo names it: where the decision is hybrid and the
    fleet was chosen."""
    fleet = evaluation.mixed_fleet
    if evaluation.decision.deployment != "hybrid" or fleet is None or not fleet.chosen:
        return None
    return fleet.fleet


def check_file(
    path: str,
    evaluated_on: dt.date,
    evaluator: Evaluator | None = None,
    policy_dir: str | None = None,
    knowledge: Knowledge | None = None,
    fmt: Format = DEFAULT_FORMAT,
    scenarios: int | None = None,
    seed: int = 1,
) -> list[CheckResult]:
    """Every proposal of a file, or of every proposal file under a directory (in path order); ``fmt``
    sets the language and currency of the results' titles and messages."""
    return [
        check_document(
            document, file, index, evaluated_on, evaluator, policy_dir, knowledge, line, fmt, scenarios, seed
        )
        for file, index, line, document in proposals_under(path)
    ]


def refuse_waivers_of_no_check(waivers: list[Waiver], evaluation: Evaluation, origin: Words) -> None:
    """Only a check (a rule on the proposal) has an outcome to waive; a decision rule (DEP006) has none, and
    an unknown ID none either. Every waiver that names no check is refused, in one error: one alone as
    before, several listed one a line, as the validation's problems are."""
    checks = sorted(rule.id for rule in evaluation.rulebook.rules if rule.fact == "proposal")
    refused: list[tuple[str, Words]] = [
        # Named as the validation's problems are (waivers.1.until): the list's place, counted from 0.
        (
            f"waivers.{position}.rule",
            not_a_check(waiver.rule, checks)
            if waiver.rule in evaluation.rulebook.ids
            else unknown_value_problem(waiver.rule, checks),
        )
        for position, waiver in enumerate(waivers)
        if waiver.rule not in checks
    ]
    if len(refused) == 1:
        ((field, problem),) = refused
        raise InputError(
            at(origin, Words.joined("%(field)s: %(problem)s", field=field, problem=problem)), field=field
        )
    if refused:
        raise problems_error(
            origin, [words_problem(field, problem) for field, problem in refused], "proposal"
        )


def not_a_check(rule_id: str, checks: list[str]) -> Words:
    return Words(
        "%(rule)s is a rule of the decision, not a check: it has no outcome to waive; the checks are "
        "%(checks)s",
        rule=rule_id,
        checks=", ".join(checks),
    )
