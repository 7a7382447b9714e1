"""Which names a rule's message reads: a detail that is costly to work out (a serverless endpoint
repriced at a dozen start times) is worked out only where a rule that fired shows it."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from jinja2 import meta

from gpu_advisor.engine.rulebook.durable import Firing
from gpu_advisor.engine.rulebook.schema import Rulebook


@lru_cache(maxsize=1024)
def message_reads(message: str) -> frozenset[str]:
    """The names ``message`` reads: fact fields and details (analysed in the environment messages render
    in, which knows their filters, as the rules' load check does)."""
    from gpu_advisor.engine.i18n.environment import environment

    return frozenset(meta.find_undeclared_variables(environment("en").parse(message)))


def read_by_fired(firings: Iterable[Firing], rulebook: Rulebook) -> frozenset[str]:
    """The names the messages of the rules that fired read."""
    found: set[str] = set()
    for firing in firings:
        found |= message_reads(rulebook.rule(firing.rule_id).message)
    return frozenset(found)
