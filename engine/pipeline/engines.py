"""The rules engine of the catalog (plus an organization's policies), built once per process."""

from __future__ import annotations

from functools import cache, lru_cache

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.rulebook.durable import RulesEngine
from gpu_advisor.engine.rulebook.loading import (
    POLICY_CACHE_ENTRIES,
    PolicyKey,
    load_rulebook,
    load_rulebook_with_policies,
    policy_key,
    rulebook_for_policies,
)
from gpu_advisor.engine.rulebook.schema import Rulebook


def rules_engine(policy_dir: str | None = None) -> RulesEngine:
    """The engine for the catalog, built once per process, or for the catalog plus an organization's
    policies, cached by the policy files' content (a changed or deleted file takes effect; at most
    ``POLICY_CACHE_ENTRIES`` directories are kept)."""
    if policy_dir is None:
        return catalog_engine()
    return policy_engine(policy_key(policy_dir))


@cache
def catalog_engine() -> RulesEngine:
    rulebook = load_rulebook()
    return RulesEngine(rulebook, rulebook.threshold_values(load_knowledge()))


@lru_cache(maxsize=POLICY_CACHE_ENTRIES)
def policy_engine(key: PolicyKey) -> RulesEngine:
    rulebook = rulebook_for_policies(key)
    return RulesEngine(rulebook, rulebook.threshold_values(load_knowledge()))


def rules_engine_reading(policy_dir: str | None, sent_with_facts: frozenset[str]) -> RulesEngine:
    """``rules_engine(policy_dir)``, but comparing with the thresholds ``sent_with_facts`` as each
    session gives them (a scenario's drawn thresholds, ``RulesEngine.with_thresholds``); built once per
    process and set of thresholds."""
    if not sent_with_facts:
        return rules_engine(policy_dir)
    return _engine_reading(None if policy_dir is None else policy_key(policy_dir), sent_with_facts)


@lru_cache(maxsize=POLICY_CACHE_ENTRIES)
def _engine_reading(key: PolicyKey | None, sent_with_facts: frozenset[str]) -> RulesEngine:
    rulebook = load_rulebook() if key is None else rulebook_for_policies(key)
    return RulesEngine(rulebook, rulebook.threshold_values(load_knowledge()), sent_with_facts)


def rulebook_for(policy_dir: str | None) -> Rulebook:
    return load_rulebook() if policy_dir is None else load_rulebook_with_policies(policy_dir)
