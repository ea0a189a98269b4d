"""The type families of the builtin interface: 「元素」, 「原子元素」, 「比较交换结果」,
「同形」, 「矩阵积」, 「转置形」 and 「纹素值」 compute a type from types once those are
known.  The checker (compiler/check/) solves them while it unifies, and the
lowering middle reduces what is left (`valid.reduce_family`), so they live
here, below both, and neither reaches into the other for them."""

from __future__ import annotations

from typing import Callable

from ..types import BOOL, F32, INT, U32, UINT, TCon, TMeta, TRecord, TTuple, Type, TypeOrIndex, matrix_parts, resolve, vector_parts
from .formats import STORAGE_FORMATS


def format_name(t: TypeOrIndex) -> str | None:
    """The name of a storage-texture format type (「四八归一」 …), else None."""
    t = resolve(t)
    return t.name if isinstance(t, TCon) and t.name in STORAGE_FORMATS and not t.args else None


def _texel_value(args):
    """What 「写纹素」 writes into a texture of that format: 「四维浮」, or 「四维无」 for 「单无三二」."""
    name = format_name(args[0])
    if name is None:
        return None
    scalar, alias = (U32, "四维无") if STORAGE_FORMATS[name].texel == "uint" else (F32, "四维浮")
    return TTuple((scalar,) * 4).named(alias)


def atomic_element(t: Type) -> Type | None:
    """T of 「存储缓冲」于（「数组」于（「原子」于 T）） or, beyond the seed,
    「工作组变量」于（「定长数组」于（「原子」于 T）于 N）; else None."""
    t = resolve(t)
    wanted = {"存储缓冲": "数组", "工作组变量": "定长数组"}
    if not (isinstance(t, TCon) and t.name in wanted and t.args):
        return None
    array = resolve(t.args[0])
    if not (isinstance(array, TCon) and array.name == wanted[t.name] and array.args):
        return None
    atomic = resolve(array.args[0])
    if not (isinstance(atomic, TCon) and atomic.name == "原子" and atomic.args):
        return None
    element = resolve(atomic.args[0])
    return element if element in (TCon(UINT, (32,)), TCon(INT, (32,))) else None


#: the fields of 「原子比较交换」's result, in order: the value before, whether it was replaced
COMPARE_EXCHANGE_FIELDS = ("原值", "已换")


def compare_exchange_result(element: Type) -> TRecord:
    """【「原值」乃 T 也，「已换」乃「爻」也】: WGSL's __atomic_compare_exchange_result."""
    return TRecord(((COMPARE_EXCHANGE_FIELDS[0], element), (COMPARE_EXCHANGE_FIELDS[1], BOOL)))


def _compare_exchange(args):
    element = atomic_element(args[0])
    return None if element is None else compare_exchange_result(element)


def _element(args):
    (t,) = args
    t = resolve(t)
    if isinstance(t, TMeta):
        return None
    if isinstance(t, TTuple):
        return resolve(t.items[0]) if t.items else None
    if isinstance(t, TCon) and t.name == "定长数组":
        return t.args[0]
    return t


def _same_shape(args):
    shape, scalar = resolve(args[0]), args[1]
    if isinstance(shape, TMeta):
        return None
    if isinstance(shape, TTuple):
        return TTuple(tuple(scalar for _ in shape.items))
    return scalar


def _matrix_product(args):
    a, b = resolve(args[0]), resolve(args[1])
    ma = matrix_parts(a)
    if ma is None or isinstance(b, TMeta):
        return None
    comp, cols, rows = ma
    column = TTuple(tuple(comp for _ in range(rows)))
    mb = matrix_parts(b)
    if mb is not None and mb[2] == cols:
        return TTuple(tuple(column for _ in range(mb[1])))
    vb = vector_parts(b)
    if vb is not None and vb[1] == cols:
        return column
    return None


def _transpose(args):
    m = matrix_parts(args[0])
    if m is None:
        return None
    comp, cols, rows = m
    return TTuple(tuple(TTuple(tuple(comp for _ in range(cols))) for _ in range(rows)))


FAMILIES: dict[str, tuple[int, Callable]] = {
    "元素": (1, _element),
    "原子元素": (1, lambda args: atomic_element(args[0])),
    "比较交换结果": (1, _compare_exchange),
    "同形": (2, _same_shape),
    "矩阵积": (2, _matrix_product),
    "转置形": (1, _transpose),
    "纹素值": (1, _texel_value),
}

