"""PTX translation of small programs written for these tests: each is
assembled by ptxas and run on the PTX emulator (through the libcuda stand-in
of support/ptx_runner.py), and checked against NumPy.  They cover what the
samples do not: WGSL integer division and shift rules, f16 math through f32,
vectors of bool, select, dynamic indices, bit casts of f16 pairs, loops whose
parameters swap, nested loops, short-circuit 且/或 guarding a read, groups
other than 0, uniform and workgroup structs, subgroup operations and builtin
inputs; and the messages for what the target refuses."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from support.ptx_runner import HEAD, build, compile_, entry, execute, storage


def line_column(source: str, needle: str) -> tuple[int, int]:
    """One-based line and column of `needle` in the file written for `source`."""
    before = (HEAD + source)[:(HEAD + source).index(needle)]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def errors_of(tmp_path: Path, source: str) -> list:
    ws, _, result = compile_(tmp_path, source)
    assert result.text is None
    return [(d.definition, d.format(ws.source(d.path), "程序")) for d in result.diagnostics]


# ---------------------------------------------------------------- integers

INTEGERS = (storage("甲", "整三二", 0, "只读") + storage("乙", "整三二", 1, "只读") + storage("出", "整三二", 2)
            + storage("无出", "无三二", 3) + """
「第」乃化「无三二」又化「无三二」为「无三二」者也。
「第」者得「i」又得「k」而「i」乘（「新无三二」于「四」）加「k」也。

「整数」乃化「全局调用号」为「有」者也。
「整数」者得「号」而
　令「i」为「号」中「零」而
　令「a」为「读数组」于「甲」于「i」而
　令「b」为「读数组」于「乙」于「i」而
　令「ua」为「新无三二」于「a」而
　令「ub」为「新无三二」于「b」而
　「写数组」于「出」于（「第」于「i」于（「新无三二」于「零」））于（「a」除「b」）；
　「写数组」于「出」于（「第」于「i」于（「新无三二」于「一」））于（「a」余「b」）；
　「写数组」于「出」于（「第」于「i」于（「新无三二」于「二」））于（「a」右移「ub」）；
　「写数组」于「出」于（「第」于「i」于（「新无三二」于「三」））于（「a」左移「ub」）；
　「写数组」于「无出」于（「第」于「i」于（「新无三二」于「零」））于（「ua」除「ub」）；
　「写数组」于「无出」于（「第」于「i」于（「新无三二」于「一」））于（「ua」余「ub」）；
　「写数组」于「无出」于（「第」于「i」于（「新无三二」于「二」））于（「ua」右移「ub」）；
　「写数组」于「无出」于（「第」于「i」于（「新无三二」于「三」））于（「ua」除（「新无三二」于「三」））
也。
""" + entry("整数", "八"))


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def test_integer_division_and_shifts_follow_wgsl(tmp_path):
    """x / 0 = x, x % 0 = 0, MIN / −1 = MIN, MIN % −1 = 0; shift amounts modulo 32."""
    low = -2 ** 31
    a = np.array([7, -7, 7, -7, 5, low, low, 12345, -1, 1 << 30, 3, -3, 100, low, 0, 9], np.int32)
    b = np.array([2, 2, -2, 0, 0, -1, 0, 32, 33, 1, 31, 31, -1, 2, 0, 100], np.int32)
    result = build(tmp_path, INTEGERS)
    out = execute(result, {(0, 0): a, (0, 1): b, (0, 2): np.zeros(64, np.int32), (0, 3): np.zeros(64, np.uint32)}, 2)
    signed_out, unsigned_out = out[(0, 2)].reshape(16, 4), out[(0, 3)].reshape(16, 4)
    for k, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        special = y == 0 or (x == low and y == -1)
        q = x if special else _trunc_div(x, y)
        r = 0 if special else x - _trunc_div(x, y) * y
        n = y & 31
        assert signed_out[k].tolist() == [np.int32(q), r, x >> n, np.int64(x << n).astype(np.uint32).view(np.int32)]
        ux, uy = x & 0xFFFFFFFF, y & 0xFFFFFFFF
        assert unsigned_out[k].tolist() == [ux if uy == 0 else ux // uy, 0 if uy == 0 else ux % uy, ux >> n, ux // 3]


CONVERSIONS = (storage("入", "浮三二", 0, "只读") + storage("出", "无三二", 1) + """
「转」乃化「全局调用号」为「有」者也。
「转」者得「号」而
　令「i」为「号」中「零」而
　令「x」为「读数组」于「入」于「i」而
　「写数组」于「出」于（「i」乘（「新无三二」于「二」））于（「转换」以「无三二」于「x」）；
　「写数组」于「出」于（「i」乘（「新无三二」于「二」）加（「新无三二」于「一」））于（「位转换」以「无三二」于（「新整三二」于「x」））
也。
""" + entry("转", "八"))


def test_float_to_integer_conversions_clamp_like_wgsl(tmp_path):
    """cvt.rzi saturates at the integer's maximum; WGSL clamps to the largest
    integer an f32 holds too: 4294967040 and 2147483520."""
    x = np.array([-5.7, 2.5, 5e9, -3e9, 1e30, -1e30, 3e9, 4294967040.0], np.float32)
    out = execute(build(tmp_path, CONVERSIONS), {(0, 0): x, (0, 1): np.zeros(16, np.uint32)}, 1)[(0, 1)]
    wide = x.astype(np.float64)
    as_u32 = np.trunc(np.clip(wide, 0, 4294967040.0)).astype(np.uint32)
    as_i32 = np.trunc(np.clip(wide, -2147483648.0, 2147483520.0)).astype(np.int32).view(np.uint32)
    np.testing.assert_array_equal(out.reshape(8, 2), np.stack([as_u32, as_i32], axis=1))


# ---------------------------------------------------------------- f16 math through f32

HALVES = (storage("半", "浮十六", 0, "只读") + storage("半出", "浮十六", 1) + """
「半数学」乃化「全局调用号」为「有」者也。
「半数学」者得「号」而
　令「i」为「号」中「零」而
　令「x」为「读数组」于「半」于「i」而
　令「壹」为「新浮十六」于「一」而
　令「c」为「夹紧」于「x」于（负「壹」）于「壹」而
　令「放」为得「k」又得「值」而「写数组」于「半出」于（「i」乘（「新无三二」于「八」）加（「新无三二」于「k」））于「值」而
　「放」于「零」于（「反正弦」于「c」）；
　「放」于「一」于（「反余弦」于「c」）；
　「放」于「二」于（「反正切」于「x」）；
　「放」于「三」于（「反正切二」于「x」于（「壹」减「x」））；
　「放」于「四」于（「平滑阶跃」于（负「壹」）于「壹」于「x」）；
　「放」于「五」于（「平方根」于（「绝对值」于「x」））；
　「放」于「六」于（「x」除（「绝对值」于「x」加「壹」））；
　「放」于「七」于（「小数部分」于「x」乘「x」）
也。
""" + entry("半数学", "八"))


def test_f16_math_goes_through_f32(tmp_path):
    x = np.array([-2.5, -1, -0.75, -0.1, 0, 0.1, 0.5, 0.999, 1, 1.5, 3, -3, 0.25, -0.25, 2, 7], np.float16)
    result = build(tmp_path, HALVES)
    assert "cvt.f32.f16" in result.text and "cvt.rn.f16.f32" in result.text
    got = execute(result, {(0, 0): x, (0, 1): np.zeros(128, np.float16)}, 2)[(0, 1)].reshape(16, 8)
    v = x.astype(np.float64)
    c = np.clip(v, -1, 1)
    t = np.clip((v + 1) / 2, 0, 1)
    want = np.stack([np.arcsin(c), np.arccos(c), np.arctan(v), np.arctan2(v, (1 - x).astype(np.float64)),
                     t * t * (3 - 2 * t), np.sqrt(np.abs(v)), v / (np.abs(v) + 1), (v - np.floor(v)) * v], 1)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-3, atol=2e-3)


# ---------------------------------------------------------------- vectors, select, indices, bit casts

VECTORS = (storage("向", "四维浮", 0, "只读") + storage("号出", "无三二", 1) + storage("浮出", "四维浮", 2) + """
「向量」乃化「全局调用号」为「有」者也。
「向量」者得「号」而
　令「i」为「号」中「零」而
　令「v」为「读数组」于「向」于「i」而
　令「k」为「i」余（「新无三二」于「四」）而
　令「w」为「v」中「三」与「v」中「二」与「v」中「一」与「v」中「零」而
　令「大」为「v」大于「w」而
　令「选」为「选择」于「w」于「v」于（「取元素」于「大」于「k」）而
　令「半」为「转换」以「四维半」于「v」而
　令「位」为「位转换」以「二维无」于「半」而
　令「回」为「位转换」以「四维半」于「位」而
　令「真」为「转换」以「四维无」于（「大」按位与（「非」于（「v」等于「w」）））而
　「写数组」于「浮出」于（「i」乘（「新无三二」于「三」））于「选」；
　「写数组」于「浮出」于（「i」乘（「新无三二」于「三」）加（「新无三二」于「一」））于
　　（「取元素」于「v」于「k」与「取元素」于「w」于「k」与「新浮三二」于（「取元素」于「真」于「k」）与「新浮三二」于「零」）；
　「写数组」于「浮出」于（「i」乘（「新无三二」于「三」）加（「新无三二」于「二」））于（「转换」以「四维浮」于「回」）；
　「写数组」于「号出」于（「i」乘（「新无三二」于「二」））于（「位」中「零」）；
　「写数组」于「号出」于（「i」乘（「新无三二」于「二」）加（「新无三二」于「一」））于（「位」中「一」）
也。
""" + entry("向量", "四"))


def test_vectors_select_dynamic_index_and_f16_bit_casts(tmp_path):
    rng = np.random.default_rng(4)
    v = rng.integers(-8, 8, (8, 4)).astype(np.float32) / 2
    v[1] = [1, 2, 2, 1]                                      # equal components
    result = build(tmp_path, VECTORS)
    out = execute(result, {(0, 0): v, (0, 1): np.zeros(16, np.uint32), (0, 2): np.zeros((24, 4), np.float32)}, 2)
    floats = out[(0, 2)].reshape(8, 3, 4)
    w = v[:, ::-1]
    bigger = v > w
    k = np.arange(8) % 4
    i = np.arange(8)
    np.testing.assert_array_equal(floats[:, 0], np.where(bigger[i, k][:, None], v, w))
    truth = (bigger & (v != w)).astype(np.float32)
    np.testing.assert_array_equal(floats[:, 1], np.stack([v[i, k], w[i, k], truth[i, k], np.zeros(8)], 1))
    np.testing.assert_array_equal(floats[:, 2], v.astype(np.float16).astype(np.float32))
    np.testing.assert_array_equal(out[(0, 1)].reshape(8, 2), v.astype(np.float16).view(np.uint32).reshape(8, 2))


# ---------------------------------------------------------------- loops and short circuits

LOOPS = (storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + """
「斐」乃化「无三二」为「无三二」者也。
「斐」者得「n」而
　令「环」为得「k」又得「a」又得「b」而
　　若「k」等于（「新无三二」于「零」）则「a」
　　否则「环」于（「k」减（「新无三二」于「一」））于「b」于（「a」加「b」）
　而「环」于「n」于（「新无三二」于「零」）于（「新无三二」于「一」）
也。

「换」乃化「无三二」为「二维无」者也。
「换」者得「n」而
　令「环」为得「k」又得「a」又得「b」而
　　若「k」大于（「新无三二」于「零」）则「环」于（「k」减（「新无三二」于「一」））于「b」于「a」
　　否则「a」与「b」
　而「环」于「n」于（「新无三二」于「七」）于（「新无三二」于「九」）
也。

「乘表」乃化「无三二」为「无三二」者也。
「乘表」者得「n」而
　令「外」为得「i」又得「和」而
　　若「i」小于「n」则（
　　　令「内」为得「j」又得「s」而
　　　　若「j」小于「i」则「内」于（「j」加（「新无三二」于「一」））于（「s」加「i」乘「j」）否则「s」
　　　而「外」于（「i」加（「新无三二」于「一」））于（「内」于（「新无三二」于「零」）于「和」）
　　）
　　否则「和」
　而「外」于（「新无三二」于「零」）于（「新无三二」于「零」）
也。

「循环」乃化「全局调用号」为「有」者也。
「循环」者得「号」而
　令「i」为「号」中「零」而
　令「n」为「数组长度」于「入」而
　令「放」为得「k」又得「值」而「写数组」于「出」于（「i」乘（「新无三二」于「六」）加（「新无三二」于「k」））于「值」而
　令「正」为「i」小于「n」且（「读数组」于「入」于「i」）大于（「新无三二」于「零」）而
　令「零值」为「i」不小于「n」或（「读数组」于「入」于「i」）等于（「新无三二」于「零」）而
　令「m」为「i」余（「新无三二」于「一〇」）而
　令「对」为「换」于「m」而
　「放」于「零」于（「斐」于「m」）；
　「放」于「一」于（「对」中「零」）；
　「放」于「二」于（「对」中「一」）；
　「放」于「三」于（「乘表」于「m」）；
　「放」于「四」于（「新无三二」于「正」）；
　「放」于「五」于（「新无三二」于「零值」）
也。
""" + entry("循环", "三二"))


def test_loops_swaps_nesting_and_short_circuits(tmp_path):
    """64 threads, 32 input elements of exactly 128 bytes: a read past them
    would be outside the allocation, which the emulator refuses, so 且 and 或
    must not evaluate their right side there."""
    x = np.arange(32, dtype=np.uint32) % 3
    result = build(tmp_path, LOOPS)
    got = execute(result, {(0, 0): x, (0, 1): np.zeros(64 * 6, np.uint32)}, 2)[(0, 1)].reshape(64, 6)
    fib = [0, 1]
    while len(fib) < 10:
        fib.append(fib[-1] + fib[-2])
    for i in range(64):
        m = i % 10
        table = sum(a * b for a in range(m) for b in range(a))
        inside = i < 32
        assert got[i].tolist() == [fib[m], 7 if m % 2 == 0 else 9, 9 if m % 2 == 0 else 7, table,
                                   int(inside and x[i] > 0), int(not inside or x[i] == 0)], i


UNROLLED = (storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + """
「展」乃化「全局调用号」为「有」者也。
「展」者得「号」而
　令「i」为「号」中「零」而
　令「x」为「读数组」于「入」于「i」而
　令「短」为得「k」又得「s」而
　　若「k」小于（「新无三二」于「六」）则「短」于（「k」加（「新无三二」于「一」））于（（「s」乘（「新无三二」于「三」））加「k」）
　　否则「s」
　而
　令「长」为得「k」又得「s」而
　　若「k」小于（「新无三二」于「二〇」）则「长」于（「k」加（「新无三二」于「一」））于（「s」加（「k」乘「x」））
　　否则「s」
　而
　令「套」为得「a」又得「t」而
　　若「a」小于（「新无三二」于「三」）则（
　　　令「里」为得「b」又得「u」而
　　　　若「b」小于（「新无三二」于「四」）则「里」于（「b」加（「新无三二」于「一」））于（「u」加（「a」乘「b」）加「x」）
　　　　否则「u」
　　　而「套」于（「a」加（「新无三二」于「一」））于（「里」于（「新无三二」于「零」）于「t」）
　　）
　　否则「t」
　而
　「写数组」于「出」于（「i」乘（「新无三二」于「三」））于（「短」于（「新无三二」于「零」）于「x」）；
　「写数组」于「出」于（「i」乘（「新无三二」于「三」）加（「新无三二」于「一」））于（「长」于（「新无三二」于「零」）于「x」）；
　「写数组」于「出」于（「i」乘（「新无三二」于「三」）加（「新无三二」于「二」））于（「套」于（「新无三二」于「零」）于「x」）
也。
""" + entry("展", "三二"))


def test_loops_with_known_rounds_are_written_out_and_compute_the_same(tmp_path):
    """Six rounds, and three rounds of four, with a runtime value carried
    along, are written out (unroll.py); twenty rounds are past the budget and
    stay a loop.  The values are the loops' (u32, wrapping)."""
    result = build(tmp_path, UNROLLED)
    assert result.text.count("_loop:") == 1
    x = (np.arange(32, dtype=np.uint64) * 2654435761 % 2 ** 32).astype(np.uint32)
    got = execute(result, {(0, 0): x, (0, 1): np.zeros(96, np.uint32)}, 1)[(0, 1)].reshape(32, 3)
    for i, v in enumerate(x.tolist()):
        short = v
        for k in range(6):
            short = (short * 3 + k) % 2 ** 32
        long = (v + sum(k * v for k in range(20))) % 2 ** 32
        nested = (v + sum(a * b + v for a in range(3) for b in range(4))) % 2 ** 32
        assert got[i].tolist() == [short, long, nested], i


COUNTED = (storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + """
「数」乃化「全局调用号」为「有」者也。
「数」者得「号」而
　令「i」为「号」中「零」而
　令「n」为「i」余（「新无三二」于「一一」）而
　令「环」为得「k」又得「和」又得「积」而
　　若「k」小于「n」则「环」于（「k」加（「新无三二」于「一」））于（「和」加（「读数组」于「入」于「k」））
　　　于（「积」乘（「新无三二」于「三」）加「k」）
　　否则「和」乘（「新无三二」于「一〇〇〇」）加「积」
　而
　「写数组」于「出」于「i」于（「环」于（「i」余（「新无三二」于「三」））于（「新无三二」于「零」）于（「新无三二」于「一」））
也。
""" + entry("数", "三二"))


def test_a_counted_loop_runs_four_rounds_at_a_time_then_the_rest(tmp_path):
    """若 k 小于 n … k 加 1 with n the same every round: four rounds in one
    straight line while k + 3 < n, the loop for the rest (n from 0 to 10, k
    from 0 to 2, so some threads skip the four and some the loop).  The input
    has 8 elements: k from 8 on reads 0 (each read still checked)."""
    x = np.array([5, 7, 11, 13, 17, 19, 23, 29], np.uint32)
    result = build(tmp_path, COUNTED)
    assert "_by4:" in result.text and '.pragma "nounroll";' in result.text
    got = execute(result, {(0, 0): x, (0, 1): np.zeros(32, np.uint32)}, 1)[(0, 1)]
    for i in range(32):
        total, product = 0, 1
        for k in range(i % 3, i % 11):
            total += int(x[k]) if k < 8 else 0
            product = (product * 3 + k) % 2 ** 32
        assert got[i] == (total * 1000 + product) % 2 ** 32, i


OPTIONED = (storage("甲", "浮三二", 0, "只读") + storage("出", "浮三二", 1) + """
「乘加」乃化「全局调用号」为「有」者也。
「乘加」者得「号」而
　令「i」为「号」中「零」而
　「写数组」于「出」于「i」于（（「读数组」于「甲」于「i」）乘（「读数组」于「甲」于「i」）加（「新浮三二」于「一」））
也。

「乘加入口」乃「计算入口」也。
「乘加入口」者「计算入口项」于「乘加」于（「组值」【「工作组大小」者「三二」也，{options}】）也。
""")


def test_an_entry_item_sets_the_modules_translation_options(tmp_path):
    """「快速数学」者「阳」 and 「不查界」者「阳」 in the entry item's options are
    --快速数学 and --不查界 for the whole module (PTX and MSL); 阴 changes nothing."""
    from zhuose.compiler.backends import translate
    _, _, plain = compile_(tmp_path, OPTIONED.replace("，{options}", ""), "甲")
    assert "fma.rn.f32" not in plain.text and "setp.gt.u32" in plain.text
    ws, path, ptx = compile_(tmp_path, OPTIONED.replace("{options}", "「快速数学」者「阳」也，「不查界」者「阳」也"), "乙")
    assert "fma.rn.f32" in ptx.text and "setp.gt.u32" not in ptx.text
    msl = translate(ws, path, "msl").text
    assert "fma(" in msl and "数组长度" not in msl
    _, _, off = compile_(tmp_path, OPTIONED.replace("{options}", "「快速数学」者「阴」也"), "丙")
    assert off.text == plain.text


def test_an_entry_option_is_written_yang_or_yin(tmp_path):
    from zhuose.compiler.workspace import Workspace
    path = tmp_path / "程序。着色器。豫"
    path.write_text(HEAD + OPTIONED.replace("{options}", "「不查界」者（「一」等于「一」）也"), encoding="utf-8")
    messages = [d.message for d in Workspace(tmp_path).diagnostics(path)]
    assert "计算入口项的「不查界」须直接写「阳」或「阴」" in messages, messages


LEAPS = (storage("出", "无三二", 0) + """
「跳」乃化「全局调用号」为「有」者也。
「跳」者得「号」而
　令「i」为「号」中「零」而
　令「n」为「i」余（「新无三二」于「一〇」）而
　令「环」为得「k」又得「j」而
　　若「k」小于「n」则「环」于「j」于（「j」加（「新无三二」于「二」））否则「k」
　而
　「写数组」于「出」于「i」于（「环」于（「新无三二」于「零」）于（「新无三二」于「一」））
也。
""" + entry("跳", "三二"))


def test_a_loop_whose_counter_takes_another_variable_is_not_counted(tmp_path):
    """k takes j's value, not k 加 1: a plain loop, not four rounds at a time."""
    result = build(tmp_path, LEAPS)
    assert "_by4:" not in result.text
    got = execute(result, {(0, 0): np.zeros(32, np.uint32)}, 1)[(0, 0)]
    sequence = [0, 1, 3, 5, 7, 9, 11]
    assert got.tolist() == [next(v for v in sequence if v >= i % 10) for i in range(32)]


# ---------------------------------------------------------------- groups, uniform and workgroup structs

RESOURCES = """
「参类」即「组类」【「方向」乃「三维浮」也，「长度」乃「浮三二」也，「表」乃「定长数组」于「无三二」于「四」也】也。
「点类」即「组类」【「位置」乃「三维浮」也，「旗」乃「无三二」也】也。
「汇总类」即「组类」【「个数」乃「无三二」也，「和」乃「三维浮」也】也。
「共类」即「组类」【「旗」乃「爻」也，「值」乃「定长数组」于「浮三二」于「四」也】也。

「参」乃「均匀缓冲」于「参类」也。
「参」者「均匀绑定」于（「组值」【「组」者「一」也，「号」者「零」也】）也。
""" + storage("点", "点类", 2, group="一") + """
「汇总」乃「存储缓冲」于「汇总类」也。
「汇总」者「绑定」于（「组值」【「组」者「零」也，「号」者「五」也，「访问」者「读写」也】）也。

「共」乃「工作组变量」于「共类」也。
「共」者「工作组共享」于「元」也。
「块」乃「工作组变量」于（「定长数组」于「浮三二」于「四」）也。
「块」者「工作组共享」于「元」也。

「资源」乃化「局部调用序」为「有」者也。
「资源」者得「i」而
　令「p」为「读均匀」于「参」而
　令「n」为「数组长度」于「点」而
　（若「i」小于「n」则（
　　令「旧」为「读数组」于「点」于「i」而
　　「写数组」于「点」于「i」于（「组值」【「位置」者「旧」中「位置」加「p」中「方向」也，
　　　「旗」者「取元素」于（「p」中「表」）于（「i」余（「新无三二」于「四」））也】）
　））；
　（若「i」小于（「新无三二」于「四」）则「写共享数组」于「块」于「i」于（「p」中「长度」乘（「新浮三二」于「i」）））；
　「工作组屏障」于「元」；
　（若「i」等于（「新无三二」于「零」）则「写共享」于「共」于（「组值」【「旗」者「阳」也，「值」者「读共享」于「块」也】））；
　「工作组屏障」于「元」；
　若「i」等于（「新无三二」于「零」）则（
　　令「c」为「读共享」于「共」而
　　令「值」为「c」中「值」而
　　「写存储」于「汇总」于（「组值」【「个数」者「n」加（若「c」中「旗」则「新无三二」于「一〇〇」否则「新无三二」于「零」）也，
　　　「和」者「取元素」于「值」于（「新无三二」于「零」）与「取元素」于「值」于（「新无三二」于「一」）
　　　　与「取元素」于「值」于（「新无三二」于「二」）加「取元素」于「值」于「n」也】）
　）
也。
""" + entry("资源", "四")


def test_params_keep_group_order_without_placeholders(tmp_path):
    result = build(tmp_path, RESOURCES)
    [info] = result.entries
    assert [p.name for p in info.params] == ["p_g0_b5", "p_g1_b0", "p_g1_b2", "p_g1_b2_n"]
    assert [p.resource for p in info.params] == ["汇总", "参", "点", "点"]
    assert ".shared .align 4 .b8 ys_e5_85_b1[20];" in result.text      # 爻 (4 bytes) then four f32


def test_uniform_and_workgroup_structs_run(tmp_path):
    """点 has 6 elements but 4 threads run; 取元素 with an index past the end
    (n = 6 into four items) gives the first item."""
    params = np.zeros(4, np.float32)
    params[:3] = [1, 2, 3]                              # 方向, then 长度 at byte 12
    params[3] = 0.5
    table = np.array([10, 20, 30, 40], np.uint32)
    uniform = np.frombuffer(params.tobytes() + table.tobytes(), np.uint8)
    points = np.zeros((6, 4), np.float32)               # stride 16: 位置 at 0, 旗 at 12
    points[:, :3] = np.arange(18, dtype=np.float32).reshape(6, 3)
    result = build(tmp_path, RESOURCES)
    out = execute(result, {(1, 0): uniform, (1, 2): points, (0, 5): np.zeros(8, np.float32)}, 1)
    moved = out[(1, 2)]
    np.testing.assert_array_equal(moved[:4, :3], points[:4, :3] + [1, 2, 3])
    np.testing.assert_array_equal(moved[:4, 3].view(np.uint32), table)
    np.testing.assert_array_equal(moved[4:], points[4:])
    summary = out[(0, 5)]
    assert summary[:1].view(np.uint32)[0] == 6 + 100
    np.testing.assert_array_equal(summary[4:7], [0, 0.5, 1 + 0])


# ---------------------------------------------------------------- subgroups and builtin inputs

SUBGROUPS = storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + """
「调用类」即「组类」【「全」乃「全局调用号」也，「局」乃「局部调用号」也，「组」乃「工作组号」也，「数」乃「工作组数」也，
　「道」乃「子组调用序」也，「宽」乃「子组大小」也】也。

「子组」乃化「调用类」为「有」者也。
「子组」者得「调」而
　令「i」为「调」中「全」中「零」而
　令「x」为「读数组」于「入」于「i」而
　令「整」为「位转换」以「整三二」于「x」而
　令「放」为得「k」又得「值」而「写数组」于「出」于（「i」乘（「新无三二」于「一〇」）加（「新无三二」于「k」））于「值」而
　「放」于「零」于（「子组洗牌」于「x」于（「调」中「道」异或（「新无三二」于「三」）））；
　「放」于「一」于（「子组异或洗牌」于「x」于（「新无三二」于「五」））；
　「放」于「二」于（「子组最小」于「x」）；
　「放」于「三」于（「位转换」以「无三二」于（「子组最大」于「整」））；
　「放」于「四」于（「子组求和」于「x」）；
　「放」于「五」于（「子组广播」于「x」于（「新无三二」于「七」））；
　「放」于「六」于（「调」中「局」中「零」）；
　「放」于「七」于（「调」中「组」中「零」）；
　「放」于「八」于（「调」中「数」中「零」）；
　「放」于「九」于（「调」中「宽」）
也。
""" + entry("子组", "六四")


def test_subgroup_operations_and_builtin_inputs(tmp_path):
    rng = np.random.default_rng(9)
    x = rng.integers(0, 2 ** 32, 128, dtype=np.uint32)
    x[:5] = [0x80000000, 0xFFFFFFFF, 1, 0, 0x7FFFFFFF]
    result = build(tmp_path, SUBGROUPS)
    assert "shfl.sync.idx.b32" in result.text and "activemask" not in result.text
    got = execute(result, {(0, 0): x, (0, 1): np.zeros(1280, np.uint32)}, 2)[(0, 1)].reshape(128, 10)
    lanes = np.arange(128) % 32
    warps = x.reshape(4, 32)
    per_warp = lambda values: np.repeat(values, 32)
    base = np.arange(128) - lanes
    np.testing.assert_array_equal(got[:, 0], x[base + (lanes ^ 3)])
    np.testing.assert_array_equal(got[:, 1], x[base + (lanes ^ 5)])
    np.testing.assert_array_equal(got[:, 2], per_warp(warps.min(1)))
    np.testing.assert_array_equal(got[:, 3], per_warp(warps.view(np.int32).max(1)).view(np.uint32))
    np.testing.assert_array_equal(got[:, 4], per_warp(warps.sum(1, dtype=np.uint32)))
    np.testing.assert_array_equal(got[:, 5], per_warp(warps[:, 7]))
    np.testing.assert_array_equal(got[:, 6:], np.stack([np.arange(128) % 64, np.arange(128) // 64,
                                                        np.full(128, 2), np.full(128, 32)], 1))


# ---------------------------------------------------------------- what the target refuses


TEXTURE = """
「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
""" + storage("出", "无三二", 1) + """
「尺寸」乃化「全局调用号」为「有」者也。
「尺寸」者得「号」而「写数组」于「出」于（「号」中「零」）于（（「纹理尺寸」于「图」）中「零」）也。
""" + entry("尺寸", "四")


def test_textures_are_refused_with_file_position_and_definition(tmp_path):
    [(definition, text)] = errors_of(tmp_path, TEXTURE)
    assert definition == "尺寸"
    line, column = line_column(TEXTURE, "「纹理尺寸」")
    assert text.startswith(f"程序:{line}:{column}: 在「尺寸」中：千手目标不支持「纹理尺寸」"), text


VERTEX = """
「顶点」乃化「顶点序号」为「裁剪位置」者也。
「顶点」者得「序」而「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」也。
「顶点入口」乃「顶点入口」也。
「顶点入口」者「顶点入口项」于「顶点」也。
"""


def test_render_only_modules_are_an_error(tmp_path):
    [(definition, text)] = errors_of(tmp_path, VERTEX)
    assert definition == "顶点入口" and "千手目标只支持计算入口" in text


def test_vertex_entries_beside_compute_entries_become_a_comment(tmp_path):
    source = VERTEX + """
「空」乃化「全局调用号」为「有」者也。
「空」者得「号」而「元」也。
""" + entry("空", "一")
    result = build(tmp_path, source)
    assert "// vertex entry yy_e9_a1_b6_e7_82_b9 skipped: the PTX target has compute entries only\n" in result.text
    assert [e.item for e in result.entries] == ["空入口"]
    assert ".visible .entry yy_e7_a9_ba()\n.reqntid 1, 1, 1\n{\n" in result.text       # no buffers, no parameters


def test_a_cell_cannot_be_the_value_of_a_branch(tmp_path):
    source = storage("出", "无三二", 0) + """
「选格」乃化「全局调用号」为「有」者也。
「选格」者得「号」而
　令「甲」为「新格」于（「新无三二」于「一」）而
　令「乙」为「新格」于（「新无三二」于「二」）而
　令「c」为（若「号」中「零」等于（「新无三二」于「零」）则「甲」否则「乙」）而
　「写格」于「c」于（「新无三二」于「三」）；
　「写数组」于「出」于（「号」中「零」）于（「读格」于「甲」）
也。
""" + entry("选格", "四")
    [(definition, text)] = errors_of(tmp_path, source)
    assert definition == "选格" and "千手目标不支持以「格」作「若」的值" in text
    line, column = line_column(source, "（若「号」")
    assert text.startswith(f"程序:{line}:{column + 1}:"), text


def test_values_too_large_for_registers_are_refused(tmp_path):
    source = storage("出", "浮三二", 0) + """
「大块」乃「工作组变量」于（「定长数组」于「浮三二」于「八一九二」）也。
「大块」者「工作组共享」于「元」也。
「整块」乃化「全局调用号」为「有」者也。
「整块」者得「号」而
　令「全」为「读共享」于「大块」而
　「写数组」于「出」于（「号」中「零」）于（「取元素」于「全」于（「号」中「零」））
也。
""" + entry("整块", "四")
    [(definition, text)] = errors_of(tmp_path, source)
    assert definition == "整块" and "值太大" in text


# ---------------------------------------------------------------- every builtin on every type it takes

SCALARS = {"浮三二": "f", "浮十六": "h", "整三二": "s", "无三二": "u", "爻": "b"}
VECTORS3 = {"浮三二": "fv", "浮十六": "hv", "整三二": "sv", "无三二": "uv", "爻": "bv"}
NUMBERS, INTEGERS_, FLOATS = ("浮三二", "浮十六", "整三二", "无三二"), ("整三二", "无三二"), ("浮三二", "浮十六")
SIGNED, BITS, ALL = ("浮三二", "浮十六", "整三二"), ("整三二", "无三二", "爻"), tuple(SCALARS)
#: builtin → (scalar types it takes, arity, result: "same", "bool" or "element")
COVERAGE = {
    **{op: (NUMBERS, 2, "same") for op in "加 减 乘 除 余 最大 最小".split()},
    "绝对值": (NUMBERS, 1, "same"), "夹紧": (NUMBERS, 3, "same"),
    **{op: (INTEGERS_, 2, "same") for op in "左移 右移 异或".split()},
    **{op: (INTEGERS_, 1, "same") for op in "按位非 一位计数 位反转".split()},
    **{op: (BITS, 2, "same") for op in "按位与 按位或".split()},
    "非": (("爻",), 1, "same"), "负": (SIGNED, 1, "same"), "符号": (SIGNED, 1, "same"),
    **{op: (ALL, 2, "bool") for op in "等于 不等于".split()},
    **{op: (NUMBERS, 2, "bool") for op in "小于 大于 不大于 不小于".split()},
    **{op: (FLOATS, 1, "same") for op in """平方根 逆平方根 指数 指数二 对数 对数二 正弦 余弦 正切 双曲正切 反正弦 反余弦
        反正切 向下取整 向上取整 四舍五入 截断 小数部分 饱和""".split()},
    **{op: (FLOATS, 2, "same") for op in "幂 反正切二 阶跃".split()},
    **{op: (FLOATS, 3, "same") for op in "混合 平滑阶跃 融合乘加".split()},
    "长度": (FLOATS, 1, "element"), "距离": (FLOATS, 2, "element"),
}


def _coverage_program() -> str:
    lines, slot = [], 0

    def sink(expr: str, kind: str) -> None:
        nonlocal slot
        target, value = {"浮三二": ("出浮", expr), "浮十六": ("出浮", f"「新浮三二」于（{expr}）"),
                         "整三二": ("出整", expr), "无三二": ("出无", expr),
                         "爻": ("出无", f"「新无三二」于（{expr}）")}[kind]
        lines.append(f"　「写数组」于「{target}」于（「i」乘（「新无三二」于「{400}」）加（「新无三二」于「{slot}」））于（{value}）；")
        slot += 1

    def call(op: str, args: list[str]) -> str:
        return f"「{op}」" + "".join(f"于「{a}」" for a in args)

    for op, (types, arity, result) in COVERAGE.items():
        for t in types:
            for names, vector in ((SCALARS, False), (VECTORS3, True)):
                args = [names[t]] * arity
                if op in ("左移", "右移"):
                    args[1] = names["无三二"]
                expr = call(op, args)
                kind = "爻" if result == "bool" else t
                sink(f"（{expr}）中「零」" if vector and result != "element" else expr, kind)
    for t, v in VECTORS3.items():
        sink(f"（{call('选择', [v, v, 'b'])}）中「二」", t)
        sink(f"「取元素」于「{v}」于「i」", t)
        for target in SCALARS:
            sink(f"（「转换」以「三维{dict(zip(SCALARS, '浮半整无爻'))[target]}」于「{v}」）中「一」", target)
    for t in FLOATS:
        v = VECTORS3[t]
        sink(call("点积", [v, v]), t)
        sink(f"（{call('归一化', [v])}）中「一」", t)
        sink(f"（{call('叉积', [v, v])}）中「二」", t)
    for expr, kind in [("「位转换」以「无三二」于「f」", "无三二"), ("「位转换」以「浮三二」于「s」", "浮三二"),
                       ("（「位转换」以「二维半」于「u」）中「一」", "浮十六"),
                       ("「位转换」以「整三二」于（「h」与「h」）", "整三二"),
                       ("（「位转换」以「四维半」于（「u」与「u」））中「三」", "浮十六"),
                       ("（「位转换」以「二维无」于（「h」与「h」与「h」与「h」））中「一」", "无三二"),
                       ("「半精度打包」于（「f」与「f」）", "无三二"), ("（「半精度解包」于「u」）中「一」", "浮三二"),
                       ("（「矩阵乘」于（「fv」与「fv」与「fv」）于「fv」）中「二」", "浮三二"),
                       ("（（「转置」于（「fv」与「fv」与「fv」））中「一」）中「零」", "浮三二"),
                       ("「行列式」于（「fv」与「fv」与「fv」）", "浮三二"),
                       ("「行列式」于（「二列」与「二列」）", "浮三二")]:
        sink(expr, kind)
    body = "\n".join(lines)
    inputs = "".join(storage(n, t, k, "只读") for k, (n, t) in enumerate(
        [("F", "浮三二"), ("H", "浮十六"), ("S", "整三二"), ("U", "无三二")]))
    outputs = storage("出浮", "浮三二", 4) + storage("出整", "整三二", 5) + storage("出无", "无三二", 6)
    return inputs + outputs + f"""
「杂」乃化「全局调用号」为「有」者也。
「杂」者得「号」而
　令「i」为「号」中「零」而
　令「f」为「读数组」于「F」于「i」而
　令「h」为「读数组」于「H」于「i」而
　令「s」为「读数组」于「S」于「i」而
　令「u」为「读数组」于「U」于「i」而
　令「b」为「f」大于（「新浮三二」于「零」）而
　令「fv」为「f」与「f」与「f」而
　令「hv」为「h」与「h」与「h」而
　令「sv」为「s」与「s」与「s」而
　令「uv」为「u」与「u」与「u」而
　令「bv」为「b」与「b」与「b」而
　令「二列」为「f」与「f」而
{body}
　「元」
也。
""" + entry("杂", "四"), slot


def test_every_builtin_on_every_type_assembles_and_runs(tmp_path):
    source, slots = _coverage_program()
    assert slots < 400
    result = build(tmp_path, source)
    for instruction in ("div.rn.f32", "rem.u32", "div.s32", "shr.s32", "setp.neu.f32", "setp.ne.u32", "xor.pred",
                        "selp.b16", "max.f16", "neg.f16", "fma.rn.f16", "cvt.rzi.u32.f16", "cvt.rn.f16.s32",
                        "cvt.sat.f32.f32", "tanh.approx.f32", "popc.b32", "brev.b32", "mov.b32 {"):
        assert instruction in result.text, instruction
    x = np.array([0.5, -1.25, 3, 0.0], np.float32)
    out = execute(result, {(0, 0): x, (0, 1): x.astype(np.float16), (0, 2): np.array([3, -7, 1, 0], np.int32),
                           (0, 3): np.array([5, 2, 0xFFFFFFFF, 0], np.uint32), (0, 4): np.zeros(1600, np.float32),
                           (0, 5): np.zeros(1600, np.int32), (0, 6): np.zeros(1600, np.uint32)}, 1)
    assert out[(0, 4)].any() and out[(0, 5)].any() and out[(0, 6)].any()


HALF_SUBGROUPS = storage("入", "浮十六", 0, "只读") + storage("出", "四维半", 1) + storage("对", "二维半", 2) + """
「半子组」乃化「全局调用号」为「有」者也。
「半子组」者得「号」而
　令「i」为「号」中「零」而
　令「h」为「读数组」于「入」于「i」而
　令「距」为「新无三二」于「1」而
　「写数组」于「出」于「i」于（「子组上移洗牌」于「h」于「距」与「子组下移洗牌」于「h」于「距」
　　与「子组广播首个」于「h」与「子组最小」于「h」）；
　「写数组」于「对」于「i」于（「子组求积」于（「h」与「h」）加「子组排他前缀积」于（「h」与「h」））
也。
""" + entry("半子组", "四〇")


def test_f16_subgroup_values_ride_in_32_bit_words(tmp_path):
    """Issue 12: f16 shuffles, broadcast-first, min and products (butterfly and
    scan) through 32-bit shuffles, in a 40-thread block (the second warp has 8 lanes)."""
    h = (np.array([1, 1, 1, 2, 1, 1, 1, 1] * 5) * (-1) ** np.arange(40)).astype(np.float16)
    result = build(tmp_path, HALF_SUBGROUPS)
    assert "mov.b32" in result.text and "shfl.sync.up.b32" in result.text
    out = execute(result, {(0, 0): h, (0, 1): np.zeros((40, 4), np.float16), (0, 2): np.zeros((40, 2), np.float16)}, 1)
    got, pairs = out[(0, 1)], out[(0, 2)]
    tid = np.arange(40)
    lane, first, count = tid % 32, tid - tid % 32, np.where(tid < 32, 32, 8)
    np.testing.assert_array_equal(got[lane >= 1, 0], h[(tid - 1)[lane >= 1]])
    np.testing.assert_array_equal(got[lane + 1 < count, 1], h[(tid + 1)[lane + 1 < count]])
    np.testing.assert_array_equal(got[:, 2], h[first])
    np.testing.assert_array_equal(got[:, 3], [h[f:f + c].min() for f, c in zip(first, count)])
    product = np.array([np.prod(h[f:f + c], dtype=np.float32) for f, c in zip(first, count)])
    exclusive = np.array([np.prod(h[f:t], dtype=np.float32) for f, t in zip(first, tid)])
    np.testing.assert_array_equal(pairs, np.repeat((product + exclusive).astype(np.float16)[:, None], 2, 1))


EDGE_SUBGROUPS = (storage("入", "浮三二", 0, "只读") + storage("对", "二维半", 1, "只读") + storage("无", "无三二", 2, "只读")
                  + storage("浮出", "四维浮", 3) + storage("半出", "四维半", 4) + storage("无出", "四维无", 5)
                  + storage("三出", "四维半", 6) + storage("数出", "四维无", 7) + """
「边」乃化「全局调用号」为「有」者也。
「边」者得「号」而
　令「i」为「号」中「零」而
　令「x」为「读数组」于「入」于「i」而
　令「h」为「读数组」于「对」于「i」而
　令「u」为「读数组」于「无」于「i」而
　令「半扫」为「子组前缀和」于「h」而
　令「半和」为「子组求和」于「h」而
　「写数组」于「浮出」于「i」于（「子组求和」于「x」与「子组最大」于「x」与「子组前缀和」于「x」与「子组排他前缀和」于「x」）；
　「写数组」于「半出」于「i」于（「半扫」中「零」与「半扫」中「一」与「半和」中「零」与「半和」中「一」）；
　「写数组」于「无出」于「i」于（「子组排他前缀和」于「u」与「子组前缀和」于「u」与「子组求积」于「u」与「子组排他前缀积」于「u」）；
　令「移」为「子组下移洗牌」于（「h」中「零」与「h」中「一」与（「h」中「一」减「h」中「零」））于（「新无三二」于「三」）而
　「写数组」于「三出」于「i」于（「移」中「零」与「移」中「一」与「移」中「二」与「子组广播首个」于（「h」中「一」））；
　令「奇」为（「u」按位与（「新无三二」于「一」））等于（「新无三二」于「一」）而
　令「一或零」为「选择」于（「新无三二」于「零」）于（「新无三二」于「一」）于「奇」而
　令「二或零」为「选择」于（「新无三二」于「零」）于（「新无三二」于「二」）于「奇」而
　「写数组」于「数出」于「i」于（「子组前缀和」于「一或零」与「子组排他前缀和」于「一或零」与
　　「子组排他前缀和」于「二或零」与「子组求和」于「一或零」）
也。
""" + entry("边", "四〇"))


def _warps(values: np.ndarray, size: int = 40):
    """A 40-thread block's values cut into its warps: 32 lanes, then 8."""
    return [values[start:min(start + 32, size)] for start in range(0, size, 32)]


def _hillis_steele(values: np.ndarray) -> np.ndarray:
    """The writer's inclusive scan, step by step in the values' own type."""
    total, lane = values.copy(), np.arange(len(values))
    for d in (1, 2, 4, 8, 16):
        moved = np.concatenate([total[:d], total[:-d]]) if d < len(total) else total
        total = np.where(lane >= d, total + moved, total)
    return total


def _butterfly(values: np.ndarray) -> np.ndarray:
    """The writer's butterfly reduction: lane ^ d past the warp's end is not combined."""
    total, lane = values.copy(), np.arange(len(values))
    for d in (16, 8, 4, 2, 1):
        partner = lane ^ d
        there = partner < len(values)
        total = np.where(there, total + total[np.where(there, partner, lane)], total)
    return total


def test_subgroup_edges_in_a_partial_warp(tmp_path):
    """A missing lane is left out, not folded in as an identity: −0.0 sums stay −0.0 in the
    8-lane warp and in lane 0's scan (+0.0 is no identity of IEEE addition); vec2<f16> scans
    and reductions move one word per step and add it as f16x2, each half rounding as f16;
    u32 exclusive sums (inclusive − x) and products wrap; scans of a select between 0 and 1
    count the ballot's bits below the lane (or at it)."""
    x = np.arange(40, dtype=np.float32) - 12
    x[0], x[32:] = -0.0, -0.0
    rng = np.random.default_rng(5)
    pairs = (rng.random((40, 2)) * [300, 7] + [100, -3]).astype(np.float16)   # sums round, never overflow
    u = rng.integers(0, 2 ** 32, 40, dtype=np.uint32)
    u[:3], u[32:35] = [0xFFFFFFFF, 1, 0x80000000], [0xFFFFFFFF, 0xFFFFFFFF, 2]
    result = build(tmp_path, EDGE_SUBGROUPS)
    body = result.text[result.text.index("shfl.sync"):]
    assert "bfe.u32" not in body and "setp.lt.u32" in body and body.count("selp.") == 2 + 2   # lane 0s, 选择s
    assert body.count("add.rn.f16x2") == 10 and "add.rn.f16 " not in body and "sub.u32" in body
    assert "%lanemask_le" in body and body.count("%lanemask_lt") == 1     # 0/1 sums count; 0/2 ones do not
    out = execute(result, {(0, 0): x, (0, 1): pairs, (0, 2): u, (0, 3): np.zeros((40, 4), np.float32),
                           (0, 4): np.zeros((40, 4), np.float16), (0, 5): np.zeros((40, 4), np.uint32),
                           (0, 6): np.zeros((40, 4), np.float16), (0, 7): np.zeros((40, 4), np.uint32)}, 1)
    floats, halves, words, moved, counts = out[(0, 3)], out[(0, 4)], out[(0, 5)], out[(0, 6)], out[(0, 7)]
    per_lane = lambda f: np.concatenate([f(w) for w in _warps(x)])
    expected = np.stack([per_lane(lambda w: np.full(len(w), w.sum(dtype=np.float32) if w.any() else w[0])),
                         per_lane(lambda w: np.full(len(w), w.max())),
                         per_lane(_hillis_steele),
                         per_lane(lambda w: np.concatenate([[np.float32(0)], _hillis_steele(w)[:-1]]))], 1)
    np.testing.assert_array_equal(floats.view(np.uint32), expected.astype(np.float32).view(np.uint32))
    for half in (0, 1):
        column = pairs[:, half]
        np.testing.assert_array_equal(halves[:, half].view(np.uint16),
                                      np.concatenate([_hillis_steele(w) for w in _warps(column)]).view(np.uint16))
        np.testing.assert_array_equal(halves[:, 2 + half].view(np.uint16),
                                      np.concatenate([_butterfly(w) for w in _warps(column)]).view(np.uint16))
    inclusive = np.concatenate([np.cumsum(w, dtype=np.uint32) for w in _warps(u)])
    products = np.concatenate([np.full(len(w), np.prod(w, dtype=np.uint32)) for w in _warps(u)])
    before = np.concatenate([np.concatenate([[1], np.cumprod(w, dtype=np.uint32)[:-1]]) for w in _warps(u)])
    exclusive = np.concatenate([np.concatenate([[0], np.cumsum(w, dtype=np.uint32)[:-1]]) for w in _warps(u)])
    np.testing.assert_array_equal(words, np.stack([exclusive, inclusive, products, before], 1).astype(np.uint32))
    triple = np.stack([pairs[:, 0], pairs[:, 1], pairs[:, 1] - pairs[:, 0]], 1)    # a vec3<f16>: a pair and a lone one
    tid = np.arange(40)
    there = tid % 32 + 3 < np.where(tid < 32, 32, 8)          # down 3 from a lane that exists
    np.testing.assert_array_equal(moved[there, :3].view(np.uint16), triple[tid[there] + 3].view(np.uint16))
    np.testing.assert_array_equal(moved[:, 3], pairs[tid - tid % 32, 1])
    odd = (u & 1).astype(np.uint32)
    scans = lambda values, shift: np.concatenate([np.cumsum(w) - w * shift for w in _warps(values)])
    np.testing.assert_array_equal(counts, np.stack([scans(odd, 0), scans(odd, 1), scans(2 * odd, 1),
                                                    np.concatenate([np.full(len(w), w.sum()) for w in _warps(odd)])], 1))


PLANE_SUBGROUPS = storage("入", "浮三二", 0, "只读") + storage("出", "浮三二", 1) + """
「面」乃化「局部调用序」为「有」者也。
「面」者得「局」而
　「写数组」于「出」于「局」于（「子组求和」于（「读数组」于「入」于「局」））
也。
「面入口」乃「计算入口」也。
「面入口」者「计算入口项」于「面」于（「组值」【「工作组大小」者「五」与「八」也】）也。
"""


def test_butterfly_partners_in_a_two_dimensional_workgroup(tmp_path):
    """A 5 × 8 workgroup: warps are cut from the local index x + 5y, the last one has 8 lanes;
    a partner exists where (index ^ d) < 40."""
    x = (np.arange(40) * np.where(np.arange(40) % 3, 1, -2)).astype(np.float32)
    result = build(tmp_path, PLANE_SUBGROUPS)
    assert "%tid.y" in result.text and "setp.lt.u32" in result.text and "bfe.u32" not in result.text
    got = execute(result, {(0, 0): x, (0, 1): np.zeros(40, np.float32)}, 1)[(0, 1)]
    np.testing.assert_array_equal(got, np.repeat([x[:32].sum(), x[32:].sum()], [32, 8]))


DIGITS = "零一二三四五六七八九"
UNSIGNED_DIVISORS = [1, 2, 3, 7, 10, 16, 641, 1000, 2 ** 31 + 1, 2 ** 32 - 1]
SIGNED_DIVISORS = [1, 2, 16, 2 ** 30, 3, 7, 10, 641, 1000, 2 ** 31 - 1, -1, -2, -3, -7, -16, -641, -(2 ** 31 - 1)]


def _numeral(n: int) -> str:
    return "".join(DIGITS[int(c)] for c in str(n))


def _signed_constant(d: int) -> str:
    literal = f"（「新整三二」于「{_numeral(abs(d))}」）"
    return literal if d >= 0 else f"（负{literal}）"


def _constant_divisions() -> str:
    writes = []
    for k, d in enumerate(UNSIGNED_DIVISORS):
        for j, op in enumerate(("除", "余")):
            writes.append(f"「写数组」于「无出」于（「i」乘（「新无三二」于「{_numeral(2 * len(UNSIGNED_DIVISORS))}」）加"
                          f"（「新无三二」于「{_numeral(2 * k + j)}」））于（「u」{op}（「新无三二」于「{_numeral(d)}」））")
    for k, d in enumerate(SIGNED_DIVISORS):
        for j, op in enumerate(("除", "余")):
            writes.append(f"「写数组」于「整出」于（「i」乘（「新无三二」于「{_numeral(2 * len(SIGNED_DIVISORS))}」）加"
                          f"（「新无三二」于「{_numeral(2 * k + j)}」））于（「s」{op}{_signed_constant(d)}）")
    return (storage("入", "无三二", 0, "只读") + storage("无出", "无三二", 1) + storage("整出", "整三二", 2) + """
「分」乃化「全局调用号」为「有」者也。
「分」者得「号」而
　令「i」为「号」中「零」而
　令「u」为「读数组」于「入」于「i」而
　令「s」为「位转换」以「整三二」于「u」而
　""" + "；\n　".join(writes) + "\n也。\n" + entry("分", "八"))


def test_division_by_constants_is_strength_reduced_and_exact(tmp_path):
    """Issue 27: u32 / and % by a constant become shifts, masks or a multiply-high
    by the magic number, i32 by a power of two shifts rounding toward zero, i32 by
    any other constant a signed multiply-high, negative divisors by negation (−1: MIN / −1
    is MIN, MIN % −1 is 0) — no div/rem (a software divide on the GPU) — and give WGSL's
    results at the edges."""
    x = np.array([0, 1, 2, 3, 6, 7, 15, 16, 17, 640, 641, 999, 1000, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1,
                  2 ** 32 - 2, 2 ** 32 - 1, 123456789, 0xDEADBEEF, 0x80000001 * 2 - 2 ** 32, 5, 0x7FFFFFFF, 9,
                  2 ** 32 - 3, 2 ** 32 - 7, 2 ** 32 - 21, 2 ** 32 - 641, 2 ** 32 - 642, 2 ** 32 - 1000,
                  2 ** 31 + 2, 2 ** 31 - 2, 2 ** 32 - 2 ** 30, 2 ** 30 * 3 + 7],
                 np.uint64).astype(np.uint32)
    result = build(tmp_path, _constant_divisions())
    assert not re.search(r"\b(div|rem)\.", result.text)
    nu, ns = 2 * len(UNSIGNED_DIVISORS), 2 * len(SIGNED_DIVISORS)
    out = execute(result, {(0, 0): x, (0, 1): np.zeros(nu * len(x), np.uint32),
                           (0, 2): np.zeros(ns * len(x), np.int32)}, -(-len(x) // 8))
    got_u, got_s = out[(0, 1)].reshape(len(x), nu), out[(0, 2)].reshape(len(x), ns)
    for i, u in enumerate(x.tolist()):
        assert got_u[i].tolist() == [v for d in UNSIGNED_DIVISORS for v in (u // d, u % d)], u
        s = u - 2 ** 32 if u >= 2 ** 31 else u
        wrapped = [(_trunc_div(s, d) + 2 ** 31) % 2 ** 32 - 2 ** 31 for d in SIGNED_DIVISORS]   # MIN / −1 is MIN
        assert got_s[i].tolist() == [v for d, q in zip(SIGNED_DIVISORS, wrapped) for v in (q, s - _trunc_div(s, d) * d)], s


FLOAT_REWRITES = (storage("入", "浮三二", 0, "只读") + storage("出", "浮三二", 1) + storage("整入", "整三二", 2, "只读")
                  + storage("整出", "整三二", 3) + """
「浮改」乃化「全局调用号」为「有」者也。
「浮改」者得「号」而
　令「i」为「号」中「零」而
　令「x」为「读数组」于「入」于「i」而
　令「放」为得「k」又得「值」而「写数组」于「出」于（「i」乘（「新无三二」于「一二」）加（「新无三二」于「k」））于「值」而
　「放」于「零」于（「x」除（「新浮三二」于「二」））；
　「放」于「一」于（「x」除（「新浮三二」于「零点二五」））；
　「放」于「二」于（「x」除（负（「新浮三二」于「八」）））；
　「放」于「三」于（「x」除（「新浮三二」于「三」））；
　「放」于「四」于（「x」乘（「新浮三二」于「一」））；
　「放」于「五」于（「x」乘（负（「新浮三二」于「一」）））；
　「放」于「六」于（「绝对值」于「x」加（「新浮三二」于「一」））；
　「放」于「七」于（「x」减（「新浮三二」于「零」））；
　「放」于「八」于（「x」乘「x」加（「新浮三二」于「一」））；
　「放」于「九」于（（「新浮三二」于「i」）加（「新浮三二」于（「新无三二」于「零」）））；
　「放」于「一〇」于（「x」加（「新浮三二」于「零」））；
　「放」于「一一」于（（「位转换」以「浮三二」于（「绝对值」于（「读数组」于「整入」于「i」）））加（「新浮三二」于「零」））；
　「写数组」于「整出」于「i」于（（「按位非」于（「读数组」于「整入」于「i」））加（「新整三二」于「一」））
也。
""" + entry("浮改", "八"))


def test_exact_float_rewrites_give_the_same_bits(tmp_path):
    """Issue 27: x ÷ ±2^k is x · 2^−k, x · 1 is x, x · (−1) is −x, x − 0 is x,
    x + 0 is x where x is never −0 (an integer converted; a loaded x keeps its
    add: −0 + 0 is +0, and so does an integer's bits: |−2³¹| is −0's), constants converted are folded, (~n) + 1 is −n — exact for every input (subnormals, ±0, ±∞, the largest
    floats); a sum is written add.f32 (no .rn) only where no operand is a
    product, so ptxas cannot fuse it (x·x + 1 keeps add.rn); x ÷ 3 stays a division."""
    x = np.array([0.0, -0.0, 1.0, -1.0, 3.0, 2.5, 1e-45, -1e-45, 1e-40, 5e-39, 1.1754944e-38, -1.1754942e-38,
                  3.4028235e38, -3.4028235e38, 1e38, np.inf, -np.inf, 7.0, 1e-20, 6e37, -2.0, 0.1, 1e30, 9.0],
                 np.float32)
    n = np.array([0, 1, -1, 2 ** 31 - 1, -2 ** 31, 12345, -7, 8] * 3, np.int32)
    result = build(tmp_path, FLOAT_REWRITES)
    text = result.text
    assert len(re.findall(r"\bdiv\.rn\.f32", text)) == 1
    assert re.search(r"mul\.rn\.f32 %r\d+, %r\d+, 0\.5;", text) and re.search(r"mul\.rn\.f32 %r\d+, %r\d+, 4\.0;", text)
    assert not re.search(r"mul\.rn\.f32 [^;]*, (1\.0|-1\.0);", text) and "neg.f32" in text
    assert re.search(r"abs\.f32 (%r\d+)[^\n]*\n\tadd\.f32 %r\d+, \1, 1\.0;", text)
    assert re.search(r"mul\.rn\.f32 (%r\d+)[^\n]*\n\tadd\.rn\.f32 %r\d+, \1, 1\.0;", text)
    assert "neg.s32" in text and "add.s32" not in text
    assert not re.search(r"cvt\.rn\.f32\.u32 %r\d+, 0;", text) and len(re.findall(r"add\.f32 %r\d+, %r\d+, 0\.0;", text)) == 2
    out = execute(result, {(0, 0): x, (0, 1): np.zeros(12 * len(x), np.float32), (0, 2): n,
                           (0, 3): np.zeros(len(n), np.int32)}, 3)
    with np.errstate(all="ignore"):
        want = np.stack([x / np.float32(2), x / np.float32(0.25), x / np.float32(-8), x / np.float32(3), x * np.float32(1),
                         x * np.float32(-1), np.abs(x) + np.float32(1), x - np.float32(0), x * x + np.float32(1),
                         np.arange(len(x), dtype=np.float32), x + np.float32(0),
                         np.abs(n.astype(np.int64)).astype(np.uint32).view(np.float32) + np.float32(0)], 1)
    np.testing.assert_array_equal(out[(0, 1)].reshape(len(x), 12).view(np.uint32), want.view(np.uint32))
    np.testing.assert_array_equal(out[(0, 3)], (~n.astype(np.int64) + 1).astype(np.int64).astype(np.uint32).view(np.int32))


SHARED_FIRST = storage("出", "无三二", 0) + """
「区」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。
「区」者「工作组共享」于「元」也。

「写后读」乃化「局部调用序」为「有」者也。
「写后读」者得「局」而
　「写共享数组」于「区」于「局」于「局」；
　{between}「工作组屏障」于「元」；
　「写数组」于「出」于「局」于（「读共享数组」于「区」于（「新无三二」于「六三」减「局」））
也。
""" + entry("写后读", "六四")


def test_workgroup_memory_written_first_is_not_cleared(tmp_path):
    """Issue 27: every invocation writes its own element, then all meet at a
    barrier before any reads: nothing can read before it is written, so the
    clearing loop and its barrier go (lower/loops.py); a read before the
    barrier keeps them."""
    result = build(tmp_path, SHARED_FIRST.format(between=""))
    assert result.text.count("bar.sync") == 1
    out = execute(result, {(0, 0): np.zeros(64, np.uint32)}, 1)[(0, 0)]
    np.testing.assert_array_equal(out, 63 - np.arange(64))
    early = build(tmp_path, SHARED_FIRST.format(between="「写数组」于「出」于「局」于（「读共享数组」于「区」于（「新无三二」于「零」））；\n　"))
    assert early.text.count("bar.sync") == 2


SHARED_VALUE = storage("出", "无三二", 0) + """
「表」乃「工作组变量」于（「定长数组」于「无三二」于「八」）也。
「表」者「工作组共享」于「元」也。

「移」乃化「全局调用号」为「有」者也。
「移」者得「号」而
　令「i」为「号」中「零」而
　令「j」为「i」加（「新无三二」于「一」）而
　若「i」小于（「新无三二」于「七」）则「写共享数组」于「表」于（「i」加（「新无三二」于「一」））于「i」；
　「工作组屏障」于「元」；
　「写数组」于「出」于「i」于（「读共享数组」于「表」于「j」）
也。
""" + entry("移", "一六")


def test_a_value_computed_once_keeps_no_bound_learnt_inside_a_branch(tmp_path):
    """The writer computes i 加 1 once (op() shares it); inside 若 i 小于 7 it is below 8, so 表[i 加 1]
    needs no check there — but after the branch the same register reads 表[j] for every i and must
    be checked (element 8 and on read 0; the emulator fails on any access outside 表)."""
    result = build(tmp_path, SHARED_VALUE)
    assert result.text.count("add.u32") == 1
    out = execute(result, {(0, 0): np.zeros(16, np.uint32)}, 1)[(0, 0)]
    expected = np.zeros(16, np.uint32)
    expected[:7] = np.arange(7)
    np.testing.assert_array_equal(out, expected)


# ---------------------------------------------------------------- element root 加 k

def _literal(n: int) -> str:
    return f"（「新无三二」于「{_numeral(n)}」）"


ROOT_PLUS_K = (storage("出", "无三二", 0) + storage("三出", "无三二", 1) + f"""
「偏」乃化「全局调用号」为「有」者也。
「偏」者得「号」而
　令「i」为「号」中「零」而
　令「上」为（「i」加{_literal(2 ** 30 - 1)}）乘{_literal(4)}而
　「写数组」于「出」于「上」于（「i」加{_literal(100)}）；
　「写数组」于「出」于（「上」加{_literal(1)}）于（「i」加{_literal(200)}）；
　「写数组」于「出」于（「上」加{_literal(3)}）于（「i」加{_literal(300)}）；
　令「三倍」为（「i」加{_literal((2 ** 32 - 1) // 3)}）乘{_literal(3)}而
　「写数组」于「三出」于（「三倍」加{_literal(1)}）于（「i」加{_literal(400)}）
也。
""" + entry("偏", "四"))


def test_element_root_plus_k_shares_roots_address_only_where_it_cannot_wrap(tmp_path):
    """(i + 2³⁰ − 1)·4 wraps to a multiple of 4 (2³² − 4 for i = 0, whose three
    writes fall outside; 0 and 4 for i = 1, 2), so 上 加 k, k < 4, cannot wrap:
    上's address plus 4k.  (i + (2³² − 1)/3)·3 is 2³² − 1 for i = 0, a multiple
    of 3 that adding 1 wraps to element 0: no offset there."""
    result = build(tmp_path, ROOT_PLUS_K)
    assert re.search(r"st\.global\.u32 \[%rd\d+\+4\]", result.text)
    assert re.search(r"st\.global\.u32 \[%rd\d+\+12\]", result.text)
    assert len(re.findall(r"\+\d+\]", result.text)) == 2
    out = execute(result, {(0, 0): np.zeros(8, np.uint32), (0, 1): np.zeros(8, np.uint32)}, 1)
    assert out[(0, 0)].tolist() == [101, 201, 0, 301, 102, 202, 0, 302]
    assert out[(0, 1)].tolist() == [400, 0, 0, 401, 0, 0, 402, 0]


CELL_VALUES = (storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + storage("数出", "无三二", 2) + f"""
「格值」乃化「全局调用号」为「有」者也。
「格值」者得「号」而
　令「i」为「号」中「零」而
　令「x」为「读数组」于「入」于「i」而
　令「c」为「新格」于{_literal(0)}而
　令「d」为「新格」于{_literal(0)}而
　令「e」为「新格」于{_literal(0)}而
　（若「x」大于{_literal(0)}则「写格」于「c」于{_literal(1)}）；
　（若「x」大于{_literal(5)}则「写格」于「d」于{_literal(2)}否则「写格」于「d」于{_literal(2)}）；
　「写数组」于「出」于（「i」乘{_literal(4)}加（「读格」于「c」））于{_literal(7)}；
　「写数组」于「出」于（「i」乘{_literal(4)}加（「读格」于「d」）加（「读格」于「c」））于{_literal(9)}；
　令「环」为得「k」而
　　若「k」小于「x」则（「写格」于「e」于（（「读格」于「e」）加{_literal(1)}）；「环」于（「k」加{_literal(1)}））
　而
　「环」于{_literal(0)}；
　「写数组」于「数出」于「i」于（「读格」于「e」）
也。
""" + entry("格值", "八"))


def test_a_cells_known_integer_holds_only_where_every_way_in_agrees(tmp_path):
    """A 格 written 1 in a 若 without 否则 may hold 0 or 1 after it; one
    written 2 in both branches holds 2; one counted up in a loop with a
    runtime trip count holds the count: each read gives what the thread wrote."""
    result = build(tmp_path, CELL_VALUES)
    x = np.array([0, 1, 6, 0, 9, 3, 0, 2], np.uint32)
    out = execute(result, {(0, 0): x, (0, 1): np.zeros(32, np.uint32), (0, 2): np.zeros(8, np.uint32)}, 1)
    expected = np.zeros(32, np.uint32)
    for i, v in enumerate(x.tolist()):
        expected[4 * i + (v > 0)] = 7
        expected[4 * i + 2 + (v > 0)] = 9
    np.testing.assert_array_equal(out[(0, 1)], expected)
    np.testing.assert_array_equal(out[(0, 2)], x)


ROWS = (storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + f"""
「行」乃化「全局调用号」为「有」者也。
「行」者得「号」而
　令「r」为「号」中「零」而
　令「行数」为「数组长度」于「入」除{_literal(4)}而
　若「r」小于「行数」则（
　　「写数组」于「出」于（「r」乘{_literal(4)}）于（「读数组」于「入」于（「r」乘{_literal(4)}））；
　　「写数组」于「出」于（「r」乘{_literal(4)}加{_literal(3)}）于（「读数组」于「入」于（「r」乘{_literal(4)}加{_literal(3)}））；
　　「写数组」于「出」于（「r」乘{_literal(4)}加{_literal(1)}）于（「读数组」于「入」于（「r」乘{_literal(4)}加{_literal(4)}））
　）
也。
""" + entry("行", "八"))


def test_a_row_below_the_length_over_c_needs_no_check_for_its_c_elements(tmp_path):
    """若 r 小于 数组长度 除 4: r·4 加 k for k < 4 lies inside (r·4 + 3 < ⌊n/4⌋·4 ≤ n) — those
    reads are unchecked; r·4 加 4 is the next row's first element, past the end for the last
    row (n = 9: rows 0 and 1, 入[8] is inside, 入[9] is not)."""
    result = build(tmp_path, ROWS)
    assert len(re.findall(r"@%p\d+ ld\.global", result.text)) == 1
    for n in (8, 9):
        x = np.arange(100, 100 + n, dtype=np.uint32)
        out = execute(result, {(0, 0): x, (0, 1): np.zeros(8, np.uint32)}, 1)[(0, 1)]
        expected = [100, 104, 0, 103, 104, 108 if n == 9 else 0, 0, 107]
        assert out.tolist() == expected, n


LENGTH_LET = (storage("入", "无三二", 0, "只读") + storage("别", "无三二", 1, "只读") + storage("出", "无三二", 2)
              + f"""
「步」乃化「全局调用号」为「有」者也。
「步」者得「号」而
　令「长」为「数组长度」于「入」而
　令「环」为得「序」又得「和」而
　　若「序」小于「长」则「环」于（「序」加{_literal(3)}）于（「和」加（「读数组」于「入」于「序」）加（「读数组」于「别」于「序」））
　　否则「和」
　而
　「写数组」于「出」于（「号」中「零」）于（「环」于（「号」中「零」）于{_literal(0)}）
也。
""" + entry("步", "八"))


def test_a_loop_below_a_let_of_the_array_length_reads_that_array_unchecked(tmp_path):
    """若 序 小于 长 with 长 a 令 of 数组长度 于 入: 入[序] needs no check in the round
    (the compare is the check); 别[序] still does, 别 being shorter (5 against 9)."""
    result = build(tmp_path, LENGTH_LET)
    assert len(re.findall(r"@%p\d+ ld\.global", result.text)) == 1
    x = np.arange(100, 109, dtype=np.uint32)
    y = np.arange(1, 6, dtype=np.uint32)
    out = execute(result, {(0, 0): x, (0, 1): y, (0, 2): np.zeros(8, np.uint32)}, 1)[(0, 2)]
    expected = [sum(int(x[k]) + (int(y[k]) if k < 5 else 0) for k in range(i, 9, 3)) for i in range(8)]
    assert out.tolist() == expected


NEXT_ELEMENT = storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + """
「块」乃「工作组变量」于（「定长数组」于「无三二」于「八」）也。
「块」者「工作组共享」于「元」也。

「邻」乃化「局部调用序」为「有」者也。
「邻」者得「局」而
　令「x」为「读数组」于「入」于「局」而
　「写共享数组」于「块」于「局」于（「局」乘（「新无三二」于「一〇」））；
　「工作组屏障」于「元」；
　若（「局」按位与（「新无三二」于「一」））等于（「新无三二」于「零」）且「局」加（「新无三二」于「一」）小于（「新无三二」于「八」）
　则「写数组」于「出」于「局」于（「读共享数组」于「块」于（「局」加（「新无三二」于「一」）））；
　若「x」加（「新无三二」于「一」）小于（「新无三二」于「八」）
　则「写数组」于「出」于（「局」加（「新无三二」于「八」））于（「读共享数组」于「块」于（「x」加（「新无三二」于「一」）））
也。
""" + entry("邻", "八")


def test_a_test_of_i_plus_one_below_n_proves_element_i_plus_one_inside(tmp_path):
    """局 加 1 小于 8 (under 且, 局 below 8 so the sum is exact): 块[局 加 1] needs no
    check; x 加 1 小于 8 for an x read from memory proves nothing of x (0xFFFFFFFF 加 1
    is 0), so 块[x 加 1] keeps its own test — and reads 块[0] there."""
    result = build(tmp_path, NEXT_ELEMENT)
    assert len(re.findall(r"@%p\d+ ld\.shared", result.text)) == 1
    x = np.array([0xFFFFFFFF, 6, 7, 2, 100, 0, 3, 5], np.uint32)
    out = execute(result, {(0, 0): x, (0, 1): np.zeros(16, np.uint32)}, 1)[(0, 1)]
    first = [10 * (i + 1) if i % 2 == 0 and i + 1 < 8 else 0 for i in range(8)]
    second = [10 * ((int(v) + 1) % 2 ** 32) if (int(v) + 1) % 2 ** 32 < 8 else 0 for v in x]
    assert out.tolist() == first + second


LOW_BITS = storage("出", "无三二", 0) + """
「低位」乃化「全局调用号」为「有」者也。
「低位」者得「号」而
　令「i」为「号」中「零」而
　令「n」为「i」余（「新无三二」于「一七」）而
　令「环」为得「k」又得「和」而
　　若「k」小于「n」则「环」于（「k」加（「新无三二」于「一」））于
　　　（「和」乘（「新无三二」于「五」）加（「k」按位与（「新无三二」于「三」））加（「k」按位与（「新无三二」于「一」）））
　　否则「和」
　而
　「写数组」于「出」于「i」于（「环」于（「新无三二」于「三」）于（「新无三二」于「零」））
也。
""" + entry("低位", "三二")


def test_four_rounds_from_a_known_start_know_the_counters_low_bits(tmp_path):
    """k from 3 by 1, four rounds at a time: k is 3 plus a multiple of 4 in each pass,
    so k 加 j 按位与 3 (and 按位与 1) is an immediate there; the rest loop computes them."""
    result = build(tmp_path, LOW_BITS)
    four = result.text[result.text.index("_by4:"):result.text.index("_rest:")]
    assert "and.b32" not in four
    got = execute(result, {(0, 0): np.zeros(32, np.uint32)}, 1)[(0, 0)]
    for i in range(32):
        total = 0
        for k in range(3, i % 17):
            total = (total * 5 + (k & 3) + (k & 1)) % 2 ** 32
        assert got[i] == total, i


HOISTED = storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + """
「提」乃化「全局调用号」为「有」者也。
「提」者得「号」而
　令「i」为「号」中「零」而
　令「n」为「i」余（「新无三二」于「一一」）而
　令「环」为得「k」又得「j」又得「和」而
　　若「k」小于「n」则「环」于（「k」加（「新无三二」于「一」））于（「j」加（「新无三二」于「二」））于
　　　（「和」乘（「新无三二」于「三」）加（「读数组」于「入」于（「j」乘（「新无三二」于「三」）加「k」））
　　　　加（「i」异或（「新无三二」于「七」））加（若（「i」按位与（「新无三二」于「四」））等于（「新无三二」于「零」）则「k」否则「j」））
　　否则「和」
　而
　「写数组」于「出」于「i」于（「环」于（「新无三二」于「零」）于（「i」余（「新无三二」于「三」））于（「新无三二」于「零」））
也。
""" + entry("提", "三二")


def test_a_counted_loop_computes_what_reads_no_loop_variable_once_before_it(tmp_path):
    """i 异或 7 and i 按位与 4 等于 0 read only i: computed before the loop, not in each
    round; j 乘 3, though the base of 入[j 乘 3 加 k], reads the loop's other variable and
    is computed every round."""
    result = build(tmp_path, HOISTED)
    before = result.text[:result.text.index("_by4:")]
    assert "xor.b32" in before and "xor.b32" not in result.text[result.text.index("_by4:"):]
    x = np.arange(1, 65, dtype=np.uint32) * 7
    got = execute(result, {(0, 0): x, (0, 1): np.zeros(32, np.uint32)}, 1)[(0, 1)]
    for i in range(32):
        total, j = 0, i % 3
        for k in range(i % 11):
            index = j * 3 + k
            total = (total * 3 + (int(x[index]) if index < 64 else 0) + (i ^ 7) + (k if i & 4 == 0 else j)) % 2 ** 32
            j += 2
        assert got[i] == total, i


SIXTEEN = storage("出", "无三二", 0) + """
「十六」乃化「全局调用号」为「有」者也。
「十六」者得「号」而
　令「i」为「号」中「零」而
　令「环」为得「k」又得「和」而
　　若「k」小于「i」则「环」于（「k」加（「新无三二」于「一」））于（「和」加（「k」按位与（「新无三二」于「一五」）））
　　否则「和」
　而
　「写数组」于「出」于「i」于（「环」于（「新无三二」于「三」）于「i」）
也。
""" + entry("十六", "六四")


def test_a_round_of_register_arithmetic_runs_sixteen_at_a_time(tmp_path):
    """和 加 (k 按位与 15), k from 3: a round that only computes its next values runs
    sixteen rounds as one line (nvcc's unroll), where k is 3 plus a multiple of 16, so
    each k 加 j 按位与 15 is an immediate; i from 0 to 63 takes zero to three passes and
    the rest in the rolled loop."""
    result = build(tmp_path, SIXTEEN)
    four = result.text[result.text.index("_by4:"):result.text.index("_rest:")]
    assert "and.b32" not in four and four.count("add.u32") >= 16
    got = execute(result, {(0, 0): np.zeros(64, np.uint32)}, 1)[(0, 0)]
    assert got.tolist() == [i + sum(k & 15 for k in range(3, i)) for i in range(64)]


LENGTH_TEST = storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + """
「隔」乃化「全局调用号」为「有」者也。
「隔」者得「号」而
　令「i」为「号」中「零」而
　令「环」为得「k」又得「和」而
　　若「k」小于（「数组长度」于「入」）则「环」于（「k」加（「新无三二」于「二」））于（「和」乘（「新无三二」于「三」）加（「读数组」于「入」于「k」））
　　否则「和」
　而
　「写数组」于「出」于「i」于（「环」于「i」于（「新无三二」于「零」））
也。
""" + entry("隔", "八")


def test_a_loop_tested_against_an_array_length_is_bottom_tested_and_reads_unchecked(tmp_path):
    """若 k 小于（数组长度 于 入）: the length is a register loaded once, so the test may be
    written twice — before the loop and at the end of each round (no jump back to a test
    at the top) — and 入[k] inside needs no check; 5 and 0 elements."""
    result = build(tmp_path, LENGTH_TEST)
    loop = result.text[result.text.index("_loop:"):]
    assert not re.search(r"@%p\d+ ld\.global", loop) and re.search(r"@%p\d+ bra L\d+_loop;", loop)
    for n in (5, 0):
        x = np.arange(10, 10 + n, dtype=np.uint32)
        out = execute(result, {(0, 0): x, (0, 1): np.zeros(8, np.uint32)}, 1)[(0, 1)]
        expected = []
        for i in range(8):
            total = 0
            for k in range(i, n, 2):
                total = total * 3 + int(x[k])
            expected.append(total)
        assert out.tolist() == expected, n


UNTIL_ZERO = storage("入", "无三二", 0, "只读") + storage("出", "无三二", 1) + """
「至零」乃化「全局调用号」为「有」者也。
「至零」者得「号」而
　令「i」为「号」中「零」而
　令「n」为「数组长度」于「入」而
　令「环」为得「k」又得「和」而
　　若「k」小于「n」且（「读数组」于「入」于「k」）不等于（「新无三二」于「零」）
　　则「环」于（「k」加（「新无三二」于「一」））于（「和」加（「读数组」于「入」于「k」））
　　否则「和」
　而
　「写数组」于「出」于「i」于（「环」于「i」于（「新无三二」于「零」））
也。
""" + entry("至零", "八")


def test_a_loop_tested_at_the_top_keeps_what_its_test_proves_in_the_round(tmp_path):
    """若 k 小于 n 且 入[k] 不等于 0 reads memory, so it is tested at the top of each round;
    in the round k 小于 n (n the length) still holds: 入[k] there needs no check (the
    one in the test keeps its own: 且 reads it only when k 小于 n)."""
    result = build(tmp_path, UNTIL_ZERO)
    assert len(re.findall(r"@%p\d+ ld\.global", result.text)) == 1
    x = np.array([4, 9, 0, 7, 1, 2], np.uint32)
    out = execute(result, {(0, 0): x, (0, 1): np.zeros(8, np.uint32)}, 1)[(0, 1)]
    expected = []
    for i in range(8):
        total, k = 0, i
        while k < 6 and x[k] != 0:
            total, k = total + int(x[k]), k + 1
        expected.append(total)
    assert out.tolist() == expected


KNOWN_TRIPS = storage("出", "无三二", 0) + """
「整轮」乃化「全局调用号」为「有」者也。
「整轮」者得「号」而
　令「i」为「号」中「零」而
　令「甲」为得「k」又得「和」而
　　若「k」小于（「新无三二」于「三五」）则「甲」于（「k」加（「新无三二」于「一」））于（「和」乘（「新无三二」于「三」）加（「k」异或「i」））
　　否则「和」乘（「新无三二」于「七」）
　而
　令「乙」为得「k」又得「和」而
　　若「k」小于（「新无三二」于「三六」）则「乙」于（「k」加（「新无三二」于「一」））于（「和」乘（「新无三二」于「三」）加（「k」异或「i」））
　　否则「和」乘（「新无三二」于「七」）
　而
　「写数组」于「出」于「i」于（「甲」于（「新无三二」于「三」）于「i」）；
　「写数组」于「出」于（「i」加（「新无三二」于「八」））于（「乙」于（「新无三二」于「三」）于「i」）
也。
""" + entry("整轮", "八")


def test_a_known_number_of_rounds_a_multiple_of_the_pass_leaves_no_rest_loop(tmp_path):
    """k from 3 below 35: 32 rounds, two passes of sixteen and nothing after them (no test
    before the first pass, no rest loop), then the loop's value 和 乘 7; below 36 the 33rd
    round is left to the rest loop."""
    result = build(tmp_path, KNOWN_TRIPS)
    assert result.text.count("_rest:") == 1 and result.text.count("_by4:") == 2
    got = execute(result, {(0, 0): np.zeros(16, np.uint32)}, 1)[(0, 0)]

    def run(i: int, n: int) -> int:
        total = i
        for k in range(3, n):
            total = (total * 3 + (k ^ i)) % 2 ** 32
        return total * 7 % 2 ** 32

    assert got.tolist() == [run(i, 35) for i in range(8)] + [run(i, 36) for i in range(8)]


SKIP_SELF = storage("入", "无三二", 0, "只读") + storage("旁", "无三二", 1, "只读") + storage("出", "无三二", 2) + """
「步」乃化「无三二」又化「无三二」为「无三二」者也。
「步」者得「和」又得「k」而「和」乘（「新无三二」于「三」）加（「读数组」于「入」于「k」）也。

「看」乃化「全局调用号」为「有」者也。
「看」者得「号」而
　令「i」为「号」中「零」而
　令「n」为「数组长度」于「入」而
　令「环」为得「k」又得「和」又得「个」而
　　若「k」小于「n」则（
　　　令「下」为「k」加（「新无三二」于「一」）而
　　　若「k」等于「i」
　　　则「环」于「下」于（「和」异或（「读数组」于「旁」于「k」））于「个」
　　　否则「环」于「下」于（「步」于「和」于「k」）于（「个」加「下」）
　　）
　　否则「和」加「个」
　而
　「写数组」于「出」于「i」于（「环」于（「新无三二」于「零」）于（「新无三二」于「零」）于「i」）
也。
""" + entry("看", "八")


def test_a_round_ending_in_two_rounds_that_read_memory_jumps_back_once(tmp_path):
    """鸟群's look at every other: 若 k 等于 i 则 下一轮(…) 否则 下一轮(…) where both reads are
    needed only on their own side: each side sets the loop variables, the two ways meet, and
    one test jumps back (two latches each with its own test cost ptxas a test and a break a
    round).  The other side is a call (看一只 there), so the two sides are not both computed;
    each reads its own buffer and changes a different set of variables."""
    result = build(tmp_path, SKIP_SELF)
    loop = result.text[result.text.index("_loop:"):result.text.index("_exit:")]
    assert len(re.findall(r"bra L\d+_loop;", loop)) == 1 and "_join:" in loop
    x = np.array([5, 7, 11, 13, 17, 19], np.uint32)
    side = np.array([100, 200, 300, 400, 500, 600, 700, 800], np.uint32)
    out = execute(result, {(0, 0): x, (0, 1): side, (0, 2): np.zeros(8, np.uint32)}, 1)[(0, 2)]
    expected = []
    for i in range(8):
        total, count = 0, i
        for k in range(len(x)):
            if k == i:
                total ^= int(side[k])
            else:
                total, count = (total * 3 + int(x[k])) % 2 ** 32, count + k + 1
        expected.append((total + count) % 2 ** 32)
    assert out.tolist() == expected


BLOCK_INPUTS = storage("出", "无三二", 0) + """
「调用」即「组类」【「全」乃「全局调用号」也，「局」乃「局部调用号」也，「序」乃「局部调用序」也，
　「组」乃「工作组号」也，「子组」乃「子组号」也，「子组数」乃「子组数」也】也。

「记」乃化「调用」为「有」者也。
「记」者得「调」而
　令「基」为（「调」中「组」中「x」乘（「新无三二」于「{size}」）加「调」中「序」）乘（「新无三二」于「九」）而
　「写数组」于「出」于「基」于「调」中「序」；
　「写数组」于「出」于（「基」加（「新无三二」于「一」））于「调」中「局」中「x」；
　「写数组」于「出」于（「基」加（「新无三二」于「二」））于「调」中「局」中「y」；
　「写数组」于「出」于（「基」加（「新无三二」于「三」））于「调」中「局」中「z」；
　「写数组」于「出」于（「基」加（「新无三二」于「四」））于「调」中「全」中「x」；
　「写数组」于「出」于（「基」加（「新无三二」于「五」））于「调」中「全」中「y」；
　「写数组」于「出」于（「基」加（「新无三二」于「六」））于「调」中「全」中「z」；
　「写数组」于「出」于（「基」加（「新无三二」于「七」））于「调」中「子组」；
　「写数组」于「出」于（「基」加（「新无三二」于「八」））于「调」中「子组数」
也。
"""


@pytest.mark.parametrize("shape", [(1, 1, 1), (64, 1, 1), (4, 2, 3), (2, 1, 20), (8, 8, 1), (1, 40, 1)])
def test_the_block_shape_is_written_as_numbers_and_every_input_follows_it(tmp_path, shape):
    """.reqntid makes the launch's block the workgroup size, so the PTX reads no %ntid: a dimension
    one thread across has %tid 0 (and 全局调用号 is %ctaid there), the subgroup count is a number.
    Two workgroups along x; every invocation writes what it sees, checked against the definitions."""
    x, y, z = shape
    size = x * y * z
    digits = "〇一二三四五六七八九"
    number = lambda n: "".join(digits[int(c)] for c in str(n))
    dims = "与".join(f"「{number(n)}」" for n in shape)
    source = BLOCK_INPUTS.replace("{size}", number(size)) + (
        "「记入口」乃「计算入口」也。\n"
        f"「记入口」者「计算入口项」于「记」于（「组值」【「工作组大小」者{dims}也】）也。\n")
    result = build(tmp_path, source)
    assert "%ntid" not in result.text
    out = execute(result, {(0, 0): np.zeros(2 * size * 9, np.uint32)}, 2)[(0, 0)].reshape(2, size, 9)
    for g in range(2):
        for k in range(size):
            lx, ly, lz = k % x, k // x % y, k // (x * y)
            assert out[g, k].tolist() == [k, lx, ly, lz, g * x + lx, ly, lz, k // 32, -(-size // 32)], (g, k)


WRITE_BACK = storage("群", "点", 0) + storage("计", "无三二", 1) + """「数」乃「存储缓冲」于（「数组」于（「原子」于「无三二」））也。
「数」者「绑定」于（「组值」【「组」者「零」也，「号」者「二」也，「访问」者「读写」也】）也。
「点」即「组类」【「位置」乃「二维浮」也，「速度」乃「二维浮」也】也。

「走」乃化「全局调用号」为「有」者也。
「走」者得「号」而
　令「i」为「号」中「零」而
　令「p」为「读数组」于「群」于「i」而
　{between}
　「写数组」于「群」于「i」于（「组值」【「位置」者「p」中「位置」加「p」中「速度」也，「速度」者「p」中「速度」也】）
也。
""" + entry("走", "八")


@pytest.mark.parametrize("between, stores", [
    ("", 1),                                                                  # 速度 is what was read
    ("「写数组」于「计」于「i」于「i」；", 2),                                   # another buffer's store may alias
    ("「原子加」于「数」于（「新无三二」于「零」）于（「新无三二」于「一」）；", 2),    # an atomic orders memory
    ("「存储屏障」于「元」；", 2),                                               # so does a barrier
])
def test_a_field_written_back_unchanged_is_not_stored_again(tmp_path, between, stores):
    """头部与数组, 灯光下落: a record read, one field changed, written back to the same element — the
    unchanged field's store changes nothing and is dropped, as nvcc drops it; not across another
    store, an atomic or a barrier.  Eight points, 速度 (1, 2)·k, 位置 moved by it."""
    result = build(tmp_path, WRITE_BACK.replace("{between}", between))
    assert len(re.findall(r"st\.global\.v2\.f32", result.text)) == stores
    k = np.arange(8, dtype=np.float32)
    points = np.stack([k, -k, k, 2 * k], 1).astype(np.float32)      # 位置 (k, −k), 速度 (k, 2k)
    out = execute(result, {(0, 0): points, (0, 1): np.zeros(8, np.uint32), (0, 2): np.zeros(1, np.uint32)}, 1)[(0, 0)]
    assert out.tolist() == np.stack([2 * k, k, k, 2 * k], 1).tolist()
