"""The library refuses what a file would be refused for, as an InputError naming the field, not a Python
error: a mapping nested deeper than a workload may be (one that holds itself, say), and a path with a NUL
byte in it."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor import api
from gpu_advisor.engine.common.errors import InputError


def test_a_deeply_nested_or_self_holding_mapping_is_refused() -> None:
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(2000):
        inner["a"] = {}
        inner = inner["a"]
    with pytest.raises(InputError, match="workload: input is nested deeper than 20 levels"):
        api.recommend(deep)
    holds_itself: dict[str, Any] = {"name": "loop"}
    holds_itself["self"] = holds_itself
    with pytest.raises(InputError, match="workload: input is nested deeper than 20 levels"):
        api.recommend(holds_itself)


@pytest.mark.parametrize("call", [api.load_workload, api.check_path])
def test_a_path_with_a_nul_byte_is_refused(call: Any) -> None:
    with pytest.raises(InputError, match="a path cannot hold a NUL byte"):
        call("work\x00load.yaml")
