"""Subgroup matrix fragments (seed 着十二) in PTX: ldmatrix and mma.sync.

A 16×16 fragment is held by the whole warp; each lane keeps the registers
that mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 expects of it
(groupID g = laneid >> 2, threadID_in_group t = laneid & 3):

- 甲 (A, row-major M×K): four .b32 registers of two halves each; register r
  holds row g + 8·(r & 1), columns 2t + 8·(r >> 1) and the next one.
- 乙 (B held as 乙[n][k]): four .b32 registers; registers 0–1 are the B operand
  of the first n8 block, 2–3 of the second; register r holds row
  n = g + 8·(r >> 1), columns k = 2t + 8·(r & 1) and the next one.
- 累 (accumulator, f32): eight registers, four per n8 block j; register
  4j + q holds row g + 8·(q >> 1), column 8j + 2t + (q & 1).

The integer fragments (子组整矩阵片, s8 × s8 + s32) use
mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32, whose fragments hold four
s8 per .b32 register where the f16 ones hold two halves: register r of 甲
holds row g + 8·(r & 1), bytes 4t + 16·(r >> 1) … +3, and of 乙 row
n = g + 8·(r >> 1), bytes 4t + 16·(r & 1) … +3 — byte for byte the f16
placement, so the same ldmatrix loads them (起 and 步 count bytes there).
The s32 accumulator is placed like the f32 one.

Full loads from workgroup memory use ldmatrix (lanes 8m … 8m+7 give the row
addresses of matrix m, which lands in register m); the accumulator moves as
pairs with ld/st .v2.f32; the storage-buffer loaders read .b32 words (and
.b16 halves for the transposed 乙).  Workgroup arrays a fragment touches are
declared 16-byte aligned, as ldmatrix requires.
"""

from __future__ import annotations

from .scalars import F16, F32, S32, U32, address_text, is_immediate

FRAGMENT_ALIGN = 16
MMA = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
INTEGER_MMA = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
LDMATRIX = "ldmatrix.sync.aligned.m8n8.x4.shared.b16"

#: where register r of 甲 or 乙 starts, as bit positions of r: its row is
#: 8·bit(row) further down, its column 8·bit(column) further right
A_BITS = (0, 1)
B_BITS = (1, 0)


def _placed(bits: tuple[int, int], r: int) -> tuple[int, int]:
    return 8 * ((r >> bits[0]) & 1), 8 * ((r >> bits[1]) & 1)


def _accumulator_place(i: int) -> tuple[int, int]:
    """Row and column offset of accumulator register i (even: the first of a pair)."""
    return 8 * ((i & 3) >> 1), 8 * (i >> 2) + (i & 1)


class _Lane:
    """This lane's g and 2t, computed once per entry in the prologue (they
    depend on nothing else), with their bounds (`Writer.below`)."""

    def __init__(self, w) -> None:
        self.w = w
        self.lane = lane = w.op("mov.u32", U32, "%laneid")
        self.g = w.op("shr.u32", U32, lane, "2")
        self.t2 = w.op("shl.b32", U32, w.op("and.b32", U32, lane, "3"), "1")   # 2t
        w.below.update({lane: 32, self.g: 8, self.t2: 7})
        self.indices: dict[tuple, str] = {}

    def ldmatrix_row(self, bits: tuple[int, int]) -> tuple[str, str]:
        """(row, column) whose address this lane gives to ldmatrix: row
        laneid & 7 of matrix m = laneid >> 3, which becomes register m."""
        w = self.w
        m = w.op("shr.u32", U32, self.lane, "3")
        row_plus, column_plus = (w.op("shl.b32", U32, w.op("and.b32", U32, w.op("shr.u32", U32, m, str(b)), "1"), "3")
                                 for b in bits)
        return w.op("add.u32", U32, w.op("and.b32", U32, self.lane, "7"), row_plus), column_plus

    def index(self, key: tuple, step: int, row_column, largest: tuple[int, int]) -> str:
        """row·step + column for this lane (`row_column` makes them), once per
        entry in the prologue; known below (largest row)·step + (largest column) + 1."""
        if key + (step,) not in self.indices:
            w = self.w
            with w.in_prologue():
                row, column = row_column()
                index = self.indices[key + (step,)] = w.op("mad.lo.u32", U32, row, str(step), column)
            bound = largest[0] * step + largest[1] + 1
            if bound <= 2 ** 32:
                w.below[index] = bound
        return self.indices[key + (step,)]


def _lane(w) -> _Lane:
    """The entry's `_Lane`, made in the prologue the first time a fragment needs it."""
    if w.fragment_lane is None:
        with w.in_prologue():
            w.fragment_lane = _Lane(w)
    return w.fragment_lane


def _index(w, start: str, step: str, row: str, column: str) -> str:
    """start + row·step + column, in elements."""
    base = w.op("mad.lo.u32", U32, w.in_register(U32, row), w.in_register(U32, step), start)
    return w.op("add.u32", U32, base, column)


def _offset(w, register: str, constant: int) -> str:
    return w.op("add.u32", U32, register, str(constant)) if constant else register


def _lane_index(w, start: str, lane_index: str, constant: int) -> str:
    """start + this lane's row·step + column (`_Lane.index`) + a constant, in
    elements: the additions as `Writer.sum` knows them, so that where they
    cannot wrap the element's address is the lane's, a constant further on
    (a constant start: always, its lane index being bounded)."""
    if is_immediate(start):
        return w.sum(lane_index, str((int(start) + constant) % 2 ** 32))
    return w.sum(w.sum(start, lane_index), str(constant % 2 ** 32))


def _address(w, resource, index: str, size: int, aligned: bool) -> tuple[str, str]:
    """(state space, address operand) of element `index` of a buffer or workgroup array."""
    if aligned and resource.kind == "workgroup":
        w.shared_symbol(resource, FRAGMENT_ALIGN)
    space, address, offset = w.element_address(resource, index, size)
    return space, address_text(address, offset)


def _element(w, place: tuple[int, int], args, size: int) -> tuple[str, str]:
    """(space, address) of the element `place` rows and columns from this lane's
    (g, 2t), in args (array, start, step)."""
    row_plus, column_plus = place
    start, step = args[1].parts[0], args[2].parts[0]
    lane = _lane(w)
    if is_immediate(step):
        index = lane.index(("g",), int(step) % 2 ** 32, lambda: (lane.g, lane.t2), (7, 6))
        return _address(w, args[0].resource, _lane_index(w, start, index, row_plus * int(step) + column_plus),
                        size, aligned=True)
    index = _index(w, start, step, _offset(w, lane.g, row_plus), _offset(w, lane.t2, column_plus))
    return _address(w, args[0].resource, index, size, aligned=True)


# ---------------------------------------------------------------- loads


def _ldmatrix(bits: tuple[int, int], size: int = 2):
    """ldmatrix of elements of `size` bytes (f16: 2; s8: 1, eight bytes a column of the b16 view)."""
    def emit(w, call, args):
        lane = _lane(w)
        start, step = args[1].parts[0], args[2].parts[0]

        def row_column():
            row, column = lane.ldmatrix_row(bits)
            return row, w.op("shl.b32", U32, column, "1") if size == 1 else column
        if is_immediate(step):
            index = _lane_index(w, start, lane.index(("ldmatrix", bits, size), int(step) % 2 ** 32, row_column,
                                                     (15, 16 // size)), 0)
        else:
            index = _index(w, start, step, *row_column())
        _, address = _address(w, args[0].resource, index, size, aligned=True)
        out = [w.reg(U32) for _ in range(4)]
        w.emit(f"{LDMATRIX} {{{', '.join(out)}}}, {address}")
        return out
    return emit


def _load_words(bits: tuple[int, int], registers: range):
    """Fragment registers read as .b32 words (two halves each); the others are zero."""
    def emit(w, call, args):
        out = []
        for r in range(4):
            if r in registers:
                space, address = _element(w, _placed(bits, r), args, 2)
                out.append(w.op(f"ld.{space}.b32", U32, address))
            else:
                out.append("0")
        return out
    return emit


def _load_transposed_b(w, call, args):
    """乙[n][k] = buffer[start + k·step + n]: each register's two halves are a column apart."""
    lane = _lane(w)
    start, step = args[1].parts[0], args[2].parts[0]
    out = []
    for r in range(4):
        n_plus, k_plus = _placed(B_BITS, r)
        halves = []
        for k_next in (0, 1):
            if is_immediate(step):
                index = lane.index(("transposed",), int(step) % 2 ** 32, lambda: (lane.t2, lane.g), (6, 7))
                index = _lane_index(w, start, index, (k_plus + k_next) * int(step) + n_plus)
            else:
                index = _index(w, start, step, _offset(w, lane.t2, k_plus + k_next), _offset(w, lane.g, n_plus))
            space, address = _address(w, args[0].resource, index, 2, aligned=False)
            halves.append(w.op(f"ld.{space}.b16", F16, address))
        out.append(w.op("mov.b32", U32, "{" + ", ".join(halves) + "}"))
    return out


def _accumulator_pairs(rows: tuple[int, ...]):
    """Accumulator registers (q in `rows`·2 + {0, 1} of each block) as .v2.f32 pairs."""
    return [i for i in range(0, 8, 2) if (i & 3) >> 1 in rows]


def _load_accumulator(rows: tuple[int, ...]):
    def emit(w, call, args):
        out = ["0.0"] * 8
        for i in _accumulator_pairs(rows):
            space, address = _element(w, _accumulator_place(i), args, 4)
            out[i], out[i + 1] = w.reg(F32), w.reg(F32)
            w.emit(f"ld.{space}.v2.f32 {{{out[i]}, {out[i + 1]}}}, {address}")
        return out
    return emit


# ---------------------------------------------------------------- stores, fill, multiply


def _store_accumulator(rows: tuple[int, ...], kind=F32):
    def emit(w, call, args):
        parts = [w.in_register(kind, p) for p in args[3].parts]
        for i in _accumulator_pairs(rows):
            space, address = _element(w, _accumulator_place(i), args, 4)
            w.emit(f"st.{space}.v2.{kind.mem} {address}, {{{parts[i]}, {parts[i + 1]}}}")
        return []
    return emit


def _fill(kind):
    """Every accumulator register the same value (the integer one: a u32 bit pattern)."""
    def emit(w, call, args):
        return [w.in_register(kind, args[0].parts[0])] * 8
    return emit


def _multiply_accumulate(mma: str, kind):
    """累 + 甲 · 乙ᵀ as two mma products, one per n8 block."""
    def emit(w, call, args):
        a, b, c = ([w.in_register(k, p) for p in v.parts] for k, v in zip((U32, U32, kind), args))
        out = []
        for block in range(2):
            d = [w.reg(kind) for _ in range(4)]
            w.emit(f"{mma} {{{', '.join(d)}}}, {{{', '.join(a)}}}, {{{', '.join(b[2 * block:2 * block + 2])}}}, "
                   f"{{{', '.join(c[4 * block:4 * block + 4])}}}")
            out += d
        return out
    return emit


FRAGMENT_OPS = {
    "载入矩阵片甲": _ldmatrix(A_BITS),
    "载入矩阵片乙": _ldmatrix(B_BITS),
    "载入矩阵片累": _load_accumulator((0, 1)),
    "载入矩阵片累前八行": _load_accumulator((0,)),
    "载矩阵片甲前八行": _load_words(A_BITS, range(0, 4, 2)),
    "载矩阵片甲自存储": _load_words(A_BITS, range(4)),
    "载矩阵片乙自存储": _load_words(B_BITS, range(4)),
    "载矩阵片乙自转置存储": _load_transposed_b,
    "满矩阵片累": _fill(F32),
    "矩阵片乘加": _multiply_accumulate(MMA, F32),
    "存矩阵片累": _store_accumulator((0, 1)),
    "存矩阵片累前八行": _store_accumulator((0,)),
    "存矩阵片累到存储": _store_accumulator((0, 1)),
    "载入整矩阵片甲": _ldmatrix(A_BITS, size=1),
    "载入整矩阵片乙": _ldmatrix(B_BITS, size=1),
    "满整矩阵片累": _fill(U32),       # a bit pattern; %r registers hold either
    "整矩阵片乘加": _multiply_accumulate(INTEGER_MMA, S32),
    "存整矩阵片累": _store_accumulator((0, 1), S32),
    "存整矩阵片累到存储": _store_accumulator((0, 1), S32),
}

#: how each fragment builtin is spelled in PTX (hover)
FRAGMENT_SPELLINGS = {
    "载入矩阵片甲": LDMATRIX, "载入矩阵片乙": LDMATRIX,
    "载入矩阵片累": "ld.shared.v2.f32", "载入矩阵片累前八行": "ld.shared.v2.f32",
    "载矩阵片甲前八行": "ld.shared.b32", "载矩阵片甲自存储": "ld.global.b32", "载矩阵片乙自存储": "ld.global.b32",
    "载矩阵片乙自转置存储": "ld.global.b16 与 mov.b32 拼合", "满矩阵片累": "mov.b32",
    "矩阵片乘加": f"{MMA}（两次）", "存矩阵片累": "st.shared.v2.f32", "存矩阵片累前八行": "st.shared.v2.f32",
    "存矩阵片累到存储": "st.global.v2.f32",
    "载入整矩阵片甲": LDMATRIX, "载入整矩阵片乙": LDMATRIX, "满整矩阵片累": "mov.b32",
    "整矩阵片乘加": f"{INTEGER_MMA}（两次）", "存整矩阵片累": "st.shared.v2.s32",
    "存整矩阵片累到存储": "st.global.v2.s32",
}

#: fragment builtins the PTX target refuses, and why (a value of the type refuses with NO_TENSOR)
FRAGMENTS_UNAVAILABLE = {name: "张量片只有金属（MSL）支持（着十三）" for name in "满张量片累 张量片乘加 存张量片累".split()}
