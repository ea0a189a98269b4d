"""Build integration (seed 着二): high-level import lookup, the virtual module
名。着色生成。豫 generated from a shader source, atomic output, and the
JSON-lines build service.  See docs/生成.md."""

from .api import Generator, WriteResult
from .escape import string_literal, string_value
from .lookup import Resolved, dependencies, file_kind, find_high_level_import, package_of, virtual_path
from .module import Generated, generate

__all__ = ["Generator", "WriteResult", "Generated", "generate", "Resolved", "find_high_level_import",
           "dependencies", "file_kind", "package_of", "virtual_path", "string_literal", "string_value"]
