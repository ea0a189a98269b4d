"""Class bounds on type variables, and the type families the checker solves.

The interface file writes a bounded type variable as 「甲：数」; the bound's
meaning is the predicate below, keyed by its name.  Type families (「元素」,
「同形」, 「矩阵积」, 「转置形」) compute a type from types once they are known;
they are defined in compiler/builtin/families.py, below the checker and the
validation pass that both read them, and re-exported here.
"""

from __future__ import annotations

from typing import Callable

from ..builtin.families import FAMILIES, atomic_element, format_name  # noqa: F401 (FAMILIES: re-exported)
from ..builtin.textures import ELEMENTS, is_texture, texture_shape
from ..types import (F32, FLOAT, TFamily, INT, UINT, TCon, TMeta, TRecord, TTuple, Type, TypeOrIndex,
                     is_scalar, matrix_parts, resolve, vector_parts)


def _kind(t: TypeOrIndex) -> str | None:
    """The scalar kind of a scalar type: 'float', 'int', 'uint', 'bool'."""
    t = resolve(t)
    if not isinstance(t, TCon):
        return None
    return {FLOAT: "float", "小数": "float", INT: "int", UINT: "uint", "整数": "int",
            "爻": "bool"}.get(t.name)


def _scalar_or_vector(t: TypeOrIndex, kinds: set[str]) -> bool:
    t = resolve(t)
    if is_scalar(t):
        return _kind(t) in kinds
    parts = vector_parts(t)
    return parts is not None and _kind(parts[0]) in kinds


def _scalar_only(t: TypeOrIndex, kinds: set[str]) -> bool:
    return is_scalar(t) and _kind(t) in kinds


def _width(t: TypeOrIndex) -> int | None:
    t = resolve(t)
    if isinstance(t, TCon) and t.args and isinstance(t.args[0], int):
        return t.args[0]
    return None


def _is_32bit_scalar(t: TypeOrIndex) -> bool:
    return isinstance(resolve(t), TCon) and resolve(t).name in (FLOAT, INT, UINT) and _width(t) == 32


def _subgroup_scalar(t: TypeOrIndex, kinds: set[str]) -> bool:
    """A scalar every target can move between lanes: 32-bit, or the 16-bit float."""
    return _kind(t) in kinds and (_is_32bit_scalar(t) or (_kind(t) == "float" and _width(t) == 16))


def _subgroup_value(t: TypeOrIndex, kinds: set[str]) -> bool:
    """A subgroup operation's value: such a scalar or a vector of one (爻 never:
    WGSL's subgroup builtins take no bool, PTX's shuffles move 32-bit words)."""
    parts = vector_parts(t)
    return _subgroup_scalar(parts[0] if parts else t, kinds) and (parts is not None or is_scalar(t))


def _bit_castable(t: TypeOrIndex) -> bool:
    if _is_32bit_scalar(t):
        return True
    parts = vector_parts(t)
    if parts is None:
        return False
    comp, n = parts
    return _is_32bit_scalar(comp) or (_kind(comp) == "float" and _width(comp) == 16 and n in (2, 4))


def bit_size(t: TypeOrIndex) -> int | None:
    """The bits of a 位型 value (a 32-bit scalar 32, 二维半 32, 四维半 64, …); None
    for another type or one not yet known."""
    if _is_32bit_scalar(t):
        return 32
    parts = vector_parts(t)
    if parts is None or not _bit_castable(t):
        return None
    comp, n = parts
    return n * (_width(comp) or 0)


def _component_width(t: TypeOrIndex) -> int | None:
    """The width of a scalar's or a vector's component (None for the abstract 小数)."""
    parts = vector_parts(resolve(t))
    return _width(parts[0] if parts else t)


def _indexable(t: TypeOrIndex) -> bool:
    t = resolve(t)
    return (vector_parts(t) is not None or matrix_parts(t) is not None
            or (isinstance(t, TCon) and t.name == "定长数组"))


NUMERIC = {"float", "int", "uint"}


def _sampled_element(t) -> bool:
    """A colour texture's element is 「浮三二」, 「整三二」 or 「无三二」 (WGSL's sampled types)."""
    return resolve(resolve(t).args[0]) in ELEMENTS


def _storage_format(t) -> bool:
    return format_name(resolve(t).args[0]) is not None


def _filterable(t) -> bool:
    """Sampled through a sampler: a depth texture, or a colour texture of 「浮三二」."""
    shape = texture_shape(t)
    return shape.depth or resolve(resolve(t).args[0]) == F32


def _texture_class(test, what: str, extra=lambda t: True):
    return (lambda t: is_texture(t, test) and extra(t), what)


#: the texture classes of the interface file (compiler/builtin/textures.py has each type's row)
TEXTURE_CLASSES = {
    "取样纹理": _texture_class(lambda s: not s.depth and not s.storage, "取样的纹理（「纹理二维」于「浮三二」「整三二」或"
                          "「无三二」，「纹理一维」「纹理二维数组」「纹理三维」「纹理立方」「纹理立方数组」「多重采样纹理二维」亦然）",
                          _sampled_element),
    "深度纹理": _texture_class(lambda s: s.depth, "深度纹理"),
    "存储纹理": _texture_class(lambda s: s.storage, "存储纹理（格式是存储纹理格式之一）", _storage_format),
    "可量纹理": _texture_class(lambda s: True, "纹理"),
    "分级纹理": _texture_class(lambda s: s.mipmapped, "有细节层级的纹理（不是存储纹理，也不是多重采样的）"),
    "数组纹理": _texture_class(lambda s: s.arrayed, "纹理数组"),
    "多重采样纹理": _texture_class(lambda s: s.multisampled, "多重采样的纹理"),
    "可读纹理": _texture_class(lambda s: s.mipmapped and not s.arrayed and not s.cube,
                           "「纹理一维」「纹理二维」「纹理三维」或「深度纹理二维」（纹理数组用「读张纹素」，多重采样用「读样本纹素」，"
                           "存储纹理用「读存储纹素」）"),
    "可读数组纹理": _texture_class(lambda s: s.mipmapped and s.arrayed and not s.cube, "「纹理二维数组」或「深度纹理二维数组」"),
    "可读存储纹理": _texture_class(lambda s: s.access in ("read", "read_write") and not s.arrayed,
                             "「只读…」或「读写…」的存储纹理（不是数组）"),
    "可读存储数组纹理": _texture_class(lambda s: s.access in ("read", "read_write") and s.arrayed,
                               "「只读存储纹理二维数组」或「读写存储纹理二维数组」"),
    "可写存储纹理": _texture_class(lambda s: s.access in ("write", "read_write") and not s.arrayed,
                             "只写的或「读写…」的存储纹理（不是数组）"),
    "可写存储数组纹理": _texture_class(lambda s: s.access in ("write", "read_write") and s.arrayed,
                               "「存储纹理二维数组」或「读写存储纹理二维数组」"),
    "可采样纹理": _texture_class(lambda s: s.mipmapped and not s.arrayed,
                            "浮点的「纹理一维」「纹理二维」「纹理三维」「纹理立方」或「深度纹理二维」「深度纹理立方」", _filterable),
    "可按层采样纹理": _texture_class(lambda s: s.mipmapped and not s.arrayed and s.dims + s.cube > 1,
                              "浮点的「纹理二维」「纹理三维」「纹理立方」或「深度纹理二维」「深度纹理立方」", _filterable),
    "可采样数组纹理": _texture_class(lambda s: s.mipmapped and s.arrayed,
                              "浮点的「纹理二维数组」「纹理立方数组」或「深度纹理二维数组」「深度纹理立方数组」", _filterable),
    # the rest of issue 25: textureSampleBias and textureSampleGrad take a colour texture, gathers any element
    "浮点色纹理": _texture_class(lambda s: s.mipmapped and not s.arrayed and not s.depth and s.dims + s.cube > 1,
                            "浮点的「纹理二维」「纹理三维」或「纹理立方」（纹理数组用带「张」的那个）", _filterable),
    "浮点色数组纹理": _texture_class(lambda s: s.mipmapped and s.arrayed and not s.depth,
                              "浮点的「纹理二维数组」或「纹理立方数组」", _filterable),
    "可聚集纹理": _texture_class(lambda s: s.mipmapped and not s.arrayed and not s.depth and s.dims == 2,
                            "「纹理二维」或「纹理立方」（元素「浮三二」「整三二」或「无三二」；深度纹理用「聚集深度纹素」）"),
    "可聚集数组纹理": _texture_class(lambda s: s.mipmapped and s.arrayed and not s.depth,
                              "「纹理二维数组」或「纹理立方数组」"),
    "可比较纹理": _texture_class(lambda s: s.depth and s.mipmapped and not s.arrayed,
                            "「深度纹理二维」或「深度纹理立方」（数组用带「张」的那个）"),
    "可比较数组纹理": _texture_class(lambda s: s.depth and s.mipmapped and s.arrayed,
                              "「深度纹理二维数组」或「深度纹理立方数组」"),
    # a constant offset: WGSL has it on 2-D and 3-D textures, never on a cube
    "可偏移采样纹理": _texture_class(lambda s: s.mipmapped and not s.arrayed and not s.cube and s.dims > 1,
                              "浮点的「纹理二维」「纹理三维」或「深度纹理二维」（立方纹理没有偏移）", _filterable),
    "可偏移梯度纹理": _texture_class(lambda s: s.mipmapped and not s.arrayed and not s.cube and not s.depth and s.dims > 1,
                              "浮点的「纹理二维」或「纹理三维」", _filterable),
    "可偏移聚集纹理": _texture_class(lambda s: s.mipmapped and not s.arrayed and not s.cube and not s.depth and s.dims == 2,
                              "「纹理二维」（立方纹理没有偏移）"),
    "可偏移采样数组纹理": _texture_class(lambda s: s.mipmapped and s.arrayed and not s.cube,
                                "浮点的「纹理二维数组」或「深度纹理二维数组」（立方纹理数组没有偏移）", _filterable),
    "可偏移聚集数组纹理": _texture_class(lambda s: s.mipmapped and s.arrayed and not s.cube and not s.depth,
                                "「纹理二维数组」（立方纹理数组没有偏移）"),
}

#: name → (predicate, description used in messages)
CLASSES: dict[str, tuple[Callable[[TypeOrIndex], bool], str]] = {
    "数": (lambda t: _scalar_or_vector(t, NUMERIC), "数值标量或数值向量"),
    "整": (lambda t: _scalar_or_vector(t, {"int", "uint"}), "整数标量或整数向量"),
    "浮": (lambda t: _scalar_or_vector(t, {"float"}), "浮点标量或浮点向量"),
    "有符号": (lambda t: _scalar_or_vector(t, {"float", "int"}), "有符号的数值标量或向量"),
    "位": (lambda t: _scalar_or_vector(t, {"int", "uint", "bool"}), "整数或爻（标量或向量）"),
    "逻辑": (lambda t: _scalar_or_vector(t, {"bool"}), "爻或爻向量"),
    "可比": (lambda t: _scalar_or_vector(t, NUMERIC | {"bool"}), "标量或向量"),
    "数形": (lambda t: _scalar_or_vector(t, NUMERIC | {"bool"}), "标量或向量"),
    "标量": (lambda t: _scalar_only(t, NUMERIC | {"bool"}), "标量"),
    "浮标量": (lambda t: _scalar_only(t, {"float"}), "浮点标量"),
    "单精": (lambda t: _scalar_or_vector(t, {"float"}) and _component_width(t) != 16, "「浮三二」或它的向量"),
    "浮向量": (lambda t: vector_parts(t) is not None and _kind(vector_parts(t)[0]) == "float",
             "浮点向量"),
    "计算选项": (lambda t: _compute_options(t), "「计算选项」（工作组大小是一个、两个或三个整数或整数常量）"),
    "原子数组": (lambda t: atomic_element(t) is not None,
             "读写的存储缓冲里「原子」的「数组」或「定长数组」，或工作组变量里「原子」的「定长数组」"),
    "原子值": (lambda t: resolve(t) in (TCon(UINT, (32,)), TCon(INT, (32,))), "「无三二」或「整三二」"),
    "子组值": (lambda t: _subgroup_value(t, NUMERIC),
             "32 位标量（浮三二、无三二、整三二）、浮十六，或它们的向量（爻与其他位宽不行）"),
    "子组整值": (lambda t: _subgroup_value(t, {"int", "uint"}), "无三二、整三二或它们的向量"),
    "位型": (_bit_castable, "32 位标量、32 位标量的向量或二维、四维半精度向量"),
    "可索引": (_indexable, "向量、矩阵或定长数组"),
    "矩阵": (lambda t: matrix_parts(t) is not None, "矩阵"),
    "整标量": (lambda t: _scalar_only(t, {"int", "uint"}), "整数标量（「整三二」或「无三二」）"),
    **TEXTURE_CLASSES,
    "矩阵或向量": (lambda t: matrix_parts(t) is not None or (
        vector_parts(t) is not None and _kind(vector_parts(t)[0]) == "float"), "矩阵或浮点向量"),
}


def _compute_options(t: Type) -> bool:
    """「计算选项」, or a record whose only field 「工作组大小」 holds one, two
    or three integers (workgroups in two and three dimensions, an extension)."""
    if not isinstance(t, TRecord) or [n for n, _ in t.fields] != ["工作组大小"]:
        return False
    size = resolve(t.fields[0][1])
    items = [resolve(i) for i in size.items] if isinstance(size, TTuple) else [size]
    return len(items) in (1, 2, 3) and all(isinstance(i, TCon) and (i.name == "整数" or _integer32(i)) for i in items)


def _integer32(t: Type) -> bool:
    """「无三二」 or 「整三二」: a constant's type, when a workgroup size names the constant."""
    return t in (TCon(UINT, (32,)), TCon(INT, (32,)))


def satisfies(t: TypeOrIndex, bound: str) -> bool | None:
    """Whether t satisfies the bound; None while t is not yet known."""
    t = resolve(t)
    if isinstance(t, (TMeta, TFamily)) or _has_unknown_shape(t):
        return None
    entry = CLASSES.get(bound)
    return True if entry is None else entry[0](t)


def _has_unknown_shape(t: Type) -> bool:
    if isinstance(t, TTuple):
        return any(isinstance(resolve(i), TMeta) or _has_unknown_shape(resolve(i)) for i in t.items)
    return False
