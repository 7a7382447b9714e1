"""The catalog's EUR/USD rate is the tool's own assumption (knowledge/exchange_rates.yaml), not a published
rate: the memo says so beside the EUR prices it converts, until an overrides file sets the user's rate."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import EXAMPLES_DIR, invoke, run
from test_serverless_set_aside_gpu_time import BIG_STEADY

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

ASSUMED = (
    "The rate is gpu-advisor's assumption, a round figure near the ECB's reference rate of late 2025, not "
    "a published rate: an overrides file's exchange_rate sets your own."
)


def test_the_catalog_rate_is_said_to_be_an_assumption() -> None:
    rate = load_knowledge().eur_to_usd()
    assert (rate.rate, rate.source.document) == (1.16, "gpu-advisor")
    result = run(BIG_STEADY)
    assert result.exchange_rate_assumed
    assert (
        "converted at 1.16 USD per EUR (2025-12-31); an EU price, so no EU premium is added.\n" + ASSUMED
    ) in render_memo(result)


def test_the_users_own_rate_is_not(tmp_path: Path) -> None:
    workload, rates = tmp_path / "w.json", tmp_path / "rate.yaml"
    workload.write_text(json.dumps(BIG_STEADY), encoding="utf-8")
    rates.write_text("exchange_rate:\n  usd_per_eur: 1.08\n", encoding="utf-8")
    result = invoke("recommend", str(workload), "--overrides", str(rates))
    assert result.exit_code == 0, result.output
    assert "converted at 1.08 USD per EUR" in result.output
    assert "The rate is gpu-advisor's assumption" not in result.output
    as_json = invoke("recommend", str(workload), "--overrides", str(rates), "--format", "json")
    assert '"exchange_rate_assumed": false' in as_json.output


def test_a_memo_in_eur_says_it_too() -> None:
    """In EUR every figure is converted at the rate: the line under the title says it is assumed."""
    result = run(BIG_STEADY)
    memo = render_memo(result, Format("en", "EUR", result.exchange_rate_usd_per_eur))
    assert (
        "Amounts are shown in EUR, converted from USD at 1.16 USD per EUR (2025-12-31).\n" + ASSUMED + "\n"
    ) in memo


def test_a_rate_off_by_a_decimal_point_or_more_is_refused(tmp_path: Path) -> None:
    """usd_per_eur: 1e-15 was taken: the memo priced the API at quadrillions of euros; 0.108 for 1.08
    would price every euro figure ten times."""
    rates = tmp_path / "rates.yaml"
    for rate, bound in (
        ("1e-15", "greater than or equal to 0.5"),
        ("0.108", "greater than or equal to 0.5"),
        ("10.8", "less than or equal to 2.5"),
    ):
        rates.write_text(f"exchange_rate:\n  usd_per_eur: {rate}\n", encoding="utf-8")
        result = invoke("recommend", str(EXAMPLES_DIR / "public-chat.yaml"), "--overrides", str(rates))
        assert result.exit_code == 2
        assert f"exchange_rate.usd_per_eur: Input should be {bound} (got {rate})" in result.output
