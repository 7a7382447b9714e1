"""Whether the residency rules that fired for the workload admit where a proposal runs, by their own
conclusions: the option filters on an option's location, applied to the proposal's jurisdictions; and
whether a foreign data-access law reaches its provider's parent company (RES016)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.engine.domain.proposal import Location
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.pipeline.foreign_reach import reached_providers
from gpu_advisor.engine.rulebook.conclusions import excluded_by, option_filters
from gpu_advisor.engine.rulebook.texts import titled

LOCATION_FIELDS = frozenset(("jurisdiction", "eu"))
"""The option attributes that depend only on where an option runs."""


def residency_facts(
    place: Location, evaluation: Evaluation, lang: str = "en", provider: str | None = None
) -> tuple[dict[str, Any], str]:
    """Where the proposal runs (``proposal_place``: jurisdictions and countries) and whether the residency
    rules that fired for the workload exclude it, by their own conclusions (the option filters on its
    location); the law that reaches ``provider``'s parent company, if any (``pipeline.foreign_reach``); and
    the excluding rules with their titles in ``lang``, for the message."""
    rulebook, jurisdictions = evaluation.rulebook, place.jurisdictions
    residency = [
        rule
        for rule in evaluation.rules
        if rule.topic == "residency" and rulebook.origin(rule.id) == "builtin"
    ]
    filters = [(rule_id, f) for rule_id, f in option_filters(residency) if f.fields <= LOCATION_FIELDS]
    excluding = {
        jurisdiction: excluded_by({"jurisdiction": jurisdiction, "eu": jurisdiction == "EU"}, filters)
        for jurisdiction in jurisdictions
    }
    known = bool(jurisdictions) and len({bool(rule_ids) for rule_ids in excluding.values()}) == 1
    rule_ids = {rule_id for rule_ids in excluding.values() for rule_id in rule_ids}
    law = reached_providers(evaluation.knowledge, evaluation.workload.company_country).get(provider or "", "")
    facts = {
        "jurisdiction": "/".join(jurisdictions),
        "countries": ", ".join(place.countries),
        "country_known": len(place.countries) == 1,
        "country": place.countries[0] if len(place.countries) == 1 else "",
        "jurisdiction_known": known,
        "jurisdiction_excluded": known and bool(rule_ids),
        "provider_foreign_law": law,
        "provider_foreign_reach": bool(law),
    }
    return facts, titled((rule for rule in residency if rule.id in rule_ids), lang)
