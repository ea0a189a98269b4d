"""Source text and positions.

Every stage keeps offsets in characters; lines and columns (in characters and
in UTF-16 code units, which the language server speaks) are computed here, on
demand, from one line table per file.
"""

from __future__ import annotations

from bisect import bisect_right
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
    _before: "SourceFile | None" = field(default=None, init=False, repr=False)   # edited from, table built
    _last: tuple[int, int] = field(default=(-1, 0), init=False, repr=False)       # (offset, its UTF-16 column)

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            before, self._before = self._before, None
            self._line_starts = line_starts(self.text) if before is None else before.shifted_to(self.text)
        return self._line_starts

    def position(self, offset: int) -> Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[line]
        # many positions on one long line (64k errors) are asked for in order: count from the last one
        last, last_utf16 = self._last
        if start <= last <= offset:
            utf16 = last_utf16 + utf16_length(self.text[last:offset])
        else:
            utf16 = utf16_length(self.text[start:offset])
        self._last = (offset, utf16)
        return Position(line, offset - start, utf16)

    def offset(self, line: int, column_utf16: int) -> int:
        """The character offset of an LSP position (line, UTF-16 column)."""
        return offset_at(self.text, self.line_starts, line, column_utf16)

    def edited(self, text: str) -> "SourceFile":
        """This file with `text` instead.  Its line table, when first asked
        for, is this one's shifted past the edit rather than built again
        (4 ms at 17,000 lines, the first hover after every keystroke), if
        this one was built; the keystroke itself pays nothing for it."""
        new = SourceFile(self.path, text)
        if self._line_starts is not None:
            new._before = self
        return new

    def shifted_to(self, text: str) -> list[int]:
        """This file's line table moved to `text`, an edit of this text."""
        prefix, suffix = changed_span(self.text, text)
        return shifted_line_starts(self.line_starts, prefix, len(self.text) - suffix, text[prefix:len(text) - suffix])


def line_starts(text: str) -> list[int]:
    """The offset where each line of `text` starts (lines end at \\n)."""
    starts = [0]
    find = text.find
    i = find("\n")
    while i != -1:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts


def shifted_line_starts(starts: list[int], start: int, end: int, inserted: str) -> list[int]:
    """The line starts after text[start:end] became `inserted`: lines starting
    in the replaced part go, the inserted text's lines come, later ones move."""
    kept, later = bisect_right(starts, start), bisect_right(starts, end)
    delta = len(inserted) - (end - start)
    return starts[:kept] + [start + s for s in line_starts(inserted)[1:]] + [s + delta for s in starts[later:]]


def offset_at(text: str, starts: list[int], line: int, column_utf16: int) -> int:
    """The character offset of an LSP position in `text` whose line starts
    are `starts`: a line past the end is the end of the text, a column past
    the end of its line the line's end."""
    if line >= len(starts):
        return len(text)
    start = starts[max(0, line)]
    end = starts[line + 1] - 1 if line + 1 < len(starts) else len(text)
    units = 0
    for i in range(start, end):
        if units >= column_utf16:
            return i
        units += 2 if ord(text[i]) > 0xFFFF else 1
    return end


def changed_span(old: str, new: str) -> tuple[int, int]:
    """How many characters the two texts share at the start and, not
    overlapping those, at the end: an edit changed only what lies between."""
    prefix = _common_prefix(old, new)
    return prefix, _common_suffix(old, new, min(len(old), len(new)) - prefix)


def _common_prefix(a: str, b: str) -> int:
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # binary search, comparing only the part not yet known equal (C speed, linear in all)
        mid = (lo + hi + 1) // 2
        if a.startswith(b[lo:mid], lo):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    lo, hi = 0, max(0, limit)
    la, lb = len(a), len(b)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a.endswith(b[lb - mid:lb - lo], 0, la - lo):
            lo = mid
        else:
            hi = mid - 1
    return lo


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
