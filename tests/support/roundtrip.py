"""The importer's round trip (issue 26), shared by tests/test_importer.py and
bench/bench_import.py: WGSL → `导入` → 着色 → `译` → WGSL, then

- both WGSL texts through naga (wgpu's create_shader_module) — and Tint where
  the tests ask;
- every compute entry of the original dispatched on the adapter (lavapipe)
  next to the translated one, with the same random buffers, and the
  writable buffers compared byte for byte (where they differ the original
  runs three more times: a translation equal to one of its results is the
  same, and an original whose own runs differ races and is not compared);
- a vertex + fragment pair drawn by both (`渲染`'s renderer, six vertices,
  32×32), each location input of the vertex entry fed from a random vertex
  buffer, and the pixels compared byte for byte.

Entries whose bindings are buffers, float 2-D textures (random rgba8unorm
texels, 16×16) and samplers (linear, repeating) are run; others are not.

Buffers are laid out from the original's declarations (WGSL's storage
layout; uniforms padded generously), filled per scalar: floats in [−4, 4],
signed in [−50, 50], unsigned in [0, 64] (small, so loops bounded by data end
and indices stay mostly inside)."""

from __future__ import annotations

import struct as pystruct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from lark import Tree

from zhuose.compiler.backends import translate
from zhuose.compiler.importer import import_wgsl
from zhuose.compiler.importer.emit import Importer, attribute_args, attributes, subtrees, tokens
from zhuose.compiler.importer.parse import parse_wgsl
from zhuose.compiler.importer.refusal import Refusal
from zhuose.compiler.workspace import Workspace

#: elements of each runtime-sized array
RUNTIME_LENGTH = 256
GROUPS = (2, 2, 1)


@dataclass
class Outcome:
    stage: str                      # refused | untranslatable | rejected | same | different | imported
    messages: list[str] = field(default_factory=list)
    text: str | None = None         # the imported 着色
    wgsl: str | None = None         # its translation
    entries_run: int = 0
    pictures: int = 0               # vertex + fragment pairs drawn and compared
    functions: dict = field(default_factory=dict)   # the original entry's name → the translation's


def import_and_translate(wgsl: str, folder: Path, name: str = "导入") -> Outcome:
    imported = import_wgsl(wgsl)
    if imported.text is None:
        return Outcome("refused", [p.message for p in imported.problems])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}。着色器。豫"
    path.write_text(imported.text, encoding="utf-8")
    ws = Workspace(folder)
    result = translate(ws, path, "wgsl")
    if result.text is None:
        return Outcome("untranslatable", [d.message for d in result.diagnostics], imported.text)
    outcome = Outcome("imported", [], imported.text, result.text)
    outcome.functions = {e.item.removesuffix("入口"): e.function for e in result.entries}
    return outcome


def round_trip(wgsl: str, folder: Path, seed: int = 0, tint: bool = False) -> Outcome:
    from zhuose.compiler.runtime.wgpu import WebGPUError, create_module, open_device, required_features
    outcome = import_and_translate(wgsl, folder)
    if outcome.wgsl is None:
        return outcome
    try:
        for text in (wgsl, outcome.wgsl):
            create_module(open_device(required_features(text)), text)
    except WebGPUError as err:
        outcome.stage, outcome.messages = "rejected", [str(err)]
        return outcome
    if tint:
        from support.tint import tint_validate
        tint_validate(outcome.wgsl)
    outcome.stage = "same"
    for entry, resources in compute_entries(wgsl):
        if resources is None:
            continue
        rng = np.random.default_rng(seed)
        buffers, others = random_buffers(resources, rng, structs_of(wgsl)), random_others(resources, rng)
        try:
            before = _dispatch(wgsl, entry, buffers, others)
            after = _dispatch(outcome.wgsl, outcome.functions.get(entry, entry), buffers, others)
        except WebGPUError as err:
            outcome.stage, outcome.messages = "rejected", [str(err)]
            return outcome
        if before != after:
            # the original may race (invocations writing one place): then its own runs differ
            runs = [_dispatch(wgsl, entry, buffers, others) for _ in range(3)]
            if after in runs:
                before = after
            elif any(r != before for r in runs):
                outcome.messages.append(f"入口 {entry}：原文几次运行的结果不同（数据竞争），不比较")
                continue
        outcome.entries_run += 1
        if before != after:
            outcome.stage = "different"
            outcome.messages.append(f"入口 {entry} 的结果不同：{_first_difference(before, after)}")
    for vertex, fragment, resources, locations in render_pairs(wgsl):
        rng = np.random.default_rng(seed)
        buffers, others = random_buffers(resources, rng, structs_of(wgsl)), random_others(resources, rng)
        inputs = random_vertices(locations, rng)
        names = outcome.functions
        try:
            before = _draw(wgsl, vertex, fragment, buffers, inputs, others)
        except WebGPUError:
            continue        # the original cannot be drawn this way (its target or inputs): nothing to compare
        try:
            after = _draw(outcome.wgsl, names.get(vertex, vertex), names.get(fragment, fragment), buffers, inputs, others)
        except WebGPUError as err:
            outcome.stage, outcome.messages = "rejected", [str(err)]
            return outcome
        outcome.pictures += 1
        if before != after:
            outcome.stage = "different"
            outcome.messages.append(f"{vertex} 与 {fragment} 画出的图不同")
    return outcome


def _draw(wgsl: str, vertex: str, fragment: str, buffers, inputs, others) -> bytes:
    from zhuose.compiler.runtime.render import render
    picture = render(wgsl, vertex, fragment, (32, 32), VERTICES, buffers, others, inputs=inputs)[0]
    return picture.rgba


#: vertices drawn (two triangles)
VERTICES = 6
#: the WebGPU vertex format of each 32-bit scalar kind
VERTEX_FORMATS = {"f32": "float32", "u32": "uint32", "i32": "sint32"}


def random_vertices(locations: list, rng) -> list:
    """A vertex buffer per location input of the vertex entry (one attribute, per vertex): floats
    in [−1, 1] (so positions fall on the picture), integers in [0, 8]."""
    from zhuose.compiler.runtime.render import VertexInput
    out = []
    for location, ty in locations:
        n = ty[1] if ty[0] == "vec" else 1
        s = ty[-1]
        data = rng.uniform(-1, 1, (VERTICES, n)).astype(np.float32) if s == "f32" else \
            rng.integers(0, 9, (VERTICES, n)).astype(np.uint32 if s == "u32" else np.int32)
        fmt = VERTEX_FORMATS[s] + (f"x{n}" if n > 1 else "")
        out.append(VertexInput(location, fmt, data.tobytes(), 4 * n))
    return out


def _dispatch(wgsl: str, entry: str, buffers, others) -> dict:
    from zhuose.compiler.runtime.wgpu import run_compute
    return run_compute(wgsl, entry, buffers, GROUPS, others, loops=True)


def _first_difference(before: dict, after: dict) -> str:
    for key in before:
        a, b = before[key], after.get(key)
        if a != b:
            i = next(i for i in range(min(len(a), len(b))) if a[i] != b[i]) if b else 0
            return f"组 {key[0]} 号 {key[1]} 第 {i} 字节"
    return "缓冲不同"


# ---- what a compute entry binds ------------------------------------------------------------

@dataclass
class Binding:
    group: int
    binding: int
    kind: str            # storage uniform
    writable: bool
    ty: tuple


def _scan(wgsl: str) -> tuple[Importer, dict[str, Binding | None], dict[str, Tree]]:
    """The module's types (an importer that has read its structs and constants), its resource
    bindings by name (None where not a buffer) and its functions by name."""
    tree, _ = parse_wgsl(wgsl)
    importer = Importer()
    bindings: dict[str, Binding | None] = {}
    functions: dict[str, Tree] = {}
    for decl in tree.children:
        if not isinstance(decl, Tree):
            continue
        try:
            if decl.data in ("struct", "alias", "global_const"):
                getattr(importer, "decl_" + decl.data)(decl)
        except Refusal:
            pass
        if decl.data == "global_var":
            bindings[str(tokens(decl, "IDENT")[0])] = _binding(importer, decl)
        if decl.data == "function":
            functions[str(tokens(decl, "IDENT")[0])] = decl
    return importer, bindings, functions


def compute_entries(wgsl: str):
    """(entry name, its buffer bindings, or None where it binds a texture or something else) per compute entry."""
    _, bindings, functions = _scan(wgsl)
    for name, decl in functions.items():
        if "compute" not in attributes(decl):
            continue
        used = _reached(name, functions)
        resources = [bindings[n] for n in sorted(used) if n in bindings]
        yield name, (None if any(r is None for r in resources) else [r for r in resources if r.kind != "workgroup"])


def render_pairs(wgsl: str):
    """(vertex, fragment, their buffer bindings, the vertex entry's (location, type) inputs) for the
    first vertex entry whose location inputs are 32-bit scalars or vectors and the first fragment
    entry, where every binding they reach is a buffer."""
    importer, bindings, functions = _scan(wgsl)
    inputs = {n: _vertex_inputs(importer, d) for n, d in functions.items() if "vertex" in attributes(d)}
    vertices = [n for n, located in inputs.items() if located is not None]
    fragments = [n for n, d in functions.items() if "fragment" in attributes(d)]
    if not vertices or not fragments:
        return
    used = _reached(vertices[0], functions) | _reached(fragments[0], functions)
    resources = [bindings[n] for n in sorted(used) if n in bindings]
    if all(r is not None for r in resources):
        yield vertices[0], fragments[0], [r for r in resources if r.kind != "workgroup"], inputs[vertices[0]]


def _vertex_inputs(importer: Importer, decl: Tree) -> list | None:
    """The (location, type) inputs of a vertex entry, from its parameters and their structs' fields;
    None where one is not a 32-bit scalar or vector (nothing to feed it from here)."""
    out = []
    for p in subtrees(subtrees(decl, "params")[0], "param"):
        try:
            ty = importer.type_of(subtrees(p, "type")[0])
        except Refusal:
            return None
        fields = importer.struct_members.get(ty[1], []) if ty[0] == "struct" else [(None, ty, attributes(p), 0)]
        for _, t, attrs, _ in fields:
            if "location" not in attrs:
                continue
            if t[0] not in ("scalar", "vec") or t[-1] not in VERTEX_FORMATS:
                return None
            out.append((importer.constant_int(attribute_args(attrs["location"])[0]), t))
    return out


def _binding(importer: Importer, decl: Tree) -> Binding | None:
    attrs = attributes(decl)
    template = subtrees(decl, "template")
    space = [str(c.children[0]) for c in template[0].children if isinstance(c, Tree)] if template else []
    try:
        ty = importer.type_of(subtrees(decl, "type")[0])
    except Refusal:
        return None
    if space[:1] == ["workgroup"]:
        return Binding(-1, -1, "workgroup", False, ty)
    handle = HANDLES.get(ty[1]) if ty[0] == "named" else None
    if space[:1] not in (["storage"], ["uniform"]) and handle is None or "group" not in attrs:
        return None
    group = importer.constant_int(attribute_args(attrs["group"])[0])
    binding = importer.constant_int(attribute_args(attrs["binding"])[0])
    return Binding(group, binding, handle or space[0], space[1:] == ["read_write"], ty)


#: the handles the round trip can bind (as the importer spells their types): a float 2-D texture, a sampler
HANDLES = {"（「纹理二维」于「浮三二」）": "texture", "「采样器」": "sampler"}
#: the side of the random textures bound (one mip level, rgba8unorm)
TEXTURE_SIDE = 16


def random_others(resources: list[Binding], rng) -> list:
    """(group, binding, make(device)) for the textures (random rgba8unorm texels) and samplers (linear)."""
    out = []
    for r in resources:
        if r.kind == "texture":
            texels = rng.integers(0, 256, (TEXTURE_SIDE, TEXTURE_SIDE, 4), dtype=np.uint8).tobytes()
            out.append((r.group, r.binding, lambda device, texels=texels: _texture(device, texels)))
        elif r.kind == "sampler":
            out.append((r.group, r.binding, lambda device: device.create_sampler(
                mag_filter="linear", min_filter="linear", address_mode_u="repeat", address_mode_v="repeat")))
    return out


def _texture(device, texels: bytes):
    import wgpu
    texture = device.create_texture(size=(TEXTURE_SIDE, TEXTURE_SIDE, 1), format="rgba8unorm",
                                    usage=wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_DST)
    device.queue.write_texture({"texture": texture}, texels, {"bytes_per_row": 4 * TEXTURE_SIDE,
                                                              "rows_per_image": TEXTURE_SIDE}, (TEXTURE_SIDE, TEXTURE_SIDE, 1))
    return texture.create_view()


def _reached(name: str, functions: dict[str, Tree]) -> set[str]:
    seen, todo, names = set(), [name], set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        for node in functions[f].iter_subtrees():
            if node.data in ("name", "call"):
                n = str(node.children[0])
                names.add(n)
                if node.data == "call" and n in functions:
                    todo.append(n)
    return names


# ---- random contents laid out as WGSL lays them out -------------------------------------------

def _align_size(ty, structs) -> tuple[int, int]:
    kind = ty[0]
    if kind in ("scalar", "atomic"):
        return (2, 2) if ty[-1] == "f16" else (4, 4)
    if kind == "vec":
        a, s = _align_size(("scalar", ty[2]), structs)
        n = ty[1]
        return (a * (4 if n >= 3 else 2), s * n)
    if kind == "mat":
        a, s = _align_size(("vec", ty[2], ty[3]), structs)
        return a, a * ty[1]
    if kind == "array":
        a, s = _align_size(ty[1], structs)
        stride = -(-s // a) * a
        return a, stride * (ty[2] or RUNTIME_LENGTH)
    if kind == "struct":
        offset, align = 0, 1
        for _, t in structs[ty[1]]:
            a, s = _align_size(t, structs)
            offset = -(-offset // a) * a + s
            align = max(align, a)
        return align, -(-offset // align) * align
    raise ValueError(ty)


def _fill(ty, structs, out: bytearray, offset: int, rng) -> None:
    kind = ty[0]
    if kind in ("scalar", "atomic"):
        s = ty[-1]
        if s == "f32":
            pystruct.pack_into("<f", out, offset, float(np.float32(rng.uniform(-4, 4))))
        elif s == "f16":
            out[offset:offset + 2] = np.float16(rng.uniform(-4, 4)).tobytes()
        elif s == "i32":
            pystruct.pack_into("<i", out, offset, int(rng.integers(-50, 51)))
        elif s == "bool":
            pystruct.pack_into("<I", out, offset, int(rng.integers(0, 2)))
        else:
            pystruct.pack_into("<I", out, offset, int(rng.integers(0, 65)))
    elif kind == "vec":
        a, _ = _align_size(("scalar", ty[2]), structs)
        for k in range(ty[1]):
            _fill(("scalar", ty[2]), structs, out, offset + k * a, rng)
    elif kind == "mat":
        a, _ = _align_size(("vec", ty[2], ty[3]), structs)
        for k in range(ty[1]):
            _fill(("vec", ty[2], ty[3]), structs, out, offset + k * a, rng)
    elif kind == "array":
        a, s = _align_size(ty[1], structs)
        stride = -(-s // a) * a
        for k in range(ty[2] or RUNTIME_LENGTH):
            _fill(ty[1], structs, out, offset + k * stride, rng)
    elif kind == "struct":
        at = 0
        for _, t in structs[ty[1]]:
            a, s = _align_size(t, structs)
            at = -(-at // a) * a
            _fill(t, structs, out, offset + at, rng)
            at += s


def random_buffers(resources: list[Binding], rng, structs: dict):
    from zhuose.compiler.runtime.wgpu import BufferData
    out = []
    for r in resources:
        if r.kind in HANDLES.values():
            continue
        _, size = _align_size(r.ty, structs)
        data = bytearray(max(16, -(-size // 16) * 16) * (2 if r.kind == "uniform" else 1))
        _fill(r.ty, structs, data, 0, rng)
        out.append(BufferData(r.group, r.binding, bytes(data), uniform=r.kind == "uniform", writable=r.writable))
    return out


def structs_of(wgsl: str) -> dict:
    tree, _ = parse_wgsl(wgsl)
    importer = Importer()
    for decl in tree.children:
        if isinstance(decl, Tree) and decl.data in ("struct", "alias"):
            try:
                getattr(importer, "decl_" + decl.data)(decl)
            except Refusal:
                pass
    return importer.structs
