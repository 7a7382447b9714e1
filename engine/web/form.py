"""The questionnaire of ``gpu-advisor ask`` as a web form: the same questions, help texts, defaults and
checks (``apps/questionnaire.py`` over ``templates/questionnaire.yaml``), read from a query string.

A form's answers travel in the URL, keyed by the questions' fields (``model.precision=fp8``), numbers
written as the page's language writes them, so that a page's address can be shared and reopened. An empty
field takes the question's default, as Enter does in ``ask``. Workload fields the questionnaire does not
ask (latency targets, a load profile, the volume growth, ...) from a loaded file travel in ``extra`` as
JSON, and so does a range of requests a day: the form shows its point value, and the saved file keeps the
range while that value is not changed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gpu_advisor.engine.apps.questionnaire import (
    AnswerError,
    Question,
    applies,
    choices_of,
    default_for,
    left_to_defaults,
    load_questions,
    parse_answer,
    prefill_from,
    workload_document,
)
from gpu_advisor.engine.common import json_input
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.values import MAX_NESTING_DEPTH, ValueProblem, nested_deeper
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.workload import WorkloadInput, validate_workload
from gpu_advisor.engine.domain.workload_ranges import (
    RANGE_FIELDS,
    WorkloadRanges,
    split_ranges,
    with_ranges,
    written_ranges,
)
from gpu_advisor.engine.i18n.environment import translate
from gpu_advisor.engine.i18n.formats import Format

EXTRA = "extra"
"""The query parameter with the workload fields the form does not ask, as a JSON object."""

SETTINGS = ("lang", "currency", "as_of")
"""Query parameters that are no answers: the page's language and currency, the evaluation date."""


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class Field:
    """One question as a form control."""

    name: str
    id: str
    label: str
    help: str
    kind: str
    choices: tuple[Choice, ...]
    value: str
    error: str | None
    required: bool
    when_field: str | None
    when_equals: str | None
    derived_default: bool
    """The default depends on other answers (``default_when``, ``default_derived``): an empty choice
    stands for it."""

    @property
    def inputmode(self) -> str:
        return {"integer": "numeric", "number": "decimal"}.get(self.kind, "text")


@dataclass(frozen=True)
class Problem:
    """A problem to show: one of the page's own (``code``, said in the page's language by
    ``templates/web/_problems.html.j2``) or an input error's text."""

    code: str | None = None
    name: str = ""
    text: str = ""


@dataclass
class FormState:
    """What a query string says: the answers that could be read, the problems beside their fields, the
    text of each field as given, and the workload once every answer is valid."""

    texts: dict[str, str]
    answers: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    general_errors: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    document: dict[str, Any] | None = None
    workload: WorkloadInput | None = None


def value_text(question: Question, value: Any, lang: str) -> str:
    """An answer as the form field holds it: 'yes'/'no', a choice's ID, a number as the language writes
    it without thousands separators ('0,7' in German), so that reading it back gives the same value."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        text = repr(value)
        if text.endswith(".0"):
            text = text[:-2]
        return text.replace(".", ",") if lang == "de" and "e" not in text else text
    return str(value)


def has_derived_default(question: Question) -> bool:
    return question.default_when is not None or question.default_derived


def initial_text(question: Question, knowledge: Knowledge, lang: str) -> str:
    """The value an empty form shows: the question's default, as ``ask`` offers it; empty where the
    default depends on other answers (the form offers 'Default' for it)."""
    if has_derived_default(question):
        return ""
    return value_text(question, default_for(question, {}, {}, knowledge), lang)


def prefilled(params: Mapping[str, str], knowledge: Knowledge, lang: str) -> FormState:
    """A form pre-filled from a query string (a loaded file, a link): the answers it gives, the
    defaults for the others, as ``ask --from`` offers them."""
    texts = {
        q.field: params[q.field] if q.field in params else initial_text(q, knowledge, lang)
        for q in load_questions()
    }
    return FormState(texts=texts)


def read_form(params: Mapping[str, str], knowledge: Knowledge, fmt: Format) -> FormState:
    """Every answer of the query string read and checked as ``ask`` reads a typed answer; then the
    workload checked as a whole, as ``recommend`` would read the file."""
    state = FormState(texts={q.field: params.get(q.field, "") for q in load_questions()})
    state.extra = read_extra(params.get(EXTRA, ""), state)
    answers: dict[str, Any] = {}
    # A field left empty takes its default, as Enter does in ask (a field showing a value states it: the
    # form cannot tell a default it offered from a loaded file's value).
    taken: set[str] = set()
    for question in load_questions():
        if not applies(question, answers):
            continue
        text = params.get(question.field, "").strip()
        if not text:
            taken.add(question.field)
            default = default_for(question, answers, {}, knowledge)
            if default is not None:
                answers[question.field] = default
                continue
        try:
            answers[question.field] = parse_answer(question, text, knowledge, fmt, answers)
        except AnswerError as error:
            state.errors[question.field] = str(error)
    state.answers = answers
    if state.errors or state.general_errors:
        return state
    ranged = {key: value for key, value in state.extra.items() if key in RANGE_FIELDS}
    asked = left_to_defaults(workload_document(answers), taken, knowledge)
    document = {**asked, **{k: v for k, v in state.extra.items() if k not in ranged}}
    try:
        document = with_ranges(document, split_ranges(ranged, EXTRA)[1])
        state.workload = validate_workload(document, "form")
    except InputError as error:
        where = error.field if error.field in state.texts else None
        message = error_text(error, fmt.lang)
        if where:
            state.errors[where] = message
        else:
            state.general_errors.append(message)
        return state
    state.document = document
    return state


def read_extra(text: str, state: FormState) -> dict[str, Any]:
    if not text.strip():
        return {}
    # Read as every other JSON input is (values.py): keys once, finite numbers, bounded nesting; Python's
    # own parser took a key given twice silently and recursed past its limit on deep nesting.
    try:
        extra = json_input.parse_json(text, max_depth=MAX_NESTING_DEPTH)
    except ValueProblem as problem:
        where = ".".join(str(part) for part in problem.path)
        state.general_errors.append(f"{EXTRA}: {where + ': ' if where else ''}{problem.problem}")
        return {}
    except RecursionError:
        # Python's parser gives up on such nesting before the depth is checked.
        state.general_errors.append(f"{EXTRA}: {nested_deeper(MAX_NESTING_DEPTH)}")
        return {}
    except json_input.NotJson:
        extra = None
    if not isinstance(extra, dict):
        state.general_errors.append(f"{EXTRA}: not a JSON object of workload fields")
        return {}
    asked = {q.field.split(".")[0] for q in load_questions()}
    # A range of an asked field (requests a day) travels here; the form asks its point value.
    return {
        key: value
        for key, value in extra.items()
        if key not in asked or (key in RANGE_FIELDS and isinstance(value, dict))
    }


def error_text(error: InputError, lang: str) -> str:
    """An input error in the reader's language, as the command line says it."""
    from gpu_advisor.engine.domain.input_errors import error_text as said

    return said(error, lang)


def fields(state: FormState | None, knowledge: Knowledge, lang: str) -> list[Field]:
    """The form's controls: the texts given (or the defaults of an empty form), with their problems."""
    shown = []
    for question in load_questions():
        if state is None:
            text = initial_text(question, knowledge, lang)
        else:
            text = state.texts.get(question.field, "")
        shown.append(
            Field(
                name=question.field,
                id="f-" + question.field.replace(".", "-").replace("_", "-"),
                label=translate(lang, question.prompt),
                help=translate(lang, question.help),
                kind=question.kind,
                choices=field_choices(question, knowledge, lang),
                value=text,
                error=(state.errors.get(question.field) if state else None),
                required=question.default is None
                and not question.optional
                and not has_derived_default(question),
                when_field=question.when.field if question.when else None,
                when_equals=value_text(question, question.when.equals, lang) if question.when else None,
                derived_default=has_derived_default(question),
            )
        )
    return shown


def field_choices(question: Question, knowledge: Knowledge, lang: str) -> tuple[Choice, ...]:
    if question.kind == "yes_no":
        return (Choice("yes", translate(lang, "yes")), Choice("no", translate(lang, "no")))
    if question.kind != "choice":
        return ()
    return tuple(Choice(c, translate(lang, c)) for c in choices_of(question, knowledge))


def query_from_answers(answers: Mapping[str, Any], extra: Mapping[str, Any], lang: str) -> dict[str, str]:
    """The query string of a set of answers in ``lang``: what the form would send."""
    query = {}
    for question in load_questions():
        if question.field in answers and answers[question.field] is not None:
            query[question.field] = value_text(question, answers[question.field], lang)
    if extra:
        query[EXTRA] = json.dumps(dict(extra), sort_keys=True, separators=(",", ":"))
    return query


def query_from_document(
    document: Mapping[str, Any], lang: str, ranges: WorkloadRanges | None = None
) -> dict[str, str]:
    """A workload file's fields as the form's query string (a loaded file), the fields the form does
    not ask and the file's ranges in ``extra``."""
    answers = prefill_from(dict(document), ranges)
    top = {q.field.split(".")[0] for q in load_questions()}
    extra = {key: value for key, value in document.items() if key not in top}
    if ranges is not None:
        extra.update(written_ranges(ranges))
    return query_from_answers(answers, extra, lang)
