"""`着色器 --version` and `着色器 版本`: the version of the installed package,
or pyproject.toml's when running from a checkout that is not installed."""

from __future__ import annotations

import re
from pathlib import Path

from .common import Command

DISTRIBUTION = "zhuose"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def version() -> str:
    from importlib import metadata   # ~30 ms of imports: only when a version is asked for
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _pyproject_version()


def _pyproject_version() -> str:
    try:
        found = re.search(r'^version\s*=\s*"([^"]+)"', PYPROJECT.read_text(encoding="utf-8"), re.MULTILINE)
    except OSError:
        found = None
    return found.group(1) if found else "未知"


def version_line() -> str:
    return f"着色器 {version()}"


def _print_version(args) -> int:
    print(version_line())
    return 0


VERSION = Command("版本", ["version"], "打印版本号", "打印着色器的版本号（同 --version）。",
                  lambda p: None, _print_version)
