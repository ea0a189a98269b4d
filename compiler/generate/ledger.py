"""What the last `生成 --输出目录` wrote, kept in the user cache, so a run
in which nothing changed answers without importing the checker or the back
ends (a build that calls the command on every build pays only stats).

One ledger per (working folder, output folder).  A source is current when its
output file is as it was written and every input (the files whose text the
module depends on, and their packages' 包.json) still has its stamp, or, when
a stamp moved, still hashes the same.  Like Generator's memory, only changes
of these files' texts are noticed; a change of the compiler's own code misses
the whole ledger.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass

from .. import cache


@dataclass
class Current:
    """A source whose module need not be generated again."""

    output: str
    warnings: list[str]


def _stamp(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino]


def _digest(path: str) -> str | None:
    data = file_bytes(path)
    return None if data is None else hashlib.sha256(data).hexdigest()


def _name(out_dir: str) -> str:
    here = os.path.realpath(".").encode("utf-8", "surrogateescape")
    there = os.path.realpath(out_dir).encode("utf-8", "surrogateescape")
    return cache.key("generate", here, there, cache.code_stamp(()))


def _load(out_dir: str) -> dict:
    data = cache.read(_name(out_dir))
    try:
        ledger = json.loads(data) if data is not None else {}
    except ValueError:
        return {}
    return ledger if isinstance(ledger, dict) else {}


#: a stamp this close to the ledger's writing may hide a later rewrite in the
#: same clock tick (git's "racy" files): such an input is hashed, not trusted
RACY_NS = 2_000_000_000


def _unmoved(stamp, recorded, written_at: int) -> bool:
    return stamp is not None and stamp == recorded and stamp[0] < written_at - RACY_NS


def _still_current(entry, written_at: int) -> bool:
    try:
        if _stamp(entry["output"]) != entry["output_stamp"]:
            return False
        return all(_unmoved(_stamp(path), stamp, written_at) or _digest(path) == digest
                   for path, stamp, digest in entry["inputs"])
    except (KeyError, TypeError, ValueError, IndexError):
        return False


def unchanged(sources: list[str], out_dir: str) -> list[Current] | None:
    """Each source's output and warnings when every one is current, else None."""
    ledger = _load(out_dir)
    entries = [ledger.get(os.path.realpath(s)) for s in sources]
    if not all(isinstance(e, dict) and _still_current(e, e.get("written_at", 0)) for e in entries):
        return None
    return [Current(e["output"], list(e["warnings"])) for e in entries]


def file_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def record(out_dir: str, written: list[tuple[str, str, list[str], list[tuple]]]) -> None:
    """Remember (source, output, warnings, inputs) for each module just
    written; an input is (path, the stamp it was read at or None for now,
    the bytes the module was made from, or None when it does not exist)."""
    ledger = _load(out_dir)
    for source, output, warnings, inputs in written:
        ledger[os.path.realpath(source)] = {
            "output": output, "output_stamp": _stamp(output), "warnings": warnings, "written_at": time.time_ns(),
            "inputs": [[path, list(stamp) if stamp else _stamp(path), data and hashlib.sha256(data).hexdigest()]
                       for path, stamp, data in inputs]}
    cache.write(_name(out_dir), json.dumps(ledger, ensure_ascii=False).encode("utf-8"))
