"""Every pydantic model of the package builds its validator on first use (``defer_build``): a command
uses a fraction of the models, and building all of them at import cost ``recommend`` a third of its
start-up (benchmarks/README.md, figure (c))."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pydantic

import gpu_advisor.engine


def test_every_model_defers_building_its_validator() -> None:
    eager = []
    for module_info in pkgutil.walk_packages(gpu_advisor.engine.__path__, "gpu_advisor.engine."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, pydantic.BaseModel)
                and value.__module__ == module.__name__
                and not value.model_config.get("defer_build")
            ):
                eager.append(f"{module.__name__}.{name}")
    assert eager == []
