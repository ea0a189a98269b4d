"""Document symbols: one per top-level name (its signature and definition
together), structs with their fields, and the imports."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..compiler.syntax import ast
from ..compiler.types import TError
from ..compiler.query import value_detail
from .positions import lsp_range
from .project import Project

K = lsp.SymbolKind
VALUE_SYMBOLS = {"function": K.Function, "const": K.Constant, "resource": K.Variable, "entry": K.Event,
                 "builtin": K.Function, "builtin-value": K.Constant}


class SymbolWriter:
    def __init__(self, project: Project, path: str) -> None:
        self.project = project
        self.source = project.source(path)
        self.checked = project.checked(path)
        self.show = project.printer(self.checked) if self.checked else None
        self.by_name: dict[str, lsp.DocumentSymbol] = {}

    def symbols(self) -> list[lsp.DocumentSymbol]:
        if self.checked is None:
            return []
        out: list[lsp.DocumentSymbol] = []
        for item, _ in self.checked.items:
            node = item.node
            name = getattr(node, "name", None) if node is not None else item.name
            end = item.start + len(item.text)
            if isinstance(node, ast.Import):
                shown = "之".join(f"「{n.name}」" for n in node.path)
                out.append(self.symbol(f"{node.kind}{shown}", K.Module, item.start, end, item.start, end, "导入"))
            elif name in self.by_name:
                self.widen(self.by_name[name], end)
            elif name:
                sym = self.named(name, item, end)
                self.by_name[name] = sym
                out.append(sym)
        return out

    def symbol(self, name, kind, start, end, sel_start, sel_end, detail=None, children=None):
        return lsp.DocumentSymbol(
            name=name, kind=kind, detail=detail or None,
            range=lsp_range(self.source, start, end),
            selection_range=lsp_range(self.source, sel_start, sel_end), children=children)

    def named(self, name: str, item, end: int) -> lsp.DocumentSymbol:
        exports = self.checked.exports
        sel = (item.start + (item.node.start if item.node is not None else 0), item.start + item.name_end)
        if name in exports.types:
            entry = exports.types[name]
            detail = self.show(entry.type.named(None)) if entry.type is not None and not entry.is_struct else None
            return self.symbol(f"「{name}」", K.Struct if entry.is_struct else K.TypeParameter,
                               item.start, end, *sel, detail, self.fields(item) if entry.is_struct else None)
        entry = exports.values.get(name)
        kind = VALUE_SYMBOLS.get(value_detail(entry), K.Variable) if entry else K.Variable
        detail = self.show(entry.type) if entry and not isinstance(entry.type, TError) else None
        return self.symbol(f"「{name}」", kind, item.start, end, *sel, detail)

    def fields(self, item) -> list[lsp.DocumentSymbol]:
        record = item.node.type
        return [self.symbol(f"「{f.name}」", K.Field, item.start + f.start, item.start + f.end,
                            item.start + f.start, item.start + f.name_end)
                for f in record.fields] if isinstance(record, ast.TypeRecord) else []

    def widen(self, sym: lsp.DocumentSymbol, end: int) -> None:
        """A definition after its signature: one symbol spanning both."""
        sym.range = lsp.Range(start=sym.range.start, end=lsp_range(self.source, end, end).end)


def document_symbols(project: Project, path: str) -> list[lsp.DocumentSymbol]:
    return SymbolWriter(project, path).symbols()
