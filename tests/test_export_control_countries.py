"""Companies in Russia and Belarus need a US licence for every item on the Commerce Control List (EAR
§ 746.8), advanced accelerators among them: EXP001 says so as it does for China, where a Russian company
was given H100 rental and purchase advice with no word on it."""

from __future__ import annotations

import pytest
from helpers import run

WORKLOAD = {"name": "x", "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 50_000}


@pytest.mark.parametrize("country", ["RU", "BY", "CN"])
def test_exp001_names_the_country_under_export_limits(country: str) -> None:
    result = run({**WORKLOAD, "company_country": country})
    (message,) = [" ".join(f.message.split()) for f in result.findings if f.rule_id == "EXP001"]
    assert message == (
        f"The company is based in {country}, a country under US export limits for advanced accelerators: "
        '"an H100 in a third country" should not be treated as standard procurement. Clear the legal '
        "question before comparing hourly prices."
    )


def test_not_for_a_company_elsewhere() -> None:
    assert "EXP001" not in run({**WORKLOAD, "company_country": "DE"}).fired_rules
