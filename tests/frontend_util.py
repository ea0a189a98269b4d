"""Helpers for the front-end tests: write a small workspace and check it."""

from __future__ import annotations

import sys
from pathlib import Path

from zhuose.compiler.workspace import Workspace

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))

PRELUDE = "寻观「点染」之「点染本」之书。\n"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")


def check_text(tmp_path: Path, text: str, name: str = "测。着色器。豫", prelude: bool = True):
    """Check one file; return (workspace, [formatted diagnostics without the path])."""
    write(tmp_path, {name: (PRELUDE + text) if prelude else text})
    ws = Workspace(tmp_path)
    path = tmp_path / name
    diags = ws.diagnostics(path)
    source = ws.source(path)
    lines = []
    for d in sorted(diags, key=lambda d: d.start):
        pos = source.position(d.start)
        lines.append(f"{pos.line + 1 - (1 if prelude else 0)}:{pos.column + 1}: {d.full_message()}")
    return ws, lines


def messages(tmp_path: Path, text: str, **kw) -> list[str]:
    return check_text(tmp_path, text, **kw)[1]
