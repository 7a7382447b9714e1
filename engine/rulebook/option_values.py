"""The values an option field takes, from the knowledge base and the fields' declared choices. A rule's
option filter that names another value (a provider misspelt, "ondemand", "no" for a yes-or-no field)
matches no option, or, in an allow-list (``not_in``), excludes them all, and so changes a decision
without a word: loading refuses it, naming the rule and the value."""

from __future__ import annotations

import typing
from collections.abc import Iterable

from gpu_advisor.engine.common.errors import close_match
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.choices import BATCH_API, JURISDICTIONS, Interconnect, PricingKind
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import CommitmentTerm
from gpu_advisor.engine.rulebook.schema import Condition, OptionTest

YES_OR_NO = frozenset({True, False})


def option_values(knowledge: Knowledge) -> dict[str, frozenset[object]]:
    """The values each option field can take (``schema.OPTION_KINDS``): the catalog's providers, GPUs,
    provider kinds, GPU segments and own servers' housings, and the declared choices of the rest."""
    providers = knowledge.providers.providers
    gpus = knowledge.gpus.gpus
    return {
        "eu": YES_OR_NO,
        "jurisdiction": frozenset(JURISDICTIONS),
        "pricing": frozenset((*typing.get_args(PricingKind), BATCH_API)),
        "commitment": frozenset(typing.get_args(CommitmentTerm)),
        "interconnect": frozenset(typing.get_args(Interconnect)),
        "provider_kind": frozenset(p.kind for p in providers),
        "enterprise_sla": YES_OR_NO,
        "segment": frozenset(g.segment for g in gpus),
        "provider": frozenset(knowledge.provider_ids()),
        "gpu": frozenset(g.id for g in gpus),
        "managed": YES_OR_NO,
        "streaming_worker": frozenset(("ready_made", "team_built", "none")),
        "superseded": YES_OR_NO,
        "withdrawn": YES_OR_NO,
        "reasoning": YES_OR_NO,
        "housing": frozenset(s.housing for s in knowledge.own_hardware.servers),
        "countries": frozenset(knowledge.country_codes()),
    }


def unknown_values(tests: Iterable[OptionTest], known: dict[str, frozenset[object]]) -> list[Words]:
    """A problem for every value a test names that its field never takes."""
    problems = []
    for test in tests:
        allowed = known.get(test.field)
        if allowed is None:
            continue
        named = test.not_in if test.not_in is not None else (test.equals,)
        for value in named:
            # A filter's value is a boolean or a string (``OptionTest.equals``): a yes-or-no field's
            # set holds no string, a name field's no boolean.
            if value in allowed:
                continue
            # Some 250 country codes: the list would bury the problem.
            choices = (
                Words("not an ISO 3166-1 code the catalog knows")
                if test.field == "countries"
                else Words.joined(
                    "%(one_of)s%(hint)s",
                    one_of=Words("one of %(names)s", names=", ".join(sorted(map(_said, allowed)))),
                    hint=_hint(value, allowed),
                )
            )
            said: dict[str, object] = {"field": test.field, "value": _said(value), "choices": choices}
            problems.append(
                Words(
                    "%(field)s is never %(value)s (%(choices)s), so the options it was meant to admit are "
                    "excluded",
                    **said,
                )
                if test.not_in is not None
                else Words(
                    "%(field)s is never %(value)s (%(choices)s), so this test matches no option", **said
                )
            )
    return problems


def _said(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value)


def _hint(value: object, allowed: frozenset[object]) -> Words | str:
    """'; did you mean ...?' with the nearest allowed name to a misspelt one; "" where none is near."""
    near = close_match(value, map(str, allowed)) if isinstance(value, str) else None
    return Words("; did you mean %(name)s?", name=repr(near)) if near else ""


NAMED_FACTS = {"provider": "provider", "gpu": "gpu", "pricing": "pricing", "country": "countries"}
"""Fact fields that hold a catalog name an option field holds too (a proposal's provider, GPU, pricing,
country), with that option field: a condition that compares one with a name checks the name as a
filter's would be."""


def unknown_names(condition: Condition, known: dict[str, frozenset[object]]) -> list[Words]:
    """A problem for every name a condition on a ``NAMED_FACTS`` field compares with that the catalog
    never has ("" stands for "not known" in a fact, and may be compared with)."""
    if condition.fact not in NAMED_FACTS:
        return []
    named = condition.values if condition.values is not None else (condition.value,)
    problems = []
    for value in named:
        allowed = known[NAMED_FACTS[condition.fact]]
        if isinstance(value, str) and value and value not in allowed:
            problems.append(
                Words.joined(
                    "%(problem)s%(hint)s",
                    problem=Words(
                        "no %(fact)s is named %(value)s in the catalog",
                        fact=condition.fact,
                        value=repr(value),
                    ),
                    hint=_hint(value, allowed),
                )
            )
    return problems
