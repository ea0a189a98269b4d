"""豫言 literals for generated text: strings that round-trip any text, and
one-line comments that nothing can break out of (docs/生成.md).

A 豫言 string is 『…』 and ends at the first 』; there is no escape syntax in
the language.  So the generated module writes the few characters a string
cannot hold as 〘U+XXXX〙 (hexadecimal code point): 』 itself, the escape's
own opener 〘 (so every 〘 in a generated string starts an escape), and the
carriage return (so a generated file has one kind of line break).  WGSL,
MSL and PTX text never contains 〘 or 』 in practice, so a string is
normally the target text verbatim.
"""

from __future__ import annotations

import re

ESCAPE_OPEN, ESCAPE_CLOSE = "〘", "〙"
#: characters a generated string never holds as they are
ESCAPED = frozenset({"』", ESCAPE_OPEN, "\r"})

_NEEDS_ESCAPE = re.compile("[" + re.escape("".join(sorted(ESCAPED))) + "]")
_ESCAPE = re.compile(re.escape(ESCAPE_OPEN) + r"U\+([0-9A-F]{4,6})" + re.escape(ESCAPE_CLOSE))
_COMMENT_MARK = re.compile("「(?=：)|：(?=」)")
_LINE_BREAK = re.compile(r"\s*[\r\n\u2028\u2029]+\s*")


def _code_point(match: re.Match) -> str:
    return f"{ESCAPE_OPEN}U+{ord(match.group()):04X}{ESCAPE_CLOSE}"


def string_literal(text: str) -> str:
    """`text` as a 豫言 string literal 『…』."""
    return "『" + _NEEDS_ESCAPE.sub(_code_point, text) + "』"


def string_value(content: str) -> str:
    """The text a generated string literal stands for, given the characters
    between 『 and 』 (the inverse of `string_literal`)."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), content)


_DEFINITION = re.compile("「([^」]+)」者『([^』]*)』也。")


def definitions(module_text: str) -> dict[str, str]:
    """Each 「名」者『…』也。 of a generated module, by name, its string read back
    (a string holds no 』, so the first one ends it): what the build service
    answers as 导出 and a JavaScript bundler turns into exports."""
    return {m.group(1): string_value(m.group(2)) for m in _DEFINITION.finditer(module_text)}


def failure_note_start(title: str) -> str:
    """How the one-line note begins that stands in a generated module for the
    text a target (named by its title) could not give: the build service
    reads a target's export that starts so as that target's failure."""
    return f"// 着色生成：未能译成 {title}："


def one_line(text: str) -> str:
    """Messages on one line: every line break (and the blanks around it) becomes a space."""
    return _LINE_BREAK.sub(" ", text).strip()


def comment(text: str) -> str:
    """A one-line 豫言 comment 「： … ：」 around `text`: a blank is put inside
    every 「： and ：」 of the text and between the text and the marks, so the
    text can neither open nor close a comment."""
    return "「： " + _COMMENT_MARK.sub(lambda m: m.group() + " ", one_line(text)) + " ：」"
