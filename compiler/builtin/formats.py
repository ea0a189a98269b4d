"""The texel formats of a storage texture (an extension beyond the seed): one
row per format type the interface file declares.  The checker reads which
value 「写纹素」 takes, the back ends the WGSL format and the MSL texel type,
`运行` the wgpu format and how an image file's channels are stored."""

from __future__ import annotations

from dataclasses import dataclass

from ..types import deep_resolve, resolve


@dataclass(frozen=True)
class Format:
    """A storage texture's texel format, as every target and the runtimes name it."""

    wgsl: str       # WGSL's texel format (also wgpu's texture format)
    texel: str      # what the shader writes: "float" (「四维浮」) or "uint" (「四维无」)
    channels: int   # channels the texture stores (a one-channel format keeps x)
    dtype: str      # NumPy's type of one stored channel


#: format type name (interface file) → its row
STORAGE_FORMATS: dict[str, Format] = {
    "四八归一": Format("rgba8unorm", "float", 4, "uint8"),
    "四浮十六": Format("rgba16float", "float", 4, "float16"),
    "四浮三二": Format("rgba32float", "float", 4, "float32"),
    "单浮三二": Format("r32float", "float", 1, "float32"),
    "单无三二": Format("r32uint", "uint", 1, "uint32"),
}


def storage_format(t) -> Format:
    """The format of a storage-texture type (「存储纹理二维」于 format)."""
    return STORAGE_FORMATS[resolve(deep_resolve(t).args[0]).name]
