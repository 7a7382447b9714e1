"""``gpu-advisor ask``: the questionnaire, then the workload file and the memo."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

import click

from gpu_advisor.engine.commands.common import (
    EXIT_INTERRUPTED,
    as_of_option,
    currency_option,
    emit,
    force_option,
    handle_errors,
    lang_option,
    output_target,
    parse_date,
    show_markdown,
)

if TYPE_CHECKING:
    from gpu_advisor.engine.domain.knowledge.base import Knowledge
    from gpu_advisor.engine.i18n.formats import Format


@click.command()
@click.option(
    "--from", "from_file", metavar="FILE", help="Pre-fill the answers from an existing workload file."
)
@click.option("--save", "save_file", metavar="FILE", help="Where to save the answers (default: NAME.yaml).")
@click.option("--memo", "memo_file", metavar="FILE", help="Where to save the memo (default: NAME-memo.md).")
@lang_option
@currency_option
@as_of_option
@force_option
@handle_errors
def ask(
    from_file: str | None,
    save_file: str | None,
    memo_file: str | None,
    lang: str,
    currency: str,
    as_of: str | None,
    force: bool = False,
) -> None:
    """Answer questions about the workload; get the workload file and the decision memo."""
    import yaml

    from gpu_advisor.engine.apps.questionnaire import prefill_from, workload_document
    from gpu_advisor.engine.apps.recommend import recommend as run_recommend
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.domain.workload import load_workload, validate_workload
    from gpu_advisor.engine.i18n.environment import render
    from gpu_advisor.engine.i18n.formats import Format
    from gpu_advisor.engine.present.memo import render_memo

    # Files named on the command line are checked before the first question, not after the last.
    for given, option in ((save_file, "--save"), (memo_file, "--memo")):
        output_target(given, option, inputs=(from_file,), force=force)
    knowledge = load_knowledge()
    fmt = Format.named(lang, currency, knowledge.eur_to_usd().rate)
    prefill = prefill_from(load_workload(from_file).model_dump(exclude_none=True)) if from_file else {}
    evaluated_on = parse_date(as_of)
    document = workload_document(ask_questions(knowledge, fmt, prefill))
    workload = validate_workload(document, "answers")
    name = slug(workload.name)
    save_file = save_file or free_name(name, ".yaml", force)
    memo_file = memo_file or free_name(f"{name}-memo", ".md", force)
    save_target = output_target(save_file, "--save", inputs=(from_file,), force=force)
    memo_target = output_target(memo_file, "--memo", inputs=(from_file, save_file), force=force)
    emit(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), save_target)
    try:
        result = run_recommend(workload, evaluated_on, knowledge=knowledge, fmt=fmt)
    except InputError:
        # Each answer was valid alone; a combination (a prompt longer than the context) fails only now.
        click.echo(render("ask_unresolved.txt.j2", fmt, workload_file=save_file), nl=False)
        raise
    memo = render_memo(result, fmt)
    emit(memo, memo_target)
    show_markdown(memo, None)
    click.echo(render("ask_done.txt.j2", fmt, workload_file=save_file, memo_file=memo_file), nl=False)


def ask_questions(knowledge: Knowledge, fmt: Format, prefill: dict[str, Any]) -> dict[str, object]:
    """Every question that applies, asked until its answer is valid; Ctrl-C or the end of input stops
    the command (exit code 130) without saving."""
    from gpu_advisor.engine.apps.questionnaire import applies, load_questions
    from gpu_advisor.engine.i18n.environment import render

    click.echo(render("ask_intro.txt.j2", fmt), nl=False)
    answers: dict[str, object] = {}
    try:
        asked = 0
        for question in load_questions():
            if applies(question, answers):
                asked += 1
                answers[question.field] = ask_one(question, asked, knowledge, fmt, answers, prefill)
    except (click.Abort, KeyboardInterrupt):
        # click.prompt turns Ctrl-C and end of input into Abort; Ctrl-C between prompts (while a question
        # is written) arrives as it is.
        click.echo(render("ask_stopped.txt.j2", fmt), nl=False)
        sys.exit(EXIT_INTERRUPTED)
    return answers


def ask_one(
    question: Any,
    number: int,
    knowledge: Knowledge,
    fmt: Format,
    answers: dict[str, object],
    prefill: dict[str, Any],
) -> object:
    from gpu_advisor.engine.apps.questionnaire import AnswerError, choices_of, default_for, parse_answer
    from gpu_advisor.engine.i18n.environment import render

    choices = choices_of(question, knowledge)
    click.echo(render("question.txt.j2", fmt, q=question, number=number, choices=choices), nl=False)
    default = default_for(question, answers, prefill, knowledge)
    shown = "" if default is None else (yes_no_text(default, fmt) if question.kind == "yes_no" else default)
    while True:
        # An empty default lets Enter through to the check, which says what is missing.
        text = click.prompt("  ", default=shown, show_default=shown != "", prompt_suffix="> ")
        try:
            return parse_answer(question, str(text), knowledge, fmt, answers)
        except AnswerError as error:
            click.echo(f"   {error}")


def yes_no_text(value: object, fmt: Format) -> str:
    from gpu_advisor.engine.i18n.environment import translate

    return translate(fmt.lang, "yes" if value else "no")


def free_name(stem: str, suffix: str, force: bool) -> str:
    """The default file name; where it is taken (and no --force), the first free ``stem-N`` instead, so
    that an earlier session's files are never replaced by surprise."""
    import os

    candidate = f"{stem}{suffix}"
    number = 1
    while not force and os.path.lexists(candidate):
        number += 1
        candidate = f"{stem}-{number}{suffix}"
    return candidate


def slug(name: str) -> str:
    """A file-name-safe form of the workload name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "workload"
