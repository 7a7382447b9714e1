"""The Summary's sentence on the cheapest serverless option a rule set aside: where it is cheaper than
the recommendation, it does not say the rules set it aside on cost (they did not: DEP024 keeps a steady
load off serverless), and the next sentence says by how much; where it is dearer, "on cost or strategy"."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo


def summary(example: str, **changes: object) -> str:
    memo = render_memo(run({**read_example(EXAMPLES_DIR / example), **changes}))
    return " ".join(memo.split("## Summary")[1].split("## Why")[0].split())


def test_a_cheaper_serverless_option_set_aside_is_not_said_to_be_set_aside_on_cost() -> None:
    text = summary("hr-assistant.yaml")
    assert (
        "The cheapest serverless option (RunPod Serverless, h200, $2,359 per month) is set aside by the "
        "rules (DEP024). It would cost $1,552 a month less than the recommendation: the rule, not the "
        "price, keeps it out (its finding says why)."
    ) in text
    assert "on cost or strategy" not in text


def test_a_dearer_serverless_option_set_aside_is_set_aside_on_cost_or_strategy() -> None:
    text = summary("internal-assistant.yaml")
    assert (
        "The cheapest serverless option (RunPod Serverless, l40s, $469 per month) is set aside by the rules "
        "on cost or strategy (DEP024)."
    ) in text
    assert "a month less than the recommendation" not in text


def test_the_german_summary_says_the_same() -> None:
    memo = render_memo(run(read_example(EXAMPLES_DIR / "hr-assistant.yaml")), Format.named("de"))
    text = " ".join(memo.split())
    assert "(RunPod Serverless, h200, 2.359 $ pro Monat) wählen die Regeln nicht (DEP024)." in text
    assert "Kosten- oder Strategiegründen" not in text.split("## Begründung")[0]
