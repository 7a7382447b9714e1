"""Guards declared once: the conditions a rule gets for the guarded fields it reads.

A fact field that means something only under a condition declares it (``Guard`` in ``facts.py``). A rule
that reads the field (as ``fact`` or ``other_fact``) gets the guard added to its conditions, so a rule
cannot fire on a placeholder 0 because its author forgot the guard. In a proposal check the guard
``<name>_known`` instead makes the check need ``<name>``: it reports 'unknown' where that is not known.
"""

from __future__ import annotations

from gpu_advisor.engine.rulebook.facts import guards
from gpu_advisor.engine.rulebook.schema import Condition, Rule


def fields_read(conditions: tuple[Condition, ...]) -> list[str]:
    """The fact fields the conditions read, in order, each once."""
    read = [c.fact for c in conditions] + [c.other_fact for c in conditions if c.other_fact]
    return list(dict.fromkeys(read))


def _guard_fields(rule: Rule) -> list[str]:
    by_field = guards(rule.fact)
    return list(
        dict.fromkeys(
            guard for field in fields_read(rule.applies + rule.when) for guard in by_field.get(field, ())
        )
    )


def inserted_guards(rule: Rule) -> tuple[Condition, ...]:
    """The guard conditions the rule does not state itself (none for a proposal check)."""
    if rule.is_check:
        return ()
    stated = {(c.fact, c.op, c.value) for c in rule.applies + rule.when}
    return tuple(
        Condition(fact=field, value=True)
        for field in _guard_fields(rule)
        if (field, "eq", True) not in stated
    )


def effective_when(rule: Rule) -> tuple[Condition, ...]:
    """The rule's conditions as evaluated: its own, then the guards it reads but does not state."""
    return rule.when + inserted_guards(rule)


def effective_needs(rule: Rule) -> tuple[str, ...]:
    """A proposal check's needs: its own, and every ``<name>_known`` guard of a field it reads."""
    if not rule.is_check:
        return rule.needs
    implied = [field.removesuffix("_known") for field in _guard_fields(rule) if field.endswith("_known")]
    return tuple(dict.fromkeys([*rule.needs, *implied]))
