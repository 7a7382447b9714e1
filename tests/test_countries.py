"""Country codes are checked against knowledge/countries.yaml (ISO 3166-1 alpha-2, and UK beside GB)
wherever a country is named: a typo such as DA for DE would otherwise select no data-protection region
and the documents' US cost defaults without a word."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from helpers import EXAMPLES_DIR, invoke, read_example

from gpu_advisor.engine.common.errors import InputError, KnowledgeError
from gpu_advisor.engine.domain.knowledge.files import CountriesFile
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.pipeline.defaults import complete_workload
from gpu_advisor.knowledge import KNOWLEDGE_DIR


def test_the_list_holds_the_249_assigned_codes_uk_and_kosovo() -> None:
    knowledge = load_knowledge()
    assert len(knowledge.country_codes()) == 249 + 2
    assert {"DE", "AT", "CH", "GB", "UK", "US", "NO", "AX", "XK"} <= knowledge.country_codes()
    assert not {"XX", "EU", "DA", "EL"} & knowledge.country_codes()


def test_a_workload_with_an_unknown_company_country_is_refused_naming_the_field(tmp_path: Path) -> None:
    workload = {**read_example(EXAMPLES_DIR / "internal-assistant.yaml"), "company_country": "DA"}
    with pytest.raises(InputError) as error:
        complete_workload(validate_workload(workload, "test"), load_knowledge())
    assert error.value.field == "company_country"
    path = tmp_path / "typo.yaml"
    path.write_text(yaml.safe_dump(workload), encoding="utf-8")
    result = invoke("recommend", str(path))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {path}: company_country: 'DA' is no ISO 3166-1 country code"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("tco", "--country", "XX"),
            "error: tco: invalid options\n  --country: not a code of the ISO 3166-1 list (got 'XX')",
        ),
        (("catalog", "offers", "--country", "QQ"), "error: --country: 'QQ' is no ISO 3166-1 country code"),
    ],
)
def test_an_unknown_country_option_is_refused(args: tuple[str, ...], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.output.strip() == message


def test_a_known_country_passes() -> None:
    assert invoke("tco", "--country", "AT").exit_code == 0
    assert invoke("tco", "--country", "UK").exit_code == 0


def test_an_added_region_in_an_unknown_country_is_refused(tmp_path: Path) -> None:
    overrides = {
        "regions": [
            {
                "provider": "runpod",
                "id": "eu-test-1",
                "name": "Test region",
                "jurisdiction": "EU",
                "countries": ["XX"],
                "source": {"url": "https://example.org/regions", "title": "Example regions"},
            }
        ]
    }
    path = tmp_path / "overrides.yaml"
    path.write_text(yaml.safe_dump(overrides), encoding="utf-8")
    result = invoke("recommend", str(EXAMPLES_DIR / "public-chat.yaml"), "--overrides", str(path))
    assert result.exit_code == 2
    assert (
        f"--overrides {path}:2: regions[0]: field countries: 'XX' is no ISO 3166-1 country code"
        in result.output
    )


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, target, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return target


def rewrite(directory: Path, name: str, before: str, after: str) -> None:
    path = directory / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(before) == 1
    path.write_text(text.replace(before, after), encoding="utf-8")


def test_the_catalog_may_name_only_listed_countries(knowledge_copy: Path) -> None:
    rewrite(knowledge_copy, "data_protection", "countries: [CH]", "countries: [CH, XX]")
    with pytest.raises(KnowledgeError) as error:
        load_knowledge_from(knowledge_copy)
    assert "data_protection.yaml: entry 'ch': country 'XX' is not in countries.yaml" in str(error.value)


def test_a_code_is_listed_once(knowledge_copy: Path) -> None:
    rewrite(knowledge_copy, "countries", "codes: [UK]", "codes: [UK, DE]")
    with pytest.raises(KnowledgeError, match="codes listed more than once: DE"):
        load_knowledge_from(knowledge_copy)


def test_the_default_company_country_is_listed(knowledge_copy: Path) -> None:
    rewrite(knowledge_copy, "countries", "CZ, DE, DJ", "CZ, DJ")
    with pytest.raises(KnowledgeError) as error:
        load_knowledge_from(knowledge_copy)
    assert "workload_defaults.yaml: entry 'company_country': country 'DE' is not in countries.yaml" in str(
        error.value
    )


def test_check_names_the_proposal_file_of_a_workload_with_an_unknown_country(tmp_path: Path) -> None:
    document = {
        "workload": {**read_example(EXAMPLES_DIR / "internal-assistant.yaml"), "company_country": "DA"},
        "proposal": {"deployment": "api"},
    }
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = invoke("check", str(path))
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: {path} (proposal 1): workload: company_country: 'DA' is no ISO 3166-1 country code"
    )


def test_a_code_in_small_letters_is_read_as_its_capitals() -> None:
    """ISO 3166 spells its codes in capitals and no two differ by case: 'at' in a workload file and on
    the command line is AT, and the memo and the cost defaults say AT."""
    workload = {**read_example(EXAMPLES_DIR / "internal-assistant.yaml"), "company_country": "at"}
    assert validate_workload(workload, "test").company_country == "AT"
    small, capital = (invoke("tco", "--country", code, "--format", "json") for code in ("at", "AT"))
    assert small.exit_code == capital.exit_code == 0
    assert small.output == capital.output
    assert '"country": "AT"' in small.output


def test_a_letter_that_capitalises_into_two_is_no_code() -> None:
    """'ß' capitalised is 'SS' (South Sudan) and the dotless i (U+0131) is 'I': the catalog read them as
    codes, which the workload and tco refuse."""
    for typed in ("\u00df", "\u0131t"):
        result = invoke("catalog", "offers", "--country", typed)
        assert result.exit_code == 2
        assert result.output.strip() == f"error: --country: an ISO 3166 code of two letters (got '{typed}')"


def test_the_eus_code_for_greece_is_refused_naming_gr() -> None:
    """EL is the EU's and Eurostat's code for Greece; the lists name it GR, so EL is refused with it."""
    workload = (
        '{"name": "x", "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 5000, '
    )
    said = invoke("recommend", "-", stdin=workload + '"company_country": "EL"}')
    assert said.exit_code == 2
    assert "company_country: 'EL' is no ISO 3166-1 country code; ISO 3166-1 writes it GR" in said.output
    tco = invoke("tco", "--country", "EL")
    assert tco.exit_code == 2
    assert "--country: not a code of the ISO 3166-1 list; ISO 3166-1 writes it GR (got 'EL')" in tco.output
    # A code the lists name is no code "meant by" another: the knowledge base refuses it at load.
    listed = {"id": "x", "codes": ["GR", "DE"], "source": {"document": "gpu-advisor", "section": "t"}}
    listed |= {"as_of": "2026-12-07"}
    source = {"document": "gpu-advisor", "section": "t"}
    with pytest.raises(ValueError, match="meant_by names a listed code, or means one not listed: DE: GR"):
        CountriesFile.model_validate(
            {"schema_version": 1, "code_lists": [listed], "meant_by": {"DE": "GR"}, "meant_by_source": source}
        )
