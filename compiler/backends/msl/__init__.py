"""The MSL back end (seed 着九): `translate(info)` writes a validated
shader source, with the shader sources it imports, as Metal Shading Language;
`builtin_spelling(name)` says what a builtin becomes in MSL."""

from __future__ import annotations

import re

from .. import Translation
from ..targets import DEFAULT_OPTIONS, Options
from .builtins import BUILTINS, CELL, CELL_SHOWN, DECLARATION_SPELLINGS, Special
from .fragments import function_name
from .writer import MslEntry, MslWriter

__all__ = ["MslEntry", "MslWriter", "builtin_spelling", "translate"]

_ARGUMENT = re.compile(r"\{(\d)(?::p)?\}")
ARGUMENT_NAMES = "甲乙丙丁戊己"


def builtin_spelling(name: str) -> str | None:
    """What a call of builtin `name` reads like in MSL (arguments 甲 乙 丙,
    result type T), for hover; None where MSL has no such builtin."""
    if name == CELL:
        return CELL_SHOWN
    if name in DECLARATION_SPELLINGS:
        return DECLARATION_SPELLINGS[name]
    b = BUILTINS.get(name)
    if b is None:
        return None
    if isinstance(b, Special):
        return b.shown
    text = _ARGUMENT.sub(lambda m: ARGUMENT_NAMES[int(m.group(1))], b.text).replace("{R}", "T")
    return text.replace("{F}", function_name(b.prelude)) if b.prelude else text


def translate(info, options: Options = DEFAULT_OPTIONS) -> Translation:
    """MSL text and entry table of a validated shader source (no errors in it
    or its imports), or the translation errors."""
    return MslWriter(info, options).run()
