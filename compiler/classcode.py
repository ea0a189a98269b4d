"""The methods `dataclasses` writes for the compiler's classes (`__init__`,
`__repr__`, `__eq__`, …), compiled once and kept in the user cache.

dataclasses writes each method as source text and compiles it while the
module that defines the class is imported: for the hundred-odd classes of
the syntax tree, the IR, the checker and the validation pass that compiling
was about a fifth of a whole `着色器 译` of an edited file.  Inside
`remembered()` dataclasses is handed the code an earlier run compiled from
the very same text (the cache entry maps text to code, marshal, keyed by the
Python version), so every method is still the function that text defines;
text not seen before is compiled as usual and added to the entry on leaving.
A command that checks wraps its imports and its work in it; a library user
of the package never sees dataclasses changed.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import sys
from types import CodeType
from typing import Iterator

from . import cache

#: an entry that grew past this many texts (code edited many times) starts afresh
LIMIT = 1000


def _entry_name() -> str:
    return cache.key("classcode", sys.version.encode())


def _known(name: str) -> dict:
    """The texts and code of the cache entry; a missing or corrupt one is empty."""
    known = cache.loaded(name, marshal.loads)
    return known if isinstance(known, dict) else {}


@contextlib.contextmanager
def remembered() -> Iterator[None]:
    """Within the block, dataclasses compiles no method text an earlier run compiled."""
    if getattr(dataclasses, "exec", builtins.exec) is not builtins.exec:   # nested, or another hook: leave it
        yield
        return
    name = _entry_name()
    known: dict = {}
    fresh: dict = {}

    def compiled_exec(source, globals=None, locals=None):
        if not isinstance(source, str):
            return builtins.exec(source, globals, locals)
        if not known:     # read on the first class: a block that defines none reads nothing
            known.update(_known(name) or {None: None})
        code = known.get(source)
        if not isinstance(code, CodeType):
            code = fresh[source] = compile(source, "<string>", "exec")
        return builtins.exec(code, globals, locals)

    dataclasses.exec = compiled_exec
    try:
        yield
    finally:
        if vars(dataclasses).get("exec") is compiled_exec:   # only our own hook (a racing thread may have set one)
            del dataclasses.exec
        if fresh:
            kept = {t: c for t, c in known.items() if isinstance(t, str)} if len(known) + len(fresh) <= LIMIT else {}
            cache.write(name, marshal.dumps({**kept, **fresh}))
