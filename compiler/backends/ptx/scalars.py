"""How checked types become PTX registers: scalar kinds and value shapes.

A value lives in registers, one per scalar component (seed 着十): a vector
component by component, a matrix column by column, a struct field by field,
a fixed-size array element by element.  `leaves` gives that flat list of
scalar kinds; every back-end value is a list of operands in the same order.
"""

from __future__ import annotations

import math
import struct

from dataclasses import dataclass

from ...lower.types import Scalar as LScalar, concrete, scalar as lowered_scalar
from ...types import FLOAT, INT, UINT, TCon, TRecord, TTuple, Type, chinese_number


@dataclass(frozen=True)
class Scalar:
    """One scalar kind: its register class, its PTX type for arithmetic, the
    bit type for moves, and its type and size in memory."""

    name: str       # f32 f16 u32 s32 pred
    reg: str        # register prefix: %r %h %p
    bits: str       # b32 b16 pred
    mem: str        # type of ld/st
    size: int       # bytes in memory (bool: 4, in workgroup memory only)

    @property
    def is_float(self) -> bool:
        return self.name in ("f32", "f16")


F32 = Scalar("f32", "%r", "b32", "f32", 4)
F16 = Scalar("f16", "%h", "b16", "b16", 2)
U32 = Scalar("u32", "%r", "b32", "u32", 4)
S32 = Scalar("s32", "%r", "b32", "s32", 4)
PRED = Scalar("pred", "%p", "pred", "u32", 4)
U64 = Scalar("u64", "%rd", "b64", "u64", 8)   # addresses only

#: the lowered scalar → register kind; 整数 and 小数 (untyped literals) act as i32 and f32
SCALARS = {LScalar.F32: F32, LScalar.F16: F16, LScalar.I32: S32, LScalar.U32: U32,
           LScalar.BOOL: PRED, LScalar.ABSTRACT_INT: S32, LScalar.ABSTRACT_FLOAT: F32}

#: the registers a lane holds of a subgroup matrix fragment (seed 着十二, see fragments.py):
#: 甲 and 乙 four .b32 registers of two halves (integer: four s8) each, 累 eight f32 (integer: s32)
FRAGMENT_LEAVES = {"子组矩阵片甲": (U32,) * 4, "子组矩阵片乙": (U32,) * 4, "子组矩阵片累": (F32,) * 8,
                   "子组整矩阵片甲": (U32,) * 4, "子组整矩阵片乙": (U32,) * 4, "子组整矩阵片累": (S32,) * 8}
#: tensor fragments are Metal 4's (seed 着十三)
NO_TENSOR = "千手目标没有张量片：张量片只有金属（MSL）支持（着十三）"

#: the largest value (in scalar components) the writer keeps in registers
MAX_LEAVES = 1024


class Unsupported(Exception):
    """A construct the PTX target cannot express; `span` is relative to the
    item being translated (None: the writer supplies the current node).  A
    builtin PTX lacks is named by `builtin`, a type it cannot express by
    `type` (the writer reports them with their typed codes)."""

    def __init__(self, message: str, span: tuple[int, int] | None = None, *,
                 builtin: str | None = None, type: Type | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.builtin = builtin
        self.type = type


def scalar_of(t: Type) -> Scalar | None:
    """The scalar kind of a scalar type, else None."""
    return SCALARS.get(lowered_scalar(concrete(t)))


def is_numeric(t: Type) -> bool:
    """A scalar or a vector of scalars (numbers or 爻)."""
    t = concrete(t)
    if scalar_of(t) is not None:
        return True
    return isinstance(t, TTuple) and bool(t.items) and all(scalar_of(i) is not None for i in t.items)


#: the range of each integer kind; a known constant outside it is not an immediate
_RANGES = {"s32": (-2 ** 31, 2 ** 31 - 1), "u32": (0, 2 ** 32 - 1)}


def fits(kind: Scalar, value) -> bool:
    """Whether a known constant can be written as an immediate of `kind`."""
    if kind.name in _RANGES:
        low, high = _RANGES[kind.name]
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    if kind is PRED:
        return isinstance(value, bool)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def leaves(t: Type) -> list[Scalar]:
    """The scalar kinds of a value of type t, in register order."""
    out: list[Scalar] = []
    _collect(concrete(t), out)
    if len(out) > MAX_LEAVES:
        raise Unsupported(f"值太大：有 {len(out)} 个标量分量，千手目标只把不超过 {MAX_LEAVES} 个分量的值放进寄存器")
    return out


def _collect(t, out: list[Scalar]) -> None:
    scalar = scalar_of(t)
    if scalar is not None:
        out.append(scalar)
    elif isinstance(t, TTuple):
        for item in t.items:
            _collect(item, out)
    elif isinstance(t, TRecord):
        for _, field in t.fields:
            _collect(field, out)
    elif isinstance(t, TCon) and t.name == "定长数组" and isinstance(t.args[1], int):
        if t.args[1] > MAX_LEAVES:
            raise Unsupported(f"值太大：定长数组有 {t.args[1]} 个元素，千手目标只把不超过 {MAX_LEAVES} 个分量的值放进寄存器")
        for _ in range(t.args[1]):
            _collect(t.args[0], out)
    elif isinstance(t, TCon) and t.name in ("格", "原子"):
        _collect(t.args[0], out)
    elif isinstance(t, TCon) and t.name == "有":
        return
    elif isinstance(t, TCon) and t.name in FRAGMENT_LEAVES:
        out.extend(FRAGMENT_LEAVES[t.name])
    elif isinstance(t, TCon) and t.name == "张量片累":
        raise Unsupported(NO_TENSOR, type=t)
    else:
        raise Unsupported(f"千手目标不支持这种值的类型：{_describe(t)}", type=t)


def _describe(t) -> str:
    if isinstance(t, TCon):
        if t.name in (FLOAT, INT, UINT):
            return f"「{t.name}」于「{chinese_number(t.args[0])}」（千手只有 f32、f16、i32、u32）"
        return f"「{t.alias or t.name}」"
    return "无法确定的类型"


def items(t: Type) -> list[Type]:
    """The parts of a composite type in register order: tuple items, record
    fields, fixed-size array elements."""
    t = concrete(t)
    if isinstance(t, TTuple):
        return list(t.items)
    if isinstance(t, TRecord):
        return [f for _, f in t.fields]
    if isinstance(t, TCon) and t.name == "定长数组":
        return [t.args[0]] * t.args[1]
    raise Unsupported(f"千手目标不能按分量拆开{_describe(t)}")


def is_immediate(operand: str) -> bool:
    return not operand.startswith("%")


def f32_text(value: float) -> str:
    """An f32 immediate: with a decimal point when that is exact and short, else 0fXXXXXXXX."""
    try:
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
    except OverflowError:
        bits = 0x7F800000 if value > 0 else 0xFF800000
    x = struct.unpack("<f", struct.pack("<I", bits))[0]
    if math.isfinite(x) and not (x == 0 and math.copysign(1, x) < 0):
        if x == int(x) and abs(x) < 2 ** 24:
            return f"{int(x)}.0"
        text = repr(x)
        if len(text) <= 12 and "e" not in text:
            return text
    return f"0f{bits:08X}"


def f32_value(text: str) -> float:
    """The number an f32 immediate written by f32_text stands for."""
    if text.startswith("0f"):
        return struct.unpack("<f", struct.pack("<I", int(text[2:], 16)))[0]
    return float(text)


def address_text(address: str, offset: int) -> str:
    """A memory operand: [address] or [address+offset]."""
    return f"[{address}+{offset}]" if offset else f"[{address}]"
