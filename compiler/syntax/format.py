"""The formatter (`着色器 格式化`, LSP formatting): one canonical layout.

Only whitespace changes, so the program's meaning cannot: the formatter keeps
every token and comment in order, keeps the line breaks the author chose
(gofmt-like), and recomputes everything else — indentation in full-width
spaces from the nesting of items, 令-chains, 得-bodies, 若/则/否则,
（） and 【】; at most one blank line; a new item on a new line; 。，；
never starting a line; one space where the author put any between two tokens
on a line, none otherwise.  Indentation depends only on the tokens and where
lines break, which the output keeps, so formatting twice changes nothing.
A file with syntax errors is refused: its errors come back instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .lexer import Comment, Token, iter_lex
from .parser import parse_file

INDENT = "\u3000"
#: Tokens that end the line before them rather than start a line.
_GLUED = {"PERIOD", "COMMA", "SEMI"}
#: Tokens after which a new statement (not a continued one) begins.
_OPENS_DEFINITION = {"DEF", "SIG", "TYPEDEF", "CTOR"}
#: Binary operators and 与: a continuation line starting with one lines up
#: with the bracket it continues.
_OPERATORS = {"WITH", "LOR", "LAND", "BOR", "BXOR", "BAND", "EQ", "NE", "LT", "GT", "LE", "GE",
              "SHL", "SHR", "ADD", "SUB", "MUL", "DIV", "REM"}


@dataclass(slots=True)
class SyntaxProblem:
    """A syntax error that stops formatting: absolute offsets, the item's name."""

    start: int
    end: int
    message: str
    definition: str | None


@dataclass(slots=True)
class Formatted:
    text: str | None            # None when the file has syntax errors
    problems: list[SyntaxProblem] = field(default_factory=list)


def format_text(text: str) -> Formatted:
    """The canonical layout of a whole file, or its syntax errors."""
    problems = syntax_problems(text)
    if problems:
        return Formatted(None, problems)
    pieces = list(iter_lex(text))
    out = _Layout(text).render(pieces)
    _assert_same_tokens(text, out)
    return Formatted(out)


def syntax_problems(text: str) -> list[SyntaxProblem]:
    parsed = parse_file(text)
    return [SyntaxProblem(item.start + e.start, item.start + e.end, e.message, item.name)
            for item in parsed.items for e in item.errors]


def _assert_same_tokens(before: str, after: str) -> None:
    """The formatter's one promise, checked on every run: the same tokens and
    comments in the same order."""
    def key(text: str) -> list[tuple[str, str]]:
        return [(type(x).__name__, x.text if isinstance(x, Comment) else x.value) for x in iter_lex(text)]
    if key(before) != key(after):
        raise AssertionError("格式化改变了记号序列")


@dataclass(slots=True)
class _Frame:
    """An open construct: its kind, the indentation of the line it opened on,
    and the indentation of the line its current statement began on (None
    while the next token begins a new statement)."""

    kind: str
    base: int
    statement: int | None = None
    line: int = -1          # the output line it opened on
    first: bool = False     # opened by the first token of that line
    hung: bool = False      # its statement began on that line (see _hangs)
    let_body: bool = False  # an if whose branch is a 令's body: a ； there continues that body


class _Layout:
    def __init__(self, text: str) -> None:
        self.text = text
        self.stack = [_Frame("item", -1)]
        self.lines: list[str] = []
        self.line = ""
        self.indent = 0
        self.first = True
        self.last = ""          # the type of the token placed before the current one
        self.current = 0        # the current token's offset

    # ------------------------------------------------------------ output

    def render(self, pieces: list[Token | Comment]) -> str:
        self.then_breaks = _then_breaks(self.text, [p for p in pieces if isinstance(p, Token)])
        prev_end = 0
        prev: Token | Comment | None = None
        for piece in pieces:
            gap = self.text[prev_end:piece.start]
            breaks = gap.count("\n")
            glued = isinstance(piece, Token) and piece.type in _GLUED
            new_item = isinstance(piece, Token) and isinstance(prev, Token) and prev.type == "PERIOD"
            if prev is None:
                self._start_line(piece, blank=False)
            elif (breaks or new_item) and not glued:
                self._start_line(piece, blank=breaks > 1)
            elif gap and not glued:
                self.line += " "
            self.first = not self.line.strip(INDENT)
            self.line += piece.text if isinstance(piece, Comment) else piece.value
            if isinstance(piece, Token):
                self._after(piece)
                self.last = piece.type
            prev_end, prev = piece.end, piece
        if prev is not None:
            self.lines.append(self.line)
        return "\n".join(self.lines) + "\n" if self.lines else ""

    def _start_line(self, piece: Token | Comment, blank: bool) -> None:
        self.indent = self._indent_for(piece)
        if self.lines or self.line:
            self.lines.append(self.line)
            if blank:
                self.lines.append("")
        self.line = INDENT * self.indent

    # ------------------------------------------------------------ indentation

    def _indent_for(self, piece: Token | Comment) -> int:
        if isinstance(piece, Token):
            frame = self._closed_by(piece.type)
            if frame is not None:
                return frame.base
        top = self.stack[-1]
        if top.statement is None:
            return top.base + 1
        if top.hung and not (isinstance(piece, Token) and piece.type in _OPERATORS):
            return top.statement + 2    # a bracket's operands hang under it, an application is indented
        return top.statement + 1

    def _closed_by(self, kind: str) -> _Frame | None:
        """The frame a line-starting closer lines up with."""
        wanted = {"RPAR": ("paren",), "RBRACK": ("bracket",), "YE": ("def",),
                  "ER": ("let", "head", "fn"), "THEN": ("if",), "ELSE": ("if",)}.get(kind)
        if wanted is None:
            return None
        i = self._find(wanted)
        return None if i is None else self.stack[i]

    def _find(self, kinds: tuple[str, ...]) -> int | None:
        """The innermost frame of one of `kinds`, not looking past brackets."""
        for i in range(len(self.stack) - 1, 0, -1):
            kind = self.stack[i].kind
            if kind in kinds:
                return i
            if kind in ("paren", "bracket"):
                return None
        return None

    # ------------------------------------------------------------ structure

    def _after(self, tok: Token) -> None:
        """Update the open constructs after placing `tok`."""
        kind = tok.type
        self.current = tok.start
        top = self.stack[-1]
        if top.statement is None:
            top.hung = self._hangs(top)
            top.statement = self.indent - top.hung
        if kind == "PERIOD":
            self.stack = [_Frame("item", -1)]
        elif kind == "LPAR":
            self._open("paren")
        elif kind == "LBRACK":
            self._open("bracket")
        elif kind in ("RPAR", "RBRACK"):
            self._pop_to(("paren",) if kind == "RPAR" else ("bracket",))
        elif kind == "YE":
            self._pop_to(("def",))
        elif kind == "LET":
            self._open("let", fresh=False)
        elif kind in ("LAMBDA", "FORALL"):
            self._open("head", fresh=False)
        elif kind == "FN":
            self._open("fn", fresh=False)
        elif kind == "IF":
            self._open("if", fresh=False)
        elif kind == "ER":
            self._after_er()
        elif kind == "WEI":
            self._fresh(("let", "fn"))
        elif kind in ("THEN", "ELSE"):
            self._fresh(("if",))
            self.stack[-1].let_body = False
        elif kind == "SEMI":
            while self.stack[-1].kind == "if" and not self.stack[-1].let_body:
                self.stack.pop()
            self.stack[-1].statement = None
        elif kind == "COMMA":
            self._fresh(("bracket",))
        elif kind in _OPENS_DEFINITION:
            if kind == "DEF" and self._find(("fn",)) is not None:
                self._pop_to(("fn",))
            else:
                self._open("def")

    def _hangs(self, frame: _Frame) -> bool:
        """True when a bracket that starts its line is continued on that line: its
        continuation lines then line up with the bracket itself."""
        return frame.first and frame.line == self.line_no and frame.kind in ("paren", "bracket")

    @property
    def line_no(self) -> int:
        """The index the current output line will have."""
        return len(self.lines)

    def _open(self, kind: str, fresh: bool = True) -> None:
        base = self.indent
        if kind == "if" and not self.first:
            base = self._if_base(base)
        self.stack.append(_Frame(kind, base, None if fresh else self.indent, len(self.lines), self.first))

    def _if_base(self, indent: int) -> int:
        """则/否则 under a 若 that follows other tokens hang one deeper, except
        in a 否则若 chain written with 则 on the 若's line, which stays flat."""
        top = self.stack[-1]
        if top.kind == "if" and self.last == "ELSE" and not self.then_breaks.get(self.current, False):
            return top.base
        return indent + 1

    def _pop_to(self, kinds: tuple[str, ...]) -> None:
        i = self._find(kinds)
        if i is not None:
            del self.stack[i:]

    def _fresh(self, kinds: tuple[str, ...]) -> None:
        i = self._find(kinds)
        if i is not None:
            del self.stack[i + 1:]
        self.stack[-1].statement = None

    def _after_er(self) -> None:
        """而 ends a 令's value (the body follows in the enclosing construct),
        or a 得/凡/化 head (its body or result follows, with no closer)."""
        i = self._find(("let", "head", "fn"))
        if i is None:
            self.stack[-1].statement = None
            return
        frame = self.stack[i]
        del self.stack[i:]
        if frame.kind != "let":
            self.stack.append(_Frame("body", frame.base))
        else:
            # a 令's body runs to the end of the enclosing construct, ； included (着八's grammar:
            # 若 c 则 令 x 为 v 而 a；b is 若 c 则 (令 x 为 v 而 (a；b)))
            self.stack[-1].statement = None
            self.stack[-1].let_body |= self.stack[-1].kind == "if"


def _then_breaks(text: str, tokens: list[Token]) -> dict[int, bool]:
    """For each 若 (by offset), whether its 则 begins a line: the first 则 at
    the same bracket depth (a 若 inside a condition is always bracketed)."""
    result: dict[int, bool] = {}
    open_ifs: list[tuple[int, int]] = []     # (若 offset, depth)
    depth = 0
    prev_end = 0
    for tok in tokens:
        if tok.type in ("LPAR", "LBRACK"):
            depth += 1
        elif tok.type in ("RPAR", "RBRACK"):
            depth -= 1
        elif tok.type == "IF":
            open_ifs.append((tok.start, depth))
        elif tok.type == "THEN" and open_ifs and open_ifs[-1][1] == depth:
            result[open_ifs.pop()[0]] = "\n" in text[prev_end:tok.start]
        prev_end = tok.end
    return result
