"""Drawing a vertex + fragment pair on the local WebGPU adapter (the `渲染`
subcommand): what the pair must look like to be drawn into one rgba8unorm
colour target, and the draw itself.

The vertex entry's located inputs (fields of its input structs, plain
parameters) come from vertex buffers, one buffer per input
(`VertexInput`), stepped per vertex or per instance; every other resource
(buffers, textures, samplers) is given the way `运行` gives it.  The target
is cleared to transparent black (0, 0, 0, 0) and read back as RGBA bytes,
top row first.  A depth attachment (`Depth`: format, compare function,
clear value) is always there, by default one that every fragment passes
(compare always, so the drawing order decides, as without one), so that a
fragment entry may write 「片元深度」: WebGPU refuses a pipeline whose
fragment shader writes depth and that has no depth attachment.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..builtin.io import BUILTIN_IO, located_fields, next_location
from ..lower.types import Scalar, concrete, scalar
from ..types import TRecord, is_unit, resolve, vector_parts
from .wgpu import BufferData, WebGPUError, bind_groups, create_module, open_device, read_back, required_features, upload

TARGET_FORMAT = "rgba8unorm"
DEPTH_FORMAT = "depth32float"
CLEAR = (0.0, 0.0, 0.0, 0.0)
FLOATS = (Scalar.F32, Scalar.F16)


@dataclass
class Picture:
    """The rendered target: `height` rows of `width` RGBA pixels, 8 bits each."""

    width: int
    height: int
    rgba: bytes


# ---------------------------------------------------------------- what may be drawn


def _locations(named_types) -> dict[int, tuple[str, object, str]]:
    """The user-defined values passed between stages by @location, as the back
    ends number them (builtin/io.py's located_fields; plain values after the
    fields of records): location → (name, type, interpolation).  The
    interpolation is the one written, else flat for integers, else
    perspective (WGSL's default); builtin values take no location."""
    named_types = list(named_types)
    records = [r for r in (resolve(t) for _, t in named_types) if isinstance(r, TRecord)]
    out = {}
    for r in records:
        for name, t, location in located_fields(r):
            out[location] = (name, t, _interpolation(t, r.field_io(name).interpolation))
    location = next_location(records)
    for name, t in named_types:
        r = resolve(t)
        if not isinstance(r, TRecord) and t.alias not in BUILTIN_IO and not is_unit(r):
            out[location] = (name, t, _interpolation(t, None))
            location += 1
    return out


def _interpolation(t, written: str | None) -> str:
    return written or ("平直" if not _is_float(t) else "透视")


def vertex_inputs(vertex_fn: ir.Function) -> dict[int, tuple[str, object, str]]:
    """The vertex entry's located inputs, which come from vertex buffers."""
    return _locations((p.name, p.type) for p in vertex_fn.params)


def _is_float(t) -> bool:
    parts = vector_parts(t)
    return scalar(parts[0] if parts else t) in FLOATS


def pair_problem(vertex: ir.Entry, vertex_fn: ir.Function, fragment: ir.Entry, fragment_fn: ir.Function,
                 show) -> str | None:
    """Why the pair cannot be drawn here, in Chinese, or None: a fragment
    input the vertex stage does not produce at its location with the same
    type and interpolation, no colour for location 0."""
    produced = _locations([("", vertex_fn.type.result)])
    for location, (name, t, how) in sorted(_locations((p.name, p.type) for p in fragment_fn.params).items()):
        if location not in produced:
            return (f"片元入口项「{fragment.name}」的输入「{name}」（位置 {location}）没有对应的顶点输出："
                    f"顶点入口项「{vertex.name}」只输出 {len(produced)} 个插值量"
                    f"（位置 {'、'.join(map(str, sorted(produced))) or '（没有）'}）")
        given, given_type, given_how = produced[location]
        if concrete(given_type) != concrete(t):
            return (f"顶点入口项「{vertex.name}」与片元入口项「{fragment.name}」的接口不符：位置 {location} 上"
                    f"顶点输出「{given}」是{show(given_type)}，片元输入「{name}」是{show(t)}；"
                    "两边同一位置上的插值量须类型相同")
        if given_how != how:
            return (f"顶点入口项「{vertex.name}」与片元入口项「{fragment.name}」的接口不符：位置 {location} 上"
                    f"顶点输出「{given}」按「{given_how}」插值，片元输入「{name}」按「{how}」；两边的插值方式须相同")
    colours = _locations([("", fragment_fn.type.result)])
    if 0 not in colours or not _is_float(colours[0][1]):
        found = f"位置 0 上是{show(colours[0][1])}" if 0 in colours else "没有在位置 0 输出颜色"
        return (f"片元入口项「{fragment.name}」{found}：渲染 的目标是 {TARGET_FORMAT}，"
                "片元入口须在位置 0 输出浮点颜色（如「片元颜色」）")
    parts = vector_parts(resolve(colours[0][1]))
    if parts is None or parts[1] != 4:
        return (f"片元入口项「{fragment.name}」在位置 0 输出的颜色是{show(colours[0][1])}：渲染 的目标 {TARGET_FORMAT} "
                "有红、绿、蓝、不透明度四个通道，颜色须有四个分量（如「四维浮」）：补上其余分量，不透明度通常写 1")
    return None


#: (scalar, components) → the WebGPU vertex format that feeds a located vertex input of that type
VERTEX_FORMATS = {
    **{(Scalar.F32, n): "float32" + (f"x{n}" if n > 1 else "") for n in (1, 2, 3, 4)},
    **{(Scalar.U32, n): "uint32" + (f"x{n}" if n > 1 else "") for n in (1, 2, 3, 4)},
    **{(Scalar.I32, n): "sint32" + (f"x{n}" if n > 1 else "") for n in (1, 2, 3, 4)},
    (Scalar.F16, 2): "float16x2", (Scalar.F16, 4): "float16x4",
}


def vertex_format(t) -> str | None:
    """The vertex format of a located input's type; None where WebGPU has none (「浮十六」, 「三维半」)."""
    parts = vector_parts(resolve(t))
    return VERTEX_FORMATS.get((scalar(parts[0]), parts[1]) if parts else (scalar(t), 1))


@dataclass
class VertexInput:
    """One vertex buffer: the bytes of the input at `location`, `stride` bytes
    a vertex (or an instance when `per_instance`)."""

    location: int
    format: str
    data: bytes
    stride: int
    per_instance: bool = False


@dataclass
class Depth:
    """The depth attachment: its format, the compare function (a WebGPU
    name), the clear value, and whether to read it back (as float32)."""

    format: str = DEPTH_FORMAT
    compare: str = "always"
    clear: float = 1.0
    read: bool = False


#: depth formats the draw offers, and whether their values can be copied out (depth24plus cannot)
DEPTH_FORMATS = {"depth32float": True, "depth16unorm": True, "depth24plus": False}


# ---------------------------------------------------------------- the draw


def _constants(constants: dict | None) -> dict:
    """The pipeline constants a stage is given: any overridable constant of the module may be named."""
    return {"constants": constants} if constants else {}


def render(wgsl: str, vertex: str, fragment: str, size: tuple[int, int], vertex_count: int,
           buffers: list[BufferData], others=(), constants: dict | None = None, *,
           inputs: list[VertexInput] = (), instances: int = 1, depth: Depth = Depth()):
    """Draw `vertex_count` vertices of `instances` instances (a triangle list)
    with the WGSL functions `vertex` and `fragment`, fed by the vertex buffers
    `inputs`; the picture, the bytes of every writable buffer by (group,
    binding), and the depth attachment's values (height × width, float32)
    when `depth.read`, else None.  `others` are further bindings (textures,
    samplers) and `constants` the overridable constants' values, as for `run_compute`."""
    width, height = size
    device = open_device(required_features(wgsl))     # says so when wgpu or an adapter is missing
    import wgpu
    module = create_module(device, wgsl)
    try:
        target = device.create_texture(size=(width, height, 1), format=TARGET_FORMAT,
                                       usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC)
        depth_texture = device.create_texture(size=(width, height, 1), format=depth.format,
                                              usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC)
        pipeline = device.create_render_pipeline(
            layout="auto",
            vertex={"module": module, "entry_point": vertex, "buffers": [_layout(i) for i in inputs],
                    **_constants(constants)},
            fragment={"module": module, "entry_point": fragment, "targets": [{"format": TARGET_FORMAT}],
                      **_constants(constants)},
            primitive={"topology": wgpu.PrimitiveTopology.triangle_list},
            depth_stencil={"format": depth.format, "depth_write_enabled": True, "depth_compare": depth.compare},
        )
        gpu_buffers = upload(device, buffers)
        encoder = device.create_command_encoder()
        draw = encoder.begin_render_pass(
            color_attachments=[{"view": target.create_view(), "load_op": wgpu.LoadOp.clear,
                                "store_op": wgpu.StoreOp.store, "clear_value": CLEAR}],
            depth_stencil_attachment={"view": depth_texture.create_view(), "depth_clear_value": depth.clear,
                                      "depth_load_op": wgpu.LoadOp.clear, "depth_store_op": wgpu.StoreOp.store})
        draw.set_pipeline(pipeline)
        for group, bind_group in bind_groups(device, pipeline, buffers, gpu_buffers, others).items():
            draw.set_bind_group(group, bind_group)
        for slot, given in enumerate(inputs):
            draw.set_vertex_buffer(slot, device.create_buffer_with_data(data=given.data, usage=wgpu.BufferUsage.VERTEX))
        draw.draw(vertex_count, instances)
        draw.end()
        device.queue.submit([encoder.finish()])
        pixels = device.queue.read_texture({"texture": target}, {"bytes_per_row": width * 4, "rows_per_image": height},
                                           (width, height, 1))
        depths = _read_depth(device, depth_texture, depth.format, size) if depth.read else None
        return Picture(width, height, bytes(pixels)), read_back(device, buffers, gpu_buffers), depths
    except Exception as err:
        raise WebGPUError(f"WebGPU 渲染失败：{err}") from err


def _layout(given: VertexInput) -> dict:
    return {"array_stride": given.stride, "step_mode": "instance" if given.per_instance else "vertex",
            "attributes": [{"format": given.format, "offset": 0, "shader_location": given.location}]}


def _read_depth(device, texture, format: str, size: tuple[int, int]):
    """The depth values, rows top first, as float32 (depth16unorm's n/65535)."""
    import numpy as np
    width, height = size
    unit = 2 if format == "depth16unorm" else 4
    row = -(-width * unit // 256) * 256          # copies out of a texture go in rows of a multiple of 256 bytes
    data = device.queue.read_texture({"texture": texture, "aspect": "depth-only"},
                                     {"bytes_per_row": row, "rows_per_image": height}, (width, height, 1))
    values = np.frombuffer(bytes(data), dtype=np.uint16 if unit == 2 else np.float32)
    values = values.reshape(height, row // unit)[:, :width]
    return (values / 65535.0).astype(np.float32) if unit == 2 else values.copy()
