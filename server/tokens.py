"""Semantic tokens: every name coloured by what it denotes (parameter, local,
function, constant, type, struct, field, module, builtin), plus keywords,
operators, numbers, strings and comments from the lexer, so a file is
coloured right even where the TextMate grammar cannot tell (a name is a
type or a value only by resolution).

Encoded as LSP's relative (line, UTF-16 column, length, type, modifiers)
quintuples; tokens never span lines (comments and strings are cut per line).
"""

from __future__ import annotations

import bisect
import re

from ..compiler.syntax.lexer import KEYWORDS, Comment, iter_lex
from ..compiler.syntax.parser import number_value
from ..compiler.source import SourceFile, utf16_length
from ..compiler.query import ITEM_LOCAL, Occurrence
from .project import Project

TOKEN_TYPES = ["namespace", "type", "struct", "typeParameter", "parameter", "variable", "property",
               "function", "keyword", "comment", "string", "number", "operator"]
TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
_TYPE_INDEX = {t: i for i, t in enumerate(TOKEN_TYPES)}

OPERATOR_TERMINALS = frozenset("""MUL DIV REM ADD SUB SHL SHR EQ NE LT GT LE GE BAND BXOR BOR LAND LOR
NOT NEG""".split())
KEYWORD_TERMINALS = frozenset(KEYWORDS.values()) - OPERATOR_TERMINALS
READONLY_DETAILS = frozenset({"const", "builtin-value", "entry"})
_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def modifiers(occ: Occurrence, builtin_path: str) -> int:
    bits = 0
    if occ.role in ("def", "decl"):
        bits |= 1
    s = occ.symbol
    if s is not None and s.kind not in ITEM_LOCAL:
        if s.detail in READONLY_DETAILS:
            bits |= 2
        if s.path == builtin_path:
            bits |= 4
    return bits


class TokenWriter:
    def __init__(self, project: Project, path: str) -> None:
        self.project = project
        self.path = path
        self.source: SourceFile = project.source(path)

    def names(self) -> dict[int, tuple[str, int]]:
        """Absolute start of each resolved name → (token type, modifiers)."""
        checked = self.project.checked(self.path)
        if checked is None:
            return {}
        builtin = self.project.builtin_path()
        return {item.start + o.start: (o.token, modifiers(o, builtin))
                for item, o in self.project.all_occurrences(checked)}

    def tokens(self, start: int = 0, end: int | None = None) -> list[tuple[int, int, str, int]]:
        """(absolute start, end, type, modifiers) in source order, of the
        tokens that overlap [start, end) (the whole file is lexed, so a range
        never starts inside a comment)."""
        names = self.names()
        out = []
        end = len(self.source.text) if end is None else end
        for t in iter_lex(self.source.text):
            if t.end <= start or t.start >= end:
                continue
            if isinstance(t, Comment):
                out.append((t.start, t.end, "comment", 0))
            elif t.type == "NAME":
                kind = names.get(t.start) or (("number", 0) if number_value(t.value[1:-1]) is not None else None)
                if kind:
                    out.append((t.start, t.end, *kind))
            elif t.type == "STRING":
                out.append((t.start, t.end, "string", 0))
            elif t.type in OPERATOR_TERMINALS:
                out.append((t.start, t.end, "operator", 0))
            elif t.type in KEYWORD_TERMINALS:
                out.append((t.start, t.end, "keyword", 0))
        return out

    def encode(self, tokens) -> list[int]:
        data: list[int] = []
        prev_line = prev_col = 0
        columns = ColumnCursor(self.source)
        for start, end, kind, mods in tokens:
            for piece_start, piece_end in self.line_pieces(start, end):
                line, col = columns.at(piece_start)
                length = columns.width(self.source.text[piece_start:piece_end])
                delta_line = line - prev_line
                data += [delta_line, col - prev_col if delta_line == 0 else col, length, _TYPE_INDEX[kind], mods]
                prev_line, prev_col = line, col
        return data

    def line_pieces(self, start: int, end: int):
        """A token cut at line breaks (without the line break and a CR before it)."""
        text = self.source.text
        while start < end:
            stop = text.find("\n", start, end)
            stop = end if stop == -1 else stop
            piece_end = stop - 1 if stop > start and text[stop - 1] == "\r" else stop
            if piece_end > start:
                yield start, piece_end
            start = stop + 1


class ColumnCursor:
    """Line and UTF-16 column of increasing offsets, each found in time
    proportional to the distance moved (a 10,000-token line stays linear)."""

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.line = 0
        self.offset = 0
        self.column = 0
        # without characters beyond the BMP, UTF-16 units are characters
        self.width = utf16_length if _ASTRAL.search(source.text) else len

    def at(self, offset: int) -> tuple[int, int]:
        starts = self.source.line_starts
        if self.line + 1 < len(starts) and offset >= starts[self.line + 1]:
            self.line = bisect.bisect_right(starts, offset) - 1
            self.offset, self.column = starts[self.line], 0
        self.column += self.width(self.source.text[self.offset:offset])
        self.offset = offset
        return self.line, self.column


def semantic_tokens(project: Project, path: str, start: int = 0, end: int | None = None) -> list[int]:
    writer = TokenWriter(project, path)
    return writer.encode(writer.tokens(start, end))
