"""Errors a user can act on. The CLI turns them into a message and an exit code, never a traceback."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class AdvisorError(Exception):
    """Base class of errors that carry a message meant for the user."""


class InputError(AdvisorError):
    """Bad user input: names the field, the bad value and what is allowed.

    A validation error also keeps its ``problems`` (field, type, context) so the command line can say
    it in the reader's language; ``str(error)`` is the English text."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        problems: list[dict[str, object]] | None = None,
        origin: str | None = None,
        what: str | None = None,
    ) -> None:
        super().__init__(message)
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


def unknown_value_message(field: str, value: str, allowed: Iterable[str]) -> str:
    allowed_sorted = sorted(allowed)
    message = f"{field}: unknown value {value!r}; allowed: {', '.join(allowed_sorted)}"
    suggestion = close_match(value, allowed_sorted)
    extending = [candidate for candidate in allowed_sorted if candidate.startswith(value)]
    if suggestion:
        message += f" (did you mean {suggestion!r}?)"
    elif len(extending) > 1:  # 'h100': h100-nvl, h100-pcie and h100-sxm, each a GPU of its own
        message += f" (did you mean one of {', '.join(repr(candidate) for candidate in extending)}?)"
    return message
