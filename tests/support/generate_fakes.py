"""Helpers for the generation tests: a fake back-end registry (so the module's
structure is tested whatever back ends exist), and reading a generated
module back with the project's own parser."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.frontend import PRELUDE, write

from zhuose.compiler import backends, ir
from zhuose.compiler.backends import EntryInfo, Translation, TargetUnavailable
from zhuose.compiler.diagnostics import Diagnostic
from zhuose.compiler.generate.escape import string_value
from zhuose.compiler.syntax import ast
from zhuose.compiler.syntax.parser import parse_file

#: the seed's 加倍 example (着六), as the sample holds it
DOUBLE = (Path(__file__).resolve().parents[2] / "samples" / "加倍。着色器。豫").read_text(encoding="utf-8")


class FakeBackends:
    """Stands in for compiler.backends.translate: each target's text names the
    target and the file; entries come from the checked IR.  `fail[target]` is a
    reason (the target then reports it as a diagnostic), `unavailable` holds
    targets raising TargetUnavailable; `calls` counts translations."""

    def __init__(self) -> None:
        self.fail: dict[str, str] = {}
        self.unavailable: set[str] = set()
        self.texts: dict[str, str] = {}
        self.calls = 0

    def translate(self, ws, path, target):
        self.calls += 1
        if target in self.unavailable:
            raise TargetUnavailable(f"目标「{target}」的翻译器尚未实现")
        checked = ws.check(path)
        if target in self.fail:
            return Translation(None, [], [Diagnostic(ws.key(path), 0, 2, self.fail[target], "某定义")])
        entries = [EntryInfo(d.name, d.function if target != "ptx" else "yy" + d.function.encode().hex(), d.stage)
                   for d in checked.module.decls if isinstance(d, ir.Entry)]
        text = self.texts.get(target, f"// {target} of {Path(path).name}\n" + ws.source(path).text)
        return Translation(text, entries, [])


@pytest.fixture
def fake(monkeypatch) -> FakeBackends:
    f = FakeBackends()
    monkeypatch.setattr(backends, "translate", f.translate)
    return f


def read_back(text: str) -> dict[str, str]:
    """Every definition of a generated module, by name, with its string's value;
    fails unless the project's parser reads the module without an error."""
    parsed = parse_file(text)
    values: dict[str, str] = {}
    for item in parsed.items:
        assert not item.errors, (item.text, item.errors)
        assert isinstance(item.node, ast.Definition), item.text
        assert isinstance(item.node.value, ast.String), item.text
        assert item.node.name not in values, f"重复定义「{item.node.name}」"
        values[item.node.name] = string_value(item.node.value.value)
    return values


# ---------------------------------------------------------------- a tree of modules

LIBRARIES = 40


def library_imports(i: int) -> list[int]:
    """The second half of the libraries each import one of the first half."""
    return [i - LIBRARIES // 2] if i >= LIBRARIES // 2 else []


def kernel_imports(k: int) -> list[int]:
    return [(k * 7 + 3) % LIBRARIES]


def _library(i: int) -> str:
    uses = "".join(f"寻观「树」之「库」之「库{j:02d}」之书。\n" for j in library_imports(i))
    body = "".join(f"「函{j:02d}」于" for j in library_imports(i)) + "「值」"
    return (PRELUDE + uses + f"「函{i:02d}」乃化「无三二」为「无三二」者也。\n"
            f"「函{i:02d}」者得「值」而（{body}）加（「新无三二」于「{i + 1}」）也。\n")


def _kernel(k: int) -> str:
    libs = kernel_imports(k)
    uses = "".join(f"寻观「树」之「库」之「库{j:02d}」之书。\n" for j in libs)
    value = "（「读数组」于「数据」于「序」）"
    for j in libs:
        value = f"（「函{j:02d}」于{value}）"
    return PRELUDE + uses + f"""
「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「核{k:03d}」乃化「全局调用号」为「有」者也。
「核{k:03d}」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「数据」于「序」于{value}
也。
「核{k:03d}入口」乃「计算入口」也。
「核{k:03d}入口」者「计算入口项」于「核{k:03d}」于（「组值」【「工作组大小」者「六四」也】）也。
"""


def make_tree(root: Path, modules: int = 200) -> dict[str, list[str]]:
    """A package 「树」 of `modules` shader sources (40 libraries, the rest
    kernels with one entry each); returns each file's direct imports (files
    relative to root)."""
    files = {"包.json": '{"名": "树", "依赖": ["点染"]}'}
    graph: dict[str, list[str]] = {}
    for i in range(LIBRARIES):
        files[f"库/库{i:02d}。着色器。豫"] = _library(i)
        graph[f"库/库{i:02d}。着色器。豫"] = [f"库/库{j:02d}。着色器。豫" for j in library_imports(i)]
    for k in range(modules - LIBRARIES):
        files[f"核/核{k:03d}。着色器。豫"] = _kernel(k)
        graph[f"核/核{k:03d}。着色器。豫"] = [f"库/库{j:02d}。着色器。豫" for j in kernel_imports(k)]
    write(root, files)
    return graph


def importers_of(graph: dict[str, list[str]], changed: str) -> set[str]:
    """`changed` and every file that imports it, directly or through others."""
    found = {changed}
    while True:
        more = {f for f, deps in graph.items() if found.intersection(deps)} - found
        if not more:
            return found
        found |= more
