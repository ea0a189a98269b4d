"""WGSL types as the importer sees them, and how 着色 spells each one.

A type is a small tuple: ("scalar", s) with s one of f32 f16 i32 u32 bool and
the abstract "int"/"float" of WGSL literals, ("vec", n, s), ("mat", c, r, s),
("array", element, length or None), ("atomic", s), ("struct", name),
("named", 着色 text) for textures and samplers, ("ptr", …) refused."""

from __future__ import annotations

from .refusal import Refusal

SCALARS = {"f32": "浮三二", "f16": "浮十六", "i32": "整三二", "u32": "无三二", "bool": "爻"}
#: the letter a vector's 着色 name ends with, by scalar
VECTOR_LETTER = {"f32": "浮", "f16": "半", "i32": "整", "u32": "无", "bool": "爻"}
DIGIT = {2: "二", 3: "三", 4: "四"}
#: vec3f and friends
SHORT_SUFFIX = {"f": "f32", "h": "f16", "i": "i32", "u": "u32"}
#: the conversion that makes a literal or a value of each scalar type
CONSTRUCTOR = {"f32": "新浮三二", "f16": "新浮十六", "i32": "新整三二", "u32": "新无三二"}

TEXTURES = {
    "texture_1d": "纹理一维", "texture_2d": "纹理二维", "texture_2d_array": "纹理二维数组", "texture_3d": "纹理三维",
    "texture_cube": "纹理立方", "texture_cube_array": "纹理立方数组", "texture_multisampled_2d": "多重采样纹理二维",
}
PLAIN_TEXTURES = {
    "texture_depth_2d": "深度纹理二维", "texture_depth_2d_array": "深度纹理二维数组",
    "texture_depth_cube": "深度纹理立方", "texture_depth_cube_array": "深度纹理立方数组",
    "texture_depth_multisampled_2d": "深度多重采样纹理二维", "sampler": "采样器", "sampler_comparison": "比较采样器",
}
STORAGE_TEXTURES = {"texture_storage_1d": "纹理一维", "texture_storage_2d": "纹理二维",
                    "texture_storage_2d_array": "纹理二维数组", "texture_storage_3d": "纹理三维"}
STORAGE_ACCESS = {"write": "存储", "read": "只读存储", "read_write": "读写存储"}
TEXEL_FORMATS = {"rgba8unorm": "四八归一", "rgba16float": "四浮十六", "rgba32float": "四浮三二",
                 "r32float": "单浮三二", "r32uint": "单无三二", "rgba8snorm": "四八符归一", "rgba8uint": "四无八",
                 "rgba16uint": "四无十六", "rgba32uint": "四无三二", "rgba8sint": "四整八", "rgba16sint": "四整十六",
                 "rgba32sint": "四整三二", "r32sint": "单整三二", "rg32float": "双浮三二", "rg32uint": "双无三二",
                 "rg32sint": "双整三二", "bgra8unorm": "蓝序四八归一"}

F32 = ("scalar", "f32")
U32 = ("scalar", "u32")
I32 = ("scalar", "i32")
BOOL = ("scalar", "bool")
AINT = ("scalar", "int")
AFLOAT = ("scalar", "float")


def is_abstract(t) -> bool:
    return t is not None and t[0] in ("scalar", "vec") and t[-1] in ("int", "float")


def scalar_of(t) -> str | None:
    """The component scalar of a scalar, vector or matrix type."""
    if t is None:
        return None
    if t[0] == "scalar":
        return t[1]
    if t[0] == "vec":
        return t[2]
    if t[0] == "mat":
        return t[3]
    return None


def with_scalar(t, s: str):
    if t[0] == "scalar":
        return ("scalar", s)
    if t[0] == "vec":
        return ("vec", t[1], s)
    return t


def concrete(t):
    """WGSL's default for a value nothing else types: abstract int → i32, float → f32."""
    s = scalar_of(t)
    if s == "int":
        return with_scalar(t, "i32")
    if s == "float":
        return with_scalar(t, "f32")
    return t


def spell(t, at: int) -> str:
    """The 着色 type text of a WGSL type (a name, or an application in parentheses)."""
    kind = t[0]
    if kind == "scalar":
        return f"「{SCALARS[concrete(t)[1]]}」"
    if kind == "vec":
        s = concrete(t)[2]
        return f"「{DIGIT[t[1]]}维{VECTOR_LETTER[s]}」"
    if kind == "mat":
        if t[1] != t[2] or t[3] != "f32":
            raise Refusal(at, f"矩阵类型 mat{t[1]}x{t[2]}<{t[3]}>（着色只有 f32 的方阵）")
        return f"「{DIGIT[t[1]]}阶浮」"
    if kind == "array":
        if t[2] is None:
            return f"（「数组」于{spell(t[1], at)}）"
        return f"（「定长数组」于{spell(t[1], at)}于{number(t[2])}）"
    if kind == "atomic":
        return f"（「原子」于「{SCALARS[t[1]]}」）"
    if kind == "struct":
        return f"「{t[1]}」"
    if kind == "named":
        return t[1]
    raise Refusal(at, f"类型 {kind}")


CHINESE_DIGITS = "零一二三四五六七八九"


def number(value: int) -> str:
    """A non-negative integer as 着色 writes it in the samples: 「二五六」."""
    return "「" + "".join(CHINESE_DIGITS[int(d)] for d in str(value)) + "」"


def _sampled(word: str):
    def spelled(importer, args, at):
        if len(args) != 1:
            raise Refusal(at, "纹理的取样类型")
        s = scalar_of(importer.type_arg(args[0]))
        return f"（「{word}」于「{SCALARS[s]}」）"
    return spelled


def _storage(word: str):
    def spelled(importer, args, at):
        fmt = str(args[0].children[0]) if args else ""
        access = str(args[1].children[0]) if len(args) > 1 else "write"
        if fmt not in TEXEL_FORMATS:
            raise Refusal(at, f"存储纹理格式 {fmt}（着色有 {'、'.join(TEXEL_FORMATS)}）")
        return f"（「{STORAGE_ACCESS[access].replace('存储', '')}存储{word}」于「{TEXEL_FORMATS[fmt]}」）"
    return spelled


#: WGSL texture and sampler type names → a function (importer, template args, offset) → 着色 text
IO_TEXTURE_NAMES = {
    **{k: _sampled(v) for k, v in TEXTURES.items()},
    **{k: (lambda v: lambda importer, args, at: f"「{v}」")(v) for k, v in PLAIN_TEXTURES.items()},
    **{k: _storage(v) for k, v in STORAGE_TEXTURES.items()},
}
