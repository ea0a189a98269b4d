"""Textures, samplers and storage textures in the reference interpreter, and
the texture builtins on them (issue 25: every texture type of
compiler/builtin/textures.py).

A texture keeps its texels as one array (layers, depth, height, width,
channels): a 1-D texture is one row, a 2-D texture one layer of depth 1, a
cube six layers (faces +X, −X, +Y, −Y, +Z, −Z), a cube array six a cube, a
multisampled texture one layer per sample, a depth texture one channel.  Only
level 0 is given, so a texture has one level.  Reading outside the texture
(coordinate, layer, level or sample) is a fault, as every other access out of
bounds.  Sampling follows WebGPU: nearest takes texel ⌊u·w⌋, linear blends
the texels around u·w − ½ by their distance, each index wrapped by the
sampler's address mode; a cube direction picks the face of its largest
component (Vulkan's table).  Linear sampling of a cube, whose footprint
crosses faces at their edges, is not modelled (a gather whose four texels
stay on one face is).  A gather returns the four texels linear filtering
would blend; a comparison passes where `reference OP texel` holds (the
sampler's compare function), and linear comparison blends the four results."""

from __future__ import annotations

from itertools import product

import numpy as np

from ..builtin.textures import Shape
from .memory import Unsupported

#: where a texture's given array keeps its layers and depth: the axes before (height, width, channels)
_LEADING = {"1d": 0, "2d": 0, "layered": 1, "3d": 1}


class _Texels:
    """What every texture holds: (layers, depth, height, width, 4) texels of one shape."""

    shape: Shape
    texels: np.ndarray

    @property
    def layers(self) -> int:
        return self.texels.shape[0]

    def extent(self) -> tuple[int, ...]:
        """(width[, height[, depth]]) as 「纹理尺寸」 gives it."""
        _, d, h, w, _ = self.texels.shape
        return (w, h, d)[:self.shape.dims]


class Texture(_Texels):
    """A sampled or depth texture given by the caller, read and sampled."""

    def __init__(self, shape: Shape, texels: np.ndarray, dtype, name: str):
        self.shape = shape
        self.texels = _normalized(shape, np.asarray(texels), name).astype(dtype)


class StorageTexels(_Texels):
    """A storage texture (extension): four floats, ints or uints a texel as
    the shader reads them, each write converted to the format as it is stored
    (rgba8unorm rounds to the nearest 1/255).  A texel written in this
    dispatch and written or read by another invocation is a race, unless both
    are in one workgroup with a 「纹理屏障」 between them."""

    def __init__(self, shape: Shape, fmt, extent: tuple[int, ...], initial=None, name: str = ""):
        self.shape, self.format = shape, fmt
        dtype = {"uint": np.uint32, "int": np.int32}.get(fmt.texel, np.float32)
        layers, depth, height, width = _storage_extent(shape, extent)
        self.texels = np.zeros((layers, depth, height, width, 4), dtype)
        self.texels[..., 3] = 1
        if initial is not None:
            given = _normalized(shape, np.asarray(initial), name)
            if given.shape != self.texels.shape[:4] + (fmt.channels,):
                raise Unsupported(f"「{name}」的初值形状是 {np.asarray(initial).shape}，与存储纹理不符")
            self.texels[..., :fmt.channels] = _readable(fmt, _in_order(fmt, given.astype(fmt.dtype)))
        self.writer = np.full(self.texels.shape[:4], -1, np.int64)
        self.epoch = np.zeros(self.texels.shape[:4], np.int64)   # the writer's 「纹理屏障」 count when it wrote

    def stored(self) -> np.ndarray:
        """The texels as the format keeps them, shaped as a caller gives them: (…, channels) of the format's type."""
        stored = _stored(self.format, self.texels[..., :self.format.channels])
        return _given_shape(self.shape, _in_order(self.format, stored))

    def write(self, at: tuple, values) -> None:
        """Store four components at `at`: converted to the format and back, as a later read sees them."""
        channels = self.format.channels
        texels = np.stack([np.asarray(v) for v in values], -1).astype(self.texels.dtype)
        texels[..., :channels] = _readable(self.format, _stored(self.format, texels[..., :channels]))
        texels[..., channels:3] = 0
        if channels < 4:
            texels[..., 3] = 1
        self.texels[at] = texels


def _in_order(fmt, channels: np.ndarray) -> np.ndarray:
    """Shader components in the format's memory order, or back (bgra8unorm swaps red and blue both ways)."""
    return channels[..., list(fmt.order[:fmt.channels])]


def _stored(fmt, values: np.ndarray) -> np.ndarray:
    """Shader values as the format stores them: normalized 8-bit formats round to the nearest step."""
    if fmt.texel == "float" and fmt.dtype in ("uint8", "int8"):
        low, scale = (0, 255) if fmt.dtype == "uint8" else (-1, 127)
        return np.rint(np.clip(values, low, 1) * scale).astype(fmt.dtype)
    # an integer outside a narrower format's range is the target's to define: here its low bits
    return values.astype(fmt.dtype)


def _readable(fmt, stored: np.ndarray) -> np.ndarray:
    """Stored texels as the shader reads them."""
    if fmt.texel == "float" and fmt.dtype == "uint8":
        return stored.astype(np.float32) / 255
    if fmt.texel == "float" and fmt.dtype == "int8":
        return np.maximum(stored.astype(np.float32) / 127, -1)
    return stored.astype({"uint": np.uint32, "int": np.int32}.get(fmt.texel, np.float32))


class Sampler:
    """A sampler's descriptor (wgpu's create_sampler keywords): filters and address modes."""

    def __init__(self, descriptor: dict | None):
        d = descriptor or {}
        self.mag, self.min = d.get("mag_filter", "nearest"), d.get("min_filter", "nearest")
        self.address = tuple(d.get(f"address_mode_{a}", "clamp-to-edge") for a in "uvw")
        self.compare = d.get("compare")            # a comparison sampler's function (wgpu's names), else None


#: a comparison sampler's function: whether the reference passes against the texel (WebGPU: reference OP texel)
COMPARE = {"never": lambda r, t: np.zeros_like(t, bool), "less": np.less, "equal": np.equal,
           "less-equal": np.less_equal, "greater": np.greater, "not-equal": np.not_equal,
           "greater-equal": np.greater_equal, "always": lambda r, t: np.ones_like(t, bool)}


def _layout(shape: Shape) -> str:
    if shape.dims == 1:
        return "1d"
    if shape.dims == 3:
        return "3d"
    return "layered" if shape.arrayed or shape.cube or shape.multisampled else "2d"


def _normalized(shape: Shape, a: np.ndarray, name: str) -> np.ndarray:
    """The given texels as (layers, depth, height, width, channels); a depth texture's
    may come without the channel axis or with one channel."""
    layout = _layout(shape)
    wanted = {"1d": 2, "2d": 3, "layered": 4, "3d": 4}[layout]
    if shape.depth and a.ndim == wanted - 1:
        a = a[..., None]
    if a.ndim != wanted:
        raise Unsupported(f"「{name}」的纹素形状是 {a.shape}：{_WANTED[layout]}")
    if layout == "1d":
        return a[None, None, None]
    if layout == "2d":
        return a[None, None]
    if layout == "3d":
        return a[None]
    if shape.cube and a.shape[0] % 6:
        raise Unsupported(f"「{name}」是立方纹理，层数须是 6 的倍数，这里是 {a.shape[0]}")
    return a[:, None]


_WANTED = {"1d": "一维纹理须是（宽, 通道）", "2d": "二维纹理须是（高, 宽, 通道）",
           "layered": "纹理数组、立方纹理与多重采样纹理须是（层或样本, 高, 宽, 通道）",
           "3d": "三维纹理须是（深, 高, 宽, 通道）"}


def _given_shape(shape: Shape, a: np.ndarray) -> np.ndarray:
    """(layers, depth, height, width, channels) back to the shape a caller gives."""
    layout = _layout(shape)
    return {"1d": lambda: a[0, 0, 0], "2d": lambda: a[0, 0], "3d": lambda: a[0], "layered": lambda: a[:, 0]}[layout]()


def _storage_extent(shape: Shape, extent: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(layers, depth, height, width) of a storage texture from (width[, height[, depth or layers]])."""
    w, h, third = (tuple(extent) + (1, 1))[:3]
    return (third, 1, h, w) if shape.arrayed else ((1, third, h, w) if shape.dims == 3 else (1, 1, h, w))


def _lanes(m, value, dtype=np.int64) -> np.ndarray:
    return np.broadcast_to(np.asarray(value).astype(dtype), (m.n,))


def _components(value, n: int) -> list:
    return [value] if n == 1 else list(value)


def _texel_index(m, e, mask, texture, coords, verb: str, layer=None, level=None, sample=None):
    """(layer, depth, y, x) of each invocation's texel; a fault when an active one is outside."""
    shape = texture.shape
    xyz = [_lanes(m, c) for c in _components(coords, shape.dims)]
    extent = texture.extent()
    bad = np.zeros(m.n, bool)
    for c, size in zip(xyz, extent):
        bad |= (c < 0) | (c >= size)
    picked = layer if layer is not None else sample
    slot = _lanes(m, picked) if picked is not None else np.zeros(m.n, np.int64)
    bad |= (slot < 0) | (slot >= texture.layers)
    if level is not None:
        bad |= _lanes(m, level) != 0
    bad &= mask
    if bad.any():
        inv = int(np.flatnonzero(bad)[0])
        where = ", ".join(str(c[inv]) for c in xyz)
        extra = "".join(f"，{what} {int(_lanes(m, v)[inv])}" for what, v in
                        (("张", layer), ("层级", level), ("样本", sample)) if v is not None)
        size = "×".join(map(str, extent))
        raise m.fault(e, f"越界：调用{m.who(inv)}{verb}纹素 ({where}){extra}，纹理是 {size}，"
                         f"{texture.layers} 张（或样本），只有第 0 层级")
    xyz = [np.where(mask, c, 0) for c in xyz] + [np.zeros(m.n, np.int64)] * (3 - len(xyz))
    return np.where(mask, slot, 0), xyz[2], xyz[1], xyz[0]


def _result(texture, texels: np.ndarray):
    """One invocation's texel per lane: four components, or the depth."""
    if texture.shape.depth:
        return texels[..., 0]
    return tuple(texels[..., k] for k in range(4))


def load(verb_layer=False, verb_level=True, verb_sample=False):
    """textureLoad: (texture, coords[, layer][, level | sample])."""
    def run(m, e, mask):
        texture, coords, *rest = (m.eval(a, mask) for a in e.args)
        layer = rest.pop(0) if verb_layer else None
        level = rest.pop(0) if verb_level and not isinstance(texture, StorageTexels) else None
        sample = rest.pop(0) if verb_sample else None
        index = _texel_index(m, e, mask, texture, coords, "读", layer, level, sample)
        if isinstance(texture, StorageTexels):
            _race_on_read(m, e, mask, texture, index)
        return _result(texture, texture.texels[index])
    return run


def store(with_layer=False):
    """textureStore: (texture, coords[, layer], value)."""
    def run(m, e, mask):
        texture, coords, *rest = (m.eval(a, mask) for a in e.args)
        layer, value = (rest[0], rest[1]) if with_layer else (None, rest[0])
        index = _texel_index(m, e, mask, texture, coords, "写", layer)
        lanes = np.flatnonzero(mask)
        at = tuple(i[lanes] for i in index)
        flat = np.ravel_multi_index(at, texture.writer.shape)
        order = np.argsort(flat, kind="stable")
        pairs = [(lanes[order[i]], lanes[order[i + 1]]) for i in np.flatnonzero(flat[order][1:] == flat[order][:-1])[:1]]
        earlier = texture.writer[at]
        pairs += [(earlier[i], lanes[i]) for i in np.flatnonzero(~_ordered(m, texture, at, lanes))[:1]]
        if pairs:
            first, second = (int(i) for i in pairs[0])
            where = ", ".join(str(int(i[second])) for i in index[:0:-1][:texture.shape.dims])
            raise m.fault(e, f"数据竞争：调用{m.who(first)}与调用{m.who(second)}都写纹素 ({where})，结果不确定")
        texture.writer[at] = lanes
        texture.epoch[at] = m.barriers["texture"][m.wg[lanes]]
        texture.write(at, [np.broadcast_to(value[k], (m.n,))[lanes] for k in range(4)])
    return run


def _ordered(m, texture: StorageTexels, at: tuple, lanes: np.ndarray) -> np.ndarray:
    """Whether each lane's texel was last written by nobody, by the lane itself, or by
    its workgroup before a 「纹理屏障」 the lane has passed since."""
    writer = texture.writer[at]
    group = m.wg[np.maximum(writer, 0)]
    barrier_since = (group == m.wg[lanes]) & (m.barriers["texture"][m.wg[lanes]] > texture.epoch[at])
    return (writer == -1) | (writer == lanes) | barrier_since


def _race_on_read(m, e, mask, texture: StorageTexels, index) -> None:
    lanes = np.flatnonzero(mask)
    at = tuple(i[lanes] for i in index)
    other = np.flatnonzero(~_ordered(m, texture, at, lanes))
    if other.size:
        first, second = int(texture.writer[at][other[0]]), int(lanes[other[0]])
        raise m.fault(e, f"数据竞争：调用{m.who(first)}写的纹素由调用{m.who(second)}读，没有「纹理屏障」排定它们"
                         "（结果不确定）")


def size(m, e, mask):
    """textureDimensions, at a level when given (only level 0 exists)."""
    texture = m.eval(e.args[0], mask)
    if len(e.args) > 1 and (mask & (_lanes(m, m.eval(e.args[1], mask)) != 0)).any():
        raise m.fault(e, "越界：纹理只有第 0 层级")
    extent = [np.uint32(v) for v in texture.extent()]
    return extent[0] if len(extent) == 1 else tuple(extent)


def levels(m, e, mask):
    m.eval(e.args[0], mask)
    return np.uint32(1)


def layers(m, e, mask):
    texture = m.eval(e.args[0], mask)
    return np.uint32(texture.layers // 6 if texture.shape.cube else texture.layers)


def samples(m, e, mask):
    return np.uint32(m.eval(e.args[0], mask).layers)


def sample(with_layer=False, offset=False):
    """textureSampleLevel: (texture, sampler, coords[, layer], level[, offset]); a depth texture's level is an integer."""
    def run(m, e, mask):
        texture, sampler, coords, layer, rest = _sampling_args(m, e, mask, with_layer)
        lod = np.broadcast_to(np.asarray(rest[0], np.float64), (m.n,))
        return _result(texture, _filtered(m, texture, sampler, coords, layer, lod, _offset(rest, offset)))
    return run


def sample_grad(with_layer=False, offset=False):
    """textureSampleGrad: (texture, sampler, coords[, layer], ddx, ddy[, offset]).  The level
    of detail is log₂ of the longer gradient in texels (Vulkan's ρ); with one level it only
    picks the magnifying or the minifying filter."""
    def run(m, e, mask):
        texture, sampler, coords, layer, rest = _sampling_args(m, e, mask, with_layer)
        sizes = texture.extent()
        lengths = [np.sqrt(sum((np.asarray(g, np.float64) * n) ** 2
                               for g, n in zip(_components(d, len(sizes)), sizes))) for d in rest[:2]]
        with np.errstate(divide="ignore"):
            lod = np.broadcast_to(np.log2(np.maximum(*lengths)), (m.n,))
        return _result(texture, _filtered(m, texture, sampler, coords, layer, lod, _offset(rest, offset)))
    return run


def sample_clamped(m, e, mask):
    """textureSampleBaseClampToEdge: level 0, coordinates first clamped half a texel inside the edges."""
    texture, sampler, coords, layer, _ = _sampling_args(m, e, mask, False)
    coords = [np.clip(np.asarray(c, np.float64), 0.5 / n, 1 - 0.5 / n) for c, n in zip(coords, texture.extent())]
    return _result(texture, _filtered(m, texture, sampler, coords, layer, np.zeros(m.n), None))


def gather(component=True, with_layer=False, offset=False):
    """textureGather: ([component,] texture, sampler, coords[, layer][, offset]): one component of the
    four texels linear filtering blends, as (u₀v₁, u₁v₁, u₁v₀, u₀v₀)."""
    def run(m, e, mask):
        k = _constant(m.eval(e.args[0], mask)) if component else 0
        texture, sampler, coords, layer, rest = _sampling_args(m, e, mask, with_layer, skip=int(component))
        texels = _footprint(texture, sampler, coords, layer, _offset(rest, offset))
        return tuple(t[..., k].astype(np.float32 if texture.shape.depth else texture.texels.dtype) for t in texels)
    return run


def gather_compare(with_layer=False, offset=False):
    """textureGatherCompare: (texture, comparison sampler, coords[, layer], reference[, offset]): the four
    texels of `gather`, each 1 where the reference passes the sampler's comparison, else 0."""
    def run(m, e, mask):
        texture, sampler, coords, layer, rest = _sampling_args(m, e, mask, with_layer)
        reference = np.broadcast_to(np.asarray(rest[0], np.float64), (m.n,))
        texels = _footprint(texture, sampler, coords, layer, _offset(rest, offset))
        return tuple(_passes(sampler, reference, t[..., 0]).astype(np.float32) for t in texels)
    return run


def sample_compare(with_layer=False, offset=False):
    """textureSampleCompareLevel: (texture, comparison sampler, coords[, layer], reference[, offset]) at
    level 0: nearest compares one texel, linear blends the four comparisons of its footprint by distance."""
    def run(m, e, mask):
        texture, sampler, coords, layer, rest = _sampling_args(m, e, mask, with_layer)
        reference = np.broadcast_to(np.asarray(rest[0], np.float64), (m.n,))
        shift = _offset(rest, offset)
        if sampler.mag == "linear":
            (x0y1, x1y1, x1y0, x0y0), (fx, fy) = _footprint(texture, sampler, coords, layer, shift, weights=True)
            passed = [_passes(sampler, reference, t[..., 0]) for t in (x0y0, x1y0, x0y1, x1y1)]
            blended = (passed[0] * (1 - fx) * (1 - fy) + passed[1] * fx * (1 - fy)
                       + passed[2] * (1 - fx) * fy + passed[3] * fx * fy)
            return blended.astype(np.float32)
        texel = _filtered(m, texture, sampler, coords, layer, np.zeros(m.n), shift)
        return _passes(sampler, reference, texel[..., 0]).astype(np.float32)
    return run


def _passes(sampler, reference, texel) -> np.ndarray:
    if sampler.compare is None:
        raise Unsupported("比较采样器没有给出比较函数（描述里的 compare）")
    return COMPARE[sampler.compare](reference, texel.astype(np.float64))


def _sampling_args(m, e, mask, with_layer: bool, skip: int = 0):
    """(texture, sampler, coordinate components, layer per lane, the arguments after them)."""
    texture, sampler, coords, *rest = (m.eval(a, mask) for a in e.args[skip:])
    layer = _lanes(m, rest.pop(0)) if with_layer else np.zeros(m.n, np.int64)
    layer = np.clip(layer, 0, texture.layers // (6 if texture.shape.cube else 1) - 1)
    coords = [np.broadcast_to(np.asarray(c, np.float64), (m.n,)) for c in _components(coords, texture.shape.sample_dims)]
    if texture.shape.cube:
        face, u, v = _cube_face(coords)
        layer, coords = layer * 6 + face, [u, v]
    return texture, sampler or Sampler(None), coords, layer, rest


def _offset(rest: list, given: bool):
    """The constant texel offset (the last argument) as one integer per coordinate, or None."""
    return [_constant(c) for c in rest[-1]] if given else None


def _constant(value) -> int:
    """A constant argument (the same on every lane) as one integer."""
    return int(np.ravel(value)[0])


def _filtered(m, texture, sampler, coords, layer, lod, offset=None) -> np.ndarray:
    """Level 0 sampled at `coords` (a cube's already on its face), the filter the level of detail picks."""
    linear = np.where(lod <= 0, sampler.mag == "linear", sampler.min == "linear")
    if texture.shape.cube and linear.any():
        raise Unsupported("参照解释器只做立方纹理的最近点采样：线性采样在面的边缘要跨面取纹素")
    sizes = texture.extent()
    shift = offset or [0] * len(coords)
    out = np.zeros((m.n, texture.texels.shape[-1]), np.float64)
    nearest = [_address(np.floor(c * n).astype(np.int64) + d, n, mode)
               for c, n, d, mode in zip(coords, sizes, shift, sampler.address)]
    out += np.where(linear[:, None], 0, _fetch(texture, layer, nearest))
    if linear.any():
        starts = [c * n - 0.5 for c, n in zip(coords, sizes)]
        base = [np.floor(s) for s in starts]
        frac = [s - b for s, b in zip(starts, base)]
        for corner in product((0, 1), repeat=len(coords)):
            index = [_address(b.astype(np.int64) + k + d, n, mode)
                     for b, k, d, n, mode in zip(base, corner, shift, sizes, sampler.address)]
            weight = np.prod([f if k else 1 - f for f, k in zip(frac, corner)], axis=0)
            out += np.where(linear[:, None], weight[:, None] * _fetch(texture, layer, index), 0)
    return out.astype(np.float32)


def _footprint(texture, sampler, coords, layer, offset, weights=False):
    """The four texels around u·w − ½, v·h − ½ as (u₀v₁, u₁v₁, u₁v₀, u₀v₀) (Vulkan's gather order),
    with the fractions (u, v) when `weights`.  On a cube the footprint must stay on its face."""
    sizes = texture.extent()
    starts = [c * n - 0.5 for c, n in zip(coords, sizes)]
    base = [np.floor(s).astype(np.int64) + d for s, d in zip(starts, offset or (0, 0))]
    if texture.shape.cube and any(((b < 0) | (b + 1 >= n)).any() for b, n in zip(base, sizes)):
        raise Unsupported("参照解释器不跨立方纹理的面取纹素：这里的四个纹素跨过了面的边缘")
    texels = [_fetch(texture, layer, [_address(b + dx, n, mode) for b, dx, n, mode in
                                      zip(base, corner, sizes, sampler.address)])
              for corner in ((0, 1), (1, 1), (1, 0), (0, 0))]
    if not weights:
        return texels
    return texels, [s - np.floor(s) for s in starts]


def _fetch(texture, layer, index) -> np.ndarray:
    x, y, z = (index + [np.zeros_like(index[0])] * 2)[:3]
    return texture.texels[layer, z, y, x].astype(np.float64)


def _address(i: np.ndarray, n: int, mode: str) -> np.ndarray:
    """A texel index wrapped by the sampler's address mode."""
    if mode == "repeat":
        return np.mod(i, n)
    if mode == "mirror-repeat":
        j = np.mod(i, 2 * n)
        return np.where(j < n, j, 2 * n - 1 - j)
    return np.clip(i, 0, n - 1)


def _cube_face(coords):
    """(face, u, v) of each direction: the face of its largest component, as Vulkan's cube map table."""
    x, y, z = coords
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    on_x = (ax >= ay) & (ax >= az)
    on_y = ~on_x & (ay >= az)
    face = np.where(on_x, np.where(x >= 0, 0, 1), np.where(on_y, np.where(y >= 0, 2, 3), np.where(z >= 0, 4, 5)))
    sc = np.select([face == 0, face == 1, face == 2, face == 3, face == 4], [-z, z, x, x, x], -x)
    tc = np.select([face == 2, face == 3], [z, -z], -y)
    major = np.select([on_x, on_y], [ax, ay], az)
    return face, (sc / major + 1) / 2, (tc / major + 1) / 2
