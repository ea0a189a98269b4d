"""Writing generated modules where parallel build workers may write the same
file at once: the new text goes to a private temporary file in the same
folder and replaces the old one in a single rename, so a reader sees the old
file or the new one, never half of either; identical text is not written at
all, so the file and its modification time stay as they were."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

TEMPORARY_MARK = ".生成中-"


def write_if_changed(path: Path, text: str) -> bool:
    """Put `text` at `path` atomically unless it is there already; whether it was written."""
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}{TEMPORARY_MARK}{os.getpid()}-{secrets.token_hex(4)}")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(descriptor, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return True
