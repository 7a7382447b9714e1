"""A catalog model's weights: its checkpoint's exact parameter count, whatever size is given beside its ID."""

from __future__ import annotations

import pytest
from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo


@pytest.mark.parametrize("given", [7, 7.1, 7.3, 7.62])
def test_a_size_given_beside_a_catalog_id_weighs_the_catalog_model_exactly(given: float) -> None:
    """qwen2.5-7b with params_b 7.1 or 7.3 beside its ID is the same model (within the catalog's 5 %):
    its weights are its checkpoint's 7.62B at two bytes, 15.24 GB, not 14.2 or 14.6 GB (only 7 was
    weighed at the exact count)."""
    workload = validate_workload(
        {
            "name": "x",
            "model": {"name": "qwen2.5-7b", "precision": "bf16", "params_b": given},
            "requests_per_day": 5000,
        },
        "t",
    )
    sizing = recommend(workload, EVALUATED_ON).sizing
    assert (sizing.weights_params_b, sizing.weights_gb) == (7.62, pytest.approx(15.24))


def test_a_size_given_beside_a_catalog_id_takes_the_catalog_models_counts() -> None:
    """A size within rounding of the catalog's is the catalog model, with its counts: Qwen3-235B-A22B given
    as 235B keeps its 22B active (it was taken as a dense 235B), and Qwen2.5 32B given as 34B is named by
    its 32B in the memo (it said it was 'named by its 34B')."""

    def resolved(model: dict[str, object]) -> Recommendation:
        workload = validate_workload({"name": "x", "model": model, "requests_per_day": 5000}, "t")
        return recommend(workload, EVALUATED_ON)

    qwen3 = resolved({"name": "qwen3-235b-a22b", "precision": "fp8", "params_b": 235})
    assert (qwen3.workload.params_b, qwen3.workload.active_params_b) == (235, 22)
    qwen = resolved({"name": "qwen2.5-32b", "precision": "int4", "params_b": 34})
    assert qwen.workload.params_b == 32
    memo = render_memo(qwen)
    assert "| Model | qwen2.5-32b: 32B parameters, INT4 |" in memo
    assert "qwen2.5-32b is named by its 32B; its checkpoint holds the 32.76B parameters" in memo
