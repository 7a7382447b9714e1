"""The memo for each example is kept as a golden file and compared exactly.

After an intended change of the memo, regenerate the files with ``python tests/update_golden.py`` (on
Python 3.10 or 3.11, see ``SUM_ROUNDS_EXACTLY``) and review the diff like any other change; a test here
never writes a golden file.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from golden import GOLDEN_CASES, GoldenCase, golden_arguments
from helpers import EXAMPLES_DIR, NEGOTIATED_AWS

from gpu_advisor.cli import main

EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))


def render(example: Path, output_format: str, *options: str) -> str:
    result = CliRunner().invoke(
        main, ["recommend", str(example), "--as-of", "2026-11-30", "--format", output_format, *options]
    )
    assert result.exit_code == 0, result.output
    return result.output


SUM_ROUNDS_EXACTLY = sys.version_info >= (3, 12)
"""Python 3.12's ``sum()`` adds floats with compensation, so a figure summed from many (a load profile's
24 hours) can differ in its last binary digit from the same sum on 3.10 and 3.11, where the golden files
are written: on 3.12+ the JSON's numbers are compared to 1e-12 of their size, everything else exactly.
A small figure left by a difference of large ones (an instance's idle hours: its hours up less its busy
ones, about 730 each) keeps their absolute rounding, not its own relative one, so figures within 1e-9 of
each other are the same too (DEFAULT_ABS_TOL). The memos show rounded figures and are compared byte for
byte on every Python."""

DEFAULT_ABS_TOL = 1e-9
"""The absolute difference within which two JSON figures are the same on 3.12+: far below any figure the
result states (hours, dollars, shares), far above the rounding of sums of a few thousand."""


def same_json(got: Any, expected: Any, path: str = "") -> list[str]:
    """Where two parsed JSON documents differ: keys (in order), types and text exactly, floats to 1e-12."""
    if isinstance(expected, float) and isinstance(got, float):
        same = math.isclose(got, expected, rel_tol=1e-12, abs_tol=DEFAULT_ABS_TOL)
        return [] if same else [f"{path}: {got!r} != {expected!r}"]
    if type(got) is not type(expected):
        return [f"{path}: {got!r} != {expected!r}"]
    if isinstance(expected, dict):
        if list(got) != list(expected):
            return [f"{path}: keys {list(got)} != {list(expected)}"]
        return [d for key in expected for d in same_json(got[key], expected[key], f"{path}.{key}")]
    if isinstance(expected, list):
        if len(got) != len(expected):
            return [f"{path}: {len(got)} items != {len(expected)}"]
        return [
            d
            for i, pair in enumerate(zip(got, expected, strict=True))
            for d in same_json(*pair, f"{path}[{i}]")
        ]
    return [] if got == expected else [f"{path}: {got!r} != {expected!r}"]


def test_json_comparison_tells_a_last_digit_from_a_different_figure() -> None:
    assert same_json({"a": [1.6891000000000003, 1, "x"]}, {"a": [1.6891, 1, "x"]}) == []
    assert same_json({"a": 1.6892}, {"a": 1.6891}) == [".a: 1.6892 != 1.6891"]
    # Idle hours of 0.003 as 730.1 - 730.097 leave on another Python: the same figure.
    assert same_json({"a": 0.0030089593708201127}, {"a": 0.003008959370813358}) == []
    assert same_json({"a": 0.003009}, {"a": 0.003008}) == [".a: 0.003009 != 0.003008"]
    assert same_json({"a": 1}, {"a": 1.0}) == [".a: 1 != 1.0"]
    assert same_json({"b": 1, "a": 1}, {"a": 1, "b": 1}) == [": keys ['b', 'a'] != ['a', 'b']"]


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=lambda case: case.id)
def test_output_matches_golden_file(case: GoldenCase) -> None:
    result = CliRunner().invoke(main, golden_arguments(case))
    assert result.exit_code == 0, result.output
    assert case.file.exists(), f"missing golden file {case.file.name}; run python tests/update_golden.py"
    expected = case.file.read_text(encoding="utf-8")
    if SUM_ROUNDS_EXACTLY and case.suffix == "json":
        assert same_json(json.loads(result.output), json.loads(expected)) == []
        assert result.output.count("\n") == expected.count("\n")
    else:
        assert result.output == expected


def test_examples_exist() -> None:
    assert len({case.example for case in GOLDEN_CASES}) >= 5


def test_memo_leads_with_the_decision_and_its_reason() -> None:
    text = render(EXAMPLES_DIR / "public-chat.yaml", "markdown")
    assert text.startswith("# GPU decision memo: public-chat\n")
    order = [
        "## Summary",
        "## Why",
        "## Workload",
        "## Load and capacity",
        "## Sizing",
        "## Options considered",
        "## Costs",
        "### Buy versus rent",
        "## Charts",
        "## Risks and caveats",
        "## Findings",
        "## Assumptions",
        "## Sources and dates",
    ]
    positions = [text.index(heading) for heading in order]
    assert positions == sorted(positions)
    summary = text[text.index("## Summary") : text.index("## Why")]
    # The same model's hosted API: 1,000,000 x 30.42 x 450 x 0.40 / 1e6 = $5,475.60 a month, less than the
    # cheapest rental: two H200 replicas carry the peak within the headroom target and a third is the
    # spare, 3 x 3.59 x 730 = $7,862.
    decision = "**Managed API**, about **$5,476 per month** at the price of Llama 3.1 70B Instruct Turbo"
    assert f"Recommendation: {decision} (DeepInfra)." in summary
    assert (
        "The cheapest rental on one offer that no rule excluded would be runpod community (3 × h200) at "
        "$7,862 per month." in summary
    )
    assert (
        "The cheapest serverless option (Modal serverless functions, b200, $9,124 per month) is set aside by "
        "the rules on cost or strategy (DEP024)." in summary
    )
    assert (
        "|  | runpod | community | h200 | 3 | on-demand | unknown | $3.59 | $7,862 | 2026-10-10 | "
        "cheapest admitted |" in text
    )
    assert (
        # Six cards in three 2-card replicas; P5 is sold as 8-GPU instances: 8 x 2.97216 x 730.
        "|  | aws | p5-reserved-3y-2026-09 | h100-sxm | 6 (pays 8) | reserved | US | $2.97 | $17,357 | "
        "2026-09-25 | +$9,495 |" in text
    )
    assert (
        "| Wie viele GPUs braucht KI-Inferenz: Cloud oder Eigenbau 2026 | 2026-10-10 | GPU offers |" in text
    )
    assert "```mermaid\n%%{init: " in text
    assert "%%\nxychart-beta" in text


def test_a_winner_that_was_ruled_out_is_called_a_conflict() -> None:
    """No GPU in the catalog holds 4 TB of weights (no rental), and a model still changing argues against
    buying (TCO003): every proposal is ruled out, and the memo says so instead of calling it clean."""
    workload = (
        "name: huge\nmodel: {params_b: 1000, precision: fp32}\nrequests_per_day: 50000\n"
        "utilization: 0.6\nmodel_stable: false\n"
    )
    result = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30"], input=workload)
    assert result.exit_code == 0, result.output
    assert "| DEP009 | Own hardware | 5 | won despite TCO003 |" in result.stdout
    assert (
        "Here every proposal was ruled out, so the one with the weakest objection won: DEP009, despite "
        "TCO003. Resolve that conflict before signing" in result.stdout
    )
    # The Summary opens with it (and so does --brief, which keeps the Summary), and the JSON names the
    # rules that ruled the decided route out.
    # Own hardware is the only route proposed (DEP009 and DEP015): no contest of objections to speak of.
    summary = result.stdout.split("## Summary\n\n", 1)[1]
    assert summary.startswith(
        "**No route satisfies this workload's constraints**: the only route a rule proposed, the one below, "
        "is ruled out too (TCO003). Resolve that conflict before signing.\n\nRecommendation: **Own hardware**"
    )
    data = CliRunner().invoke(
        main, ["recommend", "-", "--as-of", "2026-11-30", "--format", "json"], input=workload
    )
    assert json.loads(data.stdout)["decision"]["ruled_out_by"] == ["TCO003"]
    clean = CliRunner().invoke(main, ["recommend", str(EXAMPLES_DIR / "public-chat.yaml")])
    assert "Here every proposal was ruled out" not in clean.stdout
    assert "No route satisfies" not in clean.stdout and "also speaks against" not in clean.stdout


def one_rule_policy(tmp_path: Path, rule: str) -> Path:
    """A policy directory of one organization rule (``rule``: its YAML up to its message), with the
    example policy's rationale and source."""
    policy = tmp_path / "policy"
    policy.mkdir()
    (policy / "rule.yaml").write_text(
        "schema_version: 1\nfamily: ORG\nrules:\n" + rule + "    rationale: Policy.\n"
        "    source: {document: gpu-advisor, section: example organization policy}\n",
        encoding="utf-8",
    )
    return policy


def test_several_routes_ruled_out_name_the_weakest_objection(tmp_path: Path) -> None:
    """A policy that approves no provider leaves no rental (DEP009 rules dedicated GPUs out), and a model
    still changing argues against buying (TCO003): two routes proposed, both ruled out."""
    policy = one_rule_policy(
        tmp_path,
        "  - id: ORG009\n    name: no-provider\n    topic: provider\n"
        "    severity: warning\n    fact: workload\n    when: []\n    then:\n      exclude_options:\n"
        "        - {field: eu, equals: true}\n        - {field: eu, equals: false}\n"
        "    title: No provider approved\n"
        "    message: No provider is approved.\n",
    )
    workload = (
        "name: lab70\nmodel: {name: llama-3.1-70b, precision: fp8, custom_weights: true}\n"
        "requests_per_day: 200000\nutilization: 0.8\nmodel_stable: false\nlatency_sensitive: false\n"
    )
    args = ["recommend", "-", "--as-of", "2026-11-30", "--policy", str(policy)]
    result = CliRunner().invoke(main, args, input=workload)
    assert result.exit_code == 0, result.output
    assert "| DEP005 | Dedicated cloud GPUs | 10 | ruled out (DEP009) |" in result.stdout
    assert result.stdout.split("## Summary\n\n", 1)[1].startswith(
        "**No route satisfies this workload's constraints**: every route a rule proposed was ruled out, the "
        "one below too (TCO003), which is named because the objections to it are the weakest. Resolve that "
        "conflict before signing.\n\nRecommendation: **Own hardware**"
    )
    # Buy versus rent does not tell the reader to buy a route that is itself ruled out.
    # No rental is admitted, so Buy versus rent shows none to compare with.
    assert (
        "Renting is ruled out for this workload (DEP009), and so is buying (TCO003): nothing should be "
        "bought before the conflict the Summary opens with is resolved." in result.stdout
    )
    assert "the rentals above" not in result.stdout
    assert "the decision is to buy whatever they cost" not in result.stdout
    # The same policy for servers that must stay in the building: buying stands, and no rental is shown.
    on_premises = "name: lab\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 200000\n"
    bought = CliRunner().invoke(main, args, input=on_premises + "on_premises_required: true\n")
    assert (
        "Renting is ruled out for this workload (DEP006, DEP009), so the decision is to buy." in bought.stdout
    )


def test_a_rule_out_the_winner_outranks_is_said_beside_it(tmp_path: Path) -> None:
    """On-premises required (DEP006, precedence 100) and a policy rule against buying at precedence 60:
    the servers win, and the memo says the policy rule spoke against them instead of leaving it
    unanswered. A model still changing gets TCO025's advice for the purchase, not TCO003's "rent"."""
    policy = one_rule_policy(
        tmp_path,
        "  - id: ORG060\n    name: capital-freeze\n"
        "    topic: tco\n    severity: warning\n    fact: workload\n    when: []\n    then:\n"
        "      rule_out: {deployments: [own_hardware], precedence: 60}\n"
        "    title: Capital purchases frozen\n    message: No capital purchases this year.\n",
    )
    workload = (
        "name: lab\nmodel: {name: deepseek-r1, precision: fp8}\nrequests_per_day: 8000\n"
        "on_premises_required: true\nmodel_stable: false\n"
    )
    args = ["recommend", "-", "--as-of", "2026-11-30", "--policy", str(policy)]
    result = CliRunner().invoke(main, args, input=workload)
    assert result.exit_code == 0, result.output
    assert "| DEP006 | Own hardware | 100 | won |" in result.stdout
    assert (
        "ORG060 also speaks against own hardware, at a lower precedence than DEP006's 100: the decision "
        "stands, and its finding says what to weigh before signing." in result.stdout
    )
    assert "TCO003" not in result.stdout
    assert "Size the purchase for the largest model you expect to serve in that time" in result.stdout
    assert "No route satisfies" not in result.stdout
    # The servers bought are H100: the Sizing row of the GPU decided is open to the workload (ORG060's
    # rule-out, which DEP006 outranks, kept own servers' GPUs out of those admitted).
    (h100,) = [line for line in result.stdout.splitlines() if line.startswith("| h100-sxm |")]
    assert "no option open to this workload" not in h100
    # The busy share is worked out on the cards bought, not on a rental the rules leave no room for.
    assert (
        "on an idle replica of h100-sxm (the own server's GPU, as the rules leave neither a rental nor "
        in (result.stdout)
    )
    (h200,) = [line for line in result.stdout.splitlines() if line.startswith("| h200 |")]
    assert h200.endswith("| no option open to this workload runs a replica of it (see Options considered) |")


def test_the_summary_states_the_hours_the_chosen_offer_bills() -> None:
    """A reservation bills the 730 calendar hours of a month, whatever the workload's own hours."""
    # Without DevOps capacity the team stays on a hyperscaler, whose three-year reservation at the team's
    # negotiated rate (helpers.NEGOTIATED_AWS) is cheapest at 1.3 million requests a day; own weights keep
    # the workload off the managed API.
    own_weights = (
        (EXAMPLES_DIR / "public-chat.yaml")
        .read_text(encoding="utf-8")
        .replace("  precision: fp8\n", "  precision: fp8\n  custom_weights: true\n")
    )
    workload = own_weights.replace("requests_per_day: 1000000", "requests_per_day: 1300000") + (
        "hours_per_month: 744\ndevops_capacity: false\n"
    )
    rates = ["--overrides", NEGOTIATED_AWS]
    result = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30", *rates], input=workload)
    assert "(p5-reserved-3y, reserved), **$11,096 per month** for 730 billed hours." in result.stdout
    hourly = own_weights + "hours_per_month: 744\n"
    result = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30"], input=hourly)
    assert "(community, on-demand), **$8,013 per month** for 744 billed hours." in result.stdout


def test_a_single_constraint_is_counted_in_the_singular() -> None:
    # The nightly batch example stating 50 % utilization meets one warning only: KNB003 (the load keeps
    # its 4 x b200 busy in 84 % of the paid hours); a business-critical workload meets three: PRV003
    # (the enterprise SLA required), PRV011 (some admitted providers' SLA is not established) and PRC032
    # (its hourly rental's cards are not promised at each run's start); PRV017
    # and PRV018 (Scaleway's API, the one it may use, takes fewer requests and tokens a minute than the
    # batch must send within its window) speak of the API the rental decision does not take.
    nightly = (EXAMPLES_DIR / "nightly-batch.yaml").read_text(encoding="utf-8")
    assert "\nutilization: 0.9\n" in nightly
    stated = nightly.replace("\nutilization: 0.9\n", "\nutilization: 0.5\n")
    result = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30"], input=stated)
    assert "\nOne constraint or warning applies to this workload; it is listed under Why.\n" in result.stdout
    assert "- **KNB003** The stated utilization does not match the load:" in result.stdout
    assert "1 constraints" not in result.stdout
    workload = (
        "name: nightly\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 500000\n"
        "load_pattern: batch\nlatency_sensitive: false\ncompany_country: CH\nbusiness_critical: true\n"
    )
    result = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30"], input=workload)
    listed = "\n3 constraints and warnings apply to this workload; they are listed under Why.\n"
    assert listed in result.stdout
    apart = "\n2 more concern routes the decision does not take (PRV017, PRV018, see Risks and caveats).\n"
    assert apart in result.stdout


def test_an_on_premises_lab_whose_model_still_changes_is_told_to_buy_room_not_to_shrink() -> None:
    """A 32B model in the building, the model still being chosen: TCO025 advises buying for the model to
    come, and neither the Summary (TCO020's "a server with fewer cards would idle less") nor a finding
    calls the cards beyond today's need idle. The Load section's capacity is that of the replicas the
    servers bought run (1 x h100-sxm, their row under Sizing), and the rental it compares with is named as
    such (2 x h100-sxm at Scaleway)."""
    workload = (
        "name: lab\nmodel: {name: qwen2.5-32b, precision: bf16}\nrequests_per_day: 7000\n"
        "avg_input_tokens: 3000\navg_output_tokens: 600\nschedule: workdays\npersonal_data: true\n"
        "on_premises_required: true\nmodel_stable: false\ncompany_country: AT\n"
    )
    result = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30"], input=workload)
    assert result.exit_code == 0, result.output
    assert "TCO025" in result.stdout and "TCO020" not in result.stdout and "TCO003" not in result.stdout
    assert "would idle less" not in result.stdout
    # The weights' 65.52 GB (the exact 32.76B x 2 bytes) leave one H100 room for 8 requests of this length,
    # 0.39 requests/s (237 output tokens/s: 599 decode steps a request, the weights but the token
    # embedding read at 0.86 of the bandwidth); 7,000 requests a day (8,000 would need two replicas for the
    # peak) keep one. 0.242 requests/s at the peak on one replica of 0.39: 61 %; 0.162 on average (7,000
    # in 12 hours): 41 %; over both replicas, the spare's included, half of that: 31 % and 21 %.
    assert (
        "**Capacity** (throughput): one replica of 1 × h100-sxm serves about 0.39 requests/s (237 output "
        "tokens/s) with vllm, which runs up to 8 requests of this length at once in its KV cache.\n"
        "Replicas are sized so that the peak fills at most 70 % of their capacity even if the estimate is "
        "+6 % too high: one replica for the peak. At the peak it runs at 61 % of its estimated capacity, on "
        "average at 41 %.\nWith the spare replica sharing the load, as the sizing table and the JSON count "
        "it: 31 % at the peak, 21 % on average.\n"
        "One spare replica on top keeps the peak served when a replica fails or is updated: 2 GPUs in all.\n"
    ) in result.stdout
    assert (
        '\nRenting instead, 2 × h100-sxm at scaleway h100-sxm-2-80g (the rental "Options considered" '
        "compares with), would cost $2,027 per month for the same load, for comparison: the recommendation "
        "is **Own hardware**.\nLatency at the peak, the load spread over the replicas sized for it (the "
        "spares aside, as while one stands in for a lost replica): the first token after about 637 ms on "
        "average"
    ) in result.stdout
    assert "The capacity figures below" not in result.stdout
    assert "The recommendation runs on" not in result.stdout


def test_an_own_hardware_decision_beside_a_rental_of_another_gpu_says_whose_busy_share_is_read() -> None:
    """A 72B model in BF16 at 1.5 million requests a day: the rules read the busy share on the best
    rental's B200 and decide to buy H100 servers; the capacity that follows is the servers', and the memo
    says the two are of different GPUs."""
    workload = (
        "name: e5\nmodel: {name: qwen2.5-72b, precision: bf16, custom_weights: true}\n"
        "requests_per_day: 1500000\navg_input_tokens: 1000\navg_output_tokens: 300\nload_pattern: steady\n"
        "company_country: DE\n"
    )
    result = CliRunner().invoke(main, ["recommend", "-", "--as-of", "2026-11-30"], input=workload)
    assert result.exit_code == 0, result.output
    assert "on an idle replica of b200 (the best rental's GPU)" in result.stdout
    # 8.14 requests/s: the exact 72.71B x 2 bytes (145.42 GB of weights) leave the 4 H100 KV room for 349
    # requests of this length at once, not the 352 of 144 GB; a full batch's pass of 1,512 tokens (349
    # decoding and the prompts replacing the finished ones), 12.4 million elements, reaches 0.47 of the
    # link on 4 cards, not the one share of 0.41.
    assert (
        "\nThe capacity below is that of the servers the decision buys (h100-sxm); the busy share above is "
        "worked out on b200, as the rules read it (buy versus rent gives each owned replica's own).\n"
        "**Capacity** (throughput): one replica of 4 × h100-sxm serves about 8.14 requests/s"
    ) in result.stdout
    # TCO001's break-even names the rental it is worked out against, an H100 one, not the B200 rental
    # its sentence goes on to name as the cheapest for the same work.
    assert "the break-even of 70 % against $2.69 per h100-sxm GPU-hour at runpod/community" in result.stdout
