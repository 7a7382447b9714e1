"""The spot checks of a service (PRC029, PRC030, PRC007) name the provider whose spot capacity the
proposal rents: a business-critical mixed fleet reserved at AWS with its busier hours on Google Cloud spot
was told of AWS's 120 seconds' notice and AWS's offers without spot. The offers named are those billed by
the hour in the base's jurisdiction, as a mix is priced (Google's europe-west4 H100 pairs with no base in
us-east-1)."""

from __future__ import annotations

from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

WORKLOAD = {
    "name": "nls-ondemand",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 1_500_000,
    "load_pattern": "variable",
    "company_country": "US",
    "latency_sensitive": False,
    "business_critical": True,
}
HYBRID = {
    "name": "hybrid spot peak",
    "deployment": "hybrid",
    "provider": "aws",
    "offer": "p5-reserved-3y-2026-09",
    "gpu": "h100-sxm",
    "gpus": 16,
    "base_gpus": 8,
    "pricing": "reserved",
    "region": "us-east-1",
    "peak_provider": "gcp",
    "peak_offer": "a3-high-spot",
}


def result(workload: dict[str, object], rule: str) -> tuple[str, str | None]:
    document = ProposalDocument.model_validate({"workload": workload, "proposal": HYBRID})
    (item,) = [i for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results if i.rule_id == rule]
    return item.status, item.message


def test_a_spot_peak_is_named_with_its_own_provider() -> None:
    status, message = result(WORKLOAD, "PRC030")
    assert status == "fail"
    assert message == (
        "The proposal rents spot capacity for a business-critical service: spot instances can be withdrawn "
        "at short notice (Google Cloud: at most 30 seconds) and all at once when capacity runs short, and no "
        "spot offer comes with a promise of capacity or an enterprise SLA. gcp also lists h100-sxm without "
        "spot where the workload may run: a3-high-on-demand-2026-07."
    )


def test_a_spot_peak_of_a_service_nobody_depends_on_is_warned() -> None:
    status, message = result({**WORKLOAD, "business_critical": False}, "PRC029")
    assert status == "warn"
    assert message is not None and "(Google Cloud: at most 30 seconds)" in message


def test_a_hybrid_that_names_no_base_offer_is_told_the_offers_in_its_regions_jurisdiction() -> None:
    """The base named by its provider and region alone (us-east-1): the offers without spot named are still
    those in the US, not Google's europe-west4."""
    hybrid = {key: value for key, value in HYBRID.items() if key != "offer"}
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": hybrid})
    (item,) = [
        i for i in check_document(document, "p.yaml", 1, EVALUATED_ON).results if i.rule_id == "PRC030"
    ]
    assert item.message is not None
    assert item.message.endswith(
        "gcp also lists h100-sxm without spot where the workload may run: a3-high-on-demand-2026-07."
    )
