"""WGSL's exact semantics of the pure builtins, over NumPy arrays of lanes.

One table keyed by the builtin's Chinese name, like every back end's.  A value
is a NumPy array (one element per invocation) or a NumPy scalar (the same for
every invocation); vectors and matrices are tuples of those, applied
component by component (`lift`).  Integers wrap (NumPy's fixed-width
arithmetic under `errstate(all="ignore")`); division and remainder, shifts,
float→integer conversion follow WGSL (docs/内建.md says which).  Integer
division by zero is not computed here: the machine reports it as a fault first.
"""

from __future__ import annotations

import numpy as np

from ..builtin.families import FREXP_FIELDS, MODF_FIELDS
from ..valid import registry


def lift(f):
    """f applied component by component when any argument is a tuple (a vector or matrix)."""
    def lifted(*args):
        if any(isinstance(a, tuple) for a in args):
            n = next(len(a) for a in args if isinstance(a, tuple))
            return tuple(lifted(*(a[k] if isinstance(a, tuple) else a for a in args)) for k in range(n))
        return f(*args)
    return lifted


def is_int(x) -> bool:
    return np.asarray(x).dtype.kind in "iu"


def _scalar_if(x, *args):
    """x as a NumPy scalar when every argument was one (uniform values stay uniform)."""
    return x if any(isinstance(a, np.ndarray) for a in args) else x[()]


def _integer_quotient(a, b):
    """(quotient, remainder) in int64, truncating; by zero: (a, 0) as WGSL says."""
    wa, wb = np.asarray(a).astype(np.int64), np.asarray(b).astype(np.int64)
    safe = np.where(wb == 0, 1, wb)
    q = np.abs(wa) // np.abs(safe) * np.sign(wa) * np.sign(safe)
    return np.where(wb == 0, wa, q), np.where(wb == 0, 0, wa - safe * q)


def _wrapped(x, dtype):
    return (x & 0xFFFFFFFF).astype(np.uint32).view(dtype) if dtype.kind == "i" else x.astype(dtype)


def _divide(a, b):
    if not is_int(a):
        return a / b
    dtype = np.asarray(a).dtype
    return _scalar_if(_wrapped(_integer_quotient(a, b)[0], dtype), a, b)


def _remainder(a, b):
    if not is_int(a):
        return np.fmod(a, b)
    dtype = np.asarray(a).dtype
    return _scalar_if(_wrapped(_integer_quotient(a, b)[1], dtype), a, b)


def _shift_left(a, b):
    amount = (b & np.uint32(31)).astype(np.uint32)
    if np.asarray(a).dtype.kind == "i":
        return (np.asarray(a).view(np.uint32) << amount).view(np.int32)
    return a << amount


def _shift_right(a, b):
    return a >> (b & np.uint32(31)).astype(np.asarray(a).dtype)


def _reverse_bits(x):
    u = np.asarray(x).view(np.uint32).astype(np.uint32)
    for shift, mask in ((1, 0x55555555), (2, 0x33333333), (4, 0x0F0F0F0F), (8, 0x00FF00FF)):
        s, m = np.uint32(shift), np.uint32(mask)
        u = ((u >> s) & m) | ((u & m) << s)
    u = (u >> np.uint32(16)) | (u << np.uint32(16))
    return u.view(np.asarray(x).dtype) if isinstance(x, np.ndarray) else u.view(np.asarray(x).dtype)[()]


def _count_ones(x):
    a = np.asarray(x)
    return _scalar_if(np.bitwise_count(a.view(np.uint32) if a.dtype.kind == "i" else a).astype(a.dtype), x)


def _bits_of(x):
    """(the 32 bits of an integer as uint32, a function giving a uint32 result x's type back)."""
    a = np.asarray(x)
    return a.view(np.uint32), lambda u: _scalar_if(np.asarray(u, np.uint32).view(a.dtype), x)


def _leading_zeros_of(u):
    """countLeadingZeros of uint32 lanes: 32 − the bit length (0 has 32)."""
    return np.uint32(32) - np.asarray(np.frexp(u.astype(np.float64))[1], np.uint32)


def _count_leading_zeros(x):
    u, back = _bits_of(x)
    return back(_leading_zeros_of(u))


def _count_trailing_zeros(x):
    """The zeros below the lowest 1 bit: the bit length of (u & −u) − 1; 0 has 32."""
    u, back = _bits_of(x)
    lowest = u & (np.uint32(0) - u)
    return back(np.where(u == 0, np.uint32(32), np.uint32(31) - _leading_zeros_of(lowest)))


def _first_leading_bit(x):
    """The highest bit set, or for i32 the highest bit that differs from the sign
    bit (a negative value's complement); none: all ones (−1)."""
    u, back = _bits_of(x)
    if np.asarray(x).dtype.kind == "i":
        u = np.where(np.asarray(x) < 0, ~u, u)
    return back(np.uint32(31) - _leading_zeros_of(u))       # 31 − 32 wraps to all ones


def _first_trailing_bit(x):
    u, back = _bits_of(x)
    zeros = _count_trailing_zeros(u)
    return back(np.where(u == 0, np.uint32(0xFFFFFFFF), zeros))


def _bit_range(offset, count):
    """WGSL's o = min(offset, 32), c = min(count, 32 − o), and the mask of c low bits."""
    o = np.minimum(np.asarray(offset, np.uint32), np.uint32(32)).astype(np.uint64)
    c = np.minimum(np.asarray(count, np.uint32).astype(np.uint64), np.uint64(32) - o)
    return o, c, ((np.uint64(1) << c) - np.uint64(1))


def _extract_bits(x, offset, count):
    """extractBits: c bits from bit o down to bit 0; i32 sign-extends bit c − 1 (c = 0 gives 0)."""
    u, back = _bits_of(x)
    o, c, mask = _bit_range(offset, count)
    field = (u.astype(np.uint64) >> o) & mask
    if np.asarray(x).dtype.kind == "i":
        sign = np.where(c > 0, (field >> np.maximum(c, np.uint64(1)) - np.uint64(1)) & np.uint64(1), 0)
        field = np.where(sign == 1, field | (np.uint64(0xFFFFFFFF) & ~mask), field)
    return back(field.astype(np.uint32))


def _insert_bits(x, new, offset, count):
    """insertBits: bits o … o + c − 1 of x replaced by the c low bits of new."""
    u, back = _bits_of(x)
    n, _ = _bits_of(new)
    o, c, mask = _bit_range(offset, count)
    placed = (mask << o) & np.uint64(0xFFFFFFFF)
    out = (u.astype(np.uint64) & ~placed) | ((n.astype(np.uint64) << o) & placed)
    return _scalar_if(np.asarray(out, np.uint64).astype(np.uint32).view(np.asarray(x).dtype), x, new, offset, count)


def reflect(e, n):
    """e − 2 · dot(n, e) · n."""
    d = dot(n, e)
    two = np.asarray(2, np.asarray(d).dtype)
    return tuple(a - two * d * b for a, b in zip(e, n))


def refract(e, n, eta):
    """k = 1 − η²(1 − dot(n, e)²); k < 0 gives the zero vector, else η·e − (η·dot(n, e) + √k)·n."""
    d = dot(n, e)
    one = np.asarray(1, np.asarray(d).dtype)
    k = one - eta * eta * (one - d * d)
    root = np.sqrt(np.maximum(k, 0))
    return tuple(_scalar_if(np.where(k < 0, np.zeros_like(k), eta * a - (eta * d + root) * b), a, b, eta, d)
                 for a, b in zip(e, n))


def face_forward(e1, e2, e3):
    """e1 where dot(e2, e3) < 0, else −e1."""
    flip = dot(e2, e3) < 0
    return tuple(_scalar_if(np.where(flip, a, -a), a, flip) for a in e1)


def _ldexp(x, k):
    dtype = np.asarray(x).dtype
    return _scalar_if(np.ldexp(np.asarray(x), np.asarray(k, np.int32)).astype(dtype), x, k)


def _modf(x):
    """WGSL's modf: whole ＝ trunc(x), fract ＝ x − whole."""
    a = np.asarray(x)
    whole = np.trunc(a)
    return _scalar_if(a - whole, x), _scalar_if(whole, x)


def _frexp(x):
    """WGSL's frexp: x ＝ fract · 2^exp with |fract| in [0.5, 1); 0 gives (0, 0)."""
    fraction, exponent = np.frexp(np.asarray(x))
    return _scalar_if(fraction, x), _scalar_if(exponent.astype(np.int32), x)


def split(fn, fields: tuple[str, str]):
    """A builtin whose result is a record of two fields, computed component by component for a vector."""
    def run(x):
        if isinstance(x, tuple):
            parts = [run(c) for c in x]
            return {f: tuple(p[f] for p in parts) for f in fields}
        return dict(zip(fields, fn(x)))
    return run


def _quantize_to_f16(x):
    """The nearest f16 (ties to even) as f32; beyond its range ±∞."""
    with np.errstate(over="ignore"):
        return _scalar_if(np.asarray(x, np.float32).astype(np.float16).astype(np.float32), x)


#: normalized packing: (lanes, bits per lane, scale, lowest value); WGSL's ⌊0.5 + scale · clamp(e)⌋
NORMALIZED = {"4x8unorm": (4, 8, 255, 0), "4x8snorm": (4, 8, 127, -1),
              "2x16unorm": (2, 16, 65535, 0), "2x16snorm": (2, 16, 32767, -1)}


def _pack_words(fields, bits: int):
    """Each field's low `bits` bits at bits·i of one u32 (the first lowest)."""
    mask = np.uint32((1 << bits) - 1)
    word = np.uint32(0)
    for i, f in enumerate(fields):
        word = word | ((np.asarray(f).astype(np.int64).astype(np.uint32) & mask) << np.uint32(bits * i))
    return _scalar_if(np.asarray(word, np.uint32), *fields)


def _fields(u, lanes: int, bits: int, signed: bool):
    """The `lanes` fields of `bits` bits of u32 word(s) u, sign-extended when signed (as int64)."""
    u = np.asarray(u, np.uint32).astype(np.int64)
    out = []
    for i in range(lanes):
        f = (u >> (bits * i)) & ((1 << bits) - 1)
        out.append(np.where(f >= 1 << (bits - 1), f - (1 << bits), f) if signed else f)
    return out


def pack_normalized(form: str):
    lanes, bits, scale, low = NORMALIZED[form]

    def pack(v):
        f32 = np.float32
        return _pack_words([np.floor(f32(0.5) + f32(scale) * np.minimum(f32(1), np.maximum(f32(low), c)))
                            for c in v], bits)
    return pack


def unpack_normalized(form: str):
    lanes, bits, scale, low = NORMALIZED[form]

    def unpack(u):
        return tuple(_scalar_if(np.maximum(f.astype(np.float32) / np.float32(scale), np.float32(low)), u)
                     for f in _fields(u, lanes, bits, low < 0))
    return unpack


def pack_bytes(low: int | None = None, high: int | None = None):
    """pack4xI8 / pack4xU8, clamped to [low, high] first for the Clamp forms."""
    def pack(v):
        return _pack_words([c if high is None else np.clip(np.asarray(c).astype(np.int64), low, high) for c in v], 8)
    return pack


def unpack_bytes(dtype):
    def unpack(u):
        return tuple(_scalar_if(f.astype(dtype), u) for f in _fields(u, 4, 8, dtype == np.int32))
    return unpack


def dot_bytes(dtype):
    """dot4U8Packed / dot4I8Packed: the sum of the four byte products (exact, then wrapped)."""
    def dot4(a, b):
        signed = dtype == np.int32
        total = sum(x * y for x, y in zip(_fields(a, 4, 8, signed), _fields(b, 4, 8, signed)))
        return _scalar_if(np.asarray(total).astype(np.int64).astype(np.uint32).view(dtype), a, b)
    return dot4


def _across(combine):
    """all / any: the components of a 爻 vector combined (a plain 爻 is itself)."""
    def reduce(v):
        if not isinstance(v, tuple):
            return v
        out = v[0]
        for c in v[1:]:
            out = combine(out, c)
        return out
    return reduce


all_of, any_of = _across(np.logical_and), _across(np.logical_or)


def _sign(x):
    return np.sign(x).astype(np.asarray(x).dtype)


def _clamp(x, lo, hi):
    return np.minimum(np.maximum(x, lo), hi)


def _smoothstep(lo, hi, x):
    t = _clamp((x - lo) / (hi - lo), np.asarray(0, np.asarray(x).dtype), np.asarray(1, np.asarray(x).dtype))
    return t * t * (np.asarray(3, t.dtype) - np.asarray(2, t.dtype) * t)


def _step(edge, x):
    return np.where(x < edge, 0, 1).astype(np.asarray(x).dtype)


def _fma(a, b, c):
    dtype = np.asarray(a).dtype
    return (np.float64(1) * a * b + c).astype(dtype)


def _mix(a, b, t):
    one = np.asarray(1, np.asarray(a).dtype)
    return a * (one - t) + b * t


def _fract(x):
    return x - np.floor(x)


def _inverse_sqrt(x):
    return np.asarray(1, np.asarray(x).dtype) / np.sqrt(x)


def _round(x):
    return np.rint(x)


def dot(a, b):
    total = a[0] * b[0]
    for x, y in zip(a[1:], b[1:]):
        total = total + x * y
    return total


def length(v):
    return np.sqrt(dot(v, v)) if isinstance(v, tuple) else np.abs(v)


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def normalize(v):
    n = length(v)
    return tuple(c / n for c in v)


def distance(a, b):
    return length(lift(np.subtract)(a, b))


def matrix_multiply(m, x):
    """Columns m; x a vector (→ vector) or a matrix (→ matrix)."""
    if isinstance(x[0], tuple):
        return tuple(matrix_multiply(m, column) for column in x)
    out = tuple(c * x[0] for c in m[0])
    for column, k in zip(m[1:], x[1:]):
        out = tuple(o + c * k for o, c in zip(out, column))
    return out


def transpose(m):
    return tuple(tuple(column[r] for column in m) for r in range(len(m[0])))


def determinant(m):
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[1][0] * m[0][1]
    if len(m) == 3:
        a, b, c = m
        return dot(a, cross(b, c))
    total = None
    for k in range(4):
        minor = tuple(tuple(c[r] for r in range(1, 4)) for j, c in enumerate(m) if j != k)
        term = m[k][0] * determinant(minor)
        total = term if total is None else (total - term if k % 2 else total + term)
    return total


def unpack_halves(u):
    u = np.asarray(u, np.uint32)
    low = (u & np.uint32(0xFFFF)).astype(np.uint16).view(np.float16).astype(np.float32)
    high = (u >> np.uint32(16)).astype(np.uint16).view(np.float16).astype(np.float32)
    return (low, high)


def pack_halves(v):
    low = np.asarray(v[0], np.float32).astype(np.float16).view(np.uint16).astype(np.uint32)
    high = np.asarray(v[1], np.float32).astype(np.float16).view(np.uint16).astype(np.uint32)
    return low | (high << np.uint32(16))


def convert(x, dtype: np.dtype):
    """WGSL's value conversion: float→integer truncates and clamps (NaN gives 0),
    i32↔u32 reinterpret the bits, integer→float and float→float round."""
    a = np.asarray(x)
    if dtype.kind in "iu" and a.dtype.kind == "f":
        lo, hi = (-2147483648.0, 2147483520.0) if dtype.kind == "i" else (0.0, 4294967040.0)
        wide = np.nan_to_num(np.trunc(a.astype(np.float64)), nan=0.0)
        out = np.clip(wide, lo, hi).astype(dtype)
    elif dtype.kind in "iu" and a.dtype.itemsize == dtype.itemsize:      # i32 ↔ u32: the same bits
        out = a.view(dtype)
    elif dtype.kind == "b":
        out = a != 0
    elif a.dtype.kind == "b":
        out = a.astype(dtype)
    else:
        out = a.astype(dtype)
    return out if isinstance(x, np.ndarray) else out[()]


def bitcast(x, dtype: np.dtype):
    """bitcast<T>: the same bits (per component; a pair of f16 makes one 32-bit word)."""
    a = np.asarray(x)
    out = a.view(dtype)
    return out if isinstance(x, np.ndarray) else out[()]


#: builtin name → function of the argument values (component by component where it says lift)
PURE = {
    "加": lift(np.add), "减": lift(np.subtract), "乘": lift(np.multiply),
    "除": lift(_divide), "余": lift(_remainder),
    "左移": lift(_shift_left), "右移": lift(_shift_right),
    "等于": lift(np.equal), "不等于": lift(np.not_equal), "小于": lift(np.less), "大于": lift(np.greater),
    "不大于": lift(np.less_equal), "不小于": lift(np.greater_equal),
    "按位与": lift(np.bitwise_and), "按位或": lift(np.bitwise_or), "异或": lift(np.bitwise_xor),
    "按位非": lift(np.invert), "非": lift(np.logical_not), "负": lift(np.negative),
    "绝对值": lift(np.abs), "最大": lift(np.maximum), "最小": lift(np.minimum), "夹紧": lift(_clamp),
    "混合": lift(_mix), "阶跃": lift(_step), "平滑阶跃": lift(_smoothstep),
    "平方根": lift(np.sqrt), "逆平方根": lift(_inverse_sqrt), "指数": lift(np.exp), "指数二": lift(np.exp2),
    "对数": lift(np.log), "对数二": lift(np.log2), "正弦": lift(np.sin), "余弦": lift(np.cos),
    "正切": lift(np.tan), "双曲正切": lift(np.tanh), "反正弦": lift(np.arcsin), "反余弦": lift(np.arccos),
    "反正切": lift(np.arctan), "反正切二": lift(np.arctan2), "幂": lift(np.power),
    "向下取整": lift(np.floor), "向上取整": lift(np.ceil), "四舍五入": lift(_round), "截断": lift(np.trunc),
    "小数部分": lift(_fract), "饱和": lift(lambda x: _clamp(x, np.asarray(0, np.asarray(x).dtype),
                                                        np.asarray(1, np.asarray(x).dtype))),
    "符号": lift(_sign), "融合乘加": lift(_fma),
    "一位计数": lift(_count_ones), "位反转": lift(_reverse_bits),
    "点积": dot, "叉积": cross, "长度": length, "距离": distance, "归一化": normalize,
    "半精度解包": unpack_halves, "半精度打包": pack_halves,
    "前导零计数": lift(_count_leading_zeros), "尾随零计数": lift(_count_trailing_zeros),
    "最高位序": lift(_first_leading_bit), "最低位序": lift(_first_trailing_bit),
    "取位段": lift(_extract_bits), "置位段": lift(_insert_bits),
    "反射": reflect, "折射": refract, "朝向翻转": face_forward,
    "乘二幂": lift(_ldexp), "量化半精度": lift(_quantize_to_f16),
    "整小分离": split(_modf, MODF_FIELDS), "尾阶分离": split(_frexp, FREXP_FIELDS),
    "四字节归一打包": pack_normalized("4x8unorm"), "四字节归一解包": unpack_normalized("4x8unorm"),
    "四字节符归一打包": pack_normalized("4x8snorm"), "四字节符归一解包": unpack_normalized("4x8snorm"),
    "双半字归一打包": pack_normalized("2x16unorm"), "双半字归一解包": unpack_normalized("2x16unorm"),
    "双半字符归一打包": pack_normalized("2x16snorm"), "双半字符归一解包": unpack_normalized("2x16snorm"),
    "四字节整打包": pack_bytes(), "四字节无打包": pack_bytes(),
    "四字节整夹紧打包": pack_bytes(-128, 127), "四字节无夹紧打包": pack_bytes(0, 255),
    "四字节整解包": unpack_bytes(np.int32), "四字节无解包": unpack_bytes(np.uint32),
    "四字节无点积": dot_bytes(np.uint32), "四字节整点积": dot_bytes(np.int32),
    "全都": all_of, "任一": any_of,
    "矩阵乘": matrix_multiply, "转置": transpose, "行列式": determinant,
}

#: the integer builtins whose right operand must not be zero
DIVISIONS = frozenset(registry.having("divides"))
