"""``catalog offers`` names the countries of an offer's regions beside their jurisdiction, as the memo's
options table does ("EU (DE)"), where the catalog knows them; the JSON rows carry them."""

from __future__ import annotations

import json

from helpers import invoke


def test_the_regions_column_names_the_countries() -> None:
    result = invoke("catalog", "offers", "--country", "DE", "--as-of", "2026-11-30")
    assert result.exit_code == 0, result.output
    assert "azure/nc-h100-v5/h100-nvl            $9.04 (€7.79) on-demand       EU (DE)" in result.output
    scaleway = invoke("catalog", "offers", "--provider", "scaleway").output
    assert "scaleway/h100-80g/h100-pcie" in scaleway
    assert next(line for line in scaleway.splitlines() if "h100-80g/" in line).count("EU (FR,PL)") == 1


def test_a_jurisdiction_that_is_its_country_is_said_once() -> None:
    result = invoke("catalog", "offers", "--provider", "aws")
    assert "US (US)" not in result.output
    rows = json.loads(invoke("catalog", "offers", "--provider", "aws", "--format", "json").output)
    p5 = next(r for r in rows if r["offer"] == "p5-on-demand")
    assert p5["countries"] == ["US"]


def test_apis_are_filtered_by_where_they_process_requests() -> None:
    """IONOS processes its AI Model Hub's requests in Germany: --country DE keeps its two prices only."""
    result = invoke("catalog", "apis", "--country", "DE")
    assert result.exit_code == 0, result.output
    ids = [
        line.split()[0] for line in result.output.splitlines()[1:] if line and not line.startswith(("[", " "))
    ]
    assert ids[:2] == ["mistral-small-24b-ionos", "llama-3.3-70b-ionos"]
    assert "EU (DE)" in result.output and "deepinfra" not in result.output
    eu = invoke("catalog", "apis", "--eu").output
    assert "EU (FR)" in eu and "unknown" not in eu.split("\n\n")[0]
    deepinfra = invoke("catalog", "apis", "--provider", "deepinfra").output
    assert "llama-3.1-8b-deepinfra" in deepinfra and "ionos" not in deepinfra
