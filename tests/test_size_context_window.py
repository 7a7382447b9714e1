"""``size`` sizes the KV cache for the window its requests need: the requests it measures at a
concurrency or on one configuration (or whose token counts are given) must fit the window, as a load's
must. A default window grows to hold them; a given one that cannot is an input error. A bare card count
measures no request, so any window goes. Errors found after the request is read name the field in the
library and the option on the command line."""

from __future__ import annotations

import pytest

from gpu_advisor import api
from gpu_advisor.engine.common.errors import InputError

BASE = {"model": "llama-3.1-8b", "precision": "bf16"}


def test_a_default_window_grows_to_hold_the_requests_measured_at_a_concurrency() -> None:
    # 9,000 prompt + 150 answer tokens (the default answer) = 9,150 > the default window of 8,192.
    assert api.size(**BASE, concurrency=4, input_tokens=9000).context_tokens == 9150
    # Measuring nothing, the window stays the default: the token counts are not read.
    assert api.size(**BASE).context_tokens == 8192


def test_a_given_window_too_small_for_the_measured_requests_is_refused_naming_the_field() -> None:
    with pytest.raises(InputError) as refused:
        api.size(**BASE, concurrency=4, input_tokens=9000, context_tokens=8192)
    assert refused.value.field == "context_tokens"
    assert str(refused.value) == (
        "context_tokens: an average request (9,000 in + 150 out = 9,150 tokens) does not fit "
        "context_tokens: 8,192; give a context_tokens of at least 9,150"
    )


def test_a_bare_card_count_takes_any_window() -> None:
    # 200 tokens hold no default request (300 + 150), but no request is measured.
    assert api.size(**BASE, context_tokens=200).context_tokens == 200


def test_the_library_names_the_field_of_a_card_count_no_replica_runs_on() -> None:
    with pytest.raises(InputError) as refused:
        api.size(**BASE, gpu="h100-sxm", cards=3)
    assert refused.value.field == "cards"
    assert str(refused.value) == "cards: 3 is not a card count a replica runs on (1, 2, 4, 8, 16)"
