"""A workload file's ranges survive being answered again: ``ask --from`` and the web form's saved file keep
the requests a day as a range while its point value is not changed, and the volume growth as given (only
``recommend --scenarios`` reads them, and neither is asked)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
import yaml
from click.testing import CliRunner
from web_pages import FormValues, load_into_form

from gpu_advisor.cli import main
from gpu_advisor.engine.domain.workload_ranges import WorkloadRanges, with_ranges, written_ranges

RANGED = {
    "name": "ranged",
    "model": {"name": "llama-3.1-8b", "precision": "fp16"},
    "requests_per_day": {"low": 200000, "high": 600000},
    "volume_growth": 0.3,
    "avg_input_tokens": 500,
    "avg_output_tokens": 200,
}
RANGES = WorkloadRanges.model_validate(
    {"requests_per_day": {"low": 200000, "high": 600000}, "volume_growth": 0.3}
)
REQUESTS_QUESTION = 4
"""Where the requests a day come among the questions asked of a catalog model: name, model, precision,
custom weights, requests."""


def test_the_ranges_as_a_file_gives_them() -> None:
    assert written_ranges(RANGES) == {
        "requests_per_day": {"low": 200000, "high": 600000},
        "volume_growth": {"low": 0.3, "high": 0.3},
    }
    triangular = WorkloadRanges.model_validate(
        {"requests_per_day": {"low": 1000, "high": 5000, "shape": "triangular", "mode": 1500.5}}
    )
    assert written_ranges(triangular) == {
        "requests_per_day": {"low": 1000, "high": 5000, "shape": "triangular", "mode": 1500.5}
    }


@pytest.mark.parametrize(
    ("requests", "written"),
    [(400000, {"low": 200000, "high": 600000}), (400001, 400001), (None, None)],
)
def test_the_requests_range_is_kept_while_its_point_value_is(requests: int | None, written: object) -> None:
    document = {"name": "x", "requests_per_day": requests, "avg_input_tokens": 1}
    kept = with_ranges(document, RANGES)
    assert list(kept) == ["name", "requests_per_day", "avg_input_tokens", "volume_growth"]
    assert kept["requests_per_day"] == written
    assert kept["volume_growth"] == {"low": 0.3, "high": 0.3}
    assert with_ranges(document, WorkloadRanges()) == document


def ask_from(tmp_path: Path, answers: list[str]) -> dict[str, object]:
    source = tmp_path / "ranged.yaml"
    source.write_text(yaml.safe_dump(RANGED, sort_keys=False), "utf-8")
    result = CliRunner().invoke(
        main,
        [
            "ask",
            "--as-of",
            "2026-11-30",
            "--from",
            str(source),
            "--save",
            str(tmp_path / "out.yaml"),
            "--memo",
            str(tmp_path / "out.md"),
        ],
        input="\n".join(answers) + "\n" * 40,
    )
    assert result.exit_code == 0, result.output
    saved: dict[str, object] = yaml.safe_load((tmp_path / "out.yaml").read_text("utf-8"))
    return saved


def test_ask_from_a_file_keeps_its_ranges(tmp_path: Path) -> None:
    saved = ask_from(tmp_path, [])
    assert saved["requests_per_day"] == {"low": 200000, "high": 600000}
    assert saved["volume_growth"] == {"low": 0.3, "high": 0.3}
    # The file's growth says the volume grows: the question's default follows it (it said no beside it).
    assert saved["volume_growing"] is True


def test_ask_from_a_file_replaces_a_range_whose_value_is_changed(tmp_path: Path) -> None:
    saved = ask_from(tmp_path, [""] * REQUESTS_QUESTION + ["50000"])
    assert saved["requests_per_day"] == 50000
    assert saved["volume_growth"] == {"low": 0.3, "high": 0.3}


def test_the_web_form_keeps_a_loaded_files_ranges(client: httpx.Client, tmp_path: Path) -> None:
    source = tmp_path / "ranged.yaml"
    source.write_text(yaml.safe_dump(RANGED, sort_keys=False), "utf-8")
    form = FormValues(load_into_form(client, source, "en", "USD").text, "questionnaire").values
    assert form["requests_per_day"] == "400000"
    saved = yaml.safe_load(client.get("/workload.yaml", params=form).text)
    assert saved["requests_per_day"] == {"low": 200000, "high": 600000}
    assert saved["volume_growing"] is True
    assert saved["volume_growth"] == {"low": 0.3, "high": 0.3}
    changed = yaml.safe_load(client.get("/workload.yaml", params={**form, "requests_per_day": "50000"}).text)
    assert changed["requests_per_day"] == 50000
    assert changed["volume_growth"] == {"low": 0.3, "high": 0.3}


@pytest.mark.parametrize(
    ("growth", "growing"), [("0.05", "yes"), ("{low: 0, high: 0.2}", "yes"), ("0", "no")]
)
def test_recommend_reads_a_growth_above_zero_as_a_growing_volume(
    tmp_path: Path, growth: str, growing: str
) -> None:
    """A file with ``volume_growth: 0.05`` and no ``volume_growing``: the memo said "Volume growing: no
    (default)" beside it, while ``ask --from`` saved yes; both now read the growth alike (DEP013 fires)."""
    source = tmp_path / "w.yaml"
    source.write_text(
        "name: vg\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 20000\n"
        f"volume_growth: {growth}\n",
        encoding="utf-8",
    )
    memo = CliRunner().invoke(main, ["recommend", str(source), "--as-of", "2026-11-30"]).stdout
    assert f"| Volume growing | {growing}" in memo
    assert ("**DEP013**" in memo) is (growing == "yes")
