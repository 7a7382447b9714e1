"""Where the cheapest admitted rental processes personal data, beside the company's country: the
residency rules admit its region, and RES018 says where a Swiss company's data then leave Switzerland,
for which country."""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.rulebook.details import CountryPlace


class Abroad(NamedTuple):
    best_option: bool
    """The best option's regions name their countries, and the company's country is none of them."""
    places: tuple[CountryPlace, ...]
    """Those countries, in the order its regions name them (none where it is not abroad)."""
    jurisdiction: str
    """Their jurisdiction ("" where it is not abroad)."""


def abroad(knowledge: Knowledge, market: Market, company_country: str) -> Abroad:
    """The best option, against ``company_country``, each code as ``countries.yaml`` compares countries (UK
    is GB): a region whose countries the catalog does not name (a group of regions, variable locations) is
    said of no country."""
    best = market.alternatives.best
    same = knowledge.countries.same_country
    if best is None or not best.countries or same(company_country) in {same(code) for code in best.countries}:
        return Abroad(False, (), "")
    names = {entry.country: entry.name for entry in knowledge.cost_defaults.countries}
    places = tuple(CountryPlace(code=code, name=names.get(code, code)) for code in best.countries)
    return Abroad(True, places, best.jurisdiction)
