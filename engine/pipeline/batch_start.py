"""A batch's ``batch_start`` fact (``rulebook/batch_start_facts.py``): the soonest a run's replica on any
GPU and card count that holds one finishes its first request, its start and one request alone on it,
against the window the run has. ``recommend`` and ``check`` assert it in the GPU-fit stage, ``size`` with a
batch load beside its GPU-fit facts."""

from __future__ import annotations

from gpu_advisor.engine.calc.batch_window import run_start, serves_in_window
from gpu_advisor.engine.calc.checkpoint import quantizes_at_load, read_at_start_gb
from gpu_advisor.engine.calc.performance import candidate_performances
from gpu_advisor.engine.calc.request_times import lone_request_seconds
from gpu_advisor.engine.calc.sizing import SizingFigures
from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.rulebook.batch_start_facts import BatchStartFact


def batch_start_fact(
    knowledge: Knowledge,
    figures: SizingFigures,
    load: Load,
    input_tokens: int,
    output_tokens: int,
    band: float = 0.0,
) -> BatchStartFact | None:
    """The fact of a batch whose model some GPU holds, its request taken ``band`` longer (the estimate's
    error band, ``Sizing.estimate_error_taken_off``); None for a service, or where no GPU holds a replica
    (DEP015 and the sizing table say so)."""
    if not load.served_in_paid_hours:
        return None
    performances = candidate_performances(knowledge, figures, input_tokens, output_tokens)
    firsts = [
        (p, run_start(knowledge, figures, gpu, p.cards), lone_request_seconds(p.roofline))
        for gpu, candidates in performances.items()
        for p in candidates
    ]
    if not firsts:
        return None
    # The replica that finishes its first request soonest: its start, then one request alone on it.
    first, (weights, engine), alone = min(firsts, key=lambda f: sum(f[1]) * SECONDS_PER_HOUR + f[2])
    gpu, cards = first.gpu, first.cards
    memory = cards * knowledge.gpu(gpu).memory_bytes
    return BatchStartFact(
        window_hours=load.hours_per_day,
        window_seconds=load.hours_per_day * SECONDS_PER_HOUR,
        serves_in_window=serves_in_window(load, weights + engine, alone, band),
        error_band=band,
        start_seconds=(weights + engine) * SECONDS_PER_HOUR,
        weights_load_seconds=weights * SECONDS_PER_HOUR,
        weights_load_gb_per_second=knowledge.serverless.weights_load_gb_per_second,
        engine_start_seconds=engine * SECONDS_PER_HOUR,
        request_seconds=alone,
        read_gb=read_at_start_gb(figures.weights_gb, figures.sixteen_bit_checkpoint_gb, memory),
        reads_sixteen_bit_checkpoint=quantizes_at_load(figures.sixteen_bit_checkpoint_gb, memory),
        nodes=first.pipeline_stages,
        gpu=gpu,
        cards=cards,
        serving_engine=figures.serving_engine,
    )
