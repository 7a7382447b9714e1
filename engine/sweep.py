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
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .advisor import decide_workload, recommend
from .batch import field_kinds
from .errors import InputError, close_match
from .knowledge import Knowledge, Offer, OwnServer
from .result import Decision, DecisionSummary, Recommendation
from .rulebook import Deployment, PricingKind
from .workload import Workload, validate_workload

MAX_POINTS_PER_VARIABLE = 200
MAX_POINTS = 2_000
"""A two-variable sweep evaluates every pair: about 5 ms each, so 2,000 points take about ten seconds."""
PRICE_PREFIX = "price:"
KNOWLEDGE_VARIABLES = {
    "server_price_usd": "price of the own server the workload is costed on, USD",
    "usd_per_kwh": "electricity price of every own server, USD per kWh",
}
DECISION_FIELDS = ("deployment", "pricing", "provider", "offer", "gpu")
"""What makes two decisions different; the card count and the cost may change within one decision."""
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")

VariableKind = Literal["workload", "knowledge", "offer_price"]
Value = float | int


# --- result models -----------------------------------------------------------------------------------


class SweepModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


BaselineSource = Literal["file", "default", "derived", "knowledge"]


class SweepVariable(SweepModel):
    name: str
    kind: VariableKind
    start: Value
    stop: Value
    step: Value
    decimals: int
    """Digits after the decimal point the range was given with (for display)."""
    values: tuple[Value, ...]
    baseline: Value | None
    """The workload's or the knowledge base's own value; None where the workload leaves it to be derived."""
    baseline_source: BaselineSource = "file"
    """Where the baseline comes from: the file, a default the file leaves to gpu-advisor (the schedule's
    hours, the default token counts), the load (utilization), or the knowledge base."""


class SweepDecision(SweepModel):
    label: str
    """A, B, C ... in order of first appearance; A is the decision at the file's own values."""
    deployment: Deployment
    pricing: PricingKind | None
    provider: str | None
    offer: str | None
    gpu: str | None
    description: str


class SweepPoint(SweepModel):
    values: tuple[Value, ...]
    """One value per variable, in the order the variables were given."""
    decision: str
    """Label of the decision (see ``decisions``)."""
    gpus: int | None
    usd_per_month: float | None
    cost_is_estimate: bool = False
    """The cost is the serverless estimate, not a price (marked ~ in the text)."""
    deciding_rule_id: str


class SweepFlip(SweepModel):
    """The decision differs between two neighbouring values of one variable: the break-even lies between."""

    variable: str
    below: Value
    above: Value
    from_decision: str
    to_decision: str
    changed: tuple[str, ...]
    """Which of deployment, pricing, provider, offer and gpu differ."""
    fixed: dict[str, Value]
    """The other variable's value along this line (two-variable sweeps); empty for one variable."""


class SweepResult(SweepModel):
    schema_version: int = 1
    evaluated_on: dt.date
    workload: str
    variables: tuple[SweepVariable, ...]
    baseline_decision: str
    decisions: tuple[SweepDecision, ...]
    points: tuple[SweepPoint, ...]
    """Every combination; for two variables row by row (the first variable's value changes slowest)."""
    flips: tuple[SweepFlip, ...]


# --- variables ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variable:
    name: str
    kind: VariableKind
    target: str
    """Dotted workload field, knowledge key, or offer key PROVIDER/OFFER/GPU."""
    integer: bool


def workload_variables() -> dict[str, bool]:
    """Numeric workload fields a sweep may vary, and whether each takes whole numbers."""
    return {name: kind == "int" for name, kind in field_kinds().items() if kind in ("int", "float")}


def resolve_variable(name: str, knowledge: Knowledge) -> Variable:
    numeric = workload_variables()
    if name in numeric:
        return Variable(name, "workload", name, numeric[name])
    if name in KNOWLEDGE_VARIABLES:
        return Variable(name, "knowledge", name, False)
    if name.startswith(PRICE_PREFIX):
        key = name[len(PRICE_PREFIX) :]
        keys = [offer.key for offer in knowledge.offers.offers]
        if key not in keys:
            message = f"--vary {name}: no offer {key!r} in the catalog; give price:PROVIDER/OFFER/GPU"
            suggestion = close_match(key, keys)
            raise InputError(message + (f" (did you mean {PRICE_PREFIX}{suggestion}?)" if suggestion else ""))
        return Variable(name, "offer_price", key, False)
    allowed = [*numeric, *KNOWLEDGE_VARIABLES, f"{PRICE_PREFIX}PROVIDER/OFFER/GPU"]
    message = f"--vary: unknown variable {name!r}; allowed: {', '.join(allowed)}"
    suggestion = close_match(name, allowed)
    raise InputError(message + (f" (did you mean {suggestion!r}?)" if suggestion else ""))


def _decimal(text: str, spec: str, part: str) -> Decimal:
    if not _NUMBER.fullmatch(text.strip()):
        raise InputError(f"--vary {spec}: {part} {text!r} is not a number")
    return Decimal(text.strip())


def parse_vary(spec: str, knowledge: Knowledge) -> tuple[Variable, SweepVariable]:
    """``NAME=START:STOP:STEP`` as a variable and its values (START, START+STEP, ... up to STOP)."""
    name, equals, bounds = spec.partition("=")
    parts = bounds.split(":")
    if not equals or not name.strip() or len(parts) != 3:
        raise InputError(f"--vary {spec}: expected NAME=START:STOP:STEP, for example utilization=0.1:0.9:0.1")
    variable = resolve_variable(name.strip(), knowledge)
    start, stop, step = (
        _decimal(text, spec, part) for text, part in zip(parts, ("START", "STOP", "STEP"), strict=True)
    )
    if step <= 0:
        raise InputError(f"--vary {spec}: STEP must be greater than 0")
    if stop < start:
        raise InputError(f"--vary {spec}: STOP must not be below START")
    if variable.integer and any(number != number.to_integral_value() for number in (start, stop, step)):
        raise InputError(
            f"--vary {spec}: {variable.name} takes whole numbers; START, STOP and STEP must be too"
        )
    count = int((stop - start) / step) + 1
    if count > MAX_POINTS_PER_VARIABLE:
        raise InputError(
            f"--vary {spec}: {count} values, at most {MAX_POINTS_PER_VARIABLE} per variable; "
            "take a larger STEP"
        )
    exact = [start + index * step for index in range(count)]
    values: tuple[Value, ...] = tuple(int(v) if variable.integer else float(v) for v in exact)
    decimals = max(0, *(-number.normalize().as_tuple().exponent for number in (start, stop, step)))  # type: ignore[operator]
    convert: Callable[[Decimal], Value] = int if variable.integer else float
    return variable, SweepVariable(
        name=variable.name,
        kind=variable.kind,
        start=convert(start),
        stop=convert(stop),
        step=convert(step),
        decimals=decimals,
        values=values,
        baseline=None,
    )


# --- applying a value --------------------------------------------------------------------------------


def _set_path(data: dict[str, Any], path: str, value: Value) -> None:
    *parents, leaf = path.split(".")
    for part in parents:
        data = data.setdefault(part, {})
    data[leaf] = value


def baseline(
    variable: Variable, data: dict[str, Any], base: Recommendation
) -> tuple[Value | None, BaselineSource]:
    """A workload variable's own value: the file's, else what gpu-advisor filled in for it (None where
    the load derives it, as utilization)."""
    stated = _get_path(data, variable.target)
    if stated is not None:
        return stated, "file"
    field = variable.target.rsplit(".", 1)[-1]
    if field == "utilization" and base.workload.utilization_source != "input":
        return None, "derived"
    return getattr(base.workload, field, None), "default"


def _get_path(data: dict[str, Any], path: str) -> Any:
    for part in path.split("."):
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _with_servers(knowledge: Knowledge, change: Callable[[OwnServer], OwnServer]) -> Knowledge:
    servers = tuple(change(server) for server in knowledge.own_hardware.servers)
    return knowledge.model_copy(
        update={"own_hardware": knowledge.own_hardware.model_copy(update={"servers": servers})}
    )


def _priced_server(server: OwnServer, price: float) -> OwnServer:
    # The market range stays quoted in messages; it widens only to take in a price outside it.
    return server.model_copy(
        update={
            "price_usd": price,
            "price_usd_low": min(server.price_usd_low, price),
            "price_usd_high": max(server.price_usd_high, price),
        }
    )


def _priced_offer(offer: Offer, price: float) -> Offer:
    update: dict[str, Any] = {"usd_per_gpu_hour": price}
    if offer.usd_per_gpu_hour_low is not None and offer.usd_per_gpu_hour_high is not None:
        update["usd_per_gpu_hour_low"] = min(offer.usd_per_gpu_hour_low, price)
        update["usd_per_gpu_hour_high"] = max(offer.usd_per_gpu_hour_high, price)
    if offer.instance_usd_per_hour is not None:
        update["instance_usd_per_hour"] = price * offer.gpus_per_instance
    return offer.model_copy(update=update)


def apply_knowledge(variable: Variable, value: Value, knowledge: Knowledge, server_id: str) -> Knowledge:
    """A copy of ``knowledge`` with the variable set; values that cannot be prices are rejected."""
    spec = f"--vary {variable.name}={value}"
    if variable.target == "usd_per_kwh":
        if value < 0:
            raise InputError(f"{spec}: an electricity price cannot be negative")
        return _with_servers(knowledge, lambda s: s.model_copy(update={"usd_per_kwh": float(value)}))
    if value <= 0:
        raise InputError(f"{spec}: a price must be greater than 0")
    if variable.target == "server_price_usd":
        return _with_servers(knowledge, lambda s: _priced_server(s, float(value)) if s.id == server_id else s)
    offers = tuple(
        _priced_offer(offer, float(value)) if offer.key == variable.target else offer
        for offer in knowledge.offers.offers
    )
    return knowledge.model_copy(update={"offers": knowledge.offers.model_copy(update={"offers": offers})})


def knowledge_baseline(variable: Variable, knowledge: Knowledge, server_id: str) -> Value:
    if variable.target == "server_price_usd":
        return knowledge.own_server(server_id).price_usd
    if variable.target == "usd_per_kwh":
        return knowledge.own_server(server_id).usd_per_kwh
    return next(o.usd_per_gpu_hour for o in knowledge.offers.offers if o.key == variable.target)


# --- decisions ---------------------------------------------------------------------------------------


def decision_key(decision: Decision) -> tuple[str | None, ...]:
    return tuple(getattr(decision, name) for name in DECISION_FIELDS)


def describe(decision: Decision) -> str:
    pricing = (decision.pricing or "").replace("_", "-")
    if decision.deployment == "dedicated_cloud":
        return f"dedicated cloud GPUs: {decision.provider} {decision.offer}, {decision.gpu}, {pricing}"
    if decision.deployment == "own_hardware":
        return f"own hardware: {decision.offer or 'hardware sized for the model (none in the catalog)'}"
    if decision.deployment == "api":
        return f"managed API: {decision.offer or 'no priced API'}"
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
        if before.decision == after.decision:
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


# --- running -----------------------------------------------------------------------------------------


def sweep(
    workload: Workload, specs: Sequence[str], evaluated_on: dt.date, knowledge: Knowledge
) -> SweepResult:
    """Evaluate ``workload`` at every combination of the ``--vary`` specs (one or two)."""
    if not 1 <= len(specs) <= 2:
        raise InputError(f"--vary: give one or two variables, got {len(specs)}")
    parsed = [parse_vary(spec, knowledge) for spec in specs]
    if len(parsed) == 2 and parsed[0][0].name == parsed[1][0].name:
        raise InputError(f"--vary: {parsed[0][0].name} is given twice")
    total = 1
    for _, sweep_variable in parsed:
        total *= len(sweep_variable.values)
    if total > MAX_POINTS:
        raise InputError(f"--vary: {total} combinations, at most {MAX_POINTS}; take larger steps")

    base = recommend(workload, evaluated_on, knowledge=knowledge)
    server_id = base.own_hardware.server
    data = workload.model_dump(exclude_none=True)
    own_values = [
        baseline(variable, data, base)
        if variable.kind == "workload"
        else (knowledge_baseline(variable, knowledge, server_id), "knowledge")
        for variable, _ in parsed
    ]
    variables = tuple(
        sweep_variable.model_copy(update={"baseline": value, "baseline_source": source})
        for (_, sweep_variable), (value, source) in zip(parsed, own_values, strict=True)
    )
    labels = Labels()
    baseline_label = labels.label(base.decision)
    combinations = list(itertools.product(*(v.values for v in variables)))
    inputs = [prepare(parsed, values, data, knowledge, server_id) for values in combinations]
    points = tuple(
        point(values, recommend_point(parsed, values, case, case_knowledge, evaluated_on), labels)
        for values, (case, case_knowledge) in zip(combinations, inputs, strict=True)
    )
    decisions = labels.decisions()
    return SweepResult(
        evaluated_on=evaluated_on,
        workload=workload.name,
        variables=variables,
        baseline_decision=baseline_label,
        decisions=decisions,
        points=points,
        flips=all_flips(points, variables, {d.label: d for d in decisions}),
    )


def recommend_point(
    parsed: Sequence[tuple[Variable, SweepVariable]],
    values: Sequence[Value],
    case: Workload,
    knowledge: Knowledge,
    evaluated_on: dt.date,
) -> DecisionSummary:
    """One combination's decision; an input error names the combination it came from (a value can be
    valid alone and still clash with the workload, like a prompt longer than its context window)."""
    try:
        return decide_workload(case, evaluated_on, knowledge=knowledge)
    except InputError as error:
        origin = ", ".join(f"{v.name}={value}" for (v, _), value in zip(parsed, values, strict=True))
        raise InputError(f"--vary {origin}: {error}", field=error.field) from None


def prepare(
    parsed: Sequence[tuple[Variable, SweepVariable]],
    values: Sequence[Value],
    data: dict[str, Any],
    knowledge: Knowledge,
    server_id: str,
) -> tuple[Workload, Knowledge]:
    """The workload and knowledge base for one combination; every combination is checked before any runs."""
    case = copy.deepcopy(data)
    for (variable, _), value in zip(parsed, values, strict=True):
        if variable.kind == "workload":
            _set_path(case, variable.target, value)
        else:
            knowledge = apply_knowledge(variable, value, knowledge, server_id)
    origin = "--vary " + ", ".join(f"{v.name}={value}" for (v, _), value in zip(parsed, values, strict=True))
    return validate_workload(case, origin), knowledge


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


# --- text --------------------------------------------------------------------------------------------


def format_value(value: Value | None, variable: SweepVariable) -> str:
    if value is None:
        return "derived"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return f"{value:,.{variable.decimals}f}"


def format_baseline(value: Value | None) -> str:
    """The file's own value, with every digit it has (it need not lie on the sweep's grid)."""
    if value is None:
        return "derived from the load"
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    return f"{value:,}"


BAR_WIDTH = 40


def bar(point: SweepPoint, highest: float) -> str:
    """A cost bar drawn with the decision's letter, so the chart shows both the cost and where it flips."""
    if point.usd_per_month is None or highest <= 0:
        return ""
    length = max(1, round(point.usd_per_month / highest * BAR_WIDTH))
    return point.decision[0] * length


def render_sweep(result: SweepResult) -> str:
    from .text import render

    costs = [p.usd_per_month for p in result.points if p.usd_per_month is not None]
    return render(
        "sweep.txt.j2",
        r=result,
        value=format_value,
        baseline=format_baseline,
        bar=bar,
        highest=max(costs, default=0.0),
        width=BAR_WIDTH,
    )
