"""How deeply a function's blocks nest once translated.

Every 若 that is not a select becomes an `if {…}`, every call of a local
function is inlined there (a tail-recursive one as a `loop {…}`), so blocks
nest deeper than the source's brackets show.  naga refuses WGSL whose braces
nest more than 127 deep, and Tint counts each if twice (the statement and its
block) against the same 127; the checker counts conservatively (every 若 is a
block, an inlined call adds its function's own depth plus one) and refuses
more than MAX_BLOCKS levels, so whatever `检查` accepts every target takes.
"""

from __future__ import annotations

from .. import ir
from ..types import is_unit

MAX_BLOCKS = 60   # counting the function's own body; Tint takes 62 nested ifs, naga 126
MESSAGE = (f"「若」与局部函数嵌套过深：译成目标语言后超过 {MAX_BLOCKS} 层块（WGSL 编译器至多 127 层语句嵌套），"
           "请把里层拆成顶层函数")


def too_deep(body: ir.Expr) -> ir.Expr | None:
    """The first 若 or call whose block lies deeper than MAX_BLOCKS, if any."""
    counter = _Blocks()
    counter.depth(body, 1)
    return counter.culprit


class _Blocks:
    def __init__(self) -> None:
        self.inner: dict[int, int] = {}   # id(LocalFun) → the depth its body adds where it is inlined
        self.culprit: ir.Expr | None = None

    def depth(self, e: ir.Expr, level: int) -> int:
        """The deepest block level reached by e written at `level`."""
        if isinstance(e, ir.If):
            deepest = max(self.depth(e.cond, level), self.block(e, e.then, level + 1))
            rest = e.otherwise
            if isinstance(rest, ir.If) and not _needs_statements(rest.cond):
                deepest = max(deepest, self.depth(rest, level))   # } else if … {
            elif rest is not None:
                deepest = max(deepest, self.block(e, rest, level + 1))
            return deepest
        if isinstance(e, ir.LetFun):
            if e.fun.body is not None:
                self.inner[id(e.fun)] = self.depth(e.fun.body, 0)
            return self.depth(e.body, level)
        deepest = level
        if isinstance(e, ir.Call) and e.local is not None:
            deepest = self.reached(e, level + 1 + self.inner.get(id(e.local), 0))
        for child in ir.children(e):
            deepest = max(deepest, self.depth(child, level))
        return deepest

    def block(self, owner: ir.Expr, e: ir.Expr, level: int) -> int:
        self.reached(owner, level)
        return self.depth(e, level)

    def reached(self, e: ir.Expr, level: int) -> int:
        if level > MAX_BLOCKS and self.culprit is None:
            self.culprit = e
        return level


def _needs_statements(e: ir.Expr) -> bool:
    """Whether e may be written as statements (then an else-if cannot stay flat)."""
    return any(isinstance(n, (ir.If, ir.Let, ir.LetFun, ir.Seq))
               or isinstance(n, ir.Call) and (n.local is not None or n.name == "新格" or is_unit(n.type))
               for n in ir.walk(e))
