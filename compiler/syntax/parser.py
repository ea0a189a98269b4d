"""Parsing: a file becomes a list of items, each parsed on its own.

Items end at 。 (a 。 inside a name, comment or string is part of that token),
so the file is split at PERIOD tokens and every item is parsed by lark's LALR
parser separately.  That gives error resilience (a broken item costs only
itself) and incrementality (an item's tree is cached by its text, so an edit
re-parses one item).

lark is imported only when its tables must be built or an item has a
syntax error: a clean file is parsed by `_Tables` from a plain copy of the
tables in the user cache.
"""

from __future__ import annotations

import marshal
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

from .. import cache
from ..diagnostics import KEYWORD_QUOTED, LEX, MISSING_PERIOD, SYNTAX, TOO_DEEP
from . import ast
from ..source import changed_span
from .lexer import KEYWORDS, SURFACE, Comment, Token, iter_lex, name_content

if TYPE_CHECKING:   # lark itself is imported where a syntax error needs its message
    import lark
    from lark.exceptions import UnexpectedInput, UnexpectedToken

#: Deepest nesting the later (recursive) stages are asked to handle.
MAX_DEPTH = 400


@dataclass(slots=True)
class SyntaxDiagnostic:
    """A syntax error: offsets relative to the item start."""

    start: int
    end: int
    message: str
    code: str = SYNTAX
    fields: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class ItemTree:
    """One top-level item parsed, wherever it stands: its tree (None when it
    did not parse) and errors, every offset relative to the item's start.

    `text` is the cache key.  `name`/`kind` are recovered even from a broken
    item that starts like a definition, so other items can still refer to it.
    Nothing here says where the item is, so an edit above it shares this
    object with the previous parse instead of copying it (`ParsedFile.starts`
    says where each one is).
    """

    text: str
    node: ast.Item | None
    errors: list[SyntaxDiagnostic]
    name: str | None = None
    kind: str | None = None  # keyword of a definition-like item: 乃 者 即 立
    name_end: int = 0
    doc: str = ""

    def with_doc(self, doc: str) -> "ItemTree":
        if doc == self.doc:
            return self
        return ItemTree(self.text, self.node, self.errors, self.name, self.kind, self.name_end, doc)


class ParsedItem:
    """An item placed in its file: the tree's fields and `start`, its absolute
    offset.  Made when a reader asks for `ParsedFile.items`, not on every
    parse: a body edit's diagnostics read the trees and starts only."""

    __slots__ = ("tree", "start")

    def __init__(self, tree: ItemTree, start: int) -> None:
        self.tree, self.start = tree, start

    text = property(attrgetter("tree.text"))
    node = property(attrgetter("tree.node"))
    errors = property(attrgetter("tree.errors"))
    name = property(attrgetter("tree.name"))
    kind = property(attrgetter("tree.kind"))
    name_end = property(attrgetter("tree.name_end"))
    doc = property(attrgetter("tree.doc"))


@dataclass(slots=True, eq=False)
class ParsedFile:
    """A file's items and comments, in order, as columns: the items' trees
    and absolute starts, the comments' texts, starts and ends.  The groups (the
    tokens up to one 。: usually one item, several when a missing 。 was
    recovered from) are kept for the next incremental parse as two lists of
    numbers.  So moving everything after an edit copies integers, never
    objects; `items` and `comments`, the objects most readers want, are made
    once per parse when first read."""

    trees: list[ItemTree] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    comment_texts: list[str] = field(default_factory=list)
    comment_starts: list[int] = field(default_factory=list)
    comment_ends: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)    # each group's end offset
    sizes: list[int] = field(default_factory=list)   # each group's number of items
    closed: bool = True     # the last group ends with its 。 (only the last may not)
    import_indices: list[int] = field(default_factory=list)   # which items are imports
    _items: list[ParsedItem] | None = None
    _comments: list[Comment] | None = None

    @property
    def items(self) -> list[ParsedItem]:
        if self._items is None:
            self._items = list(map(ParsedItem, self.trees, self.starts))
        return self._items

    @property
    def comments(self) -> list[Comment]:
        if self._comments is None:
            self._comments = list(map(Comment, self.comment_texts, self.comment_starts, self.comment_ends))
        return self._comments

    @property
    def imports(self) -> list[ParsedItem]:
        """The import items (every check of the file asks)."""
        return [ParsedItem(self.trees[i], self.starts[i]) for i in self.import_indices]


# ---------------------------------------------------------------- numbers

_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")}
_DIGITS.update({"零": 0}, **{str(i): i for i in range(10)})
_NUMBER = re.compile(r"[〇零一二三四五六七八九0-9]+(?:[点.][〇零一二三四五六七八九0-9]+)?")
_HEX = re.compile(r"0[xX][0-9a-fA-F]+")
_MAX_DIGITS = 400


def number_value(content: str) -> tuple[int | float, bool] | None:
    """The value of a numeric literal's content (「四零」 → 40), or None."""
    if _HEX.fullmatch(content):
        return int(content, 16), False
    if not _NUMBER.fullmatch(content):
        return None
    digits = "".join(str(_DIGITS.get(c, c)) for c in content).replace("点", ".")
    if "." in digits:
        return float(digits), True
    digits = digits.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:
        return 10 ** _MAX_DIGITS, False  # out of every type's range all the same; int() refuses 4,300+ digits
    return int(digits), False


# ---------------------------------------------------------------- tree building


class _Token(str):
    """A token as the tree builder reads it: lark.Token's fields (`type`,
    `start_pos`, `end_pos`, the text as the string), without importing lark."""

    def __new__(cls, type_: str, value: str, start_pos: int, end_pos: int) -> "_Token":
        self = super().__new__(cls, value)
        self.type, self.start_pos, self.end_pos = type_, start_pos, end_pos
        return self


def _is_token(x) -> bool:
    """A token (ours or lark's; both are strings), not a node built from one."""
    return isinstance(x, str)


def _s(x) -> int:
    return x.start_pos if _is_token(x) else x.start


def _e(x) -> int:
    return x.end_pos if _is_token(x) else x.end


def _name(tok: _Token) -> str:
    return name_content(str(tok))


def _named(cls):
    """Builder for 「名」乃/者/即/立 … 也 items."""
    def build(self, c):
        return cls(_s(c[0]), _e(c[-1]), _name(c[0]), c[0].end_pos, _unmark(c[2]))
    return build


class _Build:
    """Builds ast nodes bottom-up while the parser reduces (no intermediate
    tree): `_Tables` and lark call a method named after the rule's alias."""

    # items
    def start(self, c):
        return c[0]

    def import_item(self, c):
        path = c[1]
        return ast.Import(_s(c[0]), _e(c[-1]), str(c[0]), path)

    def path(self, c):
        return [ast.Name(t.start_pos, t.end_pos, _name(t)) for t in c if t.type == "NAME"]

    signature = _named(ast.Signature)
    definition = _named(ast.Definition)
    typedef = _named(ast.TypeDef)
    ctor = _named(ast.CtorDecl)

    def bare(self, c):
        return ast.BareExpr(_s(c[0]), _e(c[0]), c[0])

    # types
    def fn_arrow(self, c):
        return ast.TypeFun(_s(c[0]), _e(c[-1]), [_unmark(c[1])], _unmark(c[3]))

    def fn_multi(self, c):
        params = [_unmark(x) for x in c[1:-2] if not _is_token(x)]
        return ast.TypeFun(_s(c[0]), _e(c[-1]), params, _unmark(c[-2]))

    def forall(self, c):
        return ast.TypeForall(_s(c[0]), _e(c[-1]), _name(c[1]), c[1].start_pos, c[1].end_pos,
                              _unmark(c[3]))

    def type_tuple(self, c):
        items = [x for x in c if not _is_token(x)]
        last = items[-1]
        if isinstance(last, _Marked) and isinstance(last.node, ast.TypeTuple):
            items = items[:-1] + last.node.items
        return ast.TypeTuple(_s(c[0]), _e(c[-1]), [_unmark(x) for x in items])

    def type_app(self, c):
        return ast.TypeApp(_s(c[0]), _e(c[-1]), _unmark(c[0]), _unmark(c[2]))

    def type_name(self, c):
        tok = c[0]
        content = _name(tok)
        value = number_value(content)
        if value is not None and not value[1]:
            return ast.TypeIndex(tok.start_pos, tok.end_pos, value[0])
        return ast.TypeName(tok.start_pos, tok.end_pos, content)

    def type_paren(self, c):
        inner = c[1]
        inner = _unmark(inner)
        if isinstance(inner, ast.TypeTuple):
            return _Marked(inner)  # flattened when rightmost in a tuple (seed 着八)
        return inner

    def type_record(self, c):
        fields = c[2] or []
        return ast.TypeRecord(_s(c[0]), _e(c[-1]), _name(c[0]), fields)

    def type_fields(self, c):
        return [x for x in c if isinstance(x, ast.Field)]

    def type_field(self, c):
        return ast.Field(_s(c[0]), _e(c[-1]), _name(c[0]), c[0].end_pos, _unmark(c[2]))

    expr_fields = type_fields

    def expr_field(self, c):
        return ast.Field(_s(c[0]), _e(c[-1]), _name(c[0]), c[0].end_pos, c[2])

    # expressions
    def sequence(self, c):
        first, rest = c[0], c[2]
        items = [first] + (rest.items if isinstance(rest, ast.Sequence) else [rest])
        return ast.Sequence(_s(first), _e(rest), items)

    def if_else(self, c):
        return ast.If(_s(c[0]), _e(c[-1]), c[1], c[3], c[5])

    def if_then(self, c):
        return ast.If(_s(c[0]), _e(c[-1]), c[1], c[3], None)

    def let(self, c):
        return ast.Let(_s(c[0]), _e(c[-1]), _name(c[1]), c[1].start_pos, c[1].end_pos, c[3], c[5])

    def lambda_(self, c):
        """得「甲」而得「乙」而 … is the same function as 得「甲」又得「乙」而 … (LANGUAGE.md §5)."""
        params = [ast.Param(t.start_pos, t.end_pos, _name(t)) for t in c[1:-2] if t.type == "NAME"]
        body = c[-1]
        if isinstance(body, ast.Lambda) and not {p.name for p in params} & {p.name for p in body.params}:
            params, body = params + body.params, body.body
        return ast.Lambda(_s(c[0]), _e(c[-1]), params, body)

    def tuple(self, c):
        items = [x for x in c if not _is_token(x)]
        last = items[-1]
        if isinstance(last, ast.Paren) and isinstance(last.inner, ast.Tuple):
            items = items[:-1] + last.inner.items
        return ast.Tuple(_s(c[0]), _e(c[-1]), items)

    def binary(self, c):
        op = c[1]
        return ast.Operator(_s(c[0]), _e(c[2]), str(op), op.start_pos, [c[0], c[2]])

    def unary(self, c):
        op = c[0]
        return ast.Operator(op.start_pos, _e(c[1]), str(op), op.start_pos, [c[1]])

    def apply(self, c):
        return ast.Apply(_s(c[0]), _e(c[2]), c[0], c[2])

    def type_arg(self, c):
        return ast.TypeArg(_s(c[0]), _e(c[2]), c[0], _unmark(c[2]))

    def project(self, c):
        return ast.Project(_s(c[0]), c[2].end_pos, c[0], _name(c[2]), c[2].start_pos)

    def qualified(self, c):
        return ast.Qualified(c[0].start_pos, c[2].end_pos, _name(c[0]), c[0].end_pos,
                             _name(c[2]), c[2].start_pos)

    def name(self, c):
        tok = c[0]
        content = _name(tok)
        value = number_value(content)
        if value is not None:
            return ast.Number(tok.start_pos, tok.end_pos, value[0], value[1], content)
        return ast.Name(tok.start_pos, tok.end_pos, content)

    def string(self, c):
        return ast.String(c[0].start_pos, c[0].end_pos, str(c[0])[1:-1])

    def paren(self, c):
        return ast.Paren(_s(c[0]), _e(c[2]), c[1])

    def ascribe(self, c):
        return ast.Ascribe(_s(c[0]), _e(c[-1]), c[1], _unmark(c[3]))

    def record(self, c):
        return ast.Record(_s(c[0]), _e(c[-1]), _name(c[0]), c[2] or [])


class _Marked:
    """A parenthesised tuple type, until its context is known."""

    __slots__ = ("node", "start", "end")

    def __init__(self, node):
        self.node, self.start, self.end = node, node.start, node.end


def _unmark(x):
    return x.node if isinstance(x, _Marked) else x


@lru_cache(maxsize=1)
def _lark() -> lark.Lark:
    """lark's LALR parser (compiler/syntax/lalr.py), for the message of a
    syntax error and for building `_Tables`."""
    from . import lalr
    return lalr.lark_parser(_grammar(), _Build())


def _grammar() -> bytes:
    return (Path(__file__).parent / "grammar.lark").read_bytes()


def _callback(build: _Build, method: str | None, expand1: bool, keep: tuple | None, append_none: int):
    """One rule's reduce function from its plain shape (lalr.rule_shape);
    a `_` rule without a method yields its children as a list, for its parent to expand."""
    f = getattr(build, method) if method else list
    if expand1:
        f = _expand_single(f)
    if keep is not None:
        f = _keep_children(f, keep, append_none)
    return f


def _expand_single(f):
    def expand(children):
        return children[0] if len(children) == 1 else f(children)
    return expand


def _keep_children(f, keep: tuple, append_none: int):
    def filtered(children):
        kept = []
        for i, expand, add_none in keep:
            if add_none:
                kept += [None] * add_none
            if expand:
                kept += children[i]
            else:
                kept.append(children[i])
        if append_none:
            kept += [None] * append_none
        return f(kept)
    return filtered


class _Tables:
    """lark's LALR table and tree shaping, read by one plain loop: an item
    is a few dozen tokens, so lark's per-parse setup (lexer thread, parser
    state, frontend) and per-token method calls were about half of parsing
    it, and importing lark is a quarter of a cold start.  Only a successful
    parse is run here; a token the table has no action for hands the item
    back to lark, whose error (expected tokens, the interactive parser
    `_acceptable` probes) stays the one reported."""

    END = _Token("$END", "", 0, 0)

    def __init__(self, plain: tuple) -> None:
        self.plain = plain      # what the user cache keeps
        self.start, self.end, self.states, rules = plain
        build = _Build()
        self.callbacks = [_callback(build, *shape) for shape in rules]

    def parse(self, stream: list[_Token]):
        """The item's tree, or None where lark must say what is wrong."""
        states, end, callbacks = self.states, self.end, self.callbacks
        stack, values = [self.start], []
        for token in [*stream, self.END]:
            while True:
                step = states[stack[-1]].get(token.type)
                if step is None:
                    return None
                if type(step) is int:
                    if token is self.END:
                        return None
                    stack.append(step)
                    values.append(token)
                    break
                size, name, rule = step
                if size:
                    children = values[-size:]
                    del stack[-size:], values[-size:]
                else:
                    children = []
                stack.append(states[stack[-1]][name])
                values.append(callbacks[rule](children))
                if token is self.END and stack[-1] == end:
                    return values[-1]


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """The plain tables from the user cache (keyed by the grammar and this
    package's syntax code, which defines their form), else built by lark."""
    name = cache.key("lalr", _grammar(), cache.code_stamp(("syntax",)))
    return cache.load(name, lambda data: _Tables(marshal.loads(data)), _built_tables, lambda t: marshal.dumps(t.plain))


def _built_tables() -> _Tables:
    """The tables built by lark (a cache miss, or an entry that is not tables)."""
    from . import lalr
    return _Tables(lalr.plain_tables(_lark(), _Build))


# ---------------------------------------------------------------- items


def _item_tokens(tokens: list[Token], base: int) -> list[_Token]:
    return [_Token(t.type, t.value, t.start - base, t.end - base) for t in tokens]


def _describe(tok_type: str, value: str) -> str:
    if tok_type in ("NAME", "STRING"):
        return f"{SURFACE[tok_type]}{value}"
    if tok_type == "$END":
        return "项的结尾"
    return f"「{SURFACE.get(tok_type, value)}」"


_FIRST = ("YE", "RPAR", "RBRACK", "PERIOD", "ER", "THEN", "ELSE", "WEI", "DEF")


def _expected_text(expected: set[str]) -> str:
    """The expected tokens: those that close or continue a form first, then the rest."""
    first = [_describe(t, "") for t in _FIRST if t in expected]
    # strings are never valid in a shader source (seed 着五): not worth suggesting
    words = first + sorted(_describe(t, "") for t in expected if t not in _FIRST and t != "STRING")
    if len(words) > 8:
        words = words[:8] + ["……"]
    return "、".join(words)


def _acceptable(err: UnexpectedToken) -> set[str]:
    """The tokens that really may come next (the LALR table's expected set
    also lists tokens of merged states that would fail a moment later)."""
    try:
        accepts = err.interactive_parser.accepts() if err.interactive_parser else None
    except Exception:  # lark raises its own errors while probing; fall back to the table
        accepts = None
    return set(accepts or err.expected)


_CLOSERS = {"LPAR": "RPAR", "LBRACK": "RBRACK"}

SEQUENCE_IN_BRANCH = "；「若」的分支里有「；」时要加括号：若 条件 则（甲；乙）否则 丙"


def _sequence_before_else(tokens: list[Token], base: int, at: int) -> bool:
    """An unexpected 否则 after 则 … ； …: a branch holding a sequence (LANGUAGE.md §5)."""
    before = [t.type for t in tokens if t.start - base < at]
    return "THEN" in before and "SEMI" in before[len(before) - before[::-1].index("THEN"):]


def _unclosed(tokens: list[Token]) -> str | None:
    """The closing bracket still owed when the item ends, if any."""
    stack = []
    for t in tokens:
        if t.type in _CLOSERS:
            stack.append(_CLOSERS[t.type])
        elif stack and t.type == stack[-1]:
            stack.pop()
    return stack[-1] if stack else None


def _syntax_error(err: UnexpectedInput, length: int, owed: str | None = None,
                  written_period: bool = True) -> SyntaxDiagnostic:
    from lark.exceptions import UnexpectedToken
    if isinstance(err, UnexpectedToken):
        tok = err.token
        expected = _expected_text(_acceptable(err))
        if tok.type in ("PERIOD", "$END") and owed:
            expected = _describe(owed, "")  # an unclosed bracket explains more than the grammar's guesses
        if tok.type == "$END" or (tok.type == "PERIOD" and not written_period):
            return SyntaxDiagnostic(length, length, f"语法错误：项没有写完，此处应为{expected}", fields={"应为": expected})
        if tok.type == "PERIOD":
            return SyntaxDiagnostic(tok.start_pos, tok.end_pos,
                                    f"语法错误：项在「。」处提前结束，此处应为{expected}", fields={"应为": expected})
        found = _describe(tok.type, str(tok))
        return SyntaxDiagnostic(tok.start_pos, tok.end_pos, f"语法错误：此处不应出现{found}，应为{expected}",
                                fields={"应为": expected})
    return SyntaxDiagnostic(0, length, "语法错误")


def _bracketed_keyword(tokens: list[Token], base: int, at: int) -> Token | None:
    """A keyword written as a name (「也」, 「若」) at or just before the error."""
    before = [t for t in tokens if t.start - base < at]
    return next((t for t in before[-2:][::-1] if t.type == "NAME" and name_content(t.value) in KEYWORDS), None)


def _depth_error(tokens: list[Token], base: int) -> SyntaxDiagnostic | None:
    depth = 0
    for t in tokens:
        if t.type in ("LPAR", "LBRACK", "LET", "LAMBDA", "IF", "NOT", "NEG", "FN", "FORALL"):
            depth += 1
            if depth > MAX_DEPTH:
                return SyntaxDiagnostic(t.start - base, t.end - base,
                                        f"嵌套过深：超过 {MAX_DEPTH} 层，请拆成几个定义", TOO_DEEP,
                                        {"上限": str(MAX_DEPTH)})
        elif t.type in ("RPAR", "RBRACK"):
            depth -= 1
    return None


#: nodes whose nesting the token count (_depth_error) already limits, or that do not nest (；)
_COUNTED_BY_TOKENS = (ast.Sequence, ast.Paren, ast.Record, ast.Let, ast.Lambda, ast.If)


def _is_unary(n) -> bool:
    return isinstance(n, ast.Operator) and len(n.operands) == 1


def _tree_too_deep(node) -> SyntaxDiagnostic | None:
    """Long chains of left-associative operators nest without brackets; the
    later (recursive) stages get at most MAX_DEPTH levels."""
    stack = [(node, 1)]
    while stack:
        n, depth = stack.pop()
        if depth > MAX_DEPTH:
            return SyntaxDiagnostic(node.start, node.end, f"表达式嵌套过深：超过 {MAX_DEPTH} 层，请用 令 分成几步",
                                    TOO_DEEP, {"上限": str(MAX_DEPTH)})
        step = 0 if isinstance(n, _COUNTED_BY_TOKENS) or _is_unary(n) else 1
        stack.extend((c, depth + step) for c in ast.children(n))
    return None


def _head(tokens: list[Token], base: int) -> tuple[str | None, str | None, int]:
    if len(tokens) >= 2 and tokens[0].type == "NAME" and tokens[1].type in ("SIG", "DEF", "TYPEDEF", "CTOR"):
        return name_content(tokens[0].value), tokens[1].value, tokens[0].end - base
    return None, None, 0


def parse_item_tokens(text: str, tokens: list[Token]) -> ItemTree:
    """Parse one item's tokens (which end with its PERIOD, if it has one)."""
    base = tokens[0].start
    name, kind, name_end = _head(tokens, base)
    lex_errors = [SyntaxDiagnostic(t.start - base, t.end - base, t.message, LEX)
                  for t in tokens if t.type == "ERROR"]
    if lex_errors:
        return ItemTree(text, None, lex_errors, name, kind, name_end)
    deep = _depth_error(tokens, base)
    if deep:
        return ItemTree(text, None, [deep], name, kind, name_end)
    missing_period = tokens[-1].type != "PERIOD"
    stream = _item_tokens(tokens, base)
    if missing_period:
        end = tokens[-1].end - base
        stream.append(_Token("PERIOD", "。", end, end))
    node = _tables().parse(stream)
    err = None
    if node is None:
        from . import lalr
        node, err = lalr.parse_or_error(_lark(), stream)
    if err is not None:
        error = _syntax_error(err, tokens[-1].end - base, _unclosed(tokens), written_period=not missing_period)
        if getattr(err, "token", None) is not None and err.token.type == "ELSE" and \
                _sequence_before_else(tokens, base, err.token.start_pos):
            error.message += SEQUENCE_IN_BRANCH
        keyword = _bracketed_keyword(tokens, base, error.end)
        if keyword is not None:     # the real mistake: say it there, not at the token after it
            word = name_content(keyword.value)
            error = SyntaxDiagnostic(keyword.start - base, keyword.end - base,
                                     f"语法错误：「{word}」是关键字，不写在「」里：直接写 {word}",
                                     KEYWORD_QUOTED, {"关键字": word})
        return ItemTree(text, None, [error], name, kind, name_end)
    too_deep = _tree_too_deep(node)
    if too_deep is not None:
        return ItemTree(text, None, [too_deep], name, kind, name_end)
    errors = []
    if missing_period:
        end = tokens[-1].end - base
        errors.append(SyntaxDiagnostic(end, end, "缺少「。」：每个顶层项以「。」结束", MISSING_PERIOD))
    return ItemTree(text, node, errors, name, kind, name_end)


class ItemCache:
    """Parsed items by text, shared by every file (an edit re-parses one item).
    The least recently used half goes when it is full: an editor session
    adds an item text per keystroke (30,000 edits once took 200 MB)."""

    def __init__(self, limit: int = 40_000) -> None:
        self.items: dict[str, ItemTree] = {}
        self.limit = limit
        self.parses = 0  # how many items were actually parsed (for tests)

    def get(self, text: str, tokens: list[Token]) -> ItemTree:
        hit = self.items.pop(text, None)
        if hit is None:
            self.parses += 1
            hit = parse_item_tokens(text, tokens)
            evict_oldest(self.items, self.limit)
        self.items[text] = hit          # the most recently used last
        return hit


def evict_oldest(table: dict, limit: int) -> None:
    """Drop the older half of `table` (insertion order, hits moved last) once it holds `limit` entries."""
    if len(table) >= limit:
        for key in list(table)[:len(table) // 2]:
            del table[key]


_DEFAULT_CACHE = ItemCache()


def _split_points(tokens: list[Token], text: str) -> list[int]:
    """Indices of tokens that look like the start of a new item (used to
    recover from a missing 。): an import or 「名」乃/者/即/立 first on its line
    (indentation allowed), or 「名」乃/者/即/立 right after an item's closing 也.
    Never inside a closed 【…】: a record's fields look like definitions."""
    points = []
    inside = _inside_records(tokens)
    for i in range(1, len(tokens)):
        t = tokens[i]
        if i in inside:
            continue
        nxt = tokens[i + 1].type if i + 1 < len(tokens) else None
        starts_definition = t.type == "NAME" and nxt in ("SIG", "DEF", "TYPEDEF", "CTOR")
        if starts_definition and tokens[i - 1].type == "YE":
            points.append(i)
        elif (starts_definition or t.type in ("IMPORT", "IMPORT_OPEN", "OPEN")) and _first_on_line(text, tokens[i - 1], t):
            points.append(i)
    return points


def _first_on_line(text: str, before: Token, t: Token) -> bool:
    """Only white space between the line's start and `t`: looked for between
    the token before and `t` only (a whole-line search made an erroneous
    item of 64,000 tokens on one line take quadratic time)."""
    newline = text.rfind("\n", before.end, t.start)
    return newline >= 0 and not text[newline + 1:t.start].strip(" \t\r\u3000")


def _inside_records(tokens: list[Token]) -> set[int]:
    """Indices of the tokens between a 【 and its matching 】."""
    inside: set[int] = set()
    opened: list[int] = []
    for i, t in enumerate(tokens):
        if t.type == "LBRACK":
            opened.append(i)
        elif t.type == "RBRACK" and opened:
            inside.update(range(opened.pop() + 1, i))
    return inside


def _doc_before(comments: ParsedFile, ci: int, start: int, text: str) -> tuple[str, int]:
    """The comment directly before an item (only white space between), if any."""
    ends = comments.comment_ends
    while ci < len(ends) and ends[ci] <= start:
        ci += 1
    # the blank run after the comment stops at the first other character (a slice to the item
    # copied the whole file for every item after a comment at its start)
    if ci and _BLANK.match(text, ends[ci - 1], start).end() == start:
        return comments.comment_texts[ci - 1][2:-2].strip(" \t\r\n\u3000"), ci
    return "", ci


_BLANK = re.compile("[ \t\r\n\u3000]*")


def parse_file(text: str, cache: ItemCache | None = None,
               old: ParsedFile | None = None, old_text: str | None = None) -> ParsedFile:
    """Parse a whole file; never raises.  Given the previous text and its
    parse, only the region that changed is lexed again: lexing resumes the old
    tokens at the first 。 past the edit that ended an old group."""
    cache = cache or _DEFAULT_CACHE
    if old is None or old_text is None:
        return _parse_from(text, cache, ParsedFile(), 0)
    prefix, suffix = changed_span(old_text, text)
    delta = len(text) - len(old_text)
    kept = bisect_right(old.ends, prefix)      # the groups that end before the edit (in order)
    if kept and kept == len(old.ends) and not old.closed:
        kept -= 1           # an unclosed last group may continue into the edit: it is lexed again
    lex_start = old.ends[kept - 1] if kept else 0
    items = sum(old.sizes[:kept])
    comments = bisect_right(old.comment_ends, lex_start)
    head = ParsedFile(old.trees[:items], old.starts[:items], old.comment_texts[:comments],
                      old.comment_starts[:comments], old.comment_ends[:comments], old.ends[:kept], old.sizes[:kept],
                      import_indices=old.import_indices[:bisect_left(old.import_indices, items)])
    return _parse_from(text, cache, head, lex_start, _Resume(old, len(text) - suffix, delta))


class _Resume:
    """Where the old groups can be taken over again after an edit."""

    def __init__(self, old: ParsedFile, suffix_start: int, delta: int) -> None:
        self.old = old
        self.suffix_start = suffix_start
        self.delta = delta

    def index_after(self, period: Token) -> int | None:
        if period.start < self.suffix_start:
            return None
        ends, end = self.old.ends, period.end - self.delta
        i = bisect_left(ends, end)
        return i + 1 if i < len(ends) and ends[i] == end else None

    def shifted(self, index: int) -> ParsedFile:
        """The old groups from `index` on, `delta` characters later: their
        trees shared, their offsets copied as integers."""
        old, d = self.old, self.delta
        sizes = old.sizes[index:]
        first = len(old.trees) - sum(sizes)
        c = bisect_left(old.comment_starts, old.ends[index - 1])
        imports = old.import_indices[bisect_left(old.import_indices, first):]
        return ParsedFile(old.trees[first:], [s + d for s in old.starts[first:]], old.comment_texts[c:],
                          [s + d for s in old.comment_starts[c:]], [e + d for e in old.comment_ends[c:]],
                          [e + d for e in old.ends[index:]], sizes, old.closed, [i - first for i in imports])


_COLUMNS = ("trees", "starts", "comment_texts", "comment_starts", "comment_ends", "ends", "sizes")


def _parse_from(text: str, cache: ItemCache, head: ParsedFile, start: int,
                resume: _Resume | None = None) -> ParsedFile:
    """`head` (the groups before `start`) and the groups lexed from `start`,
    until one ends where an old group ended past the edit: from there the old
    groups are taken over, moved."""
    out = head
    fresh_from = len(out.trees)
    tail = ParsedFile()
    current: list[Token] = []
    for x in iter_lex(text, start):
        if isinstance(x, Comment):
            out.comment_texts.append(x.text)
            out.comment_starts.append(x.start)
            out.comment_ends.append(x.end)
            continue
        current.append(x)
        if x.type != "PERIOD":
            continue
        _add_group(out, _parse_group(text, current, cache), x.end)
        current = []
        index = resume.index_after(x) if resume else None
        if index is not None:
            tail = resume.shifted(index)
            break
    if current:
        _add_group(out, _parse_group(text, current, cache), current[-1].end)
    _attach_docs(out, fresh_from, text)
    out.closed = tail.closed if tail.ends else not current
    out.import_indices += [i + len(out.trees) for i in tail.import_indices]
    for column in _COLUMNS:
        getattr(out, column).extend(getattr(tail, column))
    return out


def _add_group(out: ParsedFile, group: list[tuple[ItemTree, int]], end: int) -> None:
    for tree, start in group:
        if isinstance(tree.node, ast.Import):
            out.import_indices.append(len(out.trees))
        out.trees.append(tree)
        out.starts.append(start)
    out.ends.append(end)
    out.sizes.append(len(group))


def _attach_docs(parsed: ParsedFile, fresh_from: int, text: str) -> None:
    """The doc comments of the items lexed again (from `fresh_from`)."""
    trees, starts = parsed.trees, parsed.starts
    if fresh_from == len(trees):
        return
    ci = bisect_right(parsed.comment_ends, starts[fresh_from])
    for i in range(fresh_from, len(trees)):
        doc, ci = _doc_before(parsed, ci, starts[i], text)
        trees[i] = trees[i].with_doc(doc)


def _parse_group(text: str, group: list[Token], cache: ItemCache) -> list[tuple[ItemTree, int]]:
    """The group's items with their starts: one item, or the items a missing 。
    was recovered from."""
    start = group[0].start
    tree = cache.get(text[start:group[-1].end], group)
    if tree.node is not None or not tree.errors:
        return [(tree, start)]
    points = _split_points(group, text)
    if not points:
        return [(tree, start)]
    parts = []
    bounds = [0] + points + [len(group)]
    for a, b in zip(bounds, bounds[1:]):
        sub = group[a:b]
        s = sub[0].start
        parts.append((cache.get(text[s:sub[-1].end], sub), s))
    return parts
