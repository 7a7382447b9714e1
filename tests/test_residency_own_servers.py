"""RES001 keeps a workload's EU personal data in EU regions and excludes Swiss, UK and US locations; a
Swiss company's own servers are no such location: processing the data on servers of its own discloses it
to no other controller or processor, which a transfer under the GDPR's Chapter V takes (EDPB Guidelines
05/2021). The memo says so where it recommends own hardware outside the EU, so that a data-protection
officer does not read the exclusion and the decision as a contradiction."""

from __future__ import annotations

from typing import Any

from helpers import run

SHOP: dict[str, Any] = {
    "name": "shop-chat",
    "model": {"name": "qwen2.5-32b", "precision": "bf16", "custom_weights": True},
    # Four owned servers ($44,856), which keep the peak through the loss of one, undercut renting; at
    # 600,000 a day three ($33,642) did not undercut Scaleway's surviving rental ($33,634).
    "requests_per_day": 1_200_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 200,
    "load_pattern": "variable",
    "max_time_to_first_token_ms": 800,
    "personal_data": True,
    "personal_data_region": "eu",
    "business_critical": True,
    "company_country": "CH",
}
OWN_SERVERS = (
    "Own hardware is no such location where the data come to the company directly from the people or from "
    "within it: the company is established in CH, and processing the data on servers of its own (in its "
    "premises, or in a colocation without access to the data) discloses them to no other controller or "
    "processor, which a transfer under Chapter V takes (EDPB Guidelines 05/2021); data an EU entity sends "
    "it, and a rental or a hosted API there, would be. The GDPR's other duties still apply, the risks of "
    "the country's law among them."
)


def res001(workload: dict[str, Any]) -> tuple[Any, str]:
    result = run(workload)
    (finding,) = [f for f in result.findings if f.rule_id == "RES001"]
    return result, " ".join(finding.message.split())


def test_a_swiss_company_s_own_servers_are_no_transfer() -> None:
    result, message = res001(SHOP)
    assert result.decision.deployment == "own_hardware"
    assert message.endswith(
        "US, UK, Swiss and unknown locations are excluded, and so are managed APIs hosted outside the EU. "
        + OWN_SERVERS
    )


def test_a_company_in_the_eu_needs_no_such_sentence() -> None:
    _, message = res001({**SHOP, "company_country": "DE"})
    assert "Own hardware is no such location" not in message
    assert message.endswith("and so are managed APIs hosted outside the EU.")
