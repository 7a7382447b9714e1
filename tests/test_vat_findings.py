"""Findings that name a provider's figure say which it is where the company cannot recover VAT: a price a
provider lists (KNB002, KNB010, KNB011, KNB018) is given as listed and said to be without the VAT the memo's
prices include; a figure gpu-advisor works out with the VAT (TCO006's owned GPU-hour, KNB011's price the
checks use) says it includes it. Before, KNB010 said 'p5-on-demand-2026-09 lists $8.19' where AWS lists
$6.88, and TCO006 gave an owned GPU-hour with 19 % VAT beside the documents' net figure unmarked."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import yaml
from helpers import DE_AUTHORITY_OWN, flat, invoke, run
from test_superseded_prices import KNB010_EXCLUDED
from test_vat_check import PROPOSAL as AWS_P5_PROPOSAL

READ_ON = dt.date(2026, 12, 7)
OWN: dict[str, Any] = DE_AUTHORITY_OWN
"""A German authority's 70B service whose data stays in the building: two owned HGX H100 servers."""
RENTED: dict[str, Any] = {**OWN, "name": "de-authority", "on_premises_required": False}
"""The same service allowed into an EU cloud: Scaleway's H100 is its cheapest rental."""


def message(workload: dict[str, Any], rule: str) -> str:
    (found,) = [flat(f.message) for f in run(workload, READ_ON).findings if f.rule_id == rule]
    return found


def test_kNB010_gives_the_listed_prices_and_says_so() -> None:
    assert message(OWN, "KNB010") == (
        KNB010_EXCLUDED + " (each as listed, without the 19 % VAT the prices here include)."
    )
    # A company that recovers VAT reads the same figures, and nothing of VAT.
    recovered = message({**OWN, "input_vat_recoverable": True}, "KNB010")
    assert "where p5-on-demand-2026-09 lists $6.88 (2026-09-19);" in recovered
    assert "VAT" not in recovered


def test_tCO006_says_the_owned_gpu_hour_includes_the_vat() -> None:
    assert message(OWN, "TCO006") == (
        "The documents price an owned GPU-hour twice: about €0.80 amortized over 3 years in one line "
        "(GPU-choice article), and in three lines (capital, power, rack; card-count article, 10.10.2026). "
        "gpu-advisor itemizes: the own hardware compared here comes to $2.12 per GPU-hour, its purchases "
        "including 19 % VAT, which the company cannot recover; replace its lines with your own prices via "
        "gpu-advisor tco or --overrides."
    )
    assert "VAT" not in message({**OWN, "input_vat_recoverable": True}, "TCO006")


def test_kNB002_gives_the_providers_other_listed_prices() -> None:
    # Scaleway lists its H100 SXM in EUR: 3.19 EUR and 3.16 EUR a card-hour at 1.16 USD per EUR.
    assert message(RENTED, "KNB002") == (
        "scaleway also lists h100-sxm as h100-sxm-4-80g $3.70 (on-demand, 2026-09-26); h100-sxm-8-80g $3.67 "
        "(on-demand, 2026-09-26) (as listed, without the 19 % VAT the prices here include). The comparisons "
        "here use h100-sxm-2-80g (on-demand); prices of different dates and kinds are separate rows, never "
        "one market price."
    )


def test_kNB018_gives_the_withdrawn_apis_listed_prices() -> None:
    reasoning = {
        "name": "long-reasoning",
        "model": {"name": "deepseek-r1", "precision": "fp8"},
        "requests_per_day": 20_000,
        "avg_input_tokens": 1_000,
        "avg_output_tokens": 70_000,
        "company_country": "DE",
        "input_vat_recoverable": False,
    }
    found = message(reasoning, "KNB018")
    assert found.startswith(
        "The catalog keeps the price of a managed API whose provider has since stopped serving the priced "
        "model under that product, so it is excluded: Claude 3.5 Sonnet at 3 / 15 USD per million input / "
        "output tokens as listed (2025-08-13), withdrawn on 2025-10-22: "
    )
    assert (
        "DeepSeek-R1 (DeepSeek API, deepseek-reasoner) at 0.55 / 2.19 USD per million input / output "
        "tokens as listed (2025-02-06)" in found
    )


def test_kNB011_in_check_gives_the_listed_price_and_the_one_the_checks_use(tmp_path: Path) -> None:
    document = {
        "workload": {key: value for key, value in RENTED.items() if key != "business_critical"},
        "proposal": AWS_P5_PROPOSAL,
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    english = invoke("check", str(path), "--as-of", "2026-12-07").output
    assert (
        "          aws p5-on-demand is the catalog's older figure for this GPU; aws's own list of 2026-09-19 "
        "gives $6.88 per GPU-hour for the same instances (p5-on-demand-2026-09), so the cost checks price "
        "the proposal at that, $8.19 with 19 % VAT.\n"
    ) in english
    german = invoke("check", str(path), "--as-of", "2026-12-07", "--lang", "de").output
    assert (
        "aws p5-on-demand ist die ältere Zahl des Katalogs für diese GPU; die eigene Liste von aws vom "
        "2026-09-19 nennt 6,88 $ pro GPU-Stunde für dieselben Instanzen (p5-on-demand-2026-09), daher "
        "bepreisen die Kostenprüfungen den Vorschlag damit, mit 19 % Umsatzsteuer 8,19 $.\n"
    ) in german


def test_the_german_memo(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(OWN), encoding="utf-8")
    memo = invoke("recommend", str(path), "--as-of", "2026-12-07", "--lang", "de").output
    assert (
        "gpu-advisor schlüsselt auf: Die hier verglichene eigene Hardware kommt auf 2,12 $ pro GPU-Stunde, "
        "ihre Einkäufe einschließlich 19 % Umsatzsteuer, die das Unternehmen nicht als Vorsteuer abziehen "
        "kann; ihre Zeilen"
    ) in memo
    assert (
        "und 4-gpu-plan 4,09 $ ausweist (2026-09-20) (jeweils wie gelistet, ohne die 19 % Umsatzsteuer, die "
        "die Preise hier enthalten)."
    ) in memo
