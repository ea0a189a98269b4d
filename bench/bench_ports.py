"""Ports of real shaders beside their originals (issue 25): each port in
samples/移植/ was written in 着色 by hand from a public WGSL shader; here the
original WGSL and the port's WGSL run on the same WebGPU adapter (lavapipe
on CI machines) with the same random inputs, several seeds each, and their
outputs are compared byte for byte (buffers, storage textures, rendered pixels).

    python bench/bench_ports.py 原作目录 [--种子数 N]

原作目录 holds checkouts (or just the .wgsl files, paths kept) of the public
projects, as `webgpu-samples/` (github.com/webgpu/webgpu-samples) and `wgpu/`
(github.com/gfx-rs/wgpu); their files are read, never copied into this
repository.  Prints one line per port and a summary; exit status 1 when a port
differs from its original.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / ".shim"))

from zhuose.compiler.backends import translate  # noqa: E402
from zhuose.compiler.builtin.formats import STORAGE_FORMATS  # noqa: E402
from zhuose.compiler.runtime.render import VertexInput, render  # noqa: E402
from zhuose.compiler.runtime.textures import StorageImage, input_texture  # noqa: E402
from zhuose.compiler.runtime.wgpu import BufferData, run_compute  # noqa: E402
from zhuose.compiler.workspace import Workspace  # noqa: E402

SAMPLES = ROOT / "samples"


@dataclass
class Dispatch:
    """One run's bindings: buffers by (group, binding) with (bytes, writable, uniform), the groups,
    and storage textures by (group, binding) as (format, width, height)."""

    buffers: dict
    groups: tuple
    storage: dict


def _buffers(**bindings) -> dict:
    return {tuple(map(int, k[1:].split("_"))): v for k, v in bindings.items()}


def _game_of_life(seed):
    r = np.random.default_rng(seed)
    w, h = 24, 16
    cells = r.integers(0, 2, w * h, dtype=np.uint32)
    return Dispatch(_buffers(b0_0=(np.array([w, h], np.uint32), False, False), b0_1=(cells, False, False),
                             b0_2=(np.zeros(w * h, np.uint32), True, False)), (w // 8, h // 8, 1), {})


def _collatz(seed):
    r = np.random.default_rng(seed)
    x = np.concatenate([np.array([0, 1, 27, 1431655765, 2 ** 32 - 1], np.uint32), r.integers(1, 10 ** 6, 59, dtype=np.uint32)])
    return Dispatch({(0, 0): (x, True, False)}, (len(x), 1, 1), {})


def _workgroups(seed):
    r = np.random.default_rng(seed)
    a, b = (r.integers(-2 ** 31, 2 ** 31, 32, dtype=np.int64).astype(np.int32) for _ in range(2))
    a[0] = 2 ** 31 - 1
    return Dispatch({(0, 0): (a, True, False), (0, 1): (b, True, False)}, (32, 1, 1), {})


def _patient(seed):
    return Dispatch({(0, 0): (np.zeros(7, np.uint32), True, False)}, (7, 1, 1), {})


def _mandelbrot(seed):
    w, h = 48 + 8 * seed, 32
    return Dispatch({}, (w, h, 1), {(0, 0): ("rgba8unorm", w, h)})


def _boids(seed):
    r = np.random.default_rng(seed)
    n = 192
    birds = np.column_stack([r.uniform(-1, 1, (n, 2)), r.uniform(-0.1, 0.1, (n, 2))]).astype(np.float32)
    rules = np.array([0.04, 0.1, 0.025, 0.025, 0.02, 0.05, 0.005, 0], np.float32)
    return Dispatch({(0, 0): (rules, False, True), (0, 1): (birds, False, False),
                     (0, 2): (np.zeros_like(birds), True, False)}, (n // 64, 1, 1), {})


def _lights(seed):
    r = np.random.default_rng(seed)
    lights = r.uniform(-50, 50, (128, 8)).astype(np.float32)
    return Dispatch({(0, 0): (lights, True, False), (0, 1): (np.array([100, 0, 0, 0], np.uint32), False, True),
                     (0, 2): (np.array([-50, -40, -50, 0, 50, 45, 50, 0], np.float32), False, True)}, (2, 1, 1), {})


@dataclass
class Draw:
    """One draw's bindings: uniform buffers as for Dispatch, vertex inputs, the counts, and
    further bindings (group, binding, make) with make(device) → a texture view or a sampler."""

    buffers: dict
    inputs: list
    vertices: int
    instances: int = 1
    others: tuple = ()


def _hello_triangle(seed):
    return Draw({}, [], 3)


def _game_of_life_cells(seed):
    r = np.random.default_rng(seed)
    w, h = 8 + seed, 6
    corners = np.array([[0, 0], [1, 0], [0, 1], [1, 0], [1, 1], [0, 1]], np.uint32)
    cells = r.integers(0, 2, w * h, dtype=np.uint32)
    return Draw({(0, 0): (np.array([w, h], np.uint32), False, True)},
                [VertexInput(0, "uint32", cells.tobytes(), 4, per_instance=True),
                 VertexInput(1, "uint32x2", corners.tobytes(), 8)], len(corners), w * h)


def _fullscreen_texture(seed):
    r = np.random.default_rng(seed)
    pixels = (r.integers(0, 64, (8, 8, 4)) / 64).astype(np.float16)
    filtering = ("nearest", "linear")[seed % 2]
    return Draw({}, [], 6, others=(
        (0, 0, lambda device: device.create_sampler(mag_filter=filtering, min_filter=filtering)),
        (0, 1, lambda device: input_texture(np, device, pixels, sampled=True))))


@dataclass
class Port:
    """A port and its original: where the original lies under 原作目录, its entry function(s),
    the port's, and how a seed makes the run's inputs (a Dispatch, or a Draw for a vertex+fragment pair);
    `specified`: the outputs WGSL's rules give, where the original is known to rely on a rule an
    adapter may break (then a port that differs from the original must give these)."""

    original: str | tuple[str, str]
    functions: tuple[str, ...]
    port_functions: tuple[str, ...]
    inputs: Callable[[int], Dispatch | Draw]
    specified: Callable[[Dispatch], list[bytes]] | None = None


PORTS = {
    "生命游戏": Port("webgpu-samples/sample/gameOfLife/compute.wgsl", ("main",), ("一步",), _game_of_life),
    "科拉茨": Port("wgpu/examples/src/hello_compute/shader.wgsl", ("main",), ("换成步数",), _collatz),
    "工作组计数": Port("wgpu/examples/src/hello_workgroups/shader.wgsl", ("main",), ("各加一",), _workgroups),
    "耐心计数": Port("wgpu/examples/src/hello_synchronization/shaders.wgsl", ("patient_main",), ("耐心",), _patient,
                     lambda d: [np.full(d.groups[0], 16, np.uint32).tobytes()]),   # workgroup memory starts at zero
    "曼德布罗": Port("wgpu/examples/src/storage_texture/shader.wgsl", ("main",), ("画",), _mandelbrot),
    "鸟群": Port("webgpu-samples/sample/computeBoids/updateSprites.wgsl", ("main",), ("飞",), _boids),
    "灯光下落": Port("webgpu-samples/sample/deferredRendering/lightUpdate.wgsl", ("main",), ("下落",), _lights),
    "你好三角形": Port("wgpu/examples/src/hello_triangle/shader.wgsl", ("vs_main", "fs_main"), ("顶点", "红"),
                      _hello_triangle),
    "全屏纹理": Port("webgpu-samples/shaders/fullscreenTexturedQuad.wgsl", ("vert_main", "frag_main"),
                     ("全屏顶", "贴图"), _fullscreen_texture),
    "生命画格": Port(("webgpu-samples/sample/gameOfLife/vert.wgsl", "webgpu-samples/sample/gameOfLife/frag.wgsl"),
                     ("main", "main_fragment"), ("格顶", "格色"), _game_of_life_cells),
}


def _buffer_data(buffers: dict) -> list[BufferData]:
    """The buffer bindings of a run or a draw, in (group, binding) order."""
    return [BufferData(g, b, np.ascontiguousarray(a).tobytes(), uniform=u, writable=w)
            for (g, b), (a, w, u) in sorted(buffers.items())]


def _run(wgsl: str, function: str, d: Dispatch) -> list[bytes]:
    """Every output of one dispatch, in binding order: writable buffers, then storage textures."""
    buffers = _buffer_data(d.buffers)
    formats = {f.wgsl: f for f in STORAGE_FORMATS.values()}
    images = {key: StorageImage(formats[fmt], w, h) for key, (fmt, w, h) in d.storage.items()}
    out = run_compute(wgsl, function, buffers, d.groups, [(g, b, image.make) for (g, b), image in images.items()],
                      loops=True)
    return [out[k] for k in sorted(out)] + [images[k].read(np).tobytes() for k in sorted(images)]


def _draw(wgsl: str, vertex: str, fragment: str, d: Draw) -> list[bytes]:
    buffers = _buffer_data(d.buffers)
    picture, _, _ = render(wgsl, vertex, fragment, (64, 64), d.vertices, buffers, d.others, inputs=d.inputs,
                           instances=d.instances)
    return [picture.rgba]


def _original_text(originals: Path, original: str | tuple[str, str]) -> str:
    """The original as one module: a vertex file and a fragment file that both name their entry `main`
    are joined with the fragment's renamed `main_fragment` (nothing else changes)."""
    if isinstance(original, str):
        return (originals / original).read_text(encoding="utf-8")
    vertex, fragment = ((originals / p).read_text(encoding="utf-8") for p in original)
    return vertex + "\n" + fragment.replace("fn main(", "fn main_fragment(")


def compare(name: str, port: Port, originals: Path, seeds: int) -> tuple[bool, str]:
    """Whether the port gives the original's bytes on every seed, and a line saying so."""
    paths = (port.original,) if isinstance(port.original, str) else port.original
    where = " ＋ ".join(paths)
    if missing := [p for p in paths if not (originals / p).is_file()]:
        return False, f"{name}\t缺少原作 {'、'.join(missing)}"
    original = _original_text(originals, port.original)
    ours = translate(Workspace(SAMPLES), SAMPLES / "移植" / f"{name}。着色器。豫", "wgsl").text
    if isinstance(port.inputs(0), Draw):
        differing = [seed for seed in range(seeds) if _draw(original, *port.functions, port.inputs(seed))
                     != _draw(ours, *port.port_functions, port.inputs(seed))]
        verdict = f"{seeds} 组输入像素逐字节相同" if not differing else f"种子 {differing} 的像素不同"
        return not differing, f"{name}\t{where}\t{verdict}"
    differing, lawful = [], []
    for seed in range(seeds):
        d = port.inputs(seed)
        theirs, mine = _run(original, port.functions[0], d), _run(ours, port.port_functions[0], d)
        if theirs != mine:
            (lawful if port.specified and mine == port.specified(d) else differing).append(seed)
    verdict = f"{seeds} 组输入逐字节相同" if not differing and not lawful else f"种子 {differing} 的结果不同"
    if lawful and not differing:
        verdict = f"{seeds} 组输入上原作在这个适配器上偏离 WGSL 的规定，移植的结果合乎规定"
    return not differing, f"{name}\t{where}\t{verdict}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("原作目录", type=Path)
    p.add_argument("--种子数", type=int, default=3)
    args = p.parse_args(argv)
    results = []
    for name, port in PORTS.items():
        ok, line = compare(name, port, args.原作目录, args.种子数)
        results.append(ok)
        print(line, flush=True)
    print(f"共 {len(results)} 个移植，与原作结果相同的 {sum(results)} 个")
    return 0 if all(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
