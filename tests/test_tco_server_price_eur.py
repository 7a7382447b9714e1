"""``tco --server-price-eur``: a European quote for the server, converted at the catalog's rate, as
every EUR figure is; given with ``--server-price`` it is refused."""

from __future__ import annotations

import json

from helpers import invoke


def test_a_quote_in_euros_is_converted_at_the_catalog_rate() -> None:
    """EUR 310,000 at 1.16 USD per EUR: $359,600, written off over 60 months: $5,993.33 a month."""
    result = invoke("tco", "--server-price-eur", "310000", "--depreciation-years", "5", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["server_price_usd"] == 310000 * 1.16 == 359600
    assert round(data["capital_usd_per_month"], 2) == round(359600 / 60, 2) == 5993.33
    german = invoke("tco", "--server-price-eur", "310000", "--lang", "de", "--currency", "EUR")
    assert "für 310.000 €" in german.output


def test_a_price_in_both_currencies_is_refused() -> None:
    result = invoke("tco", "--server-price", "300000", "--server-price-eur", "310000")
    assert result.exit_code == 2
    assert "give --server-price or --server-price-eur, not both" in result.output


def test_the_quote_is_named_as_given() -> None:
    """The overridden figure is the EUR price the user gave, not the dollar one it was converted to."""
    data = json.loads(invoke("tco", "--server-price-eur", "310000", "--format", "json").output)
    assert data["overridden"] == ["server_price_eur"]
    assert "Overridden: server_price_eur\n" in invoke("tco", "--server-price-eur", "310000").output
    assert json.loads(invoke("tco", "--server-price", "300000", "--format", "json").output)["overridden"] == [
        "server_price_usd"
    ]


def test_another_gpus_server_quotes_no_idle_draw_measured_on_the_default_servers_gpu() -> None:
    """The catalog's idle draw was measured on H100 SXM; a server of H200 the catalog prices none of has
    its TDP from the datasheet and no measured idle draw."""
    h200 = invoke("tco", "--gpu", "h200", "--server-price-eur", "330000")
    assert h200.exit_code == 0, h200.output
    assert "draws far less" not in h200.output
    assert "Power draw: the h200's TDP, 700 W" in h200.output
    assert "draws far less: 146 W (mean of 7 H100 SXM" in invoke("tco").output
