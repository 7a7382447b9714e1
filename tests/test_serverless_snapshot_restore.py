"""RunPod's FlashBoot and Modal's memory snapshots can restore an instance with the weights loaded and the
engine started, without promising it for a given start. The cold starts are priced as starts that load
both (a RunPod endpoint was said to make requests wait "at least 52.3 s" where a restore on the same host
takes seconds), and the Assumptions say so, with the sources."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.present.memo import render_memo


def assumption(memo: str) -> list[str]:
    return [line for line in memo.splitlines() if line.startswith("- Some serverless products can restore")]


def test_the_products_that_restore_snapshots_are_named_with_their_sources() -> None:
    knowledge = load_knowledge()
    restoring = {p.id: p.snapshot_restore for p in knowledge.serverless.products}
    assert restoring["inference-endpoints"] is None
    modal, runpod = restoring["functions"], restoring["serverless"]
    assert modal is not None and runpod is not None
    result = run(read_example(EXAMPLES_DIR / "prototype.yaml"))
    products = {
        o.serverless.name
        for o in result.options
        if o.serverless and o.serverless.snapshot_restore and not o.excluded_by
    }
    assert products == {"Modal serverless functions", "RunPod Serverless"}
    assert assumption(render_memo(result)) == [
        "- Some serverless products can restore an instance from a snapshot instead of starting it afresh, "
        f"but do not promise it for a given start: Modal serverless functions ({modal.title} <{modal.url}>); "
        f"RunPod Serverless ({runpod.title} <{runpod.url}>). Every cold start in this memo, and each "
        '"at least" said of one, is a start that loads the weights and starts the engine; where a restore '
        "works, a request waits less and the bill is lower than shown."
    ]
    assert "How RunPod FlashBoot Actually Works" in str(runpod.title)
    # The price is a start that loads: platform, weights and engine, not the restore.
    option = next(o for o in result.options if o.serverless and o.serverless.product == "serverless")
    assert option.serverless is not None
    billed = option.serverless
    assert (
        billed.cold_start_seconds
        == billed.cold_start_platform_seconds
        + billed.cold_start_weights_seconds
        + (billed.cold_start_engine_seconds)
    )
    assert billed.cold_start_engine_seconds == 21.8


def test_no_sentence_where_serverless_is_barred() -> None:
    workload = {**read_example(EXAMPLES_DIR / "prototype.yaml"), "on_premises_required": True}
    result = run(workload)
    assert any(o.serverless and o.serverless.snapshot_restore for o in result.options)
    assert result.resolution.barred.get("serverless")
    assert assumption(render_memo(result)) == []
