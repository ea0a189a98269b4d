"""Limits every target shares, checked once so that `检查` refuses what WebGPU
(naga, Tint) would refuse at module or pipeline creation: found by fuzzing,
these passed `检查` and `译` and then failed in the user's browser.

* A constant shift amount not below the bit width of the shifted value
  (WGSL refuses it even when the shifted value is only known at run time).
* A constant index past a fixed-size array, a vector or a matrix, and the
  index 4294967295 into a runtime-sized array (naga's "no index").
* A bare number passed to a local function whose parameter goes straight
  into a typed literal constructor, out of that type's range (the checker's
  range check sees only numbers written at the constructor).
* A fixed-size array of more than `MAX_ARRAY_BYTES` (a buffer or workgroup
  variable type).

Workgroup memory differs by target (WebGPU's default 16 KiB, Metal's 32 KiB,
CUDA's 48 KiB): `workgroup_problem` is what each writer asks when it
translates an entry.

Function bodies are read once per declaration object (a body edit reads only
the changed functions), as the stage rule's `BodyFacts` are.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from .. import ir
from ..diagnostics import LIMIT, Diagnostic
from ..layout import size_align
from ..types import TCon, TTuple, deep_resolve, matrix_parts, vector_parts
from . import registry
from .consteval import CONVERSIONS, ConstError, fit, scalar_of, written_number

#: the largest fixed-size array type (naga refuses larger ones)
MAX_ARRAY_BYTES = 1 << 30
#: builtins whose argument 1 indexes argument 0
INDEXING = frozenset("读共享数组 写共享数组 读数组 写数组 取元素".split()) | registry.of_kind("atomic")
SHIFTS = frozenset({"左移", "右移"})
#: the constant index naga keeps for "no index" and refuses in a shader
RESERVED_INDEX = 2 ** 32 - 1

_BODY_PROBLEMS: WeakKeyDictionary = WeakKeyDictionary()   # Function → [(start, end, message)]


def flagged_declarations(info, previous: dict | None, changed: list) -> dict:
    """The file's own declarations that exceed a limit, by key.  A body edit
    (`previous`: the last validation's, `changed`: the edited functions)
    patches the previous ones instead of reading every declaration again (a
    walk over 1,700 declarations cost each keystroke 1.5 ms at 17,603 lines)."""
    if previous is not None:
        edited = {k for k, _ in changed}
        flagged = {k: d for k, d in previous.items() if k not in edited}
        flagged.update((k, d) for k, d in changed if k[0] == info.module.path and _body_problems(d))
        return flagged
    return {key: decl for key, decl in info.decls.items()        # an import's problems are its own file's
            if key[0] == info.module.path and _decl_problems(decl)}


def limit_problems(info, flagged: dict) -> list[Diagnostic]:
    """Every limit the flagged declarations exceed, placed where their items now start."""
    out = []
    for key, decl in flagged.items():
        base = ir.item_start(info.modules, key)
        out += [Diagnostic(key[0], base + start, base + end, message, decl.name, code=LIMIT)
                for start, end, message in _decl_problems(decl)]
    return out


def _decl_problems(decl: ir.Decl) -> list[tuple[int, int, str]]:
    """(start, end, message) relative to the declaration's item."""
    if isinstance(decl, ir.Function) and decl.body is not None:
        return _body_problems(decl)
    if isinstance(decl, ir.Resource) and decl.inner is not None:
        message = _array_too_large(decl.inner)
        return [(0, decl.name_end, f"「{decl.name}」{message}")] if message else []
    return []


def workgroup_problem(info, entry: ir.Entry, limit: int, what: str) -> str | None:
    """Why an entry's workgroup variables do not fit a target's `limit` (bytes,
    named by `what`): each target checks its own when it translates (WebGPU's
    default 16 KiB, Metal's 32 KiB, CUDA's 48 KiB of static shared memory)."""
    used = info.workgroup.get(entry.name, [])
    total = sum((size_align(info.decls[k].inner) or (0, 0))[0] for k in used)
    if total <= limit:
        return None
    names = "、".join(f"「{k[1]}」" for k in used)
    return (f"计算入口「{entry.name}」用到的工作组变量（{names}）共 {total} 字节，超过{what}的 {limit} 字节："
            "缩小数组，或分几次处理")


def _body_problems(decl: ir.Function) -> list[tuple[int, int, str]]:
    found = _BODY_PROBLEMS.get(decl)
    if found is None:
        found = _BODY_PROBLEMS[decl] = [p for n in ir.walk(decl.body) if (p := _node_problem(n)) is not None]
    return found


def _node_problem(node: ir.Expr) -> tuple[int, int, str] | None:
    if isinstance(node, ir.Call) and node.kind == "local" and node.local is not None:
        return _literal_through_parameter(node)
    if not (isinstance(node, ir.Call) and node.kind == "builtin" and len(node.args) >= 2):
        return None
    amount = written_number(node.args[1])
    if not isinstance(amount, int):
        return None
    if node.name in SHIFTS:
        s = scalar_of(deep_resolve(node.args[0].type))
        if s is not None and s.kind in ("int", "uint") and s.bits <= 32 and amount >= s.bits:
            return (node.args[1].start, node.args[1].end,
                    f"移位量 {amount} 不小于{s.shown}的位数 {s.bits}：WGSL 拒收不小于位数的常量移位量")
    elif node.name in INDEXING:
        length = _length(node.args[0].type)
        if length is not None and not 0 <= amount < length:
            return (node.args[1].start, node.args[1].end,
                    f"下标 {amount} 超出范围：这里只有 {length} 个元素（0 至 {length - 1}）")
        if length is None and amount == RESERVED_INDEX:
            return (node.args[1].start, node.args[1].end,
                    f"下标 {amount} 不能用作常量下标：naga 把它留作“没有下标”，拒收这个着色模块")
    return None


def _literal_through_parameter(call: ir.Call) -> tuple[int, int, str] | None:
    """A bare number passed to a local function whose parameter goes straight into a typed
    literal constructor (「新无三二」于「x」): its range is checked as if written there."""
    fun = call.local
    if fun.body is None:
        return None
    for param, arg in zip(fun.params, call.args):
        value = ir.literal_value(arg)
        if not isinstance(value, (int, float)) or isinstance(arg, ir.Call):
            continue
        for n in ir.walk(fun.body):
            if (isinstance(n, ir.Call) and n.kind == "builtin" and n.name in CONVERSIONS and n.args
                    and isinstance(n.args[0], ir.LocalRef) and n.args[0].var is param):
                try:
                    fit(value, CONVERSIONS[n.name])
                except ConstError as err:
                    return (arg.start, arg.end, f"经局部函数「{fun.name}」的参数「{param.name}」传给「{n.name}」的"
                                                f"「{_shown(value)}」超出范围：{err}")
    return None


def _shown(value) -> str:
    return str(value) if len(str(value)) <= 40 else "（超过四十位的数）"


def _length(t) -> int | None:
    """How many elements a fixed-size array, a vector or a matrix has (through a
    resource or an atomic array type); None for a runtime-sized array."""
    t = deep_resolve(t)
    while isinstance(t, TCon) and t.name in ("存储缓冲", "工作组变量", "均匀缓冲") and t.args:
        t = deep_resolve(t.args[0])
    if isinstance(t, TCon) and t.name == "定长数组" and len(t.args) == 2 and isinstance(t.args[1], int):
        return t.args[1]
    if isinstance(t, TTuple):
        matrix = matrix_parts(t)
        if matrix is not None:
            return matrix[1]
        parts = vector_parts(t)
        return parts[1] if parts is not None else len(t.items)
    return None


def _array_too_large(t) -> str | None:
    found = size_align(t)
    if found is not None and found[0] > MAX_ARRAY_BYTES:
        return f"的类型占 {found[0]} 字节，超过 {MAX_ARRAY_BYTES} 字节（1 GiB）：WGSL 拒收这么大的定长数组"
    return None
