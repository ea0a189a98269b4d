"""The PTX writer (seed 着十): each compute entry becomes one `.visible .entry`.

Values live in numbered registers, one per scalar component; user functions
and top-level constants are inlined where they are used, so an entry is one
straight body with labels: 若 becomes a conditional branch whose arms move
their value into shared result registers.  Bodies arrive lowered
(compiler/lower/loops.py): an inlined local function binds its parameters to
its arguments' registers, a loop's variables are registers that its next
round rewrites before jumping back to the top.  Buffers arrive
as `.param .u64` device pointers named p_g组号_b绑定号; workgroup variables
are `.shared` arrays declared in the entry.  The builtins' instructions are
in ops.py, keyed by the builtin's Chinese name.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field

from ... import ir
from ...diagnostics import TARGET_BUILTIN, TARGET_TYPE, TRANSLATION, Diagnostic
from ...types import TCon, TRecord, Type, is_unit
from .. import EntryInfo, Translation
from ..targets import DEFAULT_OPTIONS, Options
from ...lower.effects import VALUE_NODES, builtin_facts
from ...lower.loops import lowering
from ...lower.types import concrete
from ..names import target_name
from .layout import array_place, field_offsets, layout_of, memory_leaves, round_up, vector_runs
from .mangle import ENTRY_PREFIX, OVERRIDE_PREFIX, SHARED_PREFIX, mangle
from .ops import BARRIER, CONTRACTED, ENTRY_INPUTS, LOGIC, OPS, UNAVAILABLE, f32_arithmetic, literal_argument
from .subgroups import FULL_WARP
from .facts import Facts, held_in
from .loops import COUNTED_BY, LoopWriting
from .values import Value, immediate_integer, refuse_reference_value
from .scalars import (F16, F32, PRED, S32, U32, U64, Scalar, Unsupported, address_text, f32_text,
                      fits, is_immediate, is_numeric, items, leaves)

#: PTX ISA 7.0 is the lowest that has sm_80, and every instruction the writer
#: uses (redux.sync, mma m16n8k16/k32, ldmatrix, ld.relaxed) is in it: the
#: text loads on a CUDA 11.0 driver, where .version 8.0 would need CUDA 12
HEADER = ".version 7.0\n.target sm_80\n.address_size 64\n"
REGISTER_CLASSES = (PRED, F16, U32, U64)   # declared in this order: %p %h %r %rd
STAGE_WORDS = {"顶点": "vertex", "片元": "fragment"}
MAX_SHARED_BYTES = 48 * 1024    # static .shared per block that every sm_80+ device takes
MAX_PARAM_BYTES = 4352          # kernel parameter space on sm_80 (ptxas, PTX 7.0 and 8.0 alike)
#: instructions after which a value loaded from global memory may no longer be what it holds (`_unchanged`)
MEMORY_ORDER = ("st.global", "atom.", "red.", "bar.", "membar.", "fence.", "cp.", "barrier.")
_REGISTER = re.compile(r"%\w+")
#: instructions whose result depends on their operands alone (op() shares them)
PURE = frozenset({"add", "sub", "mul", "mad", "div", "rem", "and", "or", "xor", "not", "shl", "shr", "selp", "setp",
                  "min", "max", "neg", "abs", "cvt", "cvta", "mov", "fma", "sqrt", "rsqrt", "rcp", "ex2", "lg2",
                  "sin", "cos", "bfe", "bfi", "brev", "popc", "clz", "bfind", "prmt", "shf", "cnot", "copysign",
                  "testp", "dp4a", "dp2a"})
#: a workgroup variable each thread clears in at most this many stores is cleared without a loop
MAX_ZERO_ROUNDS = 8
#: what a guarded load leaves where the index is out of bounds, per register kind
ZERO = {"f32": "0f00000000", "f16": "0x0000", "u32": "0", "s32": "0", "u64": "0"}


# ---------------------------------------------------------------- values


@dataclass(frozen=True)
class Site:
    """The top-level definition whose body is being translated, for messages."""

    path: str
    decl: ir.Decl
    start: int          # where the definition's item starts in its file


@dataclass
class PtxParam:
    """One kernel parameter: a buffer's device pointer, or the element count
    of a runtime-sized array (for 「数组长度」, beyond the seed)."""

    name: str
    kind: str                 # "buffer" or "length"
    group: int
    binding: int
    resource: str | None      # None: a placeholder binding the entry does not use
    stride: int | None = None  # bytes per element, for a length parameter
    offset: int = 0            # where the array starts: after a header's fields
    read_only: bool = False    # a buffer read through ld.global.nc: nothing may write it during the dispatch

    def describe(self) -> str:
        if self.kind == "length" and self.offset:
            return f"{self.name}=「{self.resource}」的元素个数（.u32，（缓冲字节数－{self.offset}）÷{self.stride}）"
        if self.kind == "length":
            return f"{self.name}=「{self.resource}」的元素个数（.u32，缓冲字节数÷{self.stride}）"
        if self.resource is None:
            return f"{self.name}=占位（组 {self.group} 号 {self.binding} 未用）"
        return f"{self.name}=「{self.resource}」"


@dataclass
class PtxEntryInfo(EntryInfo):
    """An entry of the PTX text: its block shape (x, y, z) and its parameters in order."""

    block: tuple[int, int, int] = (1, 1, 1)
    params: list[PtxParam] = field(default_factory=list)

    def host_details(self) -> str:
        """The block the host launches with and the kernel's parameters in order (`千手 --详细`)."""
        params = "，".join(p.describe() for p in self.params) or "（无）"
        return f"块 {'×'.join(map(str, self.block))}；参数 {params}"


@dataclass(eq=False)
class FieldView(ir.Resource):
    """「缓冲」中「字段」 as a kernel sees it: the buffer's binding, the field's
    type as `inner`, `offset` bytes into the buffer (its header fields before it)."""

    offset: int = 0


def field_view(resource: ir.Resource, name: str, view_type: Type) -> FieldView:
    """The field `name` of the record `resource` holds, laid out as WGSL lays it out."""
    record = concrete(resource.inner)
    k = [n for n, _ in record.fields].index(name)
    offset = getattr(resource, "offset", 0) + field_offsets(record)[k]
    return FieldView(resource.name, kind=resource.kind, type=view_type, inner=record.fields[k][1],
                     group=resource.group, binding=resource.binding, access=resource.access, offset=offset)


@dataclass
class _BufferUse:
    """The registers a buffer's parameters are loaded into, once per entry, at its first use."""

    base: str
    length: str | None = None


def _param_bytes(params: list[PtxParam]) -> int:
    return sum(8 if p.kind == "buffer" else 4 for p in params)


# ---------------------------------------------------------------- the writer


class Writer(LoopWriting, Facts):
    """Translates one checked module's compute entries to PTX."""

    def __init__(self, info, options: Options = DEFAULT_OPTIONS) -> None:
        self.options = options
        self.info = info                     # the validation pass's (compiler/valid/): resources each entry uses
        self.module: ir.Module = info.module
        self.modules = info.modules          # from the validation pass (compiler/valid/)
        self.decls = info.decls
        self.diagnostics: list[Diagnostic] = []
        self.known = info.known
        self.lowered = lowering(info)        # bodies as printed (compiler/lower/loops.py)
        self.effects = self.lowered.effects
        self.show = info.show

    # ------------------------------------------------------------ module

    def translate(self) -> Translation:
        entries = [d for d in self.module.decls if isinstance(d, ir.Entry)]
        compute = [d for d in entries if d.stage == "计算"]
        if entries and not compute:
            first = entries[0]
            self._report(self._site(self.module.path, first), (0, first.name_end),
                         "千手目标只支持计算入口：本文件只有顶点、片元入口，没有可译成 PTX 的入口（着十）")
            return Translation(None, [], self.diagnostics)
        chunks, infos = [HEADER], []
        self.overrides: dict[str, str] = {}     # symbol → its .const declaration, for the module's head
        for entry in entries:
            if entry.stage != "计算":
                chunks.append(self._skipped(entry))
                continue
            done = self._entry(entry)
            if done is not None:
                chunks.append(done[0])
                infos.append(done[1])
        if self.diagnostics:
            return Translation(None, [], self.diagnostics)
        if self.overrides:
            chunks.insert(1, "\n".join(self.overrides.values()) + "\n")
        return Translation("\n".join(chunks), infos, [])

    def _skipped(self, entry: ir.Entry) -> str:
        name = mangle(target_name(entry.function), ENTRY_PREFIX)
        return f"// {STAGE_WORDS[entry.stage]} entry {name} skipped: the PTX target has compute entries only\n"

    def _site(self, path: str, decl: ir.Decl) -> Site:
        return Site(path, decl, ir.item_start(self.modules, (path, decl.name)))

    def _report(self, site: Site, span: tuple[int, int], message: str, code: str = TRANSLATION, **fields: str) -> None:
        start = site.start + span[0]
        self.diagnostics.append(Diagnostic(site.path, start, site.start + span[1], message, site.decl.name,
                                           code=code, fields={"目标": "PTX", **fields}))

    def _report_unsupported(self, site: Site, err: Unsupported) -> None:
        """A builtin PTX lacks or a type it cannot express gets its typed code."""
        site = getattr(err, "site", None) or site
        span = err.span or (0, site.decl.name_end)
        if err.builtin is not None:
            self._report(site, span, err.message, TARGET_BUILTIN, 内建=err.builtin)
        elif err.type is not None:
            self._report(site, span, err.message, TARGET_TYPE, 类型=self.show(err.type))
        else:
            self._report(site, span, err.message)

    def _entry_function(self, entry: ir.Entry) -> tuple[str, ir.Function]:
        key = ir.function_key(self.modules, entry.function)
        decl = self.decls.get(key)
        if not isinstance(decl, ir.Function):
            raise Unsupported(f"找不到入口函数「{entry.function}」", (0, entry.name_end))
        return key[0], decl

    def _entry(self, entry: ir.Entry) -> tuple[str, PtxEntryInfo] | None:
        self._begin()
        site = self._site(self.module.path, entry)
        try:
            path, fn = self._entry_function(entry)
            name = mangle(target_name(fn.name), ENTRY_PREFIX)   # one entry per function: valid/entries.py
            site = self._site(path, fn)
            with self._at(site):
                self.entry = entry
                env = {id(p): self._entry_input(p) for p in fn.params}
                self.value(self._lowered(fn.body, entry), env)
        except Unsupported as err:
            self._report_unsupported(site, err)
            return None
        params = self._params(entry)
        if _param_bytes(params) > MAX_PARAM_BYTES:
            self._report(site, (0, site.decl.name_end), f"入口「{entry.name}」的参数共 {_param_bytes(params)} 字节，"
                         f"超出 PTX {MAX_PARAM_BYTES} 字节的参数空间：组 0 的绑定号从 0 起每号占 8 字节（含未用的占位），"
                         "请用较小的绑定号")
            return None
        info = PtxEntryInfo(entry.name, name, "计算", entry.workgroup_shape, params)
        return self._assemble(name, info), info

    def _ZeroWorkgroup(self, e: ir.ZeroWorkgroup, env) -> Value:
        """Each thread clears every block-th word of every .shared array, then
        the block meets at a barrier."""
        symbols = [self.shared_symbol(self.decls[key]) for key in e.variables]
        total = sum(self.shared_size[s] for s in symbols)
        if total > MAX_SHARED_BYTES:
            raise Unsupported(f"工作组变量共 {total} 字节，超过千手静态共享内存的上限 {MAX_SHARED_BYTES} 字节（48 KiB）")
        block = self.entry.workgroup_size or 1
        (tid,) = ENTRY_INPUTS["局部调用序"](self)
        for symbol in symbols:
            words = self.shared_size[symbol] // 4
            if -(-words // block) <= MAX_ZERO_ROUNDS:
                self._zero_straight(symbol, words, block, tid)
                continue
            index = self.copy(U32, tid)
            top, done = self.new_labels("zero", "zeroed")
            self.label(top)
            self.emit(f"@{self.op('setp.ge.u32', PRED, index, str(words))} bra {done}")
            self.emit(f"st.shared.u32 [{self.op('mad.lo.u32', U32, index, '4', self.shared_base(symbol))}], 0")
            self.emit(f"add.u32 {index}, {index}, {block}")
            self.emit(f"bra {top}")
            self.label(done)
        self.emit(BARRIER)
        return Value(e.type, [])

    def _zero_straight(self, symbol: str, words: int, block: int, tid: str) -> None:
        """The block size is fixed (.reqntid), so each thread's share of the
        clearing — words tid, tid + block, … — is a known number of stores,
        written one after another at constant offsets; only a last, partial
        round tests the thread's number."""
        address = None
        for first in range(0, words, block):
            if words - first == 1:      # thread 0 alone: the test is the `== 0` the kernel often makes too
                where = address_text(self.shared_base(symbol), 4 * first)
                self.emit(f"@{self.op('setp.eq.u32', PRED, tid, '0')} st.shared.u32 {where}, 0")
                continue
            address = address or self.op("mad.lo.u32", U32, tid, "4", self.shared_base(symbol))
            where = address_text(address, 4 * first)
            if words - first >= block:
                self.emit(f"st.shared.u32 {where}, 0")
            else:
                self.emit(f"@{self.op('setp.lt.u32', PRED, tid, str(words - first))} st.shared.u32 {where}, 0")

    # ------------------------------------------------------------ per-entry state

    def _begin(self) -> None:
        self.lines: list[str] = []
        self.prologue: list[str] = []
        self.counts = {k.reg: 0 for k in REGISTER_CLASSES}
        self.labels = 0
        self.buffers: dict[tuple[int, int], _BufferUse] = {}
        self.shared: dict[str, str] = {}
        self.shared_align: dict[str, int] = {}
        self.shared_size: dict[str, int] = {}
        self.site: Site | None = None
        self.entry: ir.Entry | None = None
        self.members: str | None = None
        self.linear_index: str | None = None
        self.fragment_lane = None             # fragments.py's lane values, made once in the prologue
        self.cell_values: dict[str, int] = {}   # a 格's register → the integer it holds here (`cell_value`)
        self.shared_bases: dict[str, str] = {}
        self.read_once: dict[tuple[int, str], list[str]] = {}   # (read-only buffer, type) → its registers
        self.computed: dict[tuple[str, tuple[str, ...]], str] = {}   # pure instruction → its register, this block
        self.computed_first: dict[tuple[str, tuple[str, ...]], str] = {}   # … in the prologue
        self.computed_from: dict[str, list] = {}   # register → the (table, key) entries it takes part in
        self.widened: dict[str, str] = {}     # f32 register → the f16 register it holds exactly (ops.widen)
        self.defined: dict[str, tuple[str, tuple[str, ...]]] = {}   # register → (instruction, operands) of the `op` that set it
        self.below: dict[str, int] = {}       # register → a number its value is known to be less than
        self.guard: str | None = None         # while a branch is computed speculatively: the loads' predicate
        self.at_least: set[tuple[str, str]] = set()   # (register, operand) the register is known not below
        self.steps: dict[str, tuple[str, int]] = {}   # in `_four_at_a_time`: register → (counter, k), = counter + k
        self.offsets: dict[str, tuple[str, str, int]] = {}   # … register → (base, counter, k), = base + counter + k
        self.counted_by = COUNTED_BY   # … how many rounds it writes as one line (`_rounds_at_a_time`)
        self.step_start: int | None = None   # … the counter's start when known: counter ≡ it mod counted_by there
        self.unchecked: set[tuple[int, str | None]] = set()   # … (resource, base) the rounds stay inside (`_room`)
        self.multiples: dict[str, int] = {}   # register → a power of two its 32-bit value is a multiple of
        self.sums: dict[str, tuple[str, int]] = {}   # register → (root, k): = root + k, which does not wrap
        self.products: dict[str, tuple[str, int]] = {}   # register → (x, c): = x·c (c a constant, 32 bits)
        self.quotients: dict[str, tuple[str, int]] = {}  # u32 register → (x, c): = ⌊x / c⌋ (c a constant > 0)
        self.scaled_inside: set[tuple[str, str, int]] = set()   # (x, length, c) while x < ⌊length / c⌋ holds
        self.hoisted: dict[int, Value] = {}   # in a counted loop: a loop-invariant index base computed before it
        self.zero_unless: dict[str, str] = {}   # a read's register → the branch predicate without which it stays 0
        self.in_memory: dict[tuple[str, int], tuple[tuple[str, ...], str | None]] = {}   # `_unchanged`'s loads
        self.predicated = False    # in a 若 body `_predicable` writes under its test: workgroup variables read unguarded
        self.merged: set[int] = set()    # the 若 values `_merged_write` made: `_selected` whatever their size
        self.known_inside: set[tuple[int, str]] = set()   # (resource, index register) tested by `_inside_only` around this write
        self.below_length: set[tuple[str, str]] = set()   # (index, array length register): index 小于 length holds
        self.one_less: dict[str, str] = {}    # register → the register it is one less than (长 减 1)
        self.clamped: dict[str, str] = {}     # register → a length it is below unless that length is 0
        self.signed_one_less: dict[str, str] = {}   # s32 register → the length it is one less than
        self.signed_clamped: dict[str, tuple[str, str]] = {}   # register → (长 减 1, 长): inside when 长 减 1 ≥ 0
        self.round_locals: dict[int, object] = {}   # in a loop written out round by round: its variables' values
        self.round_values: dict[int, object] = {}   # … and every node's value that follows from them (unroll.py)
        self.written_out = 1                  # how many times the loops written out around here write this code

    @contextmanager
    def _at(self, site: Site):
        outer, self.site = self.site, site
        try:
            yield
        finally:
            self.site = outer

    def _params(self, entry: ir.Entry) -> list[PtxParam]:
        """A device pointer per buffer the entry uses (the validation pass's
        `entry_resources`), by (group, binding) — group 0 from binding 0 up,
        unused slots as placeholders — then an element count per runtime-sized
        array whose 「数组长度」 it reads or whose elements it indexes (bounds safety)."""
        lengths = self.info.entry_uses(entry.function).lengths
        buffers: dict[tuple[int, int], tuple[str, ir.Resource]] = {}
        for path, r in self.info.entry_resources(entry.function):
            if r.kind in ("storage", "uniform"):
                buffers.setdefault((r.group, r.binding), (path, r))
        used = sorted(buffers)
        if used and all(g == 0 for g, _ in used):
            slots = [(0, b) for b in range(used[-1][1] + 1)]
        else:
            slots = used
        params = []
        for g, b in slots:
            resource = buffers[(g, b)][1] if (g, b) in buffers else None
            params.append(PtxParam(f"p_g{g}_b{b}", "buffer", g, b, resource.name if resource else None,
                                   read_only=resource is not None and _read_only(resource)))
        for g, b in used:
            path, resource = buffers[(g, b)]
            checked = (g, b) in self.buffers and self.buffers[(g, b)].length is not None   # bounds safety
            if (path, resource.name) in lengths or checked:
                offset, stride = array_place(resource.inner)
                params.append(PtxParam(f"p_g{g}_b{b}_n", "length", g, b, resource.name, stride, offset))
        return params

    def _assemble(self, name: str, info: PtxEntryInfo) -> str:
        declared = [f"\t.param .{'u64' if p.kind == 'buffer' else 'u32'} {p.name}" for p in info.params]
        head = f".visible .entry {name}(\n" + ",\n".join(declared) + "\n)" if declared else f".visible .entry {name}()"
        out = [head, f".reqntid {', '.join(map(str, info.block))}", "{"]
        for k in REGISTER_CLASSES:
            if self.counts[k.reg]:
                out.append(f"\t.reg .{k.bits} {k.reg}<{self.counts[k.reg] + 1}>;")
        out.extend(self.shared.values())
        out.append("")
        out.extend(self.prologue)
        out.extend(self.lines)
        out.append("\tret;")
        out.append("}")
        return "\n".join(out) + "\n"

    # ------------------------------------------------------------ emission helpers

    def emit(self, text: str) -> None:
        self._forget_written(text)
        self.lines.append(f"\t{text};")

    def label(self, name: str) -> None:
        if self.lines and self.lines[-1] == f"\tbra {name};":   # a jump to the very next line
            self.lines.pop()
        self.lines.append(f"{name}:")
        self.computed.clear()   # a join or loop head: what was computed before need not hold here
        self.cell_values = {}     # control flow meets here: what a 格 holds may differ by the way in
        self.in_memory.clear()

    def _forget_written(self, text: str) -> None:
        """An instruction that writes a register kills every computed value it
        took part in, and what `defined` says set it (op() records it after);
        one that may change global memory or order it, every load `_unchanged` remembers."""
        if text.startswith("@"):
            text = text.split(None, 1)[1]
        if text.startswith(MEMORY_ORDER):
            self.in_memory.clear()
        parts = text.split(None, 1)
        if len(parts) < 2 or parts[1].startswith("["):
            return
        rest = parts[1]
        written = rest[:rest.index("}")] if rest.startswith("{") else rest.split(",")[0]
        for register in _REGISTER.findall(written):
            self.defined.pop(register, None)
            for table, key in self.computed_from.pop(register, ()):
                table.pop(key, None)
            for key in [k for k, (held, _) in self.in_memory.items() if register in held or k[0] == register]:
                del self.in_memory[key]

    def _remember(self, table: dict, key: tuple[str, tuple[str, ...]], dest: str) -> None:
        table[key] = dest
        for register in (dest, *key[1]):
            if register.startswith("%"):
                self.computed_from.setdefault(register, []).append((table, key))

    def new_labels(self, *roles: str) -> list[str]:
        self.labels += 1
        return [f"L{self.labels}_{role}" for role in roles]

    def reg(self, kind: Scalar) -> str:
        self.counts[kind.reg] += 1
        return f"{kind.reg}{self.counts[kind.reg]}"

    def op(self, instruction: str, kind: Scalar, *operands: str) -> str:
        """A register of `kind` set by `instruction operands`: a fresh one, or
        the one a pure instruction of the same operands set earlier in this
        block or in the prologue (the writer's own value numbering: ptxas does
        not share values across the blocks that bounds checks and predicated
        reads make).  What set each register is remembered for the exact
        rewrites of ops.py, until a move writes the register."""
        pure = instruction.split(".")[0] in PURE and not any("%clock" in o or "%globaltimer" in o for o in operands)
        key = (instruction, operands)
        table = self.computed_first if self.lines is self.prologue else self.computed
        found = pure and (table.get(key) or self.computed_first.get(key))    # the prologue's serve everywhere
        if found:
            return found
        dest = self.reg(kind)
        self.emit(f"{instruction} {', '.join((dest,) + operands)}")
        self.defined[dest] = (instruction, operands)
        if pure and dest not in operands:
            self._remember(table, key, dest)
        return dest

    def f32_arithmetic(self, method: str, a: str, b: str) -> str:
        """ops.f32_arithmetic for the modules ops imports (subgroups.py), which cannot import it back."""
        return f32_arithmetic(self, method, a, b)

    def move(self, kind: Scalar, dest: str, source: str) -> None:
        if dest == source:
            return
        if is_immediate(source):
            self.emit(f"mov.{kind.name if kind is not F16 else 'b16'} {dest}, {source}")
        else:
            self.emit(f"mov.{kind.bits} {dest}, {source}")

    def copy(self, kind: Scalar, source: str) -> str:
        dest = self.reg(kind)
        self.move(kind, dest, source)
        return dest

    def in_register(self, kind: Scalar, operand: str) -> str:
        return self.copy(kind, operand) if is_immediate(operand) else operand

    def immediate(self, kind: Scalar, number) -> str:
        """A typed literal: f32 and integers are immediates; f16 goes through f32
        (PTX takes no f16 immediates)."""
        if kind is F32:
            return f32_text(float(number))
        if kind is F16:
            return self.op("cvt.rn.f16.f32", F16, self.copy(F32, f32_text(float(number))))
        if kind is PRED:
            return self.copy(PRED, "1" if number else "0")
        return str(int(number))

    @contextmanager
    def in_prologue(self):
        """Emit into the entry's prologue: values every path of the body may use."""
        lines, self.lines = self.lines, self.prologue
        try:
            yield
        finally:
            self.prologue, self.lines = self.lines, lines

    def warp_members(self) -> str:
        """The member mask of this thread's warp (subgroups.py): the lanes that
        exist — all 32, or the first size mod 32 in the workgroup's last warp —
        an immediate where every warp is alike, else computed once in the prologue."""
        if self.members is None:
            size = self.entry.workgroup_size or 1
            whole, rest = divmod(size, 32)
            partial = f"{(1 << rest) - 1:#x}"
            if rest == 0 or whole == 0:
                self.members = FULL_WARP if rest == 0 else partial
            else:
                index = self.local_linear_index()
                with self.in_prologue():
                    last = self.op("setp.ge.u32", PRED, index, str(32 * whole))
                    self.members = self.op("selp.b32", U32, partial, FULL_WARP, last)
        return self.members

    def local_linear_index(self) -> str:
        """The thread's index in its workgroup (x fastest, as warps are cut), computed once in the prologue."""
        if self.linear_index is None:
            with self.in_prologue():
                (self.linear_index,) = ENTRY_INPUTS["局部调用序"](self)
        return self.linear_index

    # ------------------------------------------------------------ memory

    def buffer_base(self, resource: ir.Resource) -> str:
        """The global address of a storage or uniform buffer, loaded once per entry."""
        key = (resource.group, resource.binding)
        use = self.buffers.get(key)
        if use is None:
            name = f"p_g{key[0]}_b{key[1]}"
            self.counts[U64.reg] += 2
            raw, base = f"%rd{self.counts[U64.reg] - 1}", f"%rd{self.counts[U64.reg]}"
            self.prologue.append(f"\tld.param.u64 {raw}, [{name}];")
            self.prologue.append(f"\tcvta.to.global.u64 {base}, {raw};")
            use = self.buffers[key] = _BufferUse(base)
        return use.base

    def buffer_length(self, resource: ir.Resource) -> str:
        """The element count of a runtime-sized array, from its extra parameter."""
        self.buffer_base(resource)
        use = self.buffers[(resource.group, resource.binding)]
        if use.length is None:
            self.counts[U32.reg] += 1
            use.length = f"%r{self.counts[U32.reg]}"
            self.prologue.append(f"\tld.param.u32 {use.length}, [p_g{resource.group}_b{resource.binding}_n];")
        return use.length

    def shared_symbol(self, resource: ir.Resource, align: int = 1) -> str:
        """The .shared array of a workgroup variable, declared in this entry
        with its layout's alignment, or `align` when a user asks for more
        (ldmatrix wants 16 bytes)."""
        symbol = mangle(resource.name, SHARED_PREFIX)
        if self.shared_align.get(symbol, 0) >= align:
            return symbol           # declared already, aligned enough
        layout = layout_of(resource.inner)
        align = max(layout.align, align, self.shared_align.get(symbol, 1))
        self.shared_align[symbol] = align
        self.shared_size[symbol] = size = round_up(max(layout.size, 1), 4)    # cleared a word at a time
        self.shared[symbol] = f"\t.shared .align {align} .b8 {symbol}[{size}];"
        return symbol

    def location(self, resource: ir.Resource) -> tuple[str, str]:
        """(state space, base) of a buffer or workgroup variable."""
        if resource.kind == "workgroup":
            return "shared", self.shared_symbol(resource)
        if resource.kind in ("storage", "uniform"):
            return ("global.nc" if _read_only(resource) else "global"), self.buffer_base(resource)
        raise Unsupported(f"千手目标不支持{_RESOURCE_WORDS.get(resource.kind, resource.kind)}「{resource.name}」"
                          "（纹理与采样器是待办事项，着十）", type=resource.type)

    def element_address(self, resource: ir.Resource, index: str, stride: int) -> tuple[str, str, int]:
        """(space, address operand, constant offset) of element `index` (of a
        buffer's field: after the header, `FieldView.offset`)."""
        space, base = self.location(resource)
        at = getattr(resource, "offset", 0)
        if is_immediate(index):
            return space, base, at + int(index) * stride
        if self.steps.get(index, (index, 0))[1]:    # counter 加 k: counter's address (computed once), k·stride on
            root, k = self.steps[index]
            space, address, offset = self.element_address(resource, root, stride)
            return space, address, offset + k * stride
        if index in self.sums and getattr(resource, "offset", 0) + self.sums[index][1] * stride < MAX_OFFSET:
            root, k = self.sums[index]     # root 加 k without wrapping (`_sum`): root's address, k·stride on
            space, address, offset = self.element_address(resource, root, stride)
            return space, address, offset + k * stride
        if self.offsets.get(index, (None, None, 0))[2] and self._counted_inside(resource, index):
            base, root, k = self.offsets[index]     # inside, base 加 counter 加 k does not wrap: the same
            space, address, offset = self.element_address(resource, self.op("add.u32", U32, base, root), stride)
            return space, address, offset + k * stride
        if space == "shared":      # .shared addresses fit 32 bits: one mad, no 64-bit arithmetic
            return space, self.op("mad.lo.u32", U32, index, str(stride), self.shared_base(base)), 0
        scaled = self.op("mul.wide.u32", U64, index, str(stride))
        return space, self.op("add.s64", U64, base, scaled), at

    def read_whole(self, resource: ir.Resource, t: Type) -> list[str]:
        """The whole value of a buffer (or a header field of one).  A read-only
        one (uniform, or storage 只读) is read once, in the prologue: nothing
        writes it during the dispatch and its binding must hold it, so the read
        may move there, and every use then shares one set of registers — which
        lets ptxas share what is computed from them, where ten reads in
        different blocks (生命游戏's 尺寸 in each 下标 call, and the zero-divisor
        guards of its 余) stayed ten."""
        space, base = self.location(resource)
        offset = getattr(resource, "offset", 0)
        if space != "global.nc":
            return self.load(space, base, offset, t)
        key = (id(resource), str(t))
        if key not in self.read_once:
            guard, self.guard = self.guard, None
            try:
                with self.in_prologue():
                    self.read_once[key] = self.load(space, base, offset, t)
            finally:
                self.guard = guard
        return self.read_once[key]

    def shared_base(self, symbol: str) -> str:
        """The 32-bit .shared address of a workgroup array, set once in the prologue."""
        if symbol not in self.shared_bases:
            with self.in_prologue():
                self.shared_bases[symbol] = self.op("mov.u32", U32, symbol)
        return self.shared_bases[symbol]

    def inside(self, resource: ir.Resource, index: str) -> str | None:
        """Bounds safety (docs/后端.md): a predicate that holds when element
        `index` lies inside the array — a runtime-sized array's length comes
        from its p_gX_bY_n parameter, a fixed one's is a constant — or None
        where the index is an immediate known to be inside."""
        array = concrete(resource.inner)
        if not self.options.bounds or not (isinstance(array, TCon) and array.name in ("数组", "定长数组")) \
                or (id(resource), index) in self.known_inside or self._counted_inside(resource, index):
            return None
        if array.name == "定长数组":
            if is_immediate(index):
                return None if 0 <= int(index) < array.args[1] else self.immediate(PRED, False)
            if self.below.get(index, array.args[1] + 1) <= array.args[1]:
                return None       # the local invocation index of an array as long as the workgroup
            if index in self.sums:    # root + k < N, k < N: root < N − k (root + k does not wrap)
                root, k = self.sums[index]
                if k < array.args[1] and self.below.get(root, 2 ** 32 + 1) <= array.args[1] - k:
                    return None   # a test root 加 k 小于 N already holds (奇偶排序's 块[i 加 1])
                return self.op("setp.lt.u32", PRED, root, str(array.args[1] - k)) if k < array.args[1] \
                    else self.immediate(PRED, False)
            return self.op("setp.lt.u32", PRED, index, str(array.args[1]))
        length = self.buffer_length(resource)
        if (index, length) in self.below_length:
            return None           # a test 「变量」小于「长」 with 长 a 令 of 数组长度 guards this element
        root, k = self.sums.get(index, (index, 0))
        x, c = self.products.get(root, ("", 0))
        if k < c and (x, length, c) in self.scaled_inside:
            return None           # x < ⌊length / c⌋: x·c + k ≤ ⌊length / c⌋·c − c + k < length, no wrap on the way
        if self.clamped.get(index) == length:
            return self.op("setp.ne.u32", PRED, length, "0")
        if self.signed_clamped.get(index, (None, None))[1] == length:
            return self.op("setp.ge.s32", PRED, self.signed_clamped[index][0], "0")
        if self.multiples.get(self.sums.get(index, ("",))[0], 1) >= ROOMY:   # a[i·K 加 k], K ≥ 4: one room
            return self.op("setp.gt.u32", PRED, self.room(length, self.sums[index][0]), str(self.sums[index][1]))
        return self.op("setp.gt.u32", PRED, length, index)

    def room(self, length: str, root: str) -> str:
        """How many elements of an array `length` long lie from element `root`
        on: max(length, root) − root, 0 past the end.  Element root + k (no
        wrap, `sums`) is inside exactly when k < room: root ≥ length gives 0
        and root + k ≥ length; else room = length − root.  The same for every
        k, so ptxas computes it once, where each root + k cost an add."""
        return self.op("sub.u32", U32, self.op("max.u32", U32, length, root), root)

    def _counted_inside(self, resource: ir.Resource, index: str) -> bool:
        """Element counter 加 k or base 加 counter 加 k (k < 4) of an array that
        `_room` bounded four rounds at a time by: inside, tested once before the loop."""
        step = self.offsets.get(index) or ((None, *self.steps[index]) if index in self.steps else None)
        return step is not None and step[2] < self.counted_by and (id(resource), step[0]) in self.unchecked

    def load(self, space: str, address: str, offset: int, t: Type, guard: str | None = None) -> list[str]:
        """The registers of a value read from memory; under `guard`, zero where it fails."""
        leaves(t)  # refuses values too large for registers
        if self.guard is not None and guard is not None:
            guard = self.op("and.pred", PRED, guard, self.guard)
        elif self.guard is not None and not (self.predicated and space == "shared"):
            guard = self.guard
        parts = []
        prefix = f"@{guard} " if guard is not None else ""
        for run in vector_runs(memory_leaves(t, offset), offset, layout_of(t).align):
            off, kind = run[0]
            word = U32 if kind is PRED else kind
            dests = [self.reg(word) for _ in run]
            if guard is not None:
                for dest in dests:
                    self.move(word, dest, ZERO[word.name])
                    if self.guard is not None:
                        self.zero_unless[dest] = self.guard
            self.emit(f"{prefix}ld.{space}{_vector(run)}.{'u32' if kind is PRED else kind.mem} "
                      f"{_operand(dests)}, {address_text(address, off)}")
            if space == "global":
                self.in_memory[(address, off)] = (tuple(dests), guard)
            if space == "global.nc":     # nothing writes that memory: no product reaches it (ops._may_be_product)
                self.defined.update((dest, (f"ld.{space}", ())) for dest in dests)
            parts.extend(self.op("setp.ne.u32", PRED, dest, "0") if kind is PRED else dest for dest in dests)
        return parts

    def store(self, space: str, address: str, offset: int, t: Type, parts: list[str],
              guard: str | None = None) -> None:
        """A value written to memory; under `guard` (and a 若's, `_predicable`), nothing where it fails."""
        if self.guard is not None:
            guard = self.guard if guard is None else self.op("and.pred", PRED, guard, self.guard)
        prefix = f"@{guard} " if guard is not None else ""
        parts, writes = iter(parts), []
        for run in vector_runs(memory_leaves(t, offset), offset, layout_of(t).align):
            off, kind = run[0]
            if kind is PRED:
                sources = [self.op("selp.u32", U32, "1", "0", next(parts))]
            else:
                sources = [next(parts) for _ in run]
                sources = sources if len(run) == 1 else [self.in_register(kind, p) for p in sources]
            if not (space == "global" and self._unchanged(address, off, sources, guard)):
                writes.append(f"{prefix}st.{space}{_vector(run)}.{kind.mem if kind is not PRED else 'u32'} "
                              f"{address_text(address, off)}, {_operand(sources)}")
        for line in writes:     # after every part is compared: the first store forgets the loads
            self.emit(line)

    def _unchanged(self, address: str, offset: int, sources: list[str], guard: str | None) -> bool:
        """Whether these registers are what a load of the same address left in
        them, with no store, atomic, barrier or join since: writing them back
        changes nothing (头部与数组's 速度, written back unchanged beside the new
        位置), so the store is dropped — as nvcc drops it.  The load ran
        wherever the store would: unguarded, or under the same guard.  Another
        invocation's write between the two would be a data race."""
        held = self.in_memory.get((address, offset))
        return held is not None and held[0] == tuple(sources) and held[1] in (None, guard)

    # ------------------------------------------------------------ entry inputs

    def _entry_input(self, var: ir.LocalVar) -> Value:
        t = concrete(var.type)
        alias = var.type.alias
        if alias in ENTRY_INPUTS:
            return Value(t, self._bounded_input(alias))
        if isinstance(t, TRecord):
            parts = []
            for name, ft in t.fields:
                if ft.alias not in ENTRY_INPUTS:
                    raise Unsupported(f"字段「{name}」不是计算入口的内建输入", (var.start, var.end))
                parts.extend(self._bounded_input(ft.alias))
            return Value(t, parts)
        if is_unit(t):
            return Value(t, [])
        raise Unsupported(f"入口参数「{var.name}」不是内建输入", (var.start, var.end))

    def _bounded_input(self, alias: str) -> list[str]:
        """An entry input's registers; the local invocation index is below the
        workgroup size (the block is exactly .reqntid), which `inside` uses."""
        parts = ENTRY_INPUTS[alias](self)
        if alias == "局部调用序":
            self.below[parts[0]] = self.entry.workgroup_size or 1
        return parts

    # ------------------------------------------------------------ constants

    def _constant(self, e: ir.Expr) -> Value | None:
        """A const-expression whose value is known, as immediates: the value
        WGSL computes (4096 乘 4096 乘 4096 除 4096 is 16777216, not a wrapped
        32-bit product); None where it is unknown or does not fit its type."""
        known = self.known.of(e)
        if known is None and not isinstance(e, ir.Literal):
            known = self.round_values.get(id(e))
        if known is None or not is_numeric(e.type):
            return None
        kinds = leaves(e.type)
        values = known if isinstance(known, tuple) else (known,)
        if len(values) != len(kinds) or not all(fits(k, v) for k, v in zip(kinds, values)):
            return None
        return Value(concrete(e.type), [self.immediate(k, v) for k, v in zip(kinds, values)])

    # ------------------------------------------------------------ expressions

    def value(self, e: ir.Expr, env: dict) -> Value:
        known = self._constant(e)
        if known is not None:
            return known
        if id(e) in self.hoisted:
            return self.hoisted[id(e)]
        try:
            return getattr(self, "_" + type(e).__name__)(e, env)
        except Unsupported as err:
            if getattr(err, "site", None) is None:
                err.site = self.site
                err.span = err.span or (e.start, e.end)
            raise

    def _Literal(self, e: ir.Literal, env) -> Value:
        t = concrete(e.type)
        kind = F32 if e.is_float else S32
        return Value(t, [self.immediate(kind, e.value)])

    def _LocalRef(self, e: ir.LocalRef, env) -> Value:
        return env[id(e.var)]

    def _GlobalRef(self, e: ir.GlobalRef, env) -> Value:
        decl = self.decls.get((e.module, e.name))
        default = ir.override_default(decl)
        if default is not None:
            return self._override(e, decl, default)
        if isinstance(decl, ir.Const):
            with self._at(self._site(e.module, decl)):
                return self.value(self._lowered(decl.value), {})
        if isinstance(decl, ir.Resource):
            if decl.kind in ("storage", "uniform"):
                self.buffer_base(decl)
            elif decl.kind == "workgroup":
                self.shared_symbol(decl)
            return Value(concrete(e.type), [], decl)
        raise Unsupported(f"找不到「{e.name}」的定义")

    def _override(self, e: ir.GlobalRef, decl: ir.Const, default: ir.Expr) -> Value:
        """A pipeline-overridable constant lives in .const memory, holding its
        default until the host writes it (cuModuleGetGlobal) before a launch;
        a 爻 is a .u32 there."""
        t = concrete(e.type)
        (kind,) = leaves(t)
        if kind is F16:
            raise Unsupported(f"千手目标的可覆盖常量不能是「浮十六」：「{e.name}」改用「浮三二」", (e.start, e.end))
        with self._at(self._site(e.module, decl)):
            value = self.known.of(self._lowered(default))
        if value is None:
            raise Unsupported(f"可覆盖常量「{e.name}」的默认值须是已知的常量", (e.start, e.end))
        symbol = mangle(decl.name, OVERRIDE_PREFIX)
        text = f32_text(float(value)) if kind is F32 else str(int(value))
        self.overrides[symbol] = f".visible .const .{kind.mem} {symbol} = {text};"
        loaded = self.op(f"ld.const.{kind.mem}", U32 if kind is PRED else kind, f"[{symbol}]")
        return Value(t, [self.op("setp.ne.u32", PRED, loaded, "0") if kind is PRED else loaded])

    def _BuiltinValue(self, e: ir.BuiltinValue, env) -> Value:
        t = concrete(e.type)
        if e.name in ("阳", "阴"):
            return Value(t, [self.immediate(PRED, e.name == "阳")])
        if e.name == "元":
            return Value(t, [])
        raise Unsupported(f"「{e.name}」不能在运行时使用", builtin=e.name)

    def _Project(self, e: ir.Project, env) -> Value:
        base = self.value(e.base, env)
        if ir.is_buffer_field(e):
            return Value(concrete(e.type), [], field_view(base.resource, e.field, e.type))
        t = concrete(e.base.type)
        if e.components is not None:
            return Value(concrete(e.type), [p for i in e.components for p in self.part(base, i).parts])
        index = e.index if e.field is None else [n for n, _ in t.fields].index(e.field)
        return self.part(base, index)

    def part(self, v: Value, index: int) -> Value:
        """Item `index` of a tuple, record or fixed-size array value."""
        sizes = [len(leaves(i)) for i in items(v.type)]
        start = sum(sizes[:index])
        return Value(concrete(items(v.type)[index]), v.parts[start:start + sizes[index]])

    def _Splat(self, e: ir.Splat, env) -> Value:
        t = concrete(e.type)
        return Value(t, self.value(e.value, env).parts * len(t.items))

    def _MakeTuple(self, e: ir.MakeTuple, env) -> Value:
        values = [self.value(i, env) for i in e.items]
        return Value(concrete(e.type), [p for v in values for p in v.parts])

    def _MakeRecord(self, e: ir.MakeRecord, env) -> Value:
        values = {name: self.value(v, env) for name, v in e.fields}
        t = concrete(e.type)
        return Value(t, [p for name, _ in t.fields for p in values[name].parts])

    def _Seq(self, e: ir.Seq, env) -> Value:
        for item in e.items[:-1]:
            self.value(item, env)
        return self.value(e.items[-1], env)

    def _Let(self, e: ir.Let, env) -> Value:
        if self._read_then_written(e):
            return self._inside_only(e.body, env, lambda array, index: self.value(
                e.body, {**env, id(e.var): self.value(e.value, env)}).parts)
        bound = self.value(e.value, env)
        return self.value(e.body, {**env, id(e.var): bound})

    def _Block(self, e: ir.Block, env) -> Value:
        return self.value(e.body, env)

    def _If(self, e: ir.If, env) -> Value:
        cond = self.condition(e.cond, env)
        t = concrete(e.type)
        if e.otherwise is None and self.options.bounds and self._predicable(e.then):
            predicated, self.predicated = self.predicated, True
            try:
                with self._guarded(cond), self._holding(e.cond, env):
                    self.value(e.then, env)
            finally:
                self.predicated = predicated
            return Value(t, [])
        if e.otherwise is None:
            (end,) = self.new_labels("end")
            self.emit(f"@!{cond} bra {end}")
            before = dict(self.cell_values)
            with self._holding(e.cond, env):
                self.value(e.then, env)
            self._join_cells(end, before, self.cell_values)
            return Value(t, [])
        merged = self._merged_write(e)
        if merged is not None:
            with held_in(self.merged, id(merged.args[2])):
                return self.value(merged, env)
        refuse_reference_value(t, "「若」的值")
        kinds = leaves(t)
        if PRED not in kinds and (id(e) in self.merged
                                  or self._speculable(e.then) and self._speculable(e.otherwise)):
            return self._selected(e, cond, env)
        result = [self.reg(k) for k in kinds]
        other, end = self.new_labels("else", "end")
        self.emit(f"@!{cond} bra {other}")
        before = dict(self.cell_values)
        with self._holding(e.cond, env):
            self._move_all(kinds, result, self.value(e.then, env).parts)
        self.emit(f"bra {end}")
        then = self.cell_values
        self._join_cells(other, before, before)
        self._move_all(kinds, result, self.value(e.otherwise, env).parts)
        self._join_cells(end, then, self.cell_values)
        return Value(t, result)

    def _merged_write(self, e: ir.If) -> ir.Call | None:
        """若 c 则 写数组(a, i, x) 否则 写数组(a, i, y), x and y small values
        with no effects, as 写数组(a, i, 若 c 则 x 否则 y): each way writes
        element i of a once, after computing its value, so computing both (the
        reads predicated on their side, `_selected`) and writing the one chosen
        is the same for every input — and the element is bounds-tested once,
        one store where the branches kept two (nvcc's 二维模板).  Without
        bounds tests the two stores carry no predicate and ptxas joins the
        branches itself, better than the predicated reads (50 → 51)."""
        then, other = _unblocked(e.then), _unblocked(e.otherwise)
        if not (self.options.bounds and isinstance(then, ir.Call) and isinstance(other, ir.Call)
                and then.kind == other.kind == "builtin"
                and then.name == other.name and then.name in READ_BACK
                and _same_place(then.args[:2], other.args[:2]) and PRED not in leaves(then.args[2].type)
                and len(list(ir.walk(then.args[2]))) + len(list(ir.walk(other.args[2]))) <= MERGED
                and all(self._speculable(v, MERGED) for v in (then.args[2], other.args[2]))):
            return None
        value = ir.If(e.start, e.end, then.args[2].type, e.cond, then.args[2], other.args[2])
        return ir.Call(e.start, e.end, e.type, then.kind, then.name, [*then.args[:2], value],
                       then.module, then.local, then.type_args, then.name_start, then.name_end)

    def _join_cells(self, label: str, *ways: dict[str, int]) -> None:
        """`label`, which only the ends of `ways` reach (a 若's branches): a 格
        holds a known integer after it where it holds that one at each of them."""
        self.label(label)
        first, *others = ways
        self.cell_values = {r: v for r, v in first.items() if all(o.get(r) == v for o in others)}

    def _predicable(self, e: ir.Expr) -> bool:
        """A small 若 body of writes of buffers and values, no reads and
        nothing else with effects (no atomics, barriers, 格, calls, branches
        or subgroup operations): written under the test as a guard, every
        write predicated on it (and its bounds test), no branch.  The values
        it computes where the test fails are never stored, and no PTX
        arithmetic traps, so the results are the same; ptxas if-converts no
        block that holds a predicated store, and the branch cost it a
        reconvergence block (两种若's 标记 write).  Reads stay branched around:
        a predicated read's zero default makes ptxas branch anyway; and without
        bounds tests the writes carry no predicate, and ptxas predicates the
        block itself (so `_If` asks only when they are on)."""
        nodes = list(ir.walk(e))
        return len(nodes) <= PREDICATED and all(
            isinstance(n, (*VALUE_NODES, ir.Let, ir.Seq))
            or (isinstance(n, ir.Call) and n.kind == "builtin"
                and (n.name in GUARDED_WRITES or self._read_only_element(n) or builtin_facts(n.name).pure))
            for n in nodes)

    def _read_only_element(self, e: ir.Call) -> bool:
        """读数组 of a buffer that nothing writes (ld.global.nc, which ptxas
        predicates), or 读共享 of a whole workgroup variable (read unpredicated, `load`)."""
        array = self.decls.get((e.args[0].module, e.args[0].name)) if isinstance(e.args[0], ir.GlobalRef) else None
        return e.name == "读共享" or (e.name == "读数组" and isinstance(array, ir.Resource) and _read_only(array))

    def _speculable(self, e: ir.Expr, most: int = None) -> bool:
        """A small branch of a 若 value that may be computed whichever way the
        test goes: values, bindings and builtins that compute or read (a read
        is then predicated on the test), no effects, calls or branches."""
        nodes = list(ir.walk(e))
        return (len(nodes) <= (most or SPECULATED) and not self.effects.must_run(e)
                and all(isinstance(n, (*VALUE_NODES, ir.Let)) or (isinstance(n, ir.Call) and n.kind == "builtin")
                        for n in nodes))

    def _selected(self, e: ir.If, cond: str, env: dict) -> Value:
        """若 c 则 a 否则 b with small branches and no effects: both computed,
        each branch's reads predicated on its side of the test, then selp —
        what nvcc makes of c ? a[i] : 0.  Branches instead cost ptxas a
        reconvergence block, or a predicated move per value on each side, and
        inside a loop they keep it from updating the loop's values in place
        (bench_kernels: 两种若 1.28 → 1.06× nvcc, 鸟群's executed count 1.73 → 1.29×)."""
        with self._guarded(cond), self._holding(e.cond, env):
            then, guard = self.value(e.then, env).parts, self.guard
        otherwise = e.otherwise
        with self._guarded(self.op("not.pred", PRED, cond) if self.effects.reads(otherwise) else None):
            other = self.value(otherwise, env).parts
        t = concrete(e.type)
        return Value(t, [a if a == b or (self.zero_unless.get(a) == guard and b in POSITIVE_ZEROS)
                         else self.op(f"selp.{k.name if k is not F16 else 'b16'}", k, a, b, cond)
                         for k, a, b in zip(leaves(t), then, other)])

    @contextmanager
    def _guarded(self, guard: str | None):
        outer = self.guard
        if guard is not None:
            self.guard = guard if outer is None else self.op("and.pred", PRED, outer, guard)
        try:
            yield
        finally:
            self.guard = outer

    def condition(self, e: ir.Expr, env) -> str:
        return self.in_register(PRED, self.value(e, env).parts[0])

    def _move_all(self, kinds: list[Scalar], dests: list[str], sources: list[str]) -> None:
        for kind, dest, source in zip(kinds, dests, sources):
            self.move(kind, dest, source)

    # ------------------------------------------------------------ calls

    def _Call(self, e: ir.Call, env) -> Value:
        if e.kind == "builtin":
            return self._builtin(e, env)
        args = [self.value(a, env) for a in e.args]
        decl = self.decls.get((e.module, e.name))
        if not isinstance(decl, ir.Function):
            raise Unsupported(f"找不到函数「{e.name}」的定义")
        with self._at(self._site(e.module, decl)):
            return self.value(self._lowered(decl.body), {id(p): a for p, a in zip(decl.params, args)})

    def _lowered(self, body: ir.Expr, entry: ir.Entry | None = None) -> ir.Expr:
        """A body or constant value as written (at the current site, where the
        uniformity proofs are; as `entry` runs it when given), its known values evaluated."""
        at = (self.site.path, self.site.start)
        lowered = self.lowered.body(body, at) if entry is None else self.lowered.entry(entry, body, at)
        self.known.evaluate(lowered)
        return lowered

    def _Inline(self, e: ir.Inline, env) -> Value:
        args = [self.value(a, env) for a in e.args]
        return self.value(e.body, {**env, **{id(p): a for p, a in zip(e.fun.params, args)}})

    def _builtin(self, e: ir.Call, env) -> Value:
        if e.name in LOGIC:
            return self._logic(e, env)
        emitter = OPS.get(e.name)
        if emitter is None:
            raise Unsupported(_unsupported_builtin(e.name), (e.name_start, e.name_end), builtin=e.name)
        t = concrete(e.type)
        number = literal_argument(e)
        if number is not None:
            return Value(t, [self.immediate(leaves(t)[0], number)])
        if self.options.fast_math and e.name in CONTRACTED:
            fused = self._contracted(e, env)
            if fused is not None:
                return fused
        if e.name in READ_BACK and self._reads_back(e):
            return self._written_back(e, env, emitter)
        args = [self.value(a, env) for a in e.args]
        folded = self._folded(e.name, t, args) or self._low_bits(e.name, t, args)
        if folded is not None:
            return Value(t, [folded])
        parts = emitter(self, e, args)
        if e.name in BOUNDS and leaves(t) == [U32] and all(len(a.parts) == 1 for a in args):
            self._bound(e.name, parts[0], [a.parts[0] for a in args])
        elif e.name in ("减", "夹紧") and leaves(t) == [S32] and all(len(a.parts) == 1 for a in args):
            self._signed_clamp(e.name, parts[0], [a.parts[0] for a in args])
        if e.name in SUMS and leaves(t) in ([U32], [S32]) and all(len(a.parts) == 1 for a in args):
            self._sum(e.name, parts[0], [a.parts[0] for a in args])
        return Value(t, parts)

    def _folded(self, name: str, t: Type, args: list[Value]) -> str | None:
        """加/减/乘 of two 32-bit integer immediates (a known 格's value plus
        1) as the immediate they make, wrapping as WGSL does."""
        if name not in FOLDED or leaves(t) not in ([U32], [S32]) or not all(len(a.parts) == 1 for a in args):
            return None
        a, b = (immediate_integer(a.parts[0]) for a in args)
        if a is None or b is None:
            return None
        n = FOLDED[name](a, b) % 2 ** 32
        return str(n - 2 ** 32 if leaves(t) == [S32] and n >= 2 ** 31 else n)

    def _low_bits(self, name: str, t: Type, args: list[Value]) -> str | None:
        """counter 加 k 按位与 m inside the B rounds `_four_at_a_time` writes as
        one line (B = 4 or 16), m < B, where the counter started at a known s:
        the counter is s plus a multiple of B there (it enters as s and each
        pass adds B; wrapping keeps that, B a power of two dividing 2³²), so
        the low bits of counter + k, all that m keeps, are those of s + k —
        奇偶排序's parity test (r 加 k) 按位与 1 is then the same each pass."""
        if name != "按位与" or self.step_start is None or leaves(t) not in ([U32], [S32]) \
                or not all(len(a.parts) == 1 for a in args):
            return None
        a, b = (a.parts[0] for a in args)
        register, mask = (b, immediate_integer(a)) if is_immediate(a) else (a, immediate_integer(b))
        if register not in self.steps or mask is None or not 0 <= mask < self.counted_by:
            return None
        return str((self.step_start + self.steps[register][1]) % self.counted_by & mask)

    def cell_value(self, register: str) -> int | None:
        """The integer a 格's register holds here, where straight-line code since
        the last label (where control flow meets, `label`; a 若's end joins its
        branches, `_join_cells`) wrote it as an immediate."""
        return self.cell_values.get(register)

    def set_cell(self, kind: Scalar, register: str, source: str) -> None:
        """A 格's register is set to `source`: known when it is an integer immediate."""
        self.move(kind, register, source)
        if kind in (U32, S32) and immediate_integer(source) is not None:
            self.cell_values[register] = immediate_integer(source)
        else:
            self.cell_values.pop(register, None)

    def _signed_clamp(self, name: str, result: str, operands: list[str]) -> None:
        """夹紧 于 i 于 0 于（长 减 1）in 整三二 (模糊's clamped read) lies in
        0 … 长 − 1 whenever 长 减 1 is not negative, that is 1 ≤ 长 ≤ 2³¹: its
        bounds check against an array 长 long is that one sign test, whatever i is."""
        if name == "减" and operands[1] == "1" and not is_immediate(operands[0]) and result not in operands:
            self.signed_one_less[result] = operands[0]
        elif name == "夹紧" and operands[1] == "0" and operands[2] in self.signed_one_less and result not in operands:
            self.signed_clamped[result] = (operands[2], self.signed_one_less[operands[2]])

    def _reads_back(self, e: ir.Call) -> bool:
        """A write of element i whose value reads element i of the same array
        (数据[i] 乘 2 written back to 数据[i]) and does nothing else that shows."""
        array, index, value = e.args
        return (isinstance(index, ir.LocalRef) and isinstance(array, ir.GlobalRef)
                and not self.effects.must_run(value) and not self.effects.calls(value)
                and any(isinstance(n, ir.Call) and n.kind == "builtin" and n.name == READ_BACK[e.name]
                        and isinstance(n.args[0], ir.GlobalRef) and (n.args[0].module, n.args[0].name)
                        == (array.module, array.name) and isinstance(n.args[1], ir.LocalRef)
                        and n.args[1].var is index.var for n in ir.walk(value)))

    def _read_then_written(self, e: ir.Let) -> bool:
        """令 旧 为 读数组(a, i) 而 写数组(a, i, … 旧 …): the read of the element
        that the one write of the 令's body writes back (查表与填表's 记录[i])."""
        read, write = e.value, e.body
        return (isinstance(read, ir.Call) and read.kind == "builtin" and isinstance(write, ir.Call)
                and write.kind == "builtin" and READ_BACK.get(write.name) == read.name
                and _same_place(read.args, write.args[:2]) and isinstance(read.args[1], ir.LocalRef)
                and not self.effects.must_run(write.args[2]) and not self.effects.calls(write.args[2]))

    def _written_back(self, e: ir.Call, env: dict, emitter) -> Value:
        """Out of bounds the write is dropped, so its value need not be computed:
        one bounds test branches around the whole statement, and the read of the
        same element inside needs none (nvcc's if (i < n) a[i] *= 2)."""
        return self._inside_only(e, env, lambda array, index: emitter(self, e, [array, index, self.value(e.args[2], env)]))

    def _inside_only(self, e: ir.Call, env: dict, write) -> Value:
        """`write(array, index)` (the parts of write `e` of element i, which reads only that
        element of the array it writes and does nothing else that shows)
        where element i is inside; out of bounds the write is dropped and the
        read's 0 goes nowhere else, so one bounds test branches around it all."""
        array, index = self.value(e.args[0], env), self.value(e.args[1], env)
        guard = self.inside(array.resource, index.parts[0])
        skip = self.new_labels("skip")[0] if guard is not None else None
        if skip is not None:
            self.emit(f"@!{guard} bra {skip}")
        key = (id(array.resource), index.parts[0])
        self.known_inside.add(key)
        saved = dict(self.below)
        try:
            parts = write(array, index)
        finally:
            self.known_inside.discard(key)
            self.below = saved
        if skip is not None:
            self.label(skip)
        return Value(concrete(e.type), parts)

    def _contracted(self, e: ir.Call, env) -> Value | None:
        """With --快速数学, a float 加/减 one of whose operands is a float 乘 of
        the same type is one fma.rn (rounded once); None where neither is."""
        kinds = leaves(e.type)
        if not all(k in (F32, F16) for k in kinds):
            return None
        side = next((i for i, a in enumerate(e.args) if self._product(a, e.type)), None)
        if side is None:
            return None
        values = [self.value(a, env) if i != side else [self.value(f, env) for f in a.args]
                  for i, a in enumerate(e.args)]
        x, y = values[side]
        other = values[1 - side]
        fma = CONTRACTED[e.name]
        parts = []
        for i, kind in enumerate(kinds):
            a, b, c = x.parts[i], y.parts[i], other.parts[i]
            if e.name == "减":   # p − c is fma(x, y, −c); c − p is fma(−x, y, c)
                if side == 0:
                    c = self.op(f"neg.{kind.name}", kind, self.in_register(kind, c))
                else:
                    a = self.op(f"neg.{kind.name}", kind, self.in_register(kind, a))
            parts.append(self.op(f"{fma}.{kind.name}", kind, a, b, c))
        return Value(concrete(e.type), parts)

    def _product(self, e: ir.Expr, t: Type) -> bool:
        """Whether `e` is a float 乘 computed here (not a known constant) whose
        operands have `t`'s shape, so it can be fused into its sum."""
        return (isinstance(e, ir.Call) and e.kind == "builtin" and e.name == "乘" and self._constant(e) is None
                and all(leaves(a.type) == leaves(t) for a in e.args))

    def _UniformLoad(self, e: ir.UniformLoad, env) -> Value:
        """A workgroup read proved uniform (lower/loops.py): read, then wait at a
        barrier, so no one writes before all have read and the value stays uniform."""
        value = self.value(e.load, env)
        self.emit(BARRIER)
        return value

    def _logic(self, e: ir.Call, env) -> Value:
        """且 and 或 evaluate their right side only when needed (WGSL && and ||);
        a right side without memory access or effects is computed eagerly."""
        left = self.condition(e.args[0], env)
        if self.effects.eager(e.args[1]):
            right = self.value(e.args[1], env).parts[0]
            return Value(concrete(e.type), [self.op(LOGIC[e.name], PRED, left, right)])
        result = self.copy(PRED, left)
        (done,) = self.new_labels("skip")
        self.emit(f"@{'!' if e.name == '且' else ''}{left} bra {done}")
        self.move(PRED, result, self.value(e.args[1], env).parts[0])
        self.label(done)
        return Value(concrete(e.type), [result])

# ---------------------------------------------------------------- helpers

_RESOURCE_WORDS = {"texture": "纹理", "sampler": "采样器", "depth_texture": "深度纹理",
                   "comparison_sampler": "比较采样器", "storage_texture": "存储纹理"}


def _vector(run: list) -> str:
    """The vector suffix of an ld/st of `run` (layout.vector_runs): .v2, .v4 or none."""
    return f".v{len(run)}" if len(run) > 1 else ""


def _operand(registers: list[str]) -> str:
    """One register, or a vector operand {%a, %b, …}."""
    return registers[0] if len(registers) == 1 else "{" + ", ".join(registers) + "}"


#: how +0 is written as an immediate (never −0: a read that fails gives +0)
POSITIVE_ZEROS = frozenset({"0", "0.0", "0f00000000", "0x0000"})

#: a write → the read of the same array that `Writer._written_back` lets share its bounds test
READ_BACK = {"写数组": "读数组", "写共享数组": "读共享数组"}


#: the most IR nodes a branch of a 若 value may have to be computed whichever way the test goes
SPECULATED = 24

#: the most IR nodes the two values of a 若's two writes of one element may have together (`Writer._merged_write`)
MERGED = 48

#: the most IR nodes a 若 body may have to be written predicated on its test, not branched around
PREDICATED = 40
#: the writes a predicated 若 body may hold (`Writer._predicable`): `Writer.store` honours the guard
GUARDED_WRITES = frozenset({"写数组", "写存储"})

#: the unsigned builtins whose results `Facts._bound` (facts.py) bounds from their operands'
BOUNDS = frozenset({"余", "除", "乘", "加", "减", "最小"})
#: the 32-bit integer builtins `Writer._folded` computes where both operands are immediates
FOLDED = {"加": lambda a, b: a + b, "减": lambda a, b: a - b, "乘": lambda a, b: a * b}
#: the 32-bit integer builtins whose results `Facts._sum` (facts.py) knows multiples and sums of
SUMS = frozenset({"乘", "左移", "加"})
#: element root 加 k of a runtime-sized array is tested against `Writer.room` (2 instructions, then
#: one a test) where root is a multiple of this: a[i·K 加 k] for k < K then costs K + 2, not 2K − 1
ROOMY = 4
#: the largest constant offset an address operand gets (element 加 k's k·stride)
MAX_OFFSET = 2 ** 31


def _read_only(resource: ir.Resource) -> bool:
    """A buffer nothing in the dispatch writes (uniform, or storage 只读) is read
    through the non-coherent texture path: ld.global.nc."""
    return resource.kind == "uniform" or getattr(resource, "access", None) == "只读"


def _unsupported_builtin(name: str) -> str:
    if name in UNAVAILABLE:
        return f"千手目标不支持「{name}」：{UNAVAILABLE[name]}"
    return f"千手目标不支持「{name}」"


def _unblocked(e: ir.Expr) -> ir.Expr:
    return _unblocked(e.body) if isinstance(e, ir.Block) else e


def _same_place(these: list[ir.Expr], those: list[ir.Expr]) -> bool:
    """Whether (array, index) name one element alike: the same resource, and the
    same 令-bound name or the same literal as index."""
    (a, i), (b, j) = these, those
    return (isinstance(a, ir.GlobalRef) and isinstance(b, ir.GlobalRef) and (a.module, a.name) == (b.module, b.name)
            and ((isinstance(i, ir.LocalRef) and isinstance(j, ir.LocalRef) and i.var is j.var)
                 or (isinstance(i, ir.Literal) and isinstance(j, ir.Literal) and i.value == j.value)))
