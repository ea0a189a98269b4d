"""WGSL tokens for the importer's lark grammar (wgsl.lark).

WGSL's `<` is either less-than or the start of a template list
(`array<f32, 4>`); the specification settles which by a scan over the
source before parsing ("template list discovery"), and this lexer does the
same, so the grammar stays LALR(1): template brackets become TSTART/TEND.
Comments are kept aside with their positions for the emitter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KEYWORDS = {
    "enable": "ENABLE", "requires": "REQUIRES", "diagnostic": "DIAGNOSTIC", "fn": "FN", "var": "VAR",
    "const": "CONST", "override": "OVERRIDE", "alias": "ALIAS", "struct": "STRUCT",
    "const_assert": "CONST_ASSERT", "return": "RETURN", "if": "IF", "else": "ELSE", "switch": "SWITCH",
    "case": "CASE", "default": "DEFAULT", "loop": "LOOP", "for": "FOR", "while": "WHILE", "break": "BREAK",
    "continue": "CONTINUE", "continuing": "CONTINUING", "discard": "DISCARD", "let": "LET",
    "true": "TRUE", "false": "FALSE",
}

#: punctuation, longest first
PUNCTUATION = [
    ("<<=", "ASSIGN_OP"), (">>=", "ASSIGN_OP"), ("->", "_ARROW"), ("&&", "_ANDAND"), ("||", "_OROR"),
    ("==", "REL_OP"), ("!=", "REL_OP"), ("<=", "REL_OP"), (">=", "REL_OP"), ("<<", "SHIFT_OP"),
    ("++", "INCDEC"), ("--", "INCDEC"),
    ("+=", "ASSIGN_OP"), ("-=", "ASSIGN_OP"), ("*=", "ASSIGN_OP"), ("/=", "ASSIGN_OP"), ("%=", "ASSIGN_OP"),
    ("&=", "ASSIGN_OP"), ("|=", "ASSIGN_OP"), ("^=", "ASSIGN_OP"),
    ("(", "_LP"), (")", "_RP"), ("{", "_LB"), ("}", "_RB"), ("[", "_LS"), ("]", "_RS"), (";", "_SEMI"),
    (",", "_COMMA"), (":", "_COLON"), (".", "_DOT"), ("@", "_AT"), ("=", "_EQ"), ("|", "_BAR"),
    ("^", "_CARET"), ("&", "AMP"), ("-", "MINUS"), ("+", "PLUS"), ("*", "STAR"), ("/", "SLASH"),
    ("%", "PERCENT"), ("!", "_BANG"), ("~", "_TILDE"), ("<", "<"), (">", ">"),
]

_FLOAT = (r"0[xX](?:[0-9a-fA-F]*\.[0-9a-fA-F]+|[0-9a-fA-F]+\.?)(?:[pP][+-]?[0-9]+)[fh]?"
          r"|0[xX][0-9a-fA-F]*\.[0-9a-fA-F]*[fh]?(?![0-9a-fA-F])"
          r"|(?:[0-9]*\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][+-]?[0-9]+)?[fh]?"
          r"|[0-9]+[eE][+-]?[0-9]+[fh]?|[0-9]+[fh]")
_INT = r"0[xX][0-9a-fA-F]+[iu]?|[0-9]+[iu]?"
_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<line>//[^\n]*)|(?P<block>/\*)"
    rf"|(?P<FLOAT>{_FLOAT})|(?P<INT>{_INT})|(?P<IDENT>[^\W\d]\w*)"
    r"|(?P<punct>" + "|".join(re.escape(p) for p, _ in PUNCTUATION) + ")")
_PUNCT = dict(PUNCTUATION)


class LexError(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset


@dataclass
class Tok:
    type: str
    text: str
    start: int
    end: int


@dataclass
class Comment:
    text: str        # without the // or /* */ markers
    start: int
    end: int
    own_line: bool   # nothing but space before it on its line


def tokenize(text: str) -> tuple[list[Tok], list[Comment]]:
    """The tokens, template brackets told apart, and the comments."""
    tokens: list[Tok] = []
    comments: list[Comment] = []
    i = 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None:
            raise LexError(i, f"无法识别的字符「{text[i]}」")
        kind = m.lastgroup
        if kind == "block":
            end = _block_end(text, i)
            comments.append(Comment(text[i + 2:end - 2], i, end, _own_line(text, i)))
            i = end
            continue
        if kind == "line":
            comments.append(Comment(m.group()[2:], i, m.end(), _own_line(text, i)))
        elif kind == "IDENT":
            word = m.group()
            tokens.append(Tok("_UNDERSCORE" if word == "_" else KEYWORDS.get(word, "IDENT"), word, i, m.end()))
        elif kind == "punct":
            tokens.append(Tok(_PUNCT[m.group()], m.group(), i, m.end()))
        elif kind != "space":
            tokens.append(Tok(kind, m.group(), i, m.end()))
        i = m.end()
    _discover_templates(tokens)
    return _join_relations(tokens), comments


def _block_end(text: str, start: int) -> int:
    depth, i = 0, start
    while i < len(text):
        if text.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        else:
            i += 1
    raise LexError(start, "块注释没有结束")


def _own_line(text: str, offset: int) -> bool:
    line_start = text.rfind("\n", 0, offset) + 1
    return not text[line_start:offset].strip()


_STOPS = {"_SEMI", "_LB", "_RB", "_COLON", "_EQ", "ASSIGN_OP", "_ANDAND", "_OROR"}


def _discover_templates(tokens: list[Tok]) -> None:
    """WGSL's template list discovery: an identifier followed by `<` opens a
    template list when a matching `>` comes before anything that cannot be
    inside one (`;`, `{`, `:`, `=`, `&&`, `||`, an unbalanced bracket)."""
    for i, tok in enumerate(tokens):
        if tok.type == "<" and i and tokens[i - 1].type in ("IDENT", "VAR"):
            close = _template_end(tokens, i)
            if close is not None:
                tok.type, tokens[close].type = "TSTART", "TEND"


def _template_end(tokens: list[Tok], start: int) -> int | None:
    depth = 0     # ( and [ nesting inside the list
    nested = 0    # template lists opened inside it
    for j in range(start + 1, len(tokens)):
        t = tokens[j]
        if t.type in ("_LP", "_LS"):
            depth += 1
        elif t.type in ("_RP", "_RS"):
            if depth == 0:
                return None
            depth -= 1
        elif depth == 0 and t.type in _STOPS:
            return None
        elif t.type == "<" and tokens[j - 1].type == "IDENT":
            nested += 1
        elif t.type == ">" and depth == 0:
            if nested == 0:
                return j
            nested -= 1
    return None


def _join_relations(tokens: list[Tok]) -> list[Tok]:
    """Plain `<` and `>` left over are comparisons; `>` `>` written together is a shift."""
    out: list[Tok] = []
    for t in tokens:
        if t.type == ">" and out and out[-1].text == ">" and out[-1].type == "REL_OP" and out[-1].end == t.start:
            out[-1] = Tok("SHIFT_OP", ">>", out[-1].start, t.end)
        elif t.type in ("<", ">"):
            out.append(Tok("REL_OP", t.text, t.start, t.end))
        else:
            out.append(t)
    return out
