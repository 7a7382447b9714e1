"""A service has no batch window and no runs a month: its result said 8 hours and 30.42 runs (the batch
defaults it never reads), and its memo listed them among the defaults used. A batch keeps both."""

from __future__ import annotations

from helpers import run

SERVICE = {"name": "svc", "model": {"name": "llama-3.1-8b", "precision": "fp8"}, "requests_per_day": 50_000}


def test_a_services_result_has_no_batch_window_or_runs() -> None:
    workload = run(SERVICE).workload
    assert workload is not None
    assert (workload.batch_window_hours, workload.batch_runs_per_month) == (None, None)
    assert {"batch_window_hours", "batch_runs_per_month"}.isdisjoint(workload.defaults_used)


def test_a_batch_keeps_its_window_and_runs_defaults() -> None:
    workload = run({**SERVICE, "load_pattern": "batch"}).workload
    assert workload is not None
    # The catalog's default window (knowledge/workload_defaults.yaml) and every day of the schedule.
    assert (workload.batch_window_hours, workload.batch_runs_per_month) == (8.0, 30.42)
    assert {"batch_window_hours", "batch_runs_per_month"} <= set(workload.defaults_used)
