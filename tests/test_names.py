"""Functions named like Metal library functions are renamed in both targets,
so an entry keeps one name in WGSL and MSL (issue 5 §2)."""

from zhuose.compiler.backends import translate
from zhuose.compiler.backends.names import target_name
from zhuose.compiler.workspace import Workspace
from frontend_util import write

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


def test_metal_library_names_are_renamed_alike_in_both_targets(tmp_path):
    for name in ["clz", "rotate", "isnan", "median3", "half2x3", "all"]:
        assert target_name(name) == "豫_" + name
    write(tmp_path, {"名。着色器。豫": SOURCE})
    ws = Workspace(tmp_path)
    wgsl = translate(ws, tmp_path / "名。着色器。豫", "wgsl")
    msl = translate(ws, tmp_path / "名。着色器。豫", "msl")
    assert wgsl.text and msl.text
    assert "fn 豫_clz(" in wgsl.text and "豫_clz(" in msl.text and " clz(" not in msl.text
    assert [e.function for e in wgsl.entries] == [e.function for e in msl.entries] == ["豫_rotate"]
