"""A sweep as text: its header, table of values and decisions, and cost chart."""

from __future__ import annotations

from gpu_advisor.engine.apps.sweep.model import SweepPoint, SweepResult, SweepVariable, Value
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format

WORDS = ("derived", "derived from the load")
"""The words ``format_value`` and ``format_baseline`` write instead of a number, translated by the catalog."""


def format_value(value: Value | None, variable: SweepVariable) -> str:
    if value is None:
        return "derived"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return f"{value:,.{variable.decimals}f}"


def format_baseline(value: Value | None) -> str:
    """The file's own value, with every digit it has (it need not lie on the sweep's grid), up to 12
    significant ones: a figure the knowledge base works out (a EUR list price in USD, 2.80 x 1.16) would
    show its floating-point noise (3.2479999999999998)."""
    if value is None:
        return "derived from the load"
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    return f"{value:,.12g}" if isinstance(value, float) else f"{value:,}"


def localized(text: str, fmt: Format) -> str:
    """A value as ``format_value`` writes it, in the language's separators; words are translated."""
    from gpu_advisor.engine.i18n.environment import translate

    if text and (text[0].isdigit() or text[0] == "-"):
        return fmt.localize(text)
    return translate(fmt.lang, text)


BAR_WIDTH = 40
"""The longest cost bar; narrower where the text's width leaves less room (at least ``BAR_MIN``)."""
BAR_MIN = 10


def bar(point: SweepPoint, highest: float, width: int = BAR_WIDTH) -> str:
    """A cost bar drawn with the decision's letter, so the chart shows both the cost and where it flips."""
    if point.usd_per_month is None or highest <= 0:
        return ""
    length = max(1, round(point.usd_per_month / highest * width))
    return point.decision[0] * length


def render_sweep(
    result: SweepResult, fmt: Format = DEFAULT_FORMAT, width: int | None = None, wrap: bool = True
) -> str:
    """The sweep as text, in ``fmt``'s language and currency, its tables ``width`` columns wide
    (``None``: as wide as they need), its prose wrapped there where ``wrap``."""
    from gpu_advisor.engine.present.text import render_text

    costs = [p.usd_per_month for p in result.points if p.usd_per_month is not None]
    highest = max(costs, default=0.0)
    bar_width = BAR_WIDTH
    if width is not None:
        # a line of the chart: the value, the letter, the bar and the highest cost after it
        label = max(len(result.variables[0].name), 14)
        bar_width = max(BAR_MIN, min(BAR_WIDTH, width - label - 5 - len(fmt.money_whole(highest))))
    return render_text(
        "sweep.txt.j2",
        fmt,
        width,
        wrap,
        r=result,
        value=lambda value, variable: localized(format_value(value, variable), fmt),
        baseline=lambda value: localized(format_baseline(value), fmt),
        bar=bar,
        highest=highest,
        bar_width=bar_width,
    )
