"""`着色器 导入` (issue 26): WGSL → 着色, proven by round trips.

Every WGSL program in tests/importer/ (written for these tests, together
covering each construct the importer handles) is imported; the 着色 text must
be laid out as `格式化` lays it out and pass `检查`; `译` must give WGSL that
naga and Tint accept; each compute entry, dispatched on lavapipe next to the
ORIGINAL WGSL with the same random buffers, must leave bit-identical buffers
(tests/support/roundtrip.py).  Refusals name the construct at its WGSL line
and column and never leave a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.roundtrip import compute_entries, import_and_translate, round_trip
from zhuose.compiler.importer import import_wgsl
from zhuose.compiler.importer.emit import float_text
from zhuose.compiler.importer.refusal import language_lacks
from zhuose.compiler.syntax.format import format_text

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted(p for p in (ROOT / "tests" / "importer").glob("*.wgsl") if p.stem != "不支持")
#: samples whose goldens the importer brings back (the inverse of `译`), run the same way
SAMPLES = ["前缀和", "奇偶排序", "分量与标量", "二维模板", "原子最值", "序列与格", "共享直方图", "三角形"]
#: programs whose vertex + fragment pair is drawn from both texts and compared pixel for pixel
DRAWN = {"顶点片元", "三角形", "定位与导数"}


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8")


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_imported_program_checks_formats_and_translates(path, tmp_path):
    outcome = import_and_translate(path.read_text(encoding="utf-8"), tmp_path)
    assert outcome.stage == "imported", outcome.messages
    assert format_text(outcome.text).text == outcome.text
    assert "_2" not in outcome.text and "豫_" not in outcome.text    # no machine-made names


@pytest.mark.parametrize("path", PROGRAMS + [ROOT / "samples" / f"{n}.wgsl" for n in SAMPLES],
                         ids=lambda p: p.stem)
def test_round_trip_is_bit_identical_on_lavapipe(path, tmp_path):
    text = path.read_text(encoding="utf-8")
    for seed in (1, 2):
        outcome = round_trip(text, tmp_path / str(seed), seed=seed, tint=True)
        assert outcome.stage == "same", (outcome.messages, outcome.text)
    computes = [entry for entry, buffers in compute_entries(text) if buffers is not None]   # not those binding textures
    assert outcome.entries_run == len(computes)
    assert outcome.pictures == (path.stem in DRAWN)


def test_refusals_name_the_construct_at_its_line_and_column(tmp_path):
    source = ROOT / "tests" / "importer" / "不支持.wgsl"
    result = _cli("导入", str(source), cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{source}:1:1: 导入：不支持 var<private>（着色没有模块级的可变变量）",
        f"{source}:3:15: 导入：不支持 指针类型 ptr<…>（着色没有指针：把缓冲或值直接传给函数）",
        f"{source}:9:11: 导入：不支持 向量乘矩阵（着色只有 矩阵乘 向量）",
    ]


def test_a_use_of_a_refused_declaration_names_the_same_construct():
    result = import_wgsl("var<private> seed: u32;\nfn next() -> u32 { seed = seed * 3u; return seed; }\n")
    assert [p.message for p in result.problems] == ["导入：不支持 var<private>（着色没有模块级的可变变量）"] * 3


@pytest.mark.parametrize("what, lacks", [
    ("var<private>（着色没有模块级的可变变量）", True), ("指针类型 ptr<…>", True), ("向量乘矩阵", True),
    ("入口「e」用到的「t」与「u」都绑定在组 0 号 1：一个入口用到的资源各占一个资源位（不同入口可以共用）", True),
    ("函数「f」", False), ("选择子有副作用的 switch", False), ("语句 x", False),
])
def test_refusals_say_whether_the_language_or_the_importer_lacks_the_construct(what, lacks):
    assert language_lacks(what) is lacks


def test_best_effort_writes_the_rest_with_a_comment_per_omission(tmp_path):
    wgsl = tmp_path / "半.wgsl"
    wgsl.write_text("var<private> seed: u32;\n\n"
                    "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\n"
                    "@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
                    "  data[id.x] = data[id.x] * 3u;\n}\n", encoding="utf-8")
    out = tmp_path / "半。着色器。豫"
    result = _cli("import", str(wgsl), "--输出", str(out), "--best-effort", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == f"{wgsl}:1:1: 导入：不支持 var<private>（着色没有模块级的可变变量）\n"
    text = out.read_text(encoding="utf-8")
    assert "「：导入：略去了这一项（不支持 var<private>（着色没有模块级的可变变量））：」" in text
    assert _cli("检查", str(out), cwd=tmp_path).returncode == 0
    assert _cli("格式化", "--检查", str(out), cwd=tmp_path).returncode == 0


def test_a_clean_import_exits_zero_and_prints_the_program(tmp_path):
    result = _cli("导入", str(ROOT / "samples" / "加倍.wgsl"), cwd=tmp_path)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("寻观「点染」之「点染本」之书。\n")
    assert "「写数组」于「数据」于「序」于（「读数组」于「数据」于「序」乘「新无三二」于「二」）" in result.stdout


@pytest.mark.parametrize("wgsl, expected", [
    ("fn f( {", "语法错误"),
    ("@compute @workgroup_size(n) fn main() {}", "不是整数字面量的长度或工作组大小"),
    ("fn f() -> f32 { var x = 1.0; loop { loop { if x > 2.0 { return x; } x += 1.0; } } }", "嵌套循环里的 return"),
    ("@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n"
     "fn g() -> bool { d[0] = 1u; return true; }\nfn f(a: bool) -> bool { return a & g(); }", "两边有副作用的爻的 &"),
    ("fn f(v: vec2f, m: mat2x2f) -> vec2f { return v * m; }", "向量乘矩阵"),
    ("fn f() -> f32 { return 1.0 / 3.0 * 3.0; }", "多步的抽象浮点常量算式"),
    ("@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n"
     "fn g() -> u32 { return atomicAdd(&c[0], 1u); }\n@group(0) @binding(1) var<storage, read_write> c: array<atomic<u32>>;\n"
     "fn f() { d[g()] += 1u; }", "下标有副作用的复合赋值"),
    ("fn f(x: f32) -> vec2<f32> { var r: vec2f; let p = &r; return r; }", "取地址"),
])
def test_each_refusal_is_one_message_and_no_traceback(wgsl, expected):
    result = import_wgsl(wgsl)
    assert result.text is None
    assert len(result.problems) == 1 and expected in result.problems[0].message


def test_each_statement_of_a_function_is_read_for_its_own_refusal():
    wgsl = ("fn f(x: f32) -> f32 {\n  let v = vec2f(x) * mat2x2f(x, x, x, x);\n  let w = v.x;\n"
            "  var p = 1.0;\n  let q = &p;\n  return x;\n}\n")
    problems = import_wgsl(wgsl).problems
    # `let w = v.x` uses what a refused statement bound: left out without a message of its own
    assert [(p.message.split("（")[0], wgsl[:p.offset].count("\n") + 1) for p in problems] == [
        ("导入：不支持 向量乘矩阵", 2), ("导入：不支持 取地址 &", 5)]


def test_float_literals_keep_their_exact_decimal_value():
    assert float_text("1e-7", 0) == "「0.0000001」"
    assert float_text("2.5e1", 0) == "「二五」"
    assert float_text("0.125", 0) == "「零点一二五」"
    assert float_text("0x1p-3", 0) == "「零点一二五」"
    assert float_text("0x1.8p1", 0) == "「三」"
    assert float_text("0x.4", 0) == "「零点二五」"


def test_abstract_constant_takes_the_type_of_its_uses():
    result = import_wgsl("const N = 4;\nfn f(x: u32) -> u32 { return x * N; }\n")
    assert "「N」乃「无三二」也。\n「N」者「新无三二」于「四」也。" in result.text
    mixed = import_wgsl("const N = 4;\nfn f(x: u32, y: i32) -> i32 { return i32(x * N) + y * N; }\n")
    assert mixed.text is None and "抽象常量「N」" in mixed.problems[0].message


def test_comments_stay_where_they_belong():
    wgsl = ("// The buffer.\n@group(0) @binding(0) var<storage, read_write> data: array<u32>; // in and out\n\n"
            "fn twice(x: u32) -> u32 {\n  // double it\n  let y = x * 2u;\n  /* and return */\n  return y;\n}\n")
    text = import_wgsl(wgsl).text
    assert text.index("「：The buffer.：」") < text.index("「data」乃") < text.index("「：in and out：」") < text.index("「twice」乃")
    assert "「：double it：」\n　令「y」为" in text and "「：and return：」\n　「y」\n也。" in text


def test_comments_after_the_last_statement_and_the_last_declaration_are_kept():
    text = import_wgsl("fn f(x: f32) -> f32 {\n  return x;\n  // done\n}\n// the end\n").text
    assert text.endswith("　「x」\n　　「：done：」\n也。\n\n「：the end：」\n")


def test_the_guide_shows_what_the_importer_writes():
    guide = (ROOT / "docs" / "指南.md").read_text(encoding="utf-8")
    chapter = guide[guide.index("### 从 WGSL 迁移"):]
    wgsl = chapter.split("```wgsl\n", 1)[1].split("```", 1)[0]
    shown = chapter.split("```豫 程序 求和。着色器。豫\n", 1)[1].split("```", 1)[0]
    assert import_wgsl(wgsl).text == shown


def test_a_small_loop_program_is_imported_as_a_person_writes_it():
    """The loop state is the loop function's parameters, an if that assigns it is a choice of
    values or takes the rest into its branches, the new values go straight into the next call,
    and operands carry only the parentheses the grammar needs (its round trip is in the
    lavapipe test above, like every program in tests/importer/)."""
    wgsl = (ROOT / "tests" / "importer" / "小循环.wgsl").read_text(encoding="utf-8")
    expected = (ROOT / "tests" / "importer" / "小循环。着色器。豫").read_text(encoding="utf-8")
    assert import_wgsl(wgsl).text == expected
    assert "格" not in expected and "「次」" not in expected


def test_an_if_in_a_loop_that_assigns_the_state_takes_the_rest_into_its_branches():
    text = import_wgsl((ROOT / "tests" / "importer" / "循环状态.wgsl").read_text(encoding="utf-8")).text
    steps = text[text.index("「steps」者"):text.index("「first_above」乃")]
    assert "令「环」为得「n」又得「i」而" in steps and "格" not in steps
    assert "否则若「n」余「新无三二」于「二」等于「新无三二」于「零」则「环」于（「n」除「新无三二」于「二」）于（「i」加「新无三二」于「一」）" \
        in steps


def test_a_value_set_just_before_break_is_the_loops_value_not_its_state():
    text = import_wgsl((ROOT / "tests" / "importer" / "循环状态.wgsl").read_text(encoding="utf-8")).text
    first = text[text.index("「first_above」者"):text.index("「spread」乃")]
    assert "令「环」为得「k」而" in first and "found" not in first      # declared without a value, set as it leaves
    assert "若「读数组」于「table」于「k」大于「limit」则「k」" in first


def test_several_values_after_a_loop_are_computed_at_its_exit():
    text = import_wgsl((ROOT / "tests" / "importer" / "循环状态.wgsl").read_text(encoding="utf-8")).text
    spread = text[text.index("「spread」者"):text.index("「grid」乃")]
    assert "令「环」为得「i」又得「lo」又得「hi」而" in spread and "否则「hi」减「lo」" in spread


def test_an_enclosing_loops_state_is_the_inner_loops_state_and_value():
    text = import_wgsl((ROOT / "tests" / "importer" / "循环状态.wgsl").read_text(encoding="utf-8")).text
    grid = text[text.index("「grid」者"):text.index("「pair_sums」乃")]
    assert "令「total」为（\n　　　　令「环二」为得「x」又得「total」而" in grid and "格" not in grid


def test_an_if_that_only_chooses_values_is_a_binding_to_an_if():
    text = import_wgsl((ROOT / "tests" / "importer" / "循环状态.wgsl").read_text(encoding="utf-8")).text
    assert "　令「s」为若「a」大于「b」则「b」否则「s」而\n　令「t」为若「a」大于「b」则「a」否则「t」而\n" in text
    assert "令「big」为若「t」大于「新浮三二」于「一零」则「t」否则「新浮三二」于「二」乘「s」而" in text
    assert ("　令「r」为\n　　若「m」等于「新无三二」于「零」则「a」\n"
            "　　否则若「m」等于「新无三二」于「一」或「m」等于「新无三二」于「二」则「新浮三二」于「二」乘「a」\n"
            "　　否则「新浮三二」于「一」而\n") in text     # a switch too


def test_cells_remain_where_nothing_else_says_it():
    """An if outside loops that assigns and also writes memory: its branches cannot re-bind
    for the statements after it (they would be written again in each branch)."""
    text = import_wgsl((ROOT / "tests" / "importer" / "循环状态.wgsl").read_text(encoding="utf-8")).text
    cell = text[text.index("「kept_in_a_cell」者"):text.index("「main」乃")]
    assert "令「best」为「新格」于「x」而" in cell and "「写格」于「best」于（「读格」于「best」乘「新无三二」于「二」）" in cell


@pytest.mark.parametrize("wgsl, text", [
    ("fn f(a: u32, b: u32, c: u32) -> u32 { return a - (b - c); }", "「a」减（「b」减「c」）"),
    ("fn f(a: u32, b: u32, c: u32) -> u32 { return (a - b) - c; }", "「a」减「b」减「c」"),
    ("fn f(a: f32, b: f32, c: f32) -> f32 { return a + b * c; }", "「a」加「b」乘「c」"),
    ("fn f(a: f32, b: f32, c: f32) -> f32 { return (a + b) * c; }", "（「a」加「b」）乘「c」"),
    ("fn f(a: u32, b: u32) -> bool { return (a & b) == 0u; }", "（「a」按位与「b」）等于「新无三二」于「零」"),
    ("fn f(a: bool, b: bool, c: bool) -> bool { return (a == b) == c; }", "（「a」等于「b」）等于「c」"),
    ("fn f(a: f32, b: f32) -> f32 { return -(a * b); }", "负（「a」乘「b」）"),
    ("fn f(a: f32) -> f32 { return abs(a) * 2.0; }", "「绝对值」于「a」乘「新浮三二」于「二」"),
])
def test_operands_carry_only_the_parentheses_the_grammar_needs(wgsl, text):
    assert f"　{text}\n也。" in import_wgsl(wgsl).text


def test_several_values_of_one_type_after_an_inner_loop_are_a_vector():
    text = import_wgsl((ROOT / "tests" / "importer" / "循环状态.wgsl").read_text(encoding="utf-8")).text
    pairs = text[text.index("「pair_sums」者"):text.index("「mixed_sums」乃")]
    assert "否则「total」与「count」" in pairs and "格" not in pairs
    assert "）而\n　　　令「count」为「total」中「y」而\n　　　令「total」为「total」中「x」而\n" in pairs
    mixed = text[text.index("「mixed_sums」者"):text.index("「odd_and_seen」乃")]     # 浮三二 and 无三二: no vector
    assert "令「total」为「新格」于（「新浮三二」于「零」）而" in mixed and "令「环二」为得「x」而" in mixed


def test_a_loop_with_several_exits_writes_a_lone_return_after_it_at_each():
    text = import_wgsl((ROOT / "tests" / "importer" / "循环状态.wgsl").read_text(encoding="utf-8")).text
    flags = text[text.index("「odd_and_seen」者"):text.index("「clamp_pair」乃")]
    assert flags.count("「seen」异或「odd」") == 2 and "格" not in flags


def test_a_choice_of_several_values_whose_condition_reads_one_of_them_is_not_a_binding_to_an_if():
    """令「lo」为若 v < lo … 而 令「hi」为若 v < lo … would test the new「lo」 the second time."""
    text = import_wgsl("fn f(v: f32, x: f32) -> f32 {\n  var lo = 1.0;\n  var hi = 2.0;\n"
                       "  if (v < lo) {\n    lo = v;\n    hi = x;\n  }\n  return lo + hi;\n}\n").text
    assert "令「hi」为若" not in text and "「新格」" in text
    one = import_wgsl("fn f(v: f32) -> f32 {\n  var lo = 1.0;\n  if (v < lo) {\n    lo = v;\n  }\n  return lo;\n}\n").text
    assert "　令「lo」为若「v」小于「lo」则「v」否则「lo」而\n" in one
