"""A range of your own in an overrides file stays within the bounds of the figure it replaces: a spot
discount above 100 %, a throughput error of -100 % (every replica then carries without limit), a server
for nothing and negative requests made the scenarios' costs nonsense ($35 a month against $3,513)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import invoke

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            "throughput_error: {low: -1, high: -1}",
            "ranges.throughput_error.low: -1 is outside the figure's bounds: above -1 and at most 1 "
            "(-100 % to +100 %)",
        ),
        ("throughput_error: {low: 0, high: 1.5}", "ranges.throughput_error.high: 1.5 is outside"),
        (
            "spot_discount: {low: 0.5, high: 1}",
            "ranges.spot_discount.high: 1 is outside the figure's bounds: a share from 0 to below 1",
        ),
        (
            "server_price: {low: 0, high: 1}",
            "ranges.server_price.low: 0 is outside the figure's bounds: above 0",
        ),
        ("requests_per_day: {low: -1000, high: -10}", "ranges.requests_per_day.low: -1000 is outside"),
        ("volume_growth: {low: -2, high: 1}", "ranges.volume_growth.low: -2 is outside"),
    ],
)
def test_a_range_outside_its_figure_is_refused(tmp_path: Path, line: str, said: str) -> None:
    path = tmp_path / "ranges.yaml"
    path.write_text(f"ranges:\n  {line}\n", encoding="utf-8")
    result = invoke(
        "recommend", str(EXAMPLES / "nightly-batch.yaml"), "--overrides", str(path), "--scenarios", "5"
    )
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())


def test_a_range_within_its_figure_is_drawn(tmp_path: Path) -> None:
    path = tmp_path / "ranges.yaml"
    path.write_text(
        "ranges:\n  spot_discount: {low: 0, high: 0.95}\n  throughput_error: {low: -0.5, high: 1}\n"
    )
    result = invoke(
        "recommend", str(EXAMPLES / "nightly-batch.yaml"), "--overrides", str(path), "--scenarios", "5"
    )
    assert result.exit_code == 0, result.output
