"""A serverless proposal is priced as ``recommend`` prices its product for the workload: ``check`` said
nothing of its cost, so a managed endpoint ruled out by a rule of thumb showed no price beside the
recommendation's (a team without DevOps, Hugging Face's EU endpoint at $5,211 against bare VMs at
$6,082, both then priced for the workdays' hours alone)."""

from __future__ import annotations

import pytest
import yaml
from helpers import EVALUATED_ON, invoke, run
from test_unreachable_target_memo import CHAT_8B

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

WORKLOAD = {
    "name": "de-contracts-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 150_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 400,
    "load_pattern": "steady",
    "schedule": "workdays",
    "personal_data": True,
    "devops_capacity": False,
    "company_country": "DE",
}
ENDPOINT = {
    "name": "managed endpoint",
    "deployment": "serverless",
    "provider": "huggingface",
    "offer": "inference-endpoints",
    "gpu": "h200",
    "pricing": "serverless",
    "region": "EU",
}
ENDPOINT_ROW = ("huggingface", "inference-endpoints", "h200", "EU")


def checked(proposal: dict):
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": proposal})
    return check_document(document, "endpoint.yaml", 1, EVALUATED_ON)


def test_a_serverless_proposal_costs_what_recommend_prices_its_product_at() -> None:
    options = run(WORKLOAD).options
    (eu,) = [o for o in options if (o.provider, o.offer, o.gpu, o.jurisdiction) == ENDPOINT_ROW]
    result = checked(ENDPOINT)
    # check states a cost to the cent.
    assert result.usd_per_month == round(eu.usd_per_month, 2)
    # The team has no DevOps capacity to change the endpoint's minimum on the schedule (PRC035): the two
    # kept instances run all 730 hours of the month, no daily restarts, and 512.05 instance-hours more run
    # beyond them in the busier served hours, at $5.00. (Paused at each day's end, it cost $5,212: 528
    # kept hours and 22 restarts of each kept instance.) Its cold start: the endpoint's 120 s start, the
    # FP8 checkpoint's 72.65 GB (68.45B parameters at 1 byte, the 16-bit embedding and lm_head's 2.10B
    # at 2 bytes) read at 2.5 GB/s, 29.06 s, and vLLM's 21.8 s start: 170.86 s.
    cold = 120 + 72.651346 / 2.5 + 21.8
    assert eu.serverless is not None and eu.serverless.cold_start_seconds == pytest.approx(cold)
    assert round(cold, 2) == 170.86
    assert eu.serverless.kept_restarts_per_month == 0
    assert eu.usd_per_month == pytest.approx((2 * 730 + 512.05) * 5.00)
    assert round(eu.usd_per_month) == 9_860
    # The bare VMs, kept every hour too (PRC034): $6,082 for the workdays' hours before.
    assert result.recommendation is not None and round(result.recommendation.usd_per_month) == 16_817


def test_a_serverless_product_the_catalog_does_not_sell_has_no_price() -> None:
    assert checked({**ENDPOINT, "gpu": "b200"}).usd_per_month is None


def status_of(result, rule_id: str) -> str | None:
    return next((item.status for item in result.results if item.rule_id == rule_id), None)


def test_a_serverless_product_its_provider_does_not_sell_is_named_unknown() -> None:
    unknown = checked({**ENDPOINT, "offer": "turbo"})
    assert status_of(unknown, "KNB009") == "warn"
    (item,) = [i for i in unknown.results if i.rule_id == "KNB009"]
    assert item.message.startswith("huggingface has no serverless product in the catalog named turbo, so")
    assert unknown.usd_per_month is None
    # A provider that sells none at all, named without an offer.
    aws = checked({**ENDPOINT, "provider": "aws", "offer": None, "region": None})
    (item,) = [i for i in aws.results if i.rule_id == "KNB009"]
    assert item.message.startswith("aws has no serverless product in the catalog at all, so")
    # The product the provider sells: the check applies and passes.
    assert status_of(checked(ENDPOINT), "KNB009") == "pass"


def test_dep033_and_the_proposed_line_round_the_same_cents() -> None:
    """Three Modal H100 for an 8B chat at 100,000 requests a day: the proposal's month is $17,297.4999...,
    $17,297.50 to the cent. DEP033 rounded the raw figure down ($17,297) where the "proposed:" line rounded
    the cents up ($17,298); both now read the cents."""
    chat = CHAT_8B
    proposal = {"deployment": "serverless", "provider": "modal", "gpu": "h100-sxm", "gpus": 3}
    document = ProposalDocument.model_validate({"workload": chat, "proposal": proposal})
    result = check_document(document, "modal.yaml", 1, EVALUATED_ON)
    assert result.usd_per_month == 17297.5
    (dep033,) = [c for c in result.results if c.rule_id == "DEP033"]
    # The recommendation: 2 RTX 5090 at RunPod's community cloud at $1,007.40 a month, $16,290.10 below
    # the proposal (RunPod's serverless L4, $995.55 while its decode steps read at 0.87 of the bandwidth,
    # now bills $1,016.36).
    rec = result.recommendation
    assert rec is not None
    assert (rec.provider, rec.gpu, rec.gpus, rec.usd_per_month) == ("runpod", "rtx-5090", 2, 1007.4)
    assert dep033.message.startswith(
        "The proposal costs $17,298/month, 17.2 times the recommendation's $1,007/month ($16,290 more"
    )
    text = invoke("check", "-", stdin=yaml.safe_dump({"workload": chat, "proposal": proposal})).stdout
    assert "  proposed: $17,298 per month (+$16,290)\n" in text
