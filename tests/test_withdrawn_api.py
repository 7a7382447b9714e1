"""An API price of a model its provider no longer serves under that product (``withdrawn_on``): DeepSeek
moved the name deepseek-reasoner from DeepSeek-R1 to DeepSeek-V3.1 on 2025-08-21, and a memo recommended
"DeepSeek-R1 (DeepSeek API, deepseek-reasoner)" at its 2025 price. KNB018 excludes such a price for the
workload whose model it prices; a proposal naming it fails as any excluded API does. And a provider's
regions as its own list gives them (``regions_source``): Lambda's has no UK region."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, knowledge_with, provider_policy, run

from gpu_advisor import api
from gpu_advisor.cli import main
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.report.sources import WITHDRAWALS

R1 = {
    "name": "r1-assistant",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 1_200,
}


SOURCE = '    withdrawn_source: {document: deepseek-api-change-log, section: "2025-08-21, DeepSeek-V3.1"}\n'


def cost(result: Any, api: str) -> Any:
    return next(a for a in result.api_costs if a.api == api and not a.batch)


def test_the_withdrawn_price_is_excluded_and_the_served_one_compared() -> None:
    result = run(R1)
    assert "KNB018" in result.fired_rules
    deepseek, deepinfra = cost(result, "deepseek-r1-deepseek"), cost(result, "deepseek-r1-deepinfra")
    assert (deepseek.excluded_by, deepseek.compared) == (("KNB018",), False)
    assert (deepinfra.excluded_by, deepinfra.compared) == ((), True)
    # 20,000 requests x 30.42 days x (1,500 x 0.50 + 1,200 x 2.15) USD per million tokens.
    assert deepinfra.usd_per_month == pytest.approx(20_000 * 30.42 * (1_500 * 0.50 + 1_200 * 2.15) / 1e6)
    assert result.decision.offer == "deepseek-r1-deepinfra"
    memo = render_memo(result)
    assert (
        "- **KNB018** · knowledge · info: **An API price of a model its provider no longer serves is not "
        "used.** The catalog keeps the price of a managed API whose provider has since stopped serving the "
        "priced model under that product, so it is excluded: Claude 3.5 Sonnet at 3 / 15 USD per million "
        "input / output tokens (2025-08-13), withdrawn on 2025-10-22: Anthropic retired Claude Sonnet 3.5 "
        "(claude-3-5-sonnet-20240620 and -20241022): requests to it fail; "
        "DeepSeek-R1 (DeepSeek API, deepseek-reasoner) "
        "at 0.55 / 2.19 USD per million input / output tokens (2025-02-06), withdrawn on 2025-08-21: "
        "DeepSeek moved the name deepseek-reasoner to DeepSeek-V3.1's thinking mode, and later to "
        "V3.1-Terminus, V3.2-Exp and V3.2.\n"
    ) in memo
    row = "| DeepSeek-R1 (DeepSeek API, deepseek-reasoner) | CN | $2,101 | $0.00345 | 2025-02-06 |"
    assert f"{row} excluded by KNB018 |" in memo


def test_a_model_larger_than_the_withdrawn_price_is_not_told_of_it() -> None:
    """A dense 70B model computes each token with more parameters than R1's 37B active: R1's price cannot
    stand in for it, so its withdrawal says nothing about it."""
    result = run({**R1, "model": {"name": "llama-3.3-70b", "precision": "fp8"}})
    assert "KNB018" not in result.fired_rules
    assert cost(result, "deepseek-r1-deepseek").large_enough is False


POLICY = provider_policy(
    "no-deepinfra",
    "{field: provider, equals: deepinfra}",
    "Company policy: DeepInfra not approved",
    "DeepInfra is not approved.",
)


def test_the_withdrawn_price_does_not_stand_in_for_another_model(tmp_path: Path) -> None:
    """Qwen3-235B (22B active) with DeepInfra's prices excluded by a company's policy: R1's price (671B,
    37B active) is the larger reasoning model's, and the memo recommended DeepSeek's withdrawn product for
    it (Llama 3.1 405B's, a model that does not reason, is no stand-in: KNB021)."""
    (tmp_path / "no-deepinfra.yaml").write_text(POLICY, encoding="utf-8")
    qwen3 = {**R1, "model": {"name": "qwen3-235b-a22b", "precision": "fp8"}, "requests_per_day": 5_000}
    result = api.recommend(qwen3, EVALUATED_ON, policy_dir=str(tmp_path))
    assert "KNB018" in result.fired_rules
    assert cost(result, "deepseek-r1-deepseek").excluded_by == ("KNB018",)
    assert not any(a.compared for a in result.api_costs)
    assert (
        "Recommendation: **Managed API**, though every API price the catalog has for a model of this size or "
        "larger is excluded for this workload (KNB018, KNB021, ORG101): ask the providers for one it may "
        "use.\n"
    ) in render_memo(result)


def test_a_model_given_by_its_size_is_told_where_the_price_could_stand_in() -> None:
    assert (
        "KNB018"
        in run({**R1, "model": {"params_b": 671, "active_params_b": 37, "precision": "fp8"}}).fired_rules
    )
    # An 8B model's own prices are compared first, but R1's could stand in where they are all excluded.
    assert "KNB018" in run({**R1, "model": {"name": "llama-3.1-8b", "precision": "fp8"}}).fired_rules
    assert "KNB018" not in run({**R1, "model": {"params_b": 671, "precision": "fp8"}}).fired_rules


def test_a_proposal_of_the_withdrawn_price_fails(tmp_path: Path) -> None:
    path = tmp_path / "proposal.yaml"
    proposal = {"deployment": "api", "provider": "deepseek", "offer": "deepseek-r1-deepseek"}
    path.write_text(yaml.safe_dump({"workload": R1, "proposal": proposal}), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    assert result.exit_code == 1, result.output
    (data,) = json.loads(result.output)
    (excluded,) = [i for i in data["results"] if i["rule_id"] == "DEP036"]
    assert excluded["status"] == "fail"
    assert excluded["message"] == (
        "DeepSeek-R1 (DeepSeek API, deepseek-reasoner) is excluded for this workload, as it is from the "
        "recommendation's comparison; the rules that exclude it: KNB018 (An API price of a model its "
        "provider no longer serves is not used). Its provider processes the requests in China."
    )


@pytest.mark.parametrize(
    ("before", "after", "problem"),
    [
        (
            "    withdrawn_on: 2025-08-21\n",
            "",
            "withdrawn_on and withdrawn_source come together",
        ),
        (
            SOURCE,
            "",
            "withdrawn_on and withdrawn_source come together",
        ),
    ],
)
def test_a_withdrawal_needs_its_date_and_source(
    tmp_path: Path, before: str, after: str, problem: str
) -> None:
    directory = knowledge_with(tmp_path, "api_prices.yaml", before, after)
    with pytest.raises(KnowledgeError, match=problem):
        load_knowledge_from(directory)


def test_a_withdrawal_note_needs_the_withdrawal(tmp_path: Path) -> None:
    directory = knowledge_with(tmp_path, "api_prices.yaml", "    withdrawn_on: 2025-08-21\n" + SOURCE, "")
    with pytest.raises(KnowledgeError, match="withdrawn_note needs withdrawn_on"):
        load_knowledge_from(directory)


def test_lambda_is_listed_in_the_regions_its_own_list_gives() -> None:
    lambda_ = load_knowledge().provider("lambda")
    assert [r.id for r in lambda_.regions] == ["us"]
    assert lambda_.regions_source is not None and lambda_.regions_as_of is not None
    offers = [o for o in load_knowledge().offers.offers if o.provider == "lambda"]
    assert offers and all(o.regions == ("us",) for o in offers)


def test_a_region_source_needs_its_date(tmp_path: Path) -> None:
    directory = knowledge_with(tmp_path, "providers.yaml", "    regions_as_of: 2024-10-19\n", "")
    with pytest.raises(KnowledgeError, match="regions_source and regions_as_of come together"):
        load_knowledge_from(directory)


def test_the_withdrawals_source_is_listed_wherever_knb018_names_it() -> None:
    """An 8B memo's API table shows no R1 price, but KNB018 quotes the withdrawal: its source is listed."""
    result = run({**R1, "model": {"name": "llama-3.1-8b", "precision": "fp8"}})
    assert "KNB018" in result.fired_rules
    withdrawals = [(p.title, p.as_of.isoformat()) for p in result.price_dates if p.used_for == WITHDRAWALS]
    assert withdrawals == [
        ("Change Log (DeepSeek API documentation)", "2025-08-21"),
        (
            "Anthropic docs, Model deprecations, 2025-08-13: Claude Sonnet 3.5 models (retired from October "
            "22, 2025, 9 AM PT, as Anthropic's notice quoted in "
            "github.com/Significant-Gravitas/AutoGPT/issues/10974 says)",
            "2025-10-22",
        ),
    ]
    assert (
        "| Change Log (DeepSeek API documentation) | 2025-08-21 | managed API withdrawals |"
        in render_memo(result)
    )


def test_the_catalog_marks_the_withdrawn_price() -> None:
    text = CliRunner().invoke(main, ["catalog", "apis", "--as-of", "2026-11-30"]).output
    (row,) = [line for line in text.splitlines() if line.startswith("deepseek-r1-deepseek ")]
    assert "2025-02-06*† [" in row
    assert (
        "† deepseek-r1-deepseek: withdrawn on 2025-08-21 (its provider no longer serves the priced model "
        "under this product), so recommendations do not use it (KNB018)." in text
    )


def test_a_retired_proprietary_model_is_marked_and_the_providers_usd_prices_are_not_converted() -> None:
    """The document prints GPT-4o's and Claude 3.5 Sonnet's USD list prices with a euro sign; converted
    at 1.16 they read 16 % high. A 70B prototype at 3,000 requests a day (the example): GPT-4o is
    3,000 x 30.42 days x (800 x 2.50 + 300 x 10.00) / 1e6 = $456.30 a month in USD as listed. Claude
    3.5 Sonnet, retired on 2025-10-22, is marked so and not counted among the prices open to the workload
    (KNB018 does not fire: no withdrawn price stands in for a 70B model's)."""
    workload = {
        "name": "prototype",
        "model": {"name": "llama-3.1-70b", "precision": "fp8"},
        "requests_per_day": 3_000,
        "avg_input_tokens": 800,
        "avg_output_tokens": 300,
    }
    result = run(workload)
    gpt, claude = cost(result, "gpt-4o"), cost(result, "claude-3.5-sonnet")
    assert (gpt.currency, claude.currency) == ("USD", "USD")
    assert gpt.usd_per_month == pytest.approx(3_000 * 30.42 * (800 * 2.50 + 300 * 10.00) / 1e6)
    assert (gpt.withdrawn_on, claude.withdrawn_on) == (None, dt.date(2025, 10, 22))
    memo = render_memo(result)
    assert (
        "| Claude 3.5 Sonnet | unknown | $630 | $0.0069 | 2025-08-13 | "
        "another model, withdrawn on 2025-10-22 |" in memo
    )
    assert "| GPT-4o | unknown | $456 | $0.005 | 2026-06-01 | another model |" in memo
