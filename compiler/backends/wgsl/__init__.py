"""The WGSL back end (seed 着三–着八): `translate(info)` writes a
validated shader source, with the shader sources it imports, as WGSL;
`builtin_spelling(name)` says what a builtin becomes in WGSL."""

from __future__ import annotations

from ...diagnostics import TRANSLATOR_BUG, Diagnostic
from .. import Translation
from ..targets import DEFAULT_OPTIONS, Options
from .builtins import BUILTINS, DECLARATION_SPELLINGS, FORM_SPELLINGS
from .writer import Writer


def builtin_spelling(name: str) -> str | None:
    """What a call of builtin `name` reads like in WGSL (arguments 甲 乙 丙),
    for hover; None where WGSL has no such builtin (subgroup matrices)."""
    if name in DECLARATION_SPELLINGS:
        return DECLARATION_SPELLINGS[name]
    b = BUILTINS.get(name)
    if b is None or b.form == "unavailable":
        return None
    return FORM_SPELLINGS[b.form].format(b.text)


def translate(info, options: Options = DEFAULT_OPTIONS) -> Translation:
    """WGSL text and entry table of a validated shader source (no errors in it
    or its imports), or the translation errors.  No option changes WGSL:
    it cannot ask for fused or unfused rounding, and its buffer accesses are
    robust by the specification (docs/后端.md〈翻译选项〉)."""
    try:
        return Writer(info).run()
    except Exception as err:  # a translator bug must not end in a traceback
        message = f"WGSL 翻译器内部错误（请报告，附上这个文件）：{type(err).__name__}: {err}"
        return Translation(None, [], [Diagnostic(info.module.path, 0, 0, message, code=TRANSLATOR_BUG, fields={"目标": "WGSL"})])
