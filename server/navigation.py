"""Go to definition / declaration, references, highlights and rename.

A name bound inside an item (parameter, 令, local function) is looked up in
that item only; a top-level name, type, field or module across every shader
file of the workspace (open documents over the files on disk), since any of
them may import it.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..compiler.syntax.parser import number_value
from ..compiler.types import TRecord, resolve
from ..compiler.query import ITEM_LOCAL, Symbol, bare_names, value_detail
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
    if not name.strip():
        raise RenameRefused("新名字不能只有空白")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise RenameRefused("名字里不能有控制字符")
    if any(c in name for c in "「」\r\n"):
        raise RenameRefused("名字里不能有「、」或换行")
    if name.startswith("："):
        raise RenameRefused("名字不能以「：」开头（「： 开始注释）")
    if number_value(name) is not None:
        raise RenameRefused(f"「{name}」是数字字面量，不能作名字")
    return name


def rename(project: Project, at: Located, new_text: str) -> dict[str, list[tuple[int, int, str]]]:
    """Edits by file: every occurrence of the symbol becomes 「新名」.  Refused
    when the new name would change what any name of the program means."""
    symbol, _ = renamable(project, at)
    name = check_new_name(new_text)
    found = symbol_references(project, at, symbol)
    if name != symbol.name:
        if symbol.kind in ITEM_LOCAL:
            _check_local_rename(project, at, symbol, name)
        elif symbol.kind in ("value", "type"):
            _check_top_level_rename(project, symbol, name, found)
        elif symbol.kind == "field":
            _check_field_rename(project, symbol, name)
    edits: dict[str, list[tuple[int, int, str]]] = {}
    for ref in found:
        edits.setdefault(ref.path, []).append((ref.start, ref.end, f"「{name}」"))
    return edits


def _where(project: Project, path: str, offset: int) -> str:
    """`文件:行` (one-based), the file relative to the workspace root."""
    try:
        shown = os.path.relpath(path, project.ws.root)
    except ValueError:
        shown = path
    return f"{shown}:{project.source(path).position(offset).line + 1}"


def _meaning(symbol: Symbol | None) -> str:
    if symbol is None:
        return "一个未知的名字"
    if symbol.kind == "param":
        return f"参数「{symbol.name}」"
    if symbol.kind in ("local", "localfun"):
        return f"局部名字「{symbol.name}」"
    if symbol.kind == "typevar":
        return f"类型变量「{symbol.name}」"
    where = "内建" if symbol.detail in ("builtin", "builtin-value") else f"模块「{Path(symbol.path).name}」"
    return f"{where}的「{symbol.name}」"


def _check_local_rename(project: Project, at: Located, symbol: Symbol, name: str) -> None:
    """A name bound in an item (令, 得 parameter, local function) renamed to
    `name`: no use of it may then find another binder named `name` (capture),
    and no name `name` inside its scope may then find it (shadowing)."""
    names = bare_names(project.context(at.checked), at.item, at.result.decl if at.result else None)
    base = at.item.start
    for n in names:
        if n.is_type or n.env.get(symbol.name) != symbol:
            continue
        if n.name == symbol.name:          # a use of the renamed binder
            other = n.env.get(name)
            if other is not None and other != symbol and other.kind != "typevar":
                raise RenameRefused(
                    f"不能改名为「{name}」：{_where(project, at.path, base + n.start)} 处的「{symbol.name}」"
                    f"改名后会指{_meaning(other)}（那里已看得见它）")
        elif n.name == name:               # a use the renamed binder would shadow
            other = n.env.get(name)
            if other is not None and other.at > symbol.at:
                continue                   # bound inside the renamed binder's scope: still its own
            if other is None:
                other = _top_level_symbol(at.checked, name)
            raise RenameRefused(
                f"不能改名为「{name}」：{_where(project, at.path, base + n.start)} 处的「{name}」原指"
                f"{_meaning(other)}，改名后会指这个「{symbol.name}」")


def _top_level_symbol(checked, name: str) -> Symbol | None:
    scope = checked.scope
    entry = scope.value(name) if scope is not None else None
    if entry is not None:
        return Symbol("value", name, entry.module, detail=value_detail(entry))
    entry = scope.type(name) if scope is not None else None
    return Symbol("type", name, entry.module) if entry is not None else None


def _layer_of(scope, path: str) -> int | None:
    for i, layer in enumerate(scope.layers):
        if layer is not None and layer.path == path:
            return i
    return None


def _defined_in(scope, name: str, layers) -> Symbol | None:
    for layer in layers:
        entry = layer.values.get(name)
        if entry is not None:
            return Symbol("value", name, entry.module, detail=value_detail(entry))
        entry = layer.types.get(name)
        if entry is not None:
            return Symbol("type", name, entry.module, detail="struct" if entry.is_struct else entry.kind)
    return None


def _check_top_level_rename(project: Project, symbol: Symbol, name: str, found: list[Reference]) -> None:
    """A top-level value or type of module D renamed to `name`.  In every
    module that opens D (D itself included), a bare use of it must not then
    find a local or an earlier layer's `name` (capture), and a bare `name`
    that meant a later layer's name (another import, a builtin) must not then
    find it (shadowing).  Qualified uses only look in D."""
    defining = project.checked(symbol.path)
    if defining is not None and (name in defining.exports.values or name in defining.exports.types):
        site = project.site(Symbol("value" if name in defining.exports.values else "type", name, symbol.path))
        where = f"（{_where(project, site.path, site.start)}）" if site else ""
        raise RenameRefused(f"「{name}」在模块里已有定义{where}")
    uses: dict[str, set[int]] = {}
    for ref in found:
        uses.setdefault(ref.path, set()).add(ref.start)
    files = project.shader_files()
    for path in dict.fromkeys([*uses, *files]):
        try:
            checked = project.checked(path)
        except Exception:
            continue
        if checked is None or checked.scope is None:
            continue
        mine = _layer_of(checked.scope, symbol.path)
        if mine is None:                    # does not open D: only qualified uses, checked above
            continue
        earlier = _defined_in(checked.scope, name, checked.scope.layers[:mine])
        ctx = project.context(checked)
        for item, result in checked.items:
            occs = project.occurrences(checked, item, result, ctx)
            bare_uses = [o for o in occs if o.symbol == symbol and not o.qualified and o.role == "use"]
            if bare_uses and earlier is not None:
                o = bare_uses[0]
                raise RenameRefused(
                    f"不能改名为「{name}」：{_where(project, path, item.start + o.start)} 处的「{symbol.name}」"
                    f"改名后会指{_meaning(earlier)}")
            if bare_uses:
                spots = {o.start for o in bare_uses}
                for n in bare_names(ctx, item, result.decl if result else None):
                    if n.start in spots and name in n.env:
                        other = n.env[name]
                        if (other.kind == "typevar") == n.is_type:
                            raise RenameRefused(
                                f"不能改名为「{name}」：{_where(project, path, item.start + n.start)} 处的"
                                f"「{symbol.name}」改名后会指{_meaning(other)}")
            for o in occs:
                s = o.symbol
                if (s is None or o.qualified or o.token == "operator" or s.name != name
                        or s.kind not in ("value", "type")):
                    continue
                layer = _layer_of(checked.scope, s.path)
                if layer is None or layer > mine:
                    raise RenameRefused(
                        f"不能改名为「{name}」：{_where(project, path, item.start + o.start)} 处的「{name}」原指"
                        f"{_meaning(s)}，改名后会指改名后的「{symbol.name}」")


def _check_field_rename(project: Project, symbol: Symbol, name: str) -> None:
    checked = project.checked(symbol.path) if symbol.path else None
    entry = checked.exports.types.get(symbol.owner) if checked is not None else None
    t = resolve(entry.type) if entry is not None and entry.type is not None else None
    if isinstance(t, TRecord) and t.field_type(name) is not None:
        raise RenameRefused(f"「{symbol.owner}」已有字段「{name}」")
