"""Carrying out rule conclusions: which GPUs and options they exclude, which pricing they prefer, and
which deployment wins when rules disagree.

Nothing here decides on its own: every exclusion, preference and proposal comes from a fired rule's
declared conclusion. Conflicts are settled by the precedence each rule declares, and the result records
who won, who lost and who was ruled out by whom, for the memo.

"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.results import Proposal, Resolution
from gpu_advisor.engine.rulebook.durable import Firing
from gpu_advisor.engine.rulebook.schema import OptionFilter, Rule, Rulebook


def fired_rules(firings: Iterable[Firing], rulebook: Rulebook) -> list[Rule]:
    """The rules that fired, each once, in catalog order (a proposal check's applicability marker is
    not a firing)."""
    fired = {firing.rule_id for firing in firings if not firing.applicability}
    places, rules = _catalog_places(rulebook.rules), rulebook.rules
    # A few fired rules sorted by their places: a scan of the whole catalog costs more, several times a
    # recommendation.
    return [rules[place] for place in sorted(place for rule_id in fired for place in places.get(rule_id, ()))]


@per_object
def _catalog_places(rules: tuple[Rule, ...]) -> dict[str, tuple[int, ...]]:
    """Rule ID -> its places in ``rules`` (several only where IDs repeat, which loading refuses). Worked
    out once per rulebook: its rules are a tuple of frozen models, never changed once loaded."""
    places: dict[str, tuple[int, ...]] = {}
    for place, rule in enumerate(rules):
        places[rule.id] = (*places.get(rule.id, ()), place)
    return places


def unsuitable_gpus(firings: Iterable[Firing], rulebook: Rulebook) -> dict[str, list[str]]:
    """GPU id -> IDs of the rules that declared it unsuitable for this model."""
    found: dict[str, list[str]] = {}
    for firing in firings:
        if rulebook.rule(firing.rule_id).then.gpu_unsuitable:
            found.setdefault(str(firing.fact["gpu"]), []).append(firing.rule_id)
    return found


def dropped_targets(firings: Iterable[Firing], rulebook: Rulebook) -> tuple[str, ...]:
    """The default latency targets the fired rules drop, in firing order, each once."""
    dropped = (rulebook.rule(firing.rule_id).then.drop_default_target for firing in firings)
    return tuple(dict.fromkeys(field for field in dropped if field is not None))


def dropping_firings(firings: Iterable[Firing], rulebook: Rulebook) -> tuple[Firing, ...]:
    """The firings of the rules that drop a default latency target."""
    return tuple(f for f in firings if rulebook.rule(f.rule_id).then.drop_default_target is not None)


def unsuitable_offers(firings: Iterable[Firing], rulebook: Rulebook) -> dict[str, list[str]]:
    """Offer key (provider/offer/gpu) -> IDs of the rules that declared it unable to carry the model."""
    found: dict[str, list[str]] = {}
    for firing in firings:
        if rulebook.rule(firing.rule_id).then.offer_unsuitable:
            fact = firing.fact
            found.setdefault(f"{fact['provider']}/{fact['offer']}/{fact['gpu']}", []).append(firing.rule_id)
    return found


def option_filters(rules: Sequence[Rule]) -> list[tuple[str, OptionFilter]]:
    return [(rule.id, option_filter) for rule in rules for option_filter in rule.then.exclude_options]


def excluded_by(attributes: Mapping[str, object], filters: Sequence[tuple[str, OptionFilter]]) -> list[str]:
    """IDs of the rules whose exclusion matches an option's attributes."""
    return [rule_id for rule_id, f in filters if f.excludes(attributes)]


def preferred_pricing(rules: Sequence[Rule]) -> tuple[str, str] | None:
    """(pricing kind, rule ID) of the first rule that prefers a pricing kind, if any."""
    for rule in rules:
        if rule.then.prefer_pricing is not None:
            return rule.then.prefer_pricing, rule.id
    return None


def concludes(rules: Sequence[Rule], conclusion: str) -> bool:
    """Some fired rule draws the boolean ``conclusion`` (add_spare_replica, keep_serverless_warm)."""
    return any(getattr(rule.then, conclusion) for rule in rules)


def proposal_stands(rules: Sequence[Rule], deployment: str) -> bool:
    """Some fired rule proposes ``deployment`` and no fired rule rules that proposal out (the test
    ``settle_deployment`` applies)."""
    strongest_rule_out = max(
        (
            r.then.rule_out.precedence
            for r in rules
            if r.then.rule_out and deployment in r.then.rule_out.deployments
        ),
        default=0,
    )
    return any(
        r.then.propose.deployment == deployment and r.then.propose.precedence >= strongest_rule_out
        for r in rules
        if r.then.propose is not None
    )


def settle_deployment(rules: Sequence[Rule]) -> Resolution:
    """Settle the proposed deployments.

    A proposal is ruled out by a fired rule-out naming its deployment with a higher precedence than the
    proposal's. The surviving proposal with the highest precedence wins (ties: catalog order). If every
    proposal is ruled out, the weakest objection yields: the proposal whose strongest rule-out has the
    lowest precedence wins.
    """
    rule_outs = [(rule.id, rule.then.rule_out) for rule in rules if rule.then.rule_out is not None]
    candidates: list[tuple[Rule, list[str], int]] = []
    for rule in rules:
        proposal = rule.then.propose
        if proposal is None:
            continue
        against = [
            (rule_id, rule_out.precedence)
            for rule_id, rule_out in rule_outs
            if proposal.deployment in rule_out.deployments and proposal.precedence < rule_out.precedence
        ]
        strongest = max((precedence for _, precedence in against), default=0)
        candidates.append((rule, [rule_id for rule_id, _ in against], strongest))
    if not candidates:
        raise ValueError("no rule proposed a deployment")

    surviving = [c for c in candidates if not c[1]]
    pool = surviving or [c for c in candidates if c[2] == min(c[2] for c in candidates)]
    winner = max(pool, key=lambda c: c[0].then.propose.precedence)  # type: ignore[union-attr]
    # max() keeps the first of equal keys, and candidates are in catalog order.
    proposals = tuple(
        Proposal(
            rule_id=rule.id,
            deployment=rule.then.propose.deployment,  # type: ignore[union-attr]
            precedence=rule.then.propose.precedence,  # type: ignore[union-attr]
            status="won" if rule is winner[0] else ("ruled_out" if against else "lost"),
            ruled_out_by=tuple(against),
        )
        for rule, against, _ in candidates
    )
    return Resolution(
        winner_rule_id=winner[0].id,
        proposals=proposals,
        ruled_out=ruled_out_deployments(rules),
        barred=ruled_out_deployments(rules, bars_only=True),
    )


def removed_deployments(rules: Sequence[Rule]) -> set[str]:
    """The deployments the fired rule-outs remove: ruled out, and no fired rule's proposal of them stands
    against every rule-out (``proposal_stands``: on-premises servers required, DEP006, stand against a
    policy's rule-out of buying at a lower precedence)."""
    return {d for d in ruled_out_deployments(rules) if not proposal_stands(rules, d)}


def is_bar(rule: Rule) -> bool:
    """The rule rules deployments out as a legal or technical bar (``RuleOut.bar``), which a proposal
    fails on (DEP017); a rule-out without it weighs cost or strategy (DEP041)."""
    return rule.then.rule_out is not None and rule.then.rule_out.bar


def ruled_out_deployments(rules: Sequence[Rule], bars_only: bool = False) -> dict[str, tuple[str, ...]]:
    """Deployment -> IDs of the fired rules that rule it out, in catalog order; ``bars_only``: only the
    bars (``is_bar``), not the rules that weigh cost or strategy."""
    ruled_out: dict[str, tuple[str, ...]] = {}
    for rule in rules:
        if rule.then.rule_out is not None and (not bars_only or is_bar(rule)):
            for deployment in rule.then.rule_out.deployments:
                ruled_out[deployment] = (*ruled_out.get(deployment, ()), rule.id)
    return ruled_out
