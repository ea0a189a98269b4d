"""Typed diagnostics (issue 10, item 4): every diagnostic carries a registered
code and only the fields its code declares; docs/诊断.md lists exactly the
registered codes; quick fixes read codes and fields, so rewording every
message leaves each fix as it was."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from support.frontend import PRELUDE, write
from support.lsp import ALONE, MAIN, write_workspace
from support.mistakes import CASES
from support.mistakes import BROKEN_FILES, RECOVERY
from zhuose.compiler.backends import translate
from zhuose.compiler.diagnostics import CODES
from zhuose.compiler.workspace import Workspace
from zhuose.server.fixes import quick_fixes
from zhuose.server.project import Project

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "诊断.md"
ERRORS = ROOT / "samples" / "错误"
SOURCES = [p for d in ("compiler", "server", "cli") for p in (ROOT / d).rglob("*.py")]
ROW = re.compile(r"^\| `([a-z0-9-]+)` \| [^|]+ \| ([^|]+) \|$", re.M)


def _documented() -> dict[str, tuple[str, ...]]:
    return {code: () if fields.strip() == "—" else tuple(fields.strip().split("、"))
            for code, fields in ROW.findall(DOCS.read_text(encoding="utf-8"))}


def test_the_docs_page_lists_exactly_the_registered_codes_and_their_fields():
    assert _documented() == {c.name: c.fields for c in CODES.values()}


def test_codes_are_kebab_case_and_written_only_through_the_registry():
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", name) for name in CODES)
    literal = re.compile(r"""\b(?:code\s*=|CODE\s*=)\s*["']([^"']*)["']""")
    for path in SOURCES:
        for found in literal.findall(path.read_text(encoding="utf-8")):
            assert found in CODES, f"{path.relative_to(ROOT)}：代码「{found}」不在 compiler/diagnostics.py 的代码表里"


def _assert_typed(diagnostics, where) -> None:
    for d in diagnostics:
        assert d.code in CODES, (where, d.code, d.message)
        assert set(d.fields) <= set(CODES[d.code].fields), (where, d.code, d.fields)
        assert all(isinstance(v, str) and v for v in d.fields.values()), (where, d.fields)


def _sample_files() -> list[Path]:
    return sorted(p for p in ERRORS.rglob("*。着色器。豫"))


def test_every_error_sample_reports_registered_codes_only():
    assert len(_sample_files()) >= 40
    ws = Workspace(ERRORS)
    seen = set()
    for path in _sample_files():
        found = ws.diagnostics(path)
        _assert_typed(found, path.name)
        seen.update(d.code for d in found if d.path == ws.key(path))
    assert {"syntax", "unknown-name", "type-mismatch", "read-only", "cycle"} <= seen, seen


PROGRAMS = ([(p.values[0], p.values[2]) for p in CASES if p.values[1]]
            + [(PRELUDE + r[1], False) for r in RECOVERY] + [(t, False) for t in BROKEN_FILES])


@pytest.mark.parametrize("text, prelude", PROGRAMS, ids=[str(i) for i in range(len(PROGRAMS))])
def test_every_error_program_of_the_tests_reports_registered_codes_only(tmp_path, text, prelude):
    name = "测。着色器。豫"
    write(tmp_path, {name: (PRELUDE + text) if prelude else text} if isinstance(text, str) else {})
    if not isinstance(text, str):
        (tmp_path / name).write_bytes(text)
    found = Workspace(tmp_path).diagnostics(tmp_path / name)
    assert found
    _assert_typed(found, text)


# ---------------------------------------------------------------- rewording does not break a quick fix

FIXABLE = [
    ("wrap-literal", "应用/主。着色器。豫", MAIN + "\n「限」乃「无三二」也。\n「限」者「八」也。\n"),
    ("unknown-name", "应用/主。着色器。豫", MAIN.replace("「写数组」于「数据」", "「写数组」于「数剧」")),
    ("unknown-name", "应用/主。着色器。豫", MAIN.replace("「计算入口项」于「加倍」", "「计算入口项」于「加陪」")),
    ("read-only", "应用/主。着色器。豫", MAIN.replace("「访问」者「读写」也", "「访问」者「只读」也")),
    ("import", "应用/独立。着色器。豫", ALONE + "「用」乃化「无三二」为「无三二」者也。\n「用」者得「x」而「加步」于「x」也。\n"),
]


def _fixes(project: Project, path: str, text: str) -> list[tuple[str, str, list]]:
    return [(f.diagnostic.code, f.title, f.edits) for f in quick_fixes(project, path, 0, len(text))]


@pytest.mark.parametrize("code, rel, text", FIXABLE, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(FIXABLE)])
def test_rewording_every_message_leaves_each_quick_fix_as_it_was(tmp_path, monkeypatch, code, rel, text):
    root = write_workspace(tmp_path)
    project = Project(root)
    path = project.ws.key(root / rel)
    project.open(project.uri(path), 1, text)
    before = _fixes(project, path, text)
    assert code in [c for c, _, _ in before], before

    reworded = Workspace.diagnostics

    def diagnostics(self, p):
        return [dataclasses.replace(d, message="（措辞已改）") for d in reworded(self, p)]

    monkeypatch.setattr(Workspace, "diagnostics", diagnostics)
    assert all(d.message == "（措辞已改）" for d in project.ws.diagnostics(path))
    assert _fixes(project, path, text) == before


def test_a_translation_error_names_its_target_and_what_it_lacks():
    """WGSL has no subgroup matrix fragments (seed 着十二): the error is typed, not just worded."""
    samples = ROOT / "samples"
    ws = Workspace(samples)
    for name in ("子组矩阵片", "子组矩阵片存储"):
        found = translate(ws, samples / f"{name}。着色器。豫", "wgsl").diagnostics
        _assert_typed(found, name)
        assert {(d.code, d.fields.get("目标")) for d in found} == {("target-type", "WGSL")}, found
        assert all("子组矩阵片" in d.fields["类型"] for d in found)
        assert translate(ws, samples / f"{name}。着色器。豫", "msl").diagnostics == []
