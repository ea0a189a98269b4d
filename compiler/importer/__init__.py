"""`着色器 导入`: WGSL brought into 着色 (issue 26).

`import_wgsl(text)` parses WGSL (parse.py, the grammar wgsl.lark), writes each
declaration as 着色 (emit.py) and lays the file out as `着色器 格式化` does
(compiler/syntax/format.py).  What 着色 cannot express exactly is refused,
one `导入：不支持 …` per declaration at its WGSL offset; with `best_effort`
the rest is still written and each refused declaration leaves a comment."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax.format import format_text
from .emit import Importer
from .parse import ParseError, parse_wgsl
from .refusal import Refusal

HEADER = "寻观「点染」之「点染本」之书。"


@dataclass
class Problem:
    offset: int
    message: str


@dataclass
class Imported:
    text: str | None              # None when something was refused and best_effort was off
    problems: list[Problem] = field(default_factory=list)


def import_wgsl(text: str, best_effort: bool = False) -> Imported:
    try:
        tree, comments = parse_wgsl(text)
    except ParseError as err:
        return Imported(None, [Problem(err.offset, f"导入：WGSL {err}")])
    importer = Importer()
    importer.comments = comments
    problems: list[Problem] = []
    writers = []
    for start, end, declare in _declarations(importer, tree, problems):
        writers.append((start, end, declare))
    pieces: list[str] = [HEADER, ""]
    previous = 0
    for start, end, write in writers:
        trailing = [c for c in comments if previous <= c.start < start and not c.own_line and c.text.strip()]
        if trailing and pieces[-1] == "":
            pieces[-1:] = [f"「：{_plain(c.text.strip())}：」" for c in trailing] + [""]
        pieces += _comments_before(comments, previous, start)
        previous = end
        try:
            lines = write() if callable(write) else write
        except Refusal as refusal:
            problems += [Problem(r.offset or start, f"导入：不支持 {r.what}") for r in [refusal, *refusal.more]]
            lines = [f"「：导入：略去了这一项（不支持 {_plain(refusal.what)}）：」"]
        except Exception as err:   # the importer's own mistake: said at the declaration, never a traceback
            problems.append(Problem(start, f"导入：内部错误，这一项没有导入（{type(err).__name__}: {err}）"))
            lines = ["「：导入：略去了这一项（导入器内部错误）：」"]
        if lines:
            pieces += lines + [""]
    pieces += _comments_before(comments, previous, len(text) + 1)     # after the last declaration
    if problems and not best_effort:
        return Imported(None, sorted(problems, key=lambda p: p.offset))
    formatted = format_text("\n".join(pieces).rstrip("\n") + "\n")
    if formatted.text is None:   # a writer's mistake, not the user's: say so rather than write bad text
        return Imported(None, problems + [Problem(0, f"导入：内部错误：写出的着色有语法错误：{formatted.problems[0].message}")])
    return Imported(formatted.text, sorted(problems, key=lambda p: p.offset))


def _declarations(importer: Importer, tree, problems: list[Problem]):
    """Each top-level declaration's writer, read in a first pass so every name is known."""
    out = []
    for decl in tree.children:
        if not hasattr(decl, "data") or decl.data == "empty":
            continue
        start, end = decl.meta.start_pos, decl.meta.end_pos
        try:
            if decl.data == "directive":
                out.append((start, end, (lambda d=decl: importer.directive(d))))
            else:
                out.append((start, end, getattr(importer, "decl_" + decl.data)(decl)))
        except Refusal as refusal:
            problems.append(Problem(refusal.offset or start, f"导入：不支持 {refusal.what}"))
            out.append((start, end, [f"「：导入：略去了这一项（不支持 {_plain(refusal.what)}）：」"]))
            names = [t for t in decl.children if getattr(t, "type", None) == "IDENT"]
            if names:
                importer.refused[str(names[0])] = refusal.what
        except Exception as err:
            problems.append(Problem(start, f"导入：内部错误，这一项没有导入（{type(err).__name__}: {err}）"))
            out.append((start, end, ["「：导入：略去了这一项（导入器内部错误）：」"]))
    # abstract constants take the type their uses give them: run the writers once to see the uses
    importer.discovering = True
    for _, _, write in out:
        if callable(write):
            try:
                write()
            except Exception:   # said again, at its declaration, when the text is written
                pass
    importer.discovering = False
    return out


def _comments_before(comments, after: int, before: int) -> list[str]:
    """The comments on lines of their own between two declarations: they go before the second."""
    return [f"「：{_plain(c.text.strip())}：」" for c in comments
            if after <= c.start < before and c.own_line and c.text.strip()]


def _plain(text: str) -> str:
    """Text that can sit inside 「：…：」 (no brackets that would open or close a name or comment)."""
    return text.replace("「", "『").replace("」", "』")
