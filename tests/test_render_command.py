"""`着色器 渲染`: a vertex + fragment pair drawn on the WebGPU adapter
(lavapipe on CI) and written as PNG.  The PNG is read back by a decoder
written here from the PNG specification (all five filter types, CRCs
checked), and its pixels are compared with NumPy: a rasterisation of
samples/三角形's known triangle with its interpolated colours, and a
full-screen gradient whose formula is fixed by the program.  Then the
mistakes: each a Chinese message, exit status 2, no traceback and no
PNG (nor a half-written one) left behind."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from support.png import paeth, read_png
from support.wgpu_device import adapter_info
from zhuose.cli.main import main
from zhuose.compiler.runtime.png import encode_png

ROOT = Path(__file__).resolve().parent.parent
TRIANGLE = ROOT / "samples" / "三角形。着色器。豫"
PRELUDE = "寻观「点染」之「点染本」之书。\n\n"

# A full-screen triangle; the fragment colour is (x / 宽, y / 高, 0.25, 1) of the pixel centre,
# 宽 and 高 read from a uniform buffer.
GRADIENT = PRELUDE + """
「尺寸」乃「均匀缓冲」于「二维浮」也。
「尺寸」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。

「满屏」乃化「顶点序号」为「裁剪位置」者也。
「满屏」者得「序」而
　令「x」为若「序」等于（「新无三二」于「一」）则「新浮三二」于「3」否则 负（「新浮三二」于「1」）而
　令「y」为若「序」等于（「新无三二」于「二」）则「新浮三二」于「3」否则 负（「新浮三二」于「1」）而
　「x」与「y」与（「新浮三二」于「0」）与（「新浮三二」于「1」）
也。

「渐变」乃化「片元坐标」为「片元颜色」者也。
「渐变」者得「p」而
　令「尺」为「读均匀」于「尺寸」而
　「p」中「零」除「尺」中「零」与（「p」中「一」除「尺」中「一」）与（「新浮三二」于「0.25」）与（「新浮三二」于「1」）
也。

「满屏顶点」乃「顶点入口」也。
「满屏顶点」者「顶点入口项」于「满屏」也。

「渐变片元」乃「片元入口」也。
「渐变片元」者「片元入口项」于「渐变」也。

「日志」乃「存储缓冲」于（「数组」于「无三二」）也。
「日志」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。

「算」乃化「全局调用号」为「有」者也。
「算」者得「号」而「写数组」于「日志」于（「号」中「零」）于（「号」中「零」）也。
「算入口」乃「计算入口」也。
「算入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「四」也】）也。
"""

# Vertex positions from a read-only storage buffer by 「顶点序号」 (what 渲染 offers instead of vertex buffers).
FROM_BUFFER = PRELUDE + """
「点」乃「存储缓冲」于（「数组」于「二维浮」）也。
「点」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「只读」也】）也。

「取点」乃化「顶点序号」为「裁剪位置」者也。
「取点」者得「序」而
　令「q」为「读数组」于「点」于「序」而
　「q」中「零」与「q」中「一」与（「新浮三二」于「0」）与（「新浮三二」于「1」）
也。

「白」乃化「片元坐标」为「片元颜色」者也。
「白」者得「p」而「新浮三二」于「1」与（「新浮三二」于「1」）与（「新浮三二」于「1」）与（「新浮三二」于「1」）也。

「取点顶点」乃「顶点入口」也。
「取点顶点」者「顶点入口项」于「取点」也。
「白片元」乃「片元入口」也。
「白片元」者「片元入口项」于「白」也。
"""

# A full-screen copy of a texture: each pixel reads the texel under it.
COPY = PRELUDE + """
「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。

「满屏」乃化「顶点序号」为「裁剪位置」者也。
「满屏」者得「序」而
　令「x」为若「序」等于（「新无三二」于「一」）则「新浮三二」于「3」否则 负（「新浮三二」于「1」）而
　令「y」为若「序」等于（「新无三二」于「二」）则「新浮三二」于「3」否则 负（「新浮三二」于「1」）而
　「x」与「y」与（「新浮三二」于「0」）与（「新浮三二」于「1」）
也。

「拷」乃化「片元坐标」为「片元颜色」者也。
「拷」者得「p」而
　「读纹素」于「图」于（「新整三二」于（「p」中「零」）与「新整三二」于（「p」中「一」））于（「新整三二」于「0」）
也。

「拷贝顶点」乃「顶点入口」也。
「拷贝顶点」者「顶点入口项」于「满屏」也。
「拷贝片元」乃「片元入口」也。
「拷贝片元」者「片元入口项」于「拷」也。
"""

# The fragment wants a 「四维浮」 where the vertex gives a 「三维浮」 at location 0.
MISMATCHED = PRELUDE + """
「顶出」即「组类」【「位置」乃「裁剪位置」也，「色」乃「三维浮」也】也。
「片入」即「组类」【「坐标」乃「片元坐标」也，「色」乃「四维浮」也】也。
「顶」乃化「顶点序号」为「顶出」者也。
「顶」者得「序」而「组值」【
　「位置」者「新浮三二」于「0」与（「新浮三二」于「0」）与（「新浮三二」于「0」）与（「新浮三二」于「1」）也，
　「色」者「新浮三二」于「1」与（「新浮三二」于「1」）与（「新浮三二」于「1」）也
】也。

「片」乃化「片入」为「片元颜色」者也。
「片」者得「入」而「入」中「色」也。

「顶入口」乃「顶点入口」也。
「顶入口」者「顶点入口项」于「顶」也。
「片入口」乃「片元入口」也。
「片入口」者「片元入口项」于「片」也。
"""

# A vertex attribute (location 0 input) for which no --顶点/--实例 data is given.
ATTRIBUTE = PRELUDE + """
「点入」即「组类」【「位」乃「四维浮」也，「序」乃「顶点序号」也】也。

「顶」乃化「点入」为「裁剪位置」者也。
「顶」者得「入」而「入」中「位」也。

「片」乃化「片元坐标」为「片元颜色」者也。
「片」者得「p」而「p」也。

「顶入口」乃「顶点入口」也。
「顶入口」者「顶点入口项」于「顶」也。
「片入口」乃「片元入口」也。
「片入口」者「片元入口项」于「片」也。
"""


# ---------------------------------------------------------------- an independent PNG reader


def test_the_png_writer_round_trips_through_the_spec_reader():
    rng = np.random.default_rng(16)
    pixels = rng.integers(0, 256, size=(5, 7, 4), dtype=np.uint8)
    assert np.array_equal(read_png(encode_png(pixels.tobytes(), 7, 5)), pixels)


def _filtered(pixels: np.ndarray) -> bytes:
    """The scanlines of (h, w, 4) pixels, row y filtered with filter type y mod 5 (None, Sub, Up, Average,
    Paeth), each byte minus its predictor from the left (a), upper (b) and upper-left (c) bytes."""
    rows, previous = [], np.zeros(pixels.shape[1] * 4, dtype=np.int32)
    for y, line in enumerate(pixels.reshape(pixels.shape[0], -1).astype(np.int32)):
        a = np.concatenate([np.zeros(4, np.int32), line[:-4]])
        c = np.concatenate([np.zeros(4, np.int32), previous[:-4]])
        predictor = [0, a, previous, (a + previous) // 2, paeth(a, previous, c)][y % 5]
        rows.append(bytes([y % 5]) + ((line - predictor) & 0xFF).astype(np.uint8).tobytes())
        previous = line
    return b"".join(rows)


def test_the_reader_undoes_every_filter():
    """The reader is not blind to filters (the writer uses only None): five rows, one per filter type."""
    pixels = np.random.default_rng(5).integers(0, 256, size=(5, 3, 4), dtype=np.uint8)
    png = encode_png(pixels.tobytes(), 3, 5)
    idat = zlib.compress(_filtered(pixels))
    chunk = struct.pack(">I", len(idat)) + b"IDAT" + idat + struct.pack(">I", zlib.crc32(b"IDAT" + idat))
    assert np.array_equal(read_png(png[:33] + chunk + png[-12:]), pixels)


# ---------------------------------------------------------------- running the command


def render(cwd: Path, monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """`着色器 渲染 …` in this process (the device is opened once for all tests)."""
    monkeypatch.chdir(cwd)
    status = main(["渲染", *args])
    out, err = capsys.readouterr()
    return status, out, err


def expected_triangle(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """samples/三角形 by NumPy: clip-space corners (−½,−½), (½,−½), (0,½) with red 0, ½, 1 (green 0.2,
    blue 1, alpha 1; the provoking vertex's 符号 is −1, so the colour is not halved), linearly
    interpolated (w = 1); outside, the clear colour 0.  Also which pixels are certain: their centre
    more than a pixel from every edge, so the rasteriser's edge rules cannot matter there."""
    corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.0, 0.5]])
    sx, sy = (corners[:, 0] + 1) / 2 * width, (1 - corners[:, 1]) / 2 * height
    py, px = np.mgrid[0:height, 0:width] + 0.5

    def weights(x, y):
        (x0, x1, x2), (y0, y1, y2) = sx, sy
        area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
        w0 = ((x1 - x) * (y2 - y) - (x2 - x) * (y1 - y)) / area
        w1 = ((x2 - x) * (y0 - y) - (x0 - x) * (y2 - y)) / area
        return w0, w1, 1 - w0 - w1

    w0, w1, w2 = weights(px, py)
    inside = (w0 >= 0) & (w1 >= 0) & (w2 >= 0)
    certain = np.ones_like(inside)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        certain &= (np.minimum.reduce(weights(px + dx, py + dy)) >= 0) == inside
    colour = np.stack([0.5 * w1 + 1.0 * w2, np.full_like(w0, 0.2), np.ones_like(w0), np.ones_like(w0)], axis=-1)
    return np.where(inside[..., None], np.round(colour * 255), 0), certain


def test_the_triangle_sample_renders_the_pixels_numpy_computes(tmp_path, monkeypatch, capsys):
    adapter_info()
    shutil.copy(TRIANGLE, tmp_path / TRIANGLE.name)
    status, out, err = render(tmp_path, monkeypatch, capsys, TRIANGLE.name, "三角形顶点", "三角形片元",
                              "--尺寸", "96,64", "--顶点数", "3", "--输出", "三角形.png")
    assert (status, out) == (0, "写出 三角形.png（96×64）\n"), err
    pixels = read_png((tmp_path / "三角形.png").read_bytes()).astype(int)
    want, certain = expected_triangle(96, 64)
    assert pixels.shape == (64, 96, 4)
    assert certain.sum() > 0.85 * certain.size and (want[..., 3] > 0).sum() == 48 * 32 // 2
    assert np.abs(pixels - want)[certain].max() <= 2


def test_a_fragment_entry_writing_depth_and_the_sample_mask_renders(tmp_path, monkeypatch, capsys):
    """片元内建 writes 片元深度 (WebGPU wants a depth attachment for that) and the sample mask 0 in
    the top 8 rows: the front-facing triangle of instance 0 is drawn below them only."""
    adapter_info()
    sample = ROOT / "samples" / "片元内建。着色器。豫"
    shutil.copy(sample, tmp_path / sample.name)
    status, out, err = render(tmp_path, monkeypatch, capsys, sample.name, "片元内建顶点", "片元内建片元",
                              "--尺寸", "32,32", "--顶点数", "3", "--输出", "片.png")
    assert (status, out) == (0, "写出 片.png（32×32）\n"), err
    pixels = read_png((tmp_path / "片.png").read_bytes()).astype(int)
    ys, xs = np.mgrid[0:32, 0:32] + 0.5
    px, py = xs / 16 - 1, 1 - ys / 16
    margin = np.minimum.reduce([px - 0.1, py - 0.1, 0.9 - px - py])     # the triangle (0.1,0.1) (0.8,0.1) (0.1,0.8)
    colour = np.round(np.array([1.0, 0.25, 0.125, 1.0]) * 255)           # front face, sample 0, mask 1
    drawn, clear = (margin > 0.03) & (ys > 8), (margin < -0.03) | (ys < 8)
    assert drawn.sum() > 20 and ((margin > 0.03) & (ys < 8)).sum() > 3
    assert np.abs(pixels[drawn] - colour).max() <= 1
    assert (pixels[clear] == 0).all()


def test_a_uniform_feeds_a_gradient_and_rows_run_top_down(tmp_path, monkeypatch, capsys):
    adapter_info()
    (tmp_path / "渐变。着色器。豫").write_text(GRADIENT, encoding="utf-8")
    status, out, err = render(tmp_path, monkeypatch, capsys, "渐变。着色器。豫", "满屏顶点", "渐变片元",
                              "尺寸=40,24", "--尺寸", "40,24", "--输出", "渐变.png")
    assert status == 0, err
    pixels = read_png((tmp_path / "渐变.png").read_bytes()).astype(int)
    y, x = np.mgrid[0:24, 0:40] + 0.5
    want = np.round(np.stack([x / 40, y / 24, np.full_like(x, 0.25), np.ones_like(x)], axis=-1) * 255)
    assert np.abs(pixels - want).max() <= 1


def test_vertices_come_from_a_storage_buffer_by_their_index(tmp_path, monkeypatch, capsys):
    """The lower-left half of the picture, the triangle (−1,−1), (1,−1), (−1,1) read from 0:0."""
    adapter_info()
    (tmp_path / "取点。着色器。豫").write_text(FROM_BUFFER, encoding="utf-8")
    status, _, err = render(tmp_path, monkeypatch, capsys, "取点。着色器。豫", "取点顶点", "白片元",
                            "0:0=-1,-1,1,-1,-1,1", "--尺寸", "32,32", "--输出", "半.png")
    assert status == 0, err
    pixels = read_png((tmp_path / "半.png").read_bytes())
    y, x = np.mgrid[0:32, 0:32]
    assert (pixels[x + 1 < y] == 255).all() and (pixels[x > y + 1] == 0).all()


def test_a_texture_is_given_as_for_yunxing_and_copied_pixel_for_pixel(tmp_path, monkeypatch, capsys):
    adapter_info()
    image = np.random.default_rng(7).integers(0, 256, size=(6, 10, 4), dtype=np.uint8)
    (tmp_path / "输入.png").write_bytes(encode_png(image.tobytes(), 10, 6))
    (tmp_path / "拷贝。着色器。豫").write_text(COPY, encoding="utf-8")
    status, out, err = render(tmp_path, monkeypatch, capsys, "拷贝。着色器。豫", "拷贝顶点", "拷贝片元",
                              "图=输入.png", "--尺寸", "10,6", "--输出", "拷贝.png")
    assert (status, out) == (0, "写出 拷贝.png（10×6）\n"), err
    assert np.array_equal(read_png((tmp_path / "拷贝.png").read_bytes()), image)
    status, _, err = render(tmp_path, monkeypatch, capsys, "拷贝。着色器。豫", "拷贝顶点", "拷贝片元",
                            "--尺寸", "10,6", "--输出", "无图.png")
    assert status == 2 and "入口项「拷贝顶点」与「拷贝片元」用到组 0 号 0「图」（纹理），没有给出它的图像" in err, err


def test_the_command_line_run_has_no_traceback_and_writes_the_png(tmp_path):
    adapter_info()
    shutil.copy(TRIANGLE, tmp_path / TRIANGLE.name)
    done = subprocess.run([sys.executable, "-m", "zhuose.cli", "渲染", TRIANGLE.name, "三角形顶点", "三角形片元",
                           "--尺寸", "16,8", "--输出", "小.png"], cwd=tmp_path, capture_output=True, text=True,
                          encoding="utf-8", timeout=300)
    assert (done.returncode, done.stdout) == (0, "写出 小.png（16×8）\n"), done.stderr
    assert read_png((tmp_path / "小.png").read_bytes()).shape == (8, 16, 4)


# ---------------------------------------------------------------- mistakes: exit 2, a message, no picture


# A vertex stage drawing nothing much, for the fragment-side mistakes below.
CORNER = """
「顶」乃化「顶点序号」为「顶出」者也。
「顶」者得「序」而「组值」【
　「位置」者「新浮三二」于「0」与（「新浮三二」于「0」）与（「新浮三二」于「0」）与（「新浮三二」于「1」）也，
　「号」者「新无三二」于「1」也
】也。

「顶入口」乃「顶点入口」也。
「顶入口」者「顶点入口项」于「顶」也。
「片入口」乃「片元入口」也。
「片入口」者「片元入口项」于「片」也。
"""

# An integer colour at location 0: an rgba8unorm target takes floats.
INTEGER_COLOUR = PRELUDE + """
「顶出」即「组类」【「位置」乃「裁剪位置」也，「号」乃「无三二」也】也。

「片」乃化「片元坐标」为「四维无」者也。
「片」者得「p」而「新无三二」于「1」与（「新无三二」于「1」）与（「新无三二」于「1」）与（「新无三二」于「1」）也。
""" + CORNER

# The fragment reads location 1, which the vertex stage (one value, 「号」) does not write.
UNFED = PRELUDE + """
「顶出」即「组类」【「位置」乃「裁剪位置」也，「号」乃「无三二」也】也。
「片入」即「组类」【「坐标」乃「片元坐标」也，「号」乃「无三二」也，「色」乃「四维浮」也】也。

「片」乃化「片入」为「片元颜色」者也。
「片」者得「入」而「入」中「色」也。
""" + CORNER

MISTAKES = {
    "a compute entry as the vertex entry": (
        GRADIENT, ["算入口", "渐变片元", "尺寸=1,1"], "「算入口」是计算入口项，这里要顶点入口项"),
    "the two entries swapped": (
        GRADIENT, ["渐变片元", "满屏顶点", "尺寸=1,1"], "「渐变片元」是片元入口项，这里要顶点入口项"),
    "an entry that does not exist": (
        GRADIENT, ["满屏顶点", "无此片元", "尺寸=1,1"], "「无此片元」不是这个文件的入口项；片元入口项有 「渐变片元」"),
    "a vertex output unlike the fragment input": (
        MISMATCHED, ["顶入口", "片入口"], "接口不符：位置 0 上顶点输出「色」是「三维浮」，片元输入「色」是「四维浮」"),
    "a vertex attribute": (
        ATTRIBUTE, ["顶入口", "片入口"], "顶点入口项「顶入口」的输入「位」（位置 0）要顶点数据：写 --顶点 位=文件.npy"),
    "an integer colour": (
        INTEGER_COLOUR, ["顶入口", "片入口"], "片元入口项「片入口」位置 0 上是「四维无」：渲染 的目标是 rgba8unorm"),
    "a fragment input no vertex output feeds": (
        UNFED, ["顶入口", "片入口"], "片元入口项「片入口」的输入「色」（位置 1）没有对应的顶点输出：顶点入口项「顶入口」只输出 1 个插值量"),
    "a missing buffer": (
        GRADIENT, ["满屏顶点", "渐变片元"], "入口项「满屏顶点」与「渐变片元」用到组 0 号 0「尺寸」（均匀缓冲），没有给出它的数据"),
    "a size of one number": (
        GRADIENT, ["满屏顶点", "渐变片元", "尺寸=1,1", "--尺寸", "64"], "--尺寸「64」应写成 宽,高"),
    "a zero width": (
        GRADIENT, ["满屏顶点", "渐变片元", "尺寸=1,1", "--尺寸", "0,8"], "--尺寸「0,8」的宽高须在 1 至 8192 之间"),
    "a size beyond WebGPU's limit": (
        GRADIENT, ["满屏顶点", "渐变片元", "尺寸=1,1", "--尺寸", "9000,8"], "须在 1 至 8192 之间"),
    "a vertex count that is not a number": (
        GRADIENT, ["满屏顶点", "渐变片元", "尺寸=1,1", "--顶点数", "三"], "--顶点数「三」应是正整数"),
}


@pytest.mark.parametrize("case", MISTAKES, ids=list(MISTAKES))
def test_a_mistake_is_one_chinese_message_and_no_png(tmp_path, monkeypatch, capsys, case):
    text, args, message = MISTAKES[case]
    (tmp_path / "例。着色器。豫").write_text(text, encoding="utf-8")
    status, out, err = render(tmp_path, monkeypatch, capsys, "例。着色器。豫", *args, "--输出", "图.png")
    assert status == 2 and message in err and "Traceback" not in err, err
    assert err.startswith("着色器：") and err.count("\n") == 1 and out == ""
    assert list(tmp_path.iterdir()) == [tmp_path / "例。着色器。豫"]


def test_the_output_must_be_a_png_in_an_existing_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "例。着色器。豫").write_text(GRADIENT, encoding="utf-8")
    for output, message in (("图.jpg", "须是 .png 文件"), ("无此夹/图.png", "所在的文件夹不存在")):
        status, _, err = render(tmp_path, monkeypatch, capsys, "例。着色器。豫", "满屏顶点", "渐变片元", "尺寸=1,1",
                                "--输出", output)
        assert status == 2 and message in err, err


def test_no_adapter_is_a_message_and_the_old_picture_stays(tmp_path, monkeypatch, capsys):
    from zhuose.compiler.runtime import render as runtime, wgpu

    def no_adapter(features):
        raise wgpu.WebGPUError("没有可用的 WebGPU 适配器（装上 Vulkan 驱动，如 Debian 的 mesa-vulkan-drivers）")
    monkeypatch.setattr(runtime, "open_device", no_adapter)
    (tmp_path / "例。着色器。豫").write_text(GRADIENT, encoding="utf-8")
    (tmp_path / "图.png").write_bytes(b"old")
    status, out, err = render(tmp_path, monkeypatch, capsys, "例。着色器。豫", "满屏顶点", "渐变片元", "尺寸=1,1",
                              "--输出", "图.png")
    assert (status, out) == (2, "") and err == "着色器：没有可用的 WebGPU 适配器（装上 Vulkan 驱动，如 Debian 的 mesa-vulkan-drivers）\n"
    assert (tmp_path / "图.png").read_bytes() == b"old" and len(list(tmp_path.iterdir())) == 2


def test_a_failed_write_leaves_no_half_file(tmp_path, monkeypatch, capsys):
    """The PNG goes to a temporary file that replaces the output in one rename: when the write fails
    part-way, the old picture stays and no temporary file is left."""
    adapter_info()
    import os
    shutil.copy(TRIANGLE, tmp_path / TRIANGLE.name)
    (tmp_path / "图.png").write_bytes(b"old")
    real_fdopen = os.fdopen

    class Broken:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            self.f.write(data[:10])
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Broken(real_fdopen(fd, mode)))
    status, _, err = render(tmp_path, monkeypatch, capsys, TRIANGLE.name, "三角形顶点", "三角形片元",
                            "--尺寸", "8,8", "--输出", "图.png")
    assert status == 2 and "写不了「图.png」：磁盘已满" in err, err
    assert (tmp_path / "图.png").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([TRIANGLE.name, "图.png"])


def test_a_long_draw_says_so_on_stderr(tmp_path, monkeypatch, capsys):
    adapter_info()
    import time
    from zhuose.cli import render as command
    real = command.render

    def slow(*args, **kwargs):
        time.sleep(0.5)
        return real(*args, **kwargs)
    monkeypatch.setattr(command, "render", slow)
    monkeypatch.setattr(command, "PROGRESS_AFTER_S", 0.05)
    shutil.copy(TRIANGLE, tmp_path / TRIANGLE.name)
    status, _, err = render(tmp_path, monkeypatch, capsys, TRIANGLE.name, "三角形顶点", "三角形片元",
                            "--尺寸", "8,8", "--输出", "图.png")
    assert (status, err) == (0, "着色器：正在渲染 8×8（3 个顶点）……\n")
