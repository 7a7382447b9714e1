"""Where no rental serves the workload (DEP009), self-hosting it means buying, and the cards the load
leaves idle on the bought node are the cost (TCO026), said in the summary as in the building (TCO020)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

CLAIMS = {
    "name": "claims-summary-ch",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 12_000,
    "avg_input_tokens": 4_000,
    "avg_output_tokens": 600,
    "load_pattern": "steady",
    "schedule": "workdays",
    "personal_data": True,
    "personal_data_region": "ch",
    "company_country": "CH",
}
SWISS_ONLY = """\
schema_version: 1
family: ORG
rules:
  - id: ORG101
    name: switzerland-only
    topic: residency
    severity: critical
    fact: workload
    when: []
    then:
      exclude_options:
        - {field: jurisdiction, not_in: [CH]}
    title: "Company policy: Swiss data centres only"
    message: Company policy keeps customer data in Switzerland.
    rationale: The insurer's customer contracts.
    source: {document: cloud-gpu-costs-2026, section: "DACH-Perspektive: Datenschutz und GPU-Souveränität"}
"""


def test_the_idle_cards_of_a_node_bought_for_want_of_a_rental_are_said(tmp_path: Path) -> None:
    (tmp_path / "ch-only.yaml").write_text(SWISS_ONLY, encoding="utf-8")
    result = recommend(validate_workload(CLAIMS, "test"), dt.date(2026, 12, 5), policy_dir=str(tmp_path))
    assert result.decision.deployment == "own_hardware"
    assert {"DEP009", "TCO026"} <= set(result.fired_rules) and "TCO020" not in result.fired_rules
    assert (result.own_hardware.gpus_needed, result.own_hardware.gpus_per_server) == (2, 8)
    memo = render_memo(result)
    assert (
        "The load needs 2 of the 8 cards bought: the catalog prices this GPU only as the HGX H100 8-GPU; a "
        "server with fewer cards would idle less (ask for its price; TCO026).\n"
    ) in memo
    (finding,) = [f for f in result.findings if f.rule_id == "TCO026"]
    assert finding.message.startswith(
        "No rental in the catalog serves the workload under its constraints, so self-hosting it means "
        "buying: it needs 2 cards, bought as 1 node of 8 (8 cards), and the 6 idle cards are paid for all "
        "the same."
    )


def test_without_the_policy_a_rental_serves_it_and_the_rule_is_silent() -> None:
    result = recommend(validate_workload(CLAIMS, "test"), dt.date(2026, 12, 5))
    assert "DEP009" not in result.fired_rules and "TCO026" not in result.fired_rules
