"""How the hyperscalers sell and reclaim capacity, as their own pages state it: Google's own US price for
A3 High beside the documents' figure, Azure billed by the minute, and spot notice per provider in the PRC
rules' texts (AWS two minutes, Azure 30 seconds, Google at most 30)."""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import run

from gpu_advisor.engine.calc.costs import BatchRun, billed_hours
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge


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
    figures = load_knowledge().figures_by_id()
    notices = {
        name: (figures[name].value_low, figures[name].value_high, figures[name].unit)
        for name in ("spot_notice_minutes", "spot_notice_seconds_azure", "spot_notice_seconds_gcp")
    }
    assert notices == {
        "spot_notice_minutes": (2, 2, "minutes"),
        "spot_notice_seconds_azure": (30, 30, "seconds"),
        "spot_notice_seconds_gcp": (30, 30, "seconds"),
    }


BATCH = {
    "name": "nightly",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 50_000,
    "load_pattern": "batch",
}
CHAT = {"name": "chat", "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 50_000}


def message(result: object, rule_id: str) -> str:
    return next(f.message for f in result.findings if f.rule_id == rule_id)  # type: ignore[attr-defined]


def test_prc001_names_each_providers_notice() -> None:
    assert (
        "Spot capacity is taken back at short notice (2 minutes on AWS, 30 seconds on Azure, at most 30 on "
        "Google Cloud), so the job checkpoints its progress as it goes, which is trivial for batch jobs."
    ) in message(run(BATCH), "PRC001")


def test_prc002_names_each_providers_notice() -> None:
    assert message(run(CHAT), "PRC002") == (
        "The workload is latency-sensitive, so spot offers are excluded: spot capacity is taken back at "
        "short notice (2 minutes on AWS, 30 seconds on Azure, at most 30 on Google Cloud), which production "
        "inference that answers users cannot absorb."
    )


def test_prc001_is_silent_where_the_load_is_not_a_batch() -> None:
    assert "PRC001" not in {f.rule_id for f in run(CHAT).findings}
