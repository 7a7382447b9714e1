"""The summary says what a serverless route that a rule sets aside would have saved: a manager reading
"ruled out" beside a lower price should not have to find the difference in the options table."""

from __future__ import annotations

from pathlib import Path

from helpers import EVALUATED_ON, EXAMPLES_DIR, invoke

from gpu_advisor.api import load_workload, recommend
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo


def summary_of(example: str) -> tuple[str, float | None, float | None]:
    result = recommend(load_workload(str(EXAMPLES_DIR / example)), EVALUATED_ON)
    memo = " ".join(render_memo(result).split("## Why")[0].split())
    serverless = result.serverless_option
    return memo, result.decision.usd_per_month, serverless.usd_per_month if serverless else None


def test_a_cheaper_serverless_route_ruled_out_is_said_with_its_saving() -> None:
    # hr-assistant: RunPod's H200 endpoint, ruled out by DEP024 (a steady load), against the dedicated
    # recommendation.
    memo, decided, serverless = summary_of("hr-assistant.yaml")
    assert decided is not None and serverless is not None
    assert round(decided - serverless) == 1550
    assert (
        "The cheapest serverless option (RunPod Serverless, h200, $2,361 per month) is set aside by the "
        "rules (DEP024). It would cost $1,550 a month less than the recommendation: the rule, not the "
        "price, keeps it out (its finding says why)."
    ) in memo
    # Not "on cost or strategy": it costs less, and a rule of strategy keeps it out.
    assert "on cost or strategy" not in memo


def test_a_dearer_serverless_route_ruled_out_is_said_without_one() -> None:
    memo, decided, serverless = summary_of("deepseek-on-premises.yaml")
    assert "The cheapest serverless option" in memo
    assert decided is not None and serverless is not None and serverless > decided
    assert "a month less than the recommendation" not in memo


def test_a_dearer_serverless_route_set_aside_is_set_aside_on_cost_or_strategy() -> None:
    memo, decided, serverless = summary_of("internal-assistant.yaml")
    assert decided is not None and serverless is not None and serverless > decided
    assert (
        "The cheapest serverless option (RunPod Serverless, l40s, $470 per month) is set aside by the rules "
        "on cost or strategy (DEP024)."
    ) in memo


def test_the_german_summary_does_not_say_cost_either() -> None:
    result = recommend(load_workload(str(EXAMPLES_DIR / "hr-assistant.yaml")), EVALUATED_ON)
    german = " ".join(render_memo(result, Format.named("de")).split("## Begründung")[0].split())
    assert "(RunPod Serverless, h200, 2.361 $ pro Monat) wählen die Regeln nicht (DEP024)." in german
    assert "Kosten- oder Strategiegründen" not in german


def test_the_why_the_serverless_section_and_the_finding_agree_with_the_summary() -> None:
    """The Summary stopped saying "on cost or strategy" of a cheaper route the rules set aside, while
    "How the rules decided", the serverless section and DEP018's finding still said it."""
    cheaper = " ".join(
        render_memo(recommend(load_workload(str(EXAMPLES_DIR / "hr-assistant.yaml")), EVALUATED_ON)).split()
    )
    assert "on cost or strategy" not in cheaper
    assert (
        "DEP018 proposed serverless GPU endpoints at a higher precedence (40); set aside by DEP024 (Steady "
        "load, requests in flight in half the paid hours or more: not serverless), though it would cost less "
        "than the recommendation."
    ) in cheaper
    assert (
        "The rules set serverless aside (DEP024), though it would cost less than the recommendation: what "
        "follows shows what it would cost, for comparison."
    ) in cheaper
    assert (
        "Not followed: the deployment it proposes is set aside by DEP024, though it would cost less than the "
        "recommendation."
    ) in cheaper
    dearer = " ".join(
        render_memo(
            recommend(load_workload(str(EXAMPLES_DIR / "internal-assistant.yaml")), EVALUATED_ON)
        ).split()
    )
    assert "The rules set serverless aside on cost or strategy (DEP024)" in dearer
    assert "though it would cost less than the recommendation" not in dearer


NO_API_POLICY = """schema_version: 1
family: ORG
rules:
  - id: ORG050
    name: no-third-party-model-apis
    topic: deployment
    severity: advice
    fact: workload
    when:
      - {fact: on_premises_required, value: false}
    then:
      rule_out: {deployments: [api], precedence: 90}
    title: "Company policy: no third-party model APIs"
    message: >-
      The company does not send prompts to third-party model APIs.
    rationale: >-
      Strategy.
    source: {document: gpu-advisor, section: "example organization policy"}
"""


def test_a_cheaper_api_an_organization_rule_sets_aside_is_not_said_to_be_set_aside_on_cost(
    tmp_path: Path,
) -> None:
    policy = tmp_path / "policy"
    policy.mkdir()
    (policy / "noapi.yaml").write_text(NO_API_POLICY, encoding="utf-8")
    example = str(EXAMPLES_DIR / "internal-assistant.yaml")
    memo = " ".join(
        invoke("recommend", example, "--policy", str(policy), "--as-of", "2026-11-30").output.split()
    )
    assert (
        "The like-for-like managed API (Llama 3.1 8B Instruct Turbo (DeepInfra)) would cost $5.28 per month, "
        "$238 less than the recommendation; the rules set it aside (ORG050): the rule, not the price, keeps "
        "it out (its finding says why)."
    ) in memo
    assert (
        "The rules set the managed APIs aside (ORG050), though the one compared would cost less than the "
        "recommendation: the workload may use one, and the prices here are what it would pay."
    ) in memo
