"""Errors a user can act on. The CLI turns them into a message and an exit code, never a traceback."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

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


class SystemRefusal(InputError):
    """The operating system refused what the command needed (no permission to write where the output
    goes, a full disk): said as the input error it names, with exit code 5 instead of 2."""


class KnowledgeError(AdvisorError):
    """A knowledge or rule file is missing, malformed or inconsistent: names the file, entry and field.
    Built from ``Words`` (an organization's policy), it keeps them as ``words`` to be said in the
    reader's language; ``str(error)`` is the English text."""

    def __init__(self, message: str | Words) -> None:
        super().__init__(str(message))
        self.words = message if isinstance(message, Words) else None


class EngineError(AdvisorError):
    """The rules engine reported a failure inside an evaluation."""


def close_match(value: str, allowed: Iterable[str]) -> str | None:
    """The allowed value closest to ``value``, if one is close enough to suggest (``suggestions`` where
    it gives one alone)."""
    found = suggestions(value, allowed).matches
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class Suggestions:
    """What a value that is not allowed may have meant: ``matches``, the likeliest first, and where it
    names a size in billions that no close allowed value has, that size (``missing_size``)."""

    matches: tuple[str, ...] = ()
    missing_size: float | None = None


def suggestions(
    value: str, allowed: Iterable[str], sizes: Mapping[str, float] | None = None, most: int = 3
) -> Suggestions:
    """The allowed values ``value`` may mean. Those it starts, where it starts any ('h100' of h100-sxm and
    h100-pcie: each a thing of its own, so all of them); else, where it names a size ('llama-3.1-7b':
    7B, ``named_size``) and allowed values have sizes (``sizes``, else the sizes their names give), the
    closest spelling of that size, or where none is close, the close spelling nearest in size and every
    value of that size (at most ``most``: a 7B never reads as the 70B its spelling is nearest); else the
    closest spelling, if one is close enough."""
    candidates = list(allowed)
    # 'L40S' for l40s, 'de' for DE: the same letters in another case mean that value and no other.
    same_letters = [candidate for candidate in candidates if candidate.casefold() == value.casefold()]
    if same_letters:
        return Suggestions(tuple(same_letters))
    folded = value.casefold()
    extending = [candidate for candidate in candidates if candidate.casefold().startswith(folded)]
    if extending:
        return Suggestions(tuple(extending))
    # Two neighbouring letters typed in the wrong order ('gpsu') mean the value with them the right way
    # round ('gpus'), which difflib's ratio ranks below a shorter value ('gpu') missing a letter.
    swapped = [candidate for candidate in candidates if one_swap_apart(folded, candidate.casefold())]
    if swapped:
        return Suggestions(tuple(swapped[:1]))
    # Spelling compared in one case ('Lama-3.1-8B' is llama-3.1-8b's), the values suggested as written.
    by_folded = {candidate.casefold(): candidate for candidate in candidates}
    close = [
        by_folded[found]
        for found in difflib.get_close_matches(folded, by_folded, n=len(by_folded), cutoff=SPELLING_CUTOFF)
    ]
    size = named_size(value)
    known = {c: sizes[c] if sizes is not None and c in sizes else named_size(c) for c in candidates}
    sized = {candidate: found for candidate, found in known.items() if found}
    if size is None or not sized:
        return Suggestions(tuple(close[:1]))
    same = [candidate for candidate in close if candidate in sized and same_size(sized[candidate], size)]
    if same:
        return Suggestions((same[0],))
    # The close spelling nearest in size; where no close spelling has a known size ('deepseek-r1' from
    # its name alone), the closest spelling.
    nearest = sorted((c for c in close if c in sized), key=lambda c: abs(math.log(sized[c] / size)))[:1]
    nearest = nearest or close[:1]
    by_spelling = sorted(
        candidates, key=lambda c: -difflib.SequenceMatcher(None, folded, c.casefold()).ratio()
    )
    of_size = [c for c in by_spelling if c in sized and same_size(sized[c], size) and c not in nearest]
    # A value spelt like none of them names nothing whose size could be missing ('8b').
    return Suggestions(tuple([*nearest, *of_size][:most]), missing_size=size if close else None)


def one_swap_apart(typed: str, meant: str) -> bool:
    """``typed`` is ``meant`` with two neighbouring letters swapped ('gpsu' of 'gpus'); digits swapped
    name another size or version ('qwen2.5-27b' is not a typo of qwen2.5-72b)."""
    if len(typed) != len(meant) or typed == meant:
        return False
    differing = [i for i, (a, b) in enumerate(zip(typed, meant, strict=True)) if a != b]
    return (
        len(differing) == 2
        and differing[1] == differing[0] + 1
        and typed[differing[0]] == meant[differing[1]]
        and typed[differing[1]] == meant[differing[0]]
        and not any(typed[i].isdigit() for i in differing)
    )


SPELLING_CUTOFF = 0.6
"""How alike a spelling must be to be suggested (difflib's ratio)."""

LITERAL_CUTOFF = 0.75
"""How alike a refused choice and an allowed one must be (difflib's ratio) to be offered as its spelling."""


def spelling_of(given: str, choices: list[str]) -> str | None:
    """The choice ``given`` misspells, if one: "on-demand" as the memos print it for on_demand, "FP8" for
    fp8, "stedy" for steady; never one with other digits ("fp4" is another precision than fp8, not a typo
    of it)."""
    by_folded = {choice.lower().replace("-", "_"): choice for choice in choices}
    folded = given.lower().replace("-", "_")
    if folded in by_folded:
        return by_folded[folded]
    # Closer than a field name's suggestion: the choices are short, and "ollama" is not a typo of vllm.
    found = difflib.get_close_matches(folded, list(by_folded), n=2, cutoff=LITERAL_CUTOFF)
    if len(found) != 1 or re.sub(r"\D", "", found[0]) != re.sub(r"\D", "", given):
        return None
    return by_folded[found[0]]


SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)b(?![a-z0-9])")
"""A size in billions of parameters in a model's name: a number and 'b' after a separator or a space
('llama-3.1-8b', 'Llama 3.1 8B'; not the '7b' of 'mixtral-8x7b', a count of experts)."""


def named_size(name: str) -> float | None:
    """The size in billions a name gives (its first, ``SIZE``), None where it gives none or zero."""
    found = SIZE.search(name.lower())
    return (float(found.group(1)) or None) if found else None


def same_size(size: float, other: float) -> bool:
    """Two sizes in billions read as one ('8b' for an 8.03B model)."""
    return math.isclose(size, other, rel_tol=0.05)


VALIDATOR_PREFIX = "Value error, "
"""What pydantic puts before a validator's own message; it tells a reader nothing."""


def validator_message(message: str) -> str:
    """A validation problem's message as a reader should see it: a validator's words without pydantic's
    "Value error, " before them; every other message as it is."""
    return message.removeprefix(VALIDATOR_PREFIX)


def unknown_value_message(field: str, value: str, allowed: Iterable[str]) -> str:
    return str(unknown_value(field, value, allowed))


def unknown_country(field: str, value: str, meant: str | None = None) -> Words:
    """``field: 'XX' is no ISO 3166-1 country code``: the list (knowledge/countries.yaml) is too long to
    name, and a code in the wrong case is refused, with a hint, by the field's pattern first. ``meant``:
    the listed code of the country ``value`` is in use for (``CountriesFile.meant_by``)."""
    problem = Words("%(value)s is no ISO 3166-1 country code", value=repr(value))
    return Words.joined("%(field)s: %(problem)s", field=field, problem=naming_meant(problem, meant))


def naming_meant(problem: Words, meant: str | None) -> Words:
    """A refused country code's ``problem``, with the listed code of the country it is in use for where
    there is one (``CountriesFile.meant_by``: EL, the EU's code for Greece, is GR)."""
    if meant is None:
        return problem
    return Words("%(problem)s; ISO 3166-1 writes it %(meant)s", problem=problem, meant=meant)


def unknown_value(field: str, value: str, allowed: Iterable[str]) -> Words:
    """``field: unknown value 'x'; allowed: ...``, with the allowed value meant where one is close."""
    return Words.joined("%(field)s: %(problem)s", field=field, problem=unknown_value_problem(value, allowed))


def unknown_model_problem(name: str, ids: Iterable[str]) -> Words:
    """An unknown ``model.name``, with how to describe a model the catalog lacks: by its size."""
    return Words.joined(
        "%(problem)s; %(hint)s",
        problem=unknown_value_problem(name, ids),
        hint=Words(
            "a model the catalog lacks is described by its size instead of a name: params_b (and "
            "active_params_b for a mixture of experts)"
        ),
    )


def unknown_value_problem(value: str, allowed: Iterable[str]) -> Words:
    """``unknown value 'x'; allowed: ...``, with the allowed value meant where one is close."""
    allowed_sorted = sorted(allowed)
    message = Words(
        "unknown value %(value)s; allowed: %(allowed)s", value=repr(value), allowed=", ".join(allowed_sorted)
    )
    found = suggestions(value, allowed_sorted).matches
    if len(found) == 1:
        hint = Words("did you mean %(suggestion)s?", suggestion=repr(found[0]))
    elif found:  # 'h100': h100-nvl, h100-pcie and h100-sxm, each a GPU of its own
        hint = Words(
            "did you mean one of %(candidates)s?",
            candidates=", ".join(repr(candidate) for candidate in found),
        )
    else:
        return message
    return Words.joined("%(message)s (%(hint)s)", message=message, hint=hint)
