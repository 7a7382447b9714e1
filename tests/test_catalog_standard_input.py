"""``catalog import -`` and ``catalog diff -`` read standard input, as every other command's ``-`` does: the
import names it ``<stdin>``, a vendor format (whose directory or file name says the cloud) needs
--provider, and a diff takes one side from it, not both."""

from __future__ import annotations

from pathlib import Path

import yaml
from helpers import CATALOG_IMPORTS_DIR as DATA
from helpers import invoke

RATES = (DATA / "rates.csv").read_text(encoding="utf-8")
SKYPILOT_AWS = (DATA / "skypilot" / "aws" / "vms.csv").read_text(encoding="utf-8")


def test_import_reads_the_plain_csv_from_standard_input(tmp_path: Path) -> None:
    out = tmp_path / "o.yaml"
    result = invoke(
        "catalog", "import", "--format", "csv", "-", "-o", str(out), "--as-of", "2026-12-01", stdin=RATES
    )
    assert result.exit_code == 0, result.output
    assert result.output == (
        f"Imported <stdin> (csv format), prices as of 2026-12-01, into {out}.\n"
        "4 rows read, 3 used: 2 offers added, 1 catalog offer re-priced.\n"
        "1 row skipped: the catalog does not know the GPU rtx-4000-ada.\n"
    )
    written = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert written["source"] == {"format": "csv", "file": "<stdin>"}
    assert [o["offer"] for o in written["offers"]] == ["p5-on-demand"]


def test_a_vendor_format_from_standard_input_needs_the_provider(tmp_path: Path) -> None:
    out = tmp_path / "o.yaml"
    refused = invoke("catalog", "import", "--format", "skypilot", "-", "-o", str(out), stdin=SKYPILOT_AWS)
    assert refused.exit_code == 2
    assert refused.output == (
        "error: <stdin>: standard input has no file name to take the provider from; give --provider, one "
        "of: aws, azure, gcp, lambda, runpod, vast\n"
    )
    assert not out.exists()
    given = ("--format", "skypilot", "--provider", "aws", "-", "-o", str(out))
    result = invoke("catalog", "import", *given, stdin=SKYPILOT_AWS)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Imported <stdin> (skypilot format, cloud aws = aws)")


def test_diff_takes_one_side_from_standard_input(tmp_path: Path) -> None:
    new = tmp_path / "new.yaml"
    new.write_text(
        "offers:\n  - {provider: aws, offer: p5-on-demand, gpu: h100-sxm, usd_per_gpu_hour: 3.1}\n",
        encoding="utf-8",
    )
    old = "offers:\n  - {provider: aws, offer: p5-on-demand, gpu: h100-sxm, usd_per_gpu_hour: 3.5}\n"
    result = invoke("catalog", "diff", "-", str(new), "--format", "json", stdin=old)
    assert result.exit_code == 0, result.output
    assert '"old": "-"' in result.output and '"usd_delta": -0.4' in result.output
    both = invoke("catalog", "diff", "-", "-", stdin=old)
    assert (both.exit_code, both.output) == (
        2,
        "error: OLD - NEW -: OLD and NEW cannot both come from standard input\n",
    )
    bad = invoke("catalog", "diff", "-", str(new), stdin="offers: [{provider: aws}]\n")
    assert bad.exit_code == 2
    assert bad.output.startswith("error: OLD -: invalid overrides\n")
