"""A catalog model's weights: its checkpoint's exact parameter count, whatever size is given beside its ID."""

from __future__ import annotations

import pytest
from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.workload import validate_workload


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
