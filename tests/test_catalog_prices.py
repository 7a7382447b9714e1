"""The wider catalog: EU-native providers priced in EUR (converted at load, the list price kept), spot
prices, the corrected AWS regions, and hosted API prices per size class (the workload's own model, else
the nearest class at or above it; EU-hosted ones where personal data requires the EU; batch APIs for
batch work only)."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import run

from gpu_advisor.engine.apps.overrides import apply_overrides
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.domain.overrides import Overrides, RateOverride
from gpu_advisor.engine.domain.results import ApiCost, Recommendation
from gpu_advisor.engine.i18n.environment import say
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.knowledge import KNOWLEDGE_DIR

NO_PRICE = "No hosted API price for a model of this size in the catalog, so no managed API is compared."


def offer(provider: str, name: str, gpu: str):
    return next(o for o in load_knowledge().offers.offers if o.key == f"{provider}/{name}/{gpu}")


def compared(result: Recommendation) -> ApiCost | None:
    return next((a for a in result.api_costs if a.compared), None)


# --- offers ---------------------------------------------------------------------------------------------


def test_a_eur_list_price_is_converted_at_load_and_kept() -> None:
    # STACKIT's price API: 8.04134722222 EUR per GPU-hour of n3 (H100 HGX); the catalog's rate is 1.16.
    n3 = offer("stackit", "n3-gpu-server", "h100-sxm")
    assert (n3.currency, n3.list_price_per_gpu_hour, n3.vat) == ("EUR", 8.04134722222, "not_stated")
    assert n3.usd_per_gpu_hour == pytest.approx(8.04134722222 * 1.16, abs=1e-12)
    ovh = offer("ovhcloud", "h100", "h100-pcie")
    assert (ovh.list_price_per_gpu_hour, ovh.vat, ovh.usd_per_gpu_hour) == (2.80, "excluded", 2.80 * 1.16)


def test_eu_native_providers_sell_eu_prices_in_their_instance_sizes() -> None:
    knowledge = load_knowledge()
    for provider in ("stackit", "ovhcloud", "scaleway"):
        offers = [o for o in knowledge.offers.offers if o.provider == provider]
        assert offers, provider
        for o in offers:
            # Their prices are EU prices: listed where they apply, no premium estimate.
            assert o.price_jurisdiction == "EU" and set(knowledge.offer_regions_by_jurisdiction(o)) == {"EU"}
            regions = {r.id: r for r in knowledge.provider(provider).regions}
            assert all(regions[r].countries for r in o.regions), o.key
    assert offer("stackit", "n3-gpu-server", "h100-sxm").instance_gpus == (1, 2, 4, 8)
    assert offer("stackit", "n3-gpu-server", "h100-sxm").nvlink_instance_gpus == (8,)
    assert offer("scaleway", "h100-sxm-8-80g", "h100-sxm").billing_increment_seconds == 60
    # OVH's monthly price is a one-month commitment: 1,940 EUR a month over 730 hours.
    monthly = offer("ovhcloud", "h100-monthly", "h100-pcie")
    assert (monthly.pricing, monthly.billing, monthly.commitment_months) == ("reserved", "committed", 1)
    assert monthly.list_price_per_gpu_hour == pytest.approx(1940 / 730, abs=1e-6)


def test_aws_p5_is_not_offered_in_frankfurt() -> None:
    for name in ("p5-on-demand", "p5-reserved-1y", "p5-reserved-3y"):
        p5 = offer("aws", name, "h100-sxm")
        assert p5.regions == ("us-east-1",), name
        assert p5.usd_per_gpu_hour in (3.90, 2.10, 1.90)  # the documents' figures stay
    stockholm = offer("aws", "p5-on-demand-stockholm", "h100-sxm")
    assert (stockholm.regions, stockholm.price_jurisdiction, stockholm.usd_per_gpu_hour) == (
        ("eu-north-1",),
        "EU",
        7.3616,
    )


def test_spot_prices_with_their_sizes_and_dates() -> None:
    spot = {
        o.key: (o.usd_per_gpu_hour, o.instance_gpus, o.as_of.isoformat())
        for o in load_knowledge().offers.offers
        if o.pricing == "spot" and o.provider in ("aws", "azure", "gcp")
    }
    assert spot == {
        "aws/p5-spot/h100-sxm": (2.598, (8,), "2026-09-19"),
        "azure/nd-h100-v5-spot/h100-sxm": (2.373, (8,), "2026-09-19"),
        "gcp/a3-high-spot/h100-sxm": (6.620, (8,), "2026-09-19"),
        "gcp/a3-highgpu-1g-spot/h100-sxm": (6.571, (1,), "2026-09-26"),
    }


def knowledge_with(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], None]) -> Path:
    copy = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = copy / f"{name}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return copy


def test_a_eur_offer_that_states_a_usd_price_is_refused(tmp_path: Path) -> None:
    def usd(data: dict[str, Any]) -> None:
        next(o for o in data["offers"] if o["provider"] == "stackit")["usd_per_gpu_hour"] = 9.0

    with pytest.raises(KnowledgeError, match=r"'stackit/n3-gpu-server/h100-sxm'.*list_price_per_gpu_hour"):
        load_knowledge_from(knowledge_with(tmp_path, "offers", usd))


def test_an_api_price_of_a_catalog_model_has_its_size(tmp_path: Path) -> None:
    def shrink(data: dict[str, Any]) -> None:
        next(a for a in data["apis"] if a["id"] == "llama-3.1-405b-deepinfra")["model_params_b"] = 400

    with pytest.raises(KnowledgeError, match=r"'llama-3.1-405b-deepinfra': field model_params_b: llama"):
        load_knowledge_from(knowledge_with(tmp_path, "api_prices", shrink))


def test_the_prices_of_one_size_stand_in_up_to_one_size(tmp_path: Path) -> None:
    """A 70B class whose bound (72B, the Qwen counted in) only some prices carry would compare the 72B Qwen
    with the cheapest of those alone and call the others another, smaller model: refused at load."""

    def unbound(data: dict[str, Any]) -> None:
        del next(a for a in data["apis"] if a["id"] == "llama-3.3-70b-scaleway")["stands_in_up_to_params_b"]

    with pytest.raises(KnowledgeError) as refused:
        load_knowledge_from(knowledge_with(tmp_path, "api_prices", unbound))
    assert str(refused.value) == (
        f"{tmp_path / 'knowledge' / 'api_prices.yaml'}: the hosted 70B prices stand in up to different sizes "
        "(70B: llama-3.3-70b-scaleway; 72B: llama-3-70b-hosted, llama-3.1-70b-deepinfra, "
        "llama-3.3-70b-deepinfra, llama-3.3-70b-together, llama-3.3-70b-ionos, llama-3.3-70b-ovhcloud): give "
        "each of them the same stands_in_up_to_params_b"
    )


def test_an_eu_hosted_api_price_names_where_that_is_stated(tmp_path: Path) -> None:
    def unsourced(data: dict[str, Any]) -> None:
        del next(a for a in data["apis"] if a["id"] == "llama-3.3-70b-ionos")["location_source"]

    with pytest.raises(KnowledgeError, match=r"'llama-3.3-70b-ionos'.*location_source"):
        load_knowledge_from(knowledge_with(tmp_path, "api_prices", unsourced))


def test_the_users_exchange_rate_reprices_eur_offers() -> None:
    overrides = Overrides(exchange_rate=RateOverride(usd_per_eur=1.05))
    knowledge, replaced = apply_overrides(load_knowledge(), overrides, "rates.yaml", dt.date(2026, 11, 30))
    n3 = next(o for o in knowledge.offers.offers if o.key == "stackit/n3-gpu-server/h100-sxm")
    assert n3.usd_per_gpu_hour == pytest.approx(8.04134722222 * 1.05, abs=1e-12)
    assert tuple(say("en", line) for line in replaced) == ("EUR/USD = 1.05",)


# --- managed APIs of the workload's size class -------------------------------------------------------------


def model_workload(model: str, precision: str = "fp8", **fields: object) -> dict[str, object]:
    workload = {"name": model, "model": {"name": model, "precision": precision}, "requests_per_day": 20000}
    return {**workload, **fields}


@pytest.mark.parametrize("model", [m.id for m in load_knowledge().models.models])
def test_every_catalog_model_is_compared_with_its_size_class_or_the_memo_says_none(model: str) -> None:
    knowledge = load_knowledge()
    result = run(model_workload(model))
    api = compared(result)
    own = [a for a in knowledge.api_prices.apis if a.model == model]
    if api is None:
        assert NO_PRICE in render_memo(result)
        return
    assert api.stands_in and not api.excluded_by
    # Of the model's size or larger (the documents count the 72B Qwen into their 70B price's class).
    price = next(a for a in knowledge.api_prices.apis if a.id == api.api)
    assert (price.largest_stood_in_for or 0) >= knowledge.model(model).params_b
    # The workload's own model where a host serves it; else the nearest class at or above it.
    assert api.same_model == bool(own)
    if not own:
        sizes = [a.model_params_b for a in result.api_costs if a.stands_in and not a.excluded_by]
        assert api.model_params_b == min(s for s in sizes if s is not None)


def test_a_model_larger_than_every_hosted_one_has_no_api_price() -> None:
    result = run({"name": "huge", "model": {"params_b": 1000, "precision": "fp8"}, "requests_per_day": 20000})
    assert compared(result) is None
    assert NO_PRICE in render_memo(result)


def test_an_8b_workload_is_compared_with_an_8b_price() -> None:
    result = run(model_workload("llama-3.1-8b", "bf16"))
    memo = render_memo(result)
    # DeepInfra's 0.02 / 0.04 USD: 20,000 x 30.42 x (300 x 0.02 + 150 x 0.04) / 1e6 = $7.30.
    assert (
        "Compared like for like: Llama 3.1 8B Instruct Turbo (DeepInfra), the cheapest of the 2 prices of "
        "this model open to this workload." in memo
    )
    assert compared(result).usd_per_month == pytest.approx(7.3008)
    assert "KNB005" not in result.fired_rules
    assert result.decision.deployment == "api"
    assert (
        "Recommendation: **Managed API**, about **$7.30 per month** at the price of Llama 3.1 8B Instruct "
        "Turbo (DeepInfra)." in memo
    )


def test_a_batch_workload_is_compared_with_a_batch_api_price() -> None:
    batch = model_workload(
        "llama-3.1-8b",
        "bf16",
        requests_per_day=200000,
        load_pattern="batch",
        batch_window_hours=24,
    )
    result = run(batch)
    api = compared(result)
    # DeepInfra's batch API takes 20 % off 0.02 / 0.04 USD: 200,000 x 30.42 x 0.8 x 12 / 1e6 = $58.4064.
    assert (api.api, api.batch, api.input_per_million_tokens, api.output_per_million_tokens) == (
        "llama-3.1-8b-deepinfra",
        True,
        pytest.approx(0.016),
        pytest.approx(0.032),
    )
    assert api.usd_per_month == pytest.approx(58.4064)
    assert {"DEP028", "DEP029", "DEP030"}.isdisjoint(result.fired_rules)
    assert "Compared like for like: Llama 3.1 8B Instruct Turbo (DeepInfra), batch API," in render_memo(
        result
    )
    # A window shorter than the batch APIs' 24 hours keeps the price per request.
    short = run({**batch, "batch_window_hours": 8})
    assert "DEP030" in short.fired_rules
    assert compared(short).batch is False and compared(short).usd_per_month == pytest.approx(73.008)
    # A latency-sensitive batch does not take a batch API either.
    urgent = run({**batch, "latency_sensitive": True})
    assert "DEP029" in urgent.fired_rules and compared(urgent).batch is False


def test_personal_data_compares_with_an_eu_hosted_price_of_the_nearest_class() -> None:
    result = run(model_workload("llama-3.1-8b", personal_data=True))
    api = compared(result)
    # No EU host serves an 8B model. The nearest class above, OVHcloud's Qwen3.5 9B in Gravelines, thinks
    # before it answers by its card's default, which Llama 3.1 8B does not (KNB022, once RES001 has moved
    # the comparison past the model's own price): IONOS's Mistral Small 24B is the next class.
    assert (api.api, api.jurisdiction, api.same_model) == ("mistral-small-24b-ionos", "EU", False)
    excluded = {a.api: a.excluded_by for a in result.api_costs if not a.batch}
    assert excluded["llama-3.1-8b-deepinfra"] == ("RES001",)
    assert excluded["qwen3.5-9b-ovhcloud"] == ("KNB022",)
    memo = render_memo(result)
    assert (
        "The catalog has no price of this model open to this workload, so the nearest size class at or above "
        "it (in whole billions) is compared: 24B, Mistral Small 24B Instruct (IONOS AI Model Hub), the "
        "cheapest of the 2 prices of that class open to it." in memo
    )
    # Without personal data the model's own price is compared, and no reasoning model's stands near it.
    assert "KNB022" not in run(model_workload("llama-3.1-8b")).fired_rules
    seventy = compared(run(model_workload("llama-3.1-70b", personal_data=True)))
    # IONOS (Germany) at 0.65 EUR is the cheapest EU host of a 70B model.
    assert (seventy.api, seventy.jurisdiction) == ("llama-3.3-70b-ionos", "EU")


def test_405b_and_deepseek_r1_are_compared_with_their_own_prices() -> None:
    assert compared(run(model_workload("llama-3.1-405b"))).api == "llama-3.1-405b-deepinfra"
    # DeepSeek's own API no longer serves R1 (KNB018): DeepInfra's R1-0528 is compared.
    r1 = compared(run(model_workload("deepseek-r1")))
    assert (r1.api, r1.jurisdiction, r1.same_model) == ("deepseek-r1-deepinfra", "unknown", True)
    # DeepInfra guarantees no location, DeepSeek's price is withdrawn and in China: personal data leaves
    # none.
    result = run(model_workload("deepseek-r1", personal_data=True))
    assert compared(result) is None
    assert (
        "The catalog's hosted API prices for a model of this size are all excluded for this workload "
        "(KNB018, RES001), so no managed API is compared." in render_memo(result)
    )
