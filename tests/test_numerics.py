"""Numerics: the math, operator and conversion builtins of
LANGUAGE.md §6 applied to edge-case inputs (±0, ±1, tiny, huge, ties,
integer extremes, negative dividends, shift amounts past 31, atan2 in every
quadrant, …) in compute kernels written from LANGUAGE.md, run on WGSL
(lavapipe), on the MSL CPU shim and on the PTX emulator, and compared with
NumPy references written from each builtin's meaning (WGSL's definition,
and LANGUAGE.md §5 "Semantics pinned beyond the seed"), never from a
target's output.

Tolerances follow WGSL's accuracy table: integers and the exact float
builtins (abs, floor, ceil, round, trunc, fract, saturate, sign, min, max,
clamp, step, select, negation, +, −, ×) bit-exact; ÷ 2.5 ulp; sqrt and
inverseSqrt inherited/2 ulp; exp/exp2 3 + 2·|x| ulp; log/log2 3 ulp (absolute
2⁻²¹ near 1); sin/cos absolute 2⁻¹¹ on [−π, π]; atan/asin/acos 4096 ulp and
atan2 4096 ulp; the others inherited from their formulas.

Every kernel is run once per target (cached); each check compares one
builtin's column.  Documented target differences (docs/后端.md: MSL does not
emulate integer division by zero, INT_MIN ÷ −1 or shift amounts ≥ 32) are
left out of the MSL comparison.  A check marked xfail(strict) is a bug."""

from __future__ import annotations

import functools
import math
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from support.references import grid
from support.ptx_runner import PTXAS
from support.ptx_runner import emulated, upload
from support.wgpu_device import run_entry, validate
from zhuose.compiler import ir
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace
from support.metal_shim.host import prepare, results  # noqa: E402
from support.metal_shim.runner import CLANG, Kernel, Runner  # noqa: E402

TARGETS = ["wgsl", "msl", "ptx"]
HEAD = "寻观「点染」之「点染本」之书。\n\n"
WG = 64


def buffer(name: str, element: str, binding: int, access: str = "读写") -> str:
    return (f"「{name}」乃「存储缓冲」于（「数组」于{element}）也。\n"
            f"「{name}」者「绑定」于（「组值」【「组」者「零」也，「号」者「{binding}」也，「访问」者「{access}」也】）也。\n")


def columns(exprs: list[str], put: str = "放") -> str:
    """`放 k i (expr)` for each expression, in order, as one sequence."""
    return "；\n".join(f"　　「{put}」于（「新无三二」于「{k}」）于「i」于（{e}）" for k, e in enumerate(exprs))


def elementwise(inputs: list[tuple[str, str]], out: str, lets: list[str], exprs: list[str]) -> str:
    """One invocation per input element: 出[k·n + i] = exprs[k] (inputs read into 「x」「y」…)."""
    resources = "".join(buffer(n, t, b, "只读") for b, (n, t) in enumerate(inputs))
    resources += buffer("出", out, len(inputs))
    first = inputs[0][0]
    reads = "".join(f"　　令「{v}」为「读数组」于「{n}」于「i」而\n" for v, (n, _) in zip("xyzw", inputs))
    lets_text = "".join(f"　　令{line}而\n" for line in lets)
    return (HEAD + resources + f"""
「放」乃化「无三二」又化「无三二」又化{out}为「有」者也。
「放」者得「k」又得「i」又得「值」而
　「写数组」于「出」于（「k」乘（「数组长度」于「{first}」）加「i」）于「值」
也。

「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「i」为「号」中「零」而
　若「i」小于（「数组长度」于「{first}」）则（
{reads}{lets_text}{columns(exprs)}
　）
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「{WG}」也】）也。
""")


def f(v) -> str:
    """A 浮三二 literal expression (negative through 负)."""
    text = np.format_float_positional(float(abs(v)), trim="0")
    core = f"「新浮三二」于「{text}」"
    return f"「新浮三二」于（负「{text}」）" if v < 0 else core


def i32(v) -> str:
    return f"「新整三二」于（负「{-v}」）" if v < 0 else f"「新整三二」于「{v}」"


def u32(v) -> str:
    return f"「新无三二」于「{v}」"


def pad(values, n: int, fill) -> np.ndarray:
    """`values` followed by `fill(k)` up to a multiple of the workgroup size."""
    values = list(values)
    total = -(-max(len(values), 1) // n) * n
    rest = fill(total - len(values))
    return np.concatenate([np.asarray(values, dtype=rest.dtype), rest])


R = np.random.default_rng(20240611)

# ================================================================ kernels

KERNELS: dict[str, dict] = {}


def kernel(name: str, source: str, data: dict[str, np.ndarray], groups, entry: str = "主入口"):
    KERNELS[name] = {"source": source, "data": data, "groups": groups, "entry": entry}


# ---------------------------------------------------------------- f32, one operand

F_EDGE = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997, 1e-30, -1e-30,
          1e30, -1e30, 3.4e38, -3.4e38, 123.456, -7.25, 100.5, -100.5, 3.1415927, -3.1415927, 8388607.5,
          -8388607.5, 16777216.0, -16777215.0, 0.1, -0.1, 2.0, 0.75, -0.75, 1.2e-38, -1.2e-38, 0.99999994,
          -0.99999994, 1.0000001, 65504.0, 4.5, -4.5, 1e-7]
F1 = pad(F_EDGE, WG, lambda k: (R.uniform(-10, 10, k)).astype(np.float32)).astype(np.float32)

F1_EXPRS = {
    "绝对值": "「绝对值」于「x」",
    "平方根": "「平方根」于（「绝对值」于「x」）",
    "逆平方根": f"「逆平方根」于（「最大」于（「绝对值」于「x」）于（{f(1e-06)}））",
    "指数": f"「指数」于（「夹紧」于「x」于（{f(-80)}）于（{f(80)}））",
    "指数二": f"「指数二」于（「夹紧」于「x」于（{f(-120)}）于（{f(120)}））",
    "对数": f"「对数」于（「最大」于（「绝对值」于「x」）于（{f(1e-06)}））",
    "对数二": f"「对数二」于（「最大」于（「绝对值」于「x」）于（{f(1e-06)}））",
    "正弦": f"「正弦」于（「夹紧」于「x」于（{f(-3.1415927)}）于（{f(3.1415927)}））",
    "余弦": f"「余弦」于（「夹紧」于「x」于（{f(-3.1415927)}）于（{f(3.1415927)}））",
    "正切": f"「正切」于（「夹紧」于「x」于（{f(-1.5)}）于（{f(1.5)}））",
    "双曲正切": f"「双曲正切」于（「夹紧」于「x」于（{f(-40)}）于（{f(40)}））",
    "反正弦": f"「反正弦」于（「夹紧」于「x」于（{f(-1)}）于（{f(1)}））",
    "反余弦": f"「反余弦」于（「夹紧」于「x」于（{f(-1)}）于（{f(1)}））",
    "反正切": "「反正切」于「x」",
    "向下取整": "「向下取整」于「x」",
    "向上取整": "「向上取整」于「x」",
    "四舍五入": "「四舍五入」于「x」",
    "截断": "「截断」于「x」",
    "小数部分": "「小数部分」于「x」",
    "饱和": "「饱和」于「x」",
    "符号": "「符号」于「x」",
    "负": "负「x」",
    "除三": f"「x」除（{f(3)}）",
    "余负三": f"「x」余（{f(-3)}）",
    "乘半": f"「x」乘（{f(0.5)}）",
    "长度标量": "「长度」于「x」",
}
kernel("浮一", elementwise([("入", "「浮三二」")], "「浮三二」", [], list(F1_EXPRS.values())),
       {"入": F1, "出": np.zeros(len(F1) * len(F1_EXPRS), np.float32)}, len(F1) // WG)


def _ulp(x):
    return np.spacing(np.abs(np.float32(x)).astype(np.float32)).astype(np.float64)


def f1_reference(name: str, x: np.ndarray):
    """(expected in float64, tolerance per element; 0 means bit-exact in f32)."""
    x64 = x.astype(np.float64)
    exact = np.zeros_like(x64)
    if name == "绝对值":
        return np.abs(x), exact
    if name == "平方根":
        e = np.sqrt(np.abs(x64))
        return e, 2.5 * _ulp(e)
    if name == "逆平方根":
        e = 1 / np.sqrt(np.maximum(np.abs(x64), np.float32(1e-6)))
        return e, 2.5 * _ulp(e)
    if name == "指数":
        c = np.clip(x64, -80, 80)
        e = np.exp(c)
        return e, (3 + 2 * np.abs(c)) * _ulp(e)
    if name == "指数二":
        c = np.clip(x64, -120, 120)
        e = np.exp2(c)
        return e, (3 + 2 * np.abs(c)) * _ulp(e)
    if name in ("对数", "对数二"):
        c = np.maximum(np.abs(x64), np.float32(1e-6))
        e = np.log(c) if name == "对数" else np.log2(c)
        return e, np.where((c >= 0.5) & (c <= 2), 2.0 ** -21, 3 * _ulp(e) + 1e-30)
    if name in ("正弦", "余弦"):
        c = np.clip(x64, -np.float32(3.1415927), np.float32(3.1415927))
        return (np.sin(c) if name == "正弦" else np.cos(c)), np.full_like(c, 2.0 ** -11)
    if name == "正切":
        c = np.clip(x64, -1.5, 1.5)
        e = np.tan(c)
        return e, 2.0 ** -11 * (1 + e * e) + 4 * _ulp(e)       # inherited from sin/cos
    if name == "双曲正切":
        c = np.clip(x64, -40, 40)
        return np.tanh(c), np.full_like(c, 1e-5)
    if name in ("反正弦", "反余弦"):
        c = np.clip(x64, -1, 1)
        e = np.arcsin(c) if name == "反正弦" else np.arccos(c)
        return e, 4096 * _ulp(e) + 1e-6
    if name == "反正切":
        e = np.arctan(x64)
        return e, 4096 * _ulp(e)
    if name == "向下取整":
        return np.floor(x), exact
    if name == "向上取整":
        return np.ceil(x), exact
    if name == "四舍五入":
        return np.rint(x), exact
    if name == "截断":
        return np.trunc(x), exact
    if name == "小数部分":
        return (x - np.floor(x)).astype(np.float32), exact          # WGSL: e − floor(e), in f32
    if name == "饱和":
        return np.clip(x, 0, 1), exact
    if name == "符号":
        return np.sign(x), exact
    if name == "负":
        return -x, exact
    if name == "除三":
        e = x64 / 3
        return e, 2.5 * _ulp(e)
    if name == "余负三":
        # WGSL %: x − y·trunc(x/y); for |x| < 2²⁴ the quotient is exact enough that this is fmod
        small = np.abs(x64) < 2 ** 22
        e = np.where(small, np.fmod(x64, -3.0), np.nan)
        return e, np.where(small, 2.5 * _ulp(x), 0)
    if name == "乘半":
        return (x * np.float32(0.5)), exact
    if name == "长度标量":
        # inherited from sqrt(x·x): only where x·x neither overflows nor underflows f32
        ok = (np.abs(x64) < 1e19) & ((np.abs(x64) > 1e-19) | (x64 == 0))
        return np.where(ok, np.abs(x64), np.nan), 2.5 * _ulp(x)
    raise KeyError(name)


# ---------------------------------------------------------------- f32, two operands

PI = math.pi
F_PAIRS = [
    # remainders with every sign combination (exact in f32), and the quotient rounding
    (7.5, 2), (-7.5, 2), (7.5, -2), (-7.5, -2), (5, 5), (-5, 5), (1, 0.25), (-5.25, 0.5), (0.0, 3), (-0.0, 3),
    (1000000.5, 3), (-1000000.5, 3), (13.5, -4), (2.5, 1e-30),
    # atan2 in all quadrants and on the axes (y, x)
    (1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (0, -1), (1, 0), (-1, 0), (3, -4), (-3, 4), (3, 4), (-3, -4),
    (1e-20, -1), (-1e-20, -1), (1e20, 1), (-5, 1e-20), (1e-30, 1e-30), (-2e30, 1e30),
    # order, min/max, step with equal operands
    (2, 2), (-0.0, 0.0), (0.0, -0.0), (1e30, -1e30), (-1e-30, 1e-30), (3.4e38, 3.0e38),
]
_fp = np.array(F_PAIRS, np.float32)
F2A = pad(_fp[:, 0], WG, lambda k: R.uniform(-20, 20, k).astype(np.float32)).astype(np.float32)
F2B = pad(_fp[:, 1], WG, lambda k: R.uniform(-20, 20, k).astype(np.float32)).astype(np.float32)

F2_EXPRS = {
    "余": "「x」余「y」",
    "除": "「x」除「y」",
    "反正切二": "「反正切二」于「x」于「y」",
    "最大": "「最大」于「x」于「y」",
    "最小": "「最小」于「x」于「y」",
    "阶跃": "「阶跃」于「x」于「y」",
    "幂": f"「幂」于（「绝对值」于（「夹紧」于「x」于（{f(-50)}）于（{f(50)}））加（{f(0.5)}））于"
          f"（「夹紧」于「y」于（{f(-4)}）于（{f(4)}））",
    "融合乘加": f"「融合乘加」于（「夹紧」于「x」于（{f(-1000)}）于（{f(1000)}））于"
               f"（「夹紧」于「y」于（{f(-1000)}）于（{f(1000)}））于（{f(0.25)}）",
    "混合": f"「混合」于（「夹紧」于「x」于（{f(-1000)}）于（{f(1000)}））于"
           f"（「夹紧」于「y」于（{f(-1000)}）于（{f(1000)}））于（{f(0.25)}）",
    "平滑阶跃": f"「平滑阶跃」于（{f(-1)}）于（{f(2)}）于「x」",
    "夹紧": f"「夹紧」于「x」于（「最小」于「y」于（{f(0)}））于（「最大」于「y」于（{f(0)}））",
    "选择标量条件": "「选择」于「x」于「y」于（「x」小于「y」）",
    "距离标量": f"「距离」于（「夹紧」于「x」于（{f(-1000)}）于（{f(1000)}））于"
               f"（「夹紧」于「y」于（{f(-1000)}）于（{f(1000)}））",
    "加": f"「夹紧」于「x」于（{f(-1e6)}）于（{f(1e6)}）加（「夹紧」于「y」于（{f(-1e6)}）于（{f(1e6)}））",
    "减": f"「夹紧」于「x」于（{f(-1e6)}）于（{f(1e6)}）减（「夹紧」于「y」于（{f(-1e6)}）于（{f(1e6)}））",
    "乘": f"「夹紧」于「x」于（{f(-1e6)}）于（{f(1e6)}）乘（「夹紧」于「y」于（{f(-1e6)}）于（{f(1e6)}））",
    "比较": "「转换」以「浮三二」于（「x」小于「y」）加（「新浮三二」于「2.0」）乘（「转换」以「浮三二」于（「x」等于「y」））"
           "加（「新浮三二」于「4.0」）乘（「转换」以「浮三二」于（「x」不大于「y」））"
           "加（「新浮三二」于「8.0」）乘（「转换」以「浮三二」于（「x」不等于「y」））"
           "加（「新浮三二」于「16.0」）乘（「转换」以「浮三二」于（「x」大于「y」））"
           "加（「新浮三二」于「32.0」）乘（「转换」以「浮三二」于（「x」不小于「y」））",
}
kernel("浮二", elementwise([("甲", "「浮三二」"), ("乙", "「浮三二」")], "「浮三二」", [], list(F2_EXPRS.values())),
       {"甲": F2A, "乙": F2B, "出": np.zeros(len(F2A) * len(F2_EXPRS), np.float32)}, len(F2A) // WG)


def f2_reference(name: str, a: np.ndarray, b: np.ndarray):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    exact = np.zeros_like(a64)
    c = lambda v, lo, hi: np.clip(v, np.float32(lo), np.float32(hi)).astype(np.float64)  # noqa: E731
    if name == "余":
        # x − y·trunc(x/y), where x/y rounds to an integer-exact quotient (all pairs here, |x/y| < 2²²)
        ok = (b64 != 0) & (np.abs(a64 / np.where(b64 == 0, 1, b64)) < 2 ** 20)
        e = np.where(ok, np.fmod(a64, np.where(b64 == 0, 1, b64)), np.nan)
        return e, np.where(ok, 2.5 * _ulp(a), 0)
    if name == "除":
        ok = (b64 != 0) & np.isfinite(a64 / np.where(b64 == 0, 1, b64)) & \
             (np.abs(a64 / np.where(b64 == 0, 1, b64)) < 1e38) & (np.abs(a64 / np.where(b64 == 0, 1, b64)) > 1e-37)
        ok |= (a64 == 0) & (b64 != 0)
        # WGSL: 2.5 ulp for |y| in [2⁻¹²⁶, 2¹²⁶]
        ok &= (np.abs(b64) > 2.0 ** -126) & (np.abs(b64) < 2.0 ** 126)
        e = np.where(ok, a64 / np.where(b64 == 0, 1, b64), np.nan)
        return e, np.where(ok, 2.5 * _ulp(e), 0)
    if name == "反正切二":
        ok = ~((a64 == 0) & (b64 == 0))
        e = np.where(ok, np.arctan2(a64, b64), np.nan)
        return e, np.where(ok, 4096 * _ulp(e) + 1e-6, 0)
    if name == "最大":
        return np.maximum(a64, b64), exact
    if name == "最小":
        return np.minimum(a64, b64), exact
    if name == "阶跃":
        return (b64 >= a64).astype(np.float64), exact            # step(edge, x) = 1 when edge ≤ x
    if name == "幂":
        base, power = np.abs(c(a64, -50, 50)) + 0.5, c(b64, -4, 4)
        e = base ** power
        return e, (3 + 2 * np.abs(power * np.log2(base))) * _ulp(e) + 1e-30
    if name == "融合乘加":
        x, y = c(a64, -1000, 1000), c(b64, -1000, 1000)
        e = x * y + 0.25
        return e, _ulp(x * y) + _ulp(e)
    if name == "混合":
        x, y = c(a64, -1000, 1000), c(b64, -1000, 1000)
        e = x * 0.75 + y * 0.25
        return e, 2 * (_ulp(x) + _ulp(y)) + _ulp(e)
    if name == "平滑阶跃":
        t = np.clip((a64 + 1) / 3, 0, 1)
        return t * t * (3 - 2 * t), np.full_like(a64, 1e-6)
    if name == "夹紧":
        return np.clip(a64, np.minimum(b64, 0), np.maximum(b64, 0)), exact
    if name == "选择标量条件":
        return np.where(a64 < b64, b64, a64), exact                 # select(否, 是, 条) → 条 ? 是 : 否
    if name == "距离标量":
        e = np.abs(c(a64, -1000, 1000) - c(b64, -1000, 1000))
        e = np.where((e > 1e-19) | (e == 0), e, np.nan)       # inherited from length(x − y): (x − y)² underflows
        return e, 2 * _ulp(e) + 1e-30
    if name in ("加", "减", "乘"):
        x, y = c(a64, -1e6, 1e6).astype(np.float32), c(b64, -1e6, 1e6).astype(np.float32)
        return {"加": x + y, "减": x - y, "乘": x * y}[name], exact
    if name == "比较":
        return ((a64 < b64) + 2.0 * (a64 == b64) + 4.0 * (a64 <= b64) + 8.0 * (a64 != b64) + 16.0 * (a64 > b64)
                + 32.0 * (a64 >= b64)), exact
    raise KeyError(name)


# ---------------------------------------------------------------- 整三二

INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1
I_PAIRS = [(7, 2), (-7, 2), (7, -2), (-7, -2), (-1, 5), (1, -5), (0, -3), (INT_MIN, -3), (INT_MIN, 1), (INT_MAX, -1),
           (INT_MIN, 2), (INT_MIN, INT_MAX), (INT_MAX, INT_MIN), (INT_MAX, 1), (46341, 46341), (-46341, 46341),
           (65536, 65536), (-13, 4), (13, -4), (0, 1), (INT_MIN, INT_MIN), (-100, 31), (-100, 32), (-100, 33),
           (1, 31), (3, 30), (-1, 1), (INT_MIN, 31), (123456789, 40), (-7, -1), (5, -3), (INT_MIN, -2 ** 31)]
_ip = np.array(I_PAIRS, np.int64)
IA = pad(_ip[:, 0], WG, lambda k: R.integers(INT_MIN, INT_MAX, k, dtype=np.int64)).astype(np.int32)
IB = pad(_ip[:, 1], WG, lambda k: R.integers(-40, 40, k, dtype=np.int64)).astype(np.int32)
IB[IB == 0] = 9                      # x / 0 and x % 0 are in their own kernel (「除零」), not run on MSL

I_EXPRS = {
    "除": "「x」除「y」",
    "余": "「x」余「y」",
    "加": "「x」加「y」",
    "减": "「x」减「y」",
    "乘": "「x」乘「y」",
    "负": "负「x」",
    "绝对值": "「绝对值」于「x」",
    "最大": "「最大」于「x」于「y」",
    "最小": "「最小」于「x」于「y」",
    "夹紧": f"「夹紧」于「x」于（「最小」于「y」于（{i32(0)}））于（「最大」于「y」于（{i32(0)}））",
    "符号": "「符号」于「x」",
    "右移": "「x」右移（「位转换」以「无三二」于「y」）",
    "左移": "「x」左移（「位转换」以「无三二」于「y」）",
    "异或": "「x」异或「y」",
    "按位与": "「x」按位与「y」",
    "按位或": "「x」按位或「y」",
    "按位非": "「按位非」于「x」",
    "一位计数": "「一位计数」于「x」",
    "位反转": "「位反转」于「x」",
    "比较": "「转换」以「整三二」于（「x」小于「y」）加（「新整三二」于「2」）乘（「转换」以「整三二」于（「x」等于「y」））"
           "加（「新整三二」于「4」）乘（「转换」以「整三二」于（「x」不大于「y」））"
           "加（「新整三二」于「8」）乘（「转换」以「整三二」于（「x」不等于「y」））"
           "加（「新整三二」于「16」）乘（「转换」以「整三二」于（「x」大于「y」））"
           "加（「新整三二」于「32」）乘（「转换」以「整三二」于（「x」不小于「y」））",
    "转浮": "「位转换」以「整三二」于（「转换」以「浮三二」于「x」）",
}
kernel("整", elementwise([("甲", "「整三二」"), ("乙", "「整三二」")], "「整三二」", [], list(I_EXPRS.values())),
       {"甲": IA, "乙": IB, "出": np.zeros(len(IA) * len(I_EXPRS), np.int32)}, len(IA) // WG)


def wrap32(v):
    return ((np.asarray(v, dtype=object).astype(np.int64) + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int64)


def bits_reverse(v: int) -> int:
    return int(f"{v & 0xFFFFFFFF:032b}"[::-1], 2)


def i_reference(name: str, a: np.ndarray, b: np.ndarray):
    """Expected int32 values, and a mask of the rows an MSL run may differ on (docs/后端.md)."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    none = np.zeros(len(a), bool)
    if name in ("除", "余"):
        q, r = [], []
        for x, y in zip(a64.tolist(), b64.tolist()):
            if y == 0:                        # WGSL: x / 0 = x, x % 0 = 0
                q.append(x), r.append(0)
            elif x == INT_MIN and y == -1:    # WGSL: INT_MIN / −1 = INT_MIN, % = 0
                q.append(x), r.append(0)
            else:
                t = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
                q.append(t), r.append(x - y * t)
        undefined_in_msl = (b64 == 0) | ((a64 == INT_MIN) & (b64 == -1))
        return np.array(q if name == "除" else r, np.int64), undefined_in_msl
    shift = b64 & 0xFFFFFFFF
    big_shift = shift >= 32
    if name == "加":
        return wrap32(a64 + b64), none
    if name == "减":
        return wrap32(a64 - b64), none
    if name == "乘":
        return wrap32(a64 * b64), none
    if name == "负":
        return wrap32(-a64), none
    if name == "绝对值":
        return wrap32(np.abs(a64)), none            # abs(INT_MIN) = INT_MIN in WGSL
    if name == "最大":
        return np.maximum(a64, b64), none
    if name == "最小":
        return np.minimum(a64, b64), none
    if name == "夹紧":
        return np.clip(a64, np.minimum(b64, 0), np.maximum(b64, 0)), none
    if name == "符号":
        return np.sign(a64), none
    if name == "右移":
        return a64 >> (shift % 32), big_shift        # arithmetic, amount mod 32 (WGSL, docs/后端.md PTX)
    if name == "左移":
        return wrap32(a64 << (shift % 32)), big_shift
    if name == "异或":
        return a64 ^ b64, none
    if name == "按位与":
        return a64 & b64, none
    if name == "按位或":
        return a64 | b64, none
    if name == "按位非":
        return ~a64, none
    if name == "一位计数":
        return np.array([bin(v & 0xFFFFFFFF).count("1") for v in a64.tolist()]), none
    if name == "位反转":
        return wrap32([bits_reverse(v) for v in a64.tolist()]), none
    if name == "比较":
        return ((a64 < b64) + 2 * (a64 == b64) + 4 * (a64 <= b64) + 8 * (a64 != b64) + 16 * (a64 > b64)
                + 32 * (a64 >= b64)), none
    if name == "转浮":
        return a.astype(np.float32).view(np.int32).astype(np.int64), none      # round to nearest even
    raise KeyError(name)


# ---------------------------------------------------------------- 无三二

U_MAX = 2 ** 32 - 1
U_PAIRS = [(7, 2), (0, 1), (1, 3), (U_MAX, 5), (0, 7), (U_MAX, U_MAX), (U_MAX, 2), (0x80000000, 1), (1, 0x80000000),
           (0x80000000, 0x7FFFFFFF), (0xFFFFFFFE, 0xFFFFFFFF), (65536, 65536), (12345, 31), (12345, 32),
           (12345, 33), (0x80000001, 1), (0x80000001, 63), (3, 0xFFFFFFFF), (100, 7), (U_MAX, 31)]
_up = np.array(U_PAIRS, np.uint64)
UA = pad(_up[:, 0], WG, lambda k: R.integers(0, 2 ** 32, k, dtype=np.uint64)).astype(np.uint32)
UB = pad(_up[:, 1], WG, lambda k: R.integers(0, 40, k, dtype=np.uint64)).astype(np.uint32)
UB[UB == 0] = 9

U_EXPRS = {
    "除": "「x」除「y」",
    "余": "「x」余「y」",
    "加": "「x」加「y」",
    "减": "「x」减「y」",
    "乘": "「x」乘「y」",
    "最大": "「最大」于「x」于「y」",
    "最小": "「最小」于「x」于「y」",
    "夹紧": f"「夹紧」于「x」于（{u32(100)}）于（「最大」于「y」于（{u32(100)}））",
    "右移": "「x」右移「y」",
    "左移": "「x」左移「y」",
    "异或": "「x」异或「y」",
    "按位非": "「按位非」于「x」",
    "一位计数": "「一位计数」于「x」",
    "位反转": "「位反转」于「x」",
    "比较": "「转换」以「无三二」于（「x」小于「y」）加（「新无三二」于「2」）乘（「转换」以「无三二」于（「x」等于「y」））"
           "加（「新无三二」于「4」）乘（「转换」以「无三二」于（「x」不大于「y」））"
           "加（「新无三二」于「8」）乘（「转换」以「无三二」于（「x」不等于「y」））"
           "加（「新无三二」于「16」）乘（「转换」以「无三二」于（「x」大于「y」））"
           "加（「新无三二」于「32」）乘（「转换」以「无三二」于（「x」不小于「y」））",
    "转浮": "「位转换」以「无三二」于（「转换」以「浮三二」于「x」）",
    "转整": "「位转换」以「无三二」于（「转换」以「整三二」于「x」）",
    "新浮": "「位转换」以「无三二」于（「新浮三二」于「x」）",
}
kernel("无", elementwise([("甲", "「无三二」"), ("乙", "「无三二」")], "「无三二」", [], list(U_EXPRS.values())),
       {"甲": UA, "乙": UB, "出": np.zeros(len(UA) * len(U_EXPRS), np.uint32)}, len(UA) // WG)


def u_reference(name: str, a: np.ndarray, b: np.ndarray):
    a64, b64 = a.astype(np.uint64), b.astype(np.uint64)
    M = np.uint64(0xFFFFFFFF)
    none = np.zeros(len(a), bool)
    if name == "除":
        return np.where(b64 == 0, a64, a64 // np.where(b64 == 0, 1, b64)), b64 == 0     # WGSL: x / 0 = x
    if name == "余":
        return np.where(b64 == 0, 0, a64 % np.where(b64 == 0, 1, b64)), b64 == 0        # WGSL: x % 0 = 0
    if name == "加":
        return (a64 + b64) & M, none
    if name == "减":
        return (a64 - b64) & M, none
    if name == "乘":
        return np.array([(x * y) & 0xFFFFFFFF for x, y in zip(a.tolist(), b.tolist())], np.uint64), none
    if name == "最大":
        return np.maximum(a64, b64), none
    if name == "最小":
        return np.minimum(a64, b64), none
    if name == "夹紧":
        return np.clip(a64, 100, np.maximum(b64, 100)), none
    if name == "右移":
        return a64 >> (b64 % np.uint64(32)), b64 >= 32
    if name == "左移":
        return (a64 << (b64 % np.uint64(32))) & M, b64 >= 32
    if name == "异或":
        return a64 ^ b64, none
    if name == "按位非":
        return ~a64 & M, none
    if name == "一位计数":
        return np.array([bin(v).count("1") for v in a.tolist()], np.uint64), none
    if name == "位反转":
        return np.array([bits_reverse(v) for v in a.tolist()], np.uint64), none
    if name == "比较":
        return ((a64 < b64) + 2 * (a64 == b64) + 4 * (a64 <= b64) + 8 * (a64 != b64) + 16 * (a64 > b64)
                + 32 * (a64 >= b64)).astype(np.uint64), none
    if name in ("转浮", "新浮"):
        return a.astype(np.float32).view(np.uint32).astype(np.uint64), none     # round to nearest even
    if name == "转整":
        return a64, none                                                     # u32 → i32 keeps the bits
    raise KeyError(name)


# ---------------------------------------------------------------- division by zero, INT_MIN ÷ −1 (not on MSL)

Z_I = [(13, 0), (-13, 0), (0, 0), (INT_MIN, 0), (INT_MAX, 0), (INT_MIN, -1), (INT_MIN, 1), (-7, 2)]
ZIA = np.array([a for a, _ in Z_I] * (WG // len(Z_I)), np.int32)
ZIB = np.array([b for _, b in Z_I] * (WG // len(Z_I)), np.int32)
Z_U = [(13, 0), (0, 0), (U_MAX, 0), (0x80000000, 0), (7, 2), (U_MAX, 1), (1, U_MAX), (5, 5)]
ZUA = np.array([a for a, _ in Z_U] * (WG // len(Z_U)), np.uint32)
ZUB = np.array([b for _, b in Z_U] * (WG // len(Z_U)), np.uint32)
kernel("整除零", elementwise([("甲", "「整三二」"), ("乙", "「整三二」")], "「整三二」", [], ["「x」除「y」", "「x」余「y」"]),
       {"甲": ZIA, "乙": ZIB, "出": np.zeros(2 * WG, np.int32)}, 1)
kernel("无除零", elementwise([("甲", "「无三二」"), ("乙", "「无三二」")], "「无三二」", [], ["「x」除「y」", "「x」余「y」"]),
       {"甲": ZUA, "乙": ZUB, "出": np.zeros(2 * WG, np.uint32)}, 1)
kernel("整向除零", elementwise([("甲", "「四维整」"), ("乙", "「四维整」")], "「四维整」", [], ["「x」除「y」", "「x」余「y」"]),
       {"甲": ZIA.reshape(-1, 4), "乙": ZIB.reshape(-1, 4), "出": np.zeros((WG // 2, 4), np.int32)}, 1)
NOT_ON_MSL = {"整除零", "无除零", "整向除零"}       # docs/后端.md: MSL does not emulate these (they trap on the CPU shim)


# ---------------------------------------------------------------- float → integer, bit casts, half packing

C_EDGE = [0.0, -0.0, 0.9, -0.9, 1.5, -1.5, 2147483520.0, 2147483647.0, 2147483648.0, -2147483648.0, -2147483904.0,
          4294967040.0, 4294967296.0, 1e10, -1e10, 1e30, -1e30, 3.4e38, -3.4e38, 16777217.0, 65535.5, -65535.5,
          1e-30, 0.99999994, 123456.78, -0.5, 65504.0, 65520.0, 6.1035156e-05, 5.9604645e-08, 0.33333334, -2.5]
CX = pad(C_EDGE, WG, lambda k: R.uniform(-1e5, 1e5, k).astype(np.float32)).astype(np.float32)
C_EXPRS = {
    "转无": "「转换」以「无三二」于「x」",
    "转整": "「位转换」以「无三二」于（「转换」以「整三二」于「x」）",
    "新无": "「新无三二」于「x」",
    "新整": "「位转换」以「无三二」于（「新整三二」于「x」）",
    "位转换": "「位转换」以「无三二」于「x」",
    "位转换往返": "「位转换」以「无三二」于（「位转换」以「浮三二」于（「位转换」以「整三二」于「x」））",
    "向量转无": "（「转换」以「二维无」于（「x」与负「x」））中「一」",
    "向量转整": "「位转换」以「无三二」于（（「转换」以「二维整」于（「x」与负「x」））中「一」）",
    "半精度打包": f"「半精度打包」于（「夹紧」于「x」于（{f(-65504.0)}）于（{f(65504.0)}）与 {f(-0.375)}）",
    "半精度往返": "「位转换」以「无三二」于（（「半精度解包」于（「位转换」以「无三二」于「x」））中「零」）",
    "半精度往返高": "「位转换」以「无三二」于（（「半精度解包」于（「位转换」以「无三二」于「x」））中「一」）",
}
kernel("转", elementwise([("入", "「浮三二」")], "「无三二」", [], list(C_EXPRS.values())),
       {"入": CX, "出": np.zeros(len(CX) * len(C_EXPRS), np.uint32)}, len(CX) // WG)


def wgsl_int(x: np.ndarray, kind) -> np.ndarray:
    """WGSL's f32 → integer: toward zero, clamped to the integers both types hold."""
    low, high = {np.uint32: (0.0, 4294967040.0), np.int32: (-2147483648.0, 2147483520.0)}[kind]
    return np.trunc(np.clip(x.astype(np.float64), low, high)).astype(kind)


def f16_bits(values) -> np.ndarray:
    return np.asarray(values, np.float32).astype(np.float16).view(np.uint16).astype(np.uint64)


def c_reference(name: str, x: np.ndarray):
    if name in ("转无", "新无"):
        return wgsl_int(x, np.uint32).astype(np.uint64)
    if name in ("转整", "新整"):
        return wgsl_int(x, np.int32).view(np.uint32).astype(np.uint64)
    if name in ("位转换", "位转换往返"):
        return x.view(np.uint32).astype(np.uint64)
    if name == "向量转无":
        return wgsl_int(-x, np.uint32).astype(np.uint64)
    if name == "向量转整":
        return wgsl_int(-x, np.int32).view(np.uint32).astype(np.uint64)
    if name == "半精度打包":
        return f16_bits(np.clip(x, -65504, 65504)) | (f16_bits([-0.375])[0] << np.uint64(16))
    raise KeyError(name)


def half_unpacked(x: np.ndarray, high: bool) -> np.ndarray:
    """unpack2x16float of the bits of x: f16 (low half first) widened to f32, exactly."""
    halves = x.view(np.uint32) >> np.uint32(16 if high else 0) & np.uint32(0xFFFF)
    h = halves.astype(np.uint16).view(np.float16)
    ok = np.isfinite(h)
    return h.astype(np.float32).view(np.uint32).astype(np.uint64), ok


# ---------------------------------------------------------------- vectors and matrices

VA = np.concatenate([np.array([[1, 0, 0, 0], [0, 1, 0, 0], [3, 4, 0, 12], [-1, -1, -1, -1], [1e-20, 0, 0, 1e-20],
                               [1e18, 1e18, 0, 0], [0.5, -0.25, 2, 8]], np.float32),
                     R.uniform(-4, 4, (WG - 7, 4)).astype(np.float32)])
VB = np.concatenate([np.array([[0, 1, 0, 0], [0, 0, 1, 5], [-4, 3, 0, 0], [1, 2, 3, 4], [1, 1, 1, 1],
                               [1, -1, 2, 0], [2, 2, 2, 2]], np.float32),
                     R.uniform(-4, 4, (WG - 7, 4)).astype(np.float32)])
V_EXPRS = {
    "点积四": "「点积」于「x」于「y」与「新浮三二」于「0.0」与「新浮三二」于「0.0」与「新浮三二」于「0.0」",
    "点积三": "「点积」于「x3」于「y3」与「新浮三二」于「0.0」与「新浮三二」于「0.0」与「新浮三二」于「0.0」",
    "叉积": "「c」中「零」与「c」中「一」与「c」中「二」与「新浮三二」于「0.0」",
    "长度距离": "「长度」于「x」与「长度」于「x3」与「距离」于「x」于「y」与「距离」于「x3」于「y3」",
    "归一化": "「归一化」于（「x」加（「新浮三二」于「0.0」与「新浮三二」于「0.0」与「新浮三二」于「0.0」与「新浮三二」于「0.5」））",
    "取元素": "「取元素」于「x」于「k」与「取元素」于「y」于（「k」异或（「新无三二」于「1」））"
            "与「取元素」于「x3」于（「k」按位与（「新无三二」于「1」））与（「取元素」于「M」于「k」）中「零」",
    "矩阵取列": "「取元素」于「M」于（「新无三二」于「3」减「k」）",
    "矩阵列投影": "「M」中「二」",
    "矩阵乘向量": "「矩阵乘」于「M」于「y」",
    "矩阵乘矩阵": "「取元素」于（「矩阵乘」于「M」于「N」）于「k」",
    "转置": "「取元素」于（「转置」于「M」）于「k」",
    "行列式": "「行列式」于「M」与「行列式」于「M2」与「新浮三二」于「0.0」与「新浮三二」于「0.0」",
    "矩阵乘矩阵二阶": "（「P2」中「零」加（「P2」中「一」乘（「新浮三二」于「2.0」与「新浮三二」于「2.0」）））中「零」"
                  "与（「P2」中「零」加（「P2」中「一」乘（「新浮三二」于「2.0」与「新浮三二」于「2.0」）））中「一」"
                  "与（「矩阵乘」于「M2」于（「x」中「三」与「y」中「二」））中「零」与（「矩阵乘」于「M2」于（「x」中「三」与「y」中「二」））中「一」",
    "选择向量条件": "「选择」于「x」于「y」于（「x」小于「y」）",
    "选择标量条件": "「选择」于「x」于「y」于（「x」中「零」小于「y」中「零」）",
    "向量比较": "「转换」以「四维浮」于（「x」不大于「y」）加（「转换」以「四维浮」于（「x」等于「y」））乘（「新浮三二」于「2.0」与"
              "「新浮三二」于「2.0」与「新浮三二」于「2.0」与「新浮三二」于「2.0」）",
    "向量余": "「x」余（「y」加（「新浮三二」于「8.0」与「新浮三二」于「8.0」与「新浮三二」于「8.0」与「新浮三二」于「8.0」））",
    "向量融合乘加混合": "「融合乘加」于「x」于「y」于「x」加（「混合」于「x」于「y」于（「新浮三二」于「0.5」与"
                    "「新浮三二」于「0.5」与「新浮三二」于「0.5」与「新浮三二」于「0.5」））",
}
V_LETS = [
    "「k」为「i」按位与（「新无三二」于「3」）",
    "「x3」为「x」中「零」与「x」中「一」与「x」中「二」",
    "「y3」为「y」中「零」与「y」中「一」与「y」中「二」",
    "「M」为（「x」与「y」与（「x」加「y」）与（「x」减「y」）也「四阶浮」）",
    "「N」为（「y」与「x」与（「y」乘「y」）与「x」也「四阶浮」）",
    "「x2」为「x」中「零」与「x」中「一」",
    "「y2」为「y」中「零」与「y」中「一」",
    "「M2」为（「x2」与「y2」也「二阶浮」）",
    "「p2」为「x」中「二」与「y」中「三」",
    "「q2」为「y」中「二」与「x」中「三」",
    "「N2」为（「p2」与「q2」也「二阶浮」）",
    "「P2」为「矩阵乘」于「M2」于「N2」",
    "「c」为「叉积」于「x3」于「y3」",
]
kernel("向", elementwise([("甲", "「四维浮」"), ("乙", "「四维浮」")], "「四维浮」", V_LETS, list(V_EXPRS.values())),
       {"甲": VA, "乙": VB, "出": np.zeros((WG * len(V_EXPRS), 4), np.float32)}, 1)


def v_reference(name: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Expected rows (float64) for one column of the vector kernel."""
    x, y = x.astype(np.float64), y.astype(np.float64)
    n = len(x)
    k = np.arange(n) & 3
    z = np.zeros(n)
    M = np.stack([x, y, x + y, x - y], axis=2)             # M[i][:, c] is column c
    N = np.stack([y, x, y * y, x], axis=2)
    M2 = np.stack([x[:, :2], y[:, :2]], axis=2)
    N2 = np.stack([np.stack([x[:, 2], y[:, 3]], 1), np.stack([y[:, 2], x[:, 3]], 1)], axis=2)
    if name == "点积四":
        return np.stack([(x * y).sum(1), z, z, z], 1)
    if name == "点积三":
        return np.stack([(x[:, :3] * y[:, :3]).sum(1), z, z, z], 1)
    if name == "叉积":
        return np.concatenate([np.cross(x[:, :3], y[:, :3]), z[:, None]], 1)
    if name == "长度距离":
        return np.stack([np.linalg.norm(x, axis=1), np.linalg.norm(x[:, :3], axis=1), np.linalg.norm(x - y, axis=1),
                         np.linalg.norm(x[:, :3] - y[:, :3], axis=1)], 1)
    if name == "归一化":
        v = x + np.array([0, 0, 0, 0.5])
        return v / np.linalg.norm(v, axis=1)[:, None]
    if name == "取元素":
        r = np.arange(n)
        return np.stack([x[r, k], y[r, k ^ 1], x[r, k & 1], M[r, 0, k]], 1)
    if name == "矩阵取列":
        return M[np.arange(n), :, 3 - k]
    if name == "矩阵列投影":
        return M[:, :, 2]
    if name == "矩阵乘向量":
        return np.einsum("nrc,nc->nr", M, y)
    if name == "矩阵乘矩阵":
        return np.einsum("nrc,ncd->nrd", M, N)[np.arange(n), :, k]
    if name == "转置":
        return M[np.arange(n), k, :]
    if name == "行列式":
        return np.stack([np.linalg.det(np.transpose(M, (0, 1, 2))), np.linalg.det(M2), z, z], 1)
    if name == "矩阵乘矩阵二阶":
        P = np.einsum("nrc,ncd->nrd", M2, N2)
        q = np.einsum("nrc,nc->nr", M2, np.stack([x[:, 3], y[:, 2]], 1))
        return np.concatenate([P[:, :, 0] + 2 * P[:, :, 1], q], 1)
    if name == "选择向量条件":
        return np.where(x < y, y, x)
    if name == "选择标量条件":
        return np.where((x[:, 0] < y[:, 0])[:, None], y, x)
    if name == "向量比较":
        return (x <= y) + 2.0 * (x == y)
    if name == "向量余":
        d = y + 8
        return np.where(np.abs(x / d) < 2 ** 20, x - d * np.trunc(x / d), np.nan)   # large quotients: not fmod
    if name == "向量融合乘加混合":
        return x * y + x + (x + y) / 2
    raise KeyError(name)


V_TOLERANCE = {"点积四": 1e-5, "点积三": 1e-5, "叉积": 1e-5, "长度距离": 1e-5, "归一化": 1e-5, "矩阵乘向量": 1e-5,
               "矩阵乘矩阵": 1e-4, "行列式": 1e-3, "矩阵乘矩阵二阶": 1e-4, "向量余": 1e-5, "向量融合乘加混合": 1e-5}

# ---------------------------------------------------------------- atomics with contention

ATOMIC_N = 4 * WG
AV = R.integers(INT_MIN, INT_MAX, ATOMIC_N, dtype=np.int64).astype(np.int32)
AV[17], AV[200] = INT_MIN, INT_MAX
ATOMIC_SOURCE = HEAD + buffer("入", "「整三二」", 0, "只读") + buffer("计", "（「原子」于「无三二」）", 1) \
    + buffer("极", "（「原子」于「整三二」）", 2) + buffer("无极", "（「原子」于「无三二」）", 3) \
    + buffer("旧", "「无三二」", 4) + buffer("存", "（「原子」于「无三二」）", 5) + f"""
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「i」为「号」中「零」而
　令「v」为「读数组」于「入」于「i」而
　令「第零」为「新无三二」于「0」而
　令「第一」为「新无三二」于「1」而
　「写数组」于「旧」于「i」于（「原子加」于「计」于「第零」于「第一」）；
　令「b」为「原子加」于「计」于「第一」于（「位转换」以「无三二」于「v」）而
　「原子最大」于「极」于「第零」于「v」；
　「原子最小」于「极」于「第一」于「v」；
　「原子最大」于「无极」于「第零」于（「位转换」以「无三二」于「v」）；
　「原子最小」于「无极」于「第一」于（「位转换」以「无三二」于「v」）；
　「原子加」于「极」于（「新无三二」于「2」）于（「新整三二」于（负「3」））；
　「原子存」于「存」于「i」于（「i」乘「i」加「b」减「b」）；
　「写数组」于「旧」于（「i」加（「新无三二」于「{ATOMIC_N}」））于（「原子读」于「存」于「i」）
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「{WG}」也】）也。
"""
kernel("原子", ATOMIC_SOURCE,
       {"入": AV, "计": np.zeros(2, np.uint32), "极": np.array([INT_MIN, INT_MAX, 1000], np.int32),
        "无极": np.array([0, U_MAX], np.uint32), "旧": np.zeros(2 * ATOMIC_N, np.uint32),
        "存": np.full(ATOMIC_N, 7, np.uint32)}, ATOMIC_N // WG)

# ---------------------------------------------------------------- workgroup memory and barriers

SHARED_N = 4 * WG
SV = R.integers(0, 2 ** 32, SHARED_N, dtype=np.uint64).astype(np.uint32)
SHARED_SOURCE = HEAD + buffer("入", "「无三二」", 0, "只读") + buffer("出", "「无三二」", 1) + f"""
「区」乃「工作组变量」于（「定长数组」于「无三二」于「{WG}」）也。
「区」者「工作组共享」于「元」也。
「反区」乃「工作组变量」于（「定长数组」于「整三二」于「{WG}」）也。
「反区」者「工作组共享」于「元」也。

「调用」即「组类」【「全」乃「全局调用号」也，「局」乃「局部调用序」也，「组号」乃「工作组号」也】也。

「主」乃化「调用」为「有」者也。
「主」者得「调」而
　令「全」为「调」中「全」中「零」而
　令「局」为「调」中「局」而
　令「v」为「读数组」于「入」于「全」而
　「写共享数组」于「区」于「局」于「v」；
　「写共享数组」于「反区」于「局」于（「位转换」以「整三二」于「v」）；
　「工作组屏障」于「元」；
　令「对面」为「读共享数组」于「反区」于（「新无三二」于「{WG - 1}」减「局」）而
　「工作组屏障」于「元」；
　令「折半」为得「跨」而
　　若「跨」大于（「新无三二」于「0」）则（
　　　若「局」小于「跨」则（
　　　　「写共享数组」于「区」于「局」于（（「读共享数组」于「区」于「局」）加（「读共享数组」于「区」于（「局」加「跨」）））；
　　　　「写共享数组」于「反区」于「局」于
　　　　　（「最小」于（「读共享数组」于「反区」于「局」）于（「读共享数组」于「反区」于（「局」加「跨」）））
　　　）；
　　　「工作组屏障」于「元」；
　　　「折半」于（「跨」右移（「新无三二」于「1」））
　　）
　而
　「写共享数组」于「反区」于「局」于（「最小」于（「位转换」以「整三二」于「v」）于「对面」）；
　「工作组屏障」于「元」；
　「折半」于（「新无三二」于「{WG // 2}」）；
　「写数组」于「出」于（「全」乘（「新无三二」于「3」））于（「读共享数组」于「区」于（「新无三二」于「0」））；
　「写数组」于「出」于（「全」乘（「新无三二」于「3」）加（「新无三二」于「1」））于（「位转换」以「无三二」于「对面」）；
　「写数组」于「出」于（「全」乘（「新无三二」于「3」）加（「新无三二」于「2」））于
　　（「位转换」以「无三二」于（「读共享数组」于「反区」于（「新无三二」于「0」）））
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「{WG}」也】）也。
"""
kernel("共享", SHARED_SOURCE, {"入": SV, "出": np.zeros(3 * SHARED_N, np.uint32)}, SHARED_N // WG)

# ---------------------------------------------------------------- subgroups

SUB_N = 2 * WG
SUBV = R.integers(-1000, 1000, SUB_N, dtype=np.int64).astype(np.int32)
SUBV[5], SUBV[70] = INT_MIN, INT_MAX
SUB_SOURCE = HEAD + buffer("入", "「整三二」", 0, "只读") + buffer("出", "「四维整」", 1) + buffer("无出", "「四维无」", 2) \
    + buffer("浮出", "「二维浮」", 3) + buffer("大小", "「无三二」", 4) + f"""
「子调用」即「组类」【「全」乃「全局调用号」也，「道」乃「子组调用序」也，「宽」乃「子组大小」也】也。

「主」乃化「子调用」为「有」者也。
「主」者得「调」而
　令「i」为「调」中「全」中「零」而
　令「v」为「读数组」于「入」于「i」而
　令「u」为「位转换」以「无三二」于「v」而
　令「小」为「v」按位与（「新整三二」于「1023」）而
　令「fv」为「转换」以「浮三二」于「小」而
　令「道」为「调」中「道」而
　「写数组」于「出」于「i」于（「子组求和」于「小」与「子组最大」于「v」与「子组最小」于「v」与「子组广播」于「v」于（「新无三二」于「3」））；
　「写数组」于「无出」于「i」于（「子组最大」于「u」与「子组最小」于「u」与「子组洗牌」于「u」于（「道」异或（「新无三二」于「5」））
　　与「子组异或洗牌」于「u」于（「新无三二」于「2」））；
　「写数组」于「浮出」于「i」于（「子组求和」于「fv」与「子组最大」于「fv」）；
　若「i」等于（「新无三二」于「0」）则「写数组」于「大小」于（「新无三二」于「0」）于（「调」中「宽」）
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「{WG}」也】）也。
"""
kernel("子组", SUB_SOURCE, {"入": SUBV, "出": np.zeros((SUB_N, 4), np.int32), "无出": np.zeros((SUB_N, 4), np.uint32),
                            "浮出": np.zeros((SUB_N, 2), np.float32), "大小": np.zeros(1, np.uint32)}, SUB_N // WG)


# ---------------------------------------------------------------- abstract 整数 / 小数 constants (WGSL: 64-bit)

ABSTRACT_SOURCE = HEAD + buffer("出", "「无三二」", 0) + """
「大」者「4096」乘「4096」乘「4096」也。
「浮大」者「16777216.0」加「1.0」加「1.0」也。
「负七」者负「7」也。

「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「局大」为「65536」乘「65536」而
　「写数组」于「出」于（「新无三二」于「0」）于（「新无三二」于（「大」除「4096」））；
　「写数组」于「出」于（「新无三二」于「1」）于（「位转换」以「无三二」于（「新浮三二」于「浮大」））；
　「写数组」于「出」于（「新无三二」于「2」）于（「新无三二」于（「局大」除「65536」））；
　「写数组」于「出」于（「新无三二」于「3」）于（「位转换」以「无三二」于（「新整三二」于（「负七」除「2」）））；
　「写数组」于「出」于（「新无三二」于「4」）于（「位转换」以「无三二」于（「新整三二」于（「负七」余「2」）））；
　「写数组」于「出」于（「新无三二」于「5」）于（「位转换」以「无三二」于（「新浮三二」于（（负「7.5」）余「2.0」）））；
　「写数组」于「出」于（「新无三二」于「6」）于（「位转换」以「无三二」于（「新整三二」于（「负七」右移（「新无三二」于「1」））））
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「1」也】）也。
"""
kernel("抽象", ABSTRACT_SOURCE, {"出": np.zeros(7, np.uint32)}, 1)


# ---------------------------------------------------------------- integer vectors, clamp with low > high

IVA = pad(_ip[:, 0], 4 * WG, lambda k: R.integers(INT_MIN, INT_MAX, k, dtype=np.int64))[:4 * WG].astype(np.int32)
IVB = R.integers(-40, 40, 4 * WG, dtype=np.int64).astype(np.int32)
IVB[IVB == 0] = -9
IVB[IVA == INT_MIN] = 3
IVA, IVB = IVA.reshape(WG, 4), IVB.reshape(WG, 4)
IV_EXPRS = {
    "除": "「x」除「y」",
    "余": "「x」余「y」",
    "右移": "「x」右移（「位转换」以「四维无」于「y」按位与「掩」）",
    "左移": "「x」左移（「位转换」以「四维无」于「y」按位与「掩」）",
    "绝对值": "「绝对值」于「x」",
    "符号": "「符号」于「x」",
    "最大": "「最大」于「x」于「y」",
    "夹紧反": "「夹紧」于「x」于「y」于（「y」减「伍向」）",
    "标量夹紧反": "「夹紧」于（「x」中「零」）于（「y」中「零」）于（「y」中「零」减（「新整三二」于「5」））"
                "与「夹紧」于（「x」中「一」）于（「新整三二」于「10」）于（「新整三二」于「3」）"
                "与「新整三二」于「0」与「新整三二」于「0」",
    "一位计数位反转": "「一位计数」于「x」加「位反转」于「y」",
    "选择": "「选择」于「x」于「y」于（「x」小于「y」）",
    "负按位非": "负「x」异或（「按位非」于「y」）",
    "取元素": "「取元素」于「x」于「k」与「取元素」于「y」于（「叁」异或「k」）与「x」中「三」与「y」中「零」",
}
IV_LETS = ["「k」为「i」按位与（「新无三二」于「3」）",
           "「掩」为「新无三二」于「31」与「新无三二」于「31」与「新无三二」于「31」与「新无三二」于「31」",
           "「伍向」为「新整三二」于「5」与「新整三二」于「5」与「新整三二」于「5」与「新整三二」于「5」",
           "「叁」为「新无三二」于「3」"]
kernel("整向", elementwise([("甲", "「四维整」"), ("乙", "「四维整」")], "「四维整」", IV_LETS, list(IV_EXPRS.values())),
       {"甲": IVA, "乙": IVB, "出": np.zeros((WG * len(IV_EXPRS), 4), np.int32)}, 1)


def iv_reference(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    k = np.arange(len(a)) & 3
    r = np.arange(len(a))
    trunc_div = lambda x, y: np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))  # noqa: E731
    bitrev = np.vectorize(lambda v: bits_reverse(int(v)))
    if name == "除":
        return trunc_div(a64, b64)
    if name == "余":
        return a64 - b64 * trunc_div(a64, b64)
    if name == "右移":
        return a64 >> (b64 & 31)
    if name == "左移":
        return wrap32(a64 << (b64 & 31))
    if name == "绝对值":
        return wrap32(np.abs(a64))
    if name == "符号":
        return np.sign(a64)
    if name == "最大":
        return np.maximum(a64, b64)
    if name == "夹紧反":
        return np.minimum(np.maximum(a64, b64), b64 - 5)      # WGSL integer clamp: min(max(e, low), high)
    if name == "标量夹紧反":
        z = np.zeros(len(a), np.int64)
        return np.stack([np.minimum(np.maximum(a64[:, 0], b64[:, 0]), b64[:, 0] - 5),
                         np.minimum(np.maximum(a64[:, 1], 10), 3), z, z], 1)
    if name == "一位计数位反转":
        pop = np.vectorize(lambda v: bin(int(v) & 0xFFFFFFFF).count("1"))
        return wrap32(pop(a64) + bitrev(b64))
    if name == "选择":
        return np.where(a64 < b64, b64, a64)
    if name == "负按位非":
        return wrap32(wrap32(-a64) ^ ~b64)
    if name == "取元素":
        return np.stack([a64[r, k], b64[r, 3 ^ k], a64[:, 3], b64[:, 0]], 1)
    raise KeyError(name)


# ---------------------------------------------------------------- atomics' return values, one invocation

ATOMIC_ORDER_SOURCE = HEAD + buffer("原", "（「原子」于「整三二」）", 0) + buffer("出", "「整三二」", 1) + """
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「首」为「新无三二」于「0」而
　「原子存」于「原」于「首」于（「新整三二」于「5」）；
　「写数组」于「出」于（「新无三二」于「0」）于（「原子最大」于「原」于「首」于（「新整三二」于「10」））；
　「写数组」于「出」于（「新无三二」于「1」）于（「原子最大」于「原」于「首」于（「新整三二」于「3」））；
　「写数组」于「出」于（「新无三二」于「2」）于（「原子最小」于「原」于「首」于（「新整三二」于（负「4」）））；
　「写数组」于「出」于（「新无三二」于「3」）于（「原子读」于「原」于「首」）；
　「写数组」于「出」于（「新无三二」于「4」）于（「原子加」于「原」于「首」于（「新整三二」于「7」））；
　「写数组」于「出」于（「新无三二」于「5」）于（「原子加」于「原」于「首」于（「新整三二」于（负「2147483647」）））；
　「写数组」于「出」于（「新无三二」于「6」）于（「原子加」于「原」于「首」于（「新整三二」于（负「2147483647」）））；
　「写数组」于「出」于（「新无三二」于「7」）于（「原子读」于「原」于「首」）
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「1」也】）也。
"""
kernel("原子序", ATOMIC_ORDER_SOURCE, {"原": np.zeros(1, np.int32), "出": np.zeros(8, np.int32)}, 1)


# ---------------------------------------------------------------- 浮十六 arithmetic and a struct with a 三维浮

H_EDGE = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 1.5, 65504.0, -65504.0, 6.1035156e-05, 0.33325195, 1000.0, -7.25,
          2049.0, 0.099975586, 300.0, -300.0]
HX = pad(H_EDGE, WG, lambda k: R.uniform(-100, 100, k).astype(np.float16).astype(np.float32)).astype(np.float32)
H_EXPRS = {
    "往返": "「转换」以「浮三二」于「h」",
    "加": "「转换」以「浮三二」于（「h」加「h」乘（「新浮十六」于「0.5」））",
    "乘": "「转换」以「浮三二」于（「h」乘（「新浮十六」于「0.125」）乘「h」）",
    "除": "「转换」以「浮三二」于（「h」除（「新浮十六」于「3.0」））",
    "余": "「转换」以「浮三二」于（「h」余（「新浮十六」于（负「0.75」）））",
    "四舍五入": "「转换」以「浮三二」于（「四舍五入」于「h」）",
    "转整": "「转换」以「浮三二」于（「转换」以「整三二」于「h」）",
    "平滑阶跃": "「转换」以「浮三二」于（「平滑阶跃」于（「新浮十六」于（负「2.0」））于（「新浮十六」于「3.0」）于「h」）",
}
kernel("半", elementwise([("入", "「浮三二」")], "「浮三二」", ["「h」为「新浮十六」于「x」"], list(H_EXPRS.values())),
       {"入": HX, "出": np.zeros(len(HX) * len(H_EXPRS), np.float32)}, len(HX) // WG)


def h_reference(name: str, x: np.ndarray):
    """Expected (f16 arithmetic, each operation rounded to f16), tolerance in units of f16 ulp."""
    h = x.astype(np.float16)
    with np.errstate(over="ignore"):
        if name == "往返":
            return h.astype(np.float64), 0
        if name == "加":
            return (h + h * np.float16(0.5)).astype(np.float64), 0
        if name == "乘":
            return (h * np.float16(0.125) * h).astype(np.float64), 0
        if name == "除":
            return h.astype(np.float64) / 3, 2.5
        if name == "余":
            # h − y·trunc(h/y) in f16 is fmod while the quotient is exact in f16 (|h/y| < 2¹⁰)
            return np.where(np.abs(h) < 700, np.fmod(h.astype(np.float64), -0.75), np.nan), 0
        if name == "四舍五入":
            return np.rint(h).astype(np.float64), 0
        if name == "转整":
            return np.trunc(h.astype(np.float64)), 0
        if name == "平滑阶跃":
            t = np.clip((h.astype(np.float64) + 2) / 5, 0, 1)
            return t * t * (3 - 2 * t), 4
    raise KeyError(name)


POINT_SOURCE = HEAD + """「点」即「组类」【「位」乃「三维浮」也，「重」乃「浮三二」也】也。
""" + buffer("入", "「点」", 0, "只读") + buffer("出", "「四维浮」", 1) + """
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「i」为「号」中「零」而
　若「i」小于（「数组长度」于「入」）则（
　　令「p」为「读数组」于「入」于「i」而
　　令「w」为「p」中「重」而
　　令「v」为（「p」中「位」）乘（「w」与「w」与「w」）而
　　「写数组」于「出」于「i」于（「v」中「零」与「v」中「一」与「v」中「二」与「w」）
　）
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「64」也】）也。
"""
POINTS = R.integers(-50, 50, (WG, 4)).astype(np.float32)      # WGSL layout: 位 at 0, 重 at 12, stride 16
kernel("点", POINT_SOURCE, {"入": POINTS, "出": np.zeros((WG, 4), np.float32)}, 1)


# ================================================================ running

@functools.lru_cache(maxsize=None)
def workspace() -> tuple[Workspace, Path]:
    root = Path(tempfile.mkdtemp(prefix="qa_numerics_"))
    for name, k in KERNELS.items():
        (root / f"{name}。着色器。豫").write_text(k["source"], encoding="utf-8")
    return Workspace(root), root


def path_of(name: str) -> Path:
    return workspace()[1] / f"{name}。着色器。豫"


def run_wgsl(name: str) -> dict:
    k = KERNELS[name]
    return run_entry(workspace()[0], path_of(name), k["entry"], k["data"], k["groups"])


@functools.lru_cache(maxsize=None)
def msl_runner() -> tuple[Runner, dict]:
    if CLANG is None:
        pytest.skip("没有 clang++")
    ws = workspace()[0]
    prepared, kernels = {}, []
    for name, k in KERNELS.items():
        if name in NOT_ON_MSL:
            continue
        prepared[name] = prepare(ws, path_of(name), k["entry"], k["data"], k["groups"])
        kernels.append(Kernel(name, prepared[name].msl, prepared[name].entry))
    return Runner(kernels, Path(tempfile.mkdtemp(prefix="qa_numerics_msl_"))), prepared


def run_msl(name: str) -> dict:
    runner, prepared = msl_runner()
    p = prepared[name]
    return results(p, runner.dispatch(name, p.groups, p.buffers))


def run_ptx(name: str) -> dict:
    k = KERNELS[name]
    ws, path = workspace()[0], path_of(name)
    result = translate(ws, path, "ptx")
    assert result.text is not None, [d.message for d in result.diagnostics]
    info = next(e for e in result.entries if e.item == k["entry"])
    used = {p.resource: (p.group, p.binding) for p in info.params if p.kind == "buffer" and p.resource}
    data = k["data"]
    assert sorted(used) == sorted(data)
    checked = ws.check(path)
    modules = [ws.check(p).module for p in checked.module.imports] + [checked.module]
    resources = {d.name: d for m in modules for d in m.decls if isinstance(d, ir.Resource)}
    out = emulated(result.text, info, {key: upload(data[n], resources[n]) for n, key in used.items()},
                   grid(k["groups"]))
    return {n: np.frombuffer(out[key][:data[n].nbytes], dtype=data[n].dtype).reshape(data[n].shape)
            for n, key in used.items() if resources[n].kind == "storage" and resources[n].access != "只读"}


RUNNERS = {"wgsl": run_wgsl, "msl": run_msl, "ptx": run_ptx}


@functools.lru_cache(maxsize=None)
def outputs(name: str, target: str) -> dict:
    return RUNNERS[target](name)


def column(name: str, target: str, k: int, n: int, buffer: str = "出") -> np.ndarray:
    return outputs(name, target)[buffer][k * n:(k + 1) * n]


# ================================================================ translation checks


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_checks_clean(name):
    ws = workspace()[0]
    assert [d.format(ws.source(d.path)) for d in ws.diagnostics(path_of(name))] == []


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_wgsl_validates(name):
    result = translate(workspace()[0], path_of(name), "wgsl")
    assert result.text is not None, [d.message for d in result.diagnostics]
    validate(result.text)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_ptx_assembles(name, tmp_path):
    result = translate(workspace()[0], path_of(name), "ptx")
    assert result.text is not None, [d.message for d in result.diagnostics]
    if PTXAS is None:
        pytest.skip("没有 ptxas")
    (tmp_path / "k.ptx").write_text(result.text, encoding="ascii")
    done = subprocess.run([PTXAS, "-arch=sm_80", "--warning-as-error", str(tmp_path / "k.ptx"), "-o",
                           str(tmp_path / "k.cubin")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


# ================================================================ numeric checks

KNOWN: dict[tuple[str, str], str] = {}      # (check id, target) → BUG reason (none open)


def cases(prefix: str, names) -> list:
    out = []
    for name in names:
        for target in TARGETS:
            reason = KNOWN.get((f"{prefix}:{name}", target))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            out.append(pytest.param(name, target, marks=marks, id=f"{prefix}:{name}-{target}"))
    return out


def assert_close(got, expected, tolerance, labels, what: str):
    """|got − expected| ≤ tolerance (0: equal as f32), NaN expected = not compared."""
    got = np.asarray(got, np.float64)
    expected = np.asarray(expected, np.float64)
    tolerance = np.broadcast_to(np.asarray(tolerance, np.float64), expected.shape)
    compare = ~np.isnan(expected)
    exact = compare & (tolerance == 0)
    bad = exact & (got.astype(np.float32) != expected.astype(np.float32))
    bad |= compare & ~exact & ~(np.abs(got - expected) <= tolerance)
    if bad.any():
        rows = np.argwhere(bad)[:8]
        lines = [f"  {labels[r[0]] if len(r) else ''}: got {got[tuple(r)]!r}, expected {expected[tuple(r)]!r}"
                 for r in rows]
        pytest.fail(f"{what}: {int(bad.sum())} wrong\n" + "\n".join(lines))


@pytest.mark.parametrize("name, target", cases("浮一", F1_EXPRS))
def test_f32_unary(name, target):
    k = list(F1_EXPRS).index(name)
    got = column("浮一", target, k, len(F1))
    expected, tol = f1_reference(name, F1)
    assert_close(got, expected, tol, [f"x={v!r}" for v in F1], name)


@pytest.mark.parametrize("name, target", cases("浮二", F2_EXPRS))
def test_f32_binary(name, target):
    k = list(F2_EXPRS).index(name)
    got = column("浮二", target, k, len(F2A))
    expected, tol = f2_reference(name, F2A, F2B)
    assert_close(got, expected, tol, [f"(x, y)=({a!r}, {b!r})" for a, b in zip(F2A, F2B)], name)


def assert_ints(got, expected, skip, labels, what):
    got = np.asarray(got).astype(np.int64)
    expected = np.asarray(expected).astype(np.int64)
    bad = (got != expected) & ~skip
    if bad.any():
        lines = [f"  {labels[r]}: got {got[r]}, expected {expected[r]}" for r in np.flatnonzero(bad)[:8]]
        pytest.fail(f"{what}: {int(bad.sum())} wrong\n" + "\n".join(lines))


@pytest.mark.parametrize("name, target", cases("整", I_EXPRS))
def test_i32(name, target):
    k = list(I_EXPRS).index(name)
    got = column("整", target, k, len(IA))
    expected, msl_undefined = i_reference(name, IA, IB)
    skip = msl_undefined if target == "msl" else np.zeros(len(IA), bool)
    assert_ints(got, wrap32(expected), skip, [f"(x, y)=({a}, {b})" for a, b in zip(IA, IB)], name)


@pytest.mark.parametrize("name, target", cases("无", U_EXPRS))
def test_u32(name, target):
    k = list(U_EXPRS).index(name)
    got = column("无", target, k, len(UA))
    expected, msl_undefined = u_reference(name, UA, UB)
    skip = msl_undefined if target == "msl" else np.zeros(len(UA), bool)
    assert_ints(got, expected, skip, [f"(x, y)=({a}, {b})" for a, b in zip(UA, UB)], name)


@pytest.mark.parametrize("target", ["wgsl", "ptx"])
@pytest.mark.parametrize("kind", ["整", "无"])
def test_division_by_zero_and_overflow(kind, target):
    """WGSL (and LANGUAGE.md §5 "arithmetic follows WGSL"): x / 0 = x, x % 0 = 0, INT_MIN / −1 = INT_MIN,
    INT_MIN % −1 = 0; docs/后端.md promises the same for PTX."""
    a, b = (ZIA, ZIB) if kind == "整" else (ZUA, ZUB)
    reference = i_reference if kind == "整" else u_reference
    labels = [f"(x, y)=({x}, {y})" for x, y in zip(a, b)]
    for k, op in enumerate(["除", "余"]):
        got = column(kind + "除零", target, k, WG)
        expected, _ = reference(op, a, b)
        assert_ints(got, wrap32(expected) if kind == "整" else expected, np.zeros(WG, bool), labels, op)


@pytest.mark.parametrize("target", ["wgsl", "ptx"])
def test_vector_division_by_zero(target):
    got = outputs("整向除零", target)["出"].reshape(2, -1)
    for k, op in enumerate(["除", "余"]):
        expected, _ = i_reference(op, ZIA, ZIB)
        labels = [f"(x, y)=({x}, {y})" for x, y in zip(ZIA, ZIB)]
        assert_ints(got[k], wrap32(expected), np.zeros(WG, bool), labels, "四维整 " + op)


@pytest.mark.parametrize("name, target", cases("转", C_EXPRS))
def test_conversions(name, target):
    k = list(C_EXPRS).index(name)
    got = column("转", target, k, len(CX)).astype(np.int64)
    labels = [f"x={v!r} (0x{int(b):08x})" for v, b in zip(CX, CX.view(np.uint32))]
    if name in ("半精度往返", "半精度往返高"):
        expected, ok = half_unpacked(CX, name.endswith("高"))
        assert_ints(got, expected, ~ok, labels, name)
    elif name == "半精度打包":
        # f32 → f16 may round to either neighbour (WGSL conversion rules): accept both
        expected = c_reference(name, CX).astype(np.int64)
        low = got & 0xFFFF
        want = expected & 0xFFFF
        near = np.abs(low.astype(np.float64) - want) <= 1
        near &= (np.sign(np.float16(0) + low.astype(np.uint16).view(np.float16)) ==
                 np.sign(want.astype(np.uint16).view(np.float16))) | (want & 0x7FFF == 0)
        assert_ints(np.where(near, expected, got), expected, np.zeros(len(CX), bool), labels, name + "（低半字）")
        assert_ints(got >> 16, expected >> 16, np.zeros(len(CX), bool), labels, name + "（高半字）")
    else:
        assert_ints(got, c_reference(name, CX), np.zeros(len(CX), bool), labels, name)


@pytest.mark.parametrize("name, target", cases("向", V_EXPRS))
def test_vectors_and_matrices(name, target):
    k = list(V_EXPRS).index(name)
    got = column("向", target, k, WG)
    expected = v_reference(name, VA, VB)
    rtol = V_TOLERANCE.get(name, 0)
    scale = np.maximum(np.abs(expected), 1) if name not in ("归一化",) else 1
    labels = [f"x={list(a)}, y={list(b)}" for a, b in zip(VA, VB)]
    if name in ("长度距离", "点积四", "点积三", "归一化", "行列式"):
        # the overflowing row (1e18 components: x·x overflows f32 in a naive length) is checked separately
        expected = expected.copy()
        expected[5] = np.nan
    assert_close(got, expected, rtol * scale, labels, name)


def test_length_of_a_large_vector_does_not_overflow():
    """Not a WGSL requirement (length is inherited from sqrt(dot(e, e)), and e·e overflows f32 here); all
    three targets are only asked to agree with each other on it."""
    got = [column("向", t, list(V_EXPRS).index("长度距离"), WG)[5] for t in TARGETS]
    finite = [np.isfinite(g[0]) for g in got]
    assert finite == [finite[0]] * 3, dict(zip(TARGETS, [g[0] for g in got]))


ATOMIC_CHECKS = ["原子加旧值", "原子加和", "原子最大最小整", "原子最大最小无", "原子存读"]


@pytest.mark.parametrize("name, target", cases("原子", ATOMIC_CHECKS))
def test_atomics(name, target):
    out = outputs("原子", target)
    n = ATOMIC_N
    if name == "原子加旧值":
        # the values 原子加 returns are the old values: with n contending adds of 1, a permutation of 0…n−1
        np.testing.assert_array_equal(np.sort(out["旧"][:n]), np.arange(n, dtype=np.uint32))
    elif name == "原子加和":
        assert int(out["计"][0]) == n
        assert int(out["计"][1]) == int(AV.view(np.uint32).astype(np.uint64).sum() & 0xFFFFFFFF)
    elif name == "原子最大最小整":
        assert out["极"].tolist() == [INT_MAX, INT_MIN, 1000 - 3 * n]
    elif name == "原子最大最小无":
        assert out["无极"].tolist() == [int(AV.view(np.uint32).max()), int(AV.view(np.uint32).min())]
    elif name == "原子存读":
        i = np.arange(n, dtype=np.uint64)
        np.testing.assert_array_equal(out["旧"][n:], ((i * i) & 0xFFFFFFFF).astype(np.uint32))
        np.testing.assert_array_equal(out["存"], ((i * i) & 0xFFFFFFFF).astype(np.uint32))


@pytest.mark.parametrize("target", TARGETS)
def test_workgroup_reduction(target):
    out = outputs("共享", target)["出"].reshape(-1, 3)
    blocks = SV.reshape(-1, WG)
    sums = (blocks.astype(np.uint64).sum(1) & 0xFFFFFFFF).astype(np.uint32)
    signed = SV.view(np.int32).reshape(-1, WG)
    opposite = signed[:, ::-1].ravel()
    np.testing.assert_array_equal(out[:, 0], np.repeat(sums, WG))
    np.testing.assert_array_equal(out[:, 1].view(np.int32), opposite)
    mins = np.minimum(signed, signed[:, ::-1]).min(1)
    np.testing.assert_array_equal(out[:, 2].view(np.int32), np.repeat(mins, WG))


SUBGROUP_CHECKS = ["求和", "最大最小广播", "无符号最大最小洗牌", "浮点求和最大"]


@pytest.mark.parametrize("name, target", cases("子组", SUBGROUP_CHECKS))
def test_subgroups(name, target):
    out = outputs("子组", target)
    size = int(out["大小"][0])
    assert size in (4, 8, 16, 32, 64), size
    n = SUB_N
    v = SUBV.astype(np.int64)
    small = v & 1023
    groups = np.arange(n) // size * size
    lane = np.arange(n) % size
    seg = lambda a, fn: np.repeat(fn(a.reshape(-1, size), axis=1), size)  # noqa: E731
    u = SUBV.view(np.uint32).astype(np.int64)
    if name == "求和":
        np.testing.assert_array_equal(out["出"][:, 0], seg(small, np.sum))
    elif name == "最大最小广播":
        np.testing.assert_array_equal(out["出"][:, 1:], np.stack([seg(v, np.max), seg(v, np.min), v[groups + 3]], 1))
    elif name == "无符号最大最小洗牌":
        expected = np.stack([seg(u, np.max), seg(u, np.min), u[groups + (lane ^ 5)], u[groups + (lane ^ 2)]], 1)
        np.testing.assert_array_equal(out["无出"].astype(np.int64), expected)
    elif name == "浮点求和最大":
        np.testing.assert_array_equal(out["浮出"], np.stack([seg(small, np.sum), seg(small, np.max)], 1))


@pytest.mark.parametrize("target", TARGETS)
def test_subgroup_size_is_documented(target):
    """The size each target reports (docs: the MSL shim and the PTX emulator use 32-lane groups)."""
    size = int(outputs("子组", target)["大小"][0])
    if target in ("msl", "ptx"):
        assert size == 32
    else:
        assert size in (4, 8, 16, 32, 64)


ABSTRACT_CHECKS = {
    # (index, expected, what)
    "整数六十四位": (0, 2 ** 24, "4096³ ÷ 4096 of 整数 (WGSL abstract int: 64-bit, no overflow)"),
    "小数六十四位": (1, int(np.float32(16777218.0).view(np.uint32)), "16777216.0 + 1.0 + 1.0 of 小数 (abstract float: f64)"),
    "局部整数六十四位": (2, 65536, "65536 × 65536 ÷ 65536 of a let-bound 整数 (WGSL const)"),
    "整数除截断": (3, (-3) & 0xFFFFFFFF, "−7 ÷ 2 truncates"),
    "整数余截断": (4, (-1) & 0xFFFFFFFF, "−7 余 2 truncates"),
    "小数余": (5, int(np.float32(-1.5).view(np.uint32)), "−7.5 余 2.0 = −1.5"),
    "整数算术右移": (6, (-4) & 0xFFFFFFFF, "−7 右移 1 = −4"),
}


@pytest.mark.parametrize("name, target", cases("抽象", ABSTRACT_CHECKS))
def test_abstract_constants(name, target):
    index, expected, what = ABSTRACT_CHECKS[name]
    got = int(outputs("抽象", target)["出"][index])
    assert got == expected, f"{what}: got {got:#x}, expected {expected:#x}"


@pytest.mark.parametrize("name, target", cases("整向", IV_EXPRS))
def test_integer_vectors(name, target):
    k = list(IV_EXPRS).index(name)
    got = column("整向", target, k, WG).astype(np.int64)
    expected = wrap32(iv_reference(name, IVA, IVB))
    bad = np.any(got != expected, axis=1)
    if bad.any():
        r = np.flatnonzero(bad)[:6]
        pytest.fail(f"{name}: {int(bad.sum())} wrong rows\n" + "\n".join(
            f"  x={IVA[i].tolist()}, y={IVB[i].tolist()}: got {got[i].tolist()}, expected {expected[i].tolist()}"
            for i in r))


@pytest.mark.parametrize("target", TARGETS)
def test_atomic_return_values(target):
    """Each atomic returns the value before it: 存 5; 最大 10 → 5; 最大 3 → 10; 最小 −4 → 10; 读 → −4;
    加 7 → −4; 加 −(2³¹−1) → 3; 加 −(2³¹−1) → 3 − (2³¹−1) (wraps next); 读 → wrapped."""
    after = wrap32([3 - (2 ** 31 - 1) - (2 ** 31 - 1)])[0]
    expected = [5, 10, 10, -4, -4, 3, 3 - (2 ** 31 - 1), after]
    assert outputs("原子序", target)["出"].tolist() == expected


@pytest.mark.parametrize("name, target", cases("半", H_EXPRS))
def test_f16(name, target):
    k = list(H_EXPRS).index(name)
    got = column("半", target, k, len(HX))
    expected, ulps = h_reference(name, HX)
    tol = np.zeros_like(expected) if not ulps else \
        ulps * np.spacing(np.abs(expected).astype(np.float16)).astype(np.float64)
    expected = np.where(np.abs(expected) <= 65504, expected, np.nan)
    assert_close(got, expected, np.where(tol == 0, 0, tol), [f"x={v!r}" for v in HX], name)


@pytest.mark.parametrize("target", TARGETS)
def test_struct_with_a_vec3_uses_the_wgsl_layout(target):
    got = outputs("点", target)["出"]
    p = POINTS.astype(np.float64)
    np.testing.assert_array_equal(got, np.concatenate([p[:, :3] * p[:, 3:], p[:, 3:]], 1))
