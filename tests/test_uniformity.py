"""Uniform control flow (compiler/valid/uniformity.py): for each kind of varying
source and each operation that needs uniform control flow, a program 检查 must
refuse at the right line and column, naming the condition and the source, and a
close variant it must accept — whose WGSL naga and Tint accept too."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from zhuose.compiler.backends import translate
from zhuose.compiler.valid import registry
from zhuose.compiler.valid.uniformity import CODES
from zhuose.compiler.workspace import Workspace

from support.interp_runner import interpret
from support.metal_shim.host import prepare, results
from support.metal_shim.runner import CLANG, Kernel, Runner, check, require_clang
from support.ptx_runner import PTXAS, execute
from support.tint import tint_errors
from support.wgpu_device import run_entry, validate

HEAD = """寻观「点染」之「点染本」之书。

「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「表」乃「存储缓冲」于（「数组」于「无三二」）也。
「表」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「只读」也】）也。
「计数」乃「存储缓冲」于（「数组」于（「原子」于「无三二」））也。
「计数」者「绑定」于（「组值」【「组」者「零」也，「号」者「二」也，「访问」者「读写」也】）也。
「共」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。
「共」者「工作组共享」于「元」也。
「单」乃「工作组变量」于「无三二」也。
「单」者「工作组共享」于「元」也。
「界」乃「无三二」也。
「界」者「新无三二」于「三」也。

"""
ENTRY = """
「核入口」乃「计算入口」也。
「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。
"""


def kernel(param: str, body: str, helpers: str = "") -> str:
    return HEAD + helpers + f"「核」乃化「{param}」为「有」者也。\n「核」者得「号」而\n{body}\n也。\n" + ENTRY


def diagnostics(tmp_path, text: str):
    path = tmp_path / "程序。着色器。豫"
    path.write_text(text, encoding="utf-8")
    ws = Workspace(tmp_path)
    return ws, path, [d for d in ws.diagnostics(path) if d.severity == "错误"]


def position(text: str, needle: str) -> tuple[int, int]:
    at = text.index(needle)
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


BARRIER = "「工作组屏障」于「元」"
SUBGROUP = "「写数组」于「数据」于「界」于（「子组求和」于「界」）"
VARYING = {      # kind of source → (entry parameter, condition, what the message names)
    "局部调用序": ("局部调用序", "「号」大于「界」", "入口输入「局部调用序」"),
    "局部调用号": ("局部调用号", "「号」中「零」大于「界」", "入口输入「局部调用号」"),
    "全局调用号": ("全局调用号", "「号」中「零」大于「界」", "入口输入「全局调用号」"),
    "子组调用序": ("子组调用序", "「号」大于「界」", "入口输入「子组调用序」"),
    "读写存储": ("工作组号", "「读数组」于「数据」于「界」大于「界」", "读写存储缓冲「数据」"),
    "工作组变量": ("工作组号", "「读共享数组」于「共」于「界」大于「界」", "工作组变量"),
    "工作组标量": ("工作组号", "「读共享」于「单」大于「界」", "工作组变量"),
    "原子": ("工作组号", "「原子加」于「计数」于「界」于「界」大于「界」", "原子"),
    "子组结果": ("工作组号", "「子组求和」于「界」大于「界」", "只在子组内一致"),
}
UNIFORM = {      # the close variants: a condition every invocation of the workgroup agrees on
    "工作组号": ("工作组号", "「号」中「零」大于「界」"),
    "工作组数": ("工作组数", "「号」中「零」大于「界」"),
    "只读存储": ("局部调用序", "「读数组」于「表」于「界」大于「界」"),
    "常量": ("局部调用序", "「界」大于（「新无三二」于「二」）"),
    "数组长度": ("局部调用序", "「数组长度」于「数据」大于「界」"),
}


def refused(tmp_path, text: str, needle: str, *named: str):
    _, _, errors = diagnostics(tmp_path, text)
    assert len(errors) == 1, [e.message for e in errors]
    ws_text = text
    (error,) = errors
    ws, path, _ = diagnostics(tmp_path, text)
    pos = ws.source(path).position(error.start)
    assert (pos.line + 1, pos.column + 1) == position(ws_text, needle), error.message
    for word in named:
        assert word in error.message, error.message
    return error


def accepted(tmp_path, text: str) -> str:
    ws, path, errors = diagnostics(tmp_path, text)
    assert not errors, [e.message for e in errors]
    result = translate(ws, path, "wgsl")
    assert result.text is not None, [d.message for d in result.diagnostics]
    validate(result.text)          # naga and Tint
    return result.text


@pytest.mark.parametrize("kind", VARYING)
@pytest.mark.parametrize("op", [BARRIER, "「存储屏障」于「元」", SUBGROUP], ids=["工作组屏障", "存储屏障", "子组求和"])
def test_a_varying_condition_refuses_the_operation(tmp_path, kind, op):
    param, cond, source = VARYING[kind]
    text = kernel(param, f"　若{cond}则{op}否则「元」")
    if op == SUBGROUP and kind == "子组结果":     # uniform within the subgroup: enough for a subgroup operation
        accepted(tmp_path, text)
        return
    needle = op if op != SUBGROUP else "「子组求和」于「界」）"
    must = "须在一致控制流中执行" if op != SUBGROUP else "「子组求和」须在子组内一致的控制流中执行"
    refused(tmp_path, text, needle, must, f"条件“{cond}”各异", source)


@pytest.mark.parametrize("kind", UNIFORM)
@pytest.mark.parametrize("op", [BARRIER, SUBGROUP], ids=["工作组屏障", "子组求和"])
def test_a_uniform_condition_accepts_it(tmp_path, kind, op):
    param, cond = UNIFORM[kind]
    accepted(tmp_path, kernel(param, f"　若{cond}则{op}否则「元」"))


HELPER = "「等」乃化「无三二」为「有」者也。\n「等」者得「n」而若「n」大于「界」则「工作组屏障」于「元」否则「元」也。\n\n"


def test_a_helper_that_waits_is_refused_at_its_call_in_a_divergent_branch(tmp_path):
    text = kernel("局部调用序", "　若「号」大于「界」则「等」于「元」否则「元」",
                  "「等」乃化「有」为「有」者也。\n「等」者得「u」而「工作组屏障」于「u」也。\n\n")
    refused(tmp_path, text, "「等」于「元」", "调用「等」（它用到「工作组屏障」）须在一致控制流中执行", "局部调用序")


def test_a_helper_whose_parameter_guards_a_barrier_needs_a_uniform_argument(tmp_path):
    text = kernel("局部调用序", "　「等」于「号」", HELPER)
    refused(tmp_path, text, "「号」\n也", "调用「等」的第 1 个实参须一致", "局部调用序")
    accepted(tmp_path, kernel("工作组号", "　「等」于（「号」中「零」）", HELPER))


def test_a_helpers_varying_result_is_followed(tmp_path):
    helper = "「读」乃化「无三二」为「无三二」者也。\n「读」者得「i」而「读数组」于「数据」于「i」也。\n\n"
    text = kernel("工作组号", f"　若「读」于「界」大于「界」则{BARRIER}否则「元」", helper)
    refused(tmp_path, text, BARRIER, "读写存储缓冲「数据」")
    helper = "「读」乃化「无三二」为「无三二」者也。\n「读」者得「i」而「读数组」于「表」于「i」也。\n\n"
    accepted(tmp_path, kernel("工作组号", f"　若「读」于「界」大于「界」则{BARRIER}否则「元」", helper))


LOOP = """　令「环」为得「k」而
　　若「k」小于{bound}
　　则（{op}；「环」于（「k」加（「新无三二」于「一」）））
　　否则「元」
　而「环」于（「新无三二」于「零」）"""


def test_a_loop_whose_trip_count_varies_refuses_a_barrier_inside(tmp_path):
    text = kernel("工作组号", LOOP.format(bound="「读数组」于「数据」于「界」", op=BARRIER))
    refused(tmp_path, text, BARRIER, "须在一致控制流中执行", "读写存储缓冲「数据」")
    accepted(tmp_path, kernel("工作组号", LOOP.format(bound="「读数组」于「表」于「界」", op=BARRIER)))


def test_control_flow_reconverges_after_a_varying_loop(tmp_path):
    body = LOOP.format(bound="「读数组」于「数据」于「界」", op="「元」") + f"；\n　{BARRIER}"
    accepted(tmp_path, kernel("工作组号", body))


def test_a_cell_written_under_a_varying_condition_is_varying(tmp_path):
    body = ("　令「c」为「新格」于「界」而\n　（若「号」大于「界」则「写格」于「c」于「号」否则「元」）；\n"
            f"　若「读格」于「c」大于「界」则{BARRIER}否则「元」")
    refused(tmp_path, kernel("局部调用序", body), BARRIER, "局部调用序")
    body = ("　令「c」为「新格」于「号」而\n　「写格」于「c」于「界」；\n"
            f"　若「读格」于「c」大于「界」则{BARRIER}否则「元」")
    accepted(tmp_path, kernel("局部调用序", body))


def test_the_mask_of_a_shuffle_must_be_uniform(tmp_path):
    text = kernel("子组调用序", "　「写数组」于「数据」于「号」于（「子组异或洗牌」于「号」于「号」）")
    error = refused(tmp_path, text, "「号」）", "「子组异或洗牌」的第 2 个实参须在子组内一致", "子组调用序")
    assert (error.code, error.fields) == ("uniform-argument", {"实参": "2"})
    accepted(tmp_path, kernel("子组调用序", "　「写数组」于「数据」于「号」于（「子组异或洗牌」于「号」于「界」）"))


#: 「且」 short-circuits: its right side runs where the left is 阳 (every target, and the reference interpreter)
RIGHT_SUM = "（「子组求和」于「号」）大于「界」"
RIGHT_HELPER = "「合过」于「号」"
SUM_ABOVE = "「合过」乃化「无三二」为「爻」者也。\n「合过」者得「n」而（「子组求和」于「n」）大于「界」也。\n\n"


@pytest.mark.parametrize("right", [RIGHT_SUM, RIGHT_HELPER], ids=["子组求和", "调用"])
def test_and_with_a_subgroup_operation_on_the_right_runs_it_under_the_left(tmp_path, right):
    body = f"　若（「号」大于「界」）且（{right}）则「写数组」于「数据」于「号」于「号」否则「元」"
    needle = "「子组求和」于「号」）大于" if right == RIGHT_SUM else RIGHT_HELPER
    must = "「子组求和」须在子组内一致" if right == RIGHT_SUM else "调用「合过」（它用到「子组求和」）须在子组内一致"
    refused(tmp_path, kernel("局部调用序", body, SUM_ABOVE), needle, must, "条件“「号」大于「界」”各异",
            "局部调用序")


@pytest.mark.parametrize("right", [RIGHT_SUM, RIGHT_HELPER], ids=["子组求和", "调用"])
def test_and_with_a_subgroup_operation_on_the_right_of_a_uniform_left_is_accepted(tmp_path, right):
    """The right side is reached by the whole subgroup: Tint accepts it; the interpreter
    and the GPU agree on the subgroup sum."""
    body = (f"　「写数组」于「数据」于「号」于（若（「界」大于（「新无三二」于「二」））且（{right}）"
            "则「号」否则「界」）")
    text = accepted(tmp_path, kernel("局部调用序", body, SUM_ABOVE))
    # WGSL evaluates a right side that needs its neighbours with `&`, through a helper's call too
    # (lower/effects.py follows calls)
    assert re.search(r"\(界 > 2u\) & \(?(subgroupAdd|合过)", text), text
    ws = Workspace(tmp_path)
    out = run_entry(ws, tmp_path / "程序。着色器。豫", "核入口", {"数据": np.zeros(64, np.uint32)}, 1)["数据"]
    expected = interpret(ws, tmp_path / "程序。着色器。豫", "核入口", {"数据": np.zeros(64, np.uint32)}, 1)["数据"]
    np.testing.assert_array_equal(out, expected)
    assert (out == np.arange(64)).any()


def test_and_with_a_right_side_that_writes_stays_short_circuit(tmp_path):
    """Evaluating the right side always is for values only: a helper that writes runs under the left side."""
    helper = ("「记和」乃化「无三二」为「爻」者也。\n「记和」者得「n」而\n"
              "　「写数组」于「数据」于「n」于「n」；（「子组求和」于「n」）大于「界」\n也。\n\n")
    body = "　「写数组」于「数据」于「号」于（若（「界」大于（「新无三二」于「二」））且（「记和」于「号」）则「号」否则「界」）"
    text = accepted(tmp_path, kernel("局部调用序", body, helper))
    assert "  if 界 > 2u {\n    值 = 记和(号);\n  } else {\n    值 = false;\n  }" in text, text


MIXED = "「输入」即「组类」【「组」乃「工作组号」也，「序」乃「局部调用序」也】也。\n\n"
#: a condition on the uniform field, then each invocation writes 1000·组 + 序 at its global index
ON_THE_GROUP = (f"　若「号」中「组」中「零」大于（「新无三二」于「零」）则{BARRIER}否则「元」；\n"
                "　「写数组」于「数据」于（（「号」中「组」中「零」）乘（「新无三二」于「六四」）加（「号」中「序」））"
                "于（（「号」中「组」中「零」）乘（「新无三二」于「一零零零」）加（「号」中「序」））")


def test_a_varying_field_of_an_entry_struct_is_varying(tmp_path):
    text = kernel("输入", f"　若「号」中「序」大于「界」则{BARRIER}否则「元」", MIXED)
    refused(tmp_path, text, BARRIER, "「号」的字段「序」是入口输入「局部调用序」")


def test_an_entry_struct_used_whole_is_varying_as_a_whole(tmp_path):
    """Used whole, the struct stays one WGSL value, which WGSL judges as a whole."""
    text = kernel("输入", f"　令「x」为「号」而\n　若「x」中「组」中「零」大于「界」则{BARRIER}否则「元」", MIXED)
    refused(tmp_path, text, BARRIER, "「号」的字段「序」是入口输入「局部调用序」")


def test_a_uniform_field_of_an_entry_struct_with_varying_ones_is_uniform(tmp_path):
    """WGSL judges an entry parameter struct as a whole; the writer passes the fields as
    parameters of their own when uniformity relies on one of them."""
    text = accepted(tmp_path, kernel("输入", ON_THE_GROUP, MIXED))
    assert "fn 核(@builtin(workgroup_id) 组: vec3<u32>, @builtin(local_invocation_index) 序: u32) {" in text
    ws = Workspace(tmp_path)
    out = run_entry(ws, tmp_path / "程序。着色器。豫", "核入口", {"数据": np.zeros(3 * 64, np.uint32)}, 3)["数据"]
    np.testing.assert_array_equal(out, [1000 * (i // 64) + i % 64 for i in range(3 * 64)])


def test_hover_tells_a_uniform_field_from_the_struct_used_whole(tmp_path):
    from zhuose.server.hover import hover
    from zhuose.server.project import Project
    text = kernel("输入", "　令「组」为「号」中「组」而\n　令「整」为「号」而\n" + ON_THE_GROUP, MIXED)
    file = tmp_path / "程序。着色器。豫"
    file.write_text(text, encoding="utf-8")
    p = Project(tmp_path)
    key = p.open(file.as_uri(), 1, text)
    shown = {name: hover(p, p.locate(key, text.index(f"令「{name}」") + 2))[0] for name in ("组", "整")}
    assert "一致" in shown["组"] and "各异" not in shown["组"], shown
    assert "各异：「号」的字段「序」是入口输入「局部调用序」" in shown["整"], shown


def test_an_entry_struct_whose_uniformity_nothing_relies_on_stays_one_parameter(tmp_path):
    text = accepted(tmp_path, kernel("输入", "　「写数组」于「数据」于（「号」中「序」）于（「号」中「组」中「零」）", MIXED))
    assert "fn 核(号: 输入) {" in text


#: each invocation stores its input in 共, the workgroup meets, then all branch on 共[界]
SHARE = "　「写共享数组」于「共」于「号」于（「读数组」于「数据」于「号」）；\n"
AFTER_BARRIER = (SHARE + f"　{BARRIER}；\n"
                 f"　若「读共享数组」于「共」于「界」大于「界」\n"
                 f"　则（{BARRIER}；「写数组」于「数据」于「号」于（「读共享数组」于「共」于「界」加「号」））\n"
                 "　否则「写数组」于「数据」于「号」于「界」")


def test_a_workgroup_read_right_after_a_barrier_is_uniform(tmp_path):
    """WGSL reads it with workgroupUniformLoad (naga and Tint accept it); MSL and PTX wait at a
    barrier after the read too, so no invocation writes there before all have read it."""
    text = accepted(tmp_path, kernel("局部调用序", AFTER_BARRIER))
    assert text.count("workgroupUniformLoad(&共[界])") == 1, text      # the read in the branch stays plain
    ws = Workspace(tmp_path)
    for d3 in (10, 1):
        data = np.arange(64, dtype=np.uint32) * 7
        data[3] = d3
        out = run_entry(ws, tmp_path / "程序。着色器。豫", "核入口", {"数据": data.copy()}, 1)["数据"]
        expected = d3 + np.arange(64) if d3 > 3 else np.full(64, 3)
        np.testing.assert_array_equal(out, expected)
    path = tmp_path / "程序。着色器。豫"
    msl = translate(ws, path, "msl").text
    assert ("const auto 临时 = 界 < 64u ? 共[界] : uint{};\n  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
            "  if (临时 > 界)") in msl, msl                                     # the read bounds-checked
    if CLANG is None:
        sys.stderr.write("跳过 MSL 的 clang 检查：没有 clang++\n")
    else:
        assert not check({"msl": msl})
    ptx = translate(ws, path, "ptx")
    assert re.search(r"ld\.shared\.u32 %r\d+, \[\w+\+12\];\n\tbar\.sync 0;\n\tsetp\.gt\.u32", ptx.text), ptx.text
    assemble(tmp_path, ptx)
    for d3 in (10, 1):
        data = np.arange(64, dtype=np.uint32) * 7
        data[3] = d3
        out = execute(ptx, {(0, 0): data}, 1)[(0, 0)]
        np.testing.assert_array_equal(out, d3 + np.arange(64) if d3 > 3 else np.full(64, 3))


def assemble(tmp_path, result) -> None:
    """ptxas accepts the PTX (a skip line where ptxas is missing)."""
    if PTXAS is None:
        sys.stderr.write("跳过 ptxas 检查：没有 ptxas\n")
        return
    (tmp_path / "k.ptx").write_text(result.text, encoding="ascii")
    done = subprocess.run([PTXAS, "-arch=sm_80", "--warning-as-error", str(tmp_path / "k.ptx"), "-o",
                           str(tmp_path / "k.cubin")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def test_a_workgroup_read_right_after_a_barrier_runs_alike_on_the_metal_shim_and_the_interpreter(tmp_path):
    require_clang(pytest)
    path = tmp_path / "程序。着色器。豫"
    path.write_text(kernel("局部调用序", AFTER_BARRIER), encoding="utf-8")
    ws = Workspace(tmp_path)
    for d3 in (10, 1):
        data = np.arange(64, dtype=np.uint32) * 7
        data[3] = d3
        expected = d3 + np.arange(64) if d3 > 3 else np.full(64, 3)
        np.testing.assert_array_equal(interpret(ws, path, "核入口", {"数据": data.copy()}, 1)["数据"], expected)
        d = prepare(ws, path, "核入口", {"数据": data.copy()}, 1)
        metal = results(d, Runner([Kernel("核入口", d.msl, d.entry)], tmp_path).dispatch("核入口", d.groups, d.buffers))
        np.testing.assert_array_equal(metal["数据"], expected)


STORAGE_BARRIER = "「存储屏障」于「元」"


@pytest.mark.parametrize("body", [
    SHARE + f"　若「读共享数组」于「共」于「界」大于「界」则{STORAGE_BARRIER}否则「元」",
    SHARE + f"　{BARRIER}；\n　「写共享数组」于「共」于「号」于「号」；\n"
    f"　若「读共享数组」于「共」于「界」大于「界」则{STORAGE_BARRIER}否则「元」",
    SHARE + f"　{BARRIER}；\n　若「读共享数组」于「共」于「号」大于「界」则{STORAGE_BARRIER}否则「元」",   # names 「号」
    SHARE + f"　{BARRIER}；\n　令「环」为得「k」而若「k」小于「界」则「环」于（「k」加（「新无三二」于「一」））否则「元」而\n"
    f"　「环」于（「新无三二」于「零」）；\n　若「读共享数组」于「共」于「界」大于「界」则{STORAGE_BARRIER}否则「元」",
], ids=["no barrier before", "a write between", "a varying index", "a loop between"])
def test_a_workgroup_read_not_right_after_a_barrier_is_varying(tmp_path, body):
    named = ("「号」是入口输入「局部调用序」",) if "于「号」大于" in body else ("工作组变量", "紧跟「工作组屏障」读")
    refused(tmp_path, kernel("局部调用序", body), STORAGE_BARRIER, *named)


def test_one_mistake_one_message_through_nested_branches(tmp_path):
    body = f"　若「号」大于「界」则（若「号」大于（「新无三二」于「九」）则{BARRIER}否则「元」）否则「元」"
    refused(tmp_path, kernel("局部调用序", body), BARRIER, "局部调用序")


def test_varying_is_refused_for_msl_and_ptx_too(tmp_path):
    ws, path, _ = diagnostics(tmp_path, kernel("局部调用序", f"　若「号」大于「界」则{BARRIER}否则「元」"))
    for target in ("msl", "ptx"):
        assert translate(ws, path, target).text is None


def test_tint_agrees_on_what_naga_lets_through(tmp_path):
    """The refused program, translated as if it were accepted, is what Tint rejects."""
    wgsl = ("@compute @workgroup_size(64) fn m(@builtin(local_invocation_index) i: u32) {\n"
            "  if i > 3u { workgroupBarrier(); }\n}\n")
    errors = tint_errors(wgsl)
    if errors is None:
        pytest.skip("没有 Tint")
    assert errors and "uniform control flow" in errors[0]


# ---------------------------------------------------------------- differential against Tint

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

ATOMS = ["「号」中「序」", "「号」中「组」中「零」", "「组」", "「读数组」于「数据」于「界」", "「读数组」于「表」于「界」",
         "「子组求和」于「组」", "「子组求和」于（「号」中「序」）", "「界」", "「读共享数组」于「共」于「界」",
         "「读共享数组」于「共」于（「号」中「序」）", "「读共享」于「单」"]
OPS = ["「工作组屏障」于「元」", "「写数组」于「数据」于「界」于（「子组求和」于「界」）", "「元」",
       "「写共享数组」于「共」于「界」于「界」"]


@st.composite
def programs(draw):
    """The body of a kernel whose parameter 「号」 mixes 「工作组号」 and 「局部调用序」: nested 若
    over conditions built from uniform and varying values (workgroup reads among them, some
    right after a barrier), barriers and subgroup operations before, inside and after them."""
    def block(depth):
        op = draw(st.sampled_from(OPS))
        if depth == 0 or draw(st.booleans()):
            return op
        before = draw(st.sampled_from(["", "「工作组屏障」于「元」；", "「写共享」于「单」于「界」；"]))
        atom = draw(st.sampled_from(ATOMS))
        inner = block(depth - 1)
        return f"{before}（若（{atom}）大于「界」则（{inner}）否则「元」）；{op}"
    return block(3)


def verdicts(body: str, tmp_path, param: str = "局部调用序", helpers: str = "") -> tuple[list, list | None, str]:
    """Our uniformity messages on a kernel with `body`, and Tint's on its WGSL
    (translated as if accepted; None without Tint)."""
    text = kernel(param, "　令「组」为「界」而\n　" + body, helpers)
    ws, path, errors = diagnostics(tmp_path, text)
    ours = [e for e in errors if e.code in CODES]
    assert len(ours) == len(errors), [e.message for e in errors]
    info = ws.validate(path)
    info.diagnostics[:] = [d for d in info.diagnostics if d.code not in CODES]   # translate anyway
    result = translate(ws, path, "wgsl")
    assert result.text is not None, [d.message for d in result.diagnostics]
    return ours, tint_errors(result.text), result.text


@settings(max_examples=int(os.environ.get("UNIFORMITY_EXAMPLES", 60)), deadline=None, suppress_health_check=list(HealthCheck))
@given(programs())
def test_the_verdict_equals_tints(tmp_path_factory, body):
    """检查's verdict on random programs equals Tint's on their WGSL (translated as if accepted).
    UNIFORMITY_EXAMPLES=500 runs more of them."""
    ours, tint, wgsl = verdicts(body, tmp_path_factory.mktemp("u"), "输入", MIXED)
    if tint is None:
        pytest.skip("没有 Tint")
    assert bool(ours) == bool(tint), (body, [e.message for e in ours], tint, wgsl)


@pytest.mark.parametrize("body, refused_by_both", [
    # the failing example CI found: a subgroup sum under a branch on a subgroup sum of a uniform value
    ("（若（「组」）大于「界」则（（若（「组」）大于「界」则（（若（「子组求和」于「组」）大于「界」则（「写数组」于「数据」"
     "于「界」于（「子组求和」于「界」））否则「元」）；「工作组屏障」于「元」）否则「元」）；「工作组屏障」于「元」）否则「元」）；"
     "「工作组屏障」于「元」", False),
    ("（若（「子组求和」于「号」）大于「界」则（「写数组」于「数据」于「界」于（「子组求和」于「界」））否则「元」）；「元」", True),
    ("（若（「子组求和」于「组」）大于「界」则（「工作组屏障」于「元」）否则「元」）；「元」", True),
])
def test_the_verdict_equals_tints_on_known_cases(tmp_path, body, refused_by_both):
    ours, tint, wgsl = verdicts(body, tmp_path)
    assert bool(ours) == refused_by_both, [e.message for e in ours]
    if tint is not None:
        assert bool(tint) == refused_by_both, (tint, wgsl)


@pytest.mark.parametrize("body, refused_by_both", [
    ("（若（「号」中「组」中「零」）大于「界」则（「工作组屏障」于「元」）否则「元」）；「元」", False),
    ("（若（「号」中「序」）大于「界」则（「工作组屏障」于「元」）否则「元」）；「元」", True),
    ("「工作组屏障」于「元」；（若（「读共享数组」于「共」于「界」）大于「界」则（「工作组屏障」于「元」）否则「元」）；「元」", False),
    ("「工作组屏障」于「元」；（若（「读共享」于「单」）大于「界」则（「子组求和」于「界」）否则「界」）；「元」", False),
    ("「写共享」于「单」于「界」；（若（「读共享」于「单」）大于「界」则（「工作组屏障」于「元」）否则「元」）；「元」", True),
], ids=["uniform field", "varying field", "read after barrier", "scalar read after barrier", "read after write"])
def test_the_verdict_equals_tints_with_a_mixed_entry_struct_and_workgroup_reads(tmp_path, body, refused_by_both):
    ours, tint, wgsl = verdicts(body, tmp_path, "输入", MIXED)
    assert bool(ours) == refused_by_both, [e.message for e in ours]
    if tint is not None:
        assert bool(tint) == refused_by_both, (tint, wgsl)


# ---------------------------------------------------------------- the two scopes

SUM_HELPER = "「合」乃化「有」为「有」者也。\n「合」者得「u」而「写数组」于「数据」于「界」于（「子组求和」于「界」）也。\n\n"


def test_a_helper_with_a_subgroup_operation_needs_only_the_subgroup_together(tmp_path):
    cond = "（「子组求和」于「界」）大于「界」"
    accepted(tmp_path, kernel("局部调用序", f"　若{cond}则「合」于「元」否则「元」", SUM_HELPER))
    text = kernel("局部调用序", "　若「号」大于「界」则「合」于「元」否则「元」", SUM_HELPER)
    refused(tmp_path, text, "「合」于「元」", "调用「合」（它用到「子组求和」）须在子组内一致的控制流中执行", "局部调用序")


def test_a_barrier_under_a_subgroup_result_names_the_subgroup(tmp_path):
    text = kernel("局部调用序", f"　若（「子组求和」于「界」）大于「界」则{BARRIER}否则「元」")
    refused(tmp_path, text, BARRIER, "「工作组屏障」须在一致控制流中执行", "只在子组内一致，各子组不同")


def test_a_subgroup_result_of_a_varying_value_is_not_subgroup_uniform_for_wgsl(tmp_path):
    """WGSL's analysis (and Tint) let a subgroup result vary as its arguments do."""
    text = kernel("局部调用序", f"　若（「子组求和」于「号」）大于「界」则{SUBGROUP}否则「元」")
    refused(tmp_path, text, "「子组求和」于「界」）", "须在子组内一致的控制流中执行", "局部调用序")


@pytest.mark.parametrize("shuffle", ["子组上移洗牌", "子组下移洗牌"])
def test_the_delta_of_an_up_or_down_shuffle_must_be_uniform(tmp_path, shuffle):
    text = kernel("子组调用序", f"　「写数组」于「数据」于「号」于（「{shuffle}」于「号」于「号」）")
    error = refused(tmp_path, text, "「号」）", f"「{shuffle}」的第 2 个实参须在子组内一致", "子组调用序")
    assert (error.code, error.fields) == ("uniform-argument", {"实参": "2"})
    accepted(tmp_path, kernel("子组调用序", f"　「写数组」于「数据」于「号」于（「{shuffle}」于「号」于「界」）"))


def test_the_lane_of_a_broadcast_may_vary(tmp_path):
    """子组广播 and 子组洗牌 become subgroupShuffle (WGSL's subgroupBroadcast wants a constant lane),
    whose lane WGSL, MSL's simd_shuffle and PTX's shfl.idx let vary."""
    for name in ("子组广播", "子组洗牌"):
        accepted(tmp_path, kernel("子组调用序", f"　「写数组」于「数据」于「号」于（「{name}」于「号」于「号」）"))


def test_a_shuffle_mask_from_a_subgroup_result_is_uniform_enough(tmp_path):
    accepted(tmp_path, kernel("子组调用序",
                              "　「写数组」于「数据」于「号」于（「子组异或洗牌」于「号」于（「子组求和」于「界」））"))


# ---------------------------------------------------------------- fragments: derivatives and implicit-level sampling

FRAGMENT = """寻观「点染」之「点染本」之书。

「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「近」乃「采样器」也。
「近」者「采样器绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。
「深」乃「深度纹理二维」也。
「深」者「深度纹理绑定」于（「组值」【「组」者「零」也，「号」者「二」也】）也。
「比」乃「比较采样器」也。
「比」者「比较采样器绑定」于（「组值」【「组」者「零」也，「号」者「三」也】）也。
「移」乃「均匀缓冲」于「二维无」也。
「移」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「四」也】）也。
「叠」乃「纹理二维数组」于「浮三二」也。
「叠」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「五」也】）也。
「深叠」乃「深度纹理二维数组」也。
「深叠」者「深度纹理绑定」于（「组值」【「组」者「零」也，「号」者「六」也】）也。

「翻」乃化「片元坐标」为「片元颜色」者也。
「翻」者得「坐标」而
　令「uv」为「坐标」中「零」与「坐标」中「一」而
　令「c」为若{cond}
　　则{op}
　　否则「新浮三二」于「零」而
　「c」与「c」与「c」与「c」
也。

「翻项」乃「片元入口」也。
「翻项」者「片元入口项」于「翻」也。
"""
BIAS, LAYER = "（「新浮三二」于「零点五」）", "（「新无三二」于「一」）"
OFFSET = "（「新整三二」于「一」与「新整三二」于「零」）"
FRAGMENT_OPS = {
    "横差": "「横差」于（「坐标」中「零」）",
    "纵差": "「纵差」于（「坐标」中「一」）",
    **{name: f"「{name}」于（「坐标」中「零」）" for name in "横差细 横差粗 纵差细 纵差粗 滤宽 滤宽细 滤宽粗".split()},
    "采样纹理": "（「采样纹理」于「图」于「近」于「uv」）中「零」",
    "采样张纹理": "（「采样张纹理」于「叠」于「近」于「uv」于（「新无三二」于「一」））中「零」",
    "比较采样": "「比较采样」于「深」于「比」于「uv」于（「新浮三二」于「零点五」）",
    **{name: f"（「{name}」于{texture}于「近」于「uv」{args}）中「零」" for name, texture, args in (
        ("偏层采样纹理", "「图」", f"于{BIAS}"), ("偏层采样张纹理", "「叠」", f"于{LAYER}于{BIAS}"),
        ("偏移采样纹理", "「图」", f"于{OFFSET}"), ("偏移采样张纹理", "「叠」", f"于{LAYER}于{OFFSET}"),
        ("偏移偏层采样纹理", "「图」", f"于{BIAS}于{OFFSET}"),
        ("偏移偏层采样张纹理", "「叠」", f"于{LAYER}于{BIAS}于{OFFSET}"))},
    "偏移比较采样": f"「偏移比较采样」于「深」于「比」于「uv」于{BIAS}于{OFFSET}",
    "比较采样张纹理": f"「比较采样张纹理」于「深叠」于「比」于「uv」于{LAYER}于{BIAS}",
    "偏移比较采样张纹理": f"「偏移比较采样张纹理」于「深叠」于「比」于「uv」于{LAYER}于{BIAS}于{OFFSET}",
}
FRAGMENT_VARYING = "「坐标」中「零」大于（「新浮三二」于「一」）"
FRAGMENT_UNIFORM = "（「读均匀」于「移」）中「零」大于（「新无三二」于「一」）"


@pytest.mark.parametrize("op", FRAGMENT_OPS)
def test_a_fragment_derivative_or_sample_under_a_varying_branch_is_refused(tmp_path, op):
    text = FRAGMENT.format(cond=FRAGMENT_VARYING, op=FRAGMENT_OPS[op])
    needle = FRAGMENT_OPS[op].lstrip("（")
    refused(tmp_path, text, needle, f"「{op}」须在一致控制流中执行", f"条件“{FRAGMENT_VARYING}”各异",
            "「坐标」是入口输入「片元坐标」")


@pytest.mark.parametrize("op", FRAGMENT_OPS)
def test_a_fragment_derivative_or_sample_under_a_uniform_branch_is_accepted(tmp_path, op):
    accepted(tmp_path, FRAGMENT.format(cond=FRAGMENT_UNIFORM, op=FRAGMENT_OPS[op]))


# ---------------------------------------------------------------- cells passed to top-level functions

SET_HELPER = "「置」乃化（「格」于「无三二」）又化「无三二」为「有」者也。\n「置」者得「c」又得「v」而「写格」于「c」于「v」也。\n\n"


def cell_kernel(value: str) -> str:
    body = (f"　令「c」为「新格」于「界」而\n　「置」于「c」于{value}；\n"
            f"　若「读格」于「c」大于「界」则{BARRIER}否则「元」")
    return kernel("局部调用序", body, SET_HELPER)


def test_a_cell_a_helper_writes_a_varying_value_into_is_varying(tmp_path):
    """The WGSL back end refuses a cell parameter; 检查 judges the program for MSL and PTX."""
    refused(tmp_path, cell_kernel("「号」"), BARRIER, "须在一致控制流中执行", "「号」是入口输入「局部调用序」")
    _, _, errors = diagnostics(tmp_path, cell_kernel("「界」"))
    assert not errors, [e.message for e in errors]


def test_a_cell_passed_to_a_helper_that_branches_on_it_must_hold_a_uniform_value(tmp_path):
    helper = ("「等」乃化（「格」于「无三二」）为「有」者也。\n"
              f"「等」者得「c」而若「读格」于「c」大于「界」则{BARRIER}否则「元」也。\n\n")
    text = kernel("局部调用序", "　令「c」为「新格」于「号」而\n　「等」于「c」", helper)
    refused(tmp_path, text, "「c」\n也", "调用「等」的第 1 个实参须一致", "局部调用序")
    _, _, errors = diagnostics(tmp_path, kernel("局部调用序", "　令「c」为「新格」于「界」而\n　「等」于「c」", helper))
    assert not errors, [e.message for e in errors]


# ---------------------------------------------------------------- subgroup-matrix calls

MATRIX_SHARED = ("「单共」乃「工作组变量」于（「定长数组」于「浮三二」于「二五六」）也。\n"
                 "「单共」者「工作组共享」于「元」也。\n\n")
STORE = "「存矩阵片累」于「单共」于「界」于「界」于「m」"


@pytest.mark.parametrize("cond, refuse", [("「号」大于「界」", True), ("「界」大于（「新无三二」于「二」）", False)])
def test_a_subgroup_matrix_call_under_a_divergent_branch_is_refused(tmp_path, cond, refuse):
    body = f"　令「m」为「满矩阵片累」于（「新浮三二」于「零」）而\n　若{cond}则{STORE}否则「元」"
    text = kernel("局部调用序", body, MATRIX_SHARED)
    if refuse:
        refused(tmp_path, text, STORE, "「存矩阵片累」须在一致控制流中执行", f"条件“{cond}”各异", "局部调用序")
        return
    ws, path, errors = diagnostics(tmp_path, text)
    assert not errors, [e.message for e in errors]
    assert translate(ws, path, "msl").text is not None


# ---------------------------------------------------------------- the language server

def test_the_lsp_diagnostic_relates_the_condition_and_the_source(tmp_path):
    """In the editor the condition and where the varying value comes from are the
    diagnostic's related information, each at its own range."""
    from zhuose.server.diagnostics import check_diagnostics, to_lsp
    from zhuose.server.project import Project
    cond = "「号」大于「界」"
    text = kernel("局部调用序", f"　若{cond}则{BARRIER}否则「元」")
    file = tmp_path / "程序。着色器。豫"
    file.write_text(text, encoding="utf-8")
    p = Project(tmp_path)
    key = p.open(file.as_uri(), 1, text)
    (error,) = [to_lsp(p, d) for d in check_diagnostics(p, key) if d.severity == "错误"]
    assert (error.range.start.line + 1, error.range.start.character + 1) == position(text, BARRIER)
    related = [((r.location.range.start.line + 1, r.location.range.start.character + 1),
                r.location.range.end.character - r.location.range.start.character, r.message)
               for r in error.related_information or []]
    assert [(at, length) for at, length, _ in related] == [
        (position(text, cond), len(cond)), (position(text, "「号」而\n"), len("「号」"))]   # the parameter 得「号」
    assert "条件“「号」大于「界」”各异" in related[0][2]
    assert "局部调用序" in related[1][2]
    assert all(r.location.uri == file.as_uri() for r in error.related_information)


# ---------------------------------------------------------------- every operation that needs uniform control flow

def _subgroup_use(name: str) -> str:
    args = {"子组任一": "「阳」", "子组全都": "「阳」", "子组投票": "「阳」", "子组选一": "「元」"}.get(name, "「界」")
    if name in ("子组广播", "子组洗牌", "子组异或洗牌", "子组上移洗牌", "子组下移洗牌"):
        args += "于「界」"
    if name == "四组广播":       # its lane is a written number (WGSL's quadBroadcast wants a constant)
        args += "于（「新无三二」于「一」）"
    return f"「{name}」于{args}"


#: every subgroup operation, each used as a value the branch computes
SUBGROUP_USES = {name: _subgroup_use(name) for name in sorted(registry.of_kind("subgroup"))}
#: a subgroup-matrix and a tensor-fragment call (a tensor fragment needs a workgroup of 128)
WHOLE_GROUP_USES = {
    "满矩阵片累": ("「满矩阵片累」于（「新浮三二」于「零」）", "六四"),
    "满张量片累": ("「满张量片累」于（「新浮三二」于「零」）", "一二八"),
}
VARYING_COND, UNIFORM_COND = "「号」大于「界」", "「界」大于（「新无三二」于「二」）"


def branch_kernel(cond: str, use: str, size: str = "六四") -> str:
    text = kernel("局部调用序", f"　若{cond}则（令「v」为{use}而「元」）否则「元」")
    return text.replace("「工作组大小」者「六四」", f"「工作组大小」者「{size}」")


def test_every_kind_that_needs_uniform_control_flow_is_tried():
    needing = {n for n in registry.TABLE if registry.needs_uniform_control(n)}
    tried = {"工作组屏障", "存储屏障", "存矩阵片累", *SUBGROUP_USES, *WHOLE_GROUP_USES, *FRAGMENT_OPS}
    assert tried <= needing
    assert {registry.get(n).kind for n in needing} == {registry.get(n).kind for n in tried}
    assert registry.of_kind("subgroup") <= tried
    assert {n for n in needing if registry.get(n).kind in ("derivative", "texture")} <= tried


@pytest.mark.parametrize("name", SUBGROUP_USES)
def test_every_subgroup_operation_under_a_varying_branch_is_refused(tmp_path, name):
    text = branch_kernel(VARYING_COND, SUBGROUP_USES[name])
    refused(tmp_path, text, f"「{name}」于", f"「{name}」须在子组内一致的控制流中执行",
            f"条件“{VARYING_COND}”各异", "「号」是入口输入「局部调用序」")


@pytest.mark.parametrize("name", SUBGROUP_USES)
def test_every_subgroup_operation_under_a_uniform_branch_is_accepted(tmp_path, name):
    accepted(tmp_path, branch_kernel(UNIFORM_COND, SUBGROUP_USES[name]))


@pytest.mark.parametrize("name", WHOLE_GROUP_USES)
def test_a_subgroup_matrix_or_tensor_fragment_under_a_varying_branch_is_refused(tmp_path, name):
    use, size = WHOLE_GROUP_USES[name]
    refused(tmp_path, branch_kernel(VARYING_COND, use, size), f"「{name}」于", f"「{name}」须在一致控制流中执行",
            f"条件“{VARYING_COND}”各异", "「号」是入口输入「局部调用序」")
    _, _, errors = diagnostics(tmp_path, branch_kernel(UNIFORM_COND, use, size))
    assert not errors, [e.message for e in errors]


# ---------------------------------------------------------------- across modules

LIBRARY = ("寻观「点染」之「点染本」之书。\n\n"
           "「等」乃化「有」为「有」者也。\n「等」者得「u」而「工作组屏障」于「u」也。\n\n"
           "「守」乃化「无三二」为「有」者也。\n"
           "「守」者得「n」而若「n」大于（「新无三二」于「三」）则「工作组屏障」于「元」否则「元」也。\n")


def imported_kernel(tmp_path, body: str, param: str = "局部调用序") -> str:
    (tmp_path / "包.json").write_text('{"名": "例", "依赖": ["点染"]}', encoding="utf-8")
    (tmp_path / "库。着色器。豫").write_text(LIBRARY, encoding="utf-8")
    return kernel(param, body).replace(HEAD, HEAD + "寻观「例」之「库」之书。\n\n", 1)


def test_an_imported_helper_that_waits_is_refused_at_its_call_in_a_divergent_branch(tmp_path):
    text = imported_kernel(tmp_path, "　若「号」大于「界」则「等」于「元」否则「元」")
    refused(tmp_path, text, "「等」于「元」", "调用「等」（它用到「工作组屏障」）须在一致控制流中执行",
            "条件“「号」大于「界」”各异", "局部调用序")
    accepted(tmp_path, imported_kernel(tmp_path, "　若「界」大于（「新无三二」于「二」）则「等」于「元」否则「元」"))


def test_an_imported_helpers_guarded_parameter_needs_a_uniform_argument(tmp_path):
    refused(tmp_path, imported_kernel(tmp_path, "　「守」于「号」"), "「号」\n也", "调用「守」的第 1 个实参须一致",
            "局部调用序")
    accepted(tmp_path, imported_kernel(tmp_path, "　「守」于（「号」中「零」）", "工作组号"))


def test_the_if_without_otherwise_is_judged_like_the_one_with(tmp_path):
    """「若 … 则 …」 (no 否则, of type 「有」) is the other form of 「若」."""
    text = kernel("局部调用序", f"　若{VARYING_COND}则{BARRIER}")
    refused(tmp_path, text, BARRIER, "须在一致控制流中执行", f"条件“{VARYING_COND}”各异", "入口输入「局部调用序」")
    accepted(tmp_path, kernel("局部调用序", f"　若{UNIFORM_COND}则{BARRIER}"))
