"""The entry rules every target shares, checked once instead of in each writer.

One function serves one entry item, and no function calls an entry function:
WGSL and MSL cannot call an entry point, PTX launches a kernel by the one
name every target gives an entry function (docs/后端.md), and the host looks
an entry up by that name.
"""

from __future__ import annotations

from .. import ir
from ..diagnostics import ENTRY, Diagnostic
from .stages import Declarations

Key = tuple[str, str]   # (module path, top-level name)


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
