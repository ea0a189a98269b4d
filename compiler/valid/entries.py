"""The entry rules every target shares, checked once instead of in each writer.

One function serves one entry item, and no function calls an entry function:
WGSL and MSL cannot call an entry point, PTX launches a kernel by the one
name every target gives an entry function (docs/后端.md), and the host looks
an entry up by that name.
"""

from __future__ import annotations

from numbers import Integral

from .. import ir
from ..diagnostics import ENTRY, RESOURCE, Diagnostic
from .consteval import KnownValues
from .stages import Declarations

Key = tuple[str, str]   # (module path, top-level name)

#: invocations in a workgroup, in all and along z (WebGPU's guaranteed limits)
MAX_WORKGROUP = 1024
MAX_WORKGROUP_Z = 64


def entry_problems(modules: list[ir.Module], declared: Declarations, entry_functions: dict,
                   callers: list[Key]) -> list[Diagnostic]:
    """The file's entries that name a function an earlier one named, and every
    call of an entry function (a key of `entry_functions`, ModuleInfo's) in
    `callers` (`entry_callers`)."""
    return _shared_functions(modules, declared) + _called_entry_functions(modules, declared, entry_functions, callers)


def entry_callers(declared: Declarations, entry_functions: dict) -> list[Key]:
    """The functions the file translates that call an entry function (their
    calls are all a body edit keeps, so an edit reuses this list)."""
    names = {name for _, name in entry_functions}
    return [key for key, d in declared.functions if not names.isdisjoint(d.calls)]


def _shared_functions(modules: list[ir.Module], declared: Declarations) -> list[Diagnostic]:
    first: dict[str, ir.Entry] = {}   # by the function's name: its key (ModuleInfo.entry_functions) follows from it
    problems = []
    for entry in declared.own_entries:
        earlier = first.setdefault(entry.function, entry)
        if earlier is not entry:
            start = modules[-1].starts[entry.name]
            problems.append(Diagnostic(modules[-1].path, start, start + entry.name_end,
                                       f"函数「{entry.function}」已是入口项「{earlier.name}」的函数：一个函数只能作一个入口",
                                       entry.name, code=ENTRY))
    return problems


def _called_entry_functions(modules: list[ir.Module], declared: Declarations, keys: dict,
                            callers: list[Key]) -> list[Diagnostic]:
    return [Diagnostic(key[0], base + n.name_start, base + n.name_end,
                       f"「{n.name}」是入口函数，不能再调用：把函数体提成另一个函数，两处都调用它", key[1], code=ENTRY)
            for key in callers
            for base in [ir.item_start(modules, key)]
            for n in ir.walk(declared.by_key[key].body)
            if isinstance(n, ir.Call) and n.kind == "function" and (n.module, n.name) in keys]


def named_workgroup_sizes(modules: list[ir.Module], entries: list[ir.Entry], decls: dict) -> list[Diagnostic]:
    """Fill in the sizes the file's compute entries give by a constant's name
    (the checker left 1 there, check/module.py `_workgroup_shape`): the
    constant's value, an overridable one's default.  Such a value is no
    written number, so its range is checked here."""
    problems = []
    known = KnownValues(decls)
    for entry in entries:
        items = ir.workgroup_items(entry)
        if not any(isinstance(i, ir.GlobalRef) for i in items):
            continue
        sizes = [_size_of(i, decls, known) for i in items]
        shape = tuple(sizes + [1] * (3 - len(sizes)))
        total = None if None in shape else shape[0] * shape[1] * shape[2]
        message = None
        if total is None or not 1 <= total <= MAX_WORKGROUP:
            shown = "×".join("？" if s is None else str(s) for s in sizes)
            message = f"工作组大小须在 1 至 {MAX_WORKGROUP} 之间，这里是 {shown}"
        elif shape[2] > MAX_WORKGROUP_Z:
            message = f"工作组的第三维至多 {MAX_WORKGROUP_Z}，这里是 {shape[2]}"
        if message is None:
            entry.workgroup_shape, entry.workgroup_size = shape, total
            continue
        start = modules[-1].starts[entry.name]
        problems.append(Diagnostic(modules[-1].path, start, start + entry.name_end, message, entry.name, code=ENTRY))
    return problems


def _size_of(item: ir.GlobalRef, decls: dict, known: KnownValues) -> int | None:
    """The value of the constant named (an overridable one's default), when it is an integer."""
    decl = decls.get((item.module, item.name))
    default = ir.override_default(decl)
    if default is not None:
        known.evaluate(default)
        value = ir.literal_value(default) if known.of(default) is None else known.of(default)
    else:
        value = known.global_value(item)
    return int(value) if isinstance(value, Integral) and not isinstance(value, bool) else None


def binding_conflicts(modules: list[ir.Module], entries: list[ir.Entry], resources_of) -> list[Diagnostic]:
    """Two resources at one (group, binding) used by the same entry: WGSL lets
    different entry points share a slot (each pipeline binds its own), so a
    module may declare both, but one entry cannot see two things at one slot.
    `resources_of(function)` is what the entry binds (ModuleInfo.entry_resources)."""
    problems = []
    for entry in entries:
        seen: dict[tuple[int, int], str] = {}
        for _, r in resources_of(entry.function):
            if r.group is None or r.binding is None:        # workgroup variables have no slot
                continue
            key = (r.group, r.binding)
            if key in seen and seen[key] != r.name:
                start = modules[-1].starts[entry.name]
                problems.append(Diagnostic(
                    modules[-1].path, start, start + entry.name_end,
                    f"入口「{entry.name}」用到的「{seen[key]}」与「{r.name}」都绑定在组 {key[0]} 号 {key[1]}："
                    "一个入口用到的资源各占一个资源位（不同入口可以共用）", entry.name, code=RESOURCE))
            seen.setdefault(key, r.name)
    return problems
