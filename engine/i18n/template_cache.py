"""Compiled templates kept between runs: Jinja's file cache, keyed by the environment that compiled them
as well as by each template's name and source."""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

import jinja2
import jinja2.bccache

from gpu_advisor.engine.common.cache_directory import cache_directory


def bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept between runs in the user's cache directory (the memo template takes a
    tenth of a second to compile); keyed by the template's source and the environment that compiled it
    (``compile_fingerprint``), so an edited template is recompiled. None where no cache directory can be
    written: then every run compiles."""
    directory = cache_directory("jinja")
    return None if directory is None else ForgivingBytecodeCache(str(directory))


class ForgivingBytecodeCache(jinja2.FileSystemBytecodeCache):
    """A cache directory removed, made read-only or full after start-up costs a compile, not the run; so
    does a damaged entry (a byte flipped on disk), which is a miss, not a fault of gpu-advisor."""

    def get_bucket(
        self, environment: jinja2.Environment, name: str, filename: str | None, source: str
    ) -> jinja2.bccache.Bucket:
        # Jinja keys an entry by the template's name and source alone, but the code it compiles depends
        # on the environment too: the web page's autoescaping environment and the memo's plain one share
        # templates (``_labels.j2``), and a filter that takes the context is called with it only where
        # the code was compiled knowing so.
        return super().get_bucket(environment, f"{name}|{compile_fingerprint(environment)}", filename, source)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # any damage to a cache entry: compile afresh
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def compile_fingerprint(environment: jinja2.Environment) -> str:
    """What compiled template code depends on beside its source: the environment's syntax and escaping
    settings, its extensions, and each filter's and test's name and the arguments Jinja passes it."""

    def passed(functions: dict[str, Any]) -> list[str]:
        return sorted(
            f"{name}:{getattr(function, 'jinja_pass_arg', '')}" for name, function in functions.items()
        )

    settings = (
        str(environment.autoescape),
        environment.trim_blocks,
        environment.lstrip_blocks,
        environment.keep_trailing_newline,
        sorted(environment.extensions),
        passed(environment.filters),
        passed(environment.tests),
    )
    return hashlib.sha256(repr(settings).encode()).hexdigest()[:16]
