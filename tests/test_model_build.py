"""Every pydantic model of the package builds its validator on first use (``defer_build``): a command
uses a fraction of the models, and building all of them at import cost ``recommend`` a third of its
start-up (benchmarks/README.md, figure (c))."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys

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


def test_every_model_builds_and_the_service_builds_them_at_start() -> None:
    """Deferred, a model that cannot build would fail only at its first use: build them all here. The
    service does the same at start (``warm_up``), so no request builds one in a worker thread."""
    import asyncio

    from gpu_advisor.engine.common.model_build import build_loaded_models
    from gpu_advisor.engine.domain.results import Recommendation
    from gpu_advisor.service import create_app

    for module_info in pkgutil.walk_packages(gpu_advisor.engine.__path__, "gpu_advisor.engine."):
        importlib.import_module(module_info.name)
    build_loaded_models()
    unbuilt = [
        f"{module.__name__}.{name}"
        for module_name, module in list(sys.modules.items())
        if module_name.startswith("gpu_advisor.engine.")
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, pydantic.BaseModel)
        and value.__module__ == module_name
        and not value.__pydantic_complete__
    ]
    assert unbuilt == []
    Recommendation.__pydantic_complete__ = False  # as a fresh process has it
    app = create_app()

    async def start_and_stop() -> None:
        async with app.router.lifespan_context(app):
            assert Recommendation.__pydantic_complete__

    asyncio.run(start_and_stop())
