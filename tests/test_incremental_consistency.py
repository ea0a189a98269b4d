"""The incremental core (Workspace, CheckCache, the parser's item
cache) and the build side (Generator, the build service) must give, after any
sequence of edits, exactly what a fresh Workspace / Generator gives on the same
final state.  Every comparison is warm-versus-fresh; nothing is copied from
the tool's own earlier output."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.frontend import PRELUDE, SEED_DOUBLE, SEED_DOUBLE_BODY, write
from zhuose.compiler import backends
from zhuose.compiler.generate import Generator, api
from zhuose.compiler.generate.service import BuildService
from zhuose.compiler.workspace import Workspace

MANIFEST = '{"名": "试", "依赖": ["点染"]}'
LIB = (PRELUDE
       + "「对」即「组类」【「甲」乃「无三二」也，「乙」乃「无三二」也】也。\n"
       + "「步」乃「无三二」也。\n「步」者「新无三二」于「三」也。\n"
       + "「倍」乃化「无三二」为「无三二」者也。\n「倍」者得「x」而「x」乘「步」也。\n")
USE = (PRELUDE + "寻观「试」之「库」之书。\n"
       + "「取」乃化「对」为「无三二」者也。\n「取」者得「p」而「p」中「甲」也。\n"
       + SEED_DOUBLE_BODY.replace("（「新无三二」于「二」）",
                                  "（「倍」于（「取」于（「组值」【「甲」者「步」也，「乙」者「步」也】）））"))
# 别 only names the library qualified (寻, not 寻观)
OTHER = (PRELUDE + "寻「试」之「库」之书。\n"
         + "「丁」乃「无三二」也。\n「丁」者（「库」之「步」）加（「新无三二」于「一」）也。\n")

LIB_VARIANTS = [
    LIB,
    LIB.replace("「新无三二」于「三」", "「新无三二」于「四」"),                      # body only
    LIB + "「：只改注释：」\n",                                                      # comment only
    LIB.replace("「步」乃「无三二」", "「步」乃「整三二」").replace(
        "「步」者「新无三二」", "「步」者「新整三二」"),                                 # a constant's type
    LIB.replace("「甲」乃「无三二」也，", "「丙」乃「无三二」也，"),                     # a struct field
    LIB.replace("「倍」乃化「无三二」为「无三二」", "「倍」乃化「整三二」为「整三二」"),  # a signature
    LIB.replace("「倍」乃", "「倍数」乃").replace("「倍」者", "「倍数」者"),              # a name removed
    LIB.replace("「x」乘「步」", "「x」乘「步」乘"),                                  # a syntax error
]
USE_VARIANTS = [
    USE,
    USE.replace("「p」中「甲」", "「p」中「乙」"),                                   # body only
    USE.replace("「工作组大小」者「四」", "「工作组大小」者「八」"),
    USE.replace("「p」中「甲」", "「p」中「丁」"),                                   # an error
]
OTHER_VARIANTS = [OTHER, OTHER.replace("「一」", "「二」"), OTHER.replace("（「库」之「步」）", "（「库」之「无」）")]
FILES = {"库。着色器。豫": LIB_VARIANTS, "用。着色器。豫": USE_VARIANTS, "别。着色器。豫": OTHER_VARIANTS}


def diag_view(ws: Workspace, path) -> list[tuple]:
    return [(Path(d.path).name, d.start, d.end, d.message) for d in ws.diagnostics(path)]


def translations(ws: Workspace, path) -> dict:
    out = {}
    for target in ("wgsl", "msl", "ptx"):
        t = backends.translate(ws, str(path), target)
        out[target] = (t.text, sorted(d.message for d in t.diagnostics))
    return out


def fresh_like(warm: Workspace) -> Workspace:
    """A new Workspace on the same disk with the same open documents."""
    fresh = Workspace(warm.root)
    for key, text in warm.overrides.items():
        fresh.set_document(key, text)
    return fresh


def assert_same(warm: Workspace, paths, translate=()) -> None:
    fresh = fresh_like(warm)
    for p in paths:
        assert diag_view(warm, p) == diag_view(fresh, p), p
    for p in translate:
        assert translations(warm, p) == translations(fresh, p), p


def delta(ws, before):
    return {k: ws.counters[k] - before.get(k, 0) for k in ws.counters}


def project(tmp_path: Path) -> dict[str, Path]:
    write(tmp_path, {"包.json": MANIFEST, "库。着色器。豫": LIB, "用。着色器。豫": USE, "别。着色器。豫": OTHER})
    return {name: tmp_path / name for name in FILES}


# ---------------------------------------------------------------- the core


def test_the_starting_project_is_clean_and_translates(tmp_path):
    files = project(tmp_path)
    ws = Workspace(tmp_path)
    for p in files.values():
        assert diag_view(ws, p) == []
    assert all(text is not None for text, _ in translations(ws, files["用。着色器。豫"]).values())


@pytest.mark.parametrize("variant", range(1, len(LIB_VARIANTS)))
def test_each_library_edit_matches_a_fresh_workspace(tmp_path, variant):
    files = project(tmp_path)
    ws = Workspace(tmp_path)
    for p in files.values():
        ws.diagnostics(p)
    ws.set_document(files["库。着色器。豫"], LIB_VARIANTS[variant])
    assert_same(ws, files.values(), translate=[files["用。着色器。豫"]])
    # and back again: the first answers return
    ws.set_document(files["库。着色器。豫"], LIB)
    assert all(diag_view(ws, p) == [] for p in files.values())


@pytest.mark.parametrize("variant,importer_errors", [(3, True), (4, True), (5, True), (6, True)])
def test_interface_edits_change_the_importers_diagnostics(tmp_path, variant, importer_errors):
    files = project(tmp_path)
    ws = Workspace(tmp_path)
    ws.diagnostics(files["用。着色器。豫"])
    ws.set_document(files["库。着色器。豫"], LIB_VARIANTS[variant])
    own = [d for d in diag_view(ws, files["用。着色器。豫"]) if d[0] == "用。着色器。豫"]
    assert bool(own) == importer_errors


@pytest.mark.parametrize("variant", [1, 2])
def test_body_and_comment_edits_do_not_recheck_importers(tmp_path, variant):
    files = project(tmp_path)
    ws = Workspace(tmp_path)
    for p in files.values():
        ws.check(p)
    before = dict(ws.counters)
    ws.set_document(files["库。着色器。豫"], LIB_VARIANTS[variant])
    for p in files.values():
        ws.check(p)
    d = delta(ws, before)
    assert d["module_checks"] == 1  # the library only
    assert d["item_checks"] <= 1


def test_an_importers_body_edit_rechecks_only_that_file(tmp_path):
    files = project(tmp_path)
    ws = Workspace(tmp_path)
    for p in files.values():
        ws.check(p)
    before = dict(ws.counters)
    ws.set_document(files["用。着色器。豫"], USE_VARIANTS[1])
    for p in files.values():
        ws.check(p)
    d = delta(ws, before)
    assert d["module_checks"] == 1 and d["item_checks"] == 1 and d["item_parses"] == 1


def test_closing_a_document_brings_back_the_disk_text_changed_meanwhile(tmp_path):
    files = project(tmp_path)
    lib = files["库。着色器。豫"]
    ws = Workspace(tmp_path)
    ws.set_document(lib, LIB_VARIANTS[3])
    assert diag_view(ws, files["用。着色器。豫"]) != []
    lib.write_text(LIB_VARIANTS[4], encoding="utf-8")  # saved by another tool while open
    ws.file_changed(lib)
    assert_same(ws, files.values())  # the open buffer still wins
    ws.close_document(lib)
    assert_same(ws, files.values(), translate=[files["用。着色器。豫"]])
    assert any("没有字段「甲」" in d[3] for d in diag_view(ws, files["用。着色器。豫"]))


def test_delete_recreate_and_rename_a_module(tmp_path):
    files = project(tmp_path)
    ws = Workspace(tmp_path)
    use = files["用。着色器。豫"]
    assert diag_view(ws, use) == []
    files["库。着色器。豫"].unlink()
    ws.file_changed(files["库。着色器。豫"])
    assert any("包内模块不存在" in d[3] for d in diag_view(ws, use))
    assert_same(ws, [use, files["别。着色器。豫"]])
    write(tmp_path, {"库。着色器。豫": LIB_VARIANTS[1]})
    assert diag_view(ws, use) == []
    assert_same(ws, [use], translate=[use])
    # rename 库 → 子/新库 and update the importers
    (tmp_path / "子").mkdir()
    os.rename(files["库。着色器。豫"], tmp_path / "子/新库。着色器。豫")
    ws.set_document(use, USE.replace("「试」之「库」", "「试」之「子」之「新库」"))
    assert diag_view(ws, use) == []
    assert_same(ws, [use, files["别。着色器。豫"]])  # translations: see the xfail test below
    # the open buffer was never saved: closing it brings the old import back, which fails now
    ws.close_document(use)
    assert any("包内模块不存在" in d[3] for d in diag_view(ws, use))
    assert_same(ws, [use])


def test_editing_the_manifest_adds_and_removes_a_dependency(tmp_path):
    write(tmp_path, {"甲/包.json": '{"名": "甲包", "依赖": ["点染", "乙包"]}',
                     "甲/主。着色器。豫": USE.replace("「试」之「库」", "「乙包」之「库」"),
                     "乙/包.json": '{"名": "乙包", "依赖": ["点染"]}', "乙/库。着色器。豫": LIB})
    main = tmp_path / "甲/主。着色器。豫"
    ws = Workspace(tmp_path)
    assert diag_view(ws, main) == []
    write(tmp_path, {"甲/包.json": '{"名": "甲包", "依赖": ["点染"]}'})
    ws.refresh_packages()
    assert any("没有声明依赖「乙包」" in d[3] for d in diag_view(ws, main))
    assert_same(ws, [main])
    write(tmp_path, {"甲/包.json": '{"名": "甲包", "依赖": ["点染", "乙包"]}'})
    ws.refresh_packages()
    assert diag_view(ws, main) == []
    assert_same(ws, [main], translate=[main])


def test_a_workspace_builtin_package_created_later_is_used(tmp_path):
    files = project(tmp_path)
    ws = Workspace(tmp_path)
    assert diag_view(ws, files["用。着色器。豫"]) == []
    shipped = ws.builtins().path
    text = Path(shipped).read_text(encoding="utf-8")
    # the workspace's own 「点染」 lacks 「乘」: every use of 乘 is now unknown
    write(tmp_path, {"点染/包.json": '{"名": "点染"}',
                     "点染/点染本。着色器。接口。豫": text.replace("「乘」乃", "「乘乘」乃")})
    ws.refresh_packages()
    assert_same(ws, files.values())
    assert diag_view(ws, files["库。着色器。豫"]) != []


def test_a_qualifier_that_no_longer_names_an_import_is_an_error(tmp_path):
    lib = PRELUDE + "「步」乃「无三二」也。\n「步」者「新无三二」于「%s」也。\n"
    main = PRELUDE + "寻「试」之「%s」之书。\n" + SEED_DOUBLE_BODY.replace("（「新无三二」于「二」）", "（「甲」之「步」）")
    write(tmp_path, {"包.json": MANIFEST, "甲。着色器。豫": lib % "三", "乙。着色器。豫": lib % "四",
                     "主。着色器。豫": main % "甲"})
    path = tmp_path / "主。着色器。豫"
    ws = Workspace(tmp_path)
    assert diag_view(ws, path) == []
    ws.set_document(path, main % "乙")
    assert any("「甲」不是已导入的模块" in d[3] for d in diag_view(ws, path))
    assert_same(ws, [path], translate=[path])


SWITCH_LIB = PRELUDE + "「倍」乃化「无三二」为「无三二」者也。\n「倍」者得「x」而「x」乘（「新无三二」于「%s」）也。\n"
SWITCH_MAIN = PRELUDE + "寻观「试」之「%s」之书。\n" + SEED_DOUBLE_BODY.replace("（「新无三二」于「二」）", "（「倍」于「序」）")


def switch_project(tmp_path: Path) -> Path:
    """Two modules with the same interface (甲: 倍 x = 3x, 乙: 倍 x = 4x) and a source opening 甲."""
    write(tmp_path, {"包.json": MANIFEST, "甲。着色器。豫": SWITCH_LIB % "三", "乙。着色器。豫": SWITCH_LIB % "四",
                     "主。着色器。豫": SWITCH_MAIN % "甲"})
    return tmp_path / "主。着色器。豫"


def test_switching_an_import_between_same_interface_modules_translates_like_fresh(tmp_path):
    path = switch_project(tmp_path)
    ws = Workspace(tmp_path)
    translations(ws, path)
    ws.set_document(path, SWITCH_MAIN % "乙")
    assert_same(ws, [path], translate=[path])


def test_generator_after_switching_an_import_equals_a_fresh_generation(tmp_path):
    path = switch_project(tmp_path)
    gen = Generator(Workspace(tmp_path))
    assert gen.generate(path).warnings == []
    path.write_text(SWITCH_MAIN % "乙", encoding="utf-8")
    assert generator_state(gen, path) == generator_state(Generator(Workspace(tmp_path)), path)
    assert gen.generate(path).warnings == []


def test_renaming_a_module_translates_like_fresh(tmp_path):
    files = project(tmp_path)
    ws = Workspace(tmp_path)
    use = files["用。着色器。豫"]
    translations(ws, use)
    (tmp_path / "子").mkdir()
    os.rename(files["库。着色器。豫"], tmp_path / "子/新库。着色器。豫")
    ws.set_document(use, USE.replace("「试」之「库」", "「试」之「子」之「新库」"))
    assert_same(ws, [use], translate=[use])


def test_import_errors_follow_a_new_package(tmp_path):
    main = PRELUDE + "寻观「乙包」之「库」之书。\n「乙」者「新无三二」于「一」也。\n"
    write(tmp_path, {"甲/包.json": '{"名": "甲包", "依赖": ["点染"]}', "甲/主。着色器。豫": main})
    path = tmp_path / "甲/主。着色器。豫"
    ws = Workspace(tmp_path)
    assert any("未知的包「乙包」" in d[3] for d in diag_view(ws, path))
    write(tmp_path, {"乙/包.json": '{"名": "乙包", "依赖": ["点染"]}', "乙/库。着色器。豫": LIB})
    ws.refresh_packages()
    assert any("没有声明依赖「乙包」" in d[3] for d in diag_view(ws, path))
    assert_same(ws, [path])


def test_the_closest_module_hint_follows_the_folder(tmp_path):
    write(tmp_path, {"包.json": MANIFEST, "主。着色器。豫": PRELUDE + "寻观「试」之「常量甲」之书。\n"})
    path = tmp_path / "主。着色器。豫"
    ws = Workspace(tmp_path)
    assert not any("是不是" in d[3] for d in diag_view(ws, path))
    write(tmp_path, {"常量。着色器。豫": PRELUDE + "「倍数」者「新无三二」于「二」也。"})
    assert any("是不是「试」之「常量」" in d[3] for d in diag_view(ws, path))


# ---------------------------------------------------------------- random edit sequences

STEP = st.one_of(
    st.tuples(st.just("doc"), st.sampled_from(sorted(FILES)), st.integers(0, 7)),
    st.tuples(st.just("close"), st.sampled_from(sorted(FILES)), st.just(0)),
    st.tuples(st.just("disk"), st.sampled_from(sorted(FILES)), st.integers(0, 7)),
    st.tuples(st.just("delete"), st.sampled_from(sorted(FILES)), st.just(0)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(STEP, min_size=1, max_size=6))
def test_random_edit_sequences_match_a_fresh_workspace(tmp_path_factory, steps):
    root = tmp_path_factory.mktemp("seq")
    files = project(root)
    ws = Workspace(root)
    for p in files.values():
        ws.diagnostics(p)
    for op, name, k in steps:
        path, variants = files[name], FILES[name]
        if op == "doc":
            ws.set_document(path, variants[k % len(variants)])
        elif op == "close":
            ws.close_document(path)
        elif op == "disk":
            path.write_text(variants[k % len(variants)], encoding="utf-8")
            ws.file_changed(path)
        elif op == "delete" and path.exists():
            path.unlink()
            ws.file_changed(path)
        live = [p for p in files.values() if p.exists() or ws.key(p) in ws.overrides]
        assert_same(ws, live)
    if files["用。着色器。豫"].exists() or ws.key(files["用。着色器。豫"]) in ws.overrides:
        assert_same(ws, [], translate=[files["用。着色器。豫"]])
    shutil.rmtree(root, ignore_errors=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(alphabet="「」。甲乙者也一：『』\n", max_size=6), min_size=1, max_size=5))
def test_typing_sequences_in_one_file_match_a_fresh_parse(tmp_path_factory, pieces):
    root = tmp_path_factory.mktemp("typing")
    path = root / "模。着色器。豫"
    ws = Workspace(root)
    text = PRELUDE + "「甲」者「新无三二」于「一」也。\n"
    for i, piece in enumerate(pieces):
        cut = (len(text) * (i + 1)) // (len(pieces) + 1)
        text = text[:cut] + piece + text[cut:]
        ws.set_document(path, text)
        assert_same(ws, [path])


# ---------------------------------------------------------------- the build side


def generator_state(gen: Generator, path) -> tuple:
    g = gen.generate(path)
    return g.text, g.fingerprint, [Path(p).name for p in g.inputs], [d.message for d in g.diagnostics]


def test_generator_after_each_edit_equals_a_fresh_generation(tmp_path):
    files = project(tmp_path)
    use = files["用。着色器。豫"]
    gen = Generator(Workspace(tmp_path))
    seen = [gen.generate(use).text]
    assert seen[0] is not None
    for variant in [1, 2, 3, 0, 4, 0]:
        files["库。着色器。豫"].write_text(LIB_VARIANTS[variant], encoding="utf-8")
        assert generator_state(gen, use) == generator_state(Generator(Workspace(tmp_path)), use), variant
    for variant in [1, 2, 0]:
        use.write_text(USE_VARIANTS[variant], encoding="utf-8")
        assert generator_state(gen, use) == generator_state(Generator(Workspace(tmp_path)), use), variant
    # comment-only edits of an import and of the source both change the text and the fingerprint
    texts = {gen.generate(use).text}
    for path in (files["库。着色器。豫"], use):
        path.write_text(path.read_text(encoding="utf-8") + "「：注释：」\n", encoding="utf-8")
        texts.add(gen.generate(use).text)
    assert len(texts) == 3


def test_generator_sees_a_deleted_import(tmp_path):
    files = project(tmp_path)
    use = files["用。着色器。豫"]
    gen = Generator(Workspace(tmp_path))
    assert gen.generate(use).text is not None
    files["库。着色器。豫"].unlink()
    g = gen.generate(use)
    assert g.text is None and any("包内模块不存在" in d.message for d in g.diagnostics)
    write(tmp_path, {"库。着色器。豫": LIB})
    assert generator_state(gen, use) == generator_state(Generator(Workspace(tmp_path)), use)


def test_fingerprint_covers_the_workspace_builtin_declarations(tmp_path):
    files = project(tmp_path)
    use = files["用。着色器。豫"]
    shipped = Workspace(tmp_path).builtins().path
    write(tmp_path, {"点染/包.json": '{"名": "点染"}',
                     "点染/点染本。着色器。接口。豫": Path(shipped).read_text(encoding="utf-8")})
    gen = Generator(Workspace(tmp_path))
    first = gen.generate(use)
    assert first.text is not None and Path(first.inputs[0]).parent.name == "点染"
    builtin = tmp_path / "点染/点染本。着色器。接口。豫"
    builtin.write_text(builtin.read_text(encoding="utf-8") + "\n「：改内建：」\n", encoding="utf-8")
    second = gen.generate(use)
    assert second.text is not None and second.fingerprint != first.fingerprint and second.text != first.text
    assert generator_state(gen, use) == generator_state(Generator(Workspace(tmp_path)), use)


def test_an_unchanged_request_only_stats_its_inputs(tmp_path, monkeypatch):
    files = project(tmp_path)
    gen = Generator(Workspace(tmp_path))
    first = gen.generate(files["用。着色器。豫"])
    calls = []
    real = api.fingerprint
    monkeypatch.setattr(api, "fingerprint", lambda *a: calls.append(a) or real(*a))
    assert gen.generate(files["用。着色器。豫"]) is first
    assert calls == []


def ask(service: BuildService, **request) -> dict:
    return service.answer(json.dumps({"文件": "用。着色器。豫", **request}, ensure_ascii=False))


def test_build_service_reports_changes_exactly_when_the_text_changes(tmp_path):
    files = project(tmp_path)
    service = BuildService(Workspace(tmp_path))
    out = str(tmp_path / "产物")
    steps = [None, 1, 1, 2, 2, 0, 5, 0, 0]  # library variant written before each request (None: untouched)
    previous = None
    for variant in steps:
        if variant is not None:
            files["库。着色器。豫"].write_text(LIB_VARIANTS[variant], encoding="utf-8")
        reply = ask(service, 输出目录=out)
        fresh = Generator(Workspace(tmp_path)).generate(files["用。着色器。豫"])
        assert reply["模块"] == fresh.text
        if fresh.text is None:
            assert reply["改动"] is False and reply["错误"]
        else:
            assert reply["改动"] == (fresh.text != previous), variant
            assert Path(reply["输出"]).read_text(encoding="utf-8") == fresh.text
            previous = fresh.text


def test_build_service_without_output_dir_reports_text_changes(tmp_path):
    files = project(tmp_path)
    service = BuildService(Workspace(tmp_path))
    answers = []
    for variant in [None, None, 1, 1, 2, 0]:
        if variant is not None:
            files["库。着色器。豫"].write_text(LIB_VARIANTS[variant], encoding="utf-8")
        answers.append(ask(service))
    assert [a["改动"] for a in answers] == [True, False, True, False, True, True]


def test_build_service_change_flag_after_a_request_with_an_output_dir(tmp_path):
    files = project(tmp_path)
    service = BuildService(Workspace(tmp_path))
    first = ask(service)
    files["库。着色器。豫"].write_text(LIB_VARIANTS[1], encoding="utf-8")
    written = ask(service, 输出目录=str(tmp_path / "产物"))
    assert written["改动"] and written["模块"] != first["模块"]
    again = ask(service)
    assert again["模块"] == written["模块"]
    assert again["改动"] is False


def test_build_service_process_follows_edits_between_requests(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": SEED_DOUBLE})
    source = tmp_path / "加倍。着色器。豫"
    proc = subprocess.Popen([sys.executable, "-m", "zhuose.cli", "服务", "--构建"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        def request(number):
            proc.stdin.write(json.dumps({"文件": "加倍。着色器。豫", "输出目录": "产物", "编号": number},
                                        ensure_ascii=False) + "\n")
            proc.stdin.flush()
            return json.loads(proc.stdout.readline())

        replies = [request(1), request(2)]
        source.write_text(SEED_DOUBLE.replace("「工作组大小」者「四」", "「工作组大小」者「八」"), encoding="utf-8")
        replies.append(request(3))
        source.write_text(SEED_DOUBLE.replace("「数据」者", "「数据」者「未知」于"), encoding="utf-8")
        replies.append(request(4))
        source.write_text(SEED_DOUBLE, encoding="utf-8")
        replies.append(request(5))
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert [r["编号"] for r in replies] == [1, 2, 3, 4, 5]
    assert [r["改动"] for r in replies] == [True, False, True, False, True]
    assert replies[0]["模块"] == replies[4]["模块"] != replies[2]["模块"]
    assert "@workgroup_size(8)" in replies[2]["模块"]
    assert replies[3]["模块"] is None and replies[3]["错误"]
    fresh = Generator(Workspace(tmp_path)).generate(source)
    assert replies[4]["模块"] == fresh.text
    assert (tmp_path / "产物/加倍。着色生成。豫").read_text(encoding="utf-8") == fresh.text
