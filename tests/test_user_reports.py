"""What users hit (issue 24): each mistake or crash a user met, as a program or
a command with its expected outcome worked out from the language's rules."""

from __future__ import annotations

import numpy as np
import pytest

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

#: the commands' user cache: one for this module, outside the repository (cwd may be samples/)
_CACHE = __import__("tempfile").mkdtemp(prefix="zhuose-用户缓存-")


def _command(cwd, *args, stdin: str | None = None):
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONIOENCODING="utf-8", ZHUOSE_CACHE_DIR=_CACHE)
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


# ---------------------------------------------------------------- hostile 运行 arguments (fuzzing, round 3)

def test_hostile_run_arguments_get_a_usage_error_not_a_crash(tmp_path):
    import os
    source = HEADER + buffer("数据", "零") + """「加倍」乃化「全局调用号」为「有」者也。
「加倍」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「新无三二」于「二」）也。
""" + entry("加倍", "四")
    (tmp_path / "加倍。着色器。豫").write_text(source, encoding="utf-8")
    np.save(tmp_path / "真.npy", np.zeros(8, np.uint32))
    header = (tmp_path / "真.npy").read_bytes()
    (tmp_path / "假.npy").write_bytes(header.replace(b"(8,)", b"(99999999999,)", 1))   # a header that lies
    os.mkfifo(tmp_path / "管.npy")
    cases = {"0:0=0*10000000000": "超过一个缓冲至多", "0:0=１,٣": "只用 ASCII 数字", "0:0=假.npy": "不是 NumPy 的 .npy 文件",
             "0:0=管.npy": "不是普通文件"}
    for argument, words in cases.items():
        done = _command(tmp_path, "运行", "加倍。着色器。豫", "加倍入口", argument, "--后端", "参照")
        assert done.returncode == 2 and words in done.stderr and "内部错误" not in done.stderr, (argument, done.stderr)
    done = _command(tmp_path, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1*8", "--组数", "65535,65535,65535",
                    "--后端", "参照")
    assert done.returncode != 0 and "至多运行 16777216 个调用" in done.stderr and "内部错误" not in done.stderr


def test_the_interpreter_stops_a_loop_that_runs_past_its_time(tmp_path, monkeypatch):
    import pytest
    from support.executors import interp
    from support.interp_runner import program
    from zhuose.compiler.interp import Fault, machine
    monkeypatch.setattr(machine, "MAX_SECONDS", 0.2)
    ws, path = program(tmp_path, "长", HEADER + buffer("数据", "零") + """「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「环」为得「k」而若「k」小于（「新无三二」于「4000000000」）则「环」于（「k」加（「新无三二」于「一」））否则「k」而
　「写数组」于「数据」于「序」于（「环」于「序」）
也。
""" + entry("核", "一"))
    with pytest.raises(Fault, match="运行了 0.2 秒还没有结束"):
        interp(ws, path, "核入口", {"数据": np.zeros(1, np.uint32)}, 1)


def test_render_with_an_output_name_too_long_is_a_usage_error(tmp_path):
    samples = __import__("pathlib").Path(__file__).resolve().parent.parent / "samples"
    done = _command(samples, "渲染", "三角形。着色器。豫", "三角形顶点", "三角形片元", "--输出", str(tmp_path / ("长" * 300 + ".png")))
    assert done.returncode == 2 and "文件名太长" in done.stderr and "内部错误" not in done.stderr, done.stderr


def test_run_says_when_its_defaults_may_mislead(tmp_path):
    """A row-per-workgroup kernel ran 17 groups for 7 rows without a word, and a loop longer than
    lavapipe's limit stopped early: 运行 says both on stderr, and neither for the seed's 加倍."""
    import pytest
    pytest.importorskip("wgpu")
    rows = HEADER + buffer("数据", "零") + """「行和」乃化「工作组号」为「有」者也。
「行和」者得「组」而
　令「环」为得「k」又得「s」而若「k」小于（「新无三二」于「四」）则「环」于（「k」加（「新无三二」于「一」））于（「s」加「k」）否则「s」
　而「写数组」于「数据」于（「组」中「零」）于（「环」于（「新无三二」于「零」）于（「新无三二」于「零」））
也。
""" + entry("行和", "一")
    (tmp_path / "行。着色器。豫").write_text(rows, encoding="utf-8")
    done = _command(tmp_path, "运行", "行。着色器。豫", "行和入口", "0:0=0*7")
    assert done.returncode == 0 and "[6 6 6 6 6 6 6]" in done.stdout, done.stderr
    from support.wgpu_device import adapter_info
    software = "llvmpipe" in str(adapter_info().get("device", "")).lower()
    assert "没有给 --组数" in done.stderr and ("循环合计至多约 65535 轮" in done.stderr) == software
    samples = __import__("pathlib").Path(__file__).resolve().parent.parent / "samples"
    seed = _command(samples, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1,2,3,4,5,6,7,8")
    assert seed.returncode == 0 and seed.stderr == "", seed.stderr


# ---------------------------------------------------------------- work that grew faster than the input (fuzzing, round 3)
#
# Counted, not timed: each test counts the characters a function scans and
# bounds them by a small multiple of the input.

class _Counted(str):
    """A text that counts the characters its searches and slices cover."""

    scanned = 0

    def rfind(self, sub, start=0, end=None):
        _Counted.scanned += (len(self) if end is None else end) - start
        return str.rfind(self, sub, start, end)

    def __getitem__(self, key):
        if isinstance(key, slice):
            _Counted.scanned += len(range(*key.indices(len(self))))
        return str.__getitem__(self, key)


def test_positions_on_one_long_line_are_found_in_linear_work(monkeypatch):
    """64,000 errors on one line: 31 s (each position measured its line from the start)."""
    from zhuose.compiler import source
    scanned = []
    monkeypatch.setattr(source, "utf16_length", lambda text: scanned.append(len(text)) or len(text))
    line = "「x」加" * 20000
    f = source.SourceFile("x", "甲\n" + line)
    positions = [f.position(2 + k) for k in range(0, len(line), 4)]
    assert positions[-1].column == len(line) - 4 and sum(scanned) <= 2 * len(line)


def test_split_points_of_one_long_item_take_linear_work():
    """One erroneous item of 64,000 terms on one line: 16.7 s (each token searched back to the line start)."""
    from zhuose.compiler.syntax.lexer import lex
    from zhuose.compiler.syntax.parser import _split_points
    text = _Counted("「甲」者" + "「x」加" * 20000 + "也")
    tokens, _ = lex(str(text))
    _Counted.scanned = 0
    _split_points(tokens, text)
    assert _Counted.scanned <= 4 * len(text)


def test_doc_comments_after_a_comment_at_the_file_start_take_linear_work():
    """A file starting with a comment: 23.5 s at 128k lines (each item copied the text back to that comment)."""
    from zhuose.compiler.syntax.parser import _attach_docs, parse_file
    plain = "「：注释：」\n" + "".join(f"「常{i}」者「新无三二」于「一」也。\n" for i in range(5000))
    parsed = parse_file(plain)
    text = _Counted(plain)
    _Counted.scanned = 0
    _attach_docs(parsed, 1, text)
    assert _Counted.scanned <= 2 * len(text)
    assert parsed.trees[0].doc == "注释"


def test_the_build_service_echoes_a_5000_digit_number(tmp_path):
    import json
    import sys
    (tmp_path / "加倍。着色器。豫").write_text(HEADER + buffer("数据", "零") + """「加倍」乃化「全局调用号」为「有」者也。
「加倍」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「新无三二」于「二」）也。
""" + entry("加倍", "四"), encoding="utf-8")
    number = "7" * 5000
    requests = (f'{{"文件": "加倍。着色器。豫", "编号": {number}}}\n'
                f'{{"文件": "加倍。着色器。豫", "编号": {number}, "坏"}}\n')
    done = _command(tmp_path, "服务", "--构建", stdin=requests)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 2, done.stderr
    assert all(line.startswith(f'{{"编号": {number}, ') for line in lines)
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        first, second = (json.loads(line) for line in lines)
    finally:
        sys.set_int_max_str_digits(old)
    assert first["错误"] == [] and "加倍入口" in first["模块"] and second["错误"]


def test_the_caches_stay_bounded_over_many_edits(tmp_path, monkeypatch):
    """Memory grew without bound while editing: every edit added an item text to the item and check caches."""
    from zhuose.compiler.check.module import CheckCache
    from zhuose.compiler.workspace import Workspace
    monkeypatch.setattr(CheckCache, "LIMIT", 40)
    path = tmp_path / "改。着色器。豫"
    path.write_text(HEADER, encoding="utf-8")
    ws = Workspace(tmp_path)
    ws.item_cache.limit = 40
    for k in range(200):
        ws.set_document(str(path), HEADER + f"「甲」乃「无三二」也。\n「甲」者「新无三二」于「{k}」也。\n")
        assert ws.diagnostics(path) == []
    assert len(ws.item_cache.items) <= 40 and len(ws.check_cache.results) <= 40 and len(ws.check_cache.signatures) <= 40
    assert ws.check(path).module.decls[-1].value is not None


# ---------------------------------------------------------------- every quick fix compiles

def _mistakes():
    import pytest
    from support.mistakes import CASES
    return [c for c in CASES if not any(m.name == "xfail" for m in c.marks)], pytest


def test_every_quick_fix_offered_for_a_typical_mistake_removes_its_error_and_adds_none(tmp_path):
    """Issue 24's acceptance: apply each fix the messages offer (server/fixes.py) to its mistake
    program (support/mistakes.py) and check again: the fixed error is gone and no new kind of error
    appears."""
    from support.frontend import PRELUDE
    from zhuose.server.fixes import quick_fixes
    from zhuose.server.project import Project
    cases, _ = _mistakes()
    applied = 0
    for k, param in enumerate(cases):
        text, _, prelude = param.values
        if isinstance(text, bytes):
            continue
        folder = tmp_path / f"例{k}"
        folder.mkdir()
        source = (PRELUDE if prelude else "") + text
        path = folder / "测。着色器。豫"
        path.write_text(source, encoding="utf-8")
        project = Project(folder)
        key = project.ws.key(path)
        errors = [d for d in project.ws.diagnostics(key) if d.severity == "错误"]
        for fix in quick_fixes(project, key, 0, len(source)):
            if any(p != key for p, *_ in fix.edits):
                continue                    # a fix in another file (an import's package): not this program's
            fixed = source
            for _, start, end, new in sorted(fix.edits, key=lambda e: -e[1]):
                fixed = fixed[:start] + new + fixed[end:]
            again = folder / "修。着色器。豫"
            again.write_text(fixed, encoding="utf-8")
            after = [d for d in Project(folder).ws.diagnostics(again) if d.severity == "错误"]
            assert len(after) < len(errors), (param.id, fix.title, [d.message for d in after])
            assert {d.code for d in after} <= {d.code for d in errors}, (param.id, fix.title, [d.message for d in after])
            applied += 1
    assert applied >= 5         # wrap-literal, unknown-name (local and builtin guesses), read-only …


def test_a_module_that_is_a_pipe_or_a_broken_link_is_named_so(tmp_path):
    """It got 「是不是」 with the very name written."""
    import os
    (tmp_path / "包.json").write_text('{"名": "包", "依赖": ["点染"]}', encoding="utf-8")
    os.mkfifo(tmp_path / "管。着色器。豫")
    os.symlink(tmp_path / "没有", tmp_path / "断。着色器。豫")
    (tmp_path / "主。着色器。豫").write_text(HEADER + "寻观「包」之「管」之书。\n寻观「包」之「断」之书。\n", encoding="utf-8")
    from zhuose.compiler.workspace import Workspace
    messages = [d.message for d in Workspace(tmp_path).diagnostics(tmp_path / "主。着色器。豫")]
    assert len(messages) == 2 and all("不是普通文件" in m and "是不是" not in m for m in messages), messages


def test_hostile_render_arguments_get_a_chinese_usage_error(tmp_path):
    """The fuzz harness's 渲染 surface: sizes, vertex counts and entries written wrong, digits not ASCII."""
    samples = __import__("pathlib").Path(__file__).resolve().parent.parent / "samples"
    cases = [["--尺寸", "0,0"], ["--尺寸", "99999,1"], ["--尺寸", "abc"], ["--尺寸", "１,２"], ["--顶点数", "-1"],
             ["--顶点数", "1e30"], ["--顶点数", "９"], ["--顶点数", "9" * 30]]
    picture = tmp_path / "图.png"
    for extra in cases:
        done = _command(samples, "渲染", "三角形。着色器。豫", "三角形顶点", "三角形片元", *extra, "--输出", str(picture))
        assert done.returncode == 2 and done.stderr.startswith("着色器：--") and not picture.exists(), (extra, done.stderr)
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    swapped = _command(samples, "渲染", "三角形。着色器。豫", "三角形片元", "三角形顶点", "--输出", str(picture))
    assert swapped.returncode == 2 and "是片元入口项，这里要顶点入口项" in swapped.stderr and not picture.exists()
    groups = _command(samples, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1", "--组数", "１")
    assert groups.returncode == 2 and "--组数「１」" in groups.stderr


# ---------------------------------------------------------------- what naga refused after 检查 and 译 accepted

def test_what_webgpu_refuses_at_module_creation_is_refused_by_check(tmp_path):
    """Fuzzing round 3: 检查 and 译 accepted these and naga refused them (a constant shift amount ≥ 32
    on a runtime value, a constant index past a workgroup array or a vector, a fixed-size array over
    1 GiB, workgroup memory over WebGPU's default 16 KiB)."""
    text = HEADER + buffer("数据", "零") + """「共」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。
「共」者「工作组共享」于「元」也。
「大」乃「工作组变量」于（「定长数组」于「无三二」于「5000」）也。
「大」者「工作组共享」于「元」也。
「巨」乃「存储缓冲」于（「定长数组」于「四维浮」于「100000000」）也。
「巨」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。

「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　「写共享数组」于「共」于（「新无三二」于「64」）于「序」；
　「写共享数组」于「大」于「序」于「序」；
　「写数组」于「数据」于「序」于（（「序」左移（「新无三二」于「32」））加（「取元素」于（「序」与「序」）于（「新无三二」于「2」）））
也。
""" + entry("核", "六四")
    found = sorted(_diagnostics(tmp_path, text), key=lambda d: d.start)
    assert [d.code for d in found] == ["limit"] * 4, [d.message for d in found]
    words = ["的类型占 1600000000 字节", "下标 64 超出范围", "移位量 32 不小于「无三二」的位数 32", "下标 2 超出范围"]
    assert all(w in d.message for w, d in zip(words, found)), [d.message for d in found]
    fixed = (text.replace("于「5000」", "于「500」").replace("于「100000000」", "于「1000」")
             .replace("（「新无三二」于「64」）", "（「新无三二」于「63」）").replace("于「32」", "于「31」")
             .replace("于（「新无三二」于「2」）", "于（「新无三二」于「1」）"))
    assert _diagnostics(tmp_path, fixed) == []
    from support.wgpu_device import validate
    from zhuose.compiler.backends import translate
    from zhuose.compiler.workspace import Workspace
    validate(translate(Workspace(tmp_path), tmp_path / "测。着色器。豫", "wgsl").text)


def test_each_target_refuses_workgroup_memory_beyond_its_own_limit(tmp_path):
    """译 emitted 400 KB of workgroup memory that naga accepted and WebGPU's default limit refuses:
    each target checks its own limit when it translates (WebGPU 16 KiB, Metal 32 KiB, CUDA 48 KiB)."""
    from zhuose.compiler.backends import translate
    from zhuose.compiler.workspace import Workspace
    for count, refused in (("5000", {"wgsl"}), ("9000", {"wgsl", "msl"}), ("13000", {"wgsl", "msl", "ptx"})):
        text = HEADER + buffer("数据", "零") + f"""「大」乃「工作组变量」于（「定长数组」于「无三二」于「{count}」）也。
「大」者「工作组共享」于「元」也。
「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而「写共享数组」于「大」于「序」于「序」；「写数组」于「数据」于「序」于（「读共享数组」于「大」于「序」）也。
""" + entry("核", "六四")
        assert _diagnostics(tmp_path, text) == []
        ws = Workspace(tmp_path)
        results = {t: translate(ws, tmp_path / "测。着色器。豫", t) for t in ("wgsl", "msl", "ptx")}
        assert {t for t, r in results.items() if r.text is None} == refused, (count, results)
        assert all(f"共 {int(count) * 4} 字节" in results[t].diagnostics[0].message for t in refused - {"ptx"})


def test_a_reserved_runtime_index_and_a_literal_through_a_parameter_are_refused(tmp_path):
    """Index 4294967295 on a runtime array (naga refuses it; 4294967294 it accepts), and a literal reaching
    「新无三二」 through a local function's parameter, which skipped the range check."""
    body = ("「写数组」于「数据」于（「新无三二」于「4294967295」）于「序」；\n"
            "　令「f」为得「x」而「新无三二」于「x」而「写数组」于「数据」于「序」于（「f」于「5000000000」）")
    text = HEADER + buffer("数据", "零") + f"「核」乃化「局部调用序」为「有」者也。\n「核」者得「序」而\n　{body}\n也。\n" + entry("核")
    found = sorted(_diagnostics(tmp_path, text), key=lambda d: d.start)
    assert [d.code for d in found] == ["limit", "limit"], [d.message for d in found]
    assert "下标 4294967295" in found[0].message and text[found[1].start:found[1].end] == "「5000000000」"
    assert "超出「无三二」的范围" in found[1].message
    assert _diagnostics(tmp_path, text.replace("4294967295", "4294967294").replace("5000000000", "4000000000")) == []


#: a rewrite a message offers for the text it points at: the whole parenthesised call (CALL_PARENS,
#: wrap-literal), a number spelt as the language reads it (number-spelling), the closest name (unknown-name)
_REWRITES = {"call-parens": r"写成(（.*）)$", "wrap-literal": r"写成(（.*）)$",
             "number-spelling": r"写成(负?「[^」]*」)", "unknown-name": r"是不是(「[^」]*」)？"}


def test_every_rewrite_a_message_offers_for_a_typical_mistake_compiles(tmp_path):
    """Issue 24's acceptance, the messages' side: where a message for a typical mistake
    (support/mistakes.py) says 写成 … or 是不是 …, putting that text where the message points
    removes the error and adds no new kind."""
    import re
    from support.frontend import PRELUDE
    from zhuose.compiler.workspace import Workspace
    cases, _ = _mistakes()
    applied = 0
    for k, param in enumerate(cases):
        text, _, prelude = param.values
        if isinstance(text, bytes):
            continue
        folder = tmp_path / f"例{k}"
        folder.mkdir()
        source = (PRELUDE if prelude else "") + text
        path = folder / "测。着色器。豫"
        path.write_text(source, encoding="utf-8")
        errors = [d for d in Workspace(folder).diagnostics(path) if d.severity == "错误"]
        for d in errors:
            found = re.search(_REWRITES.get(d.code, "$^"), d.message)
            if found is None or d.path != str(path) and Workspace(folder).key(path) != d.path:
                continue
            fixed = source[:d.start] + found.group(1) + source[d.end:]
            again = folder / "改。着色器。豫"
            again.write_text(fixed, encoding="utf-8")
            after = [x for x in Workspace(folder).diagnostics(again) if x.severity == "错误"]
            assert len(after) < len(errors), (param.id, d.message, [x.message for x in after])
            assert {x.code for x in after} <= {x.code for x in errors}, (param.id, d.message, [x.message for x in after])
            applied += 1
    assert applied >= 5, applied          # call-parens, wrap-literal, number-spelling, unknown-name


def test_body_edits_bring_and_take_limit_problems_as_a_fresh_check_does(tmp_path):
    """The limits step patches its findings on a body edit (valid/limits.py): each edit's messages
    equal a fresh workspace's, while an edit above the function moves them."""
    from zhuose.compiler.workspace import Workspace
    path = tmp_path / "测。着色器。豫"
    shifts = ["（「新无三二」于「3」）", "（「新无三二」于「32」）", "（「新无三二」于「3」）", "（「新无三二」于「40」）"]
    ws = None
    for k, amount in enumerate(shifts):
        text = HEADER + "「：" + "注" * k + "：」\n" + buffer("数据", "零") + f"""「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而「写数组」于「数据」于「序」于（「序」左移{amount}）也。
""" + entry("核", "八")
        path.write_text(text, encoding="utf-8")
        if ws is None:
            ws = Workspace(tmp_path)
        ws.set_document(str(path), text)
        edited = [(d.start, d.message) for d in ws.diagnostics(path)]
        fresh = [(d.start, d.message) for d in Workspace(tmp_path).diagnostics(path)]
        assert edited == fresh and (len(edited) == 1) == (amount != shifts[0]), (amount, edited)


@pytest.mark.parametrize("value, want", [
    ("（「最大」于（「新整三二」于「0」）于（「绝对值」于「a」））", [0, 5, 0, 7, 2 ** 31 - 1, 1, 3, 2 ** 31 - 1]),
    ("（「最小」于（「新整三二」于「0」）于（负「a」））", [-2 ** 31, 0, 0, -7, -2 ** 31 + 1, 0, -3, 0]),
], ids=["abs", "negate"])
def test_the_smallest_int_wraps_under_abs_and_negation_on_every_executor(value, want):
    """WGSL: abs(−2³¹) and −(−2³¹) are −2³¹, so max(0, abs(x)) is 0 there.  The MSL was abs(x) and −x,
    which C++ leaves undefined at −2³¹, and clang folded max(0, abs(x)) to abs(x): the Metal shim gave
    −2³¹ where the other three gave 0 (found by the random-program differential, 20 examples per kind)."""
    text = HEADER + buffer("数据", "零", "「整三二」") + f"""「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「a」为「读数组」于「数据」于「序」而
　「写数组」于「数据」于「序」于{value}
也。
""" + entry("核", "八")
    data = np.array([-2 ** 31, -5, 0, 7, 2 ** 31 - 1, -1, 3, -2 ** 31 + 1], np.int32)
    outputs = run_all(text, "核入口", {"数据": data}, groups=1)
    assert {executor: out["数据"].tolist() for executor, out in outputs.items()} == dict.fromkeys(outputs, want)
