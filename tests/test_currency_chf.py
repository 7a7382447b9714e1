"""Amounts in Swiss francs: USD converted through the EUR at the knowledge base's dated rates (1.16 USD per
EUR, 0.9197 CHF per EUR on 2026-01-27: 1.2613 USD per CHF), in every output that takes ``--currency``."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from helpers import EXAMPLES_DIR, invoke, knowledge_with

from gpu_advisor.api import load_workload, recommend, render_memo
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.web.pages import read_settings

USD_PER_CHF = 1.16 / 0.9197


def test_a_franc_amount_names_its_code() -> None:
    # $1,963.70 x 0.9197 / 1.16 = CHF 1,556.91.
    assert load_knowledge().usd_per("CHF") == pytest.approx(USD_PER_CHF)
    english = Format.named("en", "CHF", 1.16, USD_PER_CHF)
    german = Format.named("de", "CHF", 1.16, USD_PER_CHF)
    assert (english.money(1963.70), german.money(1963.70)) == ("CHF 1,556.91", "1.556,91 CHF")
    assert english.money(-1963.70, 0) == "-CHF 1,557"
    assert english.usd_per_unit == USD_PER_CHF and english.symbol == "CHF"
    # A price per kWh: as few decimals as say it, up to four.
    dollars = Format()
    assert (
        dollars.money_rate(0.236408),
        dollars.money_rate(0.12),
        german.money_rate(0.2604 * USD_PER_CHF),
    ) == (
        "$0.2364",
        "$0.12",
        "0,2604 CHF",
    )


def test_francs_without_their_rate_are_refused() -> None:
    with pytest.raises(ValueError, match="CHF need the USD-per-CHF rate"):
        Format.named("en", "CHF", 1.16)


def test_the_memo_in_francs_states_both_rates_and_converts_the_decision() -> None:
    result = recommend(
        load_workload(EXAMPLES_DIR / "public-chat.yaml"), evaluated_on="2026-11-30", currency="CHF"
    )
    assert (result.exchange_rate_chf_per_eur, result.exchange_rate_chf_as_of) == (
        0.9197,
        dt.date(2026, 1, 27),
    )
    memo = render_memo(result, currency="CHF")
    assert (
        "Amounts are shown in CHF, converted from USD at 1.2613 USD per CHF: 0.9197 CHF per EUR (2026-01-27) "
        "and 1.16 USD per EUR (2025-12-31)."
    ) in memo
    cost = result.decision.usd_per_month
    assert cost is not None
    assert f"about **CHF {cost / USD_PER_CHF:,.0f} per month**" in memo
    assert (
        "The amounts are shown in CHF: a price listed in EUR at 0.9197 CHF per EUR, one listed in USD "
        "through the EUR."
    ) in " ".join(memo.split())
    assert "$" not in memo.split("## Summary")[1].split("\n## ")[0]


def test_the_command_line_memo_in_francs_is_the_library_s() -> None:
    path = EXAMPLES_DIR / "public-chat.yaml"
    shown = invoke("recommend", str(path), "--as-of", "2026-11-30", "--currency", "CHF", "--lang", "de")
    assert shown.exit_code == 0, shown.output
    result = recommend(load_workload(path), evaluated_on="2026-11-30", lang="de", currency="CHF")
    assert shown.stdout == render_memo(result, lang="de", currency="CHF")
    assert "umgerechnet aus USD zum Kurs von 1,2613 USD pro CHF" in shown.stdout


def test_tco_and_the_catalog_in_francs() -> None:
    tco, dollars = invoke("tco", "--currency", "CHF"), invoke("tco")
    assert tco.exit_code == 0, tco.output
    assert (
        "Amounts are shown in Swiss francs at 1.2613 USD per CHF: 0.9197 CHF per EUR (2026-01-27, ECB euro "
        "reference rate, Swiss franc per euro (via fetchseries) <https://www.fetchseries.com/"
    ) in tco.stdout
    # The server's price, converted once: the dollar figure times 0.9197 / 1.16.
    usd = float(re.search(r"at \$([\d,]+),", dollars.stdout).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert f"at CHF {usd / USD_PER_CHF:,.0f}, written off" in tco.stdout
    catalog = invoke("catalog", "offers", "--currency", "CHF")
    assert catalog.exit_code == 0, catalog.output
    assert "CHF/GPU-h" in catalog.stdout.splitlines()[0]


def test_the_franc_rate_is_a_cited_source_of_a_memo_in_francs() -> None:
    result = recommend(load_workload(EXAMPLES_DIR / "public-chat.yaml"), evaluated_on="2026-11-30")
    row = (
        "| ECB euro reference rate, Swiss franc per euro (via fetchseries) <https://www.fetchseries.com/"
        "exchange-rates/euro-reference-exchange-rates-ecb/euro-swiss-franc-reference-exchange-rate-units-of-"
        "foreign-currency-per-1-euro-2-15-cet-euro-area-ecb-daily> | 2026-01-27 | EUR/CHF exchange rate |"
    )
    assert row in render_memo(result, currency="CHF")
    assert "EUR/CHF" not in render_memo(result)


def test_a_result_without_the_franc_rate_is_shown_at_the_catalog_s() -> None:
    """A result saved before it recorded the franc's rate."""
    result = recommend(load_workload(EXAMPLES_DIR / "prototype.yaml"), evaluated_on="2026-11-30")
    older = result.model_copy(
        update={
            "exchange_rate_chf_per_eur": None,
            "exchange_rate_chf_as_of": None,
            "exchange_rate_chf_source": None,
        }
    )
    assert render_memo(older, currency="CHF") == render_memo(result, currency="CHF")


def test_francs_follow_an_overrides_file_s_euro_rate(tmp_path: Path) -> None:
    overrides = tmp_path / "rate.yaml"
    overrides.write_text("exchange_rate:\n  usd_per_eur: 1.05\n", encoding="utf-8")
    path = str(EXAMPLES_DIR / "public-chat.yaml")
    shown = invoke(
        "recommend", path, "--as-of", "2026-11-30", "--currency", "CHF", "--overrides", str(overrides)
    )
    dollars = invoke(
        "recommend", path, "--as-of", "2026-11-30", "--format", "json", "--overrides", str(overrides)
    )
    assert shown.exit_code == 0 and dollars.exit_code == 0, shown.output
    # 1.05 / 0.9197 = 1.1417 USD per CHF.
    assert (
        "converted from USD at 1.1417 USD per CHF: 0.9197 CHF per EUR (2026-01-27) and 1.05 USD per EUR"
        in (shown.stdout)
    )
    cost = json.loads(dollars.stdout)["decision"]["usd_per_month"]
    assert f"about **CHF {cost * 0.9197 / 1.05:,.0f} per month**" in shown.stdout


def test_a_swiss_browser_gets_francs() -> None:
    assert read_settings({}, "de-CH,de;q=0.9,en;q=0.8").currency == "CHF"
    assert read_settings({}, "fr-CH").currency == "CHF"
    assert read_settings({}, "de-DE,de").currency == "EUR"
    assert read_settings({"currency": "usd"}, "de-CH").currency == "USD"


def test_a_knowledge_base_without_the_franc_rate_is_refused(tmp_path: Path) -> None:
    copy = knowledge_with(tmp_path, "exchange_rates.yaml", "    to_currency: CHF\n", "    to_currency: USD\n")
    with pytest.raises(KnowledgeError, match="no EUR to CHF rate"):
        load_knowledge_from(copy)
