"""A body edit re-checked without re-deriving the module's interface.

Typing inside a function body changes that one item; the module's interface
(types, signatures, the fingerprint) and every other item's check stay as
they were, only moved.  Re-running the module checker still costs a dozen
passes over every item, which at 16,000 lines is most of an edit's time.  So
a clean check (no diagnostics) leaves a `Reusable`, and the next check of the
same module with the same imports first tries `recheck_bodies`: when every
item has the same text and doc as before except definitions of signed
functions (same name), whose new checks are clean and call the same
functions (so the recursion rule reads the same), the result is the old
module with those items' IR swapped in and everything after them placed at
its new offset: the declarations by the module's table of item starts
(`ir.Module.starts`), the interface entries by twins (`_entry_at`), never by
moving an object an older module holds.
Anything else returns None and the module checker runs as usual; the tests
compare both against a fresh workspace after random edits.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, count
from operator import is_not

from .. import ir
from ..syntax import ast
from ..syntax.parser import ParsedItem
from ..types import Printer
from .module import CheckCache, CheckedModule, ItemResult, ModuleChecker, ModuleInput
from .scope import Exports, Scope


@dataclass(eq=False)
class Reusable:
    """What a clean check of a module leaves for the next body edit: its
    input, its result, and the checker whose interface (scope, signatures,
    fingerprint) checks a changed body."""

    inp: ModuleInput
    checked: CheckedModule
    checker: ModuleChecker


def check_keeping(inp: ModuleInput, cache: CheckCache, printer: Printer) -> tuple[CheckedModule, Reusable | None]:
    """The module checker's result, and what a body edit may reuse of it
    (nothing for an interface file or a module with messages)."""
    checker = ModuleChecker(inp, cache, printer)
    checked = checker.run()
    clean = not checked.diagnostics and not inp.is_interface
    return checked, (Reusable(inp, checked, checker) if clean else None)


def recheck_bodies(previous: Reusable, inp: ModuleInput) -> tuple[CheckedModule, Reusable] | None:
    """`inp` checked by reusing `previous`, when only signed function bodies
    changed (the caller has seen that its imports are the same); else None."""
    old, new = previous.inp.parsed, inp.parsed
    if inp.import_diagnostics or len(old.trees) != len(new.trees):
        return None
    changed: dict[int, ItemResult] = {}   # index → the new check of a changed body
    for index in compress(count(), map(is_not, old.trees, new.trees)):   # a tree taken over is the same object
        before, after = old.trees[index], new.trees[index]
        if before.doc != after.doc:
            return None
        if before.text != after.text:
            result = _body_check(previous, index, ParsedItem(after, new.starts[index]))
            if result is None:
                return None
            changed[index] = result
    checked = _placed(previous, inp, changed)
    return checked, Reusable(inp, checked, previous.checker)


def _body_check(previous: Reusable, index: int, new: ParsedItem) -> ItemResult | None:
    """The new check of a changed signed function's definition, if it is clean
    and calls what the old one called."""
    old_result = previous.checked.results[index]
    old_node, node = previous.inp.parsed.trees[index].node, new.node
    if new.errors or not isinstance(node, ast.Definition) or not isinstance(old_node, ast.Definition) \
            or node.name != old_node.name or old_result is None or not isinstance(old_result.decl, ir.Function):
        return None
    if not previous.checker.signs_function(node.name):
        return None
    result = previous.checker.recheck_definition(new)
    if result.diagnostics or not isinstance(result.decl, ir.Function) or result.decl.calls != old_result.decl.calls:
        return None
    return result


def _placed(previous: Reusable, inp: ModuleInput, changed: dict[int, ItemResult]) -> CheckedModule:
    """The previous module with the changed items' IR swapped in and every
    declaration at its item's new offset (the declarations themselves shared:
    `Module.starts` places them)."""
    old = previous.checked
    results = list(old.results)
    module = ir.Module(inp.path, inp.name, inp.package, inp.is_interface, imports=list(inp.import_paths))
    module.decls = list(old.module.decls)
    for i, result in changed.items():
        module.decls[module.decls.index(results[i].decl)] = result.decl
        results[i] = result
    old_starts, new_starts = previous.inp.parsed.starts, inp.parsed.starts
    module.starts = _moved_starts(old.module.starts, old_starts, new_starts)
    exports = _exports_at(old.exports, old_starts, new_starts)
    scope = Scope(exports, inp.opened, inp.qualified, inp.builtins)
    return CheckedModule(inp.path, module, exports, [], inp.parsed, results, scope)


def _moved_starts(starts: dict[str, int], old_starts: list[int], new_starts: list[int]) -> dict[str, int]:
    """A module's table of declaration starts after its items moved from
    `old_starts` to `new_starts` (index by index; one C-speed pass each)."""
    if old_starts == new_starts:
        return starts
    moved = dict(zip(old_starts, new_starts))
    return dict(zip(starts, map(moved.__getitem__, starts.values())))


def _exports_at(old: Exports, old_starts: list[int], new_starts: list[int]) -> Exports:
    """The interface with the entries of moved items at their new offsets
    (`old_starts`/`new_starts`: every item's start before and after, index by index)."""
    return _MovedExports(old, old_starts, new_starts) if old_starts != new_starts else old


class _MovedExports(Exports):
    """An interface whose entries are the previous interface's, those of moved
    items placed by twins when `types` or `values` is first read: a body
    edit's diagnostics read neither (importers see the same fingerprint), hover
    and go-to-definition do.  Unread ones chain by keeping the first base and
    its item starts and only the newest starts (body edits keep the items
    index by index), so a chain of edits costs nothing until it is read."""

    def __init__(self, old: Exports, old_starts: list[int], new_starts: list[int]) -> None:
        self.path, self.name, self.fingerprint, self.failed = old.path, old.name, old.fingerprint, old.failed
        pending = old.__dict__.get("_pending")
        self._pending = (pending[0], pending[1], new_starts) if pending else (old, old_starts, new_starts)

    def __getattr__(self, attr: str):
        pending = self.__dict__.get("_pending")
        if attr not in ("types", "values") or not pending:
            raise AttributeError(attr)
        base, base_starts, starts = pending
        moved = dict(zip(base_starts, starts))
        self.types = {name: _entry_at(e, moved, base.path) for name, e in base.types.items()}
        self.values = {name: _entry_at(e, moved, base.path) for name, e in base.values.items()}
        self._pending = None
        return self.__dict__[attr]


def _entry_at(entry, moved: dict[int, int], path: str):
    """An interface entry of module `path` at its item's new offset: itself, or a twin."""
    start = moved.get(entry.start, entry.start)
    if start == entry.start or entry.module != path:
        return entry
    twin = object.__new__(type(entry))
    twin.__dict__.update(entry.__dict__)
    twin.start = start
    return twin
