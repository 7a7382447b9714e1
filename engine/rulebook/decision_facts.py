"""The ``decision`` fact: the route the decision takes, asserted once the proposals are settled
(``pipeline/decision.py``), so that a rule can speak of whichever route that is: a rental, a serverless
product, a mixed fleet, a managed API or owned servers. RES018 reads where it processes a Swiss company's
personal data. The decision is settled before its rules fire: they conclude nothing but their finding
(``schema.Rule``)."""

from __future__ import annotations

from typing import ClassVar, Literal

from gpu_advisor.engine.domain.choices import Deployment
from gpu_advisor.engine.rulebook.fact_base import Fact


class DecisionFact(Fact):
    about_workload: ClassVar[bool] = True

    kind: Literal["decision"] = "decision"
    decided_deployment: Deployment
    decided_route_abroad: bool
    """The decided route's places name their countries (a rental's or serverless product's regions, both
    offers' of a mixed fleet, the countries a managed API's provider hosts it in) and the company's country
    is none of them: the personal data it processes leave that country (``pipeline.abroad``). False for
    owned servers and a route the decision names no offer of."""
