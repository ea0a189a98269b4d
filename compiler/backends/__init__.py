"""Back ends: each reads the checked IR (compiler/ir.py) and writes one target.

Every back end exposes `translate(info) -> Translation`, reading the
validation pass's `ModuleInfo` (compiler/valid/); `translate` below picks one
by target name, so the command line, the language server's preview and
build-time generation share one entry point.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from .. import ir
from ..diagnostics import INTERFACE_FILE, Diagnostic
from .targets import BY_NAME, DEFAULT_OPTIONS, TARGETS, Options, Target  # noqa: F401 (the target records are public here)
from .targets import with_module_options

INTERFACE_ONLY = "着色内建声明（接口文件）只有声明，没有可翻译的内容"


@dataclass
class EntryInfo:
    """One entry item: its name, the function it names in the target, its stage (计算 顶点 片元)."""

    item: str
    function: str
    stage: str


@dataclass
class Translation:
    """The translated text, or errors (then `text` is None)."""

    text: str | None
    entries: list[EntryInfo] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


class TargetUnavailable(Exception):
    """The target's back end is not part of this build yet."""


def translate(ws, path, target: str, options: Options = DEFAULT_OPTIONS) -> Translation:
    """Check and validate `path` and translate it to `target` under `options`;
    type and validation errors come back as diagnostics (with no text)."""
    if target not in BY_NAME:
        raise TargetUnavailable(f"未知的目标「{target}」：可用的有 {'、'.join(BY_NAME)}")
    try:
        backend = importlib.import_module(BY_NAME[target].package, __name__)
    except ModuleNotFoundError as err:
        raise TargetUnavailable(f"目标「{target}」的翻译器尚未实现") from err
    checked = ws.check(path)
    errors = [d for d in ws.diagnostics(path) if d.severity == "错误"]
    if errors:
        return Translation(None, [], errors)
    if checked.module.is_interface:
        return Translation(None, [], [Diagnostic(checked.module.path, 0, 0, INTERFACE_ONLY, code=INTERFACE_FILE)])
    entries = [d for d in checked.module.decls if isinstance(d, ir.Entry)]
    options = with_module_options(options, entries)
    return ws.translation(path, target, lambda info: backend.translate(info, options), options)
