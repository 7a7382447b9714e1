"""The calibration data: its split, engines and the rules checked when it loads; the per-set error
statistics worked out by hand; the report's text for a fixed input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from helpers import REPO_ROOT

from gpu_advisor.engine.calc.calibration import (
    CalibrationRow,
    calibration_rows,
    compare,
    estimate,
    set_statistics,
)
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from
from gpu_advisor.engine.present.docs import render_calibration_rows
from gpu_advisor.knowledge import KNOWLEDGE_DIR

FIRST = "nim-llama33-70b-fp8-2xh100-5000-500-c1"


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, target)
    return target


def edit_calibration(directory: Path, change) -> None:
    path = directory / "calibration.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_the_data_covers_what_the_report_claims() -> None:
    measurements = load_knowledge().calibration.measurements
    held_out = [m for m in measurements if m.split == "held_out"]
    assert len(measurements) >= 30
    assert len(held_out) * 3 >= len(measurements)
    assert {m.gpu for m in measurements} >= {"h100-sxm", "h200"}
    assert {m.precision for m in measurements} >= {"fp8", "bf16"}
    assert {m.model for m in measurements} >= {"mixtral-8x7b", "qwen3-235b-a22b", "deepseek-r1"}
    assert len({m.serving_engine for m in measurements}) >= 2


def test_the_split_follows_the_stated_rule() -> None:
    """fit: the TensorRT-LLM "v1.0" overview (commit 00f37686) and NIM 1.8.0; held_out: every other source."""
    for m in load_knowledge().calibration.measurements:
        url = m.source.url or ""
        fit_source = "00f37686aa854010d68bcbd0f4ab000221541ca6" in url or m.engine == "NVIDIA NIM 1.8.0"
        assert m.split == ("fit" if fit_source else "held_out"), m.id


def test_both_concurrency_and_rate_are_refused(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(request_rate_per_second=2))
    with pytest.raises(KnowledgeError, match=f"entry '{FIRST}'.*at most one of concurrency and request_rate"):
        load_knowledge_from(knowledge_copy)


def test_a_number_of_requests_needs_the_quote_that_states_it(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(requests=500))
    with pytest.raises(KnowledgeError, match=f"entry '{FIRST}'.*needs the run_quote that states it"):
        load_knowledge_from(knowledge_copy)


def test_the_stated_runs_are_recorded() -> None:
    """Every TensorRT-LLM overview row and the DeepSeek-R1 guide state how many requests ran; the
    v1.0 and v0.17 overviews and the guide draw every request at exactly the stated lengths."""
    for m in load_knowledge().calibration.measurements:
        url = m.source.url or ""
        if "perf-overview.md" in url or "DeepSeek-R1" in url:
            assert m.requests is not None and m.run_quote, m.id
            online = "Online Serving" in (m.source.title or "")
            assert m.length_stdev_tokens == (None if online else 0), m.id
            assert m.requests == 500 or not online, m.id
    deepseek = next(
        m for m in load_knowledge().calibration.measurements if m.id.startswith("trtllm-deepseek-r1")
    )
    assert (deepseek.requests, deepseek.concurrency) == (5120, 1024)


def test_a_split_outside_fit_and_held_out_is_refused(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(split="test"))
    with pytest.raises(KnowledgeError, match=f"entry '{FIRST}': field measurements.0.split"):
        load_knowledge_from(knowledge_copy)


def test_the_split_and_engine_are_required(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].pop("serving_engine"))
    with pytest.raises(KnowledgeError, match=r"field measurements\.0\.serving_engine: Field required"):
        load_knowledge_from(knowledge_copy)


def test_an_unknown_serving_engine_is_refused(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(serving_engine="nim"))
    with pytest.raises(KnowledgeError, match=r"field measurements\.0\.serving_engine"):
        load_knowledge_from(knowledge_copy)


def test_a_measurement_without_any_figure_is_refused(knowledge_copy: Path) -> None:
    def strip(data) -> None:
        data["measurements"][0].update(
            output_tokens_per_second=None,
            time_to_first_token_ms=None,
            inter_token_latency_ms=None,
            tolerance=None,
        )

    edit_calibration(knowledge_copy, strip)
    with pytest.raises(KnowledgeError, match="give at least one measured figure"):
        load_knowledge_from(knowledge_copy)


def test_duplicate_ids_across_measurements_and_references(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["references"][0].update(id=FIRST))
    with pytest.raises(KnowledgeError, match=f"calibration\\.yaml: entry '{FIRST}': duplicate id"):
        load_knowledge_from(knowledge_copy)


def test_an_unknown_model_or_gpu_is_refused(knowledge_copy: Path) -> None:
    edit_calibration(knowledge_copy, lambda d: d["measurements"][0].update(model="llama-9", gpu="h900"))
    with pytest.raises(KnowledgeError) as error:
        load_knowledge_from(knowledge_copy)
    assert f"entry '{FIRST}': field model: unknown model 'llama-9'" in str(error.value)
    assert f"entry '{FIRST}': field gpu: unknown GPU 'h900'" in str(error.value)


def row(row_id: str, split: str, published=None, estimate=None, **latencies) -> CalibrationRow:
    """A compared measurement: 70B FP8 on 2 x H100, 1,000 in / 100 out, offline, with the figures given."""
    throughput = compare(published, estimate)
    return CalibrationRow(
        id=row_id,
        split=split,
        serving_engine="vllm" if split == "held_out" else "trtllm",
        engine=None,
        model="llama-3.3-70b",
        precision="fp8",
        gpu="h100-sxm",
        gpus=2,
        input_tokens=1000,
        output_tokens=100,
        concurrency=None,
        metric=None if published is None else "output tokens/s",
        published=published,
        estimate=estimate if published is not None else None,
        error=None if throughput is None else throughput.error,
        **{name: compare(*pair) for name, pair in latencies.items()},
        tolerance=0.25 if row_id == "a" else None,
        within_tolerance=True if row_id == "a" else None,
        source="a source",
        as_of="2026-11-30",
    )


# fit: a +10 % and b -25 % throughput, a's first token -20 %.
# held out: c +30 % throughput and +20 % per output token, d's throughput cannot be estimated, e's
# end-to-end latency -25 %.
TINY = (
    row("a", "fit", 100, 110, time_to_first_token=(50, 40)),
    row("b", "fit", 200, 150),
    row("c", "held_out", 1000, 1300, time_per_output_token=(10, 12)),
    row("d", "held_out", 400, None),
    row("e", "held_out", end_to_end_latency=(800, 600)),
)


def test_statistics_per_set_worked_out_by_hand() -> None:
    found = {(s.split, s.metric): s for s in set_statistics(TINY)}
    assert len(found) == 8

    fit = found[("fit", "throughput")]
    # |+10 %| and |-25 %| average to 17.5 %; the worst is b's -25 %.
    assert (fit.count, fit.not_estimated, fit.worst_id) == (2, 0, "b")
    assert fit.mean_absolute_error == pytest.approx(0.175)
    assert fit.worst_error == pytest.approx(-0.25)

    first_token = found[("fit", "time_to_first_token")]
    assert (first_token.count, first_token.worst_id) == (1, "a")
    assert first_token.mean_absolute_error == pytest.approx(0.20)
    assert first_token.worst_error == pytest.approx(-0.20)
    assert found[("fit", "time_per_output_token")].count == 0
    assert found[("fit", "time_per_output_token")].mean_absolute_error is None

    held_out = found[("held_out", "throughput")]
    # d publishes a throughput the estimate cannot run: counted apart, not as an error of 0.
    assert (held_out.count, held_out.not_estimated, held_out.worst_id) == (1, 1, "c")
    assert held_out.mean_absolute_error == pytest.approx(0.30)
    assert found[("held_out", "time_per_output_token")].worst_error == pytest.approx(0.20)
    end_to_end = found[("held_out", "end_to_end_latency")]
    assert (end_to_end.count, end_to_end.worst_id) == (1, "e")
    assert end_to_end.worst_error == pytest.approx(-0.25)
    assert found[("held_out", "time_to_first_token")].count == 0


def test_the_report_for_a_fixed_input() -> None:
    knowledge = load_knowledge()
    text = render_calibration_rows(TINY, knowledge.throughput.efficiency, (), 0.80)
    assert "keeps 80 % of it per doubling of the tensor-parallel cards over NVLink" in text
    # The engines count every measurement, not the held-out ones.
    assert "5 measurements (TensorRT-LLM: 2, vLLM: 3): 2 in the fit set and 3 held out." in text
    assert (
        "| Set | Figure | Measurements | Mean absolute error | Worst error | Worst measurement |\n"
        "|---|---|---|---|---|---|\n"
        "| fit | throughput | 2 | 18 % | -25 % | b |\n"
        "| held out | throughput | 1 (+1 the estimate cannot run) | 30 % | +30 % | c |\n"
    ) in text
    assert (
        "| fit | time to first token | 1 | 20 % | -20 % | a |\n"
        "| fit | time per output token | 0 | — | — | — |\n"
        "| fit | end-to-end latency | 0 | — | — | — |\n"
        "| held out | time to first token | 0 | — | — | — |\n"
        "| held out | time per output token | 1 | 20 % | +20 % | c |\n"
        "| held out | end-to-end latency | 1 | 25 % | -25 % | e |\n"
    ) in text
    # The derate band comes from the one measurement held to a tolerance (a, +10 %).
    assert "against those the estimate is off by +10 % to +10 %." in text
    assert (
        "| a | fit | TensorRT-LLM | llama-3.3-70b FP8, 2 × h100-sxm | 1,000 / 100 | all at once "
        "| output tokens/s | 100 | 110 | +10 % | ± 25 % |"
    ) in text
    assert (
        "| d | held out | vLLM | llama-3.3-70b FP8, 2 × h100-sxm | 1,000 / 100 | all at once "
        "| output tokens/s | 400 | cannot run | — | reported |"
    ) in text
    assert (
        "| e | held out | vLLM | llama-3.3-70b FP8, 2 × h100-sxm | 1,000 / 100 | all at once "
        "| end-to-end latency | 800 | 600 | -25 % |"
    ) in text
    assert (
        "| c | held out | vLLM | llama-3.3-70b FP8, 2 × h100-sxm | 1,000 / 100 | all at once "
        "| time per output token | 10 | 12 | +20 % |"
    ) in text


def test_every_figure_of_a_measurement_gets_its_estimate() -> None:
    """One light-load row of the TensorRT-LLM 0.14 table: throughput, first token and per-token time
    each beside its estimate. The table's runs sent 500 requests: at 2 requests/s the last is sent
    499 / 2 s after the first and answered one request's latency later, so the run's rate is a little
    below the offered 2 requests/s."""
    knowledge = load_knowledge()
    rows = {r.id: r for r in calibration_rows(knowledge)}
    light = rows["trtllm014-llama31-8b-bf16-1xh100-467-256-qps2"]
    assert (light.split, light.serving_engine, light.request_rate_per_second) == ("held_out", "trtllm", 2)
    assert light.requests == 500
    assert light.published == 504
    value = estimate(knowledge, next(m for m in knowledge.calibration.measurements if m.id == light.id))
    assert value.time_to_first_token_ms is not None and value.time_per_output_token_ms is not None
    last_answered = (value.time_to_first_token_ms + 255 * value.time_per_output_token_ms) / 1000
    assert light.estimate == pytest.approx(500 * 256 / (499 / 2 + last_answered))
    assert 2 * 256 * 0.98 < light.estimate < 2 * 256
    assert light.time_to_first_token is not None and light.time_to_first_token.published == 23
    assert light.time_per_output_token is not None and light.time_per_output_token.published == 8
    assert light.end_to_end_latency is None
    batch = rows["vllm-mixtral-8x7b-bf16-2xh200-32-128-c8"]
    assert (batch.published, batch.estimate, batch.error) == (None, None, None)
    measurement = next(m for m in knowledge.calibration.measurements if m.id == batch.id)
    value = estimate(knowledge, measurement)
    assert value.time_to_first_token_ms is not None and value.time_per_output_token_ms is not None
    assert batch.end_to_end_latency is not None
    assert batch.end_to_end_latency.estimate == pytest.approx(
        value.time_to_first_token_ms + 127 * value.time_per_output_token_ms
    )


def test_the_readme_quotes_the_held_out_throughput_error() -> None:
    rows = calibration_rows(load_knowledge())
    held_out = next(s for s in set_statistics(rows) if (s.split, s.metric) == ("held_out", "throughput"))
    assert held_out.mean_absolute_error is not None and held_out.worst_error is not None
    readme = " ".join((REPO_ROOT / "README.md").read_text(encoding="utf-8").split())
    mean = round(held_out.mean_absolute_error * 100)
    worst = f"{round(held_out.worst_error * 100):+d}"
    assert (
        f"held out from fitting, its throughput is off by {mean} % on average (worst {worst} %) "
        f"across {held_out.count} published measurements"
    ) in readme
