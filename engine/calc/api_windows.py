"""How short the limits of the managed APIs the catalog prices are sold, against a workload's requests:
where the catalog records no context window for an API, an API whose recorded window (or answer cap) the
requests exceed says such limits are sold, so the unrecorded one is to be confirmed (DEP039, DEP050)."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_advisor.engine.common.wording import Grouped, Words
from gpu_advisor.engine.domain.knowledge.api_prices import ApiPrice


def nearest_short_limit(apis: Sequence[ApiPrice], context_tokens: int, output_tokens: int) -> ApiPrice | None:
    """The catalog API whose recorded limit comes closest to the workload's requests without taking them:
    the longest context window below the serving context (even that long a window is sold short of
    them), else the largest answer cap below the average answer; None where every recorded limit takes
    them (``ApiPrice.limit_exceeded``)."""
    short = [(api, api.limit_exceeded(context_tokens, output_tokens)) for api in apis]
    windows = [api for api, limit in short if limit == "window"]
    if windows:
        return max(windows, key=lambda api: (api.context_window_tokens or 0, api.id))
    answers = [api for api, limit in short if limit == "answer"]
    return max(answers, key=lambda api: (api.max_output_tokens or 0, api.id), default=None)


def limit_sold(api: ApiPrice | None, context_tokens: int, output_tokens: int) -> str | Words:
    """``nearest_short_limit``'s API and its limit as a message names them ("" without one)."""
    if api is None:
        return ""
    if api.limit_exceeded(context_tokens, output_tokens) == "window":
        return Words(
            "%(api)s: a window of %(num)s tokens", api=api.name, num=Grouped(api.context_window_tokens or 0)
        )
    return Words(
        "%(api)s: at most %(num)s output tokens", api=api.name, num=Grouped(api.max_output_tokens or 0)
    )
