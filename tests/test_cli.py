"""The command line as users and scripts meet it: exit codes, messages, formats and the JSON contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main

PUBLIC_CHAT = str(EXAMPLES_DIR / "public-chat.yaml")


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


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


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp9}\nrequests_per_day: 1\n",
            "model.precision: Input should be 'fp32', 'bf16', 'fp16', 'fp8', 'int8' or 'int4' (got 'fp9')",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequest_per_day: 1\n",
            "request_per_day: unknown field; allowed fields:",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequest_per_day: 1\n",
            "(did you mean 'requests_per_day'?)",
        ),
        ("name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\n", "requests_per_day: Field required"),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: '5'\n",
            "requests_per_day: Input should be a valid integer (got '5')",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\nutilization: 1.5\n",
            "utilization: Input should be less than or equal to 1 (got 1.5)",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\n"
            "load_pattern: spiky\n",
            "load_pattern: Input should be 'steady', 'variable' or 'batch' (got 'spiky')",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-07b, precision: fp8}\nrequests_per_day: 5\n",
            # found while evaluating, named with its file as the reader's errors are
            "error: <stdin>: model.name: unknown value 'llama-3.1-07b'; allowed: ",
        ),
        (
            "name: x\nmodel: {precision: fp8}\nrequests_per_day: 5\n",
            "give model.name (a catalog ID) or model.params_b",
        ),
        (
            "name: x\nmodel: {params_b: 7, active_params_b: 9, precision: fp8}\nrequests_per_day: 5\n",
            "  model: model.active_params_b cannot exceed model.params_b\n",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: [5, 6]\n",
            "requests_per_day: Input should be a valid integer (got [5, 6])",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\n"
            "company_country: de\n",
            "company_country: an ISO 3166 code of two capital letters (got 'de') (did you mean 'DE'?)",
        ),
        ("- just\n- a list\n", "a workload is a mapping of fields, got list"),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 0\n",
            "requests_per_day: Input should be greater than 0 (got 0)",
        ),
        (
            "name: x\nname: y\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\n",
            "key 'name' is given twice",
        ),
        (
            'name: "a\\nb"\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\n',
            "name: String should match pattern",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, params_b: 7, precision: fp8}\nrequests_per_day: 5\n",
            "model.params_b: 7.0 contradicts the catalog's llama-3.1-70b (70.0B)",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, active_params_b: 20, precision: fp8}\n"
            "requests_per_day: 5\n",
            "model.active_params_b: 20.0 contradicts the catalog's llama-3.1-70b",
        ),
        ("name: [unclosed\n", "not valid YAML or JSON"),
        (
            "name: x\nmodel: {name: mistral-7b, precision: bf16}\nrequests_per_day: 5\n"
            "avg_input_tokens: 40000\n",
            "context_tokens: an average request of 40,150 tokens exceeds mistral-7b's maximum context of "
            "32,768 tokens",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5\n"
            "avg_input_tokens: 4000\navg_output_tokens: 1000\ncontext_tokens: 4096\n",
            "context_tokens: an average request (4,000 in + 1,000 out = 5,000 tokens) does not fit "
            "context_tokens: 4,096 tokens; give a context_tokens of at least 5,000",
        ),
        (
            "name: x\nmodel: {name: mistral-7b, precision: bf16}\nrequests_per_day: 5\n"
            "context_tokens: 100000\n",
            "error: <stdin>: context_tokens: 100,000 exceeds mistral-7b's maximum context of 32,768 tokens",
        ),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(document: str, expected: str) -> None:
    result = invoke("recommend", "-", stdin=document)
    assert result.exit_code == 2
    assert expected in result.output
    assert "Traceback" not in result.output


def test_non_utf8_input_exits_2() -> None:
    result = CliRunner().invoke(main, ["recommend", "-"], input=b"name: \xff\xfe\n")
    assert result.exit_code == 2
    assert "<stdin>: not UTF-8 text (byte 6)" in result.output


def test_the_default_context_grows_to_hold_a_long_request() -> None:
    workload = (
        "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5\n"
        "avg_input_tokens: 30000\n"
    )
    result = invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload)
    assert result.exit_code == 0, result.output
    assert "| Context | 30,150 tokens (default) |" in result.output


def test_a_request_exactly_filling_the_context_is_accepted() -> None:
    workload = (
        "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5\n"
        "avg_input_tokens: 4000\navg_output_tokens: 96\ncontext_tokens: 4096\n"
    )
    assert invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload).exit_code == 0


def test_catalog_rounding_is_accepted() -> None:
    workload = "name: x\nmodel: {name: llama-3.1-70b, params_b: 70.55, precision: fp8}\nrequests_per_day: 5\n"
    assert invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload).exit_code == 0


def test_missing_file_exits_2() -> None:
    result = invoke("recommend", "no/such/file.yaml")
    assert result.exit_code == 2
    assert "no/such/file.yaml: no such file" in result.output


def test_bad_date_exits_2() -> None:
    result = invoke("recommend", PUBLIC_CHAT, "--as-of", "30.11.2026")
    assert result.exit_code == 2
    assert "--as-of: '30.11.2026' is not a date; use YYYY-MM-DD" in result.output


def test_size_json_contract() -> None:
    result = invoke("size", "--model", "llama-3.1-70b", "--precision", "bf16", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["weights_gb"] == 140
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


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["size", "--precision", "bf16"], "give exactly one of --model or --params-b"),
        (["size", "--model", "llama-70b", "--precision", "bf16"], "model: unknown value 'llama-70b'"),
        (
            ["size", "--params-b", "7", "--active-params-b", "9", "--precision", "bf16"],
            "--active-params-b cannot exceed --params-b",
        ),
        (["size", "--params-b", "7", "--precision", "fp9"], "'fp9' is not one of"),
        (["size", "--params-b", "-7", "--precision", "bf16"], "-7.0 is not in the range x>0"),
        (["tco", "--residual", "1.5"], "Invalid value for '--residual'"),
        (["tco", "--server-price", "nan"], "--server-price: not a finite number"),
        (["tco", "--server-price", "inf"], "--server-price: not a finite number"),
        (["size", "--params-b", "inf", "--precision", "bf16"], "--params-b: not a finite number"),
        (
            ["size", "--model", "mistral-7b", "--precision", "bf16", "--context-tokens", "1000000"],
            "error: context_tokens: 1,000,000 exceeds mistral-7b's maximum context of 32,768 tokens",
        ),
        (
            [
                *("size", "--params-b", "7", "--precision", "bf16", "--requests-per-day", "100"),
                *("--input-tokens", "30000", "--context-tokens", "1000"),
            ],
            "(30,000 in + 150 out = 30,150 tokens) does not fit context_tokens: 1,000 tokens",
        ),
    ],
)
def test_bad_options_exit_2(args: list[str], expected: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert expected in result.output


def test_tco_json_contract() -> None:
    # The documents' own figures are the US defaults.
    data = json.loads(invoke("tco", "--country", "US", "--format", "json").output)
    lines = data["usd_per_gpu_hour"]
    assert [round(lines[k], 2) for k in ("capital", "power", "rack", "total")] == [1.36, 0.11, 0.17, 1.64]
    row = next(b for b in data["break_even"] if b["provider"] == "runpod" and b["offer"] == "community")
    assert (row["usd_per_gpu_hour"], round(row["utilization"], 2)) == (2.69, 0.61)
    assert data["overridden"] == []


def test_tco_overrides() -> None:
    data = json.loads(invoke("tco", "--country", "US", "--server-price", "250000", "--format", "json").output)
    assert round(data["usd_per_gpu_hour"]["total"], 2) == 1.47
    assert data["overridden"] == ["server_price_usd"]
    b200 = json.loads(invoke("tco", "--country", "US", "--gpu-watts", "1000", "--format", "json").output)
    assert round(b200["usd_per_gpu_hour"]["power"], 3) == round(1.0 * 1.3 * 0.12, 3)


def test_tco_text() -> None:
    text = invoke("tco", "--country", "US").output
    assert "  total       $1.64   ($9,554/month; spares and InfiniBand not included)" in text
    assert "runpod/community" in text and "61 %" in text


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
    assert "Weights: 8B x 2 bytes = 16 GB" in completed.stdout


def test_rules_lists_the_catalog() -> None:
    result = invoke("rules")
    assert result.exit_code == 0
    assert "DEP001  deployment      advice    Under the API line: use a managed API" in result.output
    data = json.loads(invoke("rules", "--format", "json", "--topic", "residency").output)
    assert [rule["id"] for rule in data] == [f"RES{number:03d}" for number in range(1, 15)]


def test_rules_show_explains_one_rule() -> None:
    result = invoke("rules", "show", "dep001")
    assert result.exit_code == 0
    assert "DEP001 low-volume-use-managed-api: Under the API line: use a managed API" in result.output
    assert "  - requests_per_day < api_max_requests_per_day (10000 requests/day)" in result.output
    assert "  - proposes deployment api at precedence 50" in result.output
    assert "Source: GPU-Auswahl und Inference-Kosten (2026-01-01), Entscheidungshilfe" in result.output


def test_rules_show_unknown_id_suggests_a_close_one() -> None:
    result = invoke("rules", "show", "DEP0011")
    assert result.exit_code == 2
    assert "(did you mean 'DEP011'?)" in result.output


def test_rules_unknown_topic() -> None:
    result = invoke("rules", "--topic", "residence")
    assert result.exit_code == 2
    assert "did you mean 'residency'?" in result.output


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
    assert row["rtx-5090"].split()[3:] == [
        "16",
        "-",
        "no",
        "room",
        "for",
        "the",
        "KV",
        "cache",
        "in",
        "16",
        "cards",
    ]
    assert row["a10g"].split()[3:] == ["no", "fit", "-", "too", "large", "for", "16", "cards"]


def test_a_value_that_starts_one_allowed_value_suggests_it_and_one_that_starts_several_lists_them() -> None:
    one = invoke("catalog", "offers", "--gpu", "rtx")
    assert one.exit_code == 2
    assert one.output.rstrip().endswith("rtx-5090 (did you mean 'rtx-5090'?)")
    several = invoke("catalog", "offers", "--gpu", "h100")  # the H100 variants, not the closest spelling h200
    assert several.exit_code == 2
    assert several.output.rstrip().endswith(
        "mi300x, rtx-5090 (did you mean one of 'h100-nvl', 'h100-pcie', 'h100-sxm'?)"
    )
    size = invoke("size", "--model", "llama-3.1-70b", "--precision", "bf16", "--gpu", "h100")
    assert size.exit_code == 2
    assert "(did you mean one of 'h100-nvl', 'h100-pcie', 'h100-sxm'?)" in size.output


def test_size_at_a_concurrency_shows_the_requests_in_flight_asked_for() -> None:
    text = invoke(
        "size", "--model", "llama-3.1-8b", "--precision", "bf16", "--concurrency", "300", "--gpu", "h100-sxm"
    )
    lines = text.output.splitlines()
    header = lines.index("GPU         Cards In flight     Req/s   Tokens/s     TTFT ms     TPOT ms")
    assert lines[header + 1].split()[:3] == ["h100-sxm", "1", "300"]  # not the replica's 1,024 at most
    assert "throughput and latency (TTFT, TPOT at 300 requests in flight per replica)" in " ".join(lines)
    assert "at the peak" not in text.output
