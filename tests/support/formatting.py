"""A structural dump of a checked module that ignores where things are
written (spans), for comparing a program with its formatted text."""

from __future__ import annotations

import dataclasses
import enum

SPAN_FIELDS = {"start", "end", "name_start", "name_end", "starts"}   # starts: a module's item offsets


def ir_dump(obj, seen: set[int] | None = None):
    """Nested tuples of class names and field values; spans left out; a
    node met again (a recursive local function, a shared variable) is named
    by its class and name instead of being walked twice."""
    seen = set() if seen is None else seen
    if isinstance(obj, (list, tuple)):
        return tuple(ir_dump(x, seen) for x in obj)
    if isinstance(obj, (set, frozenset)):
        return tuple(sorted(repr(ir_dump(x, seen)) for x in obj))
    if isinstance(obj, dict):
        return tuple(sorted((repr(k), repr(ir_dump(v, seen))) for k, v in obj.items()))
    if isinstance(obj, enum.Enum) or not dataclasses.is_dataclass(obj):
        return obj
    if type(obj).__name__ == "TMeta":   # a solved metavariable is its solution; its number is arbitrary
        return ir_dump(obj.ref, seen) if obj.ref is not None else ("meta", obj.hint)
    if obj.__dataclass_params__.frozen:  # a type: a value, compared field by field
        return (type(obj).__name__,) + tuple((f.name, ir_dump(getattr(obj, f.name), seen))
                                             for f in dataclasses.fields(obj))
    if id(obj) in seen:
        return ("again", type(obj).__name__, getattr(obj, "name", None))
    seen.add(id(obj))
    fields = tuple((f.name, ir_dump(getattr(obj, f.name), seen))
                   for f in dataclasses.fields(obj) if f.name not in SPAN_FIELDS)
    return (type(obj).__name__,) + fields
