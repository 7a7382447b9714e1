"""The decision memo: a recommendation as Markdown, in the chosen language and currency."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpu_advisor import __version__
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.i18n.environment import render
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format


def render_memo(
    result: Recommendation,
    fmt: Format = DEFAULT_FORMAT,
    chart_files: Mapping[str, str] | None = None,
    overridden: Sequence[str] = (),
) -> str:
    """The memo of ``result``. ``fmt`` must carry the exchange rate the result was made with (``Format(
    lang, currency, result.exchange_rate_usd_per_eur)``); ``chart_files`` links chart images by name;
    ``overridden`` lists the figures an overrides file replaced."""
    return render(
        "memo.md.j2",
        fmt,
        r=result,
        version=__version__,
        chart_files=dict(chart_files or {}),
        overridden=tuple(overridden),
    )
