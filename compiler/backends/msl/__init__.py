"""The MSL back end (seed 着九): `translate(ws, checked)` writes a checked
shader source, with the shader sources it imports, as Metal Shading Language."""

from __future__ import annotations

from ...check.module import type_names
from ...diagnostics import Diagnostic
from ...types import Printer
from .. import Translation
from .writer import MslEntry, MslWriter

__all__ = ["MslEntry", "MslWriter", "translate"]


def translate(ws, checked) -> Translation:
    """MSL text and entry table of a checked shader source (no errors in it
    or its imports), or the translation errors."""
    module = checked.module
    if module.is_interface:
        return Translation(None, [], [Diagnostic(module.path, 0, 0, "着色内建声明（接口文件）只有声明，没有可翻译的内容")])
    modules = [ws.check(p).module for p in module.imports]
    modules = [m for m in modules if not m.is_interface] + [module]
    show = Printer(type_names(ws.builtins().exports))
    return MslWriter(modules, show).run()
