"""``batch --scenarios N``: each workload's robustness in the JSON Lines and three CSV columns, the same
as ``recommend --scenarios N`` for that workload; on a Dask cluster (a ``LocalCluster`` the test starts)
byte for byte the local run's."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.batch.summary import PORTFOLIO_NOTE_RULES
from gpu_advisor.engine.domain.results import Decision, apart_from

AS_OF = EVALUATED_ON.isoformat()
EXAMPLES = ("nightly-batch.yaml", "public-chat.yaml", "internal-assistant.yaml")


def portfolio(tmp_path: Path) -> Path:
    """Three examples as JSON Lines; the nightly batch with a volume range and growth."""
    rows = [yaml.safe_load((EXAMPLES_DIR / name).read_text(encoding="utf-8")) for name in EXAMPLES]
    rows[0]["requests_per_day"] = {"low": 300000, "high": 500000}
    rows[0]["volume_growth"] = {"low": 0.0, "high": 0.2}
    path = tmp_path / "portfolio.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def batch(*args: str) -> str:
    result = CliRunner().invoke(main, ["batch", *args, "--as-of", AS_OF])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_batch_robustness_is_recommend_s(tmp_path: Path) -> None:
    path = portfolio(tmp_path)
    lines = [json.loads(line) for line in batch(str(path), "--scenarios", "40", "--seed", "5").splitlines()]
    assert [line["name"] for line in lines] == ["nightly-reports", "public-chat", "internal-assistant"]
    single = tmp_path / "nightly.json"
    row = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    single.write_text(json.dumps(row), encoding="utf-8")
    alone = CliRunner().invoke(
        main,
        ["recommend", str(single), "--format", "json", "--as-of", AS_OF, "--scenarios", "40", "--seed", "5"],
    )
    assert alone.exit_code == 0, alone.output
    expected = json.loads(alone.output)
    assert lines[0]["robustness"] == expected["robustness"]
    assert lines[0]["findings"] == expected["findings"]  # the ROB rules' findings among them
    assert {i["id"] for i in lines[0]["robustness"]["inputs"]} >= {"requests_per_day", "volume_growth"}
    assert [f["rule_id"] for f in lines[1]["findings"] if f["rule_id"].startswith("ROB")] == ["ROB003"]


def test_batch_csv_columns(tmp_path: Path) -> None:
    path = portfolio(tmp_path)
    jsonl = [json.loads(line) for line in batch(str(path), "--scenarios", "40", "--seed", "5").splitlines()]
    text = batch(str(path), "--format", "csv", "--scenarios", "40", "--seed", "5")
    header, *rows = [line.split(",") for line in text.splitlines()]
    assert header[-3:] == ["recommended_win_share", "rival", "rival_win_share"]
    for row, line in zip(rows, jsonl, strict=True):
        rb = line["robustness"]
        assert row[-3] == f"{rb['recommended_win_share']:.4f}"
        rival = rb["cost_usd_per_month"]["rival"]
        parts = [rival[k] for k in ("deployment", "pricing", "provider", "offer", "gpu") if rival[k]]
        assert row[-2:] == ["/".join(parts), f"{rival['share']:.4f}"]
    plain = batch(str(path), "--format", "csv")
    assert plain.splitlines()[0].split(",")[-2:] == ["cost_is_estimate", "priced_with_another_model"]


def test_dask_without_a_scheduler_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["batch", str(portfolio(tmp_path)), "--executor", "dask"])
    assert result.exit_code == 2
    assert "--scheduler" in result.output


def test_dask_cluster_gives_the_local_bytes(tmp_path: Path) -> None:
    distributed = pytest.importorskip(
        "distributed", reason='Dask distributed is not installed (pip install -e ".[cluster]")'
    )
    path = str(portfolio(tmp_path))
    args = (path, "--scenarios", "30", "--seed", "2")
    local = batch(*args, "--jobs", "1")
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0"
    ) as cluster:
        remote = batch(*args, "--executor", "dask", "--scheduler", cluster.scheduler_address)
        address = cluster.scheduler_address
        remote_csv = batch(*args, "--format", "csv", "--executor", "dask", "--scheduler", address)
    assert remote == local
    assert remote_csv == batch(*args, "--format", "csv", "--jobs", "2")


@pytest.mark.parametrize("address", ["nonsense", "tcp://host-without-port"])
def test_a_malformed_scheduler_address_is_refused_at_once(tmp_path: Path, address: str) -> None:
    """A client built on a malformed address failed half-built and held the exit for a minute."""
    pytest.importorskip(
        "distributed", reason='Dask distributed is not installed (pip install -e ".[cluster]")'
    )
    args = ["batch", str(portfolio(tmp_path)), "--executor", "dask", "--scheduler", address]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert f"--scheduler: {address!r} is not a scheduler address (tcp://HOST:PORT)" in result.output


def test_a_cluster_that_fails_mid_run_is_an_error_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip(
        "distributed", reason='Dask distributed is not installed (pip install -e ".[cluster]")'
    )
    from gpu_advisor.engine.apps.batch import distributed as on_dask

    def lost(rows: object, settings: object) -> object:
        raise ConnectionError("scheduler-connection-lost")

    monkeypatch.setattr(on_dask, "evaluate_on_worker", lost)
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0"
    ) as cluster:
        args = [
            "batch",
            str(portfolio(tmp_path)),
            "--executor",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
        ]
        result = CliRunner().invoke(main, args)
    assert result.exit_code == 3, result.output
    assert (
        f"error: the Dask cluster at {cluster.scheduler_address} failed "
        "(ConnectionError: scheduler-connection-lost)" in result.output
    )
    assert result.exception is None or isinstance(result.exception, SystemExit)


RANGE_HEADER = (
    "name,model.name,model.precision,requests_per_day,requests_per_day.low,requests_per_day.high,"
    "requests_per_day.shape,volume_growth,volume_growth.low,volume_growth.high\n"
)


def test_csv_gives_ranges_as_the_yaml_nests_them(tmp_path: Path) -> None:
    """``requests_per_day.low``/``.high``/``.shape`` and ``volume_growth`` (a number) or its ``.low``/
    ``.high``: the same ranges, validated by the same models, as a workload file's
    ``requests_per_day: {low, high, shape}`` and ``volume_growth``; without --scenarios the point value."""
    csv_path = tmp_path / "portfolio.csv"
    csv_path.write_text(
        RANGE_HEADER
        + "ranged,llama-3.1-8b,bf16,,200000,600000,triangular,,0.0,0.4\n"
        + "grown,llama-3.1-8b,bf16,300000,,,,0.25,,\n",
        encoding="utf-8",
    )
    yaml_path = tmp_path / "portfolio.yaml"
    yaml_path.write_text(
        "- {name: ranged, model: {name: llama-3.1-8b, precision: bf16},\n"
        "   requests_per_day: {low: 200000, high: 600000, shape: triangular},\n"
        "   volume_growth: {low: 0.0, high: 0.4}}\n"
        "- {name: grown, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 300000,\n"
        "   volume_growth: 0.25}\n",
        encoding="utf-8",
    )
    args = ("--scenarios", "30", "--seed", "2")
    from_csv = [json.loads(line) for line in batch(str(csv_path), *args).splitlines()]
    from_yaml = [json.loads(line) for line in batch(str(yaml_path), *args).splitlines()]
    assert [r["robustness"] for r in from_csv] == [r["robustness"] for r in from_yaml]
    inputs = {i["id"]: i for i in from_csv[0]["robustness"]["inputs"]}
    assert (inputs["requests_per_day"]["shape"], inputs["requests_per_day"]["low"]) == ("triangular", 200000)
    assert (inputs["volume_growth"]["low"], inputs["volume_growth"]["high"]) == (0.0, 0.4)
    growth = next(i for i in from_csv[1]["robustness"]["inputs"] if i["id"] == "volume_growth")
    assert (growth["low"], growth["high"]) == (0.25, 0.25)
    # without --scenarios: the triangular range's mode (its midpoint here), growth ignored
    plain = [json.loads(line) for line in batch(str(csv_path)).splitlines()]
    assert [r["workload"]["requests_per_day"] for r in plain] == [400000, 300000]


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (
            "x,llama-3.1-8b,bf16,300000,200000,600000,,,,",
            "requests_per_day: give a point or a range (requests_per_day.low, requests_per_day.high), "
            "not both",
        ),
        (
            "x,llama-3.1-8b,bf16,,600000,200000,,,,",
            "requests_per_day: high (200000) is below low (600000)",
        ),
        ("x,llama-3.1-8b,bf16,,600000,,,,,", "requests_per_day.high: Field required"),
        (
            "x,llama-3.1-8b,bf16,,200000,600000,normal,,,",
            "requests_per_day.shape: Input should be 'uniform', 'triangular' or 'lognormal'",
        ),
        (
            "x,llama-3.1-8b,bf16,300000,,,,0.2,0.1,0.3",
            "volume_growth: give a point or a range (volume_growth.low, volume_growth.high), not both",
        ),
    ],
)
def test_a_bad_range_in_a_csv_row_is_that_row_s_error(tmp_path: Path, cells: str, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(RANGE_HEADER + cells + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["batch", str(path), "--as-of", AS_OF])
    assert result.exit_code == 1
    # the row's line, then the message (after "invalid workload" where the row's model refused it)
    where = result.output.index("bad.csv:2: ")
    assert message in result.output[where:].splitlines()[1 if "invalid workload" in result.output else 0]


def test_the_same_bad_range_in_a_workload_file_says_the_same(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(
        "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\n"
        "requests_per_day: {low: 600000, high: 200000}\n"
    )
    result = CliRunner().invoke(main, ["recommend", str(path), "--as-of", AS_OF])
    assert result.exit_code == 2
    assert "requests_per_day: high (200000) is below low (600000)" in result.output


def test_a_point_and_its_range_in_german(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(RANGE_HEADER + "x,llama-3.1-8b,bf16,300000,200000,600000,,,,\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["batch", str(path), "--as-of", AS_OF, "--lang", "de"])
    assert "requests_per_day: einen Wert oder eine Spanne angeben (requests_per_day.low, " in result.output


def test_csv_fired_rules_include_the_rob_findings_as_the_json_lines_do(tmp_path: Path) -> None:
    """Seed 1: the nightly batch is a coin flip against Azure's spot price (ROB001, a warning), the other
    two robust (ROB003, info). The CSV row lists them among the fired rules, and ROB001 among the rules
    that need attention, as the
    JSON line lists them in ``fired_rules`` and ``findings``; without --scenarios no ROB rule fires."""
    path = portfolio(tmp_path)
    args = ("--scenarios", "40", "--seed", "1")
    jsonl = [json.loads(line) for line in batch(str(path), *args).splitlines()]
    rows = list(csv.DictReader(io.StringIO(batch(str(path), "--format", "csv", *args))))
    assert [[r for r in row["fired_rules"].split() if r.startswith("ROB")] for row in rows] == [
        ["ROB001"],
        ["ROB003"],
        ["ROB003"],
    ]
    for row, line in zip(rows, jsonl, strict=True):
        assert row["fired_rules"].split() == line["fired_rules"]
        assert {f["rule_id"] for f in line["findings"]} <= set(line["fired_rules"])
        # A finding about a route the decision does not take, or a GPU it does not use, is left to the
        # memo, which names it apart.
        decision = Decision.model_validate(line["decision"])
        warned = {
            f["rule_id"]
            for f in line["findings"]
            if f["severity"] in ("critical", "warning")
            and not apart_from(decision, f["route"], f["about_its_gpu"], f["subject"])
        }
        warned -= set(PORTFOLIO_NOTE_RULES)  # a stale catalog price is one note in the summary
        assert row["attention"].split() == [r for r in line["fired_rules"] if r in warned]
    assert "ROB001" in rows[0]["attention"].split()
    summary = CliRunner().invoke(main, ["batch", str(path), "--format", "csv", *args, "--as-of", AS_OF])
    assert "ROB001" in summary.stderr
    plain = list(csv.DictReader(io.StringIO(batch(str(path), "--format", "csv"))))
    assert not any(r.startswith("ROB") for row in plain for r in row["fired_rules"].split())
