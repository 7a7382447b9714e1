"""check's text output marks each result in the reader's language; the column is as wide as the longest
mark, so a German "NICHT OK" (the counts' "nicht bestanden", not "FEHLER", which reads as a malfunction)
keeps the rule IDs and the messages under them aligned."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from gpu_advisor.cli import main

DOCUMENT = {
    "workload": {
        "name": "critical-batch",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 100_000,
        "avg_input_tokens": 1500,
        "avg_output_tokens": 500,
        "load_pattern": "batch",
        "batch_window_hours": 8,
        "business_critical": True,
        "company_country": "DE",
    },
    "proposal": {
        "name": "azure spot",
        "deployment": "dedicated_cloud",
        "provider": "azure",
        "offer": "nd-h100-v5-spot",
        "gpu": "h100-sxm",
        "gpus": 8,
        "pricing": "spot",
        "region": "US",
    },
}


def lines(tmp_path: Path, *options: str) -> list[str]:
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(DOCUMENT), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", *options])
    return result.output.splitlines()


def test_a_german_failure_is_marked_nicht_ok_and_its_message_starts_past_the_column(tmp_path: Path) -> None:
    out = lines(tmp_path, "--lang", "de")
    (mark,) = [i for i, line in enumerate(out) if "PRV009" in line]
    assert out[mark].startswith("  NICHT OK PRV009 Ein geschäftskritischer Workload")
    assert out[mark + 1].startswith(" " * 11 + "Der Workload ist geschäftskritisch")
    assert "  23 bestanden, 0 mit Warnung, 1 nicht bestanden, 0 offen" in out


def test_english_keeps_its_seven_character_column(tmp_path: Path) -> None:
    out = lines(tmp_path)
    (mark,) = [i for i, line in enumerate(out) if "PRV009" in line]
    assert out[mark].startswith("  FAIL    PRV009 A business-critical workload")
    assert out[mark + 1].startswith(" " * 10 + "The workload is business-critical")
