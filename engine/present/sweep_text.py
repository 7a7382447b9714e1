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
    """The file's own value, with every digit it has (it need not lie on the sweep's grid)."""
    if value is None:
        return "derived from the load"
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    return f"{value:,}"


def localized(text: str, fmt: Format) -> str:
    """A value as ``format_value`` writes it, in the language's separators; words are translated."""
    from gpu_advisor.engine.i18n.environment import translate

    if text and (text[0].isdigit() or text[0] == "-"):
        return fmt.localize(text)
    return translate(fmt.lang, text)


BAR_WIDTH = 40


def bar(point: SweepPoint, highest: float) -> str:
    """A cost bar drawn with the decision's letter, so the chart shows both the cost and where it flips."""
    if point.usd_per_month is None or highest <= 0:
        return ""
    length = max(1, round(point.usd_per_month / highest * BAR_WIDTH))
    return point.decision[0] * length


def render_sweep(result: SweepResult, fmt: Format = DEFAULT_FORMAT) -> str:
    """The sweep as text, in ``fmt``'s language and currency."""
    from gpu_advisor.engine.i18n.environment import render

    costs = [p.usd_per_month for p in result.points if p.usd_per_month is not None]
    return render(
        "sweep.txt.j2",
        fmt,
        r=result,
        value=lambda value, variable: localized(format_value(value, variable), fmt),
        baseline=lambda value: localized(format_baseline(value), fmt),
        bar=bar,
        highest=max(costs, default=0.0),
        width=BAR_WIDTH,
    )
