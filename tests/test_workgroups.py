"""Workgroups in two and three dimensions (an extension beyond the seed):
「工作组大小」者「八」与「八」也.  The checker's shape and its limits, and how each
target spells it; running them is tests/support/references.py's 二维模板 on every executor."""

from __future__ import annotations

import pytest

from support.frontend import check_text, messages
from zhuose.compiler import backends, ir
from zhuose.compiler.workspace import Workspace

FN = ("「主」乃化「局部调用序」为「有」者也。\n「主」者得「x」而「元」也。\n"
      "「口」乃「计算入口」也。\n「口」者「计算入口项」于「主」于（「组值」【「工作组大小」者{}也】）也。\n")


def entry(tmp_path, size: str) -> ir.Entry:
    ws, errors = check_text(tmp_path, FN.format(size))
    assert errors == []
    return next(d for d in ws.check(tmp_path / "测。着色器。豫").module.decls if isinstance(d, ir.Entry))


@pytest.mark.parametrize("size, shape", [("「六四」", (64, 1, 1)), ("「八」与「八」", (8, 8, 1)),
                                         ("「四」与「四」与「四」", (4, 4, 4)), ("「一」与「一」与「六四」", (1, 1, 64))])
def test_one_two_or_three_numbers(tmp_path, size, shape):
    e = entry(tmp_path, size)
    assert (e.workgroup_shape, e.workgroup_size) == (shape, shape[0] * shape[1] * shape[2])


@pytest.mark.parametrize("size, words", [
    ("「四」与「四」与「四」与「四」", ["「计算选项」", "工作组大小是一个、两个或三个整数"]),
    ("「六四」与「三二」", ["工作组大小须在 1 至 1024 之间，这里是 2048（64×32）"]),
    ("「一」与「一」与「一二八」", ["工作组的第三维至多 64，这里是 128"]),
    ("「八」与「零」", ["工作组大小须在 1 至 1024 之间，这里是 0"]),
    ("「八」与（「新无三二」于「八」）", ["元组须是向量", "「整数」与「无三二」"]),   # a typed number beside a literal
])
def test_shapes_beyond_the_limits_are_errors(tmp_path, size, words):
    msgs = messages(tmp_path, FN.format(size))
    assert all(w in msgs[0] for w in words), msgs
    assert len(msgs) == 1 or "元组须是向量" in msgs[1] and len(msgs) == 2, msgs


def test_each_target_spells_the_shape(tmp_path):
    check_text(tmp_path, FN.format("「八」与「四」与「二」"))
    ws = Workspace(tmp_path)
    path = str(next(tmp_path.glob("*。着色器。豫")))
    wgsl = backends.translate(ws, path, "wgsl")
    assert "@compute @workgroup_size(8, 4, 2)\n" in wgsl.text
    msl = backends.translate(ws, path, "msl")
    assert "[[max_total_threads_per_threadgroup(64)]]" in msl.text
    assert msl.entries[0].host_details() == "线程组=8×4×2"
    ptx = backends.translate(ws, path, "ptx")
    assert ".reqntid 8, 4, 2\n" in ptx.text and ptx.entries[0].block == (8, 4, 2)
    check_text(tmp_path, FN.format("「八」与「八」"))
    ws = Workspace(tmp_path)
    assert "@compute @workgroup_size(8, 8)\n" in backends.translate(ws, path, "wgsl").text
    assert ".reqntid 8, 8, 1\n" in backends.translate(ws, path, "ptx").text


# ---------------------------------------------------------------- atomics on workgroup memory

SHARED = ("「共」乃「工作组变量」于（「定长数组」于{}于「一六」）也。\n「共」者「工作组共享」于「元」也。\n"
          "「核」乃化「局部调用序」为「有」者也。\n「核」者得「i」而{}也。\n"
          "「口」乃「计算入口」也。\n「口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「一六」也】）也。\n")


@pytest.mark.parametrize("scalar", ["无三二", "整三二"])
def test_the_atomic_builtins_accept_a_workgroup_array_of_atomics(tmp_path, scalar):
    body = (f"「原子存」于「共」于「i」于（「新{scalar}」于「零」）；"
            f"「原子加」于「共」于「i」于（「新{scalar}」于「一」）；"
            f"「原子最大」于「共」于「i」于（「原子最小」于「共」于「i」于（「原子读」于「共」于「i」））；「元」")
    ws, errors = check_text(tmp_path, SHARED.format(f"（「原子」于「{scalar}」）", body))
    assert errors == []
    path = str(tmp_path / "测。着色器。豫")
    wgsl = backends.translate(ws, path, "wgsl").text
    assert f"var<workgroup> 共: array<atomic<{'u32' if scalar == '无三二' else 'i32'}>, 16>;" in wgsl
    assert "atomicAdd(&共[i], " in wgsl and "atomicStore(&共[yy_i]" in wgsl     # zeroed as an atomic
    msl = backends.translate(ws, path, "msl").text
    assert f"threadgroup array<atomic_{'uint' if scalar == '无三二' else 'int'}, 16> 共;" in msl
    ptx = backends.translate(ws, path, "ptx").text
    kind = "u32" if scalar == "无三二" else "s32"
    assert f"atom.shared.add.{kind}" in ptx and f"atom.shared.min.{kind}" in ptx and "ld.relaxed.cta.shared" in ptx
    assert "atom.global" not in ptx


def test_atomics_on_a_plain_workgroup_array_are_refused(tmp_path):
    msgs = messages(tmp_path, SHARED.format("「无三二」", "「原子加」于「共」于「i」于（「新无三二」于「一」）；「元」"))
    assert len(msgs) == 1 and "原子数组" in msgs[0] and "工作组变量里「原子」的「定长数组」" in msgs[0], msgs
