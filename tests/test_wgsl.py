"""The WGSL back end on small programs: exact text where the seed fixes it,
naga's acceptance of everything it writes, the numbers it computes on the
device, names, translation errors, and the 译 / 运行 commands."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from hypothesis import given, settings, strategies as st

from support.frontend import LANGUAGE_SUM, SEED_DOUBLE_BODY, SEED_DOUBLE_WGSL, write
from support.wgpu_device import adapter_info, run_entry, validate
from zhuose.compiler.backends import translate
from zhuose.compiler.backends.names import ENTRY_WORDS, NameAllocator, is_identifier, target_name
from zhuose.compiler.backends.targets import WGSL
from zhuose.compiler.backends.wgsl.builtins import BUILTINS
from zhuose.compiler.workspace import Workspace

PRELUDE = "寻观「点染」之「点染本」之书。\n\n"


def buffer(name: str, number: int, element: str = "无三二", access: str = "读写") -> str:
    number_name = "零一二三四五六七八九"[number]
    return (f"「{name}」乃「存储缓冲」于（「数组」于「{element}」）也。\n"
            f"「{name}」者「绑定」于（「组值」【「组」者「零」也，「号」者「{number_name}」也，"
            f"「访问」者「{access}」也】）也。\n")


def compute_entry(function: str, size: str = "一") -> str:
    return (f"「{function}入口」乃「计算入口」也。\n"
            f"「{function}入口」者「计算入口项」于「{function}」于（「组值」【「工作组大小」者「{size}」也】）也。\n")


def translated(tmp_path, text: str, name: str = "试"):
    write(tmp_path, {f"{name}。着色器。豫": PRELUDE + text})
    ws = Workspace(tmp_path)
    path = tmp_path / f"{name}。着色器。豫"
    return ws, path, translate(ws, path, "wgsl")


def wgsl(tmp_path, text: str) -> str:
    """The WGSL of a program that must translate; naga must accept it."""
    ws, path, result = translated(tmp_path, text)
    assert result.diagnostics == [], [d.format(ws.source(d.path)) for d in result.diagnostics]
    validate(result.text)
    return result.text


def errors(tmp_path, text: str) -> list[str]:
    """Translation errors as 行:列: 消息 (lines of the program, without the prelude)."""
    ws, path, result = translated(tmp_path, text)
    assert result.text is None
    source = ws.source(path)
    lines = []
    for d in sorted(result.diagnostics, key=lambda d: d.start):
        pos = source.position(d.start)
        lines.append(f"{pos.line - 1}:{pos.column + 1}: {d.full_message()}")
    return lines


def run(tmp_path, entry: str, data: dict, groups=1) -> dict:
    ws = Workspace(tmp_path)
    return run_entry(ws, tmp_path / "试。着色器。豫", entry, data, groups)


# ---------------------------------------------------------------- the seed's texts

SEED_PROGRAM = SEED_DOUBLE_BODY

SEED_WGSL = SEED_DOUBLE_WGSL


def test_seed_example_byte_for_byte(tmp_path):
    """Seed 着六: the example comes out exactly as shown, and doubles on the device."""
    assert wgsl(tmp_path, SEED_PROGRAM) == SEED_WGSL
    ws, _, result = translated(tmp_path, SEED_PROGRAM)
    assert [(e.item, e.function, e.stage) for e in result.entries] == [("加倍入口", "加倍", "计算")]
    data = np.arange(12, dtype=np.uint32) * np.uint32(1000003)
    assert (run(tmp_path, "加倍入口", {"数据": data}, 3)["数据"] == data * np.uint32(2)).all()


LOCAL_LOOP = LANGUAGE_SUM


def test_local_tail_recursion_is_a_loop_with_temporaries(tmp_path):
    """Seed 着五: new arguments go into temporaries before the parameters are reassigned."""
    assert wgsl(tmp_path, LOCAL_LOOP) == """fn 求和(个数: u32) -> u32 {
  var 序: u32 = 0u;
  var 和: u32 = 0u;
  var 值: u32;
  loop {
    if 序 < 个数 {
      let 新序 = 序 + 1u;
      let 新和 = 和 + 序;
      序 = 新序;
      和 = 新和;
      continue;
    } else {
      值 = 和;
      break;
    }
  }
  return 值;
}
"""


# ---------------------------------------------------------------- literals and types


def test_typed_literals_and_conversions(tmp_path):
    text = wgsl(tmp_path, """「甲」乃「无三二」也。「甲」者「新无三二」于「二」也。
「乙」乃「浮三二」也。「乙」者「新浮三二」于「0.5」也。
「丙」乃「整三二」也。「丙」者「新整三二」于「三」也。
「丁」乃「浮十六」也。「丁」者「新浮十六」于「1.0」也。
「戊」乃「浮三二」也。「戊」者「新浮三二」于「四零」也。
「己」乃「整三二」也。「己」者「新整三二」于（负「三」）也。
「庚」乃「整三二」也。「庚」者「新整三二」于（负「二一四七四八三六四八」）也。
「辛」者「一二」加「三」也。
「壬」乃「浮三二」也。「壬」者负「乙」也。
「转」乃化「整三二」为「无三二」者也。「转」者得「x」而「新无三二」于「x」加「新无三二」于（「新浮三二」于「x」）也。
""")
    assert text == """enable f16;

const 甲: u32 = 2u;

const 乙: f32 = 0.5f;

const 丙: i32 = 3i;

const 丁: f16 = f16(1.0);

const 戊: f32 = 40.0f;

const 己: i32 = -3i;

const 庚: i32 = i32(-2147483648);

const 辛 = 12 + 3;

const 壬: f32 = -乙;

fn 转(x: i32) -> u32 {
  return u32(x) + u32(f32(x));
}
"""


def test_vectors_matrices_and_columns(tmp_path):
    text = wgsl(tmp_path, buffer("出", 0, "四维浮") + """
「列」乃「二维浮」也。「列」者「新浮三二」于「一」与「新浮三二」于「二」也。
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「m」为（「列」与「列」也「二阶浮」）而
　令「v」为「矩阵乘」于「m」于（「m」中「一」）而
　令「整」为「转换」以「二维整」于「v」而
　「写数组」于「出」于「号」中「零」于（「v」中「零」与「v」中「一」与「新浮三二」于「整」中「零」与（「取元素」于「v」于（「新无三二」于「一」）））
也。
""" + compute_entry("主"))
    assert "let m = mat2x2<f32>(列, 列);" in text
    assert "let v = m * m[1];" in text
    assert "let 整 = vec2<i32>(v);" in text
    assert "出[号.x] = vec4<f32>(v.x, v.y, f32(整.x), v[1u]);" in text
    # m = [[1,2],[1,2]] by columns; m · (1, 2) = (1+2, 2+4)
    assert run(tmp_path, "主入口", {"出": np.zeros((1, 4), np.float32)})["出"].tolist() == [[3, 6, 3, 6]]


# ---------------------------------------------------------------- the two 若


IFS = buffer("出", 0) + """
「纯」乃化「无三二」为「无三二」者也。
「纯」者得「x」而若「x」大于（「新无三二」于「五」）则「x」否则「x」乘（「新无三二」于「二」）也。
「写」乃化「无三二」为「无三二」者也。
「写」者得「x」而若「x」大于（「新无三二」于「五」）则（「写数组」于「出」于「x」于「x」；「x」）否则「x」也。
「点」即「组类」【「甲」乃「无三二」也】也。
「构」乃化「无三二」为「点」者也。
「构」者得「x」而若「x」大于（「新无三二」于「五」）则「组值」【「甲」者「x」也】否则「组值」【「甲」者「新无三二」于「零」也】也。
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「i」为「号」中「零」而
　（若「i」小于（「新无三二」于「三」）则「写数组」于「出」于「i」于（「纯」于「i」加「写」于「i」加（「构」于「i」）中「甲」））
也。
""" + compute_entry("主", "八")


def test_if_becomes_select_only_for_plain_values(tmp_path):
    text = wgsl(tmp_path, IFS)
    assert "return select(x * 2u, x, x > 5u);" in text          # pure scalar branches
    assert """  if x > 5u {
    出[x] = x;
    return x;
  } else {
    return x;
  }""" in text                                                 # a branch with a side effect
    assert """  if x > 5u {
    return 点(x);
  } else {
    return 点(0u);
  }""" in text                                                 # select takes no structs
    assert """  if i < 3u {
    let 值 = 写(i);
    出[i] = (纯(i) + 值) + 构(i).甲;
  }""" in text                                                 # the 若 without 否则; a call that writes first
    out = run(tmp_path, "主入口", {"出": np.full(8, 99, np.uint32)})["出"]
    assert out.tolist() == [0, 3, 6, 99, 99, 99, 99, 99]


def test_subgroup_calls_are_never_selected(tmp_path):
    text = wgsl(tmp_path, buffer("出", 0, "浮三二") + """
「主」乃化「工作组号」为「有」者也。
「主」者得「号」而
　令「x」为「新浮三二」于（「号」中「零」）而
　「写数组」于「出」于「号」中「零」于（若「x」小于（「新浮三二」于「二」）则「子组求和」于「x」否则「x」）
也。
""" + compute_entry("主"))
    assert text.startswith("enable subgroups;\n\n")
    assert "select" not in text and "subgroupAdd(x)" in text


def test_subgroup_elect_is_standard_wgsl_and_rewritten_only_for_naga(tmp_path):
    """Issue 12: 译 writes subgroupElect() (Tint, browsers); naga in wgpu 0.32
    lacks it, so only the text handed to wgpu says the same with an exclusive add."""
    from zhuose.compiler.runtime.wgpu import for_wgpu
    text = wgsl(tmp_path, buffer("出", 0) + """
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　「写数组」于「出」于「号」中「零」于（「选择」于（「新无三二」于「零」）于（「新无三二」于「一」）于（「子组选一」于「元」））
也。
""" + compute_entry("主", "四"))
    assert "select(0u, 1u, subgroupElect())" in text
    assert "subgroupElect" not in for_wgpu(text) and "subgroupExclusiveAdd(1u) == 0u" in for_wgpu(text)
    validate(text)
    out = run(tmp_path, "主入口", {"出": np.full(8, 9, np.uint32)}, 2)["出"]
    assert out.tolist() == [1, 0, 0, 0, 1, 0, 0, 0]       # one per subgroup (lavapipe: at least 4 wide)


def test_discarded_values_and_duplicate_names(tmp_path):
    text = wgsl(tmp_path, buffer("出", 0) + """
「一加」乃化「无三二」为「无三二」者也。
「一加」者得「x」而「x」加（「新无三二」于「一」）也。
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「x」为「号」中「零」而
　令「x」为「x」加「x」而
　令「c」为「新格」于「x」而
　「一加」于「x」；
　「读格」于「c」；
　令「x」为「x」乘「x」而
　「写数组」于「出」于（「新无三二」于「零」）于「x」
也。
""" + compute_entry("主"))
    assert """  let x = 号.x;
  let x_2 = x + x;
  var c: u32 = x_2;
  _ = 一加(x_2);
  _ = c;
  let x_3 = x_2 * x_2;
  出[0u] = x_3;""" in text


def test_arguments_keep_their_order_when_statements_are_hoisted(tmp_path):
    """The cell is read before the second argument's statements write it."""
    wgsl(tmp_path, buffer("出", 0) + """
「差」乃化「无三二」又化「无三二」为「无三二」者也。
「差」者得「甲」又得「乙」而「甲」乘（「新无三二」于「一零」）加「乙」也。
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「格」为「新格」于（「新无三二」于「一」）而
　令「倍」为得「x」而「x」乘（「新无三二」于「二」）而
　令「数」为「差」于（「读格」于「格」）于（「写格」于「格」于（「新无三二」于「五」）；「读格」于「格」）而
　「写数组」于「出」于（「新无三二」于「零」）于「数」；
　「写数组」于「出」于（「新无三二」于「一」）于（「倍」于（「倍」于「数」））
也。
""" + compute_entry("主"))
    assert run(tmp_path, "主入口", {"出": np.zeros(2, np.uint32)})["出"].tolist() == [15, 60]


NESTED_LOOPS = buffer("出", 0) + """
「壹」乃「无三二」也。
「壹」者「新无三二」于「一」也。
「三角」乃化「无三二」为「无三二」者也。
「三角」者得「n」而
　令「外」为得「i」又得「和」而
　　若「i」等于「n」则「和」
　　否则（
　　　令「内」为得「j」又得「s」而
　　　　若「j」等于「i」则「s」否则「内」于（「j」加「壹」）于（「s」加「壹」）
　　　而「外」于（「i」加「壹」）于（「内」于（「新无三二」于「零」）于「和」））
　而「外」于（「新无三二」于「零」）于（「新无三二」于「零」）
也。
「尾内」乃化「无三二」为「无三二」者也。
「尾内」者得「n」而
　令「外」为得「i」而
　　若「i」大于「n」则「i」
　　否则（
　　　令「内」为得「j」而若「j」不小于「i」则「j」否则「内」于（「j」加「壹」）
　　　而若「i」等于「n」则「内」于（「新无三二」于「零」）否则「外」于（「i」加「壹」））
　而「外」于（「新无三二」于「零」）
也。
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「序」为「号」中「零」而
　令「加到」为得「k」又得「a」而
　　若「k」等于（「新无三二」于「零」）则「a」否则「加到」于（「k」减「壹」）于（「a」加「k」）
　而
　「写数组」于「出」于「序」于
　　（「加到」于「序」于（「新无三二」于「零」）加「加到」于「序」于「壹」加「三角」于「序」乘（「新无三二」于「一零零」）加「尾内」于「序」）
也。
""" + compute_entry("主", "八")


def test_nested_loops_and_a_loop_in_tail_position_of_a_loop(tmp_path):
    text = wgsl(tmp_path, NESTED_LOOPS)
    assert text.count("loop {") == 6         # 加到 is a loop at each of its two calls
    assert """          } else {
            j = j + 壹;
            continue;
          }
        }
        break;
""" in text                                    # the inner loop ends the outer one
    k = np.arange(8)
    expected = k * (k + 1) // 2 + 1 + k * (k + 1) // 2 + 100 * (k * (k - 1) // 2) + k
    assert run(tmp_path, "主入口", {"出": np.zeros(8, np.uint32)})["出"].tolist() == expected.tolist()


# ---------------------------------------------------------------- entries and I/O


def test_entry_inputs_and_outputs(tmp_path):
    text = wgsl(tmp_path, """「顶入」即「组类」【「位」乃「二维浮」也，「类」乃「整三二」也，「实例」乃「实例序号」也】也。
「顶出」即「组类」【「位置」乃「裁剪位置」也，「类」乃「整三二」也，「色」乃「三维浮」也】也。
「片出」即「组类」【「色」乃「片元颜色」也，「辅」乃「片元颜色」也，「深」乃「片元深度」也】也。
「顶点」乃化「顶入」为「顶出」者也。
「顶点」者得「入」而「组值」【「位置」者「入」中「位」中「零」与「入」中「位」中「一」与「新浮三二」于「零」与「新浮三二」于「一」也，
　「类」者「入」中「类」也，「色」者「新浮三二」于「入」中「实例」与「新浮三二」于「零」与「新浮三二」于「一」也】也。
「片元」乃化「片元坐标」又化「整三二」又化「三维浮」为「片出」者也。
「片元」者得「坐」又得「类」又得「色」而
　「组值」【「色」者「色」中「零」与「色」中「一」与「色」中「二」与「新浮三二」于「类」也，「辅」者「坐」也，「深」者「新浮三二」于「零点五」也】也。
「只色」乃化「有」为「片元颜色」者也。
「只色」者得「无」而「新浮三二」于「一」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」也。
「顶点入口」乃「顶点入口」也。「顶点入口」者「顶点入口项」于「顶点」也。
「片元入口」乃「片元入口」也。「片元入口」者「片元入口项」于「片元」也。
「只色入口」乃「片元入口」也。「只色入口」者「片元入口项」于「只色」也。
""")
    assert """struct 顶入 {
  @location(0) 位: vec2<f32>,
  @location(1) 类: i32,
  @builtin(instance_index) 实例: u32,
}

struct 顶出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) @interpolate(flat) 类: i32,
  @location(1) 色: vec3<f32>,
}

struct 片出 {
  @location(0) 色: vec4<f32>,
  @location(1) 辅: vec4<f32>,
  @builtin(frag_depth) 深: f32,
}""" in text
    assert "@vertex\nfn 顶点(入: 顶入) -> 顶出 {" in text
    assert ("@fragment\nfn 片元(@builtin(position) 坐: vec4<f32>, @location(0) @interpolate(flat) 类: i32, "
            "@location(1) 色: vec3<f32>) -> 片出 {") in text
    assert "@fragment\nfn 只色() -> @location(0) vec4<f32> {" in text


def test_entry_table(tmp_path):
    _, _, result = translated(tmp_path, SEED_PROGRAM + "「另一入口」乃「计算入口」也。\n"
                              "「另一入口」者「计算入口项」于「加倍」于（「组值」【「工作组大小」者「八」也】）也。\n")
    assert result.text is None
    assert "已是入口项「加倍入口」的函数" in result.diagnostics[0].message


def test_an_entry_function_cannot_be_called(tmp_path):
    lines = errors(tmp_path, SEED_PROGRAM + "「再」乃化「全局调用号」为「有」者也。\n「再」者得「号」而「加倍」于「号」也。\n")
    assert lines == ["13:10: 在「再」中：「加倍」是入口函数，不能再调用：把函数体提成另一个函数，两处都调用它"]


# ---------------------------------------------------------------- names


NAMES = buffer("loop", 0) + """
「u32」乃「无三二」也。
「u32」者「新无三二」于「七」也。
「select」乃化「无三二」为「无三二」者也。
「select」者得「x」而「x」加「u32」也。
「a b」乃化「无三二」又化「无三二」为「无三二」者也。
「a b」者得「_」又得「__x」而「_」乘「__x」也。
「kernel」乃化「无三二」为「无三二」者也。
「kernel」者得「float4」而「float4」加「float4」也。
「豫_甲」乃「无三二」也。
「豫_甲」者「新无三二」于「一」也。
「点」即「组类」【「fn」乃「无三二」也，「3d」乃「无三二」也】也。
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「序」为「号」中「零」而
　令「p」为「组值」【「fn」者「序」也，「3d」者「kernel」于「豫_甲」也】而
　「写数组」于「loop」于「序」于（「a b」于（「select」于（「p」中「fn」））于（「p」中「3d」））
也。
""" + compute_entry("主", "四")


def test_reserved_and_invalid_names_are_rewritten(tmp_path):
    text = wgsl(tmp_path, NAMES)
    for line in ["@group(0) @binding(0) var<storage, read_write> 豫_loop: array<u32>;",
                 "const 豫_u32: u32 = 7u;",
                 "fn 豫_select(x: u32) -> u32 {",
                 "fn 豫_a_20_b(豫__5f_: u32, 豫__5f__5f_x: u32) -> u32 {",
                 "fn kernel(float4: u32) -> u32 {",          # reserved in MSL only: WGSL keeps them
                 "const 豫_豫_5f_甲: u32 = 1u;",
                 "  豫_fn: u32,", "  豫_3d: u32,"]:
        assert line in text.split("\n"), line
    out = run(tmp_path, "主入口", {"loop": np.zeros(4, np.uint32)})["loop"]
    assert out.tolist() == [(i + 7) * 2 for i in range(4)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=6), min_size=2, max_size=6, unique=True))
def test_target_names_are_valid_and_distinct(names):
    targets = [target_name(n) for n in names]
    assert all(is_identifier(t) and t not in ENTRY_WORDS for t in targets)
    assert len(set(targets)) == len(names)
    allocator = NameAllocator(WGSL.reserved)
    claimed = [allocator.claim(n) for n in names + names]
    assert len(set(claimed)) == len(claimed)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=20, unique=True))
def test_naga_accepts_every_rewritten_name(names):
    allocator = NameAllocator(WGSL.reserved)
    validate("".join(f"const {allocator.claim(n)}: u32 = {i}u;\n" for i, n in enumerate(names)))


def test_names_left_alone():
    assert [target_name(n) for n in ["数据", "x", "_x", "x_2", "序号1"]] == ["数据", "x", "_x", "x_2", "序号1"]
    assert [target_name(n) for n in ["_", "__a", "1x", "vec3", "discard", "threadgroup", "豫_"]] == [
        "豫__5f_", "豫__5f__5f_a", "豫_1x", "豫_vec3", "豫_discard", "豫_threadgroup", "豫_豫_5f_"]


def test_imported_sources_come_first_and_clashing_names_stay_distinct(tmp_path):
    write(tmp_path, {"包.json": '{"名": "试包", "依赖": ["点染"]}',
                     "工具。着色器。豫": PRELUDE + "「缩放」乃「无三二」也。\n「缩放」者「新无三二」于「三」也。\n"
                                                 "「乘缩放」乃化「无三二」为「无三二」者也。\n"
                                                 "「乘缩放」者得「x」而「x」乘「缩放」也。\n"})
    text = wgsl(tmp_path, "寻「试包」之「工具」之书。\n" + buffer("出", 0) + """
「缩放」乃「无三二」也。
「缩放」者「新无三二」于「五」也。
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而「写数组」于「出」于「号」中「零」于（「工具」之「乘缩放」于「号」中「零」加「缩放」加「工具」之「缩放」）也。
""" + compute_entry("主", "四"))
    assert text.startswith("const 缩放: u32 = 3u;\n\nfn 乘缩放(x: u32) -> u32 {\n  return x * 缩放;\n}\n")
    assert "const 缩放_2: u32 = 5u;" in text
    assert "出[号.x] = (乘缩放(号.x) + 缩放_2) + 缩放;" in text
    assert run(tmp_path, "主入口", {"出": np.zeros(4, np.uint32)})["出"].tolist() == [8, 11, 14, 17]


def test_structs_of_one_name_in_two_modules(tmp_path):
    write(tmp_path, {"包.json": '{"名": "试包", "依赖": ["点染"]}',
                     "几何。着色器。豫": PRELUDE + "「点」即「组类」【「x」乃「浮三二」也，「y」乃「浮三二」也】也。\n"
                                                 "「原点」乃「点」也。\n「原点」者「组值」【「x」者「新浮三二」于「一」也，"
                                                 "「y」者「新浮三二」于「二」也】也。\n"})
    text = wgsl(tmp_path, "寻「试包」之「几何」之书。\n" + buffer("出", 0, "浮三二") + """
「点」即「组类」【「甲」乃「无三二」也】也。
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「p」为（「组值」【「甲」者「号」中「零」也】也「点」）而
　「写数组」于「出」于「p」中「甲」于（「几何」之「原点」中「y」）
也。
""" + compute_entry("主"))
    assert "struct 点 {\n  x: f32,\n  y: f32,\n}" in text
    assert "struct 点_2 {\n  甲: u32,\n}" in text
    assert "let p = 点_2(号.x);" in text


# ---------------------------------------------------------------- translation errors


CONST_ERRORS = buffer("出", 0) + """
「大」乃「无三二」也。
「大」者「新无三二」于「四二九四九六七二九五」加「新无三二」于「一」也。
「短」乃（「定长整数」于「一六」）也。
「短」者「转换」以（「定长整数」于「一六」）于（「新整三二」于「三」）也。
「商」乃化「无三二」为「无三二」者也。
「商」者得「x」而「x」加（「新无三二」于「一」除（「新无三二」于「零」））也。
「移」乃「无三二」也。
「移」者「新无三二」于「一」左移（「新无三二」于「三二」）也。
「浮」乃「浮三二」也。
「浮」者「新浮三二」于「三四""" + "零" * 37 + """」乘（「新浮三二」于「二」）也。
「根」乃「浮三二」也。
「根」者「平方根」于（负（「新浮三二」于「一」））也。
「负最小」乃「整三二」也。
「负最小」者负（「新整三二」于（负「二一四七四八三六四八」））也。
「甲片」乃化「全局调用号」为「有」者也。
「甲片」者得「号」而「满矩阵片累」于（「新浮三二」于「零」）；「元」也。
"""


def test_what_wgsl_cannot_express_is_a_translation_error(tmp_path):
    lines = errors(tmp_path, CONST_ERRORS)
    rejected = "，WebGPU 会拒绝这个着色模块"
    assert lines == [
        "5:5: 在「大」中：常量表达式在 WGSL 建模块时就求值：结果 4294967296 超出「无三二」的范围（0 至 4294967295）" + rejected,
        "7:5: 在「短」中：WGSL 没有「定长整数」于「一六」：标量只有「浮三二」「浮十六」「整三二」「无三二」（着三）",
        "9:15: 在「商」中：常量表达式在 WGSL 建模块时就求值：除以零" + rejected,
        "11:5: 在「移」中：常量表达式在 WGSL 建模块时就求值：移位量 32 不小于「无三二」的位数 32" + rejected,
        "13:5: 在「浮」中：常量表达式在 WGSL 建模块时就求值：结果溢出成无穷，超出「浮三二」的范围" + rejected,
        "15:5: 在「根」中：常量表达式在 WGSL 建模块时就求值：结果不是数（NaN）" + rejected,
        "17:7: 在「负最小」中：常量表达式在 WGSL 建模块时就求值：结果 2147483648 超出「整三二」的范围（-2147483648 至 2147483647）"
        + rejected,
        "19:11: 在「甲片」中：WGSL 没有子组矩阵片（着十二）：用到它的内核只能译成 MSL 或 PTX",
    ]


def test_buffer_layouts_wgsl_rejects(tmp_path):
    lines = errors(tmp_path, """「甲」即「组类」【「x」乃「浮三二」也】也。
「乙」即「组类」【「a」乃「浮三二」也，「b」乃「甲」也】也。
「u1」乃「均匀缓冲」于（「定长数组」于「浮三二」于「四」）也。
「u1」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「u2」乃「均匀缓冲」于「乙」也。
「u2」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。
「u3」乃「均匀缓冲」于（「定长数组」于「四维浮」于「四」）也。
「u3」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「二」也】）也。
""" + buffer("s", 3, "爻") + """「w」乃「工作组变量」于（「数组」于「浮三二」）也。
「w」者「工作组共享」于「元」也。
""")
    assert lines == [
        "4:1: 在「u1」中：均匀缓冲里数组的每个元素须占 16 字节的倍数，这里占 4 字节：改用「四维浮」等四分量的元素，或改用存储缓冲",
        "6:1: 在「u2」中：均匀缓冲里，结构类型的字段须从 16 字节的倍数处开始，「b」在第 4 字节：在它前面补字段",
        "10:1: 在「s」中：WGSL 的缓冲里不能存「爻」：改用「无三二」（0 与 1）",
        "12:1: 在「w」中：工作组变量不能是运行期数组（「数组」）：改用「定长数组」",
    ]


def test_a_cell_is_named_not_chosen(tmp_path):
    assert errors(tmp_path, """「甲」乃化「爻」为「无三二」者也。
「甲」者得「b」而
　令「c1」为「新格」于（「新无三二」于「一」）而
　令「c2」为「新格」于（「新无三二」于「二」）而
　令「c」为若「b」则「c1」否则「c2」而
　「写格」于「c」于（「新无三二」于「三」）；
　「读格」于「c1」
也。
""") == ["5:7: 在「甲」中：WGSL 里「格」于「无三二」不是能复制或选择的值：这里只能直接写它的名字"]


def test_abstract_numbers_stay_abstract(tmp_path):
    text = wgsl(tmp_path, buffer("出", 0) + """
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「n」为「三」加「四」而
　令「v」为「一」与「二」而
　「写数组」于「出」于「号」中「零」于（「新无三二」于「n」加「新无三二」于（「v」中「一」））
也。
""" + compute_entry("主"))
    assert "  const n = 3 + 4;\n  const v = vec2(1, 2);\n  出[号.x] = u32(n) + u32(v.y);\n" in text
    assert run(tmp_path, "主入口", {"出": np.zeros(1, np.uint32)})["出"].tolist() == [9]
    assert errors(tmp_path, "「大数」者「九" + "九" * 20 + "」也。\n") == [
        "1:6: 在「大数」中：常量表达式在 WGSL 建模块时就求值：结果 999999999999999999999 超出「整数」的范围"
        "（-9223372036854775808 至 9223372036854775807），WebGPU 会拒绝这个着色模块"]


def test_runtime_values_are_not_constants(tmp_path):
    """A let is not a const-expression in WGSL: it wraps at run time."""
    text = wgsl(tmp_path, buffer("出", 0) + """
「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「大」为「新无三二」于「四二九四九六七二九五」而
　「写数组」于「出」于（「号」中「零」）于（「大」加（「新无三二」于「二」））
也。
""" + compute_entry("主"))
    assert "let 大 = 4294967295u;" in text
    assert run(tmp_path, "主入口", {"出": np.zeros(1, np.uint32)})["出"].tolist() == [1]


def test_command_line_check_accepts_translate_rejects(tmp_path):
    write(tmp_path, {"坏。着色器。豫": PRELUDE + "「大」乃「无三二」也。\n"
                                          "「大」者「新无三二」于「四二九四九六七二九五」加「新无三二」于「一」也。\n"})
    assert cli(tmp_path, "检查", "坏。着色器。豫") == (0, "", "")
    code, out, err = cli(tmp_path, "译", "坏。着色器。豫")
    assert (code, out) == (1, "")
    assert err == ("坏。着色器。豫:4:5: 在「大」中：常量表达式在 WGSL 建模块时就求值：结果 4294967296 超出「无三二」的范围"
                   "（0 至 4294967295），WebGPU 会拒绝这个着色模块\n")


# ---------------------------------------------------------------- builtins


NOT_CALLS = {"元", "阳", "阴", "只读", "读写", "绑定", "均匀绑定", "纹理绑定", "采样器绑定", "深度纹理绑定", "比较采样器绑定",
             "存储纹理绑定",
             "工作组共享", "计算入口项", "顶点入口项", "片元入口项", "可覆盖"}   # 可覆盖: a constant's whole value, written as a declaration


def test_every_builtin_function_is_in_the_table():
    """One table spells every builtin (LANGUAGE.md §6); those WGSL lacks are
    in it too, as translation errors."""
    from zhuose.compiler import ir
    from zhuose.compiler.types import TFun, resolve
    ws = Workspace(".")
    declared = {d.name for d in ws.builtins().module.decls
                if isinstance(d, ir.Declared) and isinstance(resolve(d.type), TFun)}
    assert declared - NOT_CALLS - set(BUILTINS) == set()
    assert set(BUILTINS) - declared == set()


# ---------------------------------------------------------------- command line


def cli(cwd, *args):
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd, capture_output=True,
                       text=True, encoding="utf-8")
    return p.returncode, p.stdout, "\n".join(line for line in p.stderr.split("\n")
                                             if "XDG_RUNTIME_DIR" not in line)


def test_translate_prints_wgsl_and_the_entry_table(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": PRELUDE + SEED_PROGRAM})
    assert cli(tmp_path, "译", "加倍。着色器。豫") == (0, SEED_WGSL, "加倍入口\t加倍\t计算\n")
    assert cli(tmp_path, "wgsl", "没有。着色器。豫")[0] == 2


def test_run_with_numbers_from_the_command_line(tmp_path):
    adapter_info()
    write(tmp_path, {"加倍。着色器。豫": PRELUDE + SEED_PROGRAM})
    code, out, err = cli(tmp_path, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1,2,3,4,5,6,7*3")
    assert (code, err) == (0, "")
    assert out == "「数据」（组 0 号 0）：[ 2  4  6  8 10 12 14 14 14]\n"


def test_run_reads_and_writes_back_npy_files(tmp_path):
    adapter_info()
    write(tmp_path, {"两个。着色器。豫": PRELUDE + buffer("甲", 0, "浮三二", "只读") + buffer("乙", 1, "浮三二") + """
「参数」乃「均匀缓冲」于「浮三二」也。
「参数」者「均匀绑定」于（「组值」【「组」者「一」也，「号」者「零」也】）也。
「乘加」乃化「全局调用号」为「有」者也。
「乘加」者得「号」而
　令「i」为「号」中「零」而
　若「i」小于（「数组长度」于「乙」）则「写数组」于「乙」于「i」于（「读数组」于「甲」于「i」乘「读均匀」于「参数」加「读数组」于「乙」于「i」）
也。
""" + compute_entry("乘加", "四")})
    x, y = np.arange(10, dtype=np.float32), np.ones(10, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    code, out, err = cli(tmp_path, "运行", "两个。着色器。豫", "乘加入口", "甲=x.npy", "0:1=y.npy", "1:0=2.5")
    assert (code, err) == (0, "")
    assert out.startswith("「乙」（组 0 号 1）：[ 1. ")
    assert np.load(tmp_path / "y.npy").tolist() == (x * 2.5 + 1).tolist()
    assert np.load(tmp_path / "x.npy").tolist() == x.tolist()
    code, out, err = cli(tmp_path, "运行", "两个。着色器。豫", "乘加入口", "甲=x.npy", "0:1=y.npy", "1:0=2.5", "--组数", "1")
    # one workgroup of four: only the first four elements are updated again
    assert np.load(tmp_path / "y.npy").tolist() == (x * 5 + 1).tolist()[:4] + (x * 2.5 + 1).tolist()[4:]


def test_run_explains_its_mistakes(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": PRELUDE + SEED_PROGRAM})
    np.save(tmp_path / "f.npy", np.zeros(4, np.float32))
    cases = [
        (["加倍入口"], "着色器：入口项「加倍入口」用到组 0 号 0「数据」（读写存储缓冲），没有给出它的数据：写 0:0=文件.npy 或 0:0=1,2,3\n"),
        (["没有", "0:0=1"], "着色器：「没有」不是这个文件的计算入口项；计算入口项有 「加倍入口」\n"),
        (["加倍入口", "0:0=f.npy"], "着色器：「f.npy」的元素类型是 float32，组 0 号 0「数据」（读写存储缓冲）要 uint32\n"),
        (["加倍入口", "0:0=1", "0:1=2"], "着色器：入口项「加倍入口」没有用到 0:1；它用到的缓冲：组 0 号 0「数据」（读写存储缓冲）\n"),
        (["加倍入口", "0:0=一"], "着色器：「一」不是uint32的数（或 值*个数）：数只用 ASCII 数字写，如 1,2,3 或 0*256\n"),
        (["加倍入口", "0:0=1", "--组数", "0"], "着色器：--组数「0」应是 1 至 3 个 1 至 65535 的整数\n"),
        (["加倍入口", "0:0"], "着色器：「0:0」应写成 绑定=数据，如 0:0=输入.npy 或 0:0=1,2,3\n"),
    ]
    for args, message in cases:
        assert cli(tmp_path, "运行", "加倍。着色器。豫", *args) == (2, "", message), args
    write(tmp_path, {"纹。着色器。豫": PRELUDE + buffer("出", 1) + """「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「尺」乃化「全局调用号」为「有」者也。
「尺」者得「号」而「写数组」于「出」于（「号」中「零」）于（（「纹理尺寸」于「图」）中「零」）也。
""" + compute_entry("尺")})
    assert cli(tmp_path, "运行", "纹。着色器。豫", "尺入口", "0:1=0") == (
        2, "", "着色器：入口项「尺入口」用到组 0 号 0「图」（纹理），没有给出它的图像：写 0:0=图.png 或 纹素.npy\n")


def test_tests_run_on_a_real_adapter():
    """On CI this fails (never skips) without an adapter; it names the adapter it found."""
    info = adapter_info()
    print(f"WebGPU 适配器：{info.get('device')}（{info.get('backend_type')}）")
    assert info.get("device")


def test_bitcasts_of_half_vectors_go_through_pack2x16float(tmp_path):
    """naga has no bitcast from or to vec2<f16>/vec4<f16> (Tint has): each u32 is
    packed from, or unpacked to, two halves through f32; the bits must survive both ways."""
    text = buffer("入", 0, access="只读") + buffer("出", 1) + """
「主」乃化「局部调用序」为「有」者也。
「主」者得「i」而
　令「宽」为「位转换」以「四维半」于（「读数组」于「入」于（「新无三二」于「零」）与「读数组」于「入」于（「新无三二」于「一」））而
　令「窄」为「位转换」以「二维半」于（「读数组」于「入」于（「新无三二」于「二」））而
　令「回」为「位转换」以「二维无」于「宽」而
　令「造」为「新浮十六」于（「读数组」于「入」于（「新无三二」于「三」））与「新浮十六」于（「读数组」于「入」于（「新无三二」于「四」））而
　「写数组」于「出」于（「新无三二」于「零」）于（「回」中「零」）；
　「写数组」于「出」于（「新无三二」于「一」）于（「回」中「一」）；
　「写数组」于「出」于（「新无三二」于「二」）于（「位转换」以「无三二」于「窄」）；
　「写数组」于「出」于（「新无三二」于「三」）于（「转换」以「无三二」于（「窄」中「零」））；
　「写数组」于「出」于（「新无三二」于「四」）于（「位转换」以「无三二」于「造」）；
　「写数组」于「出」于（「新无三二」于「五」）于（「位转换」以「无三二」于（「位转换」以「二维半」于（「位转换」以「浮三二」于「造」）））
也。
""" + compute_entry("主")
    text_wgsl = wgsl(tmp_path, text)
    assert "bitcast<vec4<f16>>" not in text_wgsl and "pack2x16float(vec2<f32>(造))" in text_wgsl
    halves = np.array([1.5, -2.0, 3.25, 65504.0], np.float16).view(np.uint32)
    pair = np.array([7.0, 0.5], np.float16).view(np.uint32)
    made = np.array([5.0, 9.0], np.float16).view(np.uint32)
    data = {"入": np.array([*halves, *pair, 5, 9], np.uint32), "出": np.zeros(6, np.uint32)}
    out = run(tmp_path, "主入口", data)["出"]
    assert out.tolist() == [*halves, *pair, 7, *made, *made]


def test_a_less_than_in_an_argument_list_is_not_read_as_a_template(tmp_path):
    """WGSL's template-list discovery reads `a < b, c > d` inside one argument list
    as `a<b, c>` followed by `d`: naga then refuses the module.  A less-than in an
    argument list is parenthesized; elsewhere it stays bare."""
    text = wgsl(tmp_path, buffer("甲", 0) + """
「比」乃化「全局调用号」为「有」者也。
「比」者得「号」而
　令「a」为「号」中「x」而
　令「二号」为「新无三二」于「二」而
　令「小」为「a」小于（「新无三二」于「三」）而
　「写数组」于「甲」于「a」于（「新无三二」于（「选择」于（「a」小于「二号」）于（「a」大于（「新无三二」于「一」））于「小」））
也。
""" + compute_entry("比"))
    assert "let 小 = a < 3u;" in text
    assert "select((a < 二号), a > 1u, 小)" in text
    out = run(tmp_path, "比入口", {"甲": np.zeros(4, np.uint32)}, 4)
    np.testing.assert_array_equal(out["甲"], [0, 0, 1, 0])     # a < 3 ? a > 1 : a < 2


def test_entries_may_share_a_binding_slot_one_entry_may_not(tmp_path):
    """WGSL lets different entry points bind different resources at one (group, binding):
    the module declares both, each pipeline binds its own.  One entry using two resources at
    one slot is refused by 检查 (samples/错误/重复绑定)."""
    text = wgsl(tmp_path, buffer("甲", 0) + buffer("乙", 0, "整三二") + """
「加一」乃化「全局调用号」为「有」者也。
「加一」者得「号」而「写数组」于「甲」于（「号」中「x」）于（「读数组」于「甲」于（「号」中「x」）加（「新无三二」于「一」））也。
「减一」乃化「全局调用号」为「有」者也。
「减一」者得「号」而「写数组」于「乙」于（「号」中「x」）于（「读数组」于「乙」于（「号」中「x」）减（「新整三二」于「一」））也。
""" + compute_entry("加一") + compute_entry("减一"))
    assert text.count("@group(0) @binding(0)") == 2
    out = run(tmp_path, "加一入口", {"甲": np.arange(4, dtype=np.uint32)}, 4)
    np.testing.assert_array_equal(out["甲"], [1, 2, 3, 4])
    out = run(tmp_path, "减一入口", {"乙": np.arange(4, dtype=np.int32)}, 4)
    np.testing.assert_array_equal(out["乙"], [-1, 0, 1, 2])
