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

import pytest

import test_wgsl_samples as wgsl
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace

sys.path.insert(0, str(Path(__file__).resolve().parent / "metal_shim"))
from host import prepare, results  # noqa: E402
from runner import Kernel, Runner  # noqa: E402

SAMPLES = wgsl.SAMPLES
WS = Workspace(wgsl.ROOT)
pytestmark = pytest.mark.skipif(shutil.which("clang++") is None, reason="没有 clang++（.ci/run 会安装 clang）")


def _compute_samples() -> dict[str, Path]:
    """Samples with a golden MSL and at least one compute entry, by name."""
    found = {}
    for path in wgsl.TRANSLATABLE:
        result = translate(WS, path, "msl")
        if result.text is not None and any(e.stage == "计算" for e in result.entries):
            found[wgsl._name(path)] = path
    return found


COMPUTE = _compute_samples()


def _reference(name: str):
    """The WGSL test of a sample: test_名, or the one for a sample in a package folder."""
    return (getattr(wgsl, f"test_{name}", None)
            or getattr(wgsl, f"test_{name.replace('/', '_')}_imports_two_packages", None))


@pytest.fixture(scope="module")
def runner(tmp_path_factory) -> Runner:
    kernels = []
    for name, path in COMPUTE.items():
        result = translate(WS, path, "msl")
        kernels += [Kernel(f"{name}/{e.item}", result.text, e) for e in result.entries if e.stage == "计算"
                    and not any(a.startswith(("texture", "sampler")) for _, _, a in e.parameters)]
    return Runner(kernels, tmp_path_factory.mktemp("metal_cpu"))


def test_every_compute_sample_has_a_reference():
    assert len(COMPUTE) >= 20, sorted(COMPUTE)
    assert [name for name in COMPUTE if _reference(name) is None] == []


@pytest.mark.parametrize("name", sorted(COMPUTE))
def test_runs_like_numpy(name, runner, monkeypatch):
    def run(sample, entry, data, groups, others=()):
        if others:
            pytest.skip("CPU 运行只接缓冲：纹理与采样器的数据在 WebGPU 设备上创建")
        dispatch = prepare(WS, SAMPLES / f"{sample}。着色器。豫", entry, data, groups)
        out = runner.dispatch(f"{sample}/{entry}", dispatch.groups, dispatch.buffers)
        return results(dispatch, out)

    monkeypatch.setattr(wgsl, "run", run)
    _reference(name)()
