"""How the hyperscalers sell and reclaim capacity, as their own pages state it: Google's own US price for
A3 High beside the documents' figure, Azure billed by the minute, and each provider's own spot notice
(providers.yaml) in the PRC rules' texts: AWS 120 seconds, Azure 30, Google at most 30, Vast.ai none
documented; a proposal's provider alone where it names one that sells spot."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import EVALUATED_ON, knowledge_with, run

from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.calc.costs import BatchRun, billed_hours
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.knowledge import KNOWLEDGE_DIR


def test_googles_own_us_price_stands_beside_the_documents_figure() -> None:
    by_key = {o.key: o for o in load_knowledge().offers.offers}
    own = by_key["gcp/a3-high-on-demand-2026-07/h100-sxm"]
    # a3-highgpu-8g: 88.49 USD an instance-hour for its 8 GPUs.
    assert (own.instance_usd_per_hour, own.instance_gpus) == (88.49, (8,))
    assert own.usd_per_gpu_hour == pytest.approx(88.49 / 8) == pytest.approx(11.06125)
    assert (own.pricing, own.regions, own.price_jurisdiction) == ("on_demand", ("us-central1",), "US")
    assert own.as_of == dt.date(2026, 7, 30)
    documents = by_key["gcp/a3-high-on-demand/h100-sxm"]
    assert (documents.usd_per_gpu_hour, documents.as_of) == (3.00, dt.date(2026, 3, 27))


def test_azure_bills_by_the_minute() -> None:
    azure = [o for o in load_knowledge().offers.offers if o.provider == "azure"]
    assert len(azure) == 4
    assert {o.billing_increment_seconds for o in azure} == {60}
    # A batch of 2 h 20 min 44.16 s a day on 22 days: 141 minutes billed a day, not 3 whole hours.
    # Microsoft bills the full minutes only (140); the partial minute is counted, at most a minute a day.
    nd = next(o for o in azure if o.offer == "nd-h100-v5-on-demand")
    hours = billed_hours(nd, 176, 730, BatchRun(hours_per_day=2.3456, days_per_month=22), 0.05)
    assert hours == pytest.approx(141 / 60 * 22)


def test_the_spot_notices_are_the_providers_own() -> None:
    knowledge = load_knowledge()
    notices = {
        provider.id: (provider.spot_notice.seconds, provider.spot_notice.up_to, provider.spot_notice.as_of)
        for provider in knowledge.spot_sellers().values()
        if provider.spot_notice is not None
    }
    # AWS two minutes, Azure 30 seconds (Scheduled Events), Google at most 30 (best effort); Vast.ai's
    # pages state none: an interruptible instance that loses its bid is stopped.
    assert notices == {
        "aws": (120, False, dt.date(2026, 12, 1)),
        "azure": (30, False, dt.date(2026, 12, 1)),
        "gcp": (30, True, dt.date(2026, 3, 19)),
        "vast": (None, False, dt.date(2026, 12, 1)),
    }
    sellers = {o.provider for o in knowledge.offers.offers if o.pricing == "spot"}
    assert sellers == {"aws", "azure", "gcp", "vast"}


def test_a_provider_that_sells_spot_without_its_notice_is_refused(tmp_path: Path) -> None:
    vast = (
        "    spot_notice:\n      seconds: null\n"
        '      source: {url: "https://docs.vast.ai/documentation/reference/faq/rental-types"'
    )
    copy = knowledge_with(tmp_path, "providers.yaml", vast, '    spot_note:\n      source: {url: "x"')
    with pytest.raises(KnowledgeError, match=r"entry 'vast': field providers\.\d+\.spot_note: Extra inputs"):
        load_knowledge_from(copy)
    text = (KNOWLEDGE_DIR / "providers.yaml").read_text(encoding="utf-8")
    start = text.index(vast)
    end = text.index("\n  - id: gmi\n")
    (copy / "providers.yaml").write_text(text[:start] + text[end + 1 :], encoding="utf-8")
    with pytest.raises(
        KnowledgeError,
        match=r"providers\.yaml: entry 'vast': field spot_notice: missing, but it sells spot "
        r"\(vast/spot/h100-pcie in offers\.yaml\); write seconds: null where its pages document none",
    ):
        load_knowledge_from(copy)


def test_a_notice_bounded_without_seconds_is_refused(tmp_path: Path) -> None:
    copy = knowledge_with(
        tmp_path, "providers.yaml", "      seconds: null\n", "      seconds: null\n      up_to: true\n"
    )
    with pytest.raises(
        KnowledgeError, match=r"entry 'vast': field providers\.\d+\.spot_notice: Value error, up_to"
    ):
        load_knowledge_from(copy)


BATCH = {
    "name": "nightly",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "load_pattern": "batch",
}
CHAT = {"name": "chat", "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 50_000}


def message(result: object, rule_id: str) -> str:
    return next(f.message for f in result.findings if f.rule_id == rule_id)  # type: ignore[attr-defined]


NOTICES = (
    "(Amazon Web Services: 120 seconds; Microsoft Azure: 30 seconds; Google Cloud: at most 30 seconds; "
    "Vast.ai: no notice documented)"
)


def test_prc001_names_each_providers_notice() -> None:
    # Before an offer is chosen: every provider that sells spot, Vast.ai's none said as such.
    assert (
        f"Spot capacity is taken back at short notice {NOTICES}, so the job checkpoints its progress as it "
        "goes, which is trivial for batch jobs."
    ) in message(run(BATCH), "PRC001")


def test_prc002_names_each_providers_notice() -> None:
    assert message(run(CHAT), "PRC002") == (
        "The workload is latency-sensitive, so spot offers are excluded: spot capacity is taken back at "
        f"short notice {NOTICES}, which production inference that answers users cannot absorb."
    )


def test_prc002_in_german() -> None:
    result = recommend(validate_workload(CHAT, "test"), EVALUATED_ON, fmt=Format.named("de"))
    assert message(result, "PRC002") == (
        "Der Workload ist latenzempfindlich, daher sind Spot-Angebote ausgeschlossen: Spot-Kapazität wird "
        "kurzfristig entzogen (Amazon Web Services: 120 Sekunden Vorwarnzeit; Microsoft Azure: 30 Sekunden "
        "Vorwarnzeit; Google Cloud: höchstens 30 Sekunden Vorwarnzeit; Vast.ai: keine Vorwarnzeit "
        "dokumentiert), was Produktionsinferenz, die Nutzern antwortet, nicht auffangen kann."
    )


SPOT_PROPOSALS = {
    # provider, offer, GPU, cards, region: the notice PRC007 names, and the same GPU the provider lists
    # without spot where the workload may run (a service runs on no capacity block: PRC016)
    "vast": (
        ("vast", "spot", "h100-pcie", 1, None),
        "(Vast.ai: no notice documented)",
        "The catalog lists no offer of h100-pcie at vast without spot where the workload may run.",
    ),
    "aws": (
        ("aws", "p5-spot", "h100-sxm", 8, "us-east-1"),
        "(Amazon Web Services: 120 seconds)",
        "aws also lists h100-sxm without spot where the workload may run: p5-on-demand-2026-09, "
        "p5-reserved-1y-2026-09, p5-reserved-3y-2026-09, p5-on-demand-stockholm.",
    ),
    "gcp": (
        ("gcp", "a3-high-spot", "h100-sxm", 8, "us"),
        "(Google Cloud: at most 30 seconds)",
        "gcp also lists h100-sxm without spot where the workload may run: a3-high-europe-west4, "
        "a3-high-on-demand-2026-07.",
    ),
    # A provider the catalog sells no spot of (an offer it does not list; its on-demand "community" as
    # spot is refused as input): its notice is not known, so every seller's is named.
    "runpod": (
        ("runpod", "spot", "h100-pcie", 1, None),
        NOTICES,
        "runpod also lists h100-pcie without spot where the workload may run: community.",
    ),
}


@pytest.mark.parametrize("provider", SPOT_PROPOSALS)
def test_prc007_names_the_proposed_providers_notice(provider: str) -> None:
    (provider_id, offer, gpu, gpus, region), notice, instead = SPOT_PROPOSALS[provider]
    proposal = {"name": "spot", "deployment": "dedicated_cloud", "provider": provider_id, "offer": offer}
    proposal |= {"gpu": gpu, "gpus": gpus, "pricing": "spot"} | ({"region": region} if region else {})
    document = ProposalDocument.model_validate({"workload": CHAT, "proposal": proposal})
    result = check_document(document, "spot.yaml", 1, EVALUATED_ON)
    item = next(i for i in result.results if i.rule_id == "PRC007")
    assert item.status == "fail"
    assert item.message == (
        "The proposal rents spot capacity for a latency-sensitive workload: spot instances can be withdrawn "
        f"at short notice {notice}, which production inference that answers users cannot absorb. {instead}"
    )


def test_prc007_in_german() -> None:
    proposal = {"name": "spot", "deployment": "dedicated_cloud", "provider": "vast", "offer": "spot"}
    proposal |= {"gpu": "h100-pcie", "gpus": 1, "pricing": "spot"}
    document = ProposalDocument.model_validate({"workload": CHAT, "proposal": proposal})
    result = check_document(document, "spot.yaml", 1, EVALUATED_ON, fmt=Format.named("de"))
    item = next(i for i in result.results if i.rule_id == "PRC007")
    assert item.message == (
        "Der Vorschlag mietet Spot-Kapazität für einen latenzempfindlichen Workload: Spot-Instanzen können "
        "kurzfristig entzogen werden (Vast.ai: keine Vorwarnzeit dokumentiert), was Produktionsinferenz, die "
        "Nutzern antwortet, nicht auffangen kann. Der Katalog führt bei vast kein Angebot von h100-pcie ohne "
        "Spot, wo der Workload laufen darf."
    )


def test_prc001_is_silent_where_the_load_is_not_a_batch() -> None:
    assert "PRC001" not in {f.rule_id for f in run(CHAT).findings}


VAST_BATCH = {
    "name": "vast-batch",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 10_000,
    "load_pattern": "batch",
}


def test_the_memo_names_the_chosen_spot_providers_notice(tmp_path: Path) -> None:
    """A small batch goes to Vast.ai's spot H100 PCIe: Vast documents no notice, so the memo says so
    (it said "two minutes" for every spot offer); with a notice in the catalog it gives that one."""
    result = recommend(validate_workload(VAST_BATCH, "test"), EVALUATED_ON)
    assert (result.decision.provider, result.decision.pricing) == ("vast", "spot")
    assert result.best_spot_notice_seconds is None
    memo = render_memo(result)
    assert (
        "- Spot capacity can be withdrawn at vast without a documented notice: the batch job must checkpoint "
        "as it goes." in memo
    )
    assert "two minutes" not in memo
    german = render_memo(result, lang="de")
    assert "- Spot-Kapazität kann bei vast ohne dokumentierte Vorwarnzeit entzogen werden" in german
    copy = knowledge_with(
        tmp_path, "providers.yaml", "      seconds: null\n", "      seconds: 45\n      up_to: true\n"
    )
    noticed = recommend(
        validate_workload(VAST_BATCH, "test"), EVALUATED_ON, knowledge=load_knowledge_from(copy)
    )
    assert (noticed.best_spot_notice_seconds, noticed.best_spot_notice_up_to) == (45, True)
    assert (
        "- Spot capacity can be withdrawn at vast with 45 seconds' notice (at most, best effort): the batch "
        "job must checkpoint." in render_memo(noticed)
    )
