"""Packages and module lookup (seed 着二, LANGUAGE.md §1)."""

from zhuose.compiler.packages import PackageIndex
from zhuose.compiler.workspace import Workspace
from frontend_util import write

PRELUDE = "寻观「点染」之「点染本」之书。\n"
SEED_MESSAGE = ("包内模块不存在：「点染」之「标准库」（着色文件只能导入着色源「名。着色器。豫」"
                "与着色内建声明「名。着色器。接口。豫」）")


def diags(root, name):
    ws = Workspace(root)
    return [d.message for d in ws.diagnostics(root / name)]


def test_a_lone_file_depends_on_dianran(tmp_path):
    write(tmp_path, {"独。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。"})
    assert diags(tmp_path, "独。着色器。豫") == []


def test_missing_module_gets_the_seed_message(tmp_path):
    write(tmp_path, {"独。着色器。豫": "寻观「点染」之「标准库」之书。"})
    assert diags(tmp_path, "独。着色器。豫") == [SEED_MESSAGE]


def test_high_level_files_are_not_shader_modules(tmp_path):
    write(tmp_path, {"包.json": '{"名": "甲", "依赖": ["点染"]}', "普通。豫": "", "用。着色器。豫": "寻「甲」之「普通」之书。"})
    (msg,) = diags(tmp_path, "用。着色器。豫")
    assert msg.startswith("包内模块不存在：「甲」之「普通」（着色文件只能导入")


def test_modules_in_folders_and_interface_files(tmp_path):
    write(tmp_path, {
        "包.json": '{"名": "甲", "依赖": ["点染"]}',
        "子/声明。着色器。接口。豫": "「外部」乃化「无三二」而「无三二」也。",
        "用。着色器。豫": PRELUDE + "寻观「甲」之「子」之「声明」之书。\n「f」乃化「无三二」为「无三二」者也。\n「f」者得「x」而「外部」于「x」也。",
    })
    assert diags(tmp_path, "用。着色器。豫") == []


def test_undeclared_dependency_is_an_error_that_says_so(tmp_path):
    write(tmp_path, {
        "甲/包.json": '{"名": "甲", "依赖": ["点染"]}',
        "乙/包.json": '{"名": "乙", "依赖": []}',
        "乙/模。着色器。豫": "",
        "甲/用。着色器。豫": "寻「乙」之「模」之书。",
    })
    (msg,) = diags(tmp_path, "甲/用。着色器。豫")
    assert "没有声明依赖「乙」" in msg and "包.json" in msg


def test_declared_dependency_and_own_package_imports_work(tmp_path):
    write(tmp_path, {
        "甲/包.json": '{"名": "甲", "依赖": ["点染", "乙"]}',
        "乙/包.json": '{"名": "乙", "依赖": []}',
        "乙/模。着色器。豫": "「一个」乃「整数」也。\n「一个」者「一」也。",
        "甲/本。着色器。豫": "「二个」乃「整数」也。\n「二个」者「二」也。",
        "甲/用。着色器。豫": "寻观「乙」之「模」之书。\n寻观「甲」之「本」之书。\n「三个」者「一个」加「二个」也。",
    })
    assert diags(tmp_path, "甲/用。着色器。豫") == []


def test_unknown_package(tmp_path):
    write(tmp_path, {"独。着色器。豫": "寻「无此包」之「模」之书。"})
    (msg,) = diags(tmp_path, "独。着色器。豫")
    assert "未知的包「无此包」" in msg


def test_import_cycles_are_reported_not_looped(tmp_path):
    write(tmp_path, {
        "包.json": '{"名": "环", "依赖": []}',
        "甲。着色器。豫": "寻「环」之「乙」之书。",
        "乙。着色器。豫": "寻「环」之「甲」之书。",
    })
    msgs = diags(tmp_path, "甲。着色器。豫")
    assert any("导入成环" in m for m in msgs), msgs


def test_bad_manifests_are_reported(tmp_path):
    write(tmp_path, {"坏/包.json": "{不是 JSON", "无名/包.json": '{"依赖": []}'})
    index = PackageIndex(tmp_path)
    problems = sorted(p.message for p in index.problems)
    assert any("不是合法的 JSON" in p for p in problems) and any("缺少「名」" in p for p in problems)


def test_workspace_package_named_dianran_takes_precedence(tmp_path):
    write(tmp_path, {
        "点染/包.json": '{"名": "点染", "依赖": []}',
        "点染/点染本。着色器。接口。豫": "「整数」即「《《内建类型：整数》》」也。\n「只有我」乃「整数」也。",
        "用。着色器。豫": "寻观「点染」之「点染本」之书。\n「常」者「只有我」也。",
    })
    assert diags(tmp_path, "用。着色器。豫") == []


def test_module_names_inside_packages(tmp_path):
    write(tmp_path, {"包.json": '{"名": "甲"}', "子/孙/模。着色器。豫": ""})
    index = PackageIndex(tmp_path)
    assert index.module_name(tmp_path / "子/孙/模。着色器。豫") == "子/孙/模"
    assert index.package_of(tmp_path / "子/孙/模。着色器。豫").name == "甲"
