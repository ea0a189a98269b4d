"""Source text and positions.

Every stage keeps offsets in characters; lines and columns (in characters and
in UTF-16 code units, which the language server speaks) are computed here, on
demand, from one line table per file.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Position:
    """A zero-based line with columns in characters and in UTF-16 code units."""

    line: int
    column: int
    column_utf16: int


def utf16_length(text: str) -> int:
    """Length of `text` in UTF-16 code units (astral characters count twice)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


@dataclass(eq=False)
class SourceFile:
    """One file's text with its line table, built when a position is first
    asked for (an edit that reports nothing never needs it)."""

    path: str
    text: str
    _line_starts: list[int] | None = field(default=None, init=False, repr=False)

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i != -1:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        return self._line_starts

    def position(self, offset: int) -> Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[line]
        prefix = self.text[start:offset]
        return Position(line, len(prefix), utf16_length(prefix))

    def offset(self, line: int, column_utf16: int) -> int:
        """The character offset of an LSP position (line, UTF-16 column)."""
        if line >= len(self.line_starts):
            return len(self.text)
        start = self.line_starts[max(0, line)]
        end = self.line_starts[line + 1] - 1 if line + 1 < len(self.line_starts) else len(self.text)
        units = 0
        for i in range(start, end):
            if units >= column_utf16:
                return i
            units += 2 if ord(self.text[i]) > 0xFFFF else 1
        return end


def decode_source(data: bytes) -> tuple[str, int | None]:
    """Decode UTF-8; on invalid input return the text with replacement
    characters and the character offset of the first bad byte."""
    try:
        text = data.decode("utf-8")
        bad = None
    except UnicodeDecodeError as err:
        good = data[: err.start].decode("utf-8")
        text = data.decode("utf-8", errors="replace")
        bad = len(good)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, bad
