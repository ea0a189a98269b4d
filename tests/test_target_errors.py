"""A builtin a target lacks and a type it cannot express are reported with
the typed codes `target-builtin` (field 内建) and `target-type` (field 类型)
by every writer, WGSL, MSL and PTX alike (compiler/diagnostics.py); the tests
read the code and fields, never the wording."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhuose.compiler.backends import translate
from zhuose.compiler.diagnostics import CODES, TARGET_BUILTIN, TARGET_TYPE
from zhuose.compiler.workspace import Workspace

HEAD = "寻观「点染」之「点染本」之书。\n"
OUT_F32 = """「出」乃「存储缓冲」于（「数组」于「浮三二」）也。
「出」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
"""


def _entry(function: str, size: str) -> str:
    return (f"「{function}入口」乃「计算入口」也。\n"
            f"「{function}入口」者「计算入口项」于「{function}」于（「组值」【「工作组大小」者「{size}」也】）也。\n")


#: integer subgroup-matrix fragments (seed 着十二): PTX only
INTEGER_FRAGMENT_BUILTIN = HEAD + """「丙」乃「存储缓冲」于（「数组」于「整三二」）也。
「丙」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而「存整矩阵片累到存储」于「丙」于（「新无三二」于「零」）于（「新无三二」于「一六」）
　于（「满整矩阵片累」于（「新无三二」于「零」））也。
""" + _entry("核", "三二")

INTEGER_FRAGMENT_TYPE = HEAD + """「留」乃化「子组整矩阵片累」为「子组整矩阵片累」者也。
「留」者得「片」而「片」也。
"""

#: a 64-bit float: no target has one (着三)
DOUBLE = HEAD + OUT_F32 + """「半」乃化（「定长小数」于「六四」）为（「定长小数」于「六四」）者也。
「半」者得「x」而「x」也。
「核」乃化「全局调用号」为「有」者也。
「核」者得「号」而「写数组」于「出」于（「号」中「零」）于
　（「转换」以「浮三二」于（「半」于（「转换」以（「定长小数」于「六四」）于（「新浮三二」于「一」））））也。
""" + _entry("核", "一")

#: textures are a PTX to-do (着十)
TEXTURE_SIZE = HEAD + """「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。
「出」乃「存储缓冲」于（「数组」于「无三二」）也。
「出」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「核」乃化「全局调用号」为「有」者也。
「核」者得「号」而「写数组」于「出」于（「号」中「零」）于（（「纹理尺寸」于「图」）中「零」）也。
""" + _entry("核", "一")

#: tensor fragments (seed 着十三): MSL only
TENSOR_TYPE = HEAD + """「留」乃化「张量片累」为「张量片累」者也。
「留」者得「片」而「片」也。
""" + OUT_F32 + """「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而令「p」为「留」于（「满张量片累」于（「新浮三二」于「零」））而
　「写数组」于「出」于「序」于（「新浮三二」于「零」）也。
""" + _entry("核", "一二八")

#: (target, program, code, field, what the field names)
CASES = [
    ("msl", INTEGER_FRAGMENT_BUILTIN, TARGET_BUILTIN, "内建", "存整矩阵片累到存储"),
    ("msl", INTEGER_FRAGMENT_TYPE, TARGET_TYPE, "类型", "子组整矩阵片累"),
    ("msl", DOUBLE, TARGET_TYPE, "类型", "「定长小数」于「六四」"),
    ("ptx", TEXTURE_SIZE, TARGET_BUILTIN, "内建", "纹理尺寸"),
    ("ptx", TENSOR_TYPE, TARGET_BUILTIN, "内建", "满张量片累"),
    ("ptx", DOUBLE, TARGET_TYPE, "类型", "「定长小数」于「六四」"),
    ("wgsl", INTEGER_FRAGMENT_BUILTIN, TARGET_BUILTIN, "内建", "存整矩阵片累到存储"),
    ("wgsl", DOUBLE, TARGET_TYPE, "类型", "「定长小数」于「六四」"),
]
TITLE = {"wgsl": "WGSL", "msl": "MSL", "ptx": "PTX"}


def _diagnostics(tmp_path: Path, target: str, program: str):
    path = tmp_path / "测。着色器。豫"
    path.write_text(program, encoding="utf-8")
    ws = Workspace(tmp_path)
    assert [d.message for d in ws.diagnostics(path) if d.severity == "错误"] == [], "检查应当通过：只是目标写不出"
    result = translate(ws, path, target)
    assert result.text is None
    return result.diagnostics


@pytest.mark.parametrize("target, program, code, field, named", CASES,
                         ids=[f"{c[0]}-{c[2]}-{c[4]}" for c in CASES])
def test_what_a_target_lacks_gets_its_typed_code(tmp_path, target, program, code, field, named):
    found = _diagnostics(tmp_path, target, program)
    typed = [d for d in found if d.code == code]
    assert typed, [(d.code, d.fields) for d in found]
    for d in typed:
        assert set(d.fields) == set(CODES[code].fields) == {"目标", field}
        assert d.fields["目标"] == TITLE[target]
    assert any(named in d.fields[field] for d in typed), [d.fields for d in typed]


def test_each_of_msl_and_ptx_lacks_a_builtin_and_a_type_here():
    """The cases cover both codes for both targets that used to answer `translation`."""
    covered = {(target, code) for target, _, code, _, _ in CASES}
    assert {(t, c) for t in ("msl", "ptx") for c in (TARGET_BUILTIN, TARGET_TYPE)} <= covered

