"""Providers whose parent company sits in a state whose law reaches data its companies control abroad
(``data_protection.yaml``: extraterritorial_access): the residency rules keep personal data in the
admitted regions, and RES015 says where a provider there is still within such a reach."""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.pipeline.market import Market


class ForeignReach(NamedTuple):
    providers: tuple[str, ...]
    """The admitted options' providers within such a reach, by name, alphabetical."""
    laws: tuple[str, ...]
    """The laws that reach them, as data_protection.yaml names them."""
    european: tuple[str, ...]
    """The admitted options' European providers (``kind: european``), by name, alphabetical."""
    best_option: bool
    """The cheapest admitted rental is of one of ``providers``."""


def admitted_providers(market: Market) -> set[str]:
    """The providers of the rentals and serverless products no rule excluded."""
    providers = {p.listing.offer.provider for p in market.priced if not p.excluded_by}
    providers.update(c.listing.product.provider for c in market.serverless.candidates if not c.excluded_by)
    return providers


def reached_providers(knowledge: Knowledge, company_country: str) -> dict[str, str]:
    """Every catalog provider whose parent company is in a state with such a law, by id, with the law;
    a company in that state itself is within its reach whoever it rents from, so none is named then
    (each country as ``countries.yaml`` compares them: a company in the UK is in GB)."""
    same = knowledge.countries.same_country
    laws = {same(entry.country): entry.law for entry in knowledge.data_protection.extraterritorial_access}
    return {
        provider.id: laws[same(provider.parent.country)]
        for provider in knowledge.providers.providers
        if provider.parent is not None
        and same(provider.parent.country) in laws
        and same(provider.parent.country) != same(company_country)
    }


def foreign_reach(knowledge: Knowledge, market: Market, company_country: str) -> ForeignReach:
    admitted, reached = admitted_providers(market), reached_providers(knowledge, company_country)
    best = market.alternatives.best
    return ForeignReach(
        providers=tuple(sorted(knowledge.provider(p).name for p in admitted if p in reached)),
        laws=tuple(sorted({reached[p] for p in admitted if p in reached})),
        european=tuple(
            sorted(knowledge.provider(p).name for p in admitted if knowledge.provider(p).kind == "european")
        ),
        best_option=best is not None and best.provider in reached,
    )
