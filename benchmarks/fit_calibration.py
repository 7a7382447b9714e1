"""Fit the performance estimate's efficiency factors on the calibration's fit set, and only on it.

Run from the repository root: ``python benchmarks/fit_calibration.py``. It searches a grid of the
factors in ``knowledge/throughput.yaml`` (the decode bandwidth share, the FP8 compute share and the
NVLink tensor-parallel efficiency per doubling) for the lowest mean absolute log error over every
published figure of the measurements marked ``split: fit`` (throughput, time to first token, time per
output token), and prints the best values with their fit and held-out errors. The held-out set is
printed for information; it never enters the search. The printed values are copied into
``knowledge/throughput.yaml`` by hand, with the date.
"""

from __future__ import annotations

import itertools
import math
import statistics

from gpu_advisor.engine.calc.calibration import calibration_rows
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

METRICS = ("throughput", "time_to_first_token", "time_per_output_token", "end_to_end_latency")


def with_factors(knowledge: Knowledge, bandwidth: float, fp8: float, nvlink: float) -> Knowledge:
    throughput = knowledge.throughput
    shares = dict(throughput.efficiency.compute_share_by_math) | {"fp8": fp8}
    efficiency = throughput.efficiency.model_copy(
        update={"decode_bandwidth_share": bandwidth, "compute_share_by_math": shares}
    )
    parallel = tuple(
        t.model_copy(update={"efficiency_per_doubling": nvlink}) if t.interconnect == "nvlink" else t
        for t in throughput.tensor_parallel
    )
    updated = throughput.model_copy(update={"efficiency": efficiency, "tensor_parallel": parallel})
    return knowledge.model_copy(update={"throughput": updated})


def log_errors(knowledge: Knowledge, split: str) -> list[float]:
    found = []
    for row in calibration_rows(knowledge):
        if row.split != split:
            continue
        for metric in METRICS:
            comparison = row.comparison(metric)  # type: ignore[arg-type]
            if comparison is not None and comparison.estimate is not None:
                found.append(math.log(comparison.estimate / comparison.published))
    return found


def score(errors: list[float]) -> float:
    return statistics.fmean(abs(e) for e in errors)


def main() -> None:
    base = load_knowledge()
    grid = itertools.product(
        [x / 100 for x in range(56, 86, 2)],  # decode bandwidth share
        [x / 100 for x in range(30, 72, 3)],  # FP8 compute share
        [x / 100 for x in range(84, 101, 2)],  # NVLink efficiency per doubling
    )
    best = min(grid, key=lambda factors: score(log_errors(with_factors(base, *factors), "fit")))
    knowledge = with_factors(base, *best)
    print("decode_bandwidth_share, fp8 compute share, nvlink per doubling:", best)
    for split in ("fit", "held_out"):
        errors = [math.exp(e) - 1 for e in log_errors(knowledge, split)]
        print(
            f"{split}: {len(errors)} figures, mean |error| {statistics.fmean(abs(e) for e in errors):.1%}, "
            f"worst {max(errors, key=abs):+.1%}"
        )


if __name__ == "__main__":
    main()
