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
