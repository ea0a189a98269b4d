"""The texture types beyond 2-D (issue 25; docs/扩展.md〈纹理的种类〉): a
program naming every type and every load, size and count builtin is valid
WGSL (naga on the device, Tint) and type-checks as MSL against the Metal
shim; PTX refuses it naming its target; a read-write storage texture runs on
the interpreter against NumPy; a builtin on the wrong texture is a class
error that names the builtin to use.  The sample 纹理种类 runs with the
other references on every executor."""

from __future__ import annotations

import numpy as np
import pytest

from support.frontend import bound_resources
from support.metal_shim.runner import check as clang_check, require_clang
from support.wgpu_device import validate
from zhuose.compiler import interp
from zhuose.compiler.backends import translate
from zhuose.compiler.builtin.textures import TEXTURES
from zhuose.compiler.workspace import Workspace

#: (name, declared type, binding word) of every texture the program binds
BOUND = [
    ("线", "「纹理一维」于「浮三二」", "纹理绑定"), ("叠", "「纹理二维数组」于「无三二」", "纹理绑定"),
    ("体", "「纹理三维」于「整三二」", "纹理绑定"), ("盒", "「纹理立方」于「浮三二」", "纹理绑定"),
    ("盒组", "「纹理立方数组」于「浮三二」", "纹理绑定"), ("多", "「多重采样纹理二维」于「浮三二」", "纹理绑定"),
    ("深叠", "「深度纹理二维数组」", "深度纹理绑定"), ("深盒", "「深度纹理立方」", "深度纹理绑定"),
    ("深盒组", "「深度纹理立方数组」", "深度纹理绑定"), ("深多", "「深度多重采样纹理二维」", "深度纹理绑定"),
    ("存一", "「只读存储纹理一维」于「四浮三二」", "存储纹理绑定"),
    ("存叠", "「读写存储纹理二维数组」于「单无三二」", "存储纹理绑定"),
    ("存体", "「存储纹理三维」于「四八归一」", "存储纹理绑定"),
]

U = "（「新无三二」于「零」）"
BODY = f"""「读遍」乃化「全局调用号」为「有」者也。
「读遍」者得「号」而
　令「i」为「号」中「零」而
　「写数组」于「出」于「i」于
　　（（「读纹素」于「线」于「i」于「零」）中「x」
　　加「新浮三二」于（（「读张纹素」于「叠」于（「i」与「i」）于「i」于「零」）中「y」）
　　加「新浮三二」于（（「读纹素」于「体」于（「i」与「i」与「i」）于「零」）中「z」）
　　加（「读样本纹素」于「多」于（「i」与「i」）于「i」）中「w」
　　加「读张纹素」于「深叠」于（「i」与「i」）于「i」于「零」
　　加「读样本纹素」于「深多」于（「i」与「i」）于「i」
　　加（「读存储纹素」于「存一」于「i」）中「x」
　　加「新浮三二」于（（「读存储张纹素」于「存叠」于（「i」与「i」）于「i」）中「x」））；
　「写张纹素」于「存叠」于（「i」与「i」）于「i」于（「i」与「i」与「i」与「i」）；
　「写纹素」于「存体」于（「i」与「i」与「i」）于（「新浮三二」于「一」与「新浮三二」于「一」与「新浮三二」于「一」与「新浮三二」于「一」）；
　「写数组」于「尺」于「i」于
　　（「纹理尺寸」于「线」加（「纹理尺寸」于「盒组」）中「x」加（「按层纹理尺寸」于「深盒」于{U}）中「y」
　　加「纹理层级数」于「盒」加「纹理张数」于「盒组」加「纹理张数」于「深盒组」加「纹理样本数」于「多」
　　加（「纹理尺寸」于「存体」）中「z」加「纹理张数」于「存叠」加（「纹理尺寸」于「深多」）中「x」）
也。
「读遍入口」乃「计算入口」也。
「读遍入口」者「计算入口项」于「读遍」于（「组值」【「工作组大小」者「一」也】）也。
"""


def _program() -> str:
    lines = ["寻观「点染」之「点染本」之书。", *bound_resources(BOUND)]
    lines += ["「出」乃「存储缓冲」于（「数组」于「浮三二」）也。",
              "「出」者「绑定」于（「组值」【「组」者「一」也，「号」者「零」也，「访问」者「读写」也】）也。",
              "「尺」乃「存储缓冲」于（「数组」于「无三二」）也。",
              "「尺」者「绑定」于（「组值」【「组」者「一」也，「号」者「一」也，「访问」者「读写」也】）也。"]
    return "\n".join(lines) + "\n" + BODY


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "遍。着色器。豫"
    path.write_text(_program(), encoding="utf-8")
    return Workspace(tmp_path), path


def test_every_type_is_in_the_table():
    declared = {t.split("」")[0].lstrip("「") for _, t, _ in BOUND}
    assert declared <= set(TEXTURES)


def test_wgsl_of_every_type_is_valid(source):
    ws, path = source
    assert ws.diagnostics(path) == []
    text = translate(ws, path, "wgsl").text
    for spelling in ("texture_1d<f32>", "texture_2d_array<u32>", "texture_3d<i32>", "texture_cube<f32>",
                     "texture_cube_array<f32>", "texture_multisampled_2d<f32>", "texture_depth_2d_array",
                     "texture_depth_cube", "texture_depth_cube_array", "texture_depth_multisampled_2d",
                     "texture_storage_1d<rgba32float, read>", "texture_storage_2d_array<r32uint, read_write>",
                     "texture_storage_3d<rgba8unorm, write>", "textureNumSamples(多)", "textureNumLayers(盒组)",
                     "textureNumLevels(盒)", "textureDimensions(深盒, 0u)", "textureStore(存叠, vec2<u32>(i, i), i, "):
        assert spelling in text, spelling
    validate(text)


def test_msl_of_every_type_type_checks(source):
    require_clang(pytest)
    ws, path = source
    text = translate(ws, path, "msl").text
    for spelling in ("texture1d<float, access::read>", "texture2d_array<uint, access::read_write>",
                     "texture3d<float, access::write>", "depthcube_array<float>", "depth2d_ms<float>",
                     "texture2d_ms<float>", "多.get_num_samples()", "盒组.get_array_size()"):
        assert spelling in text, spelling
    assert clang_check({"遍": text}) == {}


def test_ptx_refuses_textures_naming_its_target(source):
    ws, path = source
    result = translate(ws, path, "ptx")
    assert result.text is None and result.diagnostics
    assert all("千手" in d.message for d in result.diagnostics)


READ_WRITE = """寻观「点染」之「点染本」之书。
「累」乃「读写存储纹理二维」于「单浮三二」也。
「累」者「存储纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「加一」乃化「全局调用号」为「有」者也。
「加一」者得「号」而
　令「处」为「号」中「零」与「号」中「一」而
　令「旧」为「读存储纹素」于「累」于「处」而
　「写纹素」于「累」于「处」于（「旧」中「x」乘（「新浮三二」于「二」）加「新浮三二」于「一」与「旧」中「y」与「旧」中「z」与「旧」中「w」）
也。
「加一入口」乃「计算入口」也。
「加一入口」者「计算入口项」于「加一」于（「组值」【「工作组大小」者「四」与「四」也】）也。
"""


def test_a_read_write_storage_texture_on_the_interpreter(tmp_path):
    path = tmp_path / "累。着色器。豫"
    path.write_text(READ_WRITE, encoding="utf-8")
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    assert "texture_storage_2d<r32float, read_write>" in translate(ws, path, "wgsl").text
    start = np.random.default_rng(5).uniform(-4, 4, (8, 12, 1)).astype(np.float32)
    out = interp.run(ws, path, "加一入口", {}, (3, 2), textures={(0, 0): start})
    np.testing.assert_array_equal(out[(0, 0)], start * np.float32(2) + np.float32(1))


def test_a_builtin_on_the_wrong_texture_names_the_right_one(tmp_path):
    path = tmp_path / "错。着色器。豫"
    path.write_text("""寻观「点染」之「点染本」之书。
「叠」乃「纹理二维数组」于「浮三二」也。
「叠」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「读」乃化「全局调用号」为「四维浮」者也。
「读」者得「号」而「读纹素」于「叠」于（「号」中「零」与「号」中「一」）于「零」也。
""", encoding="utf-8")
    [d] = Workspace(tmp_path).diagnostics(path)
    assert "读张纹素" in d.message, d.message
