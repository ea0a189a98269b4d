"""What the last run of a command made from which inputs, kept in the user
cache, so a run in which nothing changed answers without importing the
checker or the back ends: `生成` and the build service (the modules they
wrote or printed; compiler/generate/remembered.py) and `译`/`金属`/`千手`
(the text they printed).  A build that calls the command on
every build then pays little more than Python's start and a few stats.

One ledger per (command kind, working folder, output folder).  An entry is
current when its output file (if any) is as it was written and every input
(the files whose text the result depends on, and their packages' 包.json)
still has its stamp, or, when a stamp moved, still hashes the same.  Only
changes of these files' texts are noticed (as Generator's memory does); a
change of the compiler's own code misses the whole ledger.  Failed runs are
never recorded, so they are always redone.
"""

from __future__ import annotations

import hashlib
import json
import os
import time

from . import cache

#: a stamp this close to the ledger's writing may hide a later rewrite in the
#: same clock tick (git's "racy" files): such an input is hashed, not trusted
RACY_NS = 2_000_000_000


def file_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _stamp(path: str) -> list[int] | None:
    """`cache.file_stamp` as JSON gives it back: a list."""
    stamp = cache.file_stamp(path)
    return None if stamp is None else list(stamp)


def _digest(path: str) -> str | None:
    data = file_bytes(path)
    return None if data is None else hashlib.sha256(data).hexdigest()


class Ledger:
    """The entries of one command kind run from folder `here` (the working
    folder, or the build service's workspace root) into `place`."""

    def __init__(self, kind: str, place: str = "", here: str = ".") -> None:
        folder = os.path.realpath(here).encode("utf-8", "surrogateescape")
        there = os.path.realpath(place).encode("utf-8", "surrogateescape") if place else b""
        self.name = cache.key(kind, folder, there, cache.code_stamp(()))
        self._entries: dict | None = None

    @property
    def entries(self) -> dict:
        if self._entries is None:
            entries = cache.loaded(self.name, json.loads)
            self._entries = entries if isinstance(entries, dict) else {}
        return self._entries

    def current(self, key: str) -> dict | None:
        """The entry of `key` when nothing it was made from changed since."""
        entry = self.entries.get(key)
        return entry if isinstance(entry, dict) and _still_current(entry) else None

    def remember(self, key: str, inputs: list[tuple], output: str | None = None, **facts) -> None:
        """Record an entry; each input is (path, the stamp it was read at or
        None for now, the bytes the result was made from or None when absent)."""
        self.entries[key] = {
            **facts, "output": output, "output_stamp": _stamp(output) if output else None,
            "written_at": time.time_ns(),
            "inputs": [[path, list(stamp) if stamp else _stamp(path),
                        None if data is None else hashlib.sha256(data).hexdigest()]
                       for path, stamp, data in inputs]}

    def save(self) -> None:
        cache.write(self.name, json.dumps(self.entries, ensure_ascii=False).encode("utf-8"))


def _unmoved(stamp, recorded, written_at: int) -> bool:
    return stamp is not None and stamp == recorded and stamp[0] < written_at - RACY_NS


def _still_current(entry: dict) -> bool:
    try:
        if entry["output"] is not None and _stamp(entry["output"]) != entry["output_stamp"]:
            return False
        written_at = entry["written_at"]
        return all(_unmoved(_stamp(path), stamp, written_at) or _digest(path) == digest
                   for path, stamp, digest in entry["inputs"])
    except (KeyError, TypeError, ValueError, IndexError):
        return False


def present(inputs: list) -> list[str]:
    """The paths of the inputs that were there: of `workspace_inputs`' tuples
    or of an entry's recorded inputs (a 包.json looked for and absent has no
    bytes, no digest).  What a depfile names."""
    return [path for path, _, data in inputs if data is not None]


def workspace_inputs(ws, key: str) -> list[tuple]:
    """The inputs of a checked file, as `remember` takes them: the builtin
    declarations, every module it imports, itself, and their packages' 包.json."""
    from .packages import MANIFEST
    paths = list(dict.fromkeys([ws._builtin_key(), *ws.check(key).module.imports, ws.key(key)]))
    loaded = [(p, ws.load(p)) for p in paths]
    manifests = sorted({str(ws.packages.package_of(p).root / MANIFEST) for p in paths})
    return ([(p, l.stamp, l.source.text.encode("utf-8", "surrogatepass")) for p, l in loaded]
            + [(m, None, file_bytes(m)) for m in manifests])
