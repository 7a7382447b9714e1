"""PRC013: ``check`` warns a proposal that rents fewer cards than the whole instances its offer bills, as
PRC012 does for the recommendation. Four H100 for two 2-card replicas at AWS P5 on demand (sold as 1- or
8-card instances; a 2-card replica needs the 8-card one's NVLink) were priced as eight cards without a
word."""

from __future__ import annotations

import pytest
from helpers import DOCS_ASSISTANT, EVALUATED_ON

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.i18n.formats import Format

WORKLOAD = DOCS_ASSISTANT
P5 = {
    "name": "four cards at AWS",
    "deployment": "dedicated_cloud",
    "provider": "aws",
    "offer": "p5-on-demand-2026-09",
    "gpu": "h100-sxm",
    "pricing": "on_demand",
    "region": "us-east-1",
}


def idle_check(gpus: int, lang: str = "en") -> tuple[str, str | None]:
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": {**P5, "gpus": gpus}})
    result = check_document(document, "p5.yaml", 1, EVALUATED_ON, fmt=Format.named(lang))
    item = next(i for i in result.results if i.rule_id == "PRC013")
    return item.status, item.message


def test_four_cards_on_an_eight_card_instance_pay_for_four_idle_ones() -> None:
    # 8 cards x $6.88 x 176 office hours = $9,687.04 a month; the 4 idle cards are half of it, $4,843.52.
    status, message = idle_check(4)
    assert status == "warn"
    assert message == (
        "The proposed offer is sold in whole instances: the 4 proposed cards are billed as 8, so 4 of them "
        "are paid for and idle, about $4,844 of the proposal's $9,687 a month. Propose all 8 (the same "
        "bill, room for more replicas) or an offer sold in smaller instances."
    )
    _, german = idle_check(4, "de")
    assert german is not None and german.startswith(
        "Das vorgeschlagene Angebot wird in ganzen Instanzen verkauft: Die 4 vorgeschlagenen Karten werden "
        "als 8 Karten abgerechnet"
    )


def test_eight_cards_fill_the_instance_they_are_billed_in() -> None:
    assert idle_check(8)[0] == "pass"


def test_a_batch_proposal_is_told_that_all_the_cards_finish_sooner() -> None:
    """For a batch more cards on the same instance finish the run sooner and bill fewer hours: four H100
    for the nightly batch on an 8-card P5 bill the whole instance for twice the hours of work eight would,
    and each run's weights' load the same (the 16-bit checkpoint, 140 GB at 2.5 GB/s: 56 s a night)."""
    workload = {**WORKLOAD, "load_pattern": "batch", "requests_per_day": 200_000, "schedule": "always"}
    checked = {}
    for gpus in (4, 8):
        document = ProposalDocument.model_validate({"workload": workload, "proposal": {**P5, "gpus": gpus}})
        checked[gpus] = check_document(document, "p5.yaml", 1, EVALUATED_ON)
    four, eight = checked[4], checked[8]
    # The same 8-card instance for half the hours of work and the same load: half the bill of the work.
    assert four.usd_per_month is not None and eight.usd_per_month is not None
    load = 8 * 6.88 * 56 / 3600 * 30.42
    assert eight.usd_per_month - load == pytest.approx((four.usd_per_month - load) / 2, rel=0.01)
    (item,) = [i for i in four.results if i.rule_id == "PRC013"]
    assert item.status == "warn" and item.message is not None
    assert "Propose all 8 (the same instances finish the run sooner and bill fewer hours)" in item.message
    assert [i.status for i in eight.results if i.rule_id == "PRC013"] == ["pass"]


def test_one_idle_card_is_said_as_one() -> None:
    """Six cards and a seventh on the 8-card instance: one card is paid for and idle, $6.88 x 176 =
    $1,210.88 of the 8 cards' $9,687.04."""
    status, message = idle_check(7)
    assert status == "warn"
    assert message is not None and message.startswith(
        "The proposed offer is sold in whole instances: the 7 proposed cards are billed as 8, so 1 of them "
        "is paid for and idle, about $1,211 of the proposal's $9,687 a month."
    )


def test_smaller_instances_not_documented_as_linked_are_named() -> None:
    """STACKIT sells its H100 server in 1, 2, 4 and 8 cards, but its sources document NVLink for the whole
    8-card board only: a 2-card replica goes on the 8-card instance, and the warning says why the 2- and
    4-card sizes, which the offer also sells, are not used (the AWS P5's 1-card size above holds no
    2-card replica, so nothing is said there), and what the 2-card size would bill, were it linked.
    8 x EUR 8.0413 x 1.16 USD per EUR x 176 h = $13,134 a month, of which the 6 idle cards are $9,850;
    2 x EUR 8.0413 x 1.16 x 176 h = $3,283 on the 2-card size."""
    stackit = {**P5, "provider": "stackit", "offer": "n3-gpu-server", "region": "eu01", "gpus": 2}
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": stackit})
    result = check_document(document, "stackit.yaml", 1, EVALUATED_ON)
    assert result.usd_per_month is not None and round(result.usd_per_month) == round(
        8 * 8.04134722222 * 1.16 * 176
    )
    (item,) = [i for i in result.results if i.rule_id == "PRC013"]
    assert (item.status, item.message) == (
        "warn",
        "Placed on the offer's instances whose cards are documented as linked, the smallest that hold its "
        "replicas: the 2 proposed cards are billed as 8, so 6 of them "
        "are paid for and idle, about $9,850 of the proposal's $13,134 a month. The offer's 2- and 4-card "
        "instances would hold a replica of 2 cards, but the catalog does not document their cards as "
        "linked (NVLink), which tensor parallelism across them needs: where the provider confirms the "
        "link, the proposal's replicas would bill about $3,283 a month on the smallest that hold them; else "
        "propose all 8 (the same bill, room for more replicas) or an offer sold in smaller linked instances.",
    )


def test_two_cards_billed_are_both() -> None:
    """One H100 on Scaleway's 2-card instance: 2 × €3.3099 × 1.16 × 176 h = $1,352 a month, half of it
    idle; 'Propose all 2' read oddly."""
    scaleway = {**P5, "provider": "scaleway", "offer": "h100-sxm-2-80g", "region": "fr-par-2", "gpus": 1}
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": scaleway})
    for lang, said in (
        ("en", "Propose both (the same bill"),
        ("de", "Schlagen Sie beide vor (dieselbe Rechnung"),
    ):
        result = check_document(document, "scaleway.yaml", 1, EVALUATED_ON, fmt=Format.named(lang))
        (item,) = [i for i in result.results if i.rule_id == "PRC013"]
        assert item.status == "warn" and item.message is not None and said in item.message
        assert result.usd_per_month is not None and round(result.usd_per_month) == 1352


def test_smaller_sizes_that_would_save_nothing_are_not_named() -> None:
    """Five H100 at STACKIT for a 70B FP8 model whose replicas take four cards: two replicas fill eight
    cards whether on the 8-card board or on two 4-card slices, so the 4-card size, not documented as
    linked, would save nothing and is not named (it read 'would bill about $13,134', the bill itself)."""
    workload = {
        "name": "rag-70b",
        "model": {"name": "llama-3.3-70b", "precision": "fp8", "custom_weights": True},
        "requests_per_day": 20_000,
        "avg_input_tokens": 6000,
        "avg_output_tokens": 400,
        "context_tokens": 32_768,
        "load_pattern": "steady",
        "schedule": "office_hours",
        "latency_sensitive": False,
        "company_country": "DE",
    }
    stackit = {**P5, "provider": "stackit", "offer": "n3-gpu-server", "region": "eu01", "gpus": 5}
    document = ProposalDocument.model_validate({"workload": workload, "proposal": stackit})
    result = check_document(document, "stackit.yaml", 1, EVALUATED_ON)
    (item,) = [i for i in result.results if i.rule_id == "PRC013"]
    assert item.status == "warn" and item.message is not None
    assert item.message.startswith("The proposed offer is sold in whole instances: the 5 proposed cards are ")
    assert "4-card instances" not in item.message and "linked (NVLink)" not in item.message
    assert item.message.endswith(
        "Propose all 8 (the same bill, room for more replicas) or an offer sold in smaller instances."
    )
