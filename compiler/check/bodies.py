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
its new offset — the interface entries and declarations by twins
(`Decl.at`, `_entry_at`), never by moving an object an older module holds.
Anything else returns None and the module checker runs as usual; the tests
compare both against a fresh workspace after random edits.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from operator import itemgetter

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
    old_items, new_items = previous.inp.parsed.items, inp.parsed.items
    if inp.import_diagnostics or len(old_items) != len(new_items):
        return None
    moved: dict[int, int] = {}          # old item start → new item start
    changed: dict[int, ItemResult] = {}   # index → the new check of a changed body
    for index, (old, new) in enumerate(zip(old_items, new_items)):
        if old.doc != new.doc:
            return None
        if old.text != new.text:
            result = _body_check(previous, index, new)
            if result is None:
                return None
            changed[index] = result
        if old.start != new.start:
            moved[old.start] = new.start
    checked = _placed(previous, inp, moved, changed)
    return checked, Reusable(inp, checked, previous.checker)


def _body_check(previous: Reusable, index: int, new: ParsedItem) -> ItemResult | None:
    """The new check of a changed signed function's definition, if it is clean
    and calls what the old one called."""
    old_result = previous.checked.items[index][1]
    old_node, node = previous.inp.parsed.items[index].node, new.node
    if new.errors or not isinstance(node, ast.Definition) or not isinstance(old_node, ast.Definition) \
            or node.name != old_node.name or old_result is None or not isinstance(old_result.decl, ir.Function):
        return None
    if not previous.checker.signs_function(node.name):
        return None
    result = previous.checker.recheck_definition(new)
    if result.diagnostics or not isinstance(result.decl, ir.Function) or result.decl.calls != old_result.decl.calls:
        return None
    return result


def _placed(previous: Reusable, inp: ModuleInput, moved: dict[int, int], changed: dict[int, ItemResult]) -> CheckedModule:
    """The previous module with the changed items' IR and every item at its new offset."""
    old = previous.checked
    results = list(map(itemgetter(1), old.items))
    old_items = previous.inp.parsed.items
    first = min([old_items[i].start for i in changed] + ([min(moved)] if moved else []), default=None)
    module = ir.Module(inp.path, inp.name, inp.package, inp.is_interface, imports=list(inp.import_paths))
    # the declarations before the first changed or moved item stay as they are
    cut = len(old.module.decls) if first is None else bisect_left(old.module.decls, first, key=_start)
    module.decls = old.module.decls[:cut]
    replaced = {id(results[i].decl): (changed[i], inp.parsed.items[i].start) for i in changed}
    owners = {id(r.decl): r for r in results[bisect_left(old_items, first, key=_start):]
              if r is not None and r.decl is not None} if first is not None else {}
    for decl in old.module.decls[cut:]:
        found = replaced.get(id(decl))
        result = found[0] if found else owners.get(id(decl))
        placed = result.decl.at(found[1]) if found else decl.at(moved.get(decl.start, decl.start))
        if result is not None:
            result.decl = placed        # as the module checker's assembly does: the next check finds it placed
        module.decls.append(placed)
    for i, result in changed.items():
        results[i] = result
    exports = _exports_at(old.exports, moved)
    scope = Scope(exports, inp.opened, inp.qualified, inp.builtins)
    return CheckedModule(inp.path, module, exports, [], list(zip(inp.parsed.items, results)), scope)


def _start(span) -> int:
    return span.start


def _exports_at(old: Exports, moved: dict[int, int]) -> Exports:
    """The interface with the entries of moved items at their new offsets."""
    return _MovedExports(old, moved) if moved else old


class _MovedExports(Exports):
    """An interface whose entries are the previous interface's, those of moved
    items placed by twins when `types` or `values` is first read: a body
    edit's diagnostics read neither (importers see the same fingerprint), hover
    and go-to-definition do.  Unread ones chain by composing the moves, so
    each keeps one base and one map however many edits pass unread."""

    def __init__(self, old: Exports, moved: dict[int, int]) -> None:
        self.path, self.name, self.fingerprint, self.failed = old.path, old.name, old.fingerprint, old.failed
        pending = old.__dict__.get("_pending")
        self._pending = (pending[0], _composed(pending[1], moved)) if pending else (old, moved)

    def __getattr__(self, attr: str):
        pending = self.__dict__.get("_pending")
        if attr not in ("types", "values") or not pending:
            raise AttributeError(attr)
        base, moved = pending
        self.types = {name: _entry_at(e, moved, base.path) for name, e in base.types.items()}
        self.values = {name: _entry_at(e, moved, base.path) for name, e in base.values.items()}
        self._pending = None
        return self.__dict__[attr]


def _composed(first: dict[int, int], then: dict[int, int]) -> dict[int, int]:
    """Old start → newest start, through two edits' moves (starts are unique
    in each version, so a start that no first move lands on was not moved by it)."""
    out = {a: then.get(b, b) for a, b in first.items()}
    landed = set(first.values())
    out.update((a, b) for a, b in then.items() if a not in landed)
    return out


def _entry_at(entry, moved: dict[int, int], path: str):
    """An interface entry of module `path` at its item's new offset: itself, or a twin."""
    start = moved.get(entry.start)
    if start is None or entry.module != path:
        return entry
    twin = object.__new__(type(entry))
    twin.__dict__.update(entry.__dict__)
    twin.start = start
    return twin
