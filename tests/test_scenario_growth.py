"""Scenarios of a workload whose volume grows: every scenario grows it, so the one-at-a-time runs hold
the growth at its range's point value (a growth given as one number: at it, with no row of its own),
and "decides differently" is said against the run at those held values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import EVALUATED_ON
from test_scenario_runs import invoke, robustness

from gpu_advisor.cli import main

AS_OF = EVALUATED_ON.isoformat()


def test_an_input_that_moves_only_the_recommendations_own_cost_is_not_called_an_advantage(
    tmp_path: Path,
) -> None:
    """The requests' range moves the recommended API's cost most; its serverless rival, Modal's B200, has
    no price at the range's low end (a run costs only the cheapest serverless route, and at the lower
    volume Modal's H200 undercuts it), so the effect is on the cost, and the memo says so (it said the
    advantage over the rival moved by the API's own change). The one-at-a-time runs hold the growth at
    the middle of its range, 50 %, as every scenario grows the volume: the API's cost at 520,000 a day
    is 1.5 times its cost at the point value, and the growth's own range (20 % to 80 %) moves it second,
    again with no rival price at its low end. The range starts at 90,000 a day, 135,000 grown: there
    Modal's H200 ($31,511 a month) undercuts its B200 ($36,498); from a low of 100,000 (150,000 grown) the
    B200 in five 2-card replicas ($27,406) stays the rival at both ends."""
    workload = tmp_path / "qwen.yaml"
    workload.write_text(
        "name: qwen-moe\nmodel: {name: qwen3-235b-a22b, precision: fp8}\n"
        "requests_per_day: {low: 90000, high: 520000}\nvolume_growth: {low: 0.2, high: 0.8}\n"
        "avg_input_tokens: 4000\navg_output_tokens: 800\ncontext_tokens: 32768\nload_pattern: variable\n",
        encoding="utf-8",
    )
    rb = robustness(str(workload), "--scenarios", "100")
    top, second = rb["sensitivity"][0], rb["sensitivity"][1]
    assert (top["input"], top["effect_on"]) == ("requests_per_day", "cost")
    assert (second["input"], second["effect_on"]) == ("volume_growth", "cost")
    for row in (top, second):
        assert row["rival_cost_at_low"] is None
        assert row["effect"] == pytest.approx(abs(row["cost_at_high"] - row["cost_at_low"]))
    # The API bills per token: its cost scales with the volume, 1.5 times over for the held growth.
    assert top["cost_at_high"] / top["cost_at_low"] == pytest.approx(520_000 / 90_000)
    assert second["cost_at_high"] / second["cost_at_low"] == pytest.approx(1.8 / 1.2)
    memo = invoke("recommend", str(workload), "--scenarios", "100", "--as-of", AS_OF).output
    assert (
        f"From its low to its high, the recommendation's monthly cost moves by ${top['effect']:,.0f}." in memo
    )
    assert (
        "every other at its point value and the volume grown by 50 %, the growth range's point value" in memo
    )
    assert "advantage over" not in memo


def test_a_growth_given_as_one_number_is_stated_not_ranked(tmp_path: Path) -> None:
    """A growth of 150 % given as a number is the same in every scenario: no row of the sensitivity
    table (it read "150 % to 150 % ... $0" beside a decision the growth made), and the one-at-a-time runs
    hold it, so the throughput error moves the advantage over the serverless rival the grown volume
    brings in (at today's volume every input read $0 and the memo said none moved anything). 314,000
    requests a day: the nearest volume to the 310,000 this was first found at where Modal's B200 again
    costs less than the API at the grown volume (beside the FP8 checkpoint's 16-bit embedding and lm_head
    its six B200 bill $20,543 from about 305,000 a day, where they billed $20,163; the API's $20,327.97
    at 310,000 passes $20,543 above 310,000 x 20,543 / 20,327.97 = 313,280)."""
    workload = tmp_path / "moe.yaml"
    workload.write_text(
        "name: de-moe\nmodel: {name: qwen3-235b-a22b, precision: fp8}\nrequests_per_day: 314000\n"
        "avg_input_tokens: 800\navg_output_tokens: 215\nload_pattern: variable\nschedule: always\n"
        "latency_sensitive: true\nvolume_growth: 1.5\ncompany_country: DE\n",
        encoding="utf-8",
    )
    rb = robustness(str(workload), "--scenarios", "50")
    assert "volume_growth" not in {s["input"] for s in rb["sensitivity"]}
    rows = {row["input"]: row for row in rb["sensitivity"]}
    error = rows["throughput_error"]
    assert error["effect_on"] == "advantage"
    # At the grown volume the held runs decide for the serverless rival, Modal's B200 ($20,543 against the
    # API's $20,327.97 x 314 / 310 = $20,590, DeepSeek-R1's price: KNB021). The throughput error moves
    # the rival's cost from $20,163 at its low end to that $20,543 at its high end, $380.23, each below
    # the API: it moves the advantage and keeps the decision. An input whose ends both keep the held
    # decision does not "decide differently", though the memo's decision (the API, at today's volume) is
    # another; the server price's low end does (own servers at $20,070).
    assert (round(error["rival_cost_at_low"], 2), round(error["rival_cost_at_high"], 2)) == (
        20_162.74,
        20_542.97,
    )
    assert error["effect"] == pytest.approx(error["rival_cost_at_high"] - error["rival_cost_at_low"])
    assert error["cost_at_low"] == pytest.approx(20_327.974875 * 314 / 310)
    assert error["decision_changes"] is False
    eu = rows["eu_region_premium"]
    assert eu["decision_cost_at_low"] == eu["decision_cost_at_high"] < eu["cost_at_low"]
    assert eu["decision_changes"] is False
    server = rows["server_price"]
    assert (server["effect_on"], server["decision_changes"]) == ("decision", True)
    assert round(server["decision_cost_at_low"]) == 20_070
    memo = " ".join(invoke("recommend", str(workload), "--scenarios", "50", "--as-of", AS_OF).output.split())
    assert "No single input moves" not in memo
    assert "| volume growth within a year |" not in memo
    assert (
        "Every scenario, and each of those runs, grows the volume by 150 %, as the workload file gives it."
    ) in memo


def test_a_triangular_growth_is_held_at_its_mode_and_the_memo_says_so(tmp_path: Path) -> None:
    """A growth of 10 % to 100 %, most likely 20 %: the one-at-a-time runs hold it at 20 % (its point
    value), and the memo names 20 %, not the range's middle (it said 55 % beside runs at 20 %). The API's
    cost at the requests' point value is then 1.2 times the ungrown one."""
    workload = tmp_path / "qwen.yaml"
    workload.write_text(
        "name: qwen-moe\nmodel: {name: qwen3-235b-a22b, precision: fp8}\n"
        "requests_per_day: {low: 100000, high: 520000}\n"
        "volume_growth: {low: 0.1, high: 1.0, shape: triangular, mode: 0.2}\n"
        "avg_input_tokens: 4000\navg_output_tokens: 800\ncontext_tokens: 32768\nload_pattern: variable\n",
        encoding="utf-8",
    )
    rb = robustness(str(workload), "--scenarios", "20")
    growth = next(i for i in rb["inputs"] if i["id"] == "volume_growth")
    assert (growth["point"], growth["held_at"]) == (0.0, 0.2)
    requests = next(s for s in rb["sensitivity"] if s["input"] == "requests_per_day")
    assert requests["cost_at_high"] / requests["cost_at_low"] == pytest.approx(520_000 / 100_000)
    # The API at 100,000 requests a day without growth, as recommend prices it: the run at the requests'
    # low holds the growth at 20 %, so it bills 1.2 times that.
    flat = tmp_path / "flat.yaml"
    flat.write_text(
        workload.read_text(encoding="utf-8")
        .replace("requests_per_day: {low: 100000, high: 520000}", "requests_per_day: 100000")
        .replace("volume_growth: {low: 0.1, high: 1.0, shape: triangular, mode: 0.2}\n", ""),
        encoding="utf-8",
    )
    today = json.loads(invoke("recommend", str(flat), "--format", "json", "--as-of", AS_OF).output)
    assert today["decision"]["deployment"] == "api"
    assert requests["cost_at_low"] == pytest.approx(today["decision"]["usd_per_month"] * 1.2)
    memo = " ".join(invoke("recommend", str(workload), "--scenarios", "20", "--as-of", AS_OF).output.split())
    assert "the volume grown by 20 %, the growth range's point value" in memo


def test_a_run_without_scenarios_says_the_file_s_ranges_are_not_drawn(tmp_path: Path) -> None:
    """``volume_growth: 1.5`` without ``--scenarios``: the memo prices today's volume, and the run says
    so on standard error and in the memo's Workload table (the growth appeared nowhere, in the memo or
    the JSON); the memo is otherwise the one without the growth."""
    workload = tmp_path / "growing.yaml"
    workload.write_text(
        "name: growing\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 150000\n"
        "volume_growing: true\nvolume_growth: 1.5\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["recommend", str(workload), "--as-of", "2026-11-30"])
    assert result.exit_code == 0
    assert result.stderr == (
        "the file's ranges (volume_growth) are drawn by --scenarios N only: this memo prices the workload "
        "as given, at requests_per_day's own value and no growth\n"
    )
    plain = tmp_path / "plain.yaml"
    plain.write_text(
        workload.read_text(encoding="utf-8").replace("volume_growth: 1.5\n", ""), encoding="utf-8"
    )
    quiet = CliRunner().invoke(main, ["recommend", str(plain), "--as-of", "2026-11-30"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
    row = "| Volume growth in a year | 150 %, not priced here: `--scenarios N` prices it with the volume |\n"
    assert row in result.stdout
    assert quiet.stdout == result.stdout.replace(row, "")
