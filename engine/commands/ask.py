"""``gpu-advisor ask``: the questionnaire, then the workload file and the memo."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
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
from gpu_advisor.engine.common.empty_paths import A_FILE, refuse_empty_paths
from gpu_advisor.engine.common.file_names import file_stem
from gpu_advisor.engine.common.safe_files import cannot_write, may_write_in, no_permission
from gpu_advisor.engine.common.wording import Words, at

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

    from gpu_advisor.engine.apps.questionnaire import prefill_from, with_unasked, workload_document
    from gpu_advisor.engine.apps.recommend import recommend as run_recommend
    from gpu_advisor.engine.common.errors import InputError, SystemRefusal
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.domain.workload import load_workload_with_ranges, validate_workload
    from gpu_advisor.engine.domain.workload_ranges import WorkloadRanges, with_ranges
    from gpu_advisor.engine.i18n.environment import render
    from gpu_advisor.engine.present.memo import render_memo

    refuse_empty_paths(("--from", from_file, A_FILE))
    if from_file == "-":
        # The answers come on standard input: a workload read from it would leave none for them.
        raise InputError(at("--from", Words("standard input carries the answers; name a workload file")))
    # Files named on the command line are checked before the first question, not after the last; so is
    # the current directory, where the files not named go.
    for option, named, default in (("--save", save_file, "NAME.yaml"), ("--memo", memo_file, "NAME-memo.md")):
        if named is None and not may_write_in(Path(".")):
            raise SystemRefusal(cannot_write(option, default, no_permission(Path("."))))
    # The answers come on standard input: where it is redirected from a file, that file is an input too.
    read = (from_file, "-")
    output_target(save_file, "--save", inputs=read, force=force)
    output_target(memo_file, "--memo", inputs=read, force=force, others=(("--save", save_file),))
    knowledge = load_knowledge()
    fmt = knowledge.display_format(lang, currency)
    given, ranges = load_workload_with_ranges(from_file) if from_file else (None, WorkloadRanges())
    original = given.model_dump(exclude_unset=True, exclude_none=True) if given is not None else {}
    prefill = prefill_from(original, ranges)
    evaluated_on = parse_date(as_of)
    inputs = (from_file,)
    answers = ask_questions(
        knowledge, fmt, prefill, lambda name: save_file or default_file(name, force, inputs)
    )
    # Every answer the user gave is stated in the file, an offered default confirmed with Enter too: the
    # user was asked and said so, and the memo and JSON take it as given, not as a default. A question
    # left empty (no default offered) and the fields no question asks stay defaults.
    document = with_ranges(with_unasked(workload_document(answers), original, answers), ranges)
    workload = validate_workload(document, "answers")
    name = file_stem(workload.name)
    save_file = save_file or default_file(workload.name, force, inputs)[0]
    memo_file = memo_file or free_name(f"{name}-memo", ".md", force, inputs)
    save_target = output_target(save_file, "--save", inputs=read, force=force)
    memo_target = output_target(
        memo_file, "--memo", inputs=read, force=force, others=(("--save", save_file),)
    )
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


def ask_questions(
    knowledge: Knowledge,
    fmt: Format,
    prefill: dict[str, Any],
    target: Callable[[str], str | tuple[str, str | None]],
) -> dict[str, object]:
    """Every question that applies, asked until its answer is valid, then the review of all answers
    (``target``: where the answers of a workload name go); an answer taken with Enter on the question's
    own default follows that default while the dialogue lasts (an answer changed in the review may move
    it) and is then an answer like any other. Ctrl-C or the end of input at a terminal stops the command
    (exit code 130) without saving; answers piped in that end too soon are bad input (exit 2)."""
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.i18n.environment import render

    click.echo(render("ask_intro.txt.j2", fmt), nl=False)
    answers: dict[str, object] = {}
    defaulted: set[str] = set()
    try:
        complete(answers, defaulted, knowledge, fmt, prefill)
        review(answers, defaulted, knowledge, fmt, target, unasked_fields(prefill))
    except (click.Abort, KeyboardInterrupt) as stop:
        # click.prompt turns Ctrl-C and end of input into Abort (the EOFError stays its context); Ctrl-C
        # between prompts (while a question is written) arrives as it is. Ctrl-D at a terminal is the
        # user stopping; answers piped in that run out are a script's mistake, said as bad input.
        if isinstance(stop.__context__, EOFError) and not sys.stdin.isatty():
            click.echo()  # the prompt's line ends before the error is said
            raise InputError(
                Words("standard input ended before every question was answered; nothing was saved")
            ) from None
        click.echo(render("ask_stopped.txt.j2", fmt), nl=False)
        sys.exit(EXIT_INTERRUPTED)
    return answers


def unasked_fields(prefill: dict[str, Any]) -> dict[str, Any]:
    """What a --from file gives that no question asks (its load_profile): it still moves a default."""
    from gpu_advisor.engine.apps.questionnaire import load_questions

    asked = {question.field for question in load_questions()}
    return {field: value for field, value in prefill.items() if field not in asked}


def complete(
    answers: dict[str, object],
    defaulted: set[str],
    knowledge: Knowledge,
    fmt: Format,
    prefill: dict[str, Any],
) -> None:
    """Ask what is unanswered and applies, forget what no longer applies, and ask again a context window
    an earlier answer has outgrown; ``answers`` ends in the questions' order."""
    from gpu_advisor.engine.apps.questionnaire import applies, default_for, load_questions, required_sum

    asked = 0
    unasked = unasked_fields(prefill)
    for question in load_questions():
        if not applies(question, answers):
            answers.pop(question.field, None)
            continue
        asked += 1
        value = answers.get(question.field)
        outgrown = isinstance(value, int) and value < required_sum(question, answers)
        if question.field in defaulted and question.field in answers and not outgrown:
            # Taken with Enter, it follows its default, which an answer changed in the review may move (a
            # batch is not latency-sensitive by default, a service is). One an answer outgrows is asked.
            answers[question.field] = default_for(question, answers, unasked, knowledge)
        if question.field not in answers or outgrown:
            answers[question.field] = ask_one(question, asked, knowledge, fmt, answers, prefill, defaulted)
        answers[question.field] = answers.pop(question.field)  # to the end: the questions' order


def review(
    answers: dict[str, object],
    defaulted: set[str],
    knowledge: Knowledge,
    fmt: Format,
    target: Callable[[str], str | tuple[str, str | None]],
    unasked: dict[str, Any],
) -> None:
    """All answers, numbered; a number asks that question again (with the answer as its default), Enter
    goes on to saving. ``unasked``: the --from file's fields no question asks, which defaults read."""
    from gpu_advisor.engine.apps.questionnaire import applies, explain, load_questions
    from gpu_advisor.engine.i18n.environment import render

    while True:
        questions = [q for q in load_questions() if applies(q, answers)]
        rows = [(q, shown_answer(q, answers.get(q.field), fmt)) for q in questions]
        where = target(str(answers.get("name", "")))
        file, taken = where if isinstance(where, tuple) else (where, None)
        replaced = os.path.lexists(file)  # only with --force: otherwise refused or a free name taken
        click.echo(
            render("ask_review.txt.j2", fmt, rows=rows, file=file, taken=taken, replaced=replaced), nl=False
        )
        text = str(click.prompt("  ", default="", show_default=False, prompt_suffix="> ", type=click.STRING))
        text = text.strip()
        if not text:
            return
        if not (text.isdigit() and 1 <= int(text) <= len(questions)):
            click.echo(f"   {explain('review', fmt, count=len(questions))}")
            continue
        question = questions[int(text) - 1]
        current = {question.field: answers[question.field]}
        answers[question.field] = ask_one(question, int(text), knowledge, fmt, answers, current, defaulted)
        complete(answers, defaulted, knowledge, fmt, unasked)


def shown_answer(question: Any, value: object, fmt: Format) -> str | None:
    """An answer as the review writes it: yes/no, numbers and choices in the language; None where the
    question was left empty."""
    from gpu_advisor.engine.i18n.environment import translate

    if value is None:
        return None
    if question.kind == "yes_no":
        return yes_no_text(value, fmt)
    if question.kind == "choice":
        return translate(fmt.lang, str(value))
    if isinstance(value, (int, float)):
        return fmt.figure(value)
    return str(value)


def ask_one(
    question: Any,
    number: int,
    knowledge: Knowledge,
    fmt: Format,
    answers: dict[str, object],
    prefill: dict[str, Any],
    defaulted: set[str],
) -> object:
    """The question's answer, asked until valid; ``defaulted`` gains its field where Enter took the
    question's own default and loses it where an answer was typed (Enter on a pre-filled answer keeps
    what it was)."""
    from gpu_advisor.engine.apps.questionnaire import AnswerError, choices_of, default_for, parse_answer
    from gpu_advisor.engine.i18n.environment import render

    choices = choices_of(question, knowledge)
    click.echo(render("question.txt.j2", fmt, q=question, number=number, choices=choices), nl=False)
    default = default_for(question, answers, prefill, knowledge)
    shown = "" if default is None else default_text(question, default, fmt)
    while True:
        # Enter gives the empty text, told apart from the default typed out (that answer states it); the
        # default is shown in brackets as click shows one. An empty default lets Enter through to the
        # check, which says what is missing. The answer is read as text (never by click's own conversion,
        # whose messages are English) and checked below. Spaces, tabs and a CRLF file's \r around it are
        # not an answer: a blank one takes the default as Enter does.
        typed = str(
            click.prompt(
                f"   [{shown}]" if shown else "  ",
                default="",
                show_default=False,
                prompt_suffix="> ",
                type=click.STRING,
            )
        ).strip()
        entered = not typed and shown != ""
        try:
            value = parse_answer(question, shown if entered else typed, knowledge, fmt, answers)
        except AnswerError as error:
            click.echo(f"   {error}")
            continue
        if not entered:
            defaulted.discard(question.field)
        elif question.field not in prefill:
            defaulted.add(question.field)
        return value


def default_text(question: Any, default: object, fmt: Format) -> str:
    """The default in brackets, as the answer would be typed: 'ja', '0,7' (de), '30150'."""
    if question.kind == "yes_no":
        return yes_no_text(default, fmt)
    if isinstance(default, float):
        text = f"{default:.4f}".rstrip("0").rstrip(".")
        return text.replace(".", ",") if fmt.lang == "de" else text
    return str(default)


def yes_no_text(value: object, fmt: Format) -> str:
    from gpu_advisor.engine.i18n.environment import translate

    return translate(fmt.lang, "yes" if value else "no")


def free_name(stem: str, suffix: str, force: bool, inputs: tuple[str | None, ...] = ()) -> str:
    """The default file name; where it is taken (and no --force), the first free ``stem-N`` instead, so
    that an earlier session's files are never replaced by surprise. An input file (``--from``) is
    skipped even with --force: it may not be written over, and refusing it only after the last answer
    lost every answer."""
    from pathlib import Path

    from gpu_advisor.engine.common.safe_files import names_the_same_file

    candidate = f"{stem}{suffix}"
    number = 1
    while (not force and os.path.lexists(candidate)) or any(
        names_the_same_file(Path(candidate), given) for given in inputs
    ):
        number += 1
        candidate = f"{stem}-{number}{suffix}"
    return candidate


def default_file(name: str, force: bool, inputs: tuple[str | None, ...] = ()) -> tuple[str, str | None]:
    """Where the answers of a workload called ``name`` go without --save, and the file name it avoids
    (``None`` where that one is free or --force replaces it); never one of ``inputs``."""
    wanted = f"{file_stem(name)}.yaml"
    chosen = free_name(file_stem(name), ".yaml", force, inputs)
    return chosen, (wanted if chosen != wanted else None)
