"""Errors a user can act on. The CLI turns them into a message and an exit code, never a traceback."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from gpu_advisor.engine.common.wording import Words


class AdvisorError(Exception):
    """Base class of errors that carry a message meant for the user."""


class InputError(AdvisorError):
    """Bad user input: names the field, the bad value and what is allowed.

    A validation error also keeps its ``problems`` (field, type, context), and an error built from
    ``Words`` its ``words``, so that the command line and the web page can say it in the reader's
    language; ``str(error)`` is the English text. ``origin``: the file (and place) the problems are in."""

    def __init__(
        self,
        message: str | Words,
        *,
        field: str | None = None,
        problems: list[dict[str, object]] | None = None,
        origin: str | Words | None = None,
        what: str | None = None,
    ) -> None:
        super().__init__(str(message))
        self.words = message if isinstance(message, Words) else None
        self.field = field
        self.problems = problems
        self.origin = origin
        self.what = what


class KnowledgeError(AdvisorError):
    """A knowledge or rule file is missing, malformed or inconsistent: names the file, entry and field."""


class EngineError(AdvisorError):
    """The rules engine reported a failure inside an evaluation."""


def close_match(value: str, allowed: Iterable[str]) -> str | None:
    """The allowed value closest to ``value``, if one is close enough to suggest. A value that starts
    several allowed ones ('h100' of h100-sxm and h100-pcie) gets no suggestion: the closest spelling
    would be a different thing ('h200')."""
    candidates = list(allowed)
    extending = [candidate for candidate in candidates if candidate.startswith(value)]
    if len(extending) == 1:
        return extending[0]
    if extending:
        return None
    matches = difflib.get_close_matches(value, candidates, n=1, cutoff=0.6)
    return matches[0] if matches else None


VALIDATOR_PREFIX = "Value error, "
"""What pydantic puts before a validator's own message; it tells a reader nothing."""


def validator_message(message: str) -> str:
    """A validation problem's message as a reader should see it: a validator's words without pydantic's
    "Value error, " before them; every other message as it is."""
    return message.removeprefix(VALIDATOR_PREFIX)


def unknown_value_message(field: str, value: str, allowed: Iterable[str]) -> str:
    return str(unknown_value(field, value, allowed))


def unknown_value(field: str, value: str, allowed: Iterable[str]) -> Words:
    """``field: unknown value 'x'; allowed: ...``, with the allowed value meant where one is close."""
    allowed_sorted = sorted(allowed)
    message = Words.joined(
        "%(field)s: %(problem)s",
        field=field,
        problem=Words(
            "unknown value %(value)s; allowed: %(allowed)s",
            value=repr(value),
            allowed=", ".join(allowed_sorted),
        ),
    )
    suggestion = close_match(value, allowed_sorted)
    extending = [candidate for candidate in allowed_sorted if candidate.startswith(value)]
    if suggestion:
        hint = Words("did you mean %(suggestion)s?", suggestion=repr(suggestion))
    elif len(extending) > 1:  # 'h100': h100-nvl, h100-pcie and h100-sxm, each a GPU of its own
        hint = Words(
            "did you mean one of %(candidates)s?",
            candidates=", ".join(repr(candidate) for candidate in extending),
        )
    else:
        return message
    return Words.joined("%(message)s (%(hint)s)", message=message, hint=hint)
