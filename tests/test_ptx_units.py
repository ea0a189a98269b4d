"""PTX back end, the parts below the writer: name mangling (seed 着十), the
WGSL storage layout, immediates and register shapes."""

from __future__ import annotations

import struct

import pytest

from zhuose.compiler.backends.ptx.layout import field_offsets, layout_of, memory_leaves, stride_of
from zhuose.compiler.backends.ptx.mangle import ENTRY_PREFIX, SHARED_PREFIX, mangle
from zhuose.compiler.backends.ptx.scalars import (F16, F32, PRED, S32, U32, Unsupported, f32_text, f32_value,
                                                  leaves)
from zhuose.compiler.types import F16 as T_F16
from zhuose.compiler.types import F32 as T_F32
from zhuose.compiler.types import I32, U32 as T_U32, BOOL, TCon, TRecord, TTuple


def vec(t, n):
    return TTuple((t,) * n)


def mat(cols, rows):
    return TTuple((vec(T_F32, rows),) * cols)


def array(t, n):
    return TCon("定长数组", (t, n))


def struct_(*fields):
    return TRecord(tuple(fields))


# ---------------------------------------------------------------- mangling


def test_seed_example_加倍():
    assert mangle("加倍", ENTRY_PREFIX) == "yy_e5_8a_a0_e5_80_8d"


def test_ascii_letters_and_digits_stay_everything_else_is_hex():
    assert mangle("main2", ENTRY_PREFIX) == "yymain2"
    assert mangle("a_b", SHARED_PREFIX) == "ysa_5fb"          # the underscore too
    assert mangle("豫_x", ENTRY_PREFIX) == "yy_e8_b1_ab_5fx"
    assert mangle("a-b c", ENTRY_PREFIX) == "yya_2db_20c"


def test_mangling_is_ascii_and_injective():
    names = ["加倍", "加_倍", "_e5", "e5", "a_5f", "a_", "a__", "块首值", "块首"]
    out = [mangle(n, SHARED_PREFIX) for n in names]
    assert len(set(out)) == len(out)
    assert all(o.isascii() and (o.replace("_", "").isalnum()) for o in out)


# ---------------------------------------------------------------- layout


def test_scalars_and_vectors():
    assert layout_of(T_F32) == layout_of(T_U32) == layout_of(I32)
    assert (layout_of(T_F32).size, layout_of(T_F32).align) == (4, 4)
    assert (layout_of(T_F16).size, layout_of(T_F16).align) == (2, 2)
    assert [(layout_of(vec(T_F32, n)).size, layout_of(vec(T_F32, n)).align) for n in (2, 3, 4)] == \
        [(8, 8), (12, 16), (16, 16)]
    assert [(layout_of(vec(T_F16, n)).size, layout_of(vec(T_F16, n)).align) for n in (2, 3, 4)] == \
        [(4, 4), (6, 8), (8, 8)]


def test_vec3_aligns_to_16_and_the_next_field_fills_its_tail():
    s = struct_(("位置", vec(T_F32, 3)), ("质量", T_F32), ("速度", vec(T_F32, 3)))
    assert field_offsets(s) == [0, 12, 16]
    assert (layout_of(s).size, layout_of(s).align) == (32, 16)
    assert stride_of(vec(T_F32, 3)) == 16
    assert stride_of(s) == 32


def test_matrices_are_arrays_of_columns():
    assert (layout_of(mat(3, 3)).size, layout_of(mat(3, 3)).align) == (48, 16)
    assert (layout_of(mat(2, 2)).size, layout_of(mat(2, 2)).align) == (16, 8)
    assert [off for off, _ in memory_leaves(mat(3, 3))] == [0, 4, 8, 16, 20, 24, 32, 36, 40]


def test_nested_structs_and_arrays():
    inner = struct_(("甲", T_F16), ("乙", vec(T_F32, 2)))                 # 0, 8 → size 16, align 8
    outer = struct_(("标", T_U32), ("内", inner), ("组", array(vec(T_F32, 3), 2)), ("尾", T_F16))
    assert field_offsets(inner) == [0, 8]
    assert (layout_of(inner).size, layout_of(inner).align) == (16, 8)
    assert field_offsets(outer) == [0, 8, 32, 64]
    assert (layout_of(outer).size, layout_of(outer).align) == (80, 16)
    offsets = [off for off, _ in memory_leaves(outer)]
    assert offsets == [0, 8, 16, 20, 32, 36, 40, 48, 52, 56, 64]
    assert [k for _, k in memory_leaves(outer)] == [U32, F16, F32, F32] + [F32] * 6 + [F16]
    assert [k for _, k in memory_leaves(outer)] == leaves(outer)   # same order as the registers


def test_array_stride_rounds_the_element_up():
    assert stride_of(struct_(("a", vec(T_F32, 3)))) == 16
    assert stride_of(struct_(("a", T_F16), ("b", T_F16), ("c", T_F16))) == 6
    assert layout_of(array(T_F16, 5)).size == 10


def test_bool_takes_four_bytes_in_workgroup_memory():
    s = struct_(("旗", BOOL), ("值", T_F32))
    assert [(off, k) for off, k in memory_leaves(s)] == [(0, PRED), (4, F32)]


def test_runtime_arrays_cannot_be_whole_values():
    with pytest.raises(Unsupported):
        layout_of(TCon("数组", (T_F32,)))


def test_unsupported_widths_are_reported():
    with pytest.raises(Unsupported, match="「定长整数」于「一六」"):
        leaves(TCon("定长整数", (16,)))


# ---------------------------------------------------------------- immediates


@pytest.mark.parametrize("value, text", [(2, "2.0"), (40, "40.0"), (0.5, "0.5"), (-0.25, "-0.25"),
                                         (0.1, "0f3DCCCCCD"), (float("inf"), "0f7F800000"),
                                         (-0.0, "0f80000000"), (1e-10, "0f2EDBE6FF")])
def test_f32_immediates_are_exact(value, text):
    assert f32_text(value) == text
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    assert struct.unpack("<I", struct.pack("<f", f32_value(text)))[0] == bits


def test_register_shapes():
    assert leaves(struct_(("a", vec(T_F16, 2)), ("b", BOOL), ("c", I32))) == [F16, F16, PRED, S32]
    assert leaves(mat(2, 3)) == [F32] * 6
    assert leaves(TCon("有")) == []
