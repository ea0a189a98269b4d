"""Helpers for the front-end tests: write a small workspace and check it."""

from __future__ import annotations

import sys
from pathlib import Path

from zhuose.compiler.workspace import Workspace

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))

PRELUDE = "寻观「点染」之「点染本」之书。\n"

# LANGUAGE.md §7 (seed 着六), verbatim after its import line, and the WGSL the seed says it becomes
SEED_DOUBLE_BODY = """「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。

「加倍」乃化「全局调用号」为「有」者也。
「加倍」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「数据」于「序」于（（「读数组」于「数据」于「序」）乘（「新无三二」于「二」））
也。

「加倍入口」乃「计算入口」也。
「加倍入口」者「计算入口项」于「加倍」于（「组值」【「工作组大小」者「四」也】）也。
"""
SEED_DOUBLE = PRELUDE + "\n" + SEED_DOUBLE_BODY

# LANGUAGE.md §7's local loop and sequence example, verbatim
LANGUAGE_SUM = """「求和」乃化「无三二」为「无三二」者也。
「求和」者得「个数」而
　令「环」为得「序」又得「和」而
　　若「序」小于「个数」
　　则「环」于（「序」加（「新无三二」于「一」））于（「和」加「序」）
　　否则「和」
　而「环」于（「新无三二」于「零」）于（「新无三二」于「零」）
也。
"""
SEED_DOUBLE_WGSL = """@group(0) @binding(0) var<storage, read_write> 数据: array<u32>;

@compute @workgroup_size(4)
fn 加倍(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  数据[序] = 数据[序] * 2u;
}
"""


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


def chinese_number(n: int) -> str:
    """A number as the digit words bindings are written with: 12 → 一二."""
    return "".join("零一二三四五六七八九"[int(c)] for c in str(n))


def bound_resources(bound) -> list[str]:
    """The declaration and binding lines of (name, type, binding word) resources, numbered
    from 0 in group 0 — the head of the texture tests' programs."""
    lines = []
    for k, (name, t, word) in enumerate(bound):
        lines += [f"「{name}」乃{t}也。",
                  f"「{name}」者「{word}」于（「组值」【「组」者「零」也，「号」者「{chinese_number(k)}」也】）也。"]
    return lines
