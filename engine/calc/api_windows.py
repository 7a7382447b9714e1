"""Whether a managed API whose context window the catalog does not record may stop short of a workload's
requests: where another API the catalog prices serves its model with a window cut below the model's own,
and below the workload's serving context, providers are known to sell windows that short (DEP039,
DEP050). A window that is its model's own limit (Llama 3 70B's 8,192 tokens) says nothing of another
product's."""

from __future__ import annotations

from gpu_advisor.engine.common.wording import Grouped, Words
from gpu_advisor.engine.domain.knowledge.api_prices import ApiPrice
from gpu_advisor.engine.domain.knowledge.base import Knowledge


def window_cut_short(knowledge: Knowledge, context_tokens: int, leave_out: str = "") -> ApiPrice | None:
    """The API (other than ``leave_out``) whose window, cut below its model's own, comes closest to
    ``context_tokens`` without holding it: the longest such window below the serving context; None where
    no API's cut window is that short."""
    models = {model.id: model.max_context_tokens for model in knowledge.models.models}
    cut = [
        api
        for api in knowledge.api_prices.apis
        if api.id != leave_out
        and api.context_window_tokens is not None
        and api.context_window_tokens < context_tokens
        and api.model in models
        and api.context_window_tokens < models[api.model]
    ]
    return max(cut, key=lambda api: (api.context_window_tokens or 0, api.id), default=None)


def cut_window_words(knowledge: Knowledge, api: ApiPrice | None) -> str | Words:
    """``window_cut_short``'s API, its window and its model's, as a message names them ("" without one)."""
    if api is None or api.model is None:
        return ""
    return Words(
        "%(api)s: a window of %(num)s tokens, of its model's %(model)s",
        api=api.name,
        num=Grouped(api.context_window_tokens or 0),
        model=Grouped(knowledge.model(api.model).max_context_tokens),
    )
