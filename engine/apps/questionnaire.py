"""The questionnaire of ``gpu-advisor ask``: which questions, in which order, when they apply, and how an
answer is read and checked. The terminal dialogue itself lives in the CLI; this module has no I/O.

Questions are data (``templates/questionnaire.yaml``), their texts English sentences that the language
catalogs translate. An answer is checked against the same pydantic field the workload file is validated
with, so the questionnaire can never accept what ``recommend`` would reject.

"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

import annotated_types
from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import suggestions
from gpu_advisor.engine.common.values import ValueProblem, finite, shown
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.input_errors import declared_constraints, render_problems, validation_problems
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.model_spec import ModelSpec
from gpu_advisor.engine.domain.workload import Workload, declared_type
from gpu_advisor.engine.domain.workload_ranges import WorkloadRanges
from gpu_advisor.engine.i18n.environment import render, say, translate
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.i18n.reading import number_text
from gpu_advisor.engine.pipeline.defaults import DERIVATIONS, pattern_left_out
from gpu_advisor.templates import TEMPLATES_DIR

OTHER_MODEL = "other"


YES = ("y", "yes", "j", "ja", "true", "1")


NO = ("n", "no", "nein", "false", "0")


class Condition(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    field: str
    equals: str | bool


class DefaultWhen(Condition):
    value: str | int | float | bool


class Question(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    field: str
    prompt: str
    help: str
    kind: Literal["text", "choice", "integer", "number", "yes_no"]
    choices: tuple[str, ...] | Literal["models"] | None = None
    default: str | int | float | bool | None = None
    default_when: DefaultWhen | None = None
    at_least_sum_of: tuple[str, ...] = ()
    """Earlier answers whose sum this answer must reach (the context window holds prompt plus answer):
    the default rises to it, and a smaller answer is explained and asked again."""
    optional: bool = False
    when: Condition | None = None
    default_derived: bool = False
    """The default is what a workload file that leaves the field out gets, worked out from the answers
    so far (``pipeline/defaults.py``): personal_data_region from company_country."""


class QuestionsFile(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    schema_version: Literal[1]
    questions: tuple[Question, ...]


class AnswerError(ValueError):
    """An answer that cannot be used; the message explains why, in the questionnaire's language."""


@cache
def load_questions() -> tuple[Question, ...]:
    data = read_yaml(TEMPLATES_DIR / "questionnaire.yaml")
    return QuestionsFile.model_validate(data).questions


def choices_of(question: Question, knowledge: Knowledge) -> tuple[str, ...]:
    if question.choices == "models":
        return (*(m.id for m in knowledge.models.models), OTHER_MODEL)
    return question.choices or ()


def applies(question: Question, answers: dict[str, Any]) -> bool:
    return question.when is None or answers.get(question.when.field) == question.when.equals


def default_for(
    question: Question,
    answers: dict[str, Any],
    prefill: dict[str, Any],
    knowledge: Knowledge | None = None,
) -> Any:
    """The answer offered with Enter: a pre-filled one, else the question's default for these answers
    (a derived one needs ``knowledge``); never below the sum it must reach. ``prefill`` may carry fields
    no question asks (a ``--from`` file's ``load_profile``) that a default depends on."""
    if question.field in prefill:
        default = prefill[question.field]
    elif question.field == "load_pattern" and knowledge is not None and "load_profile" in prefill:
        # A --from file's own profile, which no question asks, says how its load varies.
        default = pattern_left_out({**prefill, **answers}, knowledge)
    elif question.default_derived and knowledge is not None:
        default = DERIVATIONS[question.field].work_out(answers, knowledge)
    elif question.default_when is not None and answers.get(question.default_when.field) == (
        question.default_when.equals
    ):
        default = question.default_when.value
    else:
        default = question.default
    need = required_sum(question, answers)
    if need and isinstance(default, int) and not isinstance(default, bool) and default < need:
        return need
    return default


def required_sum(question: Question, answers: dict[str, Any]) -> int:
    """The sum of the earlier answers this one must reach; 0 when it has none or they are unanswered."""
    return sum(int(answers.get(field) or 0) for field in question.at_least_sum_of)


def upper_bound(field: str) -> Any:
    """The largest value a workload field takes (its ``le``, wherever the optional type declares it), or
    None where it has none."""
    info = field_model(field).model_fields[field.removeprefix("model.")]
    constraints = declared_constraints(info)
    return next((limit.le for limit in constraints if isinstance(limit, annotated_types.Le)), None)


@cache
def field_model(field: str) -> type[BaseModel]:
    """A model of one workload field (with its constraints), e.g. 'requests_per_day' or 'model.precision':
    an answer is checked as the workload file's field is, and its problems are named like it."""
    model: type[BaseModel] = ModelSpec if field.startswith("model.") else Workload
    name = field.removeprefix("model.")
    info = model.model_fields[name]
    definition: Any = (declared_type(info), ...)
    answer: type[BaseModel] = create_model("Answer", **{name: definition})
    return answer


def parse_answer(
    question: Question,
    text: str,
    knowledge: Knowledge,
    fmt: Format,
    answers: dict[str, Any] | None = None,
) -> Any:
    """The value of a typed answer; raises ``AnswerError`` with an explanation."""
    text = text.strip()
    if not text:
        if question.optional:
            return None
        raise AnswerError(explain("empty", fmt))
    if question.kind == "yes_no":
        if text.lower() in YES:
            return True
        if text.lower() in NO:
            return False
        raise AnswerError(explain("yes_no", fmt))
    if question.kind == "choice":
        return chosen(question, text, knowledge, fmt)
    if question.kind == "text":
        if question.field == "model.name":
            return text
        value = checked(question.field, text, fmt)
        if question.field == "company_country" and not knowledge.is_country(value):
            raise AnswerError(explain("country", fmt, value=value))
        return value
    value = checked(question.field, read_number(text, question.kind == "integer", fmt), fmt)
    need = required_sum(question, answers or {})
    if need and value < need:
        raise AnswerError(explain("below_sum", fmt, need=need)) from None
    sum_within_the_window(question, value, answers or {}, knowledge, fmt)
    return value


def sum_within_the_window(
    question: Question, value: Any, answers: dict[str, Any], knowledge: Knowledge, fmt: Format
) -> None:
    """An answer summed by a later question (a prompt or an answer length, which the context window must
    hold) must leave that sum within the later field's limit and the catalog model's context, counting a
    later-asked part at its least (1 token): otherwise no answer to the later question would be
    accepted, and Enter would ask it again for ever, or the workload would be refused once saved."""
    model = answers.get("model.name")
    catalog = next((m for m in knowledge.models.models if m.id == model), None)
    for later in load_questions():
        if question.field not in later.at_least_sum_of:
            continue
        others = (int(answers.get(field) or 1) for field in later.at_least_sum_of if field != question.field)
        total, most = int(value) + sum(others), upper_bound(later.field)
        if most is not None and total > most:
            raise AnswerError(explain("above_window", fmt, total=total, most=most))
        if catalog is not None and total > catalog.max_context_tokens:
            raise AnswerError(
                explain("above_model_window", fmt, total=total, most=catalog.max_context_tokens, model=model)
            )


def chosen(question: Question, text: str, knowledge: Knowledge, fmt: Format) -> str:
    """The choice an answer names: its number, the choice in any case, or the choice's word in the
    language (German 'andere' for 'other'); otherwise an ``AnswerError`` with the close matches."""
    choices = choices_of(question, knowledge)
    if text.isdigit() and 1 <= int(text) <= len(choices):
        return choices[int(text) - 1]
    words = choice_words(choices, fmt.lang)
    if text.lower() in words:
        return words[text.lower()]
    # A model is matched by its parameter count too: 'llama-3.1-7b' is not taken for llama-3.1-70b.
    sizes = {m.id: m.params_b for m in knowledge.models.models} if question.choices == "models" else {}
    found = suggestions(text.lower(), words, sizes)
    raise AnswerError(
        explain(
            "choice",
            fmt,
            choices=choices,
            count=len(choices),
            suggestions=found.matches,
            missing_size=found.missing_size,
        )
    )


def choice_words(choices: tuple[str, ...], lang: str) -> dict[str, str]:
    """Lower-case word -> choice: each choice, and its translation in the language's catalog."""
    words = {choice.lower(): choice for choice in choices}
    for choice in choices:
        words.setdefault(translate(lang, choice).lower(), choice)
    return words


def checked(field: str, value: Any, fmt: Format) -> Any:
    """``value`` as the workload field takes it; an ``AnswerError`` saying why not otherwise, in the
    language of ``fmt``, as a workload file's error says it (``domain/input_errors.py``)."""
    schema = field_model(field)
    name = field.removeprefix("model.")
    try:
        # The value as the field takes it: a country code in small letters is its capitals.
        return getattr(schema.model_validate({name: value}), name)
    except ValidationError as error:
        problems = validation_problems(error, schema)[:1]
        for problem in problems:  # the question names the field; the value is the one just typed
            problem.update(field="(top level)", show_input=False)
        text = render_problems(field, problems, "workload", fmt.lang)
        detail = " ".join(text.split("\n", 1)[-1].split())
        raise AnswerError(explain("invalid", fmt, detail=detail)) from None


def read_number(text: str, integer: bool, fmt: Format) -> int | float:
    """Numbers as people type them, read by the language (``i18n/reading.py``): '150000', '150,000' (en)
    or '150.000' (de); '0.7' (en) or '0,7' (de). A whole-number question takes no decimals."""
    cleaned = number_text(text, fmt.lang)
    try:
        if cleaned is None or (integer and not cleaned.lstrip("+-").isdigit()):
            raise ValueError(text)
        number = int(cleaned) if integer else float(cleaned)
    except ValueError:
        raise AnswerError(explain("integer" if integer else "number", fmt)) from None
    try:
        finite(float(number), (), text.strip())  # as every input: no nan, inf or 1e400 (``values.py``)
    except ValueProblem as problem:
        # A number, but out of the range numbers are read in: said so, not "give a whole number".
        raise AnswerError(explain("invalid", fmt, detail=say(fmt.lang, problem.problem))) from None
    except OverflowError:
        too_large = Words(
            "%(value)s is too large; a number is at most 1e15 in size", value=shown(text.strip())
        )
        raise AnswerError(explain("invalid", fmt, detail=say(fmt.lang, too_large))) from None
    return number


def explain(problem: str, fmt: Format, **context: Any) -> str:
    return " ".join(render("answer_error.txt.j2", fmt, problem=problem, **context).split())


def workload_document(answers: dict[str, Any]) -> dict[str, Any]:
    """The answers as a workload file: nested model, unanswered optional fields left out."""
    document: dict[str, Any] = {}
    model: dict[str, Any] = {}
    for field, value in answers.items():
        if value is None:
            continue
        if field.startswith("model."):
            model[field.removeprefix("model.")] = value
        else:
            document[field] = value
    if model.get("name") == OTHER_MODEL:
        del model["name"]
    if model.get("active_params_b") is not None and model.get("params_b") == model.get("active_params_b"):
        del model["active_params_b"]
    return {"name": document.pop("name"), "model": model, **document}


def left_to_defaults(document: dict[str, Any], taken: set[str], knowledge: Knowledge) -> dict[str, Any]:
    """``document`` without the ``taken`` answers (the web form's fields left empty, which take the
    question's own default) that leaving the field out gives as well: a documented workload default, a
    value worked out from the other fields (``pipeline/defaults.py``) or the model's field default. The
    file then states what the user stated, and the memo lists the rest as defaults, as for a file written
    by hand. ``ask`` does not use it: a default confirmed there with Enter is an answer, and stated."""
    defaults = knowledge.workload_default_values()
    resolved = {**defaults, **document}

    def implied(field: str, value: Any) -> bool:
        if field == "load_pattern":
            return bool(pattern_left_out(document, knowledge) == value)
        if field in defaults:
            return bool(defaults[field] == value)
        derivation = DERIVATIONS.get(field)
        return derivation is not None and derivation.work_out(resolved, knowledge) == value

    kept = {k: v for k, v in document.items() if k == "model" or k not in taken or not implied(k, v)}
    model_fields = ModelSpec.model_fields
    kept["model"] = {
        k: v
        for k, v in document["model"].items()
        if f"model.{k}" not in taken or model_fields[k].is_required() or model_fields[k].default != v
    }
    return kept


def with_unasked(
    document: dict[str, Any], original: dict[str, Any], answers: dict[str, Any]
) -> dict[str, Any]:
    """The answers' workload file with the ``--from`` file's fields that no question asks kept as they
    were (``serving_engine``, ``min_replicas``, a model's ``attention_shape``): the questionnaire changes
    only what it asks. A question skipped because it no longer applies drops its field (a batch window
    once the load is no batch); an attention shape stays only with a model still given by its size."""
    questions = {q.field for q in load_questions()}
    kept = {k: v for k, v in original.items() if k not in ("name", "model") and k not in questions}
    model = dict(document["model"])
    shape = original.get("model", {}).get("attention_shape")
    if shape is not None and "name" not in model and "model.attention_shape" not in answers:
        model["attention_shape"] = shape
    return {**document, "model": model, **kept}


def prefill_from(document: dict[str, Any], ranges: WorkloadRanges | None = None) -> dict[str, Any]:
    """A workload file's values keyed like the questions (``model.precision``), for ``--from``; a file
    whose ``ranges`` give a volume growth above 0 but that does not say whether the volume grows is taken
    to say it does (the saved file would otherwise say no beside the growth it keeps)."""
    answers = {f"model.{key}": value for key, value in document.get("model", {}).items()}
    if "model.name" not in answers and "model.params_b" in answers:
        answers["model.name"] = OTHER_MODEL
    answers.update({key: value for key, value in document.items() if key != "model"})
    growth = ranges.volume_growth if ranges is not None else None
    if growth is not None and growth.high > 0:
        answers.setdefault("volume_growing", True)
    return answers
