"""A spot batch whose window leaves less than one replica's restart is warned (PRC025): a new instance's
launch (AWS's 300-second default, taken for every provider) and the weights' load at the catalog's rate
(2.5 GB/s). Worked out for a nightly rewrite on 24 Azure spot H100 (twelve 2-card replicas)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from helpers import EVALUATED_ON, run_waves, wave_seconds

from gpu_advisor.api import check
from gpu_advisor.engine.apps.check.proposal_batch import restart_hours
from gpu_advisor.engine.apps.recommend import evaluate_workload
from gpu_advisor.engine.domain.workload import validate_workload

REWRITE: dict[str, Any] = {
    "name": "nightly-rewrite",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 400_000,
    "avg_input_tokens": 1_200,
    "avg_output_tokens": 400,
    "load_pattern": "batch",
    "latency_sensitive": False,
    # 1.86 hours: the run leaves less than a restart but more than a shared queue's loss (at 1.85, with
    # the FP8 checkpoint's 72.65 GB of weights, it leaves none).
    "batch_window_hours": 1.86,
}
SPOT = {
    "name": "azure spot",
    "deployment": "dedicated_cloud",
    "provider": "azure",
    "offer": "nd-h100-v5-spot",
    "gpu": "h100-sxm",
    "gpus": 24,
    "pricing": "spot",
}


def test_a_replica_restarts_in_its_launch_and_its_weights_load() -> None:
    evaluation = evaluate_workload(validate_workload(REWRITE, "test"), dt.date(2026, 12, 5))
    figures = evaluation.capacity.figures
    # Two H100 (160 GiB) hold Llama 3.3 70B's 16-bit checkpoint, which vLLM reads and quantizes to FP8
    # as it loads it: its exact 70.55B parameters x 2 bytes = 141.1 GB at 2.5 GB/s, 56.44 s, after 300 s of
    # launch, and vLLM's 21.8 s start.
    assert figures.sixteen_bit_checkpoint_gb == pytest.approx(70.55 * 2)
    seconds = 300 + figures.sixteen_bit_checkpoint_gb / 2.5 + 21.8
    assert restart_hours(evaluation, "h100-sxm", 2) == pytest.approx(seconds / 3600)


def test_a_window_that_leaves_less_than_a_restart_is_warned() -> None:
    checked = check({"workload": REWRITE, "proposal": SPOT}, EVALUATED_ON)
    (item,) = [i for i in checked.results if i.rule_id == "PRC025"]
    assert item.status == "warn" and item.message is not None
    # Two H100's 2 x 85.90 GB x 0.9 less the FP8 checkpoint's 72.65 GB and 2 x 3.5 GiB leave 74.45 GB:
    # 142 requests of 1,600 tokens x 327,680 bytes at once. 1.86 h less the run's 1.825 h (400,000 requests
    # on 12 replicas of 2 H100, 33,334 each: 234 full waves of 26.648 s, 142 over 5.3288 requests/s, each
    # request 0.0943 s of prefill and 399 steps of 33.235 ms shared by 142, and one of 106, 21.57 s:
    # 1.738 h, plus 5 % redone) and its 78.2 s start leaves 0.80 minutes, said as 1; a restart takes
    # 300 + 56.4 + 21.8 s, 6.3 minutes.
    assert run_waves(400_000, 12, 142) == (234, 106)
    last = wave_seconds(106, "llama-3.3-70b", "fp8", "h100-sxm", 2, (1_200, 400))
    hours = (234 * 142 / 5.32882 + last) / 3600
    assert (round(last, 2), round(hours, 3), round(hours * 1.05, 3)) == (21.57, 1.738, 1.825)
    assert round(hours * 1.05 + (141.1 / 2.5 + 21.8) / 3600, 2) == 1.85
    assert round((1.86 - hours * 1.05) * 60 - (141.1 / 2.5 + 21.8) / 60, 2) == 0.8
    assert item.message.startswith(
        "On spot, a run of the day's work takes about 1.85 h of its 1.86-hour window (its start and the "
        "work redone after interruptions included), which leaves 1 minute. A replica whose instance is "
        "taken back serves again only once a new instance has launched, loaded the weights and started its "
        "engine: at least 6 minutes (5 to launch, the lead time AWS allows one, taken for every provider, "
        "the weights at the catalog's load rate and the engine's start at best, as each run's is billed), "
        "without the time to find spot capacity again, which no provider promises. Where the 12 replicas "
        "take their work from a shared queue, the others take up its share and the run loses about 0.5 "
        "minutes, within what the window leaves; where each has its own share, or capacity is taken back "
        "from several at once, it loses the whole restart, and the run misses its window"
    )
    roomy = check({"workload": {**REWRITE, "batch_window_hours": 2}, "proposal": SPOT}, EVALUATED_ON)
    assert next(i.status for i in roomy.results if i.rule_id == "PRC025") == "pass"
    # On demand the same run (without the work redone after interruptions) is checked, and PRC025 does
    # not apply.
    on_demand = {**SPOT, "offer": "nd-h100-v5-on-demand", "pricing": "on_demand"}
    steady = {
        i.rule_id: i.status for i in check({"workload": REWRITE, "proposal": on_demand}, EVALUATED_ON).results
    }
    assert steady["SIZ019"] == "pass" and "PRC025" not in steady
