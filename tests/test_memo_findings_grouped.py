"""A rule that fires once per GPU or offer gives its rationale once, after the last of its consecutive
findings: the public chat's six NET001 findings (one per PCIe card) carried six copies of one paragraph."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.present.memo import render_memo


def findings_section(memo: str) -> list[str]:
    start = memo.index("## Findings")
    return memo[start : memo.index("## Assumptions")].splitlines()


def test_consecutive_findings_of_one_rule_share_one_rationale() -> None:
    result = run(read_example(EXAMPLES_DIR / "public-chat.yaml"))
    lines = findings_section(render_memo(result))
    net001 = [i for i, line in enumerate(lines) if line.startswith("- **NET001**")]
    assert len(net001) == 6 and net001 == list(range(net001[0], net001[0] + 6))
    why = lines[net001[-1] + 1]
    assert why.startswith(
        "  Why (the 6 findings of NET001 above): PCIe is cheaper and the wrong offer for a 70B model on two "
        "cards"
    )
    # One rationale line a run of findings: as many "Why" lines as runs of one rule.
    bullets = [line.split("**")[1] for line in lines if line.startswith("- **")]
    runs = sum(1 for i, rule in enumerate(bullets) if i == len(bullets) - 1 or bullets[i + 1] != rule)
    assert sum(1 for line in lines if line.startswith("  Why")) == runs < len(bullets)
    # A rule firing once keeps the plain label.
    prc011 = next(i for i, line in enumerate(lines) if line.startswith("- **PRC011**"))
    assert lines[prc011 + 1].startswith("  Why: Serverless scales to zero")
