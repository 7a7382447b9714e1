"""DEP012 states the documents' rule of thumb (a GPU needed most hours: dedicated GPUs are more economical
than serverless) and says where the priced comparison disagrees. A Swiss bank's RAG assistant in office
hours got the bare line, while its options table priced RunPod Serverless in the EU at $2,417 a month
against $16,817 for the cheapest rental, whose cards a business-critical service keeps all 730 hours
(PRC033); serverless was kept out by an exclusion (PRV003: no enterprise SLA), not by the line."""

from __future__ import annotations

from helpers import flat, run
from test_message_wording import message

BANK_RAG = {
    "name": "bank-rag",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 8000,
    "avg_input_tokens": 12000,
    "avg_output_tokens": 500,
    "shared_prefix_tokens": 1500,
    "context_tokens": 16384,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "max_time_to_first_token_ms": 2500,
    "max_time_per_output_token_ms": 60,
    "personal_data": True,
    "personal_data_region": "ch",
    "business_critical": True,
    "company_country": "CH",
}

LINE = (
    "A GPU would be needed in 93 % of the paid hours, at or above the 50 % edge of the serverless break-even "
    "band: by the documents' rule of thumb, dedicated GPUs are more economical than an endpoint that would "
    "hardly ever scale to zero."
)


def test_the_band_says_the_prices_disagree_and_which_rule_keeps_serverless_out() -> None:
    result = run(BANK_RAG)
    assert "PRC033" in result.fired_rules and result.serverless_option is None
    assert result.decision.deployment == "api" and result.resolution.winner_rule_id == "DEP001"
    (said,) = [flat(f.message) for f in result.findings if f.rule_id == "DEP012"]
    assert said == (
        f"{LINE} Here the priced comparison disagrees with the rule: RunPod Serverless (eu-datacenters, "
        "1 × b200), the cheapest serverless product priced where the data may be processed, would bill "
        "$2,417 a month (353 GPU-hours), less than the cheapest other self-hosted route at $16,817, whose "
        "cards are billed for all 730 hours of the month, not only the 176 paid hours. It is excluded by "
        "PRV003, as every serverless product is by some rule: the exclusions, not this line, keep serverless "
        "out."
    )
    # The product it names is the options table's, excluded by PRV003 alone.
    row = next(
        o
        for o in result.options
        if (o.provider, o.gpu, o.pricing) == ("runpod", "b200", "serverless") and o.excluded_by == ("PRV003",)
    )
    assert round(row.usd_per_month) == 2_417


def test_without_a_cheaper_product_the_band_says_its_line_alone() -> None:
    """A serverless product dearer than the rental: the rule of thumb and the prices agree."""
    said = message(
        "DEP012",
        "serverless",
        "en",
        utilization=0.93,
        serverless_offered=False,
        set_aside_serverless_name="RunPod Serverless (eu-datacenters, 1 × b200)",
        set_aside_serverless_usd_per_month=17_000.0,
        set_aside_serverless_gpu_hours=353.0,
        set_aside_serverless_by=("PRV003",),
        alternative_usd_per_month=16_817.0,
        alternative_billed_hours=730.0,
    )
    assert said == LINE


def test_the_band_s_disagreement_in_german() -> None:
    said = message(
        "DEP012",
        "serverless",
        "de",
        utilization=0.93,
        serverless_offered=False,
        schedule_hours_per_month=176.0,
        hours_per_month=176.0,
        set_aside_serverless_name="RunPod Serverless (eu-datacenters, 1 × b200)",
        set_aside_serverless_usd_per_month=2_417.0,
        set_aside_serverless_gpu_hours=353.0,
        set_aside_serverless_by=("PRV003",),
        alternative_usd_per_month=16_817.0,
        alternative_billed_hours=730.0,
    )
    assert said.endswith(
        "Hier widerspricht der Preisvergleich der Regel: RunPod Serverless (eu-datacenters, 1 × b200), das "
        "günstigste Serverless-Produkt, das dort bepreist ist, wo die Daten verarbeitet werden dürfen, "
        "kostete 2.417 $ pro Monat (353 GPU-Stunden), weniger als der günstigste andere Self-Hosting-Weg mit "
        "16.817 $, dessen Karten für alle 730 Stunden des Monats abgerechnet werden, nicht nur für die 176 "
        "bezahlten Stunden. Es ist durch PRV003 ausgeschlossen, wie jedes Serverless-Produkt durch eine "
        "Regel: Die Ausschlüsse, nicht diese Faustregel, halten Serverless heraus."
    )
