"""What an import says it read, wrote and left out (``ImportReport``), and why a file none of whose rows
is used is refused."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from gpu_advisor.engine.apps.catalog_import.build import Tally
from gpu_advisor.engine.domain.catalog_changes import (
    AddedRegionNote,
    ImportReport,
    SkippedName,
    SkippedProvider,
)
from gpu_advisor.engine.domain.overrides import Overrides


def import_report(
    path: str,
    fmt: str,
    output: str,
    overrides: Overrides,
    tally: Tally,
    undercut: int,
    names: tuple[str | None, str | None],
) -> ImportReport:
    provider_name, provider = names
    return ImportReport(
        file=Path(path).name,
        format=fmt,
        provider_name=provider_name,
        provider=provider,
        as_of=overrides.as_of or dt.date.min,
        output=output,
        rows=tally.rows,
        offers_added=len(overrides.added_offers),
        offers_repriced=len(overrides.offers),
        rows_used=tally.rows
        - tally.no_accelerator
        - tally.no_price
        - tally.no_instance
        - tally.unknown_provider
        - sum(tally.unknown_gpus.values()),
        prices_cheaper_elsewhere=undercut,
        rows_without_accelerator=tally.no_accelerator,
        rows_without_price=tally.no_price,
        rows_without_instance=tally.no_instance,
        rows_unknown_provider=tally.unknown_provider,
        unknown_gpus=tuple(
            SkippedName(name=n, rows=c, suggestion=tally.suggestions.get(n))
            for n, c in sorted(tally.unknown_gpus.items())
        ),
        unknown_providers=tuple(
            SkippedProvider(
                name=n, rows=c, format_name=tally.format_names.get(n), suggestion=tally.suggestions.get(n)
            )
            for n, c in sorted(tally.unknown_providers.items())
        ),
        regions_unknown_jurisdiction=tuple(
            AddedRegionNote(provider=p, region=r, rows=c) for (p, r), c in sorted(tally.new_regions.items())
        ),
    )


def nothing_used(path: str, report: ImportReport) -> str:
    """Why no row of ``path`` was used: the report's skipped names, with what they may have meant."""
    names = [
        f"{s.name!r}" + (f" (did you mean {s.suggestion!r}?)" if s.suggestion else "")
        for s in report.unknown_gpus
    ]
    names[:0] = [
        f"{s.name!r}"
        + (
            f" ({report.format} names it {s.format_name!r}: give --provider {s.format_name})"
            if s.format_name
            else f" (did you mean {s.suggestion!r}?)"
            if s.suggestion
            else ""
        )
        for s in report.unknown_providers
    ]
    known = f": the catalog does not know {', '.join(names)}" if names else ""
    return (
        f"{path}: none of its {report.rows} rows names an offer the catalog can price{known}; "
        "no overrides file is written"
    )
