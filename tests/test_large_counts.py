"""Counts of cards and replicas above a thousand are grouped as every other figure is: a batch planned on
656 replicas of 16 B200 showed "10496" cards in the sizing table, the options and SIZ009's message."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo


def test_the_sizing_table_and_the_options_group_their_thousands() -> None:
    result = run(read_example(EXAMPLES_DIR / "public-chat.yaml"))
    rows = [
        g if g.gpu != "h200" else g.model_copy(update={"replicas": 1200, "gpus_total": 2400})
        for g in result.sizing.gpus
    ]
    options = tuple(
        o.model_copy(update={"gpus": 1024, "gpus_rented": 1032})
        if o.gpu == "h200" and not o.serverless
        else o
        for o in result.options
    )
    grown = result.model_copy(
        update={"sizing": result.sizing.model_copy(update={"gpus": tuple(rows)}), "options": options}
    )
    memo = render_memo(grown)
    assert "| 1,200 | 2,400 |" in memo
    assert "| h200 | 1,024 (pays 1,032) |" in memo
    german = render_memo(grown, Format(lang="de"))
    assert "| 1.200 | 2.400 |" in german
