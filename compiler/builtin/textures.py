"""The texture types of the builtin interface (issue 25): one row per type
name the interface file declares — how a texel is addressed (coordinate
components, array layers, cube faces, samples), whether it holds colour,
depth or a storage format, and what WGSL and MSL call it.  The checker's
classes and type families, the resource kinds, the writers, the interpreter
and `运行` read this table instead of keeping lists of type names."""

from __future__ import annotations

from dataclasses import dataclass

from ..types import F32, I32, U32, TCon, TypeOrIndex, resolve


@dataclass(frozen=True)
class Shape:
    """A texture type: its addressing and its spelling on each target."""

    wgsl: str                 # WGSL's type name (texture_2d_array …), its element or format in <…> after it
    msl: str                  # MSL's template name (texture2d_array …)
    dims: int                 # components of an integer texel coordinate and of 「纹理尺寸」 (cube: 2)
    arrayed: bool = False     # indexed by an array layer (「张」)
    cube: bool = False        # six faces, sampled with a 3-D direction
    multisampled: bool = False
    depth: bool = False       # holds one depth value a texel (「浮三二」), no element type argument
    access: str | None = None  # a storage texture's access: "write", "read" or "read_write"; None when sampled

    @property
    def storage(self) -> bool:
        return self.access is not None

    @property
    def sample_dims(self) -> int:
        """Components of a sampling coordinate: a cube's is a 3-D direction."""
        return 3 if self.cube else self.dims

    @property
    def mipmapped(self) -> bool:
        """Has mip levels (「纹理层级数」, 「按层纹理尺寸」): neither storage nor multisampled."""
        return not (self.storage or self.multisampled)

    @property
    def kind(self) -> str:
        """The resource kind a binding of it has (ir.Resource.kind)."""
        return "storage_texture" if self.storage else ("depth_texture" if self.depth else "texture")


SAMPLED: dict[str, Shape] = {
    "纹理一维": Shape("texture_1d", "texture1d", 1),
    "纹理二维": Shape("texture_2d", "texture2d", 2),
    "纹理二维数组": Shape("texture_2d_array", "texture2d_array", 2, arrayed=True),
    "纹理三维": Shape("texture_3d", "texture3d", 3),
    "纹理立方": Shape("texture_cube", "texturecube", 2, cube=True),
    "纹理立方数组": Shape("texture_cube_array", "texturecube_array", 2, arrayed=True, cube=True),
    "多重采样纹理二维": Shape("texture_multisampled_2d", "texture2d_ms", 2, multisampled=True),
    "深度纹理二维": Shape("texture_depth_2d", "depth2d", 2, depth=True),
    "深度纹理二维数组": Shape("texture_depth_2d_array", "depth2d_array", 2, arrayed=True, depth=True),
    "深度纹理立方": Shape("texture_depth_cube", "depthcube", 2, cube=True, depth=True),
    "深度纹理立方数组": Shape("texture_depth_cube_array", "depthcube_array", 2, arrayed=True, cube=True, depth=True),
    "深度多重采样纹理二维": Shape("texture_depth_multisampled_2d", "depth2d_ms", 2, multisampled=True, depth=True),
}

#: storage textures: the write-only 「存储纹理…」 of the first extension, and 「只读…」「读写…」 before it
_STORAGE_DIMS = {"一维": ("texture_storage_1d", "texture1d", 1, False), "二维": ("texture_storage_2d", "texture2d", 2, False),
                 "二维数组": ("texture_storage_2d_array", "texture2d_array", 2, True),
                 "三维": ("texture_storage_3d", "texture3d", 3, False)}
ACCESS_WORDS = {"": "write", "只读": "read", "读写": "read_write"}
STORAGE: dict[str, Shape] = {
    f"{word}存储纹理{dims}": Shape(wgsl, msl, n, arrayed=arrayed, access=access)
    for word, access in ACCESS_WORDS.items() for dims, (wgsl, msl, n, arrayed) in _STORAGE_DIMS.items()
}

TEXTURES: dict[str, Shape] = {**SAMPLED, **STORAGE}

#: a colour texture's element types (WGSL's sampled types f32, i32, u32)
ELEMENTS = (F32, I32, U32)

#: the gathers of a colour texture, whose first argument is the component (0 to 3) to gather
GATHER_COMPONENT = frozenset("聚集纹素 聚集张纹素 偏移聚集纹素 偏移聚集张纹素".split())


def texture_shape(t: TypeOrIndex) -> Shape | None:
    """The row of a texture type (「纹理二维数组」于「浮三二」 …), else None."""
    t = resolve(t)
    return TEXTURES.get(t.name) if isinstance(t, TCon) else None


def is_texture(t: TypeOrIndex, test=lambda shape: True) -> bool:
    """A texture type whose row passes `test` (the classes of the interface file)."""
    shape = texture_shape(t)
    return shape is not None and test(shape)
