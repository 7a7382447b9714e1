"""Building the validators and serializers of the package's loaded pydantic models ahead of use.

Every model defers that work to its first use (``defer_build``), which keeps a command's start-up short.
A long-running service does it once at start instead, so that no request pays for it and no two requests
build the same model at once in the worker threads.
"""

from __future__ import annotations

import sys

from pydantic import BaseModel


def build_loaded_models(prefix: str = "gpu_advisor.") -> int:
    """Build every model defined in a loaded module under ``prefix`` that is not built yet; the count."""
    built = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefix) or module is None:
            continue
        for value in list(vars(module).values()):
            if (
                isinstance(value, type)
                and issubclass(value, BaseModel)
                and value.__module__ == name
                and not value.__pydantic_complete__
            ):
                value.model_rebuild(force=True)
                built += 1
    return built
