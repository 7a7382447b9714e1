"""``catalog import``: a price catalog read, mapped and written as an overrides file, atomically and
never over the file it reads."""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path

import yaml

from gpu_advisor.engine.apps.catalog_import.build import build_overrides, import_report, provider_name_of
from gpu_advisor.engine.apps.catalog_import.read import read_rows
from gpu_advisor.engine.apps.overrides import apply_overrides
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.catalog_changes import ImportReport
from gpu_advisor.engine.domain.import_mapping import load_mapping
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.overrides import Overrides

HEADER = """\
# gpu-advisor overrides written by `gpu-advisor catalog import` from {file} ({format} format), prices as of
# {as_of}. Use it with --overrides on recommend, check or sweep; compare two with `gpu-advisor catalog diff`.
"""


def run_import(
    path: str, fmt: str, output: str, as_of: dt.date, provider: str | None, knowledge: Knowledge
) -> ImportReport:
    """Import ``path`` and write the overrides file ``output``; the report of what was read and left out."""
    refuse_overwrite(path, output)
    provider_name = provider_name_of(path, fmt, provider)
    rows = read_rows(path, fmt)
    mapping = load_mapping(knowledge)
    overrides, tally, undercut, catalog_provider = build_overrides(
        path, fmt, rows, as_of, provider_name, knowledge, mapping
    )
    # The file must load as --overrides does: every added offer checked like a catalog offer.
    apply_overrides(knowledge, overrides, output, as_of)
    write_atomically(output, overrides_text(overrides))
    return import_report(path, fmt, output, overrides, tally, undercut, (provider_name, catalog_provider))


def refuse_overwrite(path: str, output: str) -> None:
    source, target = Path(path), Path(output)
    if target.exists() and target.is_dir():
        raise InputError(f"-o/--output: {output!r} is a directory; name a file")
    same = source.resolve() == target.resolve()
    if not same and source.exists() and target.exists():
        same = os.path.samefile(source, target)
    if same:
        raise InputError(f"-o/--output: {output!r} is the file being imported; write the overrides elsewhere")


def overrides_text(overrides: Overrides) -> str:
    data = overrides.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
    source = overrides.source
    header = HEADER.format(
        file=source.file if source else "?", format=source.format if source else "?", as_of=overrides.as_of
    )
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)
    return header + body


def write_atomically(output: str, text: str) -> None:
    """Write to a temporary file beside ``output``, then rename it over ``output``: a reader sees the old
    file or the whole new one, never a part."""
    target = Path(output)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed below, before the rename)
            "w", encoding="utf-8", dir=directory, prefix=f".{target.name}.", suffix=".tmp", delete=False
        )
    except OSError as error:
        raise InputError(f"-o/--output: cannot write {output!r} ({error.strerror})") from None
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, target)
    except OSError as error:
        Path(handle.name).unlink(missing_ok=True)
        raise InputError(f"-o/--output: cannot write {output!r} ({error.strerror})") from None
