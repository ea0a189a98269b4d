"""Uniformity analysis (the WGSL specification's, on 着色's forms), for every target.

Barriers, subgroup operations, subgroup-matrix and tensor-fragment calls,
derivatives and implicit-level sampling must be reached by the whole group at
once.  A value is *varying* (各异) when invocations may disagree on it: it
comes from 「局部调用序」 and the other per-invocation inputs, from read-write
storage or workgroup memory, from an atomic or a subgroup operation.  Control
flow is varying under a 「若」 whose condition is varying, on the right of a
「且」/「或」 whose left side is (they short-circuit), and inside a loop
(a local tail-recursive function) whose continuation is; it reconverges after
the 「若」 or the loop.  A workgroup read right after a barrier, at a uniform
place, is uniform; so is a uniform field of an entry struct that also holds
varying ones.  WGSL sees neither as written, so the analysis keeps, with each
value, the proofs it rests on, and hands the writers those a requirement
relied on (`ModuleInfo.uniform_proofs`).  As in WGSL, there are two scopes:
a subgroup operation needs only its subgroup to agree, and a subgroup operation's result
varies only between subgroups, so each taint says why it varies across the
workgroup and why within a subgroup.  Cells (格) are followed along the flow,
into the top-level functions they are passed to.  Every
top-level function gets a summary — does it require uniform control flow,
which parameters must be uniform, on which parameters its result depends — so
a call is judged without re-reading the callee, in this module or an imported
one.  A mistake is reported once, where it can be fixed: at the requiring call
inside the function when the cause is there, otherwise at the call of the
function in the caller that makes the flow varying.

Every span the analysis keeps is relative to the item of the top-level
function it lies in (`Source.owner`, and a workgroup read's proof), as the
IR's spans are, so a function's walk — its summary, its problems and the
proofs it relied on — stays valid while edits elsewhere move it.
`UniformityCache` keeps each walk, for the language server's edit path,
until the function's checked body, its entry's stage, a callee's summary or a
storage buffer it reads changes; `uniformity_problems` places the problems
and proofs at the functions' current offsets.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from ..diagnostics import UNIFORM_ARGUMENT, UNIFORMITY, Diagnostic
from ..types import TCon, TRecord, resolve
from . import registry
from .stages import Declarations, sorted_declarations

#: builtin → the argument (by position) that must be uniform
UNIFORM_ARGUMENTS = registry.having("uniform_argument")
#: entry inputs the whole workgroup shares; every other input varies per invocation
UNIFORM_INPUTS = frozenset("工作组号 工作组数".split())
#: … and those a compute dispatch shares (a fragment's subgroup size may vary, as WGSL says)
UNIFORM_COMPUTE_INPUTS = frozenset({"子组大小", "子组数"})
#: builtins whose result varies even when their arguments do not (memory others may write)
VARYING_READS = registry.having("varying_read")
#: reads whose result is varying only from a read-write storage buffer
STORAGE_READS = frozenset(registry.having("storage_read"))
#: builtins whose right operand runs only when the left one does not decide
SHORT_CIRCUIT = frozenset(registry.having("short_circuit"))
#: workgroup reads that are uniform right after this barrier
UNIFORM_LOADS, SYNC = frozenset({"读共享数组", "读共享"}), "工作组屏障"
LOAD_FIX = "（要它一致：在一致控制流里紧跟「工作组屏障」读，下标一致，其间不写内存、不调用函数）"


def requires_uniform(builtin: str) -> bool:
    """Barriers, subgroup and subgroup-matrix calls, derivatives, implicit-LOD sampling (the registry's word)."""
    return registry.needs_uniform_control(builtin)


def may_write(builtin: str) -> bool:
    """Writes memory or synchronises (the registry's effect); a builtin it does not know may."""
    b = registry.get(builtin)
    return b is None or b.effect


@dataclass(frozen=True)
class Source:
    """Where a varying value comes from: a description and its span, relative
    to the item of the top-level function `owner` of module `path`."""

    what: str
    path: str
    owner: str
    start: int
    end: int


@dataclass(frozen=True)
class Taint:
    """A value's (or the control flow's) uniformity at the two scopes WGSL
    analyses: `source` says why it varies across the workgroup, `sub` why it
    varies even within one subgroup (every `sub` is also a `source`: a subgroup
    operation's result varies only between subgroups); `params` are the
    function's parameters it depends on; `cond` and `sub_cond` are the spans of
    the conditions that made control flow so, at each scope (relative to the
    function walked; a callee's conditions never reach its callers).  `proofs` are
    the uniform values WGSL would not see as uniform unless translated so
    (a uniform field of a mixed entry parameter struct, a workgroup read
    after a barrier): the ones a requirement relies on are translated so."""

    source: Source | None = None
    params: frozenset = frozenset()
    cond: tuple | None = None
    sub: Source | None = None
    sub_cond: tuple | None = None
    proofs: frozenset = frozenset()

    def join(self, other: "Taint") -> "Taint":
        if other == UNIFORM:
            return self
        if self == UNIFORM:
            return other
        source, cond = (self.source, self.cond) if self.source else (other.source, other.cond)
        sub, sub_cond = (self.sub, self.sub_cond) if self.sub else (other.sub, other.sub_cond)
        return Taint(source, self.params | other.params, cond or self.cond or other.cond, sub, sub_cond,
                     self.proofs | other.proofs)

    @property
    def varying(self) -> bool:
        return self.source is not None

    def value(self) -> "Taint":
        """As a value: the control flow's uniformity without its conditions."""
        return Taint(self.source, self.params, None, self.sub, proofs=self.proofs)

    def at(self, scope: str) -> Source | None:
        """Why it varies at `scope` (WORKGROUP or SUBGROUP), or None."""
        return self.sub if scope == SUBGROUP else self.source

    def cond_at(self, scope: str) -> tuple | None:
        return self.sub_cond if scope == SUBGROUP else self.cond


def field_proof(path: str, function: str, index: int, name: str) -> tuple:
    """The proof that field `name` of entry parameter `index` is uniform on its own."""
    return ("field", path, function, index, name)


def load_proof(path: str, start: int, end: int) -> tuple:
    """The proof that the workgroup read at [start, end) is uniform (read right after a barrier)."""
    return ("load", path, start, end)


def _load_in(path: str, owner: str, start: int, end: int) -> tuple:
    """A load proof while the analysis runs: its span relative to function `owner`'s item."""
    return ("load", path, owner, start, end)


def everywhere(source: Source) -> Taint:
    """Varying at both scopes: it differs between invocations of one subgroup."""
    return Taint(source, sub=source)


UNIFORM = Taint()
#: the codes of a call in varying control flow and of a varying argument that must be uniform
CODES = frozenset({UNIFORMITY, UNIFORM_ARGUMENT})
WORKGROUP, SUBGROUP = "工作组", "子组"     # the scopes: who must reach a call together
MUST_RUN = {WORKGROUP: "须在一致控制流中执行", SUBGROUP: "须在子组内一致的控制流中执行"}
MUST_AGREE = {WORKGROUP: "须一致", SUBGROUP: "须在子组内一致（同一子组的调用相同）"}


@dataclass(frozen=True)
class Need:
    """Why a function needs uniformity: the requiring builtin, the call that reaches
    it, and the scope it needs (a barrier the workgroup's, a subgroup operation
    only its subgroup's)."""

    builtin: str
    via: str | None = None       # the function called (None: the builtin itself)
    scope: str = WORKGROUP


def scope_of(builtin: str) -> str:
    """Subgroup operations need only their subgroup together; everything else
    (barriers, derivatives, subgroup-matrix calls) the whole workgroup."""
    b = registry.get(builtin)
    return SUBGROUP if b is not None and b.kind == "subgroup" else WORKGROUP


@dataclass
class Summary:
    """What a function's callers read of it: the uniformity its call site and parameters need, its result's, its cells'."""

    requires: dict = field(default_factory=dict)           # scope → Need: the call site's flow must be uniform
    uniform_params: dict = field(default_factory=dict)     # index → Need (the workgroup's scope wins)
    result: Taint = UNIFORM
    cells: dict = field(default_factory=dict)    # index of a cell parameter the function writes → its taint after


@dataclass(eq=False)
class Cell:
    """A 格 (mutable cell) value: its contents' uniformity, updated as it is written."""

    taint: Taint


@dataclass
class Fields:
    """A tuple or record value, its parts' uniformity kept apart."""

    parts: dict


def is_cell(t) -> bool:
    t = resolve(t)
    return isinstance(t, TCon) and t.name == "格"


def flat(value) -> Taint:
    if isinstance(value, Fields):
        out = UNIFORM
        for part in value.parts.values():
            out = out.join(flat(part))
        return out
    if isinstance(value, Cell):
        return value.taint
    return value


@dataclass
class Problem:
    """A uniformity mistake found in one function, at a function-relative span."""

    start: int         # relative to the function walked
    end: int
    message: str
    related: list      # [Source]: the condition and the varying source
    code: str = UNIFORMITY
    fields: dict = field(default_factory=dict)


@dataclass(eq=False)
class Walked:
    """One function's walk and what it read besides its own body: valid while
    `body` is still the function's checked body, its entry's stage is `stage`,
    and each callee's summary and each storage buffer it read are unchanged."""

    body: ir.Expr
    stage: str | None
    callees: dict          # (path, name) → the Summary read
    resources: dict        # (path, name) → resource_facts(…) read
    summary: Summary
    problems: list
    proven: frozenset      # the proofs its requirements relied on


@dataclass(eq=False)
class Round:
    """What one validation of a file ended with, for the next keystroke."""

    setting: tuple         # Analysis.setting()
    used: dict             # (path, name) → Walked, every function's
    summaries: dict        # (path, name) → Summary
    problems: dict         # (path, name) → [Problem], only the functions that have some
    proofs: dict           # (path, name) → the proofs its walk relied on, only where there are some


class UniformityCache:
    """Walks by (module path, function name), kept across validations, and
    per validated file the round its last validation ended with."""

    def __init__(self) -> None:
        self.walks: dict[tuple[str, str], Walked] = {}
        self.rounds: dict[str, Round] = {}
        self.walked = 0        # functions walked, not taken from the cache (tests count them)


def resource_facts(decl) -> tuple | None:
    """What the analysis reads of a resource: a read-write storage buffer varies."""
    return (decl.kind, decl.access, decl.name) if isinstance(decl, ir.Resource) else None


class Analysis:
    """Summaries of every function of the modules, and the problems of one module."""

    def __init__(self, modules: list[ir.Module], sources: dict[str, str], cache: UniformityCache | None = None,
                 declared: Declarations | None = None):
        declared = declared if declared is not None else sorted_declarations(modules)
        self.decls = declared.by_key
        self.starts = {m.path: m.starts for m in modules}     # where each declaration's item starts
        self.sources = sources
        self.cache = cache
        self.summaries: dict[tuple[str, str], Summary] = {}
        self.problems: dict[tuple[str, str], list[Problem]] = {}
        self.used: dict[tuple[str, str], Walked] = {}     # the walks read, each function's once
        self.proofs: dict | None = None                    # relied_on(), once asked or taken over
        self._setting: tuple | None = None
        self.functions, self.entries, self._resources = declared.functions, declared.entries, declared.resources

    def summary(self, key: tuple[str, str]) -> Summary:
        found = self.summaries.get(key)
        if found is None:
            self.summaries[key] = found = Summary()          # a cycle (never legal) reads as harmless
            decl = self.decls.get(key)
            if isinstance(decl, ir.Function) and decl.body is not None:
                walked = self.used[key] = self._walk(key, decl)
                self.summaries[key] = found = walked.summary
                if walked.problems:
                    self.problems[key] = walked.problems
        return found

    def setting(self) -> tuple:
        """What every walk reads besides bodies and summaries: the entries' stages and the resources."""
        if self._setting is None:
            self._setting = (tuple((key, e.stage) for key, e in self.entries.items()),
                             tuple((key, resource_facts(self.decls.get(key))) for key in self._resources))
        return self._setting

    def reuse_round(self, root: str, functions: list, changed: list | None = None) -> bool:
        """The editor's keystroke: when, since the last validation of file
        `root`, only function bodies changed and none of their summaries,
        every other function's walk from that validation stands as it was
        (one identity check each, not a validity check through its callees).
        `changed`, the keys of the functions whose declarations changed since
        that round, when the caller knows them, spares even the identity
        checks.  True when the round was taken over."""
        last = self.cache.rounds.get(root)
        if last is None or last.setting != self.setting():
            return False
        previous = last.used
        if changed is None:
            if len(previous) != len(functions):
                return False
            changed = [key for key, decl in functions if (w := previous.get(key)) is None or w.body is not decl.body]
        for key in changed:
            before = previous.get(key)
            if before is None or self.summary(key) != before.summary:
                return False     # callers may read it differently: the ordinary path decides
        walks = self.used
        self.used = dict(previous)      # the same keys as `functions` (same count, each found)
        self.used.update(walks)
        self.summaries = dict(last.summaries)
        self.problems, self.proofs = dict(last.problems), dict(last.proofs)
        for key, walked in walks.items():
            self.summaries[key] = walked.summary
            _keep_if(self.problems, key, walked.problems)
            _keep_if(self.proofs, key, walked.proven)
        return True

    def end_round(self, root: str, functions: list) -> Round:
        used = self.used
        if len(used) != len(functions):
            used = {key: used[key] for key, _ in functions}
        self.cache.rounds[root] = found = Round(self.setting(), used, self.summaries, self.problems, self.relied_on())
        return found

    def relied_on(self) -> dict:
        """(path, name) → the proofs its walk relied on, for the walks that relied on some."""
        if self.proofs is None:
            self.proofs = {key: walked.proven for key, walked in self.used.items() if walked.proven}
        return self.proofs

    def _walk(self, key: tuple[str, str], decl: ir.Function) -> Walked:
        entry = self.entries.get(key)
        stage = entry.stage if entry is not None else None
        kept = self.cache.walks.get(key) if self.cache is not None else None
        if kept is not None and self._still_valid(kept, decl, stage):
            return kept
        walker = FunctionWalk(self, key[0], decl, entry)
        summary = walker.run()
        walked = Walked(decl.body, stage, walker.callees, walker.resources, summary, walker.problems,
                        frozenset(walker.proven))
        if self.cache is not None:
            self.cache.walked += 1
            self.cache.walks[key] = walked
        return walked

    def _still_valid(self, kept: Walked, decl: ir.Function, stage: str | None) -> bool:
        """Whether a kept walk reads the same today (plain loops: the editor runs this for every function)."""
        if kept.body is not decl.body or kept.stage != stage:
            return False
        for key, facts in kept.resources.items():
            if resource_facts(self.decls.get(key)) != facts:
                return False
        for key, summary in kept.callees.items():
            now = self.summary(key)
            if now is not summary and now != summary:
                return False
        return True

    def text(self, path: str, owner: str, start: int, end: int) -> str:
        """The source text of a span inside function `owner`."""
        base = self.starts[path][owner]
        return self.sources.get(path, "")[base + start:base + end]

    def absolute(self, path: str, owner: str, start: int, end: int) -> tuple[int, int]:
        base = self.starts[path][owner]
        return base + start, base + end

    def placed(self, path: str, decl: ir.Function, p: Problem) -> Diagnostic:
        """A problem of function `decl` as a diagnostic at today's offsets."""
        related = tuple((s.path, *self.absolute(s.path, s.owner, s.start, s.end), s.what) for s in p.related)
        base = self.starts[path][decl.name]
        return Diagnostic(path, base + p.start, base + p.end, p.message, decl.name, code=p.code,
                          related=related, fields=p.fields)

    def proven(self) -> set:
        """The proofs some requirement of a walk read relied on, at today's offsets (as the writers ask)."""
        out = set()
        for proven in self.relied_on().values():
            for proof in proven:
                out.add(load_proof(proof[1], *self.absolute(*proof[1:])) if proof[0] == "load" else proof)
        return out


class FunctionWalk:
    """One function's body, in evaluation order, with the control flow's uniformity."""

    def __init__(self, analysis: Analysis, path: str, decl: ir.Function, entry: ir.Entry | None):
        self.analysis, self.path, self.decl, self.entry = analysis, path, decl, entry
        self.owner = decl.name
        self.callees: dict = {}          # what the walk read of other functions and resources (Walked)
        self.resources: dict = {}
        self.proven: set = set()         # the proofs (field_proof, _load_in) its requirements relied on
        self.summary = Summary()
        self.problems: list[Problem] = []
        self.seen: set = set()
        self.quiet = 0
        self.cells: list[Cell] = []
        self.loops: list[dict] = []      # the active loops: {"fun", "cf", "args"}
        self.mixed: set = set()          # entry struct parameters holding uniform and varying fields
        self.synced = False              # a workgroup barrier ran, and nothing that writes since

    # ---------------------------------------------------------------- entry

    def run(self) -> Summary:
        env, cells = {}, {}
        for index, var in enumerate(self.decl.params):
            env[var] = self._input(var, index) if self.entry else Taint(params=frozenset({index}))
            if is_cell(var.type):     # the caller's cell: what the function writes there, the caller sees
                env[var] = cells[index] = Cell(env[var])
                self.cells.append(cells[index])
        result = self.expr(self.decl.body, env, UNIFORM)
        self.summary.result = flat(result)
        self.summary.cells = {index: cell.taint for index, cell in cells.items()
                              if cell.taint != Taint(params=frozenset({index}))}
        return self.summary

    def _input(self, var: ir.LocalVar, index: int):
        """An entry parameter: an input, or a record of inputs, each uniform or not by its kind.
        WGSL judges an entry parameter struct as a whole, so a uniform field of a
        struct that also holds a varying one carries a proof: when a requirement
        relies on it, the WGSL writer passes that struct's fields as parameters of their own."""
        if not isinstance(var.type, TRecord):
            return self._input_taint(var.type, var, None)
        parts = {name: self._input_taint(t, var, name) for name, t in var.type.fields}
        if any(t.varying for t in parts.values()):
            self.mixed.add(var)
            parts = {name: t if t.varying else Taint(proofs=frozenset({field_proof(self.path, self.decl.name,
                                                                                   index, name)}))
                     for name, t in parts.items()}
        return Fields(parts)

    def _input_taint(self, t, var, field_name) -> Taint:
        alias = getattr(t, "alias", None)
        if alias in UNIFORM_INPUTS or (alias in UNIFORM_COMPUTE_INPUTS and self.entry.stage == "计算"):
            return UNIFORM
        shown = f"「{var.name}」的字段「{field_name}」" if field_name else f"「{var.name}」"
        kind = f"入口输入「{alias}」" if alias else "入口输入"
        return everywhere(Source(f"{shown}是{kind}，每个调用各不相同", self.path, self.owner, var.start, var.end))

    # ---------------------------------------------------------------- expressions

    def expr(self, e: ir.Expr, env: dict, cf: Taint):
        method = getattr(self, "_" + type(e).__name__, None)
        return method(e, env, cf) if method else UNIFORM

    def _LocalRef(self, e, env, cf):
        value = env.get(e.var, UNIFORM)
        # a mixed entry struct used whole stays one WGSL value: varying as a whole
        return flat(value) if e.var in self.mixed else value

    def _Project(self, e, env, cf):
        direct = isinstance(e.base, ir.LocalRef) and e.base.var in self.mixed
        base = env.get(e.base.var, UNIFORM) if direct else self.expr(e.base, env, cf)
        if isinstance(base, Fields):
            part = base.parts.get(e.field if e.field is not None else e.index)
            if part is not None:
                return part
        return flat(base)

    def _Splat(self, e, env, cf):
        return self.expr(e.value, env, cf)

    def _MakeTuple(self, e, env, cf):
        return Fields({i: self.expr(x, env, cf) for i, x in enumerate(e.items)})

    def _MakeRecord(self, e, env, cf):
        return Fields({name: self.expr(x, env, cf) for name, x in e.fields})

    def _Seq(self, e, env, cf):
        value = UNIFORM
        for item in e.items:
            value = self.expr(item, env, cf)
        return value

    def _Let(self, e, env, cf):
        value = self.expr(e.value, env, cf)
        return self.expr(e.body, {**env, e.var: value}, cf)

    def _LetFun(self, e, env, cf):
        return self.expr(e.body, {**env, e.fun: ("fun", e.fun, env)}, cf)

    def _If(self, e, env, cf):
        cond = flat(self.expr(e.cond, env, cf))
        inner = self._under(e.cond, cond, cf)
        before, synced = self._cells(), self.synced
        then = self.expr(e.then, env, inner)
        after_then, synced_then, self.synced = self._cells(), self.synced, synced
        self._restore(before)
        other = self.expr(e.otherwise, env, inner) if e.otherwise is not None else UNIFORM
        self.synced = self.synced and synced_then
        for cell, taint in after_then.items():
            cell.taint = cell.taint.join(taint)
        return cond.value().join(flat(then)).join(flat(other))

    def _under(self, cond_expr, cond: Taint, cf: Taint) -> Taint:
        """The control flow where `cond_expr`, of uniformity `cond`, decides what runs."""
        if cond == UNIFORM:
            return cf
        span = (cond_expr.start, cond_expr.end)
        return cf.join(Taint(cond.source, cond.params, span, cond.sub, span if cond.sub else None, cond.proofs))

    def _short_circuit(self, e, env, cf):
        """「且」「或」: the right side runs only where the left does not decide (on every
        target and in the reference interpreter), so under the left side as a condition."""
        left = flat(self.expr(e.args[0], env, cf))
        before, synced = self._cells(), self.synced
        right = flat(self.expr(e.args[1], env, self._under(e.args[0], left, cf)))
        for cell, taint in before.items():
            cell.taint = cell.taint.join(taint)
        self.synced = self.synced and synced
        return left.value().join(right)

    def _cells(self) -> dict:
        return {cell: cell.taint for cell in self.cells}

    def _restore(self, saved: dict) -> None:
        for cell, taint in saved.items():
            cell.taint = taint

    # ---------------------------------------------------------------- calls

    def _Call(self, e, env, cf):
        if e.kind == "local":
            return self._local_call(e, env, cf)
        if e.kind == "builtin" and e.name in SHORT_CIRCUIT and len(e.args) == 2:
            return self._short_circuit(e, env, cf)
        args = [self.expr(a, env, cf) for a in e.args]
        if e.kind == "function":
            return self._function_call(e, args, cf)
        return self._builtin_call(e, args, env, cf)

    def _builtin_call(self, e, args, env, cf):
        name = e.name
        if name == "新格":
            cell = Cell(flat(args[0]).join(cf.value()))
            self.cells.append(cell)
            return cell
        if name == "读格":
            return args[0].taint if isinstance(args[0], Cell) else flat(args[0])
        if name == "写格":
            if isinstance(args[0], Cell):
                value = flat(args[1])
                flow = cf.value()
                args[0].taint = value.join(flow) if flow == UNIFORM else args[0].taint.join(value).join(flow)
            return UNIFORM
        if requires_uniform(name):
            self._require(e, cf, Need(name, scope=scope_of(name)))
        if name in UNIFORM_ARGUMENTS and len(args) > UNIFORM_ARGUMENTS[name]:
            index = UNIFORM_ARGUMENTS[name]
            self._argument_must_be_uniform(e.args[index], flat(args[index]), f"「{name}」的第 {index + 1} 个实参",
                                           Need(name, scope=scope_of(name)), index)
        out = UNIFORM
        for a in args:
            out = out.join(flat(a))
        load = self._uniform_load(e, out, cf)
        self.synced = (name == SYNC and cf.at(WORKGROUP) is None) or (self.synced and not may_write(name))
        return load if load is not None else out.join(self._varying_result(e))

    def _uniform_load(self, e, index: Taint, cf: Taint) -> Taint | None:
        """A workgroup read right after 「工作组屏障」 (nothing that writes in between), at a
        uniform place, in uniform control flow: every invocation reads the same value.  Its
        proof makes WGSL read it with workgroupUniformLoad, and the other writers wait at a
        barrier after it, so no invocation writes there before all have read."""
        if e.name not in UNIFORM_LOADS or not self.synced or cf.varying or cf.params:
            return None
        if index.varying or index.params:
            return None
        return Taint(proofs=index.proofs | {_load_in(self.path, self.owner, e.start, e.end)})

    def _varying_result(self, e) -> Taint:
        where = (self.path, self.owner, e.start, e.end)
        if e.name in VARYING_READS:
            fix = LOAD_FIX if e.name in UNIFORM_LOADS else ""
            return everywhere(Source(f"「{e.name}」读的是{VARYING_READS[e.name]}，别的调用可能正在写{fix}", *where))
        if scope_of(e.name) == SUBGROUP:
            # uniform within its subgroup (as far as its arguments are: WGSL's analysis, and Tint, say no more)
            return Taint(Source(f"「{e.name}」的结果只在子组内一致，各子组不同", *where))
        buffer = ir.buffer_root(e.args[0]) if e.args else None
        if e.name in STORAGE_READS and isinstance(buffer, ir.GlobalRef):
            key = (buffer.module, buffer.name)
            resource = self.analysis.decls.get(key)
            self.resources[key] = resource_facts(resource)
            if isinstance(resource, ir.Resource) and resource.kind == "storage" and resource.access != "只读":
                return everywhere(Source(f"「{e.name}」读的是读写存储缓冲「{resource.name}」，别的调用可能正在写",
                                         *where))
        return UNIFORM

    def _function_call(self, e, args, cf):
        summary = self.callees[(e.module, e.name)] = self.analysis.summary((e.module, e.name))
        self.synced = False       # it may write
        for scope, need in summary.requires.items():
            self._require(e, cf, Need(need.builtin, e.name, scope))
        for index, need in summary.uniform_params.items():
            if index < len(args):
                self._argument_must_be_uniform(e.args[index], flat(args[index]), f"调用「{e.name}」的第 {index + 1} 个实参",
                                               Need(need.builtin, e.name, need.scope), index)
        written = {index: self._at_call(taint, args) for index, taint in summary.cells.items()}
        for index, taint in written.items():
            if index < len(args) and isinstance(args[index], Cell):
                args[index].taint = taint.join(cf.value()) if cf.value() != UNIFORM else taint
        return self._at_call(summary.result, args)

    @staticmethod
    def _at_call(taint: Taint, args: list) -> Taint:
        """A callee's taint with its parameters replaced by the call's arguments."""
        out = Taint(taint.source, sub=taint.sub)
        for index in taint.params:
            if index < len(args):
                out = out.join(flat(args[index]))
        return out

    def _local_call(self, e, env, cf):
        found = env.get(e.local)
        args = [self.expr(a, env, cf) for a in e.args]
        for loop in self.loops:
            if loop["fun"] is e.local:          # the loop goes round again
                loop["cf"] = loop["cf"].join(cf)
                loop["args"] = [old if isinstance(old, Fields) else flat(old).join(flat(new))
                                for old, new in zip(loop["args"], args)]
                return UNIFORM
        if found is None:
            return UNIFORM
        _, fun, closure = found
        if not fun.recursive:
            return self.expr(fun.body, {**closure, **dict(zip(fun.params, args)), fun: found}, cf)
        return self._loop(fun, found, closure, args, cf)

    def _loop(self, fun, found, closure, args, cf):
        """A tail-recursive local function is a loop: iterate until the uniformity of its
        parameters, its control flow and the cells settle, then walk it once more reporting."""
        loop = {"fun": fun, "cf": cf, "args": list(args)}
        self.loops.append(loop)
        self.synced = False       # the body may run again after what it writes
        self.quiet += 1
        for _ in range(8):
            state = (loop["cf"], [flat(a) for a in loop["args"]], self._cells())
            self.expr(fun.body, {**closure, **dict(zip(fun.params, loop["args"])), fun: found}, loop["cf"])
            if state == (loop["cf"], [flat(a) for a in loop["args"]], self._cells()):
                break
        self.quiet -= 1
        value = self.expr(fun.body, {**closure, **dict(zip(fun.params, loop["args"])), fun: found}, loop["cf"])
        self.loops.pop()
        self.synced = False
        return flat(value).join(loop["cf"].value())

    # ---------------------------------------------------------------- requirements

    def _require(self, e, cf: Taint, need: Need) -> None:
        source = cf.at(need.scope)
        if source is not None:
            what = f"调用「{need.via}」（它用到「{need.builtin}」）" if need.via else f"「{need.builtin}」"
            self._report(e, what + MUST_RUN[need.scope], cf.cond_at(need.scope), source)
            return
        self._relied_on(cf)
        if cf.params or self.entry is None:
            self.summary.requires.setdefault(need.scope, need)
            for index in cf.params:
                self._param_needs(index, need)

    def _relied_on(self, taint: Taint) -> None:
        """A requirement met thanks to `taint`'s proofs: the writers must make them hold."""
        if not self.quiet:
            self.proven |= taint.proofs

    def _param_needs(self, index: int, need: Need) -> None:
        known = self.summary.uniform_params.get(index)
        if known is None or (known.scope == SUBGROUP and need.scope == WORKGROUP):
            self.summary.uniform_params[index] = need

    def _argument_must_be_uniform(self, arg, taint: Taint, what: str, need: Need, position: int) -> None:
        source = taint.at(need.scope)
        if source is not None:
            self._report(arg, what + MUST_AGREE[need.scope], None, source, UNIFORM_ARGUMENT, 实参=str(position + 1))
        else:
            self._relied_on(taint)
        for index in taint.params:
            self._param_needs(index, need)

    def _report(self, e, what: str, cond, source: Source, code: str = UNIFORMITY, **fields: str) -> None:
        if self.quiet or (e.start, e.end) in self.seen:
            return
        self.seen.add((e.start, e.end))
        related = []
        if cond is not None:
            shown = self.analysis.text(self.path, self.owner, *cond)
            why = f"：条件“{shown}”各异，{source.what}"
            related.append(Source(f"条件“{shown}”各异，控制流在这里分叉", self.path, self.owner, *cond))
        else:
            why = f"：这个值各异，{source.what}"
        related.append(source)
        self.problems.append(Problem(e.start, e.end, what + why, related, code, fields))


def uniformity_problems(modules: list[ir.Module], sources: dict[str, str], cache: UniformityCache | None = None,
                        declared: Declarations | None = None,
                        changed: list | None = None) -> tuple[list[Diagnostic], set, Round | None]:
    """The uniformity mistakes in every module's functions, each module after
    the modules it imports, the proofs (field_proof, load_proof) their
    requirements rely on, at the functions' current offsets, and the round
    kept in `cache` for the next validation of the file (`declared`: the
    modules' sorted declarations, when the caller has them; `changed`: the
    keys of the functions changed since that round, when the caller knows)."""
    declared = declared if declared is not None else sorted_declarations(modules)
    analysis = Analysis(modules, sources, cache, declared)
    functions = analysis.functions
    root = modules[-1].path
    if cache is not None and analysis.reuse_round(root, functions, changed):
        order = declared.function_index()
        found = sorted(analysis.problems.items(), key=lambda kv: order[kv[0]])   # only the functions with problems
    else:
        for key, _ in functions:
            analysis.summary(key)
        found = [(key, analysis.problems[key]) for key, _ in functions if key in analysis.problems]
    out = [analysis.placed(key[0], analysis.decls[key], p) for key, problems in found for p in problems]
    kept = analysis.end_round(root, functions) if cache is not None else None
    return out, analysis.proven(), kept


def _keep_if(table: dict, key, value) -> None:
    """table[key] = value when there is something to keep, else no entry."""
    if value:
        table[key] = value
    else:
        table.pop(key, None)


def local_uniformity(modules: list[ir.Module], sources: dict[str, str], path: str, decl: ir.Function,
                     declared: Declarations | None = None) -> dict:
    """LocalVar → Taint of every local name of one function (for hover;
    `declared`: the modules' sorted declarations, when the caller has them)."""
    analysis = Analysis(modules, sources, None, declared)
    walker = FunctionWalk(analysis, path, decl, analysis.entries.get((path, decl.name)))
    seen: dict = {}
    original = walker.expr

    def record(e, env, cf):
        value = original(e, env, cf)
        for var, v in env.items():
            if isinstance(var, ir.LocalVar):
                seen[var] = flat(v) if var not in seen else seen[var].join(flat(v))
        return value

    walker.expr = record
    walker.quiet = 1
    walker.run()
    return seen


def describe(taint: Taint, decl: ir.Function) -> str:
    """一致 / 各异, in words, for hover."""
    if taint.varying:
        return f"各异：{taint.source.what}"
    if taint.params:
        names = "、".join(f"「{decl.params[i].name}」" for i in sorted(taint.params) if i < len(decl.params))
        return f"一致与否随参数{names}：调用处实参一致时一致"
    return "一致：同一工作组的所有调用得到相同的值"
