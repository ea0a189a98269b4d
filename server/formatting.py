"""Document and range formatting: the formatter's result as line edits.

The whole file is always formatted (indentation depends on what encloses a
line); a range request keeps only the changed runs of lines that touch the
range.  A file with syntax errors gets no edits — its diagnostics say why.
"""

from __future__ import annotations

import difflib
import itertools
import re

from lsprotocol import types as lsp

from ..compiler.source import SourceFile
from ..compiler.syntax.format import format_text
from .positions import lsp_range


def formatting_edits(source: SourceFile, first_line: int = 0, last_line: int | None = None) -> list[lsp.TextEdit]:
    """Edits that bring lines first_line..last_line (all by default) into the canonical layout."""
    formatted = format_text(source.text).text
    if formatted is None or formatted == source.text:
        return []
    old, new = _lines(source.text), _lines(formatted)
    offsets = list(itertools.accumulate((len(line) for line in old), initial=0))
    last_line = len(old) if last_line is None else last_line
    edits = []
    for tag, i1, i2, j1, j2 in _changes(old, new):
        if max(i2, i1 + 1) <= first_line or i1 > last_line:   # an insertion counts as its line
            continue
        edits.append(lsp.TextEdit(range=lsp_range(source, offsets[i1], offsets[i2]), new_text="".join(new[j1:j2])))
    return edits


def _changes(old: list[str], new: list[str]):
    """Differing runs of lines; a run re-indented line for line is split into
    single lines, so a range request can take just the lines it covers."""
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            yield from ((tag, i1 + k, i1 + k + 1, j1 + k, j1 + k + 1)
                        for k in range(i2 - i1) if old[i1 + k] != new[j1 + k])
        else:
            yield tag, i1, i2, j1, j2


def _lines(text: str) -> list[str]:
    """Lines with their \\n, split only at \\n (as the line table is)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)
