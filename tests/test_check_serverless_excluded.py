"""A serverless proposal is held to the exclusions the recommendation applies to its serverless options
(DEP045): a business-critical bank's RunPod Serverless in RunPod's EU data centres passed ``check``
(9 passed, 2 warnings), where ``recommend`` shows that option excluded by PRV003 (and ORG003 under the
example policy), because the SLA and policy checks of a proposal read rentals only."""

from __future__ import annotations

from pathlib import Path

from helpers import EU_BANK, EVALUATED_ON, run

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

POLICY = str(Path(__file__).resolve().parent.parent / "examples" / "org-policy")
RUNPOD_EU = {
    "name": "bank on runpod serverless",
    "deployment": "serverless",
    "provider": "runpod",
    "offer": "serverless",
    "gpu": "h200",
    "pricing": "serverless",
    "region": "eu-datacenters",
}


def dep045(workload: dict, proposal: dict, policy: str | None = None):
    document = ProposalDocument.model_validate({"workload": workload, "proposal": proposal})
    result = check_document(document, "proposal.yaml", 1, EVALUATED_ON, policy_dir=policy)
    return next(item for item in result.results if item.rule_id == "DEP045")


def test_a_serverless_product_the_recommendation_excludes_fails_naming_the_rules() -> None:
    (option,) = [
        o
        for o in run(EU_BANK).options
        if (o.provider, o.offer, o.gpu, o.regions) == ("runpod", "serverless", "h200", ("eu-datacenters",))
    ]
    assert option.excluded_by == ("PRV003",)
    item = dep045(EU_BANK, RUNPOD_EU)
    assert item.status == "fail"
    assert item.message == (
        "RunPod Serverless (eu-datacenters, h200) is excluded for this workload, as in the recommendation's "
        "options; the rules that exclude it: PRV003 (Business-critical: enterprise SLA required)."
    )


def test_the_company_policy_excluding_the_provider_is_named_beside_the_sla() -> None:
    item = dep045(EU_BANK, RUNPOD_EU, POLICY)
    assert item.status == "fail"
    assert item.message.endswith(
        "the rules that exclude it: PRV003 (Business-critical: enterprise SLA required); "
        "ORG003 (Company policy: approved providers only)."
    )


def test_the_same_product_passes_where_the_rules_admit_it() -> None:
    # Not business-critical: RunPod's missing enterprise SLA excludes nothing.
    assert dep045({**EU_BANK, "business_critical": False}, RUNPOD_EU).status == "pass"


def test_a_proposal_naming_no_region_fails_only_where_every_region_is_excluded() -> None:
    anywhere = {key: value for key, value in RUNPOD_EU.items() if key != "region"}
    item = dep045(EU_BANK, anywhere)
    assert item.status == "fail"
    # Its variable (worldwide) region by GDPR's residency rule as well, both by the missing SLA.
    assert item.message == (
        "RunPod Serverless (variable, h200); RunPod Serverless (eu-datacenters, h200) are excluded for this "
        "workload, as in the recommendation's options; the rules that exclude them: RES001 (GDPR: "
        "gpu-advisor "
        "keeps personal data of people in the EU/EEA in EU regions); PRV003 (Business-critical: enterprise "
        "SLA "
        "required)."
    )


def test_a_region_the_rules_admit_keeps_the_product_standing() -> None:
    # Personal data but not business-critical: the variable region is excluded (RES001), the EU one is
    # not, so a proposal naming no region may run in the admitted one.
    anywhere = {key: value for key, value in RUNPOD_EU.items() if key != "region"}
    assert dep045({**EU_BANK, "business_critical": False}, anywhere).status == "pass"


def test_a_region_named_by_its_jurisdiction_is_held_to_the_same_exclusions() -> None:
    # region: EU names no RunPod region but the jurisdiction of its EU data centres.
    item = dep045(EU_BANK, {**RUNPOD_EU, "region": "EU"})
    assert item.status == "fail"
    assert item.message.startswith("RunPod Serverless (eu-datacenters, h200) is excluded for this workload")


def test_a_gpu_the_recommendation_did_not_weigh_is_held_to_the_products_exclusions() -> None:
    # A replica of the 70B model needs two A100s; RunPod's priced workers have one, so the recommendation
    # weighed no A100 option. The SLA excludes the product in the region on every GPU it weighed.
    item = dep045(EU_BANK, {**RUNPOD_EU, "gpu": "a100-80gb"})
    assert item.status == "fail"
    assert item.message == (
        "RunPod Serverless (eu-datacenters) is excluded for this workload, as in the recommendation's "
        "options; the rules that exclude it: PRV003 (Business-critical: enterprise SLA required)."
    )
    assert dep045({**EU_BANK, "business_critical": False}, {**RUNPOD_EU, "gpu": "a100-80gb"}).status == "pass"
