"""Every compute sample's PTX, run and compared with its NumPy reference
(tests/references.py, one per compute sample, shared by all back ends): on
an NVIDIA GPU through the CUDA driver helper (compiler/runtime/cuda.py) when one is here,
and always on the PTX emulator (tests/test_ptx_emulator.py) behind a
stand-in for libcuda, so the driver helper's loading, allocation, parameter
order, launch shape and read-back run too."""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

import numpy as np
import pytest

from references import REFERENCES, SAMPLES, grid, sample_path
from test_ptx_emulator import Memory, launch, parse
from zhuose.compiler import ir
from zhuose.compiler.backends import translate
from zhuose.compiler.runtime import cuda as runtime
from zhuose.compiler.backends.ptx.layout import layout_of
from zhuose.compiler.lower.types import concrete
from zhuose.compiler.types import TCon
from zhuose.compiler.workspace import Workspace

WS = Workspace(SAMPLES)


def _plain(method):
    def call(*args):
        return method(*args)
    return call


class FakeCuda:
    """The libcuda entry points runtime.Driver calls, backed by the PTX
    emulator: what the driver helper hands over is exactly what runs."""

    def __init__(self) -> None:
        for name in dir(self):
            if name.startswith("cu"):
                setattr(self, name, _plain(getattr(self, name)))   # ctypes-style: argtypes can be set
        self.memory: list[bytearray] = []
        self.modules: dict[int, str] = {}
        self.functions: dict[int, tuple[str, str]] = {}
        self.launches: list[dict] = []
        self.freed: list[int] = []

    @staticmethod
    def _out(pointer, value) -> int:
        pointer._obj.value = value
        return 0

    def cuInit(self, flags):
        return 0

    def cuDeviceGetCount(self, count):
        return self._out(count, 1)

    def cuDeviceGet(self, device, ordinal):
        return self._out(device, 0)

    def cuDevicePrimaryCtxRetain(self, context, device):
        return self._out(context, 7)

    def cuCtxSetCurrent(self, context):
        return 0

    def cuModuleLoadDataEx(self, module, image, count, options, values):
        handle = len(self.modules) + 1
        self.modules[handle] = image.rstrip(b"\0").decode("ascii")
        return self._out(module, handle)

    def cuModuleGetFunction(self, function, module, name):
        if name.decode() not in parse(self.modules[module.value]):
            return 500                                    # CUDA_ERROR_NOT_FOUND
        handle = len(self.functions) + 1
        self.functions[handle] = (self.modules[module.value], name.decode())
        return self._out(function, handle)

    def cuModuleUnload(self, module):
        return 0

    def cuMemAlloc_v2(self, address, size):
        # like the real driver, round allocations up (to 256 bytes): an access a
        # little past the end lands in the padding, one further is an error
        self.memory.append(bytearray((size + 255) // 256 * 256))
        return self._out(address, Memory.address_of(len(self.memory) - 1))

    def cuMemFree_v2(self, address):
        self.freed.append(address)
        return 0

    def _buffer(self, address: int) -> bytearray:
        return self.memory[(address >> 32) - 1]

    def cuMemcpyHtoD_v2(self, address, data, size):
        self._buffer(address)[:size] = data[:size]
        return 0

    def cuMemcpyDtoH_v2(self, destination, address, size):
        ctypes.memmove(destination.value, bytes(self._buffer(address)[:size]), size)
        return 0

    def cuLaunchKernel(self, function, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        text, name = self.functions[function.value]
        kernel = parse(text)[name]
        assert (bx, by, bz) == kernel.block, "块维须恰为工作组大小（x, y, z）"
        kinds = {"u64": ctypes.c_uint64, "u32": ctypes.c_uint32}
        args = [kinds[kind].from_address(params[i]).value for i, (_, kind) in enumerate(kernel.params)]
        self.launches.append({"name": name, "grid": (gx, gy, gz), "args": args})
        launch(text, name, args, self.memory, (gx, gy, gz))
        return 0

    def cuCtxSynchronize(self):
        return 0

    def cuGetErrorName(self, status, name):
        name._obj.value = {500: b"CUDA_ERROR_NOT_FOUND"}.get(status, b"CUDA_ERROR_UNKNOWN")
        return 0


def emulated(ptx, entry, buffers, groups):
    return runtime.Driver(FakeCuda()).launch(ptx, entry, buffers, groups)


def on_gpu(ptx, entry, buffers, groups):
    try:
        return runtime.run_compute(ptx, entry, buffers, groups)
    except runtime.CudaUnavailable as err:
        sys.stderr.write(f"{err}\n")
        pytest.skip(str(err))


DEVICES = {"模拟": emulated, "CUDA": on_gpu}


def _resources(path: Path) -> dict[str, ir.Resource]:
    checked = WS.check(path)
    modules = [WS.check(p).module for p in checked.module.imports] + [checked.module]
    return {d.name: d for m in modules for d in m.decls if isinstance(d, ir.Resource)}


def _upload(data: np.ndarray, resource: ir.Resource) -> bytes:
    """The bytes of a buffer: as given; a fixed-size buffer at least its type's size."""
    raw = np.ascontiguousarray(data).tobytes()
    inner = concrete(resource.inner)
    if not (isinstance(inner, TCon) and inner.name == "数组"):
        raw += bytes(max(0, layout_of(inner).size - len(raw)))
    return raw


def ptx_run(device):
    """A runner for the references: the PTX back end on `device`."""
    def run(sample: str, entry: str, data: dict[str, np.ndarray], groups, textures=()) -> dict[str, np.ndarray]:
        path = sample_path(sample)
        result = translate(WS, path, "ptx")
        if result.text is None:
            pytest.skip(f"跳过：{sample} 译不成 PTX：{result.diagnostics[0].message}")
        assert not textures, "千手目标没有纹理与采样器，却译出了用到它们的入口"
        info = next(e for e in result.entries if e.item == entry)
        used = {p.resource: (p.group, p.binding) for p in info.params if p.kind == "buffer" and p.resource}
        assert sorted(used) == sorted(data), "给出的缓冲与入口用到的不一致"
        resources = _resources(path)
        buffers = {key: _upload(data[name], resources[name]) for name, key in used.items()}
        out = device(result.text, info, buffers, grid(groups))
        return {name: np.frombuffer(out[key][:data[name].nbytes], dtype=data[name].dtype).reshape(data[name].shape)
                for name, key in used.items()
                if resources[name].kind == "storage" and resources[name].access != "只读"}
    return run


def test_every_compute_sample_has_a_reference():
    for g in SAMPLES.rglob("*。千手"):
        name = str(g.relative_to(SAMPLES)).replace("。千手", "")
        assert name in REFERENCES, name


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_runs_like_numpy(name, device):
    REFERENCES[name](ptx_run(DEVICES[device]))


# ---------------------------------------------------------------- the driver helper itself


def test_driver_passes_buffers_in_binding_order_with_placeholders_and_lengths():
    fake = FakeCuda()
    result = translate(WS, SAMPLES / "原子最值。着色器。豫", "ptx")
    entry = next(e for e in result.entries if e.item == "重置入口")
    out = runtime.Driver(fake).launch(result.text, entry, {(0, 1): bytes(8), (0, 2): bytes(4)}, (1, 1, 1))
    [call] = fake.launches
    assert call["args"][0] == 0                              # binding 0 is a placeholder here
    assert call["args"][1:] == [Memory.address_of(0), Memory.address_of(1)]
    assert np.frombuffer(out[(0, 1)], np.int32).tolist() == [-2 ** 31, 2 ** 31 - 1]
    assert sorted(fake.freed) == [Memory.address_of(0), Memory.address_of(1)]

    result = translate(WS, SAMPLES / "局部循环。着色器。豫", "ptx")
    out = runtime.Driver(fake).launch(result.text, result.entries[0], {(0, 0): bytes(4 * 70)}, (2, 1, 1))
    assert fake.launches[-1]["args"][1] == 70                 # the element count of 「数组长度」
    i = np.arange(70, dtype=np.uint32)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 0)], np.uint32), i * (i - 1) // 2)


def test_driver_reports_missing_data_and_unknown_functions():
    result = translate(WS, SAMPLES / "加倍。着色器。豫", "ptx")
    with pytest.raises(runtime.CudaError, match="没有给出它的数据"):
        runtime.Driver(FakeCuda()).launch(result.text, result.entries[0], {}, (1, 1, 1))
    wrong = runtime.PtxEntryInfo("加倍入口", "yy_none", "计算", 4, result.entries[0].params)
    with pytest.raises(runtime.CudaError, match="CUDA_ERROR_NOT_FOUND"):
        runtime.Driver(FakeCuda()).launch(result.text, wrong, {(0, 0): bytes(16)}, (1, 1, 1))


def test_without_libcuda_the_helper_says_skip(monkeypatch):
    def missing(name):
        raise OSError(name)
    monkeypatch.setattr(runtime.ctypes, "CDLL", missing)
    monkeypatch.setattr(runtime, "_driver", None)
    with pytest.raises(runtime.CudaUnavailable, match="^跳过：找不到 CUDA 驱动库"):
        runtime.run_compute("", None, {}, (1, 1, 1))
