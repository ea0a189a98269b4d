"""Dependency files for build tools (`--依赖文件 文件.d`, `-MD`): the output
and every file it was made from, in the Makefile syntax that Make, Ninja
(`deps = gcc`), CMake's `DEPFILE` and Bazel wrappers read, as glslc, dxc and
gcc write it (docs/生成.md, 依赖文件).

    产物/加倍.wgsl: /abs/点染本。着色器。接口。豫 /abs/甲/乙。着色器。豫 \\
      /abs/甲/包.json /abs/应用/加倍。着色器。豫 …
    /abs/点染本。着色器。接口。豫:
    …

Dependencies are absolute (the command runs in the workspace root, which need
not be the build tool's folder); each also stands alone as a target with no
rule (gcc's -MP), so deleting an imported module makes Make rerun the command,
which then reports the missing import, instead of stopping at "no rule".
Only files that exist are named: a file that is missing but would matter if it
appeared (a 包.json between a source and its package's root) would make every
build rerun the command.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .output import write_bytes_if_changed

#: what `-MD` appends to the output's name
SUFFIX = ".d"

_BACKSLASHES_BEFORE = re.compile(r"(\\*)([ #])")


class UnwritablePath(ValueError):
    """A path that Makefile syntax cannot carry (a newline or tab in it)."""


def escaped(path: str) -> str:
    """A path as one Makefile word: space and # behind a backslash (and
    the backslashes right before them doubled), $ doubled; non-ASCII is
    written as is (the file is UTF-8)."""
    if any(c in path for c in "\n\r\t\0"):
        raise UnwritablePath(f"路径「{path!r}」里有换行、制表符或 NUL，依赖文件的 Makefile 语法写不出它")
    path = _BACKSLASHES_BEFORE.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), path)
    return path.replace("$", "$$")


def text(output: str, dependencies: list[str]) -> str:
    """The depfile of `output`: one rule naming every dependency (one a line),
    then an empty rule for each dependency."""
    deps = [escaped(d) for d in dict.fromkeys(dependencies)]
    head = escaped(output) + ":" + "".join(f" \\\n  {d}" for d in deps) + "\n"
    return head + "".join(f"\n{d}:\n" for d in deps)


def write(depfile: str | os.PathLike, output: str, dependencies: list[str]) -> bool:
    """Put the depfile at `depfile` atomically, leaving an identical one
    untouched (its time included); whether it was written.  Raises OSError
    when it cannot be written, UnwritablePath for a path it cannot name."""
    data = text(output, dependencies).encode("utf-8", "surrogateescape")   # a file name's undecodable bytes as they were
    return write_bytes_if_changed(Path(depfile), data)


def default_path(output: str) -> str:
    """Where `-MD` puts the depfile: next to the output, `.d` appended
    (加倍.wgsl → 加倍.wgsl.d), as gcc's -MD does with the object's name."""
    return output + SUFFIX
