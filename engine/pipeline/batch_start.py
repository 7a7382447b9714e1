"""A batch's ``batch_start`` fact (``rulebook/batch_start_facts.py``): the shortest start of a run on any
GPU and card count that holds a replica, against the window the run has. ``recommend`` and ``check``
assert it in the GPU-fit stage, ``size`` with a batch load beside its GPU-fit facts."""

from __future__ import annotations

from gpu_advisor.engine.calc.batch_window import leaves_window
from gpu_advisor.engine.calc.checkpoint import quantizes_at_load, read_at_start_gb, run_start
from gpu_advisor.engine.calc.performance import candidate_performances
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.rulebook.batch_start_facts import BatchStartFact


def batch_start_fact(
    knowledge: Knowledge, figures: SizingFigures, load: Load, input_tokens: int, output_tokens: int
) -> BatchStartFact | None:
    """The fact of a batch whose model some GPU holds; None for a service, or where no GPU holds a
    replica (DEP015 and the sizing table say so)."""
    if not load.served_in_paid_hours:
        return None
    performances = candidate_performances(knowledge, figures, input_tokens, output_tokens)
    starts = [
        (sum(start), gpu, performance.cards, start)
        for gpu, candidates in performances.items()
        for performance in candidates
        for start in (run_start(knowledge, figures, gpu, performance.cards),)
    ]
    if not starts:
        return None
    total, gpu, cards, (weights, engine) = min(starts)
    memory = cards * knowledge.gpu(gpu).memory_bytes
    return BatchStartFact(
        window_hours=load.hours_per_day,
        window_seconds=load.hours_per_day * SECONDS_PER_HOUR,
        start_leaves_window=leaves_window(load, total),
        start_seconds=total * SECONDS_PER_HOUR,
        weights_load_seconds=weights * SECONDS_PER_HOUR,
        weights_load_gb_per_second=knowledge.serverless.weights_load_gb_per_second,
        engine_start_seconds=engine * SECONDS_PER_HOUR,
        read_gb=read_at_start_gb(figures.weights_gb, figures.sixteen_bit_checkpoint_gb, memory),
        reads_sixteen_bit_checkpoint=quantizes_at_load(figures.sixteen_bit_checkpoint_gb, memory),
        gpu=gpu,
        cards=cards,
        serving_engine=figures.serving_engine,
    )
