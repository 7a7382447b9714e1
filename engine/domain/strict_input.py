"""The base of every input model read from a user: unknown keys refused, no type coercion, finite
numbers only, frozen."""

from __future__ import annotations

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
