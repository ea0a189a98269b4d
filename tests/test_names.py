"""Each target renames only its own reserved words (compiler/backends/targets.py
records them), so renaming for one target never changes another target's
text; an entry function alone keeps one name in every target, since the host
calls it by that name (docs/后端.md)."""

import dataclasses

import pytest

from zhuose.compiler.backends import translate
from zhuose.compiler.backends.msl import writer as msl_writer
from zhuose.compiler.backends.names import ENTRY_WORDS, target_name
from zhuose.compiler.backends.targets import BY_NAME, MSL, TARGETS, WGSL
from zhuose.compiler.backends.wgsl import writer as wgsl_writer
from zhuose.compiler.workspace import Workspace
from support.frontend import write

SOURCE = """寻观「点染」之「点染本」之书。
「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「clz」乃化「无三二」为「无三二」者也。
「clz」者得「x」而「x」加「x」也。
「rotate」乃化「全局调用号」为「有」者也。
「rotate」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「clz」于（「号」中「零」））也。
「口」乃「计算入口」也。
「口」者「计算入口项」于「rotate」于（「组值」【「工作组大小」者「一」也】）也。
"""

#: `kernel` and `float4` are reserved in MSL only, `fn` and `loop` in WGSL only
ONE_TARGET_NAMES = """寻观「点染」之「点染本」之书。
「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「kernel」乃化「无三二」为「无三二」者也。
「kernel」者得「float4」而令「fn」为「float4」加「float4」而「fn」加「fn」也。
「loop」乃化「全局调用号」为「有」者也。
「loop」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「kernel」于（「号」中「零」））也。
「口」乃「计算入口」也。
「口」者「计算入口项」于「loop」于（「组值」【「工作组大小」者「一」也】）也。
"""


def texts(root) -> dict[str, str]:
    ws = Workspace(root)
    out = {t.name: translate(ws, root / "名。着色器。豫", t.name) for t in TARGETS}
    assert all(r.text for r in out.values()), {k: r.diagnostics for k, r in out.items()}
    return {k: r.text for k, r in out.items()}


def test_metal_library_names_are_renamed_in_msl_only(tmp_path):
    for name in ["clz", "rotate", "isnan", "median3", "half2x3", "all"]:
        assert target_name(name, MSL.reserved) == target_name(name) == "豫_" + name
    for name in ["clz", "rotate", "isnan", "median3", "half2x3"]:
        assert target_name(name, WGSL.reserved) == name
    write(tmp_path, {"名。着色器。豫": SOURCE})
    ws = Workspace(tmp_path)
    wgsl = translate(ws, tmp_path / "名。着色器。豫", "wgsl")
    msl = translate(ws, tmp_path / "名。着色器。豫", "msl")
    assert wgsl.text and msl.text
    assert "fn clz(" in wgsl.text and "豫_clz(" in msl.text and " clz(" not in msl.text
    # the entry function is what the host calls: one name in both targets
    assert [e.function for e in wgsl.entries] == [e.function for e in msl.entries] == ["豫_rotate"]


def test_names_reserved_in_one_target_are_renamed_there_only(tmp_path):
    write(tmp_path, {"名。着色器。豫": ONE_TARGET_NAMES})
    out = texts(tmp_path)
    wgsl, msl = out["wgsl"].split("\n"), out["msl"]
    assert "fn kernel(float4: u32) -> u32 {" in wgsl and "  let 豫_fn = float4 + float4;" in wgsl
    assert "豫_kernel(" in msl and "豫_float4" in msl and " fn = " in msl and " kernel(" not in msl
    # the entry function `loop` is reserved in WGSL only, yet has the one name 豫_loop in both
    assert "fn 豫_loop(" in out["wgsl"] and "void 豫_loop(" in msl and " loop(" not in msl
    assert {"kernel", "float4"} <= MSL.reserved - WGSL.reserved and {"fn", "loop"} <= WGSL.reserved - MSL.reserved
    assert {"kernel", "fn", "loop"} <= ENTRY_WORDS


@pytest.mark.parametrize("renamed", ["wgsl", "msl"])
def test_renaming_for_one_target_leaves_the_others_unchanged(tmp_path, monkeypatch, renamed):
    """Reserving more words in one target changes that target's text and no other's."""
    write(tmp_path, {"名。着色器。豫": ONE_TARGET_NAMES})
    before = texts(tmp_path)
    writer = {"wgsl": wgsl_writer, "msl": msl_writer}[renamed]
    target = BY_NAME[renamed]
    more = dataclasses.replace(target, reserved=target.reserved | {"kernel", "float4", "fn", "数据"})
    monkeypatch.setattr(writer, target.title, more)
    after = texts(tmp_path)
    assert after[renamed] != before[renamed]
    assert {k: v for k, v in after.items() if k != renamed} == {k: v for k, v in before.items() if k != renamed}
