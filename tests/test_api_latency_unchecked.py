"""A managed API decision says in its JSON, as the memo says in words, that the latency targets are not
checked for it: the catalog holds no latency of an API. A pipeline reading only the JSON saw a clean API
decision for a voice agent's 250 ms first token."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.present.memo import render_memo

VOICE = {
    "name": "voice",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 20_000,
    "max_time_to_first_token_ms": 250,
    "max_time_per_output_token_ms": 30,
}


def test_an_api_decision_with_targets_says_they_are_unchecked() -> None:
    result = run(VOICE)
    assert result.decision.deployment == "api"
    assert result.decision.latency_targets_unchecked
    assert "the catalog holds no latency of the API, so the targets are not checked" in " ".join(
        render_memo(result).split()
    )


def test_an_api_decision_without_targets_has_none_to_check() -> None:
    batch = {**VOICE, "max_time_to_first_token_ms": None, "max_time_per_output_token_ms": None}
    result = run({**batch, "latency_sensitive": False})
    assert result.decision.deployment == "api"
    assert not result.decision.latency_targets_unchecked


def test_a_self_hosted_decision_is_sized_to_its_targets() -> None:
    result = run({**VOICE, "model": {**VOICE["model"], "custom_weights": True}})
    assert result.decision.deployment != "api"
    assert not result.decision.latency_targets_unchecked
