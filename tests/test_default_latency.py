"""DEP031: a latency sensitivity left at its default that keeps serverless warm, where scaling to zero
would cost much less. The scale-to-zero price is checked against the two serverless prices around it (the
kept-warm option of the same workload, and the workload stated not latency-sensitive, without the spare
replica), the cold start and the compared route by hand."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR

from gpu_advisor.api import check
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import load_workload, validate_workload
from gpu_advisor.engine.i18n.formats import Format

SPORADIC: dict[str, Any] = {
    "name": "sporadic-large",
    "model": {"name": "llama-3.1-405b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 40,
    "avg_input_tokens": 5000,
    "avg_output_tokens": 1000,
    "load_pattern": "variable",
    "company_country": "DE",
}


def result(**changes: Any) -> Recommendation:
    return recommend(validate_workload({**SPORADIC, **changes}, "test"), EVALUATED_ON)


def message(r: Recommendation, rule_id: str) -> str | None:
    return next((f.message for f in r.findings if f.rule_id == rule_id), None)


def test_a_defaulted_latency_sensitivity_that_costs_a_warm_instance_is_named_with_its_price() -> None:
    r = result()
    text = message(r, "DEP031")
    assert text is not None
    # Own hardware decides (two HGX H100 nodes, TCO017); the API is ruled out (own weights, DEP005).
    assert (r.decision.deployment, r.decision.deciding_rule_id) == ("own_hardware", "TCO017")
    standing = r.decision.usd_per_month
    found = re.search(r"would cost at least \$([\d,]+) a month .* at most (\d+) % less than", text)
    assert found is not None
    scale_to_zero = float(found.group(1).replace(",", ""))
    assert round((1 - scale_to_zero / standing) * 100) == int(found.group(2))
    # The kept-warm serverless option of the same workload costs more, and the workload stated not
    # latency-sensitive (no spare replica, nothing kept warm) costs less.
    warm = r.serverless_option
    assert warm is not None and scale_to_zero < warm.usd_per_month
    cold = result(latency_sensitive=False)
    assert cold.decision.deployment == "serverless"
    assert cold.decision.usd_per_month <= scale_to_zero
    # Modal's start (1 s), the 405B's FP8 checkpoint (401.65B parameters at 1 byte and the 16-bit
    # embedding and lm_head, 2 x 128,256 x 16,384 x 2 bytes: 410.05 GB) at 2.5 GB/s, 164.02 s, and vLLM's
    # 21.8 s start: 186.8 s, shown as 187; 40 requests × 30.42 days = 1,217 a month, about
    # 1,022 of them finding no instance running (a lone request on 4 × B200 takes 25.28 s, and an
    # instance is up for the start and it); compared with the decided nodes.
    assert warm.serverless is not None
    assert warm.serverless.cold_start_seconds == pytest.approx(1 + 410.052693 / 2.5 + 21.8)
    assert text == (
        "The workload does not say whether its users can wait, so it is taken as latency-sensitive (the "
        "default): serverless instances are kept warm in every paid hour and spot is excluded. If a request "
        "may wait for a cold start, at least 187 s on Modal serverless functions (global, 4 × b200) (the "
        "platform's start, the weights loaded and the engine started; about 1,022 such waits a month, of "
        "1,217 requests), that "
        f"product scaling to zero would cost at least ${scale_to_zero:,.0f} a month (its cold starts billed "
        "at that floor, with the spare replicas the plan runs), "
        f"at most {found.group(2)} % less than the cheapest route standing "
        "(2 × HGX H100 8-GPU (16 × h100-sxm), "
        f"${standing:,.0f}). State latency_sensitive: false if it may, or true to keep this decision and "
        "drop this note."
    )
    german = message(
        recommend(validate_workload(SPORADIC, "test"), EVALUATED_ON, fmt=Format(lang="de")), "DEP031"
    )
    assert german is not None and german.startswith("Der Workload sagt nicht, ob seine Nutzer warten können")


def test_a_stated_latency_sensitivity_or_a_cheap_warm_instance_gets_no_note() -> None:
    assert message(result(latency_sensitive=True), "DEP031") is None
    assert message(result(latency_sensitive=False), "DEP031") is None
    # A steady 70B service of 300,000 requests a day: instances are busy in every hour, no request would
    # wait for a start from zero, so keeping one warm costs nothing worth a question.
    busy = result(
        model={"name": "llama-3.1-70b", "precision": "fp8"},
        requests_per_day=300_000,
        avg_input_tokens=300,
        avg_output_tokens=150,
        load_pattern="steady",
    )
    assert busy.workload.defaults_used.count("latency_sensitive") == 1
    assert message(busy, "DEP031") is None


def test_no_note_where_another_rule_has_ruled_serverless_out() -> None:
    """The HR assistant of the examples without its latency_sensitive: requests are in flight in most of
    its workday hours, so DEP024 rules serverless out whatever its price; stating the sensitivity would
    not bring it back, so DEP031 stays silent."""
    hr = load_workload(str(EXAMPLES_DIR / "hr-assistant.yaml")).model_dump(exclude_none=True)
    del hr["latency_sensitive"]
    r = recommend(validate_workload(hr, "test"), EVALUATED_ON)
    assert "DEP024" in r.fired_rules
    assert message(r, "DEP031") is None


def test_check_passes_the_purchase_recommend_makes_where_the_prices_say_buy() -> None:
    """The sporadic 405B: recommend buys two HGX H100 nodes (TCO017: busy 2 % of the month, but every
    admitted rental bills more); check on exactly that purchase must not fail it by the rule of thumb
    alone (TCO009 asks, as TCO004 does, that a rental bill less)."""
    r = result()
    assert (r.decision.deployment, r.decision.offer, r.decision.gpus) == ("own_hardware", "hgx-h100-8", 16)
    proposal = {
        "name": "two nodes",
        "deployment": "own_hardware",
        "server": "hgx-h100-8",
        "servers": 2,
        "gpu": "h100-sxm",
        "gpus": 16,
    }
    checked = check({"workload": SPORADIC, "proposal": proposal}, EVALUATED_ON)
    tco009 = next(item for item in checked.results if item.rule_id == "TCO009")
    assert tco009.status == "pass"
    assert checked.status != "fail"


def test_a_batch_marked_latency_sensitive_gets_no_latency_targets() -> None:
    """A latency-sensitive batch keeps its awaited-results rules (no batch API, no spot) but no per-token
    targets: a target given for a batch is refused, so none is derived for one either (the nightly
    batch marked latency-sensitive was held to the chat defaults of 1,000 ms and 100 ms)."""
    document = {**SPORADIC, "load_pattern": "batch", "latency_sensitive": True}
    urgent = recommend(validate_workload(document, "test"), EVALUATED_ON)
    assert urgent.workload.max_time_to_first_token_ms is None
    assert urgent.workload.max_time_per_output_token_ms is None
    assert {"DEP029", "PRC002"} <= set(urgent.fired_rules)
    assert not [rule for rule in urgent.fired_rules if rule.startswith("LAT")]
    served = result(latency_sensitive=True)
    assert (served.workload.max_time_to_first_token_ms, served.workload.max_time_per_output_token_ms) == (
        1000,
        100,
    )


def test_a_kept_warm_serverless_decision_is_compared_with_itself_scaled_to_zero() -> None:
    """Where the route standing is the serverless option itself, kept warm, the note says so: it
    compared "that product scaling to zero" with "the cheapest route standing" without saying the two
    are one product."""
    r = recommend(
        validate_workload(
            {
                "name": "de-support-8b",
                "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
                "requests_per_day": 3_000,
                "avg_input_tokens": 800,
                "avg_output_tokens": 250,
                "load_pattern": "variable",
                # Around the clock, with DevOps capacity: without it RunPod's direct endpoint, whose
                # worker the team builds, is excluded (PRV031); on workdays owning wins.
                "schedule": "always",
                "personal_data": True,
                "company_country": "DE",
            },
            "test",
        ),
        EVALUATED_ON,
    )
    assert r.decision.deployment == "serverless"
    chosen = r.serverless_option
    assert chosen is not None and (chosen.provider, chosen.gpu) == ("runpod", "l40s")
    text = message(r, "DEP031")
    assert text is not None
    cost = f"${chosen.usd_per_month:,.0f}"
    assert f"(RunPod Serverless (eu-datacenters, 1 × l40s), {cost}: the same product kept warm)" in text
    # A route of another kind standing: no such words (the sporadic 405B, own hardware standing).
    other = message(result(), "DEP031")
    assert other is not None and "the same product kept warm" not in other
