"""Quick fixes for the common mistakes, each keyed by the diagnostic's code
and fields (compiler/diagnostics.py), never by its wording:

- a bare literal where a fixed-width number is expected (code `wrap-literal`,
  field 构造 = 新无三二) → wrap it: （「新无三二」于「二」）;
- an unknown name (code `unknown-name`, field 名字) → the closest name in scope
  there: fewest edits first, then the user's own (locals, this module, other
  workspace modules) before the builtins (the checker's guess, field 猜测,
  when none is close); only top-level functions where field 应为 says so;
- writing through a 只读 storage buffer (code `read-only`, field 缓冲) → make
  the buffer 读写;
- an unknown name that another module of the package defines (code `import`,
  field 模块路径 = 「包」之…之「模块」) → write that import after the file's imports.
"""

from __future__ import annotations

from ..compiler.check.closest import layer_tier, ranked, scope_candidates
from ..compiler.diagnostics import IMPORT, READ_ONLY, UNKNOWN_NAME, WRAP_LITERAL, Diagnostic
from ..compiler.syntax import ast
from ..compiler.syntax.lexer import lex
from ..compiler.query import bare_names
from .project import Project

class Fix:
    """One quick fix: a title and its edits, (path, start, end, new text)."""

    def __init__(self, title: str, diagnostic: Diagnostic, edits: list[tuple[str, int, int, str]]) -> None:
        self.title = title
        self.diagnostic = diagnostic
        self.edits = edits


def wrap_literal(project: Project, d: Diagnostic) -> Fix | None:
    if d.code != WRAP_LITERAL:
        return None
    ctor = d.fields["构造"]
    text = project.source(d.path).text[d.start:d.end]
    tokens, _ = lex(text)
    argument = text if len(tokens) == 1 else f"（{text}）"
    return Fix(f"用「{ctor}」构造：（「{ctor}」于{argument}）", d, [(d.path, d.start, d.end, f"（「{ctor}」于{argument}）")])


def use_guess(project: Project, d: Diagnostic) -> Fix | None:
    if d.code not in (UNKNOWN_NAME, IMPORT):
        return None
    ranked = suggestions(project, d, d.fields["名字"])
    best = ranked[0] if ranked else d.fields.get("猜测")
    if best is None:
        return None
    return Fix(f"改为「{best}」", d, [(d.path, d.start, d.end, f"「{best}」")])


def suggestions(project: Project, d: Diagnostic, unknown: str) -> list[str]:
    """Names visible where `unknown` is written, closest first, ranked as the
    checker ranks its own guess (compiler/check/closest.py)."""
    checked = project.checked(d.path)
    scope = checked.scope if checked is not None else None
    if scope is None:
        return []
    if d.fields.get("应为") == "顶层函数":
        candidates = [(name, layer_tier(scope, layer)) for layer in scope.layers
                      for name, entry in layer.values.items() if entry.kind == "function"]
    else:
        candidates = scope_candidates(scope, _locals_at(project, checked, d.start), values_only=True)
    return ranked(unknown, candidates)


def _locals_at(project: Project, checked, offset: int) -> list[str]:
    """The local names (令, parameters, local functions) bound around the bare
    name written at absolute `offset`."""
    ctx = project.context(checked)
    for item, result in checked.items:
        if not item.start <= offset < item.start + len(item.text):
            continue
        for n in bare_names(ctx, item, result.decl if result else None):
            if item.start + n.start == offset and not n.is_type:
                return [name for name, s in n.env.items() if s.kind != "typevar"]
        return []
    return []


def make_writable(project: Project, d: Diagnostic) -> Fix | None:
    checked = project.checked(d.path) if d.code == READ_ONLY else None
    entry = checked.scope.value(d.fields["缓冲"]) if checked else None
    module = project.checked(entry.module) if entry is not None else None
    if module is None:
        return None
    site = project.definition_sites(module).get(entry.name, {}).get("者")
    access = _access_field(site[0]) if site else None
    if access is None:
        return None
    start = site[0].start + access.start
    return Fix(f"把「{entry.name}」的访问方式改为「读写」", d, [(module.path, start, site[0].start + access.end, "「读写」")])


def _access_field(item) -> ast.Node | None:
    """The 「只读」 written as the 访问 field of a resource's 组值."""
    stack = [item.node.value] if isinstance(item.node, ast.Definition) else []
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Field) and node.name == "访问" and isinstance(node.value, ast.Name):
            return node.value
        stack.extend(ast.children(node))
    return None


def add_import(project: Project, d: Diagnostic) -> Fix | None:
    if d.code != IMPORT:
        return None
    path = d.fields["模块路径"]
    imports = [item for item in project.ws.parse(d.path).items if isinstance(item.node, ast.Import)]
    text = project.source(d.path).text
    at = 0
    if imports:
        end = imports[-1].start + len(imports[-1].text)
        line_end = text.find("\n", end)
        at = len(text) if line_end == -1 else line_end + 1
    line = f"寻观{path}之书。\n"
    if at == len(text) and text and not text.endswith("\n"):
        line = "\n" + line
    return Fix(f"导入模块：{line.strip()}", d, [(d.path, at, at, line)])


FIXERS = (wrap_literal, add_import, use_guess, make_writable)


def quick_fixes(project: Project, path: str, start: int, end: int) -> list[Fix]:
    if project.checked(path) is None:
        return []
    out = []
    for d in project.ws.diagnostics(path):
        if d.path != path or d.end < start or d.start > end:
            continue
        for fixer in FIXERS:
            fix = fixer(project, d)
            if fix is not None:
                out.append(fix)
    return out
