"""The ports of real public shaders (samples/移植/): each runs to the same
numbers as an independent NumPy reference on every executor (their compute
references live in support/references_ports.py and run with every other
sample's); here the render port's pixels, and the rule that every port is
checked.  bench/bench_ports.py compares each port with its original WGSL."""

from __future__ import annotations

import numpy as np

from support.references import REFERENCES, SAMPLES, sample_name
from support.wgpu_device import render
from zhuose.compiler.backends import translate
from zhuose.compiler.runtime.render import VertexInput, render as draw
from zhuose.compiler.runtime.textures import input_texture
from zhuose.compiler.runtime.wgpu import BufferData
from zhuose.compiler.workspace import Workspace

WS = Workspace(SAMPLES)
PORTS = sorted((SAMPLES / "移植").glob("*。着色器。豫"))
RENDERED = {"移植/你好三角形", "移植/生命画格", "移植/全屏纹理"}


def test_every_port_is_checked_against_numpy():
    assert len(PORTS) >= 8
    for path in PORTS:
        assert sample_name(path) in REFERENCES or sample_name(path) in RENDERED, sample_name(path)


def test_hello_triangle_port_renders_red_inside_the_triangle():
    result = translate(WS, SAMPLES / "移植/你好三角形。着色器。豫", "wgsl")
    size = 32
    pixels = render(result.text, "顶点", "红", size, 3)
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    x, y = xs / size * 2 - 1, 1 - ys / size * 2             # pixel centres never lie on an edge at this size
    inside = (y <= 2 * x + 1) & (y <= 1 - 2 * x)
    expected = np.where(inside[..., None], np.array([1, 0, 0, 1], np.float32), np.float32(0))
    np.testing.assert_array_equal(pixels, expected)
    assert 0.4 < inside.mean() < 0.6


def test_game_of_life_cells_port_draws_each_live_cell_white():
    """Cell k (column k mod 8, row k ÷ 8, rows upward from clip y −0.75) covers an 8×8 pixel
    square of the 64×64 target: white when alive, black when dead, clear outside the board."""
    w, h, size = 8, 6, 64
    cells = np.random.default_rng(7).integers(0, 2, w * h, dtype=np.uint32)
    corners = np.array([[0, 0], [1, 0], [0, 1], [1, 0], [1, 1], [0, 1]], np.uint32)
    result = translate(WS, SAMPLES / "移植/生命画格。着色器。豫", "wgsl")
    picture, _, _ = draw(result.text, "格顶", "格色", (size, size), 6,
                         [BufferData(0, 0, np.array([w, h], np.uint32).tobytes(), uniform=True)],
                         inputs=[VertexInput(0, "uint32", cells.tobytes(), 4, per_instance=True),
                                 VertexInput(1, "uint32x2", corners.tobytes(), 8)], instances=w * h)
    pixels = np.frombuffer(picture.rgba, np.uint8).reshape(size, size, 4)
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    x, y = xs / size * 2 - 1, 1 - ys / size * 2
    col, row = np.floor((x + 1) * 4).astype(int), np.floor((y + 0.75) * 4).astype(int)
    board = (row >= 0) & (row < h)
    alive = np.where(board, cells[np.clip(row, 0, h - 1) * w + col], 0)
    expected = np.zeros((size, size, 4), np.uint8)
    expected[board] = 0, 0, 0, 255
    expected[board & (alive == 1)] = 255
    np.testing.assert_array_equal(pixels, expected)


def test_fullscreen_texture_port_shows_the_texture_upright():
    """Under nearest sampling each 8×8 block of the 64×64 target is one texel of the 8×8 image,
    row 0 of the image at the top (texture coordinates (0, 0) at clip (−1, 1))."""
    size = 64
    image = (np.random.default_rng(3).integers(0, 64, (8, 8, 4)) / 64).astype(np.float16)
    result = translate(WS, SAMPLES / "移植/全屏纹理。着色器。豫", "wgsl")
    others = [(0, 0, lambda device: device.create_sampler(mag_filter="nearest", min_filter="nearest")),
              (0, 1, lambda device: input_texture(np, device, image, sampled=True))]
    picture, _, _ = draw(result.text, "全屏顶", "贴图", (size, size), 6, [], others)
    pixels = np.frombuffer(picture.rgba, np.uint8).reshape(size, size, 4)
    texel = np.repeat(np.repeat(image.astype(np.float64), 8, 0), 8, 1)
    np.testing.assert_array_equal(pixels, np.rint(texel * 255).astype(np.uint8))
