"""Reading a batch file, `sweep --vary` and the batch progress bar speak German under --lang de: the
exact German texts, and the English ones unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, NEGOTIATED_AWS

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.batch.messages import said

AS_OF = "2026-11-30"
HEADER = "name,model.name,model.precision,requests_per_day\n"


def batch(tmp_path: Path, text: str, *extra: str, suffix: str = ".csv"):
    source = tmp_path / f"rows{suffix}"
    source.write_bytes(text.encode("utf-8"))
    args = ["batch", str(source), "--as-of", AS_OF, "--jobs", "1", "-o", str(tmp_path / "out.jsonl")]
    return source, CliRunner().invoke(main, [*args, *extra])


def test_a_row_with_the_wrong_number_of_cells_in_german(tmp_path: Path) -> None:
    text = HEADER + "chat,llama-3.1-8b,fp8,100000\nbad,llama-3.1-8b\n"
    source, result = batch(tmp_path, text, "--lang", "de")
    assert result.exit_code == 1
    assert f"Fehler: {source}:3: 2 Zellen, die Kopfzeile hat 4\n" in result.stderr
    _, english = batch(tmp_path, text, "--force")
    assert f"error: {source}:3: 2 cells, the header has 4\n" in english.stderr


def test_a_cell_that_is_not_a_whole_number_in_german(tmp_path: Path) -> None:
    source, result = batch(tmp_path, HEADER + "chat,llama-3.1-8b,fp8,1.5\n", "--lang", "de")
    assert f"Fehler: {source}:2: requests_per_day: '1.5' ist keine ganze Zahl\n" in result.stderr


def test_an_unknown_column_in_german(tmp_path: Path) -> None:
    source, result = batch(tmp_path, "name,model.nam\nchat,llama-3.1-8b\n", "--lang", "de")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Fehler: {source}:1: unbekannte Spalte 'model.nam'; zulässig: ")
    assert result.stderr.endswith(" (meinten Sie 'model.name'?)\n")


def test_a_json_line_that_is_not_json_in_german(tmp_path: Path) -> None:
    source, result = batch(tmp_path, "{nope\n", "--lang", "de", suffix=".jsonl")
    assert f"Fehler: {source}:1: kein gültiges JSON (" in result.stderr


def test_a_yaml_file_that_is_not_a_list_in_german(tmp_path: Path) -> None:
    source, result = batch(tmp_path, "name: chat\n", "--lang", "de", suffix=".yaml")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Fehler: {source}: eine Workload-Liste ist eine YAML-Liste von Zuordnungen (- name: ...)\n"
    )


def test_an_unknown_extension_in_german(tmp_path: Path) -> None:
    source, result = batch(tmp_path, "x", "--lang", "de", suffix=".txt")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Fehler: {source}: das Format ist an der Endung '.txt' nicht zu erkennen; verwenden Sie .csv, "
        ".jsonl, .yaml oder .yml oder geben Sie --input-format an\n"
    )


def sweep(*vary: str, lang: str = "de", extra: tuple[str, ...] = ()):
    args = ["sweep", str(EXAMPLES_DIR / "public-chat.yaml"), "--as-of", AS_OF, "--lang", lang, *extra]
    for spec in vary:
        args += ["--vary", spec]
    return CliRunner().invoke(main, args)


@pytest.mark.parametrize(
    ("spec", "german", "english"),
    [
        (
            "requests_per_day=1:5",
            "--vary requests_per_day=1:5: erwartet wird NAME=START:STOP:STEP, zum Beispiel "
            "utilization=0.1:0.9:0.1",
            "--vary requests_per_day=1:5: expected NAME=START:STOP:STEP, for example utilization=0.1:0.9:0.1",
        ),
        (
            "requests_per_day=5:1:1",
            "--vary requests_per_day=5:1:1: STOP darf nicht unter START liegen",
            "--vary requests_per_day=5:1:1: STOP must not be below START",
        ),
        (
            "requests_per_day=1:5:0",
            "--vary requests_per_day=1:5:0: STEP muss größer als 0 sein",
            "--vary requests_per_day=1:5:0: STEP must be greater than 0",
        ),
        (
            "requests_per_day=1:x:1",
            "--vary requests_per_day=1:x:1: STOP 'x' ist keine Zahl",
            "--vary requests_per_day=1:x:1: STOP 'x' is not a number",
        ),
        (
            "requests_per_day=1:2:0.5",
            "--vary requests_per_day=1:2:0.5: requests_per_day nimmt ganze Zahlen; auch START, STOP und "
            "STEP müssen ganze Zahlen sein",
            "--vary requests_per_day=1:2:0.5: requests_per_day takes whole numbers; START, STOP and STEP "
            "must be too",
        ),
        (
            "requests_per_day=1:1000:1",
            "--vary requests_per_day=1:1000:1: 1000 Werte, höchstens 200 je Variable; wählen Sie einen "
            "größeren STEP",
            "--vary requests_per_day=1:1000:1: 1000 values, at most 200 per variable; take a larger STEP",
        ),
        (
            "price:aws/p5-on-demand/h100=1:2:1",
            "--vary price:aws/p5-on-demand/h100: kein Angebot 'aws/p5-on-demand/h100' im Katalog; geben Sie "
            "price:ANBIETER/ANGEBOT/GPU an (meinten Sie price:aws/p5-on-demand/h100-sxm?)",
            "--vary price:aws/p5-on-demand/h100: no offer 'aws/p5-on-demand/h100' in the catalog; give "
            "price:PROVIDER/OFFER/GPU (did you mean price:aws/p5-on-demand/h100-sxm?)",
        ),
    ],
)
def test_vary_errors_in_german(spec: str, german: str, english: str) -> None:
    result = sweep(spec)
    assert result.exit_code == 2
    assert result.stderr == f"Fehler: {german}\n"
    assert sweep(spec, lang="en").stderr == f"error: {english}\n"


def test_an_unknown_sweep_variable_in_german() -> None:
    result = sweep("requests_per_dya=1:2:1")
    assert result.stderr.startswith("Fehler: --vary: unbekannte Variable 'requests_per_dya'; zulässig: ")
    assert result.stderr.endswith(" (meinten Sie 'requests_per_day'?)\n")


def test_sweep_decisions_and_what_changed_in_german() -> None:
    result = sweep("requests_per_day=1000000:8000000:7000000")
    assert result.exit_code == 0, result.output
    assert "  B  Eigene Hardware: hgx-h100-8\n" in result.output
    assert ": A -> B (Bereitstellung, Anbieter, Angebot, GPU)\n" in result.output
    english = sweep("requests_per_day=1000000:8000000:7000000", lang="en").output
    assert "  B  own hardware: hgx-h100-8\n" in english
    assert ": A -> B (deployment, provider, offer, gpu)\n" in english
    # At a team's negotiated AWS rate, 8 million requests a day take a mixed fleet, named in both languages.
    rates = ("--overrides", NEGOTIATED_AWS)
    mixed = sweep("requests_per_day=1000000:8000000:7000000", extra=rates).output
    assert "  B  Gemischte Flotte: Basis aws p5-reserved-3y, h100-sxm, Spitze stundenweise\n" in mixed
    english = sweep("requests_per_day=1000000:8000000:7000000", lang="en", extra=rates).output
    assert "  B  mixed fleet: aws p5-reserved-3y base, h100-sxm, hourly peak\n" in english


@pytest.mark.parametrize(
    ("kind", "context", "german", "english"),
    [
        ("progress_evaluating", {}, "Auswertung", "evaluating"),
        ("progress_elapsed", {}, "vergangen,", "elapsed,"),
        ("progress_left", {}, "verbleibend", "left"),
        ("progress_rate", {"rate": "1.234"}, "1.234 Workloads/s", "1.234 workloads/s"),
    ],
)
def test_progress_bar_words_in_german(kind: str, context: dict[str, str], german: str, english: str) -> None:
    assert said("de", kind, **context) == german
    assert said("en", kind, **context) == english


def test_the_progress_bar_shows_its_german_words() -> None:
    from rich.progress import TextColumn

    from gpu_advisor.engine.present.batch_progress import TerminalProgress

    words = [
        column.text_format
        for column in TerminalProgress(4, "de")._progress.columns
        if isinstance(column, TextColumn)
    ]
    assert words == ["Auswertung", "{task.fields[rate]}", "vergangen,", "verbleibend"]
