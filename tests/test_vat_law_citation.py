"""The law that sets a VAT rate is cited as each language cites it: '§ 12(1) UStG' in English, '§ 12 Abs. 1
UStG' in German (Swiss law: 'Art. 25 Abs. 1 MWSTG'). The German memo's assumptions printed the English
'§ 12(1)' of the rate's source, beside a Workload row that said '§ 12 Abs. 1 UStG'."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import EXAMPLES_DIR, invoke, read_example

from gpu_advisor.engine.i18n.knowledge_texts import known_text

AUTHORITY: dict[str, Any] = {
    **read_example(EXAMPLES_DIR / "internal-assistant.yaml"),
    "company_country": "DE",
    "input_vat_recoverable": False,
}
"""A German public authority's 8B assistant in office hours."""


def memo_lines(workload: dict[str, Any], tmp_path: Path, *options: str) -> list[str]:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    result = invoke("recommend", str(path), "--as-of", "2026-12-07", *options)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_the_german_assumptions_cite_the_paragraph_and_its_absatz(tmp_path: Path) -> None:
    lines = memo_lines(AUTHORITY, tmp_path, "--lang", "de")
    (line,) = [line for line in lines if line.startswith("- Einkäufe enthalten Umsatzsteuer")]
    assert line.startswith(
        "- Einkäufe enthalten Umsatzsteuer zu 19 % (DE: Umsatzsteuergesetz (UStG) in der Fassung der "
        "Bekanntmachung vom 21. Februar 2005 (BGBl. I S. 386) (2026-12-07), § 12 Abs. 1 "
        "<https://www.gesetze-im-internet.de/ustg_1980/>): "
    )
    assert not any("§ 12(1)" in line for line in lines)


def test_the_english_memo_keeps_the_english_form(tmp_path: Path) -> None:
    lines = memo_lines(AUTHORITY, tmp_path)
    assert any(
        "(DE: Umsatzsteuergesetz (UStG) in der Fassung der Bekanntmachung vom 21. Februar 2005 "
        "(BGBl. I S. 386) (2026-12-07), § 12(1) <https://www.gesetze-im-internet.de/ustg_1980/>)" in line
        for line in lines
    )


@pytest.mark.parametrize(
    ("cited", "german"),
    [
        (
            "Umsatzsteuergesetz 1994 (UStG 1994), BGBl. Nr. 663/1994 (2026-12-07), § 10(1) "
            "<https://www.ris.bka.gv.at/GeltendeFassung.wxe?Abfrage=Bundesnormen&Gesetzesnummer=10004873>",
            "Umsatzsteuergesetz 1994 (UStG 1994), BGBl. Nr. 663/1994 (2026-12-07), § 10 Abs. 1 "
            "<https://www.ris.bka.gv.at/GeltendeFassung.wxe?Abfrage=Bundesnormen&Gesetzesnummer=10004873>",
        ),
        (
            "Bundesgesetz über die Mehrwertsteuer (Mehrwertsteuergesetz, MWSTG) vom 12. Juni 2009, SR 641.20 "
            "(2026-12-07), Art. 25(1) <https://www.fedlex.admin.ch/eli/cc/2009/615/de>",
            "Bundesgesetz über die Mehrwertsteuer (Mehrwertsteuergesetz, MWSTG) vom 12. Juni 2009, SR 641.20 "
            "(2026-12-07), Art. 25 Abs. 1 <https://www.fedlex.admin.ch/eli/cc/2009/615/de>",
        ),
    ],
)
def test_austrian_and_swiss_sections_in_german(cited: str, german: str) -> None:
    assert known_text("de", cited) == german
    assert known_text("en", cited) == cited


def test_a_section_without_a_german_wording_stays_as_it_is() -> None:
    cited = "KI-Inference in der Cloud: GPU-Kosten (2026-03-27), Das Wichtigste in Kürze"
    assert known_text("de", cited) == cited
