"""``catalog import`` and ``catalog diff``: the three formats, the written overrides file changing a
recommendation, a check and a sweep, the diff's figures, and the text report. Rows, files and offers the
import refuses are in ``test_catalog_import_refusals.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from helpers import CATALOG_IMPORTS_DIR as DATA
from helpers import PUBLIC_CHAT, invoke

from gpu_advisor.engine.apps.overrides import apply_overrides, read_overrides
from gpu_advisor.engine.domain.import_mapping import load_mapping
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.i18n.environment import say


def import_file(tmp_path: Path, source: Path, fmt: str, *extra: str) -> tuple[dict, dict]:
    out = tmp_path / f"{source.parent.name}-{source.stem}.yaml"
    result = invoke(
        "catalog",
        "import",
        str(source),
        "--format",
        fmt,
        "-o",
        str(out),
        "--as-of",
        "2026-11-28",
        "--report-format",
        "json",
        *extra,
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output), yaml.safe_load(out.read_text())


def offers_by_id(written: dict) -> dict[str, dict]:
    return {o["offer"]: o for o in written["added_offers"]}


def test_the_mapping_table_loads_against_the_knowledge_base() -> None:
    mapping = load_mapping(load_knowledge())
    assert mapping.provider("gpuhunt", "lambdalabs") == "lambda"
    assert mapping.format_name("gpuhunt", "lambda") == "lambdalabs"
    assert mapping.gpu("skypilot", "H100-MEGA", "gcp", "a3-megagpu-8g", None) == "h100-sxm"
    # One name, two cards: the provider or the instance name decides, and nothing decides for Azure's A100.
    assert mapping.gpu("skypilot", "H100", "runpod", "1x_H100_SECURE", None) == "h100-pcie"
    assert mapping.gpu("skypilot", "H100", "lambda", "gpu_1x_h100_pcie", None) == "h100-pcie"
    assert mapping.gpu("skypilot", "A100-80GB", "azure", "Standard_NC24ads_A100_v4", None) is None
    assert mapping.gpu("gpuhunt", "A100", "aws", "p4d.24xlarge", 40.0) is None
    assert mapping.gpu("gpuhunt", "A100", "aws", "p4de.24xlarge", 80.0) == "a100-80gb"


def test_skypilot_vms_csv(tmp_path: Path) -> None:
    report, written = import_file(tmp_path, DATA / "skypilot" / "aws" / "vms.csv", "skypilot")
    assert written["source"] == {"format": "skypilot", "file": "vms.csv", "provider": "aws"}
    assert written["as_of"] == "2026-11-28"
    offers = offers_by_id(written)
    assert sorted(offers) == [
        "g6e.xlarge-spot-us",
        "g6e.xlarge-us",
        "p5.48xlarge-eu",
        "p5.48xlarge-spot-us",
        "p5.48xlarge-unknown",
        "p5.48xlarge-us",
        "p5.4xlarge-us",
    ]
    # 16.00 USD an instance-hour over 8 cards; spot: the cheaper zone, 8.00 / 8 (8.40 is left out).
    assert offers["p5.48xlarge-us"] == {
        "provider": "aws",
        "offer": "p5.48xlarge-us",
        "gpu": "h100-sxm",
        "usd_per_gpu_hour": 2.0,
        "instance_usd_per_hour": 16.0,
        "pricing": "on_demand",
        "instance_gpus": [8],
        "regions": ["us-east-1"],
        "price_jurisdiction": "US",
        "as_of": "2026-11-28",
        "note": "p5.48xlarge (vms.csv, skypilot, line 2)",
    }
    assert offers["p5.48xlarge-spot-us"]["usd_per_gpu_hour"] == 1.0
    assert offers["p5.48xlarge-eu"]["usd_per_gpu_hour"] == 2.5  # 20.00 / 8, priced in the EU itself
    assert offers["p5.48xlarge-eu"]["price_jurisdiction"] == "EU"
    assert offers["p5.4xlarge-us"]["instance_gpus"] == [1]
    # ap-south-1 is no catalog region of AWS: added, jurisdiction unknown, and reported.
    assert written["regions"] == [
        {
            "provider": "aws",
            "id": "ap-south-1",
            "name": "ap-south-1 (from vms.csv; location not in the catalog)",
            "jurisdiction": "unknown",
            "countries": [],
        }
    ]
    assert offers["p5.48xlarge-unknown"]["price_jurisdiction"] == "unknown"
    assert report["rows"] == 8 and report["rows_used"] == 6
    assert report["rows_without_accelerator"] == 1  # m5.large
    assert report["unknown_gpus"] == [{"name": "V100", "rows": 1, "suggestion": None}]
    assert report["prices_cheaper_elsewhere"] == 1
    assert report["regions_unknown_jurisdiction"] == [{"provider": "aws", "region": "ap-south-1", "rows": 1}]


def test_skypilot_runpod_regions_map_to_the_eu_data_centres(tmp_path: Path) -> None:
    report, written = import_file(tmp_path, DATA / "skypilot" / "runpod" / "vms.csv", "skypilot")
    offers = offers_by_id(written)
    assert offers["1x-h200-sxm-secure-eu"]["regions"] == ["eu-datacenters"]
    assert offers["1x-h200-sxm-secure-eu"]["price_jurisdiction"] == "EU"
    assert offers["1x-h200-sxm-secure-unknown"]["regions"] == ["us"]
    # RunPod's A100-80GB is the PCIe card, which the catalog does not list.
    assert report["unknown_gpus"] == [{"name": "A100-80GB", "rows": 1, "suggestion": None}]


def test_gpuhunt_csv(tmp_path: Path) -> None:
    report, written = import_file(tmp_path, DATA / "gpuhunt" / "lambdalabs.csv", "gpuhunt")
    assert report["provider_name"] == "lambdalabs" and report["provider"] == "lambda"
    offers = offers_by_id(written)
    assert sorted(offers) == ["gpu-1x-h100-pcie-unknown", "gpu-8x-h100-sxm5-unknown"]
    sxm = offers["gpu-8x-h100-sxm5-unknown"]
    assert (sxm["gpu"], sxm["usd_per_gpu_hour"], sxm["instance_gpus"]) == ("h100-sxm", 2.99, [8])  # 23.92 / 8
    assert sxm["regions"] == ["us-east-1", "us-west-1"]  # the same price in both
    assert offers["gpu-1x-h100-pcie-unknown"]["gpu"] == "h100-pcie"
    assert report["unknown_gpus"] == [{"name": "A10", "rows": 1, "suggestion": None}]
    assert report["rows_without_accelerator"] == 1


def test_plain_csv(tmp_path: Path) -> None:
    report, written = import_file(tmp_path, DATA / "rates.csv", "csv")
    assert written["offers"] == [
        {
            "provider": "aws",
            "offer": "p5-on-demand",
            "gpu": "h100-sxm",
            "usd_per_gpu_hour": 3.1,
            "as_of": "2026-11-15",
            "note": "enterprise discount on the list price",
        }
    ]
    # The re-priced offer keeps the row's note beside the catalog price it replaces.
    overrides = str(next(tmp_path.glob("*.yaml")))
    knowledge, _ = apply_overrides(
        load_knowledge(), read_overrides(overrides), overrides, load_knowledge().offers.offers[0].as_of
    )
    repriced = knowledge.offer("aws", "p5-on-demand", "h100-sxm")
    assert repriced is not None and repriced.note == (
        "your rate (catalog: 3.9 USD, 2026-03-27): enterprise discount on the list price"
    )
    offers = offers_by_id(written)
    assert offers["contract-8x"]["pricing"] == "reserved" and offers["contract-8x"]["commitment_months"] == 12
    assert offers["contract-8x"]["as_of"] == "2026-11-20"
    assert offers["h100-eu"]["instance_gpus"] == [1, 2, 4]
    assert offers["h100-eu"]["as_of"] == "2026-11-28"  # no date of its own: the import's
    assert report["unknown_gpus"] == [{"name": "rtx-4000-ada", "rows": 1, "suggestion": None}]
    assert (report["offers_added"], report["offers_repriced"]) == (2, 1)


def test_the_written_file_loads_and_an_imported_cheaper_price_is_chosen(tmp_path: Path) -> None:
    _, _ = import_file(tmp_path, DATA / "skypilot" / "runpod" / "vms.csv", "skypilot")
    overrides = str(tmp_path / "runpod-vms.yaml")
    knowledge, replaced = apply_overrides(
        load_knowledge(), read_overrides(overrides), overrides, load_knowledge().offers.offers[0].as_of
    )
    assert tuple(say("en", line) for line in replaced) == (
        "1 region of unknown jurisdiction added from vms.csv",
        "4 offers added from vms.csv (skypilot)",
    )
    assert len(knowledge.offers.offers) == len(load_knowledge().offers.offers) + 4

    result = invoke(
        "recommend", PUBLIC_CHAT, "--as-of", "2026-11-30", "--overrides", overrides, "--format", "json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    chosen = next(o for o in data["options"] if o["chosen"])
    # Without the import: runpod community at 3.59 USD, 7,862 USD a month. The import's 1.90 USD per
    # GPU-hour for three 1-card instances: 3 x 1.90 x 730 h = 4,161 USD.
    assert (chosen["provider"], chosen["offer"], chosen["gpu"]) == (
        "runpod",
        "1x-h200-sxm-secure-unknown",
        "h200",
    )
    assert chosen["usd_per_month"] == pytest.approx(3 * 1.90 * 730)
    assert chosen["price_origin"] == {
        "kind": "import",
        "file": "vms.csv",
        "format": "skypilot",
        "as_of": "2026-11-28",
    }
    catalog = next(o for o in data["options"] if o["offer"] == "community" and o["gpu"] == "h200")
    assert catalog["price_origin"] == {"kind": "catalog", "file": None, "format": None, "as_of": "2026-10-10"}

    memo = invoke("recommend", PUBLIC_CHAT, "--as-of", "2026-11-30", "--overrides", overrides).output
    assert "3 × h200 at runpod (1x-h200-sxm-secure-unknown, on-demand), **$4,161 per month**" in memo
    assert "| Import of vms.csv (skypilot format) | 2026-11-28 | GPU offers |" in memo
    german = invoke(
        "recommend", PUBLIC_CHAT, "--as-of", "2026-11-30", "--overrides", overrides, "--lang", "de"
    )
    assert "| Import von vms.csv (Format skypilot) | 2026-11-28 |" in german.output


def test_check_and_sweep_take_the_imported_file(tmp_path: Path) -> None:
    import_file(tmp_path, DATA / "skypilot" / "runpod" / "vms.csv", "skypilot")
    overrides = str(tmp_path / "runpod-vms.yaml")
    sweep = invoke(
        "sweep",
        PUBLIC_CHAT,
        "--vary",
        "requests_per_day=1000000:1000000:1",
        "--as-of",
        "2026-11-30",
        "--overrides",
        overrides,
        "--format",
        "json",
    )
    assert sweep.exit_code == 0, sweep.output
    assert "1x-h200-sxm-secure-unknown" in sweep.output
    proposal = tmp_path / "proposal.yaml"
    proposal.write_text(
        "workload: {name: chat, model: {name: llama-3.1-70b, precision: fp8}, requests_per_day: 1000000}\n"
        "proposal: {deployment: dedicated_cloud, provider: runpod, offer: 1x-h200-sxm-secure-eu, gpu: h200,"
        " gpus: 3, pricing: on_demand}\n"
    )
    # Without the import the offer is unknown (KNB004 warns); with it, its price and date are checked.
    without = invoke("check", str(proposal), "--as-of", "2026-11-30")
    assert "WARN    KNB004 The proposed offer is not in the catalog" in without.output
    # --show-all: a proposal that passes every check is otherwise only counted.
    checked = invoke("check", str(proposal), "--as-of", "2026-11-30", "--overrides", overrides, "--show-all")
    assert checked.exit_code == 0, checked.output
    assert "recommended: dedicated_cloud (3 x h200 at runpod 1x-h200-sxm-secure-unknown)" in checked.output
    assert "WARN    KNB004" not in checked.output and "PASS    KNB004" in checked.output
    # The EU offer costs more than the recommended one of unknown location (DEP033), its one warning.
    assert "WARN    DEP033" in checked.output and "1 with warnings, 0 failed" in checked.output


def test_diff_added_removed_moved(tmp_path: Path) -> None:
    old = tmp_path / "old.yaml"
    new = tmp_path / "new.yaml"
    added = {
        "provider": "aws",
        "gpu": "l40s",
        "pricing": "on_demand",
        "instance_gpus": [1],
        "regions": ["us-east-1"],
        "price_jurisdiction": "US",
        "as_of": "2026-11-01",
    }
    old.write_text(
        json.dumps(
            {
                "offers": [
                    {"provider": "aws", "offer": "p5-on-demand", "gpu": "h100-sxm", "usd_per_gpu_hour": 3.2}
                ],
                "added_offers": [
                    added | {"offer": "g6e-old", "usd_per_gpu_hour": 1.861},
                    added | {"offer": "g6e-kept", "usd_per_gpu_hour": 2.0},
                ],
            }
        )
    )
    new.write_text(
        json.dumps(
            {
                "offers": [
                    {"provider": "aws", "offer": "p5-on-demand", "gpu": "h100-sxm", "usd_per_gpu_hour": 2.8}
                ],
                "added_offers": [
                    added | {"offer": "g6e-kept", "usd_per_gpu_hour": 2.0},
                    added | {"offer": "g6e-new", "usd_per_gpu_hour": 1.5},
                ],
            }
        )
    )
    result = invoke("catalog", "diff", str(old), str(new), "--format", "json")
    assert result.exit_code == 0, result.output
    diff = json.loads(result.output)
    assert (diff["added"], diff["removed"], diff["moved"]) == (1, 1, 1)
    changes = {c["key"]: c for c in diff["changes"]}
    assert changes["aws/g6e-new/l40s"]["change"] == "added"
    assert changes["aws/g6e-old/l40s"]["change"] == "removed"
    moved = changes["aws/p5-on-demand/h100-sxm"]
    # 2.80 - 3.20 = -0.40 USD per GPU-hour; -0.40 / 3.20 = -12.5 %.
    assert (moved["old_usd_per_gpu_hour"], moved["new_usd_per_gpu_hour"]) == (3.2, 2.8)
    assert (moved["usd_delta"], moved["percent"]) == (-0.4, -12.5)
    text = invoke("catalog", "diff", str(old), str(new)).output
    assert "1 added, 1 removed, 1 moved" in text
    assert "moved   aws/p5-on-demand/h100-sxm" in text and "-0.4000 -12.50 %" in text


def test_diff_against_the_shipped_catalog(tmp_path: Path) -> None:
    _, _ = import_file(tmp_path, DATA / "rates.csv", "csv")
    result = invoke(
        "catalog", "diff", "--builtin", str(tmp_path / "catalog_imports-rates.yaml"), "--format", "json"
    )
    assert result.exit_code == 0, result.output
    diff = json.loads(result.output)
    moved = next(c for c in diff["changes"] if c["change"] == "moved")
    # The catalog's 3.90 USD against the negotiated 3.10: -0.80 USD, -0.80 / 3.90 = -20.51 %.
    assert (moved["key"], moved["usd_delta"], moved["percent"]) == ("aws/p5-on-demand/h100-sxm", -0.8, -20.51)
    assert diff["old"] == "the shipped catalog" and diff["added"] == 2
    assert invoke("catalog", "diff", "--builtin").exit_code == 2


def test_listing_commands_keep_their_command_line() -> None:
    result = invoke("catalog", "offers", "--gpu", "h200", "--format", "json")
    assert result.exit_code == 0
    assert {row["gpu"] for row in json.loads(result.output)} == {"h200"}
    assert invoke("catalog", "bogus").exit_code == 2


def test_existing_overrides_files_keep_working(tmp_path: Path) -> None:
    old_style = tmp_path / "mine.yaml"
    old_style.write_text(
        "offers:\n  - {provider: aws, offer: p5-on-demand, gpu: h100-sxm, usd_per_gpu_hour: 2.80}\n"
        "own_server: {price_usd: 240000}\nas_of: 2026-11-28\n"
    )
    knowledge, replaced = apply_overrides(
        load_knowledge(),
        read_overrides(str(old_style)),
        str(old_style),
        load_knowledge().offers.offers[0].as_of,
    )
    offer = next(o for o in knowledge.offers.offers if o.key == "aws/p5-on-demand/h100-sxm")
    assert (offer.usd_per_gpu_hour, offer.as_of.isoformat(), offer.origin.kind) == (
        2.8,
        "2026-11-28",
        "overrides",
    )
    assert say("en", replaced[0]) == "aws/p5-on-demand/h100-sxm = 2.8 USD per GPU-hour"


def test_the_text_report(tmp_path: Path) -> None:
    source = DATA / "skypilot" / "aws" / "vms.csv"
    out = tmp_path / "aws.yaml"
    result = invoke(
        "catalog", "import", str(source), "--format", "skypilot", "-o", str(out), "--as-of", "2026-11-28"
    )
    assert result.exit_code == 0
    assert result.output.splitlines()[1:] == [
        "8 rows read, 6 used: 7 offers added.",
        "1 price left out: a cheaper zone or region of the same jurisdiction has the same instance and "
        "pricing kind.",
        "1 row skipped: no GPU.",
        "1 row skipped: the catalog does not know the GPU V100 at aws.",
        "Regions the catalog does not know, added with jurisdiction unknown (never counted as EU):",
        "  aws/ap-south-1 (1 row)",
    ]


def test_diff_names_its_files_as_the_command_line_gives_them(tmp_path: Path) -> None:
    """OLD and NEW are positional: a directory given for either was blamed on --overrides."""
    for args, said in [([str(tmp_path), str(tmp_path)], "OLD"), (["--builtin", str(tmp_path)], "NEW")]:
        result = invoke("catalog", "diff", *args)
        assert (result.exit_code, result.output) == (
            2,
            f"error: {said}: {tmp_path}: cannot be read (Is a directory)\n",
        )


def test_a_provider_given_by_its_catalog_id_is_told_the_formats_name(tmp_path: Path) -> None:
    """--provider lambda for gpuhunt's lambdalabs.csv said the catalog does not know the provider lambda,
    which it does: gpuhunt names it lambdalabs. With no row used, the import writes no file."""
    out = tmp_path / "o.yaml"
    result = invoke(
        "catalog",
        "import",
        str(DATA / "gpuhunt" / "lambdalabs.csv"),
        "--format",
        "gpuhunt",
        "--provider",
        "lambda",
        "-o",
        str(out),
    )
    # No row is used: nothing is written, and the refusal says what to give.
    assert result.exit_code == 2, result.output
    assert result.output == (
        "error: --provider: no gpuhunt cloud is named 'lambda' (gpuhunt names it 'lambdalabs'); give "
        "--provider, one of: aws, azure, gcp, lambdalabs, runpod\n"
    )
    assert not out.exists()


def test_a_file_of_your_own_rates_that_names_nothing_known_writes_nothing(tmp_path: Path) -> None:
    """Every row misspelt: the import said "2 rows read, 0 used", exited 0 and wrote an overrides file
    without offers, so every rate fell back to the list price unsaid."""
    rates = tmp_path / "rates.csv"
    rates.write_text(
        "provider,offer,gpu,usd_per_gpu_hour\nawss,p5-on-demand,h100-sxm,3.10\naws,p5-on-demand,h100-sxmm,3.10\n",
        encoding="utf-8",
    )
    out = tmp_path / "o.yaml"
    result = invoke("catalog", "import", str(rates), "--format", "csv", "-o", str(out))
    assert result.exit_code == 2
    assert (
        "none of its 2 rows names an offer the catalog can price: the catalog does not know 'awss' (did "
        "you mean 'aws'?), 'h100-sxmm' (did you mean 'h100-sxm'?); no overrides file is written"
    ) in " ".join(result.output.split())
    assert not out.exists()
    # One row right: the other is skipped with what it may have meant.
    rates.write_text(
        "provider,offer,gpu,usd_per_gpu_hour\naws,p5-on-demand,h100-sxm,3.10\naws,p5-on-demand,h100-sxmm,3.10\n",
        encoding="utf-8",
    )
    result = invoke("catalog", "import", str(rates), "--format", "csv", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert (
        "1 row skipped: the catalog does not know the GPU h100-sxmm (did you mean h100-sxm?)."
        in result.output
    )
