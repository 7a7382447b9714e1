"""``recommend --scenarios N``: the robustness section worked out by hand on the nightly batch, a decision
near its flip against one far from any, the same bytes for the same seed, and ranges refused by name."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR, NO_API_POLICY, decile, knowledge_with

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.scenarios.recommend import recommend_scenarios
from gpu_advisor.engine.apps.scenarios.run import local_mapper
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.workload import load_workload_with_ranges

BATCH = str(EXAMPLES_DIR / "nightly-batch.yaml")
RENTED_BATCH = (BATCH, "--policy", NO_API_POLICY)
"""The nightly batch with managed APIs ruled out by the company's policy: DeepInfra's Llama 3.3 70B API
($3,168), which stands in for its 72B Qwen, would be decided otherwise; with it out, RunPod's 4x B200
($3,557) is, and Azure's spot H100 is its rival."""
AS_OF = EVALUATED_ON.isoformat()


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def robustness(*args: str) -> dict:
    result = invoke("recommend", *args, "--format", "json", "--as-of", AS_OF)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["robustness"]


def option_cost(result: dict, provider: str, offer: str, gpu: str) -> float:
    return next(
        o["usd_per_month"]
        for o in result["options"]
        if (o["provider"], o["offer"], o["gpu"]) == (provider, offer, gpu) and not o["excluded_by"]
    )


def test_batch_share_and_rival_percentile_by_hand(tmp_path: Path) -> None:
    """The nightly batch, managed APIs ruled out (``RENTED_BATCH``), runs on RunPod's B200 on demand;
    Azure's ND H100 v5 spot is its rival. The spot price moves by (1 - d) / (1 - 0.75) with the drawn
    discount d (0.60 to 0.90, uniform), and a month's rental is the price times fixed GPU-hours, so the spot
    option wins exactly where its point cost times that factor is below RunPod's: the share follows from
    the draws alone. The throughput estimate's error, which stretches both batches' hours, is held at zero
    here (tests/test_scenario_draws.py draws it)."""
    overrides = tmp_path / "held.yaml"
    overrides.write_text("ranges:\n  throughput_error: {low: 0, high: 0}\n")
    result = invoke(
        "recommend",
        *RENTED_BATCH,
        "--format",
        "json",
        "--as-of",
        AS_OF,
        "--scenarios",
        "400",
        "--seed",
        "7",
        "--overrides",
        str(overrides),
    )
    data = json.loads(result.output)
    rb = data["robustness"]
    runpod = data["decision"]["usd_per_month"]
    spot_point = option_cost(data, "azure", "nd-h100-v5-spot", "h100-sxm")
    # the draws, independently: one uniform number per input, in the order of knowledge/uncertainty.yaml
    # (server price, EU premium, spot discount, reserved price, throughput error, serverless break-even)
    rng = random.Random(7)
    discounts = []
    for _ in range(400):
        u = [rng.random() for _ in range(6)]
        discounts.append(0.60 + u[2] * (0.90 - 0.60))
    # The price moves by (1 - d) / 0.25, but never above 60 % off Azure's newest on-demand price in its
    # US regions ($6.98): $2.792 against the listed $2.373. (AWS's P5 spot moves by the same factor from a
    # higher price, so it never undercuts Azure's where either undercuts RunPod.)
    ceiling = 6.98 * 0.40 / 2.373
    spot_costs = [spot_point * min((1 - d) / 0.25, ceiling) for d in discounts]
    runpod_wins = sum(1 for cost in spot_costs if cost >= runpod)
    assert rb["recommended_win_share"] == runpod_wins / 400
    assert rb["deployment_win_share"] == {"dedicated_cloud": 1.0}
    shares = {(o["provider"], o["offer"]): o["share"] for o in rb["option_win_share"]}
    assert shares == {
        ("runpod", "community"): runpod_wins / 400,
        ("azure", "nd-h100-v5-spot"): (400 - runpod_wins) / 400,
    }
    rival = rb["cost_usd_per_month"]["rival"]
    assert (rival["provider"], rival["offer"], rival["gpu"]) == ("azure", "nd-h100-v5-spot", "h100-sxm")
    assert rival["p50"] == pytest.approx(decile(spot_costs, 5), rel=1e-9)
    assert rival["p90"] == pytest.approx(decile(spot_costs, 9), rel=1e-9)
    # RunPod's price does not move, so every percentile of the recommendation is its point cost
    assert rb["cost_usd_per_month"]["p10"] == rb["cost_usd_per_month"]["p90"] == pytest.approx(runpod)
    regret = sum(max(0.0, runpod - cost) for cost in spot_costs) / 400
    assert rb["expected_regret_usd_per_month"] == pytest.approx(regret, rel=1e-9)
    assert rb["sensitivity"][0]["input"] == "spot_discount"
    assert rb["loses_when"][0]["input"] == "spot_discount"
    assert rb["loses_when"][0]["direction"] == "above"


def test_near_the_flip_the_share_is_near_the_middle(tmp_path: Path) -> None:
    """Azure's spot offer beats RunPod's B200 once its price falls to RunPod's monthly cost: a sweep of
    the spot price shows that flip. A spot discount range centred on the discount that gives that price
    (from an overrides file) wins about half the scenarios. Managed APIs are ruled out (``RENTED_BATCH``)."""
    data = json.loads(invoke("recommend", *RENTED_BATCH, "--format", "json", "--as-of", AS_OF).output)
    runpod = data["decision"]["usd_per_month"]
    spot_point = option_cost(data, "azure", "nd-h100-v5-spot", "h100-sxm")
    flip_price = 2.373 * runpod / spot_point
    sweep = invoke(
        "sweep",
        *RENTED_BATCH,
        "--vary",
        f"price:azure/nd-h100-v5-spot/h100-sxm={flip_price - 0.01:.3f}:{flip_price + 0.01:.3f}:0.02",
        "--format",
        "json",
        "--as-of",
        AS_OF,
    )
    flips = json.loads(sweep.output)["flips"]
    assert [(f["variable"], f["changed"]) for f in flips] == [
        ("price:azure/nd-h100-v5-spot/h100-sxm", ["pricing", "provider", "offer", "gpu"])
    ]
    flip_discount = 1 - 0.25 * runpod / spot_point  # the listed spot price stands at the 75 % midpoint
    overrides = tmp_path / "near.yaml"
    overrides.write_text(
        f"ranges:\n  spot_discount: {{low: {flip_discount - 0.05:.4f}, high: {flip_discount + 0.05:.4f}}}\n"
    )
    near = robustness(*RENTED_BATCH, "--overrides", str(overrides), "--scenarios", "400")
    assert 0.4 <= near["recommended_win_share"] <= 0.6
    assert near["loses_when"][0]["input"] == "spot_discount"


def test_far_from_any_threshold_the_share_is_whole() -> None:
    rb = robustness(str(EXAMPLES_DIR / "public-chat.yaml"), "--scenarios", "200")
    assert rb["recommended_win_share"] == 1.0
    assert rb["expected_regret_usd_per_month"] == 0.0
    assert rb["loses_when"] == []


def test_same_seed_same_bytes_in_one_process_and_two() -> None:
    args = ("recommend", BATCH, "--format", "json", "--as-of", AS_OF, "--scenarios", "300", "--seed", "3")
    first, second = invoke(*args).output, invoke(*args).output
    assert first == second
    workload, ranges = load_workload_with_ranges(BATCH)
    one, two = (
        recommend_scenarios(
            workload, ranges, EVALUATED_ON, 300, 3, load_knowledge(), mapper=local_mapper(jobs)
        ).robustness
        for jobs in (1, 2)
    )
    assert one == two
    assert json.loads(first)["robustness"] == one.model_dump(mode="json")


class Tally:
    """Records what a scenario run tells its progress bar."""

    def __init__(self) -> None:
        self.total: int | None = None
        self.steps: list[int] = []

    def expect(self, total: int) -> None:
        self.total = total

    def advance(self, rows: int) -> None:
        self.steps.append(rows)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_progress_bar_is_told_the_runs_as_each_part_ends_and_the_result_is_the_same(jobs: int) -> None:
    """300 draws and the one-at-a-time runs (two per uncertain input) go out in parts of about 100: 3 + 1
    parts here, their sizes adding up to the runs expected; the robustness is the run's without a bar."""
    workload, ranges = load_workload_with_ranges(BATCH)
    tally = Tally()
    watched, plain = (
        recommend_scenarios(
            workload, ranges, EVALUATED_ON, 300, 3, load_knowledge(), mapper=local_mapper(jobs, progress)
        ).robustness
        for progress in (tally, None)
    )
    assert watched == plain
    runs = 300 + 2 * len(plain.inputs)
    assert tally.total == runs and sum(tally.steps) == runs
    assert len(tally.steps) == -(-runs // 100) and max(tally.steps) <= 100


def test_workload_ranges_and_growth(tmp_path: Path) -> None:
    workload = tmp_path / "w.yaml"
    text = (EXAMPLES_DIR / "public-chat.yaml").read_text()
    workload.write_text(
        text.replace("requests_per_day: 1000000", "requests_per_day: {low: 200000, high: 600000}")
        + "volume_growth: {low: 0.0, high: 0.5}\n"
    )
    ran = invoke("recommend", str(workload), "--format", "json", "--as-of", AS_OF)
    plain = json.loads(ran.stdout)
    assert plain["workload"]["requests_per_day"] == 400000  # the range's midpoint
    assert ran.stderr.startswith(
        "the file's ranges (requests_per_day, volume_growth) are drawn by --scenarios"
    )
    rb = robustness(str(workload), "--scenarios", "100")
    inputs = {i["id"]: i for i in rb["inputs"]}
    assert inputs["requests_per_day"]["origin"] == "workload"
    assert (inputs["volume_growth"]["low"], inputs["volume_growth"]["high"]) == (0.0, 0.5)
    # the API's cost grows with the requests: its P90 is at least its P10
    bands = rb["cost_usd_per_month"]
    assert bands["p10"] < bands["p50"] < bands["p90"]


def test_bad_ranges_are_refused_by_name(tmp_path: Path) -> None:
    workload = tmp_path / "w.yaml"
    workload.write_text(
        "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: {low: 5, high: 1}\n"
    )
    result = invoke("recommend", str(workload), "--as-of", AS_OF)
    assert result.exit_code == 2
    assert "requests_per_day" in result.output and "below low" in result.output
    overrides = tmp_path / "o.yaml"
    overrides.write_text("ranges:\n  spot_discont: {low: 0.5, high: 0.9}\n")
    result = invoke("recommend", BATCH, "--overrides", str(overrides), "--scenarios", "10", "--as-of", AS_OF)
    assert result.exit_code == 2
    assert "ranges.spot_discont" in result.output and "spot_discount" in result.output


def test_an_overridden_range_replaces_the_documents(tmp_path: Path) -> None:
    overrides = tmp_path / "o.yaml"
    overrides.write_text("ranges:\n  spot_discount: {low: 0.60, high: 0.61}\n")
    rb = robustness(*RENTED_BATCH, "--overrides", str(overrides), "--scenarios", "50")
    spot = next(i for i in rb["inputs"] if i["id"] == "spot_discount")
    assert (spot["origin"], spot["low"], spot["high"]) == ("overrides", 0.6, 0.61)
    assert rb["recommended_win_share"] == 1.0  # spot at most 61 % off never beats RunPod


def test_a_range_needs_a_range_in_the_knowledge_base(tmp_path: Path) -> None:
    copy = knowledge_with(
        tmp_path, "uncertainty.yaml", "figure: spot_discount", "figure: spot_notice_minutes"
    )
    with pytest.raises(KnowledgeError, match="spot_notice_minutes' is a single value"):
        load_knowledge_from(copy)


def test_robustness_charts_as_png(tmp_path: Path) -> None:
    """--charts DIR with --scenarios: the tornado and the cost band as PNG files the memo links to, in a
    directory the command creates."""
    memo = tmp_path / "memo.md"
    charts = tmp_path / "charts"
    result = invoke(
        "recommend", BATCH, "--as-of", AS_OF, "--scenarios", "20", "--charts", str(charts), "-o", str(memo)
    )
    assert result.exit_code == 0, result.output
    for name, title in (
        ("robustness-tornado", "What moves the decision (one at a time)"),
        ("robustness-cost-band", "Monthly cost across the scenarios"),
    ):
        png = charts / f"nightly-reports-{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png.stat().st_size > 1000
        assert f"![{title}](charts/nightly-reports-{name}.png)" in memo.read_text(encoding="utf-8")


def test_no_chart_of_effects_where_no_input_moves_anything(tmp_path: Path) -> None:
    """The public chat's cost moves with none of the ranges: the memo says so, and neither draws a bar chart
    of zeros in Markdown nor writes one as PNG; the cost band stays."""
    memo = tmp_path / "memo.md"
    charts = tmp_path / "charts"
    chat = str(EXAMPLES_DIR / "public-chat.yaml")
    result = invoke(
        "recommend", chat, "--as-of", AS_OF, "--scenarios", "20", "--charts", str(charts), "-o", str(memo)
    )
    assert result.exit_code == 0, result.output
    text = memo.read_text(encoding="utf-8")
    assert "No single input moves the recommendation's cost or its advantage within its range." in text
    assert "What moves the decision" not in text
    robustness_charts = sorted(path.name for path in charts.iterdir() if "robustness" in path.name)
    assert robustness_charts == ["public-chat-robustness-cost-band.png"]
    plain = invoke("recommend", chat, "--as-of", AS_OF, "--scenarios", "20")
    assert "No single input moves" in plain.output and "xychart-beta horizontal" not in plain.output


def test_the_workload_schema_shows_the_range_forms() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(invoke("schema", "workload").output)
    workload = {
        "name": "ranged",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": {"low": 200000, "high": 600000},
        "volume_growth": 0.3,
    }
    jsonschema.validate(workload, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**workload, "requests_per_day": {"low": 1}}, schema)


def test_the_memo_says_its_other_figures_are_at_the_point_values(tmp_path: Path) -> None:
    """The summary's cost is the point value's; the robustness section's percentiles are the scenarios':
    the memo says which is which, so the two figures do not read as a contradiction."""
    memo = tmp_path / "memo.md"
    result = invoke("recommend", BATCH, "--as-of", AS_OF, "--scenarios", "20", "-o", str(memo))
    assert result.exit_code == 0, result.output
    text = " ".join(memo.read_text(encoding="utf-8").split())
    assert (
        "(P90). The rest of this memo is worked out at the point values (a workload's range at its middle, "
        "a triangular one at its mode, without growth); these figures are the scenarios'." in text
    )


@pytest.mark.parametrize(
    ("before", "after", "problem"),
    [
        ("value: 0.9\n", "value: 1.5\n", "loss_condition_share: a share above 0 and at most 1, not 1.5"),
        ("value: 2\n", "value: 2.5\n", "max_loss_conditions: a whole number of at least 1, not 2.5"),
    ],
)
def test_an_analysis_setting_outside_its_meaning_is_refused(
    tmp_path: Path, before: str, after: str, problem: str
) -> None:
    """A share above one picked no loss condition (an index error); a count of 2.5 was truncated."""
    copy = knowledge_with(tmp_path, "uncertainty.yaml", before, after)
    with pytest.raises(KnowledgeError, match=problem):
        load_knowledge_from(copy)


def test_a_route_a_rule_ruled_out_is_never_the_rival(tmp_path: Path) -> None:
    """An 8B model with its own weights: no API may serve it (DEP005), so DeepInfra's $0.18 a month is
    no rival of the serverless decision that wins every scenario; the cheapest route the rules left
    standing is, RunPod's RTX 5090 rented for the office hours."""
    workload = tmp_path / "sporadic.yaml"
    workload.write_text(
        "name: sporadic-8b\nmodel: {name: llama-3.1-8b, precision: fp8, custom_weights: true}\n"
        "requests_per_day: 300\navg_input_tokens: 800\navg_output_tokens: 300\nschedule: office_hours\n"
        "latency_sensitive: false\ncompany_country: DE\n"
    )
    result = invoke("recommend", str(workload), "--format", "json", "--as-of", AS_OF, "--scenarios", "50")
    data = json.loads(result.output)
    assert data["decision"]["deployment"] == "serverless" and "DEP005" in data["fired_rules"]
    rb = data["robustness"]
    assert rb["recommended_win_share"] == 1.0
    rival = rb["cost_usd_per_month"]["rival"]
    assert (rival["deployment"], rival["provider"], rival["gpu"]) == ("dedicated_cloud", "runpod", "rtx-5090")
    assert rival["share"] == 0.0


def test_where_the_recommendation_loses_names_only_inputs_that_move_something(tmp_path: Path) -> None:
    """A support bot on its own 8B weights, its volume a range: 50 scenarios (seed 1) named "the AWS H100
    price with a reservation ... is above $1.90", the bottom of that input's range (every draw lies above
    it) and an input whose one-at-a-time effect is $0 in the same memo. Only inputs that move the decision
    or its costs on their own are named, and only where the losses lie beyond the cut more often than the
    draws do."""
    workload = tmp_path / "bot.yaml"
    workload.write_text(
        "name: support-bot-uncertain\nmodel: {name: llama-3.1-8b, precision: fp8, custom_weights: true}\n"
        "requests_per_day: {low: 100000, high: 600000, shape: triangular, mode: 250000}\n"
        "volume_growth: {low: 0.2, high: 1.0}\navg_input_tokens: 700\navg_output_tokens: 200\n"
        "load_pattern: variable\nlatency_sensitive: true\ncompany_country: DE\n"
    )
    rb = robustness(str(workload), "--scenarios", "50", "--seed", "1")
    effects = {s["input"]: (s["effect"], s["decision_changes"]) for s in rb["sensitivity"]}
    assert effects["reserved_h100_price"] == (0.0, False)
    named = [c["input"] for c in rb["loses_when"]]
    # Served around the clock, the bot rents its cards rather than office workstations (TCO023). Beside the
    # FP8 checkpoint's 9.08 GB (the 16-bit embedding and lm_head kept) an RTX 5090 holds 153 requests of
    # 900 tokens where 8.03 GB left room for 162, and the point value's 250,000 a day take 3 of RunPod's
    # RTX 5090 ($1,511.10) where 2 ($1,007.40) did: RunPod's serverless L4 ($1,182.81) is recommended, and
    # it loses 30 of the 50 scenarios, at the higher volumes. The requests a day and the volume's growth
    # each move the decision one at a time; the throughput estimate's error moves its costs ($124.84) but
    # not the decision (both its ends keep the RTX 5090 at the held growth), and is not named: the losses
    # do not gather in either half of its draws. The requests a day are named: 28 of the 30 losses lie
    # above 228,627.
    assert effects["requests_per_day"][1] and effects["volume_growth"][1]
    assert effects["throughput_error"] == (pytest.approx(124.84, abs=0.01), False)
    assert rb["recommended_win_share"] == 0.4
    assert named == ["requests_per_day"]
    (cut,) = rb["loses_when"]
    assert (cut["direction"], round(cut["value"]), cut["share_of_losses"]) == ("above", 228_627, 28 / 30)
    assert all(effects[name][0] > 0 or effects[name][1] for name in named)


def test_a_recommended_serverless_product_is_costed_in_every_scenario(tmp_path: Path) -> None:
    """A 70B chat at 400,000 requests a day: Modal's B200 endpoint is recommended at the point values,
    but its H200 wins most scenarios. The market prices only the cheapest serverless product, so B200's
    cost was known only where it won: its cost bands and regret left out the scenarios it loses (regret
    $27 a month), and the throughput estimate's error, which decides B200 against H200, showed no effect.
    Costed in every scenario, the bands cover all of them and the error moves the advantage."""
    workload = tmp_path / "big.yaml"
    workload.write_text(
        "name: big-chat\nmodel: {name: llama-3.3-70b, precision: fp8, custom_weights: true}\n"
        "requests_per_day: 400000\navg_input_tokens: 800\navg_output_tokens: 300\nload_pattern: variable\n"
        "latency_sensitive: true\nmodel_stable: true\n",
        encoding="utf-8",
    )
    result = invoke("recommend", str(workload), "--format", "json", "--as-of", AS_OF, "--scenarios", "100")
    decision, rb = (json.loads(result.output)[key] for key in ("decision", "robustness"))
    assert decision["gpu"] == "b200" and rb["cost_usd_per_month"]["rival"]["gpu"] == "h200"
    assert rb["cost_usd_per_month"]["priced_scenarios"] == 100
    assert rb["recommended_win_share"] < 0.5 and rb["expected_regret_usd_per_month"] > 100
    error = next(s for s in rb["sensitivity"] if s["input"] == "throughput_error")
    assert error["effect"] > 0 and error["decision_changes"]
