"""The command line: the ``gpu-advisor`` group and its commands (``engine/commands/``).

Each command parses its options, calls an application and picks the output format; engine imports
are lazy so that ``--help`` stays fast. Exit codes: 0 success; 1 a check failed; 2 bad input (the
message names the field, the value and what is allowed); 3 the shipped knowledge base or rule catalog
is broken; 130 interrupted.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from . import __version__
from .engine.commands.ask import ask
from .engine.commands.catalog_import import catalog_group
from .engine.commands.check import check
from .engine.commands.portfolio import batch, sweep
from .engine.commands.recommend import recommend
from .engine.commands.reference import calibration, catalog, rules, schema
from .engine.commands.serve import serve
from .engine.commands.sizing import size, tco


class Commands(click.Group):
    """The ``gpu-advisor`` group: click's own messages (a bad option value, a missing argument) speak the
    language the command line asks for, like everything else the commands write."""

    def main(self, args: Sequence[str] | None = None, *more: Any, **options: Any) -> Any:
        from .engine.i18n.click_words import requested_language, speak_click

        speak_click(requested_language(sys.argv[1:] if args is None else args))
        return super().main(args, *more, **options)


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
