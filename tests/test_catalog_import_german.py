"""``catalog import`` says what its CSV reader refuses in the language the command line asks for
(GPU_ADVISOR_LANG; the command has no --lang): its messages are sentences of the translation catalog, not
English text built in place, and English stays as it was written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import CATALOG_IMPORTS_DIR as DATA

from gpu_advisor.cli import main


def run_import(source: Path, fmt: str, out: Path, lang: str) -> tuple[int, str]:
    args = ["catalog", "import", str(source), "--format", fmt, "--provider", "aws", "-o", str(out)]
    result = CliRunner().invoke(main, args, env={"GPU_ADVISOR_LANG": lang})
    assert not out.exists()
    return result.exit_code, result.output


def test_bad_rows_are_said_in_german(tmp_path: Path) -> None:
    source = DATA / "bad" / "skypilot-bad.csv"
    assert run_import(source, "skypilot", tmp_path / "o.yaml", "de") == (
        2,
        f"Fehler: {source}: ungültiger skypilot-Katalog\n"
        "  Zeile 3, Spalte Price: Erwartet wird eine Zahl; der Text lässt sich nicht als Zahl lesen "
        "(angegeben: 'abc')\n"
        "  Zeile 4, Spalte AcceleratorCount: die Anzahl muss eine ganze Zahl sein (angegeben: '1.5')\n"
        "  Zeile 5, Spalte Price: Erwartet wird ein Wert größer als 0 (angegeben: '-2.2')\n",
    )
    assert run_import(source, "skypilot", tmp_path / "o.yaml", "en") == (
        2,
        f"error: {source}: invalid skypilot catalog\n"
        "  line 3, column Price: Input should be a valid number, unable to parse string as a number "
        "(given 'abc')\n"
        "  line 4, column AcceleratorCount: the count must be a whole number (given '1.5')\n"
        "  line 5, column Price: Input should be greater than 0 (given '-2.2')\n",
    )


@pytest.mark.parametrize(
    ("text", "german", "english"),
    [
        (
            "provider,offer,gpu,usd_per_gpu_hour\n",
            "eine Kopfzeile und keine Zeilen; nichts zu importieren",
            "a header and no rows; nothing to import",
        ),
        ("", "Zeile 1: die Datei ist leer; eine Kopfzeile wird benötigt", None),
        (
            "provider,offer,gpu\n",
            "Zeile 1, Spalte usd_per_gpu_hour: fehlt in der Kopfzeile (erforderlich: provider, offer, gpu, "
            "usd_per_gpu_hour)",
            "line 1, column usd_per_gpu_hour: missing from the header (required: provider, offer, gpu, "
            "usd_per_gpu_hour)",
        ),
        (
            "provider,offer,gpu,gpu,usd_per_gpu_hour\n",
            "Zeile 1, Spalte gpu: in der Kopfzeile zweimal genannt",
            "line 1, column gpu: named twice in the header",
        ),
        (
            "provider,offer,gpu,usd_per_gpu_hour,region\n",
            "Zeile 1: Spalte: unbekannter Wert 'region'; zulässig: as_of, commitment_months, gpu, "
            "instance_gpus, note, offer, pricing, provider, regions, usd_per_gpu_hour "
            "(meinten Sie 'regions'?)",
            None,
        ),
        (
            "provider,offer,gpu,usd_per_gpu_hour\naws,p5-on-demand,h100-sxm,3.1,8\n",
            "Zeile 2: 5 Zellen, aber die Kopfzeile nennt 4 Spalten",
            "line 2: 5 cells, but the header names 4 columns",
        ),
        (
            "provider,offer,gpu,usd_per_gpu_hour\naws,p5-on-demand,h100-sxm\n",
            "Zeile 2, Spalte usd_per_gpu_hour: die Zeile endet vor dieser Spalte",
            "line 2, column usd_per_gpu_hour: the row ends before this column",
        ),
        (
            "provider,offer,gpu,usd_per_gpu_hour\naws," + "x" * 200_000 + ",h100-sxm,3.1\n",
            "kein gültiges CSV (das Feld ist länger als die Grenze von 131072 Zeichen)",
            "not valid CSV (field larger than field limit (131072))",
        ),
        (
            "provider,offer,gpu,usd_per_gpu_hour\naws,p5-on-demand,h100-sxm,5000\n",
            "ungültiger csv-Katalog\n  Zeile 2, Spalte usd_per_gpu_hour: Erwartet wird ein Wert kleiner als "
            "1.000 (angegeben: '5000')",
            "invalid csv catalog\n  line 2, column usd_per_gpu_hour: Input should be less than 1000 "
            "(given '5000')",
        ),
    ],
)
def test_the_plain_csv_readers_refusals_are_said_in_german(
    tmp_path: Path, text: str, german: str, english: str | None
) -> None:
    source = tmp_path / "rates.csv"
    source.write_text(text, encoding="utf-8")
    assert run_import(source, "csv", tmp_path / "o.yaml", "de") == (2, f"Fehler: {source}: {german}\n")
    if english is not None:
        assert run_import(source, "csv", tmp_path / "o.yaml", "en") == (2, f"error: {source}: {english}\n")


def test_a_directory_and_bytes_that_are_not_utf8_are_said_as_every_reader_says_them(tmp_path: Path) -> None:
    assert run_import(tmp_path, "csv", tmp_path / "o.yaml", "de") == (
        2,
        f"Fehler: {tmp_path}: kann nicht gelesen werden (ist ein Verzeichnis)\n",
    )
    source = tmp_path / "rates.csv"
    source.write_bytes(b"provider,offer,gpu,usd_per_gpu_hour\naws,p5-\xe9,h100-sxm,3.1\n")
    code, said = run_import(source, "csv", tmp_path / "o.yaml", "en")
    assert (code, said) == (2, f"error: {source}: not UTF-8 text (byte 43); save it as UTF-8\n")


@pytest.mark.parametrize(
    ("fmt", "text", "german"),
    [
        (
            "csv",
            "provider,offer,gpu,usd_per_gpu_hour,as_of\naws,p5-on-demand,h100-sxm,3.1,2099-01-01\n",
            "Zeile 2, Spalte as_of: 2099-01-01 liegt nach dem Datum des Imports, 2026-11-30 (--as-of): Ein "
            "Preis trägt das Datum, an dem er gelesen oder vereinbart wurde",
        ),
        (
            "csv",
            "provider,offer,gpu,usd_per_gpu_hour\naws,p5-on-demand,h100-sxm,3.1\naws,p5-on-demand,h100-sxm,3.2\n",
            "Zeile 3, Spalte offer: aws/p5-on-demand/h100-sxm ist zweimal angegeben (Zeile 2)",
        ),
        (
            "csv",
            "provider,offer,gpu,usd_per_gpu_hour\naws,p5-own,h100-sxm,3.1\n",
            "Zeile 2, Spalte pricing: ein neues Angebot braucht sie (aws/p5-own/h100-sxm ist nicht im "
            "Katalog)",
        ),
        (
            "skypilot",
            "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n"
            "p5.48xlarge,H100,8.0,16000.0,,us-east-1\n",
            "Zeile 2, Spalte Price: 16.000 USD je Instanzstunde über 8 Karten sind 2.000,00 USD je "
            "GPU-Stunde, nicht unter den 1.000, die eine Overrides-Datei zulässt (erwartet wird ein Preis je "
            "Instanzstunde)",
        ),
    ],
)
def test_a_rows_offer_the_import_refuses_is_said_in_german(
    tmp_path: Path, fmt: str, text: str, german: str
) -> None:
    source = tmp_path / "rates.csv"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "o.yaml"
    args = ["catalog", "import", str(source), "--format", fmt, "--provider", "aws", "--as-of", "2026-11-30"]
    result = CliRunner().invoke(main, [*args, "-o", str(out)], env={"GPU_ADVISOR_LANG": "de"})
    assert (result.exit_code, result.output) == (2, f"Fehler: {source}: {german}\n")
    assert not out.exists()
