"""The busy share (time with a request in flight) is worked out on the GPU of a route the workload's
rules leave standing, and the memo says whose GPU it is. A workload whose data must stay in the building
has its rentals and serverless products ruled out (DEP006); its busy share was worked out on the cheapest
serverless product's H200, while the memo's decision is a bought H100 node."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.present.memo import render_memo

ON_PREMISES = read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml")


def test_the_busy_share_of_a_workload_kept_in_the_building_is_the_own_servers() -> None:
    result = run(ON_PREMISES)
    assert (result.decision.deployment, result.own_hardware.gpu) == ("own_hardware", "h100-sxm")
    assert result.serverless_option is not None and result.serverless_option.gpu == "h200"
    assert (result.load.busy_share_gpu, result.load.busy_share_route) == ("h100-sxm", "own_hardware")
    assert round(result.load.service_seconds_alone or 0, 1) == 25.1
    assert (
        "One request takes 25.1 s on an idle replica of h100-sxm (the own server's GPU, as the rules leave "
        "neither a rental nor serverless standing), longer as more share it;"
    ) in " ".join(render_memo(result).split())


def test_an_admitted_rental_sets_the_busy_share_and_is_named() -> None:
    result = run({**ON_PREMISES, "on_premises_required": False, "personal_data": False})
    assert result.best_option is not None
    assert (result.load.busy_share_gpu, result.load.busy_share_route) == (result.best_option.gpu, "rental")
    assert f"idle replica of {result.best_option.gpu} (the best rental's GPU)," in " ".join(
        render_memo(result).split()
    )
