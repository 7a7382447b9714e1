"""Sweep variables: which inputs can vary, their ranges, and setting one value."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from gpu_advisor.engine.apps.batch.csv_cells import field_kinds
from gpu_advisor.engine.apps.batch.messages import said
from gpu_advisor.engine.apps.sweep.model import BaselineSource, SweepVariable, Value, VariableKind
from gpu_advisor.engine.common import values
from gpu_advisor.engine.common.errors import InputError, close_match
from gpu_advisor.engine.common.values import ValueProblem
from gpu_advisor.engine.domain.knowledge.base import LIST_PRICE_CLEARED, Knowledge, server_priced_at
from gpu_advisor.engine.domain.knowledge.costs import YourCosts
from gpu_advisor.engine.domain.knowledge.entries import Offer, OwnServer
from gpu_advisor.engine.domain.overrides import OfferOverride, ServerOverride
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.i18n.environment import say
from gpu_advisor.engine.i18n.reading import thousands_dotted

MAX_POINTS_PER_VARIABLE = 200


PRICE_PREFIX = "price:"


KNOWLEDGE_VARIABLES = {
    "server_price_usd": "price of the own server the workload is costed on, USD",
    "usd_per_kwh": "electricity price of every own server, USD per kWh",
}


PRICED_IN_THOUSANDS = frozenset({"server_price_usd"})
"""Amounts of many thousands, where 250.000 is a German 250,000 and never 250 dollars and no cents."""


_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


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


def resolve_variable(name: str, knowledge: Knowledge, lang: str = "en") -> Variable:
    numeric = workload_variables()
    if name in numeric:
        return Variable(name, "workload", name, numeric[name])
    if name in KNOWLEDGE_VARIABLES:
        return Variable(name, "knowledge", name, False)
    if name.startswith(PRICE_PREFIX):
        key = name[len(PRICE_PREFIX) :]
        keys = [offer.key for offer in knowledge.offers.offers]
        if key not in keys:
            suggestion = close_match(key, keys)
            raise InputError(
                said(
                    lang,
                    "vary_unknown_offer",
                    name=name,
                    key=repr(key),
                    suggestion=f"{PRICE_PREFIX}{suggestion}" if suggestion else None,
                )
            )
        return Variable(name, "offer_price", key, False)
    allowed = [*numeric, *KNOWLEDGE_VARIABLES, f"{PRICE_PREFIX}PROVIDER/OFFER/GPU"]
    suggestion = close_match(name, allowed)
    raise InputError(
        said(
            lang,
            "vary_unknown",
            name=repr(name),
            allowed=", ".join(allowed),
            suggestion=repr(suggestion) if suggestion else None,
        )
    )


def _decimal(text: str, spec: str, part: str, lang: str = "en") -> Decimal:
    if not _NUMBER.fullmatch(text.strip()):
        raise InputError(said(lang, "vary_not_a_number", spec=spec, part=part, text=repr(text)))
    try:
        values.number(text.strip())
    except ValueProblem as problem:
        problem_said = say(lang, problem.problem)
        raise InputError(said(lang, "vary_value", spec=spec, part=part, problem=problem_said)) from None
    return Decimal(text.strip())


def parse_vary(spec: str, knowledge: Knowledge, lang: str = "en") -> tuple[Variable, SweepVariable]:
    """``NAME=START:STOP:STEP`` as a variable and its values (START, START+STEP, ... up to STOP)."""
    name, equals, bounds = spec.partition("=")
    parts = bounds.split(":")
    if not equals or not name.strip() or len(parts) != 3:
        raise InputError(said(lang, "vary_form", spec=spec))
    variable = resolve_variable(name.strip(), knowledge, lang)
    for text in parts:
        # 1.000 is one thousand in German, 1 to the sweep: a whole-number variable refuses it, and so
        # does a server's price, which no one writes to the thousandth of a dollar.
        thousands = (
            thousands_dotted(text) if variable.integer or variable.name in PRICED_IN_THOUSANDS else None
        )
        if thousands is not None:
            kind = "vary_thousands" if variable.integer else "vary_thousands_amount"
            raise InputError(said(lang, kind, spec=spec, name=variable.name, text=text, whole=str(thousands)))
    start, stop, step = (
        _decimal(text, spec, part, lang) for text, part in zip(parts, ("START", "STOP", "STEP"), strict=True)
    )
    if step <= 0:
        raise InputError(said(lang, "vary_step", spec=spec))
    if stop < start:
        raise InputError(said(lang, "vary_order", spec=spec))
    if variable.integer and any(number != number.to_integral_value() for number in (start, stop, step)):
        raise InputError(said(lang, "vary_whole", spec=spec, name=variable.name))
    count = int((stop - start) / step) + 1
    if count > MAX_POINTS_PER_VARIABLE:
        raise InputError(said(lang, "vary_count", spec=spec, count=count, most=MAX_POINTS_PER_VARIABLE))
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


def _priced_offer(offer: Offer, price: float) -> Offer:
    # The price swept is the offer's at each step: no newer list of the provider's replaces it (KNB010).
    update: dict[str, Any] = {"usd_per_gpu_hour": price, **LIST_PRICE_CLEARED, "superseded_by": None}
    if offer.usd_per_gpu_hour_low is not None and offer.usd_per_gpu_hour_high is not None:
        update["usd_per_gpu_hour_low"] = min(offer.usd_per_gpu_hour_low, price)
        update["usd_per_gpu_hour_high"] = max(offer.usd_per_gpu_hour_high, price)
    if offer.instance_usd_per_hour is not None:
        update["instance_usd_per_hour"] = price * offer.instance_gpus[-1]
    return offer.model_copy(update=update)


def apply_knowledge(
    variable: Variable, value: Value, knowledge: Knowledge, server_id: str, lang: str = "en"
) -> Knowledge:
    """A copy of ``knowledge`` with the variable set; values that cannot be prices are rejected."""
    spec = f"--vary {variable.name}={value}"
    if variable.target == "usd_per_kwh":
        if value < 0:
            raise InputError(said(lang, "vary_negative_power", spec=spec))
        kwh = _within(spec, value, ServerOverride, "usd_per_kwh")
        # The power price replaces the company country's default, as an overrides file's does.
        costs = knowledge.cost_defaults
        yours = (costs.yours or YourCosts()).model_copy(update={"usd_per_kwh": kwh})
        return knowledge.model_copy(update={"cost_defaults": costs.model_copy(update={"yours": yours})})
    if value <= 0:
        raise InputError(said(lang, "vary_price", spec=spec))
    if variable.target == "server_price_usd":
        price = _within(spec, value, ServerOverride, "price_usd")
        return _with_servers(knowledge, lambda s: server_priced_at(s, price) if s.id == server_id else s)
    rate = _within(spec, value, OfferOverride, "usd_per_gpu_hour")
    offers = tuple(
        _priced_offer(offer, rate) if offer.key == variable.target else offer
        for offer in knowledge.offers.offers
    )
    return knowledge.model_copy(update={"offers": knowledge.offers.model_copy(update={"offers": offers})})


def _within(spec: str, value: Value, model: type[BaseModel], field: str) -> float:
    """A swept figure within the bounds an overrides file has for it, which keep every cost finite."""
    parameters = (float, *model.model_fields[field].metadata)
    bounded = Annotated[parameters]  # type: ignore[valid-type]
    try:
        return float(TypeAdapter(bounded).validate_python(float(value)))
    except ValidationError as error:
        raise InputError(f"{spec}: {error.errors()[0]['msg']}") from None


def knowledge_source(variable: Variable, knowledge: Knowledge, base: Recommendation) -> BaselineSource:
    """Whose a knowledge variable's own value is: the overrides file's where it replaced the figure (an
    offer's or the server's price, the power price), else the knowledge base's."""
    if variable.target == "usd_per_kwh":
        power = next(line for line in base.own_hardware.costs.lines if line.line == "power")
        return "overrides" if power.origin == "yours" else "knowledge"
    if variable.target == "server_price_usd":
        server = knowledge.own_server(base.own_hardware.server)
        return "overrides" if server.price_yours else "knowledge"
    offer = next(o for o in knowledge.offers.offers if o.key == variable.target)
    return "overrides" if offer.origin is not None else "knowledge"


def knowledge_baseline(variable: Variable, knowledge: Knowledge, base: Recommendation) -> Value:
    if variable.target == "server_price_usd":
        return knowledge.own_server(base.own_hardware.server).price_usd
    if variable.target == "usd_per_kwh":
        # The price the base run used: yours, else the company country's, else the documents'.
        price = next(line.usd for line in base.own_hardware.costs.lines if line.line == "power")
        return float(f"{price:.6g}")  # a converted EUR price, without the float's tail (0.236408)
    return next(o.usd_per_gpu_hour for o in knowledge.offers.offers if o.key == variable.target)
