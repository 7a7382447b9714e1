"""The ``batch_start`` fact: does a batch run's replica finish a request within its window?

One per batch whose model some GPU holds (``recommend``, ``check`` and ``size`` with a batch load): the
window a run has, and the soonest a replica on any GPU and card count that holds one finishes its first
request: its start, the weights' load at the catalog's rate and the serving engine's start
(``batch_window.run_start``), then one request alone on it (``request_times.lone_request_seconds``). A
count whose replicas finish no request in the window is no candidate (``calc.batch_window``): where even
the soonest finishes none, no GPU is planned for the batch, and a rule says why.
"""

from __future__ import annotations

from typing import Literal

from gpu_advisor.engine.rulebook.fact_base import Fact


class BatchStartFact(Fact):
    kind: Literal["batch_start"] = "batch_start"
    window_hours: float
    """The window a run has: the workload's ``batch_window_hours``, within its schedule's hours."""
    window_seconds: float
    serves_in_window: bool
    """The soonest replica's start and one request alone on it, taken ``error_band`` longer, take less
    than the window (``batch_window.serves_in_window``); the counts whose own replicas do are planned."""
    error_band: float = 0.0
    """The estimate's error band the replicas are planned to keep the window with
    (``Sizing.estimate_error_taken_off``)."""
    start_seconds: float
    """Its start: the weights' load and the engine's start, on ``cards`` × ``gpu``."""
    weights_load_seconds: float
    """Each of its ``nodes`` server instances reading its own share of ``read_gb`` at once."""
    weights_load_gb_per_second: float
    """The catalog's load rate (``serverless.weights_load_gb_per_second``): a floor, as the instances' boot
    is not known."""
    engine_start_seconds: float
    """The serving engine's start beyond the weights' load (``ThroughputFile.engine_start_seconds``)."""
    request_seconds: float
    """One request alone on the replica after its start: its prompt's pass and each decode step at a batch
    of one (``request_times.lone_request_seconds``)."""
    read_gb: float
    """What a replica reads as it starts (``checkpoint.read_at_start_gb``), all its instances together."""
    reads_sixteen_bit_checkpoint: bool
    """It reads the 16-bit checkpoint it quantizes to FP8 as it loads it, not the weights as served."""
    nodes: int
    """The server instances a replica spans, one pipeline stage each."""
    gpu: str
    cards: int
    serving_engine: str
