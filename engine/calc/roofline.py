"""One replica's step times for the workload's average request, from which its throughput and the
latency at any load follow (``calc/performance.py`` builds it, ``calc/latency.py`` reads it).

A step runs its kernels one after another, so each is bound by its own bytes or FLOPs and their times add
up: the weights' matrix multiplications take about the longer of reading the weights and computing over
the step's tokens (more near the ridge point, where the two are alike: ``blended``), attention the longer
of reading the KV cache and its FLOPs. At a large batch the
multiplications are compute-bound while attention still reads every sequence's cache; the roofline of the
step as a whole (the longer of all its bytes and all its FLOPs) would let the two overlap, which they do
not.
"""

from __future__ import annotations

import bisect
import math
import operator
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

_first = operator.itemgetter(0)


def interpolated(points: tuple[tuple[float, float], ...], x: float, default: float) -> float:
    """The value at ``x`` of (x, value) ``points`` in ascending x, linear in the logarithm of x between
    two points and held beyond the ends; ``default`` without points."""
    if not points:
        return default
    if x <= points[0][0]:
        return points[0][1]
    if x >= points[-1][0]:
        return points[-1][1]
    i = bisect.bisect_right(points, x, key=_first)
    (x0, y0), (x1, y1) = points[i - 1], points[i]
    return y0 + (y1 - y0) * (math.log(x) - math.log(x0)) / (math.log(x1) - math.log(x0))


def seconds_per_token(points: tuple[tuple[float, float], ...], tokens: float, default: float) -> float:
    """The all-reduces' seconds per token of a pass of ``tokens`` tokens from (tokens in a pass, tokens
    transferred a second) ``points`` (``tensor_parallel.communication_points``): the rate, like the link
    share it is proportional to, interpolated in the logarithm of the message; ``default`` without
    points."""
    if not points:
        return default
    return 1 / interpolated(points, tokens, 0.0)


def routed_factor_at(
    points: tuple[tuple[float, float], ...], experts: int | None, per_token: int | None, tokens: float
) -> float:
    """How much longer a mixture of experts' routed multiplications of a pass of ``tokens`` tokens take
    than their blend, from (tokens an expert, factor) ``points`` at ``tokens`` x k / E tokens an expert;
    1 without points or routing."""
    if not points or experts is None or per_token is None:
        return 1.0
    return interpolated(points, tokens * per_token / experts, 1.0)


def routed_multiply_adds(compute: float, routed_share: float, factor: float) -> float:
    """``compute`` seconds of multiply-adds whose routed experts' share takes ``factor`` times as long."""
    return compute * (1 - routed_share + routed_share * factor) if routed_share else compute


def blended(read: float, compute: float, exponent: float) -> float:
    """A kernel's time from its reads' and its FLOPs' (``Efficiency.roofline_exponent``): the longer of
    the two where one dominates, more than either near the ridge point, where they are alike."""
    return float((read**exponent + compute**exponent) ** (1 / exponent))


class DecodeStep(NamedTuple):
    """A decode step's two kinds of kernel, each as its reads and its FLOPs in seconds, and the
    multiplications' time (``Roofline.multiplications_seconds``)."""

    weights_read: float
    weights_compute: float
    kv_read: float
    attention_compute: float
    multiplications: float

    @property
    def seconds(self) -> float:
        """The kernels one after another: the weights' multiplications (``multiplications``, their reads
        and FLOPs blended) and attention, the longer of its reads and its FLOPs."""
        return self.multiplications + max(self.kv_read, self.attention_compute)


class Roofline(BaseModel):
    """One replica's step times for the workload's average request: what the latency at any load is
    worked out from."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    input_tokens: int
    """The prompt tokens a request prefills: its whole prompt, less ``shared_prefix_tokens``."""
    shared_prefix_tokens: int = 0
    """The prompt start every request shares, whose KV cache the engine keeps once and does not compute
    again (0 without one, or where the engine caches no prefixes)."""
    output_tokens: int
    pipeline_stages: int
    weights_seconds: float
    """Reading all weights once on one pipeline stage's cards, summed over the stages."""
    active_weights_seconds: float
    """Reading one sequence's active weights (all of them for a dense model, the routed experts of a
    mixture of experts) over the stages."""
    experts: int | None
    """Routed experts per layer of a mixture of experts (None: dense, or not known), and how many each
    token uses."""
    experts_per_token: int | None
    shared_weights_seconds: float
    """Reading the weights every token uses (attention, shared experts, embeddings) over the stages; all
    of them for a dense model."""
    expert_weights_seconds: float
    """Reading one routed expert in every layer over the stages; 0 for a dense model."""
    fixed_step_seconds: float
    """What every forward pass takes on top of its bytes and FLOPs: the layers' fixed time
    (``step_overheads``)."""
    kv_seconds_per_sequence: float
    """Reading one sequence's KV cache (the prompt and half the answer, on average) in a decode step."""
    weights_compute_seconds_per_sequence: float
    """One sequence's multiply-adds over its active weights in a decode step."""
    attention_seconds_per_sequence: float
    """One sequence's attention FLOPs over its earlier tokens in a decode step."""
    communication_seconds_per_token: float = 0.0
    """The tensor-parallel all-reduces' transfer for one token of a forward pass, over every layer and
    stage (0 on one card): added to the pass, it grows with the tokens the pass carries."""
    communication_points: tuple[tuple[float, float], ...] = ()
    """(tokens in a pass, tokens its all-reduces transfer a second at that message's share of the link)
    where the share depends on the message (``tensor_parallel.communication_points``); empty: one
    share, ``communication_seconds_per_token``."""
    routed_expert_factor: tuple[tuple[float, float], ...] = ()
    """(tokens per routed expert, factor) points: how much longer the routed experts' multiplications take
    with the routing skewed across experts (``StepOverheads.routed_expert_factor``); empty: 1."""
    prefill_seconds: float
    """One prompt's prefill alone on the replica: its compute through every stage in turn."""
    prefill_weights_seconds: float
    """The weights' multiply-adds part of ``prefill_seconds``; attention and the all-reduces are the
    rest."""
    prefill_compute_seconds: float = 0.0
    """The prompt's multiply-adds at the compute share, before a mixture of experts' routed ones are
    slowed by ``routed_expert_factor`` (``prefill_weights_seconds`` is after it, for the prompt alone);
    0: the same as ``prefill_weights_seconds``."""
    prefill_routed_share: float = 0.0
    """The routed experts' share of the prompt's multiply-adds (0 for a dense model)."""
    max_batched_tokens: int = 0
    """The serving engine's limit on the tokens of one forward pass (0: a prompt's pass is its own)."""
    prefill_attention_seconds: float
    """The attention part of ``prefill_seconds``: quadratic in the prompt."""
    prefill_chunks: int
    """Steps a prompt's prefill takes: one, or with chunked prefill one per chunk of the engine's
    batched-token limit, each shared with the decoding sequences."""
    max_batch: int
    """Sequences the replica runs at once: the KV cache's room for whole requests, at most the serving
    engine's maximum."""
    roofline_exponent: float
    """How the weights' multiplications combine their reads and FLOPs (``blended``)."""
    latency_tail_share: float
    """The share of requests whose time to first token the tail figure bounds (knowledge/
    workload_defaults.yaml ``latency_tail_share``; ``latency.first_token_tail_ms``)."""

    def decode_step(self, sequences: float) -> DecodeStep:
        """The reads and FLOPs of a step until each of ``sequences`` sequences has its next token. With
        pipeline stages, the sequences run as one micro-batch per stage, and a token passes every stage."""
        per_stage = self.per_stage(sequences)
        read = self.weights_read_seconds(per_stage)
        compute = per_stage * self.weights_compute_seconds_per_sequence
        return DecodeStep(
            read,
            compute,
            per_stage * self.kv_seconds_per_sequence,
            per_stage * self.attention_seconds_per_sequence,
            self._multiplied(per_stage, read, compute),
        )

    def per_stage(self, sequences: float) -> float:
        """Sequences in one stage's micro-batch: fewer than the stages still pass every stage in turn."""
        return max(sequences / self.pipeline_stages, min(sequences, 1.0))

    def communication_seconds(self, sequences: float) -> float:
        """The all-reduces' transfer of the decode tokens of a step of ``sequences`` sequences, on
        average over the steps: a step that carries a prompt (``prompt_step_share`` of them) sends its
        decode tokens in that pass's message (``prompt_pass_tokens``), the others alone."""
        return self._communication(self.per_stage(sequences))

    def _communication(self, per_stage: float) -> float:
        """``communication_seconds`` for ``per_stage`` sequences on a stage."""
        per_token = self.communication_seconds_per_token
        if self.communication_points:  # the pass's size matters only where the share depends on it
            share, tokens = self._prompt_pass(per_stage)
            points = self.communication_points
            with_prompt = seconds_per_token(points, tokens, per_token)
            alone = seconds_per_token(points, per_stage, per_token) if share < 1 else 0.0
            per_token = share * with_prompt + (1 - share) * alone
        return per_stage * per_token

    def weights_read_seconds(self, sequences: float) -> float:
        """Reading the weights a step of ``sequences`` sequences touches. A dense model reads all of them
        once. A mixture of experts reads its shared weights and, in each layer, every expert that at
        least one sequence was routed to: with each sequence picking k of E experts, an expert stays
        untouched with probability (1 - k/E)^B, so E(1 - (1 - k/E)^B) experts are read at a batch of B
        (k at one sequence, all E at a large batch)."""
        if self.experts is None or self.experts_per_token is None or sequences < 1:
            return min(self.weights_seconds, sequences * self.active_weights_seconds)
        untouched: float = (1 - self.experts_per_token / self.experts) ** sequences
        touched = self.experts * (1 - untouched)
        return min(self.weights_seconds, self.shared_weights_seconds + touched * self.expert_weights_seconds)

    def multiplications_seconds(self, sequences: float) -> float:
        """The weights' multiplications of a step of ``sequences`` tokens. A dense model's: reading the
        weights and computing over the tokens, blended (about the longer of the two). A mixture of
        experts runs two kinds of them, one after the other: the shared weights (attention projections,
        shared experts) over every token, and each routed expert over the tokens routed to it, about
        B x k / E of a batch of B. At a large batch the first is bound by its FLOPs while the experts,
        each over a few tokens, are still bound by their bytes: blending all bytes with all FLOPs would
        let the two overlap."""
        compute = sequences * self.weights_compute_seconds_per_sequence
        return self._multiplied(sequences, self.weights_read_seconds(sequences), compute)

    def _multiplied(self, sequences: float, read: float, compute: float) -> float:
        """``multiplications`` for a step of ``sequences`` tokens whose reads and FLOPs are worked out:
        less than a token (a stage's share of one) is not split."""
        if sequences < 1:
            return blended(read, compute, self.roofline_exponent)
        return self.multiplications(read, compute)

    def multiplications(self, read: float, compute: float) -> float:
        """Multiplications that read ``read`` seconds of weights and compute ``compute`` seconds of
        multiply-adds (``multiplications_seconds``; a prompt's pass too): a dense model's the two
        ``blended``, a mixture of experts' its shared weights and its routed experts one after the other,
        each blended."""
        exponent = self.roofline_exponent
        if self.experts is None:
            return blended(read, compute, exponent)
        # The shared weights' share of a token's multiply-adds: their share of its active weights.
        shared = self.shared_weights_seconds / self.active_weights_seconds
        shared_read = min(read, self.shared_weights_seconds)
        routed = blended(read - shared_read, (1 - shared) * compute, exponent)
        routed *= self.routed_factor(compute / self.weights_compute_seconds_per_sequence)
        return blended(shared_read, shared * compute, exponent) + routed

    def step_seconds(self, sequences: float) -> float:
        """``decode_step``'s kernels (``DecodeStep.seconds``), the fixed time and
        ``communication_seconds``, with the stage's micro-batch worked out once: the latency at a load
        calls this tens of times per operating point."""
        per_stage = max(sequences / self.pipeline_stages, min(sequences, 1.0))
        weights = self.multiplications_seconds(per_stage)
        attention = per_stage * max(self.kv_seconds_per_sequence, self.attention_seconds_per_sequence)
        return weights + attention + self.fixed_step_seconds + self._communication(per_stage)

    @property
    def decode_steps(self) -> int:
        """Decode steps a request takes: its prompt's pass yields the first token, so one fewer than its
        output tokens (none for a one-token answer, such as a classification)."""
        return self.output_tokens - 1

    @property
    def passes_in_batch(self) -> int:
        """Passes a sequence spends in the batch after its prompt's: its decode steps, or the prompt's
        pass itself where it has none (the prompts of a one-token workload are the batch)."""
        return max(self.decode_steps, 1)

    def prompt_tokens_per_step(self, sequences: float) -> float:
        """The prompt tokens a step carries on average with ``sequences`` sequences decoding, on one
        stage: as the engines batch by iteration, the prompts that replace the sequences finishing, one in
        ``passes_in_batch`` a step (``input_tokens`` / ``passes_in_batch`` prompt tokens a sequence)."""
        return self.per_stage(sequences) * self.input_tokens / self.passes_in_batch

    def prompt_step_share(self, sequences: float) -> float:
        """The share of the steps that carry a prompt's tokens (a chunk of them): all where a step's
        share of prompt tokens is at least a chunk, else one step in so many."""
        return self._prompt_pass(self.per_stage(sequences))[0]

    def prompt_pass_tokens(self, sequences: float) -> float:
        """The tokens of a pass that carries a prompt (a chunk of it) with ``sequences`` decoding, on one
        stage: their decode tokens and the chunk, or the prompts of a step where they come more than a
        chunk a step, at most the engine's batched-token limit (never less than the chunk and the
        decode tokens)."""
        return self._prompt_pass(self.per_stage(sequences))[1]

    def _prompt_pass(self, per_stage: float) -> tuple[float, float]:
        """``prompt_step_share`` and ``prompt_pass_tokens`` for ``per_stage`` sequences decoding on a
        stage, worked out together (the latency at a load asks for them tens of times)."""
        chunk = self.input_tokens / self.prefill_chunks
        prompt = per_stage * self.input_tokens / self.passes_in_batch
        carried = per_stage + max(chunk, prompt)
        if self.max_batched_tokens:
            carried = min(max(self.max_batched_tokens, per_stage + chunk), carried)
        return min(1.0, prompt / chunk), carried

    def communication_seconds_per_token_in(self, tokens: float) -> float:
        """The all-reduces' transfer per token of a pass of ``tokens`` tokens: its message's share of the
        link (``communication_points``), else the one share."""
        return seconds_per_token(self.communication_points, tokens, self.communication_seconds_per_token)

    def routed_factor(self, tokens: float) -> float:
        """How much longer the routed experts' multiplications of a pass of ``tokens`` tokens take than
        their blend (``routed_factor_at``)."""
        return routed_factor_at(self.routed_expert_factor, self.experts, self.experts_per_token, tokens)

    @property
    def prefill_multiply_adds_seconds(self) -> float:
        """The prompt's multiply-adds before a mixture's routed-expert factor (``prefill_compute_seconds``;
        ``prefill_weights_seconds`` where that is not given)."""
        return self.prefill_compute_seconds or self.prefill_weights_seconds

    def prefill_in_pass_seconds(self, tokens: float) -> float:
        """One prompt's prefill where its pass carries ``tokens`` tokens: its all-reduces at that
        message's share of the link, its routed experts at that pass's tokens per expert."""
        routed = self.prefill_routed_share
        factor = self.routed_factor(tokens) if routed else 1.0
        weights = routed_multiply_adds(self.prefill_multiply_adds_seconds, routed, factor)
        return (
            weights
            + self.prefill_attention_seconds
            + self.input_tokens * self.communication_seconds_per_token_in(tokens)
        )

    @property
    def busy_depends_on_batch(self) -> bool:
        """Whether ``prefill_busy_seconds`` depends on the batch: only where the link's share depends on
        the message or a mixture's routed experts on their tokens."""
        return bool(self.communication_points) or bool(self.prefill_routed_share)

    def prefill_busy_seconds(self, sequences: float) -> float:
        """Replica time one prompt's prefill takes from decoding with ``sequences`` sequences decoding:
        in the passes it shares with them (``prompt_pass_tokens``), whose all-reduces reach the share of
        their message and whose routed experts run at their tokens per expert. The stages work on
        different prompts at once, so each is busy with this one for its share only."""
        if not self.busy_depends_on_batch:
            return self.prefill_seconds / self.pipeline_stages
        tokens = self._prompt_pass(self.per_stage(sequences))[1] if self.decode_steps else self._prompts_pass
        return self.prefill_in_pass_seconds(tokens) / self.pipeline_stages

    @property
    def _prompts_pass(self) -> float:
        """The tokens of a pass of one-token answers' prompts, on one stage: nothing decodes, so the
        prompts waiting share a pass, up to the engine's batched-token limit (never less than a chunk), or
        a batch of them where it has none. A prompt's busy time is its share of such a full pass at any
        load: it is what the replica's capacity counts, and where a prompt waits for others, they are what
        fills the pass (alone, the first token waits for its own pass, ``latency.prompt_pass_seconds``)."""
        prompts = self.per_stage(float(self.max_batch)) * self.input_tokens
        if self.max_batched_tokens:
            return min(prompts, max(self.max_batched_tokens, self.input_tokens / self.prefill_chunks))
        return prompts

    def time_per_token_seconds(self, rate: float, sequences: float) -> float:
        """The time between a sequence's tokens with ``sequences`` decoding and prompts arriving at
        ``rate``: a decode step, stretched by the share of the replica's time the prefills take; without
        bound where they take all of it. None passes where each answer is its first token (no decode
        steps): 0."""
        if not self.decode_steps:
            return 0.0
        not_prefilling = 1 - rate * self.prefill_busy_seconds(sequences)
        if not_prefilling <= 0:
            return math.inf
        return self.step_seconds(max(sequences, 1.0)) / not_prefilling

    def requests_per_second(self, sequences: float) -> float:
        """Requests finished per second with ``sequences`` decoding: the prefills and the decode steps
        share the replica's time, a request's first token coming from its prompt's pass and each other
        from a decode step (``decode_steps``). Fewer than one on average is one sequence decoding part of
        the time (a closed loop of one user whose prompts take long): each of its tokens takes a lone
        step."""
        decoding = max(sequences, 1.0)
        return 1 / (
            self.prefill_busy_seconds(decoding) + self.decode_steps * self.step_seconds(decoding) / decoding
        )
