"""Resolved scalar types of the lowered IR: an enum instead of the checker's
("定长小数", 32) constructor tuples, so every writer's type table is keyed by
a closed set that a test can enumerate."""

from __future__ import annotations

from enum import Enum

from ..types import TCon, TFamily, TMeta, TypeOrIndex, map_parts, resolve
from ..valid import reduce_family


class Scalar(Enum):
    F32 = ("定长小数", 32)
    F16 = ("定长小数", 16)
    I32 = ("定长整数", 32)
    U32 = ("定长无符号", 32)
    BOOL = ("爻", None)
    ABSTRACT_INT = ("整数", None)        # WGSL's abstract numbers: literals and constants only
    ABSTRACT_FLOAT = ("小数", None)


#: the scalars a value in memory or in a register can have
CONCRETE = (Scalar.F32, Scalar.F16, Scalar.I32, Scalar.U32, Scalar.BOOL)

_BY_KEY = {s.value: s for s in Scalar}


def head(t) -> str | None:
    """The name of a constructed type (「存储缓冲」, 「格」, 「有」 …), else None."""
    t = resolve(t)
    return t.name if isinstance(t, TCon) else None


def scalar(t) -> Scalar | None:
    """The scalar a type is; None for other types (vectors included) and for
    widths no target has (「定长小数」于 64)."""
    t = resolve(t)
    if not isinstance(t, TCon):
        return None
    width = t.args[0] if t.args and isinstance(t.args[0], int) else None
    return _BY_KEY.get((t.name, width))


def concrete(t: TypeOrIndex) -> TypeOrIndex:
    """t fully resolved: unification variables followed and type families
    (「元素」于 T …) computed, everywhere."""
    t = resolve(t)
    if isinstance(t, int) or isinstance(t, TMeta):
        return t
    if isinstance(t, TFamily):
        args = tuple(concrete(a) for a in t.args)
        reduced = reduce_family(t.name, args)
        return t if reduced is None else concrete(reduced)
    return map_parts(t, concrete)
