"""An own server the catalog does not price (``added_servers`` in an overrides file): an Austrian agency's
70B chatbot that must stay on premises needs two cards, and was costed on the catalog's only datacenter
server, an 8-GPU HGX H100 ($285,000), with no way to enter the quote for a smaller machine TCO020 told
it to ask for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import EVALUATED_ON, run

from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
from gpu_advisor.engine.common.errors import InputError

AGENCY: dict[str, Any] = {
    "name": "at-buergerservice",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 15_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "latency_sensitive": True,
    "personal_data": True,
    "on_premises_required": True,
    "company_country": "AT",
}
QUOTE = {
    "id": "nvl-2",
    "name": "2 x H100 NVL server",
    "gpu": "h100-nvl",
    "gpus_per_server": 2,
    "max_servers": 4,
    "price_usd": 72_000,
    "gpu_watts": 400,
    "as_of": "2026-11-20",
}


def with_servers(tmp_path: Path, *servers: dict[str, Any]) -> Any:
    path = tmp_path / "quote.yaml"
    path.write_text(yaml.safe_dump({"added_servers": list(servers)}), encoding="utf-8")
    return knowledge_with_overrides(str(path), EVALUATED_ON)


def test_the_quote_is_costed_where_its_gpu_carries_the_load(tmp_path: Path) -> None:
    catalog = run(AGENCY)
    assert (catalog.decision.deployment, catalog.own_hardware.server_name) == (
        "own_hardware",
        "HGX H100 8-GPU",
    )
    knowledge = with_servers(tmp_path, QUOTE)
    added = knowledge.own_hardware.servers[0]
    assert (added.id, added.default, added.price_usd_low, added.price_usd_high) == (
        "nvl-2",
        False,
        72_000,
        72_000,
    )
    # Write-off months, power overhead and rack line are the default server's.
    default = knowledge.own_server()
    assert (added.months, added.power_overhead_factor, added.rack_usd_per_month) == (
        default.months,
        default.power_overhead_factor,
        default.rack_usd_per_month,
    )
    result = run(AGENCY, knowledge=knowledge)
    own = result.own_hardware
    assert (result.decision.deployment, own.server_name, own.nodes, own.gpus_per_server) == (
        "own_hardware",
        "2 x H100 NVL server",
        1,
        2,
    )
    # The capital line: 72,000 USD over the default's 36 months.
    assert own.usd_per_month < catalog.own_hardware.usd_per_month
    assert own.capital_usd_per_month == pytest.approx(72_000 / 36)


def test_a_load_beyond_its_max_servers_takes_the_catalogs_server(tmp_path: Path) -> None:
    knowledge = with_servers(tmp_path, {**QUOTE, "max_servers": 1})
    busy = run({**AGENCY, "requests_per_day": 1_500_000}, knowledge=knowledge)
    assert busy.own_hardware.server_name == "HGX H100 8-GPU"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"id": "hgx-h100-8"}, "a server of this id exists already"),
        ({"gpu": "h100-sxm5"}, "unknown value 'h100-sxm5'"),
        ({"price_eur": 60_000}, "give price_usd or price_eur, one of them"),
    ],
)
def test_a_bad_server_is_refused_naming_it(tmp_path: Path, change: dict[str, Any], problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        with_servers(tmp_path, {**QUOTE, **change})


def test_a_price_in_eur_is_converted_at_the_catalogs_rate(tmp_path: Path) -> None:
    quote = {key: value for key, value in QUOTE.items() if key != "price_usd"}
    knowledge = with_servers(tmp_path, {**quote, "price_eur": 62_000})
    assert knowledge.own_hardware.servers[0].price_usd == pytest.approx(62_000 * knowledge.eur_to_usd().rate)
