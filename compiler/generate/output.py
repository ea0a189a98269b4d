"""Writing generated modules where parallel build workers may write the same
file at once: the new text goes to a private temporary file in the same
folder and replaces the old one in a single rename, so a reader sees the old
file or the new one, never half of either; identical text is not written at
all, so the file and its modification time stay as they were."""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

TEMPORARY_MARK = ".生成中-"

#: what the command line says for the usual reasons a file cannot be read or written
_ERRNO_TEXT = {errno.ENOENT: "没有这个文件或文件夹", errno.EACCES: "没有权限", errno.EPERM: "不允许这样做",
               errno.EISDIR: "这是文件夹，不是文件", errno.ENOTDIR: "路径中有一级是文件，不是文件夹",
               errno.EEXIST: "已有同名的文件", errno.ENOSPC: "磁盘已满", errno.EROFS: "文件系统只读",
               errno.ENAMETOOLONG: "文件名太长", errno.EDQUOT: "超出磁盘配额"}


def os_error_text(err: OSError) -> str:
    """Why a file operation failed, in Chinese (the system's own words when the reason is unusual)."""
    return _ERRNO_TEXT.get(err.errno) or err.strerror or str(err)


def write_if_changed(path: Path, text: str) -> bool:
    """Put `text` at `path` atomically unless it is there already; whether it was written."""
    return write_bytes_if_changed(path, text.encode("utf-8"))


def write_bytes_if_changed(path: Path, data: bytes) -> bool:
    """`write_if_changed` of bytes."""
    try:
        if path.read_bytes() == data:
            return False
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_atomically(path, data)
    return True


def replace_atomically(path: Path, data: bytes) -> None:
    """Put `data` at `path` in one rename: a reader (or a failed write) never sees half a file."""
    temporary = path.with_name(f"{path.name}{TEMPORARY_MARK}{os.getpid()}-{secrets.token_hex(4)}")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(descriptor, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
