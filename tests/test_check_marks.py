"""check's text output marks each result in the reader's language; the column is as wide as the longest
mark, so a German "NICHT OK" (the counts' "nicht bestanden", not "FEHLER", which reads as a malfunction)
keeps the rule IDs and the messages under them aligned."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner
from test_spot_sla import AZURE, CRITICAL_BATCH

from gpu_advisor.cli import main

# The spot proposal PRV009 fails for a business-critical batch (test_spot_sla).
DOCUMENT = {
    "workload": CRITICAL_BATCH,
    "proposal": {**AZURE, "name": "azure spot", "offer": "nd-h100-v5-spot", "pricing": "spot"},
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
    # SIZ039 warns too: its four replicas share one instance, whose loss stops the run.
    assert "  23 bestanden, 1 mit Warnung, 1 nicht bestanden, 0 offen" in out


def test_english_keeps_its_seven_character_column(tmp_path: Path) -> None:
    out = lines(tmp_path)
    (mark,) = [i for i, line in enumerate(out) if "PRV009" in line]
    assert out[mark].startswith("  FAIL    PRV009 A business-critical workload")
    assert out[mark + 1].startswith(" " * 10 + "The workload is business-critical")
