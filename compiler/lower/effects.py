"""What an expression does besides computing its value, decided once for
every writer: whether it writes or synchronises, reads memory, needs its
neighbouring invocations, calls user code, or is a constant-like value that
may be computed before it is known to be needed.

The facts follow calls: a top-level function's call has its body's facts, and
so has a local function's call (a local call is an effect only when its body
is: the shared decision, see the package docstring).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir


@dataclass(frozen=True)
class Facts:
    """One builtin's behaviour.  `effect`: writes memory, synchronises or leaves
    the invocation, so it runs exactly where and when it is written; `reads`:
    its value depends on memory an effect may change; `neighbours`: needs the
    other invocations of its quad or subgroup (derivatives, subgroup calls),
    so it is never computed speculatively; `runtime`: not a constant-like
    value (resource queries, anything touching memory)."""

    effect: bool = False
    reads: bool = False
    neighbours: bool = False
    runtime: bool = True


PURE = Facts(runtime=False)
_QUERY = Facts()
_LOAD = Facts(reads=True)
_STORE = Facts(effect=True)
_BARRIER = Facts(effect=True, neighbours=True)
_SAMPLE = Facts(reads=True, neighbours=True)
_SUBGROUP = Facts(neighbours=True)
_MATRIX = Facts(effect=True, reads=True, neighbours=True)

_KINDS = {
    _LOAD: "读数组 读共享数组 读共享 读均匀 读存储 读格 原子读 按层采样纹理 读纹素",
    _STORE: "写数组 写共享数组 写共享 写存储 写格 原子加 原子最大 原子最小 原子存 新格 舍弃",
    _QUERY: "数组长度 纹理尺寸",
    _BARRIER: "工作组屏障 存储屏障",
    _SAMPLE: "采样纹理 比较采样",
    _SUBGROUP: """横差 纵差 子组求和 子组最大 子组最小 子组广播 子组洗牌 子组异或洗牌 子组求积 子组按位与 子组按位或
                  子组按位异或 子组前缀和 子组前缀积 子组排他前缀和 子组排他前缀积 子组上移洗牌 子组下移洗牌 子组广播首个
                  子组任一 子组全都 子组投票 子组选一""",
    _MATRIX: """载入矩阵片甲 载入矩阵片乙 载入矩阵片累 载入矩阵片累前八行 载矩阵片甲前八行 载矩阵片甲自存储
                载矩阵片乙自存储 载矩阵片乙自转置存储 满矩阵片累 矩阵片乘加 存矩阵片累 存矩阵片累前八行 存矩阵片累到存储""",
}

#: every builtin that is not PURE, by its Chinese name
BUILTIN_FACTS: dict[str, Facts] = {name: facts for facts, names in _KINDS.items() for name in names.split()}

#: nodes that compute a value without control flow of their own
_VALUE_NODES = (ir.Literal, ir.LocalRef, ir.BuiltinValue, ir.GlobalRef, ir.Project, ir.MakeTuple, ir.MakeRecord)


def builtin_facts(name: str) -> Facts:
    return BUILTIN_FACTS.get(name, PURE)


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

    def must_run(self, e: ir.Expr) -> bool:
        """Has effects or needs its neighbours: never evaluated speculatively."""
        return self.effect(e) or self._any("neighbours", e)

    def touches_memory(self, e: ir.Expr) -> bool:
        """Reads or writes memory, so its order against an effect matters."""
        return self.effect(e) or self.reads(e)

    def calls(self, e: ir.Expr) -> bool:
        """Calls a top-level or local function."""
        return any(isinstance(n, ir.Call) and n.kind != "builtin" for n in ir.walk(e))

    def eager(self, e: ir.Expr) -> bool:
        """May be computed even when its value is not needed: value nodes and
        constant-like builtins only (no branches, bindings or user calls)."""
        return all(isinstance(n, _VALUE_NODES) or (isinstance(n, ir.Call) and n.kind == "builtin"
                                                   and not builtin_facts(n.name).runtime) for n in ir.walk(e))

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
