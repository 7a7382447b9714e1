"""A rule's condition: one field of the fact it reads compared with a literal name or truth value, a list
of names, a named threshold or another field; and the strict base of the rule schema's models."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

Operator = Literal["eq", "ne", "lt", "le", "gt", "ge", "in", "not_in"]


class Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class Condition(Strict):
    """``fact <op> value | values | threshold | other_fact``: exactly one right-hand side."""

    fact: str
    op: Operator = "eq"
    value: bool | str | None = None
    values: tuple[str, ...] | None = None
    """For ``in`` and ``not_in``: the names the fact is compared with."""
    threshold: str | None = None
    other_fact: str | None = None

    @field_validator("value", mode="before")
    @classmethod
    def _no_number(cls, value: Any) -> Any:
        # pydantic read 0 and 1 as false and true, and 1.5 failed as "not a valid boolean": a number in a
        # rule is a threshold, by name, so that it lives in data with its source.
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            raise ValueError(
                f"{value!r} is a number; a rule compares numbers with a named threshold (threshold: KEY, "
                "from the thresholds data), and value takes true, false or a name"
            )
        return value

    @model_validator(mode="after")
    def _one_right_hand_side(self) -> Condition:
        given = [x for x in (self.value, self.values, self.threshold, self.other_fact) if x is not None]
        if len(given) != 1:
            raise ValueError(
                "a condition compares with exactly one of value, values, threshold or other_fact"
            )
        if self.value is not None and self.op not in ("eq", "ne"):
            raise ValueError("a literal value (true/false or a name) is only compared with eq or ne")
        if (self.values is not None) != (self.op in ("in", "not_in")):
            raise ValueError("in and not_in compare with a list of values, and only they do")
        if self.values is not None and not self.values:
            raise ValueError("values must not be empty")
        return self
