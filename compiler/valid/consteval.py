"""WGSL const-expression evaluation, to report what WebGPU would reject.

WGSL evaluates every expression built only from literals and constants when
the shader module is created, and rejects overflow, division by zero, NaN and
infinity there (LANGUAGE.md §5, seed 着八).  The translator reports these
itself, at the expression, in Chinese.  Values are Python numbers (vectors as
tuples); anything this evaluator does not model is "not known", never an
error.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from .. import ir
from ..types import TCon, deep_resolve, resolve, vector_parts
from .registry import of_kind

_LITERAL_CONSTRUCTORS = of_kind("literal")

#: scalar kind of a type: (kind, bits); kind is int, uint, float or bool
_KINDS = {"定长整数": "int", "定长无符号": "uint", "定长小数": "float"}
_ABSTRACT = {"整数": ("int", 64), "小数": ("float", 64), "爻": ("bool", 1)}
_SHOWN = {("int", 32): "「整三二」", ("uint", 32): "「无三二」", ("float", 32): "「浮三二」",
          ("float", 16): "「浮十六」", ("int", 64): "「整数」", ("float", 64): "「小数」"}


def written_number(e: ir.Expr) -> int | float | None:
    """The number of a literal or a typed literal (「新无三二」于「八」), else None."""
    if isinstance(e, ir.Call) and e.kind == "builtin" and e.name in _LITERAL_CONSTRUCTORS:
        return ir.literal_value(e.args[0])
    return ir.literal_value(e)


class ConstError(Exception):
    """A const-expression WGSL rejects; the message is shown to the user."""


@dataclass(frozen=True)
class Scalar:
    """The scalar type a constant value has (its range and wrapping)."""

    kind: str
    bits: int

    @property
    def shown(self) -> str:
        return _SHOWN.get((self.kind, self.bits), "该类型")


def scalar_of(t) -> Scalar | None:
    """The scalar (or vector component) type of a type, if it is numeric or bool."""
    t = resolve(t)
    parts = vector_parts(t)
    if parts is not None:
        t = resolve(parts[0])
    if not isinstance(t, TCon):
        return None
    if t.name in _ABSTRACT:
        return Scalar(*_ABSTRACT[t.name])
    if t.name in _KINDS and t.args and isinstance(t.args[0], int):
        return Scalar(_KINDS[t.name], t.args[0])
    return None


def is_abstract(t) -> bool:
    """Whether a type is one of WGSL's abstract numeric types (整数, 小数, or
    a vector of them): a local of such a type is declared `const`."""
    s = scalar_of(deep_resolve(t))
    return s is not None and s.kind != "bool" and s.bits == 64


def fit(value, s: Scalar):
    """`value` as a value of scalar type `s`, or ConstError when it does not fit."""
    if s.kind == "bool":
        return value
    if s.kind == "float":
        value = float(value)
        if math.isnan(value):
            raise ConstError("结果不是数（NaN）")
        try:
            if s.bits == 32:
                value = struct.unpack("f", struct.pack("f", value))[0]
            elif s.bits == 16:
                value = struct.unpack("e", struct.pack("e", value))[0]
        except OverflowError:
            value = math.inf
        if math.isinf(value):
            raise ConstError(f"结果溢出成无穷，超出{s.shown}的范围")
        return value
    low, high = (0, 2 ** s.bits - 1) if s.kind == "uint" else (-(2 ** (s.bits - 1)), 2 ** (s.bits - 1) - 1)
    if not low <= value <= high:
        raise ConstError(f"结果 {value} 超出{s.shown}的范围（{low} 至 {high}）")
    return value


def _divide(a, b, s: Scalar):
    if s.kind == "float":
        if b == 0:
            raise ConstError("除以零")
        return a / b
    if b == 0:
        raise ConstError("除以零")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _remainder(a, b, s: Scalar):
    if s.kind == "float":
        if b == 0:
            raise ConstError("对零取余")
        return a - b * math.trunc(a / b)
    if b == 0:
        raise ConstError("对零取余")
    return a - b * _divide(a, b, s)


def _shift_left(a, n, s: Scalar):
    if n >= s.bits:
        raise ConstError(f"移位量 {n} 不小于{s.shown}的位数 {s.bits}")
    top = a >> (s.bits - n - (1 if s.kind == "int" else 0)) if n else 0
    if (s.kind == "uint" and top != 0) or (s.kind == "int" and top not in (0, -1)):
        raise ConstError(f"左移 {n} 位丢掉了{s.shown}的有效位")
    return a << n


def _shift_right(a, n, s: Scalar):
    if n >= s.bits:
        raise ConstError(f"移位量 {n} 不小于{s.shown}的位数 {s.bits}")
    return a >> n


def _bit_not(a, s: Scalar):
    return a ^ (2 ** s.bits - 1) if s.kind == "uint" else ~a


#: builtin name → operation on component values (given the operand scalar type)
BINARY = {
    "加": lambda a, b, s: a + b,
    "减": lambda a, b, s: a - b,
    "乘": lambda a, b, s: a * b,
    "除": _divide,
    "余": _remainder,
    "左移": _shift_left,
    "右移": _shift_right,
    "按位与": lambda a, b, s: a & b,
    "按位或": lambda a, b, s: a | b,
    "异或": lambda a, b, s: a ^ b,
    "且": lambda a, b, s: a and b,
    "或": lambda a, b, s: a or b,
}
COMPARE = {
    "等于": lambda a, b: a == b, "不等于": lambda a, b: a != b, "小于": lambda a, b: a < b,
    "大于": lambda a, b: a > b, "不大于": lambda a, b: a <= b, "不小于": lambda a, b: a >= b,
}
UNARY = {"负": lambda a, s: -a, "非": lambda a, s: not a, "按位非": _bit_not}


def _real(fn):
    """A float function as WGSL's constant evaluator sees it: a domain error
    is NaN, an overflow infinity (both then rejected by `fit`)."""
    def apply(*args):
        try:
            return fn(*args)
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf
    return apply


#: float builtins evaluated on constants (WebGPU evaluates them when it creates the module)
FLOAT_FUNCTIONS = {
    "平方根": math.sqrt, "逆平方根": lambda x: 1 / math.sqrt(x), "指数": math.exp, "指数二": lambda x: 2.0 ** x,
    "对数": math.log, "对数二": math.log2, "幂": math.pow, "正弦": math.sin, "余弦": math.cos,
    "双曲正切": math.tanh, "反正弦": math.asin, "反余弦": math.acos, "反正切": math.atan,
    "向下取整": math.floor, "向上取整": math.ceil, "截断": math.trunc, "四舍五入": round,
    "小数部分": lambda x: x - math.floor(x), "饱和": lambda x: min(max(x, 0.0), 1.0), "绝对值": abs,
    "最大": max, "最小": min, "夹紧": lambda x, lo, hi: min(max(x, lo), hi),
    "混合": lambda a, b, t: a * (1 - t) + b * t,
}

_PACKING = {("float", 32): "f", ("float", 16): "e", ("int", 32): "i", ("uint", 32): "I"}


def _components(value) -> list:
    return list(value) if isinstance(value, tuple) else [value]


def bitcast(value, source: Scalar, target: Scalar, count: int):
    """WGSL bitcast of a known constant: the same bytes read as `count`
    components of `target` (NaN and infinity are rejected by fit)."""
    if (source.kind, source.bits) not in _PACKING or (target.kind, target.bits) not in _PACKING:
        return None
    data = struct.pack("<" + _PACKING[(source.kind, source.bits)] * len(_components(value)), *_components(value))
    out = [fit(x, target) for x in struct.unpack("<" + _PACKING[(target.kind, target.bits)] * count, data)]
    return tuple(out) if count > 1 else out[0]


def pack_halves(value):
    """pack2x16float: each component rounded to f16, the first in the low half."""
    halves = [fit(x, Scalar("float", 16)) for x in value]
    return struct.unpack("<I", struct.pack("<ee", *halves))[0]


def unpack_halves(word):
    """unpack2x16float: the low half first; NaN and infinity are rejected."""
    return tuple(fit(x, Scalar("float", 32)) for x in struct.unpack("<ee", struct.pack("<I", word)))


CONVERSIONS = {"新浮三二": Scalar("float", 32), "新浮十六": Scalar("float", 16),
               "新整三二": Scalar("int", 32), "新无三二": Scalar("uint", 32)}


def _shape(t):
    """A placeholder value with as many components as type t (1 for a scalar)."""
    parts = vector_parts(deep_resolve(t))
    return tuple(range(parts[1])) if parts is not None else 0


def _componentwise(op, *values):
    if isinstance(values[0], tuple):
        return tuple(_componentwise(op, *parts) for parts in zip(*values))
    return op(*values)


def convert(value, source: Scalar, target: Scalar):
    """WGSL value conversion of a known constant; None where it is not modelled."""
    if source.kind == "float" and target.kind in ("int", "uint"):
        return None
    if target.kind == "bool" or source.kind == "bool":
        return None
    if source.kind in ("int", "uint") and target.kind in ("int", "uint") and source.bits == 32:
        return value % 2 ** 32 if target.kind == "uint" else (value + 2 ** 31) % 2 ** 32 - 2 ** 31
    return fit(value, target)


#: builtins allowed in a constant that this evaluator leaves unknown, and why (tests/test_registry.py:
#: every constant builtin is evaluated or here).  Unknown is safe: WGSL evaluates the const-expression
#: when it creates the module, MSL and PTX compute it at run time in the declared widths.
NOT_EVALUATED = {
    **dict.fromkeys("元 阳 阴 只读 读写".split(), "常值：写出时就是它自己"),
    **dict.fromkeys("取元素 选择".split(), "按下标或条件选一个分量或一个值：目标照原样写出"),
    "换元素": "换一个元素得新值：目标写成局部变量与一次写入，不能写在常量里",
    **dict.fromkeys("阶跃 平滑阶跃 正切 反正切二 符号 点积 叉积 长度 距离 归一化 融合乘加 矩阵乘 转置 行列式 一位计数 位反转".split(),
                    "还没有在编译期求值：目标照原样写出，WGSL 建模块时求值，金属与千手在运行时按声明的宽度算"),
    **dict.fromkeys("前导零计数 尾随零计数 最高位序 最低位序 四字节无点积 四字节整点积 全都 任一".split(),
                    "还没有在编译期求值：目标照原样写出，WGSL 建模块时求值，金属与千手在运行时算"),
    **dict.fromkeys("""取位段 置位段 反射 折射 朝向翻转 乘二幂 量化半精度 四字节归一打包 四字节归一解包 四字节符归一打包
        四字节符归一解包 四字节整打包 四字节整解包 四字节无打包 四字节无解包 四字节整夹紧打包 四字节无夹紧打包
        双半字归一打包 双半字归一解包 双半字符归一打包 双半字符归一解包 整小分离 尾阶分离""".split(),
                    "还没有在编译期求值，naga 也不求值：只能用在函数体里（顶层常量用到它时 WGSL 报翻译错误）"),
}


class ConstEvaluator:
    """Evaluates const sub-expressions of one item and reports the first
    failure inside each through `report(node, message)`."""

    def __init__(self, global_value, report) -> None:
        self.global_value = global_value   # GlobalRef → known value or None
        self.report = report
        self.locals: dict[int, object] = {}
        self.known: dict[int, object] = {}   # id(node) → its value, for every node visited

    def value(self, e: ir.Expr):
        """The constant value of `e`, or None; visits every sub-expression."""
        method = getattr(self, "_" + type(e).__name__, None)
        try:
            result = None if method is None else method(e)
        except ConstError as err:
            self.report(e, str(err))
            result = None
        self.known[id(e)] = result
        return result

    def _Literal(self, e):
        """A literal that stays abstract: WGSL's abstract int is 64 bits."""
        return fit(e.value, Scalar("float" if e.is_float else "int", 64))

    def _LocalRef(self, e):
        return self.locals.get(id(e.var))

    def _GlobalRef(self, e):
        return self.global_value(e)

    def _BuiltinValue(self, e):
        return {"阳": True, "阴": False}.get(e.name)

    def _Splat(self, e):
        value = self.value(e.value)
        return None if value is None else (value,) * len(resolve(e.type).items)

    def _MakeTuple(self, e):
        items = [self.value(i) for i in e.items]
        return None if any(i is None for i in items) else tuple(items)

    def _MakeRecord(self, e):
        for _, v in e.fields:
            self.value(v)
        return None

    def _Project(self, e):
        base = self.value(e.base)
        if isinstance(base, tuple) and e.components is not None:
            return tuple(base[i] for i in e.components)
        if isinstance(base, tuple) and e.index is not None:
            return base[e.index]
        return None

    def _If(self, e):
        for part in (e.cond, e.then, e.otherwise):
            if part is not None:
                self.value(part)
        return None

    def _Let(self, e):
        """Known only when the bound value is too: an unknown one may be an
        effect, which a writer substituting the body's value would drop."""
        value = self.value(e.value)
        if is_abstract(e.var.type):
            self.locals[id(e.var)] = value
        body = self.value(e.body)
        return None if value is None else body

    def _LetFun(self, e):
        if e.fun.body is not None:
            self.value(e.fun.body)
        return self.value(e.body)

    def _Seq(self, e):
        """Known only when every item is: an earlier item runs for its effect."""
        values = [self.value(i) for i in e.items]
        return None if any(v is None for v in values) else values[-1]

    def _Inline(self, e):
        """A lowered local call (compiler/lower/loops.py) is unknown, as the
        call was; its body is visited with the parameters unknown, as the
        local function's was."""
        for a in e.args:
            self.value(a)
        self.value(e.body)
        return None

    _Loop = _Inline

    def _Block(self, e):
        return self.value(e.body)

    def _Next(self, e):
        for a in e.args:
            self.value(a)
        return None

    def _Call(self, e):
        number = ir.literal_value(e.args[0]) if e.name in CONVERSIONS else None
        if number is not None:                       # a typed literal such as 2u
            return fit(number, CONVERSIONS[e.name])
        args = [self.value(a) for a in e.args]
        if e.kind != "builtin" or any(a is None for a in args):
            return None
        types = [scalar_of(deep_resolve(a.type)) for a in e.args]
        if e.name in CONVERSIONS and types[0] is not None:
            return convert(args[0], types[0], CONVERSIONS[e.name])
        if e.name == "位转换":
            target = scalar_of(deep_resolve(e.type))
            if target is None or types[0] is None:
                return None
            return bitcast(args[0], types[0], target, len(_components(_shape(e.type))))
        if e.name == "半精度打包":
            return pack_halves(args[0])
        if e.name == "半精度解包":
            return unpack_halves(args[0])
        if e.name == "转换":
            target = scalar_of(deep_resolve(e.type))
            if target is None or types[0] is None:
                return None
            return _componentwise(lambda v: convert(v, types[0], target), args[0])
        s = types[0]
        if s is None:
            return None
        if e.name in COMPARE:
            return _componentwise(COMPARE[e.name], *args)
        if e.name in BINARY:
            op = BINARY[e.name]
            return _componentwise(lambda a, b: fit(op(a, b, s), s), *args)
        if e.name in FLOAT_FUNCTIONS and s.kind == "float":
            op = _real(FLOAT_FUNCTIONS[e.name])
            return _componentwise(lambda *xs: fit(op(*(float(x) for x in xs)), s), *args)
        if e.name in UNARY:
            op = UNARY[e.name]
            return _componentwise(lambda a: fit(op(a, s), s), args[0])
        return None


class KnownValues:
    """The const-expression values of definition bodies, computed the way WGSL
    does (abstract 整数 and 小数 in 64 bits) once per body.  The MSL and PTX
    back ends write these values instead of computing them again in 32 bits."""

    def __init__(self, decls: dict) -> None:
        self.decls = decls               # (module path, name) → declaration
        self.values: dict[int, object] = {}
        self._done: set[int] = set()

    def evaluate(self, body: ir.Expr) -> None:
        if id(body) not in self._done:
            self._done.add(id(body))
            evaluator = ConstEvaluator(self.global_value, lambda *_: None)
            evaluator.value(body)
            self.values.update(evaluator.known)

    def global_value(self, ref: ir.GlobalRef):
        """The value of a top-level constant, or None."""
        decl = self.decls.get((ref.module, ref.name))
        if not isinstance(decl, ir.Const) or decl.value is None:
            return None
        self.evaluate(decl.value)
        return self.values.get(id(decl.value))

    def of(self, e: ir.Expr):
        """The value of a node inside an evaluated body (not of a bare literal,
        which every back end already writes as it is), or None."""
        return None if isinstance(e, ir.Literal) else self.values.get(id(e))
