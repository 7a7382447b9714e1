"""Inputs and helpers shared by the tests of `gpu-advisor batch` (test_batch.py, test_batch_inputs.py)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from gpu_advisor.cli import main

AS_OF = "2026-11-30"
CSV_HEADER = "name,model.name,model.params_b,model.precision,requests_per_day,personal_data,load_pattern\n"
# Line 4 (the third workload) names a precision that does not exist.
CSV_INPUT = (
    CSV_HEADER
    + "public-chat,llama-3.1-70b,,fp8,1000000,false,steady\n"
    + "prototype,,8,bf16,500,,\n"
    + "typo,llama-3.1-70b,,fp9,1000,,\n"
    + "hr,llama-3.1-70b,,fp8,40000,yes,variable\n"
)
GOOD = {"name": "small", "model": {"params_b": 8, "precision": "bf16"}, "requests_per_day": 500}
# Own weights: no model API may serve them, so the decision is a rental.
BIG = {
    "name": "big",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 1_000_000,
}
JSONL_INPUT = "\n".join(
    [json.dumps(GOOD), json.dumps(BIG), '{"name": "broken", ', "", json.dumps({**GOOD, "name": "last"})]
)
YAML_INPUT = """\
- name: small
  model: {params_b: 8, precision: bf16}
  requests_per_day: 500
- name: quoted-number
  model: {params_b: 8, precision: bf16}
  requests_per_day: "500"
- name: big
  model: {name: llama-3.1-70b, precision: fp8}
  requests_per_day: 1000000
"""


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["batch", *args, "--as-of", AS_OF], input=stdin)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def jsonl(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def csv_rows(output: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(output)))
