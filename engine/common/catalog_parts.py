"""The parts of the knowledge base that ``gpu-advisor catalog`` lists, and which filter selects in which.

Kept apart from ``engine/apps/catalog.py`` so that the command's options and help read them without
importing the knowledge models (``--help`` starts without them)."""

from __future__ import annotations

KINDS = ("gpus", "offers", "models", "apis", "serverless")

FILTER_KINDS: dict[str, tuple[str, ...]] = {
    "--gpu": ("gpus", "offers", "serverless"),
    "--provider": ("offers", "serverless", "apis"),
    "--eu/--non-eu": ("offers", "serverless", "apis"),
    "--country": ("offers", "serverless", "apis"),
}
"""The parts each filter selects in; ``catalog --help`` is written from it."""


def selects_in(option: str) -> str:
    """The parts ``option`` filters, as the help names them: 'offers, serverless'."""
    return ", ".join(FILTER_KINDS[option])
