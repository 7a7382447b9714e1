"""What every fact asserted into the rules engine is: a complete, typed model whose numbers durable-rules'
JSON parser can read, and the ``Guard`` marker of fields that mean something only under a condition."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

SMALLEST_ENGINE_NUMBER = 1e-4
"""durable-rules' JSON parser rejects numbers written with an exponent (1e-05, 1e+16; error code
204). Python writes floats under 1e-4 and from 1e16 that way: the former become 0 (no threshold or
comparison in the rulebook is that fine), the latter integers, which are never written with an exponent."""
LARGEST_ENGINE_FLOAT = 1e16


def engine_number(value: float) -> float | int:
    if value != 0 and abs(value) < SMALLEST_ENGINE_NUMBER:
        return 0.0
    if abs(value) >= LARGEST_ENGINE_FLOAT:
        return round(value)
    return value


@dataclass(frozen=True)
class Guard:
    """Field metadata: the field is meaningful only where these boolean fields of the same fact hold (it
    holds a placeholder 0 or "" otherwise). In a proposal a guard ``<name>_known`` makes a check that
    reads the field report 'unknown' where it is not known."""

    fields: tuple[str, ...]

    def __init__(self, *fields: str) -> None:
        object.__setattr__(self, "fields", fields)


class Fact(BaseModel):
    model_config = ConfigDict(
        defer_build=True, extra="forbid", frozen=True, strict=True, protected_namespaces=()
    )

    shared_between_evaluations: ClassVar[bool] = False
    """The same fact object is asserted in many evaluations (built once per model sizing), so the
    engine adapter keeps its JSON text; other facts are new in every evaluation."""
    about_workload: ClassVar[bool] = False
    """The fact is asserted with the workload's facts beside its own fields."""

    def payload(self) -> dict[str, Any]:
        """The fact as the engine (and the reference evaluator) sees it: JSON types, numbers that
        durable-rules can parse."""
        # Every field is a str, int, float or bool (strict), so the instance's own values are JSON types;
        # only the floats may need rewriting.
        data = dict(self.__dict__)
        for key in _float_fields(type(self)):
            value = data[key]
            if value and not SMALLEST_ENGINE_NUMBER <= abs(value) < LARGEST_ENGINE_FLOAT:
                data[key] = engine_number(value)
        return data


@cache
def _float_fields(model: type[Fact]) -> tuple[str, ...]:
    return tuple(name for name, field in model.model_fields.items() if field.annotation is float)


# --- the workload's facts -------------------------------------------------------------------------------
