"""`size` sizes a batch to its window (--batch-window-hours, the load's ``batch_window_hours``), as
`recommend` does for a workload's: it always took the default 8 hours, so it could not reproduce a memo
whose batch must finish in 4."""

from __future__ import annotations

from helpers import invoke, run

from gpu_advisor import api

NIGHTLY = {
    "name": "nightly-8b",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 200,
    "load_pattern": "batch",
    "batch_window_hours": 4,
    "company_country": "DE",
}


def h100_replicas(window: float | None) -> int | None:
    load: dict[str, object] = {
        "requests_per_day": 2_000_000,
        "avg_input_tokens": 1500,
        "avg_output_tokens": 200,
        "load_pattern": "batch",
    }
    if window is not None:
        load["batch_window_hours"] = window
    result = api.size(model="llama-3.1-8b", precision="bf16", load=load)
    return next(g for g in result.gpus if g.gpu == "h100-sxm").replicas


def test_the_window_sets_the_replicas_as_recommend_s() -> None:
    assert h100_replicas(None) == 5
    assert h100_replicas(4) == 10
    planned = next(g for g in run(NIGHTLY).sizing.gpus if g.gpu == "h100-sxm")
    assert planned.replicas == 10


def test_the_option_on_the_command_line() -> None:
    args = ("size", "--model", "llama-3.1-8b", "--precision", "bf16", "--requests-per-day", "2000000")
    load = ("--input-tokens", "1500", "--output-tokens", "200", "--gpu", "h100-sxm")
    result = invoke(*args, *load, "--load-pattern", "batch", "--batch-window-hours", "4")
    assert result.exit_code == 0, result.output
    assert "Load: a batch of 2,000,000 requests a day, done within 4 h" in result.output
    refused = invoke(*args, "--batch-window-hours", "4")
    assert refused.exit_code == 2
    assert "--batch-window-hours: only a batch has a window: give --load-pattern batch too" in refused.output


def test_a_window_the_schedule_cuts_is_said_so() -> None:
    args = ("size", "--model", "llama-3.1-8b", "--precision", "bf16", "--requests-per-day", "200000")
    batch = ("--load-pattern", "batch", "--schedule", "office_hours", "--gpu", "h100-sxm")
    cut = invoke(*args, *batch, "--batch-window-hours", "12").output
    assert (
        "Load: a batch of 200,000 requests a day, done within 8 h (the 12-hour window cut to the schedule's "
        "hours; 6.94 requests/s if spread over them)"
    ) in cut
    assert "window cut" not in invoke(*args, *batch, "--batch-window-hours", "6").output
