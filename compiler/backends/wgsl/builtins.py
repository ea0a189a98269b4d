"""How each builtin of 「点染」之「点染本」 is written in WGSL: one table keyed
by the builtin's Chinese name (the interface file is the source of truth for
names and types; this table only spells them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Builtin:
    """`form` says how a call is written (see `Writer._form_*`); `text` is the
    WGSL operator or function name.  What a call does besides its value
    (effects, reads) is decided once for every target, in
    compiler/lower/effects.py; which calls need `enable subgroups;` is the
    registry's subgroup kind."""

    form: str
    text: str = ""


def _calls(names: str) -> dict[str, Builtin]:
    pairs = names.split()
    return {pairs[i]: Builtin("call", pairs[i + 1]) for i in range(0, len(pairs), 2)}


_INFIX = {
    "加": "+", "减": "-", "乘": "*", "除": "/", "余": "%", "左移": "<<", "右移": ">>",
    "等于": "==", "不等于": "!=", "小于": "<", "大于": ">", "不大于": "<=", "不小于": ">=",
    "按位与": "&", "按位或": "|", "异或": "^", "且": "&&", "或": "||", "矩阵乘": "*",
}
_PREFIX = {"负": "-", "非": "!", "按位非": "~"}

_MATH = _calls("""
绝对值 abs 最大 max 最小 min 夹紧 clamp 混合 mix 阶跃 step 平滑阶跃 smoothstep 平方根 sqrt
逆平方根 inverseSqrt 指数 exp 指数二 exp2 对数 log 对数二 log2 幂 pow 正弦 sin 余弦 cos 正切 tan
双曲正切 tanh 反正弦 asin 反余弦 acos 反正切 atan 反正切二 atan2 向下取整 floor 向上取整 ceil
四舍五入 round 截断 trunc 小数部分 fract 饱和 saturate 符号 sign 点积 dot 叉积 cross 长度 length
距离 distance 归一化 normalize 融合乘加 fma 选择 select 半精度解包 unpack2x16float
半精度打包 pack2x16float 转置 transpose 行列式 determinant 一位计数 countOneBits 位反转 reverseBits
横差 dpdx 纵差 dpdy 采样纹理 textureSample 按层采样纹理 textureSampleLevel 读纹素 textureLoad
纹理尺寸 textureDimensions 比较采样 textureSampleCompare 写纹素 textureStore
采样张纹理 textureSample 按层采样张纹理 textureSampleLevel 读张纹素 textureLoad 读样本纹素 textureLoad
读存储纹素 textureLoad 读存储张纹素 textureLoad 写张纹素 textureStore 按层纹理尺寸 textureDimensions
纹理层级数 textureNumLevels 纹理张数 textureNumLayers 纹理样本数 textureNumSamples
比较采样张纹理 textureSampleCompare 零层比较采样 textureSampleCompareLevel 零层比较采样张纹理 textureSampleCompareLevel
偏层采样纹理 textureSampleBias 偏层采样张纹理 textureSampleBias 按梯度采样纹理 textureSampleGrad
按梯度采样张纹理 textureSampleGrad 聚集纹素 textureGather 聚集张纹素 textureGather 聚集深度纹素 textureGather
聚集张深度纹素 textureGather 比较聚集纹素 textureGatherCompare 比较聚集张纹素 textureGatherCompare
夹边采样纹理 textureSampleBaseClampToEdge 偏移采样纹理 textureSample 偏移按层采样纹理 textureSampleLevel
偏移按梯度采样纹理 textureSampleGrad 偏移聚集纹素 textureGather 偏移零层比较采样 textureSampleCompareLevel
偏移比较聚集纹素 textureGatherCompare 偏移采样张纹理 textureSample 偏移按层采样张纹理 textureSampleLevel
偏移按梯度采样张纹理 textureSampleGrad 偏移偏层采样纹理 textureSampleBias 偏移偏层采样张纹理 textureSampleBias
偏移聚集张纹素 textureGather 偏移聚集深度纹素 textureGather 偏移聚集张深度纹素 textureGather
偏移比较采样 textureSampleCompare 偏移比较采样张纹理 textureSampleCompare 偏移零层比较采样张纹理 textureSampleCompareLevel
偏移比较聚集张纹素 textureGatherCompare
前导零计数 countLeadingZeros 尾随零计数 countTrailingZeros 最高位序 firstLeadingBit 最低位序 firstTrailingBit
反射 reflect 折射 refract 朝向翻转 faceForward 乘二幂 ldexp 量化半精度 quantizeToF16
四字节归一打包 pack4x8unorm 四字节归一解包 unpack4x8unorm 四字节符归一打包 pack4x8snorm 四字节符归一解包 unpack4x8snorm
四字节整打包 pack4xI8 四字节整解包 unpack4xI8 四字节无打包 pack4xU8 四字节无解包 unpack4xU8
四字节整夹紧打包 pack4xI8Clamp 四字节无夹紧打包 pack4xU8Clamp 双半字归一打包 pack2x16unorm 双半字归一解包 unpack2x16unorm
双半字符归一打包 pack2x16snorm 双半字符归一解包 unpack2x16snorm 四字节无点积 dot4U8Packed 四字节整点积 dot4I8Packed
全都 all 任一 any 横差细 dpdxFine 横差粗 dpdxCoarse 纵差细 dpdyFine 纵差粗 dpdyCoarse
滤宽 fwidth 滤宽细 fwidthFine 滤宽粗 fwidthCoarse
""")

_SUBGROUP = {
    "子组求和": "subgroupAdd", "子组最大": "subgroupMax", "子组最小": "subgroupMin",
    # subgroupBroadcast needs a constant lane (seed 着十一): both become subgroupShuffle
    "子组广播": "subgroupShuffle", "子组洗牌": "subgroupShuffle", "子组异或洗牌": "subgroupShuffleXor",
    "子组求积": "subgroupMul", "子组按位与": "subgroupAnd", "子组按位或": "subgroupOr", "子组按位异或": "subgroupXor",
    "子组前缀和": "subgroupInclusiveAdd", "子组前缀积": "subgroupInclusiveMul",
    "子组排他前缀和": "subgroupExclusiveAdd", "子组排他前缀积": "subgroupExclusiveMul",
    "子组上移洗牌": "subgroupShuffleUp", "子组下移洗牌": "subgroupShuffleDown",
    "子组广播首个": "subgroupBroadcastFirst", "子组任一": "subgroupAny", "子组全都": "subgroupAll",
    "子组投票": "subgroupBallot", "子组选一": "subgroupElect",
    "四组广播": "quadBroadcast", "四组横换": "quadSwapX", "四组纵换": "quadSwapY", "四组对角换": "quadSwapDiagonal",
}

_NO_WGSL = "WGSL 没有子组矩阵片（着十二）：用到它的内核只能译成 MSL 或 PTX"
_MATRIX_FRAGMENTS = """
载入矩阵片甲 载入矩阵片乙 载入矩阵片累 载入矩阵片累前八行 载矩阵片甲前八行 载矩阵片甲自存储
载矩阵片乙自存储 载矩阵片乙自转置存储 满矩阵片累 矩阵片乘加 存矩阵片累 存矩阵片累前八行 存矩阵片累到存储
""".split()
_NO_WGSL_INTEGER = "WGSL 没有整数子组矩阵片（着十二）：用到它的内核只能译成 PTX"
_INTEGER_FRAGMENTS = "载入整矩阵片甲 载入整矩阵片乙 满整矩阵片累 整矩阵片乘加 存整矩阵片累 存整矩阵片累到存储".split()
_NO_WGSL_TENSOR = "WGSL 没有张量片（着十三）：只有金属（MSL）支持"
_TENSOR_FRAGMENTS = "满张量片累 张量片乘加 存张量片累".split()

BUILTINS: dict[str, Builtin] = {
    **{name: Builtin("infix", op) for name, op in _INFIX.items()},
    **{name: Builtin("prefix", op) for name, op in _PREFIX.items()},
    **_MATH,
    # WGSL refuses clamp whose constant low exceeds its constant high: see Writer._form_clamp
    "夹紧": Builtin("clamp", "clamp"),
    # WGSL refuses constant offset and count beyond 32 bits: see Writer._form_bits
    "取位段": Builtin("bits", "extractBits"),
    "置位段": Builtin("bits", "insertBits"),
    **{name: Builtin("call", fn) for name, fn in _SUBGROUP.items()},
    "工作组屏障": Builtin("call", "workgroupBarrier"),
    "存储屏障": Builtin("call", "storageBarrier"),
    "纹理屏障": Builtin("call", "textureBarrier"),
    "舍弃": Builtin("discard"),
    "读数组": Builtin("index"),
    "读共享数组": Builtin("index"),
    "取元素": Builtin("index"),
    "换元素": Builtin("replace"),
    "写数组": Builtin("store_index"),
    "写共享数组": Builtin("store_index"),
    "读共享": Builtin("load"),
    "读存储": Builtin("load"),
    "读均匀": Builtin("load"),
    "写共享": Builtin("store"),
    "写存储": Builtin("store"),
    "数组长度": Builtin("address", "arrayLength"),
    "原子加": Builtin("atomic", "atomicAdd"),
    "原子最大": Builtin("atomic", "atomicMax"),
    "原子最小": Builtin("atomic", "atomicMin"),
    "原子减": Builtin("atomic", "atomicSub"),
    "原子与": Builtin("atomic", "atomicAnd"),
    "原子或": Builtin("atomic", "atomicOr"),
    "原子异或": Builtin("atomic", "atomicXor"),
    "原子交换": Builtin("atomic", "atomicExchange"),
    "原子比较交换": Builtin("compare_exchange", "atomicCompareExchangeWeak"),
    "整小分离": Builtin("split", "modf"),
    "尾阶分离": Builtin("split", "frexp"),
    "原子存": Builtin("atomic", "atomicStore"),
    "原子读": Builtin("atomic", "atomicLoad"),
    "新格": Builtin("cell_new"),
    "读格": Builtin("load"),
    "写格": Builtin("store"),
    "新浮三二": Builtin("literal", "f32"),
    "新浮十六": Builtin("literal", "f16"),
    "新整三二": Builtin("literal", "i32"),
    "新无三二": Builtin("literal", "u32"),
    "转换": Builtin("convert"),
    "位转换": Builtin("bitcast"),
    **{name: Builtin("unavailable", _NO_WGSL) for name in _MATRIX_FRAGMENTS},
    **{name: Builtin("unavailable", _NO_WGSL_INTEGER) for name in _INTEGER_FRAGMENTS},
    **{name: Builtin("unavailable", _NO_WGSL_TENSOR) for name in _TENSOR_FRAGMENTS},
}

#: the members of the struct modf and frexp return, by the field of the record they become
SPLIT_MEMBERS = {"modf": {"小部": "fract", "整部": "whole"}, "frexp": {"尾数": "fract", "阶码": "exp"}}

#: How a call of each form reads in hover, the arguments named 甲 乙 丙 in
#: order (see the writer's `_form_<form>`); `{}` is the entry's `text`.
FORM_SPELLINGS = {
    "infix": "甲 {} 乙", "prefix": "{}甲", "call": "{}(…)", "atomic": "{}(&甲[乙], …)",
    "compare_exchange": "let 换 = {}(&甲[乙], 丙, 丁); 结构(换.old_value, 换.exchanged)", "address": "{}(&甲)",
    "literal": "{}(甲)，字面量写成带类型的字面量", "index": "甲[乙]", "store_index": "甲[乙] = 丙",
    "load": "甲", "store": "甲 = 乙", "cell_new": "var 格: T = 甲", "discard": "discard", "convert": "T(甲)",
    "bitcast": "bitcast<T>(甲)", "clamp": "{}(甲, 乙, 丙)，两界都是常量且 乙 大于 丙 时写成 min(max(甲, 乙), 丙)",
    "bits": "{}(…)，偏移与位数都是常量且和大于 32 时写成夹紧后的常量",
    "split": "let 分 = {}(甲); 结构(分.…)，按记录的字段取 fract、whole 或 fract、exp",
    "replace": "var 副本 = 甲; 副本[乙] = 丙; 副本",
}

#: Types WGSL has no spelling for, with the reason.
UNAVAILABLE_TYPES = {
    "子组矩阵片甲": _NO_WGSL, "子组矩阵片乙": _NO_WGSL, "子组矩阵片累": _NO_WGSL,
    "子组整矩阵片甲": _NO_WGSL_INTEGER, "子组整矩阵片乙": _NO_WGSL_INTEGER, "子组整矩阵片累": _NO_WGSL_INTEGER,
    "张量片累": _NO_WGSL_TENSOR,
}


#: what each declaration word becomes (hover): a resource's or entry's WGSL declaration
DECLARATION_SPELLINGS = {
    "绑定": "@group(G) @binding(B) var<storage, read|read_write> 名: T;",
    "均匀绑定": "@group(G) @binding(B) var<uniform> 名: T;",
    "纹理绑定": "@group(G) @binding(B) var 名: texture_2d<f32>;（或 texture_1d、texture_2d_array、texture_3d、"
              "texture_cube、texture_cube_array、texture_multisampled_2d，元素 f32、i32、u32）",
    "采样器绑定": "@group(G) @binding(B) var 名: sampler;",
    "深度纹理绑定": "@group(G) @binding(B) var 名: texture_depth_2d;（或 texture_depth_2d_array、texture_depth_cube、"
                "texture_depth_cube_array、texture_depth_multisampled_2d）",
    "比较采样器绑定": "@group(G) @binding(B) var 名: sampler_comparison;",
    "存储纹理绑定": "@group(G) @binding(B) var 名: texture_storage_2d<格式, write|read|read_write>;"
                "（或 texture_storage_1d、texture_storage_2d_array、texture_storage_3d）",
    "工作组共享": "var<workgroup> 名: T;",
    "可覆盖": "@id(N) override 名: T = 默认值;",
    "计算入口项": "@compute @workgroup_size(X[, Y[, Z]]) fn 函数(…)",
    "顶点入口项": "@vertex fn 函数(…) -> …",
    "片元入口项": "@fragment fn 函数(…) -> …",
    "阳": "true", "阴": "false", "元": "（不写出：单位值）",
    "只读": "var<storage, read>", "读写": "var<storage, read_write>",
}


def registry_entry(name: str):
    """(this table's row for builtin `name`, or None with the reason WGSL lacks it),
    for compiler/backends/tables.py (the registry's exhaustiveness test)."""
    b = BUILTINS.get(name)
    if b is not None and b.form == "unavailable":
        return None, b.text
    return b or DECLARATION_SPELLINGS.get(name), None


def registry_names() -> list[str]:
    return [*BUILTINS, *DECLARATION_SPELLINGS]
