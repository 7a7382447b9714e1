"""LAT001/LAT002 tell a GPU that misses a latency target another one meets, and name the plainest one
that does: the fewest cards, then the lowest on-demand price in the catalog, then the fastest; not the
fastest of all, which for an 8B model was an 8-card replica of MI300X, a card the catalog has no rental
price for, nor the dearest single card (B200)."""

from __future__ import annotations

from helpers import VOICE_ASSISTANT, run

from gpu_advisor.engine.present.memo import render_memo

VOICE = VOICE_ASSISTANT


def test_a_gpu_missing_a_target_is_told_the_fewest_rented_cards_that_meet_it() -> None:
    result = run(VOICE)
    assert {"LAT001", "LAT002"} <= set(result.fired_rules)
    memo = render_memo(result)
    # Of the one-card replicas that meet both targets, the RTX 5090 has the lowest on-demand price
    # (RunPod community, $0.69 per GPU-hour).
    assert "on 1 × a10g, above the target of 150 ms" in memo
    assert "1 × rtx-5090 meets it (43.3 ms), so a10g is not recommended" in memo
    assert "1 × rtx-5090 meets it (7.57 ms), so l4 is not recommended" in memo
    assert "mi300x meets it" not in memo and "b200 meets it" not in memo
