"""The memo's two charts as inline SVG, drawn from the same series as the Mermaid charts of the Markdown
memo and the PNG files of ``recommend --charts``: monthly cost against node utilization (own hardware
against renting) and against requests per day (the managed API against self-hosting, on log scales).

This module only works out geometry (positions and tick labels); ``templates/web/_chart.html.j2`` draws it,
so that the colours follow the page's light or dark theme and the texts its language."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.i18n.environment import translate
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.chart_labels import (
    DEPLOYMENT_LABELS,
    STEP_SHAPES,
    api_label,
    self_hosted_label,
)

WIDTH, HEIGHT = 640, 340
LEFT, RIGHT, TOP, BOTTOM = 86, 30, 16, 48
"""The plot area's margins, in SVG units: room for the axis labels."""


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class Series:
    label: str
    points: str
    """SVG polyline points, 'x,y x,y ...'."""
    css: str
    """series-1 (blue) or series-2 (orange): the colours of the Mermaid charts, set by the theme."""


@dataclass(frozen=True)
class Marker:
    at: float
    label: str


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    x_label: str
    y_label: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]
    markers: tuple[Marker, ...]
    rows: tuple[tuple[str, ...], ...]
    """The data as a table (x, then one column per series), for readers who cannot see the chart."""
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    plot_width: int = WIDTH - LEFT - RIGHT
    plot_height: int = HEIGHT - TOP - BOTTOM


def nice_step(span: float, count: int = 5) -> float:
    """A step of 1, 2 or 5 times a power of ten that cuts ``span`` into about ``count`` parts."""
    raw = span / count if span > 0 else 1.0
    power = 10 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def linear(low: float, high: float) -> Callable[[float], float]:
    span = (high - low) or 1.0
    return lambda value: (value - low) / span


def logarithmic(low: float, high: float) -> Callable[[float], float]:
    low_log, high_log = math.log10(low), math.log10(high)
    span = (high_log - low_log) or 1.0
    return lambda value: (math.log10(max(value, low)) - low_log) / span


def linear_ticks(high: float, write: Callable[[float], str]) -> tuple[tuple[Tick, ...], float]:
    """Ticks from 0 to the first step at or above ``high``; the axis ends there."""
    step = nice_step(high)
    top = step * max(1, math.ceil(high / step - 1e-9))
    count = round(top / step)
    return tuple(Tick(i * step / top, write(i * step)) for i in range(count + 1)), top


def log_bounds(values: Sequence[float]) -> tuple[float, float]:
    positive = [v for v in values if v > 0] or [1.0]
    return 10 ** math.floor(math.log10(min(positive))), 10 ** math.ceil(math.log10(max(positive)))


def log_ticks(low: float, high: float, write: Callable[[float], str]) -> tuple[Tick, ...]:
    scale = logarithmic(low, high)
    powers = range(round(math.log10(low)), round(math.log10(high)) + 1)
    return tuple(Tick(scale(10.0**p), write(10.0**p)) for p in powers)


def polyline(xs: Sequence[float], ys: Sequence[float], step: bool = False) -> str:
    """Points in the plot area (0..1 on both axes, y upwards) as SVG coordinates."""
    points: list[tuple[float, float]] = []
    for index, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if step and index:
            points.append((x, points[-1][1]))
        points.append((x, y))
    width, height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    return " ".join(f"{LEFT + x * width:.1f},{TOP + (1 - y) * height:.1f}" for x, y in points)


def charts(result: Recommendation, fmt: Format) -> tuple[Chart, ...]:
    """The charts that have data, in the memo's order."""
    shown = [chart for chart in (buy_versus_rent(result, fmt), api_versus_self_hosted(result, fmt)) if chart]
    return tuple(shown)


def _in_currency(fmt: Format) -> Callable[[float], float]:
    scale = fmt.usd_per_unit
    return lambda usd: usd / scale


def _money(fmt: Format) -> Callable[[float], str]:
    plain = Format(fmt.lang, fmt.currency, 1.0, 1.0)  # the amounts are already in the currency
    return lambda amount: plain.money(amount, 0)


def buy_versus_rent(result: Recommendation, fmt: Format) -> Chart | None:
    data = result.charts.buy_versus_rent
    if data is None:
        return None
    convert, money = _in_currency(fmt), _money(fmt)
    own = [convert(v) for v in data.own_usd_per_month]
    rent = [convert(v) for v in data.rent_usd_per_month]
    y_ticks, top = linear_ticks(max(own + rent), money)
    y = linear(0, top)
    xs = list(data.utilization)
    markers: tuple[Marker, ...] = ()
    if data.compared_billing == "hourly" and 0 < data.break_even_utilization <= 1:
        label = f"{translate(fmt.lang, 'Break-even')} {fmt.pct(data.break_even_utilization)}"
        markers = (Marker(data.break_even_utilization, label),)
    return Chart(
        key="buy_versus_rent",
        title=translate(fmt.lang, "Monthly cost against node utilization"),
        x_label=translate(fmt.lang, "utilization in percent"),
        y_label=f"{fmt.currency} / {translate(fmt.lang, 'month')}",
        x_ticks=tuple(Tick(u, fmt.pct(u)) for u in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)),
        y_ticks=y_ticks,
        series=(
            Series(translate(fmt.lang, "Own hardware"), polyline(xs, [y(v) for v in own]), "series-1"),
            Series(data.compared_with, polyline(xs, [y(v) for v in rent]), "series-2"),
        ),
        markers=markers,
        rows=tuple((fmt.pct(u), money(o), money(r)) for u, o, r in zip(xs, own, rent, strict=True)),
    )


def api_versus_self_hosted(result: Recommendation, fmt: Format) -> Chart | None:
    data = result.charts.api_versus_self_hosted
    if data is None:
        return None
    convert, money = _in_currency(fmt), _money(fmt)
    api = [convert(v) for v in data.api_usd_per_month]
    hosted = [convert(v) for v in data.self_hosted_usd_per_month]
    x_low, x_high = log_bounds(data.requests_per_day)
    y_low, y_high = log_bounds(api + hosted)
    x, y = logarithmic(x_low, x_high), logarithmic(y_low, y_high)
    xs = [x(v) for v in data.requests_per_day]
    markers: tuple[Marker, ...] = ()
    if data.decided is not None and data.decided_usd_per_month is not None:
        decided = translate(fmt.lang, DEPLOYMENT_LABELS[data.decided])
        markers = (
            Marker(
                x(result.workload.requests_per_day), f"{decided} {money(convert(data.decided_usd_per_month))}"
            ),
        )
    return Chart(
        key="api_versus_self_hosted",
        title=translate(fmt.lang, "Monthly cost against requests per day"),
        x_label=translate(fmt.lang, "requests per day"),
        y_label=f"{fmt.currency} / {translate(fmt.lang, 'month')}",
        x_ticks=log_ticks(x_low, x_high, fmt.number),
        y_ticks=log_ticks(y_low, y_high, money),
        series=(
            Series(api_label(data, fmt), polyline(xs, [y(v) for v in api]), "series-1"),
            Series(
                self_hosted_label(data, fmt),
                polyline(xs, [y(v) for v in hosted], step=data.self_hosted_shape in STEP_SHAPES),
                "series-2",
            ),
        ),
        markers=markers,
        rows=tuple(
            (fmt.number(r), money(a), money(h))
            for r, a, h in zip(data.requests_per_day, api, hosted, strict=True)
        ),
    )
