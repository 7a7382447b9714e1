"""A serverless batch's starts: each run starts its instances from zero together, so the starts are
runs x instances; the memo said "152 times a month a request finds none running" for 30.4 runs of 5
instances, as if 152 requests had found no instance, the wording of a service's starts."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

NIGHTLY = {
    "name": "nightly-8b-summaries",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 2_000_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 200,
    "load_pattern": "batch",
    "schedule": "always",
    "batch_window_hours": 4,
    "company_country": "DE",
}


def test_a_batch_s_serverless_starts_are_runs_times_instances() -> None:
    result = run(NIGHTLY)
    so = result.serverless_option
    assert so is not None and so.serverless is not None and so.replicas == 5
    # Every day of the month (30.42) one run of 5 instances: 152 starts.
    assert round(so.serverless.cold_starts_per_month) == 152
    memo = " ".join(render_memo(result).split())
    assert (
        "Instances scale to zero: each run starts its 5 instances from zero, 30.4 runs and 152 starts a "
        "month, and its requests wait at least 29.2 s for the first."
    ) in memo
    assert "a request finds none running" not in memo
    german = " ".join(render_memo(result, Format.named("de")).split())
    assert "Jeder Lauf startet seine 5 Instanzen von null, 30,4 Läufe und 152 Starts im Monat" in german


def test_a_one_instance_batch_says_its_instance() -> None:
    memo = " ".join(
        render_memo(run({**NIGHTLY, "requests_per_day": 20_000, "batch_window_hours": 8})).split()
    )
    assert (
        "Instances scale to zero: each run starts its instance from zero, 30.4 runs and 30.4 starts a "
        "month, and its requests wait at least 29.2 s for it."
    ) in memo
    # The costs table counts the starts as the sentence and the Workload table do (30.4, not 30).
    assert "| Cold starts (30.4) |" in memo


def test_a_weekly_batch_s_runs_are_written_as_the_workload_table_writes_them() -> None:
    """4.35 runs a month (a week's run): the memo read "4.3 runs and 4 starts" beside the Workload
    table's 4.35."""
    weekly = {**NIGHTLY, "requests_per_day": 20_000, "batch_window_hours": 8, "batch_runs_per_month": 4.35}
    memo = " ".join(render_memo(run(weekly)).split())
    assert "| Batch runs a month | 4.35 |" in memo
    assert "each run starts its instance from zero, 4.35 runs and 4.35 starts a month" in memo
    assert "| Cold starts (4.35) |" in memo
