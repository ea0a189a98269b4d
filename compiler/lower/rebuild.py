"""Copying a node with new direct subexpressions, for the lowering passes."""

from __future__ import annotations

from dataclasses import replace

from .. import ir


def rebuilt(e: ir.Expr, parts: list[ir.Expr]) -> ir.Expr:
    """A copy of `e` whose direct subexpressions are `parts` (in `ir.children` order)."""
    if isinstance(e, ir.Call):
        return replace(e, args=parts)
    if isinstance(e, ir.Project):
        return replace(e, base=parts[0])
    if isinstance(e, ir.Splat):
        return replace(e, value=parts[0])
    if isinstance(e, ir.MakeTuple):
        return replace(e, items=parts)
    if isinstance(e, ir.MakeRecord):
        return replace(e, fields=[(name, v) for (name, _), v in zip(e.fields, parts)])
    if isinstance(e, ir.If):
        return replace(e, cond=parts[0], then=parts[1], otherwise=parts[2] if e.otherwise is not None else None)
    if isinstance(e, ir.Let):
        return replace(e, value=parts[0], body=parts[1])
    if isinstance(e, ir.Seq):
        return replace(e, items=parts)
    if isinstance(e, ir.UniformLoad):
        return replace(e, load=parts[0])
    raise TypeError(f"no lowering for {type(e).__name__}")
