"""The back ends as the server sees them: what a builtin becomes in each
target (for hover), and the preview of a file's generated code.

Each back end spells builtins from its own table keyed by the builtin's
Chinese name (WGSL: form and operator/function; MSL: a template over the
arguments; PTX: an instruction per scalar kind).  The readers below show
those tables with the arguments named 甲 乙 丙; a builtin a table does not
list shows as not available in that target.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache

from ..compiler.backends import TARGETS, TargetUnavailable, translate
from .positions import lsp_range

#: target name → how the target is called in hover text
TARGET_TITLES = {"wgsl": "WGSL", "msl": "MSL", "ptx": "PTX"}


@lru_cache(maxsize=None)
def _backend(target: str):
    try:
        return importlib.import_module(TARGETS[target], "zhuose.compiler.backends")
    except ImportError:
        return None


ARGUMENTS = "甲乙丙丁戊"

#: how each form of the WGSL table is written (see wgsl/writer.py)
WGSL_FORMS = {
    "infix": "甲 {} 乙", "prefix": "{}甲", "call": "{}(…)", "atomic": "{}(&甲[乙], …)", "address": "{}(&甲)",
    "literal": "{}(甲)，字面量写成带类型的字面量", "index": "甲[乙]", "store_index": "甲[乙] = 丙",
    "load": "甲", "store": "甲 = 乙", "cell_new": "var", "discard": "discard", "convert": "T(甲)",
    "bitcast": "bitcast<T>(甲)", "unavailable": "没有：{}",
}


def wgsl_spelling(name: str) -> str | None:
    from ..compiler.backends.wgsl.builtins import BUILTINS
    b = BUILTINS.get(name)
    return WGSL_FORMS.get(b.form, b.form).format(b.text) if b is not None else None


def msl_spelling(name: str) -> str | None:
    from ..compiler.backends.msl.builtins import BUILTINS
    b = BUILTINS.get(name)
    if b is None:
        return None
    if not hasattr(b, "text"):
        return "（按实参类型而定）"
    text = re.sub(r"\{(\d)(?::p)?\}", lambda m: ARGUMENTS[int(m.group(1))], b.text)
    return text.replace("{R}", "T")


def ptx_spelling(name: str) -> str | None:
    from ..compiler.backends.ptx import ops
    if name in ops.INSTRUCTIONS:
        return " / ".join(sorted({i for i in ops.INSTRUCTIONS[name].values() if i})) or "（不需指令）"
    if name in ops.COMPARISONS:
        return f"setp.{ops.COMPARISONS[name]}.T"
    return "（指令序列）" if name in ops.OPS else None


SPELLINGS = {"wgsl": wgsl_spelling, "msl": msl_spelling, "ptx": ptx_spelling}


def builtin_spellings(name: str) -> dict[str, str | None]:
    """What `name` becomes in each target; None where that is not known."""
    out: dict[str, str | None] = {}
    for target, read in SPELLINGS.items():
        try:
            out[target] = read(name)
        except Exception:  # a back end's table in flux must not break hover
            out[target] = None
    return out


def preview(project, path: str, target: str) -> dict:
    """The generated text and entry table of `path` for `target`, or its
    errors.  Raises TargetUnavailable for a back end not yet built."""
    if target not in TARGETS:
        raise TargetUnavailable(f"未知的目标「{target}」：可用的有 {'、'.join(TARGETS)}")
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

