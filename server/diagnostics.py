"""What the server publishes for one open file: the checker's diagnostics in
that file, one line on each import whose module (or what it imports) has
errors, and — once a translation has run for exactly this text — the WGSL
back end's errors and naga's verdict."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..compiler.diagnostics import IMPORTED_ERRORS, INTERNAL, TOO_BIG, Diagnostic
from .positions import lsp_range, uri_of
from .project import Project

SOURCE = "着色"
SEVERITY = {"错误": lsp.DiagnosticSeverity.Error, "警告": lsp.DiagnosticSeverity.Warning}


def to_lsp(project: Project, d: Diagnostic) -> lsp.Diagnostic:
    return lsp.Diagnostic(range=lsp_range(project.source(d.path), d.start, d.end),
                          message=d.full_message(), severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error),
                          source=SOURCE, code=d.code or None, related_information=related(project, d),
                          data=d.fields or None)   # the structured fields, for clients that act on them


def related(project: Project, d: Diagnostic) -> list[lsp.DiagnosticRelatedInformation] | None:
    """Where the cause lies (a uniformity mistake's condition and varying source)."""
    return [lsp.DiagnosticRelatedInformation(
        lsp.Location(uri_of(path), lsp_range(project.source(path), start, end)), message)
        for path, start, end, message in d.related] or None


def too_big(project: Project, path: str) -> list[Diagnostic]:
    limit = project.max_chars
    return [Diagnostic(path, 0, 0, f"文件太大（超过 {limit:,} 字）：语言服务不分析它；命令行「着色器 检查」照常可用",
                       severity="警告", code=TOO_BIG)]


def check_diagnostics(project: Project, path: str) -> list[Diagnostic]:
    if project.too_big(path):
        return too_big(project, path)
    checked = project.checked(path)
    every = project.ws.diagnostics(path)
    own = [d for d in every if d.path == path]
    foreign = [d for d in every if d.path != path and d.severity == "错误"]
    return own + imported_errors(project, checked, foreign)


def imported_errors(project: Project, checked, foreign: list[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per import that leads to a module with errors."""
    if not foreign:
        return []
    out = []
    for item, target in project.imports(checked):
        reached = {target, *project.ws.check(target).module.imports}
        mine = [d for d in foreign if d.path in reached]
        if mine:
            first = mine[0]
            where = first.format(project.source(first.path), first.path.rsplit("/", 1)[-1])
            node = item.node
            out.append(Diagnostic(checked.path, item.start + node.start, item.start + node.end,
                                  f"导入的模块有 {len(mine)} 个错误，第一个：{where}", code=IMPORTED_ERRORS,
                                  fields={"数目": str(len(mine))}))
    return out


def internal_error(path: str, err: BaseException) -> list[Diagnostic]:
    """Shown instead of the diagnostics when analysing the file itself failed."""
    what = "嵌套太深" if getattr(err, "too_deep", False) else type(err).__name__
    return [Diagnostic(path, 0, 0, f"语言服务分析此文件时出错（{what}）：请把文件拆小，或报告此问题",
                       code=INTERNAL)]
