"""The rules engine of the catalog (plus an organization's policies), built once per process."""

from __future__ import annotations

from functools import cache

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.rulebook.durable import RulesEngine
from gpu_advisor.engine.rulebook.loading import load_rulebook, load_rulebook_with_policies
from gpu_advisor.engine.rulebook.schema import Rulebook


@cache
def rules_engine(policy_dir: str | None = None) -> RulesEngine:
    """The process-wide engine for the catalog (plus an organization's policies): durable-rules hosts are
    built once, then reused for every evaluation."""
    rulebook = rulebook_for(policy_dir)
    return RulesEngine(rulebook, rulebook.threshold_values(load_knowledge()))


def rulebook_for(policy_dir: str | None) -> Rulebook:
    return load_rulebook() if policy_dir is None else load_rulebook_with_policies(policy_dir)
