"""A provider's own newer list price replaces a third party's older figure of the same offer (KNB010,
KNB011). The documents' March 2026 figures for AWS P5 on demand (3.90 USD per GPU-hour) and Google Cloud
A3 High on demand (3.00 USD) stood beside AWS's own us-east-1 list of 2026-09-19 (6.88 USD) and Google's
us-central1 list of 2026-07-30 (11.06 USD), and every comparison took the cheaper, older figure: a
business-critical service whose SLA rules leave the hyperscalers was priced at a rate AWS does not
charge."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import EXAMPLES_DIR, run
from test_check_peak import HYBRID, WORKLOAD
from test_owned_multi_node import UNIVERSITY

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.workload import validate_workload

AS_OF = dt.date(2026, 11, 30)
# A business-critical service on the company's approved providers (AWS, Google Cloud, Azure, OVHcloud:
# examples/org-policy/approved-providers.yaml); reservations are not for a model that is not stable
# (PRC004). Two 2-card replicas on machines of their own (SIZ015) need two 8-card instances.
CRITICAL: dict[str, Any] = {
    "name": "critical-chat",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 300_000,
    # A 32k context: one H100 NVL (94 GB) then holds too little KV cache beside the 70 GB of weights for a
    # light load's two full-context sequences, so Azure's single-card NC H100 v5 does not carry the load.
    "context_tokens": 32_768,
    "load_pattern": "steady",
    "business_critical": True,
    "model_stable": False,
    "company_country": "US",
}


@pytest.fixture
def approved_providers(tmp_path: Path) -> str:
    shutil.copy(EXAMPLES_DIR / "org-policy" / "approved-providers.yaml", tmp_path)
    return str(tmp_path)


KNB010_EXCLUDED = (
    "The catalog keeps figures the documents quote beside the providers' own newer list prices of the "
    "same GPU, pricing and instances; the provider no longer charges the older figure, so it is "
    "excluded: aws p5-on-demand at $3.90 (2026-03-27), where p5-on-demand-2026-09 lists $6.88 "
    "(2026-09-19); aws p5-reserved-1y at $2.10 (2026-03-27), where p5-reserved-1y-2026-09 lists $4.33 "
    "(2026-09-25); aws p5-reserved-3y at $1.90 (2026-03-27), where p5-reserved-3y-2026-09 lists $2.97 "
    "(2026-09-25); gcp a3-high-on-demand at $3.00 (2026-03-27), where a3-high-on-demand-2026-07 lists "
    "$11.06 (2026-07-30); lambda on-demand at $2.99 (2026-03-27), where 1-gpu-plan lists $4.29 "
    "(2026-09-20), 2-gpu-plan lists $4.19 (2026-09-20) and 4-gpu-plan lists $4.09 (2026-09-20)"
)
"""KNB010's message on the catalog's superseded prices, but for how it ends (with VAT, the note on it)."""


def test_the_catalog_names_each_superseded_price_with_the_one_that_replaces_it() -> None:
    pairs = [
        (old.key, [(new.key, new.usd_per_gpu_hour) for new in newer])
        for old, newer in load_knowledge().superseded_offers()
    ]
    assert pairs == [
        ("aws/p5-on-demand/h100-sxm", [("aws/p5-on-demand-2026-09/h100-sxm", 6.88)]),
        ("aws/p5-reserved-1y/h100-sxm", [("aws/p5-reserved-1y-2026-09/h100-sxm", 4.3344)]),
        ("aws/p5-reserved-3y/h100-sxm", [("aws/p5-reserved-3y-2026-09/h100-sxm", 2.97216)]),
        ("gcp/a3-high-on-demand/h100-sxm", [("gcp/a3-high-on-demand-2026-07/h100-sxm", 11.06125)]),
        # The documents' Lambda range, which names no size, against Lambda's own price of each size it
        # stood for.
        (
            "lambda/on-demand/h100-sxm",
            [
                ("lambda/1-gpu-plan/h100-sxm", 4.29),
                ("lambda/2-gpu-plan/h100-sxm", 4.19),
                ("lambda/4-gpu-plan/h100-sxm", 4.09),
            ],
        ),
    ]


def test_a_proposal_on_an_older_row_of_several_sizes_is_priced_at_the_size_its_replicas_need() -> None:
    """Lambda's March figure stood for its 1-, 2- and 4-GPU instances: a replica of 2 cards is priced on
    the 2-GPU instance, one of 4 on the 4-GPU one, one of 1 on the single card (the smallest size that
    holds it, so no card is billed that the proposal does not use)."""
    knowledge = load_knowledge()
    old = knowledge.offer("lambda", "on-demand", "h100-sxm")
    assert old is not None
    assert [knowledge.current(old, cards).offer for cards in (1, 2, 3, 4)] == [
        "1-gpu-plan",
        "2-gpu-plan",
        "4-gpu-plan",
        "4-gpu-plan",
    ]


def test_a_superseded_price_is_excluded_and_the_providers_own_is_priced(approved_providers: str) -> None:
    """The decision was Google's A3 at the documents' $3.00: 16 cards x $3.00 x 730 h = $35,040 a month,
    a price Google's list never showed. Google's own is $11.06 and AWS's P5 on demand $6.88 (16 cards:
    $80,358); AWS's capacity block is not for a service (PRC016); the cheapest admitted is OVHcloud's
    8-card H200 at 5.25 EUR (1.16 USD per EUR), one replica on each of two: 16 x $6.09 x 730 h = $71,131."""
    result = recommend(validate_workload(CRITICAL, "test"), AS_OF, policy_dir=approved_providers)
    assert "KNB010" in result.fired_rules
    by_offer = {(o.provider, o.offer): o for o in result.options if o.gpu == "h100-sxm"}
    assert "KNB010" in by_offer[("aws", "p5-on-demand")].excluded_by
    assert "KNB010" in by_offer[("gcp", "a3-high-on-demand")].excluded_by
    assert by_offer[("aws", "p5-on-demand-2026-09")].excluded_by == ()
    decision = result.decision
    assert (decision.provider, decision.offer, decision.gpus) == ("ovhcloud", "h200-1920", 2)
    assert round(decision.usd_per_month or 0) == round(16 * 5.25 * 1.16 * 730) == 71131
    (message,) = [f.message for f in result.findings if f.rule_id == "KNB010"]
    assert message == KNB010_EXCLUDED + "."


def test_a_providers_other_prices_are_those_it_lists(approved_providers: str) -> None:
    """A stable model, for a team without the DevOps capacity to run own servers (TCO015), takes AWS's
    3-year savings plan (two P5, 16 x $2.97216 x 730 h = $34,715): KNB002 names AWS's other H100 prices,
    not the March figures its September lists replace."""
    stable = {**CRITICAL, "model_stable": True, "devops_capacity": False}
    result = recommend(validate_workload(stable, "test"), AS_OF, policy_dir=approved_providers)
    assert (result.decision.provider, result.decision.offer) == ("aws", "p5-reserved-3y-2026-09")
    assert round(result.decision.usd_per_month or 0) == round(16 * 2.97216 * 730) == 34715
    (others,) = [f.message for f in result.findings if f.rule_id == "KNB002"]
    assert others.startswith(
        "aws also lists h100-sxm as p5-capacity-block $5.97 (capacity-block, 2026-10-10); "
    )
    assert "p5-reserved-1y-2026-09 $4.33 (reserved, 2026-09-25)" in others
    assert "p5-on-demand $3.90" not in others and "p5-on-demand-2026-09 $6.88" in others
    assert "p5-reserved-1y $2.10" not in others


def test_on_premises_buying_is_compared_with_the_price_the_provider_charges_now() -> None:
    """Data that stays in the building rules every rental out, but the buy-versus-rent lines compare the
    own servers with the rentals' bills: a university's 70B BF16 service on premises was compared with
    AWS's 3-year P5 reservation at the documents' March figure ($1.90, a price ratio of 91 %, "owning
    barely wins") where AWS's own newer list charges $2.97 (58 %)."""
    result = run(UNIVERSITY)
    assert "KNB010" in result.fired_rules
    old = next(o for o in result.options if o.offer == "p5-reserved-3y")
    assert "KNB010" in old.excluded_by
    own = result.own_hardware
    # The cheapest rental of the server's GPU at a price charged now: RunPod's H100 by the hour, 12 cards
    # for 730 hours at $2.69, $23,564 a month (AWS's 3-year P5 at $2.97 bills 16 cards, $34,715).
    assert own is not None and own.compared_with == "runpod/community"
    assert own.rent_usd_per_gpu_hour == pytest.approx(2.69)


def test_a_proposal_on_a_superseded_price_is_costed_at_the_newer_one_and_warned() -> None:
    """Eight H100 on one P5 instance for 730 hours: $40,179.20 at AWS's list ($6.88), not $22,776 at the
    documents' $3.90; KNB011 says so. The same proposal on the current row passes KNB011."""
    proposal = {
        "deployment": "dedicated_cloud",
        "provider": "aws",
        "gpu": "h100-sxm",
        "gpus": 8,
        "pricing": "on_demand",
        "region": "us-east-1",
    }

    def checked(offer: str) -> Any:
        document = ProposalDocument.model_validate(
            {"workload": CRITICAL, "proposal": {**proposal, "offer": offer}}
        )
        return check_document(document, "p.yaml", 1, AS_OF)

    old = checked("p5-on-demand")
    assert old.usd_per_month == round(6.88 * 8 * 730, 2) == 40179.2
    knb011 = next(item for item in old.results if item.rule_id == "KNB011")
    assert knb011.status == "warn"
    assert knb011.message == (
        "aws p5-on-demand is the catalog's older figure for this GPU; aws's own list of 2026-09-19 gives "
        "$6.88 per GPU-hour for the same instances (p5-on-demand-2026-09), so the cost checks price the "
        "proposal at that."
    )
    current = checked("p5-on-demand-2026-09")
    assert current.usd_per_month == old.usd_per_month
    assert next(item for item in current.results if item.rule_id == "KNB011").status == "pass"


def test_the_catalog_marks_a_superseded_price() -> None:
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    text = (
        CliRunner().invoke(main, ["catalog", "offers", "--provider", "aws", "--as-of", "2026-11-30"]).output
    )
    lines = text.splitlines()
    # The mark sits on the pricing, which the newer list of the same pricing replaced.
    assert "on-demand†" in next(line for line in lines if line.startswith("aws/p5-on-demand/")).split()
    assert "†" not in next(line for line in lines if line.startswith("aws/p5-on-demand-2026-09/"))
    assert (
        "† replaced by its provider's newer list price (superseded_by): kept as the documents quote it, but "
        "not priced (KNB010)."
    ) in " ".join(text.split())


def test_your_rate_for_a_superseded_row_is_the_price_you_pay(tmp_path: Path, approved_providers: str) -> None:
    """An overrides file's 2.80 USD for AWS's P5 on demand is what the team pays: the row is no longer
    superseded, so it is priced (16 cards x $2.80 x 730 h = $32,704, below the capacity block's $69,730)
    and KNB010 names the others only."""
    overrides = tmp_path / "rates" / "rates.yaml"
    overrides.parent.mkdir()
    overrides.write_text(
        "offers:\n  - {provider: aws, offer: p5-on-demand, gpu: h100-sxm, usd_per_gpu_hour: 2.80}\n"
        "as_of: 2026-11-28\n",
        encoding="utf-8",
    )
    knowledge = knowledge_with_overrides(str(overrides), AS_OF)
    assert [old.key for old, _ in knowledge.superseded_offers()] == [
        "aws/p5-reserved-1y/h100-sxm",
        "aws/p5-reserved-3y/h100-sxm",
        "gcp/a3-high-on-demand/h100-sxm",
        "lambda/on-demand/h100-sxm",
    ]
    result = recommend(
        validate_workload(CRITICAL, "test"), AS_OF, knowledge=knowledge, policy_dir=approved_providers
    )
    assert (result.decision.provider, result.decision.offer) == ("aws", "p5-on-demand")
    assert round(result.decision.usd_per_month or 0) == round(16 * 2.80 * 730) == 32704
    (message,) = [f.message for f in result.findings if f.rule_id == "KNB010"]
    assert "aws p5-on-demand" not in message and "gcp a3-high-on-demand at $3.00" in message


def test_a_hybrids_busier_hours_on_a_superseded_row_are_priced_at_the_newer_list(tmp_path: Path) -> None:
    """AWS's P5 savings plan with AWS's P5 on demand named for the busier hours by its March row: priced
    at the September list, 8 x $2.97216 x 730 h + 8 x $6.88 x 19 h x 30.42 days = $49,169 (at $3.90 it
    would be $35,390), and KNB011 says so for the busier hours' offer."""
    proposal = {
        **HYBRID,
        "offer": "p5-reserved-3y-2026-09",
        "peak_provider": "aws",
        "peak_offer": "p5-on-demand",
    }
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": proposal})
    result = check_document(document, "p.yaml", 1, AS_OF)
    assert round(result.usd_per_month or 0) == round(8 * 2.97216 * 730 + 8 * 6.88 * 19 * 30.42) == 49169
    knb011 = next(item for item in result.results if item.rule_id == "KNB011" and item.part == "peak")
    assert (knb011.status, knb011.part) == ("warn", "peak")
    assert knb011.message == (
        "The busier hours' offer (aws p5-on-demand): aws p5-on-demand is the catalog's older figure for this "
        "GPU; aws's own list of 2026-09-19 gives $6.88 per GPU-hour for the same instances "
        "(p5-on-demand-2026-09), so the cost checks price the proposal at that."
    )


def test_a_swept_price_of_a_superseded_row_is_priced_at_every_step(tmp_path: Path) -> None:
    """sweep varies the row's own price: at $0.50 it is the price the team tests, not a figure the
    provider's newer list replaces, and it wins (16 cards x $0.50 x 730 h = $5,840, below Lambda's $8,731)."""
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    workload = tmp_path / "critical.yaml"
    workload.write_text(yaml.safe_dump(CRITICAL), encoding="utf-8")
    vary = "price:aws/p5-on-demand/h100-sxm=0.5:1:0.5"
    text = CliRunner().invoke(main, ["sweep", str(workload), "--vary", vary, "--as-of", "2026-11-30"]).output
    assert "  B  dedicated cloud GPUs: aws p5-on-demand, h100-sxm, on-demand\n" in text
    assert "0.5                             B            4       $5,840  DEP005\n" in text


def test_your_rate_for_the_newer_row_is_not_called_its_list_price(tmp_path: Path) -> None:
    """A team's 2.20 USD for AWS's 3-year P5 savings plan (its list: $2.97216) replaces the price KNB010
    names beside the documents' $1.90: it said the newer row "lists $2.20", which is the team's quote, not
    AWS's list."""
    overrides = tmp_path / "rates.yaml"
    overrides.write_text(
        "offers:\n  - {provider: aws, offer: p5-reserved-3y-2026-09, gpu: h100-sxm, usd_per_gpu_hour: 2.20}\n"
        "as_of: 2026-11-15\n",
        encoding="utf-8",
    )
    knowledge = knowledge_with_overrides(str(overrides), AS_OF)
    result = recommend(validate_workload(CRITICAL, "test"), AS_OF, knowledge=knowledge)
    (message,) = [f.message for f in result.findings if f.rule_id == "KNB010"]
    assert (
        "aws p5-reserved-3y at $1.90 (2026-03-27), where your rate for p5-reserved-3y-2026-09 is $2.20 "
        "(2026-11-15);"
    ) in message
    assert "p5-reserved-1y-2026-09 lists $4.33" in message
