"""Validation: what runs after checking and before any back end.

Like naga's `valid/`, one pass turns a checked module (and the shader
modules it imports) into a `ModuleInfo`: the facts every back end needs and
none should decide again — which resources each function uses, directly
or through its calls (`uses`, read by the MSL and PTX writers, the
interpreter and the command line), which workgroup variables each entry uses,
the values of constant expressions, the lowered bodies
(compiler/lower/loops.py, made when a writer first asks and shared by the
three) — plus the diagnostics of the rules that span
functions and modules (what each stage may use, `stages.py`; one function
per entry and no call of one, `entries.py`; uniform control flow,
`uniformity.py`).  `Workspace.validate` runs it (cached) for `检查`, the
language server and every translation, so all three refuse the same thing.

The pass is a list of steps, `STEPS`; each is a function `step(info)` that
reads `info.modules` and fills fields of `info` or appends to
`info.diagnostics`, and may rely on the steps before it.  A new rule (the
uniformity analysis, say) is one more function appended to `STEPS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress, count
from operator import is_not

from .. import ir
from ..builtin.families import FAMILIES
from ..diagnostics import Diagnostic
from ..types import Printer
from .consteval import KnownValues
from .limits import flagged_declarations, limit_problems
from .entries import binding_conflicts, entry_callers, entry_problems, named_workgroup_sizes
from .stages import (NO_USES, Declarations, Uses, UsesTable, body_facts, function_key, reachable, resources_in_order,
                     sorted_declarations, stage_problems, workgroup_variables)
from .uniformity import Round, UniformityCache, uniformity_problems

Key = tuple[str, str]   # (module path, top-level name)


@dataclass(eq=False)
class ModuleInfo:
    """What the validation pass knows about one shader source."""

    module: ir.Module                 # the file validated
    modules: list[ir.Module]          # the shader modules it reaches, imports first, itself last
    show: Printer                     # prints types with the builtin aliases' names
    sources: dict[str, str] = field(default_factory=dict)           # module path → its text
    decls: dict[Key, ir.Decl] = field(default_factory=dict)
    entries: list[ir.Entry] = field(default_factory=list)          # the file's own entries
    entry_functions: dict[Key, ir.Entry] = field(default_factory=dict)   # an entry's function → the entry
    workgroup: dict[str, list[Key]] = field(default_factory=dict)   # entry name → workgroup variables it uses
    known: KnownValues | None = None  # constant-expression values, evaluated on demand
    uniform_proofs: set = field(default_factory=set)   # uniform values WGSL must be shown (uniformity.py)
    lowered: object = None            # the bodies the writers print: compiler/lower/loops.py's `lowering(info)`
    diagnostics: list[Diagnostic] = field(default_factory=list)
    uniformity_cache: UniformityCache | None = None   # walks kept from earlier validations (the editor's)
    declared: Declarations | None = None   # the declarations sorted once for the steps (stages.py)
    entry_callers: list[Key] = field(default_factory=list)   # the functions that call an entry function
    reached: dict[str, list[Key]] = field(default_factory=dict)   # entry name → the functions it runs, its own first
    uses: UsesTable | None = None     # function → the resources it uses, with its callees' (`uses.of(key)`, stages.py)
    uniformity_round: Round | None = None  # what the uniformity analysis kept for the next validation
    over_limits: dict = field(default_factory=dict)   # the file's declarations that exceed a limit (limits.py)
    edit: "BodyEdit | None" = None    # while validating: how the modules differ from the previous validation's

    def function_key(self, name: str) -> Key:
        """The key of the file's function `name` (an entry's, as the entry names it)."""
        return function_key(self.modules, name, self.decls)

    def entry_uses(self, function: str) -> Uses:
        """The resources the file's function `function` (an entry's) uses, directly or through calls."""
        return self.uses.of(self.function_key(function))

    def entry_resources(self, function: str) -> list[tuple[str, ir.Resource]]:
        """`entry_uses(function)`'s resources as (module path, declaration), in
        order of (group, binding): what the host binds for the entry."""
        return resources_in_order(self.modules, self.decls, self.entry_uses(function).resources)


@dataclass(eq=False)
class BodyEdit:
    """The modules validated differ from `previous`'s only in the bodies of
    the functions `changed` (same names, same calls: the editor's keystroke),
    so a step may patch what the previous validation found instead of walking
    every declaration again."""

    previous: ModuleInfo
    changed: list       # ((path, name), the new function)


def body_edit(previous: ModuleInfo | None, modules: list[ir.Module]) -> BodyEdit | None:
    """How `modules` differ from the ones `previous` validated, when only in
    function bodies (declarations are shared objects across such edits, so
    the comparison is by identity); else None."""
    if previous is None or len(previous.modules) != len(modules) \
            or any(map(is_not, previous.modules[:-1], modules[:-1])):
        return None
    old, new = previous.modules[-1], modules[-1]
    if old.path != new.path or len(old.decls) != len(new.decls):
        return None
    changed = []
    for i in compress(count(), map(is_not, old.decls, new.decls)):
        a, b = old.decls[i], new.decls[i]
        if not (isinstance(a, ir.Function) and isinstance(b, ir.Function)) or a.name != b.name \
                or a.calls != b.calls or a.body is None or b.body is None:
            return None
        changed.append(((new.path, b.name), b))
    return BodyEdit(previous, changed)


def call_graph(info: ModuleInfo) -> None:
    """Declarations by key, the file's entries, what each entry reaches, the
    resources each function uses (computed when first asked: `info.uses`) and
    each entry's workgroup variables."""
    edit = info.edit
    info.declared = edit.previous.declared.patched(edit.changed) if edit else sorted_declarations(info.modules)
    info.decls = info.declared.by_key
    info.entries = info.declared.own_entries
    for entry in info.entries:    # the first entry naming a function (entries.py refuses a second)
        info.entry_functions.setdefault(function_key(info.modules, entry.function, info.decls), entry)
    kept = edit.previous if edit and _same_facts(edit, "calls") else None
    same_uses = kept is not None and _same_uses(edit)
    info.uses = UsesTable(info.decls, kept.uses.known if same_uses else None)
    for entry in info.entries:
        reached = kept.reached.get(entry.name) if kept else None
        if reached is None:
            reached = [key for key, _ in reachable(info.modules, entry, info.decls)]
        info.reached[entry.name] = reached
        known = kept.workgroup.get(entry.name) if same_uses else None
        info.workgroup[entry.name] = known if known is not None else \
            workgroup_variables(info.modules, info.uses.of(reached[0]) if reached else NO_USES, info.decls)


def _same_facts(edit: BodyEdit, fact: str) -> bool:
    """Whether the changed functions' `BodyFacts.<fact>` are what they were:
    the same calls in the same order (then every entry reaches the same
    functions in the same order)."""
    before = edit.previous.decls
    return all(getattr(body_facts(decl), fact) == getattr(body_facts(before[key]), fact) for key, decl in edit.changed)


def _same_uses(edit: BodyEdit) -> bool:
    """Whether the changed functions name and measure what they did: then
    every function uses the same resources as before (`stages.Uses`)."""
    before = edit.previous.decls
    return all(body_facts(decl).same_uses(body_facts(before[key])) for key, decl in edit.changed)


def entry_rules(info: ModuleInfo) -> None:
    """One function per entry, no call of an entry function (entries.py): every
    target refused these in its own writer before."""
    edit = info.edit
    info.entry_callers = edit.previous.entry_callers if edit else entry_callers(info.declared, info.entry_functions)
    info.diagnostics += entry_problems(info.modules, info.declared, info.entry_functions, info.entry_callers)


def entry_bindings(info: ModuleInfo) -> None:
    """No two resources at one slot in what one entry binds; the module may hold both
    when different entries use them (entries.py `binding_conflicts`)."""
    info.diagnostics += binding_conflicts(info.modules, info.entries, info.entry_resources)


def workgroup_sizes(info: ModuleInfo) -> None:
    """A 「工作组大小」 that names a top-level constant takes its value — an
    overridable constant's default, which every target but WGSL (that writes
    the name) is translated with — into the entry's shape, checked as the
    checker checks written sizes (entries.py `named_workgroup_sizes`)."""
    info.diagnostics += named_workgroup_sizes(info.modules, info.entries, info.decls)


def stage_rules(info: ModuleInfo) -> None:
    """What each entry's stage may use, in every function it reaches (stages.py)."""
    found = [d for e in info.entries for d in stage_problems(info.modules, e, info.decls, info.reached[e.name])]
    info.diagnostics += {(d.path, d.start, d.message): d for d in found}.values()


def constant_values(info: ModuleInfo) -> None:
    """The WGSL const-expression values the back ends write (consteval.py)."""
    info.known = KnownValues(info.decls)


def uniform_control_flow(info: ModuleInfo) -> None:
    """Barriers, subgroup operations, derivatives … only where the whole group
    runs (uniformity.py), in every function the file translates: its own and
    its imports' (each module after the modules it imports).  The proofs its
    requirements rely on tell the WGSL writer which entry structs to pass field
    by field and which workgroup reads to make with workgroupUniformLoad."""
    edit, cache = info.edit, info.uniformity_cache
    changed = [key for key, _ in edit.changed] \
        if edit and cache is not None and cache.rounds.get(info.module.path) is edit.previous.uniformity_round else None
    problems, proofs, info.uniformity_round = uniformity_problems(info.modules, info.sources, cache, info.declared,
                                                                  changed)
    info.diagnostics += problems
    info.uniform_proofs |= proofs


def target_limits(info: ModuleInfo) -> None:
    """What WebGPU refuses when it creates the module or pipeline, refused by 检查 (limits.py)."""
    edit = info.edit
    info.over_limits = flagged_declarations(info, edit.previous.over_limits if edit else None,
                                            edit.changed if edit else [])
    info.diagnostics += limit_problems(info, info.over_limits)


STEPS = [call_graph, workgroup_sizes, stage_rules, entry_rules, entry_bindings, uniform_control_flow, constant_values,
         target_limits]


def validate(module: ir.Module, imports: list[ir.Module], show: Printer,
             sources: dict[str, str] | None = None, uniformity_cache: UniformityCache | None = None,
             previous: ModuleInfo | None = None) -> ModuleInfo:
    """Run every step over `module` and the shader modules it imports
    (checked without errors; interface modules are left out); `sources`
    holds their texts (for the messages that quote a condition);
    `uniformity_cache` lets an edit re-walk only the functions it changed,
    and `previous`, the last validation of the same file, lets a body edit
    patch its findings (`BodyEdit`)."""
    modules = [m for m in imports if not m.is_interface] + [module]
    info = ModuleInfo(module, modules, show, sources or {}, uniformity_cache=uniformity_cache)
    info.edit = body_edit(previous, modules)
    for step in STEPS:
        step(info)
    info.edit = None        # the previous validation is not kept alive by this one
    return info


def reduce_family(name: str, args: tuple):
    """A type family applied to concrete arguments (「元素」于 T …), for back ends
    that still meet unreduced families; None when it does not reduce."""
    return FAMILIES[name][1](args)
