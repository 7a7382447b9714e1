"""The Jinja environment: templates from ``templates/``, rule messages from the rule declarations, and the
number formats every text shares."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import jinja2

from ..templates import TEMPLATES_DIR


def fmt_num(value: float | int, digits: int = 0) -> str:
    """1234567.8 -> '1,234,568'; small non-integers keep enough digits to be read."""
    if isinstance(value, float) and digits == 0 and not value.is_integer() and abs(value) < 100:
        digits = 2 if abs(value) < 10 else 1
        return f"{value:,.{digits}f}".rstrip("0").rstrip(".")
    return f"{value:,.{digits}f}"


def fmt_usd(value: float) -> str:
    """Dollars with cents: 1963.7 -> '$1,963.70'."""
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def fmt_usd0(value: float) -> str:
    """Whole dollars: 15709.6 -> '$15,710'."""
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.0f}"


def fmt_usd_small(value: float) -> str:
    """Tiny per-request amounts keep significant digits: 0.0000163 -> '$0.0000163'."""
    if value == 0:
        return "$0"
    if abs(value) >= 0.01:
        return fmt_usd(value)
    digits = 2 - math.floor(math.log10(abs(value)))
    return f"${value:.{digits}f}"


def fmt_pct(value: float) -> str:
    """A share as a whole percentage: 0.6098 -> '61 %' (the documents' style)."""
    return f"{value * 100:.0f} %"


def fmt_signed_pct(value: float) -> str:
    """A relative error: 0.084 -> '+8 %', -0.12 -> '-12 %'."""
    rounded = round(value * 100)
    return "0 %" if rounded == 0 else f"{rounded:+d} %"


def fmt_gb(value: float) -> str:
    return fmt_num(round(value, 1)) if not float(value).is_integer() else f"{value:,.0f}"


def _range(figure: Any, fmt: Any) -> str:
    low, high = fmt(figure.value_low), fmt(figure.value_high)
    return low if low == high else f"{low} to {high}"


def fmt_range_pct(figure: Any) -> str:
    """A market figure that is a share, as the documents write it: '60 to 90 %' or '44 %'."""
    low, high = (f"{v * 100:.0f}" for v in (figure.value_low, figure.value_high))
    return f"{low} %" if low == high else f"{low} to {high} %"


def fmt_range_num(figure: Any) -> str:
    return _range(figure, fmt_num)


def fmt_range_usd(figure: Any) -> str:
    return _range(figure, fmt_usd)


FILTERS: dict[str, Any] = {
    "num": fmt_num,
    "usd": fmt_usd,
    "usd0": fmt_usd0,
    "usd_small": fmt_usd_small,
    "pct": fmt_pct,
    "signed_pct": fmt_signed_pct,
    "gb": fmt_gb,
    "range_pct": fmt_range_pct,
    "range_num": fmt_range_num,
    "range_usd": fmt_range_usd,
}


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    return env


@cache
def _message_template(source: str) -> jinja2.Template:
    return environment().from_string(source)


def render_message(source: str, context: dict[str, Any]) -> str:
    """Render a rule's message template; whitespace folded to single spaces (YAML folds lines)."""
    return " ".join(_message_template(source).render(**context).split())


def render(template_name: str, **context: Any) -> str:
    return environment().get_template(template_name).render(**context)
