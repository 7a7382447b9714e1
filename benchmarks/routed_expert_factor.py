"""Derive ``step_overheads.routed_expert_factor`` (knowledge/throughput.yaml) from NVIDIA aiconfigurator's
measured TensorRT-LLM MoE kernels.

A development tool, not a dependency: it needs pandas (with a parquet engine) and aiconfigurator-core
0.12.0's data directory (``pip download aiconfigurator-core==0.12.0``, unpack the wheel):

    python benchmarks/routed_expert_factor.py PATH/aiconfigurator_core/systems/data

For each tensor-parallel degree and each point of tokens routed to an expert, it prints the geometric mean of
measured / estimated over H100 SXM and H200 and the Mixtral 8x7B and 8x22B shapes (FP8, 8 experts, 2 a
token, no expert parallelism, tokens routed with aiconfigurator's default power-law skew), at the
measurements whose token count is within 1.6x of the point's. The estimate is the one
``engine/calc/roofline.py`` makes of a routed multiplication: the experts a step touches read once at the
decode bandwidth share, their multiply-adds at the FP8 compute share, the two blended with the roofline
exponent, all three and the GPUs' datasheet figures read from the knowledge base. A factor below 1 (the
kernels of this later release beat the dense share) is floored at 1.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pandas as pd

from gpu_advisor.engine.calc.roofline import blended
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

KNOWLEDGE = load_knowledge()
EFFICIENCY = KNOWLEDGE.throughput.efficiency
GPUS = {"h100_sxm": "h100-sxm", "h200_sxm": "h200"}  # aiconfigurator's system directories, catalog IDs
SHAPES = ((4096, 14336, 8, 2), (6144, 16384, 8, 2))  # hidden, expert intermediate, experts, top-k
RELEASE = "1.3.0rc20"
DISTRIBUTION = "power_law_1.2"
DEGREES = (1, 2, 4, 8)
TOKENS_PER_EXPERT = (1, 4, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)
WINDOW = 1.6


def estimate(tokens: float, shape: tuple[int, int, int, int], degree: int, gpu: str) -> float:
    """Seconds the roofline gives a step of ``tokens`` tokens through the routed experts on one card."""
    hidden, intermediate, experts, top_k = shape
    card = KNOWLEDGE.gpu(GPUS[gpu])
    assert card.fp8_dense_tflops is not None
    bandwidth = card.memory_bandwidth_gb_s * 1e9 * EFFICIENCY.decode_bandwidth_share
    flops = card.fp8_dense_tflops * 1e12 * EFFICIENCY.compute_share_by_math["fp8"]
    per_expert = 3 * hidden * intermediate  # gate, up and down projections, one byte each in FP8
    touched = experts * (1 - (1 - top_k / experts) ** tokens)
    read = touched * per_expert / degree / bandwidth
    compute = tokens * top_k * 2 * per_expert / degree / flops
    return blended(read, compute, EFFICIENCY.roofline_exponent)


def factors(data: Path) -> dict[int, list[tuple[int, float]]]:
    tables = {
        gpu: pd.read_parquet(data / gpu / "moe" / "trtllm" / RELEASE / "moe_perf.parquet") for gpu in GPUS
    }
    result: dict[int, list[tuple[int, float]]] = {}
    for degree in DEGREES:
        points = []
        for per_expert in TOKENS_PER_EXPERT:
            logs = []
            for gpu, table in tables.items():
                for shape in SHAPES:
                    hidden, intermediate, experts, top_k = shape
                    target = per_expert * experts / top_k
                    rows = table[
                        (table.hidden_size == hidden)
                        & (table.inter_size == intermediate)
                        & (table.num_experts == experts)
                        & (table.topk == top_k)
                        & (table.moe_dtype == "fp8")
                        & (table.moe_tp_size == degree)
                        & (table.moe_ep_size == 1)
                        & (table.distribution == DISTRIBUTION)
                        & (table.num_tokens >= target / WINDOW)
                        & (table.num_tokens <= target * WINDOW)
                    ]
                    logs += [
                        math.log(row.latency / 1e3 / estimate(row.num_tokens, shape, degree, gpu))
                        for row in rows.itertuples()
                    ]
            if logs:
                points.append((per_expert, round(max(1.0, math.exp(sum(logs) / len(logs))), 2)))
        result[degree] = points
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="aiconfigurator_core/systems/data")
    for degree, points in factors(parser.parse_args().data).items():
        print(f'    "{degree}": [{", ".join(f"[{t}, {f:.2f}]" for t, f in points)}]')


if __name__ == "__main__":
    main()
