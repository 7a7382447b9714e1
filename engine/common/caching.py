"""Caching what is worked out once per knowledge base or rulebook.

A knowledge base or rulebook is read once per process, but a sweep or a user's price overrides make
modified copies: results are cached per object, by identity. The objects are kept with their result so
their ids cannot be reused by a later object; the cache holds a few entries and starts over when full.
Look-ups sit on the hot path of every recommendation, so the one-argument case has its own short path.

The same decorator caches what depends only on the model (its sizing, one replica's performance, the
GPU-fit facts and their JSON text): a portfolio or a sweep asks for the same few models over and over.
Their caches hold more entries; each is still bounded, so memory stays flat however many workloads pass.
``clear_caches`` empties every cache: the tests compare cached results with ones worked out afresh.

"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, overload

R = TypeVar("R")


_ENTRIES = 16


_CLEARERS: list[Callable[[], None]] = []


_VALUES = frozenset({str, int, float, bool})
"""Classes of arguments compared by value (and class): immutable, so an equal value gives an equal
result. Anything else, subclasses of these included, is keyed by identity."""


def clear_caches() -> None:
    """Empty every cache made by ``per_object`` or registered with ``cleared_with_the_others``."""
    for clear in _CLEARERS:
        clear()


def cleared_with_the_others(clear: Callable[[], None]) -> None:
    """Have ``clear_caches`` call ``clear`` too: for a cache kept by hand."""
    _CLEARERS.append(clear)


@overload
def per_object(function: Callable[..., R], *, entries: int = _ENTRIES) -> Callable[..., R]: ...


@overload
def per_object(*, entries: int) -> Callable[[Callable[..., R]], Callable[..., R]]: ...


def per_object(
    function: Callable[..., R] | None = None, *, entries: int = _ENTRIES
) -> Callable[..., R] | Callable[[Callable[..., R]], Callable[..., R]]:
    """Cache ``function``'s result per identity of its arguments (strings and numbers by value), at
    most ``entries`` results; ``@per_object`` or ``@per_object(entries=N)``. The cached function takes
    its arguments by position only."""
    if function is None:
        return functools.partial(per_object, entries=entries)
    if len(inspect.signature(function).parameters) == 1:
        return _per_single_object(function, entries)
    store: dict[tuple[Any, ...], tuple[tuple[Any, ...], R]] = {}
    _CLEARERS.append(store.clear)

    @functools.wraps(function)
    def cached(*args: Any) -> R:
        # A value is keyed with its class, so 1, 1.0 and True differ and no value equals an id. An
        # object's id is its key: the entry keeps the object alive, so while the entry exists no other
        # object can have that id, and a hit is the same object.
        key = tuple([(arg.__class__, arg) if arg.__class__ in _VALUES else id(arg) for arg in args])
        hit = store.get(key)
        if hit is not None:
            return hit[1]
        if len(store) >= entries:
            store.clear()
        value = function(*args)
        store[key] = (args, value)
        return value

    return cached


def _per_single_object(function: Callable[[Any], R], entries: int) -> Callable[[Any], R]:
    store: dict[int, tuple[Any, R]] = {}
    _CLEARERS.append(store.clear)

    @functools.wraps(function)
    def cached(arg: Any) -> R:
        hit = store.get(id(arg))
        if hit is not None and hit[0] is arg:
            return hit[1]
        if len(store) >= entries:
            store.clear()
        value = function(arg)
        store[id(arg)] = (arg, value)
        return value

    return cached
