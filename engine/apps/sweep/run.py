"""Sweep: vary one or two inputs of one workload over a range and find where the decision changes.

A variable is a numeric workload field (``utilization``, ``requests_per_day``, ``model.params_b``, ...) or a
knowledge value: ``server_price_usd`` (the own server this workload is costed on), ``usd_per_kwh`` (every
own server) or ``price:PROVIDER/OFFER/GPU`` (one offer's usd_per_gpu_hour). Knowledge values change a copy
of the knowledge base, never the shipped one; rule thresholds stay as compiled into the engine.

Ranges are read as decimals, so ``0.1:0.6:0.05`` gives exactly 0.1, 0.15, ..., 0.6 (not 0.15000000000000002).

"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
from collections.abc import Sequence
from typing import Any

from gpu_advisor.engine.apps.batch.messages import said
from gpu_advisor.engine.apps.recommend import decide_workload, recommend
from gpu_advisor.engine.apps.sweep.model import (
    DECISION_FIELDS,
    REFUSED,
    SweepDecision,
    SweepFlip,
    SweepPoint,
    SweepResult,
    SweepVariable,
    Value,
)
from gpu_advisor.engine.apps.sweep.variables import (
    Variable,
    _set_path,
    apply_knowledge,
    baseline,
    knowledge_baseline,
    knowledge_source,
    parse_vary,
)
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.input_errors import prefixed
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import Decision, DecisionSummary, Recommendation
from gpu_advisor.engine.domain.workload import Workload, validate_workload

MAX_POINTS = 2_000
"""A two-variable sweep evaluates every pair: about 5 ms each, so 2,000 points take about ten seconds."""


def decision_key(decision: Decision) -> tuple[str | None, ...]:
    return tuple(getattr(decision, name) for name in DECISION_FIELDS)


def describe(decision: Decision) -> str:
    pricing = (decision.pricing or "").replace("_", "-")
    if decision.deployment == "dedicated_cloud":
        return f"dedicated cloud GPUs: {decision.provider} {decision.offer}, {decision.gpu}, {pricing}"
    if decision.deployment == "serverless" and decision.provider:
        return f"serverless: {decision.provider} {decision.offer}, {decision.gpu}"
    if decision.deployment == "own_hardware":
        return f"own hardware: {decision.offer or 'hardware sized for the model (none in the catalog)'}"
    if decision.deployment == "api":
        return f"managed API: {decision.offer or 'no priced API'}"
    if decision.deployment == "hybrid" and decision.provider:
        return f"mixed fleet: {decision.provider} {decision.offer} base, {decision.gpu}, hourly peak"
    return decision.deployment.replace("_", " ")


def _label(index: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[index] if index < len(letters) else f"Z{index - len(letters) + 1}"


class Labels:
    """Gives each distinct decision a letter in order of first appearance."""

    def __init__(self) -> None:
        self._by_key: dict[tuple[str | None, ...], SweepDecision] = {}

    def label(self, decision: Decision) -> str:
        key = decision_key(decision)
        if key not in self._by_key:
            self._by_key[key] = SweepDecision(
                label=_label(len(self._by_key)),
                deployment=decision.deployment,
                pricing=decision.pricing,
                provider=decision.provider,
                offer=decision.offer,
                gpu=decision.gpu,
                description=describe(decision),
            )
        return self._by_key[key].label

    def decisions(self) -> tuple[SweepDecision, ...]:
        return tuple(self._by_key.values())


def flips_along(
    points: Sequence[SweepPoint],
    axis: int,
    variable: str,
    decisions: dict[str, SweepDecision],
    fixed: dict[str, Value],
) -> list[SweepFlip]:
    """Neighbouring points along one variable whose decisions differ."""
    flips = []
    for before, after in itertools.pairwise(points):
        # A refused combination has no decision to change from or to.
        if before.decision == after.decision or before.refused is not None or after.refused is not None:
            continue
        old, new = decisions[before.decision], decisions[after.decision]
        flips.append(
            SweepFlip(
                variable=variable,
                below=before.values[axis],
                above=after.values[axis],
                from_decision=before.decision,
                to_decision=after.decision,
                changed=tuple(n for n in DECISION_FIELDS if getattr(old, n) != getattr(new, n)),
                fixed=fixed,
            )
        )
    return flips


def all_flips(
    points: Sequence[SweepPoint], variables: Sequence[SweepVariable], decisions: dict[str, SweepDecision]
) -> tuple[SweepFlip, ...]:
    if len(variables) == 1:
        return tuple(flips_along(points, 0, variables[0].name, decisions, {}))
    first, second = variables
    width = len(second.values)
    rows = [points[index : index + width] for index in range(0, len(points), width)]
    flips: list[SweepFlip] = []
    for row_value, row in zip(first.values, rows, strict=True):
        flips += flips_along(row, 1, second.name, decisions, {first.name: row_value})
    for column, column_value in enumerate(second.values):
        line = [row[column] for row in rows]
        flips += flips_along(line, 0, first.name, decisions, {second.name: column_value})
    return tuple(flips)


def sweep(
    workload: Workload,
    specs: Sequence[str],
    evaluated_on: dt.date,
    knowledge: Knowledge,
    lang: str = "en",
    policy_dir: str | None = None,
) -> SweepResult:
    """Evaluate ``workload`` at every combination of the ``--vary`` specs (one or two), under an
    organization's rules in ``policy_dir`` where given; errors in ``lang``."""
    if not 1 <= len(specs) <= 2:
        raise InputError(said(lang, "vary_how_many", given=len(specs)))
    parsed = [parse_vary(spec, knowledge, lang) for spec in specs]
    if len(parsed) == 2 and parsed[0][0].name == parsed[1][0].name:
        raise InputError(said(lang, "vary_twice", name=parsed[0][0].name))
    total = 1
    for _, sweep_variable in parsed:
        total *= len(sweep_variable.values)
    if total > MAX_POINTS:
        raise InputError(said(lang, "vary_combinations", total=total, most=MAX_POINTS))

    base = recommend(workload, evaluated_on, knowledge=knowledge, policy_dir=policy_dir)
    server_id = base.own_hardware.server
    data = workload.model_dump(exclude_none=True)
    own_values = [
        baseline(variable, data, base)
        if variable.kind == "workload"
        else (knowledge_baseline(variable, knowledge, base), knowledge_source(variable, knowledge, base))
        for variable, _ in parsed
    ]
    variables = tuple(
        sweep_variable.model_copy(
            update={
                "baseline": value,
                "baseline_source": source,
                "excluded_by": offer_exclusions(variable.target, base),
            }
        )
        for (variable, sweep_variable), (value, source) in zip(parsed, own_values, strict=True)
    )
    labels = Labels()
    baseline_label = labels.label(base.decision)
    combinations = list(itertools.product(*(v.values for v in variables)))
    inputs = [prepared(parsed, values, data, knowledge, server_id, lang) for values in combinations]
    evaluated: list[SweepPoint] = []
    first_refusal: InputError | None = None
    interrupted_by = None
    try:
        for values, case in zip(combinations, inputs, strict=True):
            refusal = case if isinstance(case, InputError) else None
            if not isinstance(case, InputError):
                try:
                    result = recommend_point(parsed, values, case[0], case[1], evaluated_on, policy_dir)
                except InputError as error:
                    refusal = error
            if refusal is None:
                evaluated.append(point(values, result, labels))
                continue
            # One combination the workload refuses (its prompt outgrows the context) is a point of the
            # map, said as such; the rest of the range is still swept.
            first_refusal = first_refusal or refusal
            evaluated.append(refused_point(values, refusal, lang))
    except KeyboardInterrupt as stop:
        # A signal (signals.py) stops the sweep; the combinations evaluated so far are its result.
        interrupted_by = getattr(stop, "signal_name", "SIGINT")
        variables, evaluated = whole_rows(variables, evaluated)
    if first_refusal is not None and all(p.refused is not None for p in evaluated) and not interrupted_by:
        raise first_refusal  # no combination left to sweep: the first refusal says why
    points = tuple(evaluated)
    decisions = labels.decisions()
    return SweepResult(
        evaluated_on=evaluated_on,
        workload=workload.name,
        variables=variables,
        baseline_decision=baseline_label,
        decisions=decisions,
        points=points,
        flips=all_flips(points, variables, {d.label: d for d in decisions}),
        interrupted_by=interrupted_by,
        planned_points=len(combinations) if interrupted_by else None,
        purchases_vat=base.purchases_vat,
        vat_rate_missing="KNB023" in base.fired_rules,
    )


def offer_exclusions(target: str, base: Recommendation) -> tuple[str, ...]:
    """The rules that exclude the offer ``target`` names (provider/offer/GPU) at the file's own values,
    where every listing of it is excluded; empty for another variable or an offer some listing admits."""
    listings = [o for o in base.options if f"{o.provider}/{o.offer}/{o.gpu}" == target]
    if not listings or not all(o.excluded_by for o in listings):
        return ()
    return tuple(dict.fromkeys(rule for o in listings for rule in o.excluded_by))


def whole_rows(
    variables: tuple[SweepVariable, ...], points: list[SweepPoint]
) -> tuple[tuple[SweepVariable, ...], list[SweepPoint]]:
    """An interrupted sweep cut to what it evaluated: the first variable's values up to the last whole
    row (with two variables, every value of the second for each), so that the table and break-even
    points describe a complete, smaller grid."""
    width = len(variables[1].values) if len(variables) == 2 else 1
    rows = len(points) // width
    first = variables[0].model_copy(update={"values": variables[0].values[:rows]})
    return (first, *variables[1:]), points[: rows * width]


def recommend_point(
    parsed: Sequence[tuple[Variable, SweepVariable]],
    values: Sequence[Value],
    case: Workload,
    knowledge: Knowledge,
    evaluated_on: dt.date,
    policy_dir: str | None = None,
) -> DecisionSummary:
    """One combination's decision; an input error names the combination it came from (a value can be
    valid alone and still clash with the workload, like a prompt longer than its context window)."""
    try:
        return decide_workload(case, evaluated_on, knowledge=knowledge, policy_dir=policy_dir)
    except InputError as error:
        origin = ", ".join(f"{v.name}={value}" for (v, _), value in zip(parsed, values, strict=True))
        raise prefixed(error, f"--vary {origin}", field=error.field) from None


def prepared(
    parsed: Sequence[tuple[Variable, SweepVariable]],
    values: Sequence[Value],
    data: dict[str, Any],
    knowledge: Knowledge,
    server_id: str,
    lang: str = "en",
) -> tuple[Workload, Knowledge] | InputError:
    """The workload and knowledge base for one combination (every combination is checked before any
    runs), or the input error that refuses it: a check across fields (a ``value_error``: a prompt longer
    than the context) fails one combination. A value outside its own field's limits (a utilization of
    1.5, a price of 0) is a range the sweep refuses as a whole, as it is raised."""
    case = copy.deepcopy(data)
    for (variable, _), value in zip(parsed, values, strict=True):
        if variable.kind == "workload":
            _set_path(case, variable.target, value)
        else:
            knowledge = apply_knowledge(variable, value, knowledge, server_id, lang)
    origin = "--vary " + ", ".join(f"{v.name}={value}" for (v, _), value in zip(parsed, values, strict=True))
    try:
        return validate_workload(case, origin), knowledge
    except InputError as error:
        if error.problems and all(problem["type"] == "value_error" for problem in error.problems):
            return error
        raise


def refused_point(values: Sequence[Value], error: InputError, lang: str) -> SweepPoint:
    """A combination the workload refuses, with the error that names it."""
    from gpu_advisor.engine.domain.input_errors import error_text

    return SweepPoint(
        values=tuple(values),
        decision=REFUSED,
        gpus=None,
        usd_per_month=None,
        deciding_rule_id=REFUSED,
        refused=error_text(error, lang),
    )


def point(values: Sequence[Value], result: DecisionSummary, labels: Labels) -> SweepPoint:
    decision = result.decision
    return SweepPoint(
        values=tuple(values),
        decision=labels.label(decision),
        gpus=decision.gpus,
        usd_per_month=decision.usd_per_month,
        cost_is_estimate=decision.cost_is_estimate,
        deciding_rule_id=decision.deciding_rule_id,
    )
