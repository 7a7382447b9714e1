"""``check --scenarios N``: how often a proposal is the decision across the workload's scenarios (the same
draws as ``recommend --scenarios N``); ROB004 (``rules/robustness.yaml``) and an organization's rules read
the share from the proposal fact."""

from __future__ import annotations

import math
from typing import Any

from gpu_advisor.engine.apps.scenarios.recommend import robustness_of
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.proposal import ProposalInput
from gpu_advisor.engine.domain.robustness import OptionShare, Robustness
from gpu_advisor.engine.domain.workload import WorkloadInput
from gpu_advisor.engine.domain.workload_ranges import split_ranges
from gpu_advisor.engine.pipeline.evaluation import Evaluation


def names_option(proposal: ProposalInput, option: OptionShare) -> bool:
    """The proposal names this option: the same deployment, and every field the proposal gives (pricing,
    provider, offer or own server, GPU) agrees with the option's."""
    if proposal.deployment != option.deployment:
        return False
    offer = proposal.server if proposal.deployment == "own_hardware" else proposal.offer
    given = (
        (proposal.pricing, option.pricing),
        (proposal.provider, option.provider),
        (offer, option.offer),
        (proposal.gpu, option.gpu),
    )
    return all(mine is None or theirs is None or mine == theirs for mine, theirs in given)


def proposal_win_share(proposal: ProposalInput, robustness: Robustness) -> float:
    # fsum: the shares of every option add up to exactly 1 (a plain sum may stop at 0.9999999999999999).
    return math.fsum(o.share for o in robustness.option_win_share if names_option(proposal, o))


def proposal_robustness(
    workload_data: Any,
    workload: WorkloadInput,
    evaluation: Evaluation,
    policy_dir: str | None,
    scenarios: int,
    seed: int,
    origin: str | Words,
) -> Robustness:
    """The workload's scenarios (its ranges, if the document gives any, and the knowledge base's)."""
    _, ranges = split_ranges(workload_data, origin) if isinstance(workload_data, dict) else (None, None)
    assert ranges is not None  # validate_workload refused anything but a mapping
    return robustness_of(evaluation, workload, ranges, None, policy_dir, scenarios, seed)
