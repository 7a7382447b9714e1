"""A CSV cell as the workload field its column names: the field's type read from the workload model, so a
column means what the model says (``rows.py`` reads the rows)."""

from __future__ import annotations

import re
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel

from gpu_advisor.engine.apps.batch.messages import said
from gpu_advisor.engine.common import values
from gpu_advisor.engine.common.values import ValueProblem
from gpu_advisor.engine.domain.workload import Workload
from gpu_advisor.engine.domain.workload_ranges import WorkloadRanges
from gpu_advisor.engine.i18n.environment import say
from gpu_advisor.engine.i18n.reading import thousands_dotted

FieldKind = Literal["bool", "int", "float", "str", "floats"]
"""``floats``: a list of numbers (``load_profile``), in a CSV cell separated by spaces or semicolons."""


def field_kinds(schema: type[BaseModel] = Workload, prefix: str = "") -> dict[str, FieldKind]:
    """Every leaf field of the workload model, dotted (``model.params_b``), with the scalar type its
    annotation declares. Cell text is converted by this table, so a CSV column means what the model says."""
    kinds: dict[str, FieldKind] = {}
    for name, info in schema.model_fields.items():
        scalar = _scalar(info.annotation)
        if isinstance(scalar, type) and issubclass(scalar, BaseModel):
            kinds.update(field_kinds(scalar, f"{prefix}{name}."))
        else:
            kinds[f"{prefix}{name}"] = scalar
    return kinds


def _scalar(annotation: Any) -> FieldKind | type[BaseModel]:
    """Strip Optional and Annotated from an annotation; Literal choices are strings."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _scalar(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(members) != 1:
            raise TypeError(f"workload field of several types: {annotation!r}")
        return _scalar(members[0])
    if origin is Literal:
        return "str"
    if origin is list and typing.get_args(annotation) == (float,):
        return "floats"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for kind, python_type in (("bool", bool), ("int", int), ("float", float), ("str", str)):
        if annotation is python_type:
            return kind  # type: ignore[return-value]
    raise TypeError(f"workload field of unsupported type: {annotation!r}")


def csv_field_kinds() -> dict[str, FieldKind]:
    """The columns a CSV may have: every leaf field of the workload (``field_kinds``), and the ranges a
    workload file may give instead of a point, named as the file nests them (``requests_per_day.low``,
    ``.high``, ``.shape``, ``.mode``; ``volume_growth`` as a number or ``volume_growth.low`` and so on,
    ``domain/workload_ranges.py``). The row is then validated as the file would be."""
    return {**field_kinds(), **field_kinds(WorkloadRanges), "volume_growth": "float"}


_BOOLEANS = {"true": True, "false": False, "yes": True, "no": False, "1": True, "0": False}


def convert_cell(text: str, kind: FieldKind, lang: str = "en") -> Any:
    """Cell text as the field's type, under the value rules of every input (``values.py``); raises
    ValueError naming what is allowed (in ``lang``)."""
    if kind == "str":
        return text
    value = text.strip()
    if kind == "bool":
        if value.lower() not in _BOOLEANS:
            raise ValueError(said(lang, "not_boolean", text=repr(text)))
        return _BOOLEANS[value.lower()]
    if kind == "floats":
        return [convert_cell(part, "float", lang) for part in re.split(r"[;\s]+", value) if part]
    try:
        if kind == "int":
            # Commas, apostrophes or spaces between thousands: ``values.integer`` says what to write.
            if not values.DECIMAL_INTEGER.fullmatch(value) and not values.thousands_grouped(value):
                raise ValueError(said(lang, "not_whole", text=repr(text), whole=thousands_dotted(value)))
            return values.integer(value)
        return values.number(value)
    except ValueProblem as problem:
        raise ValueError(say(lang, problem.problem)) from None
