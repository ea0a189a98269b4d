"""Every target's builtin table, gathered where the back ends are known.

How a builtin is written for a target stays in that target's own table
(wgsl/builtins.py, msl/builtins.py, ptx/ops.py); each table module answers
`registry_entry(name)` (its row, or None and the reason the target lacks the
builtin) and `registry_names()`.  This module imports each of them and keys
them by the target records of targets.py, so a test can prove, looping over
`TARGETS`, that every builtin of the registry (compiler/valid/registry.py) is
written or declared unavailable by every target, and that no table names a
builtin that does not exist; the registry itself names no target.

Only the tests read this module: translating imports just the back end it
needs (`translate` in __init__.py)."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from .msl import builtins as msl_builtins
from .ptx import ops as ptx_ops
from .targets import BY_NAME, MSL, PTX, WGSL, Target
from .wgsl import builtins as wgsl_builtins

#: target → the module of its builtin table (answering `registry_entry`, `registry_names`)
TABLES: dict[Target, ModuleType] = {WGSL: wgsl_builtins, MSL: msl_builtins, PTX: ptx_ops}


@dataclass(frozen=True)
class OnTarget:
    """How one target writes a builtin (`entry`: the row of its table), or
    why it cannot (`reason`); both None when the target's tables miss it."""

    entry: object = None
    reason: str | None = None


def on_target(target: str, name: str) -> OnTarget:
    """What target `target`'s own table says about builtin `name`."""
    entry, reason = TABLES[BY_NAME[target]].registry_entry(name)
    return OnTarget(entry, reason)


def table_names(target: str) -> set[str]:
    """Every builtin name target `target`'s tables mention (to catch stale rows)."""
    return set(TABLES[BY_NAME[target]].registry_names())
