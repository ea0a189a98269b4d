"""In-process tests of the server's core: what the incremental core re-does
after an edit (its counters), how diagnostics are scheduled and kept from
going stale, naga's verdict placed on the right definition, and the small
readers (the call before the cursor, the half-typed name, new names, UTF-16
columns)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from support.lsp import ALONE, GEOMETRY, MAIN, write_workspace
from zhuose.compiler.backends import Translation
from zhuose.compiler.syntax.lexer import lex
from zhuose.server import publisher as publisher_module
from zhuose.server.completion import typing_at
from zhuose.server.navigation import RenameRefused, check_new_name
from zhuose.server.project import Project
from zhuose.server.publisher import Publisher
from zhuose.server.signature import call_before
from zhuose.server.tokens import TokenWriter
from zhuose.server.validate import Naga, enclosing_declaration, naga_diagnostics, parse_naga


@pytest.fixture
def project(tmp_path) -> Project:
    root = write_workspace(tmp_path)
    p = Project(root)
    for rel in ("应用/主。着色器。豫", "库/几何。着色器。豫", "应用/旁。着色器。豫", "应用/独立。着色器。豫"):
        path = root / rel
        p.open(path.as_uri(), 1, path.read_text(encoding="utf-8"))
    return p


def path(project: Project, rel: str) -> str:
    return project.ws.key(project.ws.root / rel)


def check_open(project: Project) -> None:
    for p in project.documents:
        project.checked(p)


# ---------------------------------------------------------------- incrementality


def delta(project: Project, before: dict) -> dict:
    return {k: project.ws.counters[k] - before.get(k, 0) for k in project.ws.counters}


def test_a_body_edit_rechecks_one_module_and_one_item(project):
    check_open(project)
    before = dict(project.ws.counters)
    main = path(project, "应用/主。着色器。豫")
    project.change(project.uri(main), 2, MAIN.replace("（「新无三二」于「二」）", "（「新无三二」于「五」）"))
    check_open(project)
    assert delta(project, before) == {"file_parses": 1, "item_parses": 1, "module_checks": 1, "item_checks": 1,
                                      "body_rechecks": 1}   # the module check reused (check/bodies.py)


def test_an_interface_edit_rechecks_exactly_the_modules_that_import_it(project):
    check_open(project)
    geometry = path(project, "库/几何。着色器。豫")
    assert set(project.dependents(geometry)) == {path(project, "应用/主。着色器。豫"), path(project, "应用/旁。着色器。豫")}
    before = dict(project.ws.counters)
    project.change(project.uri(geometry), 2, GEOMETRY.replace("「步长」乃「无三二」也。", "「步长」乃「整三二」也。"))
    check_open(project)
    assert delta(project, before)["module_checks"] == 3   # 几何, 主, 旁 — not 独立


def test_a_value_edit_behind_an_unchanged_interface_rechecks_only_that_module(project):
    check_open(project)
    geometry = path(project, "库/几何。着色器。豫")
    before = dict(project.ws.counters)
    project.change(project.uri(geometry), 2, GEOMETRY.replace("「新无三二」于「三」", "「新无三二」于「四」"))
    check_open(project)
    assert delta(project, before)["module_checks"] == 1


# ---------------------------------------------------------------- publishing


class Sent:
    def __init__(self) -> None:
        self.items: list[tuple[str, int | None, list]] = []

    def __call__(self, uri, version, diagnostics) -> None:
        self.items.append((uri, version, diagnostics))


def fake_translation(text: str | None):
    """The WGSL back end replaced by a fixed text."""
    def translate(project, path):
        return Translation(text)
    return translate


class GatedNaga:
    """A naga stand-in that answers only when the test lets it."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.gate = threading.Event()

    def validate(self, wgsl: str):
        assert self.gate.wait(10)
        return self.answer


BROKEN_WGSL = "fn 加倍(x: u32) -> u32 { return x + 1.5; }\n"
NAGA_SAYS = parse_naga("Shader validation error: Function [0] '加倍' is invalid\n  ┌─ wgsl:1:1\n  = bad")


async def settle() -> None:
    """Let the publisher's tasks (and naga's worker thread) finish, with room
    for a loaded machine."""
    for _ in range(150):
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_nagas_verdict_lands_on_the_definition_it_came_from(project, monkeypatch):
    monkeypatch.setattr(publisher_module, "translation", fake_translation(BROKEN_WGSL))
    naga = GatedNaga(NAGA_SAYS)
    naga.gate.set()
    sent = Sent()
    pub = Publisher(project, sent, naga)
    main = path(project, "应用/主。着色器。豫")
    pub.opened(main)
    await settle()
    last = [d for uri, _, diags in sent.items if uri == project.uri(main) for d in diags][-1]
    assert "naga" in last.message and "「加倍」" in last.message
    line = MAIN.split("\n")[last.range.start.line]
    assert line.startswith("「加倍」者")


@pytest.mark.asyncio
async def test_a_translation_of_an_older_text_is_never_shown(project, monkeypatch):
    monkeypatch.setattr(publisher_module, "translation", fake_translation(BROKEN_WGSL))
    naga = GatedNaga(NAGA_SAYS)
    sent = Sent()
    pub = Publisher(project, sent, naga)
    main = path(project, "应用/主。着色器。豫")
    pub.opened(main)
    await asyncio.sleep(0.05)          # translation running, naga still thinking
    project.change(project.uri(main), 2, MAIN + "\n")
    pub.changed(main)
    naga.gate.set()
    await settle()
    assert all("naga" not in d.message for _, _, diags in sent.items for d in diags)
    assert sent.items[-1][1] == 2


@pytest.mark.asyncio
async def test_edits_in_a_burst_are_checked_once_with_the_latest_text(project):
    sent = Sent()
    pub = Publisher(project, sent, None, interval=0.2)
    side = path(project, "应用/旁。着色器。豫")
    pub.publish(side)                    # the file was just published …
    text = project.documents[side].text
    for version in range(2, 12):         # … so these wait for the interval, together
        project.change(project.uri(side), version, text.replace("「速度」", "「速度」" if version % 2 else "「重量」"))
        pub.changed(side)
    published = lambda: [v for uri, v, _ in sent.items[1:] if uri == project.uri(side)]  # noqa: E731
    for _ in range(200):                 # a loaded machine may take longer than the interval
        if published():
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)             # … and nothing else follows
    assert published() == [11]


# ---------------------------------------------------------------- naga's messages


def test_parse_naga_reads_the_headline_the_notes_and_the_place():
    err = parse_naga("Validation Error\n\nCaused by:\n  In wgpuDeviceCreateShaderModule\n\n"
                     "Shader validation error: Function [1] '甲' is invalid\n  ┌─ :2:1\n  │\n"
                     "  = Call to [0] is invalid\n  = Requires 1 arguments, but 2 are provided\n")
    assert err.name == "甲" and err.line == 2
    assert err.message == "Function [1] '甲' is invalid；Call to [0] is invalid；Requires 1 arguments, but 2 are provided"


def test_enclosing_declaration_finds_the_top_level_item_of_a_line():
    wgsl = "struct 粒子 {\n  x: u32,\n}\n\n@compute @workgroup_size(1)\nfn 主(@builtin(global_invocation_id) i: vec3<u32>) {\n  let a = 1u;\n}\n"
    assert enclosing_declaration(wgsl, 2) == "粒子"
    assert enclosing_declaration(wgsl, 7) == "主"


def test_naga_complaints_without_a_known_name_go_to_the_top_of_the_file(project):
    main = path(project, "应用/主。着色器。豫")
    (d,) = naga_diagnostics(project, main, "fn 不存在() {}\n", parse_naga("Shader parsing error: oops\n ┌─ wgsl:1:1"))
    assert (d.start, d.end) == (0, 0) and "oops" in d.message


def test_real_naga_rejects_bad_wgsl_and_accepts_good():
    naga = Naga()
    verdict = naga.validate("fn f() -> u32 { return 1.5; }\n")
    if naga.available is False:
        pytest.skip("wgpu finds no adapter here (install mesa-vulkan-drivers)")
    assert verdict is not None and verdict.line == 1
    assert naga.validate("@compute @workgroup_size(1) fn f() {}\n") is None


# ---------------------------------------------------------------- small readers


def tokens_of(text: str):
    return lex(text)[0]


@pytest.mark.parametrize("before, head, argument", [
    ("「读数组」于「数据」于", "读数组", 1),
    ("「写数组」于「数据」于（「加步」于", "加步", 0),
    ("「写数组」于「数据」于（「加步」于「甲」）于", "写数组", 2),
    ("「几何」之「加步」于", "加步", 0),
    ("「甲」加「乙」于", "乙", 0),
    ("「转换」以", "转换", 0),                         # a type argument being written
    ("「转换」以「二维整」于", "转换", 0),
])
def test_call_before_finds_the_function_and_the_argument(before, head, argument):
    call = call_before(tokens_of(before))
    assert (call.head, call.argument) == (head, argument)


def test_call_before_is_none_outside_an_application():
    assert call_before(tokens_of("令「甲」为「乙」加")) is None
    assert call_before(tokens_of("令「甲」为「乙」中")) is None


RECORDS = """寻观「点染」之「点染本」之书。
「段」即「组类」【「甲」乃「浮三二」也，「乙」乃「浮三二」也】也。
「用段」乃化「段」而「浮三二」也。
「用段」者得「s」而「s」中「甲」也。
「试」乃化「浮三二」而「浮三二」也。
「试」者得「x」而令「r」为「组值」【「乙」者「x」也，「甲」者「x」也】而令「q」为「组值」【「甲」者「x」也，「乙」者「x」也】而「用段」于「r」加「用段」于「q」加「q」中「甲」也。
"""


def test_fields_of_records_that_become_a_struct_are_its_fields(tmp_path):
    """A 组值 bound by 令 meets its struct later: in another field order (the
    checker adopts it) or in the same order (the types are structural)."""
    from zhuose.server import navigation
    from zhuose.server.hover import hover
    file = tmp_path / "记录。着色器。豫"
    file.write_text(RECORDS, encoding="utf-8")
    p = Project(tmp_path)
    key = p.open(file.as_uri(), 1, RECORDS)
    for needle in ("「乙」者「x」也，「甲」", "「甲」者「x」也】而令「q」", "「甲」者「x」也，「乙」", "「q」中「甲」"):
        at = p.locate(key, RECORDS.index(needle) + (len("「q」中") if needle.startswith("「q」") else 0) + 1)
        text, _ = hover(p, at)
        assert "结构「段」的字段" in text, (needle, text)
    at = p.locate(key, RECORDS.index("「甲」乃") + 1)
    edits = navigation.rename(p, at, "丙")[key]
    renamed = RECORDS
    for start, end, new in sorted(edits, reverse=True):
        renamed = renamed[:start] + new + renamed[end:]
    assert "「甲」" not in renamed
    p.open(file.as_uri(), 2, renamed)
    assert [d.message for d in p.ws.diagnostics(key) if d.severity == "错误"] == []


@pytest.mark.parametrize("text, cursor, span", [
    ("令「甲」为「读", 7, (5, 7)),          # a half-typed name
    ("令「甲」为「」", 6, (5, 7)),          # an auto-closed 「」
    ("令「甲」为", 5, (5, 5)),              # nothing typed yet
])
def test_typing_at_finds_the_half_typed_name(text, cursor, span):
    typing = typing_at(text, cursor, 0)
    assert (typing.start, typing.end) == span


def test_new_names_are_checked():
    assert check_new_name("「新名」") == "新名" and check_new_name("新名") == "新名"
    for bad in ("", "「」", "甲」乙", "：注", "三二", "甲\n乙"):
        with pytest.raises(RenameRefused):
            check_new_name(bad)


def test_semantic_token_columns_count_astral_characters_twice(tmp_path):
    source = tmp_path / "星。着色器。豫"
    source.write_text("寻观「点染」之「点染本」之书。\n「𠀀」乃「无三二」也。「𠀀」者「新无三二」于「一」也。\n", encoding="utf-8")
    p = Project(tmp_path)
    writer = TokenWriter(p, p.ws.key(source))
    data = writer.encode(writer.tokens())
    quintuples = [data[i:i + 5] for i in range(0, len(data), 5)]
    line1 = []
    line, col = 0, 0
    for dl, dc, length, _, _ in quintuples:
        line, col = line + dl, (col + dc if dl == 0 else dc)
        if line == 1:
            line1.append((col, length))
    # 「𠀀」 is 4 UTF-16 units; 乃 follows at 4, 「无三二」 at 5 (5 units), 也 at 10, 。 is skipped
    assert line1[:4] == [(0, 4), (4, 1), (5, 5), (10, 1)]
    assert (12, 4) in line1   # the second 「𠀀」, after 也 (10) and 。 (11)


# ---------------------------------------------------------------- quick fix: the import a name needs


def test_a_name_defined_in_another_module_names_that_module_and_the_fix_imports_it(project):
    from zhuose.server.fixes import quick_fixes
    alone = path(project, "应用/独立。着色器。豫")
    wrong = ALONE + "「用」乃化「无三二」为「无三二」者也。\n「用」者得「x」而「加步」于「x」也。\n"
    project.change(project.uri(alone), 2, wrong)
    (d,) = project.ws.diagnostics(alone)
    at = wrong.index("「加步」")
    assert (d.start, d.end, d.definition) == (at, at + len("「加步」"), "用")
    assert (d.code, d.fields) == ("import", {"名字": "加步", "模块路径": "「库」之「几何」"})
    assert "「库」之「几何」" in d.message
    fixes = quick_fixes(project, alone, d.start, d.end)
    (edit,) = fixes[0].edits
    line_two = wrong.index("\n") + 1
    assert edit == (alone, line_two, line_two, "寻观「库」之「几何」之书。\n")
    fixed = wrong[:line_two] + edit[3] + wrong[line_two:]
    project.change(project.uri(alone), 3, fixed)
    assert project.ws.diagnostics(alone) == []
