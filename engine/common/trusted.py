"""Building result models from values the engine computed itself, without pydantic's per-field work.

A recommendation builds about a hundred models (options, sizing rows, findings) from numbers that come
out of validated knowledge and the calculators. ``model_construct`` skips validation but still walks
every field for aliases and defaults in Python, for every model. ``trusted`` sets the instance state
directly, as ``model_construct`` does at its end, and insists on exactly the model's fields, so a
missing or misspelt name fails loudly instead of leaving a hole. The values must already be what
validation accepts (types, allowed literals, bounds): the tests validate every example's result, and
generated ones, after writing it as JSON.

"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


_set_attribute = object.__setattr__


_FIELDS: dict[type[BaseModel], tuple[tuple[str, ...], frozenset[str], set[str]]] = {}
"""Per model class: its field names in order, as a set, and the fields-set its instances share (a
plain dict: this sits on the hot path)."""


def _fields(cls: type[BaseModel]) -> tuple[tuple[str, ...], frozenset[str], set[str]]:
    names = tuple(cls.model_fields)
    _FIELDS[cls] = fields = (names, frozenset(names), set(names))
    return fields


def trusted(cls: type[M], /, **values: Any) -> M:
    """An instance of ``cls`` holding ``values`` as they are: every field given, none extra, no
    validation. Only for plain models (no private attributes, no post-init, no extras)."""
    names, name_set, fields_set = _FIELDS.get(cls) or _fields(cls)
    if tuple(values) != names:
        if values.keys() != name_set:
            missing = sorted(name_set - values.keys())
            extra = sorted(values.keys() - name_set)
            raise TypeError(f"{cls.__name__}: missing fields {missing}, unknown fields {extra}")
        # JSON output follows the order of ``__dict__``: keep the model's field order, as validation does.
        values = {name: values[name] for name in names}
    instance = cls.__new__(cls)
    _set_attribute(instance, "__dict__", values)
    # Every field is set, so the set is the same for every instance: pydantic only ever adds to it (a
    # field assigned), which leaves it as it is, and copies it for ``model_copy``.
    _set_attribute(instance, "__pydantic_fields_set__", fields_set)
    _set_attribute(instance, "__pydantic_extra__", None)
    _set_attribute(instance, "__pydantic_private__", None)
    return instance
