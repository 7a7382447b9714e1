"""The Load section's capacity shares are the peak replicas' (spares aside); where a spare shares the
load, the memo also gives the shares the options table and the JSON count (every replica), so that the
two figures of the same plan are not read as a contradiction."""

from __future__ import annotations

import datetime as dt

from helpers import EXAMPLES_DIR, read_example

from gpu_advisor.api import render_memo
from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload


def test_the_spare_replicas_shares_are_given_beside_the_peak_replicas() -> None:
    data = read_example(EXAMPLES_DIR / "public-chat.yaml")
    result = recommend(validate_workload(data, "public-chat"), dt.date(2026, 12, 4))
    best = result.best_option
    assert best is not None and best.spare_replicas == 1 and best.replicas == 3
    peak_only = best.capacity_utilization_at_peak * best.replicas / (best.replicas - best.spare_replicas)
    memo = " ".join(render_memo(result).split())
    assert f"At the peak they run at {round(peak_only * 100)} % of their estimated capacity" in memo
    assert (
        "With the spare replica sharing the load, as the options table and the JSON count it: "
        f"{round(best.capacity_utilization_at_peak * 100)} % at the peak, {round(best.utilization * 100)} % "
        "on average."
    ) in memo
