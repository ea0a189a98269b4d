"""Build integration (seed 着二): high-level import lookup, the virtual module
名。着色生成。豫 generated from a shader source, atomic output, and the
JSON-lines build service.  See docs/生成.md.

The names below are imported on first use, so that `生成` with nothing to do
(ledger.py) loads neither the checker nor the back ends."""

from __future__ import annotations

import importlib

_HOME = {"Generator": "api", "WriteResult": "api", "string_literal": "escape", "string_value": "escape",
         "Resolved": "lookup", "dependencies": "lookup", "file_kind": "lookup",
         "find_high_level_import": "lookup", "package_of": "lookup", "virtual_path": "lookup",
         "Generated": "module", "generate": "module"}

__all__ = ["Generator", "WriteResult", "Generated", "generate", "Resolved", "find_high_level_import",
           "dependencies", "file_kind", "package_of", "virtual_path", "string_literal", "string_value"]


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
