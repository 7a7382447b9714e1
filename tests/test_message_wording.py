"""Rule messages rendered from facts alone, for wording that depends on the values: a name that would
repeat itself is said once."""

from __future__ import annotations

from typing import Any

import yaml
from helpers import TESTS_DIR, run

from gpu_advisor.engine.calc.fleet_billing import undercuts
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.report.findings import finding_texts, render_finding_message
from gpu_advisor.engine.rulebook.loading import load_rulebook

BASE = yaml.safe_load((TESTS_DIR / "rule_cases" / "base_facts.yaml").read_text(encoding="utf-8"))


def message(rule_id: str, kind: str, lang: str, **changes: Any) -> str:
    texts = finding_texts(load_rulebook(), load_knowledge(), lang)
    fact = {**BASE["workload_facts"], **BASE[kind], **changes}
    return " ".join(render_finding_message(texts.rules[rule_id], texts, fact, Format.named(lang)).split())


OTHER_PRICE = {"offer": "8-gpu-plan", "usd_per_gpu_hour": 3.99, "pricing": "on_demand", "as_of": "2026-10-10"}


def test_an_offer_named_after_its_pricing_is_not_named_twice() -> None:
    said = message(
        "KNB002",
        "economics",
        "en",
        best_option_provider="lambda",
        best_option_gpu="h100-sxm",
        best_option_offer="on-demand",
        best_option_pricing="on_demand",
        best_option_other_prices=[OTHER_PRICE],
    )
    assert "The comparisons here use on-demand; prices of different dates" in said
    assert "on-demand (on-demand)" not in said


def test_an_offer_named_otherwise_says_its_pricing() -> None:
    said = message(
        "KNB002",
        "economics",
        "de",
        best_option_provider="runpod",
        best_option_gpu="h100-sxm",
        best_option_offer="community",
        best_option_pricing="on_demand",
        best_option_other_prices=[OTHER_PRICE],
    )
    assert "Die Vergleiche hier verwenden community (On-Demand);" in said


QWEN_32B = {
    "name": "qwen-chat",
    "model": {"name": "qwen2.5-32b", "precision": "fp8"},
    "requests_per_day": 400_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 100,
    "load_pattern": "variable",
    "schedule": "workdays",
    "company_country": "DE",
}


def test_an_api_decision_says_in_the_summary_that_stated_targets_are_not_checked() -> None:
    result = run({**QWEN_32B, "max_time_to_first_token_ms": 300, "max_time_per_output_token_ms": 20})
    assert result.decision.deployment == "api"
    summary = render_memo(result).split("## Why")[0]
    assert (
        "The catalog holds no latency of the API: whether it keeps the workload's targets (the first token "
        f"within 300 ms, 20 ms per token) is not checked. Measure it at the peak's "
        f"{result.load.peak_requests_per_second:.1f} requests/s before relying on it."
        in " ".join(summary.split())
    )


def test_the_documented_default_targets_are_not_repeated_in_the_summary() -> None:
    result = run(QWEN_32B)
    assert result.decision.deployment == "api"
    assert result.sizing.max_time_per_output_token_ms == 100  # the default for latency-sensitive work
    assert "The catalog holds no latency of the API" not in render_memo(result)


SCALED = {
    "autoscaled_fewest_replicas": 2,
    "autoscaled_most_replicas": 5,
    "fixed_fleet_is_mixed": False,
    "fixed_fleet_name": "runpod community (40 × b200)",
    "fixed_fleet_usd_per_month": 63_148.8,
    "best_option_provider": "runpod",
    "best_option_offer": "community",
    "best_option_gpu": "b200",
    "autoscaled_gpu_hours": 7_568.0,
    "autoscaled_usd_per_month": 45_257.0,
    "autoscaled_saving": 0.28,
    "own_hardware_applicable": False,
}


def dep032(lang: str, deployment: str, cost: float) -> str:
    """DEP032's message with the scaled fleet set against a recommendation, the flag worked out as the
    pipeline does (``with_the_decision``: 5 % is saving_worth_mentioning)."""
    flag = undercuts(SCALED["autoscaled_usd_per_month"], cost, 0.05)
    return message(
        "DEP032",
        "economics",
        lang,
        **SCALED,
        recommended_deployment=deployment,
        recommended_usd_per_month=cost,
        autoscaled_undercuts_recommendation=flag,
    )


def test_a_scaled_fleet_is_set_against_the_recommendation_where_it_costs_less() -> None:
    # 45,257 is 5.0 % below 47,640: the saving_worth_mentioning (5 %) it must reach; 47,630 is not.
    assert undercuts(45_257.0, 47_640.0, 0.05) and not undercuts(45_257.0, 47_630.0, 0.05)
    assert not undercuts(0.0, 47_640.0, 0.05) and not undercuts(45_257.0, None, 0.05)
    assert (
        "$45,257 a month, 28 % less, and less than the recommendation (the serverless endpoints at "
        "$47,640). An added replica" in dep032("en", "serverless", 47_640.0)
    )
    german = dep032("de", "api", 50_000.0)
    assert "28 % weniger, und weniger als die Empfehlung (die Managed API für 50.000 $)." in german
    # Dearer than the scaled fleet, less than 5 % dearer (noise), the fixed fleet itself, or not settled:
    # nothing more is said.
    for deployment, cost in (
        ("api", 40_000.0),
        ("serverless", 47_370.91),
        ("dedicated_cloud", 63_148.8),
        ("hybrid", 60_000.0),
        ("", 0.0),
    ):
        assert "$45,257 a month, 28 % less. An added replica" in dep032("en", deployment, cost)


def test_a_mixed_fleet_of_one_card_more_says_one_card() -> None:
    """12M short requests a day of an 8B model at 11 ms a token: four reserved H100 PCIe and at most one
    hourly card more (it read "up to 1 cards more")."""
    classifier = {
        "name": "classifier-8b",
        "model": {"name": "llama-3.1-8b", "precision": "fp8"},
        "requests_per_day": 12_000_000,
        "avg_input_tokens": 300,
        "avg_output_tokens": 20,
        "load_pattern": "steady",
        "max_time_per_output_token_ms": 11,
        "personal_data": True,
        "company_country": "DE",
    }
    result = run(classifier)
    assert result.decision.deployment == "hybrid"
    english = render_memo(result)
    assert (
        "4 cards reserved at ovhcloud h100-monthly, holding 4 replicas in every hour, and up to one card more"
        in (" ".join(english.split()))
    )
    german = " ".join(render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur)).split())
    assert "die in jeder Stunde 4 Replikate tragen, und höchstens eine Karte mehr bei ovhcloud h100" in german


FAST_70B = {
    "name": "fast-70b",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 1_000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "max_time_per_output_token_ms": 4,
    "company_country": "US",
}
"""4 ms a token for a 70B model: the fastest replica, 8 B200, takes 7.60 ms a step even alone (LAT004)."""


def test_an_api_decision_says_a_target_no_gpu_meets_is_out_of_reach_for_the_api_too() -> None:
    chat = FAST_70B
    result = run(chat)
    assert result.decision.deployment == "api" and "LAT004" in result.fired_rules
    summary = " ".join(render_memo(result).split("## Why")[0].split())
    assert (
        "No GPU the catalog sizes this model on meets 4 ms per token even for a lone request (see Findings): "
        "an API served on such GPUs may not either. Set a target the model and the prompt length allow."
        in summary
    )
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur)).split("## Warum")[0]
    assert "Keine GPU, auf der der Katalog dieses Modell bemisst, hält 4 ms pro Token selbst für" in " ".join(
        german.split()
    )
    # A reachable target says only that the API's latency is not in the catalog; so does one a lone
    # request meets, too closely to plan replicas to (LAT004 fires: 8 B200 take 7.60 ms alone).
    reachable = render_memo(run({**chat, "max_time_per_output_token_ms": 40}))
    assert "No GPU the catalog sizes" not in reachable
    too_close = run({**chat, "max_time_per_output_token_ms": 8})
    assert "LAT004" in too_close.fired_rules and "No GPU the catalog sizes" not in render_memo(too_close)
    assert "whether it keeps the workload's targets (40 ms per token) is not checked" in reachable


def test_a_steady_service_says_where_the_priced_comparison_disagrees_with_the_documents_rule() -> None:
    prices = {"serverless_usd_per_month": 3_880.0, "alternative_usd_per_month": 4_210.0}
    # The providers' SLAs are details the pipeline shows beside the fact ("" where none is known).
    unknown = {"serverless_sla": "", "alternative_sla": ""}
    cheaper = message("DEP024", "serverless", "en", **prices, **unknown)
    assert (
        "Here the priced comparison disagrees with the rule: the serverless product would bill $3,880 a "
        "month, less than the cheapest other self-hosted route at $4,210;" in cheaper
    )
    assert cheaper.endswith("so weigh those terms against the rental's before relying on the rule.")
    german = message("DEP024", "serverless", "de", **prices, **unknown)
    assert (
        "Hier widerspricht der Preisvergleich der Regel: Das Serverless-Produkt würde 3.880 $ im Monat"
        in german
    )
    dearer = message(
        "DEP024", "serverless", "en", serverless_usd_per_month=9_124.0, alternative_usd_per_month=7_862.0
    )
    assert "disagrees" not in dearer
    # Against own hardware (no provider), only the serverless product's provider is named.
    own = message("DEP024", "serverless", "en", **prices, serverless_sla="unknown", alternative_sla="")
    assert own.endswith(
        "before relying on the rule: the serverless product's provider has an SLA that could not be "
        "established (providers.yaml)."
    )


MIXED = {
    "mixed_fleet_quietest_replicas": 2,
    "mixed_fleet_busiest_replicas": 5,
    "mixed_fleet_loss_replicas": 0,
    "mixed_fleet_name": "ovhcloud/a100-monthly + ovhcloud/a100 (a100-80gb-pcie)",
    "mixed_fleet_base_replicas": 2,
    "mixed_fleet_base_usd_per_month": 2_552.0,
    "mixed_fleet_peak_gpu_hours": 487.0,
    "mixed_fleet_peak_usd_per_month": 1_500.74,
    "mixed_fleet_usd_per_month": 4_052.74,
    "mixed_fleet_saving": 0.28,
    "best_option_usd_per_month": 5_605.65,
}


def test_a_mixed_fleet_says_what_each_hour_needs_apart_from_what_a_lost_instance_takes() -> None:
    """Five to eight replicas by hour, three of them in every hour for the loss of an instance that
    carries four (SIZ015): the hours need two to five, as the Sizing table counts the busiest."""
    said = message(
        "DEP025",
        "economics",
        "en",
        **{
            **MIXED,
            "mixed_fleet_quietest_replicas": 5,
            "mixed_fleet_busiest_replicas": 8,
            "mixed_fleet_loss_replicas": 3,
        },
        mixed_fleet_two_providers=False,
    )
    assert said.startswith(
        "Every hour of the day needs at least 2 replicas, the busiest 5, spares included, and runs 3 more, "
        "so that an instance lost with several replicas takes only those and the spares, and the hour's "
        "load keeps its own (SIZ015): 5 to 8. ovhcloud/a100-monthly"
    )
    assert message("DEP025", "economics", "en", **MIXED, mixed_fleet_two_providers=False).startswith(
        "Every hour of the day needs at least 2 replicas, the busiest 5. ovhcloud/a100-monthly"
    )


def test_a_mixed_fleet_of_one_provider_says_nothing_of_two() -> None:
    one = message("DEP025", "economics", "en", **MIXED, mixed_fleet_two_providers=False)
    two = message("DEP025", "economics", "en", **MIXED, mixed_fleet_two_providers=True)
    assert "two providers" not in one
    assert two == one + (
        " The base and the hourly instances are two providers': two contracts, and one load balancer in "
        "front of both clouds."
    )


def test_growing_volume_names_only_the_lines_still_ahead() -> None:
    """DEP013 told a workload at 300,000 requests a day to revisit the decision as the volume crossed the
    10,000 and 100,000 lines, both long behind it."""
    said = {
        v: message("DEP013", "workload", "en", volume_growing=True, requests_per_day=v) for v in (5000, 50000)
    }
    assert said[5000].endswith("as the volume grows across the 10,000 and 100,000 requests/day lines.")
    assert said[50000].endswith("as the volume grows across the 100,000 requests/day line.")
    assert message("DEP013", "workload", "en", volume_growing=True, requests_per_day=300_000).endswith(
        "as the volume grows: past the 100,000 requests/day line, self-hosting is evaluated already, and the "
        "prices compared here decide at each volume."
    )


DEP018_HOURS = {
    "serverless_name": "RunPod Serverless",
    "serverless_billed_hours": 1_897.0,
    "serverless_busy_hours": 1_693.0,
    "serverless_idle_hours": 197.0,
    "serverless_cold_start_hours": 7.23,
    "serverless_kept_warm_instances": 2,
    "serverless_kept_every_hour": False,
    "alternative_name": "2 × HGX H100 8-GPU",
    "alternative_staff_uncosted": "",
    "serverless_usd_per_month": 16_353.74,
    "alternative_usd_per_month": 18_978.06,
}


def test_serverless_hours_in_german_say_whose_starts_they_are() -> None:
    """The German says what the English says of the start hours: the kept-warm instances' own starts,
    the starts of the instances added for busier hours, or both, with how many were added."""

    def dep018(lang: str, scale_ups: float, run_on: bool) -> str:
        said = message(
            "DEP018",
            "serverless",
            lang,
            **DEP018_HOURS,
            serverless_scale_ups=scale_ups,
            serverless_kept_run_on=run_on,
        )
        return said.split("(", 1)[1].split(")")[0]

    assert dep018("en", 122.0, False) == (
        "1,693 of them serving requests, 197 idle with 2 kept warm in every paid hour, 7.23 in the starts of "
        "122 instances added for busier hours"
    )
    assert dep018("de", 122.0, False) == (
        "1.693 davon mit der Bearbeitung von Anfragen, 197 im Leerlauf, 7,23 in den Starts von 122 für "
        "lastreichere Stunden hinzugekommenen Instanzen; 2 Instanzen werden in jeder bezahlten Stunde warm "
        "gehalten"
    )
    assert dep018("de", 1.0, False).endswith(
        "7,23 in den Starts von 1 für lastreichere Stunden hinzugekommenen Instanz; 2 Instanzen werden in "
        "jeder bezahlten Stunde warm gehalten"
    )
    assert dep018("de", 122.0, True) == (
        "1.693 davon mit der Bearbeitung von Anfragen, 197 im Leerlauf, 7,23 in Starts, denen der warm "
        "gehaltenen Instanzen und denen von 122 für lastreichere Stunden hinzugekommenen Instanzen; "
        "2 Instanzen werden in jeder bezahlten Stunde warm gehalten und laufen nach jedem bedienten Tag bis "
        "zum Skalieren auf null weiter"
    )
    assert dep018("de", 0.0, True) == (
        "1.693 davon mit der Bearbeitung von Anfragen, 197 im Leerlauf, 7,23 in den Starts der warm "
        "gehaltenen Instanzen; 2 Instanzen werden in jeder bezahlten Stunde warm gehalten und laufen nach "
        "jedem bedienten Tag bis zum Skalieren auf null weiter"
    )
