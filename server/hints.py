"""Inlay hints: the inferred type after each name a 令 binds, written the
way a signature would give it (「序」乃「无三二」), for ordinary values and
for local functions alike."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..compiler import ir
from ..compiler.types import TError, TFun, contains_meta, deep_resolve, resolve
from ..compiler import query
from .positions import lsp_position
from .project import Project


def let_bindings(decl):
    """(item-relative end of the bound name, its type) for every 令."""
    for e in query.walk(query.decl_root(decl)):
        if isinstance(e, ir.Let):
            yield e.var.end, e.var.type
        elif isinstance(e, ir.LetFun):
            fun = e.fun
            yield fun.end, TFun(tuple(p.type for p in fun.params), fun.result)


def shown_type(show, t) -> str | None:
    t = deep_resolve(t)
    if isinstance(resolve(t), TError) or contains_meta(t) or "「？」" in show(t):
        return None
    return show(t)


def inlay_hints(project: Project, path: str, start: int, end: int) -> list[lsp.InlayHint]:
    checked = project.checked(path)
    if checked is None:
        return []
    source = project.source(path)
    show = project.printer(checked)
    out = []
    for item, result in checked.items:
        if result is None or item.start + len(item.text) < start or item.start > end:
            continue
        for name_end, t in let_bindings(result.decl):
            text = shown_type(show, t)
            if text is not None and start <= item.start + name_end <= end:
                out.append(lsp.InlayHint(position=lsp_position(source, item.start + name_end),
                                         label=f"乃{text}", kind=lsp.InlayHintKind.Type))
    return out
