"""A proposal that names an offer the catalog does not have: KNB004 lists the provider's offers of the
proposed GPU, so that a misspelt name is found and the proposal can be priced."""

from __future__ import annotations

import datetime as dt
from typing import Any

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.i18n.formats import Format

AS_OF = dt.date(2026, 12, 3)

WORKLOAD = {"name": "x", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 20_000}
PROPOSAL = {"deployment": "dedicated_cloud", "provider": "scaleway", "gpu": "l40s", "gpus": 2}


def knb004(proposal: dict[str, Any], lang: str = "en") -> Any:
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": proposal})
    result = check_document(document, "p.yaml", 1, AS_OF, fmt=Format.named(lang))
    return next(item for item in result.results if item.rule_id == "KNB004")


def test_a_misspelt_offer_is_shown_the_offers_the_provider_lists_for_its_gpu() -> None:
    found = knb004({**PROPOSAL, "offer": "l40s-48gb"})
    assert found.status == "warn"
    assert found.message == (
        "scaleway has no catalog offer for l40s under that name, so its price and date cannot be checked, "
        "and its cost is not known: the checks of its cost are left out or cannot tell. The catalog lists "
        "scaleway's l40s as 'l40s-48g': name it to have the proposal priced."
    )
    assert knb004({**PROPOSAL, "offer": "l40s-48gb"}, "de").message.endswith(
        "Der Katalog führt l40s von scaleway als „l40s-48g“: Nennen Sie dieses, damit der Vorschlag bepreist "
        "wird."
    )
    # Several offers: each named. The right name passes.
    several = knb004({**PROPOSAL, "gpu": "h100-sxm", "offer": "h100-sxm-80g"})
    assert "The catalog lists scaleway's h100-sxm as 'h100-sxm-2-80g', 'h100-sxm-4-80g', " in several.message
    assert several.message.endswith(": name one of them to have the proposal priced.")
    assert knb004({**PROPOSAL, "offer": "l40s-48g"}).status == "pass"


def test_a_proposal_naming_no_offer_of_a_provider_with_several_is_told_so() -> None:
    """Lambda lists its H100 as four offers, one an instance size each: the message says no offer was
    named (not "under that name") and quotes each listed name (not the documents' 'on-demand' figure its
    own list replaces), so a name is not read as a pricing kind."""
    found = knb004({**PROPOSAL, "provider": "lambda", "gpu": "h100-sxm", "pricing": "on_demand"})
    assert found.message == (
        "The proposal names no offer of lambda, so its price and date cannot be checked, and its cost is not "
        "known: the checks of its cost are left out or cannot tell. The catalog lists lambda's h100-sxm as "
        "'1-gpu-plan', '2-gpu-plan', '4-gpu-plan', '8-gpu-plan': name one of them to have the proposal "
        "priced."
    )
