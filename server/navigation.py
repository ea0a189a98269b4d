"""Go to definition / declaration, references, highlights and rename.

A name bound inside an item (parameter, 令, local function) is looked up in
that item only; a top-level name, type, field or module across every shader
file of the workspace (open documents over the files on disk), since any of
them may import it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..compiler.syntax.parser import number_value
from .index import ITEM_LOCAL, Symbol
from .project import Located, Project, Site


class RenameRefused(Exception):
    """Why a rename cannot be done (shown to the user)."""


@dataclass(frozen=True)
class Reference:
    path: str
    start: int
    end: int
    role: str  # def decl use


def definition(project: Project, at: Located, declaration: bool = False) -> Site | None:
    occ = at.occurrence()
    if occ is None or occ.symbol is None:
        return None
    return project.site(occ.symbol, at, declaration)


def references(project: Project, at: Located, include_declaration: bool = True) -> list[Reference]:
    occ = at.occurrence()
    if occ is None or occ.symbol is None:
        return []
    found = symbol_references(project, at, occ.symbol)
    return [r for r in found if include_declaration or r.role == "use"]


def symbol_references(project: Project, at: Located, symbol: Symbol) -> list[Reference]:
    if symbol.kind in ITEM_LOCAL:
        base = at.item.start
        return [Reference(at.path, base + o.start, base + o.end, o.role)
                for o in at.occurrences if o.symbol == symbol]
    files = project.shader_files()
    if symbol.path and symbol.path not in files:
        files.append(symbol.path)
    out = []
    for path in files:
        checked = project.checked(path)
        if checked is None:
            continue
        for item, o in project.all_occurrences(checked):
            if o.symbol == symbol:
                out.append(Reference(path, item.start + o.start, item.start + o.end, o.role))
    return out


def highlights(project: Project, at: Located) -> list[Reference]:
    """The occurrences of the symbol under the cursor in this file."""
    occ = at.occurrence()
    if occ is None or occ.symbol is None:
        return []
    if occ.symbol.kind in ITEM_LOCAL:
        return symbol_references(project, at, occ.symbol)
    return [Reference(at.path, item.start + o.start, item.start + o.end, o.role)
            for item, o in project.all_occurrences(at.checked) if o.symbol == occ.symbol]


# ---------------------------------------------------------------- rename


def renamable(project: Project, at: Located) -> tuple[Symbol, tuple[int, int]]:
    """The symbol under the cursor and its span, or RenameRefused."""
    occ = at.occurrence()
    if occ is None or occ.symbol is None:
        raise RenameRefused("这里没有可改名的名字")
    s = occ.symbol
    if s.kind in ("module", "package"):
        raise RenameRefused("模块名与包名由文件名与 包.json 决定，不能在这里改名")
    if s.kind == "typevar":
        raise RenameRefused("类型变量不能改名")
    if s.kind not in ITEM_LOCAL:
        if s.path == project.builtin_path() or not s.path.startswith(str(project.ws.root)):
            raise RenameRefused(f"「{s.name}」是工作区之外的名字（如内建名字），不能改名")
    return s, (at.item.start + occ.start, at.item.start + occ.end)


def check_new_name(text: str) -> str:
    """The content of a valid name, accepting it with or without 「」."""
    name = text[1:-1] if text.startswith("「") and text.endswith("」") and len(text) >= 2 else text
    if not name:
        raise RenameRefused("新名字不能为空")
    if any(c in name for c in "「」\r\n"):
        raise RenameRefused("名字里不能有「、」或换行")
    if name.startswith("："):
        raise RenameRefused("名字不能以「：」开头（「： 开始注释）")
    if number_value(name) is not None:
        raise RenameRefused(f"「{name}」是数字字面量，不能作名字")
    return name


def rename(project: Project, at: Located, new_text: str) -> dict[str, list[tuple[int, int, str]]]:
    """Edits by file: every occurrence of the symbol becomes 「新名」."""
    symbol, _ = renamable(project, at)
    name = check_new_name(new_text)
    if symbol.kind in ("value", "type"):
        checked = project.checked(symbol.path)
        if checked and (name in checked.exports.values or name in checked.exports.types):
            raise RenameRefused(f"「{name}」在模块里已有定义")
    edits: dict[str, list[tuple[int, int, str]]] = {}
    for ref in symbol_references(project, at, symbol):
        edits.setdefault(ref.path, []).append((ref.start, ref.end, f"「{name}」"))
    return edits
