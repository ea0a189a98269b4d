"""「缓冲」中「字段」: a storage buffer's record with header fields before a
runtime-sized array (docs/扩展.md, 存储缓冲的头部字段).  The layout every
target and host shares (compiler/layout.py `trailing_array`), fields of a
nested header record on all four executors, and what the checker refuses.
The sample 头部与数组 runs the common case against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

from support.executors import run_all
from support.frontend import PRELUDE, write
from support.interp_runner import HEADER, entry
from zhuose.compiler.layout import array_length, size_align, trailing_array
from zhuose.compiler.types import TCon, TRecord, TTuple
from zhuose.compiler.workspace import Workspace

U32, F32 = TCon("定长无符号", (32,)), TCon("定长小数", (32,))
VEC2, VEC3, VEC4 = (TTuple((F32,) * n) for n in (2, 3, 4))


def _record(*fields) -> TRecord:
    return TRecord(tuple((f"f{i}", t) for i, t in enumerate(fields)))


@pytest.mark.parametrize("t, place", [
    (TCon("数组", (VEC3,)), (0, 16)),                                   # a plain runtime-sized array
    (_record(U32, TCon("数组", (F32,))), (4, 4)),
    (_record(U32, F32, U32, TCon("数组", (VEC2,))), (16, 8)),            # 12 bytes rounded up to 8
    (_record(VEC4, U32, TCon("数组", (U32,))), (20, 4)),                 # not rounded to the struct's 16
    (_record(U32, TCon("数组", (VEC3,))), (16, 16)),
    (_record(U32, TCon("定长数组", (TCon("原子", (U32,)), 1)), TCon("数组", (TCon("原子", (U32,)),))), (8, 4)),
])
def test_the_array_starts_after_the_header_rounded_up_to_its_element(t, place):
    assert trailing_array(t) == place
    assert array_length(place[0] + 3 * place[1] + place[1] - 1, t) == 3     # a partial element does not count
    assert array_length(0, t) == 0


def test_a_header_record_has_no_size_and_a_fixed_one_no_array():
    assert size_align(_record(U32, TCon("数组", (F32,)))) is None
    assert trailing_array(_record(U32, F32)) is None


NESTED = HEADER + (
    "「头类」即「组类」【「甲」乃「无三二」也，「乙」乃「二维浮」也】也。\n"
    "「群类」即「组类」【「头」乃「头类」也，「值」乃「数组」于「浮三二」也】也。\n"
    "「群」乃「存储缓冲」于「群类」也。\n"
    "「群」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n\n"
    "「核」乃化「全局调用号」为「有」者也。\n"
    "「核」者得「号」而\n"
    "　令「i」为「号」中「零」而\n"
    "　令「头」为「群」中「头」而\n"
    "　（若「i」小于「数组长度」于（「群」中「值」）则\n"
    "　　「写数组」于（「群」中「值」）于「i」于"
    "（（「读存储」于（「头」中「乙」））中「x」乘「读数组」于（「群」中「值」）于「i」））；\n"
    "　（若「i」等于（「新无三二」于「零」）则「写存储」于（「头」中「甲」）于（「数组长度」于（「群」中「值」）））\n"
    "也。\n") + entry("核", "八")


def test_fields_of_a_header_record_on_every_executor():
    """A header that is itself a record, its fields taken through a view bound by 令;
    the array is 16 bytes in (the 12-byte header rounded up to the record's 8)."""
    values = np.arange(1, 13, dtype=np.float32)
    group = np.concatenate([np.array([99, 0], np.uint32), np.float32([2.5, 7]).view(np.uint32), values.view(np.uint32)])
    outputs = run_all(NESTED, "核入口", {"群": group}, groups=2)
    expected = np.concatenate([np.array([12, 0], np.uint32), np.float32([2.5, 7]).view(np.uint32),
                               (values * np.float32(2.5)).view(np.uint32)])
    for executor, out in outputs.items():
        assert out["群"].tolist() == expected.tolist(), executor


def _messages(tmp_path, text: str) -> list[tuple[str, str]]:
    write(tmp_path, {"测。着色器。豫": PRELUDE + text})
    return [(d.code, d.message) for d in Workspace(tmp_path).diagnostics(tmp_path / "测。着色器。豫")]


@pytest.mark.parametrize("fields, fragment", [
    ("「值」乃「数组」于「浮三二」也，「个数」乃「无三二」也", "最后一个字段"),
    ("「个数」乃「无三二」也，「值」乃「数组」于（「组类」【「内」乃「数组」于「浮三二」也】）也", "里面"),
])
def test_a_runtime_array_only_ends_the_record(tmp_path, fields, fragment):
    text = (f"「坏类」即「组类」【{fields}】也。\n「坏」乃「存储缓冲」于「坏类」也。\n"
            "「坏」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n")
    (found,) = _messages(tmp_path, text)
    assert found[0] == "resource" and fragment in found[1]
