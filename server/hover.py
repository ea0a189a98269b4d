"""Hover: the type of the name or sub-expression under the cursor, in 豫言
syntax with alias names kept; for builtins also their documentation (the
comment before their declaration) and what each target makes of them."""

from __future__ import annotations

from ..compiler import ir
from ..compiler.backends import BY_NAME
from ..compiler.check.expressions import substitute
from ..compiler.valid.uniformity import CODES, describe, local_uniformity
from ..compiler.types import INT_LIT, KIND, TError, TFun, Type, deep_resolve, resolve
from ..compiler import query
from ..compiler.query import Occurrence, Symbol
from .project import Located, Project
from .targets import builtin_spellings

LOCAL_KINDS = {"local": "局部名字（令）", "param": "参数", "localfun": "局部函数（令 … 为 得 …）",
               "typevar": "类型变量（凡）"}
VALUE_KINDS = {"function": "函数", "const": "常量", "resource": "资源", "entry": "入口项",
               "builtin": "内建函数", "builtin-value": "内建值"}
TYPE_KINDS = {"struct": "结构", "alias": "类型别名", "constructor": "类型构造",
              "family": "类型族", "intrinsic": "编译器内建类型"}


def code(text: str) -> str:
    return f"```zhuose\n{text}\n```"


class HoverWriter:
    """Writes the hover text for one cursor position."""

    def __init__(self, project: Project, at: Located) -> None:
        self.project = project
        self.at = at
        self.show = project.printer(at.checked)
        self.decl = at.result.decl if at.result else None

    def hover(self) -> tuple[str, tuple[int, int]] | None:
        """Markdown and the item-relative span it describes."""
        occ = self.at.occurrence()
        if occ is not None and occ.symbol is not None:
            text = self.symbol(occ)
            if text:
                return text, (occ.start, occ.end)
        e = query.expression_at(self.decl, self.at.offset)
        if e is None or isinstance(e.type, TError):
            return None
        return code(f"{self.show(deep_resolve(e.type))}") + "\n\n表达式的类型", (e.start, e.end)

    # ------------------------------------------------------------ symbols

    def symbol(self, occ: Occurrence) -> str | None:
        s = occ.symbol
        if s.kind in LOCAL_KINDS:
            return self.local(s, occ)
        if s.kind == "value":
            return self.value(s, occ)
        if s.kind == "type":
            return self.type(s)
        if s.kind == "field":
            return self.field(s)
        if s.kind == "module":
            packages = self.project.ws.packages
            parts = [packages.package_of(s.path).name, *packages.module_name(s.path).split("/")]
            return code("之".join(f"「{p}」" for p in parts)) + f"\n\n模块：{s.path}"
        if s.kind == "package":
            pkg = self.project.ws.packages.by_name.get(s.name)
            return code(f"包「{s.name}」") + (f"\n\n{pkg.root}" if pkg else "")
        return None

    def local(self, s: Symbol, occ: Occurrence) -> str:
        t = query.local_type(self.decl, occ)
        shown = f"「{s.name}」乃{self.show(deep_resolve(t))}" if t is not None else f"「{s.name}」"
        uniformity = self.uniformity(s) if s.kind in ("local", "param") else None
        return code(shown) + f"\n\n{LOCAL_KINDS[s.kind]}" + (f"\n\n{uniformity}" if uniformity else "")

    def uniformity(self, s: Symbol) -> str | None:
        """Seed 004's Uniform/Varying: 一致 or 各异 (valid/uniformity.py), once the module checks clean."""
        if not isinstance(self.decl, ir.Function) or self.decl.body is None:
            return None
        ws, checked = self.project.ws, self.at.checked
        if any(d.severity == "错误" and d.code not in CODES for d in ws.diagnostics(checked.path)):
            return None
        info = ws.validate(checked.path)     # kept from the diagnostics just asked for
        taints = local_uniformity(info.modules, info.sources, checked.module.path, self.decl, info.declared)
        taint = next((t for var, t in taints.items() if (var.start, var.end) == (s.at, s.at + len(s.name) + 2)), None)
        return describe(taint, self.decl) if taint is not None else None

    def value(self, s: Symbol, occ: Occurrence) -> str | None:
        checked = self.project.checked(s.path)
        entry = checked.exports.values.get(s.name) if checked else None
        if entry is None:
            return None
        parts = [code(f"「{s.name}」乃{scheme_text(self.show, entry.type_params, entry.type)}")]
        call = self.call_at(occ)
        if entry.type_params and call is not None:
            solved = {k: deep_resolve(v) for k, v in call.type_args.items()}
            parts.append("此处：\n" + code(self.show(substitute(entry.type, solved))))
        where = "" if s.path == self.at.path else f"（{self.project.ws.packages.module_name(s.path)}）"
        parts.append(f"{VALUE_KINDS.get(s.detail, '值')}{where}")
        if entry.doc:
            parts.append(plain(entry.doc))
        if entry.kind == "builtin":
            parts.append(spelling_table(s.name))
        if s.detail == "entry":
            parts.extend(filter(None, [entry_profile(self.project, s.path, s.name)]))
        return "\n\n".join(parts)

    def call_at(self, occ: Occurrence) -> ir.Call | ir.BuiltinValue | None:
        for e in query.walk(query.decl_root(self.decl)):
            if isinstance(e, ir.Call) and e.name_start == occ.start and e.name_end == occ.end:
                return e
        return None

    def type(self, s: Symbol) -> str | None:
        checked = self.project.checked(s.path)
        entry = checked.exports.types.get(s.name) if checked else None
        if entry is None:
            return None
        if entry.type is not None and entry.kind == "alias":
            target = entry.type.named(None)
            body = self.show(target)
            if body == f"「{s.name}」":
                # a builtin alias is the printer's own name for its type
                # (「四维浮」): show what it stands for, one level down
                body = self.show.structure(resolve(target))
            head = f"「{s.name}」即{body}"
        elif entry.kind == "constructor":
            kinds = tuple(KIND if k == "type" else INT_LIT for k in entry.params)
            head = f"「{s.name}」乃{self.show(TFun(kinds, KIND) if kinds else KIND)}"
        else:
            head = f"「{s.name}」"
        parts = [code(head), TYPE_KINDS.get(s.detail, "类型")]
        if entry.doc:
            parts.append(plain(entry.doc))
        return "\n\n".join(parts)

    def field(self, s: Symbol) -> str | None:
        checked = self.project.checked(s.path)
        entry = checked.exports.types.get(s.owner) if checked else None
        record = entry.type.named(None) if entry is not None and entry.type is not None else None
        t = getattr(record, "field_type", lambda _: None)(s.name)
        if t is None:
            return None
        return code(f"「{s.name}」乃{self.show(t)}") + f"\n\n结构「{s.owner}」的字段"


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>#|~"})


def plain(text: str) -> str:
    """Documentation comments are plain text: keep markdown from reading `a[i]` or `*`."""
    return text.translate(_MARKDOWN_SPECIAL)


def binders_text(type_params) -> str:
    """The 凡 binders of a signature: 凡「甲：数」而."""
    return "".join(f"凡「{v.name}{'：' + v.bound if v.bound else ''}」而" for v in type_params)


def scheme_text(show, type_params, t: Type) -> str:
    """A signature's type with its 凡 binders: 凡「甲：数」而化「甲」又化「甲」为「甲」者."""
    return binders_text(type_params) + show(t)


def spelling_table(name: str) -> str:
    rows = [f"| {BY_NAME[t].title} | {spelling_cell(s)} |" for t, s in builtin_spellings(name).items()]
    return "| 目标 | 写法 |\n| --- | --- |\n" + "\n".join(rows)


def spelling_cell(spelled: str | None) -> str:
    """Code in backticks, a description as it is; a | would end the table cell."""
    if spelled is None:
        return "（此目标没有）"
    cell = spelled if spelled.startswith("（") else f"`{spelled}`"
    return cell.replace("|", "\\|")


#: the architectures the hover profiles an entry's kernel for (as 着色器 剖析 does)
PROFILE_ARCHES = ("sm_80", "sm_90")


def entry_profile(project: Project, path: str, item: str) -> str | None:
    """A compute entry's kernel as ptxas builds it (`着色器 剖析`, issue 27):
    registers, spills, stack, shared memory, SASS size and occupancy per
    architecture, with a warning where it spills or keeps a stack in local
    memory; None where the file has no PTX for it or ptxas is not on PATH.
    ptxas runs once per translated text (the profile module keeps it)."""
    from ..compiler.backends import translate
    from ..compiler.backends.ptx.profile import PtxasMissing, profile_entries
    result = translate(project.ws, path, "ptx")
    entry = next((e for e in result.entries if e.item == item), None) if result.text else None
    if entry is None:
        return None
    try:
        kernels = [profile_entries(result.text, [entry], arch)[0] for arch in PROFILE_ARCHES]
    except (PtxasMissing, RuntimeError):
        return None
    lines = [f"剖析（ptxas，块 {'×'.join(map(str, entry.block))}）："] + [f"- {k.summary()}" for k in kernels]
    if any(k.local_memory for k in kernels):
        lines.append("⚠ 这个内核溢出寄存器或用到栈：它们在慢的局部内存里")
    return "\n".join(lines)


def hover(project: Project, at: Located) -> tuple[str, tuple[int, int]] | None:
    return HoverWriter(project, at).hover()
