"""Where the decided route processes personal data, beside the company's country: the residency rules
admit its regions, and the ``decision`` fact says whether they lie abroad (RES018 tells a Swiss company
where its data then leave Switzerland, for which country)."""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.calc.commitments import fleet_name
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import Decision, Option
from gpu_advisor.engine.pipeline.market import Market
from gpu_advisor.engine.pipeline.routes import option_name
from gpu_advisor.engine.pipeline.serverless_weighing import serverless_name
from gpu_advisor.engine.rulebook.details import CountryPlace


class Route(NamedTuple):
    """The decided route where it is a concrete one: what the messages call it and where it runs."""

    name: str | Words
    countries: tuple[str, ...]
    """The countries its regions name (a managed API: those its provider hosts it in), each once."""
    jurisdiction: str


class Abroad(NamedTuple):
    route: bool
    """The route's regions name their countries, and the company's country is none of them."""
    places: tuple[CountryPlace, ...]
    """Those countries, in the order its regions name them (none where it is not abroad)."""
    jurisdiction: str
    """Their jurisdiction ("" where it is not abroad)."""


def decided_route(decision: Decision, chosen: Option | None, market: Market) -> Route | None:
    """The route ``decision`` takes, ``chosen`` its rental, serverless option or mixed fleet (marked
    chosen); None for owned servers and a route the decision names no offer of."""
    api, fleet, serverless = market.compared_api, market.mixed_fleet, market.serverless.best
    deployment = decision.deployment
    if deployment == "api" and api is not None:
        return Route(api.name, api.countries, api.jurisdiction)
    if chosen is None or not chosen.chosen:
        return None
    if deployment == "hybrid" and fleet is not None:
        # The reserved base's regions and the hourly peak's (of the same jurisdiction).
        countries = (*fleet.base.listing.countries, *fleet.peak.listing.countries)
        return Route(fleet_name(fleet), tuple(dict.fromkeys(countries)), chosen.jurisdiction)
    if deployment == "serverless" and serverless is not None:
        return Route(serverless_name(serverless), chosen.countries, chosen.jurisdiction)
    if deployment == "dedicated_cloud":
        return Route(option_name(chosen), chosen.countries, chosen.jurisdiction)
    return None


def abroad(knowledge: Knowledge, route: Route | None, company_country: str) -> Abroad:
    """``route`` against ``company_country``, each code as ``countries.yaml`` compares countries (UK is
    GB): a region whose countries the catalog does not name (a group of regions, variable locations) is
    said of no country."""
    same = knowledge.countries.same_country
    if route is None or not route.countries:
        return Abroad(False, (), "")
    if same(company_country) in {same(code) for code in route.countries}:
        return Abroad(False, (), "")
    names = {entry.country: entry.name for entry in knowledge.cost_defaults.countries}
    places = tuple(CountryPlace(code=code, name=names.get(code, code)) for code in route.countries)
    return Abroad(True, places, route.jurisdiction)
