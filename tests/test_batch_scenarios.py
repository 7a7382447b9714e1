"""``batch --scenarios N``: each workload's robustness in the JSON Lines and three CSV columns, the same
as ``recommend --scenarios N`` for that workload; on a Dask cluster (a ``LocalCluster`` the test starts)
byte for byte the local run's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR

from gpu_advisor.cli import main

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
    assert plain.splitlines()[0].split(",")[-1] == "cost_is_estimate"


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
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
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
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None
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
