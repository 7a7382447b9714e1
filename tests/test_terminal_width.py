"""A terminal that says it is 100 million columns wide (COLUMNS) does not lay the memo out that wide: the
memo's Markdown is drawn at most ``MAX_WIDTH`` columns wide, as plain text is (it ran out of memory)."""

from __future__ import annotations

from gpu_advisor.engine.present.terminal import MAX_WIDTH, render_markdown


def test_a_huge_width_is_held_to_the_widest_layout() -> None:
    drawn = render_markdown("# Memo\n\n| GPU | Cards |\n|---|---|\n| h200 | 1 |\n", width=100_000_000)
    assert MAX_WIDTH == 1000
    assert max(len(line) for line in drawn.splitlines()) <= MAX_WIDTH
    assert "h200" in drawn
