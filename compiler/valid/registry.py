"""The builtin registry: what every builtin of 「点染」之「点染本」 is, once.

The interface file (compiler/builtin/点染/点染本。着色器。接口。豫) gives each
builtin its name and type; `TABLE` below gives its kind, and the kind gives
the rest: whether it may appear in a constant expression (a WGSL
const-expression), the entry stages that may reach it, whether it must
run in uniform control flow, and what it does besides its value (an effect,
a memory read).  A few rows override the kind (an implicit-LOD texture
sample is fragment-only and uniform, the explicit-LOD one is not; an atomic
load only reads).  The checker (constants), the validation pass (stages,
uniformity) and the lowering middle (compiler/lower/effects.py: what may be
evaluated speculatively or reordered) read these records instead of keeping
their own sets.

How a builtin is written for a target stays in that target's table
(backends/wgsl/builtins.py, backends/msl/builtins.py, backends/ptx/ops.py).
This module names no target and imports no back end: the tables are gathered
where the back ends are known (compiler/backends/tables.py, `on_target`), so
a test can prove that every builtin is either written or declared
unavailable, with a reason, by every target.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

COMPUTE, VERTEX, FRAGMENT = "计算", "顶点", "片元"
STAGE_ORDER = (COMPUTE, VERTEX, FRAGMENT)
ALL_STAGES = frozenset(STAGE_ORDER)


@dataclass(frozen=True)
class Kind:
    """What all builtins of one kind share, unless a row says otherwise."""

    constant: bool                      # may appear in a constant expression
    stages: frozenset[str] = ALL_STAGES  # entry stages that may reach it
    uniform: bool = False               # must run in uniform control flow
    what: str = ""                      # the kind in Chinese, for messages and docs
    effect: bool = False                # writes memory, synchronises or leaves the invocation
    reads: bool = False                 # its value depends on memory an effect may change


KINDS: dict[str, Kind] = {
    "value": Kind(True, what="常值"),
    "pure": Kind(True, what="纯运算"),
    "literal": Kind(True, what="字面量构造"),
    # 新格 and 写格 are effects (a new cell each time it runs); 读格 only reads
    "cell": Kind(False, what="格操作", effect=True),
    "load": Kind(False, what="读内存", reads=True),
    # naga accepts storage writes in a vertex shader (WebGPU's bind group layout refuses them)
    "store": Kind(False, what="写内存", effect=True),
    "atomic": Kind(False, what="原子操作", effect=True),
    "barrier": Kind(False, frozenset({COMPUTE}), uniform=True, what="屏障", effect=True),
    "subgroup": Kind(False, frozenset({COMPUTE, FRAGMENT}), uniform=True, what="子组运算"),
    "fragment": Kind(False, frozenset({FRAGMENT}), what="片元专用", effect=True),
    "derivative": Kind(False, frozenset({FRAGMENT}), uniform=True, what="导数"),
    "texture": Kind(False, what="纹理", reads=True),
    "matrix": Kind(False, frozenset({COMPUTE}), uniform=True, what="子组矩阵片", effect=True, reads=True),
    # subgroup-matrix loads and stores: 起 and 步 count elements, multiples of 8 (着十二)
    "matrix-memory": Kind(False, frozenset({COMPUTE}), uniform=True, what="子组矩阵片读写", effect=True, reads=True),
    # tensor fragments (着十三): the whole workgroup of exactly 128 invocations runs them together
    "tensor": Kind(False, frozenset({COMPUTE}), uniform=True, what="张量片", effect=True, reads=True),
    "resource": Kind(False, what="资源构造"),
    "entry": Kind(False, what="入口构造"),
    # the whole value of a top-level constant only (check/module.py `_const_rules`)
    "override": Kind(False, what="可覆盖常量"),
}


@dataclass(frozen=True)
class Facts:
    """What a few builtins are besides their kind, read by the checker, the
    uniformity analysis, the lowering, the interpreter and the WGSL writer
    (each reads the column it needs, never a list of names of its own)."""

    uniform_argument: int | None = None   # the argument (by position) that must be uniform in the subgroup
    varying_read: str | None = None       # reads memory other invocations may write: what (for messages)
    storage_read: bool = False            # reads a storage buffer: varying unless the buffer is read-only
    short_circuit: bool = False           # its right operand runs only when the left one does not decide
    writes_through: bool = False          # writes through its first argument, which must not be 只读
    reads_texture: bool = False           # reads a texture (a write-only storage texture has nothing to read)
    scalar: tuple[str, int] | None = None # a typed literal's (scalar kind, width), for the range check
    call_rule: str | None = None          # a rule its call must satisfy beyond its type (check/expressions.py)
    divides: bool = False                 # an integer right operand of zero is a fault (the interpreter)
    naga_not_const: bool = False          # WGSL allows it in a const-expression, naga does not evaluate it
    mixes_scalar: bool = False            # a vector operand may meet a scalar one (WGSL v * s): the scalar is splat
    mixes_matrix: bool = False            # a float matrix may meet a matrix of its shape (加 减) or, for 乘, a scalar
    whole_value: bool = False             # reads or writes its buffer's whole value (no runtime-sized array inside)


@dataclass(frozen=True)
class Row:
    """One builtin's line of the table: its kind, and where it differs from the kind."""

    kind: str
    stages: frozenset[str] | None = None
    uniform: bool | None = None
    effect: bool | None = None
    reads: bool | None = None
    facts: Facts = Facts()


def _rows(kind: str, names: str, **overrides) -> dict[str, Row]:
    return {name: Row(kind, **overrides) for name in names.split()}


def _with(table: dict[str, Row], names: str, **facts) -> None:
    """Give the rows of `names` these facts (beside their kind)."""
    for name in names.split():
        row = table[name]
        table[name] = replace(row, facts=replace(row.facts, **facts))


#: the rest of issue 25's texture builtins: those taking implicit derivatives (fragment-only), and the others
FRAGMENT_SAMPLING = """比较采样张纹理 偏层采样纹理 偏层采样张纹理 偏移采样纹理 偏移采样张纹理 偏移偏层采样纹理 偏移偏层采样张纹理
    偏移比较采样 偏移比较采样张纹理"""
EXPLICIT_SAMPLING = """零层比较采样 零层比较采样张纹理 按梯度采样纹理 按梯度采样张纹理 聚集纹素 聚集张纹素 聚集深度纹素
    聚集张深度纹素 比较聚集纹素 比较聚集张纹素 夹边采样纹理 偏移按层采样纹理 偏移按梯度采样纹理 偏移聚集纹素
    偏移零层比较采样 偏移比较聚集纹素 偏移按层采样张纹理 偏移按梯度采样张纹理 偏移聚集张纹素 偏移聚集深度纹素
    偏移聚集张深度纹素 偏移零层比较采样张纹理 偏移比较聚集张纹素"""

#: builtin name → its row; every value the interface file declares has one
TABLE: dict[str, Row] = {
    **_rows("value", "元 阳 阴 只读 读写"),
    **_rows("resource", "绑定 均匀绑定 纹理绑定 采样器绑定 深度纹理绑定 比较采样器绑定 存储纹理绑定 工作组共享"),
    **_rows("entry", "计算入口项 顶点入口项 片元入口项"),
    **_rows("override", "可覆盖"),
    **_rows("literal", "新浮三二 新浮十六 新整三二 新无三二"),
    **_rows("pure", """转换 位转换 加 减 乘 除 余 左移 右移 等于 不等于 小于 大于 不大于 不小于
        按位与 按位或 异或 按位非 且 或 非 负 取元素 绝对值 最大 最小 夹紧 混合 阶跃 平滑阶跃 平方根 逆平方根
        指数 指数二 对数 对数二 正弦 余弦 正切 双曲正切 反正弦 反余弦 反正切 向下取整 向上取整 四舍五入 截断
        小数部分 饱和 幂 反正切二 符号 点积 叉积 长度 距离 归一化 融合乘加 选择 半精度解包 半精度打包
        矩阵乘 转置 行列式 一位计数 位反转 前导零计数 尾随零计数 最高位序 最低位序 取位段 置位段
        反射 折射 朝向翻转 乘二幂 量化半精度 四字节归一打包 四字节归一解包 四字节符归一打包 四字节符归一解包
        四字节整打包 四字节整解包 四字节无打包 四字节无解包 四字节整夹紧打包 四字节无夹紧打包 双半字归一打包
        双半字归一解包 双半字符归一打包 双半字符归一解包 四字节无点积 四字节整点积 全都 任一 整小分离 尾阶分离 换元素"""),
    **_rows("cell", "新格 写格"),
    **_rows("cell", "读格", effect=False, reads=True),
    # workgroup memory is compute-only through the resource it names (stages.STAGE_RESOURCES)
    **_rows("load", "读数组 读共享数组 读共享 读均匀 读存储"),
    # a runtime-sized array's length never changes while the kernel runs
    **_rows("load", "数组长度", reads=False),
    **_rows("store", "写数组 写共享数组 写共享 写存储"),
    **_rows("atomic", "原子加 原子减 原子最大 原子最小 原子与 原子或 原子异或 原子交换 原子比较交换 原子存"),
    **_rows("atomic", "原子读", effect=False, reads=True),
    **_rows("barrier", "工作组屏障 存储屏障 纹理屏障"),
    **_rows("fragment", "舍弃"),
    **_rows("derivative", "横差 纵差 横差细 横差粗 纵差细 纵差粗 滤宽 滤宽细 滤宽粗"),
    # implicit level of detail: derivatives underneath, so fragment-only and uniform
    **_rows("texture", "采样纹理 采样张纹理 比较采样 " + FRAGMENT_SAMPLING, stages=frozenset({FRAGMENT}), uniform=True),
    **_rows("texture", "按层采样纹理 按层采样张纹理 读纹素 读张纹素 读样本纹素 读存储纹素 读存储张纹素 " + EXPLICIT_SAMPLING),
    # a bound texture's size, levels, layers and samples never change
    **_rows("texture", "纹理尺寸 按层纹理尺寸 纹理层级数 纹理张数 纹理样本数", reads=False),
    # WebGPU binds no writable storage texture to a vertex shader
    **_rows("texture", "写纹素 写张纹素", stages=frozenset({COMPUTE, FRAGMENT}), effect=True, reads=False),
    **_rows("subgroup", """子组求和 子组最大 子组最小 子组广播 子组洗牌 子组异或洗牌 子组求积 子组按位与 子组按位或
        子组按位异或 子组前缀和 子组前缀积 子组排他前缀和 子组排他前缀积 子组上移洗牌 子组下移洗牌 子组广播首个 子组任一
        子组全都 子组投票 子组选一 四组广播 四组横换 四组纵换 四组对角换"""),
    **_rows("matrix", "满矩阵片累 矩阵片乘加 满整矩阵片累 整矩阵片乘加"),
    **_rows("matrix-memory", """载入矩阵片甲 载入矩阵片乙 载入矩阵片累 载入矩阵片累前八行 载矩阵片甲前八行
        载矩阵片甲自存储 载矩阵片乙自存储 载矩阵片乙自转置存储 存矩阵片累 存矩阵片累前八行 存矩阵片累到存储
        载入整矩阵片甲 载入整矩阵片乙 存整矩阵片累 存整矩阵片累到存储"""),
    **_rows("tensor", "满张量片累 张量片乘加 存张量片累"),
}
_with(TABLE, "子组上移洗牌 子组下移洗牌 子组异或洗牌", uniform_argument=1)
_with(TABLE, "读共享数组 读共享", varying_read="工作组变量")
_with(TABLE, " ".join(n for n, r in TABLE.items() if r.kind == "atomic"), varying_read="原子")
_with(TABLE, "读数组 读存储", storage_read=True)
_with(TABLE, "且 或", short_circuit=True)
_with(TABLE, "写数组 写存储 存矩阵片累到存储 存整矩阵片累到存储 存张量片累 "
      + " ".join(n for n, r in TABLE.items() if r.kind == "atomic" and n != "原子读"),
      writes_through=True, call_rule="writable")
_with(TABLE, "读纹素 读张纹素 读样本纹素 读存储纹素 读存储张纹素 采样纹理 采样张纹理 按层采样纹理 按层采样张纹理 "
      + FRAGMENT_SAMPLING + " " + EXPLICIT_SAMPLING, reads_texture=True)
# a gather's component and a texel offset are const-expressions WGSL bounds (valid/limits.py)
_with(TABLE, "聚集纹素 聚集张纹素 " + " ".join(n for n in TABLE if n.startswith("偏移")), call_rule="texture constants")
# a read-write storage texture's texels are what other invocations wrote
_with(TABLE, "读存储纹素 读存储张纹素", varying_read="存储纹理")
for _name, _scalar in {"新浮三二": ("float", 32), "新浮十六": ("float", 16),
                       "新整三二": ("int", 32), "新无三二": ("uint", 32)}.items():
    _with(TABLE, _name, scalar=_scalar, call_rule="literal range")
_with(TABLE, " ".join(n for n, r in TABLE.items() if r.kind == "matrix-memory"), call_rule="fragment offsets")
_with(TABLE, "选择", call_rule="select shape")
_with(TABLE, "四组广播", call_rule="quad lane")
_with(TABLE, "除 余", divides=True)
_with(TABLE, "加 减 乘 除 余", mixes_scalar=True)
_with(TABLE, "加 减 乘", mixes_matrix=True)
_with(TABLE, "读存储 写存储", whole_value=True)
_with(TABLE, """位转换 半精度打包 半精度解包 混合 取位段 置位段 反射 折射 朝向翻转 乘二幂 量化半精度
      四字节归一打包 四字节归一解包 四字节符归一打包 四字节符归一解包 四字节整打包 四字节整解包 四字节无打包 四字节无解包
      四字节整夹紧打包 四字节无夹紧打包 双半字归一打包 双半字归一解包 双半字符归一打包 双半字符归一解包
      整小分离 尾阶分离 换元素""",
      naga_not_const=True)


@dataclass(frozen=True)
class Builtin:
    """One builtin: its row resolved against its kind."""

    name: str
    kind: str
    constant: bool
    stages: frozenset[str]
    uniform: bool
    effect: bool
    reads: bool
    facts: Facts

    @property
    def what(self) -> str:
        return KINDS[self.kind].what


@cache
def get(name: str) -> Builtin | None:
    """The record of builtin `name`; None for a name the table does not know
    (a value of a workspace's own interface file)."""
    row = TABLE.get(name)
    if row is None:
        return None
    kind = KINDS[row.kind]
    return Builtin(name, row.kind, kind.constant,
                   kind.stages if row.stages is None else row.stages,
                   kind.uniform if row.uniform is None else row.uniform,
                   kind.effect if row.effect is None else row.effect,
                   kind.reads if row.reads is None else row.reads, row.facts)


@cache
def having(fact: str) -> dict[str, object]:
    """Builtin name → its value of `fact` (a `Facts` column), for every builtin that has it."""
    return {name: getattr(row.facts, fact) for name, row in TABLE.items() if getattr(row.facts, fact)}


def of_kind(*kinds: str) -> frozenset[str]:
    """The names of every builtin of the given kinds."""
    return frozenset(name for name, row in TABLE.items() if row.kind in kinds)


def allowed_in_constant(name: str) -> bool:
    """Whether a call of `name` may stand in a constant (a WGSL const-expression)."""
    b = get(name)
    return b is None or b.constant


def stages(name: str) -> frozenset[str]:
    """The entry stages that may reach a call of `name`."""
    b = get(name)
    return ALL_STAGES if b is None else b.stages


def stage_words(allowed: frozenset[str]) -> str:
    """Stages as messages and docs name them: 「计算、片元」."""
    return "、".join(s for s in STAGE_ORDER if s in allowed)


def needs_uniform_control(name: str) -> bool:
    """Whether a call of `name` must be made in uniform control flow."""
    b = get(name)
    return b is not None and b.uniform


def is_pure(name: str) -> bool:
    """No memory access, no effect, no neighbour: may be computed speculatively."""
    b = get(name)
    return b is not None and b.kind in ("pure", "literal", "value")


def declared(ws) -> list[str]:
    """Every value the workspace's interface file declares, in file order."""
    return list(ws.builtins().exports.values)
