"""The questionnaire of ``gpu-advisor ask``: which questions, in which order, when they apply, and how an
answer is read and checked. The terminal dialogue itself lives in the CLI; this module has no I/O.

Questions are data (``templates/questionnaire.yaml``), their texts English sentences that the language
catalogs translate. An answer is checked against the same pydantic field the workload file is validated
with, so the questionnaire can never accept what ``recommend`` would reject.

"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.values import finite
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.workload import ModelSpec, Workload, declared_type
from gpu_advisor.engine.i18n.environment import render
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.pipeline.defaults import DERIVATIONS
from gpu_advisor.templates import TEMPLATES_DIR

OTHER_MODEL = "other"


YES = ("y", "yes", "j", "ja", "true", "1")


NO = ("n", "no", "nein", "false", "0")


class Condition(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    equals: str | bool


class DefaultWhen(Condition):
    value: str | int | float | bool


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

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
    model_config = ConfigDict(extra="forbid", frozen=True)

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
    (a derived one needs ``knowledge``); never below the sum it must reach."""
    if question.field in prefill:
        default = prefill[question.field]
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


def field_adapter(field: str) -> TypeAdapter[Any]:
    """The pydantic type (with its constraints) of a workload field, e.g. 'requests_per_day' or
    'model.precision'."""
    model: type[BaseModel] = ModelSpec if field.startswith("model.") else Workload
    info = model.model_fields[field.removeprefix("model.")]
    return TypeAdapter(declared_type(info))


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
        choices = choices_of(question, knowledge)
        if text.isdigit() and 1 <= int(text) <= len(choices):
            return choices[int(text) - 1]
        if text in choices:
            return text
        raise AnswerError(explain("choice", fmt, choices=choices, count=len(choices)))
    if question.kind == "text":
        return text if question.field == "model.name" else checked(question.field, text, fmt)
    value = checked(question.field, read_number(text, question.kind == "integer", fmt), fmt)
    need = required_sum(question, answers or {})
    if need and value < need:
        raise AnswerError(explain("below_sum", fmt, need=need)) from None
    return value


def checked(field: str, value: Any, fmt: Format) -> Any:
    """``value`` if the workload field takes it; an ``AnswerError`` saying why not otherwise."""
    try:
        field_adapter(field).validate_python(value)
    except ValidationError as error:
        raise AnswerError(explain("invalid", fmt, detail=error.errors()[0]["msg"])) from None
    return value


def read_number(text: str, integer: bool, fmt: Format) -> int | float:
    """Numbers as people type them: '150000', '150,000' or '150.000' (de), '0.7' or '0,7' (de)."""
    cleaned = text.replace(" ", "").replace("_", "")
    if fmt.lang == "de":
        cleaned = cleaned.replace(".", "").replace(",", ".") if integer else cleaned.replace(",", ".")
    elif integer:
        cleaned = cleaned.replace(",", "")
    try:
        number = int(cleaned) if integer else float(cleaned)
        finite(float(number))  # as every input: no nan, inf or 1e400 (``common/values.py``)
    except (ValueError, OverflowError):
        raise AnswerError(explain("integer" if integer else "number", fmt)) from None
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


def prefill_from(document: dict[str, Any]) -> dict[str, Any]:
    """A workload file's values keyed like the questions (``model.precision``), for ``--from``."""
    answers = {f"model.{key}": value for key, value in document.get("model", {}).items()}
    if "model.name" not in answers and "model.params_b" in answers:
        answers["model.name"] = OTHER_MODEL
    answers.update({key: value for key, value in document.items() if key != "model"})
    return answers
