"""What users hit (issue 24): each mistake or crash a user met, as a program or
a command with its expected outcome worked out from the language's rules."""

from __future__ import annotations

import numpy as np

from support.executors import run_all
from support.interp_runner import HEADER, buffer, entry


def test_conversion_to_an_abstract_number_runs_as_i32_and_f32_on_every_executor():
    """「转换」以「整数」 (以「小数」) of a runtime value is WGSL's i32 (f32): it passed 检查,
    and 译 and 运行 stopped with an internal error."""
    text = HEADER + buffer("入", "零", access="只读") + buffer("出", "一", "「浮三二」") + """「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「n」为「读数组」于「入」于「序」而
　「写数组」于「出」于「序」于
　　（（「转换」以「浮三二」于（「转换」以「整数」于「n」））加（「转换」以「浮三二」于（「转换」以「小数」于「n」）））
也。
""" + entry("核", "八")
    n = np.array([0, 1, 7, 100, 2 ** 20, 2 ** 31 - 1, 5, 3], np.uint32)
    outputs = run_all(text, "核入口", {"入": n, "出": np.zeros(8, np.float32)}, groups=1)
    # i32(n) then f32: 2³¹ − 1 stays 2147483647 as i32 and rounds to 2³¹ as f32, as does f32(n)
    expected = (n.astype(np.int32).astype(np.float32) + n.astype(np.float32)).tolist()
    assert {k: v["出"].tolist() for k, v in outputs.items()} == dict.fromkeys(outputs, expected)


# ---------------------------------------------------------------- messages whose advice compiles

KERNEL = HEADER + buffer("数据", "零") + buffer("浮", "一", "「浮三二」") + "「核」乃化「局部调用序」为「有」者也。\n「核」者得「n」而\n　{}\n也。\n"


def _diagnostics(tmp_path, text):
    from zhuose.compiler.workspace import Workspace
    path = tmp_path / "测。着色器。豫"
    path.write_text(text, encoding="utf-8")
    return [d for d in Workspace(tmp_path).diagnostics(path) if d.severity == "错误"]


def _rewritten(text: str, d, replacement: str) -> str:
    return text[:d.start] + replacement + text[d.end:]


def test_a_bare_literal_left_of_a_typed_value_gets_one_message_at_the_literal(tmp_path):
    """「二」减 n: one message, at 「二」, whose rewrite compiles (it recommended
    「转换」以「整数」 for n, which changes the arithmetic to i32)."""
    text = KERNEL.format("「写数组」于「数据」于「n」于（「二」减「n」）")
    (d,) = _diagnostics(tmp_path, text)
    assert d.code == "wrap-literal" and d.fields["构造"] == "新无三二"
    assert text[d.start:d.end] == "「二」" and "写成（「新无三二」于「二」）" in d.message
    assert _diagnostics(tmp_path, _rewritten(text, d, "（「新无三二」于「二」）")) == []


def test_a_shape_mismatch_does_not_suggest_a_conversion(tmp_path):
    """「转换」 changes the component type, never the number of components."""
    text = KERNEL.format("「元」") + "「色」乃化「四维浮」为「三维浮」者也。\n「色」者得「v」而「v」也。\n"
    (d,) = _diagnostics(tmp_path, text)
    assert d.code == "type-mismatch" and "「转换」以" not in d.message and "分量个数不同" in d.message


def test_a_conversion_the_message_suggests_compiles(tmp_path):
    """An abstract 小数 computed at run time (not a literal) meets 「浮三二」: convert it."""
    value = "（「转换」以「小数」于「n」）"
    text = KERNEL.format(f"「写数组」于「浮」于「n」于（（「转换」以「浮三二」于「n」）加{value}）")
    (d,) = _diagnostics(tmp_path, text)
    assert d.code == "convert" and "「转换」以「浮三二」于 …" in d.message and text[d.start:d.end] == value[1:-1]
    assert _diagnostics(tmp_path, _rewritten(text, d, f"「转换」以「浮三二」于{value}")) == []


# ---------------------------------------------------------------- an empty source file

def _command(cwd, *args, stdin: str | None = None):
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONIOENCODING="utf-8", ZHUOSE_CACHE_DIR=str(cwd / "缓存"))
    return subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd, capture_output=True, text=True,
                          input=stdin, timeout=120, env=env)


def test_an_empty_file_translates_twice_and_the_build_service_goes_on(tmp_path):
    """An empty source recorded an empty digest the ledger could not write (内部错误 on 译, 金属, 千手;
    the build service failed every later request): each translation, run twice (the second answered from
    the ledger), exits 0 with the same output; the service answers the request after it."""
    (tmp_path / "空。着色器。豫").write_text("", encoding="utf-8")
    for command in ("译", "金属", "千手"):
        first, second = (_command(tmp_path, command, "空。着色器。豫") for _ in range(2))
        assert (first.returncode, second.returncode) == (0, 0), (command, first.stderr, second.stderr)
        assert "内部错误" not in first.stderr + second.stderr and first.stdout == second.stdout
    (tmp_path / "加倍。着色器。豫").write_text(HEADER + buffer("数据", "零") + """「加倍」乃化「全局调用号」为「有」者也。
「加倍」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「新无三二」于「二」）也。
""" + entry("加倍", "四"), encoding="utf-8")
    requests = '{"文件": "空。着色器。豫", "编号": 1}\n{"文件": "加倍。着色器。豫", "编号": 2}\n'
    done = _command(tmp_path, "服务", "--构建", stdin=requests)
    import json
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and [a["编号"] for a in answers] == [1, 2], done.stderr
    assert all("模块" in a for a in answers) and "加倍入口" in answers[1]["模块"]


def test_a_latin_name_misspelt_only_in_case_suggests_the_same_name():
    from zhuose.compiler.check.closest import ranked
    assert ranked("b瓦", [("bk", 0), ("B瓦", 1)]) == ["B瓦", "bk"]
    assert ranked("数据", [("数句", 0), ("數據", 1)])[0] == "数句"        # no case in Chinese: as before


# ---------------------------------------------------------------- the barrier a race lacks

def _neighbour_read(barrier: str) -> str:
    """Each invocation writes its own element of a storage buffer, waits, and reads its neighbour's."""
    return HEADER + buffer("数据", "零") + buffer("出", "一") + f"""「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　「写数组」于「数据」于「序」于「序」；
　「{barrier}」于「元」；
　「写数组」于「出」于「序」于（「读数组」于「数据」于（（「序」加（「新无三二」于「一」））按位与（「新无三二」于「七」）））
也。
""" + entry("核", "八")


def test_a_workgroup_barrier_where_a_storage_barrier_is_needed_is_named(tmp_path):
    """The interpreter said 「两者之间没有屏障」 although a barrier was there: it names the kind missing."""
    import pytest
    from support.executors import interp
    from support.interp_runner import program
    from zhuose.compiler.interp import Fault
    data = {"数据": np.zeros(8, np.uint32), "出": np.zeros(8, np.uint32)}
    ws, path = program(tmp_path, "工作组屏障", _neighbour_read("工作组屏障"))
    with pytest.raises(Fault) as caught:
        interp(ws, path, "核入口", dict(data), 1)
    message = caught.value.diagnostic.message
    assert "两者之间只有「工作组屏障」，它不排序存储缓冲的读写：要用「存储屏障」" in message, message
    ws, path = program(tmp_path, "存储屏障", _neighbour_read("存储屏障"))
    assert interp(ws, path, "核入口", dict(data), 1)["出"].tolist() == [(i + 1) % 8 for i in range(8)]


def test_check_takes_several_files_and_prints_a_shared_error_once(tmp_path):
    """`格式化` took several files and `检查` one; an error in a module both import is printed once."""
    bad = HEADER + "「坏」者「未知」也。\n"
    good = HEADER + "寻观「包」之「坏」之书。\n「甲」者「新无三二」于「一」也。\n"
    (tmp_path / "包.json").write_text('{"名": "包", "依赖": ["点染"]}', encoding="utf-8")
    (tmp_path / "坏。着色器。豫").write_text(bad, encoding="utf-8")
    for name in ("一", "二"):
        (tmp_path / f"{name}。着色器。豫").write_text(good, encoding="utf-8")
    done = _command(tmp_path, "检查", "一。着色器。豫", "二。着色器。豫")
    assert done.returncode == 1 and done.stderr.count("未知的名字「未知」") == 1, done.stderr
    clean = _command(tmp_path, "检查", "坏。着色器。豫", "没有。着色器。豫")
    assert clean.returncode == 2 and "没有。着色器。豫" in clean.stderr and "未知的名字「未知」" in clean.stderr


def test_render_with_a_three_component_colour_says_what_to_change(tmp_path):
    """渲染 printed wgpu's English validation error (Float32x4 vs Float32x3)."""
    source = HEADER + """「顶点」乃化「顶点序号」为「裁剪位置」者也。
「顶点」者得「序」而（「新浮三二」于「零」）与（「新浮三二」于「零」）与（「新浮三二」于「零」）与（「新浮三二」于「一」）也。

「片元」乃化「片元坐标」为「三维浮」者也。
「片元」者得「坐标」而（「新浮三二」于「一」）与（「新浮三二」于「零」）与（「新浮三二」于「零」）也。

「顶点项」乃「顶点入口」也。
「顶点项」者「顶点入口项」于「顶点」也。
「片元项」乃「片元入口」也。
「片元项」者「片元入口项」于「片元」也。
"""
    (tmp_path / "三维色。着色器。豫").write_text(source, encoding="utf-8")
    done = _command(tmp_path, "渲染", "三维色。着色器。豫", "顶点项", "片元项", "--输出", "图.png")
    assert done.returncode == 2 and not (tmp_path / "图.png").exists(), done.stderr
    assert "片元入口项「片元项」在位置 0 输出的颜色是「三维浮」" in done.stderr and "Validation" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# ---------------------------------------------------------------- hostile 包.json (fuzzing, round 3)

def _hostile_manifests(tmp_path):
    """Each folder: a 包.json that once crashed or hung the checker, and a file beside it."""
    import os
    cases = {"大数": lambda p: p.write_text('{"名": "大数", "依赖": [], "x": ' + "9" * 5000 + "}", encoding="utf-8"),
             "深": lambda p: p.write_text("[" * 100000 + "]" * 100000, encoding="utf-8"),
             "管道": lambda p: os.mkfifo(p),
             "零": lambda p: os.symlink("/dev/zero", p)}
    for name, make in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        make(folder / "包.json")
        (folder / "核。着色器。豫").write_text(HEADER + "「甲」者「新无三二」于「一」也。\n", encoding="utf-8")
    return cases


def test_a_hostile_manifest_gets_one_chinese_line_not_a_hang_or_a_traceback(tmp_path):
    expected = {"大数": "位数过多的数", "深": "嵌套过深", "管道": "不是普通文件", "零": "不是普通文件"}
    for name in _hostile_manifests(tmp_path):
        done = _command(tmp_path / name, "检查", "核。着色器。豫")
        assert done.returncode == 1 and expected[name] in done.stderr, (name, done.stderr)
        assert "Traceback" not in done.stderr and "内部错误" not in done.stderr, done.stderr


def test_a_source_that_is_a_pipe_is_not_read(tmp_path):
    import os
    os.mkfifo(tmp_path / "管。着色器。豫")
    from zhuose.compiler.workspace import Workspace
    (d,) = Workspace(tmp_path).diagnostics(tmp_path / "管。着色器。豫")
    assert "不是普通文件" in d.message


def test_two_copies_of_the_builtin_package_replace_nothing(tmp_path):
    """A folder holding two checkouts of the toolchain: 「包名「点染」不唯一」 advised renaming the toolchain's own package."""
    for copy in ("一", "二"):
        (tmp_path / copy / "点染").mkdir(parents=True)
        (tmp_path / copy / "点染" / "包.json").write_text('{"名": "点染", "依赖": []}', encoding="utf-8")
    (tmp_path / "核。着色器。豫").write_text(HEADER + "「甲」者「新无三二」于「一」也。\n", encoding="utf-8")
    from zhuose.compiler.workspace import Workspace
    ws = Workspace(tmp_path)
    assert [d for d in ws.diagnostics(tmp_path / "核。着色器。豫") if d.severity == "错误"] == []
    (warning,) = [p for p in ws.packages.problems if "点染" in p.message]
    assert warning.severity == "警告" and "都不代替随工具发布的内建包" in warning.message
