"""A catalog machine the load needs more of than the catalog costs (the RTX 5090 workstation, at most 2: an
office card and its spare) is named where owning is costed on the 8-GPU node instead, with how many the
load would take and how to price them (a proposal for gpu-advisor check)."""

from __future__ import annotations

import math
from typing import Any

from helpers import run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

CLAIMS: dict[str, Any] = {
    "name": "claims-triage",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 500_000,
    "avg_input_tokens": 900,
    "avg_output_tokens": 1,
    "load_pattern": "variable",
    "schedule": "workdays",
    "personal_data": True,
    "on_premises_required": True,
    "company_country": "AT",
}
SENTENCE = (
    "The catalog's RTX 5090 workstation would carry this load on 4 machines, more than the 2 it is costed "
    "for (an office machine and its spare: a load that needs more belongs in a server room), so owning is "
    "costed on the HGX H100 8-GPU; a proposal of 4 of them (`server: workstation-rtx-5090`) is priced by "
    "`gpu-advisor check`.\n"
)


def test_workstations_beyond_the_catalog_s_two_are_named_in_the_summary() -> None:
    result = run(CLAIMS)
    own = result.own_hardware
    assert result.decision.deployment == "own_hardware" and own.server == "hgx-h100-8"
    (capped,) = own.capped_servers
    assert (capped.server, capped.max_servers) == ("workstation-rtx-5090", 2)
    # One card a machine: the machines are the RTX 5090 plan's cards.
    plan = next(s for s in result.sizing.gpus if s.gpu == "rtx-5090")
    assert capped.machines_needed == math.ceil(plan.gpus_total / 1) == 4
    summary = render_memo(result).split("## Why")[0]
    assert SENTENCE in summary
    german = render_memo(result, Format.named("de"))
    assert "Die RTX-5090-Workstation des Katalogs trüge diese Last auf 4 Maschinen, mehr als die 2" in german


def test_a_load_two_workstations_carry_is_costed_on_them_and_names_none() -> None:
    result = run({**CLAIMS, "requests_per_day": 100_000})
    assert result.own_hardware.server == "workstation-rtx-5090"
    assert result.own_hardware.capped_servers == ()
    assert "would carry this load on" not in render_memo(result)


def test_a_workstation_a_rule_keeps_out_is_not_said_to_be_capped() -> None:
    # Business-critical: TCO018 excludes office machines whatever their count, and says so itself.
    result = run({**CLAIMS, "business_critical": True})
    assert "TCO018" in result.fired_rules
    assert result.own_hardware.capped_servers == ()
    assert "would carry this load on" not in render_memo(result)
