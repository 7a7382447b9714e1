"""The knowledge base's prose in German: every text a memo, `tco` or `check` quotes from the own-hardware
cost defaults has a German wording beside the English (``translations: {de: ...}``), checked at load;
every country of the cost defaults has a German name; and German output shows them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR
from test_languages import english_words

from gpu_advisor.cli import main
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.i18n.knowledge_texts import country_words, known_text
from gpu_advisor.knowledge import KNOWLEDGE_DIR

AS_OF = "2026-11-30"


def shown_prose() -> list[tuple[str, object, str]]:
    """(where, entry, field) of every knowledge text the own-hardware cost notes quote."""
    costs = load_knowledge().cost_defaults
    found: list[tuple[str, object, str]] = [
        ("staff_share", costs.staff_share, "covers"),
        ("staff_share", costs.staff_share, "note"),
    ]
    found += [(f"depreciation.tax {t.country}", t, "note") for t in costs.depreciation.tax]
    for country in costs.countries:
        figures = [*country.electricity_per_kwh]
        housing = (country.rack_per_month, country.colocation_per_kw_month, country.staff_salary_per_year)
        figures += [figure for figure in housing if figure is not None]
        found += [(f"{country.country} figure", figure, "note") for figure in figures]
        if country.not_found:
            found.append((f"{country.country} not_found", country, "not_found"))
    servers = load_knowledge().own_hardware.servers
    # a server named in words, not by its product designation alone ("RTX 5090 workstation")
    found += [(s.id, s, "name") for s in servers if re.search(r"\b[a-z]{3,}\b", s.name)]
    return found


@pytest.mark.parametrize(("where", "entry", "field"), shown_prose(), ids=lambda v: str(v)[:40])
def test_every_quoted_knowledge_text_has_german(where: str, entry, field: str) -> None:
    german = entry.translations.de.get(field)
    assert german, f"{where}: {field} has no translations.de"
    assert english_words(german) == [], german
    assert known_text("de", getattr(entry, field)) == german


def test_every_cost_country_has_a_german_name() -> None:
    codes = [c.country for c in load_knowledge().cost_defaults.countries]
    assert [code for code in codes if code not in country_words("de")] == []
    assert country_words("de")["DE"] == "Deutschland" and country_words("de")["CH"] == "Schweiz"
    assert country_words("en") == {}


def test_a_translation_of_a_field_that_is_not_text_is_refused_at_load(tmp_path: Path) -> None:
    directory = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, directory, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = directory / "cost_defaults.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["countries"][0]["electricity_per_kwh"][0]["translations"]["de"]["value"] = "0,18"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(KnowledgeError, match=r"translations\.de\.value: not a text field of this entry"):
        load_knowledge_from(directory)


CITATION = re.compile(r"\((?:[^()]|\([^()]*\))*<https?://[^>]*>, \d{4}-\d{2}-\d{2}\)")
"""A source's title (as published), address and date, in parentheses."""


def cost_notes(text: str) -> str:
    """The own-hardware cost notes of a text, without the sources' published titles."""
    start = text.index("Kostenstandardwerte eigener Hardware für")
    end = text.index("- Abschreibung:", start)
    return CITATION.sub("", text[start:end])


def test_tco_quotes_the_cost_notes_in_german() -> None:
    result = CliRunner().invoke(main, ["tco", "--lang", "de", "--currency", "EUR"])
    assert result.exit_code == 0, result.output
    assert "Kostenannahmen: DE (Deutschland)\n" in result.output
    notes = cost_notes(result.output)
    assert "Für DE nicht gefunden: ein Faktor für die Lohnnebenkosten des Arbeitgebers;" in notes
    assert "Personalanteil: 5 % einer Fachkraft pro Server, für den Betrieb des Servers:" in notes
    assert english_words(notes) == []
    tax = next(line for line in result.output.splitlines() if line.startswith("- Steuer in DE:"))
    assert "Das BMF-Schreiben vom 22. Februar 2022" in tax
    assert english_words(CITATION.sub("", tax)) == []


@pytest.mark.parametrize(
    ("example", "country", "name"),
    [
        ("internal-assistant", "AT", "Österreich"),
        ("nightly-batch", "CH", "Schweiz"),
        ("public-chat", "DE", "Deutschland"),
    ],
)
def test_german_memo_quotes_cost_notes_and_country_in_german(example: str, country: str, name: str) -> None:
    result = CliRunner().invoke(
        main, ["recommend", str(EXAMPLES_DIR / f"{example}.yaml"), "--as-of", AS_OF, "--lang", "de"]
    )
    assert result.exit_code == 0, result.output
    heading = f"Kostenstandardwerte eigener Hardware für {country} ({name}, das Land des Unternehmens):"
    assert heading in result.output
    assert english_words(cost_notes(result.output)) == []


def test_swiss_cost_notes_group_thousands_as_the_rest_of_the_text() -> None:
    """The German notes write 100.000 like every other German figure (not the Swiss 100'000); the
    English ones 100,000. Only the sources' published titles keep their own spelling."""
    german = CliRunner().invoke(main, ["tco", "--country", "CH", "--lang", "de", "--currency", "EUR"])
    power = " ".join(cost_notes(german.output).split())
    assert "Tarif 2025 der EKZ (Kanton Zürich) für Geschäftskunden unter 100.000 kWh im Jahr in" in power
    assert (
        "braucht etwa 63.800 kWh im Jahr, innerhalb dieser Stufe, wenn der übrige Standort weniger als "
        "etwa 36.000 kWh braucht" in power
    )
    assert re.search(r"\d'\d{3}", power) is None
    english = " ".join(CliRunner().invoke(main, ["tco", "--country", "CH"]).output.split())
    assert "business customers using under 100,000 kWh a year" in english
    assert (
        "uses about 63,800 kWh a year, within this band if the rest of the site uses less than about "
        "36,000 kWh" in english
    )


def test_english_keeps_the_knowledge_base_wording() -> None:
    result = CliRunner().invoke(main, ["tco"])
    assert "Cost defaults: DE (Germany)\n" in result.output
    assert "Not found for DE: an employer on-cost factor for the salary; a Germany-specific colocation" in (
        result.output
    )


GET_IN_IT = "<https://get-in-it.de/magazin/gehalt/gehalt-devops-engineer>"


def test_a_cited_page_and_the_assumptions_are_named_in_german() -> None:
    """The words the knowledge base adds to a page's published title (when it was read) and the name of
    its own assumptions are German in a German memo, in the cost notes and in the sources table; English
    keeps them, and a page without a German wording stays as it is."""
    workload = str(EXAMPLES_DIR / "hr-assistant.yaml")
    german = CliRunner().invoke(main, ["recommend", workload, "--as-of", AS_OF, "--lang", "de"]).output
    assert "| Annahmen von gpu-advisor | 2025-12-31 | EUR/USD-Wechselkurs |\n" in german
    assert (
        "| get in IT, Gehalt DevOps Engineer (Seite undatiert, gelesen am 2026-11-30) "
        f"{GET_IN_IT} | 2026-11-30 | Kostenstandardwerte eigener Server |\n"
    ) in german
    assert (
        "die Personalzeile ist daher eine Untergrenze (get in IT, Gehalt DevOps Engineer (Seite undatiert, "
        f"gelesen am 2026-11-30) {GET_IN_IT}, 2026-11-30)."
    ) in german
    assert "gpu-advisor assumptions" not in german and "page undated" not in german
    english = CliRunner().invoke(main, ["recommend", workload, "--as-of", AS_OF]).output
    assert "| gpu-advisor assumptions | 2025-12-31 | EUR/USD exchange rate |\n" in english
    assert f"| get in IT, Gehalt DevOps Engineer (page undated, read 2026-11-30) {GET_IN_IT} |" in english
    cited = f"get in IT, Gehalt DevOps Engineer (page undated, read 2026-11-30) {GET_IN_IT}"
    assert known_text("de", cited) == (
        f"get in IT, Gehalt DevOps Engineer (Seite undatiert, gelesen am 2026-11-30) {GET_IN_IT}"
    )
    assert known_text("en", cited) == cited
    assert (
        known_text("de", f"Some page (read 2026-11-30) {GET_IN_IT}")
        == f"Some page (read 2026-11-30) {GET_IN_IT}"
    )


def offer_notes() -> list[tuple[str, object]]:
    """(where, entry) of every offer and serverless product note the memo may quote under its options."""
    knowledge = load_knowledge()
    found: list[tuple[str, object]] = [
        (f"{o.provider}/{o.offer}/{o.gpu}", o) for o in knowledge.offers.offers if o.note is not None
    ]
    found += [(p.id, p) for p in knowledge.serverless.products if p.note is not None]
    return found


@pytest.mark.parametrize(("where", "entry"), offer_notes(), ids=lambda v: str(v)[:40])
def test_every_offer_note_has_german(where: str, entry) -> None:
    german = entry.translations.de.get("note")
    assert german, f"{where}: note has no translations.de"
    assert english_words(german) == [], german
    assert known_text("de", entry.note) == german
