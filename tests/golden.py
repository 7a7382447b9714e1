"""The golden files: which example, in which format and language, is kept in which file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent
GOLDEN_DIR = TESTS_DIR / "golden"
EXAMPLES = sorted((TESTS_DIR.parent / "examples").glob("*.yaml"))
EVALUATED_ON = "2026-11-30"


@dataclass(frozen=True)
class GoldenCase:
    example: Path
    suffix: str
    options: tuple[str, ...]

    @property
    def file(self) -> Path:
        return GOLDEN_DIR / f"{self.example.stem}.{self.suffix}"

    @property
    def id(self) -> str:
        return f"{self.example.stem}.{self.suffix}"


GOLDEN_CASES = tuple(
    GoldenCase(example, suffix, options)
    for example in EXAMPLES
    for suffix, options in (
        ("md", ("--format", "markdown")),
        ("json", ("--format", "json")),
        ("de.md", ("--format", "markdown", "--lang", "de", "--currency", "EUR")),
    )
)


def golden_arguments(case: GoldenCase) -> list[str]:
    return ["recommend", str(case.example), "--as-of", EVALUATED_ON, *case.options]
