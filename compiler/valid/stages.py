"""What each pipeline stage may use, checked once for every back end.

WGSL (and with it Metal and CUDA) allows some builtins only in some stages:
舍弃 and the implicit-derivative builtins only in fragment shaders, barriers,
workgroup memory, subgroup matrices and tensor fragments only in compute
shaders (subgroup matrices only in workgroups of whole subgroups, tensor
fragments only in workgroups of exactly 128 invocations).  An entry may
reach such a use through the functions it calls, in any imported module, so
the rule is checked over the entry's call graph; the message is at the use
and says through which entry it is reached.  Which stages allow a builtin is
the builtin registry's answer (registry.py); this module only walks.

The same walks say which resources each function uses, directly or through
the functions it calls (`Uses`, kept per validation in a `UsesTable`: the
MSL writer's parameters, the PTX kernel's, what the interpreter and the
command line bind), from each body's `BodyFacts`, read once per declaration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from .. import ir
from ..types import TCon, resolve
from ..diagnostics import STAGE, Diagnostic
from . import registry
from .registry import ALL_STAGES, COMPUTE, FRAGMENT

#: resource kind → the stages that may use it (WebGPU binds no writable storage texture to a vertex shader)
STAGE_RESOURCES = {"workgroup": frozenset({COMPUTE}), "storage_texture": frozenset({COMPUTE, FRAGMENT})}
RESOURCE_WORDS = {"workgroup": "工作组变量", "storage_texture": "存储纹理"}

#: subgroup-matrix builtins: the whole subgroup (warp, SIMD-group) runs them together
FRAGMENT_BUILTINS = registry.of_kind("matrix", "matrix-memory")
WHOLE_SUBGROUP = 32     # Metal's SIMD-group and CUDA's warp (seed 着十一)

#: tensor-fragment builtins (seed 着十三): matmul2d runs on exactly four SIMD-groups
TENSOR_BUILTINS = registry.of_kind("tensor")
TENSOR_WORKGROUP = 128


def reachable(modules: list[ir.Module], entry: ir.Entry, decls: dict):
    """(module path, function) of every function the entry runs, its own
    first (`decls`: `declarations(modules)`)."""
    return functions_from(modules, function_key(modules, entry.function, decls), decls)


def function_key(modules: list[ir.Module], name: str, decls: dict) -> tuple[str, str]:
    """`ir.function_key` by lookups in `declarations(modules)` (no pass over each module)."""
    return next(((m.path, name) for m in reversed(modules) if isinstance(decls.get((m.path, name)), ir.Function)),
                (modules[-1].path, name))


def declarations(modules: list[ir.Module]) -> dict:
    """(module path, name) → declaration, over the modules."""
    return {(m.path, d.name): d for m in modules for d in m.decls}


@dataclass(slots=True, eq=False)
class Declarations:
    """The modules' declarations sorted in one pass: each validation step used
    to walk them all again, which at 16,000 lines is a body edit's millisecond."""

    by_key: dict = field(default_factory=dict)       # (module path, name) → declaration
    functions: list = field(default_factory=list)    # ((path, name), function) of the functions with bodies
    entries: dict = field(default_factory=dict)      # (path, function name) → entry (the last one naming it)
    resources: list = field(default_factory=list)    # (path, name) of the resources
    own_entries: list = field(default_factory=list)  # the last module's entries, in source order
    index: dict | None = None     # (path, name) → its place in `functions`, made when first asked

    def function_index(self) -> dict:
        if self.index is None:
            self.index = {key: i for i, (key, _) in enumerate(self.functions)}
        return self.index

    def patched(self, changed: list) -> "Declarations":
        """These declarations with the functions `changed` ((path, name), function)
        swapped in (a body edit: same names, same kinds), in two list copies."""
        index = self.function_index()
        out = Declarations(dict(self.by_key), list(self.functions), self.entries, self.resources, self.own_entries,
                           index)
        for key, decl in changed:
            out.by_key[key] = decl
            out.functions[index[key]] = (key, decl)
        return out


def sorted_declarations(modules: list[ir.Module]) -> Declarations:
    """`Declarations` of the modules (the last is the file validated)."""
    out = Declarations()
    by_key, functions, entries, resources, own = out.by_key, out.functions, out.entries, out.resources, out.own_entries
    root = modules[-1]
    for m in modules:
        path = m.path
        for d in m.decls:
            key = (path, d.name)
            by_key[key] = d
            if isinstance(d, ir.Function):
                if d.body is not None:
                    functions.append((key, d))
            elif isinstance(d, ir.Entry):
                entries[(path, d.function)] = d
                if m is root:
                    own.append(d)
            elif isinstance(d, ir.Resource):
                resources.append(key)
    return out


@dataclass(frozen=True, eq=False)
class BodyFacts:
    """What the call-graph rules read of one function's body, in walk order:
    the functions it calls (repeats kept, so a walk over these visits
    functions in the order a walk over the bodies did), the globals it names,
    and the nodes the stage rule looks at (global names, and the calls of
    builtins that some stage or workgroup size refuses); for the resources
    it uses (`Uses`), the globals whose 「数组长度」 it reads (`lengths`), the
    globals it names other than as that builtin's argument (`passed`), and
    whether it measures a buffer it cannot name (`unknown_length`: one a
    parameter of the function holds)."""

    calls: tuple
    globals: frozenset
    staged: tuple
    lengths: frozenset = frozenset()
    passed: frozenset = frozenset()
    unknown_length: bool = False

    def same_uses(self, other: "BodyFacts") -> bool:
        """Whether the two bodies use the same resources in the same ways (`Uses`)."""
        return self.globals == other.globals and self.passed == other.passed and self.lengths == other.lengths \
            and self.unknown_length == other.unknown_length


#: a checked body never changes, and an edit elsewhere keeps the function's
#: declaration object: its facts are read once, not on every validation (an
#: entry reaching every function of a 16,000-line file walked all of them per keystroke)
_FACTS: WeakKeyDictionary = WeakKeyDictionary()

ARRAY_LENGTH = "数组长度"


def body_facts(decl: ir.Function) -> BodyFacts:
    facts = _FACTS.get(decl)
    if facts is None:
        calls, names, staged, measured = [], set(), [], []
        for n in ir.walk(decl.body):
            if isinstance(n, ir.Call):
                if n.kind == "function":
                    calls.append((n.module, n.name))
                elif n.kind == "builtin":
                    if _stage_bound(n.name):
                        staged.append(n)
                    if n.name == ARRAY_LENGTH and n.args:
                        measured.append(n.args[0])
            elif isinstance(n, ir.GlobalRef):
                names.add((n.module, n.name))
                staged.append(n)
        names = frozenset(names)
        lengths, unknown, passed = frozenset(), False, names
        if measured:
            lengths, unknown = _measured(decl.body, measured)
            direct = {id(ir.buffer_root(a)) for a in measured}
            passed = frozenset((n.module, n.name) for n in staged if isinstance(n, ir.GlobalRef) and id(n) not in direct)
        facts = _FACTS[decl] = BodyFacts(tuple(calls), names, tuple(staged), lengths, passed, unknown)
    return facts


def _measured(body: ir.Expr, args: list) -> tuple[frozenset, bool]:
    """The globals 「数组长度」 reads through `args` (its arguments in a body),
    followed through 令 and the parameters of the body's local functions;
    and whether some argument stays unknown (a top-level function's parameter)."""
    args = [ir.buffer_root(a) for a in args]     # a header buffer's array is measured in its buffer
    if all(isinstance(a, ir.GlobalRef) for a in args):
        return frozenset((a.module, a.name) for a in args), False
    lets, params, local_calls = {}, {}, {}
    for n in ir.walk(body):
        if isinstance(n, ir.Let):
            lets[id(n.var)] = n.value
        elif isinstance(n, ir.LetFun):
            params.update((id(p), (n.fun, i)) for i, p in enumerate(n.fun.params))
        elif isinstance(n, ir.Call) and n.kind == "local" and n.local is not None:
            local_calls.setdefault(id(n.local), []).append(n.args)
    found, unknown, seen, todo = set(), False, set(), list(args)
    while todo:
        e = todo.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, ir.GlobalRef):
            found.add((e.module, e.name))
        elif ir.is_buffer_field(e):
            todo.append(e.base)
        elif isinstance(e, ir.LocalRef) and id(e.var) in lets:
            todo.append(lets[id(e.var)])
        elif isinstance(e, ir.LocalRef) and id(e.var) in params:
            fun, i = params[id(e.var)]
            todo += [a[i] for a in local_calls.get(id(fun), ()) if i < len(a)]
        elif isinstance(e, ir.If):
            todo += [x for x in (e.then, e.otherwise) if x is not None]
        elif isinstance(e, (ir.Let, ir.LetFun)):
            todo.append(e.body)
        elif isinstance(e, ir.Seq) and e.items:
            todo.append(e.items[-1])
        else:
            unknown = True
    return frozenset(found), unknown


@dataclass(frozen=True, eq=False, slots=True)
class Uses:
    """The resources a function uses, directly or through the functions it
    calls, as (module path, name) keys: what a writer passes to it or binds
    for its entry, what the host must give an entry."""

    resources: frozenset = frozenset()   # every resource named: buffers, textures, samplers, workgroup variables
    passed: frozenset = frozenset()      # those named other than as 「数组长度」's argument (MSL passes only these)
    lengths: frozenset = frozenset()     # the runtime-sized buffers whose 「数组长度」 is read
    unknown_length: bool = False         # measures a buffer a parameter holds: `lengths` are all its runtime-sized buffers


NO_USES = Uses()


class UsesTable:
    """`Uses` per function key, each computed when first asked (`of`) from
    the functions' `BodyFacts` and kept; `known` may be shared with an
    earlier validation's table when a body edit changed no function's uses
    (valid/__init__.py `call_graph`)."""

    __slots__ = ("decls", "known")

    def __init__(self, decls: dict, known: dict | None = None) -> None:
        self.decls = decls
        self.known = {} if known is None else known

    def of(self, key: tuple[str, str]) -> Uses:
        """What function `key` uses (`NO_USES` for what is no function with a
        body); a call back into a function being summed (a cycle, which the
        checker refuses) adds nothing."""
        known = self.known
        found = known.get(key)
        if found is not None:
            return found
        if not self._function(key):
            return NO_USES
        path, stack = {key}, [(key, list(dict.fromkeys(body_facts(self.decls[key]).calls)))]
        while stack:
            top, pending = stack[-1]
            while pending:
                callee = pending.pop()
                if callee not in known and callee not in path and self._function(callee):
                    path.add(callee)
                    stack.append((callee, list(dict.fromkeys(body_facts(self.decls[callee]).calls))))
                    break
            else:
                stack.pop()
                path.discard(top)
                known[top] = self._sum(top)
        return known[key]

    def _function(self, key) -> bool:
        decl = self.decls.get(key)
        return isinstance(decl, ir.Function) and decl.body is not None

    def _sum(self, key) -> Uses:
        """A function's own uses and its callees' (those already summed)."""
        decls, facts = self.decls, body_facts(self.decls[key])
        resources = {k for k in facts.globals if isinstance(decls.get(k), ir.Resource)}
        passed, lengths, unknown = facts.passed & resources, facts.lengths & resources, facts.unknown_length
        for callee in set(facts.calls):
            inner = self.known.get(callee, NO_USES)
            if inner is not NO_USES:
                resources |= inner.resources
                passed |= inner.passed
                lengths |= inner.lengths
                unknown = unknown or inner.unknown_length
        if not resources and not unknown:
            return NO_USES
        if unknown:
            lengths |= {k for k in resources if _runtime_sized(decls[k])}
        return Uses(frozenset(resources), frozenset(passed), frozenset(lengths), unknown)


def _runtime_sized(resource: ir.Resource) -> bool:
    inner = resolve(resource.inner) if resource.inner is not None else None
    return resource.kind == "storage" and isinstance(inner, TCon) and inner.name == "数组"


def resources_in_order(modules: list[ir.Module], decls: dict, keys) -> list[tuple[str, ir.Resource]]:
    """(module path, declaration) of the resources `keys`, in order of (group,
    binding), then of declaration (workgroup variables have neither)."""
    order = {m.path: i for i, m in enumerate(modules)}
    found = sorted(((r.group or 0, r.binding or 0, order.get(key[0], len(order)), ir.item_start(modules, key), key[0], r)
                    for key in keys if isinstance(r := decls.get(key), ir.Resource)), key=lambda x: x[:5])
    return [(path, r) for *_, path, r in found]


def functions_from(modules: list[ir.Module], start: tuple[str, str], decls: dict | None = None):
    """Function `start` and every function it calls, directly or not, as
    ((path, name), declaration); `decls` is `declarations(modules)` when the
    caller has it already (one validation asks for every entry)."""
    decls = declarations(modules) if decls is None else decls
    seen, todo = set(), [start]
    while todo:
        key = todo.pop()
        decl = decls.get(key)
        if key in seen or not isinstance(decl, ir.Function) or decl.body is None:
            continue
        seen.add(key)
        yield key, decl
        todo += body_facts(decl).calls


def workgroup_variables(modules: list[ir.Module], uses: Uses, decls: dict) -> list[tuple[str, str]]:
    """(module path, name) of every workgroup variable among `uses` (an
    entry's), in declaration order."""
    shared = [key for key in uses.resources if decls[key].kind == "workgroup"]
    return [(path, r.name) for path, r in resources_in_order(modules, decls, shared)]


def stage_problems(modules: list[ir.Module], entry: ir.Entry, decls: dict, reached: list) -> list[Diagnostic]:
    """Uses the entry's stage may not make, in every function it reaches
    (`reached`: their keys, in `reachable`'s order)."""
    problems = []
    for key in reached:
        decl = decls[key]
        for node in body_facts(decl).staged:
            message = _problem(node, decls, entry)
            if message:
                base = ir.item_start(modules, key)
                problems.append(Diagnostic(key[0], base + node.start, base + node.end, message, decl.name,
                                           code=STAGE, fields={"入口": entry.name, "阶段": entry.stage}))
    return problems


def _stage_bound(builtin: str) -> bool:
    """Whether some stage or workgroup size refuses a builtin (most never are)."""
    return registry.stages(builtin) != ALL_STAGES or builtin in FRAGMENT_BUILTINS or builtin in TENSOR_BUILTINS


def _problem(node: ir.Expr, decls: dict, entry: ir.Entry) -> str | None:
    if isinstance(node, ir.Call):
        if entry.stage not in registry.stages(node.name):
            allowed = registry.stage_words(registry.stages(node.name))
            return f"「{node.name}」只能用在{allowed}入口里：{_reached(entry)}"
        if node.name in FRAGMENT_BUILTINS and entry.workgroup_size and entry.workgroup_size % WHOLE_SUBGROUP:
            return (f"子组矩阵片须由整个子组（{WHOLE_SUBGROUP} 个调用）一起执行：计算入口「{entry.name}」的工作组大小"
                    f" {entry.workgroup_size} 不是 {WHOLE_SUBGROUP} 的倍数（着十二）")
        if node.name in TENSOR_BUILTINS and entry.workgroup_size and entry.workgroup_size != TENSOR_WORKGROUP:
            return (f"张量片须由整个工作组（恰 {TENSOR_WORKGROUP} 个调用、4 个子组）一起执行：计算入口「{entry.name}」的"
                    f"工作组大小是 {entry.workgroup_size}（着十三）")
        return None
    resource = decls.get((node.module, node.name))
    if isinstance(resource, ir.Resource) and entry.stage not in STAGE_RESOURCES.get(resource.kind, {entry.stage}):
        allowed = registry.stage_words(STAGE_RESOURCES[resource.kind])
        return f"{RESOURCE_WORDS[resource.kind]}「{node.name}」只能用在{allowed}入口里：{_reached(entry)}"
    return None


def _reached(entry: ir.Entry) -> str:
    return f"{entry.stage}入口「{entry.name}」经函数「{entry.function}」用到了它"
