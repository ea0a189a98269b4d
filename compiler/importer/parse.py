"""Parsing WGSL into the importer's tree: lark's LALR parser over wgsl.lark,
fed by lexer.py.  The tree is lark's, with rule names as node kinds and each
node's `meta.start_pos` the WGSL offset that messages point at."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import lark

from .lexer import Comment, LexError, tokenize


class WgslLexer(lark.lexer.Lexer):
    """Hands lark the tokens lexer.py made."""

    __future_interface__ = 2

    def __init__(self, conf):
        pass

    def lex(self, state, parser_state):
        return iter(state.text)


class ParseError(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset


@cache
def _parser() -> lark.Lark:
    grammar = (Path(__file__).with_name("wgsl.lark")).read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="lalr", lexer=WgslLexer, propagate_positions=True, maybe_placeholders=False)


def parse_wgsl(text: str) -> tuple[lark.Tree, list[Comment]]:
    """The tree and comments of a WGSL module, or ParseError at the offending offset."""
    try:
        tokens, comments = tokenize(text)
    except LexError as err:
        raise ParseError(err.offset, str(err)) from None
    stream = [lark.Token(t.type, t.text, start_pos=t.start, end_pos=t.end) for t in tokens]
    try:
        return _parser().parse(stream), comments
    except lark.exceptions.UnexpectedToken as err:
        token = err.token
        if token.type == "$END":
            raise ParseError(len(text), "文件意外结束") from None
        raise ParseError(token.start_pos, f"语法错误：没想到「{token}」") from None
    except lark.exceptions.UnexpectedInput as err:
        raise ParseError(getattr(err, "pos_in_stream", 0) or 0, "语法错误") from None
