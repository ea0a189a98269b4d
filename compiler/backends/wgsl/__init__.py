"""The WGSL back end (seed 着三–着八): `translate(ws, checked)` writes a
checked shader source, with the shader sources it imports, as WGSL."""

from __future__ import annotations

from ...check.module import type_names
from ...types import Printer
from .. import Translation
from .writer import Writer


def translate(ws, checked) -> Translation:
    """WGSL text and entry table of a checked shader source (no errors in it
    or its imports), or the translation errors."""
    modules = [ws.check(p).module for p in checked.module.imports]
    modules = [m for m in modules if not m.is_interface] + [checked.module]
    show = Printer(type_names(ws.builtins().exports))
    return Writer(modules, show).run()
