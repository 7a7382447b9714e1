"""German that reads as written in German: phrases that read translated (or address the reader otherwise
than as Sie) stay out of the rule texts and the message catalog."""

from __future__ import annotations

import pytest
from helpers import REPO_ROOT

GERMAN_RULES = (REPO_ROOT / "rules" / "i18n" / "de.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "translated",
    [
        "der Linie von",
        "API-Linie",
        "Self-Hosting-Linie",
        "schreibt auch im Leerlauf ab",
        "Auslastung ist die Stunden",
        "Auslastung sind die Stunden",
        "Self-Hosted-Option",  # Self-Hosting, as the questions and the memo say
        "Self-Hosted-Weg",
        "Self-Hosting zu evaluieren",  # prüfen; the documents' own "evaluieren" only where quoted
        "auf den Use Case\n      ankommt",
        "Produktions-Inference",  # Inferenz, as the documents' title says
        "Serverless Inference,",
        "Erst den Speicher klären",  # the texts address the reader as Sie
        "ist neu zu prüfen",
        "zu wählen ist eine GPU",
        "den man\n      wirklich bekommt",
        "Report-Generierung",
        "aus Residency-Gründen",
        "Residency-Regeln",
        "Networking",
        "des Traffics",
        "Modellgröße bewegt sich",
        "als {{ deployment }}",  # a deployment by its German name, not its ID
        'replace("_", "-")',
        "({{ provider_kind }})",
    ],
)
def test_german_rule_texts_read_as_german(translated: str) -> None:
    assert translated not in GERMAN_RULES


GERMAN_CATALOG = (REPO_ROOT / "templates" / "i18n" / "de.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "translated",
    [
        "werden die Gewichte betrieben",  # weights are not operated: they are in a precision
        "steady: gleichmäßig",  # the help names the German words the choices show
        "always: 730 Stunden",
        "Die Vorgabe folgt",  # the memo says Standardwert
        "auf Spot-Kapazität",  # the memo says Spot-Instanz
        "Token (Prompt",  # Tokens, as every question says
        "Bitte eine Zahl",  # the questionnaire addresses the reader as Sie throughout
        "Bitte mit ja oder nein",
        "Eine Zahl eingeben",
        "Das Feld dort korrigieren",
        "ohne %(num)s ohne",  # not counting: nicht mitgezählt
        "kostete %(cost)s",  # would cost: würde ... kosten (kostete reads as the past)
        "kostete %(best_cost)s",
        "Kauf-oder-Miete-Linien",  # the documents' rules of thumb, not their lines
        "hält die Spitze bedient",
        "halten die Spitze bedient",
        "eine einzelne Anfrage sieht",
        "2-Minuten-Kündigungsfrist",
        "Die API zu nehmen heißt",
        "vor einer Festlegung unter Last testen",  # Sie, as everywhere
        "Diesen Konflikt vor der Unterschrift auflösen",
        "Brauchen Aufmerksamkeit",
        "Inference-Kosten steigen",
        "nimmt seine Vorgabe",
    ],
)
def test_german_questionnaire_texts_read_as_german(translated: str) -> None:
    assert translated not in GERMAN_CATALOG


def test_rule_texts_write_infrage_as_one_word() -> None:
    assert " in Frage" not in GERMAN_RULES and " in Frage" not in GERMAN_CATALOG


def test_a_card_is_written_off_and_a_line_is_a_threshold() -> None:
    assert "Eine eigene Karte wird auch im Leerlauf abgeschrieben" in GERMAN_RULES
    assert "liegen über der Schwelle von" in GERMAN_RULES
