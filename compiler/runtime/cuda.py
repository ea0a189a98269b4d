"""Running translated PTX on an NVIDIA GPU through the CUDA driver API
(ctypes on libcuda; no toolkit, no NVRTC): cuModuleLoadData JIT-compiles the
PTX for the device, buffers are allocated and copied, the entry is launched
with blocks of the entry's (x, y, z) threads (seed 着十; (N, 1, 1) for one number) and every buffer is read back.

Without libcuda or without a device the helper raises CudaUnavailable, whose
message starts with 跳过, so callers and tests can say why nothing ran.
"""

from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass

from ..backends import EntryInfo

LIBRARIES = ("libcuda.so.1", "libcuda.so", "nvcuda.dll")
JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE = 5, 6
LOG_BYTES = 16384


class CudaUnavailable(Exception):
    """No CUDA driver or no NVIDIA device here."""


class CudaError(Exception):
    """The driver refused a step; the message names the step and the driver's error."""


@dataclass(frozen=True)
class Same:
    """In `buffers`: bind the allocation of another slot (group, binding) here too, so that the
    kernel sees one buffer at two slots.  Allowed only when every slot of that buffer is read-only:
    a read-only slot is read through ld.global.nc, whose cache does not see writes made during the
    dispatch (WebGPU forbids writable aliasing for the same reason)."""

    group: int
    binding: int


class Driver:
    """The few driver entry points the helper needs, on the primary context of device 0."""

    def __init__(self, library=None) -> None:
        self.lib = library if library is not None else _load_library()
        self._declare()
        self.check(self.lib.cuInit(0), "cuInit", unavailable=True)
        count = ctypes.c_int()
        self.check(self.lib.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount", unavailable=True)
        if count.value == 0:
            raise CudaUnavailable("跳过：没有 NVIDIA 设备（cuDeviceGetCount 为 0）")
        device = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
        self.context = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.context), device), "cuDevicePrimaryCtxRetain")
        self.lock = threading.Lock()

    def _declare(self) -> None:
        pointer, size, u32 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint
        device_pointer = ctypes.c_uint64
        signatures = {
            "cuInit": [u32],
            "cuDeviceGetCount": [ctypes.POINTER(ctypes.c_int)],
            "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
            "cuDevicePrimaryCtxRetain": [ctypes.POINTER(pointer), ctypes.c_int],
            "cuCtxSetCurrent": [pointer],
            "cuModuleLoadDataEx": [ctypes.POINTER(pointer), ctypes.c_char_p, u32, ctypes.POINTER(ctypes.c_int),
                                   ctypes.POINTER(pointer)],
            "cuModuleGetFunction": [ctypes.POINTER(pointer), pointer, ctypes.c_char_p],
            "cuModuleUnload": [pointer],
            "cuMemAlloc_v2": [ctypes.POINTER(device_pointer), size],
            "cuMemFree_v2": [device_pointer],
            "cuMemcpyHtoD_v2": [device_pointer, ctypes.c_char_p, size],
            "cuMemcpyDtoH_v2": [pointer, device_pointer, size],
            "cuLaunchKernel": [pointer, u32, u32, u32, u32, u32, u32, u32, pointer, ctypes.POINTER(pointer), pointer],
            "cuCtxSynchronize": [],
            "cuGetErrorName": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
        }
        for name, argtypes in signatures.items():
            function = getattr(self.lib, name, None)
            if function is None:
                raise CudaUnavailable(f"跳过：CUDA 驱动库缺少 {name}（驱动太旧）")
            function.argtypes = argtypes
            function.restype = ctypes.c_int

    def check(self, status: int, step: str, unavailable: bool = False) -> None:
        if status == 0:
            return
        name = ctypes.c_char_p()
        known = self.lib.cuGetErrorName(status, ctypes.byref(name)) == 0 and name.value
        text = name.value.decode() if known else f"错误码 {status}"
        if unavailable:
            raise CudaUnavailable(f"跳过：CUDA 驱动不可用（{step}：{text}）")
        raise CudaError(f"千手运行失败：{step} 返回 {text}")

    def load(self, ptx: str):
        """JIT-compile PTX text; the driver's log is in the error."""
        module = ctypes.c_void_p()
        log = ctypes.create_string_buffer(LOG_BYTES)
        options = (ctypes.c_int * 2)(JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE)
        values = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p).value, LOG_BYTES)
        status = self.lib.cuModuleLoadDataEx(ctypes.byref(module), ptx.encode("ascii") + b"\0", 2, options, values)
        if status != 0:
            detail = log.value.decode(errors="replace").strip()
            self.check(status, "cuModuleLoadDataEx" + (f"（{detail}）" if detail else ""))
        return module

    def launch(self, ptx: str, entry: EntryInfo, buffers: dict[tuple[int, int], bytes | Same],
               groups: tuple[int, int, int]) -> dict[tuple[int, int], bytes]:
        refuse_writable_aliases(entry, buffers)
        own = {key: data for key, data in buffers.items() if not isinstance(data, Same)}
        with self.lock:
            self.check(self.lib.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
            module = self.load(ptx)
            allocations: dict[tuple[int, int], int] = {}
            try:
                function = ctypes.c_void_p()
                self.check(self.lib.cuModuleGetFunction(ctypes.byref(function), module, entry.function.encode()),
                           f"cuModuleGetFunction({entry.function})")
                for key, data in own.items():
                    allocations[key] = self._upload(data)
                values = kernel_arguments(entry, resolve_aliases(buffers), allocations)
                pointers = (ctypes.c_void_p * len(values))(*[ctypes.addressof(v) for v in values])
                self.check(self.lib.cuLaunchKernel(function, *groups, *entry.block, 0, None, pointers, None),
                           "cuLaunchKernel")
                self.check(self.lib.cuCtxSynchronize(), "cuCtxSynchronize")
                return {key: self._download(allocations[key], len(data)) for key, data in own.items()}
            finally:
                for address in allocations.values():
                    self.lib.cuMemFree_v2(address)
                self.lib.cuModuleUnload(module)

    def _upload(self, data: bytes) -> int:
        address = ctypes.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(address), max(len(data), 4)), "cuMemAlloc")
        if data:
            try:
                self.check(self.lib.cuMemcpyHtoD_v2(address.value, data, len(data)), "cuMemcpyHtoD")
            except CudaError:
                self.lib.cuMemFree_v2(address.value)    # not yet in the caller's list to free
                raise
        return address.value

    def _download(self, address: int, size: int) -> bytes:
        out = ctypes.create_string_buffer(max(size, 1))
        if size:
            self.check(self.lib.cuMemcpyDtoH_v2(ctypes.cast(out, ctypes.c_void_p), address, size), "cuMemcpyDtoH")
        return out.raw[:size]


def resolve_aliases(buffers: dict[tuple[int, int], bytes | Same]) -> dict[tuple[int, int], tuple[tuple[int, int], bytes]]:
    """Each slot's (owning slot, data): itself for bytes, the slot a Same names otherwise."""
    resolved = {}
    for key, data in buffers.items():
        owner = (data.group, data.binding) if isinstance(data, Same) else key
        if isinstance(buffers.get(owner), (Same, type(None))):
            raise CudaError(f"组 {key[0]} 号 {key[1]} 要与组 {owner[0]} 号 {owner[1]} 共用缓冲，但那里没有给出数据")
        resolved[key] = (owner, buffers[owner])
    return resolved


def refuse_writable_aliases(entry: EntryInfo, buffers: dict[tuple[int, int], bytes | Same]) -> None:
    """One buffer at several slots of a dispatch only when every one of them is read-only."""
    read_only = {(p.group, p.binding): p.read_only for p in entry.params if p.kind == "buffer"}
    slots: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for key, (owner, _) in resolve_aliases(buffers).items():
        slots.setdefault(owner, []).append(key)
    for owner, keys in slots.items():
        writable = [k for k in keys if not read_only.get(k, True)]
        if len(keys) > 1 and writable:
            where = "、".join(f"组 {g} 号 {b}" for g, b in sorted(keys))
            raise CudaError(f"入口项「{entry.item}」：同一缓冲绑在 {where}，其中组 {writable[0][0]} 号 {writable[0][1]} "
                            "可写；一次派发里一个缓冲只有在每处都只读时才能绑在几处（只读绑定经 ld.global.nc 读，"
                            "看不到同一派发里的写）")


def kernel_arguments(entry: EntryInfo, buffers: dict[tuple[int, int], tuple[tuple[int, int], bytes]],
                     allocations: dict[tuple[int, int], int]) -> list:
    """One ctypes value per kernel parameter, in the entry's order: a device
    pointer per buffer slot (0 for a placeholder), an element count per length."""
    values = []
    for p in entry.params:
        key = (p.group, p.binding)
        if p.resource is not None and key not in buffers:
            raise CudaError(f"入口项「{entry.item}」用到组 {p.group} 号 {p.binding}「{p.resource}」，没有给出它的数据")
        owner, data = buffers.get(key, (key, b""))
        if p.kind == "length":
            values.append(ctypes.c_uint32(max(len(data) - p.offset, 0) // p.stride))
        else:
            values.append(ctypes.c_uint64(allocations.get(owner, 0)))
    return values


def _load_library():
    for name in LIBRARIES:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise CudaUnavailable("跳过：找不到 CUDA 驱动库 libcuda（这台机器没有 NVIDIA 驱动）")


_driver: Driver | None = None
_driver_lock = threading.Lock()


def driver() -> Driver:
    """The process's driver handle, opened on first use."""
    global _driver
    with _driver_lock:
        if _driver is None:
            _driver = Driver()
        return _driver


def run_compute(ptx: str, entry: EntryInfo, buffers: dict[tuple[int, int], bytes | Same],
                groups: tuple[int, int, int]) -> dict[tuple[int, int], bytes]:
    """Launch `entry` of the PTX text (one of `translate(…, "ptx").entries`, a
    `PtxEntryInfo`: its block and parameters) once over `groups` blocks of
    entry.block (x, y, z) threads.  `buffers` maps (group, binding) to the bytes
    to upload (laid out as compiler/layout.py says), or to Same(group, binding) to bind
    another slot's buffer there too (only where all its slots are read-only; CudaError
    otherwise); the result maps the keys given bytes to the bytes read back after the run.  Raises CudaUnavailable (message
    starting with 跳过) without a driver or device, CudaError when the driver
    refuses a step."""
    return driver().launch(ptx, entry, buffers, groups)
