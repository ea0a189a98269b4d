"""The back ends as the server sees them: what a builtin becomes in each
target (for hover), and the preview of a file's generated code.

Each back end package answers `builtin_spelling(name)` from its own builtin
table, with the arguments named 甲 乙 丙; the server reads nothing else of
them.  A builtin a back end does not have shows as not available there.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from ..compiler.backends import BY_NAME, TARGETS, TargetUnavailable, translate
from .positions import lsp_range


@lru_cache(maxsize=None)
def _backend(target: str):
    try:
        return importlib.import_module(BY_NAME[target].package, "zhuose.compiler.backends")
    except ImportError:
        return None


def builtin_spellings(name: str) -> dict[str, str | None]:
    """What `name` becomes in each target; None where that is not known."""
    out: dict[str, str | None] = {}
    for target in TARGETS:
        spell = getattr(_backend(target.name), "builtin_spelling", None)
        try:
            out[target.name] = spell(name) if spell is not None else None
        except Exception:  # a back end's table in flux must not break hover
            out[target.name] = None
    return out


def preview(project, path: str, target: str) -> dict:
    """The generated text and entry table of `path` for `target`, or its
    errors.  Raises TargetUnavailable for a back end not yet built."""
    if target not in BY_NAME:
        raise TargetUnavailable(f"未知的目标「{target}」：可用的有 {'、'.join(BY_NAME)}")
    if project.too_big(path):
        raise TargetUnavailable("文件太大，语言服务不翻译它")
    if not hasattr(_backend(target), "translate"):
        raise TargetUnavailable(f"目标「{target}」的翻译器尚未实现")
    result = translate(project.ws, path, target)
    return {
        "target": target,
        "text": result.text,
        "entries": [{"item": e.item, "function": e.function, "stage": e.stage} for e in result.entries],
        "errors": [
            {"uri": project.uri(d.path), "range": lsp_range(project.source(d.path), d.start, d.end),
             "message": d.full_message()}
            for d in result.diagnostics if d.severity == "错误"
        ],
    }

