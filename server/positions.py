"""Offsets ↔ LSP positions, and URIs ↔ workspace paths.

The core keeps character offsets; the protocol speaks lines and UTF-16
columns.  Every conversion goes through `SourceFile`'s line table, so astral
characters (which count twice in UTF-16) are placed right.
"""

from __future__ import annotations

import os

from lsprotocol import types as lsp
from pygls.uris import from_fs_path, to_fs_path

from ..compiler.source import SourceFile


def lsp_position(source: SourceFile, offset: int) -> lsp.Position:
    pos = source.position(offset)
    return lsp.Position(line=pos.line, character=pos.column_utf16)


def lsp_range(source: SourceFile, start: int, end: int) -> lsp.Range:
    return lsp.Range(start=lsp_position(source, start), end=lsp_position(source, max(start, end)))


def offset_at(source: SourceFile, position: lsp.Position) -> int:
    """The character offset of an LSP position (clamped into the file)."""
    return source.offset(max(0, position.line), max(0, position.character))


def path_of(uri: str) -> str | None:
    """The real path a `file:` URI names; None for other schemes."""
    if not isinstance(uri, str) or not uri.startswith("file:"):
        return None
    try:
        path = to_fs_path(uri)
        return os.path.realpath(path) if path and "\0" not in path else None
    except (ValueError, OSError):   # a malformed URI names no file
        return None


def uri_of(path: str) -> str:
    return from_fs_path(path) or path
