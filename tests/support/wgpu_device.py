"""A WebGPU device for the tests (wgpu; on CI the lavapipe software Vulkan
adapter from Debian's mesa-vulkan-drivers).

Without an adapter a test fails when CI=true (so CI can never pass by
skipping) and is skipped elsewhere, with the reason printed.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from support.references import (StorageTexture, entry_buffers, entry_resources, grid, read_back,
                                storage_bindings)
from support.tint import tint_validate
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace
from zhuose.compiler.runtime.wgpu import (WebGPUError, buffer_for, create_module, open_device,
                                          required_features, run_compute)
from zhuose.compiler.builtin.formats import STORAGE_FORMATS
from zhuose.compiler.builtin.textures import texture_shape
from zhuose.compiler.runtime.textures import StorageImage, input_texture


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI 上必须有 WebGPU 适配器（lavapipe）：{reason}")
    sys.stderr.write(f"跳过：没有 WebGPU 适配器：{reason}\n")
    pytest.skip(f"没有 WebGPU 适配器：{reason}")


def device_for(wgsl: str):
    """A device with the features this WGSL needs (shader-f16, subgroup)."""
    try:
        return open_device(required_features(wgsl))
    except WebGPUError as err:
        _unavailable(str(err))


def adapter_info() -> dict:
    try:
        return dict(open_device([]).adapter.info)
    except WebGPUError as err:
        _unavailable(str(err))


def validate(wgsl: str):
    """create_shader_module on a real device: naga parses and validates the
    WGSL; then Tint judges it too.  A rejection fails the test with the message."""
    device = device_for(wgsl)
    tint_validate(wgsl)
    try:
        return create_module(device, wgsl)
    except WebGPUError as err:
        pytest.fail(f"{err}\n--- WGSL ---\n{wgsl}")


def run_entry(ws, path, entry: str, data: dict, groups, textures=()) -> dict:
    """Translate a shader source and dispatch one compute entry on the device:
    a runner of tests/support/references.py for a source at `path`."""
    result = translate(ws, path, "wgsl")
    assert result.text is not None, [d.message for d in result.diagnostics]
    device_for(result.text)
    tint_validate(result.text)
    function = next(e.function for e in result.entries if e.item == entry)
    resources = entry_buffers(ws, path, entry, data)
    buffers = [buffer_for(r, np.ascontiguousarray(data[r.name]).tobytes()) for r in resources]
    shapes = {(r.group, r.binding): texture_shape(r.type) for _, r in entry_resources(ws, path, entry)}
    storage = {name: (_storage_image(t, shapes[key]), key)
               for name, (t, key) in storage_bindings(ws, path, entry, textures).items()}
    others = [(group, binding, lambda device, r=resource, s=shapes[(group, binding)]: _texture_resource(device, r, s))
              for group, binding, resource in (t for t in textures if not isinstance(t, StorageTexture))]
    others += [(*key, image.make) for image, key in storage.values()]
    try:
        out = run_compute(result.text, function, buffers, grid(groups), others)
    except WebGPUError as err:
        pytest.fail(f"{err}\n--- WGSL ---\n{result.text}")
    stored = {name: image.read(np) for name, (image, _) in storage.items()}
    return {**read_back(resources, data, out), **stored}


def render(wgsl: str, vertex: str, fragment: str, size: int, vertex_count: int, *,
           vertex_buffers=(), uniforms=(), textures=(), instances: int = 1) -> np.ndarray:
    """Draw `vertex_count` vertices into a size×size rgba32float texture
    (cleared to 0) and return its pixels as a (size, size, 4) array.

    vertex_buffers: (array, [(format, offset, location), …]) per buffer slot;
    uniforms: (group, binding, bytes); textures: (group, binding, array of
    (h, w, 4) numbers, uploaded as rgba16float, or a sampler descriptor dict)."""
    import wgpu
    device = device_for(wgsl)
    module = validate(wgsl)
    target = device.create_texture(size=(size, size, 1), format=wgpu.TextureFormat.rgba32float,
                                   usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC)
    layouts, buffers = [], []
    for array, attributes in vertex_buffers:
        buffers.append(device.create_buffer_with_data(data=np.ascontiguousarray(array).tobytes(),
                                                      usage=wgpu.BufferUsage.VERTEX))
        layouts.append({"array_stride": array.strides[0], "step_mode": wgpu.VertexStepMode.vertex,
                        "attributes": [{"format": f, "offset": o, "shader_location": loc}
                                       for f, o, loc in attributes]})
    pipeline = device.create_render_pipeline(
        layout="auto",
        vertex={"module": module, "entry_point": vertex, "buffers": layouts},
        fragment={"module": module, "entry_point": fragment,
                  "targets": [{"format": wgpu.TextureFormat.rgba32float}]},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list},
    )
    groups: dict[int, list] = {}
    for group, binding, data in uniforms:
        buffer = device.create_buffer_with_data(data=data, usage=wgpu.BufferUsage.UNIFORM)
        groups.setdefault(group, []).append({"binding": binding, "resource": {"buffer": buffer}})
    for group, binding, resource in textures:
        groups.setdefault(group, []).append({"binding": binding, "resource": _texture_resource(device, resource)})
    encoder = device.create_command_encoder()
    rp = encoder.begin_render_pass(color_attachments=[{
        "view": target.create_view(), "load_op": wgpu.LoadOp.clear, "store_op": wgpu.StoreOp.store,
        "clear_value": (0, 0, 0, 0)}])
    rp.set_pipeline(pipeline)
    for slot, buffer in enumerate(buffers):
        rp.set_vertex_buffer(slot, buffer)
    for group, entries in groups.items():
        rp.set_bind_group(group, device.create_bind_group(layout=pipeline.get_bind_group_layout(group),
                                                          entries=entries))
    rp.draw(vertex_count, instances)
    rp.end()
    device.queue.submit([encoder.finish()])
    data = device.queue.read_texture({"texture": target}, {"bytes_per_row": size * 16, "rows_per_image": size},
                                     (size, size, 1))
    return np.frombuffer(bytes(data), dtype=np.float32).reshape(size, size, 4)


def render_with_depth(text: str, vertex: str, fragment: str, size: int, vertex_count: int, instances: int):
    """Like `render`, with a depth32float attachment (cleared to 1, compare always, written):
    returns the colour pixels and the depth values."""
    import wgpu
    device = device_for(text)
    module = validate(text)
    usage = wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC
    colour = device.create_texture(size=(size, size, 1), format=wgpu.TextureFormat.rgba32float, usage=usage)
    depth = device.create_texture(size=(size, size, 1), format=wgpu.TextureFormat.depth32float, usage=usage)
    pipeline = device.create_render_pipeline(
        layout="auto",
        vertex={"module": module, "entry_point": vertex, "buffers": []},
        fragment={"module": module, "entry_point": fragment,
                  "targets": [{"format": wgpu.TextureFormat.rgba32float}]},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list},
        depth_stencil={"format": wgpu.TextureFormat.depth32float, "depth_write_enabled": True,
                       "depth_compare": wgpu.CompareFunction.always},
    )
    encoder = device.create_command_encoder()
    rp = encoder.begin_render_pass(
        color_attachments=[{"view": colour.create_view(), "load_op": wgpu.LoadOp.clear,
                            "store_op": wgpu.StoreOp.store, "clear_value": (0, 0, 0, 0)}],
        depth_stencil_attachment={"view": depth.create_view(), "depth_clear_value": 1.0,
                                  "depth_load_op": wgpu.LoadOp.clear, "depth_store_op": wgpu.StoreOp.store})
    rp.set_pipeline(pipeline)
    rp.draw(vertex_count, instances)
    rp.end()
    device.queue.submit([encoder.finish()])
    c = device.queue.read_texture({"texture": colour}, {"bytes_per_row": size * 16, "rows_per_image": size},
                                  (size, size, 1))
    d = device.queue.read_texture({"texture": depth, "aspect": wgpu.TextureAspect.depth_only},
                                  {"bytes_per_row": size * 4, "rows_per_image": size}, (size, size, 1))
    return (np.frombuffer(bytes(c), dtype=np.float32).reshape(size, size, 4),
            np.frombuffer(bytes(d), dtype=np.float32).reshape(size, size))


def _storage_image(t: StorageTexture, shape) -> StorageImage:
    fmt = next(f for f in STORAGE_FORMATS.values() if f.wgsl == t.format)
    initial = None if t.initial is None else np.ascontiguousarray(t.initial, fmt.dtype)
    return StorageImage(fmt, t.width, t.height, depth=t.depth, shape=shape, initial=initial)


def _texture_resource(device, resource, shape=None):
    """A sampler from its descriptor, or a texture of the binding's shape: integer texels
    as they are, depths as depth16unorm, others as rgba16float (filterable on every adapter)."""
    if isinstance(resource, dict):
        return device.create_sampler(**resource)
    texels = np.asarray(resource)
    if shape is not None and shape.multisampled:
        return _drawn_multisampled(device, texels, shape)
    if texels.dtype.kind not in "iu" and not (shape is not None and shape.depth):
        texels = texels.astype(np.float16)
    return input_texture(np, device, texels, sampled=True, shape=shape)


#: the 着色 program that draws given texels into a multisampled texture, which WebGPU cannot write otherwise
FILL_MULTISAMPLED = Path(__file__).with_name("多重采样画入。着色器。豫")


@functools.cache
def _fill_wgsl() -> str:
    result = translate(Workspace(FILL_MULTISAMPLED.parent), FILL_MULTISAMPLED, "wgsl")
    assert result.text is not None, [d.message for d in result.diagnostics]
    return result.text


def _drawn_multisampled(device, texels, shape):
    """A view of a new multisampled texture holding `texels` (samples, h, w, 4), or depths
    (samples, h, w[, 1]) for a depth texture (rgba16float colour, depth32float depth): a full-screen
    triangle shaded per sample (「采样序号」) writes each sample's own texel as colour or as 「片元深度」."""
    import wgpu
    texels = np.asarray(texels, np.float32)
    if shape.depth and texels.ndim == 3:
        texels = texels[..., None]
    samples, h, w, channels = texels.shape
    values = np.zeros((samples, h, w, 4), np.float32)
    values[..., :channels] = texels
    fmt = wgpu.TextureFormat.depth32float if shape.depth else wgpu.TextureFormat.rgba16float
    texture = device.create_texture(size=(w, h, 1), format=fmt, sample_count=samples,
                                    usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.TEXTURE_BINDING)
    module = create_module(device, _fill_wgsl())
    fragment = {"module": module, "entry_point": "画深度" if shape.depth else "画颜色",
                "targets": [] if shape.depth else [{"format": fmt}]}
    depth_stencil = {"format": fmt, "depth_write_enabled": True, "depth_compare": wgpu.CompareFunction.always}
    pipeline = device.create_render_pipeline(
        layout="auto", vertex={"module": module, "entry_point": "全屏", "buffers": []}, fragment=fragment,
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list}, multisample={"count": samples},
        depth_stencil=depth_stencil if shape.depth else None)
    size = device.create_buffer_with_data(data=np.array([w, h], np.uint32).tobytes(), usage=wgpu.BufferUsage.UNIFORM)
    storage = device.create_buffer_with_data(data=values.tobytes(), usage=wgpu.BufferUsage.STORAGE)
    bind = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": size}}, {"binding": 1, "resource": {"buffer": storage}}])
    view = texture.create_view()
    encoder = device.create_command_encoder()
    attachments = ({"color_attachments": [], "depth_stencil_attachment": {
                        "view": view, "depth_clear_value": 0.0, "depth_load_op": wgpu.LoadOp.clear,
                        "depth_store_op": wgpu.StoreOp.store}} if shape.depth else
                   {"color_attachments": [{"view": view, "load_op": wgpu.LoadOp.clear, "store_op": wgpu.StoreOp.store,
                                           "clear_value": (0, 0, 0, 0)}]})
    rp = encoder.begin_render_pass(**attachments)
    rp.set_pipeline(pipeline)
    rp.set_bind_group(0, bind)
    rp.draw(3)
    rp.end()
    device.queue.submit([encoder.finish()])
    return texture.create_view()
