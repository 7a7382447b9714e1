"""The calibration's published measurements ran on H100 SXM and H200 only: on any other GPU the figures
rest on its datasheet with the efficiencies fitted there, and the memo says so. The Assumptions' risk line
quotes the held-out error beside the band of the measurements held to a tolerance, which are fitted on."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.calc.calibration import calibration_rows
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo

UNCHECKED = (
    "No published measurement on b200 is in the calibration (they ran on h100-sxm, h200): its throughput "
    "and latency here follow from its datasheet's bandwidth and FLOPs with the efficiencies fitted on those "
    "GPUs, unchecked for it."
)


def test_the_measured_gpus_are_those_of_the_calibration() -> None:
    rows = calibration_rows(load_knowledge())
    result = run(read_example(EXAMPLES_DIR / "hr-assistant.yaml"))
    assert result.throughput_accuracy.measured_gpus == ("h100-sxm", "h200")
    assert {r.gpu for r in rows} == {"h100-sxm", "h200"}


def test_a_decision_on_a_gpu_without_measurements_says_its_figures_are_unchecked() -> None:
    # The nightly batch on its own weights, which no API serves (DEP005), is rented on B200 (the example
    # itself goes to a managed API).
    own_weights = {"name": "qwen2.5-72b", "precision": "fp8", "custom_weights": True}
    batch = run({**read_example(EXAMPLES_DIR / "nightly-batch.yaml"), "model": own_weights})
    assert batch.decision.gpu == "b200"
    assert UNCHECKED in " ".join(render_memo(batch).split())
    measured = run(read_example(EXAMPLES_DIR / "hr-assistant.yaml"))
    assert measured.decision.gpu == "h100-sxm"
    assert "No published measurement on" not in render_memo(measured)


def test_the_risk_line_quotes_the_held_out_error() -> None:
    result = run(read_example(EXAMPLES_DIR / "hr-assistant.yaml"))
    accuracy = result.throughput_accuracy
    assert accuracy.held_out_mean_absolute_error is not None and accuracy.held_out_worst_error is not None
    assert (
        round(accuracy.held_out_mean_absolute_error * 100),
        round(accuracy.held_out_worst_error * 100),
    ) == (
        7,
        58,
    )
    # The band of the measurements held to a tolerance: -5.7 % to +6.1 % (docs/calibration.md).
    assert (round(accuracy.lowest_error * 100), round(accuracy.highest_error * 100)) == (-6, 6)
    assert (
        "- Throughput, replicas and latency are estimates (-6 % to +6 % against the published measurements "
        "held to a tolerance, 7 % on average and up to +58 % against those held out from fitting); "
        "load-test the chosen configuration before committing." in " ".join(render_memo(result).split())
    )
