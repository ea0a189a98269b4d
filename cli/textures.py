"""The texture bindings of `运行` (imported only when an entry uses one): an
input 「纹理二维」 from a PNG or .npy image, a sampler (nearest unless
`线性` is given), a storage texture created empty (its size from --尺寸 or
the first input image) and written back after the dispatch as PNG or .npy,
by the output file's suffix."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..compiler import ir
from ..compiler.builtin.formats import storage_format
from ..compiler.generate.output import os_error_text, replace_atomically
from ..compiler.runtime.png import PngError, decode_png, encode_png
from ..compiler.runtime.textures import StorageImage, as_rgba, input_texture, png_pixels
from ..compiler.types import F32, deep_resolve
from .common import ascii_integer
from .run import RunProblem, _read_npy, save_npy, take_spec

IMAGE_TYPES = ("uint8", "float16", "float32")
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
    images = {}
    for r in handles:
        if r.kind in ("depth_texture", "comparison_sampler"):
            raise RunProblem(f"{who}用到「{r.name}」：运行 与 渲染 不提供深度纹理与比较采样器")
        spec = take_spec(given, r, _where(r)) if r.kind != "storage_texture" else None
        if r.kind == "texture":
            if spec is None:
                raise RunProblem(f"{who}用到{_where(r)}，没有给出它的图像：写 {r.group}:{r.binding}=图.png 或 .npy")
            images[r.name] = _image(np, r, spec)
            out.extent = out.extent or images[r.name].shape[1::-1]
            out.others.append((r.group, r.binding, lambda d, p=images[r.name]: input_texture(np, d, p, sampled)))
        elif r.kind == "sampler":
            out.others.append((r.group, r.binding, _sampler(r, spec)))
    size = parse_size(size_text) or out.extent
    for r in handles:
        if r.kind == "storage_texture":
            spec = take_spec(given, r, _where(r))
            fmt = storage_format(r.type)
            _check_output(r, spec, fmt, who)
            if size is None:
                raise RunProblem(f"{_where(r)}的大小未知：给出 --尺寸 宽,高（或给入口一张输入图像）")
            image = StorageImage(fmt, *size)
            out.others.append((r.group, r.binding, image.make))
            out.outputs.append((r, spec, image))
            out.extent = size
    return out


def write_outputs(np, textures: Textures) -> None:
    """Write every storage texture to its file and say where."""
    for r, spec, image in textures.outputs:
        texels = image.read(np)
        if spec.endswith(".npy"):
            save_npy(np, spec, texels, "写不了")
        else:
            pixels = png_pixels(np, texels, image.format)
            write_whole(spec, encode_png(pixels.tobytes(), image.width, image.height))
        print(f"「{r.name}」（组 {r.group} 号 {r.binding}，存储纹理 {image.format.wgsl} {image.width}×{image.height}）："
              f"写到 {spec}")


KIND_WORDS = {"texture": "纹理", "sampler": "采样器", "storage_texture": "存储纹理"}


def _where(r: ir.Resource) -> str:
    return f"组 {r.group} 号 {r.binding}「{r.name}」（{KIND_WORDS[r.kind]}）"


def _image(np, r: ir.Resource, spec: str):
    """An input image as (h, w, 4) pixels: a PNG (8-bit) or a .npy array."""
    if deep_resolve(r.type).args[0] != F32:
        raise RunProblem(f"{_where(r)}不是「纹理二维」于「浮三二」：运行 与 渲染 只提供浮点纹理")
    if spec.lower().endswith(".png"):
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
        raise RunProblem(f"{_where(r)}的图像须是 .png 或 .npy 文件，给的是「{spec}」")
    if pixels.dtype.name not in IMAGE_TYPES:
        raise RunProblem(f"「{spec}」的元素类型是 {pixels.dtype}，图像须是 uint8（0 至 255）、float16 或 float32")
    if pixels.ndim not in (2, 3) or (pixels.ndim == 3 and not 1 <= pixels.shape[2] <= 4):
        raise RunProblem(f"「{spec}」的形状是 {pixels.shape}：图像须是（高, 宽）或（高, 宽, 通道）, 通道 1 至 4")
    if not (1 <= pixels.shape[0] <= MAX_SIZE and 1 <= pixels.shape[1] <= MAX_SIZE):
        raise RunProblem(f"「{spec}」的宽高须在 1 至 {MAX_SIZE} 之间，这里是 {pixels.shape[1]}×{pixels.shape[0]}")
    return as_rgba(np, pixels)


def _sampler(r: ir.Resource, spec: str | None):
    if spec is not None and spec not in SAMPLER_FILTERS:
        raise RunProblem(f"{_where(r)}写 最近 或 线性，给的是「{spec}」")
    mode = SAMPLER_FILTERS[spec or "最近"]
    return lambda device: device.create_sampler(mag_filter=mode, min_filter=mode)


def _check_output(r: ir.Resource, spec: str | None, fmt, who: str) -> None:
    if spec is None:
        raise RunProblem(f"{who}用到{_where(r)}，没有给出写到哪里：写 {r.group}:{r.binding}=结果.png 或 结果.npy")
    if not (spec.endswith(".npy") or spec.lower().endswith(".png")):
        raise RunProblem(f"{_where(r)}写到 .png 或 .npy 文件（按后缀），给的是「{spec}」")
    if spec.lower().endswith(".png") and fmt.texel != "float":
        raise RunProblem(f"{_where(r)}的格式 {fmt.wgsl} 存整数，不是颜色：写到 .npy 文件")


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
