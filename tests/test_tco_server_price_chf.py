"""``tco --server-price-chf``: a Swiss quote for the server, converted through the EUR at the catalog's
rates as every franc figure is (0.9197 CHF per EUR, 1.16 USD per EUR), the rate stated beside it; given
with another price it is refused."""

from __future__ import annotations

import json

from helpers import invoke


def test_a_quote_in_francs_is_converted_through_the_euro() -> None:
    """CHF 250,000 / 0.9197 × 1.16 = $315,320.21, written off over 36 months: $8,758.89 a month."""
    result = invoke("tco", "--server-price-chf", "250000", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert round(data["server_price_usd"], 2) == round(250_000 / 0.9197 * 1.16, 2) == 315_320.21
    assert round(data["capital_usd_per_month"], 2) == round(315_320.21 / 36, 2) == 8_758.89
    assert data["overridden"] == ["server_price_chf"]
    assert "CHF" in data["currencies"]
    text = invoke("tco", "--server-price-chf", "250000").output
    assert "at $315,320, written off over 36 months" in text
    assert "The server's price in francs is converted at 0.9197 CHF per EUR (2026-01-27, ECB euro" in text
    # Shown in francs, the quote reads as given.
    assert (
        "at CHF 250,000, written off"
        in invoke("tco", "--server-price-chf", "250000", "--currency", "CHF").output
    )


def test_a_price_in_francs_and_another_currency_is_refused() -> None:
    both = invoke("tco", "--server-price-eur", "300000", "--server-price-chf", "310000")
    assert both.exit_code == 2
    assert "give --server-price-eur or --server-price-chf, not both" in both.output
    assert (
        "give --server-price or --server-price-chf, not both"
        in invoke("tco", "--server-price", "1", "--server-price-chf", "1").output
    )


def test_a_price_in_all_three_currencies_is_refused_naming_all_three() -> None:
    """The three prices were checked two at a time: all three given named the first two only."""
    import pytest

    from gpu_advisor.api import InputError
    from gpu_advisor.engine.domain.requests import TcoRequest

    prices = ("--server-price", "1", "--server-price-eur", "1", "--server-price-chf", "1")
    english = invoke("tco", *prices)
    assert (english.exit_code, english.output) == (
        2,
        "error: tco: invalid options\n"
        "  give --server-price, --server-price-eur or --server-price-chf, not all three\n",
    )
    assert invoke("tco", *prices, "--lang", "de").output == (
        "Fehler: tco: ungültige Optionen\n"
        "  geben Sie --server-price, --server-price-eur oder --server-price-chf an, nicht alle drei\n"
    )
    given = {"server_price_usd": 1.0, "server_price_eur": 1.0, "server_price_chf": 1.0}
    with pytest.raises(InputError) as refused:
        TcoRequest.read(given, "request")
    assert str(refused.value) == (
        "request: invalid request\n"
        "  give server_price_usd, server_price_eur or server_price_chf, not all three"
    )
