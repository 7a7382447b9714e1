"""The ``batch_start`` fact: does a batch run's start leave any of its window to work in?

One per batch whose model some GPU holds (``recommend``, ``check`` and ``size`` with a batch load): the
window a run has and the shortest start of a run on any GPU and card count that holds a replica, the
weights' load at the catalog's rate and the serving engine's start (``checkpoint.run_start``). A count
whose start leaves nothing of the window is no candidate (``calc.batch_window``): where even the shortest
start leaves nothing, no GPU is planned for the batch, and a rule says why.
"""

from __future__ import annotations

from typing import Literal

from gpu_advisor.engine.rulebook.fact_base import Fact


class BatchStartFact(Fact):
    kind: Literal["batch_start"] = "batch_start"
    window_hours: float
    """The window a run has: the workload's ``batch_window_hours``, within its schedule's hours."""
    window_seconds: float
    start_leaves_window: bool
    """The shortest start leaves some of the window to work in (``batch_window.leaves_window``); the
    counts whose own start does are planned."""
    start_seconds: float
    """The shortest start of a run: the weights' load and the engine's start, on ``cards`` × ``gpu``."""
    weights_load_seconds: float
    weights_load_gb_per_second: float
    """The catalog's load rate (``serverless.weights_load_gb_per_second``): a floor, as the instances' boot
    is not known."""
    engine_start_seconds: float
    """The serving engine's start beyond the weights' load (``ThroughputFile.engine_start_seconds``)."""
    read_gb: float
    """What a replica reads as it starts (``checkpoint.read_at_start_gb``)."""
    reads_sixteen_bit_checkpoint: bool
    """It reads the 16-bit checkpoint it quantizes to FP8 as it loads it, not the weights as served."""
    gpu: str
    cards: int
    serving_engine: str
