"""A region or country typed in either case is the one the catalog lists: ``company_country: ch`` was read
as CH while ``personal_data_region: EU`` was refused ("did you mean 'eu'?"), and an overrides file's
``jurisdiction: uk`` and ``countries: [gb]`` were refused too. A value that names none is still refused."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import TESTS_DIR, invoke

from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.workload import validate_workload

WORKLOAD = {
    "name": "eu-staff-assistant",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 5000,
    "personal_data": True,
}


@pytest.mark.parametrize(
    ("region", "country"), [("eu", "CH"), ("EU", "ch"), ("Eu", "Ch"), ("OTHER", "us"), ("other", "US")]
)
def test_the_workload_takes_a_region_and_a_country_in_either_case(region: str, country: str) -> None:
    workload = validate_workload(
        {**WORKLOAD, "personal_data_region": region, "company_country": country}, "test"
    )
    assert (workload.personal_data_region, workload.company_country) == (region.lower(), country.upper())


def test_recommend_reads_the_capitals_as_the_small_letters() -> None:
    said = [
        invoke("recommend", "-", "--format", "json", stdin=str({**WORKLOAD, "personal_data_region": region}))
        for region in ("EU", "eu")
    ]
    assert [result.exit_code for result in said] == [0, 0]
    assert said[0].output == said[1].output
    assert '"personal_data_region": "eu"' in said[0].output


def test_a_value_that_names_no_region_is_refused_as_before() -> None:
    with pytest.raises(InputError) as refused:
        validate_workload({**WORKLOAD, "personal_data_region": "EUR"}, "test")
    assert str(refused.value) == (
        "test: invalid workload\n  personal_data_region: Input should be 'eu', 'ch', 'uk', 'us' or 'other' "
        "(got 'EUR') (did you mean 'eu'?)"
    )


def test_an_overrides_file_takes_a_jurisdiction_and_countries_in_either_case(tmp_path: Path) -> None:
    """tests/rates/lambda-uk.yaml in small letters: the same UK region and US-priced offer."""
    capitals = (TESTS_DIR / "rates" / "lambda-uk.yaml").read_text(encoding="utf-8")
    small = capitals.replace("jurisdiction: UK, countries: [GB]", "jurisdiction: uk, countries: [gb]")
    small = small.replace("price_jurisdiction: US", "price_jurisdiction: us")
    assert (
        small.count("jurisdiction: uk") == 1
        and small.count("[gb]") == 1
        and small.count("jurisdiction: us\n") == 1
    )
    path = tmp_path / "lambda-uk.yaml"
    path.write_text(small, encoding="utf-8")
    on = dt.date(2026, 12, 7)
    read = [
        knowledge_with_overrides(str(file), on) for file in (TESTS_DIR / "rates" / "lambda-uk.yaml", path)
    ]
    regions = [next(r for r in k.provider("lambda").regions if r.id == "uk") for k in read]
    assert [(r.jurisdiction, r.countries) for r in regions] == [("UK", ("GB",)), ("UK", ("GB",))]
    offers = [k.offer("lambda", "on-demand-uk", "h100-sxm") for k in read]
    assert [o.price_jurisdiction for o in offers] == ["US", "US"]
