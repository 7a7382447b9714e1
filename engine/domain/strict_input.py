"""The base of every input model read from a user: unknown keys refused, no type coercion, finite
numbers only, frozen."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict


class StrictInput(BaseModel):
    model_config = ConfigDict(
        defer_build=True,
        extra="forbid",
        strict=True,
        frozen=True,
        allow_inf_nan=False,
        protected_namespaces=(),
    )

    read_before_validation: ClassVar[tuple[str, ...]] = ()
    """Keys the input may give that are read before the model validates it, so are not its fields (a
    workload's ``volume_growth``): an unknown key's message lists them among the allowed ones."""
