"""Sentences a walkthrough found wrong: counts said as counted (one replica, one card), the catalog's own
names in the reader's language, replicas a stated minimum adds, a product's regions."""

from __future__ import annotations

from helpers import EVALUATED_ON, run

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

RETAIL = {
    "name": "produkttexte-7b",
    "model": {"name": "mistral-7b", "precision": "bf16"},
    "requests_per_day": 120_000,
    "avg_input_tokens": 400,
    "avg_output_tokens": 250,
    "load_pattern": "steady",
    "schedule": "workdays",
    "latency_sensitive": False,
    "company_country": "AT",
}
"""An Austrian retailer's product texts: one RTX 5090 workstation is the own route costed."""


def test_one_owned_card_is_one_card_and_the_workstation_is_named_in_german() -> None:
    r = run(RETAIL)
    assert r.own_hardware is not None and r.own_hardware.server == "workstation-rtx-5090"
    tco017 = next(f for f in r.findings if f.rule_id == "TCO017")
    assert "owning costs $132.46/month for 1 card, the least rental" in tco017.message
    german_result = recommend(validate_workload(RETAIL, "test"), EVALUATED_ON, fmt=Format.named("de"))
    german = " ".join(render_memo(german_result, Format.named("de")).split())
    assert "1 × RTX-5090-Workstation (1 × rtx-5090)" in german
    assert "für 1 Karte, die günstigste Miete" in german
    assert "RTX 5090 workstation" not in german
    assert "for 1 cards" not in render_memo(r)


def test_a_batch_window_that_needs_one_replica_says_one_replica() -> None:
    """Mixtral's nightly 6-hour batch on Azure's 8-card spot instance: the window needs one replica of
    2 cards, and the instance holds four."""
    r = run(
        {
            "name": "startup-synthdata",
            "model": {"name": "mixtral-8x7b", "precision": "bf16"},
            "requests_per_day": 200_000,
            "avg_input_tokens": 800,
            "avg_output_tokens": 1_200,
            "load_pattern": "batch",
            "batch_window_hours": 6,
            "model_stable": False,
            "company_country": "US",
        }
    )
    memo = " ".join(render_memo(r).split())
    assert "The window needs one replica (the sizing table's count); azure nd-h100-v5-spot bills" in memo
    assert "needs 1 replicas" not in memo


FRENCH_TRIAGE = {
    "name": "fr-claims-triage",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 2_500,
    "avg_output_tokens": 250,
    "load_pattern": "variable",
    "schedule": "workdays",
    "personal_data": True,
    "min_replicas": 3,
    "company_country": "FR",
}
"""A French claims triage that states min_replicas: 3; the peak needs 2 replicas, and no spare rule fires
(a stated minimum sizes the replicas itself)."""


def test_replicas_a_stated_min_replicas_adds_are_not_credited_to_a_spare_rule() -> None:
    r = run(FRENCH_TRIAGE)
    assert not {"SIZ010", "SIZ011"} & set(r.fired_rules)
    best = r.best_option
    assert best is not None and (best.replicas, best.spare_replicas) == (3, 1)
    memo = " ".join(render_memo(r).split())
    assert (
        "The workload's min_replicas (3) runs one replica beyond the peak's: it keeps the peak served when a "
        "replica fails or is updated. 6 GPUs in all."
    ) in memo
    assert "One spare replica on top" not in memo
    assert (
        "instances are kept warm in every paid hour, at least the workload's min_replicas (3); more start "
        "when the load needs them."
    ) in memo
    assert "as many as the spare-replica rules ask for" not in memo
    # The model's own API prices are excluded by the residency rule; the batch API's row (DEP028, not for
    # a service) is not a reason the API itself is out.
    batch_rows = [a for a in r.api_costs if a.same_model and a.batch]
    assert batch_rows and all("DEP028" in a.excluded_by for a in batch_rows)
    assert "(the catalog's prices of it are excluded by RES001): this is the price of" in memo


def test_a_serverless_decision_without_one_jurisdiction_names_its_regions() -> None:
    """A US consumer app at 3 million requests a day on Modal, whose 'global' region keeps the data in no
    one jurisdiction: the Summary names the region, as DEP018 does, not an 'unknown region'."""
    r = run(
        {
            "name": "us-variable-noown",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 3_000_000,
            "avg_input_tokens": 500,
            "avg_output_tokens": 200,
            "load_pattern": "variable",
            "company_country": "US",
        }
    )
    so = r.serverless_option
    assert (
        so is not None
        and so.chosen
        and (so.provider, so.jurisdiction, so.regions)
        == (
            "modal",
            "unknown",
            ("global",),
        )
    )
    memo = render_memo(r)
    assert "Modal serverless functions (global: no one jurisdiction), with 1 × b200 per instance" in memo
    assert "unknown region" not in memo


def test_the_summary_says_why_an_on_premises_service_buys_more_cards_than_it_needs() -> None:
    """A German agency's 70B letter assistant on premises, business-critical: 2 replicas of 2 H100 on two
    HGX servers of 8 (SIZ015), 12 of the 16 cards idle. The Summary says the load needs 4 and why 16 are
    bought, where only TCO020 in the Findings said so."""
    r = run(
        {
            "name": "behoerde-briefassistent",
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 15_000,
            "avg_input_tokens": 1_500,
            "avg_output_tokens": 400,
            "load_pattern": "variable",
            "schedule": "office_hours",
            "personal_data": True,
            "on_premises_required": True,
            "business_critical": True,
            "company_country": "DE",
        }
    )
    own = r.own_hardware
    assert "TCO020" in r.fired_rules and own is not None
    assert (own.gpus_needed, own.nodes * own.gpus_per_server) == (4, 16)
    summary = render_memo(r).split("## Why")[0]
    assert (
        "The load needs 4 of the 16 cards bought: the catalog prices this GPU only as the HGX H100 8-GPU; "
        "a server with fewer cards would idle less (ask for its price; TCO020). The replicas are spread over "
        "at least two servers, so that the service survives a failed one (SIZ015)."
    ) in " ".join(summary.split())
    # The quote it asks for can be costed: TCO020 names the command, with the workload's country.
    (finding,) = [f.message for f in r.findings if f.rule_id == "TCO020"]
    assert (
        "(ask for its price, and cost the quote with `gpu-advisor tco --country DE --gpu h100-sxm "
        "--gpus-per-server N`, its price as `--server-price` in dollars or `--server-price-eur`, and the "
        "housing it gets in the building as `--rack-usd-per-month`)"
    ) in finding
