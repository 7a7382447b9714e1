"""TCO021 names no reason the workload does not have: office machines are kept out for a service answered
around the clock (TCO023) as for a business-critical one (TCO018, TCO019)."""

from __future__ import annotations

from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

WORKLOAD = {"name": "w", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 50_000}
WORKSTATIONS = {"deployment": "own_hardware", "server": "workstation-rtx-5090", "servers": 2}


def test_office_machines_for_a_service_around_the_clock_fail_without_calling_it_critical() -> None:
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": WORKSTATIONS})
    result = check_document(document, "office.yaml", 1, EVALUATED_ON)
    item = next(i for i in result.results if i.rule_id == "TCO021")
    assert item.status == "fail"
    assert item.message == (
        "The proposal buys office machines for a workload whose own hardware the rules keep out of an "
        "office, for its criticality or because it is served around the clock (an office machine has no "
        "redundant power or network, no one on call and no service commitment), and cost in a datacenter "
        "or the company's server room; see gpu-advisor recommend for the rule and the server it is costed "
        "on."
    )


def test_office_machines_in_office_hours_pass() -> None:
    workload = {**WORKLOAD, "schedule": "office_hours"}
    document = ProposalDocument.model_validate({"workload": workload, "proposal": WORKSTATIONS})
    result = check_document(document, "office.yaml", 1, EVALUATED_ON)
    assert next(i for i in result.results if i.rule_id == "TCO021").status == "pass"
