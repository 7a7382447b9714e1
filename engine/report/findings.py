"""Findings: a fired rule rendered with the numbers of the fact it fired on, plus its citation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jinja2

from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.errors import InputError, KnowledgeError
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.choices import Deployment
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite_all
from gpu_advisor.engine.domain.results import Finding
from gpu_advisor.engine.i18n.environment import (
    message_names,
    message_template,
    render_compiled_message,
    say,
)
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.rulebook.details import Details
from gpu_advisor.engine.rulebook.durable import Firing
from gpu_advisor.engine.rulebook.schema import Conclusion, Rule, Rulebook, route_spoken_of
from gpu_advisor.engine.rulebook.texts import rule_text


@dataclass(frozen=True)
class RuleFinding:
    """What every finding of one rule shares in one language: all but the message's numbers."""

    rule_id: str
    per_gpu: bool
    """The rule fires once per GPU (on gpu_fit facts): its findings name the GPU as their subject."""
    about_its_gpu: bool
    """What the finding says holds for its GPU only (a gpu_fit fact), not for the workload: a
    latency_fit rule names the fastest GPU, but what it says holds for every GPU."""
    about_route: str | None
    """``Rule.about_route``: the one route the message speaks of."""
    topic: str
    severity: str
    title: str
    rationale: str
    source: str
    origin: str
    lang: str
    message_source: str

    @property
    def template(self) -> jinja2.Template:
        """Compiled on first use (once per process and language): compiling every rule's message up
        front would cost a one-off command more than it renders."""
        return message_template(self.lang, self.message_source, self.origin == "organization")

    @property
    def names(self) -> tuple[str, ...]:
        """The names the message reads (``message_names``)."""
        return message_names(self.lang, self.message_source, self.origin == "organization")


@dataclass(frozen=True)
class FindingTexts:
    """Every rule's shared parts in one language, and what every message sees besides its fact."""

    rules: dict[str, RuleFinding]
    order: dict[str, int]
    """Rule ID -> position in the catalog: findings are listed in catalog order."""
    references: dict[str, Any]
    """Thresholds as ``t`` and knowledge as ``k``: they win over a fact field of the same name."""


@per_object
def finding_texts(rulebook: Rulebook, knowledge: Knowledge, lang: str) -> FindingTexts:
    """The rules' shared finding parts, worked out once per rulebook, knowledge base and language (the
    same for every workload)."""
    rules = {}
    for rule in rulebook.rules:
        text = rule_text(rule, lang)
        rules[rule.id] = RuleFinding(
            rule_id=rule.id,
            per_gpu=rule.per_gpu,
            about_its_gpu=rule.about_its_gpu,
            about_route=rule.about_route,
            topic=rule.topic,
            severity=rule.severity,
            title=text.title,
            rationale=" ".join(text.rationale.split()),
            source=cite_all(rule.citations, knowledge),
            origin=rulebook.origin(rule.id),
            lang=lang,
            message_source=text.message,
        )
    references = {
        "t": rulebook.threshold_values(knowledge),
        "k": {
            "server": knowledge.own_server(),
            "idle_power_share": knowledge.own_hardware.idle_power_share,
            "figures": knowledge.figures_by_id(),
            "spot_sellers": knowledge.spot_sellers(),
            "schedules": {schedule.id: schedule for schedule in knowledge.schedules.schedules},
            "superseded_offers": knowledge.superseded_offers(),
            "withdrawn_apis": knowledge.withdrawn_apis(),
            "listed_jurisdictions": knowledge.listed_jurisdictions(),
            "throughput": knowledge.throughput,
            "pricing_assumptions": knowledge.pricing_assumptions,
            "serving_engines": {engine.id: engine for engine in knowledge.throughput.serving_engines},
            "vat_rates": knowledge.vat_rates.rates,
            # The VAT every price of this knowledge base includes (``gross_prices.with_vat``), and what a
            # price is divided by to give the figure its provider lists (1 where the prices are net).
            "vat": knowledge.vat_rates.applied,
            "vat_factor": 1 + knowledge.vat_rates.applied.rate if knowledge.vat_rates.applied else 1.0,
        },
    }
    return FindingTexts(
        rules=rules,
        order={rule_id: index for index, rule_id in enumerate(rules)},
        references=references,
    )


def render_finding_message(
    parts: RuleFinding,
    texts: FindingTexts,
    fact: Mapping[str, Any],
    fmt: Format,
    details: Mapping[str, Any] | None = None,
) -> str:
    """A rule's message for one firing. It sees its environment's globals (the sandbox has its own),
    the fact, the details of its fact kind, ``t``, ``k`` and ``fmt``. Messages are checked when the rules
    load; one that still fails here is reported against its rule: an organization's as bad input, a
    built-in one as a broken catalog, never as a traceback."""
    template = parts.template
    # The environment's globals (the translation calls of ``{% trans %}`` are among them, unnamed in the
    # message), ``fmt`` (the formatting filters read it) and the names the message reads, each where a
    # merge of them all would find it: ``t`` and ``k`` over the fact, the fact over the details.
    context: dict[str, Any] = {**template.environment.globals, "fmt": fmt}
    references = texts.references
    scopes = (references, fact, details or {})
    for name in parts.names:
        for scope in scopes:
            if name in scope:
                value = scope[name]
                context[name] = say(fmt.lang, value) if isinstance(value, Words) else value
                break
    # A message depends on nothing but the values it reads; those from ``references`` are the same for
    # every message of these texts. Where the rest can be hashed, an earlier rendering is reused.
    messages = _rendered_messages(texts, fmt.lang, fmt.currency, fmt.usd_per_unit)
    key = _message_key(parts, context, references)
    known = messages.get(key) if key is not None else None
    if known is not None:
        return known
    try:
        text = render_compiled_message(template, context)
    except Exception as error:  # a template can fail in any way: a filter, arithmetic, the sandbox
        problem = f"rule {parts.rule_id}: its message cannot be written: {error}"
        if parts.origin == "organization":
            raise InputError(f"--policy: {problem}") from None
        raise KnowledgeError(problem) from None
    if key is not None:
        if len(messages) >= MESSAGES_KEPT:
            messages.clear()
        messages[key] = text
    return text


def render_rule_message(
    rule: Rule,
    fact: dict[str, Any],
    knowledge: Knowledge,
    rulebook: Rulebook,
    fmt: Format = DEFAULT_FORMAT,
    details: Details | None = None,
) -> str:
    """The rule's message with this fact's numbers."""
    texts = finding_texts(rulebook, knowledge, fmt.lang)
    return render_finding_message(texts.rules[rule.id], texts, fact, fmt, dict(details or {}))


def findings_for(
    firings: Sequence[Firing],
    rulebook: Rulebook,
    knowledge: Knowledge,
    fmt: Format = DEFAULT_FORMAT,
    details: Mapping[str, Details] | None = None,
    routes: Mapping[str, Deployment] | None = None,
) -> tuple[Finding, ...]:
    """One finding per firing, in catalog order of the rules (firing order within a rule); ``details``:
    per fact kind, the details its rules' messages show; ``routes``: the route a rule that only excludes
    options spoke of where it excluded none of the decision's (``exclusion_routes``)."""
    texts = finding_texts(rulebook, knowledge, fmt.lang)
    relevant = [firing for firing in firings if not firing.applicability]
    # A message reads its details by name: each kind's are made a mapping once, not once per finding.
    shown = {kind: dict(kind_details) for kind, kind_details in (details or {}).items()}
    ordered = sorted(enumerate(relevant), key=lambda pair: (texts.order[pair[1].rule_id], pair[0]))
    shared = _shared_findings(texts, fmt.lang, fmt.currency, fmt.usd_per_unit)
    findings = []
    for _, firing in ordered:
        kept = shared.get(id(firing)) if firing.fact["kind"] == SHARED_KIND else None
        if kept is not None and kept[0] is firing:
            findings.append(kept[1])
            continue
        finding = finding_for(firing, texts, fmt, shown.get(str(firing.fact["kind"])))
        if routes and finding.route is None and finding.rule_id in routes:
            finding = finding.model_copy(update={"route": routes[finding.rule_id]})
        if firing.fact["kind"] == SHARED_KIND:
            if len(shared) >= SHARED_FINDINGS_KEPT:
                shared.clear()
            shared[id(firing)] = (firing, finding)  # the firing is kept, so its id stays its own
        findings.append(finding)
    return tuple(findings)


def exclusion_routes(evaluation: Evaluation) -> dict[str, Deployment]:
    """Rule -> the route its finding speaks of, for each fired rule whose one conclusion is to exclude
    options and that excluded none of the route the decision took (a rental for a dedicated or mixed
    fleet, a serverless product, an API price): the first route it excluded from. Its finding is then
    about that route, not the decision (PRC002's spot offers for a workload the API serves). A critical
    rule binds whatever route is taken (RES001's law), so it stays the decision's."""
    market, deployment = evaluation.market, evaluation.decision.deployment
    excluded: dict[Deployment, set[str]] = {
        "dedicated_cloud": {rule for p in market.priced for rule in p.excluded_by},
        "serverless": {rule for c in market.serverless.candidates for rule in c.excluded_by},
        "api": {rule for a in market.apis for rule in a.excluded_by},
    }
    kind = "dedicated_cloud" if deployment == "hybrid" else deployment
    decided = excluded.get(kind, set())
    routes: dict[str, Deployment] = {}
    for rule in evaluation.rules:
        then = rule.then
        if (
            rule.severity == "critical"
            or not then.exclude_options
            or then != Conclusion(exclude_options=then.exclude_options)
        ):
            continue
        if rule.id not in decided:
            other = next((route for route, rules in excluded.items() if rule.id in rules), None)
            if other is not None:
                routes[rule.id] = other
    return routes


def finding_for(firing: Firing, texts: FindingTexts, fmt: Format, details: dict[str, Any] | None) -> Finding:
    parts = texts.rules[firing.rule_id]
    return trusted(
        Finding,
        rule_id=parts.rule_id,
        subject=str(firing.fact["gpu"]) if parts.per_gpu else None,
        about_its_gpu=parts.about_its_gpu,
        route=route_spoken_of(parts.about_route, firing.fact),
        topic=parts.topic,
        severity=parts.severity,
        title=parts.title,
        message=render_finding_message(parts, texts, firing.fact, fmt, details),
        rationale=parts.rationale,
        source=parts.source,
        origin=parts.origin,
    )


_ABSENT = ("absent",)
"""Stands for a name the message reads that no scope has (Jinja renders it as undefined)."""

_KEYED = frozenset({str, int, float, bool, type(None)})
"""Classes of the values a message key holds: immutable, and keyed with their class (1, 1.0 and True
are equal in Python but are written differently)."""


def _message_key(parts: RuleFinding, context: dict[str, Any], references: Mapping[str, Any]) -> Any:
    """What ``parts``' message depends on besides ``references``, as a key; None where a value is not a
    plain string, number or None (such messages are rendered every time)."""
    key: list[Any] = [parts.rule_id]
    for name in parts.names:
        if name in references:
            continue
        value = context.get(name, _ABSENT)
        kind = value.__class__
        if value is _ABSENT:
            key.append(value)
        elif kind not in _KEYED:
            return None
        elif kind is float and value == 0.0:
            key.append((kind, str(value)))  # 0.0 and -0.0 are equal but written differently
        else:
            key.append((kind, value))
    return tuple(key)


MESSAGES_KEPT = 4096
"""Rendered messages kept per texts and format: a portfolio repeats many messages word for word."""


@per_object
def _rendered_messages(
    texts: FindingTexts, lang: str, currency: str, usd_per_unit: float, /
) -> dict[Any, str]:
    return {}


SHARED_KIND = "gpu_fit"
"""GPU-fit firings are the same objects for every workload of a sizing (``pipeline/fit.py``): their
findings are rendered once per language and currency."""
SHARED_FINDINGS_KEPT = 4096


@per_object
def _shared_findings(
    texts: FindingTexts, lang: str, currency: str, usd_per_unit: float, /
) -> dict[int, tuple[Firing, Finding]]:
    return {}
