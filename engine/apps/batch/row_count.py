"""How many workloads a batch input holds, for the progress bar's time left: counted without reading
them (``rows.py`` reads them)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from gpu_advisor.engine.apps.batch.rows import InputFormat


def count_rows(path: str, input_format: InputFormat) -> int | None:
    """Workloads in a file, for the progress bar's time left; None where counting means parsing."""
    if path == "-" or input_format == "yaml":
        return None
    try:
        with Path(path).open("rb") as file:
            if input_format == "jsonl":
                return sum(1 for line in file if line.strip())
            text = io.TextIOWrapper(file, encoding="utf-8-sig", errors="replace", newline="")
            return max(0, sum(1 for cells in csv.reader(text) if any(c.strip() for c in cells)) - 1)
    except (OSError, csv.Error):
        return None
