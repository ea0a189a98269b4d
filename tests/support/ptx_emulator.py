"""A small PTX emulator for the instructions the PTX back end writes, so the
translated kernels run and are checked against NumPy on machines without an
NVIDIA GPU (support/ptx_runner.py runs them here or on CUDA).

It reads the writer's PTX (one instruction per line), runs every thread of a
block as a generator and synchronises them at bar.sync (the whole block) and
at activemask, shfl.sync, vote.sync and redux.sync (the warp: 32 consecutive
threads; a warp instruction's membermask must name only lanes executing it).  f32 and f16
arithmetic is IEEE in NumPy; the .approx functions are computed exactly.
A global address is (buffer number + 1) · 2³² + offset, and an access outside
its buffer, or outside the shared variables, is an error — so a wrong address
fails loudly instead of reading garbage.  Its own tests are tests/test_ptx_emulator.py.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

WARP = 32
WARP_INSTRUCTIONS = ("activemask", "shfl", "vote", "redux", "ldmatrix", "mma")
SPECIAL = re.compile(r"%(tid|ntid|ctaid|nctaid)\.([xyz])$")
LINE = re.compile(r"^(?:@(!?)(%p\d+)\s+)?(\S+)\s*(.*?);$")


def fma32(a, b, c):
    """Correctly rounded f32 fma: the product is exact in f64; the sum is
    rounded to odd in f64 (53 ≥ 24 + 2 bits), then once more to f32."""
    a, b, c = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b, c))
    with np.errstate(all="ignore"):
        p = a * b
        s = p + c
        pb = s - p
        err = (p - (s - pb)) + (c - pb)
        inexact = (err != 0) & np.isfinite(s) & ((s.view(np.int64) & 1) == 0)
        s = np.where(inexact, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
        return s.astype(np.float32)


class EmulatorError(Exception):
    """A kernel did something the emulator (or a GPU) would not accept."""


@dataclass
class Instruction:
    guard: tuple[bool, str] | None   # (negated, predicate)
    op: str
    operands: list[str]
    parts: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.parts = self.op.split(".")


@dataclass
class Kernel:
    name: str
    params: list[tuple[str, str]]
    block: tuple[int, int, int]
    shared: dict[str, tuple[int, int]] = field(default_factory=dict)   # symbol → (align, bytes)
    constants: dict[str, str] = field(default_factory=dict)   # .const symbol → its initializer (module-wide)
    code: list[Instruction] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)


def _split_operands(text: str) -> list[str]:
    out, depth, current = [], 0, ""
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current.strip())
    return out


def _registers(operand: str) -> list[str]:
    """The registers of a vector operand {%a, %b, …}, or the one register."""
    return [r.strip() for r in operand.strip("{}").split(",")]


def parse(text: str) -> dict[str, Kernel]:
    """The kernels of a PTX module as the writer lays them out."""
    assert text.isascii()
    kernels, kernel, in_params = {}, None, False
    constants: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("//") or line.startswith(".version") or line.startswith(".target") \
                or line.startswith(".address_size"):
            continue
        if line.startswith(".visible .const"):
            m = re.fullmatch(r"\.visible \.const \.\w+ (\w+) = (\S+);", line)
            constants[m.group(1)] = m.group(2)
        elif line.startswith(".visible .entry"):
            name = re.match(r"\.visible \.entry (\w+)\(", line).group(1)
            kernel = kernels[name] = Kernel(name, [], 1, constants=constants)
            in_params = not line.endswith("()")
        elif in_params:
            if line == ")":
                in_params = False
            else:
                _, kind, pname = line.rstrip(",").split()
                kernel.params.append((pname, kind[1:]))
        elif line.startswith(".reqntid"):
            kernel.block = tuple(int(v) for v in line[len(".reqntid"):].split(","))
        elif line.startswith(".shared"):
            m = re.match(r"\.shared \.align (\d+) \.b8 (\w+)\[(\d+)\];", line)
            kernel.shared[m.group(2)] = (int(m.group(1)), int(m.group(3)))
        elif line.startswith((".reg", ".pragma")) or line in ("{", "}"):
            continue              # a .pragma ("nounroll") only steers ptxas
        elif line.endswith(":"):
            kernel.labels[line[:-1]] = len(kernel.code)
        else:
            m = LINE.match(line)
            if m is None:
                raise EmulatorError(f"读不懂的一行：{line}")
            negated, pred, op, rest = m.groups()
            kernel.code.append(Instruction((negated == "!", pred) if pred else None, op, _split_operands(rest)))
    return kernels


# ---------------------------------------------------------------- values


def f32(bits: int) -> np.float32:
    return np.uint32(bits).view(np.float32)


def f16(bits: int) -> np.float16:
    return np.uint16(bits).view(np.float16)


def from_float(x, kind: str) -> int:
    if kind == "f16":
        return int(np.float16(x).view(np.uint16))
    return int(np.float32(x).view(np.uint32))


def signed(bits: int, width: int = 32) -> int:
    bits &= (1 << width) - 1
    return bits - (1 << width) if bits >> (width - 1) else bits


def _immediate(text: str, kind: str) -> int:
    """The bits of an immediate operand in an instruction of type `kind`."""
    if text.startswith("0f"):
        return int(text[2:], 16)
    if kind in ("f32", "f16"):
        return from_float(float(text), kind)
    if kind == "pred":
        return int(text) != 0
    value = int(text, 0)
    return value & ((1 << 64) - 1 if kind.endswith("64") else (1 << 32) - 1)


def _truncated(a: int, b: int) -> int:
    """Integer division rounding toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _round(x: float, mode: str) -> float:
    if math.isnan(x) or math.isinf(x):
        return x
    return {"rmi": math.floor, "rpi": math.ceil, "rzi": math.trunc, "rni": lambda v: float(np.rint(v))}[mode](x)


def _to_int(x: float, kind: str) -> int:
    """Float to integer: PTX saturates, and NaN is 0."""
    if math.isnan(x):
        return 0
    low, high = (0, 2 ** 32 - 1) if kind == "u32" else (-(2 ** 31), 2 ** 31 - 1)
    return int(min(max(x, low), high)) & 0xFFFFFFFF


FLOAT_UNARY = {"sqrt": math.sqrt, "rsqrt": lambda x: 1 / math.sqrt(x), "rcp": lambda x: 1 / x,
               "ex2": lambda x: 2.0 ** x, "lg2": math.log2, "sin": math.sin, "cos": math.cos, "tanh": math.tanh, "abs": abs,
               "neg": lambda x: -x}
INTEGER = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
           "max": max, "min": min}
COMPARE = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
           "gt": lambda a, b: a > b, "le": lambda a, b: a <= b, "ge": lambda a, b: a >= b}


def _float_unary(name: str, x: float) -> float:
    try:
        return FLOAT_UNARY[name](x)
    except (ValueError, ZeroDivisionError, OverflowError):
        if name in ("sqrt", "rsqrt", "rcp", "lg2") and x == 0:
            return {"sqrt": x, "rsqrt": math.copysign(math.inf, x), "rcp": math.copysign(math.inf, x),
                    "lg2": -math.inf}[name]
        if name == "ex2":
            return math.inf
        return math.nan


# ---------------------------------------------------------------- memory


class Memory:
    """Global buffers (by number) and one block's shared variables."""

    def __init__(self, buffers: list[bytearray]) -> None:
        self.buffers = buffers
        self.shared = bytearray()
        self.symbols: dict[str, int] = {}

    @staticmethod
    def address_of(number: int) -> int:
        return (number + 1) << 32

    def layout_shared(self, shared: dict[str, tuple[int, int]]) -> None:
        """A block's .shared variables, holding junk as on a GPU (WGSL's zeroed
        workgroup memory must come from the kernel itself)."""
        offset, self.symbols = 16, {}
        for name, (align, size) in shared.items():
            offset = (offset + align - 1) // align * align
            self.symbols[name] = offset
            offset += size
        self.shared = bytearray(b"\xa5" * offset)

    def _where(self, space: str, address: int, size: int) -> tuple[bytearray, int]:
        if space == "shared":
            if not (16 <= address and address + size <= len(self.shared)):
                raise EmulatorError(f"共享内存越界：{address}")
            return self.shared, address
        number, offset = (address >> 32) - 1, address & 0xFFFFFFFF
        if not 0 <= number < len(self.buffers) or offset + size > len(self.buffers[number]):
            raise EmulatorError(f"全局内存越界：缓冲 {number} 偏移 {offset}（{size} 字节）")
        return self.buffers[number], offset

    def load(self, space: str, address: int, size: int) -> int:
        data, offset = self._where(space, address, size)
        return int.from_bytes(data[offset:offset + size], "little")

    def store(self, space: str, address: int, size: int, bits: int) -> None:
        data, offset = self._where(space, address, size)
        data[offset:offset + size] = (bits & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def _aligned(address: int, size: int) -> None:
    """PTX accesses are naturally aligned (a vector access to its whole size)."""
    if address % size:
        raise EmulatorError(f"未对齐的访问：地址 {address} 不是 {size} 的倍数")


SIZES = {"u32": 4, "s32": 4, "f32": 4, "b32": 4, "b16": 2, "f16": 2, "u64": 8, "b64": 8}


# ---------------------------------------------------------------- threads


class Thread:
    """One thread: registers, special registers, and its run as a generator."""

    def __init__(self, kernel: Kernel, memory: Memory, params: dict[str, int], tid: int, ctaid, nctaid) -> None:
        self.k, self.mem, self.params = kernel, memory, params
        self.regs: dict[str, int] = {}
        bx, by, _ = kernel.block    # tid is the linear index: x fastest, as CUDA numbers warps
        self.special = {("tid", "x"): tid % bx, ("tid", "y"): tid // bx % by, ("tid", "z"): tid // (bx * by),
                        **{("ntid", d): v for d, v in zip("xyz", kernel.block)},
                        **{("ctaid", d): v for d, v in zip("xyz", ctaid)},
                        **{("nctaid", d): v for d, v in zip("xyz", nctaid)}}
        self.lane = tid % WARP

    # operands -------------------------------------------------------------

    def get(self, operand: str, kind: str) -> int:
        bits = self.regs.get(operand)
        if bits is not None:
            return bits
        if operand.startswith("%"):
            m = SPECIAL.match(operand)
            if m:
                return self.special[m.groups()]
            if operand == "%laneid":
                return self.lane
            if operand.startswith("%lanemask_"):     # PTX ISA: the lanes compared with this one
                compare = COMPARE[operand[len("%lanemask_"):]]
                return sum(1 << j for j in range(WARP) if compare(j, self.lane))
            if operand not in self.regs:
                raise EmulatorError(f"读了未赋值的寄存器 {operand}")
            return self.regs[operand]
        if operand == "WARP_SZ":
            return WARP
        if operand in self.mem.symbols:
            return self.mem.symbols[operand]
        return _immediate(operand, kind)

    def address(self, operand: str) -> int:
        inner = operand.strip("[]")
        base, _, offset = inner.partition("+")
        return self.get(base, "u64") + (int(offset) if offset else 0)

    MASKS = {"p": None, "h": 0xFFFF, "r": 0xFFFFFFFF}

    def set(self, dest: str, bits) -> None:
        mask = 0xFFFFFFFFFFFFFFFF if dest[2] == "d" else self.MASKS[dest[1]]
        self.regs[dest] = bool(bits) if mask is None else int(bits) & mask

    def value(self, operand: str, kind: str):
        """The operand as a number of `kind`: a NumPy float, a Python int, or a bool."""
        bits = self.get(operand, kind)
        if kind == "f32":
            return f32(bits)
        if kind == "f16":
            return f16(bits)
        if kind == "s32":
            return signed(bits)
        if kind == "s64":
            return signed(bits, 64)
        return bits

    # running --------------------------------------------------------------

    def run(self):
        pc, code = 0, self.k.code
        while True:
            ins = code[pc]
            pc += 1
            if ins.guard is not None:
                negated, pred = ins.guard
                if self.regs[pred] == negated:
                    continue
            head = ins.parts[0]
            if head == "ret":
                return
            if head == "bra":
                pc = self.k.labels[ins.operands[0]]
            elif head == "bar":
                yield ("bar", pc)
            elif head in WARP_INSTRUCTIONS:
                result = yield ("warp", pc, ins, self)
                for dest, bits in zip(_registers(ins.operands[0]), result if isinstance(result, list) else [result]):
                    self.set(dest, bits)
            else:
                self.execute(ins)

    def execute(self, ins: Instruction) -> None:
        method = getattr(self, "_" + ins.parts[0], None)
        if method is None:
            raise EmulatorError(f"模拟器不认识指令 {ins.op}")
        method(ins.parts, ins.operands)

    # instructions ---------------------------------------------------------

    def _mov(self, parts, ops):
        kind = parts[-1]
        dest, source = ops
        if source.startswith("{"):
            lo, hi = (s.strip() for s in source.strip("{}").split(","))
            self.set(dest, self.get(lo, "b16") | self.get(hi, "b16") << 16)
        elif dest.startswith("{"):
            lo, hi = (s.strip() for s in dest.strip("{}").split(","))
            bits = self.get(source, "b32")
            self.set(lo, bits & 0xFFFF)
            self.set(hi, bits >> 16)
        else:
            self.set(dest, self.get(source, kind))

    def _ld(self, parts, ops):
        kind = parts[-1]
        if parts[1] == "param":
            self.set(ops[0], self.params[ops[1].strip("[]")])
            return
        if parts[1] == "const":      # an overridable constant, holding the default it was declared with
            self.set(ops[0], self.get(self.k.constants[ops[1].strip("[]")], kind))
            return
        space = "shared" if "shared" in parts else "global"
        size, address = SIZES.get(kind, 4), self.address(ops[1])
        dests = _registers(ops[0])
        _aligned(address, size * len(dests))
        for i, dest in enumerate(dests):
            self.set(dest, self.mem.load(space, address + i * size, size))

    def _st(self, parts, ops):
        kind = parts[-1]
        space = "shared" if "shared" in parts else "global"
        size, address = SIZES.get(kind, 4), self.address(ops[0])
        sources = _registers(ops[1])
        _aligned(address, size * len(sources))
        for i, source in enumerate(sources):
            self.mem.store(space, address + i * size, size, self.get(source, kind))

    def _cvta(self, parts, ops):
        self.set(ops[0], self.get(ops[1], "u64"))

    def _atom(self, parts, ops):
        space, operation, kind = parts[1], parts[2], parts[3]
        assert space in ("global", "shared"), parts
        address = self.address(ops[1])
        old = self.mem.load(space, address, 4)
        old_value = signed(old) if kind == "s32" else old
        value = self.value(ops[2], kind)
        if operation == "cas":
            new = self.value(ops[3], kind) if old == value else old
        else:
            new = {"add": lambda: old_value + value, "max": lambda: max(old_value, value),
                   "min": lambda: min(old_value, value), "and": lambda: old & value,
                   "or": lambda: old | value, "xor": lambda: old ^ value, "exch": lambda: value}[operation]()
        self.mem.store(space, address, 4, new)
        self.set(ops[0], old)

    @staticmethod
    def _float_arith(name: str, a, b):
        if name in ("max", "min"):
            return (np.fmax if name == "max" else np.fmin)(a, b)
        return {"add": a + b, "sub": a - b, "mul": a * b}[name] if name != "div" else a / b

    def _arith(self, parts, ops):
        name, kind = parts[0], parts[-1]
        if kind == "f16x2":        # PTX ISA: each half as the .f16 instruction, low half in the low bits
            a, b = (self.get(o, "b32") for o in ops[1:3])
            halves = [from_float(self._float_arith(name, f16(a >> s & 0xFFFF), f16(b >> s & 0xFFFF)), "f16")
                      for s in (0, 16)]
            self.set(ops[0], halves[0] | halves[1] << 16)
            return
        a, b = (self.value(o, kind) for o in ops[1:3])
        if kind in ("f32", "f16"):
            self.set(ops[0], from_float(self._float_arith(name, a, b), kind))
        elif name == "mul" and "wide" in parts:
            self.set(ops[0], a * b)
        elif name == "mul" and "hi" in parts:
            self.set(ops[0], (a * b) >> 32)
        elif name in ("div", "rem"):
            if b == 0:
                raise EmulatorError(f"整数除以零（{'.'.join(parts)}）")
            quotient = _truncated(a, b) if kind == "s32" else a // b
            self.set(ops[0], quotient if name == "div" else a - quotient * b)
        else:
            self.set(ops[0], INTEGER[name](a, b))

    _add = _sub = _mul = _div = _rem = _max = _min = _arith

    def _mad(self, parts, ops):
        a, b, c = (self.get(o, "u32") for o in ops[1:])
        self.set(ops[0], a * b + c)

    def _fma(self, parts, ops):
        kind = parts[-1]
        a, b, c = (float(self.value(o, kind)) for o in ops[1:])
        if kind == "f32":
            self.set(ops[0], from_float(fma32(np.float32(a), np.float32(b), np.float32(c)), "f32"))
        else:
            self.set(ops[0], from_float(a * b + c, "f16"))   # exact in f64, one rounding to f16

    def _unary(self, parts, ops):
        kind = parts[-1]
        x = self.value(ops[1], kind)
        name = parts[0]
        if kind in ("f32", "f16"):
            self.set(ops[0], from_float(_float_unary(name, float(x)), kind))
        elif name == "neg":
            self.set(ops[0], -x)
        elif name == "abs":
            self.set(ops[0], abs(x))
        elif name == "not":
            self.set(ops[0], (not x) if kind == "pred" else ~x)
        elif name == "popc":
            self.set(ops[0], bin(x & 0xFFFFFFFF).count("1"))
        elif name == "brev":
            self.set(ops[0], int(f"{x & 0xFFFFFFFF:032b}"[::-1], 2))

    _sqrt = _rsqrt = _rcp = _ex2 = _lg2 = _sin = _cos = _tanh = _abs = _neg = _not = _popc = _brev = _unary

    def _bits(self, parts, ops):
        kind = parts[-1]
        a, b = (self.get(o, kind) for o in ops[1:3])
        result = {"and": a & b, "or": a | b, "xor": a ^ b}[parts[0]]
        self.set(ops[0], bool(result) if kind == "pred" else result)

    _and = _or = _xor = _bits

    def _shl(self, parts, ops):
        a, n = self.get(ops[1], "b32"), self.get(ops[2], "u32")
        self.set(ops[0], a << n if n < 32 else 0)

    def _shr(self, parts, ops):
        kind = parts[-1]
        a, n = self.value(ops[1], kind), self.get(ops[2], "u32")
        self.set(ops[0], a >> min(n, 32) if kind == "s32" else (a >> n if n < 32 else 0))

    def _bfe(self, parts, ops):
        """bfe.u32/.s32 (PTX ISA): len bits from pos (each the low 8 bits of its
        operand); bits past 31 and, for .s32, those above len are the sign bit
        a[min(pos + len − 1, 31)] (0 for .u32 or len 0)."""
        a = self.get(ops[1], "u32") & 0xFFFFFFFF
        pos, length = (self.get(o, "u32") & 0xFF for o in ops[2:])
        sbit = 0 if parts[-1] == "u32" or length == 0 else (a >> min(pos + length - 1, 31)) & 1
        self.set(ops[0], sum((((a >> (pos + i)) & 1) if i < length and pos + i <= 31 else sbit) << i
                             for i in range(32)))

    def _bfi(self, parts, ops):
        """bfi.b32 d, a, b, pos, len (PTX ISA): b with bits pos … pos + len − 1
        (those up to 31) taken from the low bits of a."""
        a, b = (self.get(o, "u32") & 0xFFFFFFFF for o in ops[1:3])
        pos, length = (self.get(o, "u32") & 0xFF for o in ops[3:5])
        for i in range(length):
            if pos + i <= 31:
                b = (b & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
        self.set(ops[0], b)

    def _bfind(self, parts, ops):
        """bfind.u32/.s32[.shiftamt] (PTX ISA): the position of the most significant
        set bit (.s32: of the most significant bit unlike the sign bit), with .shiftamt
        31 − that position; none: 0xFFFFFFFF."""
        a = self.get(ops[1], "u32") & 0xFFFFFFFF
        if parts[-1] == "s32" and a >> 31:
            a = ~a & 0xFFFFFFFF
        position = a.bit_length() - 1
        if position < 0:
            self.set(ops[0], 0xFFFFFFFF)
        else:
            self.set(ops[0], 31 - position if "shiftamt" in parts else position)

    def _clz(self, parts, ops):
        """clz.b32: the leading zeros; 0 has 32."""
        self.set(ops[0], 32 - (self.get(ops[1], "u32") & 0xFFFFFFFF).bit_length())

    def _dp4a(self, parts, ops):
        """dp4a.atype.btype d, a, b, c (PTX ISA): c plus the four products of the
        bytes of a and b, each byte signed for .s32; the sum wraps at 32 bits."""
        def byte_values(word: int, kind: str) -> list[int]:
            out = [(word >> (8 * i)) & 0xFF for i in range(4)]
            return [v - 256 if kind == "s32" and v >= 128 else v for v in out]
        a, b = (self.get(o, "u32") & 0xFFFFFFFF for o in ops[1:3])
        c = self.value(ops[3], "s32" if parts[-1] == "s32" else "u32")
        total = c + sum(x * y for x, y in zip(byte_values(a, parts[1]), byte_values(b, parts[2])))
        self.set(ops[0], total & 0xFFFFFFFF)

    def _copysign(self, parts, ops):
        sign, magnitude = self.value(ops[1], "f32"), self.value(ops[2], "f32")
        self.set(ops[0], from_float(np.copysign(magnitude, sign), "f32"))

    def _setp(self, parts, ops):
        condition, kind = parts[1], parts[-1]
        a, b = self.value(ops[1], kind), self.value(ops[2], kind)
        if kind == "pred":
            raise EmulatorError("setp 不比较谓词")
        if condition == "nan":
            result = bool(np.isnan(a) or np.isnan(b))
        elif condition == "neu":
            result = bool(np.isnan(a) or np.isnan(b) or a != b)
        else:
            result = bool(COMPARE[condition](a, b))
        if len(parts) == 4:                 # setp.CMP.BOOLOP.T d, a, b, c
            c = self.get(ops[3], "pred")
            result = {"and": result and c, "or": result or c}[parts[2]]
        self.set(ops[0], result)

    def _selp(self, parts, ops):
        self.set(ops[0], self.get(ops[1] if self.get(ops[3], "pred") else ops[2], parts[-1]))

    def _cvt(self, parts, ops):
        modes = [p for p in parts[1:-2] if p in ("rn", "rzi", "rmi", "rpi", "rni", "sat")]
        to, source = parts[-2], parts[-1]
        x = self.value(ops[1], source)
        if to in ("f32", "f16") and source in ("f32", "f16"):
            v = float(x)
            if modes and modes[0] in ("rzi", "rmi", "rpi", "rni"):
                v = _round(v, modes[0])
            if "sat" in modes:
                v = 0.0 if math.isnan(v) else min(max(v, 0.0), 1.0)
            self.set(ops[0], from_float(v, to))
        elif to in ("f32", "f16"):
            self.set(ops[0], from_float(float(x), to) if to == "f16" else from_float(np.float32(x), to))
        else:
            self.set(ops[0], _to_int(_round(float(x), modes[0] if modes else "rzi"), to))

    # warps ------------------------------------------------------------------

    def warp_result(self, ins: Instruction, lanes: dict[int, "Thread"], mask: int) -> int | list[int]:
        if ins.op.startswith("activemask"):
            return mask
        if ins.op.startswith(("ldmatrix", "mma")):
            if mask != (1 << WARP) - 1:
                raise EmulatorError(f"{ins.parts[0]} 须由整个线程束一起执行，这里活跃的线程是 {mask:#x}")
            return (self._ldmatrix if ins.parts[0] == "ldmatrix" else self._mma)(ins, lanes)
        members = self.get(ins.operands[-1], "u32")
        if members & ~mask or not (members >> self.lane) & 1:
            raise EmulatorError(f"{ins.op} 的 membermask {members:#x} 含有没有执行它的线程（执行的是 {mask:#x}）")
        if ins.parts[0] == "vote":
            return self._vote(ins, lanes, members)
        if ins.parts[0] == "redux":
            return self._redux(ins, lanes, members)
        source = self._shuffle_source(ins.parts[2], self.get(ins.operands[2], "u32"), self.get(ins.operands[3], "u32"))
        if not (members >> source) & 1:
            return 0        # undefined on a GPU
        return lanes[source].get(ins.operands[1], "b32")

    def _shuffle_source(self, mode: str, b: int, c: int) -> int:
        """The source lane of shfl.sync (PTX ISA 9.7.9.6): c packs the clamp
        value (bits 0–4) and the segment mask (bits 8–12); out of range, a
        lane reads its own value."""
        lane, segment = self.lane, (c >> 8) & 0x1F
        low = lane & segment
        bound = low | (c & 0x1F & ~segment)
        if mode == "up":
            j, inside = lane - b, lane - b >= bound
        elif mode == "down":
            j, inside = lane + b, lane + b <= bound
        elif mode == "bfly":
            j, inside = lane ^ b, (lane ^ b) <= bound
        else:
            j = low | (b & 0x1F & ~segment)
            inside = j <= bound
        return j if inside else lane

    def _vote(self, ins: Instruction, lanes: dict[int, "Thread"], members: int):
        """vote.sync (PTX ISA 9.7.13.9): over the lanes of membermask."""
        votes = {lane: bool(t.get(ins.operands[1], "pred")) for lane, t in lanes.items() if (members >> lane) & 1}
        mode = ins.parts[2]
        if mode == "ballot":
            return sum(1 << lane for lane, v in votes.items() if v)
        return any(votes.values()) if mode == "any" else all(votes.values())

    def _redux(self, ins: Instruction, lanes: dict[int, "Thread"], members: int) -> int:
        """redux.sync (PTX ISA 9.7.13.10): .and/.or/.xor on .b32, .add/.min/.max on .u32/.s32."""
        operation, kind = ins.parts[2], ins.parts[3]
        values = [t.value(ins.operands[1], "s32" if kind == "s32" else "u32")
                  for lane, t in lanes.items() if (members >> lane) & 1]
        combine = {"and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
                   "add": lambda a, b: a + b, "min": min, "max": max}[operation]
        total = values[0]
        for v in values[1:]:
            total = combine(total, v)
        return total & 0xFFFFFFFF


    def _ldmatrix(self, ins: Instruction, lanes: dict[int, "Thread"]) -> list[int]:
        """ldmatrix.sync.aligned.m8n8.x4.shared.b16 (PTX ISA 9.7.14.5.15): lanes
        8i … 8i+7 give the row addresses of matrix i; each lane receives, of
        every matrix, row laneid / 4, columns 2·(laneid % 4) and the next."""
        assert ins.op == "ldmatrix.sync.aligned.m8n8.x4.shared.b16", ins.op
        out = []
        for matrix in range(4):
            row_address = lanes[8 * matrix + self.lane // 4].address(ins.operands[1])
            if row_address % 16:
                raise EmulatorError(f"ldmatrix 的行地址 {row_address} 没有按 16 字节对齐")
            out.append(self.mem.load("shared", row_address + 4 * (self.lane % 4), 4))
        return out

    def _mma(self, ins: Instruction, lanes: dict[int, "Thread"]) -> list[int]:
        if ins.op == "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32":
            return self._mma_s8(ins, lanes)
        return self._mma_f16(ins, lanes)

    def _mma_s8(self, ins: Instruction, lanes: dict[int, "Thread"]) -> list[int]:
        """mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 with the fragment
        layouts of PTX ISA 9.7.14.5.10 (m16n8k32, .s8): D = A·B + C (A 16×32,
        B 32×8, C 16×8), s32 arithmetic wrapping (no .satfinite).  Element i of
        a fragment is byte i % 4 of register i // 4, low byte first."""
        d, a, b, c = (_registers(o) for o in ins.operands)
        A, B, C = (np.zeros(shape, np.int64) for shape in ((16, 32), (32, 8), (16, 8)))
        for lane, t in lanes.items():
            group, tig = lane >> 2, lane % 4
            for i in range(16):
                byte = t.get(a[i // 4], "b32") >> (8 * (i % 4)) & 0xFF
                row = group if i < 4 or 8 <= i < 12 else group + 8
                col = tig * 4 + (i & 3) + (16 if i >= 8 else 0)
                A[row, col] = signed(byte, 8)
            for i in range(8):
                byte = t.get(b[i // 4], "b32") >> (8 * (i % 4)) & 0xFF
                B[tig * 4 + (i & 3) + (16 if i >= 4 else 0), group] = signed(byte, 8)
            for i in range(4):
                C[group if i < 2 else group + 8, tig * 2 + (i & 1)] = signed(t.get(c[i], "b32"))
        D = A @ B + C
        group, tig = self.lane >> 2, self.lane % 4
        return [int(D[group if i < 2 else group + 8, tig * 2 + (i & 1)]) & 0xFFFFFFFF for i in range(4)]

    def _mma_f16(self, ins: Instruction, lanes: dict[int, "Thread"]) -> list[int]:
        """mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 with the fragment
        layouts of PTX ISA 9.7.14.5.8: D = A·B + C (A 16×16, B 16×8, C 16×8)."""
        assert ins.op == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", ins.op
        d, a, b, c = (_registers(o) for o in ins.operands)
        A, B, C = np.zeros((16, 16)), np.zeros((16, 8)), np.zeros((16, 8))
        for lane, t in lanes.items():
            g, tig = lane >> 2, lane % 4
            for i in range(8):                  # a_i: two halves per register
                bits = t.get(a[i // 2], "b32") >> (16 * (i % 2)) & 0xFFFF
                A[g + 8 * ((i >> 1) & 1), 2 * tig + (i & 1) + 8 * (i >= 4)] = f16(bits)
            for i in range(4):
                bits = t.get(b[i // 2], "b32") >> (16 * (i % 2)) & 0xFFFF
                B[2 * tig + (i & 1) + 8 * (i >= 2), g] = f16(bits)
            for i in range(4):
                C[g + 8 * (i >= 2), 2 * tig + (i & 1)] = f32(t.get(c[i], "f32"))
        D = (A @ B + C).astype(np.float32)
        g, tig = self.lane >> 2, self.lane % 4
        return [from_float(D[g + 8 * (i >= 2), 2 * tig + (i & 1)], "f32") for i in range(4)]


# ---------------------------------------------------------------- launching


def _run_block(kernel: Kernel, memory: Memory, params: dict[str, int], ctaid, grid) -> None:
    memory.layout_shared(kernel.shared)
    threads = [Thread(kernel, memory, params, t, ctaid, grid) for t in range(math.prod(kernel.block))]
    runs = [t.run() for t in threads]
    state: list = [None] * len(threads)          # None: runnable; a tuple: waiting; "done"
    sends: list = [None] * len(threads)
    while True:
        for i, run in enumerate(runs):
            if state[i] is None:
                try:
                    state[i] = run.send(sends[i])
                except StopIteration:
                    state[i] = "done"
                sends[i] = None
        alive = [i for i, s in enumerate(state) if s != "done"]
        if not alive:
            return
        if all(state[i][0] == "bar" for i in alive):
            if len({state[i][1] for i in alive}) != 1:
                raise EmulatorError("线程停在不同的 bar.sync 上")
            for i in alive:
                state[i] = None
            continue
        progressed = False
        for warp in range(0, len(threads), WARP):
            members = [i for i in alive if warp <= i < warp + WARP]
            waiting = [i for i in members if state[i][0] == "warp"]
            if not waiting or len(waiting) != len(members):
                continue
            if len({state[i][1] for i in waiting}) != 1:
                raise EmulatorError("线程束里的线程停在不同的线程束指令上（不一致的控制流）")
            mask = sum(1 << (i - warp) for i in waiting)
            lanes = {i - warp: threads[i] for i in waiting}
            results = {i: threads[i].warp_result(state[i][2], lanes, mask) for i in waiting}
            for i in waiting:
                state[i], sends[i] = None, results[i]
            progressed = True
        if not progressed:
            raise EmulatorError("死锁：有线程在 bar.sync，有线程在线程束指令上")


def launch(text: str, name: str, args: list[int], buffers: list[bytearray], grid: tuple[int, int, int]) -> None:
    """Run kernel `name` over `grid` blocks; `args` are the parameter values in
    order (buffer pointers from Memory.address_of, element counts)."""
    kernel = parse(text)[name]
    if len(args) != len(kernel.params):
        raise EmulatorError(f"{name} 有 {len(kernel.params)} 个参数，给了 {len(args)} 个")
    params = {pname: value for (pname, _), value in zip(kernel.params, args)}
    memory = Memory(buffers)
    with np.errstate(all="ignore"):
        for z in range(grid[2]):
            for y in range(grid[1]):
                for x in range(grid[0]):
                    _run_block(kernel, memory, params, (x, y, z), grid)
