"""Textures for a compute dispatch on wgpu (`运行`): an input texture (any
sampled type: 「纹理二维」, 「纹理三维」, 「纹理立方」 …) from an image's pixels, a storage texture created empty and read back after the
dispatch, and a storage texture's texels as the pixels of a PNG.

Pixels are NumPy arrays (height, width, channels), top row first.  An input
image keeps its precision: 8-bit pixels go up as rgba8unorm (the shader reads
them as 0 to 1), float16 as rgba16float, float32 as rgba32float — or as
rgba16float when the entry samples through a sampler, since WebGPU filters no
32-bit float texture without an optional feature."""

from __future__ import annotations

from dataclasses import dataclass

from ..builtin.formats import Format

#: NumPy type of an input image → its wgpu format (float32 when nothing samples it)
INPUT_FORMATS = {"uint8": "rgba8unorm", "float16": "rgba16float", "float32": "rgba32float"}


def as_rgba(np, pixels):
    """(h, w), (…, 1 … 4) pixels as (…, 4): grey fills red, green and
    blue, a missing alpha is opaque (1, or 255 for 8-bit pixels)."""
    if pixels.ndim == 2:
        pixels = pixels[:, :, None]
    opaque = np.iinfo(pixels.dtype).max if pixels.dtype.kind == "u" else 1
    channels = pixels.shape[-1]
    colour = pixels[..., :3] if channels >= 3 else np.repeat(pixels[..., :1], 3, axis=-1)
    alpha = pixels[..., 3:4] if channels == 4 else (
        pixels[..., 1:2] if channels == 2 else np.full(pixels.shape[:-1] + (1,), opaque, pixels.dtype))
    return np.ascontiguousarray(np.concatenate([colour, alpha], axis=-1))


#: NumPy type of an integer texture's texels → its wgpu format (「纹理二维」于「整三二」 or 「无三二」)
INTEGER_FORMATS = {"int32": "rgba32sint", "uint32": "rgba32uint"}


def input_texture(np, device, pixels, sampled: bool, shape=None):
    """A view of a new texture holding `pixels`: (h, w, 4) for a 2-D texture,
    (w, 4) for 1-D, (layers, h, w, 4) for a 2-D array, (6 × cubes, h, w, 4)
    for a cube or cube array, (depth, h, w, 4) for 3-D (`shape`: its row of
    compiler/builtin/textures.py; 2-D when None).  uint8, float16 and float32
    texels are colour (see INPUT_FORMATS), int32 and uint32 integer texels; a depth
    texture's are depths 0 … 1 shaped so with one channel or none (stored as depth16unorm)."""
    import wgpu
    if shape is not None and shape.depth:
        pixels, fmt = _depth_texels(np, pixels, shape), DEPTH_FORMAT
    else:
        if pixels.dtype == np.float32 and sampled:
            pixels = pixels.astype(np.float16)
        fmt = INTEGER_FORMATS.get(pixels.dtype.name) or INPUT_FORMATS[pixels.dtype.name]
    dimension, view, extent = _extent(shape, pixels.shape[:-1])
    width, height, layers = extent
    texture = device.create_texture(size=extent, format=fmt, dimension=dimension,
                                    usage=wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_DST)
    device.queue.write_texture({"texture": texture}, np.ascontiguousarray(pixels).tobytes(),
                               {"bytes_per_row": width * pixels.shape[-1] * pixels.dtype.itemsize, "rows_per_image": height},
                               extent)
    return texture.create_view(dimension=view)


#: the format of a depth texture's texels: WebGPU copies into depth16unorm, never into depth32float
DEPTH_FORMAT = "depth16unorm"


def _depth_texels(np, depths, shape):
    """Depths 0 … 1 as depth16unorm, one channel: (…, h, w) or (…, h, w, 1) given."""
    depths = np.asarray(depths, np.float64)
    if depths.ndim == (3 if shape.arrayed or shape.cube else 2):
        depths = depths[..., None]
    return np.rint(np.clip(depths, 0, 1) * 65535).astype(np.uint16)


def _extent(shape, leading: tuple) -> tuple[str, str, tuple[int, int, int]]:
    """(texture dimension, view dimension, (width, height, layers or depth)) of texels shaped (…, h, w)."""
    if shape is not None and shape.dims == 1:
        return "1d", "1d", (leading[0], 1, 1)
    if shape is None or len(leading) == 2:
        return "2d", "2d", (leading[1], leading[0], 1)
    view = ("cube-array" if shape.arrayed else "cube") if shape.cube else ("2d-array" if shape.arrayed else "3d")
    return ("3d" if shape.dims == 3 else "2d"), view, (leading[2], leading[1], leading[0])


@dataclass
class StorageImage:
    """A storage texture of one binding: made on the device when the bind group
    is (with its first texels when given), read back after the dispatch."""

    format: Format
    width: int
    height: int
    texture: object = None
    device: object = None     # the device `make` created the texture on
    depth: int = 1            # a 3-D texture's depth or an array's layers
    shape: object = None      # its row of compiler/builtin/textures.py; 2-D when None
    initial: object = None    # first texels (…, channels) of the format's stored type, or None

    def extent(self) -> tuple[int, ...]:
        """(width[, height[, depth or layers]]) as the texture's kind counts them."""
        dims = 2 if self.shape is None else self.shape.dims + self.shape.arrayed
        return (self.width, self.height, self.depth)[:dims]

    def make(self, device):
        import wgpu
        self.device = device
        dimension, view, size = _extent(self.shape, (self.depth, self.height, self.width)[-self._leading():])
        usage = wgpu.TextureUsage.STORAGE_BINDING | wgpu.TextureUsage.COPY_SRC
        self.texture = device.create_texture(size=size, format=self.format.wgsl, dimension=dimension,
                                             usage=usage | (wgpu.TextureUsage.COPY_DST if self.initial is not None else 0))
        if self.initial is not None:
            device.queue.write_texture({"texture": self.texture}, self.initial.tobytes(),
                                       {"bytes_per_row": self._row(), "rows_per_image": self.height}, size)
        return self.texture.create_view(dimension=view)

    def read(self, np):
        """The texels as the kind's (…, h, w, channels) of the format's stored type ((h, w, channels) for 2-D)."""
        size = _extent(self.shape, (self.depth, self.height, self.width)[-self._leading():])[2]
        data = self.device.queue.read_texture({"texture": self.texture},
                                              {"bytes_per_row": self._row(), "rows_per_image": self.height}, size)
        texels = np.frombuffer(bytes(data), dtype=self.format.dtype)
        return texels.reshape((self.depth, self.height, self.width)[-self._leading():] + (self.format.channels,))

    def _leading(self) -> int:
        """Axes before the channels: 1-D one, 2-D two, 3-D and arrays three."""
        return 2 if self.shape is None else {1: 1, 3: 3}.get(self.shape.dims, 3 if self.shape.arrayed else 2)

    def _row(self) -> int:
        return self.width * self.format.channels * _itemsize(self.format.dtype)


def _itemsize(dtype: str) -> int:
    """Bytes of one channel of a NumPy type named by its width (uint8, float16, int32 …)."""
    return int("".join(c for c in dtype if c.isdigit())) // 8


def png_pixels(np, texels, fmt: Format):
    """The 8-bit RGBA pixels a PNG shows of a float storage texture's texels
    (rgba8unorm as stored; floats and rgba8snorm clamped to 0 … 1 and rounded; one channel as grey,
    two as grey and alpha).
    None for an integer format, whose values are no colours."""
    if fmt.texel != "float":
        return None
    texels = texels[..., list(fmt.order[:fmt.channels])]          # bgra8unorm's memory order back to RGBA
    if texels.dtype == np.int8:                                    # rgba8snorm: −127 … 127 is −1 … 1
        texels = np.maximum(texels.astype(np.float32) / 127, -1)
    if texels.dtype != np.uint8:
        texels = np.rint(np.clip(np.nan_to_num(texels.astype(np.float32)), 0, 1) * 255).astype(np.uint8)
    return as_rgba(np, texels)
