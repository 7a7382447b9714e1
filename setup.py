"""The one build step pyproject.toml cannot declare: on Python 3.13 and later, a small C extension that
gives durable-rules' engine the C function 3.13 removed (engine/rulebook/durable_compat.c). On 3.10 to
3.12 nothing is compiled here and the package stays pure Python."""

import sys

from setuptools import Extension, setup

COMPAT = Extension(
    "gpu_advisor.engine.rulebook._durable_compat", sources=["engine/rulebook/durable_compat.c"]
)

setup(ext_modules=[COMPAT] if sys.version_info >= (3, 13) else [])
