"""Packages and module lookup (seed 着二, LANGUAGE.md §1)."""

from zhuose.compiler.packages import PackageIndex
from zhuose.compiler.workspace import Workspace
from support.frontend import write

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
    found = Workspace(tmp_path).diagnostics(tmp_path / "用。着色器。豫")
    # never silently: one warning names the package that shadows the shipped one
    assert [(d.severity, d.message) for d in found] == [
        ("警告", f"工作区里的包「点染」（{tmp_path / '点染'}）代替了随工具发布的内建包「点染」")]


def test_a_duplicate_package_name_matters_only_where_it_is_imported(tmp_path):
    write(tmp_path, {
        "甲/包.json": '{"名": "甲", "依赖": ["点染"]}', "甲/模。着色器。豫": "",
        "备份/甲/包.json": '{"名": "甲", "依赖": ["点染"]}',
        "独。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。",
        "乙/包.json": '{"名": "乙", "依赖": ["甲"]}', "乙/用。着色器。豫": "寻「甲」之「模」之书。",
    })
    ws = Workspace(tmp_path)
    lone = ws.diagnostics(tmp_path / "独。着色器。豫")
    assert [(d.severity, d.message) for d in lone] == [
        ("警告", f"包名「甲」重复：{tmp_path / '备份/甲'} 与 {tmp_path / '甲'} 都叫这个名字（导入它的文件会报错）")]
    errors = [d.message for d in ws.diagnostics(tmp_path / "乙/用。着色器。豫") if d.severity == "错误"]
    assert errors == [f"包名「甲」不唯一：{tmp_path / '备份/甲'}、{tmp_path / '甲'} 都叫这个名字，改掉其中一个的「名」"]


def test_run_from_inside_a_package_finds_its_sibling_packages(tmp_path, monkeypatch):
    write(tmp_path, {
        "项目/甲/包.json": '{"名": "甲", "依赖": ["点染", "乙"]}',
        "项目/甲/用。着色器。豫": "寻「乙」之「模」之书。\n「常」者「模」之「壹」也。",
        "项目/乙/包.json": '{"名": "乙", "依赖": ["点染"]}',
        "项目/乙/模。着色器。豫": PRELUDE + "「壹」乃「无三二」也。\n「壹」者「新无三二」于「一」也。",
        "别处/乙/包.json": '{"名": "乙", "依赖": []}',
    })
    inside = tmp_path / "项目/甲"
    assert diags(inside, "用。着色器。豫") == []
    assert PackageIndex(inside).root == tmp_path / "项目"
    # a package whose dependencies are all found stays the whole workspace
    assert PackageIndex(tmp_path / "项目/乙").root == tmp_path / "项目/乙"


def test_module_names_inside_packages(tmp_path):
    write(tmp_path, {"包.json": '{"名": "甲"}', "子/孙/模。着色器。豫": ""})
    index = PackageIndex(tmp_path)
    assert index.module_name(tmp_path / "子/孙/模。着色器。豫") == "子/孙/模"
    assert index.package_of(tmp_path / "子/孙/模。着色器。豫").name == "甲"
