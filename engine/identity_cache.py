"""Caching what is worked out once per knowledge base or rulebook.

A knowledge base or rulebook is read once per process, but a sweep or a user's price overrides make
modified copies: results are cached per object, by identity. The objects are kept with their result so
their ids cannot be reused by a later object; the cache holds a few entries and starts over when full.
Look-ups sit on the hot path of every recommendation, so the one-argument case has its own short path.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

_ENTRIES = 16
_VALUES = (str, int, float)
"""Arguments compared by value (and type): immutable, so an equal value gives an equal result."""


def per_object(function: Callable[..., R]) -> Callable[..., R]:
    """Cache ``function``'s result per identity of its arguments (strings and numbers by value)."""
    if len(inspect.signature(function).parameters) == 1:
        return _per_single_object(function)
    store: dict[tuple[Any, ...], tuple[tuple[Any, ...], R]] = {}

    @functools.wraps(function)
    def cached(*args: Any) -> R:
        # A value is keyed with its type, so 1, 1.0 and True differ and no value equals an id.
        key = tuple((type(arg), arg) if isinstance(arg, _VALUES) else id(arg) for arg in args)
        hit = store.get(key)
        if hit is not None and all(
            kept is arg or isinstance(arg, _VALUES) for kept, arg in zip(hit[0], args, strict=True)
        ):
            return hit[1]
        if len(store) >= _ENTRIES:
            store.clear()
        value = function(*args)
        store[key] = (args, value)
        return value

    return cached


def _per_single_object(function: Callable[[Any], R]) -> Callable[[Any], R]:
    store: dict[int, tuple[Any, R]] = {}

    @functools.wraps(function)
    def cached(arg: Any) -> R:
        hit = store.get(id(arg))
        if hit is not None and hit[0] is arg:
            return hit[1]
        if len(store) >= _ENTRIES:
            store.clear()
        value = function(arg)
        store[id(arg)] = (arg, value)
        return value

    return cached
