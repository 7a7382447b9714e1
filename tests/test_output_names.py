"""An output named with a trailing slash names a directory, and an empty chart directory would be the
current one: both are refused before any work, as an empty -o is (a trailing slash used to write a file
named after the directory; --charts '' wrote the charts into the current directory)."""

from __future__ import annotations

from pathlib import Path

from helpers import EXAMPLES_DIR, invoke

WORKLOAD = str(EXAMPLES_DIR / "public-chat.yaml")


def test_an_output_with_a_trailing_slash_is_refused(tmp_path: Path) -> None:
    target = f"{tmp_path / 'newdir'}/"
    result = invoke("recommend", WORKLOAD, "-o", target)
    assert result.exit_code == 2
    assert result.output == f"error: -o/--output: {target!r} names a directory; name a file\n"
    assert not (tmp_path / "newdir").exists()


def test_an_empty_chart_directory_is_refused() -> None:
    result = invoke("recommend", WORKLOAD, "--charts", "")
    assert result.exit_code == 2
    assert result.output == "error: --charts: an empty path; name a directory\n"
