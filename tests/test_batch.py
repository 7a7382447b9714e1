"""`gpu-advisor batch`: one result per workload, in input order, as CSV or JSON Lines, with a summary,
progress and a clean stop (its input parsing: test_batch_inputs.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from batch_cli import (
    AS_OF,
    BIG,
    CSV_INPUT,
    GOOD,
    JSONL_INPUT,
    csv_rows,
    invoke,
    jsonl,
    write,
)
from click.testing import CliRunner

from gpu_advisor.cli import main
from gpu_advisor.engine.domain.results import Recommendation


def portfolio(count: int) -> str:
    models = [
        ("llama-3.1-70b", "fp8"),
        ("llama-3.1-8b", "bf16"),
        ("qwen2.5-72b", "fp8"),
        ("deepseek-r1", "fp8"),
    ]
    lines = []
    for index in range(count):
        model, precision = models[index % len(models)]
        workload = {
            "name": f"w{index:03d}",
            "model": {"name": model, "precision": precision},
            "requests_per_day": 1000 + 7919 * index,
            "personal_data": index % 3 == 0,
        }
        lines.append(json.dumps(workload))
    return "\n".join(lines) + "\n"


def test_output_order_is_input_order_whatever_the_jobs(tmp_path: Path) -> None:
    # More rows than one chunk, so several chunks are in flight on two workers.
    path = write(tmp_path, "many.jsonl", portfolio(150))
    serial = invoke(path, "--format", "csv", "--jobs", "1")
    parallel = invoke(path, "--format", "csv", "--jobs", "2")
    assert serial.exit_code == parallel.exit_code == 0
    assert serial.stdout == parallel.stdout
    assert [row["name"] for row in csv_rows(parallel.stdout)] == [f"w{i:03d}" for i in range(150)]


def test_csv_output_columns(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "w.jsonl", json.dumps(BIG) + "\n"), "--format", "csv")
    assert result.stdout.splitlines()[0] == (
        "line,name,deployment,pricing,provider,offer,gpu,gpus,usd_per_month,fired_rules,attention,"
        "cost_is_estimate,priced_with_another_model"
    )
    (row,) = csv_rows(result.stdout)
    full = jsonl(invoke(write(tmp_path, "w.jsonl", json.dumps(BIG) + "\n")).stdout)[0]
    decision = full["decision"]
    assert row["deployment"] == decision["deployment"] == "dedicated_cloud"
    assert (row["provider"], row["offer"], row["gpu"]) == (
        decision["provider"],
        decision["offer"],
        decision["gpu"],
    )
    assert int(row["gpus"]) == decision["gpus"]
    assert float(row["usd_per_month"]) == pytest.approx(decision["usd_per_month"], abs=0.005)
    assert row["fired_rules"].split() == full["fired_rules"]
    assert row["cost_is_estimate"] == "false"
    assert row["priced_with_another_model"] == "false"


def test_csv_in_euro_adds_the_euro_cost_last_and_keeps_the_dollar_column(tmp_path: Path) -> None:
    """--currency EUR wrote the dollar figure alone while the summary said euros."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    path = write(tmp_path, "w.jsonl", json.dumps(BIG) + "\n")
    dollars = invoke(path, "--format", "csv")
    euros = invoke(path, "--format", "csv", "--currency", "EUR")
    header = euros.stdout.splitlines()[0]
    assert header == dollars.stdout.splitlines()[0] + ",eur_per_month"
    (usd_row,), (eur_row,) = csv_rows(dollars.stdout), csv_rows(euros.stdout)
    assert {k: v for k, v in eur_row.items() if k != "eur_per_month"} == usd_row
    rate = load_knowledge().eur_to_usd().rate
    assert eur_row["eur_per_month"] == f"{float(usd_row['usd_per_month']) / rate:.2f}"


def test_csv_in_swiss_francs_adds_a_franc_column(tmp_path: Path) -> None:
    """CHF through the EUR: 1.16 USD per EUR over 0.9197 CHF per EUR (knowledge/exchange_rates.yaml)."""
    path = write(tmp_path, "w.jsonl", json.dumps(BIG) + "\n")
    dollars = invoke(path, "--format", "csv")
    francs = invoke(path, "--format", "csv", "--currency", "CHF")
    assert francs.stdout.splitlines()[0] == dollars.stdout.splitlines()[0] + ",chf_per_month"
    (usd_row,), (chf_row,) = csv_rows(dollars.stdout), csv_rows(francs.stdout)
    assert {k: v for k, v in chf_row.items() if k != "chf_per_month"} == usd_row
    assert chf_row["chf_per_month"] == f"{float(usd_row['usd_per_month']) * 0.9197 / 1.16:.2f}"


def test_an_api_row_names_its_provider_and_whether_another_models_price_stands_in(tmp_path: Path) -> None:
    qwen = {
        "name": "qwen3",
        "model": {"name": "qwen3-235b-a22b", "precision": "fp8"},
        "requests_per_day": 150_000,
        "avg_input_tokens": 1_500,
        "avg_output_tokens": 600,
        "load_pattern": "variable",
        "company_country": "US",
    }
    (row,) = csv_rows(invoke(write(tmp_path, "q.jsonl", json.dumps(qwen) + "\n"), "--format", "csv").stdout)
    # No price of Qwen3 235B: the compared API is DeepInfra's DeepSeek-R1, a reasoning model's stand-in
    # (Llama 3.1 405B's, nearer in size, answers without reasoning: KNB021).
    assert (row["deployment"], row["provider"], row["offer"]) == (
        "api",
        "deepinfra",
        "deepseek-r1-deepinfra",
    )
    assert row["priced_with_another_model"] == "true"


def test_serverless_costs_are_catalog_prices_not_estimates(tmp_path: Path) -> None:
    sporadic = {
        "name": "sporadic",
        "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 300,
        "load_pattern": "variable",
        "latency_sensitive": False,
    }
    path = write(tmp_path, "w.jsonl", json.dumps(sporadic) + "\n" + json.dumps(BIG) + "\n")
    result = invoke(path, "--format", "csv")
    serverless, dedicated = csv_rows(result.stdout)
    assert (serverless["deployment"], serverless["pricing"], serverless["cost_is_estimate"]) == (
        "serverless",
        "serverless",
        "false",
    )
    assert (serverless["provider"], serverless["offer"]) == ("runpod", "serverless")
    assert (dedicated["deployment"], dedicated["cost_is_estimate"]) == ("dedicated_cloud", "false")
    total = float(serverless["usd_per_month"]) + float(dedicated["usd_per_month"])
    assert f"Total monthly cost: ${total:,.0f}\n" in result.stderr
    assert "estimated" not in result.stderr


def test_jsonl_output_is_the_full_result_plus_line_and_name(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "w.jsonl", json.dumps(BIG) + "\n"))
    (record,) = jsonl(result.stdout)
    assert list(record)[:2] == ["line", "name"]
    assert (record.pop("line"), record.pop("name")) == (1, "big")
    assert Recommendation.model_validate(record).workload.name == "big"


def test_summary_counts(tmp_path: Path) -> None:
    summary_file = tmp_path / "summary.json"
    result = invoke(
        write(tmp_path, "portfolio.csv", CSV_INPUT), "--format", "csv", "--summary", str(summary_file)
    )
    assert result.exit_code == 1  # rows were skipped
    assert result.stderr.startswith("error: ")  # the bad row only: the summary went to the file
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    rows = csv_rows(result.stdout)
    assert (summary["workloads"], summary["evaluated"], summary["errors"]) == (4, 3, 1)
    expected: dict[str, int] = {}
    for row in rows:
        expected[row["deployment"]] = expected.get(row["deployment"], 0) + 1
    assert summary["by_deployment"] == dict(sorted(expected.items()))
    total = sum(float(row["usd_per_month"]) for row in rows if row["usd_per_month"])
    assert summary["total_usd_per_month"] == pytest.approx(total, abs=0.05)
    attention = [row for row in rows if row["attention"]]
    assert summary["attention_count"] == len(attention)
    assert [a["line"] for a in summary["attention"]] == [int(row["line"]) for row in attention]
    assert summary["error_list"][0]["line"] == 4


def test_text_summary_on_stderr(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "portfolio.csv", CSV_INPUT), "--format", "csv")
    assert "portfolio.csv: 4 workloads, 3 evaluated, 1 with errors" in result.stderr
    assert "By deployment:" in result.stderr
    assert "Total monthly cost: $" in result.stderr
    assert "Need attention (a critical or warning finding):" in result.stderr


def test_standard_input_needs_a_format() -> None:
    result = invoke("-", stdin=json.dumps(GOOD))
    assert result.exit_code == 2
    assert "--input-format: required" in result.stderr
    result = invoke("-", "--input-format", "jsonl", stdin=json.dumps(GOOD))
    assert result.exit_code == 0
    assert jsonl(result.stdout)[0]["name"] == "small"


def test_a_directory_is_named_as_one(tmp_path: Path) -> None:
    result = invoke(str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: {tmp_path}: is a directory; batch reads one file of workloads (a CSV, JSON Lines or a YAML "
        "list of them)"
    )


def test_unknown_extension_exits_2(tmp_path: Path) -> None:
    result = invoke(write(tmp_path, "w.txt", "x"))
    assert result.exit_code == 2
    assert "cannot tell the format" in result.stderr


def test_writes_the_output_file(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    result = invoke(write(tmp_path, "w.jsonl", JSONL_INPUT), "--format", "csv", "-o", str(target))
    assert result.exit_code == 1  # rows were skipped
    assert result.stdout == ""
    assert len(csv_rows(target.read_text(encoding="utf-8"))) == 3


def test_ctrl_c_stops_cleanly_and_keeps_what_was_written(tmp_path: Path) -> None:
    path = write(tmp_path, "many.jsonl", portfolio(3000))
    output = tmp_path / "out.csv"
    command = [sys.executable, "-m", "gpu_advisor.cli", "batch", path, "--format", "csv", "-o", str(output)]
    process = subprocess.Popen(
        [*command, "--jobs", "2", "--as-of", AS_OF],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 20
    # The results go to a temporary file beside the output until the run ends (then it is renamed).
    while (
        time.monotonic() < deadline
        and sum(p.read_bytes().count(b"\n") for p in tmp_path.glob(".out.csv.*.tmp")) < 100
    ):
        time.sleep(0.05)
    # As a terminal does: Ctrl-C reaches the whole process group, workers included.
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=20)
    assert process.returncode == 130
    assert "Traceback" not in stderr
    assert "interrupted" in stderr
    rows = csv_rows(output.read_text(encoding="utf-8"))
    assert 100 <= len(rows) < 3000
    assert [row["name"] for row in rows] == [f"w{i:03d}" for i in range(len(rows))]


def test_a_reader_that_stops_reading_ends_the_run_as_a_signal_does(tmp_path: Path) -> None:
    """`batch ... | head -2` exited 1 ("rows were skipped") with a summary that called the run complete."""
    path = write(tmp_path, "many.jsonl", portfolio(300))
    summary_file = tmp_path / "summary.json"
    command = [sys.executable, "-m", "gpu_advisor.cli", "batch", path, "--format", "csv", "--jobs", "1"]
    process = subprocess.Popen(
        [*command, "--summary", str(summary_file), "--as-of", AS_OF],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith("line,name,")
    process.stdout.close()  # as head does after its lines
    stderr = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=60) == 141  # 128 + SIGPIPE
    assert "Traceback" not in stderr
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    assert (summary["interrupted"], summary["interrupted_by"]) == (True, "SIGPIPE")
    assert summary["workloads"] < 300


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = write(tmp_path, "many.jsonl", portfolio(200))
    args = ["-m", "gpu_advisor.cli", "batch", path, "--jobs", "1", "-o", str(tmp_path / "out.jsonl")]
    child = pexpect.spawn(sys.executable, [*args, "--as-of", AS_OF], encoding="utf-8", timeout=30)
    child.expect("workloads/s")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "200/200" in (child.before or "")


def test_stale_prices_are_one_note_in_the_summary_not_attention_on_every_row(tmp_path: Path) -> None:
    path = write(tmp_path, "many.jsonl", portfolio(8))
    summary_file = tmp_path / "summary.json"
    args = [path, "--format", "csv", "--jobs", "1", "--summary", str(summary_file)]
    # Two years on, every catalog price is older than the stale-price line (KNB001 fires on every row).
    result = CliRunner().invoke(main, ["batch", *args, "--as-of", "2028-11-30"])
    assert result.exit_code == 0, result.stderr
    rows = csv_rows(result.stdout)
    stale = sum("KNB001" in row["fired_rules"].split() for row in rows)
    stale_api = sum("KNB007" in row["fired_rules"].split() for row in rows)
    stale_serverless = sum("KNB013" in row["fired_rules"].split() for row in rows)
    stale_server = sum("KNB019" in row["fired_rules"].split() for row in rows)
    assert stale >= 4 and stale_api >= 4 and stale_serverless >= 1
    assert not any({"KNB001", "KNB007", "KNB013", "KNB019"} & set(row["attention"].split()) for row in rows)
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    assert summary["portfolio_notes"] == [
        {"rule": "KNB001", "title": "The cheapest rental's list price is stale", "workloads": stale},
        {"rule": "KNB007", "title": "The compared API's price is stale", "workloads": stale_api},
        {"rule": "KNB013", "title": "The serverless product's price is stale", "workloads": stale_serverless},
        {"rule": "KNB019", "title": "The own server's price is stale", "workloads": stale_server},
    ]
    assert all({"KNB001", "KNB007", "KNB013", "KNB019"}.isdisjoint(a["rules"]) for a in summary["attention"])
    text = CliRunner().invoke(main, ["batch", path, "--jobs", "1", "--as-of", "2028-11-30"]).stderr
    assert f"KNB001 The cheapest rental's list price is stale: {stale} workloads" in text
    assert text.count("KNB001") == 1


def test_skipped_rows_exit_1_unless_allowed(tmp_path: Path) -> None:
    path = write(tmp_path, "w.jsonl", portfolio(2) + '{"name": "bad"}\n')
    assert invoke(path, "--jobs", "1").exit_code == 1
    assert invoke(path, "--jobs", "1", "--allow-bad-rows").exit_code == 0
    assert invoke(write(tmp_path, "ok.jsonl", portfolio(2)), "--jobs", "1").exit_code == 0


def test_an_output_file_ending_in_csv_gets_csv_unless_format_says_otherwise(tmp_path: Path) -> None:
    """``-o results.csv`` wrote JSON Lines into a file named .csv; --format still decides where given."""
    row = '{"name": "a", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 5000}\n'
    source = write(tmp_path, "w.jsonl", row)
    target = tmp_path / "results.csv"
    assert invoke(source, "-o", str(target)).exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("line,name,")
    explicit = tmp_path / "explicit.csv"
    assert invoke(source, "-o", str(explicit), "--format", "jsonl").exit_code == 0
    assert explicit.read_text(encoding="utf-8").startswith("{")


def test_the_policy_applies_to_every_row_on_every_worker(tmp_path: Path) -> None:
    # Without the example policy a German retail Q&A with personal data goes to IONOS and an internal 8B
    # tool to DeepInfra; the policy approves AWS, Google Cloud, Azure and OVHcloud only (ORG003).
    rows = [
        {
            "name": "retail-qa",
            "model": {"name": "llama-3.3-70b", "precision": "fp8"},
            "requests_per_day": 20000,
            "personal_data": True,
            "company_country": "DE",
        },
        {"name": "internal", "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 5000},
    ]
    path = write(tmp_path, "portfolio.jsonl", "\n".join(json.dumps(row) for row in rows) + "\n")
    policy = str(Path(__file__).resolve().parent.parent / "examples" / "org-policy")
    plain = csv_rows(invoke(path, "--format", "csv", "--jobs", "1").stdout)
    assert [(r["provider"], r["offer"]) for r in plain] == [
        ("ionos", "llama-3.3-70b-ionos"),
        ("deepinfra", "llama-3.1-8b-deepinfra"),
    ]
    for jobs in ("1", "2"):
        result = invoke(path, "--format", "csv", "--jobs", jobs, "--policy", policy)
        assert result.exit_code == 0, result.stderr
        found = csv_rows(result.stdout)
        assert [(r["provider"], r["offer"]) for r in found] == [
            ("ovhcloud", "llama-3.3-70b-ovhcloud"),
            # OVHcloud's Qwen3.5 9B thinks by default, the 8B model does not (KNB022).
            ("ovhcloud", "llama-3.3-70b-ovhcloud"),
        ]
        assert all("ORG003" in r["fired_rules"] for r in found)


def test_a_policy_changed_during_the_run_is_refused_not_mixed_in(tmp_path: Path) -> None:
    from gpu_advisor.engine.apps.batch.run import _policy_rules
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.rulebook.loading import policy_key

    policy = tmp_path / "policy"
    policy.mkdir()
    source = Path(__file__).resolve().parent.parent / "examples" / "org-policy" / "approved-providers.yaml"
    (policy / "approved-providers.yaml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    pinned = policy_key(str(policy))
    rulebook, _ = _policy_rules(pinned)
    assert "ORG003" in rulebook.ids
    # A worker process started after a file changed (a fresh cache) refuses the run's policy.
    (policy / "approved-providers.yaml").write_text(
        "schema_version: 1\nfamily: ORG\nrules: []\n", encoding="utf-8"
    )
    _policy_rules.cache_clear()
    with pytest.raises(InputError, match="its files changed during the run"):
        _policy_rules(pinned)


def test_more_jobs_than_the_cpus_hold_are_refused(tmp_path: Path) -> None:
    """--jobs 10000 started thousands of worker processes and stalled the machine: at most 4 a CPU."""
    from gpu_advisor.engine.apps.batch.run import default_jobs

    path = write(tmp_path, "one.jsonl", portfolio(1))
    most = 4 * default_jobs()
    refused = CliRunner().invoke(main, ["batch", path, "--jobs", str(most + 1), "--as-of", AS_OF])
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"error: --jobs: at most {most} worker processes here, 4 for each of the {default_jobs()} CPUs this "
        "process may use: more processes than CPUs add memory, not speed\n"
    )
    assert CliRunner().invoke(main, ["batch", path, "--jobs", "2", "--as-of", AS_OF]).exit_code == 0
