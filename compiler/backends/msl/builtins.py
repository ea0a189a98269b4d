"""How each builtin is written in MSL (seed 着九), keyed by its Chinese name.

A `Template` is a format string over the call's arguments: `{0}` is an
argument as written, `{0:p}` the same argument parenthesised when it is an
operator expression (so it can be an operand or a postfix base), `{R}` the
MSL type of the call's result, `{F}` the name of the call's function in the
金矩阵片序幕 (`prelude`, see fragments.py), which the source then declares.  A
`Special` names a writer method for the few builtins whose spelling depends on
types or on the resource's binding.  Builtins missing here are reported as not
available in MSL.
"""

from __future__ import annotations

from dataclasses import dataclass

from .fragments import UNAVAILABLE_BUILTINS


@dataclass(frozen=True)
class Template:
    text: str
    atomic: bool = True     # usable as an operand without parentheses
    prelude: str | None = None   # the fragment builtin whose prelude function {F} is (fragments.py)


@dataclass(frozen=True)
class Special:
    method: str             # MslWriter method `_builtin_<method>(call)`
    shown: str              # what hover shows: the spellings the method chooses between


def _op(symbol: str) -> Template:
    return Template(f"{{0:p}} {symbol} {{1:p}}", atomic=False)


def _fn(name: str, arity: int = 1) -> Template:
    return Template(f"{name}(" + ", ".join(f"{{{i}}}" for i in range(arity)) + ")")


def _fragment(name: str, args: str) -> Template:
    """A subgroup-matrix builtin (seed 着十二): a call of its prelude function.  The seed
    has the translator treat every one as an effect that the whole SIMD-group runs."""
    return Template(f"{{F}}({args})", prelude=name)


#: the only memory order Metal's atomics take
MEMORY_ORDER = "memory_order_relaxed"
_SHARED = "&{0:p}[0], {1}, {2}"                                  # a threadgroup array's first element
_WORDS = "reinterpret_cast<const device half*>({0}), {1}, {2}"   # u32 words read as halves, low half first

BUILTINS: dict[str, Template | Special] = {
    # operators
    # signed + - * wrap as in WGSL: C++ leaves signed overflow undefined, so ints go through uint
    **{name: Special("wrapping", f"甲 {symbol} 乙；整三二 时 as_type<int>(uint(甲) {symbol} uint(乙))")
       for name, symbol in (("加", "+"), ("减", "-"), ("乘", "*"))},
    "除": _op("/"),
    "余": Special("remainder", "fmod(甲, 乙) / 甲 % 乙"),
    "左移": Special("shift", "甲 << 乙"), "右移": Special("shift", "甲 >> 乙"),
    "等于": _op("=="), "不等于": _op("!="), "小于": _op("<"), "大于": _op(">"),
    "不大于": _op("<="), "不小于": _op(">="),
    "按位与": Special("bitwise", "甲 & 乙"), "按位或": Special("bitwise", "甲 | 乙"), "异或": _op("^"),
    "按位非": Template("~{0:p}", atomic=False),
    "且": Special("logical", "甲 && 乙"), "或": Special("logical", "甲 || 乙"),
    "非": Template("!{0:p}", atomic=False), "负": Special("negate", "-甲；整三二 时 as_type<int>(0u - uint(甲))"),
    # literals and conversions
    "新浮三二": Special("typed_literal", "甲f / float(甲)"), "新浮十六": Special("typed_literal", "甲h / half(甲)"),
    "新整三二": Special("typed_literal", "int(甲)"), "新无三二": Special("typed_literal", "甲u / uint(甲)"),
    "转换": Special("convert", "T(甲) / T(clamp(甲, 下限, 上限))"),
    "位转换": Template("as_type<{R}>({0})"),
    "半精度解包": Template("float2(as_type<half2>({0}))"),
    "半精度打包": Template("as_type<uint>(half2({0}))"),
    # buffers, workgroup memory, cells
    "读数组": Template("{0:p}[{1}]"),
    "写数组": Template("{0:p}[{1}] = {2}"),
    "读共享数组": Template("{0:p}[{1}]"),
    "写共享数组": Template("{0:p}[{1}] = {2}"),
    "读共享": Template("{0}"),
    "写共享": Template("{0} = {1}"),
    "读均匀": Template("{0}"),
    "读存储": Template("{0}"),
    "写存储": Template("{0} = {1}"),
    "取元素": Template("{0:p}[{1}]"),
    "数组长度": Special("array_length", "（长度表中该缓冲的一项）"),
    "读格": Template("{0}"),
    "写格": Template("{0} = {1}"),
    # atomics
    "原子加": Template(f"atomic_fetch_add_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    "原子最大": Template(f"atomic_fetch_max_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    "原子最小": Template(f"atomic_fetch_min_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    "原子减": Template(f"atomic_fetch_sub_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    "原子与": Template(f"atomic_fetch_and_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    "原子或": Template(f"atomic_fetch_or_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    "原子异或": Template(f"atomic_fetch_xor_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    "原子交换": Template(f"atomic_exchange_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    "原子比较交换": Special("compare_exchange", "T 原值 = 丙; bool 已换 = atomic_compare_exchange_weak_explicit("
                                            "&甲[乙], &原值, 丁, …)，结果是记录的结构（原值, 已换）"),
    "原子读": Template(f"atomic_load_explicit(&{{0:p}}[{{1}}], {MEMORY_ORDER})"),
    "原子存": Template(f"atomic_store_explicit(&{{0:p}}[{{1}}], {{2}}, {MEMORY_ORDER})"),
    # math
    "绝对值": Special("absolute", "abs(甲)；整三二 时 as_type<int>((uint(甲) ^ uint(甲 >> 31)) - uint(甲 >> 31))"), "最大": _fn("max", 2), "最小": _fn("min", 2), "夹紧": Special("clamp", "clamp(甲, 乙, 丙) / min(max(甲, 乙), 丙)"),
    "混合": _fn("mix", 3), "阶跃": _fn("step", 2), "平滑阶跃": _fn("smoothstep", 3),
    "平方根": _fn("sqrt"), "逆平方根": _fn("rsqrt"), "指数": _fn("exp"), "指数二": _fn("exp2"),
    "对数": _fn("log"), "对数二": _fn("log2"), "幂": _fn("pow", 2),
    "正弦": _fn("sin"), "余弦": _fn("cos"), "正切": _fn("tan"), "双曲正切": _fn("tanh"),
    "反正弦": _fn("asin"), "反余弦": _fn("acos"), "反正切": _fn("atan"), "反正切二": _fn("atan2", 2),
    "向下取整": _fn("floor"), "向上取整": _fn("ceil"), "四舍五入": _fn("rint"), "截断": _fn("trunc"),
    "小数部分": _fn("fract"), "饱和": _fn("saturate"), "符号": Special("sign", "sign(甲) / T(甲 > T(0)) - T(甲 < T(0))"),
    "点积": _fn("dot", 2), "叉积": _fn("cross", 2), "长度": _fn("length"), "距离": _fn("distance", 2),
    "归一化": _fn("normalize"), "融合乘加": _fn("fma", 3),
    "选择": Special("select", "丙 ? 乙 : 甲"),
    "矩阵乘": _op("*"), "转置": _fn("transpose"), "行列式": _fn("determinant"),
    "一位计数": _fn("popcount"), "位反转": _fn("reverse_bits"),
    "前导零计数": _fn("clz"), "尾随零计数": _fn("ctz"),
    # Metal has no firstLeadingBit/firstTrailingBit; clz and ctz of 0 are 32, as WGSL's counts
    "最高位序": Special("first_leading_bit", "31u - clz(甲)；整三二 时 31 - clz(甲 ^ (甲 >> 31))"),
    "最低位序": Special("first_trailing_bit", "select(ctz(甲), ~T(0), 甲 == T(0))"),
    # extract_bits and insert_bits are undefined past 32 bits: offset and count clamped as WGSL does
    "取位段": Special("bit_field", "extract_bits(甲, min(乙, 32u), min(丙, 32u - min(乙, 32u)))"),
    "置位段": Special("bit_field", "insert_bits(甲, 乙, min(丙, 32u), min(丁, 32u - min(丙, 32u)))"),
    "反射": _fn("reflect", 2), "折射": _fn("refract", 3), "朝向翻转": _fn("faceforward", 3),
    "乘二幂": _fn("ldexp", 2),
    # a copy with one element replaced; an index out of range changes nothing (C++ would write past the end)
    "换元素": Special("replace", "auto 副本 = 甲; if (乙 < 长度) 副本[乙] = 丙; 副本"),
    # modf and frexp return the fraction and write the other part through a reference
    "整小分离": Special("split", "T 整部; T 小部 = modf(甲, 整部); 结构（小部，整部）"),
    "尾阶分离": Special("split", "intN 阶码; T 尾数 = frexp(甲, 阶码); 结构（尾数，阶码）"),
    "量化半精度": Special("quantize", "float(half(甲))"),
    # Metal's pack_float_to_*norm round to nearest even: WGSL's ⌊0.5 + s · clamp(e)⌋ is written out
    "四字节归一打包": Template("as_type<uint>(uchar4(floor(0.5f + 255.0f * clamp({0}, float4(0.0f), float4(1.0f)))))"),
    "四字节符归一打包": Template("as_type<uint>(char4(floor(0.5f + 127.0f * clamp({0}, float4(-1.0f), float4(1.0f)))))"),
    "双半字归一打包": Template("as_type<uint>(ushort2(floor(0.5f + 65535.0f * clamp({0}, float2(0.0f), float2(1.0f)))))"),
    "双半字符归一打包": Template("as_type<uint>(short2(floor(0.5f + 32767.0f * clamp({0}, float2(-1.0f), float2(1.0f)))))"),
    "四字节归一解包": _fn("unpack_unorm4x8_to_float"), "四字节符归一解包": _fn("unpack_snorm4x8_to_float"),
    "双半字归一解包": _fn("unpack_unorm2x16_to_float"), "双半字符归一解包": _fn("unpack_snorm2x16_to_float"),
    "四字节整打包": Template("as_type<uint>(uchar4(as_type<uint4>({0})))"),
    "四字节无打包": Template("as_type<uint>(uchar4({0}))"),
    "四字节整夹紧打包": Template("as_type<uint>(char4(clamp({0}, int4(-128), int4(127))))"),
    "四字节无夹紧打包": Template("as_type<uint>(uchar4(min({0}, uint4(255u))))"),
    "四字节整解包": Template("int4(as_type<char4>({0}))"),
    "四字节无解包": Template("uint4(as_type<uchar4>({0}))"),
    "四字节无点积": Special("dot_bytes", "积 = uint4(as_type<uchar4>(甲)) * uint4(as_type<uchar4>(乙))；积.x + 积.y + 积.z + 积.w"),
    "四字节整点积": Special("dot_bytes", "积 = int4(as_type<char4>(甲)) * int4(as_type<char4>(乙))；积.x + 积.y + 积.z + 积.w"),
    "全都": Special("all_any", "all(甲)；爻 时 甲"), "任一": Special("all_any", "any(甲)；爻 时 甲"),
    # fragment-only derivatives (never speculated: compiler/lower/effects.py)
    "横差": _fn("dfdx"), "纵差": _fn("dfdy"),
    # Metal has one derivative per axis (per fragment on Apple GPUs): fine and coarse are both it
    "横差细": _fn("dfdx"), "横差粗": _fn("dfdx"), "纵差细": _fn("dfdy"), "纵差粗": _fn("dfdy"),
    "滤宽": _fn("fwidth"), "滤宽细": _fn("fwidth"), "滤宽粗": _fn("fwidth"),
    # control
    "工作组屏障": Template("threadgroup_barrier(mem_flags::mem_threadgroup)"),
    "存储屏障": Template("threadgroup_barrier(mem_flags::mem_device)"),
    "纹理屏障": Template("threadgroup_barrier(mem_flags::mem_texture)"),
    "舍弃": Template("discard_fragment()"),
    # textures
    "采样纹理": Template("{0:p}.sample({1}, {2})"),
    "采样张纹理": Template("{0:p}.sample({1}, {2}, {3})"),
    "按层采样纹理": Template("{0:p}.sample({1}, {2}, level({3}))"),
    "按层采样张纹理": Template("{0:p}.sample({1}, {2}, {3}, level({4}))"),
    # read and write take uint coordinates, layers, levels and samples: int ones are converted
    "读纹素": Special("texel", "甲.read(乙, 丙)"),
    "读张纹素": Special("texel", "甲.read(乙, 丙, 丁)"),
    "读样本纹素": Special("texel", "甲.read(乙, 丙)"),
    "读存储纹素": Special("texel", "甲.read(乙)"),
    "读存储张纹素": Special("texel", "甲.read(乙, 丙)"),
    "纹理尺寸": Special("texture_size", "uint2(甲.get_width(), 甲.get_height())；一维 甲.get_width()，三维 uint3(…, 甲.get_depth())"),
    "按层纹理尺寸": Special("texture_size", "uint2(甲.get_width(乙), 甲.get_height(乙))；一维、三维同上"),
    "纹理层级数": Template("{0:p}.get_num_mip_levels()"),
    "纹理张数": Template("{0:p}.get_array_size()"),
    "纹理样本数": Template("{0:p}.get_num_samples()"),
    "比较采样": Template("{0:p}.sample_compare({1}, {2}, {3})"),
    # the rest of issue 25: Metal's gather order (u₀v₁, u₁v₁, u₁v₀, u₀v₀) is Vulkan's and WebGPU's
    "比较采样张纹理": Template("{0:p}.sample_compare({1}, {2}, {3}, {4})"),
    "零层比较采样": Template("{0:p}.sample_compare({1}, {2}, {3}, level(0))"),
    "零层比较采样张纹理": Template("{0:p}.sample_compare({1}, {2}, {3}, {4}, level(0))"),
    "偏移零层比较采样": Template("{0:p}.sample_compare({1}, {2}, {3}, level(0), {4})"),
    "偏层采样纹理": Template("{0:p}.sample({1}, {2}, bias({3}))"),
    "偏层采样张纹理": Template("{0:p}.sample({1}, {2}, {3}, bias({4}))"),
    "偏移采样纹理": Template("{0:p}.sample({1}, {2}, {3})"),
    "偏移按层采样纹理": Template("{0:p}.sample({1}, {2}, level({3}), {4})"),
    "偏移采样张纹理": Template("{0:p}.sample({1}, {2}, {3}, {4})"),
    "偏移按层采样张纹理": Template("{0:p}.sample({1}, {2}, {3}, level({4}), {5})"),
    "偏移偏层采样纹理": Template("{0:p}.sample({1}, {2}, bias({3}), {4})"),
    "偏移偏层采样张纹理": Template("{0:p}.sample({1}, {2}, {3}, bias({4}), {5})"),
    "偏移比较采样": Template("{0:p}.sample_compare({1}, {2}, {3}, {4})"),
    "偏移比较采样张纹理": Template("{0:p}.sample_compare({1}, {2}, {3}, {4}, {5})"),
    "偏移零层比较采样张纹理": Template("{0:p}.sample_compare({1}, {2}, {3}, {4}, level(0), {5})"),
    "偏移比较聚集张纹素": Template("{0:p}.gather_compare({1}, {2}, {3}, {4}, {5})"),
    **{name: Special("gradient", "甲.sample(乙, 丙, gradient2d(丁, 戊))；三维 gradient3d，立方 gradientcube，张在坐标后，偏移在最后")
       for name in "按梯度采样纹理 按梯度采样张纹理 偏移按梯度采样纹理 偏移按梯度采样张纹理".split()},
    **{name: Special("gather", "甲.gather(乙, 丙, int2(0), component::x)；张在坐标后，立方没有偏移，深度纹理没有分量")
       for name in "聚集纹素 聚集张纹素 偏移聚集纹素 偏移聚集张纹素 聚集深度纹素 聚集张深度纹素 偏移聚集深度纹素 偏移聚集张深度纹素".split()},
    "比较聚集纹素": Template("{0:p}.gather_compare({1}, {2}, {3})"),
    "比较聚集张纹素": Template("{0:p}.gather_compare({1}, {2}, {3}, {4})"),
    "偏移比较聚集纹素": Template("{0:p}.gather_compare({1}, {2}, {3}, {4})"),
    # Metal has no textureSampleBaseClampToEdge: the coordinates are clamped half a texel inside, level 0 sampled
    "夹边采样纹理": Template("{0:p}.sample({1}, clamp({2}, float2(0.5f) / float2({0:p}.get_width(), {0:p}.get_height()), "
                         "float2(1.0f) - float2(0.5f) / float2({0:p}.get_width(), {0:p}.get_height())), level(0.0f))"),
    "写纹素": Special("store_texel", "甲.write(丙, 乙)，坐标为 int 时写 uint2(乙)"),
    "写张纹素": Special("store_texel", "甲.write(丁, 乙, 丙)，坐标为 int 时写 uint2(乙)"),
    # SIMD-groups (seed 着十一): the lane index is a ushort in MSL
    "子组求和": _fn("simd_sum"), "子组最大": _fn("simd_max"),
    "子组最小": _fn("simd_min"),
    "子组广播": Template("simd_shuffle({0}, ushort({1}))"),
    "子组洗牌": Template("simd_shuffle({0}, ushort({1}))"),
    "子组异或洗牌": Template("simd_shuffle_xor({0}, ushort({1}))"),
    "子组求积": _fn("simd_product"), "子组按位与": _fn("simd_and"),
    "子组按位或": _fn("simd_or"), "子组按位异或": _fn("simd_xor"),
    "子组前缀和": _fn("simd_prefix_inclusive_sum"),
    "子组前缀积": _fn("simd_prefix_inclusive_product"),
    "子组排他前缀和": _fn("simd_prefix_exclusive_sum"),
    "子组排他前缀积": _fn("simd_prefix_exclusive_product"),
    "子组上移洗牌": Template("simd_shuffle_up({0}, ushort({1}))"),
    "子组下移洗牌": Template("simd_shuffle_down({0}, ushort({1}))"),
    "子组广播首个": _fn("simd_broadcast_first"),
    "子组任一": _fn("simd_any"), "子组全都": _fn("simd_all"),
    # simd_vote is a 64-bit mask (lane i → bit i); WGSL's ballot is four 32-bit words
    "子组投票": Template("uint4(as_type<uint2>(static_cast<ulong>(simd_ballot({0}))), 0u, 0u)"),
    "子组选一": Template("simd_is_first()"),
    # quad-groups: four lanes whose SIMD-group index divided by 4 is the same
    "四组广播": Template("quad_broadcast({0}, ushort({1}))"),
    "四组横换": Template("quad_shuffle_xor({0}, ushort(1))"),
    "四组纵换": Template("quad_shuffle_xor({0}, ushort(2))"),
    "四组对角换": Template("quad_shuffle_xor({0}, ushort(3))"),
    # subgroup matrices (seed 着十二): 16 × 16 fragments of 2 × 2 simdgroup_matrix blocks (fragments.py)
    "载入矩阵片甲": _fragment("载入矩阵片甲", _SHARED),
    "载入矩阵片乙": _fragment("载入矩阵片乙", _SHARED),
    "载入矩阵片累": _fragment("载入矩阵片累", _SHARED),
    "载入矩阵片累前八行": _fragment("载入矩阵片累前八行", _SHARED),
    "载矩阵片甲前八行": _fragment("载矩阵片甲前八行", _SHARED),
    "载矩阵片甲自存储": _fragment("载矩阵片甲自存储", _WORDS),
    "载矩阵片乙自存储": _fragment("载矩阵片乙自存储", _WORDS),
    "载矩阵片乙自转置存储": _fragment("载矩阵片乙自转置存储", _WORDS),
    "满矩阵片累": _fragment("满矩阵片累", "{0}"),
    "矩阵片乘加": _fragment("矩阵片乘加", "{0}, {1}, {2}"),
    "存矩阵片累": _fragment("存矩阵片累", _SHARED + ", {3}"),
    "存矩阵片累前八行": _fragment("存矩阵片累前八行", _SHARED + ", {3}"),
    "存矩阵片累到存储": _fragment("存矩阵片累到存储", "{0}, {1}, {2}, {3}"),
    # tensor fragments (seed 着十三): Metal 4's matmul2d on a 64 × 64 cooperative tensor (fragments.py)
    "满张量片累": _fragment("满张量片累", "{0}"),
    "张量片乘加": _fragment("张量片乘加", "{0}, {1}, {2}, {3}, &{4:p}[0], {5}"),
    "存张量片累": _fragment("存张量片累", "{0}, {1}, {2}, {3}, {4}, {5}"),
}

#: Builtins that only make a value a statement can hold (the 令 that binds a cell).
CELL = "新格"
CELL_SHOWN = "T 格 = 甲"


#: what each declaration word becomes (hover): resources are parameters of the
#: functions that use them (slot n = group × 16 + binding, seed 着九)
DECLARATION_SPELLINGS = {
    "绑定": "device T* 名 [[buffer(n)]]（只读：const device T*）",
    "均匀绑定": "constant T& 名 [[buffer(n)]]",
    "纹理绑定": "texture2d<float> 名 [[texture(n)]]（或 texture1d、texture2d_array、texture3d、texturecube、"
              "texturecube_array、texture2d_ms，元素 float、int、uint）",
    "采样器绑定": "sampler 名 [[sampler(n)]]",
    "深度纹理绑定": "depth2d<float> 名 [[texture(n)]]（或 depth2d_array、depthcube、depthcube_array、depth2d_ms）",
    "比较采样器绑定": "sampler 名 [[sampler(n)]]",
    "存储纹理绑定": "texture2d<float|int|uint, access::write|read|read_write> 名 [[texture(n)]]"
                "（或 texture1d、texture2d_array、texture3d）",
    "工作组共享": "threadgroup T 名;（在核函数开头声明）",
    "可覆盖": "constant T 名_覆 [[function_constant(N)]]; constant T 名 = is_function_constant_defined(名_覆) ? 名_覆 : 默认值;",
    "计算入口项": "[[max_total_threads_per_threadgroup(N)]] kernel void 函数(…)",
    "顶点入口项": "vertex … 函数(yy_函数_入 … [[stage_in]], …)",
    "片元入口项": "fragment … 函数(yy_函数_入 … [[stage_in]], …)",
    "阳": "true", "阴": "false", "元": "（不写出：单位值）",
    "只读": "const device T*", "读写": "device T*",
}


def registry_entry(name: str):
    """(this table's row for builtin `name`, or None with the reason MSL lacks it:
    only the integer fragments) for compiler/backends/tables.py (the registry's exhaustiveness test)."""
    if name == CELL:
        return CELL_SHOWN, None
    if name in UNAVAILABLE_BUILTINS:
        return None, UNAVAILABLE_BUILTINS[name]
    return BUILTINS.get(name) or DECLARATION_SPELLINGS.get(name), None


def registry_names() -> list[str]:
    return [*BUILTINS, CELL, *DECLARATION_SPELLINGS, *UNAVAILABLE_BUILTINS]

#: the builtins that reach element 乙 of array 甲 (a buffer or workgroup variable): bounds-checked
#: unless --不查界 (docs/后端.md〈翻译选项〉); 原子比较交换 checks its own; 取元素 indexes a value
GUARDED = frozenset(name for name, b in BUILTINS.items()
                    if isinstance(b, Template) and "{0:p}[{1}]" in b.text and name != "取元素")
