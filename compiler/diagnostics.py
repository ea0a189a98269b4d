"""Diagnostics: every message names a file, a position and the top-level
definition it belongs to, and is written in Chinese."""

from __future__ import annotations

from dataclasses import dataclass

from .source import SourceFile


@dataclass(slots=True)
class Diagnostic:
    path: str
    start: int          # absolute character offsets
    end: int
    message: str
    definition: str | None = None   # the enclosing top-level definition's name
    severity: str = "错误"          # or "警告"
    code: str = ""                  # a stable identifier, for quick fixes
    related: tuple = ()             # (path, start, end, message): where the cause lies

    def full_message(self) -> str:
        where = f"在「{self.definition}」中：" if self.definition else ""
        return where + self.message

    def format(self, source: SourceFile | None, shown_path: str | None = None) -> str:
        """`文件:行:列: 消息` with one-based line and column (characters)."""
        path = shown_path or self.path
        if source is None:
            return f"{path}:1:1: {self.full_message()}"
        pos = source.position(self.start)
        return f"{path}:{pos.line + 1}:{pos.column + 1}: {self.full_message()}"


@dataclass(slots=True)
class LocalDiagnostic:
    """A diagnostic inside one item, with offsets relative to the item start
    (so it can be cached with the item and moved with it)."""

    start: int
    end: int
    message: str
    code: str = ""
    severity: str = "错误"

    def place(self, path: str, base: int, definition: str | None) -> Diagnostic:
        return Diagnostic(path, base + self.start, base + self.end, self.message,
                          definition, self.severity, self.code)
