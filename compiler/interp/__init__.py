"""The reference interpreter (seed 004): a compute entry run deterministically
on the CPU, with subgroups of a chosen width, and every data race, divergent
barrier or subgroup operation, out-of-bounds access and integer division by
zero reported as a fault instead of silently computed.

`run` is the Python API (tests, build plugins, `着色器 运行 … --后端 参照`).
It interprets the checked IR (compiler/ir.py) that the back ends read; the
per-node evaluation lives in `machine.py` apart from memory (`memory.py`) and
the pure builtins (`ops.py`), so that a lowered IR can take the checked IR's
place later.
"""

from __future__ import annotations

import numpy as np

from .. import ir
from ..lower.loops import lowering
from ..builtin.formats import storage_format
from ..builtin.textures import texture_shape
from ..layout import SCALAR_DTYPES
from ..types import deep_resolve
from .machine import Fault, Machine
from .textures import Sampler, StorageTexels, Texture
from .memory import Unsupported, storage_region, workgroup_region
from ..valid.uniformity import CODES as UNIFORMITY

__all__ = ["Fault", "Unsupported", "run", "WIDTHS"]

#: the subgroup widths the interpreter accepts
WIDTHS = (4, 8, 16, 32, 64, 128)


def run(ws, path, entry_name: str, buffers: dict, groups, *, subgroup_width: int = 32,
        schedule_seed: int | None = None, textures: dict | None = None, overrides: dict | None = None) -> dict:
    """Dispatch the compute entry `entry_name` of the checked source `path` once.

    `buffers` maps (group, binding) to the bytes of every storage and uniform
    buffer the entry uses (WGSL layout, as 运行 uploads them); `groups` is a
    workgroup count or up to three.  Returns the bytes of every writable
    storage buffer by (group, binding).  Raises Fault (its `.diagnostic` is
    the `文件:行:列` report) or Unsupported.  `schedule_seed` permutes the
    order in which subgroups take effect (atomics); `textures` maps (group,
    binding) to a texture's texels ((h, w, 4) for a 2-D texture; the shapes
    of every texture type are in interp/textures.py), a sampler's descriptor
    (wgpu's create_sampler keywords; nearest when not given), or for a
    storage texture to its (width[, height[, depth or layers]]) or its first
    texels ((…, channels) of the format's type): the result holds its stored
    texels, (…, channels) of the format's type, under its (group, binding).
    `overrides` gives pipeline-overridable constants their values by name
    (else their defaults).

    A program 检查 refuses only for its uniformity analysis still runs here,
    so that the invocations that part at a barrier can be seen; any other
    error makes it Unsupported."""
    if subgroup_width not in WIDTHS:
        raise Unsupported(f"子组宽须是 {'、'.join(map(str, WIDTHS))} 之一，给的是 {subgroup_width}")
    checked = ws.check(path)
    errors = [d for d in ws.diagnostics(path) if d.severity == "错误" and d.code not in UNIFORMITY]
    if errors:
        raise Unsupported(f"程序有错误，不能运行：{errors[0].full_message()}")
    modules = [ws.check(p).module for p in checked.module.imports] + [checked.module]
    entry = next((d for d in checked.module.decls if isinstance(d, ir.Entry) and d.name == entry_name), None)
    if entry is None or entry.stage != "计算":
        raise Unsupported(f"「{entry_name}」不是这个文件的计算入口项")
    groups = _grid(groups)
    count = groups[0] * groups[1] * groups[2]
    regions = {}
    info = ws.validate(path)                 # cached: the diagnostics above ran it
    used = info.entry_resources(entry.function)
    for module_path, r in used:
        key = (r.group, r.binding)
        if r.kind in ("storage", "uniform"):
            if key not in buffers:
                raise Unsupported(f"没有给出组 {r.group} 号 {r.binding}「{r.name}」的数据")
            kind = "uniform" if r.kind == "uniform" else ("read" if r.access == "只读" else "storage")
            regions[(module_path, r.name)] = storage_region(r.name, kind, r.inner, bytes(buffers[key]))
        elif r.kind in ("texture", "depth_texture") and textures is not None and key in textures:
            regions[(module_path, r.name)] = Texture(texture_shape(r.type), textures[key], _texel_dtype(r), r.name)
        elif r.kind in ("sampler", "comparison_sampler"):     # nearest unless given
            regions[(module_path, r.name)] = Sampler((textures or {}).get(key))
        elif r.kind == "storage_texture":
            regions[(module_path, r.name)] = _storage_texels(r, (textures or {}).get(key))
        elif r.kind != "workgroup":
            raise Unsupported(f"参照解释器不能给入口提供「{r.name}」（{r.kind}）")
    for module_path, name in info.workgroup[entry.name]:
        regions[(module_path, name)] = workgroup_region(name, info.decls[(module_path, name)].inner, count)
    machine = Machine(ws, modules, entry, regions, groups, subgroup_width, schedule_seed, lowering(info),
                      overrides or {})
    machine.run()
    out = {}
    for module_path, r in used:
        region = regions.get((module_path, r.name))
        if r.kind == "storage" and r.access != "只读":
            out[(r.group, r.binding)] = region.raw.tobytes()
        elif r.kind == "storage_texture":
            out[(r.group, r.binding)] = region.stored()
    return out


def _texel_dtype(r: ir.Resource):
    """A colour texture's element (f32, i32, u32) as NumPy's type; a depth texture's is float32."""
    if texture_shape(r.type).depth:
        return np.float32
    element = deep_resolve(r.inner)
    return np.dtype(SCALAR_DTYPES[(element.name, element.args[0])][0])


def _storage_texels(r: ir.Resource, given) -> StorageTexels:
    """A storage texture from its extent (width[, height[, depth or layers]]), or from
    its first texels ((…, channels) of the format's type) when the shader may read it."""
    if given is None:
        raise Unsupported(f"没有给出组 {r.group} 号 {r.binding}「{r.name}」（存储纹理）的宽高或初值")
    shape, fmt = texture_shape(r.type), storage_format(r.type)
    if isinstance(given, tuple):
        return StorageTexels(shape, fmt, given, name=r.name)
    array = np.asarray(given)
    extent = _array_extent(shape, array.shape[:-1])
    return StorageTexels(shape, fmt, extent, array, r.name)


def _array_extent(shape, leading: tuple) -> tuple:
    """(width, height, depth or layers) of texels shaped (…, height, width)."""
    return tuple(reversed(leading)) if shape.dims != 1 else (leading[0],)


def _grid(groups) -> tuple[int, int, int]:
    groups = tuple(groups) if isinstance(groups, (tuple, list)) else (groups,)
    return tuple(int(g) for g in groups) + (1,) * (3 - len(groups))
