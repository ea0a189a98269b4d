"""Which known name a misspelt one most likely means.

One ranking serves the checker's hint (「是不是「…」？」) and the editor's
quick fix, so both offer the same name: fewest edits first, then the nearer
kind of name (locals, this module, other modules, builtins), then the more
similar spelling.  A candidate must be about as close as difflib's ratio 0.5.
"""

from __future__ import annotations

import difflib
import os
from typing import Iterable

from ..packages import builtin_interface_path

LOCAL, OWN, IMPORTED, BUILTIN = range(4)


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def ranked(name: str, candidates: Iterable[tuple[str, int]]) -> list[str]:
    """The close candidates (name, tier), best first."""
    tiers: dict[str, int] = {}
    for candidate, tier in candidates:
        tiers.setdefault(candidate, tier)
    keyed = []
    for order, (candidate, tier) in enumerate(tiers.items()):
        ratio = difflib.SequenceMatcher(None, name, candidate).ratio()
        if candidate != name and ratio >= 0.5:
            common = len(os.path.commonprefix([name, candidate]))
            keyed.append(((edit_distance(name, candidate), tier, -ratio, -common, order), candidate))
    return [candidate for _, candidate in sorted(keyed)]


def layer_tier(scope, layer) -> int:
    """How near a scope layer's names are to the code being written."""
    if layer is scope.own:
        return OWN
    if layer is scope.builtins or os.path.realpath(layer.path) == os.path.realpath(builtin_interface_path()):
        return BUILTIN
    return IMPORTED


def scope_candidates(scope, locals_: Iterable[str] = (), values_only: bool = False) -> list[tuple[str, int]]:
    """Every name visible in a scope with its tier, locals first."""
    out = [(n, LOCAL) for n in locals_]
    for layer in scope.layers:
        tier = layer_tier(scope, layer)
        out += [(n, tier) for n in layer.values]
        if not values_only:
            out += [(n, tier) for n in layer.types]
    return out
