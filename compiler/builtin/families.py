"""The type families of the builtin interface: 「元素」, 「原子元素」, 「比较交换结果」,
「同形」, 「矩阵积」, 「转置形」, 「纹素值」 and the texture families (「纹素」, 「纹理坐标」,
「采样坐标」, 「采样层级」, 「纹理尺寸形」, 「聚集值」, 「纹理偏移」) compute a type from types once those are
known.  The checker (compiler/check/) solves them while it unifies, and the
lowering middle reduces what is left (`valid.reduce_family`), so they live
here, below both, and neither reaches into the other for them."""

from __future__ import annotations

from typing import Callable

from ..types import BOOL, F32, I32, INT, U32, UINT, TCon, TMeta, TRecord, TTuple, Type, TypeOrIndex, matrix_parts, resolve, vector_parts
from .formats import STORAGE_FORMATS
from .textures import texture_shape


def format_name(t: TypeOrIndex) -> str | None:
    """The name of a storage-texture format type (「四八归一」 …), else None."""
    t = resolve(t)
    return t.name if isinstance(t, TCon) and t.name in STORAGE_FORMATS and not t.args else None


#: a texel's scalar → (its type, the alias of four of them)
_FOUR = {"float": (F32, "四维浮"), "uint": (U32, "四维无"), "int": (I32, "四维整")}
_VECTORS = {(F32, 2): "二维浮", (F32, 3): "三维浮", (U32, 2): "二维无", (U32, 3): "三维无",
            (I32, 2): "二维整", (I32, 3): "三维整"}


def _texel_value(args):
    """What 「写纹素」 writes into a texture of that format: four of its texel's scalar."""
    name = format_name(args[0])
    if name is None:
        return None
    scalar, alias = _FOUR[STORAGE_FORMATS[name].texel]
    return TTuple((scalar,) * 4).named(alias)


def _vector(scalar, n: int):
    """n components of `scalar` (the scalar itself for one), named as the interface names it."""
    return scalar if n == 1 else TTuple((scalar,) * n).named(_VECTORS.get((scalar, n)))


def _texel(args):
    """What reading or sampling a texture gives: four of a colour texture's
    element, one 「浮三二」 of a depth texture, a storage texture's texel value."""
    t = resolve(args[0])
    shape = texture_shape(t)
    if shape is None:
        return None
    if shape.depth:
        return F32
    if shape.storage:
        return _texel_value(t.args)
    element = resolve(t.args[0])
    alias = next((a for s, a in _FOUR.values() if s == element), None)
    return TTuple((element,) * 4).named(alias)


def _texel_coordinates(args):
    """A texel's integer coordinates: one, two or three of the coordinate scalar."""
    shape = texture_shape(args[0])
    return None if shape is None else (args[1] if shape.dims == 1 else TTuple((args[1],) * shape.dims))


def _sampling_coordinates(args):
    shape = texture_shape(args[0])
    return None if shape is None else _vector(F32, shape.sample_dims)


def _sampling_level(args):
    """textureSampleLevel's level: an integer on a depth texture, else a float."""
    shape = texture_shape(args[0])
    return None if shape is None else (I32 if shape.depth else F32)


def _gathered(args):
    """textureGather's result: one component of four texels, as four of the
    texture's element (「四维浮」 of a depth texture)."""
    t = resolve(args[0])
    shape = texture_shape(t)
    if shape is None or shape.storage:
        return None
    element = F32 if shape.depth else resolve(t.args[0])
    alias = next((a for s, a in _FOUR.values() if s == element), None)
    return TTuple((element,) * 4).named(alias)


def _texel_offset(args):
    """A constant texel offset of sampling and gathering: one 「整三二」 per texel coordinate."""
    shape = texture_shape(args[0])
    return None if shape is None else _vector(I32, shape.dims)


def _texture_size(args):
    shape = texture_shape(args[0])
    return None if shape is None else _vector(U32, shape.dims)


def atomic_element(t: Type) -> Type | None:
    """T of 「存储缓冲」于（「数组」于（「原子」于 T）） or, beyond the seed,
    「工作组变量」于（「定长数组」于（「原子」于 T）于 N） and 「存储缓冲」于
    （「定长数组」于（「原子」于 T）于 N） (a record's field beside others,
    「缓冲」中「字段」); else None."""
    t = resolve(t)
    wanted = {"存储缓冲": ("数组", "定长数组"), "工作组变量": ("定长数组",)}
    if not (isinstance(t, TCon) and t.name in wanted and t.args):
        return None
    array = resolve(t.args[0])
    if not (isinstance(array, TCon) and array.name in wanted[t.name] and array.args):
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


#: the fields of 「整小分离」's result (WGSL's fract, whole) and of 「尾阶分离」's (fract, exp)
MODF_FIELDS = ("小部", "整部")
FREXP_FIELDS = ("尾数", "阶码")


def modf_result(t: Type) -> TRecord:
    """【「小部」乃 T 也，「整部」乃 T 也】: WGSL's __modf_result."""
    return TRecord(((MODF_FIELDS[0], t), (MODF_FIELDS[1], t)))


def frexp_result(t: Type) -> TRecord:
    """【「尾数」乃 T 也，「阶码」乃「同形」于 T 于「整三二」也】: WGSL's __frexp_result."""
    return TRecord(((FREXP_FIELDS[0], t), (FREXP_FIELDS[1], _same_shape([t, I32]))))


def _split_result(make):
    def family(args):
        t = resolve(args[0])
        return None if isinstance(t, TMeta) else make(t)
    return family


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
    "整小结果": (1, _split_result(modf_result)),
    "尾阶结果": (1, _split_result(frexp_result)),
    "同形": (2, _same_shape),
    "矩阵积": (2, _matrix_product),
    "转置形": (1, _transpose),
    "纹素值": (1, _texel_value),
    "纹素": (1, _texel),
    "纹理坐标": (2, _texel_coordinates),
    "采样坐标": (1, _sampling_coordinates),
    "采样层级": (1, _sampling_level),
    "纹理尺寸形": (1, _texture_size),
    "聚集值": (1, _gathered),
    "纹理偏移": (1, _texel_offset),
}

