"""A range with a shape: how an uncertain figure is drawn in scenarios (``recommend --scenarios N``).

``uniform``: every value from ``low`` to ``high`` as likely. ``triangular``: the most likely value is
``mode`` (the point value where the range belongs to one), falling off to ``low`` and ``high``.
``lognormal``: ``low`` and ``high`` are the 5th and 95th percentiles of a log-normal distribution, so a
draw lies outside them one time in ten; both must be above zero.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_advisor.engine.common.wording import Words, WordsError

Shape = Literal["uniform", "triangular", "lognormal"]
SHAPES: tuple[str, ...] = ("uniform", "triangular", "lognormal")


class Range(BaseModel):
    """A low/high pair with a shape; ``mode`` only for a triangular range (default: the midpoint)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

    low: float = Field(ge=-1e15, le=1e15)
    high: float = Field(ge=-1e15, le=1e15)
    shape: Shape = "uniform"
    mode: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.high < self.low:
            raise WordsError(
                Words("high (%(high)s) is below low (%(low)s)", high=f"{self.high:g}", low=f"{self.low:g}")
            )
        if self.shape == "lognormal" and self.low <= 0:
            raise WordsError(Words("a lognormal range needs low above 0"))
        if self.mode is not None:
            if self.shape != "triangular":
                raise WordsError(Words("mode is given only for a triangular range"))
            if not self.low <= self.mode <= self.high:
                raise WordsError(Words("mode (%(mode)s) is outside low to high", mode=f"{self.mode:g}"))
        return self

    @property
    def point(self) -> float:
        """The value a run without scenarios uses: the mode of a triangular range, the median of a
        log-normal one (the geometric mean of low and high), else the midpoint."""
        if self.shape == "triangular" and self.mode is not None:
            return self.mode
        if self.shape == "lognormal":
            return math.sqrt(self.low * self.high)
        return (self.low + self.high) / 2
