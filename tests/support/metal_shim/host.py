"""What a Metal host does before and after a compute dispatch, shared by the
CPU runs (runner.py) and the real Metal runs on macOS: buffers by slot
(group × 16 + binding), the 「数组长度」 buffer at slot 30, and a check that
the data, laid out as WGSL lays it out, is what the MSL reads (Metal's own
sizes: float3 takes 16 bytes, structs align their fields; a struct's 3-vector
member is written as packed_float3 with alignas(16), tests/test_msl_layout.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from support.references import StorageTexture, grid, sample_name, sample_path, translatable
from support.metal_shim.runner import TEXTURE_SLOTS
from zhuose.compiler import ir
from zhuose.compiler.backends import translate
from zhuose.compiler.backends.msl.writer import LENGTHS_SLOT
from zhuose.compiler.layout import element_stride, size_align, trailing_array
from zhuose.compiler.builtin.formats import STORAGE_FORMATS
from zhuose.compiler.builtin.textures import texture_shape
from zhuose.compiler.types import TCon, TRecord, TTuple, deep_resolve, matrix_parts, vector_parts

SCALAR_SIZE = {("定长小数", 32): 4, ("定长小数", 16): 2, ("定长整数", 32): 4, ("定长无符号", 32): 4}


def metal_layout(t) -> tuple[int, int]:
    """(size, alignment) of a type in a Metal buffer."""
    t = deep_resolve(t)
    matrix = matrix_parts(t)
    if matrix is not None:
        comp, cols, rows = matrix
        size, align = metal_layout(TTuple((comp,) * rows))
        return size * cols, align
    vector = vector_parts(t)
    if vector is not None:
        comp, n = vector
        scalar = metal_layout(comp)[0]
        span = scalar * (4 if n == 3 else n)
        return span, span
    if isinstance(t, TRecord):
        offset, align = 0, 1
        for _, ft in t.fields:
            size, a = metal_layout(ft)
            if (vector_parts(deep_resolve(ft)) or (None, 0))[1] == 3:
                size = size * 3 // 4      # packed_float3: 12 bytes, alignas(16)
            offset = (offset + a - 1) // a * a + size
            align = max(align, a)
        return (offset + align - 1) // align * align, align
    if isinstance(t, TCon) and t.name == "定长数组":
        size, align = metal_layout(t.args[0])
        return size * t.args[1], align
    if isinstance(t, TCon) and t.name == "原子":
        return 4, 4
    if isinstance(t, TCon) and t.name == "爻":
        return 1, 1
    size = SCALAR_SIZE[(t.name, t.args[0])]
    return size, size


@dataclass
class Dispatch:
    """One compute dispatch, ready for a Metal host."""

    msl: str
    entry: object                       # MslEntry
    buffers: dict[int, bytes]           # by slot
    returned: dict[str, tuple[int, np.ndarray]]   # writable buffers: name → (slot, the given array)
    groups: tuple[int, int, int]


def prepare(ws, path, item: str, data: dict[str, np.ndarray], groups) -> Dispatch:
    """Translate, and lay out the buffers of entry `item` (given by resource name)."""
    result = translate(ws, path, "msl")
    assert result.text is not None, result.diagnostics
    entry = next(e for e in result.entries if e.item == item)
    checked = ws.check(path)
    modules = [ws.check(p).module for p in checked.module.imports] + [checked.module]
    resources = {d.name: d for m in modules for d in m.decls if isinstance(d, ir.Resource) and d.group is not None}
    used = {a for _, _, a in entry.parameters if a.startswith("buffer(") and a != f"buffer({LENGTHS_SLOT})"}
    used |= {f"buffer({slot})" for slot, _ in entry.lengths}     # bound, though only its length is read
    slots = {name: r.group * 16 + r.binding for name, r in resources.items()
             if f"buffer({r.group * 16 + r.binding})" in used}
    assert sorted(slots) == sorted(data), f"给出的缓冲 {sorted(data)} 与入口用到的 {sorted(slots)} 不一致"
    buffers, returned = {}, {}
    for name, slot in slots.items():
        r = resources[name]
        _same_layout(r)
        buffers[slot] = np.ascontiguousarray(data[name]).tobytes()
        if r.kind == "storage" and r.access != "只读":
            returned[name] = (slot, data[name])
    if entry.lengths:
        lengths = np.zeros(32, np.uint32)
        for slot, name in entry.lengths:
            offset, stride = metal_array_place(resources[name].inner)
            lengths[slot] = (data[name].nbytes - offset) // stride
        buffers[LENGTHS_SLOT] = lengths.tobytes()
    return Dispatch(result.text, entry, buffers, returned, grid(groups))


def metal_array_place(t) -> tuple[int, int]:
    """(byte offset, stride) of the runtime-sized array a buffer holds in Metal:
    after a header's fields (the struct's one-element last member), or at 0."""
    t = deep_resolve(t)
    if isinstance(t, TRecord):
        end = 0
        for _, ft in t.fields[:-1]:
            size, a = metal_layout(ft)
            if (vector_parts(deep_resolve(ft)) or (None, 0))[1] == 3:
                size = size * 3 // 4      # packed_float3, as metal_layout
            end = (end + a - 1) // a * a + size
        size, align = metal_layout(deep_resolve(t.fields[-1][1]).args[0])
        return (end + align - 1) // align * align, size
    return 0, metal_layout(t.args[0])[0]


def _same_layout(r: ir.Resource) -> None:
    """The test data follows WGSL's layout; Metal must read the same bytes."""
    inner = deep_resolve(r.inner)
    if trailing_array(inner) is not None:
        wgsl, metal = trailing_array(inner), metal_array_place(inner)
    elif isinstance(inner, TCon) and inner.name == "数组":
        wgsl, metal = element_stride(inner), metal_layout(inner.args[0])[0]
    else:
        wgsl, metal = size_align(inner)[0], metal_layout(inner)[0]
    assert wgsl == metal, f"「{r.name}」的元素在 WGSL 里占 {wgsl} 字节，在金属里占 {metal} 字节（着九：布局不尽相同）"


def results(d: Dispatch, out: dict[int, bytes]) -> dict[str, np.ndarray]:
    """The writable buffers after the dispatch, shaped like the arrays given."""
    arrays = {}
    for name, (slot, given) in d.returned.items():
        arrays[name] = np.frombuffer(out[slot][:given.nbytes], dtype=given.dtype).reshape(given.shape).copy()
    return arrays


# ---------------------------------------------------------------- the references' runner


def msl_compute_samples(ws) -> dict[str, Path]:
    """Samples (by name) whose MSL translates and has a compute entry."""
    found = {}
    for path in translatable(ws):
        result = translate(ws, path, "msl")
        if result.text is not None and any(e.stage == "计算" for e in result.entries):
            found[sample_name(path)] = path
    return found


def msl_run(ws, dispatch, bind_textures):
    """A runner for tests/support/references.py: translate to MSL, lay out the
    buffers, `bind_textures(prepared, textures)` adds the textures and
    samplers, `dispatch(sample/entry, prepared) -> {slot: bytes}` runs it."""
    def run(sample, entry, data, groups, textures=()):
        prepared = prepare(ws, sample_path(sample), entry, data, groups)
        storage = [t for t in textures if isinstance(t, StorageTexture)]
        inputs = [t for t in textures if not isinstance(t, StorageTexture)]
        if inputs:
            bind_textures(prepared, inputs)
        bound = {t.name: _bind_storage(ws, sample_path(sample), prepared, t) for t in storage}
        out = dispatch(f"{sample}/{entry}", prepared)
        arrays = results(prepared, out)
        for t in storage:
            slot, shape = bound[t.name]
            arrays[t.name] = stored_texels(out[slot], t, shape)
        return arrays
    return run


def _bind_storage(ws, path, prepared: Dispatch, t: StorageTexture) -> tuple:
    """A storage texture at its resource's slot: width, height, layers (depth), 0, then four
    words a texel — zeros, or its first texels as the shader reads them; (slot, its texture shape)."""
    checked = ws.check(path)
    r = next(d for d in checked.module.decls if isinstance(d, ir.Resource) and d.name == t.name)
    slot = TEXTURE_SLOTS + r.group * 16 + r.binding
    fmt = _storage_format(t)
    words = np.zeros((t.depth * t.height * t.width, 4), _WORDS.get(fmt.texel, np.float32))
    if t.initial is not None:
        words = _as_read(fmt, np.asarray(t.initial, fmt.dtype).reshape(-1, fmt.channels))
    prepared.buffers[slot] = np.array([t.width, t.height, t.depth, 0], np.uint32).tobytes() + words.tobytes()
    return slot, texture_shape(r.type)


#: the shim's four words a texel, by the format's texel kind (float otherwise)
_WORDS = {"uint": np.uint32, "int": np.int32}


def _storage_format(t: StorageTexture):
    return next(f for f in STORAGE_FORMATS.values() if f.wgsl == t.format)


def _as_read(fmt, stored: np.ndarray) -> np.ndarray:
    """Stored texels (n, channels) as the four words the shader reads: normalized 8-bit
    formats as 0 … 1 or −1 … 1, bgra8unorm back in RGBA order, missing channels (0, 0, 1)."""
    values = stored[..., list(fmt.order[:fmt.channels])].astype(np.float64)
    if fmt.texel == "float" and fmt.dtype == "uint8":
        values = values / 255
    elif fmt.texel == "float" and fmt.dtype == "int8":
        values = np.maximum(values / 127, -1)
    words = np.zeros((len(values), 4), _WORDS.get(fmt.texel, np.float32))
    words[:, 3] = 1
    words[:, :fmt.channels] = values
    return words


def stored_texels(data: bytes, t: StorageTexture, shape) -> np.ndarray:
    """What Metal stores of the written values in the texture's pixel format (the
    shim keeps four floats, ints or uints a texel): unorm8 and snorm8 round to nearest, bgra8unorm swaps
    red and blue; shaped (w, channels) for 1-D, (h, w, channels) for 2-D, (layers or depth, h, w, channels) else."""
    fmt = _storage_format(t)
    values = np.frombuffer(data[16:], _WORDS.get(fmt.texel, np.float32)).reshape(t.depth, t.height, t.width, 4)
    values = values[..., list(fmt.order[:fmt.channels])]
    values = values[0, 0] if shape.dims == 1 else (values if shape.dims == 3 or shape.arrayed else values[0])
    if fmt.texel == "float" and fmt.dtype in ("uint8", "int8"):
        low, scale = (0, 255) if fmt.dtype == "uint8" else (-1, 127)
        return np.rint(np.clip(values, low, 1) * scale).astype(fmt.dtype)
    return values.astype(fmt.dtype)
