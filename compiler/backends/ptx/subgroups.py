"""Subgroup operations on the warp (seed 着十一, its limits lifted), keyed by
the builtin's Chinese name.

The warp's members are known statically: the uniformity analysis
(compiler/valid/uniformity.py) refuses a subgroup call outside control flow
uniform within its subgroup, so every lane that exists reaches it — all 32,
or in the partial last warp of a workgroup whose size is not a multiple of
32, its first lanes (the writer's `warp_members`, computed once per entry).
activemask would name only the lanes that happen to be converged.

Values move between lanes as 32-bit words (`_words`): f16 components two to
a word, a lone one doubled, and combine as f16x2 — each half exactly as the
f16 instruction would, so a vec2<f16> takes one shuffle and one add per step
instead of two; every other component is a word of its own.

Reductions are butterflies of shfl.sync.bfly (integer add/min/max and the
bitwise ones redux.sync, which sm_80 has for b32); inclusive scans are five
shfl.sync.up steps (Hillis–Steele).  A step whose source lane does not exist
(a butterfly partner past the end of a partial warp, a lane below the scan's
distance) is simply not taken: its combine is predicated off, so a lane
combines exactly the values of the lanes that exist, in the order a whole
warp would — no identity value is folded in (+0.0 is no identity of IEEE
addition for −0.0, nor ±∞ of max/min for NaN).  In a whole warp no lane is
tested.  An exclusive integer sum is the inclusive one minus the lane's own
value (exact: both wrap modulo 2³²); other exclusive scans (floats do not
subtract exactly, products do not divide) move the inclusive one up a lane.
An integer sum of values that are 0 or 1 (a selp between them, as 选择 and
a bool's conversion write it) counts instead: popc of the ballot of x ≠ 0
under %lanemask_le (inclusive) or %lanemask_lt (exclusive) — the ballot has
a bit only for lanes that exist, and a count below 33 does not wrap.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .scalars import F16, PRED, U32, Scalar, leaves

FULL_WARP = "0xffffffff"
WARP_LANES = "31"   # shfl.sync's clamp operand for idx/down/bfly: the whole 32-lane warp
UP_CLAMP = "0"      # shfl.sync.up's clamp operand: lane 0 is the lower bound
BUTTERFLY = ("16", "8", "4", "2", "1")
SCAN_STEPS = ("1", "2", "4", "8", "16")
PAIR = "f16x2"      # the combining kind of a word of two f16


@dataclass(frozen=True)
class Combine:
    """A combining operation: its instruction per kind (f16 in pairs, see
    above) and, for the scans', its identity per kind as an immediate of the
    word (the lane-0 value of an exclusive scan)."""

    instructions: dict[str, str]
    identities: dict[str, str] = field(default_factory=dict)


#: f32 combines written as ops.f32_arithmetic writes 加 and 乘 (without .rn where nothing can fuse)
F32_COMBINES = {"add.rn.f32": "add", "mul.rn.f32": "mul"}
COMBINES = {
    "加": Combine({"f32": "add.rn.f32", PAIR: "add.rn.f16x2", "u32": "add.u32", "s32": "add.s32"},
                 {"f32": "0f00000000", PAIR: "0x00000000", "u32": "0", "s32": "0"}),
    "乘": Combine({"f32": "mul.rn.f32", PAIR: "mul.rn.f16x2", "u32": "mul.lo.u32", "s32": "mul.lo.s32"},
                 {"f32": "0f3F800000", PAIR: "0x3C003C00", "u32": "1", "s32": "1"}),
    "最大": Combine({"f32": "max.f32", PAIR: "max.f16x2", "u32": "max.u32", "s32": "max.s32"}),
    "最小": Combine({"f32": "min.f32", PAIR: "min.f16x2", "u32": "min.u32", "s32": "min.s32"}),
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
#: exclusive scans that are the inclusive one less the lane's own value: integer sums, by kind
EXCLUSIVE_BY_SUBTRACTION = {("加", "u32"): "sub.u32", ("加", "s32"): "sub.s32"}
#: scans of 0/1 values that count the ballot's bits: the lanes at or below this one, or below it
COUNTED_SCANS = {"子组前缀和": "%lanemask_le", "子组排他前缀和": "%lanemask_lt"}
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


@dataclass(frozen=True)
class _Word:
    """One 32-bit word that moves between lanes: `kind` names how it combines
    (f32, u32, s32, or PAIR), `halves` how many f16 components it carries (0: none)."""

    kind: str
    register: str
    halves: int = 0


def _words(w, kinds: list[Scalar], parts: list[str]) -> list[_Word]:
    """The value's components as words: consecutive f16 two to a word, a lone one doubled."""
    out, i = [], 0
    while i < len(kinds):
        if kinds[i] is not F16:
            out.append(_Word(kinds[i].name, w.in_register(kinds[i], parts[i])))
            i += 1
            continue
        halves = 2 if i + 1 < len(kinds) and kinds[i + 1] is F16 else 1
        low = w.in_register(F16, parts[i])
        high = w.in_register(F16, parts[i + 1]) if halves == 2 else low
        out.append(_Word(PAIR, w.op("mov.b32", U32, f"{{{low}, {high}}}"), halves))
        i += halves
    return out


def _unwords(w, words: list[_Word], registers: list[str]) -> list[str]:
    """The components back from the words' new registers."""
    out = []
    for word, register in zip(words, registers):
        if not word.halves:
            out.append(register)
            continue
        low, high = w.reg(F16), w.reg(F16)
        w.emit(f"mov.b32 {{{low}, {high}}}, {register}")
        out += [low, high][:word.halves]
    return out


def _shuffled(w, mode: str, word: str, b: str, c: str, members: str) -> str:
    return w.op(f"shfl.sync.{mode}.b32", U32, word, b, c, members)


def _shuffle_each(w, value, mode: str, b: str, c: str) -> list[str]:
    """Every component of `value` shuffled alike (shuffles, broadcasts, quads)."""
    members = _members(w)
    words = _words(w, leaves(value.type), value.parts)
    return _unwords(w, words, [_shuffled(w, mode, word.register, b, c, members) for word in words])


def _combine_where(w, instruction: str, total: str, other: str, valid: str | None) -> str:
    """total ⊕ other; under a predicate, into total itself where it holds (total is then this
    emitter's own register), else total unchanged."""
    if valid is None and instruction in F32_COMBINES:   # the user's 加 and 乘 spelled alike: ptxas shares equal sums
        return w.f32_arithmetic(F32_COMBINES[instruction], total, other)
    if valid is None:
        return w.op(instruction, U32, total, other)
    w.emit(f"@{valid} {instruction} {total}, {total}, {other}")
    return total


def _own(w, word: _Word, guarded: bool) -> str:
    """The register a guarded combine may overwrite: a copy, since the word may be the argument's."""
    return w.copy(U32, word.register) if guarded else word.register


# ---------------------------------------------------------------- emitters


def _by_redux(name: str, kind: Scalar) -> bool:
    return name in REDUX_ARITHMETIC and not kind.is_float


def _partners_exist(w) -> dict[str, str | None]:
    """Per butterfly distance d, whether lane ^ d exists: None in whole warps.  The members
    are lanes 0 … n − 1 of a warp whose first thread has local index b = index & ~31, so
    lane j exists iff b + j < size; with j = lane ^ d (d < 32 keeps b), b + j = index ^ d:
    one compare of index ^ d with the workgroup's size, no bit of the member mask read."""
    if _all_lanes(w):
        return dict.fromkeys(BUTTERFLY)
    index, size = w.local_linear_index(), str(w.entry.workgroup_size or 1)   # as warp_members reads it
    return {d: w.op("setp.lt.u32", PRED, w.op("xor.b32", U32, index, d), size) for d in BUTTERFLY}


def _reduce(w, call, args):
    """redux.sync where sm_80 has it, else a butterfly in which a partner that
    does not exist is not combined (seed 着十一)."""
    combine = COMBINES[REDUCTIONS[call.name]]
    kinds = leaves(args[0].type)
    members = _members(w)
    if all(_by_redux(call.name, k) for k in kinds):
        return [w.op(f"redux.sync.{REDUX_ARITHMETIC[call.name]}.{k.name}", k, w.in_register(k, x), members)
                for k, x in zip(kinds, args[0].parts)]
    exists = _partners_exist(w)
    words, totals = _words(w, kinds, args[0].parts), []
    for word in words:
        total = _own(w, word, not _all_lanes(w))
        for offset in BUTTERFLY:
            other = _shuffled(w, "bfly", total, offset, WARP_LANES, members)
            total = _combine_where(w, combine.instructions[word.kind], total, other, exists[offset])
        totals.append(total)
    return _unwords(w, words, totals)


def _redux(w, call, args):
    members = _members(w)
    return [w.op(f"redux.sync.{REDUX[call.name]}.b32", kind, w.in_register(kind, x), members)
            for kind, x in zip(leaves(args[0].type), args[0].parts)]


def _scan_step_valid(w, lane: str, step: str) -> str:
    """Whether lane − step is a lane of the warp: the members are lanes 0 … n − 1,
    so every lane below a member is one."""
    return w.op("setp.ge.u32", PRED, lane, step)


def _zero_or_one(w, register: str) -> bool:
    """Whether `register` holds 0 or 1 wherever it is read: what set it, as far as the writer's
    `defined` knows (nothing has written it since), is a selp between them."""
    instruction, operands = w.defined.get(register, ("", ()))
    return instruction in ("selp.u32", "selp.s32") and operands[:2] in (("1", "0"), ("0", "1"))


def _counted(w, word: _Word, lanes: str, members: str) -> str:
    """Σ x over the lanes `lanes` names, each x 0 or 1: popc of the ballot of x ≠ 0 there."""
    votes = w.op("vote.sync.ballot.b32", U32, w.op("setp.ne.u32", PRED, word.register, "0"), members)
    return w.op("popc.b32", U32, w.op("and.b32", U32, votes, w.op("mov.u32", U32, lanes)))


def _scan(w, call, args):
    name, exclusive = SCANS[call.name]
    combine = COMBINES[name]
    members = _members(w)
    words, totals = _words(w, leaves(args[0].type), args[0].parts), []
    if call.name in COUNTED_SCANS and all(word.kind in ("u32", "s32") and _zero_or_one(w, word.register)
                                          for word in words):
        return [_counted(w, word, COUNTED_SCANS[call.name], members) for word in words]
    lane = _lane(w)
    valid = {step: _scan_step_valid(w, lane, step) for step in SCAN_STEPS}
    for word in words:
        total = _own(w, word, True)
        for step in SCAN_STEPS:
            other = _shuffled(w, "up", total, step, UP_CLAMP, members)
            total = _combine_where(w, combine.instructions[word.kind], total, other, valid[step])
        if exclusive and (name, word.kind) in EXCLUSIVE_BY_SUBTRACTION:
            total = w.op(EXCLUSIVE_BY_SUBTRACTION[name, word.kind], U32, total, word.register)
        elif exclusive:
            before = _shuffled(w, "up", total, "1", UP_CLAMP, members)
            selp = "selp.b32" if word.kind == PAIR else f"selp.{word.kind}"
            total = w.op(selp, U32, before, combine.identities[word.kind], valid["1"])
        totals.append(total)
    return _unwords(w, words, totals)


def _shuffle(w, call, args):
    return _shuffle_each(w, args[0], SHUFFLES[call.name], args[1].parts[0],
                         UP_CLAMP if SHUFFLES[call.name] == "up" else WARP_LANES)


def _quad(w, call, args):
    """shfl.sync within segments of 4 lanes: idx takes the lane inside the quad, bfly the xor mask."""
    lane, mode = QUADS[call.name]
    return _shuffle_each(w, args[0], mode, args[1].parts[0] if lane is None else lane, QUAD_SEGMENT)


#: the lowest lane of every warp: its members are lanes 0 … n − 1 (see above)
FIRST_LANE = "0"


def _broadcast_first(w, call, args):
    return _shuffle_each(w, args[0], "idx", FIRST_LANE, WARP_LANES)


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


def _instructions(combine: str, kinds=(PAIR, "f32", "u32", "s32")) -> str:
    return " / ".join(sorted({COMBINES[combine].instructions[k] for k in kinds}))


def _exclusive_spelling(combine: str, exclusive: bool) -> str:
    if not exclusive:
        return ""
    return "，整数减去自身，浮点再上移一道" if any(c == combine for c, _ in EXCLUSIVE_BY_SUBTRACTION) else "，再上移一道"


def _counted_spelling(name: str) -> str:
    return f"；0 或 1 之和：vote.sync.ballot.b32 与 {COUNTED_SCANS[name]} 下的 popc.b32" if name in COUNTED_SCANS else ""


SUBGROUP_SPELLINGS = {
    **{name: f"shfl.sync.bfly.b32 与 {_instructions(c)}，五轮" for name, c in REDUCTIONS.items()},
    **{name: f"整数 redux.sync.{op}.u32 / .s32；浮点 shfl.sync.bfly.b32 与 "
             f"{_instructions(REDUCTIONS[name], (PAIR, 'f32'))}，五轮" for name, op in REDUX_ARITHMETIC.items()},
    **{name: f"redux.sync.{op}.b32" for name, op in REDUX.items()},
    **{name: f"shfl.sync.up.b32 与 {_instructions(c)}，五步" + _exclusive_spelling(c, ex) + _counted_spelling(name)
       for name, (c, ex) in SCANS.items()},
    **{name: f"shfl.sync.{mode}.b32" for name, mode in SHUFFLES.items()},
    "子组广播首个": "shfl.sync.idx.b32（自 0 号线程）",
    "子组选一": "%laneid 等于 0",
    **{name: f"vote.sync.{op}.pred" for name, op in VOTES.items()},
    "子组投票": "vote.sync.ballot.b32（y、z、w 为 0）",
    **{name: f"shfl.sync.{mode}.b32（4 道一段：{QUAD_SEGMENT}）" + (f"，异或 {lane}" if lane else "")
       for name, (lane, mode) in QUADS.items()},
}
