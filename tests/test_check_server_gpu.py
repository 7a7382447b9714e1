"""A proposal's server and GPU must agree, and a bought GPU without a catalog server is not said to
leave servers idle: an HGX H100 named with MI300X cards was priced as the H100 box and sized on the
MI300X, and MI300X cards bought on "0 servers of 0" were warned as an idle server (TCO027)."""

from __future__ import annotations

from pathlib import Path

import yaml
from helpers import invoke

WORKLOAD = {
    "name": "llama70-mi300x",
    "model": {"name": "llama-3.1-70b", "precision": "bf16"},
    "requests_per_day": 250_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "context_tokens": 32768,
    "load_pattern": "steady",
    "company_country": "US",
    "serving_engine": "sglang",
}


def check(tmp_path: Path, proposal: dict[str, object], *args: str) -> tuple[int, str]:
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": WORKLOAD, "proposal": proposal}), encoding="utf-8")
    result = invoke("check", str(path), *args)
    return result.exit_code, result.output + result.stderr


def test_a_server_that_does_not_hold_the_gpu_is_refused(tmp_path: Path) -> None:
    proposal = {"name": "x", "deployment": "own_hardware", "server": "hgx-h100-8", "gpu": "mi300x", "gpus": 8}
    code, text = check(tmp_path, proposal)
    assert code == 2
    assert (
        "proposal.gpu: mi300x, but the server hgx-h100-8 holds h100-sxm: name the server's GPU, or a server "
        "that holds mi300x"
    ) in text
    code, german = check(tmp_path, proposal, "--lang", "de")
    assert "proposal.gpu: mi300x, aber der Server hgx-h100-8 enthält h100-sxm" in german
    # The server's own GPU is checked (a warning: the deployment differs from the recommendation's).
    code, text = check(tmp_path, {**proposal, "gpu": "h100-sxm"})
    assert code == 0 and "#1 x: WARN" in text


def test_no_idle_server_warning_without_a_catalog_server(tmp_path: Path) -> None:
    proposal = {"name": "own mi300x", "deployment": "own_hardware", "gpu": "mi300x", "gpus": 8, "servers": 1}
    code, text = check(tmp_path, proposal, "--show-all")
    # The check ran (DEP016 warns that the deployment differs from the recommendation's) ...
    assert code == 0 and "WARN    DEP016" in text
    # ... and TCO027 did not apply: no server count is known without a catalog server of the GPU.
    assert "TCO027" not in text and "0 servers of 0" not in text
    # The header says why the proposal has no price (no check below does).
    assert (
        "  proposed: not priced: the catalog prices no server of mi300x (gpu-advisor tco --gpu mi300x "
        "--server-price USD works out an owned card-hour at a quoted price)\n"
    ) in text
    _, data = check(tmp_path, proposal, "--format", "json")
    assert '"unpriced": "no_server"' in data
