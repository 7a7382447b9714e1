"""The command line as users and scripts meet it: exit codes, output, formats and the JSON contract of
``recommend``, ``size`` and ``rules`` (``tco``: ``test_cli_tco.py``). Input it refuses is in
``test_cli_refusals.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import EXAMPLES_DIR, PUBLIC_CHAT, invoke

from gpu_advisor.engine.common.catalog_parts import KINDS

POLICY = EXAMPLES_DIR / "org-policy"


def test_help_lists_the_commands() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("recommend", "size", "tco"):
        assert command in result.output


def test_recommend_json_contract() -> None:
    result = invoke("recommend", PUBLIC_CHAT, "--format", "json", "--as-of", "2026-11-30")
    assert result.exit_code == 0
    data = json.loads(result.output)
    # The same model's hosted price (0.40 USD per million tokens) undercuts the three H200.
    assert data["decision"]["deployment"] == "api"
    assert data["decision"]["offer"] == "llama-3.1-70b-deepinfra"
    assert data["decision"]["cost_is_estimate"] is False
    load = data["load"]
    assert 0 <= load["busy_share"] <= 1 and len(load["profile"]) == 24
    assert load["requests_in_flight_peak"] > load["requests_in_flight_average"] > 0
    assert {"load_profile", "batch_window_hours", "min_replicas"} <= set(data["workload"])
    for option in data["options"]:
        assert {"capacity_utilization_at_peak", "spare_replicas", "hours_per_day_running"} <= set(option)
    serverless = [o for o in data["options"] if o["pricing"] == "serverless"]
    assert serverless and all(
        o["provider"] and o["offer"] and o["billed_hours_per_month"] > 0 for o in serverless
    )
    assert all(o["serverless"] is not None for o in serverless)
    assert all(o["serverless"] is None for o in data["options"] if o["pricing"] != "serverless")
    assert {"weights_gb", "kv_bytes_per_token", "gpus"} <= set(data["sizing"])
    assert {"gpu", "memory_gb", "gpus_for_weights", "gpus_recommended"} <= set(data["sizing"]["gpus"][0])
    option_fields = {
        "provider",
        "offer",
        "gpu",
        "gpus",
        "replicas",
        "usd_per_hour",
        "usd_per_month",
        "eu",
        "pricing",
        "chosen",
    }
    assert all(option_fields <= set(o) for o in data["options"])
    assert sum(o["chosen"] for o in data["options"]) == 0  # the API is chosen, no rental
    compared = [a for a in data["api_costs"] if a["compared"]]
    assert len(compared) == 1 and compared[0]["api"] == data["decision"]["offer"]
    assert {"provider", "jurisdiction", "batch", "same_model", "stands_in", "excluded_by"} <= set(compared[0])
    assert all(
        {"rule_id", "topic", "severity", "title", "message", "source"} <= set(f) for f in data["findings"]
    )


def test_same_input_gives_byte_identical_output() -> None:
    first = invoke("recommend", PUBLIC_CHAT, "--as-of", "2026-11-30").output
    second = invoke("recommend", PUBLIC_CHAT, "--as-of", "2026-11-30").output
    assert first == second
    assert (
        invoke("recommend", PUBLIC_CHAT, "--format", "json", "--as-of", "2026-11-30").output
        == invoke("recommend", PUBLIC_CHAT, "--format", "json", "--as-of", "2026-11-30").output
    )


def test_reads_standard_input_and_json() -> None:
    workload = {"name": "stdin", "model": {"params_b": 8, "precision": "bf16"}, "requests_per_day": 500}
    result = invoke("recommend", "-", "--format", "json", "--as-of", "2026-11-30", stdin=json.dumps(workload))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["decision"]["deployment"] == "api"


def test_writes_output_file(tmp_path: Path) -> None:
    target = tmp_path / "memo.md"
    result = invoke("recommend", PUBLIC_CHAT, "-o", str(target), "--as-of", "2026-11-30")
    assert result.exit_code == 0
    assert result.output == ""
    assert target.read_text(encoding="utf-8").startswith("# GPU decision memo: public-chat")


def test_the_default_context_grows_to_hold_a_long_request() -> None:
    workload = (
        "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5\n"
        "avg_input_tokens: 30000\n"
    )
    result = invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload)
    assert result.exit_code == 0, result.output
    assert (
        "| Context | 30,150 tokens (one average request, as the default window is shorter: set "
        "context_tokens; SIZ027) |"
    ) in result.output
    # A window of one average request (30,000 in + the default 150 out) refuses every longer one: SIZ027
    # says so, and names the engine's setting it is served with.
    memo = " ".join(result.output.split())
    assert (
        "- **SIZ027** The serving context is one average request: longer requests are refused: The workload "
        "leaves context_tokens out, and its average request (30,000 tokens in + 150 out) is longer than the "
        "default window, so the serving context is exactly 30,150 tokens, one average request: the cards "
        "and the KV cache are sized for it, and the API windows compared are held to it. An engine served "
        "with that context (vLLM's --max-model-len 30150) refuses a request whose prompt and the answer "
        "length it asks for (max_tokens) together exceed it: with an average prompt, any max_tokens above 150"
    ) in memo
    # A context the workload gives, or the default window an average request fits, says nothing of it.
    given = invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload + "context_tokens: 32768\n")
    assert given.exit_code == 0, given.output
    assert "SIZ027" not in given.output
    short = invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload.replace("30000", "3000"))
    assert "| Context | 8,192 tokens (default) |" in short.output
    assert "SIZ027" not in short.output
    # An average request exactly the default window's length does not outgrow it.
    exact = invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload.replace("30000", "8042"))
    assert "| Context | 8,192 tokens (default) |" in exact.output
    assert "SIZ027" not in exact.output


def test_a_request_exactly_filling_the_context_is_accepted() -> None:
    workload = (
        "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5\n"
        "avg_input_tokens: 4000\navg_output_tokens: 96\ncontext_tokens: 4096\n"
    )
    assert invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload).exit_code == 0


def test_catalog_rounding_is_accepted() -> None:
    workload = "name: x\nmodel: {name: llama-3.1-70b, params_b: 70.55, precision: fp8}\nrequests_per_day: 5\n"
    assert invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload).exit_code == 0


def test_size_json_contract() -> None:
    result = invoke("size", "--model", "llama-3.1-70b", "--precision", "bf16", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    # 70.55 billion parameters (the exact count) x 2 bytes.
    assert (data["weights_params_b"], data["weights_gb"]) == (70.55, 141.1)
    assert data["kv_bytes_per_token"] == 327680
    rows = {row["gpu"]: row for row in data["gpus"]}
    assert (rows["h100-sxm"]["gpus_for_weights"], rows["h100-sxm"]["gpus_recommended"]) == (2, 4)
    assert (rows["h200"]["gpus_for_weights"], rows["h200"]["gpus_recommended"]) == (1, 2)
    assert rows["h100-pcie"]["gpus_recommended"] is None  # a multi-card replica over PCIe
    assert rows["h100-pcie"]["not_recommended_by"] == ["NET001"]


def test_size_by_parameters_has_no_kv_figure() -> None:
    data = json.loads(invoke("size", "--params-b", "32", "--precision", "bf16", "--format", "json").output)
    assert data["weights_gb"] == 64
    assert data["kv_bytes_per_token"] is None


@pytest.mark.parametrize("params_b", ["1", "0.5", "3"])
def test_small_models_where_no_rule_fires(params_b: str) -> None:
    result = invoke("size", "--params-b", params_b, "--precision", "bf16", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["findings"] == []


def test_console_script_is_installed() -> None:
    completed = subprocess.run(
        [
            str(Path(sys.executable).parent / "gpu-advisor"),
            "size",
            "--model",
            "llama-3.1-8b",
            "--precision",
            "bf16",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Weights: 8.03B x 2 bytes = 16.1 GB" in completed.stdout


def test_rules_lists_the_catalog() -> None:
    result = invoke("rules")
    assert result.exit_code == 0
    assert "DEP001  deployment      advice    Under the API line: use a managed API" in result.output
    data = json.loads(invoke("rules", "--format", "json", "--topic", "residency").output)
    assert [rule["id"] for rule in data] == [f"RES{number:03d}" for number in range(1, 19)]


def test_rules_list_is_the_rules_listing() -> None:
    for args in ((), ("--topic", "tco"), ("--format", "json"), ("--policy", str(POLICY))):
        assert invoke("rules", "list", *args).output == invoke("rules", *args).output
    assert "ORG001" in invoke("rules", "list", "--policy", str(POLICY)).output
    # Options before `list` count too.
    assert (
        invoke("rules", "--topic", "tco", "--format", "json", "list").output
        == invoke("rules", "--topic", "tco", "--format", "json").output
    )


def test_rules_show_explains_one_rule() -> None:
    result = invoke("rules", "show", "dep001")
    assert result.exit_code == 0
    assert "DEP001 low-volume-use-managed-api: Under the API line: use a managed API" in result.output
    assert "  - requests_per_schedule_day < api_max_requests_per_day (10000 requests/day)" in result.output
    assert "  - proposes deployment api at precedence 50" in result.output
    assert "Source: GPU-Auswahl und Inference-Kosten (2026-01-01), Entscheidungshilfe" in result.output


@pytest.mark.parametrize(
    ("params_b", "stand_in"),
    [(32, "qwen2.5-32b"), (400, "llama-3.1-405b"), (700, "llama-3.1-405b"), (1000, "llama-3.1-405b")],
)
def test_a_model_given_by_size_takes_its_kv_cache_from_the_nearest_grouped_query_model(
    params_b: int, stand_in: str
) -> None:
    # deepseek-r1 (671B) is nearer to 700B and 1,000B, but its latent cache is a seventh of a
    # grouped-query one: a model that does not say it has latent attention must not be sized by it.
    data = json.loads(
        invoke("size", "--params-b", str(params_b), "--precision", "bf16", "--format", "json").output
    )
    assert data["kv_estimated_from"] == stand_in


def test_size_tells_weights_too_large_from_no_room_for_the_kv_cache() -> None:
    lines = invoke("size", "--model", "llama-3.1-405b", "--precision", "fp8").output.splitlines()
    row = {
        line.split()[0]: line for line in lines if line.split() and line.split()[0] in {"rtx-5090", "a10g"}
    }
    # 16 RTX 5090 hold the 405 GB of weights and two full-context sequences, not the usual eight.
    assert row["rtx-5090"].split()[3:] == [
        "16",
        "-",
        "no",
        "usual",
        "count",
        "within",
        "16",
        "cards;",
        "16",
        "hold",
    ]
    assert row["a10g"].split()[3:] == ["no", "fit", "-", "too", "large", "for", "16", "cards"]


def test_size_at_a_concurrency_shows_the_requests_in_flight_asked_for() -> None:
    text = invoke(
        "size", "--model", "llama-3.1-8b", "--precision", "bf16", "--concurrency", "300", "--gpu", "h100-sxm"
    )
    lines = text.output.splitlines()
    header = lines.index("GPU         Cards In flight     Req/s  Out tok/s     TTFT ms     TPOT ms")
    assert lines[header + 1].split()[:3] == ["h100-sxm", "1", "300"]  # not the replica's 1,024 at most
    assert "throughput and latency (TTFT, TPOT at 300 requests in flight per replica)" in " ".join(lines)
    assert "at the peak" not in text.output
    one = invoke(
        "size", "--model", "llama-3.1-8b", "--precision", "bf16", "--concurrency", "1", "--gpu", "h100-sxm"
    )
    assert "At 1 request in flight per replica (" in one.output and "1 requests" not in one.output


def test_catalog_offers_that_match_nothing_say_so() -> None:
    """Modal sells serverless products only: no GPU offer of it is listed, and the text says why. Filters
    that match nothing together (no offer with an EU region has one in the US) printed an empty table's
    header above the sentence; now the sentence alone, naming the filters applied, and exit 0, as
    ``catalog serverless`` and ``catalog apis`` say nothing matched."""
    nothing = (
        "No GPU offer matches. Serverless products (catalog serverless) and managed APIs (catalog apis) are "
        "not listed as GPU offers."
    )
    result = invoke("catalog", "offers", "--provider", "modal")
    assert (result.exit_code, result.output) == (0, f"{nothing} Filters applied: --provider modal.\n")
    result = invoke("catalog", "offers", "--eu", "--country", "us")
    assert (result.exit_code, result.output) == (
        0,
        f"{nothing} Filters applied: --eu --country US. A region counts for --country only where the catalog "
        "names the countries of its data centres.\n",
    )
    apis = invoke("catalog", "apis", "--provider", "aws", "--non-eu", "--lang", "de")
    assert (apis.exit_code, apis.output) == (
        0,
        "Keine Managed API passt (GPU-Angebote: catalog offers; Serverless-Produkte: catalog serverless). "
        "Angewandte Filter: --provider aws --non-eu.\n",
    )
    assert invoke("catalog", "offers", "--eu", "--country", "US", "--format", "json").output == "[]\n"


def test_a_fault_in_the_tool_is_said_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception no command expects (here the memo renderer failing) is a fault in gpu-advisor, not
    in the input: one message on stderr, exit code 4, no traceback; GPU_ADVISOR_TRACEBACK=1 shows it."""
    import gpu_advisor.engine.present.memo as memo

    def broken(*_args: object, **_kwargs: object) -> str:
        raise RuntimeError("the memo template broke")

    monkeypatch.setattr(memo, "render_memo", broken)
    monkeypatch.delenv("GPU_ADVISOR_TRACEBACK", raising=False)
    result = invoke("recommend", PUBLIC_CHAT)
    assert result.exit_code == 4
    assert result.output.splitlines() == [
        "internal error: RuntimeError: the memo template broke",
        "This is a fault in gpu-advisor, not in your input; please report it with the command and the input "
        "files. Set GPU_ADVISOR_TRACEBACK=1 to see where it happened.",
    ]
    assert "Traceback" not in result.output
    german = invoke("recommend", PUBLIC_CHAT, "--lang", "de")
    assert german.exit_code == 4
    assert german.output.startswith("interner Fehler: RuntimeError: the memo template broke\n")
    monkeypatch.setenv("GPU_ADVISOR_TRACEBACK", "1")
    shown = invoke("recommend", PUBLIC_CHAT)
    assert isinstance(shown.exception, RuntimeError) and shown.exit_code == 1


def test_a_refusal_of_the_system_is_said_as_an_error_not_a_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk is not a fault in gpu-advisor: "error: ..." and exit code 5; GPU_ADVISOR_TRACEBACK=0
    does not ask for the traceback."""
    import errno

    import gpu_advisor.engine.present.memo as memo

    def full(*_args: object, **_kwargs: object) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(memo, "render_memo", full)
    monkeypatch.setenv("GPU_ADVISOR_TRACEBACK", "0")
    result = invoke("recommend", PUBLIC_CHAT)
    assert (result.exit_code, result.output) == (5, "error: [Errno 28] No space left on device\n")
    german = invoke("recommend", PUBLIC_CHAT, "--lang", "de")
    assert (german.exit_code, german.output) == (5, "Fehler: [Errno 28] No space left on device\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_a_full_standard_output_is_named_as_standard_output() -> None:
    """Standard output on a full disk (/dev/full refuses every write): the message says where the
    write failed, as a file's would; exit code 5."""
    executable = str(Path(sys.executable).parent / "gpu-advisor")
    command = [executable, "size", "--params-b", "1", "--precision", "fp8"]
    with open("/dev/full", "w", encoding="utf-8") as full:
        completed = subprocess.run(
            command,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert (completed.returncode, completed.stderr) == (
        5,
        "error: [Errno 28] No space left on device: '<standard output>'\n",
    )
    # click's own output, written before any command runs, printed a traceback and exited 1.
    for option in ("--help", "--version"):
        with open("/dev/full", "w", encoding="utf-8") as full:
            own = subprocess.run(
                [executable, option], stdout=full, stderr=subprocess.PIPE, text=True, check=False
            )
        assert (own.returncode, own.stderr) == (5, "error: [Errno 28] No space left on device\n"), option


def test_a_malformed_serve_limits_variable_does_not_stop_every_command() -> None:
    """GPU_ADVISOR_SERVE_LIMITS is how serve hands its limits to its workers; one set by hand that does
    not parse failed every command at import with a traceback."""
    executable = str(Path(sys.executable).parent / "gpu-advisor")
    for given in ("{bad", '{"nope": 1}'):
        environment = {**os.environ, "GPU_ADVISOR_SERVE_LIMITS": given}
        done = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, check=False, env=environment
        )
        assert (done.returncode, done.stderr) == (0, ""), given


def test_a_huge_columns_value_is_held_to_the_widest_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """COLUMNS=100000000 ran out of memory padding tables to that width."""
    from gpu_advisor.engine.present.terminal import MAX_WIDTH, text_layout

    monkeypatch.setenv("COLUMNS", "100000000")
    assert text_layout() == (MAX_WIDTH, True)
    monkeypatch.setenv("COLUMNS", "120")
    assert text_layout() == (120, True)


@pytest.mark.parametrize(
    ("closing", "args", "named"),
    [
        (">&-", ["size", "--params-b", "1", "--precision", "fp8"], "<standard output>"),
        # click's own output, written before any command runs.
        (">&-", ["--help"], "<standard output>"),
        ("<&-", ["recommend", "-"], "<stdin>"),
    ],
)
def test_a_closed_standard_stream_is_a_system_error(closing: str, args: list[str], named: str) -> None:
    """Started with standard output or input closed (``>&-``, ``<&-``), Python leaves the stream None:
    its first use was an internal error (exit 4); it is the system's refusal, named (exit 5)."""
    executable = str(Path(sys.executable).parent / "gpu-advisor")
    completed = subprocess.run(
        ["sh", "-c", f'exec "$0" "$@" {closing}', executable, *args],
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert (completed.returncode, completed.stderr) == (
        5,
        f"error: [Errno 9] not open (the command was started with it closed): '{named}'\n",
    )


@pytest.mark.parametrize(
    ("args", "usage"),
    [
        *[
            ([kind], "Usage: gpu-advisor catalog [OPTIONS] {gpus|offers|models|apis|serverless}\n")
            for kind in KINDS
        ],
        (["import"], "Usage: gpu-advisor catalog import [OPTIONS] FILE|-\n"),
        (["diff"], "Usage: gpu-advisor catalog diff [OPTIONS] OLD NEW\n"),
    ],
)
def test_catalog_usage_lines_have_one_space_after_catalog(args: list[str], usage: str) -> None:
    """The listings run under ``catalog`` without a name of their own: their usage said ``catalog
    [OPTIONS]`` with two spaces, and so did the hint after a refused option."""
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    shown = CliRunner().invoke(main, ["catalog", *args, "--help"], prog_name="gpu-advisor")
    assert shown.exit_code == 0
    assert shown.output.startswith(usage)
    if args[0] in ("import", "diff"):
        return
    refused = CliRunner().invoke(main, ["catalog", *args, "--colour"], prog_name="gpu-advisor")
    assert refused.exit_code == 2
    assert "Try 'gpu-advisor catalog --help' for help." in refused.output


def test_catalog_help_names_the_parts_each_filter_selects_in() -> None:
    """The help and the refusal of a filter on another part read one table: the help says (offers,
    serverless, apis) where the refusal says 'filters catalog offers, serverless, apis only'."""
    text = " ".join(invoke("catalog", "offers", "--help").output.split())
    assert "--gpu ID Only this GPU (gpus, offers, serverless)." in text
    assert "--provider ID Only this provider (offers, serverless, apis)." in text
    assert "--eu / --non-eu Only entries with (or without) an EU region (offers, serverless, apis)." in text
    assert "(ISO code, e.g. DE; offers, serverless, apis); a region of variable location is in none." in text
