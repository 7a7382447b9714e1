"""A GPU's row of a sizing result: its cards, replicas, throughput and latency, and how one replica is
started (``LaunchCommand``). Field names are a contract with other tools: add fields freely, never
rename."""

from __future__ import annotations

from typing import Literal

from gpu_advisor.engine.domain.result_model import ResultModel

CheckpointKind = Literal[
    "published", "fp8_checkpoint", "quantized_at_load", "precision_needed", "own", "given_by_size"
]
"""Which weights the launch command loads: the model as published (16-bit, or FP8 where it is published
so), its published FP8 checkpoint, the 16-bit checkpoint quantized to FP8 as the engine loads it, a
checkpoint of the precision that the catalog names none of, the team's own, or a checkpoint of a model
given by its size."""


class LaunchCommand(ResultModel):
    """How one replica of a GPU's plan is started with the workload's serving engine: its flags for the
    cards a replica splits into (tensor parallel within a node, pipeline stages over nodes), the serving
    context the KV cache was sized for, and the weights. Engine defaults stay as the estimate assumes
    them (batch limit, KV cache precision)."""

    engine: str
    engine_name: str
    command: str
    """The shell line for one replica (``MODEL`` where the catalog names no checkpoint)."""
    checkpoint: str
    """The Hugging Face repository loaded, or ``MODEL``."""
    checkpoint_kind: CheckpointKind
    nodes: int
    """Nodes one replica spans (one pipeline stage each); 1 within a node."""
    expert_parallel: bool = False
    """The engine will not split the FP8 checkpoint's experts over the tensor-parallel cards (SIZ020): they
    run by expert parallelism, which the estimate does not model."""
    extra_options: str | None = None
    """TensorRT-LLM's LLM API options the command reads from ``extra.yaml`` (an FP8 KV cache)."""
    context_tokens: int = 0
    """The serving context the command sets: the workload's, or what the replica's KV cache holds where
    that is less (``context_cut``; an engine refuses to start with a context its cache cannot hold)."""
    context_cut: bool = False
    weight_only_fp8_moe_flag: str | None = None
    """The option the command adds because the card has no FP8 tensor cores and the engine's default
    expert kernel does not take an FP8 mixture of experts there (vLLM: ``--moe-backend marlin``)."""
    weight_only_fp8_moe_since: str | None = None
    """The engine's first release with ``weight_only_fp8_moe_flag`` where the catalog states it."""
    start_seconds: float | None = None
    """How long the engine takes to be ready beyond loading the weights, at best (a batch run bills it);
    None where the catalog has no measurement of it."""
    start_source: str | None = None
    """Where ``start_seconds`` comes from."""
    start_stand_in: str | None = None
    """The engine whose measured start stands in for this one's, which the catalog has not measured (its
    name); None where the figure is the engine's own, or there is none."""


class OperatingPointResult(ResultModel):
    """One replica at a fixed number of requests in flight (``size --concurrency``)."""

    concurrency: int
    requests_per_second: float
    output_tokens_per_second: float
    decoding: float
    """Sequences in each decode step; the rest wait for their first token."""
    time_to_first_token_ms: float
    time_per_output_token_ms: float
    saturated: bool
    """More requests than the replica runs at once: the rest queue for a slot."""


class GpuSizing(ResultModel):
    gpu: str
    name: str
    memory_gb: float
    interconnect: str
    segment: str
    gpus_for_weights: int | None
    gpus_recommended: int | None
    """Usual count with KV reserve; None where that GPU should not serve the model, or has no usual count
    within the allowed counts. A light load may run on fewer cards: ``cards_per_replica``."""
    gpus_for_light_load: int | None = None
    """The fewest cards that hold a light load (``GpuFit.gpus_for_light_load``), which the replicas of a
    GPU with no usual count run on; None where no allowed count holds it."""
    context_tokens_on_one_card: int | None = None
    """Where one card holds the weights but a replica needs more for the KV cache of
    ``min_sequences_under_light_load`` full-context sequences: the longest serving context of which that
    card keeps that many, so that a ``context_tokens`` at or below it runs a replica on one card (no
    link between cards to rule it out); None elsewhere, or where it keeps no KV cache."""
    gpus_with_kv_reserve: int | None
    kv_headroom_gb: float | None
    """Memory beside the weights, and the KV cache's tokens, at the usual count."""
    kv_tokens_capacity: int | None
    replica_kv_tokens_capacity: int | None = None
    """The KV cache's tokens one replica of ``cards_per_replica`` holds (``kv_tokens_capacity`` is the
    usual count's); None where no replica is evaluated, 0 where its weights leave none."""
    not_recommended_by: tuple[str, ...]
    replicas: int | None
    """Replicas the peak load needs on this GPU (None without a load, or where the GPU is not recommended)."""
    gpus_total: int | None
    """replicas x cards_per_replica."""
    requests_per_second_per_replica: float | None
    output_tokens_per_second_per_replica: float | None
    utilization: float | None
    """Derived: average load over the replicas' capacity (a throughput share, not time)."""
    capacity_utilization_at_peak: float | None = None
    """The peak over what the replicas deliver by the estimate (a batch: its work over its window's)."""
    spare_replicas: int | None = None
    hours_per_day_running: float | None = None
    """A batch: the hours a day its replicas run: the fullest replica's share of the requests in waves of
    as many as it holds at once (``batch_run.run_hours``)."""
    run_start_hours: float | None = None
    """A batch: the start each run's replicas take before they serve (the weights' load and the engine's
    start), which the window holds beside the run (``batch_window.run_start``)."""
    time_to_first_token_ms: float | None
    """At the peak on the replicas sized for it, spares aside (a batch: a lone prompt's prefill)."""
    time_to_first_token_tail_ms: float | None = None
    """The time to first token at the peak that ``SizingPolicy.latency_tail_share`` of the requests stay
    within, each replica taken as its own queue (an upper estimate of the queueing, which a balancer that
    sends each request to the least busy replica shortens; not a bound on the throughput estimate's own
    error; ``calc.latency``); None for a batch."""
    time_per_output_token_ms: float | None
    request_seconds: float | None = None
    """A request from its start to its last token at that operating point (requests in flight over the
    rate): what the memo says of a batch, whose time per output token carries the waits for prefills."""
    cards_per_replica: int | None = None
    """The replica evaluated: the count the load runs on (the usual count, fewer for a light load, more
    where that carries the peak on fewer cards or meets the latency targets), or the cards asked for
    (``size --gpu --cards``)."""
    tensor_parallel: int | None = None
    pipeline_stages: int | None = None
    """Stages over nodes: a replica larger than one node runs one stage per node."""
    concurrent_requests: int | None = None
    """Requests of the workload's length one replica holds in its KV cache at once, at most the serving
    engine's maximum."""
    full_context_sequences: int | None = None
    """Sequences of the full serving context one replica's KV cache holds at ``cards_per_replica``."""
    kv_held_sequences: float | None = None
    """Below the usual count: the requests in flight on average one replica's KV cache holds, room for
    ``full_context_room_under_light_load`` full-context ones (fewer where fewer fit) and the workload's
    length beside it (``count_limits.kv_held_sequences``), which ``kv_held_requests_per_second``
    counts; None at the usual count or more, and for a batch, whose replicas run full at
    ``concurrent_requests``."""
    below_usual_count: bool | None = None
    """The replicas run on fewer cards than the usual count (a light load's, or a batch's where that does
    the day's work on fewer cards in all), or the GPU has no usual count within the allowed counts and
    the load runs on its fewest cards that hold ``min_sequences_under_light_load`` full-context
    sequences; None where no replica is planned."""
    kv_held_requests_per_second: float | None = None
    """A replica below the usual count (``gpus_with_kv_reserve``) carries at most this rate: the one at
    which its requests in flight on average fill ``kv_held_sequences``. More replicas carry the rest. None
    where the headroom and the latency targets keep it below that rate anyway."""
    replicas_without_kv_cap: int | None = None
    """Where ``kv_held_requests_per_second`` caps the replicas: those the peak would take without the cap,
    spares aside, with no room kept for full-context requests; None elsewhere."""
    kv_cache_copies: float | None = None
    """Copies of each token's KV cache the tensor-parallel group of a replica of ``cards_per_replica``
    cards keeps (``calc.sizing.kv_copies``; ``kv_tokens_capacity`` is at the usual count): 1 where the
    cards divide the cache, more where they cannot (fewer KV heads than cards, or latent attention, whose
    whole latent every card keeps)."""
    time_to_first_token_alone_ms: float | None = None
    time_per_output_token_alone_ms: float | None = None
    """A lone request on an idle replica: the least any load sees."""
    meets_latency_targets: bool | None = None
    """The replicas are planned to every target itself (a lone request plus the estimate's mean latency
    error within each); None without targets or without a load."""
    kept_max_time_to_first_token_ms: float | None = None
    kept_max_time_per_output_token_ms: float | None = None
    """The latency targets the replicas keep at the peak: each the workload's, or where a lone request plus
    the estimate's mean latency error exceeds it, that sum (``calc.policy``); None: no target, or no load."""
    sized_for_latency: bool | None = None
    """The latency targets, not the throughput headroom, set the replicas for the peak."""
    replicas_for_throughput: int | None = None
    """The replicas of ``cards_per_replica`` cards the peak needs within the headroom alone, spares aside:
    where the latency targets set the replicas, the rest of the replicas for the peak is their cost."""
    at_concurrency: OperatingPointResult | None = None
    offered: bool | None = None
    """An option the workload may use (a rental, serverless product or own server its rules leave
    standing) sells this GPU with the cards a replica needs; None where no workload's rules were read
    (``size``)."""
    launch: LaunchCommand | None = None
    """How one replica of ``cards_per_replica`` cards is started; None where none is planned."""
