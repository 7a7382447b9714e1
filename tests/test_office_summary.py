"""The summary of an own-hardware decision names the cost lines it counts: a machine in an office has no
housing or staff line, so its summary says capital and power only (it said 'housing and staff' beside
$0 lines)."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

HR_CHAT = {
    "name": "hr-chat-8b",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 250,
    "personal_data": True,
    "company_country": "DE",
    "latency_sensitive": True,
    "on_premises_required": True,
}


def summary_line(memo: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(("Recommendation:", "Empfehlung:")))


def test_an_office_workstation_is_summarised_by_capital_and_power() -> None:
    result = run(HR_CHAT)
    assert result.own_hardware.costs is not None and result.own_hardware.costs.housing == "office"
    assert summary_line(render_memo(result)) == (
        "Recommendation: **Own hardware**, 2 × RTX 5090 workstation (2 × rtx-5090), **$310 per month** in "
        "capital and power, whether busy or not (a machine in an office: no housing or staff line)."
    )
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert summary_line(german) == (
        "Empfehlung: **Eigene Hardware**, 2 × RTX-5090-Workstation (2 × rtx-5090), **310 $ pro Monat** für "
        "Kapital und Strom, ob ausgelastet oder nicht (ein Rechner im Büro: ohne Posten für Unterbringung "
        "und Personal)."
    )


def test_a_server_in_a_rack_is_summarised_with_housing_and_staff() -> None:
    result = run({**HR_CHAT, "model": {"name": "llama-3.1-70b", "precision": "fp8"}})
    assert result.own_hardware.costs is not None and result.own_hardware.costs.housing == "in_house"
    assert summary_line(render_memo(result)).endswith(
        "per month** in capital, power, housing and staff, whether busy or not."
    )
