"""The user's on-disk cache (parser tables, the checked builtin interface).

Entries are keyed by a hash of what they were built from and the package
version, so an edited grammar or interface or a new release simply misses.
Writes go to a temporary file renamed into place, so a parallel process never
reads half an entry; every failure (no directory, no permission, a corrupt
file) is a miss, never an error shown to the user.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

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


def code_stamp(parts: tuple[str, ...] = _CODE) -> bytes:
    """Size and modification time of the compiler sources under `parts`
    (folders and files of this package; empty: all of it)."""
    root = Path(__file__).parent
    stamps = []
    for part in parts or ("",):
        top = root / part
        files = sorted(top.rglob("*.py")) if top.is_dir() else [top]
        for f in files:
            try:
                st = f.stat()
            except OSError:
                continue
            stamps.append(f"{f.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(stamps).encode()


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
