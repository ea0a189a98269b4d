"""The interpreter: one dispatch executed as one vector over all its invocations.

Every value is a NumPy array with one element per invocation of the dispatch
(or a NumPy scalar when it is the same for all), and every expression is
evaluated under an active mask: 「若」 is if-converted (each branch runs under
its part of the mask, the results are merged), a loop (a local tail-recursive
function, lowered) runs while any lane still loops, side effects touch only
active lanes.  This
is seed 004's "warp = SIMD" view widened to the whole dispatch: since all
invocations advance together, a barrier is one point for the whole group, and
subgroup operations reshape the vector into (subgroup, lane) rows.

The per-node evaluation (`_Literal`, `_Call`, … and the builtin handlers)
reads the bodies as the writers print them: lowered once by
compiler/lower/loops.py, so local functions arrive as `Inline`, `Loop`, `Next`
and `Block` and the interpreter executes what WGSL, MSL and PTX are written
from.
"""

from __future__ import annotations

import time
from functools import cached_property

import numpy as np

from .. import ir
from ..layout import SCALAR_DTYPES
from ..ir import function_key
from ..lower.loops import Lowering
from ..builtin.families import COMPARE_EXCHANGE_FIELDS
from ..builtin.io import BUILTIN_IO
from ..diagnostics import RUNTIME_FAULT, Diagnostic
from ..types import TCon, TRecord, deep_resolve, is_unit, resolve
from ..valid import registry
from . import ops, textures
from .textures import Sampler, StorageTexels, Texture
from .memory import Elements, Region, Unsupported, decode, encode

PENDING = object()     # the value of lanes that took a loop's tail call (never read)

MAX_ROUNDS = 10_000_000
#: a dispatch's time on the interpreter: a loop that still runs then is reported (one workgroup once took minutes)
MAX_SECONDS = 60.0


class Fault(Exception):
    """A fault of the program (race, divergent barrier, out of bounds, division by zero)."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class Cell:
    """A 格: one variable per invocation (an array over lanes)."""

    def __init__(self, value):
        self.value = value


class _Loop:
    def __init__(self, args: list, lanes: int):
        self.args = args
        self.again = np.zeros(lanes, bool)


def _dtype_of(t) -> np.dtype | None:
    t = resolve(t)
    if isinstance(t, TCon) and t.name == "爻":
        return np.dtype(bool)
    if isinstance(t, TCon) and t.args and (t.name, t.args[0]) in SCALAR_DTYPES:
        return np.dtype(SCALAR_DTYPES[(t.name, t.args[0])][0])
    return None


def _scalar_type(t):
    """The scalar (component) type of a scalar or vector type."""
    t = resolve(t)
    if isinstance(t, TCon):
        return t
    return resolve(t.items[0]) if hasattr(t, "items") else t


def merge(c, t, o):
    """t where c, else o (component by component; a pending side is the other)."""
    if t is PENDING:
        return o
    if o is PENDING or t is o:
        return t
    if t is None:
        return None
    if isinstance(t, tuple):
        return tuple(merge(c, a, b) for a, b in zip(t, o))
    if isinstance(t, dict):
        return {k: merge(c, t[k], o[k]) for k in t}
    if isinstance(t, (Cell, Region, Texture, StorageTexels, Sampler)):
        raise Unsupported("参照解释器不能按条件选择格或资源：直接写它的名字")
    return np.where(c, t, o)


def merge_under(c, t, o):
    """merge, keeping a uniform value uniform when every lane takes the same side."""
    if isinstance(c, np.ndarray):
        if c.all():
            return t
        if not c.any():
            return o
    return merge(c, t, o)


class Machine:
    """One dispatch of one compute entry."""

    def __init__(self, ws, modules: list[ir.Module], entry: ir.Entry, regions: dict, groups: tuple,
                 width: int, seed: int | None, lowered: Lowering, overrides: dict | None = None):
        self.ws, self.modules, self.entry = ws, modules, entry
        self.deadline = time.monotonic() + MAX_SECONDS
        self.decls = {(m.path, d.name): (m, d) for m in modules for d in m.decls}
        self.regions = regions          # (module path, name) → Region or Texture
        self.groups, self.width = groups, width
        size = entry.workgroup_size
        count = groups[0] * groups[1] * groups[2]
        n = count * size
        self.n, self.size, self.count = n, size, count
        # an invocation's number (workgroup × size + local index) is its lane in every vector
        self.wg = np.repeat(np.arange(count, dtype=np.int64), size)
        self.local = np.tile(np.arange(size, dtype=np.uint32), count)
        self.subgroups = count * -(-size // width)
        self.seed = seed
        self.barriers = {kind: np.zeros(count, np.int64) for kind in ("workgroup", "storage", "texture")}
        self._keys: dict[str, np.ndarray] = {}
        self.env: dict[int, object] = {}
        self.loops: dict[int, _Loop] = {}
        self.lowered = lowered          # the bodies as the writers print them (compiler/lower/)
        self.overrides = overrides or {}   # overridable constant's name → the value the pipeline gives it
        self.consts: dict[tuple[str, str], object] = {}
        self.where: tuple[str, ir.Decl] = (modules[-1].path, entry)
        self.sites: list[tuple[str, int, int, str]] = []
        self._site_ids: dict[tuple[int, str], int] = {}
        self._scratch: dict[int, np.ndarray] = {}

    # ------------------------------------------------------------ subgroups (made when first needed)

    @cached_property
    def sg(self) -> np.ndarray:
        return self.wg * (self.subgroups // self.count) + self.local // self.width

    @cached_property
    def lane(self) -> np.ndarray:
        return (self.local % self.width).astype(np.uint32)

    @cached_property
    def slot(self) -> np.ndarray:
        """Each invocation's place in the (subgroup, lane) rows."""
        return self.sg * self.width + self.lane

    @cached_property
    def row_start(self) -> np.ndarray:
        """Where each invocation's subgroup row starts in the (subgroup, lane) rows."""
        return self.sg * self.width

    @cached_property
    def subgroup_population(self) -> np.ndarray:
        return np.bincount(self.sg, minlength=self.subgroups)

    @cached_property
    def exists(self) -> np.ndarray:
        exists = np.zeros(self.subgroups * self.width, bool)
        exists[self.slot] = True
        return exists

    @cached_property
    def rank(self) -> np.ndarray:
        """The order atomics take effect in: subgroups in order, or permuted by the seed."""
        order = (np.arange(self.subgroups) if self.seed is None
                 else np.random.default_rng(self.seed).permutation(self.subgroups))
        return order[self.sg] * self.width + self.lane.astype(np.int64)

    # ------------------------------------------------------------ running

    def run(self) -> None:
        key = function_key(self.modules, self.entry.function)
        module, decl = self.decls[key]
        everyone = np.ones(self.n, bool)
        with np.errstate(all="ignore"):
            for p in decl.params:
                self.env[id(p)] = self._entry_input(p.type)
            self.where = (module.path, decl)
            self.eval(self.lowered.entry(self.entry, decl.body, (module.path, module.starts[decl.name])), everyone)

    def _entry_input(self, t):
        r = resolve(t)
        if isinstance(r, TRecord):
            return {name: self._entry_input(ft) for name, ft in r.fields}
        alias = t.alias
        if alias not in BUILTIN_IO:
            return None
        if alias not in ENTRY_INPUTS:
            raise Unsupported(f"计算入口的输入「{alias}」参照解释器不认识")
        return ENTRY_INPUTS[alias](self)

    def group_id(self, axis: int) -> np.ndarray:
        g = self.groups
        ids = np.arange(self.count, dtype=np.uint32) // np.uint32((1, g[0], g[0] * g[1])[axis]) % np.uint32(g[axis])
        return np.repeat(ids, self.size)

    # ------------------------------------------------------------ faults

    def site(self, node: ir.Expr) -> int:
        path, decl = self.where
        key = (id(node), path)
        if key not in self._site_ids:
            self._site_ids[key] = len(self.sites)
            base = ir.item_start(self.modules, (path, decl.name))
            self.sites.append((path, base + node.start, base + node.end, decl.name))
        return self._site_ids[key]

    def who(self, inv: int) -> str:
        wg, local = int(inv) // self.size, int(inv) % self.size
        g = self.groups
        if g[1] == 1 and g[2] == 1:
            group = str(wg)
        else:
            group = f"({wg % g[0]},{wg // g[0] % g[1]},{wg // (g[0] * g[1])})"
        return f"（工作组 {group} 局部 {local}）"

    def place(self, site: int) -> str:
        path, start, _, _ = self.sites[site]
        source = self.ws.source(path)
        if source is None:
            return ""
        pos = source.position(start)
        return f"第 {pos.line + 1} 行第 {pos.column + 1} 列"

    def fault(self, node: ir.Expr, message: str) -> Fault:
        path, start, end, name = self.sites[self.site(node)]
        return Fault(Diagnostic(path, start, end, message, name, code=RUNTIME_FAULT))

    # ------------------------------------------------------------ evaluation

    def eval(self, e: ir.Expr, mask):
        return getattr(self, "_" + type(e).__name__)(e, mask)

    def _Literal(self, e, mask):
        dtype = _dtype_of(e.type)
        if dtype is None:
            return e.value
        return dtype.type(e.value)

    def _LocalRef(self, e, mask):
        return self.env[id(e.var)]

    def _GlobalRef(self, e, mask):
        key = (e.module, e.name)
        if key in self.regions:
            return self.regions[key]
        if key not in self.consts:
            module, decl = self.decls[key]
            if not isinstance(decl, ir.Const):
                raise Unsupported(f"参照解释器不能运行用到「{e.name}」的程序")
            saved, self.where = self.where, (module.path, decl)
            default = ir.override_default(decl)
            if default is not None and e.name in self.overrides:
                self.consts[key] = np.asarray(self.overrides[e.name], _dtype_of(decl.type))[()]
            else:
                self.consts[key] = self.eval(self._lowered(module, decl, decl.value if default is None else default),
                                             np.ones(self.n, bool))
            self.where = saved
        return self.consts[key]

    def _BuiltinValue(self, e, mask):
        if e.name in ("阳", "阴"):
            return np.bool_(e.name == "阳")
        return None

    def _Project(self, e, mask):
        base = self.eval(e.base, mask)
        if isinstance(base, Region):             # 「缓冲」中「字段」: the field's own region
            return base.field(e.field)
        if e.components is not None:
            return tuple(base[i] for i in e.components)
        return base[e.field] if e.field is not None else base[e.index]

    def _Splat(self, e, mask):
        return (self.eval(e.value, mask),) * len(resolve(e.type).items)

    def _MakeTuple(self, e, mask):
        return tuple(self.eval(x, mask) for x in e.items)

    def _MakeRecord(self, e, mask):
        return {name: self.eval(x, mask) for name, x in e.fields}

    def _If(self, e, mask):
        cond = self.eval(e.cond, mask)
        unit = e.otherwise is None or is_unit(e.type)
        if not isinstance(cond, np.ndarray):
            branch = e.then if cond else e.otherwise
            return None if branch is None else self._unit_or(unit, self.eval(branch, mask))
        then_mask = mask & cond
        else_mask = mask & ~cond
        then = self.eval(e.then, then_mask) if then_mask.any() else PENDING
        otherwise = self.eval(e.otherwise, else_mask) if e.otherwise is not None and else_mask.any() else PENDING
        if unit:
            return None
        if otherwise is PENDING or then is PENDING:
            return then if otherwise is PENDING else otherwise
        return merge(cond, then, otherwise)

    @staticmethod
    def _unit_or(unit: bool, value):
        return None if unit else value

    def _Let(self, e, mask):
        self.env[id(e.var)] = self.eval(e.value, mask)
        return self.eval(e.body, mask)

    def _Block(self, e, mask):
        return self.eval(e.body, mask)

    def _Seq(self, e, mask):
        value = None
        for item in e.items:
            value = self.eval(item, mask)
        return value

    def _Call(self, e, mask):
        if e.kind == "function":
            return self._call_function(e, mask)
        handler = BUILTINS.get(e.name)
        if handler is not None:
            return handler(self, e, mask)
        if e.name in ops.PURE:
            args = [self.eval(a, mask) for a in e.args]
            if e.name in ops.DIVISIONS and ops.is_int(_first(args[0])):
                self._check_divisor(e, args[1], mask)
            return ops.PURE[e.name](*args)
        raise Unsupported(f"参照解释器不运行内建「{e.name}」：{UNAVAILABLE.get(e.name, '还没有实现')}")

    # ------------------------------------------------------------ calls and loops

    def _call_function(self, e, mask):
        module, decl = self.decls[(e.module, e.name)]
        args = [self.eval(a, mask) for a in e.args]
        for p, a in zip(decl.params, args):
            self.env[id(p)] = a
        saved, self.where = self.where, (module.path, decl)
        try:
            return self.eval(self._lowered(module, decl, decl.body), mask)
        finally:
            self.where = saved

    def _lowered(self, module: ir.Module, decl: ir.Decl, body: ir.Expr) -> ir.Expr:
        """A body as the writers print it, with its uniform loads (they need the item's start)."""
        return self.lowered.body(body, (module.path, module.starts[decl.name]))

    def _UniformLoad(self, e: ir.UniformLoad, mask):
        """A workgroup read proved uniform: read, then the barrier every target waits at after it."""
        value = self.eval(e.load, mask)
        self.wait(e, mask, "workgroup", "「工作组屏障」（一致的工作组读取之后）")
        return value

    def _ZeroWorkgroup(self, e: ir.ZeroWorkgroup, mask):
        """Workgroup memory starts zeroed here (workgroup_region); the barrier
        after the clearing is one every target waits at."""
        self.wait(e, mask, "workgroup", "「工作组屏障」（清零工作组变量之后）")

    def wait(self, e, mask, kind: str, what: str) -> None:
        """A barrier of `kind`, which the whole workgroup must reach together."""
        active = self.uniform_in(e, mask, self.wg, np.full(self.count, self.size), what, "工作组")
        self.barriers[kind][active > 0] += 1
        self._keys.pop(kind, None)

    def _Inline(self, e: ir.Inline, mask):
        for p, a in zip(e.fun.params, [self.eval(a, mask) for a in e.args]):
            self.env[id(p)] = a
        return self.eval(e.body, mask)

    def _Next(self, e: ir.Next, mask):
        """The loop's next round for the lanes of `mask`: their new loop variables are kept."""
        args = [self.eval(a, mask) for a in e.args]
        loop = self.loops[id(e.fun)]
        loop.args = [merge_under(mask, new, old) for new, old in zip(args, loop.args)]
        loop.again |= mask
        return PENDING

    def _Loop(self, e: ir.Loop, mask):
        """Rounds while any lane still loops; each lane's result is its last round's value."""
        fun, args = e.fun, [self.eval(a, mask) for a in e.args]
        active, result = mask, PENDING
        for _ in range(MAX_ROUNDS):
            for p, a in zip(fun.params, args):
                self.env[id(p)] = a
            loop = self.loops[id(fun)] = _Loop(list(args), self.n)
            try:
                value = self.eval(e.body, active)
            finally:
                del self.loops[id(fun)]
            result = merge_under(active & ~loop.again, value, result)
            active, args = loop.again, loop.args
            if not active.any():
                return None if is_unit(fun.result) else result
            if time.monotonic() > self.deadline:
                raise self.fault(e.body, f"局部循环「{fun.name}」运行了 {MAX_SECONDS:g} 秒还没有结束"
                                         "（参照解释器一次派发的时间上限）")
        raise self.fault(e.body, f"局部循环「{fun.name}」转了 {MAX_ROUNDS} 轮还没有结束")

    # ------------------------------------------------------------ checks

    def _check_divisor(self, e, divisor, mask) -> None:
        zero = ops.lift(lambda d: np.asarray(d) == 0)(divisor)
        bad = np.zeros(self.n, bool)
        for z in (zero if isinstance(zero, tuple) else (zero,)):
            bad |= mask & z
        if bad.any():
            inv = int(np.flatnonzero(bad)[0])
            raise self.fault(e, f"整数{'除以' if e.name == '除' else '对'}零{'' if e.name == '除' else '取余'}：调用{self.who(inv)}"
                                f"的除数是 0（WGSL 得{'被除数' if e.name == '除' else ' 0'}，这多半是错误）")

    def uniform_in(self, e, mask, groups: np.ndarray, population: np.ndarray, what: str, unit: str) -> np.ndarray:
        """Every group of lanes (workgroup or subgroup) is wholly in or wholly out of the mask;
        returns how many lanes of each are in."""
        if mask.all():
            return population
        active = np.bincount(groups[mask], minlength=len(population))
        partial = np.flatnonzero((active > 0) & (active < population))
        if len(partial):
            g = partial[0]
            members = np.flatnonzero(groups == g)
            inside = members[mask[members]][0]
            outside = members[~mask[members]][0]
            raise self.fault(e, f"{what}只被{unit}的一部分调用执行到：调用{self.who(inside)}到了，"
                                f"调用{self.who(outside)}没有到（须在一致控制流里）")
        return active

    def epoch(self, region: Region, lanes: np.ndarray) -> np.ndarray:
        """The epoch key of each lane's access (kept for every invocation until the next barrier)."""
        kind = "workgroup" if region.kind == "workgroup" else "storage"
        keys = self._keys.get(kind)
        if keys is None:
            keys = self._keys[kind] = (self.wg << 32) | self.barriers[kind][self.wg]
        return keys if len(lanes) == self.n else keys[lanes]

    def element(self, e, region: Region, index, mask) -> tuple[np.ndarray, np.ndarray]:
        """(active lanes, flat element numbers) of an access to region[index], bounds checked."""
        lanes = np.flatnonzero(mask)
        idx = (index if len(lanes) == self.n else index[lanes]).astype(np.int64) if np.ndim(index) else \
            np.full(len(lanes), int(index), np.int64)
        if len(idx) and idx.max() >= region.count:
            k = int(np.flatnonzero(idx >= region.count)[0])
            raise self.fault(e, f"越界：调用{self.who(lanes[k])}访问「{region.name}」的第 {idx[k]} 个元素，"
                                f"它只有 {region.count} 个（WGSL 会悄悄夹紧或丢弃）")
        if region.per_group:
            idx = idx + self.wg[lanes] * region.per_group
        return lanes, idx

    def _conflict(self, record, elems, lanes, keys):
        """Which accesses clash with the recorded one: another invocation, no barrier between."""
        other = record.inv[elems]
        clash = (other >= 0) & (other != lanes)           # lanes are invocation numbers
        suspects = np.flatnonzero(clash)
        if len(suspects):
            their, mine = record.key[elems[suspects]], keys[suspects]
            separated = ((their >> 32) == (mine >> 32)) & (their != mine)
            clash[suspects[separated]] = False
        return clash

    def other_epoch(self, region: Region, lanes: np.ndarray) -> np.ndarray:
        """How many barriers of the kind that does not order `region` each lane's workgroup has passed."""
        return self.barriers["storage" if region.kind == "workgroup" else "workgroup"][self.wg[lanes]]

    def _race(self, e, region, elems, lanes, k, record, mine: str, theirs: str) -> Fault:
        element = elems[k] - (self.wg[lanes[k]] * region.per_group if region.per_group else 0)
        other = int(record.inv[elems[k]])
        needed, wrong = ("工作组屏障", "存储屏障") if region.kind == "workgroup" else ("存储屏障", "工作组屏障")
        between = "两者之间没有屏障"
        if self.wg[other] != self.wg[lanes[k]]:
            between = "两者在不同的工作组里，没有屏障能排序它们"
        elif int(record.other[elems[k]]) != int(self.other_epoch(region, lanes[k:k + 1])[0]):
            what = "工作组变量" if region.kind == "workgroup" else "存储缓冲"
            between = f"两者之间只有「{wrong}」，它不排序{what}的读写：要用「{needed}」"
        return self.fault(e, f"数据竞争：「{region.name}」的第 {element} 个元素被调用{self.who(other)}{theirs}"
                             f"（{self.place(int(record.site[elems[k]]))}），又被调用{self.who(lanes[k])}{mine}，"
                             f"{between}")

    def note_read(self, e, region: Region, lanes, elems, atomic: bool = False) -> None:
        if region.kind == "uniform" or region.kind == "read":
            return
        keys = self.epoch(region, lanes)
        clash = self._conflict(region.write, elems, lanes, keys)
        if atomic:
            clash &= ~region.atomic[elems]
        if clash.any():
            k = int(np.flatnonzero(clash)[0])
            raise self._race(e, region, elems, lanes, k, region.write, "读", "原子写" if region.atomic[elems[k]]
                             else "写")
        if atomic:
            return
        first, second = region.reads
        previous = first.inv[elems]
        moved = np.flatnonzero((previous >= 0) & (previous != lanes))   # another reader: keep it as the second
        if len(moved):
            kept = elems[moved]
            second.inv[kept], second.key[kept], second.site[kept] = previous[moved], first.key[kept], first.site[kept]
            second.other[kept] = first.other[kept]
        first.inv[elems], first.key[elems], first.site[elems] = lanes, keys, self.site(e)
        first.other[elems] = self.other_epoch(region, lanes)

    def note_write(self, e, region: Region, lanes, elems, atomic: bool = False) -> None:
        keys = self.epoch(region, lanes)
        if not atomic:
            self._same_element(e, region, lanes, elems)
        clash = self._conflict(region.write, elems, lanes, keys)
        if atomic:
            clash &= ~region.atomic[elems]
        if clash.any():
            k = int(np.flatnonzero(clash)[0])
            raise self._race(e, region, elems, lanes, k, region.write, "原子写" if atomic else "写",
                             "原子写" if region.atomic[elems[k]] else "写")
        for record in region.reads:
            clash = self._conflict(record, elems, lanes, keys)
            if clash.any():
                k = int(np.flatnonzero(clash)[0])
                raise self._race(e, region, elems, lanes, k, record, "原子写" if atomic else "写", "读")
        w = region.write
        w.inv[elems], w.key[elems], w.site[elems] = lanes, keys, self.site(e)
        w.other[elems] = self.other_epoch(region, lanes)
        region.atomic[elems] = atomic

    def _same_element(self, e, region, lanes, elems) -> None:
        """Two lanes of one store writing one element is a race too."""
        if len(elems) < 2 or (elems[1:] > elems[:-1]).all():       # increasing: all different
            return
        scratch = self._scratch.get(region.elements)
        if scratch is None:
            scratch = self._scratch[region.elements] = np.empty(region.elements, np.int64)
        order = np.arange(len(elems))
        scratch[elems[::-1]] = order[::-1]           # the first lane writing each element
        dup = scratch[elems] != order
        if dup.any():
            k = int(np.flatnonzero(dup)[0])
            j = int(scratch[elems[k]])
            element = elems[k] - (self.wg[lanes[k]] * region.per_group if region.per_group else 0)
            raise self.fault(e, f"数据竞争：「{region.name}」的第 {element} 个元素同时被调用{self.who(lanes[k])}"
                                f"与调用{self.who(lanes[j])}写，两者之间没有屏障")


def _first(x):
    while isinstance(x, tuple):
        x = x[0]
    return x


def _lanes_value(value, lanes):
    """The value of the given lanes (a uniform value stays as it is)."""
    if isinstance(value, tuple):
        return tuple(_lanes_value(v, lanes) for v in value)
    if isinstance(value, dict):
        return {k: _lanes_value(v, lanes) for k, v in value.items()}
    return value[lanes] if isinstance(value, np.ndarray) else value


def _scatter(value, lanes, n: int):
    """A value over the given lanes spread back over all n lanes (the others zero)."""
    if isinstance(value, tuple):
        return tuple(_scatter(v, lanes, n) for v in value)
    if isinstance(value, dict):
        return {k: _scatter(v, lanes, n) for k, v in value.items()}
    out = np.zeros(n, value.dtype)
    out[lanes] = value
    return out


# ---------------------------------------------------------------- builtins with effects or types

def _load(m: Machine, e, region: Region, index, mask):
    if np.ndim(index) == 0 and region.kind in ("uniform", "read") and int(index) < region.count:
        return decode(region.views, region.codec, int(index) * region.stride)    # the same for every lane
    lanes, elems = m.element(e, region, index, mask)
    m.note_read(e, region, lanes, elems)
    got = decode(region.views, region.codec, Elements(elems, region.stride))
    return got if len(lanes) == m.n else _scatter(got, lanes, m.n)


def _store(m: Machine, e, region: Region, index, value, mask) -> None:
    lanes, elems = m.element(e, region, index, mask)
    m.note_write(e, region, lanes, elems)
    encode(region.views, region.codec, Elements(elems, region.stride), _lanes_value(_broadcast(value, m.n), lanes))


def _broadcast(value, n: int):
    if isinstance(value, tuple):
        return tuple(_broadcast(v, n) for v in value)
    if isinstance(value, dict):
        return {k: _broadcast(v, n) for k, v in value.items()}
    return np.broadcast_to(value, (n,))


def _read_array(m, e, mask):
    region, index = m.eval(e.args[0], mask), m.eval(e.args[1], mask)
    return _load(m, e, region, index, mask)


def _write_array(m, e, mask):
    region, index, value = (m.eval(a, mask) for a in e.args)
    _store(m, e, region, index, value, mask)


def _read_whole(m, e, mask):
    return _load(m, e, m.eval(e.args[0], mask), np.uint32(0), mask)


def _write_whole(m, e, mask):
    region, value = (m.eval(a, mask) for a in e.args)
    _store(m, e, region, np.uint32(0), value, mask)


def _array_length(m, e, mask):
    return np.uint32(m.eval(e.args[0], mask).count)


def _atomic(update):
    """An atomic read-modify-write (or load, or store) of every active lane, one
    after another in the invocations' order of execution (`m.rank`)."""
    def run(m: Machine, e, mask):
        region, index, *rest = (m.eval(a, mask) for a in e.args)
        lanes, elems = m.element(e, region, index, mask)
        view = region.views(region.codec.dtype)
        words = (elems * region.stride + region.offset) // region.codec.dtype.itemsize
        if update is None:
            m.note_read(e, region, lanes, elems, atomic=True)
            return _scatter(view[words], lanes, m.n)
        m.note_write(e, region, lanes, elems, atomic=True)
        operands = [np.broadcast_to(x, (m.n,))[lanes] for x in rest]
        order = np.lexsort((m.rank[lanes], words))
        if update == "compare":
            old, exchanged = _compare_exchange(view, words[order], *(x[order] for x in operands))
            return {COMPARE_EXCHANGE_FIELDS[0]: _scatter(_unsorted(old, order), lanes, m.n),
                    COMPARE_EXCHANGE_FIELDS[1]: _scatter(_unsorted(exchanged, order), lanes, m.n)}
        old = _unsorted(_sequential(update, view, words[order], operands[0][order]), order)
        return None if update == "store" else _scatter(old, lanes, m.n)
    return run


def _unsorted(values: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Values computed in the given order, put back in lane order."""
    out = np.empty_like(values)
    out[order] = values
    return out


def _compare_exchange(view: np.ndarray, words: np.ndarray, compare: np.ndarray, values: np.ndarray):
    """atomicCompareExchangeWeak one after another (sorted by word): each sees
    what the ones before it left, and replaces it exactly when it equals the
    compared value (the weak form's spurious failure never happens here)."""
    old = np.empty(len(words), view.dtype)
    exchanged = np.zeros(len(words), bool)
    for k, word in enumerate(words.tolist()):
        old[k] = view[word]
        if old[k] == compare[k]:
            view[word] = values[k]
            exchanged[k] = True
    return old, exchanged


def _sequential(update: str, view: np.ndarray, words: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Atomic updates applied one after another in the given order (sorted by
    word): the value each one saw, and memory left as the last one left it."""
    starts = np.r_[True, words[1:] != words[:-1]]
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    last = np.r_[first[1:], len(words)] - 1
    base = view[words]
    if update == "store":
        view[words[last]] = values[last]
        return base
    if update == "sub":             # adding the negation, modulo 2³²
        update, values = "add", (-(values.astype(np.int64)) & 0xFFFFFFFF).astype(np.uint32).view(view.dtype)
    if update == "add":
        wide = values.astype(np.int64) & 0xFFFFFFFF
        before = np.cumsum(wide) - wide
        within = before - before[first][group]
        seen = ((base.astype(np.int64) + within) & 0xFFFFFFFF).astype(np.uint32).view(view.dtype)
        view[words[last]] = ops.PURE["加"](seen[last], values[last])
        return seen
    if update in BITWISE_SCANS:
        bits, start = values.astype(view.dtype).view(np.uint32), base.view(np.uint32)
        seen = BITWISE_SCANS[update](bits, start, starts, group, first).view(view.dtype)
        view[words[last]] = BITWISE_FINAL[update](seen[last], values[last])
        return seen
    shift = 2 ** 31 if view.dtype.kind == "i" else 0
    biased = values.astype(np.int64) + shift               # 0 … 2³² − 1, order kept
    if update == "min":
        biased = (2 ** 32 - 1) - biased                    # the minimum is the maximum of these
    key = group.astype(np.int64) << 33
    inclusive = np.maximum.accumulate(key + biased) - key
    before = np.where(starts, -1, np.r_[-1, inclusive[:-1]])
    stored = base.astype(np.int64) + shift
    if update == "min":
        stored = (2 ** 32 - 1) - stored
    seen_biased = np.maximum(before, stored)
    if update == "min":
        seen_biased = (2 ** 32 - 1) - seen_biased
    seen = (seen_biased - shift).astype(view.dtype)
    pick = np.maximum if update == "max" else np.minimum
    view[words[last]] = pick(seen[last], values[last])
    return seen


def _or_before(bits, base, starts, group, first):
    """base | every earlier value of the same word, bit by bit: a bit is set once
    the word's stored value or any earlier value had it."""
    seen = base.copy()
    for b in range(32):
        have = ((bits >> np.uint32(b)) & np.uint32(1)).astype(np.int64)
        before = np.cumsum(have) - have
        earlier = before - before[first][group]
        seen |= (earlier > 0).astype(np.uint32) << np.uint32(b)
    return seen


def _and_before(bits, base, starts, group, first):
    """base & every earlier value: the complement of 「or」 over the complements."""
    return ~_or_before(~bits, ~base, starts, group, first)


def _xor_before(bits, base, starts, group, first):
    """base ^ every earlier value: xor undoes itself, so the running xor of all
    values is cut at each word's first value by xoring that prefix away."""
    before = np.bitwise_xor.accumulate(bits) ^ bits
    return base ^ before ^ before[first][group]


def _exchanged_before(bits, base, starts, group, first):
    """What an exchange sees: the word's stored value for the first, then the value before it."""
    return np.where(starts, base, np.r_[bits[:1], bits[:-1]])


#: read-modify-writes computed as scans over each word's updates (what each saw) …
BITWISE_SCANS = {"and": _and_before, "or": _or_before, "xor": _xor_before, "exchange": _exchanged_before}
#: … and what the last one of each word leaves
BITWISE_FINAL = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor, "exchange": lambda seen, v: v}


def _new_cell(m, e, mask):
    return Cell(m.eval(e.args[0], mask))


def _read_cell(m, e, mask):
    return m.eval(e.args[0], mask).value


def _write_cell(m, e, mask):
    cell, value = (m.eval(a, mask) for a in e.args)
    cell.value = merge(mask, value, cell.value)


def _logical(is_and: bool):
    def run(m: Machine, e, mask):
        a = m.eval(e.args[0], mask)
        rest = mask & a if is_and else mask & ~a
        if not np.any(rest):
            return a
        b = m.eval(e.args[1], rest)
        return (a & b) if is_and else (a | b)
    return run


def _constructor(m, e, mask):
    dtype = _dtype_of(e.type)
    value = ir.literal_value(e.args[0])
    if value is not None:
        return dtype.type(value)
    return ops.convert(m.eval(e.args[0], mask), dtype)


#: an abstract number converted to at run time is what WGSL makes of it (i32, f32)
RUNTIME_ABSTRACT = {"整数": np.dtype(np.int32), "小数": np.dtype(np.float32)}


def _convert(m, e, mask):
    target = _scalar_type(e.type)
    dtype = _dtype_of(target) or RUNTIME_ABSTRACT.get(getattr(target, "name", None))
    return ops.lift(lambda x: ops.convert(x, dtype))(m.eval(e.args[0], mask))


def _bitcast(m, e, mask):
    value = m.eval(e.args[0], mask)
    target = deep_resolve(e.type)
    if isinstance(target, TCon):
        dtype = _dtype_of(target)
        if isinstance(value, tuple):              # two halves make one word
            pair = np.stack(np.broadcast_arrays(*value), -1)
            return pair.view(dtype)[..., 0] if pair.ndim > 1 else pair.view(dtype)[0]
        return ops.bitcast(value, dtype)
    dtypes = [_dtype_of(t) for t in target.items]
    if not isinstance(value, tuple):              # one word makes two halves
        halves = np.asarray(value)[..., None].view(dtypes[0])
        return tuple(halves[..., k] for k in range(len(dtypes)))
    return tuple(ops.bitcast(v, d) for v, d in zip(value, dtypes))


def _select(m, e, mask):
    no, yes, cond = (m.eval(a, mask) for a in e.args)
    if isinstance(cond, tuple):
        return ops.lift(lambda c, y, n: np.where(c, y, n))(cond, yes, no)
    return merge(cond, yes, no) if isinstance(cond, np.ndarray) else (yes if cond else no)


def _component(m, e, mask):
    value, index = (m.eval(a, mask) for a in e.args)
    bad = mask & (np.asarray(index) >= len(value))
    if np.any(bad):
        inv = int(np.flatnonzero(np.broadcast_to(bad, (m.n,)))[0])
        raise m.fault(e, f"越界：调用{m.who(inv)}取第 {int(np.broadcast_to(index, (m.n,))[inv])} 个分量，"
                         f"只有 {len(value)} 个（WGSL 会悄悄夹紧）")
    choice = np.minimum(np.asarray(index, np.int64), len(value) - 1)
    if not isinstance(choice, np.ndarray) or choice.ndim == 0:
        return value[int(choice)]

    def pick(*parts):
        out = parts[0]
        for k, part in enumerate(parts[1:], 1):
            out = np.where(choice == k, part, out)
        return out
    return ops.lift(pick)(*value)


def _replace(m, e, mask):
    """换元素: a new tuple with the chosen item replaced (per invocation); past the end is a fault."""
    value, index, item = (m.eval(a, mask) for a in e.args)
    bad = mask & (np.asarray(index) >= len(value))
    if np.any(bad):
        inv = int(np.flatnonzero(np.broadcast_to(bad, (m.n,)))[0])
        raise m.fault(e, f"越界：调用{m.who(inv)}换第 {int(np.broadcast_to(index, (m.n,))[inv])} 个元素，"
                         f"只有 {len(value)} 个（WGSL 的结果不确定）")
    if np.ndim(index) == 0:
        return tuple(item if k == int(index) else old for k, old in enumerate(value))
    return tuple(ops.lift(lambda old, new, k=k: np.where(index == k, new, old))(old, item)
                 for k, old in enumerate(value))


def _barrier(kind: str):
    def run(m: Machine, e, mask):
        m.wait(e, mask, kind, f"「{e.name}」")
    return run


_IDENTITY = {"sum": (0, 0), "max": (-np.inf, None), "min": (np.inf, None)}


def _subgroup_rows(m: Machine, value, identity):
    if m.size % m.width == 0:                       # full subgroups: the lanes are the rows already
        return np.broadcast_to(value, (m.n,)).reshape(m.subgroups, m.width)
    rows = np.full(m.subgroups * m.width, identity, value.dtype)
    rows[m.slot] = np.broadcast_to(value, (m.n,))
    return rows.reshape(m.subgroups, m.width)


#: a subgroup combination → its ufunc
_COMBINE = {"sum": np.add, "product": np.multiply, "max": np.maximum, "min": np.minimum,
            "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def _identity(kind: str, dtype):
    """What a missing lane (the tail of a partial subgroup) contributes: nothing —
    for a float sum −0.0, since −0.0 + x = x for every x (+0.0 would turn a sum of
    −0.0 into +0.0, which the PTX back end, leaving the lane out, does not)."""
    if kind == "sum" and dtype.kind == "f":
        return dtype.type(-0.0)
    if kind in ("sum", "or", "xor"):
        return dtype.type(0)
    if kind == "product":
        return dtype.type(1)
    if kind == "and":
        return ~dtype.type(0)
    if dtype.kind == "f":
        return dtype.type(-np.inf if kind == "max" else np.inf)
    info = np.iinfo(dtype)
    return dtype.type(info.min if kind == "max" else info.max)


def _subgroup_reduce(kind: str):
    def one(m: Machine, value):
        dtype = np.asarray(value).dtype
        identity = _identity(kind, dtype)     # also where NumPy starts: its float sums start from +0.0
        rows = _subgroup_rows(m, np.asarray(value), identity)
        return _COMBINE[kind].reduce(rows, axis=1, dtype=dtype, initial=identity)[m.sg]

    def run(m: Machine, e, mask):
        value = m.eval(e.args[0], mask)
        _subgroup_uniform(m, e, mask)
        return ops.lift(lambda v: one(m, v))(value)
    return run


def _subgroup_scan(kind: str, exclusive: bool):
    """Inclusive (or exclusive) prefix combination along each subgroup's lanes."""
    def one(m: Machine, value):
        dtype = np.asarray(value).dtype
        identity = _identity(kind, dtype)
        rows = _subgroup_rows(m, np.asarray(value), identity)
        scanned = _COMBINE[kind].accumulate(rows, axis=1, dtype=dtype)
        if exclusive:      # the first lane's exclusive sum is 0 (WGSL), +0.0 for floats
            first = dtype.type(0) if kind == "sum" else identity
            scanned = np.concatenate([np.full((len(rows), 1), first, dtype), scanned[:, :-1]], axis=1)
        return scanned[m.sg, m.lane]

    def run(m: Machine, e, mask):
        value = m.eval(e.args[0], mask)
        _subgroup_uniform(m, e, mask)
        return ops.lift(lambda v: one(m, v))(value)
    return run


def _shifted_shuffle(up: bool):
    """子组上移洗牌 / 子组下移洗牌: a source outside the subgroup gives the
    invocation its own value (as Metal and PTX do; WGSL leaves it undefined)."""
    def run(m: Machine, e, mask):
        value, delta = (m.eval(a, mask) for a in e.args)
        _subgroup_uniform(m, e, mask)
        lane = m.lane.astype(np.int64)
        source = lane - np.int64(delta) if up else lane + np.int64(delta)
        inside = (source >= 0) & (source < m.width)
        slot = m.row_start + np.where(inside, source, lane).astype(np.uint32)
        if m.size % m.width:
            inside &= m.exists[slot]
            slot = np.where(inside, slot, m.row_start + m.lane)
        return ops.lift(lambda v: _subgroup_rows(m, np.asarray(v), np.asarray(v).dtype.type(0)).ravel()[slot])(value)
    return run


def _broadcast_first(m: Machine, e, mask):
    """Lane 0 is the first active invocation: in uniform control flow every lane of a subgroup runs."""
    value = m.eval(e.args[0], mask)
    _subgroup_uniform(m, e, mask)
    return ops.lift(lambda v: _subgroup_rows(m, np.asarray(v), np.asarray(v).dtype.type(0))[m.sg, 0])(value)


def _elect(m: Machine, e, mask):
    _subgroup_uniform(m, e, mask)
    return m.lane == 0


def _vote(kind: str):
    def run(m: Machine, e, mask):
        condition = m.eval(e.args[0], mask)
        _subgroup_uniform(m, e, mask)
        rows = _subgroup_rows(m, np.asarray(condition, bool), kind == "all")
        if kind == "ballot":
            padded = np.zeros((len(rows), 128), np.uint64)
            padded[:, :m.width] = rows
            words = (padded.reshape(-1, 4, 32) << np.arange(32, dtype=np.uint64)).sum(-1).astype(np.uint32)
            return tuple(words[m.sg, k] for k in range(4))
        return (rows.all(1) if kind == "all" else rows.any(1))[m.sg]
    return run


def _subgroup_uniform(m: Machine, e, mask) -> None:
    m.uniform_in(e, mask, m.sg, m.subgroup_population, f"子组运算「{e.name}」", "子组")


def _shuffle(xor: bool):
    def run(m: Machine, e, mask):
        value, lane = (m.eval(a, mask) for a in e.args)
        _subgroup_uniform(m, e, mask)
        source = (m.lane ^ lane) if xor else np.broadcast_to(np.asarray(lane, np.uint32), (m.n,))
        return _from_lanes(m, e, mask, value, source)
    return run


def _from_lanes(m: Machine, e, mask, value, source):
    """Each invocation's value of the lane `source` of its subgroup; a lane that does not exist is a fault."""
    slot = m.row_start + np.minimum(source, np.uint32(m.width - 1))
    bad = mask & (source >= m.width)
    if m.size % m.width:
        bad |= mask & ~m.exists[slot]
    if bad.any():
        inv = int(np.flatnonzero(bad)[0])
        raise m.fault(e, f"「{e.name}」的源调用不存在：调用{m.who(inv)}要子组里第 {int(source[inv])} 号调用的值，"
                         f"子组宽 {m.width}（结果不确定）")
    return ops.lift(lambda v: _subgroup_rows(m, np.asarray(v), np.asarray(v).dtype.type(0)).ravel()[slot])(value)


def _quad(swap: int | None):
    """A quad is 4 lanes whose index divided by 4 is the same: swaps xor the lane, broadcast takes lane 序 of it."""
    def run(m: Machine, e, mask):
        value = m.eval(e.args[0], mask)
        lane = None if swap is not None else m.eval(e.args[1], mask)
        _subgroup_uniform(m, e, mask)
        source = m.lane ^ np.uint32(swap) if swap is not None else (m.lane & ~np.uint32(3)) | np.uint32(lane)
        return _from_lanes(m, e, mask, value, source)
    return run


def _local_id(m: Machine):
    """(x, y, z) within the workgroup; the local index runs x fastest."""
    sx, sy, _ = m.entry.workgroup_shape
    return (m.local % np.uint32(sx), m.local // np.uint32(sx) % np.uint32(sy), m.local // np.uint32(sx * sy))


def _global_id(m: Machine):
    return tuple(m.group_id(k) * np.uint32(s) + local
                 for k, (s, local) in enumerate(zip(m.entry.workgroup_shape, _local_id(m))))


#: a compute entry's builtin inputs, by the alias their parameter (or field) is written with
ENTRY_INPUTS = {
    "全局调用号": _global_id,
    "局部调用号": _local_id,
    "局部调用序": lambda m: m.local,
    "工作组号": lambda m: tuple(m.group_id(k) for k in range(3)),
    "工作组数": lambda m: tuple(np.uint32(c) for c in m.groups),
    "子组调用序": lambda m: m.lane,
    "子组大小": lambda m: np.uint32(m.width),
    "子组数": lambda m: np.uint32(m.subgroups // m.count),
    "子组号": lambda m: (m.local // np.uint32(m.width)).astype(np.uint32),
}

def _unavailable() -> dict[str, str]:
    """Why the interpreter runs no call of these builtins (tests/test_registry.py: every builtin is run or here)."""
    out = {name: "子组矩阵片与张量片由目标的矩阵单元整块计算，解释器（与 WGSL 一样）不运行它们"
           for name in registry.of_kind("matrix", "matrix-memory", "tensor")}
    out.update({name: "只有片元入口能用，解释器只运行计算入口"
                for name in registry.TABLE if registry.stages(name) == frozenset({registry.FRAGMENT})})
    out.update({name: "资源与入口的构造只写在顶层声明里，不在函数体里调用"
                for name in registry.of_kind("resource", "entry")})
    out.update({name: "可覆盖常量的值在读它的地方取（_GlobalRef：给定的值或默认值），不作为调用运行"
                for name in registry.of_kind("override")})
    return out


UNAVAILABLE = _unavailable()

BUILTINS = {
    "读数组": _read_array, "读共享数组": _read_array, "写数组": _write_array, "写共享数组": _write_array,
    "读共享": _read_whole, "读存储": _read_whole, "读均匀": _read_whole,
    "写共享": _write_whole, "写存储": _write_whole, "数组长度": _array_length,
    "原子加": _atomic("add"), "原子减": _atomic("sub"), "原子最大": _atomic("max"), "原子最小": _atomic("min"),
    "原子与": _atomic("and"), "原子或": _atomic("or"), "原子异或": _atomic("xor"),
    "原子交换": _atomic("exchange"), "原子比较交换": _atomic("compare"),
    "原子存": _atomic("store"), "原子读": _atomic(None),
    "新格": _new_cell, "读格": _read_cell, "写格": _write_cell,
    "且": _logical(True), "或": _logical(False),
    "换元素": _replace,
    "新浮三二": _constructor, "新浮十六": _constructor, "新整三二": _constructor, "新无三二": _constructor,
    "转换": _convert, "位转换": _bitcast, "选择": _select, "取元素": _component,
    "工作组屏障": _barrier("workgroup"), "存储屏障": _barrier("storage"), "纹理屏障": _barrier("texture"),
    "子组求和": _subgroup_reduce("sum"), "子组最大": _subgroup_reduce("max"), "子组最小": _subgroup_reduce("min"),
    "子组广播": _shuffle(False), "子组洗牌": _shuffle(False), "子组异或洗牌": _shuffle(True),
    "子组求积": _subgroup_reduce("product"), "子组按位与": _subgroup_reduce("and"),
    "子组按位或": _subgroup_reduce("or"), "子组按位异或": _subgroup_reduce("xor"),
    "子组前缀和": _subgroup_scan("sum", False), "子组前缀积": _subgroup_scan("product", False),
    "子组排他前缀和": _subgroup_scan("sum", True), "子组排他前缀积": _subgroup_scan("product", True),
    "子组上移洗牌": _shifted_shuffle(True), "子组下移洗牌": _shifted_shuffle(False),
    "子组广播首个": _broadcast_first, "子组选一": _elect,
    "子组任一": _vote("any"), "子组全都": _vote("all"), "子组投票": _vote("ballot"),
    "四组广播": _quad(None), "四组横换": _quad(1), "四组纵换": _quad(2), "四组对角换": _quad(3),
    "读纹素": textures.load(), "读张纹素": textures.load(verb_layer=True),
    "读样本纹素": textures.load(verb_level=False, verb_sample=True),
    "读存储纹素": textures.load(verb_level=False), "读存储张纹素": textures.load(verb_layer=True, verb_level=False),
    "写纹素": textures.store(), "写张纹素": textures.store(with_layer=True),
    "纹理尺寸": textures.size, "按层纹理尺寸": textures.size, "纹理层级数": textures.levels,
    "纹理张数": textures.layers, "纹理样本数": textures.samples,
    "按层采样纹理": textures.sample(), "按层采样张纹理": textures.sample(with_layer=True),
    "偏移按层采样纹理": textures.sample(offset=True),
    "按梯度采样纹理": textures.sample_grad(), "按梯度采样张纹理": textures.sample_grad(with_layer=True),
    "偏移按梯度采样纹理": textures.sample_grad(offset=True), "夹边采样纹理": textures.sample_clamped,
    "聚集纹素": textures.gather(), "聚集张纹素": textures.gather(with_layer=True),
    "偏移聚集纹素": textures.gather(offset=True), "聚集深度纹素": textures.gather(component=False),
    "聚集张深度纹素": textures.gather(component=False, with_layer=True),
    "比较聚集纹素": textures.gather_compare(), "比较聚集张纹素": textures.gather_compare(with_layer=True),
    "偏移比较聚集纹素": textures.gather_compare(offset=True),
    "零层比较采样": textures.sample_compare(), "零层比较采样张纹理": textures.sample_compare(with_layer=True),
    "偏移零层比较采样": textures.sample_compare(offset=True),
    "偏移按层采样张纹理": textures.sample(with_layer=True, offset=True),
    "偏移按梯度采样张纹理": textures.sample_grad(with_layer=True, offset=True),
    "偏移聚集张纹素": textures.gather(with_layer=True, offset=True),
    "偏移聚集深度纹素": textures.gather(component=False, offset=True),
    "偏移聚集张深度纹素": textures.gather(component=False, with_layer=True, offset=True),
    "偏移零层比较采样张纹理": textures.sample_compare(with_layer=True, offset=True),
    "偏移比较聚集张纹素": textures.gather_compare(with_layer=True, offset=True),
}
