"""Fit the performance estimate's efficiency factors on the calibration's fit set, and only on it.

Run from the repository root: ``python benchmarks/fit_calibration.py`` (about two minutes). It searches a
grid of the factors in ``knowledge/throughput.yaml`` (the decode bandwidth share, the FP8 compute share
and the NVLink tensor-parallel efficiency per doubling) for the lowest mean absolute log error over every
published figure of the measurements marked ``split: fit`` (throughput, time to first token, time per
output token), among the factors that keep each fit measurement held to a tolerance within it (the
tolerances were set before any fit). It prints the best factors with the fit and held-out errors. The
held-out set is printed for information; it never enters the search. The printed values are copied into
``knowledge/throughput.yaml`` by hand, with the date.
"""

from __future__ import annotations

import itertools
import math
import statistics

from gpu_advisor.engine.calc.calibration import CalibrationRow, Metric, calibration_row
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

METRICS: tuple[Metric, ...] = (
    "throughput",
    "time_to_first_token",
    "time_per_output_token",
    "end_to_end_latency",
)
GRID = (
    [x / 100 for x in range(56, 86, 2)],  # decode bandwidth share
    [x / 100 for x in range(30, 74, 2)],  # FP8 compute share
    [x / 100 for x in range(70, 101, 2)],  # NVLink efficiency per doubling
)


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


def rows(knowledge: Knowledge, split: str) -> list[CalibrationRow]:
    return [calibration_row(knowledge, m) for m in knowledge.calibration.measurements if m.split == split]


def log_errors(found: list[CalibrationRow]) -> list[float]:
    errors = []
    for row in found:
        for metric in METRICS:
            comparison = row.comparison(metric)
            if comparison is not None and comparison.estimate is not None:
                errors.append(math.log(comparison.estimate / comparison.published))
    return errors


def within_tolerances(found: list[CalibrationRow]) -> bool:
    return all(abs(r.error) <= r.tolerance for r in found if r.tolerance and r.error is not None)


def main() -> None:
    base = load_knowledge()
    scored = []
    for factors in itertools.product(*GRID):
        found = rows(with_factors(base, *factors), "fit")
        if within_tolerances(found):
            scored.append((statistics.fmean(abs(e) for e in log_errors(found)), factors))
    _, best = min(scored)
    knowledge = with_factors(base, *best)
    print("decode_bandwidth_share, fp8 compute share, nvlink per doubling:", best)
    for split in ("fit", "held_out"):
        errors = [math.exp(e) - 1 for e in log_errors(rows(knowledge, split))]
        print(
            f"{split}: {len(errors)} figures, mean |error| {statistics.fmean(abs(e) for e in errors):.1%}, "
            f"worst {max(errors, key=abs):+.1%}"
        )


if __name__ == "__main__":
    main()
