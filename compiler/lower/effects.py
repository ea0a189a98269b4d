"""What an expression does besides computing its value, decided once for
every writer from the builtin registry's records: whether it writes or
synchronises, reads memory, needs its neighbouring invocations, calls user
code, or is a constant-like value that may be computed before it is known to
be needed.

The facts follow calls: a top-level function's call has its body's facts, and
so has a local function's call (a local call is an effect only when its body
is: the shared decision, see the package docstring).  Checked and lowered
trees alike: an inlined call or a loop has its arguments' and body's facts, a
loop's next round its new values'.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .. import ir
from ..valid import registry


@dataclass(frozen=True)
class Facts:
    """One builtin's behaviour, read from its registry record
    (compiler/valid/registry.py).  `effect`: writes memory, synchronises or
    leaves the invocation, so it runs exactly where and when it is written;
    `reads`: its value depends on memory an effect may change; `neighbours`:
    needs the other invocations of its quad or subgroup (the registry's
    uniform control flow: derivatives, implicit-LOD sampling, barriers,
    subgroup and subgroup-matrix calls), so it is never computed
    speculatively; `pure`: no memory, no effect, no neighbour, so it may be
    computed before it is known to be needed."""

    effect: bool = False
    reads: bool = False
    neighbours: bool = False
    pure: bool = False


#: the lowered forms of a local call (compiler/lower/loops.py)
_LOCAL_CALLS = (ir.Inline, ir.Loop, ir.Next)

#: nodes that compute a value without control flow of their own
_VALUE_NODES = (ir.Literal, ir.LocalRef, ir.BuiltinValue, ir.GlobalRef, ir.Project, ir.MakeTuple, ir.Splat,
                ir.MakeRecord)
VALUE_NODES = _VALUE_NODES     # for a back end that asks what else a branch holds


@cache
def builtin_facts(name: str) -> Facts:
    """The facts of builtin `name`; a value the registry does not know (a
    workspace's own interface file) does nothing besides its value and is
    not pure."""
    b = registry.get(name)
    if b is None:
        return Facts()
    return Facts(b.effect, b.reads, b.uniform, registry.is_pure(name))


class Effects:
    """The facts of every expression of a translation, memoised by node."""

    def __init__(self, modules: list[ir.Module]) -> None:
        self.functions = {(m.path, d.name): d for m in modules for d in m.decls if isinstance(d, ir.Function)}
        self._memo: dict[tuple[str, int], bool] = {}

    def effect(self, e: ir.Expr) -> bool:
        """Writes or synchronises: never reordered against what touches memory."""
        return self._any("effect", e)

    def reads(self, e: ir.Expr) -> bool:
        return self._any("reads", e)

    def neighbours(self, e: ir.Expr) -> bool:
        """Needs the other invocations of its quad or subgroup, here or in a
        function it calls: must run in uniform control flow."""
        return self._any("neighbours", e)

    def must_run(self, e: ir.Expr) -> bool:
        """Has effects or needs its neighbours: never evaluated speculatively."""
        return self.effect(e) or self.neighbours(e)

    def touches_memory(self, e: ir.Expr) -> bool:
        """Reads or writes memory, so its order against an effect matters."""
        return self.effect(e) or self.reads(e)

    def calls(self, e: ir.Expr) -> bool:
        """Calls a top-level or local function (lowered or not)."""
        return any(isinstance(n, _LOCAL_CALLS) or (isinstance(n, ir.Call) and n.kind != "builtin")
                   for n in ir.walk(e))

    def eager(self, e: ir.Expr) -> bool:
        """May be computed even when its value is not needed: value nodes and
        constant-like builtins only (no branches, bindings or user calls)."""
        return all(isinstance(n, _VALUE_NODES) or (isinstance(n, ir.Call) and n.kind == "builtin"
                                                   and builtin_facts(n.name).pure) for n in ir.walk(e))

    # ------------------------------------------------------------ the walk

    def _any(self, fact: str, e: ir.Expr) -> bool:
        key = (fact, id(e))
        if key not in self._memo:
            self._memo[key] = False      # a recursive call adds nothing its function does not
            self._memo[key] = self._here(fact, e) or any(self._any(fact, c) for c in self._parts(e))
        return self._memo[key]

    def _here(self, fact: str, e: ir.Expr) -> bool:
        if not isinstance(e, ir.Call):
            return False
        if e.kind == "builtin":
            return getattr(builtin_facts(e.name), fact)
        if e.kind == "function":
            decl = self.functions.get((e.module, e.name))
            return decl is not None and decl.body is not None and self._any(fact, decl.body)
        return False

    @staticmethod
    def _parts(e: ir.Expr) -> list[ir.Expr]:
        """Subexpressions, and the body a local call runs."""
        parts = ir.children(e)
        if isinstance(e, ir.Call) and e.kind == "local" and e.local.body is not None:
            parts.append(e.local.body)
        return parts
