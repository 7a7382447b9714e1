"""An empty path names the current directory to the system: `check ""` checked every proposal under it
and `--policy ""` read its YAML files as rules. Every file or directory a command reads is refused empty,
before any work, as an empty -o is."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EXAMPLES_DIR, invoke

WORKLOAD = str(EXAMPLES_DIR / "public-chat.yaml")
FILE_OR_STDIN = "an empty path; name a file, or - for standard input"
ANYTHING = "an empty path; name a file or a directory, or - for standard input"
FILE = "an empty path; name a file"
VARY = ("--vary", "avg_output_tokens=100:200:100")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("recommend", ""), f"FILE: {FILE_OR_STDIN}"),
        (("recommend", WORKLOAD, "--overrides", ""), "--overrides: an empty path; name a file"),
        (("recommend", WORKLOAD, "--policy", ""), "--policy: an empty path; name a directory"),
        (("sweep", "", *VARY), f"FILE: {FILE_OR_STDIN}"),
        (("sweep", WORKLOAD, *VARY, "--overrides", ""), "--overrides: an empty path; name a file"),
        (("sweep", WORKLOAD, *VARY, "--policy", ""), "--policy: an empty path; name a directory"),
        (("batch", ""), f"INPUT: {FILE_OR_STDIN}"),
        (("batch", WORKLOAD, "--policy", ""), "--policy: an empty path; name a directory"),
        (("check", ""), f"PROPOSAL|DIR: {ANYTHING}"),
        (("check", "p.yaml", "--compare-to", ""), f"--compare-to: {ANYTHING}"),
        (("check", "-", "--compare-to", ""), "--compare-to: an empty path; name a file or a directory"),
        (("check", "p.yaml", "--overrides", ""), "--overrides: an empty path; name a file"),
        (("check", "p.yaml", "--policy", ""), "--policy: an empty path; name a directory"),
        (("catalog", "import", "", "--format", "csv", "-o", "out.yaml"), "FILE: an empty path; name a file"),
        (("catalog", "diff", "", "p.yaml"), "OLD: an empty path; name a file"),
        (("catalog", "diff", "--builtin", ""), "NEW: an empty path; name a file"),
        (("ask", "--from", ""), "--from: an empty path; name a file"),
        (("rules", "--policy", ""), "--policy: an empty path; name a directory"),
        (("rules", "list", "--policy", ""), "--policy: an empty path; name a directory"),
        (("rules", "show", "CAP001", "--policy", ""), "--policy: an empty path; name a directory"),
    ],
)
def test_an_empty_path_is_refused(
    args: tuple[str, ...], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The current directory holds a proposal: an empty path read as it was checked and passed.
    (tmp_path / "p.yaml").write_text(Path(EXAMPLES_DIR / "proposals" / "public-chat.yaml").read_text("utf-8"))
    monkeypatch.chdir(tmp_path)
    result = invoke(*args, stdin="")
    assert (result.exit_code, result.output) == (2, f"error: {said}\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["p.yaml"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("recommend", WORKLOAD, "-o", ""), "-o/--output: an empty path; name a file"),
        (("recommend", WORKLOAD, "--charts", ""), "--charts: an empty path; name a directory"),
        (("sweep", WORKLOAD, *VARY, "-o", ""), "-o/--output: an empty path; name a file"),
        (("batch", WORKLOAD, "-o", ""), "-o/--output: an empty path; name a file"),
        (("batch", WORKLOAD, "--summary", ""), "--summary: an empty path; name a file"),
        (("check", "p.yaml", "-o", ""), "-o/--output: an empty path; name a file"),
        (("catalog", "import", "p.yaml", "--format", "csv", "-o", ""), f"-o/--output: {FILE}"),
        (("ask", "--save", ""), "--save: an empty path; name a file"),
        (("ask", "--memo", ""), "--memo: an empty path; name a file"),
    ],
)
def test_an_empty_output_path_is_refused_as_an_empty_input_path_is(
    args: tuple[str, ...], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty output said "an empty file name; name a file" (--charts: "an empty directory name"), in
    other words than an empty input's."""
    (tmp_path / "p.yaml").write_text(Path(EXAMPLES_DIR / "proposals" / "public-chat.yaml").read_text("utf-8"))
    monkeypatch.chdir(tmp_path)
    result = invoke(*args, stdin="")
    assert (result.exit_code, result.output) == (2, f"error: {said}\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["p.yaml"]
    if args[0] != "catalog":  # catalog import speaks English only
        option, wanted = said.split(": ")[0], "eine Datei" if said.endswith("file") else "ein Verzeichnis"
        german = invoke(*args, "--lang", "de", stdin="").output
        assert german == f"Fehler: {option}: ein leerer Pfad; geben Sie {wanted} an\n"


def test_an_empty_path_is_refused_in_german() -> None:
    result = invoke("check", "--lang", "de", "")
    assert (result.exit_code, result.output) == (
        2,
        "Fehler: PROPOSAL|DIR: ein leerer Pfad; geben Sie eine Datei oder ein Verzeichnis an "
        "oder - für die Standardeingabe\n",
    )
