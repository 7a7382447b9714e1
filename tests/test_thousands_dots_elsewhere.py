"""A German thousands dot where a program reads a decimal point: a sweep over a server's price and an
organization's threshold refuse 250.000 and 20.000, as an overrides file's amounts do
(tests/test_overrides_thousands.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main


def test_a_sweep_over_a_servers_price_refuses_a_thousands_dot() -> None:
    args = ["sweep", str(EXAMPLES_DIR / "deepseek-on-premises.yaml"), "--vary"]
    refused = CliRunner().invoke(main, [*args, "server_price_usd=250.000:320.000:10.000"])
    assert refused.exit_code == 2
    assert refused.output == (
        "error: --vary server_price_usd=250.000:320.000:10.000: the dot of 250.000 reads as a decimal point, "
        "not as a thousands separator: write 250000\n"
    )
    # A price per GPU-hour keeps its decimals: 2.500 is two and a half dollars.
    kept = CliRunner().invoke(main, [*args, "price:lambda/on-demand/h100-sxm=2.500:3.500:0.500"])
    assert kept.exit_code == 0, kept.output


def test_a_policy_threshold_with_a_thousands_dot_is_refused(tmp_path: Path) -> None:
    policy = tmp_path / "policy"
    policy.mkdir()
    budget = (EXAMPLES_DIR / "org-policy" / "budget.yaml").read_text(encoding="utf-8")
    assert "    value: 20000\n" in budget
    (policy / "budget.yaml").write_text(budget.replace("value: 20000", "value: 20.000"), encoding="utf-8")
    args = ["recommend", str(EXAMPLES_DIR / "public-chat.yaml"), "--policy", str(policy)]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2
    assert (
        f"{policy / 'budget.yaml'}, line 5: thresholds: value 20.000 reads as 20, not 20000 (YAML takes the "
        "dot for a decimal point): write 20000, or 20.0 where 20 is meant" in refused.output
    )
    shutil.copy(EXAMPLES_DIR / "org-policy" / "budget.yaml", policy / "budget.yaml")
    assert CliRunner().invoke(main, args).exit_code == 0
