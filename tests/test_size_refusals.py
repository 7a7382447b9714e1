"""``size --gpu X`` for a model no count of X holds says which limit failed: no count up to the largest
sized, or the card count given."""

from __future__ import annotations

import pytest
from helpers import invoke


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # 810 GB of 16-bit weights fit no count of 24 GB cards up to 16 (384 GB).
        (
            ["--model", "llama-3.1-405b", "--precision", "bf16", "--gpu", "l4"],
            "error: --gpu: no count of l4 up to 16 cards holds the weights and one request of 450 tokens",
        ),
        # 140 GB of 16-bit weights on two 24 GB cards.
        (
            ["--model", "llama-3.1-70b", "--precision", "bf16", "--gpu", "l4", "--cards", "2"],
            "error: --cards: 2 × l4 cannot hold the weights and one request of 450 tokens",
        ),
    ],
)
def test_a_gpu_that_cannot_hold_the_model_is_refused_by_the_limit_that_failed(
    args: list[str], expected: str
) -> None:
    result = invoke("size", *args)
    assert result.exit_code == 2
    assert result.output.strip() == expected
