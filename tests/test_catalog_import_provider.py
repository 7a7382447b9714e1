"""The cloud a SkyPilot or gpuhunt file lists comes from --provider, else from the file's directory or
name. A name the format does not use is refused before any row is read, saying where it came from and
which names the format uses: a vms.csv saved in Downloads/ said only "the catalog does not know
'Downloads'", and --provider nope listed nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import CATALOG_IMPORTS_DIR as DATA
from helpers import invoke

SKYPILOT = "aws, azure, gcp, lambda, runpod, vast"
GPUHUNT = "aws, azure, gcp, lambdalabs, runpod"


def imported(source: Path, fmt: str, out: Path, *extra: str) -> tuple[int, str]:
    result = invoke("catalog", "import", str(source), "--format", fmt, "-o", str(out), *extra)
    return result.exit_code, result.output


def test_a_directory_name_that_is_no_cloud_says_it_was_taken_from_the_directory(tmp_path: Path) -> None:
    source = tmp_path / "Downloads" / "vms.csv"
    source.parent.mkdir()
    shutil.copy(DATA / "skypilot" / "aws" / "vms.csv", source)
    out = tmp_path / "o.yaml"
    assert imported(source, "skypilot", out) == (
        2,
        f"error: {source}: no skypilot cloud is named 'Downloads' (taken from the directory name); give "
        f"--provider, one of: {SKYPILOT}\n",
    )
    assert not out.exists()
    code, output = imported(source, "skypilot", out, "--provider", "aws")
    assert code == 0, output
    assert output.startswith("Imported vms.csv (skypilot format, cloud aws = aws)")


def test_a_file_name_that_is_no_cloud_says_it_was_taken_from_the_file_name(tmp_path: Path) -> None:
    source = tmp_path / "rates.csv"
    shutil.copy(DATA / "gpuhunt" / "lambdalabs.csv", source)
    assert imported(source, "gpuhunt", tmp_path / "o.yaml") == (
        2,
        f"error: {source}: no gpuhunt cloud is named 'rates' (taken from the file name); give --provider, "
        f"one of: {GPUHUNT}\n",
    )


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("nope", f"no skypilot cloud is named 'nope'; give --provider, one of: {SKYPILOT}"),
        (
            "aWs",
            f"no skypilot cloud is named 'aWs' (did you mean 'aws'?); give --provider, one of: {SKYPILOT}",
        ),
    ],
)
def test_a_provider_the_format_does_not_use_lists_those_it_does(
    tmp_path: Path, given: str, said: str
) -> None:
    source = DATA / "skypilot" / "aws" / "vms.csv"
    assert imported(source, "skypilot", tmp_path / "o.yaml", "--provider", given) == (
        2,
        f"error: --provider: {said}\n",
    )
