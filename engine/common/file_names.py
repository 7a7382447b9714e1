"""A workload's name as the start of the files written for it (its charts, its saved answers, a
download): one rule everywhere, so that two workloads' files never share a name by accident."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

_NOT_IN_A_NAME = re.compile(r"[^\w.-]+")
"""Anything but letters and digits of any script, underscores, dots and dashes: path separators,
spaces, quotes and control characters among them."""


STEM_BYTES = 120
"""The longest stem in UTF-8 bytes: a file system's name holds 255, and a chart's suffix
(``-api-versus-self-hosted.png``) and a free name's counter must fit beside it."""


def file_stem(name: str) -> str:
    """``name`` with each run of other characters a dash, and no dash or dot at either end: 'Ärzte-Chat'
    stays, '客服' stays (a name of ASCII letters only made both 'workload', and their charts one file),
    'a/b c' is 'a-b-c'; 'workload' where nothing is left. At most ``STEM_BYTES`` bytes, cut between
    characters (a workload name may have 200 characters, of up to 4 bytes each)."""
    stem = _NOT_IN_A_NAME.sub("-", name).strip("-.")
    cut = stem.encode("utf-8")[:STEM_BYTES].decode("utf-8", "ignore").rstrip("-.")
    return cut or "workload"


def attachment(file_name: str) -> str:
    """An HTTP ``Content-Disposition`` for a download: the name in ASCII for clients that read only
    ``filename`` (accents dropped, other letters a dash), and in UTF-8 as RFC 6266 gives it
    (``filename*``)."""
    ascii_only = unicodedata.normalize("NFKD", file_name).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_only).strip("-.") or "download"
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(file_name)}"
