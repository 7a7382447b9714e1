"""Cards per replica by GPU as one string value, so that what is built from them can be cached by value
(``pipeline.capacity``)."""

from __future__ import annotations

from collections.abc import Mapping


def cards_key(cards: Mapping[str, int]) -> str:
    """Cards per replica by GPU as one value (``gpu=cards,...``), so that what is built from them is
    cached by value."""
    return ",".join(f"{gpu}={count}" for gpu, count in sorted(cards.items()))


def parse_cards(key: str) -> dict[str, int]:
    """The cards per replica by GPU a ``cards_key`` holds."""
    return {gpu: int(count) for gpu, _, count in (item.partition("=") for item in key.split(",")) if key}
