"""The HTTP service's query parameters: the evaluation date, the language and currency of the texts and
amounts, and the rules' topic, read as the command line reads ``--as-of``, ``--lang``, ``--currency`` and
``--topic`` and refused in its words; and the 422 for a query parameter the endpoint does not take, in the
shape of an unknown body field's."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Annotated, Any

from fastapi import Query
from pydantic import BeforeValidator

from gpu_advisor.engine.commands.common import CURRENCY_CHOICE, LANGUAGE_CHOICE
from gpu_advisor.engine.common.errors import InputError, close_match, unknown_value_problem
from gpu_advisor.engine.common.user_input import iso_date, not_a_date
from gpu_advisor.engine.domain.choices import TOPICS, Topic
from gpu_advisor.engine.i18n.formats import Currency, Language


def query_date(value: Any) -> Any:
    """A date written YYYY-MM-DD, read as ``--as-of`` reads it (pydantic would also read a number as a Unix
    timestamp, and says a day that does not exist in its own words); the option's message otherwise."""
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return iso_date(str(value), "as_of")
    except InputError:
        raise ValueError(str(not_a_date(str(value)))) from None


def query_topic(value: Any) -> Any:
    """A rules' topic as ``--topic`` takes it; the option's message, the topics and the one meant,
    otherwise."""
    if value is None or value in TOPICS:
        return value
    raise ValueError(str(unknown_value_problem(str(value), TOPICS)))


AS_OF = Annotated[
    dt.date | None,
    BeforeValidator(query_date),
    Query(description="Evaluation date (YYYY-MM-DD), for the age of prices; default today."),
]
TOPIC = Annotated[
    Topic | None,
    BeforeValidator(query_topic),
    Query(description="Only rules of this topic."),
]
LANG = Annotated[
    Language,
    # Read as --lang and --currency read them: one definition of what each takes (a locale's name, any case).
    BeforeValidator(LANGUAGE_CHOICE.chosen),
    Query(description="Language of the texts, as --lang (also a locale's name: de_DE.UTF-8)."),
]
CURRENCY = Annotated[
    Currency,
    BeforeValidator(CURRENCY_CHOICE.chosen),
    Query(description="Currency of the amounts in the texts, converted at the knowledge base's dated rate."),
]


def unknown_query_parameters(
    given: Iterable[tuple[str, str]], allowed: Sequence[str]
) -> list[dict[str, Any]]:
    """A problem for each query parameter of ``given`` (name and value pairs) that is not ``allowed``
    (once each, in the order given), naming the ones the endpoint takes and the one meant where one is
    close, as an unknown body field's problem does; and for one it takes given more than once, of which
    only one would be heeded (``?currency=CHF&currency=USD``)."""
    names = [name for name, _ in given]
    problems = []
    for name in dict.fromkeys(names):
        if name in allowed:
            if names.count(name) > 1:
                message = "given more than once; give it once"
                problems.append({"loc": ["query", name], "msg": message, "type": "value_error"})
            continue
        message = "unknown query parameter; this endpoint takes none"
        if allowed:
            message = f"unknown query parameter; allowed query parameters: {', '.join(allowed)}"
            suggestion = close_match(name, allowed)
            if suggestion:
                message += f" (did you mean {suggestion!r}?)"
        problems.append({"loc": ["query", name], "msg": message, "type": "extra_forbidden"})
    return problems
