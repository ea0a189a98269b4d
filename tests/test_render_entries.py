"""Render shaders written the way a user writes them (seed 着三, 着四,
着九, 着十; LANGUAGE.md §6): vertex+fragment pairs with struct I/O of mixed
types, flat integers, uniforms feeding the vertex stage, discard, depth and
sample-mask outputs, texture sampling and derivatives.  Each program must
check clean; its WGSL must pass naga and RENDER the pixels NumPy computes from
the program's meaning (never from the tool's output); its MSL must type-check
against the shim and carry seed 着九's attributes; PTX must drop render entries
as one-line comments and refuse a module that has nothing else.  Then the
rejections the seed implies for entries and their I/O: one Chinese message in
the definition.  Strict xfails mark what the toolchain gets wrong today."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from support.references import close, rng, same
from support.wgpu_device import render, render_with_depth, validate
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace
from support.metal_shim.runner import check as clang_check, require_clang, unknown_attributes  # noqa: E402

PRELUDE = "寻观「点染」之「点染本」之书。\n\n"

# ---------------------------------------------------------------- programs

PROGRAMS = {
    # Vertex attributes (位 loc0, 色 loc1, 号 loc2 — an integer attribute) plus 顶点序号 in one input struct;
    # a uniform scales and shifts the position.  The output struct puts 色 before the clip position, so
    # 色 is location 0, 号 location 1 (flat), 差 ＝ i32(顶点序号) − 3 location 2 (flat: the provoking,
    # i.e. first, vertex of each triangle).  The fragment discards triangles whose 号 is 1, otherwise
    # colour ＝ (色.r·调.r, 色.g·调.g, 色.b·调.b ＋ 号/4, 差/10 ＋ 0.5).
    "彩带": """
「变换类」即「组类」【「缩放」乃「二维浮」也，「平移」乃「二维浮」也，「色调」乃「四维浮」也】也。
「变换」乃「均匀缓冲」于「变换类」也。
「变换」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。

「点入」即「组类」【「位」乃「二维浮」也，「色」乃「三维浮」也，「号」乃「无三二」也，「序」乃「顶点序号」也】也。
「点出」即「组类」【「色」乃「三维浮」也，「位置」乃「裁剪位置」也，「号」乃「无三二」也，「差」乃「整三二」也】也。
「片入」即「组类」【「坐标」乃「片元坐标」也，「色」乃「三维浮」也，「号」乃「无三二」也，「差」乃「整三二」也】也。

「顶」乃化「点入」为「点出」者也。
「顶」者得「入」而
　令「变」为「读均匀」于「变换」而
　令「p」为「入」中「位」乘「变」中「缩放」加「变」中「平移」而
　「组值」【
　　「色」者「入」中「色」也，
　　「位置」者「p」中「零」与「p」中「一」与「新浮三二」于「零」与「新浮三二」于「一」也，
　　「号」者「入」中「号」也，
　　「差」者「新整三二」于（「入」中「序」）减（「新整三二」于「三」）也
　】
也。

「片」乃化「片入」为「片元颜色」者也。
「片」者得「入」而
　（若「入」中「号」等于（「新无三二」于「一」）则「舍弃」于「元」）；
　令「调」为（「读均匀」于「变换」）中「色调」而
　令「c」为「入」中「色」而
　「c」中「零」乘「调」中「零」
　与「c」中「一」乘「调」中「一」
　与「c」中「二」乘「调」中「二」加「新浮三二」于（「入」中「号」）乘（「新浮三二」于「零点二五」）
　与「新浮三二」于（「入」中「差」）乘（「新浮三二」于「零点一」）加（「新浮三二」于「零点五」）
也。

「彩带顶点」乃「顶点入口」也。
「彩带顶点」者「顶点入口项」于「顶」也。
「彩带片元」乃「片元入口」也。
「彩带片元」者「片元入口项」于「片」也。
""",
    # A full-screen triangle whose vertex entry returns only the clip position; the fragment entry takes
    # 片元坐标 as a plain parameter.  素 ＝ texel ((x＋移.x) mod w, (y＋移.y) mod h) via 读纹素/纹理尺寸 and a
    # uniform 二维无; 采 ＝ 采样纹理 at the horizontally mirrored pixel centre (nearest: texel (w−1−x, y));
    # colour ＝ (素.r/2 ＋ 采.r/2, 素.g, 采.b, 横差(x)/4 ＋ 纵差(y)/2 ＝ 0.75).
    "翻纹": """
「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「近」乃「采样器」也。
「近」者「采样器绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。
「移」乃「均匀缓冲」于「二维无」也。
「移」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「二」也】）也。

「全屏」乃化「顶点序号」为「裁剪位置」者也。
「全屏」者得「序」而
　令「u」为「新浮三二」于（（「序」左移（「新无三二」于「一」））按位与（「新无三二」于「二」））而
　令「v」为「新浮三二」于（「序」按位与（「新无三二」于「二」））而
　「u」乘（「新浮三二」于「二」）减（「新浮三二」于「一」）与「v」乘（「新浮三二」于「二」）减（「新浮三二」于「一」）与「新浮三二」于「零」与「新浮三二」于「一」
也。

「翻」乃化「片元坐标」为「片元颜色」者也。
「翻」者得「坐标」而
　令「尺」为「纹理尺寸」于「图」而
　令「x」为「转换」以「无三二」于（「坐标」中「零」）而
　令「y」为「转换」以「无三二」于（「坐标」中「一」）而
　令「m」为「读均匀」于「移」而
　令「素」为「读纹素」于「图」于（（「x」加「m」中「零」）余「尺」中「零」与（「y」加「m」中「一」）余「尺」中「一」）于「零」而
　令「uv」为（「新浮三二」于「一」减「坐标」中「零」除「新浮三二」于（「尺」中「零」））与「坐标」中「一」除「新浮三二」于（「尺」中「一」）而
　令「采」为「采样纹理」于「图」于「近」于「uv」而
　令「d」为「横差」于（「坐标」中「零」）乘（「新浮三二」于「零点二五」）加「纵差」于（「坐标」中「一」）乘（「新浮三二」于「零点五」）而
　「素」中「零」乘（「新浮三二」于「零点五」）加「采」中「零」乘（「新浮三二」于「零点五」）
　与「素」中「一」
　与「采」中「二」
　与「d」
也。

「全屏项」乃「顶点入口」也。
「全屏项」者「顶点入口项」于「全屏」也。
「翻项」乃「片元入口」也。
「翻项」者「片元入口项」于「翻」也。
""",
    # A curried vertex entry of 顶点序号 and 实例序号: instance 0 draws (0.1,0.1) (0.8,0.1) (0.1,0.8)
    # counter-clockwise, instance 1 the same mirrored in x (clockwise, a back face).  实例 flows flat to
    # the fragment, 权 ＝ f32(顶点序号) is interpolated.  The fragment returns a struct with depth first,
    # then the colour (1 for a front face else 0.5, 实例/2, 权, 1) and the incoming sample mask.
    "两面": """
「顶出」即「组类」【「位置」乃「裁剪位置」也，「实例」乃「无三二」也，「权」乃「浮三二」也】也。
「片入」即「组类」【「朝向」乃「正面朝向」也，「实例」乃「无三二」也，「权」乃「浮三二」也，「掩」乃「采样掩码」也】也。
「片出」即「组类」【「深度」乃「片元深度」也，「颜色」乃「片元颜色」也，「掩」乃「采样掩码」也】也。

「顶」乃化「顶点序号」又化「实例序号」为「顶出」者也。
「顶」者得「序」又得「例」而
　令「x」为若「序」等于（「新无三二」于「一」）则「新浮三二」于「零点八」否则「新浮三二」于「零点一」而
　令「y」为若「序」等于（「新无三二」于「二」）则「新浮三二」于「零点八」否则「新浮三二」于「零点一」而
　令「s」为若「例」等于（「新无三二」于「零」）则「新浮三二」于「一」否则 负（「新浮三二」于「一」）而
　「组值」【「位置」者「x」乘「s」与「y」与「新浮三二」于「零点五」与「新浮三二」于「一」也，
　　「实例」者「例」也，「权」者「新浮三二」于「序」也】
也。

「片」乃化「片入」为「片出」者也。
「片」者得「入」而
　「组值」【「深度」者「新浮三二」于「零点二五」也，
　　「颜色」者（若「入」中「朝向」则「新浮三二」于「一」否则「新浮三二」于「零点五」）
　　　与「新浮三二」于（「入」中「实例」）乘（「新浮三二」于「零点五」）与「入」中「权」与「新浮三二」于「一」也，
　　「掩」者「入」中「掩」也】
也。

「两面顶点」乃「顶点入口」也。
「两面顶点」者「顶点入口项」于「顶」也。
「两面片元」乃「片元入口」也。
「两面片元」者「片元入口项」于「片」也。
""",
    # One compute entry beside a vertex and a fragment entry; resources in group 1 (uniform binding 2,
    # texture binding 3) so that MSL slots are group×16＋binding ＝ 18 and 19.
    "混合": """
「数据」乃「存储缓冲」于（「数组」于「浮三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「色」乃「均匀缓冲」于「四维浮」也。
「色」者「均匀绑定」于（「组值」【「组」者「一」也，「号」者「二」也】）也。
「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「一」也，「号」者「三」也】）也。

「倍」乃化「全局调用号」为「有」者也。
「倍」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「读数组」于「数据」于（「号」中「零」）乘（「新浮三二」于「二」））也。

「顶」乃化「顶点序号」为「裁剪位置」者也。
「顶」者得「序」而「新浮三二」于「序」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」也。

「片」乃化「片元坐标」为「片元颜色」者也。
「片」者得「p」而「读均匀」于「色」加「读纹素」于「图」于（「转换」以「二维无」于（「p」中「零」与「p」中「一」））于「零」也。

「倍项」乃「计算入口」也。
「倍项」者「计算入口项」于「倍」于（「组值」【「工作组大小」者「六四」也】）也。
「顶项」乃「顶点入口」也。
「顶项」者「顶点入口项」于「顶」也。
「片项」乃「片元入口」也。
「片项」者「片元入口项」于「片」也。
""",
    # A depth texture with a comparison sampler (shadow lookup) and 按层采样纹理 of a colour texture; only
    # translated and type-checked (naga, the MSL shim), not rendered.
    "比较": """
「影」乃「深度纹理二维」也。
「影」者「深度纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「比」乃「比较采样器」也。
「比」者「比较采样器绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。
「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「二」也】）也。
「样」乃「采样器」也。
「样」者「采样器绑定」于（「组值」【「组」者「零」也，「号」者「三」也】）也。

「顶」乃化「顶点序号」为「裁剪位置」者也。
「顶」者得「序」而「新浮三二」于「序」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」也。

「片」乃化「片元坐标」为「片元颜色」者也。
「片」者得「p」而
　令「uv」为「p」中「零」乘（「新浮三二」于「零点一」）与「p」中「一」乘（「新浮三二」于「零点一」）而
　令「亮」为「比较采样」于「影」于「比」于「uv」于（「p」中「二」）而
　令「c」为「按层采样纹理」于「图」于「样」于「uv」于（「新浮三二」于「零」）而
　「c」乘（「亮」与「亮」与「亮」与「新浮三二」于「一」）
也。

「顶项」乃「顶点入口」也。
「顶项」者「顶点入口项」于「顶」也。
「片项」乃「片元入口」也。
「片项」者「片元入口项」于「片」也。
""",
}


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    root = tmp_path_factory.mktemp("qa_render")
    for name, body in PROGRAMS.items():
        (root / f"{name}。着色器。豫").write_text(PRELUDE + body.lstrip("\n"), encoding="utf-8")
    return Workspace(root)


def source(ws, name) -> Path:
    p = Path(ws.root) / f"{name}。着色器。豫"
    assert p.is_file(), p
    return p


def wgsl(ws, name) -> str:
    result = translate(ws, source(ws, name), "wgsl")
    assert result.diagnostics == [] and result.text is not None, [d.message for d in result.diagnostics]
    return result.text


def msl(ws, name) -> str:
    result = translate(ws, source(ws, name), "msl")
    assert result.diagnostics == [] and result.text is not None, [d.message for d in result.diagnostics]
    return result.text


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_checks_clean(ws, name):
    p = source(ws, name)
    assert [d.format(ws.source(d.path)) for d in ws.diagnostics(p)] == []


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_wgsl_passes_naga(ws, name):
    validate(wgsl(ws, name))


def test_entry_table(ws):
    stages = {(e.item, e.function, e.stage) for e in translate(ws, source(ws, "混合"), "wgsl").entries}
    assert stages == {("倍项", "倍", "计算"), ("顶项", "顶", "顶点"), ("片项", "片", "片元")}


def test_wgsl_io_attributes(ws):
    """着四.1/.3: builtins get @builtin, the other fields @location in order, integers flat."""
    text = wgsl(ws, "彩带")
    assert "@location(2) 号: u32" in text and "@builtin(vertex_index) 序: u32" in text
    assert "@location(0) 色: vec3<f32>" in text and "@builtin(position) 位置: vec4<f32>" in text
    assert "@location(1) @interpolate(flat) 号: u32" in text
    assert "@location(2) @interpolate(flat) 差: i32" in text
    text = wgsl(ws, "两面")
    assert "@builtin(frag_depth) 深度: f32" in text and "@builtin(sample_mask) 掩: u32" in text
    assert "@builtin(front_facing) 朝向: bool" in text
    assert re.search(r"fn 顶\(@builtin\(vertex_index\) 序: u32, @builtin\(instance_index\) 例: u32\) -> 顶出", text)
    assert "-> @builtin(position) vec4<f32>" in wgsl(ws, "翻纹")


# ---------------------------------------------------------------- rendering (NumPy from the programs' meaning)


def pixel_ndc(size):
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    return xs / size * 2 - 1, 1 - ys / size * 2


def barycentric(size, corners):
    px, py = pixel_ndc(size)
    (x0, y0), (x1, y1), (x2, y2) = corners
    d = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2)
    w0 = ((y1 - y2) * (px - x2) + (x2 - x1) * (py - y2)) / d
    w1 = ((y2 - y0) * (px - x2) + (x0 - x2) * (py - y2)) / d
    return np.stack([w0, w1, 1 - w0 - w1], -1)


def test_彩带_renders(ws):
    size = 48
    vertex = np.dtype([("位", np.float32, 2), ("色", np.float32, 3), ("号", np.uint32)])
    positions = np.array([[-1.8, -0.8], [-0.2, -0.8], [-1.0, 0.7],      # 号 0: left
                          [-2.0, -1.0], [2.0, -1.0], [0.0, 1.0],        # 号 1: over everything, discarded
                          [0.3, -0.6], [1.7, -0.6], [1.0, 0.9]])        # 号 2: right
    colours = rng().random((9, 3))
    data = np.zeros(9, vertex)
    data["位"], data["色"], data["号"] = positions, colours, np.repeat([0, 1, 2], 3)
    scale, shift, tint = np.array([0.5, 0.9]), np.array([0.05, -0.05]), np.array([1.0, 0.5, 0.25, 1.0])
    uniform = np.concatenate([scale, shift, tint]).astype(np.float32).tobytes()
    pixels = render(wgsl(ws, "彩带"), "顶", "片", size, 9,
                    vertex_buffers=[(data, [("float32x2", 0, 0), ("float32x3", 8, 1), ("uint32", 20, 2)])],
                    uniforms=[(0, 0, uniform)])
    expected = np.zeros((size, size, 4))
    covered = np.zeros((size, size), bool)
    uncertain = np.zeros((size, size), bool)
    ndc = positions * scale + shift
    for t in (0, 1, 2):
        w = barycentric(size, ndc[3 * t:3 * t + 3])
        inside = w.min(-1) > 0.02
        uncertain |= (w.min(-1) > -0.02) & ~inside
        if t == 1:
            continue        # discarded: what was there stays
        c = w @ colours[3 * t:3 * t + 3]
        expected[inside] = np.stack([c[..., 0] * tint[0], c[..., 1] * tint[1], c[..., 2] * tint[2] + t * 0.25,
                                     np.full(c.shape[:2], (3 * t - 3) * 0.1 + 0.5)], -1)[inside]
        covered |= inside
    assert covered.sum() > 300
    sure = ~uncertain
    close(pixels[sure], expected[sure].astype(np.float32), atol=2e-3)


def test_翻纹_renders(ws):
    size = 16
    image = (rng().integers(0, 32, (size, size, 4)) / 32).astype(np.float16)
    shift = np.array([3, 5], np.uint32)
    pixels = render(wgsl(ws, "翻纹"), "全屏", "翻", size, 3, uniforms=[(0, 2, shift.tobytes())],
                    textures=[(0, 0, image), (0, 1, {"mag_filter": "nearest", "min_filter": "nearest"})])
    img = image.astype(np.float32)
    ys, xs = np.mgrid[0:size, 0:size]
    texel = img[(ys + 5) % size, (xs + 3) % size]
    mirrored = img[ys, size - 1 - xs]
    expected = np.stack([texel[..., 0] * 0.5 + mirrored[..., 0] * 0.5, texel[..., 1], mirrored[..., 2],
                         np.full((size, size), 0.75)], -1).astype(np.float32)
    close(pixels, expected, atol=1e-6)


def test_两面_renders_front_and_back_faces(ws):
    size = 32
    pixels, depth = render_with_depth(wgsl(ws, "两面"), "顶", "片", size, 3, instances=2)
    expected = np.zeros((size, size, 4))
    uncertain = np.zeros((size, size), bool)
    corners = np.array([[0.1, 0.1], [0.8, 0.1], [0.1, 0.8]])
    for instance, mirror in ((0, 1.0), (1, -1.0)):
        w = barycentric(size, corners * [mirror, 1.0])
        inside = w.min(-1) > 0.03
        uncertain |= (w.min(-1) > -0.03) & ~inside
        weight = w[..., 1] * 1 + w[..., 2] * 2
        front = 1.0 if instance == 0 else 0.5           # CCW is the front face; the mirror image is CW
        expected[inside] = np.stack([np.full(weight.shape, front), np.full(weight.shape, instance * 0.5),
                                     weight, np.ones(weight.shape)], -1)[inside]
    assert (expected[..., 3] == 1).sum() > 100
    sure = ~uncertain
    close(pixels[sure], expected[sure].astype(np.float32), atol=2e-3)
    # 片元深度 0.25 replaces the interpolated z (0.5) where a triangle was drawn; elsewhere the clear value
    same(depth[sure], np.where(expected[sure][:, 3] == 1, 0.25, 1.0).astype(np.float32))


# ---------------------------------------------------------------- MSL (seed 着九)


def test_msl_type_checks_against_the_shim(ws):
    require_clang(pytest)
    texts = {name: msl(ws, name) for name in PROGRAMS}
    assert {n: unknown_attributes(t) for n, t in texts.items() if unknown_attributes(t)} == {}
    assert clang_check(texts) == {}


def _struct(text: str, name: str) -> str:
    m = re.search(rf"^struct {re.escape(name)} {{\n(.*?)^}};", text, re.M | re.S)
    assert m, f"没有结构 {name}:\n{text}"
    return m.group(1)


def test_msl_vertex_stage_in_and_outputs(ws):
    text = msl(ws, "彩带")
    stage_in = _struct(text, "yy_顶_入")
    assert re.search(r"float2 入_位 \[\[attribute\(0\)\]\];", stage_in)
    assert re.search(r"float3 入_色 \[\[attribute\(1\)\]\];", stage_in)
    assert re.search(r"uint 入_号 \[\[attribute\(2\)\]\];", stage_in)
    assert "序" not in stage_in                                   # the builtin is a parameter
    out = _struct(text, "点出")
    assert "float3 色 [[user(loc0)]];" in out and "float4 位置 [[position]];" in out
    assert "uint 号 [[user(loc1)]];" in out and "int 差 [[user(loc2)]];" in out
    assert re.search(r"vertex 点出 顶\([^)]*uint 入_序 \[\[vertex_id\]\][^)]*yy_顶_入 yy_入 \[\[stage_in\]\]"
                     r"[^)]*constant 变换类& 变换 \[\[buffer\(0\)\]\]\)", text)


def test_msl_fragment_stage_in(ws):
    text = msl(ws, "彩带")
    stage_in = _struct(text, "yy_片_入")
    assert "float3 入_色 [[user(loc0)]];" in stage_in
    assert "uint 入_号 [[user(loc1)]] [[flat]];" in stage_in
    assert "int 入_差 [[user(loc2)]] [[flat]];" in stage_in
    assert re.search(r"fragment float4 片\([^)]*float4 入_坐标 \[\[position\]\]", text)
    assert "discard_fragment();" in text


def test_msl_fragment_outputs_and_builtins(ws):
    text = msl(ws, "两面")
    out = _struct(text, "片出")
    assert "float 深度 [[depth(any)]];" in out and "float4 颜色 [[color(0)]];" in out
    assert "uint 掩 [[sample_mask]];" in out
    assert re.search(r"vertex 顶出 顶\(uint 序 \[\[vertex_id\]\], uint 例 \[\[instance_id\]\]\)", text)
    assert re.search(r"bool 入_朝向 \[\[front_facing\]\]", text)
    assert re.search(r"uint 入_掩 \[\[sample_mask\]\]", text)
    assert "uint 入_实例 [[user(loc0)]] [[flat]];" in _struct(text, "yy_片_入")


def test_msl_textures_samplers_and_derivatives(ws):
    text = msl(ws, "翻纹")
    assert re.search(r"^vertex float4 全屏\(uint 序 \[\[vertex_id\]\]\)", text, re.M)
    assert "texture2d<float> 图 [[texture(0)]]" in text and "sampler 近 [[sampler(1)]]" in text
    assert "constant uint2& 移 [[buffer(2)]]" in text
    assert "图.sample(近, uv)" in text and "dfdx(坐标.x)" in text and "dfdy(坐标.y)" in text


def test_msl_slots_are_group_times_16_plus_binding(ws):
    text = msl(ws, "混合")
    assert "constant float4& 色 [[buffer(18)]]" in text and "texture2d<float> 图 [[texture(19)]]" in text
    assert re.search(r"^vertex float4 顶\(", text, re.M) and re.search(r"^fragment float4 片\(", text, re.M)


def test_msl_depth_texture_and_comparison_sampler(ws):
    text = msl(ws, "比较")
    assert "depth2d<float> 影 [[texture(0)]]" in text and "sampler 比 [[sampler(1)]]" in text
    assert "影.sample_compare(比, uv, p.z)" in text and "图.sample(样, uv, level(0.0f))" in text
    text = wgsl(ws, "比较")
    assert "var 影: texture_depth_2d;" in text and "var 比: sampler_comparison;" in text
    assert "textureSampleCompare(影, 比, uv, p.z)" in text and "textureSampleLevel(图, 样, uv, 0.0f)" in text


# ---------------------------------------------------------------- PTX (seed 着十)


def test_ptx_turns_render_entries_into_comments(ws):
    result = translate(ws, source(ws, "混合"), "ptx")
    assert result.diagnostics == [] and result.text is not None and result.text.isascii()
    comments = [line for line in result.text.splitlines() if "yy_e9_a1_b6" in line or "yy_e7_89_87" in line]
    assert len(comments) == 2 and all(line.startswith("//") for line in comments), comments
    assert result.text.count(".entry") == 1
    assert [e.item for e in result.entries] == ["倍项"]


@pytest.mark.parametrize("name", ["彩带", "翻纹", "两面", "比较"])
def test_ptx_rejects_a_module_of_render_entries_only(ws, name):
    result = translate(ws, source(ws, name), "ptx")
    assert result.text is None and len(result.diagnostics) == 1
    assert "千手目标只支持计算入口" in result.diagnostics[0].message


# ---------------------------------------------------------------- rejections

VERTEX = ("「顶」乃化「顶点序号」为「裁剪位置」者也。\n"
          "「顶」者得「序」而「新浮三二」于「序」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」也。\n"
          "「顶项」乃「顶点入口」也。\n「顶项」者「顶点入口项」于「顶」也。\n")
FRAGMENT_ENTRY = "「片项」乃「片元入口」也。\n「片项」者「片元入口项」于「片」也。\n"
VERTEX_ENTRY = "「顶二项」乃「顶点入口」也。\n「顶二项」者「顶点入口项」于「顶二」也。\n"
CLIP = "「新浮三二」于「序」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」"
TEXTURE = ("「图」乃「纹理二维」于「浮三二」也。\n"
           "「图」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。\n")


def reject(name, target, text, definitions, fragments, short_of=None):
    marks = [pytest.mark.xfail(strict=True, reason=short_of)] if short_of else []
    return pytest.param(target, text, definitions, fragments, id=name, marks=marks)


REJECTIONS = [
    reject("compute_builtin_in_fragment", "wgsl",
           "「片」乃化「全局调用号」为「片元颜色」者也。\n"
           "「片」者得「号」而「新浮三二」于（「号」中「零」）与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」也。\n"
           + FRAGMENT_ENTRY, ("片项", "片"), ("「全局调用号」", "片元")),
    reject("frag_depth_as_fragment_input", "wgsl",
           "「片」乃化「片元深度」为「片元颜色」者也。\n「片」者得「d」而「d」与「d」与「d」与「新浮三二」于「一」也。\n"
           + VERTEX + FRAGMENT_ENTRY, ("片项", "片"), ("「片元深度」",)),
    reject("vertex_index_in_fragment", "wgsl",
           "「片」乃化「顶点序号」为「片元颜色」者也。\n「片」者得「序」而" + CLIP + "也。\n" + VERTEX + FRAGMENT_ENTRY,
           ("片项", "片"), ("「顶点序号」",)),
    reject("frag_coord_as_vertex_input", "wgsl",
           "「顶二」乃化「片元坐标」为「裁剪位置」者也。\n「顶二」者得「p」而「p」也。\n" + VERTEX_ENTRY,
           ("顶二项", "顶二"), ("「片元坐标」",)),
    reject("vertex_returning_colour", "wgsl",
           "「顶二」乃化「顶点序号」为「片元颜色」者也。\n「顶二」者得「序」而" + CLIP + "也。\n" + VERTEX_ENTRY,
           ("顶二项", "顶二"), ("「裁剪位置」",)),
    reject("msl_sampler_in_group_1", "msl",
           "「样」乃「采样器」也。\n「样」者「采样器绑定」于（「组值」【「组」者「一」也，「号」者「零」也】）也。\n" + TEXTURE
           + "「片」乃化「片元坐标」为「片元颜色」者也。\n"
             "「片」者得「p」而「采样纹理」于「图」于「样」于（「p」中「零」与「p」中「一」）也。\n" + VERTEX + FRAGMENT_ENTRY,
           ("样",), ("组 0",)),
    reject("msl_fragment_returning_depth_alone", "msl",
           "「片」乃化「片元坐标」为「片元深度」者也。\n「片」者得「p」而「p」中「二」也。\n" + VERTEX + FRAGMENT_ENTRY,
           ("片", "片项"), ("「片元深度」",)),
    reject("msl_workgroup_variable_in_fragment", "msl",
           "「共」乃「工作组变量」于（「定长数组」于「浮三二」于「四」）也。\n「共」者「工作组共享」于「元」也。\n"
           "「片」乃化「片元坐标」为「片元颜色」者也。\n"
           "「片」者得「p」而「写共享数组」于「共」于（「新无三二」于「零」）于（「p」中「零」）；「p」也。\n"
           + VERTEX + FRAGMENT_ENTRY, ("片", "片项"), ("「共」",)),
    # ---- stage rules and entry outputs every target shares (naga or WGSL would refuse these)
    reject("discard_in_vertex", "wgsl",
           "「顶二」乃化「顶点序号」为「裁剪位置」者也。\n"
           "「顶二」者得「序」而（若「序」等于（「新无三二」于「零」）则「舍弃」于「元」）；" + CLIP + "也。\n" + VERTEX_ENTRY,
           ("顶二", "顶二项"), ("「舍弃」",)),
    reject("derivative_in_compute", "wgsl",
           "「数据」乃「存储缓冲」于（「数组」于「浮三二」）也。\n"
           "「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n"
           "「算」乃化「全局调用号」为「有」者也。\n"
           "「算」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「横差」于（「读数组」于「数据」于（「号」中「零」）））也。\n"
           "「算项」乃「计算入口」也。\n「算项」者「计算入口项」于「算」于（「组值」【「工作组大小」者「四」也】）也。\n",
           ("算", "算项"), ("「横差」",)),
    reject("implicit_lod_sample_in_vertex", "wgsl",
           TEXTURE + "「样」乃「采样器」也。\n"
           "「样」者「采样器绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。\n"
           "「顶二」乃化「顶点序号」为「裁剪位置」者也。\n"
           "「顶二」者得「序」而「采样纹理」于「图」于「样」于（「新浮三二」于「零」与「新浮三二」于「零」）也。\n" + VERTEX_ENTRY,
           ("顶二", "顶二项"), ("「采样纹理」",)),
    reject("fragment_returning_bool", "wgsl",
           "「片」乃化「片元坐标」为「爻」者也。\n「片」者得「p」而「p」中「零」大于「新浮三二」于「一」也。\n"
           + VERTEX + FRAGMENT_ENTRY, ("片", "片项"), ("「爻」",)),
    reject("vertex_output_bool_field", "wgsl",
           "「出」即「组类」【「位置」乃「裁剪位置」也，「活」乃「爻」也】也。\n"
           "「顶二」乃化「顶点序号」为「出」者也。\n"
           "「顶二」者得「序」而「组值」【「位置」者" + CLIP + "也，「活」者「序」等于（「新无三二」于「零」）也】也。\n"
           + VERTEX_ENTRY, ("出", "顶二", "顶二项"), ("「活」",)),
    reject("sample_mask_as_vertex_output", "wgsl",
           "「出」即「组类」【「位置」乃「裁剪位置」也，「掩」乃「采样掩码」也】也。\n"
           "「顶二」乃化「顶点序号」为「出」者也。\n"
           "「顶二」者得「序」而「组值」【「位置」者" + CLIP + "也，「掩」者「序」也】也。\n" + VERTEX_ENTRY,
           ("出", "顶二", "顶二项"), ("「采样掩码」",)),
    reject("two_clip_positions", "wgsl",
           "「出」即「组类」【「位置」乃「裁剪位置」也，「二位置」乃「裁剪位置」也】也。\n"
           "「顶二」乃化「顶点序号」为「出」者也。\n"
           "「顶二」者得「序」而令「q」为" + CLIP + "而「组值」【「位置」者「q」也，「二位置」者「q」也】也。\n"
           + VERTEX_ENTRY, ("出", "顶二", "顶二项"), ("「裁剪位置」",)),
    reject("two_frag_depths", "wgsl",
           "「出」即「组类」【「深」乃「片元深度」也，「深二」乃「片元深度」也】也。\n"
           "「片」乃化「片元坐标」为「出」者也。\n"
           "「片」者得「p」而「组值」【「深」者「p」中「二」也，「深二」者「p」中「二」也】也。\n"
           + VERTEX + FRAGMENT_ENTRY, ("出", "片", "片项"), ("「片元深度」",)),
    reject("nested_struct_in_vertex_output", "wgsl",
           "「内」即「组类」【「a」乃「四维浮」也】也。\n"
           "「出」即「组类」【「位置」乃「裁剪位置」也，「套」乃「内」也】也。\n"
           "「顶二」乃化「顶点序号」为「出」者也。\n"
           "「顶二」者得「序」而「组值」【「位置」者" + CLIP + "也，「套」者「组值」【「a」者" + CLIP + "也】也】也。\n"
           + VERTEX_ENTRY, ("出", "顶二", "顶二项"), ("「套」",)),
    reject("workgroup_variable_in_fragment_wgsl", "wgsl",
           "「共」乃「工作组变量」于（「定长数组」于「浮三二」于「四」）也。\n「共」者「工作组共享」于「元」也。\n"
           "「片」乃化「片元坐标」为「片元颜色」者也。\n"
           "「片」者得「p」而「写共享数组」于「共」于（「新无三二」于「零」）于（「p」中「零」）；「p」也。\n"
           + VERTEX + FRAGMENT_ENTRY, ("片", "片项"), ("「共」",)),
]


@pytest.mark.parametrize("target, text, definitions, fragments", REJECTIONS)
def test_rejection(tmp_path, target, text, definitions, fragments):
    p = tmp_path / "错。着色器。豫"
    p.write_text(PRELUDE + text, encoding="utf-8")
    work = Workspace(tmp_path)
    result = translate(work, p, target)
    assert result.text is None
    assert len(result.diagnostics) == 1, [d.full_message() for d in result.diagnostics]
    d = result.diagnostics[0]
    assert d.definition in definitions, d.full_message()
    assert all(f in d.message for f in fragments), d.message
    assert re.search(r"[\u4e00-\u9fff]", d.message) and "Traceback" not in d.message
    line = work.source(p).position(d.start).line + 1
    defined_on = [i + 1 for i, l in enumerate((PRELUDE + text).splitlines()) if l.startswith(f"「{d.definition}」")]
    assert line in defined_on, (line, defined_on, d.full_message())
