"""The ``robustness`` fact: how often the decision holds across the scenarios of ``recommend --scenarios N``.

One per scenario run, asserted after the run in a session of its own (``apps/scenarios/findings.py``), so
that the ROB rules (``rules/robustness.yaml``) turn a fragile decision into a finding. Without
``--scenarios`` no such fact exists and no ROB rule fires.
"""

from __future__ import annotations

from typing import Annotated, Literal

from gpu_advisor.engine.rulebook.fact_base import Fact, Guard


class RobustnessFact(Fact):
    kind: Literal["robustness"] = "robustness"
    scenarios: int
    recommended_win_share: float
    """The share of scenarios whose decision is the recommended option."""
    has_rival: bool
    """Another option wins some scenarios, or (where none does) another route was weighed."""
    rival_win_share: Annotated[float, Guard("has_rival")]
    """The share of scenarios the strongest rival wins."""
    win_share_gap: Annotated[float, Guard("has_rival")]
    """|recommended_win_share - rival_win_share|: near 0, the scenarios split between the two."""
    has_deciding_input: bool
    """An input moves the recommended option's advantage (or cost) within its range: the one-at-a-time
    sensitivity's first entry has an effect."""
    deciding_input_flips: Annotated[bool, Guard("has_deciding_input")]
    """At that input's low or high, the rules decide differently."""
