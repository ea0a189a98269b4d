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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from .. import ir
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
    builtins that some stage or workgroup size refuses)."""

    calls: tuple
    globals: frozenset
    staged: tuple


#: a checked body never changes, and an edit elsewhere keeps the function's
#: declaration object: its facts are read once, not on every validation (an
#: entry reaching every function of a 16,000-line file walked all of them per keystroke)
_FACTS: WeakKeyDictionary = WeakKeyDictionary()


def body_facts(decl: ir.Function) -> BodyFacts:
    facts = _FACTS.get(decl)
    if facts is None:
        calls, names, staged = [], set(), []
        for n in ir.walk(decl.body):
            if isinstance(n, ir.Call):
                if n.kind == "function":
                    calls.append((n.module, n.name))
                elif n.kind == "builtin" and _stage_bound(n.name):
                    staged.append(n)
            elif isinstance(n, ir.GlobalRef):
                names.add((n.module, n.name))
                staged.append(n)
        facts = _FACTS[decl] = BodyFacts(tuple(calls), frozenset(names), tuple(staged))
    return facts


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


def workgroup_variables(modules: list[ir.Module], entry: ir.Entry, decls: dict | None = None,
                        reached: list | None = None) -> list[tuple[str, str]]:
    """(module path, name) of every workgroup variable the entry uses, in
    declaration order (`reached`: the keys of the functions it reaches, when
    the caller has them)."""
    decls = declarations(modules) if decls is None else decls
    reached = [key for key, _ in reachable(modules, entry, decls)] if reached is None else reached
    used = set().union(*(body_facts(decls[key]).globals for key in reached))
    order = {m.path: i for i, m in enumerate(modules)}
    found = [(order[key[0]], ir.item_start(modules, key), key) for key in used if key[0] in order
             and isinstance(d := decls.get(key), ir.Resource) and d.kind == "workgroup"]
    return [key for *_, key in sorted(found)]     # in declaration order, without a pass over every declaration


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


def entry_resources(modules: list[ir.Module], function: str) -> list[ir.Resource]:
    """The resources the function an entry names uses (the entry's module is the last)."""
    return [r for _, r in used_resources(modules, ir.function_key(modules, function))]


def used_resources(modules: list[ir.Module], function: tuple[str, str]) -> list[tuple[str, ir.Resource]]:
    """The resources an entry function uses, directly or through calls, as
    (module path, declaration), in order of (group, binding)."""
    decls = declarations(modules)
    found = {(e.module, e.name): decls[(e.module, e.name)]
             for _, decl in functions_from(modules, function, decls) for e in body_facts(decl).staged
             if isinstance(e, ir.GlobalRef) and isinstance(decls.get((e.module, e.name)), ir.Resource)}
    return sorted(((k[0], r) for k, r in found.items()), key=lambda kr: (kr[1].group or 0, kr[1].binding or 0))
