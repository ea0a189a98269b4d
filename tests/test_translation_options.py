"""The translation options (docs/后端.md〈翻译选项〉): `--快速数学` fuses a float
product that feeds a sum into one fused multiply-add on PTX and MSL and leaves
WGSL as it is; the defaults write exactly the goldens (exact rounding)."""

from __future__ import annotations

import re

import shutil
import subprocess

import numpy as np
import pytest

from support.ptx_runner import DEVICES, WS, compile_, entry, ptx_run, storage
from support.references import REFERENCES, SAMPLES
from zhuose.cli.main import main
from zhuose.compiler.backends import DEFAULT_OPTIONS, Options, translate

FAST = Options(fast_math=True)
PTXAS = shutil.which("ptxas")


def source(name: str) -> str:
    return str(SAMPLES / f"{name}。着色器。豫")


@pytest.mark.parametrize("target, suffix", [("ptx", "。千手"), ("msl", "。金属"), ("wgsl", ".wgsl")])
def test_the_defaults_write_the_goldens(target, suffix):
    for name in ("乘加", "矩阵向量积"):
        text = translate(WS, source(name), target, DEFAULT_OPTIONS).text
        assert text == (SAMPLES / f"{name}{suffix}").read_text(encoding="utf-8")
        assert "fma" not in text


def test_fast_math_fuses_the_product_into_the_sum_on_ptx():
    text = translate(WS, source("乘加"), "ptx", FAST).text
    assert "fma.rn.f32" in text and "mul.rn.f32" not in text and "add.rn.f32" not in text
    assert "fma.rn.f32" in translate(WS, source("矩阵向量积"), "ptx", FAST).text   # the dot product's sums


@pytest.mark.parametrize("name", ["乘加", "矩阵向量积"])
def test_fast_math_computes_the_same_numbers_on_the_emulator(name):
    REFERENCES[name](ptx_run(DEVICES["模拟"], FAST))


def _floats_and_halves(body: str, functions: str = "") -> str:
    """An entry 算 over 数 (浮三二) and 半 (浮十六) with a ＝ 数[i], h ＝ 半[i]; `body` its statements."""
    return (storage("数", "浮三二", 0) + storage("半", "浮十六", 1) + functions +
            "「算」乃化「全局调用号」为「有」者也。\n"
            "「算」者得「号」而\n　令「i」为「号」中「零」而\n"
            "　令「a」为「读数组」于「数」于「i」而\n"
            "　令「h」为「读数组」于「半」于「i」而\n" + body + "\n也。\n" + entry("算", "六四"))


def test_fast_math_fuses_differences_and_half_precision(tmp_path):
    """p − c is fma(x, y, −c) and c − p is fma(−x, y, c); f16 uses fma.rn.f16."""
    ws, path, default = compile_(tmp_path, _floats_and_halves(
        "　「写数组」于「数」于「i」于（（「a」乘「a」减「a」）减（「a」减「a」乘「a」））；\n"
        "　「写数组」于「半」于「i」于（「h」乘「h」加「h」）"))
    fast = translate(ws, path, "ptx", FAST)
    assert "fma" not in default.text
    assert fast.text.count("fma.rn.f32") == 2 and fast.text.count("fma.rn.f16") == 1
    assert fast.text.count("neg.f32") == 1      # −a, computed once for both


def test_fast_math_leaves_ptxas_free_to_fuse_through_lets_and_calls(tmp_path):
    """A product that reaches its sum through a 令 or a function (结构与记录's 缩放) is no operand
    of that 加: under --快速数学 the program's f32 and f16 +, −, × carry no .rn, which lets ptxas
    contract them as nvcc's code is; the default rounds each (mul.rn) and a ÷ stays div.rn."""
    ws, path, default = compile_(tmp_path, _floats_and_halves(
        "　令「p」为「h」乘「h」而\n"
        "　「写数组」于「数」于「i」于（「a」加「倍」于「a」于（「a」除（「新浮三二」于「三」））减「a」）；\n"
        "　「写数组」于「半」于「i」于（「p」加「h」）",
        "「倍」乃化「浮三二」又化「浮三二」为「浮三二」者也。\n「倍」者得「x」又得「k」而「x」乘「k」也。\n"))
    fast = translate(ws, path, "ptx", FAST).text
    assert "mul.rn.f32" in default.text and "mul.rn.f16" in default.text and "fma" not in default.text
    assert sorted(re.findall(r"\b(?:mul|add|sub)(?:\.rn)?\.f(?:32|16)\b", fast)) == \
        ["add.f16", "add.f32", "mul.f16", "mul.f32", "sub.f32"]
    assert "div.rn.f32" in fast


def test_fast_math_keeps_a_factor_of_one_a_plain_sum_that_ptxas_may_fuse():
    """工作组广播's R · (x, 1): the column times 1 is exact, so it is added, not fma'd with 1.0; the
    first product and that sum carry no .rn, so ptxas fuses the product into the sum (nvcc's FFMA)."""
    text = translate(WS, source("工作组广播"), "ptx", FAST).text
    assert not re.search(r"fma\.rn\.f32 [^;]*, 1\.0", text) and "mul.rn.f32" not in text
    assert len(re.findall(r"\tmul\.f32 ", text)) == 2 and len(re.findall(r"\tadd\.f32 ", text)) == 3


@pytest.mark.skipif(PTXAS is None, reason="跳过：PATH 上没有 ptxas，无法核对 PTX 能否汇编")
def test_fast_math_ptx_assembles(tmp_path):
    for name in ("乘加", "矩阵向量积", "分块矩阵乘"):
        ptx = tmp_path / f"{name}.ptx"
        ptx.write_text(translate(WS, source(name), "ptx", FAST).text, encoding="utf-8")
        done = subprocess.run([PTXAS, "-arch=sm_80", "--warning-as-error", str(ptx), "-o", str(tmp_path / "k.cubin")],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_fast_math_writes_fma_in_msl_and_leaves_wgsl():
    plain = Options(fast_math=True, bounds=False)
    assert "    乙[序] = fma(参.系数, 甲[序], 乙[序]);" in translate(WS, source("乘加"), "msl", plain).text
    assert "乙[序] = fma(参.系数, 序 < 数组长度[1] ? 甲[序] : float{}, " in translate(WS, source("乘加"), "msl", FAST).text
    assert translate(WS, source("乘加"), "wgsl", FAST).text == (SAMPLES / "乘加.wgsl").read_text(encoding="utf-8")


def test_the_command_line_asks_for_fast_math(capsys):
    assert main(["千手", "--快速数学", source("乘加")]) == 0
    assert "fma.rn.f32" in capsys.readouterr().out
    assert main(["千手", source("乘加")]) == 0
    assert "fma" not in capsys.readouterr().out
    assert main(["金属", "--快速数学", source("乘加")]) == 0
    assert "fma(" in capsys.readouterr().out


# ---------------------------------------------------------------- bounds safety (--不查界 turns it off)

UNCHECKED = Options(bounds=False)


def test_msl_checks_every_index_by_default():
    checked = translate(WS, source("加倍"), "msl").text
    assert "if (序 < 数组长度[0]) 数据[序] = (序 < 数组长度[0] ? 数据[序] : uint{}) * 2u;" in checked
    assert "constant uint* 数组长度 [[buffer(30)]]" in checked
    assert translate(WS, source("加倍"), "msl").entries[0].host_details() == "数组长度缓冲=30：0=数据"
    unchecked = translate(WS, source("加倍"), "msl", UNCHECKED)
    assert "数组长度" not in unchecked.text and "  数据[序] = 数据[序] * 2u;" in unchecked.text
    assert unchecked.entries[0].host_details() == ""


def test_msl_checks_fixed_arrays_against_their_size_and_atomics_give_zero():
    text = translate(WS, source("共享直方图"), "msl").text
    assert "(值 % 16u) < 16u ? atomic_fetch_add_explicit(&共享桶[值 % 16u], 1u, memory_order_relaxed) : uint{}" in text
    assert "16u < 数组长度[1] ? atomic_fetch_max_explicit(&桶[16u]" in text


def test_ptx_without_bounds_checks_has_no_guards_and_no_lengths():
    checked = translate(WS, source("加倍"), "ptx")
    unchecked = translate(WS, source("加倍"), "ptx", UNCHECKED)
    assert re.search(r"@!?%p", checked.text) and "p_g0_b0_n" in checked.text    # a guarded access or skip
    assert not re.search(r"@!?%p", unchecked.text) and "p_g0_b0_n" not in unchecked.text
    assert [p.kind for p in unchecked.entries[0].params] == ["buffer"]


def test_the_command_line_turns_the_checks_off(capsys):
    assert main(["千手", "--不查界", source("加倍")]) == 0
    assert "p_g0_b0_n" not in capsys.readouterr().out
    assert main(["金属", "--不查界", source("加倍")]) == 0
    assert "数组长度" not in capsys.readouterr().out
    assert main(["金属", source("加倍")]) == 0
    assert "数组长度" in capsys.readouterr().out


def test_msl_doubling_past_the_count_leaves_the_rest_alone(tmp_path):
    """加倍 on ⌈7 ÷ 4⌉ = 2 threadgroups of 4 with a count of 7: the eighth
    invocation neither reads nor writes element 7 (a sentinel the host keeps
    past the count), as on PTX."""
    from support.metal_shim.runner import Kernel, Runner, require_clang
    require_clang(pytest)
    result = translate(WS, source("加倍"), "msl")
    x = np.arange(8, dtype=np.uint32) + np.uint32(2 ** 31 - 3)
    counts = np.zeros(32, np.uint32)
    counts[0] = 7
    out = Runner([Kernel("加倍", result.text, result.entries[0])], tmp_path).dispatch(
        "加倍", (2, 1, 1), {0: x.tobytes(), 30: counts.tobytes()})
    doubled = np.frombuffer(out[0], np.uint32)
    np.testing.assert_array_equal(doubled[:7], x[:7] * np.uint32(2))
    assert doubled[7] == x[7]


def test_ptx_skips_the_check_of_an_index_known_below_the_workgroup_size(tmp_path):
    """序 is below the workgroup size (the block is exactly .reqntid), and so are
    序 余 16 and 序 除 16 乘 16 加 序 余 16: no check against a 256-element
    workgroup array; 序 加 1 may reach 256 and keeps its check."""
    program = ("「共」乃「工作组变量」于（「定长数组」于「无三二」于「二五六」）也。\n"
               "「共」者「工作组共享」于「元」也。\n"
               "「算」乃化「局部调用序」为「有」者也。\n"
               "「算」者得「序」而\n"
               "　「写共享数组」于「共」于「序」于「序」；\n"
               "　「写共享数组」于「共」于（「序」除（「新无三二」于「一六」）乘（「新无三二」于「一六」）"
               "加「序」余（「新无三二」于「一六」））于「序」；\n"
               "　「写共享数组」于「共」于（「序」加（「新无三二」于「一」））于「序」\n也。\n"
               + entry("算", "二五六"))
    ws, path, result = compile_(tmp_path, program)
    stores = [line.strip() for line in result.text.splitlines() if "st.shared" in line and not line.endswith(", 0;")]
    assert [s.startswith("@") for s in stores] == [False, False, True], stores
