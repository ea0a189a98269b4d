"""Completion: the names in scope with their types (locals of the item,
this module, opened imports, builtins), the fields or components after 中,
a module's names after 「模块」之, and packages and modules in an import.

The line being typed rarely parses, so the context is read from the text
before the cursor; only the fields after 中 need the checker, which is asked
about a copy of the document where the half-typed field is a placeholder.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from lsprotocol import types as lsp

from ..compiler import ir
from ..compiler.check.scope import Exports
from ..compiler.packages import INTERFACE_SUFFIX, SHADER_SUFFIX, module_stem
from ..compiler.types import TError, TRecord, TTuple, buffer_contents, chinese_number, contains_meta, deep_resolve, resolve
from ..compiler import query
from .hover import plain, scheme_text
from ..compiler.query import value_detail
from .positions import lsp_range
from .project import Project

#: A placeholder field written where the user is typing one, so the line parses.
PLACEHOLDER = "「零」"
_BINDER = re.compile(r"(?:令|又得|得)[ \t\r\n\u3000]*「([^「」\r\n]+)」")
_QUALIFIER = re.compile(r"「([^「」\r\n]+)」[ \t\r\n\u3000]*之$")
_WRITTEN_NAME = re.compile(r"「[^「」\r\n]+」")
_WS = " \t\r\n\u3000"

VALUE_KINDS = {"function": lsp.CompletionItemKind.Function, "builtin": lsp.CompletionItemKind.Function,
               "builtin-value": lsp.CompletionItemKind.Constant, "const": lsp.CompletionItemKind.Constant,
               "resource": lsp.CompletionItemKind.Variable, "entry": lsp.CompletionItemKind.Event}


@dataclass
class Typing:
    """Where the cursor is: the half-typed name (from its 「 to the cursor,
    and past an auto-closed 」) and the text before it."""

    start: int
    end: int
    before: str      # the file's text before `start`, trailing spaces removed
    item_start: int  # where the item being typed starts


def typing_at(text: str, offset: int, item_start: int) -> Typing:
    line_start = text.rfind("\n", 0, offset) + 1
    open_at = text.rfind("「", line_start, offset)
    start = open_at if open_at != -1 and text.find("」", open_at, offset) == -1 else offset
    end = offset + 1 if start < offset and text.startswith("」", offset) else offset
    if start == offset and text.startswith("「」", offset - 1):
        start, end = offset - 1, offset + 1
    return Typing(start, end, text[:start].rstrip(_WS), item_start)


class Completer:
    def __init__(self, project: Project, path: str, offset: int) -> None:
        self.project = project
        self.path = path
        self.offset = offset
        self.source = project.source(path)
        self.checked = project.checked(path)
        self.show = project.printer(self.checked) if self.checked else None

    def complete(self) -> list[lsp.CompletionItem]:
        if self.checked is None or self.in_comment():
            return []
        text = self.source.text
        item_start, _ = self.project.item_being_typed(self.checked, self.offset)
        typing = typing_at(text, self.offset, item_start)
        if typing.start < self.offset and text.startswith("「：", typing.start):
            return []
        self.range = lsp_range(self.source, typing.start, typing.end)
        head = text[item_start:typing.start].lstrip(_WS)
        if head.startswith(("寻", "观")):
            return self.import_path(typing, head)
        if typing.before.endswith("中"):
            return self.fields(typing)
        qualifier = _QUALIFIER.search(typing.before)
        if qualifier:
            module = self.checked.scope.modules.get(qualifier.group(1))
            return self.layer(module, "1") if module else []
        return self.in_scope(typing)

    def in_comment(self) -> bool:
        parsed = self.project.ws.parse(self.path)
        return any(c.start < self.offset < c.end for c in parsed.comments)

    # ------------------------------------------------------------ items

    def item(self, name: str, kind, detail: str = "", doc: str = "", sort: str = "3") -> lsp.CompletionItem:
        written = f"「{name}」"
        return lsp.CompletionItem(
            label=name, kind=kind, detail=detail or None, sort_text=f"{sort}{name}",
            filter_text=written, text_edit=lsp.TextEdit(range=self.range, new_text=written),
            documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=plain(doc)) if doc else None)

    def type_text(self, t) -> str:
        if t is None or isinstance(resolve(t), TError) or contains_meta(t):
            return ""
        return self.show(deep_resolve(t))

    # ------------------------------------------------------------ contexts

    def in_scope(self, typing: Typing) -> list[lsp.CompletionItem]:
        out = self.locals(typing)
        scope = self.checked.scope
        seen = {i.label for i in out}
        for layer in scope.layers:
            sort = "1" if layer is scope.own else ("3" if layer is scope.builtins else "2")
            for it in self.layer(layer, sort):
                if it.label not in seen:
                    seen.add(it.label)
                    out.append(it)
        for name in scope.modules:
            if name not in seen:
                out.append(self.item(name, lsp.CompletionItemKind.Module, "模块", sort="2"))
        return out

    def layer(self, layer: Exports, sort: str) -> list[lsp.CompletionItem]:
        out = []
        for name, v in layer.values.items():
            detail = scheme_text(self.show, v.type_params, v.type) if not isinstance(v.type, TError) else ""
            out.append(self.item(name, VALUE_KINDS.get(value_detail(v), lsp.CompletionItemKind.Value),
                                 detail, v.doc, sort))
        for name, t in layer.types.items():
            if t.kind in ("alias", "constructor"):
                kind = lsp.CompletionItemKind.Struct if t.is_struct else lsp.CompletionItemKind.TypeParameter
                out.append(self.item(name, kind, "类型", t.doc, sort))
        return out

    def locals(self, typing: Typing) -> list[lsp.CompletionItem]:
        """Names bound by 令 / 得 earlier in the item being typed (with their
        types when the item's last check knew them)."""
        text = self.source.text[typing.item_start:typing.start]
        _, result = self.project.item_being_typed(self.checked, self.offset)
        types = {}
        for (s, e), t in query.binder_types(result.decl if result else None).items():
            types[self.source.text[typing.item_start + s + 1:typing.item_start + e - 1]] = t
        names = dict.fromkeys(m.group(1) for m in _BINDER.finditer(text))
        return [self.item(n, lsp.CompletionItemKind.Variable, self.type_text(types.get(n)), sort="0")
                for n in reversed(list(names))]

    def fields(self, typing: Typing) -> list[lsp.CompletionItem]:
        base = self.projected_type(typing)
        t = buffer_contents(base) if base is not None else None     # 「缓冲」中: the fields of the record it holds
        if isinstance(t, TRecord):
            return [self.item(n, lsp.CompletionItemKind.Field, self.type_text(ft), sort="0") for n, ft in t.fields]
        if isinstance(t, TTuple):
            return [self.item(chinese_number(i), lsp.CompletionItemKind.Field, self.type_text(ft), sort=f"0{i}")
                    for i, ft in enumerate(t.items)]
        return []

    def projected_type(self, typing: Typing):
        """The type of the expression before 中, checked with a placeholder field."""
        text = self.source.text
        end = typing.end
        written = _WRITTEN_NAME.match(text, end) if typing.start == end else None
        if written:  # the cursor stands before a whole name: that name is the field
            end = written.end()
        patched = text[:typing.start] + PLACEHOLDER + text[end:]
        label_end = typing.start + len(PLACEHOLDER)
        with self.project.scratch(self.path, patched) as checked:
            for item, result in checked.items:
                if item.start <= typing.start < item.start + len(item.text) and result is not None:
                    for e in query.walk(query.decl_root(result.decl)):
                        if isinstance(e, ir.Project) and e.end == label_end - item.start:
                            return e.base.type
        return None

    def import_path(self, typing: Typing, head: str) -> list[lsp.CompletionItem]:
        names = re.findall(r"「([^「」\r\n]+)」", head)
        packages = self.project.ws.packages
        if not typing.before.endswith("之"):
            return [self.item(n, lsp.CompletionItemKind.Module, "包", sort="1") for n in sorted(packages.by_name)]
        pkg = packages.by_name.get(names[0]) if names else None
        if pkg is None:
            return []
        folder = pkg.root.joinpath(*names[1:])
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            return []
        out = []
        for entry in entries:
            if entry.endswith((SHADER_SUFFIX, INTERFACE_SUFFIX)):
                out.append(self.item(module_stem(entry), lsp.CompletionItemKind.Module, "模块", sort="1"))
            elif (folder / entry).is_dir() and not entry.startswith("."):
                out.append(self.item(entry, lsp.CompletionItemKind.Folder, "目录", sort="2"))
        return out


def complete(project: Project, path: str, offset: int) -> list[lsp.CompletionItem]:
    return Completer(project, path, offset).complete()
