"""Which known name a misspelt one most likely means.

One ranking serves the checker's hint (「是不是「…」？」) and the editor's
quick fix, so both offer the same name: fewest edits first (ignoring the
case of Latin letters, then counting it), then the nearer
kind of name (locals, this module, other modules, builtins), then the more
similar spelling.  A candidate must be about as close as difflib's ratio 0.5.
Names longer than LONGEST characters get no suggestion: the comparison is
quadratic in their length, and nobody misspells a name that long.
"""

from __future__ import annotations

import os
import re
from typing import Iterable

from ..packages import builtin_interface_path

LOCAL, OWN, IMPORTED, BUILTIN = range(4)
LONGEST = 64


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def ranked(name: str, candidates: Iterable[tuple[str, int]]) -> list[str]:
    """The close candidates (name, tier), best first."""
    if len(name) > LONGEST:
        return []
    tiers: dict[str, int] = {}
    for candidate, tier in candidates:
        if len(candidate) <= LONGEST:
            tiers.setdefault(candidate, tier)
    import difflib   # here, not at module level: only a program with an unknown name pays its import
    keyed = []
    folded = name.casefold()
    for order, (candidate, tier) in enumerate(tiers.items()):
        ratio = difflib.SequenceMatcher(None, folded, candidate.casefold()).ratio()
        if candidate != name and ratio >= 0.5:
            common = len(os.path.commonprefix([name, candidate]))
            # a Latin name differing only in case (「b瓦」 for 「B瓦」) is the closest of all
            keyed.append(((edit_distance(folded, candidate.casefold()), edit_distance(name, candidate), tier,
                           -ratio, -common, order), candidate))
    return [candidate for _, candidate in sorted(keyed)]


def layer_tier(scope, layer) -> int:
    """How near a scope layer's names are to the code being written."""
    if layer is scope.own:
        return OWN
    if layer is scope.builtins or os.path.realpath(layer.path) == os.path.realpath(builtin_interface_path()):
        return BUILTIN
    return IMPORTED


def scope_candidates(scope, locals_: Iterable[str] = (), values_only: bool = False) -> list[tuple[str, int]]:
    """Every name visible in a scope with its tier, locals first."""
    out = [(n, LOCAL) for n in locals_]
    for layer in scope.layers:
        tier = layer_tier(scope, layer)
        out += [(n, tier) for n in layer.values]
        if not values_only:
            out += [(n, tier) for n in layer.types]
    return out


_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_NUMBER_WORD = re.compile(r"[零〇一二三四五六七八九两十百千万]+")
_SIGNED = re.compile(r"[-−－+＋][0-9〇零一二三四五六七八九]+(?:[.点][0-9〇零一二三四五六七八九]+)?")
_EXPONENT = re.compile(r"[0-9]+(?:\.[0-9]+)?[eE][-+]?[0-9]+")


def number_spelling(name: str) -> str | None:
    """How a number the user meant is written, when a name looks like one
    in a form 豫言 does not read (「六十四」, 「-2」, 「3.0e38」); else None."""
    if len(name) > 24:      # no number a person writes; keeps the arithmetic below small
        return None
    if _NUMBER_WORD.fullmatch(name) and any(c in _UNITS for c in name):
        value = _number_word_value(name)
        if value is not None:
            positional = "".join("零一二三四五六七八九"[int(d)] for d in str(value))
            return (f"；数字逐位书写，不用十、百、千、万：{value} 写作「{positional}」"
                    f"（或「{value}」）")
    if _SIGNED.fullmatch(name):
        sign, digits = name[0], name[1:]
        if sign in "+＋":
            return f"；数字前不写正号：写成「{digits}」"
        return f"；负数用运算符 负：写成 负「{digits}」（常量或实参处加括号：（负「{digits}」））"
    if _EXPONENT.fullmatch(name):
        import decimal   # only this message needs it (a C extension: a few ms of every start)
        exponent = int(re.split("[eE]", name)[1])
        digits = format(decimal.Decimal(name), "f") if abs(exponent) <= 40 else ""
        shown = f"「{digits}」" if digits and len(digits) <= 48 else "全部数位"
        return (f"；数字不支持指数写法：只有整数、小数（「三点五」「3.5」）与十六进制（「0x1F」），"
                f"写成{shown}")
    return None


def _number_word_value(word: str) -> int | None:
    """「六十四」 → 64, 「一千」 → 1000, 「二十」 → 20 (the counting form)."""
    total, section, digit = 0, 0, None
    for c in word:
        if c in _UNITS:
            unit = _UNITS[c]
            if unit == 10000:
                total = ((total + section + (digit or 0)) or 1) * unit
                section, digit = 0, None
            else:
                section += (1 if digit is None else digit) * unit
                digit = None
        else:
            digit = 2 if c == "两" else ("零〇一二三四五六七八九".index(c) - 1 if c not in "零〇" else 0)
    return total + section + (digit or 0)
