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
    texel: str      # what the shader writes: "float" (「四维浮」), "uint" (「四维无」) or "int" (「四维整」)
    channels: int   # channels the texture stores (a one-channel format keeps x)
    dtype: str      # NumPy's type of one stored channel
    order: tuple[int, ...] = (0, 1, 2, 3)   # which shader component each stored channel holds (bgra8unorm: b g r a)


#: format type name (interface file) → its row
STORAGE_FORMATS: dict[str, Format] = {
    "四八归一": Format("rgba8unorm", "float", 4, "uint8"),
    "四浮十六": Format("rgba16float", "float", 4, "float16"),
    "四浮三二": Format("rgba32float", "float", 4, "float32"),
    "单浮三二": Format("r32float", "float", 1, "float32"),
    "单无三二": Format("r32uint", "uint", 1, "uint32"),
    # the rest of WGSL's storage formats (issue 25): 符归一 is snorm, 整 and 无 signed and unsigned integers
    "四八符归一": Format("rgba8snorm", "float", 4, "int8"),
    "四无八": Format("rgba8uint", "uint", 4, "uint8"),
    "四整八": Format("rgba8sint", "int", 4, "int8"),
    "四无十六": Format("rgba16uint", "uint", 4, "uint16"),
    "四整十六": Format("rgba16sint", "int", 4, "int16"),
    "单整三二": Format("r32sint", "int", 1, "int32"),
    "双无三二": Format("rg32uint", "uint", 2, "uint32"),
    "双整三二": Format("rg32sint", "int", 2, "int32"),
    "双浮三二": Format("rg32float", "float", 2, "float32"),
    "四无三二": Format("rgba32uint", "uint", 4, "uint32"),
    "四整三二": Format("rgba32sint", "int", 4, "int32"),
    # kept blue, green, red, alpha in memory; the shader reads and writes (r, g, b, a) as every format
    "蓝序四八归一": Format("bgra8unorm", "float", 4, "uint8", (2, 1, 0, 3)),
}


#: the formats a read-write storage texture may have in WebGPU (the single-channel 32-bit ones)
READ_WRITE_FORMATS = ("单浮三二", "单无三二", "单整三二")


def storage_format(t) -> Format:
    """The format of a storage-texture type (「存储纹理二维」于 format)."""
    return STORAGE_FORMATS[resolve(deep_resolve(t).args[0]).name]
