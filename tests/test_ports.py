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
from zhuose.compiler.workspace import Workspace

WS = Workspace(SAMPLES)
PORTS = sorted((SAMPLES / "移植").glob("*。着色器。豫"))
RENDERED = {"移植/你好三角形"}


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
