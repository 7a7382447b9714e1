"""The command line: the ``gpu-advisor`` group and its commands (``engine/commands/``).

Each command parses its options, calls an application and picks the output format; engine imports
are lazy so that ``--help`` stays fast. Exit codes: 0 success; 1 a check failed; 2 bad input (the
message names the field, the value and what is allowed); 3 the shipped knowledge base or rule catalog
is broken; 4 a fault in gpu-advisor itself (no traceback; GPU_ADVISOR_TRACEBACK=1 shows
it); 5 the operating system refused (a full disk); 130 interrupted.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from . import __version__
from .engine.commands.ask import ask
from .engine.commands.catalog_import import catalog_group
from .engine.commands.check import check
from .engine.commands.common import (
    EXIT_BROKEN_KNOWLEDGE,
    EXIT_CLOSED_PIPE,
    EXIT_INTERNAL_ERROR,
    EXIT_INTERRUPTED,
    EXIT_SYSTEM_ERROR,
)
from .engine.commands.portfolio import batch, sweep
from .engine.commands.recommend import recommend
from .engine.commands.reference import calibration, catalog, rules, schema
from .engine.commands.serve import serve
from .engine.commands.sizing import size, tco

# An exception no command expected is a fault in gpu-advisor: EXIT_INTERNAL_ERROR (4). The operating system
# refusing what a command needed (a full disk, an address in use): EXIT_SYSTEM_ERROR (5). Both are said
# without a traceback.


class Commands(click.Group):
    """The ``gpu-advisor`` group: click's own messages (a bad option value, a missing argument) speak the
    language the command line asks for, like everything else the commands write; an exception no command
    expected is said in one message and exit code 4, not a traceback."""

    language = "en"

    def main(self, args: Sequence[str] | None = None, *more: Any, **options: Any) -> Any:
        from .engine.common.closed_streams import stand_in_for_closed_streams
        from .engine.common.errors import KnowledgeError
        from .engine.i18n.click_words import requested_language, speak_click

        closed = stand_in_for_closed_streams()
        self.language = requested_language(sys.argv[1:] if args is None else args)
        try:
            speak_click(self.language)
        except KnowledgeError as error:
            # A shipped translation that does not read (a damaged installation) is said as a broken data
            # file is everywhere else, before any command runs.
            if traceback_wanted():
                raise
            with contextlib.suppress(OSError):
                click.echo(f"error: {error}", err=True)
            sys.exit(EXIT_BROKEN_KNOWLEDGE)
        try:
            return super().main(args, *more, **options)
        except OSError as error:
            # click's own output (--help, --version) writes before any command runs: a stream the process
            # was started without, or one the system refuses (a full disk), is said there too as a
            # command's system error is (exit 5).
            if error.filename not in closed and traceback_wanted():
                raise
            # Standard error may be closed too: the exit code then says it alone.
            with contextlib.suppress(OSError):
                click.echo(system_error_text(error, self.language), err=True)
            sys.exit(EXIT_SYSTEM_ERROR)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        # click's own, and a closed pipe or standard input, which click's main says or ends quietly.
        except (click.exceptions.ClickException, click.exceptions.Abort, click.exceptions.Exit, EOFError):
            raise
        except KeyboardInterrupt:
            # Ctrl-C in a command that does not say more of it (batch, sweep and scenarios say what was
            # kept): 130 as documented, not click's "Aborted!" and 1, which check gives a failed check.
            if traceback_wanted():
                raise
            ctx.exit(EXIT_INTERRUPTED)
        except OSError as error:
            if error.errno == errno.EPIPE and not traceback_wanted():
                # The reader of standard output stopped reading (`| head`): a shell's code for a process a
                # closed pipe ended, 128 + SIGPIPE, as batch gives; not 1, which check gives a failed check.
                with contextlib.suppress(OSError):
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                ctx.exit(EXIT_CLOSED_PIPE)
            if traceback_wanted():
                raise
            # The system refused (a full disk, a file gone): not a fault in gpu-advisor.
            click.echo(system_error_text(error, self.language), err=True)
            ctx.exit(EXIT_SYSTEM_ERROR)
        except Exception as error:
            if traceback_wanted():
                raise
            click.echo(internal_error_text(error, self.language), err=True)
            ctx.exit(EXIT_INTERNAL_ERROR)


def traceback_wanted() -> bool:
    return os.environ.get("GPU_ADVISOR_TRACEBACK", "").strip().lower() not in ("", "0", "false", "no")


def system_error_text(error: OSError, language: str) -> str:
    """The system's refusal as the other errors are said ("error: ..."), in the command line's language."""
    return said("error_prefix.txt.j2", language, f"error: {error}", message=str(error))


def internal_error_text(error: Exception, language: str) -> str:
    """The message for an unexpected exception, in the command line's language."""
    kind, text = type(error).__name__, str(error).strip() or "-"
    return said("internal_error.txt.j2", language, f"internal error: {kind}: {text}", kind=kind, error=text)


def said(template: str, language: str, fallback: str, **values: Any) -> str:
    """``template`` rendered in ``language``; ``fallback`` (plain English) where the templates themselves
    fail, as they may where the fault being reported is theirs."""
    try:
        from .engine.i18n.environment import render
        from .engine.i18n.formats import Format

        return render(template, Format.named(language), **values).rstrip("\n")
    except Exception:
        return fallback


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="gpu-advisor")
def main() -> None:
    """Decide how to run an LLM inference workload, and show why.

    Managed API or self-hosting, serverless or dedicated GPUs, which GPU and how many cards, which
    offer and price tier, EU or not, rent or buy an 8-GPU server: one deterministic decision, traced to
    dated sources and cited rules.
    """


for command in (
    recommend,
    size,
    tco,
    rules,
    calibration,
    check,
    schema,
    catalog_group(catalog),
    ask,
    serve,
    batch,
    sweep,
):
    main.add_command(command)


if __name__ == "__main__":  # pragma: no cover
    main()
