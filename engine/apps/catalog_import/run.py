"""``catalog import``: a price catalog read, mapped and written as an overrides file, atomically and
never over the file it reads."""

from __future__ import annotations

import datetime as dt

import yaml

from gpu_advisor.engine.apps.catalog_import.build import build_overrides
from gpu_advisor.engine.apps.catalog_import.provider_name import provider_name_of
from gpu_advisor.engine.apps.catalog_import.read import import_origin, read_rows
from gpu_advisor.engine.apps.catalog_import.report import import_report, nothing_used
from gpu_advisor.engine.apps.overrides import apply_overrides
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.safe_files import check_output, write_output
from gpu_advisor.engine.domain.catalog_changes import ImportReport
from gpu_advisor.engine.domain.import_mapping import load_mapping
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.overrides import Overrides

HEADER = """\
# gpu-advisor overrides written by `gpu-advisor catalog import` from {file} ({format} format), prices as of
# {as_of}. Use it with --overrides on recommend, check or sweep; compare two with `gpu-advisor catalog diff`.
"""


def run_import(
    path: str,
    fmt: str,
    output: str,
    as_of: dt.date,
    provider: str | None,
    knowledge: Knowledge,
    *,
    force: bool = False,
) -> ImportReport:
    """Import ``path`` and write the overrides file ``output`` (never over ``path``; an existing file only
    with ``force``); the report of what was read and left out."""
    target = check_output(output, "-o/--output", inputs=(path,), force=force)
    mapping = load_mapping(knowledge)
    provider_name = provider_name_of(path, fmt, provider, mapping)
    rows = read_rows(path, fmt)
    path = import_origin(path)  # the name the messages and the file written give standard input
    overrides, tally, undercut, catalog_provider = build_overrides(
        path, fmt, rows, as_of, provider_name, knowledge, mapping
    )
    # The file must load as --overrides does: every added offer checked like a catalog offer.
    apply_overrides(knowledge, overrides, output, as_of, where=path)
    report = import_report(path, fmt, output, overrides, tally, undercut, (provider_name, catalog_provider))
    if report.rows and not report.rows_used:
        # An overrides file with no offer would let every figure fall back to the list price unsaid.
        raise InputError(nothing_used(path, report))
    write_output(target, overrides_text(overrides))
    return report


def overrides_text(overrides: Overrides) -> str:
    data = overrides.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
    source = overrides.source
    header = HEADER.format(
        file=source.file if source else "?", format=source.format if source else "?", as_of=overrides.as_of
    )
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)
    return header + body
