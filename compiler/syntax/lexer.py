"""The hand-written lexer (LANGUAGE.md §2).

Comments nest, which a regular lexer cannot express, so lexing is done here and
the tokens are handed to lark's LALR parser.  The lexer never fails: text it
cannot read becomes an ERROR token carrying a Chinese message, and the parser
reports it in the item where it stands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Keywords and operators, by their surface text, mapped to grammar terminals.
KEYWORDS: dict[str, str] = {
    "寻观": "IMPORT_OPEN", "寻": "IMPORT", "观": "OPEN", "之书": "BOOK", "之": "OF",
    "乃": "SIG", "者": "DEF", "即": "TYPEDEF", "立": "CTOR", "也": "YE",
    "于": "APPLY", "以": "TYARG", "中": "PROJ",
    "化": "FN", "而": "ER", "又化": "FN_MORE", "为": "WEI", "凡": "FORALL",
    "与": "WITH", "若": "IF", "则": "THEN", "否则": "ELSE", "令": "LET",
    "得": "LAMBDA", "又得": "LAMBDA_MORE",
    "非": "NOT", "负": "NEG",
    "乘": "MUL", "除": "DIV", "余": "REM", "加": "ADD", "减": "SUB",
    "左移": "SHL", "右移": "SHR",
    "等于": "EQ", "不等于": "NE", "小于": "LT", "大于": "GT", "不大于": "LE", "不小于": "GE",
    "按位与": "BAND", "异或": "BXOR", "按位或": "BOR", "且": "LAND", "或": "LOR",
}

PUNCTUATION: dict[str, str] = {
    "。": "PERIOD", "，": "COMMA", "（": "LPAR", "）": "RPAR",
    "【": "LBRACK", "】": "RBRACK", "；": "SEMI",
}

#: The surface text of each terminal, for messages.
SURFACE: dict[str, str] = {v: k for k, v in {**KEYWORDS, **PUNCTUATION}.items()}
SURFACE.update({"NAME": "名字", "STRING": "字符串", "$END": "项的结尾"})

_keyword_alternatives = "|".join(
    re.escape(k) for k in sorted({**KEYWORDS, **PUNCTUATION}, key=len, reverse=True)
)
_TOKEN = re.compile(
    r"(?P<ws>[ \t\r\n\u3000]+)"
    r"|(?P<comment>「：)"
    r"|(?P<name>「[^「」\r\n]+」)"
    r"|(?P<string>『[^』]*』)"
    rf"|(?P<kw>{_keyword_alternatives})"
)
_COMMENT_MARK = re.compile(r"「：|：」")
_RESYNC = re.compile(rf"[ \t\r\n\u3000「『]|{_keyword_alternatives}")


@dataclass(slots=True)
class Token:
    """A token: its terminal type, its text and its character offsets."""

    type: str
    value: str
    start: int
    end: int
    message: str = ""  # for ERROR tokens


@dataclass(slots=True)
class Comment:
    """A comment 「：…：」 and its span in the file."""

    text: str
    start: int
    end: int


def name_content(token_text: str) -> str:
    """The characters between 「 and 」."""
    return token_text[1:-1]


def lex(text: str, start: int = 0, end: int | None = None) -> tuple[list[Token], list[Comment]]:
    """Split text[start:end] into tokens and comments; never raises."""
    tokens: list[Token] = []
    comments: list[Comment] = []
    for x in iter_lex(text, start, end):
        (comments if isinstance(x, Comment) else tokens).append(x)
    return tokens, comments


def iter_lex(text: str, start: int = 0, end: int | None = None):
    """Tokens and comments of text[start:end], lazily (so that incremental
    re-lexing can stop as soon as it is back in step with the old tokens)."""
    end = len(text) if end is None else end
    pos = start
    match = _TOKEN.match
    keywords = KEYWORDS
    while pos < end:
        m = match(text, pos, end)
        if m is None:
            errors: list[Token] = []
            pos = _lex_error(text, pos, end, errors)
            yield from errors
            continue
        kind = m.lastgroup
        stop = m.end()
        if kind == "name":
            yield Token("NAME", m.group(), pos, stop)
        elif kind == "kw":
            word = m.group()
            yield Token(keywords.get(word) or PUNCTUATION[word], word, pos, stop)
        elif kind == "comment":
            errors = []
            stop = _skip_comment(text, pos, end, errors)
            yield Comment(text[pos:stop], pos, stop)
            yield from errors
        elif kind == "string":
            yield Token("STRING", m.group(), pos, stop)
        pos = stop


def _skip_comment(text: str, pos: int, end: int, tokens: list[Token]) -> int:
    depth = 0
    for mark in _COMMENT_MARK.finditer(text, pos, end):
        depth += 1 if mark.group() == "「：" else -1
        if depth == 0:
            return mark.end()
    tokens.append(Token("ERROR", text[pos:pos + 2], pos, end, "注释没有结束：缺少与此「：对应的「：」」"))
    return end


def _lex_error(text: str, pos: int, end: int, tokens: list[Token]) -> int:
    ch = text[pos]
    if ch == "「":
        line_end = text.find("\n", pos, end)
        line_end = end if line_end == -1 else line_end
        close = text.find("」", pos + 1, line_end)
        if close == pos + 1:
            tokens.append(Token("ERROR", "「」", pos, pos + 2, "名字不能为空：「」里至少要有一个字"))
            return pos + 2
        # stop before a nested 「 or the item's 。 so the next item stays intact
        stops = [i for i in (text.find("「", pos + 1, line_end), text.find("。", pos + 1, line_end)) if i != -1]
        stop = min(stops) if stops else line_end
        rest = _name_continued(text, line_end, end) if stop == line_end else None
        if rest is not None:    # one mistake, one message: the 」 on the next line belongs to it
            tokens.append(Token("ERROR", text[pos:rest], pos, rest, "名字不能跨行：「与」之间有换行"))
            return rest
        tokens.append(Token("ERROR", text[pos:stop], pos, stop, "名字没有结束：同一行里缺少与此「对应的「」」"))
        return stop
    if ch == "『":
        tokens.append(Token("ERROR", ch, pos, end, "字符串没有结束：缺少与此『对应的』"))
        return end
    if ch in ASCII_LOOKALIKES:
        tokens.append(Token("ERROR", ch, pos, pos + 1,
                            f"无法识别的文字「{ch}」：是不是全角的「{ASCII_LOOKALIKES[ch]}」？"))
        return pos + 1
    m = _RESYNC.search(text, pos + 1, end)
    stop = m.start() if m else end
    bad = text[pos:stop]
    shown = bad if len(bad) <= 20 else bad[:20] + "…"
    tokens.append(Token("ERROR", bad, pos, stop, f"无法识别的文字「{shown}」：名字须写在「」里，关键字见语言参考"))
    return stop


def _name_continued(text: str, line_end: int, end: int) -> int | None:
    """Where a name broken by a line break ends: just after the first 」 of
    the next line, when no 「 or 。 comes before it; else None."""
    if line_end >= end:
        return None
    next_end = text.find("\n", line_end + 1, end)
    next_end = end if next_end == -1 else next_end
    close = text.find("」", line_end + 1, next_end)
    if close == -1 or any(c in text[line_end + 1:close] for c in "「。"):
        return None
    return close + 1


#: ASCII punctuation typed where the full-width punctuation of 豫言 belongs.
ASCII_LOOKALIKES = {".": "。", ",": "，", "(": "（", ")": "）", ";": "；", "[": "【", "]": "】"}
