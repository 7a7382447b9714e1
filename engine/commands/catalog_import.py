"""``gpu-advisor catalog import`` and ``catalog diff``, beside the catalog listings (``catalog gpus|offers|
models|apis|serverless``, ``engine/commands/reference.py``), which keep their command line unchanged."""

from __future__ import annotations

import json
from typing import Any

import click

from gpu_advisor.engine.commands.common import (
    emit,
    force_option,
    handle_errors,
    parse_date,
)
from gpu_advisor.engine.common.empty_paths import A_FILE, refuse_empty_paths

FORMATS = ("skypilot", "gpuhunt", "csv")


class ListingContext(click.Context):
    """The listing's context: the listing runs under the group without a name of its own, so its path is
    the group's (``gpu-advisor catalog [OPTIONS] {gpus|offers|...}``), not the group's and an empty name
    (``catalog  [OPTIONS]``, in the usage and in "Try 'gpu-advisor catalog  --help'")."""

    @property
    def command_path(self) -> str:
        return super().command_path.rstrip()


class CatalogGroup(click.Group):
    """``catalog import`` and ``catalog diff`` as subcommands; anything else goes to the listing
    command as before (``catalog offers --gpu h200``)."""

    def __init__(self, listing: click.Command, **attrs: Any) -> None:
        super().__init__(name="catalog", **attrs)
        listing.context_class = ListingContext
        self.listing = listing

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in self.commands:
            return "", self.listing, args
        return super().resolve_command(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(
            ctx.command_path, "gpus|offers|models|apis|serverless [OPTIONS] | import ... | diff ..."
        )


def catalog_group(listing: click.Command) -> click.Group:
    group = CatalogGroup(
        listing,
        help="List the knowledge base (gpus, offers, models, apis, serverless: see `catalog offers --help`), "
        "import a published price catalog as an overrides file, or compare two such files.",
        no_args_is_help=True,
    )
    group.add_command(catalog_import)
    group.add_command(catalog_diff)
    return group


@click.command("import")
@click.argument("file", metavar="FILE|-")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    required=True,
    help="skypilot: SkyPilot's vms.csv; gpuhunt: a gpuhunt <provider>.csv; csv: the plain CSV of your rates.",
)
@click.option("-o", "--output", metavar="OUT", required=True, help="The overrides file to write.")
@click.option(
    "--provider",
    metavar="NAME",
    help="The cloud the file lists, as the format names it "
    "(default: SkyPilot's directory, gpuhunt's file name).",
)
@click.option(
    "--as-of", "as_of", metavar="YYYY-MM-DD", help="The date the prices were read (default: today)."
)
@click.option(
    "--report-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="The import's report on standard output.",
)
@force_option
@handle_errors
def catalog_import(
    file: str,
    fmt: str,
    output: str,
    provider: str | None,
    as_of: str | None,
    report_format: str,
    force: bool = False,
) -> None:
    """Read a published price catalog (FILE, or - for standard input, which needs --provider for skypilot
    and gpuhunt) and write its offers as a dated overrides file (OUT) for --overrides. A malformed row stops
    the import (exit 2) naming its line and column."""
    from gpu_advisor.engine.apps.catalog_import.run import run_import
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.i18n.environment import render

    refuse_empty_paths(("FILE", file, A_FILE))
    report = run_import(file, fmt, output, parse_date(as_of), provider, load_knowledge(), force=force)
    if report_format == "json":
        emit(json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n", None)
    else:
        emit(render("catalog_import.txt.j2", r=report), None)


@click.command("diff")
@click.argument("files", metavar="OLD NEW", nargs=-1)
@click.option("--builtin", is_flag=True, help="Compare NEW with the shipped catalog (give NEW only).")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@handle_errors
def catalog_diff(files: tuple[str, ...], builtin: bool, output_format: str) -> None:
    """Compare two overrides files (OLD NEW; either may be - for standard input), or one with the shipped
    catalog (--builtin NEW): offers added, removed and moved, by how much (USD per GPU-hour and percent)."""
    from gpu_advisor.engine.apps.catalog_import.diff import diff_files
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.common.wording import Words, at
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.i18n.environment import render

    wanted = 1 if builtin else 2
    if len(files) != wanted:
        give = Words("give NEW only with --builtin") if builtin else Words("give OLD and NEW")
        raise InputError(at("catalog diff", give))
    old, new = (None, files[0]) if builtin else (files[0], files[1])
    if old == "-" and new == "-":
        raise InputError(at("OLD - NEW -", Words("OLD and NEW cannot both come from standard input")))
    refuse_empty_paths(("OLD", old, A_FILE), ("NEW", new, A_FILE))
    result = diff_files(old, new, load_knowledge(), parse_date(None))
    if output_format == "json":
        emit(json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n", None)
    else:
        emit(render("catalog_diff.txt.j2", d=result), None)
