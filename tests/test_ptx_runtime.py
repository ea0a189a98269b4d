"""Every compute sample's PTX, run and compared with its NumPy reference
(tests/support/references.py, one per compute sample, shared by all back ends): on
an NVIDIA GPU through the CUDA driver helper (compiler/runtime/cuda.py) when one is here,
and always on the PTX emulator behind a
stand-in for libcuda (tests/support/ptx_runner.py), so the driver helper's loading, allocation, parameter
order, launch shape and read-back run too."""

from __future__ import annotations

import numpy as np
import pytest

from support.ptx_emulator import EmulatorError, Memory
from support.ptx_runner import DEVICES, WS, FakeCuda, ptx_run
from support.references import REFERENCES, SAMPLES, frexp_of_subnormals
from zhuose.compiler.backends import translate
from zhuose.compiler.backends.ptx import PtxEntryInfo
from zhuose.compiler.backends.targets import Options
from zhuose.compiler.runtime import cuda as runtime


def test_every_compute_sample_has_a_reference():
    for g in SAMPLES.rglob("*。千手"):
        name = str(g.relative_to(SAMPLES)).replace("。千手", "")
        assert name in REFERENCES, name


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_runs_like_numpy(name, device):
    REFERENCES[name](ptx_run(DEVICES[device]))


# ---------------------------------------------------------------- the driver helper itself


def test_driver_passes_buffers_in_binding_order_with_placeholders_and_lengths():
    fake = FakeCuda()
    result = translate(WS, SAMPLES / "原子最值。着色器。豫", "ptx")
    entry = next(e for e in result.entries if e.item == "重置入口")
    out = runtime.Driver(fake).launch(result.text, entry, {(0, 1): bytes(8), (0, 2): bytes(4)}, (1, 1, 1))
    [call] = fake.launches
    assert call["args"][0] == 0                              # binding 0 is a placeholder here
    assert call["args"][1:3] == [Memory.address_of(0), Memory.address_of(1)]
    assert call["args"][3:] == [2, 1]                         # element counts for the bounds checks
    assert np.frombuffer(out[(0, 1)], np.int32).tolist() == [-2 ** 31, 2 ** 31 - 1]
    assert sorted(fake.freed) == [Memory.address_of(0), Memory.address_of(1)]

    result = translate(WS, SAMPLES / "局部循环。着色器。豫", "ptx")
    out = runtime.Driver(fake).launch(result.text, result.entries[0], {(0, 0): bytes(4 * 70)}, (2, 1, 1))
    assert fake.launches[-1]["args"][1] == 70                 # the element count of 「数组长度」
    i = np.arange(70, dtype=np.uint32)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 0)], np.uint32), i * (i - 1) // 2)


@pytest.mark.parametrize("n", [7, 5, 1])
def test_doubling_a_buffer_whose_length_is_not_a_multiple_of_the_workgroup_stays_inside_it(n):
    """Issue 27: 加倍 dispatches ⌈n ÷ 4⌉ workgroups of 4; the invocations past
    the end read zero and their writes are dropped (bounds safety), where the
    emulator would fail on an access outside the n·4-byte buffer."""
    x = np.arange(n, dtype=np.uint32) + np.uint32(2 ** 31 - 3)
    out = ptx_run(DEVICES["模拟"])("加倍", "加倍入口", {"数据": x}, -(-n // 4))
    np.testing.assert_array_equal(out["数据"], x * np.uint32(2))


@pytest.mark.parametrize("rows, columns, matrix, vector", [(5, 9, 40, 9), (5, 9, 45, 6), (3, 13, 30, 13), (2, 3, 0, 3)])
def test_a_matrix_vector_product_over_short_buffers_reads_zeros_past_their_ends(rows, columns, matrix, vector):
    """矩阵向量积's four-columns-at-a-time rounds skip their bounds checks only
    while both arrays hold the elements (tested once before the loop); the
    rounds after that are checked, so a matrix or vector shorter than the
    sizes say reads zero past its end (the emulator fails on any access outside)."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal(matrix).astype(np.float32)
    x = rng.standard_normal(vector).astype(np.float32)
    out = ptx_run(DEVICES["模拟"])("矩阵向量积", "行积入口", {"尺寸": np.array([rows, columns], np.uint32), "矩阵": a,
                                                          "向量": x, "结果": np.zeros(rows, np.float32)}, 1)
    full_a = np.zeros(rows * columns, np.float32)
    full_a[:min(matrix, rows * columns)] = a[:rows * columns]
    full_x = np.zeros(columns, np.float32)
    full_x[:min(vector, columns)] = x[:columns]
    np.testing.assert_allclose(out["结果"], full_a.reshape(rows, columns) @ full_x, atol=1e-5)


@pytest.mark.parametrize("rows, columns", [(70, 9), (3, 37), (2, 2)])
def test_the_unchecked_matrix_vector_product_runs_like_numpy(rows, columns):
    """Without bounds checks the four rounds still stop where row start 加 column 加 3
    would wrap (one address per four rounds); in bounds the product is the same."""
    rng = np.random.default_rng(6)
    a = rng.standard_normal((rows, columns)).astype(np.float32)
    x = rng.standard_normal(columns).astype(np.float32)
    out = ptx_run(DEVICES["模拟"], Options(bounds=False))(
        "矩阵向量积", "行积入口", {"尺寸": np.array([rows, columns], np.uint32), "矩阵": a.ravel(), "向量": x,
                             "结果": np.zeros(rows, np.float32)}, -(-rows // 64))
    np.testing.assert_allclose(out["结果"], a @ x, atol=1e-5)


@pytest.mark.parametrize("n", [1, 0])
def test_a_blur_of_a_tiny_input_reads_its_clamped_neighbours_or_zero(n):
    """模糊 reads 输入 at 夹紧 于 i 于 0 于（长 减 1）: checked once by the sign of
    长 减 1, so with one element every read is that element, with none (长 减 1
    is −1) every read is zero — never outside the buffer (the emulator fails on that)."""
    x = np.full(n, 6, np.float32)
    out = ptx_run(DEVICES["模拟"])("模糊", "模糊入口", {"输入": x, "输出": np.zeros(4, np.float32)}, 1)
    np.testing.assert_array_equal(out["输出"], np.full(4, 6 if n else 0, np.float32))


def test_the_emulator_fails_on_the_unchecked_doubling():
    """Without the bounds check the same dispatch writes past the buffer, and the emulator says so."""
    result = translate(WS, SAMPLES / "加倍。着色器。豫", "ptx", Options(bounds=False))
    info = result.entries[0]
    with pytest.raises(EmulatorError, match="越界"):
        runtime.Driver(FakeCuda()).launch(result.text, info, {(0, 0): bytes(4 * 7)}, (2, 1, 1))


def test_driver_reports_missing_data_and_unknown_functions():
    result = translate(WS, SAMPLES / "加倍。着色器。豫", "ptx")
    with pytest.raises(runtime.CudaError, match="没有给出它的数据"):
        runtime.Driver(FakeCuda()).launch(result.text, result.entries[0], {}, (1, 1, 1))
    wrong = PtxEntryInfo("加倍入口", "yy_none", "计算", 4, result.entries[0].params)
    with pytest.raises(runtime.CudaError, match="CUDA_ERROR_NOT_FOUND"):
        runtime.Driver(FakeCuda()).launch(result.text, wrong, {(0, 0): bytes(16)}, (1, 1, 1))


def test_without_libcuda_the_helper_says_skip(monkeypatch):
    def missing(name):
        raise OSError(name)
    monkeypatch.setattr(runtime.ctypes, "CDLL", missing)
    monkeypatch.setattr(runtime, "_driver", None)
    with pytest.raises(runtime.CudaUnavailable, match="^跳过：找不到 CUDA 驱动库"):
        runtime.run_compute("", None, {}, (1, 1, 1))


def test_frexp_normalises_subnormals_on_the_emulator():
    frexp_of_subnormals(ptx_run(DEVICES["模拟"]))


@pytest.mark.parametrize("device", DEVICES)
def test_one_read_only_buffer_bound_twice_squares_a_matrix(device):
    """Issue 27: one allocation at two read-only slots (甲 and 乙 of the tiled multiply) computes A·A;
    on a GPU both slots read through ld.global.nc, which is safe because nothing writes the buffer."""
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float32)
    result = translate(WS, SAMPLES / "分块矩阵乘。着色器。豫", "ptx")
    info = result.entries[0]
    buffers = {(0, 0): np.array([32, 32, 32], np.uint32).tobytes(), (0, 1): a.tobytes(),
               (0, 2): runtime.Same(0, 1), (0, 3): bytes(32 * 32 * 4)}
    out = DEVICES[device](result.text, info, buffers, (2, 2, 1))
    np.testing.assert_array_equal(np.frombuffer(out[(0, 3)], np.float32).reshape(32, 32), a @ a)


def _stencil(x: np.ndarray, w: int, h: int) -> np.ndarray:
    """二维模板's 模板入口 over a w × h grid whose input is x, zero past its end."""
    g = np.zeros(w * h, np.float32)
    g[:min(len(x), w * h)] = x[:w * h]
    g = g.reshape(h, w)
    expected = g.copy()
    expected[1:-1, 1:-1] = (np.float32(4) * g[1:-1, 1:-1] - g[1:-1, :-2] - g[1:-1, 2:] - g[:-2, 1:-1] - g[2:, 1:-1])
    return expected.ravel()


@pytest.mark.parametrize("inputs, outputs", [(273, 260), (250, 273), (0, 5), (273, 0)])
def test_a_stencil_over_short_buffers_reads_zeros_and_drops_writes_past_their_ends(inputs, outputs):
    """二维模板's 若 边 则 写数组(输出, i, 心) 否则 写数组(输出, i, …) is one write of a
    selected value (`Writer._merged_write`): the reads of each side stay predicated
    on it and on their bounds, the one write on 输出's, and 编号入口's lone write
    is predicated on its 若 (`Writer._predicable`) and its bounds, never a branch."""
    w, h, d = 21, 13, 2
    sizes = np.array([w, h, d], np.uint32)
    x = np.random.default_rng(7).standard_normal(inputs).astype(np.float32)
    run = ptx_run(DEVICES["模拟"])
    out = run("二维模板", "模板入口", {"尺寸": sizes, "输入": x, "输出": np.zeros(outputs, np.float32),
                                   "序号": np.zeros(outputs, np.uint32)}, (3, 2))
    np.testing.assert_allclose(out["输出"], _stencil(x, w, h)[:outputs], atol=1e-5)
    out = run("二维模板", "编号入口", {"尺寸": sizes, "编号": np.zeros(outputs, np.uint32)}, (6, 4, 1))
    zs, ys, xs = np.mgrid[0:d, 0:h, 0:w]
    np.testing.assert_array_equal(out["编号"], ((xs % 4 + 4 * (ys % 4) + 16 * (zs % 4)) * 1025).ravel()[:outputs])


@pytest.mark.parametrize("outputs, turns", [(100, 150), (192, 0), (0, 192)])
def test_a_broadcast_tested_against_its_input_s_length_still_checks_its_outputs(outputs, turns):
    """工作组广播's 若 全 小于 长 (长 a 令 of 输入's length) lets the read of 输入[全] go
    unchecked, and only that one: the writes to shorter 输出 and 旋转 are still dropped past their ends."""
    x = np.random.default_rng(8).standard_normal(192).astype(np.float32)
    out = ptx_run(DEVICES["模拟"])("工作组广播", "广播入口", {"输入": x, "输出": np.zeros(outputs, np.float32),
                                                        "旋转": np.zeros((turns, 2), np.float32)}, 3)
    first = np.repeat(x[::64], 64)
    np.testing.assert_array_equal(out["输出"], (x + first)[:outputs])
    np.testing.assert_array_equal(out["旋转"], np.stack([x * first, np.ones(192, np.float32)], 1)[:turns])


@pytest.mark.parametrize("records", [100, 0])
def test_a_record_read_and_written_back_past_a_short_buffer_is_left_alone(records):
    """查表与填表's 令 旧 为 读数组(记录, i) 而 写数组(记录, i, …旧…) is one bounds test
    branched around (`Writer._read_then_written`): the invocations past the end of a
    short 记录 neither read nor write it (the emulator fails on either)."""
    n = 128
    x = np.random.default_rng(9).integers(-100, 100, n).astype(np.float32)
    table = np.random.default_rng(10).integers(-9, 9, (records, 4)).astype(np.float32)
    stored = np.column_stack([np.full(records, 7, np.uint32), table.view(np.uint32)])
    out = ptx_run(DEVICES["模拟"])("查表与填表", "查表与填表入口", {
        "输入": x, "填出": np.zeros((n, 4), np.float32), "向量出": np.zeros((n, 4), np.float32),
        "查出": np.zeros((n, 2), np.float32), "记录": stored.copy()}, 2)
    i = np.arange(records)
    table[i, i % 4] = x[:records]
    np.testing.assert_array_equal(out["记录"][:, 0], i.astype(np.uint32))
    np.testing.assert_array_equal(np.ascontiguousarray(out["记录"][:, 1:]).view(np.float32), table)


@pytest.mark.parametrize("n", [100, 1, 0])
def test_a_broadcast_over_a_short_input_writes_only_below_its_length(n):
    """工作组广播's body under 若 全 小于 长 is predicated on that test, not branched
    around (`Writer._predicable`): past 长 nothing is read from 输入 nor written, and
    the workgroup values read there unguarded change nothing."""
    x = np.random.default_rng(11).standard_normal(n).astype(np.float32)
    out = ptx_run(DEVICES["模拟"])("工作组广播", "广播入口", {"输入": x, "输出": np.zeros(192, np.float32),
                                                        "旋转": np.zeros((192, 2), np.float32)}, 3)
    first = x[np.arange(n) // 64 * 64]
    np.testing.assert_array_equal(out["输出"], np.concatenate([x + first, np.zeros(192 - n, np.float32)]))
    turned = np.zeros((192, 2), np.float32)
    turned[:n] = np.stack([x * first, np.ones(n, np.float32)], 1)
    np.testing.assert_array_equal(out["旋转"], turned)
