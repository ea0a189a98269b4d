"""The texture bindings of `运行` (imported only when an entry uses one): an
input texture of any sampled kind from a PNG (2-D) or .npy array, a depth
texture from a .npy of depths, a sampler (nearest unless `线性` is given), a
comparison sampler (its function, 小于 unless given), a storage texture
created empty (its size from --尺寸 or the first input image) or, when the
shader reads it, from a .npy of its first texels, and written back after the
dispatch as PNG or .npy, by the output file's suffix."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..compiler import ir
from ..compiler.builtin.formats import storage_format
from ..compiler.generate.output import os_error_text, replace_atomically
from ..compiler.runtime.png import PngError, decode_png, encode_png
from ..compiler.runtime.textures import StorageImage, as_rgba, input_texture, png_pixels
from ..compiler.builtin.textures import texture_shape
from ..compiler.types import F32, I32, U32, deep_resolve
from .common import ascii_integer
from .run import RunProblem, _read_npy, save_npy, take_spec

IMAGE_TYPES = ("uint8", "float16", "float32")
#: an integer texture's element → the NumPy type of its .npy
INTEGER_TYPES = {I32: "int32", U32: "uint32"}
#: a comparison sampler's function, as the language names the comparisons → wgpu's name
COMPARE_WORDS = {"从不": "never", "小于": "less", "等于": "equal", "不大于": "less-equal", "大于": "greater",
                 "不等于": "not-equal", "不小于": "greater-equal", "总是": "always"}
MAX_SIZE = 8192          # WebGPU's guaranteed maxTextureDimension2D
SAMPLER_FILTERS = {"最近": "nearest", "线性": "linear"}


@dataclass
class Textures:
    """What 运行 binds besides buffers, and what it writes back after the dispatch."""

    others: list = field(default_factory=list)       # (group, binding, make(device) → resource)
    outputs: list = field(default_factory=list)      # (resource, output file, StorageImage)
    extent: tuple[int, int] | None = None            # (width, height) a storage texture or image covers


def texture_bindings(np, handles: list[ir.Resource], given: dict[str, str], size_text: str | None,
                     who: str) -> Textures:
    """Take the specs of `handles` (the entry's textures and samplers) out of `given`."""
    out = Textures()
    sampled = any(r.kind == "sampler" for r in handles)
    for r in handles:
        spec = take_spec(given, r, _where(r)) if r.kind != "storage_texture" else None
        if r.kind in ("texture", "depth_texture"):
            if spec is None:
                raise RunProblem(f"{who}用到{_where(r)}，没有给出它的图像：写 {r.group}:{r.binding}="
                                 + ("图.png 或 " if _takes_png(r) else "") + "纹素.npy")
            shape = texture_shape(r.type)
            pixels = _image(np, r, spec) if r.kind == "texture" else _depths(np, r, spec)
            out.extent = out.extent or _image_extent(shape, pixels if r.kind == "texture" else pixels[..., None])
            out.others.append((r.group, r.binding,
                               lambda d, p=pixels, s=shape: input_texture(np, d, p, sampled, s)))
        elif r.kind == "sampler":
            out.others.append((r.group, r.binding, _sampler(r, spec)))
        elif r.kind == "comparison_sampler":
            out.others.append((r.group, r.binding, _comparison_sampler(r, spec)))
    size = parse_extent(size_text)
    for r in handles:
        if r.kind == "storage_texture":
            _storage_binding(np, out, r, take_spec(given, r, _where(r)), size, who)
    return out


def _storage_binding(np, out: Textures, r: ir.Resource, spec: str | None, size, who: str) -> None:
    """A storage texture: a write-only one is written to its output file, a read-only one
    reads its first texels from a .npy, a read-write one does both (初值.npy,结果.npy)
    or starts at zero."""
    fmt, shape = storage_format(r.type), texture_shape(r.type)
    first, output = _storage_files(r, spec, shape.access, who)
    if output is not None:
        _check_output(r, output, fmt, shape)
    initial = _stored_texels(np, r, first, fmt, shape) if first is not None else None
    extent = _storage_extent(r, shape, size, out.extent, initial)
    image = StorageImage(fmt, *extent[:2], depth=extent[2], shape=shape, initial=initial)
    out.others.append((r.group, r.binding, image.make))
    if output is not None:
        out.outputs.append((r, output, image))
    out.extent = extent[:2]


def _storage_files(r: ir.Resource, spec: str | None, access: str, who: str) -> tuple[str | None, str | None]:
    """(the .npy of the first texels, the output file) of a storage texture's spec."""
    if spec is None:
        advice = {"write": "结果.png 或 结果.npy", "read": "纹素.npy", "read_write": "结果.npy 或 初值.npy,结果.npy"}
        what = "写到哪里" if access == "write" else "它的文件"
        raise RunProblem(f"{who}用到{_where(r)}，没有给出{what}：写 {r.group}:{r.binding}={advice[access]}")
    if access == "write":
        return None, spec
    if access == "read":
        return spec, None
    first, _, output = spec.replace("，", ",").rpartition(",")
    return (first or None), output


def _storage_extent(r: ir.Resource, shape, size, image_extent, initial) -> tuple[int, int, int]:
    """(width, height, depth or layers) of a storage texture: its first texels', --尺寸, or an input image's."""
    wanted = shape.dims + shape.arrayed
    if initial is not None:
        extent = tuple(reversed(initial.shape[:-1])) if shape.dims > 1 else (initial.shape[0],)
        return (extent + (1, 1))[:3]
    if size is None and wanted == 2 and image_extent is not None:
        size = image_extent
    if size is None or len(size) < wanted:
        example = "宽,高,深" if shape.dims == 3 else ("宽,高,张" if shape.arrayed else ",".join(["宽", "高"][:wanted]))
        raise RunProblem(f"{_where(r)}的大小未知：给出 --尺寸 {example}"
                         + ("（或给入口一张输入图像）" if wanted == 2 else ""))
    return (tuple(size[:wanted]) + (1, 1))[:3]


def _stored_texels(np, r: ir.Resource, spec: str, fmt, shape):
    """A storage texture's first texels: a .npy of the format's stored type, (…, channels) shaped as its kind."""
    if not spec.endswith(".npy"):
        raise RunProblem(f"{_where(r)}的初值须是 .npy 文件（格式 {fmt.wgsl} 存的原样），给的是「{spec}」")
    texels = _read_npy(np, spec)
    wanted = _full_rank(shape)
    if texels.dtype != np.dtype(fmt.dtype) or texels.ndim != wanted or texels.shape[-1] != fmt.channels:
        raise RunProblem(f"「{spec}」是 {texels.dtype} {texels.shape}：{_where(r)}（格式 {fmt.wgsl}）要 {fmt.dtype}，"
                         f"形状 {SHAPE_WORDS[_kind_word(shape)]}，通道数 {fmt.channels}")
    return np.ascontiguousarray(texels)


#: the .npy shape of each kind of texture (the channel axis last; a depth texture has none)
SHAPE_WORDS = {"一维": "（宽, 通道）", "二维": "（高, 宽, 通道）", "二维数组": "（张, 高, 宽, 通道）",
               "三维": "（深, 高, 宽, 通道）", "立方": "（6, 边, 边, 通道）", "立方数组": "（6 × 个数, 边, 边, 通道）"}


def _kind_word(shape) -> str:
    if shape.cube:
        return "立方数组" if shape.arrayed else "立方"
    return {1: "一维", 3: "三维"}.get(shape.dims, "二维数组" if shape.arrayed else "二维")


def _full_rank(shape) -> int:
    """Axes of a texture's texels with the channel axis: 1-D two, 2-D three, the others four."""
    return {1: 2, 3: 4}.get(shape.dims, 4 if shape.arrayed or shape.cube else 3)


def _image_extent(shape, pixels) -> tuple[int, ...]:
    """(width, height) of an input texture's first layer (a 1-D one's height is 1)."""
    return (pixels.shape[0], 1) if shape.dims == 1 else (pixels.shape[-2], pixels.shape[-3])


def _takes_png(r: ir.Resource) -> bool:
    shape = texture_shape(r.type)
    return r.kind == "texture" and shape.dims == 2 and not (shape.arrayed or shape.cube or shape.multisampled)


def write_outputs(np, textures: Textures) -> None:
    """Write every storage texture to its file and say where."""
    for r, spec, image in textures.outputs:
        texels = image.read(np)
        if spec.endswith(".npy"):
            save_npy(np, spec, texels, "写不了")
        else:
            pixels = png_pixels(np, texels, image.format)
            write_whole(spec, encode_png(pixels.tobytes(), image.width, image.height))
        size = "×".join(str(n) for n in image.extent())
        print(f"「{r.name}」（组 {r.group} 号 {r.binding}，存储纹理 {image.format.wgsl} {size}）：写到 {spec}")


KIND_WORDS = {"texture": "纹理", "sampler": "采样器", "storage_texture": "存储纹理", "depth_texture": "深度纹理",
              "comparison_sampler": "比较采样器"}


def _where(r: ir.Resource) -> str:
    return f"组 {r.group} 号 {r.binding}「{r.name}」（{KIND_WORDS[r.kind]}）"


def _image(np, r: ir.Resource, spec: str):
    """An input colour texture's texels with four channels: a PNG (8-bit, 2-D only) or a .npy
    array shaped as its kind (SHAPE_WORDS; the channel axis may be left out for grey)."""
    shape = texture_shape(r.type)
    if shape.multisampled:
        raise RunProblem(f"{_where(r)}是多重采样纹理：运行 与 渲染 不提供它（WebGPU 不能把数据写进多重采样纹理）")
    element = deep_resolve(r.type).args[0]
    if spec.lower().endswith(".png"):
        if not _takes_png(r) or element != F32:
            raise RunProblem(f"{_where(r)}不是「纹理二维」于「浮三二」：PNG 只给它，别的纹理给 .npy 文件")
        try:
            data, width, height, channels = decode_png(Path(spec).read_bytes())
        except OSError as err:
            raise RunProblem(f"读不了「{spec}」：{os_error_text(err)}") from err
        except PngError as err:
            raise RunProblem(f"「{spec}」：{err}") from err
        pixels = np.frombuffer(data, np.uint8).reshape(height, width, channels)
    elif spec.endswith(".npy"):
        pixels = _read_npy(np, spec)
    else:
        raise RunProblem(f"{_where(r)}的纹素须是 .png 或 .npy 文件，给的是「{spec}」")
    types = IMAGE_TYPES if element == F32 else (INTEGER_TYPES[element],)
    if pixels.dtype.name not in types:
        raise RunProblem(f"「{spec}」的元素类型是 {pixels.dtype}，"
                         + ("图像须是 uint8（0 至 255）、float16 或 float32" if element == F32 else f"{_where(r)}要 {types[0]}"))
    wanted = _full_rank(shape)
    if pixels.ndim == wanted - 1:
        pixels = pixels[..., None]
    if pixels.ndim != wanted or not 1 <= pixels.shape[-1] <= 4:
        raise RunProblem(f"「{spec}」的形状是 {pixels.shape}：{_where(r)}要 {SHAPE_WORDS[_kind_word(shape)]}，"
                         "通道 1 至 4（灰度可以不写通道）")
    _check_sizes(spec, shape, pixels.shape[:-1])
    return as_rgba(np, pixels)


def _depths(np, r: ir.Resource, spec: str):
    """A depth texture's depths, 0 to 1: a float .npy shaped as its kind without channels (uploaded as depth16unorm)."""
    shape = texture_shape(r.type)
    if shape.multisampled:
        raise RunProblem(f"{_where(r)}是多重采样纹理：运行 与 渲染 不提供它（WebGPU 不能把数据写进多重采样纹理）")
    if not spec.endswith(".npy"):
        raise RunProblem(f"{_where(r)}是深度纹理，给 .npy 文件（0 至 1 的 float32），给的是「{spec}」")
    depths = _read_npy(np, spec)
    wanted = _full_rank(shape) - 1
    if depths.dtype.kind != "f" or depths.ndim != wanted:
        words = SHAPE_WORDS[_kind_word(shape)].replace(", 通道", "")
        raise RunProblem(f"「{spec}」是 {depths.dtype} {depths.shape}：{_where(r)}要浮点数，形状 {words}")
    _check_sizes(spec, shape, depths.shape)
    return depths


def _check_sizes(spec: str, shape, leading: tuple) -> None:
    """Every extent within WebGPU's guaranteed limits; a cube's faces square and six a cube."""
    if not all(1 <= n <= MAX_SIZE for n in leading):
        raise RunProblem(f"「{spec}」的宽高须在 1 至 {MAX_SIZE} 之间（张数、深度也是），这里是 {leading}")
    if shape.cube and (leading[0] % 6 or leading[1] != leading[2]):
        raise RunProblem(f"「{spec}」是立方纹理：面数须是 6 的倍数、每面是正方形，这里是 {leading}")


def _sampler(r: ir.Resource, spec: str | None):
    if spec is not None and spec not in SAMPLER_FILTERS:
        raise RunProblem(f"{_where(r)}写 最近 或 线性，给的是「{spec}」")
    mode = SAMPLER_FILTERS[spec or "最近"]
    return lambda device: device.create_sampler(mag_filter=mode, min_filter=mode)


def _comparison_sampler(r: ir.Resource, spec: str | None):
    """A comparison sampler: 比较函数[,线性] (小于 unless given; nearest unless 线性 follows)."""
    words = (spec or "小于").replace("，", ",").split(",")
    compare, filters = words[0], words[1:]
    if compare not in COMPARE_WORDS or len(filters) > 1 or (filters and filters[0] not in SAMPLER_FILTERS):
        raise RunProblem(f"{_where(r)}写比较函数（{'、'.join(COMPARE_WORDS)}），可再写 ,线性；给的是「{spec}」")
    mode = SAMPLER_FILTERS[filters[0] if filters else "最近"]
    return lambda device: device.create_sampler(mag_filter=mode, min_filter=mode, compare=COMPARE_WORDS[compare])


def _check_output(r: ir.Resource, spec: str, fmt, shape) -> None:
    if not (spec.endswith(".npy") or spec.lower().endswith(".png")):
        raise RunProblem(f"{_where(r)}写到 .png 或 .npy 文件（按后缀），给的是「{spec}」")
    if spec.lower().endswith(".png") and fmt.texel != "float":
        raise RunProblem(f"{_where(r)}的格式 {fmt.wgsl} 存整数，不是颜色：写到 .npy 文件")
    if spec.lower().endswith(".png") and (shape.dims != 2 or shape.arrayed):
        raise RunProblem(f"{_where(r)}不是二维的：写到 .npy 文件")


def parse_extent(text: str | None) -> tuple[int, ...] | None:
    """--尺寸 of 运行: 宽[,高[,深或张]] of its storage textures, or None when not given."""
    if text is None:
        return None
    try:
        extent = tuple(ascii_integer(p) for p in text.replace("，", ",").split(","))
    except ValueError as err:
        raise RunProblem(f"--尺寸「{text}」应写成 宽,高（三维或数组的存储纹理 宽,高,深 或 宽,高,张），如 640,480") from err
    if not 1 <= len(extent) <= 3:
        raise RunProblem(f"--尺寸「{text}」是一至三个数：宽[,高[,深或张]]")
    if not all(1 <= n <= MAX_SIZE for n in extent):
        raise RunProblem(f"--尺寸「{text}」的宽高须在 1 至 {MAX_SIZE} 之间（深度、张数也是）")
    return extent


def parse_size(text: str | None) -> tuple[int, int] | None:
    """--尺寸 宽,高 (of 运行's storage textures and of 渲染's picture), or None when not given."""
    if text is None:
        return None
    try:
        width, height = (ascii_integer(p) for p in text.replace("，", ",").split(","))
    except ValueError as err:
        raise RunProblem(f"--尺寸「{text}」应写成 宽,高，如 640,480") from err
    if not (1 <= width <= MAX_SIZE and 1 <= height <= MAX_SIZE):
        raise RunProblem(f"--尺寸「{text}」的宽高须在 1 至 {MAX_SIZE} 之间")
    return width, height


def write_whole(path: str, data: bytes) -> None:
    """Write the file in full or not at all (an image of 运行 or 渲染)."""
    try:
        replace_atomically(Path(path), data)
    except OSError as err:
        raise RunProblem(f"写不了「{path}」：{os_error_text(err)}") from err
