"""What an organization's rule message may build and compute (``environment.message_sandbox``).

A message from a policy file is input, not code: Jinja's sandbox keeps it from the interpreter's
internals, and these limits keep it from the machine's memory and time. A value built by repetition
(``"x" * n``), a field padded by a format (``"%0999999999d" % 1``, ``"{:>999999999}".format(1)``, the
``format`` filter), a filter that pads or multiplies (``center``, ``indent``, ``replace``), loops over
``range`` nested in one another, and the rendered message itself are each held to a bound, and a message
over one is refused as a security error, which the caller reports against its rule as bad input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from string import Formatter
from typing import Any

from jinja2.exceptions import SecurityError

MAX_MESSAGE_VALUE = 100_000
"""The longest text or list an organization's rule message may build, and the longest it may be."""

MAX_MESSAGE_STEPS = 1_000_000
"""The most items the ``range`` calls of one message's rendering may give in all (loops nested in one
another multiply: two over 100,000 each would take 10,000 million steps)."""

# Set for the length of one rendering (``bounded_text``); None outside one, where nothing is counted.
_steps_left: ContextVar[int | None] = ContextVar("message_steps_left", default=None)

# A %-style field: an optional mapping key, flags, then a width and a precision (a number or "*").
_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def repeated_length(left: Any, right: Any) -> int:
    """The length of ``left * right`` where one side is a sequence and the other a count, else 0."""
    for sequence, count in ((left, right), (right, left)):
        if (
            isinstance(sequence, (str, list, tuple))
            and isinstance(count, int)
            and not isinstance(count, bool)
        ):
            return len(sequence) * max(count, 0)
    return 0


def small_power(base: Any, exponent: Any) -> bool:
    """A power a message may compute: an exponent of at most 100 in size (10 ** 1000000 took seconds)."""
    return not isinstance(exponent, (int, float)) or abs(exponent) <= 100


def widest_field(text: str) -> int:
    """The widest field or longest precision ``text`` asks for as a %-style or str.format template; a
    width taken from the arguments (``*``, a nested ``{}``) counts as unbounded."""
    widest = 0
    for match in _PERCENT_FIELD.finditer(text.replace("%%", "")):
        for number in match.groups():
            widest = max(widest, _field_size(number))
    try:
        fields = [spec for _, name, spec, _ in Formatter().parse(text) if name is not None and spec]
    except ValueError:
        return widest  # not a str.format template: formatting it fails on its own
    for spec in fields:
        if "{" in spec:
            return MAX_MESSAGE_VALUE + 1
        widest = max([widest, *(int(number) for number in re.findall(r"\d+", spec))])
    return widest


def _field_size(number: str | None) -> int:
    if number is None:
        return 0
    return MAX_MESSAGE_VALUE + 1 if number == "*" else int(number)


def refuse_wide(text: Any) -> None:
    """Refuse a format template whose fields would build a text over ``MAX_MESSAGE_VALUE``."""
    if isinstance(text, str) and widest_field(text) > MAX_MESSAGE_VALUE:
        raise SecurityError(f"no field over {MAX_MESSAGE_VALUE:,} characters is formatted in a rule message")


def bounded_filters(filters: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """``filters``' padding and multiplying ones, each refusing a result over ``MAX_MESSAGE_VALUE``."""
    center, indent, replace, format_ = (
        filters["center"],
        filters["indent"],
        filters["replace"],
        filters["format"],
    )

    def bounded_center(value: Any, width: int = 80) -> Any:
        _refuse_over(width)
        return center(value, width)

    def bounded_indent(value: Any, width: Any = 4, *args: Any, **kwargs: Any) -> Any:
        lines = str(value).count("\n") + 1
        _refuse_over(len(str(value)) + lines * (width if isinstance(width, int) else len(str(width))))
        return indent(value, width, *args, **kwargs)

    def bounded_replace(eval_ctx: Any, value: Any, old: str, new: str, count: int | None = None) -> Any:
        text = str(value)
        found = len(text) + 1 if old == "" else text.count(str(old))
        if count is not None and count >= 0:
            found = min(found, count)
        _refuse_over(len(text) + found * max(0, len(str(new)) - len(str(old))))
        return replace(eval_ctx, value, old, new, count)

    def bounded_format(value: Any, *args: Any, **kwargs: Any) -> Any:
        refuse_wide(value)
        return format_(value, *args, **kwargs)

    # ``replace`` takes the evaluation context, as Jinja passes it to the filter it replaces.
    bounded_replace.jinja_pass_arg = replace.jinja_pass_arg  # type: ignore[attr-defined]
    return {
        "center": bounded_center,
        "indent": bounded_indent,
        "replace": bounded_replace,
        "format": bounded_format,
    }


def _refuse_over(length: int) -> None:
    if length > MAX_MESSAGE_VALUE:
        raise SecurityError(f"no value over {MAX_MESSAGE_VALUE:,} items is built in a rule message")


def counted_range(safe_range: Callable[..., range]) -> Callable[..., range]:
    """The sandbox's ``range``, each call's items counted against the rendering's ``MAX_MESSAGE_STEPS``."""

    def bounded_range(*args: int) -> range:
        given = safe_range(*args)
        budget = _steps_left.get()
        if budget is None:
            return given
        left = budget - len(given)
        if left < 0:
            raise SecurityError(f"a rule message takes no more than {MAX_MESSAGE_STEPS:,} loop steps")
        _steps_left.set(left)
        return given

    return bounded_range


def bounded_text(chunks: Iterable[str]) -> str:
    """A sandboxed message's rendering, its loop steps counted afresh and its text held to
    ``MAX_MESSAGE_VALUE`` as it is written."""
    token = _steps_left.set(MAX_MESSAGE_STEPS)
    try:
        parts, length = [], 0
        for chunk in chunks:
            length += len(chunk)
            _refuse_over(length)
            parts.append(chunk)
        return "".join(parts)
    finally:
        _steps_left.reset(token)
