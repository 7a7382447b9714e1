"""A value from a range at a quantile: the inverse of each shape's distribution function, so that one
uniform draw per input (``random.Random(seed)``) gives the same scenario on every machine."""

from __future__ import annotations

import math
from statistics import NormalDist

Z_95 = NormalDist().inv_cdf(0.95)
"""A log-normal range's low and high are its 5th and 95th percentiles."""


def at_quantile(shape: str, low: float, high: float, mode: float | None, u: float) -> float:
    """The value below which a share ``u`` (0 to 1) of the range's draws fall."""
    if high == low:
        return low
    if shape == "triangular":
        peak = (low + high) / 2 if mode is None else mode
        split = (peak - low) / (high - low)
        if u < split:
            return low + math.sqrt(u * (high - low) * (peak - low))
        return high - math.sqrt((1 - u) * (high - low) * (high - peak))
    if shape == "lognormal":
        mu = (math.log(low) + math.log(high)) / 2
        sigma = (math.log(high) - math.log(low)) / (2 * Z_95)
        clipped = min(max(u, 1e-12), 1 - 1e-12)
        return math.exp(mu + sigma * NormalDist().inv_cdf(clipped))
    return low + u * (high - low)
