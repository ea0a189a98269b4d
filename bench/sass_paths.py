"""Executed SASS instructions per thread, without a GPU (issue 27): trip
count × body, read from nvdisasm's listing (compiler/backends/ptx/profile.py
`disassemble`) and the trip counts the bench's launch sizes give each loop.

A loop in the SASS is a backward branch (ptxas lays loop bodies out between
the header and the latch).  Which source loop it is, and how far ptxas
unrolled it, is read from a marker: the instructions one source iteration
issues exactly once or a known number of times (a BAR, an FFMA or FMUL, a
SHFL).  The SASS loop holding the most markers per round is the main loop
(trip count ÷ its unroll); another loop of the same source loop is its
remainder (what the main loop leaves, ÷ its own unroll).

The walk then follows one thread that enters every conditional body (in
bounds, every guard true: the most a warp issues when its lanes differ) and
takes no else and no early exit: a forward conditional branch is taken only
when all it skips is loops that run zero times, or a way out of a loop that
has rounds left, a backward one while its loop has rounds left.  A CALL (nvcc's slow float-division path) counts as one
instruction and is not followed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceLoop:
    """One loop of the source: its trip count at the bench's launch sizes, and its marker."""

    trips: int
    marker: tuple[str, ...]    # SASS opcodes one round issues `per_round` of
    per_round: int = 1


@dataclass
class SassLoop:
    header: int
    latch: int
    trips: int = 0


def reachable(instructions) -> set[int]:
    """Offsets control can reach from the entry; a branch on the never-true predicate (`@!PT BRA`, ptxas's
    way to a shfl.sync fallback that only a pre-Volta part would run) is never taken."""
    index = {ins.offset: n for n, ins in enumerate(instructions)}
    seen, todo = set(), [0]
    while todo:
        n = todo.pop()
        if n >= len(instructions) or instructions[n].offset in seen:
            continue
        ins = instructions[n]
        seen.add(ins.offset)
        never = ins.text.split()[1:2] == ["@!PT"]
        if ins.opcode == "BRA" and ins.target is not None and not never:
            todo.append(index[ins.target])
            if ins.predicated:
                todo.append(n + 1)
        elif not (ins.opcode in ("EXIT", "BRA") and not ins.predicated):
            todo.append(n + 1)
    return seen


def loops_of(instructions) -> list[SassLoop]:
    """Every reachable backward branch's loop, outermost first (not the branch to itself that ends a kernel)."""
    live = reachable(instructions)
    found = [SassLoop(i.target, i.offset) for i in instructions
             if i.opcode == "BRA" and i.target is not None and i.target < i.offset and i.offset in live]
    return sorted(found, key=lambda loop: (loop.header, -loop.latch))


def _own_body(loop: SassLoop, loops: list[SassLoop], instructions) -> list:
    """The loop's instructions, those of loops nested in it left out."""
    inner = [o for o in loops if o is not loop and loop.header <= o.header and o.latch <= loop.latch]
    return [i for i in instructions if loop.header <= i.offset <= loop.latch
            and not any(o.header <= i.offset <= o.latch for o in inner)]


def assign_trips(instructions, sources: list[SourceLoop]) -> list[SassLoop]:
    """Each SASS loop's rounds per entry: its source loop's trips over the unrolling the markers show."""
    loops = loops_of(instructions)
    unrolled: dict[int, list[tuple[SassLoop, int]]] = {}
    for loop in loops:
        body = _own_body(loop, loops, instructions)
        for index, source in enumerate(sources):
            markers = sum(i.opcode in source.marker for i in body)
            if markers:
                unrolled.setdefault(index, []).append((loop, max(1, round(markers / source.per_round))))
                break
        else:
            raise ValueError(f"SASS 循环 {loop.header:#x}–{loop.latch:#x} 没有任何源循环的标记指令")
    for index, copies in unrolled.items():
        trips = sources[index].trips
        copies.sort(key=lambda pair: -pair[1])
        main, factor = copies[0]
        main.trips = trips // factor
        left = trips % factor
        for loop, factor in copies[1:]:
            loop.trips, left = left // factor, left % factor
    return loops


def executed(instructions, sources: list[SourceLoop], limit: int = 1_000_000) -> int:
    """Instructions the walk (see the module's docstring) issues from the entry to EXIT."""
    loops = assign_trips(instructions, sources)
    by_latch = {loop.latch: loop for loop in loops}
    index = {ins.offset: n for n, ins in enumerate(instructions)}
    rounds = {loop.latch: 0 for loop in loops}
    count, n = 0, 0
    while count < limit:
        ins = instructions[n]
        count += 1
        if ins.opcode == "EXIT" and not ins.predicated:
            return count
        if ins.opcode == "BRA" and ins.target is not None:
            if ins.target > ins.offset:
                if not ins.predicated or _skips_only_empty_loops(ins, loops) \
                        or _skips_a_way_out(ins, n, instructions, loops, rounds):
                    n = index[ins.target]
                    continue
            elif ins.target == ins.offset:
                raise ValueError(f"走到了 {ins.offset:#x} 处的自循环")
            elif ins.offset in by_latch:
                rounds[ins.offset] += 1
                if rounds[ins.offset] < by_latch[ins.offset].trips:
                    n = index[ins.target]
                    continue
                rounds[ins.offset] = 0
        n += 1
    raise ValueError("走了太多条指令：循环的轮数不对？")


def _skips_a_way_out(branch, n: int, instructions, loops: list[SassLoop], rounds: dict[int, int]) -> bool:
    """A conditional branch inside a loop with rounds left, to a place inside it, over an
    unconditional branch out of it: the way past that exit is the one a round takes (ptxas
    lays a loop's short way on, 若 i 等于 序 则 下一轮, first, its end a branch out)."""
    around = [loop for loop in loops if loop.header <= branch.offset <= loop.latch
              and branch.target <= loop.latch and rounds[loop.latch] + 1 < loop.trips]
    return any(ins.opcode == "BRA" and not ins.predicated and ins.target is not None
               and not loop.header <= ins.target <= loop.latch
               for loop in around for ins in instructions[n + 1:]
               if ins.offset < branch.target)


def _skips_only_empty_loops(branch, loops: list[SassLoop]) -> bool:
    skipped = [loop for loop in loops if branch.offset < loop.header < branch.target]
    return bool(skipped) and all(loop.trips == 0 for loop in skipped)
