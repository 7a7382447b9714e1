"""The library refuses a load profile the file reader would: values above 1e15 summed to infinity and
raised a bare ValueError (cannot convert float NaN to integer)."""

from __future__ import annotations

import pytest

import gpu_advisor.api as api
from gpu_advisor.engine.common.errors import InputError

BASE = {"name": "t", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 1000}


@pytest.mark.parametrize("value", [1e308, 2e15])
def test_a_profile_value_above_1e15_is_refused_naming_the_field(value: float) -> None:
    with pytest.raises(InputError) as raised:
        api.recommend({**BASE, "load_profile": [value] * 24})
    assert "load_profile: a load profile's values are from 0 to 1e15, not all zero" in str(raised.value)


def test_a_profile_at_the_bound_is_read_as_relative_rates() -> None:
    """1e15 in every hour is a flat profile: the same load as the default steady one's flat day."""
    flat = api.recommend({**BASE, "load_profile": [1e15] * 24})
    ones = api.recommend({**BASE, "load_profile": [1.0] * 24})
    assert flat.load.peak_requests_per_second == pytest.approx(ones.load.peak_requests_per_second)
