"""The HTTP service's query parameters: the evaluation date, and the language and currency of the texts
and amounts, read as the command line reads ``--as-of``, ``--lang`` and ``--currency``; and the 422 for a
query parameter the endpoint does not take, in the shape of an unknown body field's."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Any

from fastapi import Query
from pydantic import BeforeValidator

from gpu_advisor.engine.common.errors import close_match, unknown_value_problem
from gpu_advisor.engine.i18n.formats import CURRENCIES, LANGUAGES, Currency, Language

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def iso_date(value: Any) -> Any:
    """Only a date written YYYY-MM-DD: pydantic would also read a number as a Unix timestamp."""
    if value is None or isinstance(value, dt.date) or (isinstance(value, str) and ISO_DATE.fullmatch(value)):
        return value
    raise ValueError("a date is written YYYY-MM-DD")


def language(value: Any) -> Any:
    """A language as ``--lang`` takes it: also as a locale names it (``de_DE.UTF-8``, ``DE``)."""
    from gpu_advisor.engine.i18n.click_words import locale_language

    if not isinstance(value, str):
        return value
    lang = locale_language(value)
    if lang not in LANGUAGES:
        raise ValueError(str(unknown_value_problem(value, LANGUAGES)))
    return lang


def currency(value: Any) -> Any:
    """A currency as ``--currency`` takes it: in any case (``chf``)."""
    if not isinstance(value, str):
        return value
    if value.upper() not in CURRENCIES:
        raise ValueError(str(unknown_value_problem(value, CURRENCIES)))
    return value.upper()


AS_OF = Annotated[
    dt.date | None,
    BeforeValidator(iso_date),
    Query(description="Evaluation date (YYYY-MM-DD), for the age of prices; default today."),
]
LANG = Annotated[
    Language,
    BeforeValidator(language),
    Query(description="Language of the texts, as --lang (also a locale's name: de_DE.UTF-8)."),
]
CURRENCY = Annotated[
    Currency,
    BeforeValidator(currency),
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
