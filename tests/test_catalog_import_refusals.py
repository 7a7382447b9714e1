"""What ``catalog import`` and an overrides file's added offers and regions refuse: bad rows exit 2 naming
line and column, a catalog offer given sizes, an output over the input; the output is written atomically;
added offers and regions are validated as the knowledge base's own are."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import CATALOG_IMPORTS_DIR as DATA
from helpers import invoke

from gpu_advisor.engine.apps.catalog_import import run as import_run
from gpu_advisor.engine.apps.overrides import apply_overrides, read_overrides
from gpu_advisor.engine.common import safe_files
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge


@pytest.mark.parametrize(
    ("file", "fmt", "expected"),
    [
        (
            "skypilot-bad.csv",
            "skypilot",
            [
                "line 3, column Price: Input should be a valid number",
                "line 4, column AcceleratorCount: the count must be a whole number (given '1.5')",
                "line 5, column Price: Input should be greater than 0 (given '-2.2')",
            ],
        ),
        (
            "gpuhunt-bad.csv",
            "gpuhunt",
            [
                "line 3, column price: Input should be a valid number",
                "line 4, column gpu_count: Input should be a valid integer",
                "line 4, column spot: Input should be a valid boolean",
            ],
        ),
        (
            "rates-bad.csv",
            "csv",
            [
                "line 2, column usd_per_gpu_hour: Input should be greater than 0 (given '0')",
                "line 3, column instance_gpus: Input should be a valid integer",
            ],
        ),
        ("no-price-column.csv", "skypilot", ["line 1, column Price: missing from the header"]),
    ],
)
def test_bad_rows_exit_2_naming_line_and_column(
    tmp_path: Path, file: str, fmt: str, expected: list[str]
) -> None:
    out = tmp_path / "out.yaml"
    result = invoke(
        "catalog", "import", str(DATA / "bad" / file), "--format", fmt, "--provider", "aws", "-o", str(out)
    )
    assert result.exit_code == 2
    for text in expected:
        assert text in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    ("header", "row", "fmt", "expected"),
    [
        (
            "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region",
            "p5.48xlarge,H100,8.0,16000.0,,us-east-1",
            "skypilot",
            "line 2, column Price: 16,000 USD an instance-hour over 8 cards is 2,000.00 USD per GPU-hour, "
            "not below the 1,000 an overrides file admits (a price per instance-hour is expected)",
        ),
        # A price the written catalog rounds to nothing was an internal error (exit 4) in its own model.
        (
            "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region",
            "p5.48xlarge,H100,8,0.00000005,,us-east-1",
            "skypilot",
            "line 2, column Price: 5e-08 USD an instance-hour over 8 cards is 6.25e-09 USD per GPU-hour, "
            "which the written catalog, at 6 decimals, rounds to 0 (a price per instance-hour is expected)",
        ),
        (
            "instance_name,location,price,gpu_count,gpu_name,gpu_memory,spot",
            "gpu_1x_h100_sxm5,us-east-1,99999,1,H100,80.0,False",
            "gpuhunt",
            "line 2, column price: 99,999 USD an instance-hour over 1 card is 99,999.00 USD per GPU-hour",
        ),
        (
            "provider,offer,gpu,usd_per_gpu_hour",
            "aws,p5-on-demand,h100-sxm,5000",
            "csv",
            "line 2, column usd_per_gpu_hour: Input should be less than 1000 (given '5000')",
        ),
        # A card count or an instance name an offer cannot have was an internal error (exit 4).
        (
            "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region",
            "p5.48xlarge,H100,1000,98.32,,us-east-1",
            "skypilot",
            "line 2, column AcceleratorCount: Input should be less than or equal to 64 (given '1000')",
        ),
        (
            "instance_name,location,price,gpu_count,gpu_name,gpu_memory,spot",
            "gpu_1x_h100_sxm5,us-east-1,3.29,1000,H100,80.0,False",
            "gpuhunt",
            "line 2, column gpu_count: Input should be less than or equal to 64 (given '1000')",
        ),
        (
            "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region",
            f"{'p' * 101},H100,8,98.32,,us-east-1",
            "skypilot",
            "line 2, column InstanceType: String should have at most 100 characters",
        ),
    ],
)
def test_a_price_an_overrides_file_refuses_is_refused_on_its_row(
    tmp_path: Path, header: str, row: str, fmt: str, expected: str
) -> None:
    """A price per month or per cluster in the price column was an internal error (the overrides
    written from it failed their own check): it is refused on its row, as a negative one is."""
    source = tmp_path / ("lambdalabs.csv" if fmt == "gpuhunt" else "vms.csv")
    source.write_text(f"{header}\n{row}\n", encoding="utf-8")
    provider = ["--provider", "lambdalabs" if fmt == "gpuhunt" else "aws"] if fmt != "csv" else []
    out = tmp_path / "out.yaml"
    result = invoke("catalog", "import", str(source), "--format", fmt, *provider, "-o", str(out))
    assert result.exit_code == 2, result.output
    assert expected in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A truncated export wrote an empty overrides file, exit 0.
        ("provider,offer,gpu,usd_per_gpu_hour\n", "rates.csv: a header and no rows; nothing to import"),
        (
            "provider,offer,gpu,usd_per_gpu_hour,as_of\naws,p5-on-demand,h100-sxm,3.1,2099-01-01\n",
            "rates.csv: line 2, column as_of: 2099-01-01 is after the import's date, 2026-11-30 (--as-of): "
            "a price is dated when it was read or agreed",
        ),
    ],
)
def test_an_import_with_nothing_to_import_or_a_price_from_the_future_is_refused(
    tmp_path: Path, text: str, expected: str
) -> None:
    source = tmp_path / "rates.csv"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "o.yaml"
    result = invoke(
        "catalog", "import", str(source), "--format", "csv", "--as-of", "2026-11-30", "-o", str(out)
    )
    assert result.exit_code == 2
    assert expected in result.output
    assert not out.exists()


def test_an_endless_line_is_refused_without_being_held(tmp_path: Path) -> None:
    """A pipe or a device has no size to check first (/dev/zero grew to 7.9 GB in 10 s): each line is
    read up to a bound."""
    source = tmp_path / "rates.csv"
    source.write_text("provider,offer,gpu,usd_per_gpu_hour\n" + "x" * 1_100_000 + "\n", encoding="utf-8")
    result = invoke("catalog", "import", str(source), "--format", "csv", "-o", str(tmp_path / "o.yaml"))
    assert result.exit_code == 2
    assert "rates.csv: line 2: longer than the 1,000,000 characters a row is read to" in result.output


def test_a_catalog_offer_with_sizes_in_the_plain_csv_is_refused(tmp_path: Path) -> None:
    rates = tmp_path / "rates.csv"
    rates.write_text("provider,offer,gpu,usd_per_gpu_hour,instance_gpus\naws,p5-on-demand,h100-sxm,3.1,8\n")
    result = invoke("catalog", "import", str(rates), "--format", "csv", "-o", str(tmp_path / "o.yaml"))
    assert result.exit_code == 2
    assert "line 2, column offer: aws/p5-on-demand/h100-sxm is a catalog offer" in result.output


def test_output_over_the_input_is_refused(tmp_path: Path) -> None:
    rates = tmp_path / "rates.csv"
    shutil.copy(DATA / "rates.csv", rates)
    before = rates.read_bytes()
    for out in (str(rates), str(tmp_path / "." / "rates.csv")):
        result = invoke("catalog", "import", str(rates), "--format", "csv", "-o", out)
        assert result.exit_code == 2
        assert "is an input file of this command" in result.output
    link = tmp_path / "link.csv"
    os.symlink(rates, link)
    assert invoke("catalog", "import", str(rates), "--format", "csv", "-o", str(link)).exit_code == 2
    assert rates.read_bytes() == before


def test_the_output_is_written_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "prices.yaml"
    out.write_text("as_of: 2026-01-01\n")

    def failing_replace(source: str, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safe_files.os, "replace", failing_replace)
    with pytest.raises(InputError, match="cannot write"):
        import_run.run_import(
            str(DATA / "rates.csv"),
            "csv",
            str(out),
            dt.date(2026, 12, 1),  # after the rows' own dates
            None,
            load_knowledge(),
            force=True,
        )
    # The old file is whole and no temporary file is left beside it.
    assert out.read_text() == "as_of: 2026-01-01\n"
    assert [p.name for p in tmp_path.iterdir()] == ["prices.yaml"]


@pytest.mark.parametrize(
    ("added", "message"),
    [
        ({"gpu": "v100"}, "gpu"),
        ({"provider": "nimbus"}, "provider"),
        ({"regions": ["mars-1"]}, "'mars-1' is not a region of aws"),
        ({"price_jurisdiction": "EU"}, "price_jurisdiction"),
        ({"offer": "p5-on-demand", "gpu": "h100-sxm"}, "exists already"),
        ({"instance_gpus": [8, 1]}, "instance_gpus"),
        # A check across fields names them itself: it was blamed on "field offer: Value error, ...".
        (
            {"instance_gpus": [1, 8], "nvlink_instance_gpus": [4]},
            r"^--overrides .*/o\.yaml: added_offers\[0\] \(aws/mine/l40s\): nvlink_instance_gpus names "
            "sizes of instance_gpus only$",
        ),
        ({"regions": ["mars-1"]}, r"add it under regions \(its regions: "),
    ],
)
def test_added_offers_are_validated_like_knowledge(tmp_path: Path, added: dict, message: str) -> None:
    offer = {
        "provider": "aws",
        "offer": "mine",
        "gpu": "l40s",
        "usd_per_gpu_hour": 1.0,
        "pricing": "on_demand",
        "instance_gpus": [1],
        "regions": ["us-east-1"],
        "price_jurisdiction": "US",
        "as_of": "2026-11-01",
    }
    path = tmp_path / "o.yaml"
    path.write_text(json.dumps({"added_offers": [offer | added]}))
    with pytest.raises(InputError, match=message):
        apply_overrides(
            load_knowledge(), read_overrides(str(path)), str(path), load_knowledge().offers.offers[0].as_of
        )


def test_a_region_with_a_jurisdiction_needs_a_source(tmp_path: Path) -> None:
    path = tmp_path / "o.yaml"
    path.write_text(
        json.dumps(
            {
                "regions": [
                    {
                        "provider": "aws",
                        "id": "eu-west-1",
                        "name": "Ireland",
                        "jurisdiction": "EU",
                        "countries": ["IE"],
                    }
                ]
            }
        )
    )
    with pytest.raises(InputError, match="source"):
        read_overrides(str(path))


@pytest.mark.parametrize(("countries", "refused"), [(["US"], True), (["IE", "NO"], False), (["JP"], False)])
def test_a_regions_countries_lie_in_its_jurisdiction(
    tmp_path: Path, countries: list[str], refused: bool
) -> None:
    """An "EU" region in the US would pass the GDPR's checks. Norway is in the EEA (eu); Japan is in no
    region the jurisdictions name (other), so the file's word stands."""
    source = {"url": "https://example.com/regions", "title": "a provider's region list"}
    region = {"provider": "lambda", "id": "fra", "name": "Frankfurt", "jurisdiction": "EU", "source": source}
    path = tmp_path / "o.yaml"
    path.write_text(json.dumps({"regions": [{**region, "countries": countries}]}), encoding="utf-8")
    knowledge = load_knowledge()
    if not refused:
        apply_overrides(knowledge, read_overrides(str(path)), str(path), dt.date(2026, 11, 30))
        return
    with pytest.raises(InputError) as error:
        apply_overrides(knowledge, read_overrides(str(path)), str(path), dt.date(2026, 11, 30))
    assert str(error.value) == (
        f"--overrides {path}: regions[0]: field countries: US is not in EU (its data-protection region is "
        "us): a region's countries must lie in its jurisdiction"
    )


@pytest.mark.parametrize("country", ["GP", "GF", "MQ", "YT", "RE", "MF", "AX"])
def test_eu_territories_with_codes_of_their_own_are_in_the_eu(tmp_path: Path, country: str) -> None:
    """Reunion and the other outermost regions, and the Aland Islands, have ISO codes of their own and
    are EU territory (TFEU Art. 355): a "US" region there is refused as a US region in Ireland is."""
    assert load_knowledge().data_protection_region(country) == "eu"
    source = {"url": "https://example.com/regions", "title": "a provider's region list"}
    region = {"provider": "lambda", "id": "x", "name": "X", "jurisdiction": "US", "source": source}
    path = tmp_path / "o.yaml"
    path.write_text(json.dumps({"regions": [{**region, "countries": [country]}]}), encoding="utf-8")
    with pytest.raises(InputError, match=f"{country} is not in US \\(its data-protection region is eu\\)"):
        apply_overrides(load_knowledge(), read_overrides(str(path)), str(path), dt.date(2026, 11, 30))


def test_a_region_code_no_catalog_region_could_have_is_a_row_error(tmp_path: Path) -> None:
    # Found by benchmarks/fuzz.py: the region was added to the overrides unchecked and failed there.
    rates = tmp_path / "rates.csv"
    header = (
        "provider,offer,gpu,usd_per_gpu_hour,pricing,commitment_months,instance_gpus,regions,as_of,note\n"
    )
    rates.write_text(header + "ovhcloud,h100-eu,h100-pcie,2.60,on_demand,,1;2,0x" + "f" * 200 + ",,\n")
    result = invoke("catalog", "import", str(rates), "--format", "csv", "-o", str(tmp_path / "o.yaml"))
    assert result.exit_code == 2, result.output
    assert "line 2, column regions: String should have at most 120 characters" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Imported with exit 0, then refused when the overrides file was read back.
        (
            "provider,offer,gpu,usd_per_gpu_hour\naws,mine,h100-sxm,1e-300\n",
            "line 2, column usd_per_gpu_hour: '1e-300' is too small; a number other than 0 is at least "
            "1e-15 in size",
        ),
        # The last of the two cells was read, unsaid.
        (
            "provider,provider,offer,gpu,usd_per_gpu_hour\naws,x,mine,h100-sxm,2.1\n",
            "column provider: named twice",
        ),
        # The regions were dropped, unsaid.
        (
            "provider,offer,gpu,usd_per_gpu_hour,region\naws,mine,h100-sxm,2.1,eu-central-1\n",
            "line 1: column: unknown value 'region'; allowed: as_of, commitment_months, gpu, instance_gpus, "
            "note, offer, pricing, provider, regions, usd_per_gpu_hour (did you mean 'regions'?)",
        ),
    ],
)
def test_a_plain_csv_is_held_to_the_rules_its_overrides_are_read_under(
    tmp_path: Path, text: str, expected: str
) -> None:
    source, out = tmp_path / "rates.csv", tmp_path / "out.yaml"
    source.write_text(text, encoding="utf-8")
    result = invoke("catalog", "import", str(source), "--format", "csv", "-o", str(out))
    assert result.exit_code == 2 and expected in " ".join(result.output.split())
    assert not out.exists()


def test_a_trailing_comma_in_a_plain_csv_is_no_column(tmp_path: Path) -> None:
    """Spreadsheets export a trailing comma on every line: an unnamed column is not read, and not
    refused as a misspelt one."""
    source, out = tmp_path / "rates.csv", tmp_path / "out.yaml"
    source.write_text(
        "provider,offer,gpu,usd_per_gpu_hour,pricing,instance_gpus,regions,\n"
        "aws,mine-h100,h100-sxm,2.10,on_demand,8,us-east-1,\n",
        encoding="utf-8",
    )
    result = invoke("catalog", "import", str(source), "--format", "csv", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "usd_per_gpu_hour: 2.1" in out.read_text(encoding="utf-8")


def test_an_overrides_file_that_gives_one_offer_twice_is_refused(tmp_path: Path) -> None:
    """Two rates for runpod/community/h200 were accepted, the memo listing both and pricing the last."""
    path = tmp_path / "ov.yaml"
    path.write_text(
        "as_of: 2026-12-01\noffers:\n"
        "  - {provider: runpod, offer: community, gpu: h200, usd_per_gpu_hour: 1}\n"
        "  - {provider: runpod, offer: community, gpu: h200, usd_per_gpu_hour: 2}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="runpod/community/h200 is given twice; give each offer once"):
        read_overrides(str(path))
    one = path.read_text(encoding="utf-8").replace(
        "  - {provider: runpod, offer: community, gpu: h200, usd_per_gpu_hour: 2}\n", ""
    )
    path.write_text(one, encoding="utf-8")
    assert len(read_overrides(str(path)).offers) == 1


def test_a_directory_is_no_catalog(tmp_path: Path) -> None:
    """It exited 5 with Python's own words ("[Errno 21] Is a directory")."""
    result = invoke("catalog", "import", str(tmp_path), "--format", "csv", "-o", str(tmp_path / "o.yaml"))
    assert (result.exit_code, result.output) == (2, f"error: {tmp_path}: cannot be read (Is a directory)\n")


def test_a_region_written_otherwise_is_the_catalog_region_its_id_names(tmp_path: Path) -> None:
    """ "us east/1" made an ID is us-east-1, one of AWS's regions: it was added as a new one, and the
    written file refused by its own check ("--overrides: ... already a region of aws")."""
    source = tmp_path / "vms.csv"
    source.write_text(
        "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n"
        "p5.48xlarge,H100,8,98.32,,us east/1\n",
        encoding="utf-8",
    )
    out = tmp_path / "o.yaml"
    result = invoke(
        "catalog", "import", str(source), "--format", "skypilot", "--provider", "aws", "-o", str(out)
    )
    assert result.exit_code == 0, result.output
    written = out.read_text(encoding="utf-8")
    assert "\nregions: []\n" in written  # no region added
    assert "  regions: [us-east-1]\n  price_jurisdiction: US\n" in written
