"""Running PTX in the tests: the CUDA driver helper (compiler/runtime/cuda.py)
behind `FakeCuda`, a stand-in for libcuda backed by the PTX emulator
(support/ptx_emulator.py), so the helper's loading, allocation, parameter
order, launch shape and read-back run on machines without an NVIDIA GPU; and
`ptx_run`, the runner the NumPy references use."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from support.ptx_emulator import Memory, launch, parse
from support.references import SAMPLES, grid, sample_path
from zhuose.compiler import ir
from zhuose.compiler.backends import DEFAULT_OPTIONS, Options, translate
from zhuose.compiler.backends.ptx.layout import layout_of
from zhuose.compiler.layout import trailing_array
from zhuose.compiler.lower.types import concrete
from zhuose.compiler.runtime import cuda as runtime
from zhuose.compiler.workspace import Workspace

PTXAS = shutil.which("ptxas")
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
        # exactly the bytes asked for: the real driver rounds allocations up (to
        # 256 bytes), where an access a little past the end would land silently;
        # here any access past the end is an error (issue 27: bounds safety)
        self.memory.append(bytearray(size))
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


def upload(data: np.ndarray, resource: ir.Resource) -> bytes:
    """The bytes of a buffer: as given; a fixed-size buffer at least its type's size."""
    raw = np.ascontiguousarray(data).tobytes()
    inner = concrete(resource.inner)
    if trailing_array(inner) is None:       # no runtime-sized array, after a header or alone
        raw += bytes(max(0, layout_of(inner).size - len(raw)))
    return raw


def ptx_run(device, options: Options = DEFAULT_OPTIONS):
    """A runner for the references: the PTX back end (under `options`) on `device`."""
    def run(sample: str, entry: str, data: dict[str, np.ndarray], groups, textures=()) -> dict[str, np.ndarray]:
        path = sample_path(sample)
        result = translate(WS, path, "ptx", options)
        if result.text is None:
            pytest.skip(f"跳过：{sample} 译不成 PTX：{result.diagnostics[0].message}")
        assert not textures, "千手目标没有纹理与采样器，却译出了用到它们的入口"
        info = next(e for e in result.entries if e.item == entry)
        used = {p.resource: (p.group, p.binding) for p in info.params if p.kind == "buffer" and p.resource}
        assert sorted(used) == sorted(data), "给出的缓冲与入口用到的不一致"
        resources = _resources(path)
        buffers = {key: upload(data[name], resources[name]) for name, key in used.items()}
        out = device(result.text, info, buffers, grid(groups))
        return {name: np.frombuffer(out[key][:data[name].nbytes], dtype=data[name].dtype).reshape(data[name].shape)
                for name, key in used.items()
                if resources[name].kind == "storage" and resources[name].access != "只读"}
    return run


# ---------------------------------------------------------------- small programs written by the tests

HEAD = "寻观「点染」之「点染本」之书。\n\n"


def storage(name: str, element: str, binding: int, access: str = "读写", group: str = "零") -> str:
    digits = "零一二三四五六七八九"
    return (f"「{name}」乃「存储缓冲」于（「数组」于「{element}」）也。\n"
            f"「{name}」者「绑定」于（「组值」【「组」者「{group}」也，「号」者「{digits[binding]}」也，"
            f"「访问」者「{access}」也】）也。\n")


def entry(function: str, size: str) -> str:
    return (f"「{function}入口」乃「计算入口」也。\n"
            f"「{function}入口」者「计算入口项」于「{function}」于（「组值」【「工作组大小」者「{size}」也】）也。\n")


def compile_(tmp_path: Path, source: str, name: str = "程序"):
    path = tmp_path / f"{name}。着色器。豫"
    path.write_text(HEAD + source, encoding="utf-8")
    ws = Workspace(tmp_path)
    errors = [d.format(ws.source(d.path)) for d in ws.diagnostics(path) if d.severity == "错误"]
    assert not errors, errors
    return ws, path, translate(ws, path, "ptx")


def build(tmp_path: Path, source: str):
    """The translation, assembled by ptxas when it is here."""
    _, _, result = compile_(tmp_path, source)
    assert result.text is not None, [d.message for d in result.diagnostics]
    if PTXAS is not None:
        (tmp_path / "k.ptx").write_text(result.text, encoding="ascii")
        done = subprocess.run([PTXAS, "-arch=sm_80", "--warning-as-error", str(tmp_path / "k.ptx"), "-o",
                               str(tmp_path / "k.cubin")], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    return result


def execute(result, buffers: dict[tuple[int, int], np.ndarray], groups: int, item: str | None = None):
    """Run one entry on the emulator; every buffer comes back as an array like its input."""
    info = next(e for e in result.entries if item is None or e.item == item)
    raw = {key: np.ascontiguousarray(a).tobytes() for key, a in buffers.items()}
    out = runtime.Driver(FakeCuda()).launch(result.text, info, raw, (groups, 1, 1))
    return {key: np.frombuffer(out[key], buffers[key].dtype).reshape(buffers[key].shape) for key in buffers}
