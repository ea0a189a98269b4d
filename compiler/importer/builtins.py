"""WGSL's builtin functions as 着色 names: one table keyed by the WGSL name.

`RESULT` says the type of a call from its (concrete) argument types:
"same" the first argument's type, "scalar" its component, "bool" a 爻 (or
爻 vector) and so on; a name missing there is refused with its reason in
`REFUSED`."""

from __future__ import annotations


def _pairs(text: str) -> dict[str, str]:
    words = text.split()
    return dict(zip(words[0::2], words[1::2]))


#: WGSL name → 着色 name, for calls written `「名」于 实参…` with the arguments in WGSL's order
CALLS = _pairs("""
abs 绝对值 max 最大 min 最小 clamp 夹紧 mix 混合 step 阶跃 smoothstep 平滑阶跃 sqrt 平方根
inverseSqrt 逆平方根 exp 指数 exp2 指数二 log 对数 log2 对数二 pow 幂 sin 正弦 cos 余弦 tan 正切
tanh 双曲正切 asin 反正弦 acos 反余弦 atan 反正切 atan2 反正切二 floor 向下取整 ceil 向上取整
round 四舍五入 trunc 截断 fract 小数部分 saturate 饱和 sign 符号 dot 点积 cross 叉积 length 长度
distance 距离 normalize 归一化 fma 融合乘加 select 选择 unpack2x16float 半精度解包
pack2x16float 半精度打包 transpose 转置 determinant 行列式 countOneBits 一位计数 reverseBits 位反转
dpdx 横差 dpdy 纵差 dpdxFine 横差细 dpdxCoarse 横差粗 dpdyFine 纵差细 dpdyCoarse 纵差粗
fwidth 滤宽 fwidthFine 滤宽细 fwidthCoarse 滤宽粗
quadBroadcast 四组广播 quadSwapX 四组横换 quadSwapY 四组纵换 quadSwapDiagonal 四组对角换
modf 整小分离 frexp 尾阶分离
countLeadingZeros 前导零计数 countTrailingZeros 尾随零计数 firstLeadingBit 最高位序 firstTrailingBit 最低位序
extractBits 取位段 insertBits 置位段
reflect 反射 refract 折射 faceForward 朝向翻转 ldexp 乘二幂 quantizeToF16 量化半精度
pack4x8unorm 四字节归一打包 unpack4x8unorm 四字节归一解包 pack4x8snorm 四字节符归一打包 unpack4x8snorm 四字节符归一解包
pack4xI8 四字节整打包 unpack4xI8 四字节整解包 pack4xU8 四字节无打包 unpack4xU8 四字节无解包
pack4xI8Clamp 四字节整夹紧打包 pack4xU8Clamp 四字节无夹紧打包 pack2x16unorm 双半字归一打包 unpack2x16unorm 双半字归一解包
pack2x16snorm 双半字符归一打包 unpack2x16snorm 双半字符归一解包 dot4U8Packed 四字节无点积 dot4I8Packed 四字节整点积
all 全都 any 任一
subgroupAdd 子组求和 subgroupMax 子组最大 subgroupMin 子组最小 subgroupShuffle 子组洗牌
subgroupShuffleXor 子组异或洗牌 subgroupMul 子组求积 subgroupAnd 子组按位与 subgroupOr 子组按位或
subgroupXor 子组按位异或 subgroupInclusiveAdd 子组前缀和 subgroupInclusiveMul 子组前缀积
subgroupExclusiveAdd 子组排他前缀和 subgroupExclusiveMul 子组排他前缀积 subgroupShuffleUp 子组上移洗牌
subgroupShuffleDown 子组下移洗牌 subgroupBroadcastFirst 子组广播首个 subgroupAny 子组任一 subgroupAll 子组全都
subgroupBallot 子组投票
""")

#: calls that take no argument in WGSL and 「元」 in 着色
UNIT_CALLS = {"workgroupBarrier": "工作组屏障", "storageBarrier": "存储屏障", "subgroupElect": "子组选一",
              "textureBarrier": "纹理屏障"}

#: atomics: WGSL's pointer argument &a[i] becomes 「a」于 i
ATOMICS = _pairs("""
atomicAdd 原子加 atomicMax 原子最大 atomicMin 原子最小 atomicSub 原子减 atomicAnd 原子与 atomicOr 原子或
atomicXor 原子异或 atomicExchange 原子交换 atomicLoad 原子读 atomicStore 原子存
atomicCompareExchangeWeak 原子比较交换
""")

SAME = "same"
#: the result type of each call; names not listed give their first argument's type
RESULT = {
    **{n: "scalar" for n in ("dot", "length", "distance", "determinant")},
    **{n: "bool" for n in ("all", "any", "subgroupAny", "subgroupAll", "subgroupElect")},
    **{n: "u32" for n in ("pack2x16float", "pack4x8unorm", "pack4x8snorm", "pack4xI8", "pack4xU8", "pack4xI8Clamp",
                          "pack4xU8Clamp", "pack2x16unorm", "pack2x16snorm", "dot4U8Packed")},
    "dot4I8Packed": "i32",
    **{n: "vec2f" for n in ("unpack2x16float", "unpack2x16unorm", "unpack2x16snorm")},
    **{n: "vec4f" for n in ("unpack4x8unorm", "unpack4x8snorm")},
    "unpack4xI8": "vec4i", "unpack4xU8": "vec4u", "subgroupBallot": "vec4u",
    "select": "second",
    "modf": "modf", "frexp": "frexp",
}

#: the records some builtins return (WGSL's built-in structs): their WGSL fields → 着色 fields, with each
#: field's type from the argument's ("same") or the argument's shape with i32 components ("i32")
RECORDS = {
    "modf": {"fract": ("小部", "same"), "whole": ("整部", "same")},
    "frexp": {"fract": ("尾数", "same"), "exp": ("阶码", "i32")},
    "atomicCompareExchangeWeak": {"old_value": ("原值", "same"), "exchanged": ("已换", "bool")},
}

#: arguments whose abstract literals take a fixed type rather than the others' (index → scalar)
FIXED_ARGUMENTS = {
    "ldexp": {1: "i32"}, "extractBits": {1: "u32", 2: "u32"}, "insertBits": {2: "u32", 3: "u32"},
    "select": {2: "bool"}, "subgroupShuffle": {1: "u32"}, "subgroupShuffleXor": {1: "u32"},
    "subgroupShuffleUp": {1: "u32"}, "subgroupShuffleDown": {1: "u32"}, "quadBroadcast": {1: "u32"},
}

REFUSED = {
    "workgroupUniformLoad": "着色的一致读取由编译器决定，不能显式写出",
    "subgroupBroadcast": "着色的广播不要求常量序号，意义不同",
    "sinh": "着色没有 sinh", "cosh": "着色没有 cosh", "asinh": "着色没有 asinh", "acosh": "着色没有 acosh",
    "atanh": "着色没有 atanh", "degrees": "着色没有 degrees", "radians": "着色没有 radians",
}

#: entry-point builtins: WGSL name → the 着色 type alias that carries it
IO_BUILTINS = {
    "global_invocation_id": "全局调用号", "local_invocation_id": "局部调用号",
    "local_invocation_index": "局部调用序", "workgroup_id": "工作组号", "num_workgroups": "工作组数",
    "vertex_index": "顶点序号", "instance_index": "实例序号", "front_facing": "正面朝向",
    "frag_depth": "片元深度", "sample_index": "采样序号", "sample_mask": "采样掩码",
    "subgroup_invocation_id": "子组调用序", "subgroup_size": "子组大小",
}
