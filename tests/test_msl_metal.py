"""The seed's 金属运行 test: on macOS with Metal (PyObjC's `Metal`), every
compute sample's MSL is compiled by the Metal driver (newLibraryWithSource),
dispatched on the GPU and compared with the same NumPy references as the WGSL
runs.  Elsewhere it prints a skip line."""

from __future__ import annotations

import platform
import sys

import pytest

from support.references import REFERENCES, SAMPLES
from zhuose.compiler.workspace import Workspace
from support.metal_shim.host import msl_compute_samples, msl_run  # noqa: E402


def _metal_device():
    if platform.system() != "Darwin":
        return None, f"不是 macOS（{platform.system()}）"
    try:
        import Metal
    except ImportError:
        return None, "没有 PyObjC 的 Metal 模块（pip install pyobjc-framework-Metal）"
    device = Metal.MTLCreateSystemDefaultDevice()
    return (device, "") if device is not None else (None, "没有金属设备")


DEVICE, WHY_NOT = _metal_device()
if DEVICE is None:
    print(f"跳过：金属运行测试需要 macOS 上的金属设备：{WHY_NOT}", file=sys.stderr)
    pytest.skip(f"跳过：金属运行测试需要 macOS 上的金属设备：{WHY_NOT}", allow_module_level=True)

import Metal  # noqa: E402

WS = Workspace(SAMPLES)
COMPUTE = msl_compute_samples(WS)
_libraries: dict[str, object] = {}


def _pipeline(sample: str, msl: str, function: str):
    if sample not in _libraries:
        library, error = DEVICE.newLibraryWithSource_options_error_(msl, None, None)
        assert library is not None, f"金属编译「{sample}」失败：{error}"
        _libraries[sample] = library
    pipeline, error = DEVICE.newComputePipelineStateWithFunction_error_(
        _libraries[sample].newFunctionWithName_(function), None)
    assert pipeline is not None, f"建计算管线「{function}」失败：{error}"
    return pipeline


def dispatch(key: str, d) -> dict[int, bytes]:
    pipeline = _pipeline(key.rsplit("/", 1)[0], d.msl, d.entry.function)
    assert pipeline.maxTotalThreadsPerThreadgroup() >= d.entry.workgroup_size
    buffers = {slot: DEVICE.newBufferWithBytes_length_options_(data or bytes(4), max(len(data), 4),
                                                              Metal.MTLResourceStorageModeShared)
               for slot, data in d.buffers.items()}
    command = DEVICE.newCommandQueue().commandBuffer()
    encoder = command.computeCommandEncoder()
    encoder.setComputePipelineState_(pipeline)
    for slot, buffer in buffers.items():
        encoder.setBuffer_offset_atIndex_(buffer, 0, slot)
    encoder.dispatchThreadgroups_threadsPerThreadgroup_(Metal.MTLSizeMake(*d.groups),
                                                        Metal.MTLSizeMake(*d.entry.workgroup_shape))
    encoder.endEncoding()
    command.commit()
    command.waitUntilCompleted()
    assert command.error() is None, command.error()
    return {slot: bytes(b.contents().as_buffer(len(d.buffers[slot]))) for slot, b in buffers.items()}


#: samples that need a Metal 4 device with tensor operations (seed 着十三: the host asks for MTLGPUFamilyApple10)
METAL4 = {"张量片"}


@pytest.mark.parametrize("name", sorted(COMPUTE))
def test_runs_on_metal_like_numpy(name):
    family = getattr(Metal, "MTLGPUFamilyApple10", None)
    if name in METAL4 and (family is None or not DEVICE.supportsFamily_(family)):
        print(f"跳过：{name} 需要支持张量运算的金属 4 设备（MTLGPUFamilyApple10）", file=sys.stderr)
        pytest.skip(f"跳过：{name} 需要支持张量运算的金属 4 设备（MTLGPUFamilyApple10）")
    REFERENCES[name](msl_run(WS, dispatch, lambda *_: pytest.skip("纹理与采样器还没有接到金属设备上，这里只接缓冲")))
