"""``tco --eur-per-kwh``: a European electricity tariff, converted at the catalog's rate as every EUR
figure is (an overrides file's eur_per_kwh does the same); given with ``--usd-per-kwh`` it is refused."""

from __future__ import annotations

import json

from helpers import invoke


def test_a_tariff_in_euros_is_converted_at_the_catalog_rate() -> None:
    """EUR 0.22 at 1.16 USD per EUR: $0.2552 a kWh; the default server draws 8 x 700 W x 1.3 = 7.28 kW
    in each of 730 hours: $1,356.23 a month."""
    result = invoke("tco", "--country", "AT", "--eur-per-kwh", "0.22", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert round(data["usd_per_kwh"], 6) == round(0.22 * 1.16, 6) == 0.2552
    assert round(data["power_usd_per_month"], 2) == round(7.28 * 730 * 0.2552, 2) == 1356.23
    assert data["overridden"] == ["eur_per_kwh"]
    assert "EUR" in data["currencies"]
    text = invoke("tco", "--country", "AT", "--eur-per-kwh", "0.22").output
    assert "7.28 kW × 730 h × $0.2552/kWh (your figure)" in text
    # The tariff as given, beside the dollars the line shows.
    assert "Your electricity price: €0.22/kWh at 1.16 USD per EUR.\n" in text
    german = invoke("tco", "--eur-per-kwh", "0.2235", "--lang", "de").output
    assert "Ihr Strompreis: 0,2235 €/kWh bei 1,16 USD je EUR.\n" in german
    assert "Your electricity price" not in invoke("tco", "--usd-per-kwh", "0.2").output


def test_a_tariff_in_both_currencies_is_refused() -> None:
    result = invoke("tco", "--usd-per-kwh", "0.2", "--eur-per-kwh", "0.22")
    assert result.exit_code == 2
    assert "give --usd-per-kwh or --eur-per-kwh, not both" in result.output
