"""The generated module 名。着色生成。豫 (seed 着二): its exports, escaping that
round-trips through the project's parser, failures per target, lookup for
high-level files, and the build semantics (no stage caches, atomic output,
fingerprinted inputs)."""

from __future__ import annotations

import os
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from support.generate_fakes import DOUBLE, PRELUDE, fake, read_back, write  # noqa: F401 (fixture)

from zhuose.compiler.generate import (Generator, dependencies, file_kind, find_high_level_import, package_of,
                                      string_literal, string_value, virtual_path)
from zhuose.compiler.generate.escape import comment
from zhuose.compiler.syntax import ast
from zhuose.compiler.syntax.parser import parse_file
from zhuose.compiler.workspace import Workspace

SUBGROUP_MATRIX = PRELUDE + """
「片」乃「工作组变量」于（「定长数组」于「浮十六」于「二五六」）也。
「片」者「工作组共享」于「元」也。
「算」乃化「局部调用号」为「有」者也。
「算」者得「号」而「元」也。
「算入口」乃「计算入口」也。
「算入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「三二」也】）也。
"""

# ---------------------------------------------------------------- escaping

NASTY = ["", "』", "『』", "〘", "〘U+0041〙", "〘U+300F〙", "a\r\nb", "「：」", "：」『x』「：", "。也「甲」者",
         "\x00", "\U0001F600", "\ufeff", "\\n", "〙〘〘U+"]


def parses_to(literal: str) -> str:
    parsed = parse_file(f"「甲」者{literal}也。\n「乙」者『尾』也。")
    items = parsed.items
    assert [i.errors for i in items] == [[], []], literal
    assert [i.node.name for i in items] == ["甲", "乙"]
    assert isinstance(items[0].node.value, ast.String)
    return string_value(items[0].node.value.value)


def test_string_literal_round_trips_the_awkward_cases():
    for text in NASTY:
        assert parses_to(string_literal(text)) == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("』『〘〙U+0123456789ABCDEF「」：。\r\n a"))) | st.text())
def test_string_literal_round_trips_any_text(text):
    assert parses_to(string_literal(text)) == text


def test_plain_target_text_is_written_verbatim():
    wgsl = "@compute @workgroup_size(4)\nfn 加倍(@builtin(global_invocation_id) 号: vec3<u32>) {\n}\n"
    assert string_literal(wgsl) == "『" + wgsl + "』"
    assert string_literal("a』b〘c\rd") == "『a〘U+300F〙b〘U+3018〙c〘U+000D〙d』"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("「」：『』。\n\r 甲"))) | st.text())
def test_a_comment_cannot_be_broken_out_of(text):
    parsed = parse_file(comment(text) + "\n「乙」者『尾』也。")
    assert len(parsed.comments) == 1 and "\n" not in parsed.comments[0].text
    assert [(i.node.name, i.errors) for i in parsed.items] == [("乙", [])]


# ---------------------------------------------------------------- the module


def generated(tmp_path, files, name="加倍。着色器。豫"):
    write(tmp_path, files)
    gen = Generator(Workspace(tmp_path))
    return gen, gen.generate(tmp_path / name)


def test_double_example_exports_sources_and_entry_names(tmp_path, fake):
    _, g = generated(tmp_path, {"加倍。着色器。豫": DOUBLE})
    assert g.diagnostics == [] and g.warnings == []
    values = read_back(g.text)
    assert set(values) == {"着色源", "金属源", "并线汇编源", "加倍入口", "加倍入口并线汇编名"}
    assert values["着色源"] == "// wgsl of 加倍。着色器。豫\n" + DOUBLE
    assert values["金属源"].startswith("// msl of ") and values["并线汇编源"].startswith("// ptx of ")
    assert values["加倍入口"] == "加倍"
    # the PTX name is the PTX translation's, not recomputed
    assert values["加倍入口并线汇编名"] == "yy" + "加倍".encode().hex()


def test_header_comments_are_the_only_non_definitions(tmp_path, fake):
    _, g = generated(tmp_path, {"加倍。着色器。豫": DOUBLE})
    parsed = parse_file(g.text)
    assert len(parsed.comments) == 2
    assert "加倍。着色器。豫" in parsed.comments[0].text and g.fingerprint in parsed.comments[1].text
    assert str(tmp_path) not in g.text


def test_target_text_with_string_and_comment_marks_round_trips(tmp_path, fake):
    awkward = "// 』「：x：」〘U+0041〙\r\nfn f() {}\n"
    fake.texts = {"wgsl": awkward, "msl": "』" * 3, "ptx": "。也。"}
    _, g = generated(tmp_path, {"加倍。着色器。豫": DOUBLE})
    values = read_back(g.text)
    assert (values["着色源"], values["金属源"], values["并线汇编源"]) == (awkward, "』" * 3, "。也。")


def test_failed_msl_is_a_one_line_comment_and_the_rest_stays(tmp_path, fake):
    fake.fail["msl"] = "金属不支持这个：」』\n第二行「："
    _, g = generated(tmp_path, {"加倍。着色器。豫": DOUBLE})
    values = read_back(g.text)
    note = values["金属源"]
    assert "\n" not in note and note.startswith("// 着色生成：未能译成 MSL：")
    assert "加倍。着色器。豫:1:1: 在「某定义」中：金属不支持这个：」』 第二行「：" in note
    assert values["着色源"].startswith("// wgsl of") and values["加倍入口"] == "加倍"
    assert len(g.warnings) == 1 and "MSL" in g.warnings[0]


def test_failed_ptx_keeps_the_ptx_name_by_the_seed_rule(tmp_path, fake):
    fake.unavailable.add("ptx")
    _, g = generated(tmp_path, {"加倍。着色器。豫": DOUBLE})
    values = read_back(g.text)
    assert values["并线汇编源"] == "// 着色生成：未能译成 PTX：目标「ptx」的翻译器尚未实现"
    assert values["加倍入口并线汇编名"] == "yy_e5_8a_a0_e5_80_8d"


def test_wgsl_failure_takes_the_entry_table_from_msl(tmp_path, fake):
    fake.fail["wgsl"] = "WGSL 没有子组矩阵片"
    _, g = generated(tmp_path, {"算。着色器。豫": SUBGROUP_MATRIX}, "算。着色器。豫")
    values = read_back(g.text)
    assert values["着色源"].startswith("// 着色生成：未能译成 WGSL：") and "子组矩阵片" in values["着色源"]
    assert values["金属源"].startswith("// msl of") and values["算入口"] == "算"


def test_only_ptx_gives_the_entry_table_from_ptx(tmp_path, fake):
    fake.fail.update(wgsl="不行", msl="也不行")
    _, g = generated(tmp_path, {"算。着色器。豫": SUBGROUP_MATRIX}, "算。着色器。豫")
    values = read_back(g.text)
    assert values["算入口"] == values["算入口并线汇编名"] == "yy" + "算".encode().hex()


def test_no_target_at_all_is_an_error_with_positions(tmp_path, fake):
    fake.fail.update(wgsl="甲", msl="乙", ptx="丙")
    _, g = generated(tmp_path, {"算。着色器。豫": SUBGROUP_MATRIX}, "算。着色器。豫")
    assert g.text is None and [d.message for d in g.diagnostics] == ["甲", "乙", "丙"]
    fake.fail.clear()
    fake.unavailable.update({"wgsl", "msl", "ptx"})
    _, g = generated(tmp_path, {"算。着色器。豫": SUBGROUP_MATRIX + " "}, "算。着色器。豫")
    assert g.text is None and "没有一个目标译得出这个模块" in g.diagnostics[0].message


def test_type_errors_stop_generation_without_translating(tmp_path, fake):
    _, g = generated(tmp_path, {"坏。着色器。豫": PRELUDE + "「错」者「未知」也。"}, "坏。着色器。豫")
    assert g.text is None and fake.calls == 0
    assert [(d.definition, d.message) for d in g.diagnostics] == [("错", "未知的名字「未知」")]


def test_an_entry_named_like_an_export_is_reported_at_the_entry(tmp_path, fake):
    text = DOUBLE.replace("「加倍入口」", "「着色源」")
    ws_gen, g = generated(tmp_path, {"加倍。着色器。豫": text})
    assert g.text is None
    (d,) = g.diagnostics
    assert d.definition == "着色源" and "重名" in d.message
    assert ws_gen.ws.source(d.path).text[d.start:d.start + 5] == "「着色源」"


# ---------------------------------------------------------------- lookup


def package_tree(tmp_path):
    write(tmp_path, {
        "应用/包.json": '{"名": "应用", "依赖": ["点染"]}',
        "应用/加倍。着色器。豫": DOUBLE,
        "应用/主。豫": "寻「应用」之「加倍」之书。",
        "应用/工具。豫": "", "应用/工具。接口。豫": "", "应用/工具。应用接口。豫": "", "应用/工具。着色器。豫": "",
        "应用/接口甲。接口。豫": "", "应用/接口甲。应用接口。豫": "", "应用/接口甲。着色器。豫": "",
        "应用/应用甲。应用接口。豫": "", "应用/应用甲。着色器。豫": "",
        "应用/内建。着色器。接口。豫": "",
        "别的/包.json": '{"名": "别的"}',
        "别的/东西。豫": "",
    })
    return Workspace(tmp_path)


def test_high_level_lookup_order(tmp_path):
    ws = package_tree(tmp_path)
    importer = tmp_path / "应用/主。豫"
    found = {name: find_high_level_import(ws.packages, importer, ["应用", name])[0]
             for name in ["工具", "接口甲", "应用甲", "加倍"]}
    assert {n: (r.path.name, r.kind) for n, r in found.items()} == {
        "工具": ("工具。豫", "豫言"), "接口甲": ("接口甲。接口。豫", "接口"),
        "应用甲": ("应用甲。应用接口。豫", "应用接口"), "加倍": ("加倍。着色生成。豫", "着色生成")}
    assert found["加倍"].shader_source == (tmp_path / "应用/加倍。着色器。豫").resolve()


def test_high_level_lookup_errors(tmp_path):
    ws = package_tree(tmp_path)
    importer = tmp_path / "应用/主。豫"

    def error(names):
        resolved, message = find_high_level_import(ws.packages, importer, names)
        assert resolved is None
        return message

    assert error(["应用", "内建"]).startswith("高级代码不能导入着色内建声明 「应用」之「内建」")
    assert error(["应用", "没有"]) == ("包内模块不存在：「应用」之「没有」（高级文件依次查找 名。豫、名。接口。豫、"
                                      "名。应用接口。豫、名。着色器。豫）")
    assert "没有声明依赖「别的」" in error(["别的", "东西"])
    assert error(["谁", "东西"]).startswith("未知的包「谁」")
    lone = tmp_path / "单独。豫"
    lone.write_text("")
    assert "包外的单独文件只能导入「点染」" in find_high_level_import(ws.packages, lone, ["应用", "加倍"])[1]


def test_virtual_module_belongs_to_the_source_package_and_has_no_dependencies(tmp_path):
    ws = package_tree(tmp_path)
    virtual = virtual_path(tmp_path / "应用/加倍。着色器。豫")
    assert virtual.name == "加倍。着色生成。豫" and not virtual.exists()
    assert file_kind(virtual) == "着色生成" and file_kind(tmp_path / "应用/主。豫") == "豫言"
    assert package_of(ws.packages, virtual).name == "应用"
    assert dependencies(virtual) == []


# ---------------------------------------------------------------- build semantics


def listing(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


def test_generation_writes_nothing_but_the_output(tmp_path, fake):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE})
    before = listing(tmp_path)
    gen = Generator(Workspace(tmp_path))
    assert gen.generate(tmp_path / "加倍。着色器。豫").text
    assert listing(tmp_path) == before
    result = gen.write(tmp_path / "加倍。着色器。豫", tmp_path / "产物")
    assert listing(tmp_path) == sorted(before + ["产物", "产物/加倍。着色生成。豫"])
    assert result.changed and result.output.read_text(encoding="utf-8") == result.generated.text


def test_identical_output_is_left_alone_mtime_included(tmp_path, fake):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE})
    out = tmp_path / "产物"
    assert Generator(Workspace(tmp_path)).write(tmp_path / "加倍。着色器。豫", out).changed
    target = out / "加倍。着色生成。豫"
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    inode = target.stat().st_ino
    again = Generator(Workspace(tmp_path)).write(tmp_path / "加倍。着色器。豫", out)
    assert not again.changed and target.stat().st_mtime_ns == 1_000_000_000 and target.stat().st_ino == inode


def test_a_changed_file_is_replaced_not_rewritten_in_place(tmp_path, fake):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE})
    target = tmp_path / "产物/加倍。着色生成。豫"
    write(tmp_path, {"产物/加倍。着色生成。豫": "旧的"})
    hard_link = tmp_path / "旧的链接"
    os.link(target, hard_link)
    assert Generator(Workspace(tmp_path)).write(tmp_path / "加倍。着色器。豫", tmp_path / "产物").changed
    assert hard_link.read_text(encoding="utf-8") == "旧的"     # a new file took the name
    assert listing(tmp_path / "产物") == ["加倍。着色生成。豫"]


def module_package(tmp_path):
    write(tmp_path, {
        "包.json": '{"名": "试", "依赖": ["点染"]}',
        "库/常量。着色器。豫": PRELUDE + "「倍数」者「新无三二」于「二」也。\n",
        "加倍。着色器。豫": DOUBLE.replace(PRELUDE, PRELUDE + "寻观「试」之「库」之「常量」之书。\n"),
    })
    return tmp_path / "加倍。着色器。豫"


def test_source_imports_and_builtins_all_change_the_output(tmp_path, fake):
    source = module_package(tmp_path)
    gen = Generator(Workspace(tmp_path))
    texts = [gen.generate(source).text]
    assert [p.rsplit("/", 1)[-1] for p in gen.generate(source).inputs] == [
        "点染本。着色器。接口。豫", "常量。着色器。豫", "加倍。着色器。豫"]
    edits = [(source, "「：只改注释：」\n"), (tmp_path / "库/常量。着色器。豫", "「：改导入的模块：」\n")]
    for path, extra in edits:
        path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
        texts.append(gen.generate(source).text)
    # a workspace 「点染」 package takes precedence over the shipped one
    builtin = Workspace(tmp_path).builtins().path
    write(tmp_path, {"点染/包.json": '{"名": "点染"}',
                     "点染/点染本。着色器。接口。豫": open(builtin, encoding="utf-8").read() + "\n「：改内建：」\n"})
    texts.append(Generator(Workspace(tmp_path)).generate(source).text)
    assert None not in texts and len(set(texts)) == len(texts)


def test_output_does_not_depend_on_where_the_tree_is(tmp_path, fake):
    a = module_package(tmp_path / "甲")
    b = module_package(tmp_path / "乙" / "更深")
    ta = Generator(Workspace(tmp_path / "甲")).generate(a).text
    tb = Generator(Workspace(tmp_path / "乙" / "更深")).generate(b).text
    assert ta is not None and ta == tb


def test_unchanged_inputs_are_answered_without_checking_or_translating(tmp_path, fake):
    source = module_package(tmp_path)
    gen = Generator(Workspace(tmp_path))
    first = gen.generate(source)
    counters, calls = dict(gen.ws.counters), fake.calls
    assert gen.generate(source) is first
    assert dict(gen.ws.counters) == counters and fake.calls == calls
    imported = tmp_path / "库/常量。着色器。豫"
    imported.write_text(imported.read_text(encoding="utf-8").replace("「二」", "「三」"), encoding="utf-8")
    assert gen.generate(source) is not first and fake.calls == calls + 3


def test_a_touched_but_unchanged_input_regenerates_nothing(tmp_path, fake):
    source = module_package(tmp_path)
    gen = Generator(Workspace(tmp_path))
    first = gen.generate(source)
    os.utime(tmp_path / "库/常量。着色器。豫", ns=(5_000_000_000, 5_000_000_000))
    assert gen.generate(source) is first and gen.generate(source) is first


def test_an_import_that_appears_is_noticed(tmp_path, fake):
    source = module_package(tmp_path)
    imported = tmp_path / "库/常量。着色器。豫"
    os.rename(imported, tmp_path / "库/别处")
    gen = Generator(Workspace(tmp_path))
    missing = gen.generate(source)
    assert missing.text is None and "包内模块不存在" in missing.diagnostics[0].message
    os.rename(tmp_path / "库/别处", imported)
    found = gen.generate(source)
    assert found.text is not None and found.inputs[1] == str(imported)


def test_fingerprint_is_sha256_hex(tmp_path, fake):
    _, g = generated(tmp_path, {"加倍。着色器。豫": DOUBLE})
    assert re.fullmatch(r"[0-9a-f]{64}", g.fingerprint)
