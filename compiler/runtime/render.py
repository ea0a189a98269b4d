"""Drawing a vertex + fragment pair on the local WebGPU adapter (the `渲染`
subcommand): what the pair must look like to be drawn without vertex
buffers into one rgba8unorm colour target, and the draw itself.

There are no vertex buffers: a vertex entry takes only 「顶点序号」 and
「实例序号」 and reads any per-vertex data from a storage buffer by its index,
so every resource (buffers, textures, samplers) is given the way `运行`
gives it.  The target is cleared to
transparent black (0, 0, 0, 0) and read back as RGBA bytes, top row first.
A depth attachment that every fragment passes (compare always, so the
drawing order decides, as without one) lets a fragment entry write
「片元深度」: WebGPU refuses a pipeline whose fragment shader writes depth
and that has no depth attachment.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..builtin.io import BUILTIN_IO
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


def _slots(named_types) -> list[tuple[str, object]]:
    """The user-defined values passed between stages, in @location order as the
    back ends number them: the fields of records first, then plain values;
    builtin values (「裁剪位置」, 「顶点序号」 …) take no location."""
    fields, plain = [], []
    for name, t in named_types:
        r = resolve(t)
        if isinstance(r, TRecord):
            fields += [(f, ft) for f, ft in r.fields if resolve(ft).alias not in BUILTIN_IO]
        elif r.alias not in BUILTIN_IO and not is_unit(r):
            plain.append((name, r))
    return fields + plain


def _is_float(t) -> bool:
    parts = vector_parts(t)
    return scalar(parts[0] if parts else t) in FLOATS


def pair_problem(vertex: ir.Entry, vertex_fn: ir.Function, fragment: ir.Entry, fragment_fn: ir.Function,
                 show) -> str | None:
    """Why the pair cannot be drawn here, in Chinese, or None: vertex inputs
    that would need vertex buffers, a fragment input the vertex stage does
    not produce with the same type, no colour for location 0."""
    inputs = _slots((p.name, p.type) for p in vertex_fn.params)
    if inputs:
        name, t = inputs[0]
        return (f"顶点入口项「{vertex.name}」的输入「{name}」（{show(t)}）要顶点缓冲：渲染 不给顶点缓冲，"
                "顶点入口的输入只能是「顶点序号」与「实例序号」；把每个顶点的数据放进存储缓冲，用「顶点序号」读")
    produced = _slots([("", vertex_fn.type.result)])
    for location, (name, t) in enumerate(_slots((p.name, p.type) for p in fragment_fn.params)):
        if location >= len(produced):
            return (f"片元入口项「{fragment.name}」的输入「{name}」（位置 {location}）没有对应的顶点输出："
                    f"顶点入口项「{vertex.name}」只输出 {len(produced)} 个插值量")
        given, given_type = produced[location]
        if concrete(given_type) != concrete(t):
            return (f"顶点入口项「{vertex.name}」与片元入口项「{fragment.name}」的接口不符：位置 {location} 上"
                    f"顶点输出「{given}」是{show(given_type)}，片元输入「{name}」是{show(t)}；"
                    "两边的插值量须按次序一一对应、类型相同")
    colours = _slots([("", fragment_fn.type.result)])
    if not colours or not _is_float(colours[0][1]):
        found = f"位置 0 上是{show(colours[0][1])}" if colours else "没有输出颜色"
        return (f"片元入口项「{fragment.name}」{found}：渲染 的目标是 {TARGET_FORMAT}，"
                "片元入口须在位置 0 输出浮点颜色（如「片元颜色」）")
    parts = vector_parts(resolve(colours[0][1]))
    if parts is None or parts[1] != 4:
        return (f"片元入口项「{fragment.name}」在位置 0 输出的颜色是{show(colours[0][1])}：渲染 的目标 {TARGET_FORMAT} "
                "有红、绿、蓝、不透明度四个通道，颜色须有四个分量（如「四维浮」）：补上其余分量，不透明度通常写 1")
    return None


# ---------------------------------------------------------------- the draw


def _constants(constants: dict | None) -> dict:
    """The pipeline constants a stage is given: any overridable constant of the module may be named."""
    return {"constants": constants} if constants else {}


def render(wgsl: str, vertex: str, fragment: str, size: tuple[int, int], vertex_count: int,
           buffers: list[BufferData], others=(), constants: dict | None = None) -> tuple[Picture, dict]:
    """Draw `vertex_count` vertices (a triangle list) with the WGSL functions
    `vertex` and `fragment`; the picture, and the bytes of every writable
    buffer by (group, binding).  `others` are further bindings (textures,
    samplers) and `constants` the overridable constants' values, as for `run_compute`."""
    width, height = size
    device = open_device(required_features(wgsl))     # says so when wgpu or an adapter is missing
    import wgpu
    module = create_module(device, wgsl)
    try:
        target = device.create_texture(size=(width, height, 1), format=TARGET_FORMAT,
                                       usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC)
        depth = device.create_texture(size=(width, height, 1), format=DEPTH_FORMAT,
                                      usage=wgpu.TextureUsage.RENDER_ATTACHMENT)
        pipeline = device.create_render_pipeline(
            layout="auto",
            vertex={"module": module, "entry_point": vertex, "buffers": [], **_constants(constants)},
            fragment={"module": module, "entry_point": fragment, "targets": [{"format": TARGET_FORMAT}],
                      **_constants(constants)},
            primitive={"topology": wgpu.PrimitiveTopology.triangle_list},
            depth_stencil={"format": DEPTH_FORMAT, "depth_write_enabled": True,
                           "depth_compare": wgpu.CompareFunction.always},
        )
        gpu_buffers = upload(device, buffers)
        encoder = device.create_command_encoder()
        draw = encoder.begin_render_pass(
            color_attachments=[{"view": target.create_view(), "load_op": wgpu.LoadOp.clear,
                                "store_op": wgpu.StoreOp.store, "clear_value": CLEAR}],
            depth_stencil_attachment={"view": depth.create_view(), "depth_clear_value": 1.0,
                                      "depth_load_op": wgpu.LoadOp.clear, "depth_store_op": wgpu.StoreOp.discard})
        draw.set_pipeline(pipeline)
        for group, bind_group in bind_groups(device, pipeline, buffers, gpu_buffers, others).items():
            draw.set_bind_group(group, bind_group)
        draw.draw(vertex_count)
        draw.end()
        device.queue.submit([encoder.finish()])
        pixels = device.queue.read_texture({"texture": target}, {"bytes_per_row": width * 4, "rows_per_image": height},
                                           (width, height, 1))
        return Picture(width, height, bytes(pixels)), read_back(device, buffers, gpu_buffers)
    except Exception as err:
        raise WebGPUError(f"WebGPU 渲染失败：{err}") from err
