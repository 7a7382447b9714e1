"""Validation errors as a reader can act on them: the field, the bad value, the limits, a close match;
written in the reader's language.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Sequence
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from gpu_advisor.engine.common.errors import InputError, close_match, spelling_of
from gpu_advisor.engine.common.values import COMMA_GROUPS, DECIMAL_COMMA, GROUP_SEPARATORS, SPACED_GROUPS
from gpu_advisor.engine.common.wording import Words, WordsError, at
from gpu_advisor.engine.domain.text_patterns import NAME, ONE_LINE, TEXT
from gpu_advisor.engine.i18n.reading import thousands_dotted

# pydantic's messages for type errors, as msgids the language catalogs translate.
TYPE_MESSAGES: dict[str, str] = {
    "int_type": "Input should be a valid integer",
    "int_parsing": "Input should be a valid integer, unable to parse string as an integer",
    "int_from_float": "Input should be a valid integer, got a number with a fractional part",
    "float_type": "Input should be a valid number",
    "float_parsing": "Input should be a valid number, unable to parse string as a number",
    "bool_type": "Input should be a valid boolean",
    "bool_parsing": "Input should be a valid boolean, unable to interpret input",
    "string_type": "Input should be a valid string",
    "string_too_short": "String should have at least 1 character",
    "dict_type": "Input should be a valid dictionary",
    "model_type": "Input should be a valid dictionary or instance of the model",
    "list_type": "Input should be a valid list",
    "date_from_datetime_parsing": "Input should be a valid date",
    "date_from_datetime_inexact": "Input should be a valid date",
    "date_parsing": "Input should be a valid date",
    "date_type": "Input should be a valid date",
    "tuple_type": "Input should be a valid list",
    "finite_number": "Input should be a finite number",
}


PATTERN_TYPES: dict[str, str] = {NAME: "one_line", ONE_LINE: "one_line", TEXT: "text_lines"}
"""Patterns of free text (``text_patterns.py``), by the kind of problem that says in words what they
allow (``PATTERN_WORDS``), not as a regular expression."""
PATTERN_WORDS: dict[str, Words] = {
    "one_line": Words("one line of text, without control characters such as tabs or line breaks"),
    "text_lines": Words("text without control characters other than tabs and line breaks"),
}
"""What each kind of free text allows, as a problem with it says (``templates/input_error.txt.j2``; the
HTTP service's 422, ``commands/http_errors.py``)."""


def pattern_words(pattern: object) -> Words | None:
    """What text of ``pattern`` (a field's, as pydantic names it in a problem) allows, in words; None for
    a pattern of another kind."""
    kind = PATTERN_TYPES.get(str(pattern))
    return PATTERN_WORDS[kind] if kind is not None else None


def validation_problems(error: ValidationError, schema: type[BaseModel]) -> list[dict[str, Any]]:
    """Each problem of a pydantic error with what a reader needs: field, kind, limits, a suggestion."""
    problems = []
    for problem in error.errors():
        field = ".".join(str(part) for part in problem["loc"]) or "(top level)"
        kind = problem["type"]
        given = problem.get("input")
        entry: dict[str, Any] = {
            "field": field,
            "type": kind,
            "msg": problem["msg"],
            "ctx": {key: _plain_number(value) for key, value in problem.get("ctx", {}).items()},
            "input": _short_repr(given),
            # A check across fields gets the whole mapping as its input: its message names the fields.
            "show_input": kind not in ("missing", "extra_forbidden")
            and not (kind == "value_error" and isinstance(given, dict))
            and not getattr(problem.get("ctx", {}).get("error"), "names_input", False),
            "allowed": [],
            "suggestion": None,
        }
        if kind == "string_pattern_mismatch" and field in ("company_country", "country"):
            entry["type"] = "iso_country"
        elif kind == "string_pattern_mismatch":
            entry["type"] = PATTERN_TYPES.get(str(problem.get("ctx", {}).get("pattern")), kind)
        if kind == "model_type" and field == "model" and isinstance(given, str):
            # 'model: llama-3.1-8b' is the natural first try: say the mapping it takes instead.
            entry["type"], entry["show_input"] = "model_as_text", False
        if kind == "extra_forbidden":
            parent, key = problem["loc"][:-1], str(problem["loc"][-1])
            entry["allowed"] = _allowed_fields(schema, parent)
            entry["suggestion"] = close_match(key, entry["allowed"]) or _nested_field(schema, parent, key)
        written = given.strip() if isinstance(given, str) else ""
        if kind.startswith("float_") and DECIMAL_COMMA.fullmatch(written):
            # German '0,5': a data file reads a number with a decimal point only. '1,500' may be English
            # thousands too: both readings are said.
            entry["decimal_point"] = f"{float(written.replace(',', '.')):g}"
            entry["grouped"] = written.replace(",", "") if COMMA_GROUPS.fullmatch(written) else None
        elif kind.startswith(("float_", "int_")) and COMMA_GROUPS.fullmatch(written):
            # '1,500' for a whole number, or '1,500,000': thousands commas alone.
            entry["grouped"], entry["decimal_point"] = written.replace(",", ""), None
        elif kind.startswith(("float_", "int_")) and UNDERSCORE_GROUPS.fullmatch(written):
            # '2_000_000' as Python writes it: the data file's reader takes it for text.
            entry["underscored"] = written.replace("_", "")
        elif kind.startswith(("float_", "int_")) and SPACED_GROUPS.fullmatch(written):
            # Swiss "2'000'000" and the DIN standard's "2 000 000": the reader takes them for text.
            entry["spaced"] = GROUP_SEPARATORS.sub("", written)
        if kind.startswith("int_"):
            entry["thousands"] = grouped_digits(given)
            # 2.0 for 2 is as likely as German 2.000 for 2000: both readings are said.
            entry["whole"] = int(given) if isinstance(given, float) and given.is_integer() else None
            # 1e12 for a field of at most 1e10: "write 1000000000000" would be refused next; the bound
            # is said instead.
            entry["whole_beyond"] = _bound_passed(schema, problem["loc"], entry["whole"])
            if entry["whole_beyond"] is not None:
                entry["whole"] = None
        # YAML 1.1's yes/no/on/off, which the reader keeps as text: the field takes true or false.
        entry["true_false"] = kind.startswith("bool_") and isinstance(given, str)
        if kind == "literal_error" and isinstance(given, str):
            choices = re.findall(r"'([^']*)'", str(problem.get("ctx", {}).get("expected", "")))
            entry["suggestion"] = spelling_of(given, choices)
        problems.append(entry)
    return problems


UNDERSCORE_GROUPS = re.compile(r"[+-]?\d+(?:_\d+)+(?:\.\d+)?")
"""A number with underscores between its digits (``2_000_000``), as Python and YAML 1.1 write it."""


def grouped_digits(given: Any) -> int | None:
    """The whole number a German reader meant with a dot between groups of three digits: YAML reads
    ``1.500`` as 1.5 and ``2.000.000`` as text (None where the value reads otherwise)."""
    # 10.000 reads as 10.0 and 1.500 as 1.5: the thousands they may mean, where the part before the dot
    # is one group of 1 to 3 digits (5000.5 has no thousands dot).
    if isinstance(given, float) and 1 <= given < 1000:
        whole = round(given * 1000)
        return whole if abs(given * 1000 - whole) < 1e-6 else None
    if isinstance(given, str):
        return thousands_dotted(given)
    return None


def _plain_number(value: Any) -> Any:
    """Limits as pydantic writes them: 1 rather than 1.0."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def input_error(
    origin: str | Words, error: ValidationError, schema: type[BaseModel], what: str = "workload"
) -> InputError:
    """A pydantic validation error as an ``InputError`` the reader can act on."""
    problems = validation_problems(error, schema)
    return InputError(
        render_problems(str(origin), problems, what, "en"),
        # The first problem's field, for a caller that handles one (every problem is in ``problems``).
        field=str(problems[0]["field"]) if problems else None,
        problems=problems,
        origin=origin,
        what=what,
    )


def words_problem(field: str, words: Words) -> dict[str, Any]:
    """A problem a check after the validation found (``field``: what ``words`` say is wrong with), in the
    shape of ``validation_problems``' (a validator's complaint), to be listed beside others."""
    return {
        "field": field,
        "type": "value_error",
        "msg": str(words),
        "ctx": {"error": WordsError(words)},
        "input": "",
        "show_input": False,  # the words name the value
        "allowed": [],
        "suggestion": None,
    }


def problems_error(origin: str | Words, problems: list[dict[str, Any]], what: str) -> InputError:
    """Several problems of one input (``origin``, a ``what``) as one ``InputError`` that lists each, as a
    validation error does."""
    return InputError(
        render_problems(str(origin), problems, what, "en"),
        field=str(problems[0]["field"]),
        problems=problems,
        origin=origin,
        what=what,
    )


def error_text(error: InputError, lang: str) -> str:
    """An input error in ``lang``: its validation problems, or the message it was built from, said in the
    language (the command line, the web page and a batch's rows say it so); else its English text."""
    from gpu_advisor.engine.i18n.environment import say

    if error.problems:
        origin = say(lang, error.origin) if error.origin is not None else ""
        return render_problems(origin, error.problems, str(error.what), lang)
    if error.words is not None:
        return say(lang, error.words)
    return str(error)


def prefixed(error: InputError, prefix: str | Words, field: str | None = None) -> InputError:
    """``error`` after ``prefix`` (the option or combination it came from: ``--compare-to: ...``), still
    said in the reader's language."""
    english = f"{prefix}: {error}"
    if error.problems:
        origin = at(prefix, error.origin if error.origin is not None else "")
        return InputError(english, field=field, problems=error.problems, origin=origin, what=error.what)
    if error.words is not None:
        return InputError(at(prefix, error.words), field=field)
    return InputError(english, field=field)


def render_problems(origin: str, problems: list[dict[str, Any]], what: str, lang: str) -> str:
    from gpu_advisor.engine.i18n.environment import render, say
    from gpu_advisor.engine.i18n.formats import Format

    # A validator's complaint built from Words is said in the language before the template reads it.
    said = [
        {**p, "said": say(lang, p["ctx"]["error"].words)}
        if isinstance(p.get("ctx", {}).get("error"), WordsError)
        else p
        for p in problems
    ]
    text = render(
        "input_error.txt.j2",
        Format.named(lang),
        origin=origin,
        problems=said,
        what=what,
        type_messages=TYPE_MESSAGES,
        pattern_words={kind: say(lang, words) for kind, words in PATTERN_WORDS.items()},
    )
    return text.rstrip("\n")


def declared_constraints(info: FieldInfo) -> list[Any]:
    """A field's constraints (``Le``, ``Ge``, ...): its own and those its type declares, wherever an
    optional type nests them (``Optional[Annotated[int, Field(le=...)]]``)."""
    found = [*info.metadata]
    pending = [info.annotation]
    while pending:
        annotation = pending.pop()
        found += getattr(annotation, "__metadata__", ())
        pending += typing.get_args(annotation)
    return found


def _bound_passed(schema: type[BaseModel], loc: Sequence[Any], whole: int | None) -> dict[str, int] | None:
    """The field's bound ``whole`` passes, as ``{"most": n}`` or ``{"least": n}``; None within them."""
    if whole is None or not loc:
        return None
    info = model_at(schema, tuple(loc[:-1])).model_fields.get(str(loc[-1]))
    for bound in declared_constraints(info) if info is not None else ():
        if isinstance(bound, annotated_types.Le) and isinstance(bound.le, int) and whole > bound.le:
            return {"most": bound.le}
        if isinstance(bound, annotated_types.Ge) and isinstance(bound.ge, int) and whole < bound.ge:
            return {"least": bound.ge}
    return None


def _nested_field(schema: type[BaseModel], parent: tuple[Any, ...], key: str) -> str | None:
    """``model.custom_weights`` for a ``custom_weights`` written beside ``model`` rather than under it:
    the field of a nested model the key names (None where none does)."""
    for name, info in model_at(schema, parent).model_fields.items():
        nested = _nested_model(info.annotation)
        if nested is not None and key in nested.model_fields:
            return f"{name}.{key}"
    return None


def _allowed_fields(schema: type[BaseModel], location: tuple[Any, ...]) -> list[str]:
    model = model_at(schema, location)
    return [*model.model_fields, *getattr(model, "read_before_validation", ())]


def model_at(schema: type[BaseModel], location: Sequence[Any]) -> type[BaseModel]:
    """The model a location (``("waivers", 0)``, ``("model",)``) leads to from ``schema``: through nested
    models, lists and optional fields; list indexes and dictionary keys lead to the item's model."""
    model = schema
    for part in location:
        info = model.model_fields.get(str(part))
        if info is None:
            continue  # an index or a key: the item's model was found with its field
        found = _nested_model(info.annotation)
        if found is not None:
            model = found
    return model


def _nested_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in typing.get_args(annotation):
        found = _nested_model(argument)
        if found is not None:
            return found
    return None


def _short_repr(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        # As the workload file wrote it (YAML and JSON), not as Python does.
        return {True: "true", False: "false", None: "null"}[value]
    try:
        text = repr(value)
    except ValueError:  # an integer of more digits than Python converts to text
        return "(a number too long to show)"
    return text if len(text) <= 60 else text[:57] + "..."


def refuse_proposal_layout(data: Any, origin: str | Words) -> None:
    """Refuse, naming the command that reads it, ``data`` laid out as a proposal file where a workload is
    expected (``domain/proposal.py``): a workload and its proposal (or proposals), a file of proposals,
    or a list of workloads with their proposals. A workload has a model, so none of these is one."""
    if isinstance(data, dict):
        proposal = "model" not in data and ("proposals" in data or {"workload", "proposal"} <= data.keys())
    else:
        proposal = (
            isinstance(data, list)
            and bool(data)
            and all(isinstance(item, dict) and {"workload", "proposal"} <= item.keys() for item in data)
        )
    if proposal:
        problem = Words(
            "this is a proposal (a workload and what is intended for it): check it with gpu-advisor check"
        )
        raise InputError(at(origin, problem), field="proposal")
