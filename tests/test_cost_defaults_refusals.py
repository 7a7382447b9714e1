"""Bad own-hardware cost input refused: an overrides file's own_server figures and ``tco``'s options exit 2
with the field named, and a broken ``knowledge/cost_defaults.yaml`` is refused at load, naming the file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from helpers import PUBLIC_CHAT, invoke

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge_from
from gpu_advisor.knowledge import KNOWLEDGE_DIR

# --- bad input: exit 2, the field named ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("own_server", "expected"),
    [
        ({"price_usd": 250000, "price_eur": 200000}, "own_server: give price_usd or price_eur, not both"),
        ({"months": 48, "depreciation_years": 4}, "own_server: give months or depreciation_years, not both"),
        ({"usd_per_kwh": 0.2, "eur_per_kwh": 0.2}, "own_server: give usd_per_kwh or eur_per_kwh, not both"),
        (
            # A colocation fee pays for the rack space: both would count the housing twice.
            {"rack_usd_per_month": 500, "colocation_eur_per_month": 300},
            "own_server: give rack_usd_per_month or colocation_eur_per_month, not both",
        ),
        (
            {"staff_usd_per_month": 1, "staff_eur_per_month": 1},
            "own_server: give staff_usd_per_month or staff_eur_per_month, not both",
        ),
        (
            {"depreciation_years": 6},
            "own_server.depreciation_years: the years must be one of 3, 4, 5 (got 6)",
        ),
        ({"eur_per_kwh": -0.1}, "own_server.eur_per_kwh: Input should be greater than or equal to 0"),
        ({"colocation_eur_per_month": "lots"}, "own_server.colocation_eur_per_month"),
    ],
)
def test_bad_cost_overrides_exit_2(tmp_path: Path, own_server: dict, expected: str) -> None:
    path = tmp_path / "own.yaml"
    path.write_text(yaml.safe_dump({"own_server": own_server}), encoding="utf-8")
    result = invoke("recommend", PUBLIC_CHAT, "--overrides", str(path))
    assert result.exit_code == 2
    assert expected in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--months", "48", "--depreciation-years", "4"], "give --months or --depreciation-years, not both"),
        (
            ["--rack-usd-per-month", "500", "--colocation-usd-per-month", "800"],
            "give --rack-usd-per-month or --colocation-usd-per-month, not both",
        ),
        (
            ["--depreciation-years", "6"],
            "Invalid value for '--depreciation-years': 6 is not in the range 3<=x<=5.",
        ),
        (
            ["--country", "Germany"],
            "--country: an ISO 3166 code of two letters (got 'Germany')",
        ),
        # A code in small letters is read as the capitals (tests of the catalog): 'zz' is then no listed code.
        (["--country", "zz"], "--country: not a code of the ISO 3166-1 list (got 'zz')\n"),
    ],
)
def test_bad_tco_options_exit_2(args: list[str], expected: str) -> None:
    result = invoke("tco", *args)
    assert result.exit_code == 2
    assert expected in result.output
    assert "'ZZ'" not in result.output


# --- the knowledge file is checked at load -----------------------------------------------------------


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, target, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return target


def edit(directory: Path, change) -> None:
    path = directory / "cost_defaults.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def country(data: dict, code: str) -> dict:
    return next(entry for entry in data["countries"] if entry["country"] == code)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["countries"].append(dict(country(d, "AT"))), r"entry 'AT': duplicate country"),
        (
            lambda d: country(d, "DE")["staff_salary_per_year"].update(value=float("inf")),
            r"countries\.0\.staff_salary_per_year\.value: '\.inf' is not a finite number",
        ),
        (
            lambda d: country(d, "DE")["staff_salary_per_year"].pop("as_of"),
            r"staff_salary_per_year\.as_of: Field required",
        ),
        (
            lambda d: country(d, "DE")["staff_salary_per_year"].pop("source"),
            r"staff_salary_per_year\.source: Field required",
        ),
        (
            lambda d: country(d, "DE")["staff_salary_per_year"].pop("currency"),
            r"staff_salary_per_year\.currency: Field required",
        ),
        (
            lambda d: country(d, "AT")["staff_salary_per_year"].update(currency="GBP"),
            r"currency: Input should be 'EUR', 'USD' or 'CHF'",
        ),
        (
            lambda d: country(d, "DE").update(rack_per_month=dict(country(d, "US")["rack_per_month"])),
            r"give rack_per_month or colocation_per_kw_month, not both",
        ),
        (lambda d: d.update(fallback="GB"), r"field fallback: no country 'GB'"),
        (
            lambda d: country(d, "US")["electricity_per_kwh"][0].update(value=0.13),
            r"own_hardware\.yaml: entry 'workstation-rtx-5090': usd_per_kwh and rack_usd_per_month must be "
            r"the documents' figures",
        ),
    ],
)
def test_a_broken_cost_defaults_file_is_refused_naming_it(
    knowledge_copy: Path, change, expected: str
) -> None:
    edit(knowledge_copy, change)
    with pytest.raises(KnowledgeError, match=expected) as raised:
        load_knowledge_from(knowledge_copy)
    assert "cost_defaults.yaml" in str(raised.value) or "own_hardware.yaml" in str(raised.value)
