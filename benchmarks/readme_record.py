"""Writing a benchmark's latest figures into benchmarks/README.md, between its two marker lines."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parent / "README.md"


def record_between(start: str, end: str, text: str) -> None:
    """Replace what stands between the lines ``start`` and ``end`` of the README with ``text``."""
    readme = README.read_text(encoding="utf-8")
    before, found, rest = readme.partition(start)
    _, found_end, after = rest.partition(end)
    if not found or not found_end:
        raise SystemExit(f"{README}: the markers {start!r} and {end!r} are missing")
    README.write_text(f"{before}{start}\n{text.rstrip()}\n{end}{after}", encoding="utf-8")
