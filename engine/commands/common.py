"""What every command shares: error handling and exit codes, writing output, the shared options.

Engine imports are lazy (inside the commands), so that ``--help`` stays fast. Exit codes: 0 success;
1 a check failed; 2 bad input (the message names the field, the value and what is allowed); 3 the
shipped knowledge base or rule catalog is broken; 4 a fault in gpu-advisor itself (``cli.Commands``); 130
interrupted by Ctrl-C (SIGINT), 143 by SIGTERM.
"""

from __future__ import annotations

import datetime as dt
import errno
import functools
import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from gpu_advisor.engine.common.wording import Grouped, Words
from gpu_advisor.engine.domain.choices import LOAD_PATTERNS, PRECISIONS, SCHEDULES, SERVING_ENGINES
from gpu_advisor.engine.i18n.formats import CURRENCIES, LANGUAGES
from gpu_advisor.engine.i18n.reading import thousands_dotted

if TYPE_CHECKING:
    from gpu_advisor.engine.common.safe_files import OutputTarget
    from gpu_advisor.engine.present.terminal import Paging

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CHECK_FAILED = 1
EXIT_ROWS_SKIPPED = 1
EXIT_INTERNAL_ERROR = 4
"""An exception no command expected: a fault in gpu-advisor, said without a traceback (cli.py); a batch
whose rows met one ends with it too."""
EXIT_BAD_INPUT = 2
EXIT_BROKEN_KNOWLEDGE = 3
EXIT_SYSTEM_ERROR = 5
EXIT_INTERRUPTED = 130
EXIT_CLOSED_PIPE = 141
"""128 + SIGPIPE: the reader of standard output stopped reading (a shell's code for it)."""


def handle_errors(function: F) -> F:
    """Turn the engine's user-facing errors into a message on stderr and an exit code, no traceback.
    Validation errors are said in the command's --lang; a command without one says them in the
    language its command line asked for (GPU_ADVISOR_LANG), as click's own messages are said."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from gpu_advisor.engine.common.errors import EngineError, InputError, KnowledgeError, SystemRefusal

        try:
            return function(*args, **kwargs)
        except InputError as error:
            lang = kwargs.get("lang") or asked_language()
            if lang != "en":
                from gpu_advisor.engine.domain.input_errors import error_text
                from gpu_advisor.engine.i18n.environment import render
                from gpu_advisor.engine.i18n.formats import Format

                message = error_text(error, lang)
                said = render("error_prefix.txt.j2", Format.named(lang), message=message)
                click.echo(said.rstrip("\n"), err=True)
            else:
                click.echo(f"error: {error}", err=True)
            sys.exit(EXIT_SYSTEM_ERROR if isinstance(error, SystemRefusal) else EXIT_BAD_INPUT)
        except (KnowledgeError, EngineError) as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(EXIT_BROKEN_KNOWLEDGE)

    return wrapper  # type: ignore[return-value]


def asked_language() -> str:
    """The language the command line asked for (``cli.Commands.language``: ``--lang``, else
    GPU_ADVISOR_LANG, else English), for a command that has no --lang of its own."""
    context = click.get_current_context(silent=True)
    language = getattr(context.find_root().command, "language", "en") if context else "en"
    return language if language in LANGUAGES else "en"


@contextmanager
def naming_the_file(workload_file: str) -> Iterator[None]:
    """A value the catalog refuses (an unknown model, a context beyond the model's) is found while
    evaluating, where the file is not known: its error names the file, as the reader's errors do."""
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.domain.input_errors import prefixed

    try:
        yield
    except InputError as error:
        if error.origin is not None:
            raise
        raise prefixed(error, "<stdin>" if workload_file == "-" else workload_file, error.field) from None


def complete_the_files_workload(workload: Any, knowledge: Any, workload_file: str) -> None:
    """The file's values against the catalog (not a policy's or --vary's), each refusal naming the file:
    completed as the pipeline completes them, and a load profile with no traffic in the schedule's hours
    (found where the traffic is worked out) checked here too."""
    from gpu_advisor.engine.pipeline.capacity import workload_traffic
    from gpu_advisor.engine.pipeline.defaults import complete_workload

    with naming_the_file(workload_file):
        workload_traffic(complete_workload(workload, knowledge), knowledge)


def to_json(result: Any) -> str:
    return json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


OUTPUT_OPTION = "-o/--output"


def output_target(
    output: str | None,
    option: str = OUTPUT_OPTION,
    *,
    inputs: tuple[str | None, ...] = (),
    force: bool = False,
    others: tuple[tuple[str, str | None], ...] = (),
    input_dirs: tuple[str | None, ...] = (),
) -> OutputTarget | None:
    """The checked output file (``None``: standard output), refused before any work is done where it is
    an input file, lies in a directory the command reads (``input_dirs``), is a symbolic link or a
    directory, or exists without ``--force`` (``common/safe_files.py``)."""
    if output is None or output == "-":
        return None
    from gpu_advisor.engine.common.safe_files import check_output

    return check_output(output, option, inputs=inputs, force=force, others=others, input_dirs=input_dirs)


def emit(text: str, output: OutputTarget | str | None) -> None:
    """``text`` to standard output, or atomically to the output file (an unchecked path is checked here,
    without ``--force``)."""
    from gpu_advisor.engine.common.safe_files import write_output
    from gpu_advisor.engine.common.stdout import write_stdout

    target = output_target(output) if isinstance(output, str) else output
    if target is None:
        try:
            write_stdout(text)
        except OSError as error:
            if error.errno == errno.EPIPE:
                raise
            # Said as a file's would be (cli.py's system error): a full disk names where it was writing.
            raise OSError(error.errno, error.strerror, "<standard output>") from None
        return
    write_output(target, text)


def show_markdown(text: str, output: OutputTarget | str | None, paging: Paging = "never") -> None:
    """Markdown to a file or a pipe as is; to a terminal, rendered (headings, tables, emphasis), through
    the pager where ``paging`` asks for it (``present/terminal.py``)."""
    from gpu_advisor.engine.present.terminal import is_terminal, print_markdown

    if output is None and is_terminal():
        print_markdown(text, paging)
        return
    emit(text, output)


def _said(ctx: click.Context | None, words: Words) -> str:
    """``words`` in the language the command line asks for (``cli.Commands.language``)."""
    from gpu_advisor.engine.i18n.environment import say

    root = ctx.find_root().command if ctx is not None else None
    return say(getattr(root, "language", "en"), words)


def number_written_otherwise(value: Any, amount: bool, whole: bool = False) -> Words | None:
    """What is wrong with a number option written as people write numbers but a program does not read
    them: thousands commas (250,000) or Swiss apostrophes (250'000), a decimal comma (1,5; not for a
    ``whole`` number), or for an
    ``amount`` of money, which runs to thousands, a German thousands dot (250.000, which would be 250);
    None where it is none of them."""
    if not isinstance(value, str):
        return None
    thousands = thousands_dotted(value)
    if amount and thousands is not None:
        return Words(
            "%(value)s: the dot reads as a decimal point; for %(number)s write %(whole)s",
            value=value,
            number=Grouped(thousands),
            whole=str(thousands),
        )
    if re.fullmatch(r"[0-9]{1,3}(['\u2019][0-9]{3})+(\.[0-9]+)?", value):
        # Swiss thousands (250'000, also with the typographic apostrophe U+2019).
        plain = value.replace("'", "").replace("\u2019", "")
        return Words("%(value)s: write the number without apostrophes: %(plain)s", value=value, plain=plain)
    if re.fullmatch(r"[0-9]+(,[0-9]+)+", value):
        # English thousands (250,000) or a German decimal comma (1,5; 1,500 may be either).
        readings = [value.replace(",", "")] if re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})+", value) else []
        readings += [repr(float(value.replace(",", ".")))] if value.count(",") == 1 and not whole else []
        if not readings:
            return Words("%(value)s: a whole number, written without a comma", value=value)
        if len(readings) == 2:
            return Words(
                "%(value)s: write the number without a comma: %(first)s or %(second)s",
                value=value,
                first=readings[0],
                second=readings[1],
            )
        return Words("%(value)s: write the number without a comma: %(first)s", value=value, first=readings[0])
    return None


class FiniteFloat(click.FloatRange):
    """A float option that also rejects nan and inf, which click's FloatRange lets through, numbers
    outside the range every file's are read in, and numbers written with commas; ``amount``: a sum of
    money in thousands, where ``250.000`` is a German thousands dot, not 250 (refused)."""

    def __init__(self, *args: Any, amount: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.amount = amount

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        otherwise = number_written_otherwise(value, self.amount)
        if otherwise is not None:
            self.fail(_said(ctx, otherwise), param, ctx)
        given = _as_float(value)
        if not math.isfinite(given) and not (self.min is not None and given < self.min):
            # click names the option already ("Invalid value for '--server-price'"). Said before the
            # range's maximum, which an infinity is beyond too; one below the minimum is said by the range.
            self.fail(_said(ctx, Words("%(value)s is not a finite number", value=str(value))), param, ctx)
        number = super().convert(value, param, ctx)
        from gpu_advisor.engine.common.values import ValueProblem, finite

        try:
            # The range every file's numbers are read in: 1e-300 as a model's size was taken here.
            finite(number, (), value if isinstance(value, str) else None)
        except ValueProblem as problem:
            self.fail(_said(ctx, problem.problem), param, ctx)
        return number


def _as_float(value: Any) -> float:
    """``value`` as a float where it reads as one (inf and nan do), else 0.0, for click to refuse."""
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return 0.0


class WholeNumber(click.IntRange):
    """A whole-number option that says how to write one given with thousands commas or dots (1,000 or
    1.000), not click's "is not a valid integer range"."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        otherwise = number_written_otherwise(value, amount=True, whole=True)
        if otherwise is not None:
            self.fail(_said(ctx, otherwise), param, ctx)
        return super().convert(value, param, ctx)


def parse_date(value: str | None) -> dt.date:
    if value is None:
        return dt.date.today()
    from gpu_advisor.engine.common.user_input import iso_date

    return iso_date(value, "--as-of")


def policy_path(policy_dir: str | None) -> str | None:
    """An absolute path, so that the same directory given two ways shares one engine."""
    return None if policy_dir is None else str(Path(policy_dir).resolve())


# Options several commands share, declared once so their names, choices and help stay the same.
as_of_option = click.option(
    "--as-of", "as_of", metavar="YYYY-MM-DD", help="Evaluation date, for the age of prices (default: today)."
)
policy_option = click.option(
    "--policy", "policy_dir", metavar="DIR", help="Add an organization's rules from DIR/*.yaml."
)


class NamedChoice(click.Choice):  # type: ignore[type-arg]
    """A choice that may be written otherwise than the choices are (``normalized``): its option takes it
    so, and so does the HTTP service's query parameter of the same choice (``chosen``)."""

    def normalized(self, value: str) -> str:
        return value

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(self.normalized(value) if isinstance(value, str) else value, param, ctx)

    def chosen(self, value: Any) -> Any:
        """``value`` as the option reads it, for a pydantic validator: a ``ValueError`` naming the choices
        (and the one meant, where one is close) for a value that is none of them."""
        from gpu_advisor.engine.common.errors import unknown_value_problem

        if not isinstance(value, str):
            return value
        chosen = self.normalized(value)
        if chosen not in self.choices:
            raise ValueError(str(unknown_value_problem(value, [str(choice) for choice in self.choices])))
        return chosen


class LanguageChoice(NamedChoice):
    """``en`` or ``de``, also as a locale names them (``GPU_ADVISOR_LANG=de_DE.UTF-8``); another
    language is refused, from the environment too: the variable is set for gpu-advisor alone."""

    def normalized(self, value: str) -> str:
        from gpu_advisor.engine.i18n.click_words import locale_language

        return locale_language(value)


class CurrencyChoice(NamedChoice):
    """``USD`` or ``EUR``, in any case (``eur``), as ``--lang`` takes ``DE``; the help lists them as
    written."""

    def normalized(self, value: str) -> str:
        return value.upper()


LANGUAGE_CHOICE = LanguageChoice(LANGUAGES)
CURRENCY_CHOICE = CurrencyChoice(CURRENCIES)

lang_option = click.option(
    "--lang",
    type=LANGUAGE_CHOICE,
    default="en",
    show_default=True,
    envvar="GPU_ADVISOR_LANG",
    show_envvar=True,
    help="Language of the text (the option wins over GPU_ADVISOR_LANG).",
)
currency_option = click.option(
    "--currency",
    type=CURRENCY_CHOICE,
    default="USD",
    show_default=True,
    envvar="GPU_ADVISOR_CURRENCY",
    show_envvar=True,
    help="Currency of amounts, converted at the knowledge base's dated rate (the option wins over "
    "GPU_ADVISOR_CURRENCY).",
)
pager_option = click.option(
    "--pager/--no-pager",
    "pager",
    default=None,
    help="Show the memo on a terminal through the pager (PAGER, else less), or never; default: when it is "
    "longer than the screen. Never for a file or a pipe.",
)
force_option = click.option(
    "--force",
    is_flag=True,
    help="Replace an existing output file (default: refuse it with exit code 2, so CI never overwrites).",
)


def scenario_options(what: str) -> Callable[[F], F]:
    """``--scenarios N`` (``what`` says what the draws add to the command's result) and ``--seed``."""

    def add(function: F) -> F:
        @functools.wraps(function)
        def checked(*args: Any, **kwargs: Any) -> Any:
            # A seed given without draws would be ignored without a word.
            source = click.get_current_context().get_parameter_source("seed")
            if kwargs.get("scenarios") is None and source == click.core.ParameterSource.COMMANDLINE:
                from gpu_advisor.engine.common.errors import InputError
                from gpu_advisor.engine.common.wording import Words, at

                raise InputError(at("--seed", Words("only with --scenarios N")), field="--seed")
            return function(*args, **kwargs)

        seeded = click.option(
            "--seed", type=int, default=1, show_default=True, help="The seed of the scenario draws."
        )(handle_errors(cast(F, checked)))
        return click.option(
            "--scenarios", type=click.IntRange(1, 100_000), default=None, metavar="N", help=what
        )(seeded)

    return add


precision_choice = click.Choice(PRECISIONS)
load_pattern_choice = click.Choice(LOAD_PATTERNS)
schedule_choice = click.Choice(SCHEDULES)
serving_engine_choice = click.Choice(SERVING_ENGINES)
