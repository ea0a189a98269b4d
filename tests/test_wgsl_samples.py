"""Every sample's WGSL: equal to its golden 名.wgsl, accepted by naga on a real
WebGPU device, and — for every compute entry — executed and compared with its
NumPy reference (tests/support/references.py); vertex+fragment pairs render and their
pixels are checked."""

from __future__ import annotations

import numpy as np
import pytest

from support.references import NOT_WGSL, REFERENCES, SAMPLES, close, rng, same, sample_name, sample_path, translatable
from support.wgpu_device import render, render_with_depth, run_entry, validate
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace

WS = Workspace(SAMPLES)
TRANSLATABLE = [p for p in translatable(WS) if sample_name(p) not in NOT_WGSL]


def test_samples_are_there():
    assert len(TRANSLATABLE) >= 25, [str(p) for p in TRANSLATABLE]


@pytest.mark.parametrize("path", TRANSLATABLE, ids=sample_name)
def test_golden_and_naga(path):
    result = translate(WS, path, "wgsl")
    assert result.diagnostics == []
    golden = path.with_name(path.name.replace("。着色器。豫", ".wgsl"))
    assert golden.is_file(), f"缺少期望的 WGSL：{golden}"
    assert result.text == golden.read_text(encoding="utf-8")
    validate(result.text)


@pytest.mark.parametrize("name", sorted(NOT_WGSL))
def test_what_wgsl_cannot_express_is_a_translation_error(name):
    """Seed 着十二: WGSL has no subgroup matrices; 译 says so at the call."""
    result = translate(WS, sample_path(name), "wgsl")
    assert result.text is None and result.diagnostics
    assert all(NOT_WGSL[name] in d.message for d in result.diagnostics)
    assert not (sample_path(name).with_name(f"{name}.wgsl")).exists()


# ---------------------------------------------------------------- running


def wgsl_run(sample: str, entry: str, data: dict[str, np.ndarray], groups, textures=()) -> dict[str, np.ndarray]:
    """The references' runner: WGSL on the WebGPU device."""
    return run_entry(WS, sample_path(sample), entry, data, groups, textures)


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_runs_like_numpy(name):
    if name in NOT_WGSL:
        pytest.skip(f"跳过：{name} 不能译成 WGSL（{NOT_WGSL[name]}），由能译它的目标运行")
    REFERENCES[name](wgsl_run)


def test_every_compute_entry_has_a_reference():
    """A new compute sample must come with a NumPy reference in references.py."""
    for path in TRANSLATABLE:
        if any(e.stage == "计算" for e in translate(WS, path, "wgsl").entries):
            assert sample_name(path) in REFERENCES, sample_name(path)


# ---------------------------------------------------------------- rendering


def _barycentric(size, corners):
    """Barycentric weights of every pixel centre of a size×size target."""
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    px, py = xs / size * 2 - 1, 1 - ys / size * 2
    (x0, y0), (x1, y1), (x2, y2) = corners
    d = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2)
    w0 = ((y1 - y2) * (px - x2) + (x2 - x1) * (py - y2)) / d
    w1 = ((y2 - y0) * (px - x2) + (x0 - x2) * (py - y2)) / d
    return np.stack([w0, w1, 1 - w0 - w1], -1)


def test_三角形_renders():
    text = translate(WS, SAMPLES / "三角形。着色器。豫", "wgsl").text
    pixels = render(text, "顶点", "片元", 64, 3)
    w = _barycentric(64, [(-0.5, -0.5), (0.5, -0.5), (0.0, 0.5)])
    inside, outside = w.min(-1) > 0.02, w.min(-1) < -0.02
    red = w[..., 1] * 0.5 + w[..., 2] * 1.0          # 颜色 ＝ 序 × 0.5（插值）
    assert inside.sum() > 400
    close(pixels[inside][:, 0], red[inside], atol=2e-3)
    same(pixels[inside][:, 3], np.ones(inside.sum(), np.float32))
    close(pixels[inside][:, 1:3], np.tile([0.2, 1.0], (inside.sum(), 1)), atol=1e-6)
    same(pixels[outside], np.zeros((outside.sum(), 4), np.float32))


def test_导数_renders_fine_and_coarse_derivatives():
    """Pixel centres x ＝ 列 ＋ 0.5, y ＝ 行 ＋ 0.5; a 2×2 quad's fine derivative of x² is
    (x₁² − x₀²) ＝ 2(2⌊列/2⌋ ＋ 1); the fine derivatives of x·y are the fragment's own y and x;
    the quad swaps reach the fragment beside (even columns: right) and below (even rows: down)."""
    size = 16
    text = translate(WS, SAMPLES / "导数。着色器。豫", "wgsl").text
    pixels = render(text, "全屏", "求导", size, 3)
    rows, columns = np.mgrid[0:size, 0:size]
    x, y = columns + 0.5, rows + 0.5
    expected = np.stack([2 * (2 * (columns // 2) + 1) / 32, 2 * (2 * (rows // 2) + 1) / 32,
                         (5 + np.where(columns % 2, -1, 1) + np.where(rows % 2, -1, 1)) / 8,
                         3 / 8 + 2 / 16 + (x + y) / 128], -1)
    close(pixels, expected.astype(np.float32), atol=1e-6)


def test_片元内建_renders_faces_depth_and_the_sample_mask():
    """Both faces (instance 1 is the mirror image, clockwise), 片元深度 from 片元坐标, and the
    sample mask written 0 in the top 8 rows, where neither colour nor depth is written."""
    size = 32
    text = translate(WS, SAMPLES / "片元内建。着色器。豫", "wgsl").text
    pixels, depth = render_with_depth(text, "顶", "片", size, 3, instances=2)
    expected, expected_depth = np.zeros((size, size, 4)), np.ones((size, size))
    sure = np.ones((size, size), bool)
    rows, columns = np.mgrid[0:size, 0:size]
    masked = 0
    for mirror, face in ((1.0, 1.0), (-1.0, 0.5)):       # counter-clockwise is the front face
        w = _barycentric(size, [(0.1 * mirror, 0.1), (0.8 * mirror, 0.1), (0.1 * mirror, 0.8)])
        masked += ((w.min(-1) > 0.03) & (rows < 8)).sum()
        inside = (w.min(-1) > 0.03) & (rows >= 8)
        sure &= ~((w.min(-1) > -0.03) & (w.min(-1) <= 0.03))
        expected[inside] = (face, 0.25, 0.125, 1.0)        # sample 0; the mask of one sample is 1
        expected_depth[inside] = ((columns + 0.5) / size)[inside]
    assert (expected[..., 3] == 1).sum() > 50 and (expected[..., 0] == 0.5).sum() > 20 and masked > 10
    close(pixels[sure], expected[sure].astype(np.float32), atol=1e-6)
    close(depth[sure], expected_depth[sure].astype(np.float32), atol=1e-6)


def test_纹理_renders_the_texture():
    text = translate(WS, SAMPLES / "纹理。着色器。豫", "wgsl").text
    image = (rng().integers(0, 32, (16, 16, 4)) / 32).astype(np.float16)
    pixels = render(text, "全屏", "着色", 16, 3,
                    textures=[(0, 0, image), (0, 1, {"mag_filter": "nearest", "min_filter": "nearest"})])
    close(pixels, image.astype(np.float32), atol=1e-6)
