"""An overrides file that replaces nothing (empty, null, {}, []) is refused, as ``catalog import`` refuses
to write one: the run would price at list prices with no word that the team's rates were not read."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EXAMPLES_DIR, invoke


@pytest.mark.parametrize("text", ["", "null\n", "{}\n", "offers: []\n"])
def test_an_overrides_file_that_replaces_nothing_is_refused(tmp_path: Path, text: str) -> None:
    overrides = tmp_path / "rates.yaml"
    overrides.write_text(text, encoding="utf-8")
    result = invoke("recommend", str(EXAMPLES_DIR / "public-chat.yaml"), "--overrides", str(overrides))
    assert result.exit_code == 2
    assert result.output == (
        f"error: --overrides {overrides}: the file replaces no figure: every price and cost would stay the "
        "catalog's unsaid\n"
    )


def test_one_rate_is_enough(tmp_path: Path) -> None:
    overrides = tmp_path / "rates.yaml"
    overrides.write_text(
        "offers:\n  - {provider: aws, offer: p5-on-demand, gpu: h100-sxm, usd_per_gpu_hour: 2.0}\n",
        encoding="utf-8",
    )
    result = invoke("recommend", str(EXAMPLES_DIR / "public-chat.yaml"), "--overrides", str(overrides))
    assert result.exit_code == 0, result.output
