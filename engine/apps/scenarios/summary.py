"""The ``robustness`` section from the scenarios' outcomes: win shares, cost percentiles, expected regret,
the one-at-a-time sensitivity and where the losing scenarios concentrate.

Percentiles are linear between order statistics (``statistics.quantiles(..., method="inclusive")``, as
numpy's default): P10 of 0, 10, ..., 100 is 10.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence

from gpu_advisor.engine.apps.scenarios.inputs import Drawn
from gpu_advisor.engine.apps.scenarios.outcomes import OptionKey, Outcome
from gpu_advisor.engine.apps.scenarios.run import Values, held_apart, moving_alone
from gpu_advisor.engine.domain.knowledge.uncertainty import AnalysisSettings
from gpu_advisor.engine.domain.robustness import (
    CostBands,
    LossCondition,
    OptionShare,
    RivalCost,
    Robustness,
    Sensitivity,
)


def percentiles(costs: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    if not costs:
        return None, None, None
    if len(costs) == 1:
        return costs[0], costs[0], costs[0]
    deciles = statistics.quantiles(costs, n=10, method="inclusive")
    return deciles[0], deciles[4], deciles[8]


def _sort_key(key: OptionKey) -> tuple[str, ...]:
    return tuple(part or "" for part in key)


def _option(key: OptionKey) -> dict[str, str | None]:
    deployment, pricing, provider, offer, gpu = key
    return {"deployment": deployment, "pricing": pricing, "provider": provider, "offer": offer, "gpu": gpu}


def option_share(key: OptionKey, share: float) -> OptionShare:
    return OptionShare(**_option(key), share=share)


def rival_of(recommended: OptionKey, wins: Counter[OptionKey], base: Outcome) -> OptionKey | None:
    """The option other than the recommended one that wins the most scenarios; where none wins any, the
    cheapest other route the base evaluation weighed."""
    others = sorted(((-count, _sort_key(k), k) for k, count in wins.items() if k != recommended))
    if others:
        return others[0][2]
    routes = sorted(
        (base.costs[k], _sort_key(k), k) for k in base.routes if k != recommended and k in base.costs
    )
    return routes[0][2] if routes else None


def summarize(
    settings: AnalysisSettings,
    seed: int,
    inputs: Sequence[Drawn],
    base: Outcome,
    draws: Sequence[Values],
    outcomes: Sequence[Outcome],
    oat: Sequence[Outcome],
) -> Robustness:
    scenarios = len(outcomes)
    recommended = base.decision
    wins = Counter(o.decision for o in outcomes)
    deployments = Counter(o.decision[0] for o in outcomes)
    rival = rival_of(recommended, wins, base)
    own = [o.costs[recommended] for o in outcomes if recommended in o.costs]
    p10, p50, p90 = percentiles(own)
    rival_cost = None
    if rival is not None:
        theirs = [o.costs[rival] for o in outcomes if rival in o.costs]
        r10, r50, r90 = percentiles(theirs)
        rival_cost = RivalCost(
            **_option(rival),
            share=wins[rival] / scenarios,
            p10=r10,
            p50=r50,
            p90=r90,
            priced_scenarios=len(theirs),
        )
    sensitivities = sensitivity(inputs, recommended, rival, oat)
    # Only an input that moves something on its own (the sensitivity table) is named as where the
    # recommendation loses: another one beyond a cut in a few dozen draws is chance.
    moved = {s.input for s in sensitivities if s.effect > 0 or s.decision_changes}
    moving = [d for d in inputs if d.summary.id in moved]
    regrets = [
        max(0.0, o.costs[recommended] - o.cost)
        for o in outcomes
        if recommended in o.costs and o.cost is not None
    ]
    return Robustness(
        scenarios=scenarios,
        seed=seed,
        recommended_win_share=wins[recommended] / scenarios,
        deployment_win_share={
            name: count / scenarios
            for name, count in sorted(deployments.items(), key=lambda i: (-i[1], i[0]))
        },
        option_win_share=tuple(
            OptionShare(**_option(key), share=count / scenarios)
            for key, count in sorted(wins.items(), key=lambda i: (-i[1], _sort_key(i[0])))
        ),
        cost_usd_per_month=CostBands(p10=p10, p50=p50, p90=p90, priced_scenarios=len(own), rival=rival_cost),
        expected_regret_usd_per_month=sum(regrets) / len(regrets) if regrets else 0.0,
        sensitivity=sensitivities,
        loses_when=loses_when(settings, moving, recommended, draws, outcomes),
        inputs=tuple(d.summary for d in inputs),
    )


def sensitivity(
    inputs: Sequence[Drawn], recommended: OptionKey, rival: OptionKey | None, oat: Sequence[Outcome]
) -> tuple[Sensitivity, ...]:
    """Each input at its low and its high (``run.one_at_a_time``), most important first: by how far it
    moves the recommended option's advantage over its rival (its own cost where there is no rival). An
    input that moves neither, but at one end the rules' decision (a rule threshold), by how far the
    decided option's cost moves between its ends."""
    found = []
    # "Decides differently" than at the held values: where a growth is held, the decision of
    # that run, not the memo's at today's volume.
    reference = oat[-1].decision if held_apart(inputs) else recommended
    # An input with one value in every scenario (a growth given as a number) has no run: the memo states it.
    for index, d in enumerate(moving_alone(inputs)):
        at_low, at_high = oat[2 * index], oat[2 * index + 1]
        cost_low, cost_high = at_low.costs.get(recommended), at_high.costs.get(recommended)
        rival_low = at_low.costs.get(rival) if rival else None
        rival_high = at_high.costs.get(rival) if rival else None
        effect, effect_on = 0.0, "advantage" if rival else "cost"
        if None not in (cost_low, cost_high, rival_low, rival_high):
            effect = abs((rival_high - cost_high) - (rival_low - cost_low))  # type: ignore[operator]
        elif cost_low is not None and cost_high is not None:
            effect, effect_on = abs(cost_high - cost_low), "cost"
        changes = at_low.decision != reference or at_high.decision != reference
        if effect == 0 and at_low.decision != at_high.decision and None not in (at_low.cost, at_high.cost):
            effect, effect_on = abs(at_high.cost - at_low.cost), "decision"  # type: ignore[operator]
        found.append(
            Sensitivity(
                input=d.summary.id,
                low=d.summary.low,
                high=d.summary.high,
                effect=effect,
                effect_on=effect_on,
                description=d.summary.description,
                unit=d.summary.unit,
                cost_at_low=cost_low,
                cost_at_high=cost_high,
                rival_cost_at_low=rival_low,
                rival_cost_at_high=rival_high,
                decision_changes=changes,
                decision_cost_at_low=at_low.cost,
                decision_cost_at_high=at_high.cost,
            )
        )
    return tuple(sorted(found, key=lambda s: (-s.effect, s.input)))


def loses_when(
    settings: AnalysisSettings,
    inputs: Sequence[Drawn],
    recommended: OptionKey,
    draws: Sequence[Values],
    outcomes: Sequence[Outcome],
) -> tuple[LossCondition, ...]:
    """The inputs whose upper (or lower) half of draws holds most of the losing scenarios, strongest first,
    each with the value beyond which a share of the losses lie (``knowledge/uncertainty.yaml``,
    ``analysis``: that share, the least gap between the halves' loss rates, and how many are named)."""
    share = settings.loss_condition_share.value
    min_gap = settings.loss_condition_min_rate_gap.value
    most = int(settings.max_loss_conditions.value)
    lost = [o.decision != recommended for o in outcomes]
    if not any(lost):
        return ()
    found = []
    for d in inputs:
        name = d.summary.id
        values = [values[name] for values in draws]
        middle = statistics.median(values)
        upper = [loss for value, loss in zip(values, lost, strict=True) if value > middle]
        lower = [loss for value, loss in zip(values, lost, strict=True) if value <= middle]
        if not upper or not lower:
            continue
        contrast = sum(upper) / len(upper) - sum(lower) / len(lower)
        if abs(contrast) < min_gap:
            continue
        losing = sorted(value for value, loss in zip(values, lost, strict=True) if loss)
        above = contrast > 0
        index = math.floor((1 - share) * len(losing)) if above else math.ceil(share * len(losing)) - 1
        cut = losing[index]
        beyond = sum(1 for value in losing if (value >= cut if above else value <= cut))
        # The losses must lie beyond the cut more often than the draws do: "above the range's lowest value"
        # holds for every draw and says nothing.
        drawn_beyond = sum(1 for value in values if (value >= cut if above else value <= cut))
        if beyond / len(losing) <= drawn_beyond / len(values):
            continue
        found.append(
            (
                -abs(contrast),
                name,
                LossCondition(
                    input=name,
                    description=d.summary.description,
                    unit=d.summary.unit,
                    direction="above" if above else "below",
                    value=cut,
                    share_of_losses=beyond / len(losing),
                ),
            )
        )
    return tuple(condition for _, _, condition in sorted(found, key=lambda f: (f[0], f[1])))[:most]
