"""The ``economics`` fact's fields about where the cheapest admitted rental processes personal data, beside
the company's country (``pipeline.abroad``): RES018 reads them."""

from __future__ import annotations

from typing import Annotated

from gpu_advisor.engine.rulebook.fact_base import Fact, Guard


class EconomicsResidency(Fact):
    """Fields of ``facts.EconomicsFact`` (its base): where the best option runs."""

    best_option_abroad: Annotated[bool, Guard("has_eligible_option")] = False
    """The best option's regions name their countries (``Option.countries``) and the company's country is
    none of them: the personal data it processes leave that country."""
