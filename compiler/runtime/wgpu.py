"""Running a compute entry on the local WebGPU adapter (wgpu): the `运行`
subcommand, the language server's naga check and the tests share this.

Naga (wgpu's shader compiler) implements subgroup operations as a device
feature and does not accept the `enable subgroups;` directive that the seed
(着十一) and browsers require, so that one line is dropped before the text is
handed to wgpu; nor does it know `subgroupElect()`, which it is given as
`(subgroupExclusiveAdd(1u) == 0u)` — true exactly for the lowest active
invocation, the same meaning (docs/后端.md).
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass

from .. import ir
from ..layout import padded

SUBGROUPS_DIRECTIVE = "enable subgroups;"
NAGA_ELECT = ("subgroupElect()", "(subgroupExclusiveAdd(1u) == 0u)")


class WebGPUError(Exception):
    """No adapter, a missing feature, or WebGPU rejected something: the message is shown to the user."""


def for_wgpu(wgsl: str) -> str:
    """The WGSL as naga accepts it (see the module docstring)."""
    text = "\n".join(line for line in wgsl.split("\n") if line != SUBGROUPS_DIRECTIVE)
    return text.replace(*NAGA_ELECT)


def required_features(wgsl: str) -> list[str]:
    lines = set(wgsl.split("\n"))
    features = [feature for directive, feature in (("enable f16;", "shader-f16"), (SUBGROUPS_DIRECTIVE, "subgroup"))
                if directive in lines]
    # a bgra8unorm storage texture (「蓝序四八归一」) is an optional feature of WebGPU
    return features + ["bgra8unorm-storage"] * ("<bgra8unorm," in wgsl)


_devices: dict[tuple[str, ...], object] = {}
_told: set = set()     # what was said once per adapter: its subgroup sizes, its loop limit


def subgroup_sizes(device) -> tuple[int, int] | None:
    """The adapter's subgroup size range (wgpu-py 0.32 spells the keys stackgroup_…)."""
    info = dict(device.adapter.info)
    low = info.get("subgroup_min_size", info.get("stackgroup_min_size"))
    high = info.get("subgroup_max_size", info.get("stackgroup_max_size"))
    return (low, high) if low and high else None


def _tell_subgroup_sizes(device) -> None:
    """Once per adapter, on stderr: the widths a kernel using subgroups may have run at."""
    name, sizes = device.adapter.info.get("device", ""), subgroup_sizes(device)
    if sizes and name not in _told:
        _told.add(name)
        sys.stderr.write(f"着色器：适配器「{name}」的子组大小在 {sizes[0]} 至 {sizes[1]} 之间\n")


#: Mesa's software Vulkan driver stops an invocation group's loops after about this many rounds in total
SOFTWARE_LOOP_ROUNDS = 65535


def _tell_software_loop_limit(device) -> None:
    """Once, on stderr, when a kernel with a loop runs on lavapipe (llvmpipe): a
    longer loop stops early there without a word (`--后端 参照` runs it whole)."""
    info = device.adapter.info
    name = str(info.get("device", ""))
    if "llvmpipe" in name.lower() or "lavapipe" in name.lower() or str(info.get("adapter_type", "")).lower() == "cpu":
        if ("loop", name) not in _told:
            _told.add(("loop", name))
            sys.stderr.write(f"着色器：注意：软件适配器「{name}」上，一个调用组的循环合计至多约 {SOFTWARE_LOOP_ROUNDS} 轮，"
                             "再多就不报错地提前停止；循环很长时用 --后端 参照 核对结果\n")


def _private_runtime_dir() -> None:
    """Mesa's Vulkan drivers complain on stderr when XDG_RUNTIME_DIR is unset
    (headless machines, CI); give them a private one."""
    if os.environ.get("XDG_RUNTIME_DIR"):
        return
    path = os.path.join(tempfile.gettempdir(), f"zhuose-runtime-{os.getuid()}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.environ["XDG_RUNTIME_DIR"] = path


def open_device(features: list[str]):
    """A wgpu device with the given features (cached per feature set)."""
    key = tuple(sorted(features))
    if key in _devices:
        return _devices[key]
    _private_runtime_dir()
    try:
        import wgpu
    except ImportError as err:
        raise WebGPUError(f"没有安装 wgpu（pip install wgpu）：{err}") from err
    try:
        adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    except Exception as err:  # wgpu raises plain RuntimeError when there is no adapter
        raise WebGPUError(f"没有可用的 WebGPU 适配器：{err}") from err
    if adapter is None:
        raise WebGPUError("没有可用的 WebGPU 适配器（装上 Vulkan 驱动，如 Debian 的 mesa-vulkan-drivers）")
    missing = [f for f in features if f not in adapter.features]
    if missing:
        raise WebGPUError(f"适配器「{adapter.info.get('device', '')}」没有特性 {', '.join(missing)}")
    _devices[key] = adapter.request_device_sync(required_features=list(features))
    return _devices[key]


def create_module(device, wgsl: str):
    """create_shader_module, with naga's complaint as a WebGPUError."""
    try:
        return device.create_shader_module(code=for_wgpu(wgsl))
    except Exception as err:
        raise WebGPUError(f"WebGPU 拒绝了生成的 WGSL：{err}") from err


@dataclass
class BufferData:
    """One buffer binding's contents; `writable` ones are read back."""

    group: int
    binding: int
    data: bytes
    uniform: bool = False
    writable: bool = False


def run_compute(wgsl: str, function: str, buffers: list[BufferData], groups: tuple[int, int, int],
                others=(), loops: bool = False, constants: dict | None = None) -> dict:
    """Dispatch `function` once over `groups` workgroups; returns the bytes of
    every writable buffer by (group, binding).  `others` are further bindings
    (textures, samplers) as (group, binding, make) with make(device) → resource;
    `loops`: the entry runs a loop (a software adapter's limit is told);
    `constants`: values of overridable constants by @id (as a string)."""
    device = open_device(required_features(wgsl))
    if "subgroup" in required_features(wgsl):
        _tell_subgroup_sizes(device)
    if loops:
        _tell_software_loop_limit(device)
    module = create_module(device, wgsl)
    try:
        stage = {"module": module, "entry_point": function, **({"constants": constants} if constants else {})}
        pipeline = device.create_compute_pipeline(layout="auto", compute=stage)
        gpu_buffers = upload(device, buffers)
        encoder = device.create_command_encoder()
        compute = encoder.begin_compute_pass()
        compute.set_pipeline(pipeline)
        for group, bind_group in bind_groups(device, pipeline, buffers, gpu_buffers, others).items():
            compute.set_bind_group(group, bind_group)
        compute.dispatch_workgroups(*groups)
        compute.end()
        device.queue.submit([encoder.finish()])
        return read_back(device, buffers, gpu_buffers)
    except Exception as err:
        raise WebGPUError(f"WebGPU 运行失败：{err}") from err


def upload(device, buffers: list[BufferData]) -> dict:
    """A GPU buffer per binding, by (group, binding), holding its data."""
    import wgpu
    usage = wgpu.BufferUsage
    return {(b.group, b.binding): device.create_buffer_with_data(
                data=b.data, usage=(usage.UNIFORM if b.uniform else usage.STORAGE) | usage.COPY_SRC | usage.COPY_DST)
            for b in buffers}


def bind_groups(device, pipeline, buffers: list[BufferData], gpu_buffers: dict, others=()) -> dict:
    """The pipeline's bind groups by group number: the buffers, then `others` made on the device."""
    entries: dict[int, list] = {}
    for b in buffers:
        resource = {"buffer": gpu_buffers[(b.group, b.binding)]}
        entries.setdefault(b.group, []).append({"binding": b.binding, "resource": resource})
    for group, binding, make in others:
        entries.setdefault(group, []).append({"binding": binding, "resource": make(device)})
    return {group: device.create_bind_group(layout=pipeline.get_bind_group_layout(group), entries=entries[group])
            for group in sorted(entries)}


def read_back(device, buffers: list[BufferData], gpu_buffers: dict) -> dict:
    """The bytes of every writable buffer, by (group, binding)."""
    return {(b.group, b.binding): bytes(device.queue.read_buffer(gpu_buffers[(b.group, b.binding)]))
            for b in buffers if b.writable}


def buffer_for(r: ir.Resource, data: bytes) -> BufferData:
    """A buffer binding's upload: padded as its type needs, read back when the shader may write it."""
    uniform = r.kind == "uniform"
    return BufferData(r.group, r.binding, padded(data, r.inner, uniform), uniform=uniform,
                      writable=r.kind == "storage" and r.access != "只读")


