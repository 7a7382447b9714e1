"""Bounds on workload inputs that more than one entry point reads (the workload file, the command line's
options, the questionnaire), kept free of heavy imports so that a command's options can name them."""

from __future__ import annotations

MAX_CONTEXT_TOKENS = 10_000_000
"""The longest serving context gpu-advisor sizes a KV cache for (no model comes near it)."""

MAX_WRITE_OFF_MONTHS = 240
"""The longest write-off period of an own server, in months (20 years): ``tco --months``, the tco
request's and the overrides file's ``months``."""

MIN_TARGET_MS = 1.0
"""The shortest latency target taken, in milliseconds: no GPU computes a token or a first token faster,
and the rule messages divide by the target (a smaller one read as 0 in the rules engine)."""

# The own server's figures a ``tco`` request (``gpu-advisor tco``'s options, ``POST /tco``) may replace, at
# most; the bounds keep every cost line finite. The options' help states them (``[0<x<=1000000000]``).
MAX_SERVER_PRICE = 1_000_000_000
"""An own server's price, in USD, EUR or CHF (also the overrides file's ``price_usd`` and ``price_eur``)."""

MAX_GPUS_PER_SERVER = 1024
"""Cards in one own server."""

MAX_GPU_WATTS = 10_000
"""Power per card, in watts."""

MAX_POWER_OVERHEAD = 10
"""The factor on the cards' power for CPUs, network cards and power-supply losses."""

MAX_PRICE_PER_KWH = 10
"""Electricity, per kWh (also the overrides file's ``usd_per_kwh`` and ``eur_per_kwh``)."""

MAX_MONTHLY_COST = 10_000_000
"""Rack, colocation or staff per server and month (also the overrides file's, in USD or EUR)."""

RESIDUAL_BELOW = 1
"""The resale value after the write-off, as a share of the price, is less than this (the whole price)."""
