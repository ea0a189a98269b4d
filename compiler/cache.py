"""The user's on-disk cache (parser tables, the checked builtin interface).

Entries are keyed by a hash of what they were built from and the package
version, so an edited grammar or interface or a new release simply misses.
Writes go to a temporary file renamed into place, so a parallel process never
reads half an entry; every failure (no directory, no permission, a corrupt
file) is a miss, never an error shown to the user.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")

#: the package version (pyproject.toml); part of every key
VERSION = "0.1.0"

#: overrides the cache folder (tests point it at a temporary directory)
CACHE_ENV = "ZHUOSE_CACHE_DIR"


def cache_dir() -> Path:
    """$ZHUOSE_CACHE_DIR, else $XDG_CACHE_HOME/zhuose, else ~/.cache/zhuose."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "zhuose"


#: the code whose objects a snapshot pickles: a change here (a working copy
#: between releases) must miss too, not unpickle stale classes
_CODE = ("check", "syntax", "builtin", "valid", "lower", "types.py", "ir.py", "diagnostics.py", "source.py", "cache.py")


@functools.lru_cache(maxsize=None)
def code_stamp(parts: tuple[str, ...] = _CODE) -> bytes:
    """Size and modification time of the compiler sources under `parts`
    (folders and files of this package; empty: all of it).  Taken once per
    process: the code a process runs is what it imported, whatever changes
    on disk later (and every fresh workspace asks)."""
    root = os.path.dirname(os.path.abspath(__file__))
    stamps: list[str] = []
    for part in parts or ("",):
        _stamp_tree(root, os.path.join(root, part) if part else root, stamps)
    return "\n".join(stamps).encode()


def _stamp_tree(root: str, path: str, stamps: list[str]) -> None:
    """`relative path:size:mtime` of `path` (a .py file) or of every .py file under it, in name order."""
    try:
        if not os.path.isdir(path):
            stamps.append(_file_stamp(root, path, os.stat(path)))
            return
        with os.scandir(path) as found:
            entries = sorted(found, key=lambda e: e.name)
        for e in entries:
            if e.is_dir():
                _stamp_tree(root, e.path, stamps)
            elif e.name.endswith(".py"):
                stamps.append(_file_stamp(root, e.path, e.stat()))
    except OSError:
        return


def _file_stamp(root: str, path: str, st: os.stat_result) -> str:
    return f"{os.path.relpath(path, root)}:{st.st_size}:{st.st_mtime_ns}"


def file_stamp(path: str) -> tuple[int, int, int, int] | None:
    """(mtime_ns, ctime_ns, size, inode) of a file, None when it cannot be
    stat'ed: what a workspace and the ledger compare to trust a file unread."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def key(kind: str, *parts: bytes) -> str:
    """The file name of an entry built from `parts` by this version."""
    h = hashlib.sha256(VERSION.encode())
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return f"{kind}-{h.hexdigest()[:32]}"


def entry_path(name: str) -> Path:
    return cache_dir() / name


def read(name: str) -> bytes | None:
    try:
        return entry_path(name).read_bytes()
    except OSError:
        return None


def loaded(name: str, loads: Callable[[bytes], T | None]) -> T | None:
    """An entry as `loads` makes it; None when it is missing, or corrupt or
    foreign (`loads` raises or answers None)."""
    data = read(name)
    if data is None:
        return None
    try:
        return loads(data)
    except Exception:  # whatever a corrupt entry makes marshal, pickle or lark raise
        return None


def load(name: str, loads: Callable[[bytes], T | None], build: Callable[[], T | None],
         dumps: Callable[[T], bytes]) -> T | None:
    """The entry as `loads` makes it, else what `build` makes, stored for the
    next process (unless `build` answers None: nothing to keep)."""
    value = loaded(name, loads)
    if value is None:
        value = build()
        if value is not None:
            write(name, dumps(value))
    return value


def write(name: str, data: bytes) -> None:
    """Atomically store an entry; silently does nothing when the folder is unwritable."""
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, folder / name)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass
