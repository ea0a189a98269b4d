"""Subgroup operations on the warp (seed 着十一, its limits lifted), keyed by
the builtin's Chinese name.

The warp's members are known statically: the uniformity analysis
(compiler/valid/uniformity.py) refuses a subgroup call outside control flow
uniform within its subgroup, so every lane that exists reaches it — all 32,
or in the partial last warp of a workgroup whose size is not a multiple of
32, its first lanes (the writer's `warp_members`, computed once per entry).
activemask would name only the lanes that happen to be converged.  A lane
that does not exist contributes the identity of the combining operation,
for reductions and scans alike; in a whole warp no lane is tested.  Values move
between lanes as 32-bit words: an f16 rides in the low half of a word, a
vector goes component by component.  Reductions are butterflies of
shfl.sync.bfly (the bitwise ones redux.sync, which sm_80 has for b32);
inclusive scans are five shfl.sync.up steps (Hillis–Steele) in which a lane
below the distance, or whose source is inactive, takes the identity; an
exclusive scan is the inclusive one moved up by one lane.
"""

from __future__ import annotations

from dataclasses import dataclass

from .scalars import F16, PRED, U32, Scalar, leaves

FULL_WARP = "0xffffffff"
WARP_LANES = "31"   # shfl.sync's clamp operand for idx/down/bfly: the whole 32-lane warp
UP_CLAMP = "0"      # shfl.sync.up's clamp operand: lane 0 is the lower bound
BUTTERFLY = ("16", "8", "4", "2", "1")
SCAN_STEPS = ("1", "2", "4", "8", "16")


@dataclass(frozen=True)
class Combine:
    """A combining operation: its instruction per kind and its identity per
    kind (f32 and integers as immediates of the kind, f16 as the bits of a word)."""

    instructions: dict[str, str]
    identities: dict[str, str]


COMBINES = {
    "加": Combine({"f32": "add.rn.f32", "f16": "add.rn.f16", "u32": "add.u32", "s32": "add.s32"},
                 {"f32": "0.0", "f16": "0x00000000", "u32": "0", "s32": "0"}),
    "乘": Combine({"f32": "mul.rn.f32", "f16": "mul.rn.f16", "u32": "mul.lo.u32", "s32": "mul.lo.s32"},
                 {"f32": "0f3F800000", "f16": "0x00003C00", "u32": "1", "s32": "1"}),
    "最大": Combine({"f32": "max.f32", "f16": "max.f16", "u32": "max.u32", "s32": "max.s32"},
                   {"f32": "0fFF800000", "f16": "0x0000FC00", "u32": "0", "s32": "-2147483648"}),
    "最小": Combine({"f32": "min.f32", "f16": "min.f16", "u32": "min.u32", "s32": "min.s32"},
                   {"f32": "0f7F800000", "f16": "0x00007C00", "u32": "4294967295", "s32": "2147483647"}),
}

#: reductions → combining operation: a butterfly, except where redux.sync does it
REDUCTIONS = {"子组求和": "加", "子组最大": "最大", "子组最小": "最小", "子组求积": "乘"}
#: what sm_80's redux.sync has (an inactive lane is simply not a member): add/min/max of
#: u32 and s32 (floats and products are butterflies), and the bitwise reductions on b32
REDUX_ARITHMETIC = {"子组求和": "add", "子组最大": "max", "子组最小": "min"}
REDUX = {"子组按位与": "and", "子组按位或": "or", "子组按位异或": "xor"}
#: scans → (combining operation, exclusive)
SCANS = {"子组前缀和": ("加", False), "子组前缀积": ("乘", False),
         "子组排他前缀和": ("加", True), "子组排他前缀积": ("乘", True)}
#: shuffles → shfl.sync mode (broadcast takes a lane index like shuffle, seed 着十一)
SHUFFLES = {"子组广播": "idx", "子组洗牌": "idx", "子组异或洗牌": "bfly", "子组上移洗牌": "up", "子组下移洗牌": "down"}
VOTES = {"子组任一": "any", "子组全都": "all"}
#: quad operations → the lane (broadcast: its argument) and shfl.sync mode; every quad is a segment of 4 lanes
QUADS = {"四组广播": (None, "idx"), "四组横换": ("1", "bfly"), "四组纵换": ("2", "bfly"), "四组对角换": ("3", "bfly")}
#: shfl.sync's c operand for quads: segment mask 0b11100 (bits 8–12) keeps a lane in its quad, clamp 3
QUAD_SEGMENT = "0x1c03"


# ---------------------------------------------------------------- lanes and words


def _members(w) -> str:
    return w.warp_members()


def _all_lanes(w) -> bool:
    """Whether every warp of the workgroup is whole, so no lane needs a membership test."""
    return w.warp_members() == FULL_WARP


def _lane(w) -> str:
    return w.op("mov.u32", U32, "%laneid")


def _word_kind(kind: Scalar) -> Scalar:
    """The register a shuffled value lands in: f16 in a 32-bit word."""
    return U32 if kind is F16 else kind


def _word(w, kind: Scalar, x: str) -> str:
    x = w.in_register(kind, x)
    return w.op("mov.b32", U32, f"{{{x}, {x}}}") if kind is F16 else x


def _unword(w, kind: Scalar, word: str) -> str:
    if kind is not F16:
        return word
    low, high = w.reg(F16), w.reg(F16)
    w.emit(f"mov.b32 {{{low}, {high}}}, {word}")
    return low


def _shuffle_word(w, kind: Scalar, mode: str, x: str, b: str, members: str) -> str:
    clamp = UP_CLAMP if mode == "up" else WARP_LANES
    return w.op(f"shfl.sync.{mode}.b32", _word_kind(kind), _word(w, kind, x), b, clamp, members)


def _or_identity(w, kind: Scalar, combine: Combine, word: str, valid: str) -> str:
    """The shuffled value where the source lane took part, else the identity."""
    selected = w.op(f"selp.{'b32' if kind is F16 else kind.name}", _word_kind(kind),
                    word, combine.identities[kind.name], valid)
    return _unword(w, kind, selected)


def _combine(w, combine: Combine, kind: Scalar, a: str, b: str) -> str:
    return w.op(combine.instructions[kind.name], kind, a, b)


def _lane_is_member(w, members: str, source: str) -> str:
    return w.op("setp.ne.u32", PRED, w.op("bfe.u32", U32, members, source, "1"), "0")


# ---------------------------------------------------------------- emitters


def _by_redux(name: str, kind: Scalar) -> bool:
    return name in REDUX_ARITHMETIC and not kind.is_float


def _reduce(w, call, args):
    """redux.sync where sm_80 has it, else a butterfly over the warp's active
    lanes in which a lane that is not active contributes the identity (seed 着十一)."""
    combine = COMBINES[REDUCTIONS[call.name]]
    kinds = leaves(args[0].type)
    members = _members(w)
    lane = None if all(_by_redux(call.name, k) for k in kinds) or _all_lanes(w) else _lane(w)
    out = []
    for kind, x in zip(kinds, args[0].parts):
        total = w.in_register(kind, x)
        if _by_redux(call.name, kind):
            out.append(w.op(f"redux.sync.{REDUX_ARITHMETIC[call.name]}.{kind.name}", kind, total, members))
            continue
        for offset in BUTTERFLY:
            other = _shuffle_word(w, kind, "bfly", total, offset, members)
            if not _all_lanes(w):
                active = _lane_is_member(w, members, w.op("xor.b32", U32, lane, offset))
                other = _or_identity(w, kind, combine, other, active)
            else:
                other = _unword(w, kind, other)
            total = _combine(w, combine, kind, total, other)
        out.append(total)
    return out


def _redux(w, call, args):
    members = _members(w)
    return [w.op(f"redux.sync.{REDUX[call.name]}.b32", kind, w.in_register(kind, x), members)
            for kind, x in zip(leaves(args[0].type), args[0].parts)]


def _scan_step_valid(w, lane: str, step: str) -> str:
    """Whether lane − step is a lane of the warp: the members are lanes 0 … n − 1,
    so every lane below a member is one."""
    return w.op("setp.ge.u32", PRED, lane, step)


def _scan(w, call, args):
    name, exclusive = SCANS[call.name]
    combine = COMBINES[name]
    members, lane = _members(w), _lane(w)
    valid = {step: _scan_step_valid(w, lane, step) for step in SCAN_STEPS}
    out = []
    for kind, x in zip(leaves(args[0].type), args[0].parts):
        total = w.in_register(kind, x)
        for step in SCAN_STEPS:
            other = _shuffle_word(w, kind, "up", total, step, members)
            total = _combine(w, combine, kind, total, _or_identity(w, kind, combine, other, valid[step]))
        if exclusive:
            total = _or_identity(w, kind, combine, _shuffle_word(w, kind, "up", total, "1", members), valid["1"])
        out.append(total)
    return out


def _shuffle(w, call, args):
    mode = SHUFFLES[call.name]
    members = _members(w)
    return [_unword(w, kind, _shuffle_word(w, kind, mode, x, args[1].parts[0], members))
            for kind, x in zip(leaves(args[0].type), args[0].parts)]


def _quad(w, call, args):
    """shfl.sync within segments of 4 lanes: idx takes the lane inside the quad, bfly the xor mask."""
    lane, mode = QUADS[call.name]
    lane = args[1].parts[0] if lane is None else lane
    members = _members(w)
    return [_unword(w, kind, w.op(f"shfl.sync.{mode}.b32", _word_kind(kind), _word(w, kind, x), lane,
                                  QUAD_SEGMENT, members))
            for kind, x in zip(leaves(args[0].type), args[0].parts)]


#: the lowest lane of every warp: its members are lanes 0 … n − 1 (see above)
FIRST_LANE = "0"


def _broadcast_first(w, call, args):
    members, first = _members(w), FIRST_LANE
    return [_unword(w, kind, _shuffle_word(w, kind, "idx", x, first, members))
            for kind, x in zip(leaves(args[0].type), args[0].parts)]


def _elect(w, call, args):
    return [w.op("setp.eq.u32", PRED, _lane(w), FIRST_LANE)]


def _vote(w, call, args):
    return [w.op(f"vote.sync.{VOTES[call.name]}.pred", PRED, w.in_register(PRED, args[0].parts[0]), _members(w))]


def _ballot(w, call, args):
    """Bit i of x for lane i; a warp has 32 lanes, so y, z and w are 0."""
    word = w.op("vote.sync.ballot.b32", U32, w.in_register(PRED, args[0].parts[0]), _members(w))
    return [word, "0", "0", "0"]


SUBGROUP_OPS = {
    **{name: _reduce for name in REDUCTIONS},
    **{name: _redux for name in REDUX},
    **{name: _scan for name in SCANS},
    **{name: _shuffle for name in SHUFFLES},
    "子组广播首个": _broadcast_first, "子组选一": _elect, "子组投票": _ballot,
    **{name: _vote for name in VOTES},
    **{name: _quad for name in QUADS},
}


# ---------------------------------------------------------------- spellings (hover)


def _instructions(combine: str, kinds=("f16", "f32", "u32", "s32")) -> str:
    return " / ".join(sorted({COMBINES[combine].instructions[k] for k in kinds}))


SUBGROUP_SPELLINGS = {
    **{name: f"shfl.sync.bfly.b32 与 {_instructions(c)}，五轮" for name, c in REDUCTIONS.items()},
    **{name: f"整数 redux.sync.{op}.u32 / .s32；浮点 shfl.sync.bfly.b32 与 "
             f"{_instructions(REDUCTIONS[name], ('f16', 'f32'))}，五轮" for name, op in REDUX_ARITHMETIC.items()},
    **{name: f"redux.sync.{op}.b32" for name, op in REDUX.items()},
    **{name: f"shfl.sync.up.b32 与 {_instructions(c)}，五步" + ("，再上移一道" if ex else "")
       for name, (c, ex) in SCANS.items()},
    **{name: f"shfl.sync.{mode}.b32" for name, mode in SHUFFLES.items()},
    "子组广播首个": "shfl.sync.idx.b32（自 0 号线程）",
    "子组选一": "%laneid 等于 0",
    **{name: f"vote.sync.{op}.pred" for name, op in VOTES.items()},
    "子组投票": "vote.sync.ballot.b32（y、z、w 为 0）",
    **{name: f"shfl.sync.{mode}.b32（4 道一段：{QUAD_SEGMENT}）" + (f"，异或 {lane}" if lane else "")
       for name, (lane, mode) in QUADS.items()},
}
