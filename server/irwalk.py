"""Reading the checked IR of one item: the typed expression under a cursor,
and the types of the names an item binds (parameters, 令, local functions).

Walks go through `ir.walk` (no recursion, so a deeply nested item is fine).
IR spans are relative to the item, like the AST's.
"""

from __future__ import annotations

from ..compiler import ir
from ..compiler.types import TFun, Type


def decl_root(decl: ir.Decl | None) -> ir.Expr | None:
    """The expression a declaration carries (a function body, a constant's
    value, the checked constructor call of a resource or an entry)."""
    if isinstance(decl, ir.Function):
        return decl.body
    if isinstance(decl, (ir.Const, ir.Resource, ir.Entry)):
        return decl.value
    return None


def walk(root: ir.Expr | None):
    """Every expression under `root`, parents before children (none for no root)."""
    return ir.walk(root) if root is not None else iter(())


def expression_at(decl: ir.Decl | None, offset: int) -> ir.Expr | None:
    """The smallest expression whose span holds the item-relative `offset`."""
    best = None
    for e in walk(decl_root(decl)):
        if e.start <= offset < e.end and (best is None or e.end - e.start <= best.end - best.start):
            best = e
    return best


def spans(decl: ir.Decl | None) -> dict[tuple[int, int], ir.Expr]:
    """Expressions by span; where spans coincide the outermost is kept
    (so a projection's span finds the projection, not its base)."""
    out: dict[tuple[int, int], ir.Expr] = {}
    for e in walk(decl_root(decl)):
        out.setdefault((e.start, e.end), e)
    return out


def binder_types(decl: ir.Decl | None) -> dict[tuple[int, int], Type]:
    """The type of every name the item binds, by the binder's span."""
    out: dict[tuple[int, int], Type] = {}
    if isinstance(decl, ir.Function):
        for p in decl.params:
            out[(p.start, p.end)] = p.type
    for e in walk(decl_root(decl)):
        if isinstance(e, ir.Let):
            out[(e.var.start, e.var.end)] = e.var.type
        elif isinstance(e, ir.LetFun):
            fun = e.fun
            out[(fun.start, fun.end)] = TFun(tuple(p.type for p in fun.params), fun.result)
            for p in fun.params:
                out[(p.start, p.end)] = p.type
    return out


def local_functions(decl: ir.Decl | None) -> dict[tuple[int, int], ir.LocalFun]:
    return {(e.fun.start, e.fun.end): e.fun for e in walk(decl_root(decl)) if isinstance(e, ir.LetFun)}
