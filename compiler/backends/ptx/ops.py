"""PTX spellings of the builtins, keyed by the builtin's Chinese name (seed 着十).

Every emitter takes the writer, the call and its evaluated arguments and
returns the operands of the result, one per scalar leaf.  Most builtins are
componentwise: a *scalar function* `(writer, kind, *operands) -> operand` is
applied to each component.  f16 arithmetic, comparisons, min, max, abs, neg
and fma are native; f16 division and math functions go through f32 (seed).
"""

from __future__ import annotations

import inspect
import math
import operator

import numpy as np

from ... import ir
from ...valid import registry
from ...lower.types import concrete
from . import mathseq
from .fragments import FRAGMENT_OPS, FRAGMENT_SPELLINGS, FRAGMENTS_UNAVAILABLE
from .layout import stride_of
from .scalars import (F16, F32, PRED, S32, U32, Scalar, Unsupported, address_text, f32_text, f32_value,
                      is_immediate, items, leaves)
from .subgroups import SUBGROUP_OPS, SUBGROUP_SPELLINGS

# ---------------------------------------------------------------- instruction tables

#: typed-literal constructors: an immediate, or a conversion (registry kind "literal")
LITERAL_CONSTRUCTORS = registry.of_kind("literal")

#: builtin → scalar kind → instruction ("" is the identity)
INSTRUCTIONS: dict[str, dict[str, str]] = {
    "加": {"f32": "add.rn.f32", "f16": "add.rn.f16", "u32": "add.u32", "s32": "add.s32"},
    "减": {"f32": "sub.rn.f32", "f16": "sub.rn.f16", "u32": "sub.u32", "s32": "sub.s32"},
    "乘": {"f32": "mul.rn.f32", "f16": "mul.rn.f16", "u32": "mul.lo.u32", "s32": "mul.lo.s32"},
    "除": {"f32": "div.rn.f32"},
    "最大": {"f32": "max.f32", "f16": "max.f16", "u32": "max.u32", "s32": "max.s32"},
    "最小": {"f32": "min.f32", "f16": "min.f16", "u32": "min.u32", "s32": "min.s32"},
    "融合乘加": {"f32": "fma.rn.f32", "f16": "fma.rn.f16"},
    "按位与": {"u32": "and.b32", "s32": "and.b32", "pred": "and.pred"},
    "按位或": {"u32": "or.b32", "s32": "or.b32", "pred": "or.pred"},
    "异或": {"u32": "xor.b32", "s32": "xor.b32"},
    "按位非": {"u32": "not.b32", "s32": "not.b32"},
    "非": {"pred": "not.pred"},
    "负": {"f32": "neg.f32", "f16": "neg.f16", "s32": "neg.s32"},
    "绝对值": {"f32": "abs.f32", "f16": "abs.f16", "s32": "abs.s32", "u32": ""},
    "平方根": {"f32": "sqrt.rn.f32"},
    "逆平方根": {"f32": "rsqrt.approx.f32"},
    "指数二": {"f32": "ex2.approx.f32"},
    "对数二": {"f32": "lg2.approx.f32"},
    "正弦": {"f32": "sin.approx.f32"},
    "余弦": {"f32": "cos.approx.f32"},
    "双曲正切": {"f32": "tanh.approx.f32"},
    "向下取整": {"f32": "cvt.rmi.f32.f32"},
    "向上取整": {"f32": "cvt.rpi.f32.f32"},
    "四舍五入": {"f32": "cvt.rni.f32.f32"},
    "截断": {"f32": "cvt.rzi.f32.f32"},
    "饱和": {"f32": "cvt.sat.f32.f32"},
    "一位计数": {"u32": "popc.b32", "s32": "popc.b32"},
    "位反转": {"u32": "brev.b32", "s32": "brev.b32"},
    "前导零计数": {"u32": "clz.b32", "s32": "clz.b32"},
    # bfind gives WGSL's firstLeadingBit: .s32 the highest bit unlike the sign bit; none: all ones
    "最高位序": {"u32": "bfind.u32", "s32": "bfind.s32"},
}

#: with --快速数学, a sum or difference with a float product for an operand is this one instruction
CONTRACTED = {"加": "fma.rn", "减": "fma.rn"}

#: comparison builtin → setp condition (floats compare 不等于 unordered: neu)
COMPARISONS = {"等于": "eq", "不等于": "ne", "小于": "lt", "大于": "gt", "不大于": "le", "不小于": "ge"}

#: (to, from) → conversion; i32 ↔ u32 keep their bits, bool is a comparison or a select
CONVERSIONS = {
    ("f32", "f16"): "cvt.f32.f16", ("f16", "f32"): "cvt.rn.f16.f32",
    ("f32", "s32"): "cvt.rn.f32.s32", ("f32", "u32"): "cvt.rn.f32.u32",
    ("s32", "f32"): "cvt.rzi.s32.f32", ("u32", "f32"): "cvt.rzi.u32.f32",
    ("f16", "s32"): "cvt.rn.f16.s32", ("f16", "u32"): "cvt.rn.f16.u32",
    ("s32", "f16"): "cvt.rzi.s32.f16", ("u32", "f16"): "cvt.rzi.u32.f16",
}

#: WGSL clamps an f32 converted to an integer to the largest value both types
#: hold (2³¹ − 128, 2³² − 256); cvt.rzi alone saturates at the integer's maximum
INT_CEILINGS = {S32: 2147483520.0, U32: 4294967040.0}

#: f32 operations of mathseq's machine: method → instruction (result f32 or predicate)
MACHINE_F32 = {"add": "add.rn.f32", "sub": "sub.rn.f32", "mul": "mul.rn.f32", "div": "div.rn.f32",
               "fma": "fma.rn.f32", "sqrt": "sqrt.rn.f32", "abs": "abs.f32", "neg": "neg.f32",
               "max": "max.f32", "min": "min.f32", "floor": "cvt.rmi.f32.f32", "trunc": "cvt.rzi.f32.f32",
               "ex2": "ex2.approx.f32", "lg2": "lg2.approx.f32", "sin": "sin.approx.f32",
               "cos": "cos.approx.f32", "rcp_approx": "rcp.approx.ftz.f32", "rsqrt_approx": "rsqrt.approx.ftz.f32"}
MACHINE_PRED = {"gt": "setp.gt.f32", "lt": "setp.lt.f32", "le": "setp.le.f32", "eq": "setp.eq.f32",
                "both": "and.pred", "either_nan": "setp.nan.f32"}

LOG2_E = 1.4426950408889634
LN_2 = 0.6931471805599453

#: 且 and 或: the instruction when the right side is computed eagerly (else a branch)
LOGIC = {"且": "and.pred", "或": "or.pred"}
#: atomic builtin → atom operation (atom.sub does not exist: 原子减 adds the negation)
ATOMICS = {"原子加": "add", "原子最大": "max", "原子最小": "min",
           "原子与": "and", "原子或": "or", "原子异或": "xor", "原子交换": "exch"}
#: the operations written with an untyped .b32 (the others take .u32 or .s32)
ATOMICS_UNTYPED = {"and": "b32", "or": "b32", "xor": "b32", "exch": "b32"}
#: the atomics written other than as one atom of ATOMICS (hover)
ATOMIC_SPELLINGS = {"原子减": "sub.u32 取负，atom.global.add.T", "原子比较交换": "atom.global.cas.b32，setp.eq.T"}
BARRIER = "bar.sync 0"


class PtxMachine:
    """mathseq's machine on f32 registers: the sequences written there become
    these instructions, in the same order."""

    def __init__(self, w) -> None:
        self.w = w

    def __getattr__(self, name: str):
        if name in F32_ARITHMETIC:
            return lambda a, b: f32_arithmetic(self.w, name, a, b)
        if name in MACHINE_F32:
            return lambda *xs: self.w.op(MACHINE_F32[name], F32, *self._registered(xs))
        if name in MACHINE_PRED:
            return lambda *xs: self.w.op(MACHINE_PRED[name], PRED, *self._registered(xs))
        raise AttributeError(name)

    def _registered(self, xs: tuple[str, ...]) -> tuple[str, ...]:
        """Operands with at least one register: a formula's constant arguments
        reach it as immediates (so that f32_arithmetic can fold them)."""
        if xs and all(is_immediate(x) for x in xs):
            return (self.w.in_register(F32, xs[0]), *xs[1:])
        return xs

    @staticmethod
    def const(value: float) -> str:
        return f32_text(value)

    def first_product(self, x: str, y: str) -> str:
        """x·y that starts a sum of products (add_product): under --快速数学 without .rn."""
        return f32_arithmetic(self.w, "mul", x, y, contractible=self.w.options.fast_math)

    def add_product(self, total: str, x: str, y: str) -> str:
        """total + x·y: one fma.rn under --快速数学, else rounded twice as WGSL writes it.
        A factor ±1 leaves a sum (x·1 is exact: 工作组广播's R · (x, 1)), under
        --快速数学 without .rn, so ptxas may still fuse a product in total into it."""
        if not self.w.options.fast_math:
            return self.add(total, self.mul(x, y))
        if any(is_immediate(f) and abs(f32_value(f)) == 1.0 for f in (x, y)):
            return f32_arithmetic(self.w, "add", total, self.mul(x, y), contractible=True)
        return self.fma(x, y, total)

    def select(self, mask: str, a: str, b: str) -> str:
        return self.w.op("selp.f32", F32, a, b, mask)

    def copysign(self, magnitude: str, sign: str) -> str:
        return self.w.op("copysign.f32", F32, sign, magnitude)   # PTX: sign of the first, value of the second

    def sign_bit(self, a: str) -> str:
        return self.w.op("setp.lt.s32", PRED, self.w.in_register(F32, a), "0")


# ---------------------------------------------------------------- exact rewrites of arithmetic

#: f32 arithmetic that goes through f32_arithmetic: machine method → builtin, numpy operation
F32_ARITHMETIC = {"add": ("加", np.add), "sub": ("减", np.subtract), "mul": ("乘", np.multiply),
                  "div": ("除", np.divide)}
#: builtin → machine method
F32_METHODS = {builtin: method for method, (builtin, _) in F32_ARITHMETIC.items()}
#: instructions whose result may stand for a product for ptxas (directly, or through a sign,
#: a select or a copy, whose operands are then looked at in turn)
PRODUCTS = ("mul.", "mad.")
PASSING_ON = ("abs.", "neg.", "selp.", "mov.", "copysign.")
#: how far back through PASSING_ON the products are looked for
PRODUCT_DEPTH = 4


def f32_arithmetic(w, method: str, a: str, b: str, contractible: bool = False) -> str:
    """a + b, a − b, a · b, a ÷ b in f32, with the rewrites that give the same
    bits for every input: two constants are folded (numpy rounds f32 as PTX's
    .rn does; a result that is not finite stays an instruction); x · 1 = x,
    x · (−1) = −x (neg flips the sign, as the rounded product does), x − 0 = x
    and x + (−0) = x (also for x = ±0, NaN, ∞); x ÷ 2^k = x · 2^−k when 2^−k is
    a normal f32 (both round the same real number, x·2^−k, once).
    `contractible` (the program's own +, −, × under --快速数学): written
    without .rn, so ptxas may fuse a product into the sum that reads it
    wherever the dataflow meets, through 令 and calls, as nvcc's code is."""
    builtin, operation = F32_ARITHMETIC[method]
    if is_immediate(a) and is_immediate(b):
        with np.errstate(all="ignore"):
            folded = operation(np.float32(f32_value(a)), np.float32(f32_value(b)))
        if np.isfinite(folded):
            return f32_text(float(folded))
    if method == "div" and is_immediate(b):
        reciprocal = _exact_reciprocal(f32_value(b))
        if reciprocal is not None:
            return f32_arithmetic(w, "mul", a, f32_text(reciprocal))
    identity = _f32_identity(w, method, a, b)
    if identity is not None:
        return identity
    instruction = INSTRUCTIONS[builtin]["f32"]
    if contractible and method != "div" or method in ("add", "sub") and not any(_may_be_product(w, x) for x in (a, b)):
        instruction = instruction.replace(".rn", "")
    return w.op(instruction, F32, a, b)


def _exact_reciprocal(d: float) -> float | None:
    """1/d where d = ±2^k and 1/d is a normal f32 (2^−126 … 2^127), else None."""
    significand, exponent = math.frexp(d)
    if abs(significand) != 0.5 or not -126 <= 1 - exponent <= 127:
        return None
    return 1 / d


def _f32_identity(w, method: str, a: str, b: str) -> str | None:
    """x · 1, 1 · x, x · (−1), (−1) · x, x − 0 and x + (−0), else None."""
    value = {x: f32_value(x) for x in (a, b) if is_immediate(x)}
    if method == "mul":
        for constant, other in ((b, a), (a, b)):
            if value.get(constant) == 1.0:
                return other
            if value.get(constant) == -1.0:
                return w.op("neg.f32", F32, w.in_register(F32, other))
    zero = f32_text(value[b]) if b in value else None
    if (method, zero) in (("sub", f32_text(0.0)), ("add", f32_text(-0.0))):
        return a
    if method == "add":
        for constant, other in ((b, a), (a, b)):
            if constant in value and f32_text(value[constant]) == f32_text(0.0) and _never_negative_zero(w, other):
                return other
    return None


def _never_negative_zero(w, x: str, depth: int = PRODUCT_DEPTH) -> bool:
    """Whether x is never −0 (then x + 0 = x, for ∞ and NaN too): a constant
    other than −0, an integer converted, an absolute value, x − y for x never
    −0 ((−0) − (+0) is the only difference that rounds to −0), a·b + c for c
    never −0 (an exact zero sum is +0 unless both terms are −0), or a sum, min,
    max or select of operands never −0."""
    if is_immediate(x):
        return f32_text(f32_value(x)) != f32_text(-0.0)
    defined = w.defined.get(x)
    if defined is None or depth == 0:
        return False
    instruction, operands = defined
    if instruction in ("cvt.rn.f32.u32", "cvt.rn.f32.s32"):
        return True
    if not instruction.endswith(".f32"):     # an integer's bits (位转换 keeps the register) may be −0's
        return False
    if instruction.startswith("abs."):
        return True
    if instruction.startswith("sub."):
        return _never_negative_zero(w, operands[0], depth - 1)
    if instruction.startswith("fma."):     # a·b + c rounds to −0 only where c is −0
        return _never_negative_zero(w, operands[2], depth - 1)
    values = operands[:2] if instruction.startswith("selp.") else operands
    if instruction.startswith(("min.", "max.", "selp.")):
        return all(_never_negative_zero(w, o, depth - 1) for o in values)
    if instruction.startswith("add."):
        return any(_never_negative_zero(w, o, depth - 1) for o in values)
    return False


def _may_be_product(w, x: str, depth: int = PRODUCT_DEPTH) -> bool:
    """Whether ptxas may see a product in operand x and fuse it into the sum
    that reads it.  PTX ISA (add, mul): "mul/add sequences with no rounding
    modifiers may be optimized to use fused-multiply-add"; an add or sub
    without .rn is therefore written only where no operand is (or passes on,
    through a sign, a select or a copy) a multiplication's result.  An
    immediate is not; a register not set by the writer's `op` may be."""
    if is_immediate(x):
        return False
    defined = w.defined.get(x)
    if defined is None or depth == 0:
        return True
    instruction, operands = defined
    if instruction.startswith(PRODUCTS):
        return True
    if instruction.startswith(PASSING_ON):
        return any(_may_be_product(w, o, depth - 1) for o in operands if not o.startswith("%p"))
    return False


#: integer builtins folded when every operand is a constant (the result wraps to 32 bits, as WGSL's)
INTEGER_FOLDS = {"加": operator.add, "减": operator.sub, "乘": operator.mul,
                 "按位与": operator.and_, "按位或": operator.or_, "异或": operator.xor}


def integer_text(kind: Scalar, value: int) -> str:
    """An i32 or u32 immediate: value modulo 2^32, i32 read signed."""
    value %= 2 ** 32
    return str(value - 2 ** 32 if kind is S32 and value >= 2 ** 31 else value)


def integer_add(w, kind: Scalar, a: str, b: str) -> str:
    """a + b in u32/i32; x + 0 is x (a 局部调用号 in a dimension one thread
    across is 0); (~x) + 1 is −x (two's complement, every x)."""
    for one, other in ((b, a), (a, b)):
        if one == "0":
            return other
        if one == "1" and w.defined.get(other, ("",))[0] == "not.b32":
            return w.op("neg.s32", kind, w.defined[other][1][0])
    return w.op(INSTRUCTIONS["加"][kind.name], kind, a, b)


# ---------------------------------------------------------------- scalar functions


def widen(w, h: str) -> str:
    """An f16 register as f32 (exact); the writer remembers where it came from."""
    f = w.op("cvt.f32.f16", F32, h)
    w.widened[f] = h
    return f


def narrow(w, f: str) -> str:
    """An f32 register rounded to f16 — or, where it is an f16 value widened
    unchanged, that f16 register (f16 → f32 → f16 is the identity)."""
    return w.widened.get(f) or w.op("cvt.rn.f16.f32", F16, f)


def to_f32(w, kind: Scalar, x: str) -> str:
    return w.in_register(F32, x) if kind is F32 else widen(w, x)


def formula_f32(w, kind: Scalar, x: str) -> str:
    """An operand of a formula on PtxMachine: an f32 constant stays an immediate."""
    return x if kind is F32 else widen(w, x)


def from_f32(w, kind: Scalar, x: str) -> str:
    return x if kind is F32 else narrow(w, x)


def scalar_op(w, name: str, kind: Scalar, *xs: str) -> str:
    """One component of a table builtin; f16 without its own instruction goes through f32."""
    table = INSTRUCTIONS[name]
    if kind in (U32, S32) and name in INTEGER_FOLDS and all(is_immediate(x) for x in xs):
        return integer_text(kind, INTEGER_FOLDS[name](*(int(x, 0) for x in xs)))
    if kind is F32 and name in F32_METHODS:
        return f32_arithmetic(w, F32_METHODS[name], *xs, contractible=w.options.fast_math)
    if name == "加" and kind in (U32, S32):
        return integer_add(w, kind, *xs)
    if kind.name in table:
        instruction = table[kind.name]
        if kind is F16 and name in F32_METHODS and name != "除" and w.options.fast_math:
            instruction = instruction.replace(".rn", "")    # as f32_arithmetic's contractible
        return w.op(instruction, kind, *xs) if instruction else xs[0]
    if kind is F16 and "f32" in table:
        return from_f32(w, F16, w.op(table["f32"], F32, *(to_f32(w, F16, x) for x in xs)))
    raise Unsupported(f"千手目标不支持对 {kind.name} 做「{name}」", builtin=name)


def table(name: str):
    return lambda w, kind, *xs: scalar_op(w, name, kind, *xs)


def float_formula(fn):
    """A mathseq-style formula on f32, for f32 and (through f32) f16 components."""
    def scalar(w, kind, *xs):
        return from_f32(w, kind, fn(PtxMachine(w), *(formula_f32(w, kind, x) for x in xs)))
    return scalar


def by_kind(floating, integer):
    return lambda w, kind, *xs: (floating if kind.is_float else integer)(w, kind, *xs)


#: unsigned comparisons with a constant that are tests against zero: (condition, constant) → (test, 0);
#: ptxas then shares one ISETP with the kernel's other `== 0` tests of the same value
UNSIGNED_ZERO_TESTS = {("lt", "1"): "eq", ("ge", "1"): "ne", ("le", "0"): "eq", ("gt", "0"): "ne"}


def compare(condition: str):
    def scalar(w, kind, a, b):
        if kind is PRED:
            differ = w.op("xor.pred", PRED, a, b)
            return differ if condition == "ne" else w.op("not.pred", PRED, differ)
        test = "neu" if condition == "ne" and kind.is_float else condition
        if kind.name == "u32" and (test, b) in UNSIGNED_ZERO_TESTS:
            test, b = UNSIGNED_ZERO_TESTS[(test, b)], "0"
        return w.op(f"setp.{test}.{kind.name}", PRED, a, b)
    return scalar


def shift(instruction: str):
    """WGSL shifts by the amount modulo 32; PTX would clamp it."""
    def scalar(w, kind, value, amount):
        amount = str(int(amount) & 31) if is_immediate(amount) else w.op("and.b32", U32, amount, "31")
        return w.op(instruction.format(kind.name), kind, value, amount)
    return scalar


def _safe_divisor(w, kind: Scalar, a: str, b: str) -> str:
    """WGSL: x / 0 is x and x % 0 is 0, and for i32 also MIN / -1 is MIN and
    MIN % -1 is 0; dividing by 1 instead gives exactly that."""
    if is_immediate(b) and int(b) != 0 and not (kind is S32 and int(b) == -1):
        return b
    bad = w.op(f"setp.eq.{kind.name}", PRED, b, "0")
    if kind is S32:
        smallest = w.op("setp.eq.s32", PRED, a, "-2147483648")
        bad = w.op("or.pred", PRED, bad, w.op("setp.eq.and.s32", PRED, b, "-1", smallest))
    return w.op(f"selp.{kind.name}", kind, "1", b, bad)


def guarded(instruction: str):
    def scalar(w, kind, a, b):
        if is_immediate(b) and not is_immediate(a):
            by_constant = _by_constant(w, instruction, kind, a, int(b))
            if by_constant is not None:
                return by_constant
        return w.op(f"{instruction}.{kind.name}", kind, a, _safe_divisor(w, kind, a, b))
    return scalar


def unsigned_magic(d: int) -> tuple[int, int]:
    """(m, p) with ⌊x·m / 2^p⌋ = ⌊x / d⌋ for every u32 x (Granlund–Montgomery):
    the least p ≥ 32 whose rounding error m·d − 2^p stays within 2^(p−32); m may take 33 bits."""
    for p in range(32, 65):
        m = -(-(1 << p) // d)
        if m * d - (1 << p) <= 1 << (p - 32):
            return m, p
    raise AssertionError(d)


def _unsigned_quotient(w, a: str, d: int) -> str:
    """⌊a / d⌋ for a constant d > 1: a shift for a power of two, else a
    multiply-high by the magic number (with the 33-bit form's add-and-halve step)."""
    if d & (d - 1) == 0:
        return w.op("shr.u32", U32, a, str(d.bit_length() - 1))
    m, p = unsigned_magic(d)
    if m < 1 << 32:
        high = w.op("mul.hi.u32", U32, a, str(m))
        return w.op("shr.u32", U32, high, str(p - 32)) if p > 32 else high
    t = w.op("mul.hi.u32", U32, a, str(m - (1 << 32)))
    halved = w.op("shr.u32", U32, w.op("sub.u32", U32, a, t), "1")
    return w.op("shr.u32", U32, w.op("add.u32", U32, halved, t), str(p - 33))


def signed_magic(d: int) -> tuple[int, int]:
    """(m, p) with ⌊n·m / 2^p⌋ = ⌊n / d⌋ for 0 ≤ n < 2^31 and ⌊n·m / 2^p⌋ + 1 = ⌈n / d⌉
    for −2^31 ≤ n < 0, d ≥ 3 not a power of two: m = ⌈2^p / d⌉ with the least p ≥ 32
    whose error e = m·d − 2^p (0 < e < d) stays within 2^(p−31).  Writing |n| = q·d + r,
    |n|·m / 2^p = q + r/d + |n|·e / (d·2^p), and |n|·e ≤ 2^p puts it above q and at most
    q + 1 (strictly below q + 1 for n ≥ 0, as |n| < 2^31).  Such a p is at most
    31 + ⌈log₂ d⌉, so m < 2^32."""
    for p in range(32, 64):
        m = -(-(1 << p) // d)
        if (m * d - (1 << p)) << 31 <= 1 << p:
            assert m < 1 << 32
            return m, p
    raise AssertionError(d)


def _signed_quotient(w, a: str, d: int) -> str:
    """a / d rounded toward zero, d ≥ 2: for a power of two, a + (d − 1 when a < 0)
    shifted; else the high word of a·m (m ≥ 2^31 is read as m − 2^32 by mul.hi.s32,
    so a is added back), shifted by p − 32, plus 1 when a < 0 (signed_magic)."""
    if d & (d - 1) == 0:
        k = d.bit_length() - 1
        bias = w.op("shr.u32", U32, w.op("shr.s32", S32, a, "31"), str(32 - k))    # d − 1 for a < 0
        return w.op("shr.s32", S32, w.op("add.s32", S32, a, bias), str(k))
    m, p = signed_magic(d)
    high = w.op("mul.hi.s32", S32, a, str(m - (1 << 32) if m >= 1 << 31 else m))
    if m >= 1 << 31:
        high = w.op("add.s32", S32, high, a)
    shifted = w.op("shr.s32", S32, high, str(p - 32)) if p > 32 else high
    return w.op("add.s32", S32, shifted, w.op("shr.u32", U32, a, "31"))


def _by_constant(w, instruction: str, kind: Scalar, a: str, d: int) -> str | None:
    """Division and remainder by a constant without div/rem (a software divide
    of some twenty instructions): u32 by any d > 0; i32 by any d but 0 and
    −2^31, rounding toward zero as WGSL does: a / −1 is −a (wrapping, so
    −2^31 / −1 is −2^31, WGSL's value) and a % −1 is 0; a / d for d < −1 is
    −(a / |d|) (|a / |d|| ≤ 2^30, no wrap) and a % d = a % |d| (the remainder
    takes the dividend's sign); the remainder is a − (a / d)·d.  None where div/rem stays."""
    if d == 1:
        return a if instruction == "div" else "0"
    if kind is U32 and d > 1:
        if instruction == "rem" and d & (d - 1) == 0:
            return w.op("and.b32", U32, a, str(d - 1))
        q = _unsigned_quotient(w, a, d)
        return q if instruction == "div" else w.op("sub.u32", U32, a, w.op("mul.lo.u32", U32, q, str(d)))
    if kind is S32 and d == -1:
        return w.op("neg.s32", S32, a) if instruction == "div" else "0"
    if kind is S32 and d != 0 and d != -2 ** 31:
        q = _signed_quotient(w, a, abs(d))
        if instruction == "rem":
            k = abs(d).bit_length() - 1
            times = ("shl.b32", str(k)) if abs(d) == 1 << k else ("mul.lo.s32", str(abs(d)))
            return w.op("sub.s32", S32, a, w.op(times[0], S32, q, times[1]))
        return q if d > 0 else w.op("neg.s32", S32, q)
    return None


def _integer_sign(w, kind, x):
    positive = w.op("setp.gt.s32", PRED, x, "0")
    negative = w.op("setp.lt.s32", PRED, x, "0")
    return w.op("selp.s32", S32, "-1", w.op("selp.s32", S32, "1", "0", positive), negative)


def _negate(w, kind, x):
    """负 of an immediate is folded (「负」于（「新整三二」于「一」） is −1)."""
    if not is_immediate(x):
        return scalar_op(w, "负", kind, x)
    if kind is F32:
        return f32_text(-f32_value(x))
    return str((-int(x) + 2 ** 31) % 2 ** 32 - 2 ** 31)


def _clamp(w, kind, x, low, high):
    return scalar_op(w, "最小", kind, scalar_op(w, "最大", kind, x, low), high)


#: float formulas, WGSL's definitions over mathseq's machine
FORMULAS = {
    "指数": lambda m, x: m.ex2(m.mul(x, m.const(LOG2_E))),
    "对数": lambda m, x: m.mul(m.lg2(x), m.const(LN_2)),
    "幂": lambda m, x, y: m.ex2(m.mul(y, m.lg2(x))),
    "正切": lambda m, x: m.div(m.sin(x), m.cos(x)),
    "小数部分": lambda m, x: m.sub(x, m.floor(x)),
    "混合": lambda m, a, b, t: m.add(m.mul(a, m.sub(m.const(1.0), t)), m.mul(b, t)),
    "阶跃": lambda m, edge, x: m.select(m.le(edge, x), m.const(1.0), m.const(0.0)),
    "余": lambda m, x, y: m.sub(x, m.mul(m.trunc(m.div(x, y)), y)),
    "符号": lambda m, x: m.select(m.gt(x, m.const(0.0)), m.const(1.0),
                                 m.select(m.lt(x, m.const(0.0)), m.const(-1.0), m.const(0.0))),
    "平滑阶跃": mathseq.smoothstep,
    **{name: seq for name, (seq, _) in mathseq.SEQUENCES.items()},
}


# ---------------------------------------------------------------- emitters


def componentwise(scalar):
    def emit(w, call, args):
        kinds = leaves(args[0].type)
        return [scalar(w, k, *(a.parts[i] for a in args)) for i, k in enumerate(kinds)]
    return emit


def convert(w, to: Scalar, source: Scalar, x: str) -> str:
    if to is source or {to, source} == {U32, S32}:
        return x
    if to is PRED:
        if source is F16:
            return convert(w, PRED, F32, to_f32(w, F16, x))
        return w.op(f"setp.{'neu' if source is F32 else 'ne'}.{source.name}", PRED, x,
                    "0.0" if source is F32 else "0")
    if source is PRED:
        if to is F16:
            return from_f32(w, F16, convert(w, F32, PRED, x))
        return w.op(f"selp.{to.name}", to, *(("1.0", "0.0") if to is F32 else ("1", "0")), x)
    if {to, source} == {F32, F16}:
        return widen(w, x) if to is F32 else narrow(w, x)
    if is_immediate(x) and (to, source) in ((F32, U32), (F32, S32), (U32, F32), (S32, F32)):
        return _converted_constant(to, source, x)
    if source is F32 and to in INT_CEILINGS:
        x = w.op("min.f32", F32, x, f32_text(INT_CEILINGS[to]))
    return w.op(CONVERSIONS[(to.name, source.name)], to, x)


def _converted_constant(to: Scalar, source: Scalar, x: str) -> str:
    """A constant converted as cvt does it: an integer to the nearest f32 (numpy
    rounds once, to even), an f32 clamped to INT_CEILINGS and the integer's
    lowest value, then truncated."""
    if to is F32:
        return f32_text(float(np.float32(int(integer_text(source, int(x, 0))))))
    low = 0 if to is U32 else -2 ** 31
    return integer_text(to, math.trunc(min(max(f32_value(x), low), INT_CEILINGS[to])))


def _convert(w, call, args):
    return [convert(w, to, source, x)
            for to, source, x in zip(leaves(call.type), leaves(args[0].type), args[0].parts)]


def _select(w, call, args):
    """选择(否, 是, 条件): selp per component; predicates by a guarded move."""
    no, yes, cond = args
    out = []
    for i, (kind, a, b) in enumerate(zip(leaves(no.type), no.parts, yes.parts)):
        c = cond.parts[i] if len(cond.parts) > 1 else cond.parts[0]  # a vector condition is per component
        if kind is PRED:
            result = w.copy(PRED, a)
            w.emit(f"@{c} mov.pred {result}, {b}")
            out.append(result)
        else:
            out.append(w.op(f"selp.{kind.bits if kind is F16 else kind.name}", kind, b, a, c))
    return out


def _dynamic_index(w, call, args):
    """取元素: an item chosen by a run-time index, by guarded moves (an index
    out of range gives the first item)."""
    whole, index = args
    chunks = [w.part(whole, i) for i in range(len(items(whole.type)))]
    i = index.parts[0]
    if is_immediate(i):
        return chunks[min(int(i), len(chunks) - 1)].parts
    kinds = leaves(chunks[0].type)
    result = [w.copy(k, p) for k, p in zip(kinds, chunks[0].parts)]
    for n, chunk in enumerate(chunks[1:], start=1):
        hit = w.op("setp.eq.u32", PRED, i, str(n))
        for k, dest, source in zip(kinds, result, chunk.parts):
            op = f"mov.{k.bits}" if not is_immediate(source) else f"mov.{k.name}"
            w.emit(f"@{hit} {op} {dest}, {source}")
    return result


def _replace(w, call, args):
    """换元素: every item copied, then the chosen one overwritten by guarded moves
    (an index out of range changes nothing)."""
    whole, index, value = args
    chunks = [w.part(whole, i) for i in range(len(items(whole.type)))]
    i = index.parts[0]
    if is_immediate(i):
        return [p for n, chunk in enumerate(chunks) for p in (value.parts if n == int(i) else chunk.parts)]
    kinds = leaves(value.type)
    result = []
    for n, chunk in enumerate(chunks):
        parts = [w.copy(k, p) for k, p in zip(kinds, chunk.parts)]
        hit = w.op("setp.eq.u32", PRED, i, str(n))
        for k, dest, source in zip(kinds, parts, value.parts):
            op = f"mov.{k.bits}" if not is_immediate(source) else f"mov.{k.name}"
            w.emit(f"@{hit} {op} {dest}, {source}")
        result.extend(parts)
    return result


def _bitcast(w, call, args):
    """Between 32-bit types the bits stay in their register; pairs of f16
    are packed into and unpacked from 32-bit words with mov.b32."""
    source = leaves(args[0].type)
    words, i = [], 0
    while i < len(source):
        if source[i] is F16:
            words.append(w.op("mov.b32", U32, f"{{{args[0].parts[i]}, {args[0].parts[i + 1]}}}"))
            i += 2
        else:
            words.append(w.in_register(source[i], args[0].parts[i]))
            i += 1
    out, target = [], leaves(call.type)
    for word in words:
        if target[len(out)] is F16:
            halves = [w.reg(F16), w.reg(F16)]
            w.emit(f"mov.b32 {{{halves[0]}, {halves[1]}}}, {word}")
            out.extend(halves)
        else:
            out.append(word)
    return out


def _unpack_halves(w, call, args):
    halves = [w.reg(F16), w.reg(F16)]
    w.emit(f"mov.b32 {{{halves[0]}, {halves[1]}}}, {w.in_register(U32, args[0].parts[0])}")
    return [widen(w, h) for h in halves]


def _pack_halves(w, call, args):
    halves = [narrow(w, x) for x in args[0].parts]
    return [w.op("mov.b32", U32, f"{{{halves[0]}, {halves[1]}}}")]


def _count_trailing_zeros(w, kind, x):
    """clz of the bits reversed (0 has 32)."""
    return w.op("clz.b32", kind, w.op("brev.b32", kind, x))


def _first_trailing_bit(w, kind, x):
    """bfind.shiftamt of the bits reversed: 31 − the highest bit of brev(x) is the
    lowest bit of x; no bit set gives all ones, as WGSL's firstTrailingBit."""
    return w.op("bfind.shiftamt.u32", kind, w.op("brev.b32", kind, x))


def _quantize(w, kind, x):
    return w.op("cvt.f32.f16", F32, w.op("cvt.rn.f16.f32", F16, x))


def _clamped_bit_range(w, offset: str, count: str) -> tuple[str, str]:
    """WGSL's o = min(offset, 32), c = min(count, 32 − o), once for every component
    (bfe and bfi would read only the low 8 bits of each)."""
    if is_immediate(offset) and is_immediate(count):
        o = min(int(offset), 32)
        return str(o), str(min(int(count), 32 - o))
    o = w.op("min.u32", U32, offset, "32")
    return o, w.op("min.u32", U32, count, w.op("sub.u32", U32, "32", o))


def _extract_bits(w, call, args):
    """bfe: .s32 sign-extends bit o + c − 1 (c = 0 gives 0), as WGSL's signed extractBits."""
    offset, count = _clamped_bit_range(w, args[1].parts[0], args[2].parts[0])
    return [w.op(f"bfe.{kind.name}", kind, w.in_register(kind, x), offset, count)
            for kind, x in zip(leaves(args[0].type), args[0].parts)]


def _insert_bits(w, call, args):
    offset, count = _clamped_bit_range(w, args[2].parts[0], args[3].parts[0])
    return [w.op("bfi.b32", kind, w.in_register(kind, new), w.in_register(kind, x), offset, count)
            for kind, x, new in zip(leaves(args[0].type), args[0].parts, args[1].parts)]


#: ldexp's exponent is split in two halves, each a normal power of two (2^−126 … 2^127)
LDEXP_RANGE = (-252, 254)


def _power_of_two(w, k: str) -> str:
    """2^k as f32 bits, for k in −126 … 127: the biased exponent shifted into place."""
    return w.op("shl.b32", U32, w.op("add.s32", S32, k, "127"), "23")


def _ldexp(w, kind, x, k):
    """x · 2^k1 · 2^k2 with k1 = k >> 1 and k2 = k − k1 (PTX has no ldexp); k is clamped
    to 254 (WGSL: beyond 128 the result is not defined) and below −252 the result is
    0 with x's sign (WGSL: it may be zero once k ≤ −127)."""
    m = PtxMachine(w)
    k = w.in_register(S32, k)
    clamped = w.op("max.s32", S32, w.op("min.s32", S32, k, str(LDEXP_RANGE[1])), str(LDEXP_RANGE[0]))
    half = w.op("shr.s32", S32, clamped, "1")
    rest = w.op("sub.s32", S32, clamped, half)
    x = to_f32(w, kind, x)
    scaled = m.mul(m.mul(x, _power_of_two(w, half)), _power_of_two(w, rest))
    tiny = w.op("setp.lt.s32", PRED, k, str(LDEXP_RANGE[0]))
    return from_f32(w, kind, m.select(tiny, m.mul(x, m.const(0.0)), scaled))


def _modf(w, kind, x):
    """(x − trunc(x), trunc(x)): both exact, so an f16 goes through f32."""
    x = to_f32(w, kind, x)
    whole = w.op("cvt.rzi.f32.f32", F32, x)
    return from_f32(w, kind, f32_arithmetic(w, "sub", x, whole)), from_f32(w, kind, whole)


#: 2⁶⁴ as f32 bits: a subnormal times it is normal (frexp reads the exponent field)
TWO_TO_64 = "0f5F800000"
FREXP_BIAS = {False: "126", True: "190"}   # the exponent field of 0.5, and of 0.5 · 2⁶⁴ for a scaled subnormal


def _frexp(w, kind, x):
    """The exponent field less 126 and the significand with the exponent of 0.5
    (x's sign kept); a subnormal is scaled by 2⁶⁴ first; ±0 gives (±0, 0)."""
    x = to_f32(w, kind, x)
    bits = w.op("mov.b32", U32, x)
    subnormal = w.op("setp.eq.u32", PRED, w.op("and.b32", U32, bits, "0x7f800000"), "0")
    scaled = w.op("selp.b32", U32, w.op("mov.b32", U32, w.op("mul.rn.f32", F32, x, TWO_TO_64)), bits, subnormal)
    bias = w.op("selp.s32", S32, FREXP_BIAS[True], FREXP_BIAS[False], subnormal)
    exponent = w.op("sub.s32", S32, w.op("bfe.u32", U32, scaled, "23", "8"), bias)
    significand = w.op("or.b32", U32, w.op("and.b32", U32, scaled, "0x807fffff"), "0x3f000000")
    zero = w.op("setp.eq.f32", PRED, x, "0f00000000")
    fraction = w.op("mov.b32", F32, w.op("selp.b32", U32, bits, significand, zero))
    return from_f32(w, kind, fraction), w.op("selp.s32", S32, "0", exponent, zero)


def _split(scalar):
    """A record of two fields from one float (vector): each field's components in turn."""
    def emit(w, call, args):
        pairs = [scalar(w, kind, x) for kind, x in zip(leaves(args[0].type), args[0].parts)]
        return [first for first, _ in pairs] + [second for _, second in pairs]
    return emit


def _reflect(m, e, n):
    """e − 2 · dot(n, e) · n."""
    twice = m.mul(m.const(2.0), _dot(m, n, e))
    return [m.sub(a, m.mul(twice, b)) for a, b in zip(e, n)]


def _refract(m, e, n, eta):
    """k = 1 − η²(1 − d²), d = dot(n, e); k < 0: zero, else η·e − (η·d + √k)·n."""
    eta = eta[0]
    d = _dot(m, n, e)
    k = m.sub(m.const(1.0), m.mul(m.mul(eta, eta), m.sub(m.const(1.0), m.mul(d, d))))
    total = m.lt(k, m.const(0.0))
    factor = m.add(m.mul(eta, d), m.sqrt(k))
    return [m.select(total, m.const(0.0), m.sub(m.mul(eta, a), m.mul(factor, b))) for a, b in zip(e, n)]


def _face_forward(m, e1, e2, e3):
    """e1 where dot(e2, e3) < 0, else −e1."""
    facing = m.lt(_dot(m, e2, e3), m.const(0.0))
    return [m.select(facing, x, m.neg(x)) for x in e1]


#: normalized packing: form → (lanes, bits per lane, scale, lowest value), as the interpreter's NORMALIZED
NORMALIZED = {"4x8unorm": (4, 8, 255.0, 0.0), "4x8snorm": (4, 8, 127.0, -1.0),
              "2x16unorm": (2, 16, 65535.0, 0.0), "2x16snorm": (2, 16, 32767.0, -1.0)}


def _fields_into_word(w, fields: list[str], bits: int) -> str:
    """Field i's low `bits` bits at bit bits·i of one word (bfi)."""
    word = w.in_register(U32, "0")
    for i, f in enumerate(fields):
        word = w.op("bfi.b32", U32, w.in_register(U32, f), word, str(bits * i), str(bits))
    return word


def _pack_normalized(form: str):
    lanes, bits, scale, low = NORMALIZED[form]

    def emit(w, call, args):
        m = PtxMachine(w)
        fields = []
        for x in args[0].parts:
            clamped = m.min(m.const(1.0), m.max(m.const(low), w.in_register(F32, x)))
            rounded = m.floor(m.add(m.const(0.5), m.mul(m.const(scale), clamped)))
            fields.append(w.op("cvt.rzi.s32.f32", S32, rounded))
        return [_fields_into_word(w, fields, bits)]
    return emit


def _unpack_normalized(form: str):
    lanes, bits, scale, low = NORMALIZED[form]
    signed = "s32" if low < 0 else "u32"

    def emit(w, call, args):
        m = PtxMachine(w)
        word = w.in_register(U32, args[0].parts[0])
        out = []
        for i in range(lanes):
            field = w.op(f"bfe.{signed}", S32 if low < 0 else U32, word, str(bits * i), str(bits))
            value = m.div(w.op(f"cvt.rn.f32.{signed}", F32, field), m.const(scale))
            out.append(m.max(value, m.const(low)) if low < 0 else value)
        return out
    return emit


def _pack_bytes(low: str | None = None, high: str | None = None):
    """pack4xI8 / pack4xU8 (the low byte of each); the Clamp forms clamp first (s32 or u32)."""
    def emit(w, call, args):
        kind = leaves(args[0].type)[0]
        fields = args[0].parts
        if high is not None:
            fields = [w.op(f"min.{kind.name}", kind, w.in_register(kind, x), high) for x in fields]
        if low is not None:
            fields = [w.op(f"max.{kind.name}", kind, x, low) for x in fields]
        return [_fields_into_word(w, list(fields), 8)]
    return emit


def _unpack_bytes(w, call, args):
    """Each byte of the word, bfe.s32 sign-extending it for 四维整."""
    kind = leaves(call.type)[0]
    word = w.in_register(U32, args[0].parts[0])
    return [w.op(f"bfe.{kind.name}", kind, word, str(8 * i), "8") for i in range(4)]


def _dot_bytes(w, call, args):
    """dp4a (sm_61 and later): the four byte products summed into the third operand."""
    kind = leaves(call.type)[0]
    a, b = (w.in_register(U32, x.parts[0]) for x in args)
    return [w.op(f"dp4a.{kind.name}.{kind.name}", kind, a, b, w.in_register(kind, "0"))]


def _all_any(w, call, args):
    """and.pred / or.pred over the components (a 爻 is its own all and any)."""
    combine = "and.pred" if call.name == "全都" else "or.pred"
    total = args[0].parts[0]
    for p in args[0].parts[1:]:
        total = w.op(combine, PRED, total, p)
    return [total]


# ---------------------------------------------------------------- vectors and matrices


def vector_formula(fn):
    """A formula over whole vectors (lists of f32 components); f16 through f32."""
    def emit(w, call, args):
        kind = leaves(args[0].type)[0]
        m = PtxMachine(w)
        components = [[formula_f32(w, kind, x) for x in a.parts] for a in args]
        return [from_f32(w, kind, r) for r in fn(m, *components)]
    return emit


def _dot(m, a, b):
    total = m.first_product(a[0], b[0])
    for x, y in zip(a[1:], b[1:]):
        total = m.add_product(total, x, y)
    return total


def _length(m, v):
    return m.abs(v[0]) if len(v) == 1 else m.sqrt(_dot(m, v, v))


def _cross(m, a, b):
    return [m.sub(m.mul(a[(i + 1) % 3], b[(i + 2) % 3]), m.mul(a[(i + 2) % 3], b[(i + 1) % 3])) for i in range(3)]


def _normalize(m, v):
    length = _length(m, v)
    return [m.div(x, length) for x in v]


def _columns(flat: list[str], rows: int) -> list[list[str]]:
    return [flat[i:i + rows] for i in range(0, len(flat), rows)]


def _matrix_rows(t) -> int:
    return len(concrete(t).items[0].items)


def _matrix_multiply(w, call, args):
    """Matrix × vector (a vector) or matrix × matrix (one such product per column)."""
    kind = leaves(args[0].type)[0]
    m = PtxMachine(w)
    rows = _matrix_rows(args[0].type)
    matrix = _columns([formula_f32(w, kind, x) for x in args[0].parts], rows)
    right = [formula_f32(w, kind, x) for x in args[1].parts]
    vectors = _columns(right, len(matrix)) if len(right) > len(matrix) else [right]
    out = []
    for v in vectors:
        for r in range(rows):
            total = m.first_product(matrix[0][r], v[0])
            for c in range(1, len(matrix)):
                total = m.add_product(total, matrix[c][r], v[c])
            out.append(from_f32(w, kind, total))
    return out


def _transpose(w, call, args):
    columns = _columns(args[0].parts, _matrix_rows(args[0].type))
    return [columns[c][r] for r in range(len(columns[0])) for c in range(len(columns))]


def _determinant(m, columns):
    """Laplace expansion along the first row."""
    if len(columns) == 1:
        return columns[0][0]
    total = None
    for c, column in enumerate(columns):
        minor = [col[1:] for j, col in enumerate(columns) if j != c]
        term = m.mul(column[0], _determinant(m, minor))
        total = term if total is None else (m.sub(total, term) if c % 2 else m.add(total, term))
    return total


def _determinant_emit(w, call, args):
    kind = leaves(args[0].type)[0]
    columns = _columns([formula_f32(w, kind, x) for x in args[0].parts], _matrix_rows(args[0].type))
    return [_determinant(PtxMachine(w), columns)]


# ---------------------------------------------------------------- memory


def _element(w, call, args, element):
    """(space, address, offset) of buffer or workgroup array element args[1]."""
    return w.element_address(args[0].resource, args[1].parts[0], stride_of(element))


def _inside(w, args) -> str | None:
    return w.inside(args[0].resource, args[1].parts[0])


def _read_element(w, call, args):
    """An index out of bounds reads zero (bounds safety, docs/后端.md)."""
    element = concrete(call.type)
    guard = _inside(w, args)
    return w.load(*_element(w, call, args, element), element, guard)


def _write_element(w, call, args):
    """A write out of bounds is dropped (bounds safety, docs/后端.md)."""
    element = concrete(args[2].type)
    guard = _inside(w, args)
    w.store(*_element(w, call, args, element), element, args[2].parts, guard)
    return []


def _read_whole(w, call, args):
    return w.read_whole(args[0].resource, concrete(call.type))


def _write_whole(w, call, args):
    space, base = w.location(args[0].resource)
    w.store(space, base, getattr(args[0].resource, "offset", 0), concrete(args[1].type), args[1].parts)
    return []


def _array_length(w, call, args):
    return [w.buffer_length(args[0].resource)]


def _atomic_update(w, operation: str, args, value: str) -> list[str]:
    """atom.<space>.<operation> on the element args[0][args[1]] with `value`; the old value.
    Out of bounds the operation is dropped and gives 0."""
    kind = leaves(args[2].type)[0]
    guard = _inside(w, args)
    space, address, offset = w.element_address(args[0].resource, args[1].parts[0], 4)
    written = ATOMICS_UNTYPED.get(operation, kind.name)
    return [_guarded_atomic(w, guard, kind, f"atom.{space}.{operation}.{written}", address_text(address, offset), value)]


def _atomic(operation: str):
    return lambda w, call, args: _atomic_update(w, operation, args, args[2].parts[0])


def _atomic_subtract(w, call, args):
    """PTX has no atom.sub: add the negation (mod 2³², as atomicSub wraps)."""
    value = args[2].parts[0]
    negation = str(-int(value) % 2 ** 32) if is_immediate(value) else w.op("sub.u32", U32, "0", value)
    return _atomic_update(w, "add", args, negation)


def _compare_exchange(w, call, args):
    """atom.cas never fails spuriously: it replaced the value exactly when the old one equals the
    compared one.  Out of bounds nothing is replaced: the old value is 0 and 已换 is false."""
    kind = leaves(args[2].type)[0]
    guard = _inside(w, args)
    space, address, offset = w.element_address(args[0].resource, args[1].parts[0], 4)
    compare, value = args[2].parts[0], args[3].parts[0]
    old = _guarded_atomic(w, guard, kind, f"atom.{space}.cas.b32", address_text(address, offset), compare, value)
    exchanged = w.op(f"setp.eq.{kind.name}", PRED, old, compare)
    return [old, exchanged if guard is None else w.op("and.pred", PRED, exchanged, guard)]


def _guarded_atomic(w, guard: str | None, kind, instruction: str, *operands: str) -> str:
    """An atomic that runs only where `guard` holds (bounds safety); elsewhere its value is 0."""
    dest = w.reg(kind)
    if guard is not None:
        w.move(kind, dest, "0")
    prefix = f"@{guard} " if guard is not None else ""
    w.emit(f"{prefix}{instruction} {dest}, {', '.join(operands)}")
    return dest


#: relaxed loads and stores of atomics: a buffer is seen by the whole device, .shared by the block
ATOMIC_SCOPE = {"global": "relaxed.gpu.global", "shared": "relaxed.cta.shared"}


def _atomic_load(w, call, args):
    element = concrete(call.type)
    guard = _inside(w, args)
    space, address, offset = w.element_address(args[0].resource, args[1].parts[0], 4)
    return w.load(ATOMIC_SCOPE[space], address, offset, element, guard)


def _atomic_store(w, call, args):
    element = concrete(args[2].type)
    guard = _inside(w, args)
    space, address, offset = w.element_address(args[0].resource, args[1].parts[0], 4)
    w.store(ATOMIC_SCOPE[space], address, offset, element, args[2].parts, guard)
    return []


# ---------------------------------------------------------------- cells, barriers


def _new_cell(w, call, args):
    cell = [w.reg(k) for k in leaves(args[0].type)]
    for kind, dest, source in zip(leaves(args[0].type), cell, args[0].parts):
        w.set_cell(kind, dest, source)
    return cell


def _read_cell(w, call, args):
    """The registers' values, copied; an integer the writer knows the cell
    holds here (`Writer.cell_value`) as that immediate."""
    known = [w.cell_value(p) for p in args[0].parts]
    return [w.copy(k, p) if n is None else str(n) for k, p, n in zip(leaves(args[0].type), args[0].parts, known)]


def _write_cell(w, call, args):
    for kind, dest, source in zip(leaves(args[1].type), args[0].parts, args[1].parts):
        w.set_cell(kind, dest, source)
    return []


def _barrier(w, call, args):
    w.emit(BARRIER)
    return []


# ---------------------------------------------------------------- entry inputs


def _special(w, register: str) -> str:
    return w.op("mov.u32", U32, register)


def _block(w) -> tuple[int, int, int]:
    """The block's shape: the entry's workgroup size, which .reqntid makes the
    launch's, so it is written as numbers (ptxas reads %ntid from memory and
    does not fold it: 子组编号's subgroup count was three instructions)."""
    return w.entry.workgroup_shape


def _thread(w, d: str, size: int) -> str:
    """%tid.d, or 0 where the block is one thread across in d."""
    return "0" if size == 1 else _special(w, f"%tid.{d}")


def _global_id(w) -> list[str]:
    """%ctaid × block + %tid, per dimension (%ctaid alone where the block is one thread across)."""
    return [_special(w, f"%ctaid.{d}") if size == 1 else
            w.op("mad.lo.u32", U32, _special(w, f"%ctaid.{d}"), str(size), _special(w, f"%tid.{d}"))
            for d, size in zip("xyz", _block(w))]


def _local_index(w) -> list[str]:
    """tid.x + X × (tid.y + Y × tid.z) for a block of X × Y × Z, without the terms that are 0."""
    x, y, z = _block(w)
    tx, ty, tz = (_thread(w, d, n) for d, n in zip("xyz", (x, y, z)))
    if y * z == 1:
        return [tx]
    inner = tz if y == 1 else ty if z == 1 else w.op("mad.lo.u32", U32, tz, str(y), ty)
    return [w.op("mad.lo.u32", U32, inner, str(x), tx)]


def _subgroup_count(w) -> str:
    """Warps per block, ⌈X·Y·Z ÷ 32⌉: a number (the warp index is the local index ÷ 32, no %warpid,
    which may change while a thread runs)."""
    return str(-(-math.prod(_block(w)) // 32))


def _subgroup_id(w) -> str:
    return "0" if math.prod(_block(w)) <= 32 else w.op("shr.u32", U32, w.local_linear_index(), "5")


ENTRY_INPUTS = {
    "全局调用号": _global_id,
    "局部调用号": lambda w: [_thread(w, d, size) for d, size in zip("xyz", _block(w))],
    "局部调用序": _local_index,
    "工作组号": lambda w: [_special(w, f"%ctaid.{d}") for d in "xyz"],
    "工作组数": lambda w: [_special(w, f"%nctaid.{d}") for d in "xyz"],
    "子组调用序": lambda w: [_special(w, "%laneid")],
    "子组大小": lambda w: [_special(w, "WARP_SZ")],
    "子组数": lambda w: [_subgroup_count(w)],
    "子组号": lambda w: [_subgroup_id(w)],
}


# ---------------------------------------------------------------- the table

OPS = {
    **{name: componentwise(table(name)) for name in INSTRUCTIONS if name not in ("除", "负")},
    "负": componentwise(_negate),
    **{name: componentwise(compare(cond)) for name, cond in COMPARISONS.items()},
    **{name: componentwise(float_formula(fn)) for name, fn in FORMULAS.items()},
    "除": componentwise(by_kind(table("除"), guarded("div"))),
    "余": componentwise(by_kind(float_formula(FORMULAS["余"]), guarded("rem"))),
    "符号": componentwise(by_kind(float_formula(FORMULAS["符号"]), _integer_sign)),
    "夹紧": componentwise(_clamp),
    "左移": componentwise(shift("shl.b32")),
    "右移": componentwise(shift("shr.{}")),
    "点积": vector_formula(lambda m, a, b: [_dot(m, a, b)]),
    "长度": vector_formula(lambda m, v: [_length(m, v)]),
    "距离": vector_formula(lambda m, a, b: [_length(m, [m.sub(x, y) for x, y in zip(a, b)])]),
    "叉积": vector_formula(_cross),
    "归一化": vector_formula(_normalize),
    "矩阵乘": _matrix_multiply,
    "转置": _transpose,
    "行列式": _determinant_emit,
    "选择": _select,
    "取元素": _dynamic_index,
    "位转换": _bitcast,
    "半精度解包": _unpack_halves,
    "半精度打包": _pack_halves,
    "尾随零计数": componentwise(_count_trailing_zeros),
    "最低位序": componentwise(_first_trailing_bit),
    "量化半精度": componentwise(_quantize),
    "取位段": _extract_bits,
    "置位段": _insert_bits,
    "乘二幂": componentwise(_ldexp),
    "整小分离": _split(_modf), "尾阶分离": _split(_frexp),
    "换元素": _replace,
    "反射": vector_formula(_reflect),
    "折射": vector_formula(_refract),
    "朝向翻转": vector_formula(_face_forward),
    **{name: _pack_normalized(form) for name, form in (("四字节归一打包", "4x8unorm"), ("四字节符归一打包", "4x8snorm"),
                                                      ("双半字归一打包", "2x16unorm"), ("双半字符归一打包", "2x16snorm"))},
    **{name: _unpack_normalized(form) for name, form in (("四字节归一解包", "4x8unorm"), ("四字节符归一解包", "4x8snorm"),
                                                        ("双半字归一解包", "2x16unorm"), ("双半字符归一解包", "2x16snorm"))},
    "四字节整打包": _pack_bytes(), "四字节无打包": _pack_bytes(),
    "四字节整夹紧打包": _pack_bytes("-128", "127"), "四字节无夹紧打包": _pack_bytes(None, "255"),
    "四字节整解包": _unpack_bytes, "四字节无解包": _unpack_bytes,
    "四字节无点积": _dot_bytes, "四字节整点积": _dot_bytes,
    "全都": _all_any, "任一": _all_any,
    "转换": _convert,
    **{name: _convert for name in LITERAL_CONSTRUCTORS},
    "读数组": _read_element, "读共享数组": _read_element,
    "写数组": _write_element, "写共享数组": _write_element,
    "读共享": _read_whole, "读均匀": _read_whole, "读存储": _read_whole,
    "写共享": _write_whole, "写存储": _write_whole,
    "数组长度": _array_length,
    **{name: _atomic(operation) for name, operation in ATOMICS.items()},
    "原子减": _atomic_subtract, "原子比较交换": _compare_exchange,
    "原子读": _atomic_load, "原子存": _atomic_store,
    "新格": _new_cell, "读格": _read_cell, "写格": _write_cell,
    "工作组屏障": _barrier, "存储屏障": _barrier,
    **SUBGROUP_OPS,
    **FRAGMENT_OPS,
}


def literal_argument(call) -> int | float | None:
    """The number of a typed literal (「新无三二」于「二」, also of a negated
    literal), which becomes an immediate instead of a conversion."""
    return ir.literal_value(call.args[0]) if call.name in LITERAL_CONSTRUCTORS else None


# ---------------------------------------------------------------- spellings (hover)


class _InstructionLog:
    """A writer that only notes the instructions a formula asks for, so hover
    shows what the formula really emits."""

    def __init__(self) -> None:
        self.instructions: list[str] = []
        self.defined: dict = {}

    def op(self, instruction: str, kind: Scalar, *xs: str) -> str:
        self.instructions.append(instruction)
        return "%r"

    def in_register(self, kind: Scalar, x: str) -> str:
        return x


def formula_instructions(fn) -> list[str]:
    """The distinct f32 instructions of a float formula, in first-use order."""
    log = _InstructionLog()
    arity = len(inspect.signature(fn).parameters) - 1
    fn(PtxMachine(log), *["%x"] * arity)
    return list(dict.fromkeys(log.instructions))


def _instructions_of(name: str, kinds=None) -> str:
    table = INSTRUCTIONS[name]
    return " / ".join(sorted({table[k] for k in kinds or table if table[k]})) or "（不需指令）"


#: what each declaration word becomes (hover); textures and samplers have no PTX form (着十)
DECLARATION_SPELLINGS = {
    "绑定": ".param .u64 p_gG_bB（cvta.to.global.u64 后 ld/st.global）",
    "均匀绑定": ".param .u64 p_gG_bB（ld.global）",
    "工作组共享": ".shared .align A .b8 名[字节数]",
    "可覆盖": ".visible .const .T 名 = 默认值;（宿主在启动前可改写，读时 ld.const）",
    "计算入口项": ".visible .entry yy_…(…) .reqntid X, Y, Z",
    "顶点入口项": "（千手只有计算入口：写成一行注释）",
    "片元入口项": "（千手只有计算入口：写成一行注释）",
    "阳": "立即数 1（.pred）", "阴": "立即数 0（.pred）", "元": "（不写出：单位值）",
    "只读": "ld.global", "读写": "ld.global 与 st.global",
}

_TEXTURES_LATER = "纹理、采样器与片元专用的内建是待办事项（着十）"
#: builtins the PTX back end does not write, with the reason
UNAVAILABLE = {
    **{name: _TEXTURES_LATER for name in "横差 纵差 舍弃 采样纹理 按层采样纹理 读纹素 纹理尺寸 比较采样".split()},
    **{name: "导数只在片元入口可用，千手只有计算入口" for name in "横差细 横差粗 纵差细 纵差粗 滤宽 滤宽细 滤宽粗".split()},
    **{name: "纹理与采样器是待办事项（着十）" for name in "纹理绑定 采样器绑定 深度纹理绑定 比较采样器绑定".split()},
    **{name: "存储纹理（扩展）只有 WGSL 与金属（MSL）支持：PTX 的 surface 是待办事项"
       for name in "存储纹理绑定 写纹素 写张纹素 读存储纹素 读存储张纹素".split()},
    **{name: "纹理数组、三维、立方与多重采样纹理（扩展）只有 WGSL 与金属（MSL）支持：千手的纹理是待办事项（着十）"
       for name in "采样张纹理 按层采样张纹理 读张纹素 读样本纹素 按层纹理尺寸 纹理层级数 纹理张数 纹理样本数".split()},
    **{name: "这个纹理内建（扩展，议题 25）只有 WGSL 与金属（MSL）支持：千手的纹理是待办事项（着十）"
       for name in registry.FRAGMENT_SAMPLING.split() + registry.EXPLICIT_SAMPLING.split()},
    "纹理屏障": "纹理屏障排定读写存储纹理的访问：千手没有存储纹理（surface 是待办事项），所以也没有它",
    **FRAGMENTS_UNAVAILABLE,
}


def registry_entry(name: str):
    """(this back end's emitter or declaration for builtin `name`, or None with
    the reason PTX lacks it), for compiler/backends/tables.py (the registry's exhaustiveness test)."""
    if name in UNAVAILABLE:
        return None, UNAVAILABLE[name]
    return OPS.get(name) or LOGIC.get(name) or DECLARATION_SPELLINGS.get(name), None


def registry_names() -> list[str]:
    return [*OPS, *LOGIC, *DECLARATION_SPELLINGS, *UNAVAILABLE]


#: (table, how a builtin in it is spelled), first match wins: 除 is an
#: instruction for floats, 余 and 符号 a float formula, before the generic rest
SPELLERS = (
    (DECLARATION_SPELLINGS, DECLARATION_SPELLINGS.get),
    (INSTRUCTIONS, _instructions_of),
    (COMPARISONS, lambda name: f"setp.{COMPARISONS[name]}.T"),
    (FORMULAS, lambda name: "（浮点指令序列：" + "、".join(formula_instructions(FORMULAS[name])) + "）"),
    (ATOMICS, lambda name: f"atom.global.{ATOMICS[name]}.{ATOMICS_UNTYPED.get(ATOMICS[name], 'T')}"),
    (ATOMIC_SPELLINGS, ATOMIC_SPELLINGS.get),
    (SUBGROUP_SPELLINGS, SUBGROUP_SPELLINGS.get),
    (("工作组屏障", "存储屏障"), lambda name: BARRIER),
    (LITERAL_CONSTRUCTORS, lambda name: "（立即数，或 cvt）"),
    (("转换",), lambda name: "cvt.T.S"),
    (LOGIC, lambda name: f"{LOGIC[name]}（右边读内存或有副作用时用 @p bra 短路）"),
    (FRAGMENT_SPELLINGS, FRAGMENT_SPELLINGS.get),
    (OPS, lambda name: "（指令序列）"),
)


def spelling(name: str) -> str | None:
    """What builtin `name` becomes in PTX, from the tables above; None when
    the PTX back end has no emitter for it."""
    return next((spell(name) for table, spell in SPELLERS if name in table), None)
