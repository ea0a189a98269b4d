"""Every compute sample's MSL, executed on the CPU through the Metal shim and
compared with the same NumPy references as the WGSL runs — the Linux stand-in
for the seed's 金属运行 test.

The references are the compute tests of test_wgsl_samples.py, each called with
its `run` replaced by one that translates to MSL, builds the kernels with
clang++ against tests/metal_shim (one OS thread per invocation, real
threadgroup barriers and threadgroup memory, 32-lane SIMD-groups) and
dispatches them.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import test_wgsl_samples as wgsl
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace

sys.path.insert(0, str(Path(__file__).resolve().parent / "metal_shim"))
from host import Uploads, check_like_wgsl, compute_samples, reference  # noqa: E402
from runner import SAMPLER_SLOTS, TEXTURE_SLOTS, Kernel, Runner  # noqa: E402

WS = Workspace(wgsl.ROOT)
COMPUTE = compute_samples(wgsl, WS)
pytestmark = pytest.mark.skipif(shutil.which("clang++") is None, reason="没有 clang++（.ci/run 会安装 clang）")


@pytest.fixture(scope="module")
def runner(tmp_path_factory) -> Runner:
    kernels = []
    for name, path in COMPUTE.items():
        result = translate(WS, path, "msl")
        kernels += [Kernel(f"{name}/{e.item}", result.text, e) for e in result.entries if e.stage == "计算"]
    return Runner(kernels, tmp_path_factory.mktemp("metal_cpu"))


def test_every_compute_sample_has_a_reference():
    assert len(COMPUTE) >= 20, sorted(COMPUTE)
    assert [name for name in COMPUTE if reference(wgsl, name) is None] == []


def textures(prepared, others) -> None:
    """What the WGSL test uploads, as the CPU runtime's texture and sampler slots."""
    for group, binding, make in others:
        uploads = Uploads()
        make(uploads)
        slot = group * 16 + binding
        if uploads.texels is not None:
            height, width, _ = uploads.texels.shape
            prepared.buffers[TEXTURE_SLOTS + slot] = (np.array([width, height, 0, 0], np.uint32).tobytes()
                                                      + uploads.texels.tobytes())
        else:
            prepared.buffers[SAMPLER_SLOTS + slot] = np.array([uploads.linear], np.uint32).tobytes()


@pytest.mark.parametrize("name", sorted(COMPUTE))
def test_runs_like_numpy(name, runner, monkeypatch):
    check_like_wgsl(wgsl, WS, name, lambda key, d: runner.dispatch(key, d.groups, d.buffers), monkeypatch,
                    textures)
