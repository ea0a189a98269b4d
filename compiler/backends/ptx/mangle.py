"""Deterministic ASCII names for PTX (seed 着十).

ptxas rejects any byte outside ASCII, comments included, so every name from
the source is rewritten: of its UTF-8 bytes, ASCII letters and digits stay,
every other byte (the underscore too) becomes `_` and two lowercase hex
digits.  The rewrite is injective, and the prefix (yy for entries, ys for
workgroup variables, yo for overridable constants) keeps a mangled name from starting with a digit and
from colliding with the writer's own names (p_g…, %r…, L…).
"""

from __future__ import annotations

ENTRY_PREFIX = "yy"
SHARED_PREFIX = "ys"
OVERRIDE_PREFIX = "yo"     # pipeline-overridable constants: .visible .const, set by the host before a launch


def mangle(name: str, prefix: str) -> str:
    """『加倍』 with prefix yy → yy_e5_8a_a0_e5_80_8d."""
    out = [prefix]
    for byte in name.encode("utf-8"):
        ch = chr(byte)
        out.append(ch if ch.isascii() and ch.isalnum() else f"_{byte:02x}")
    return "".join(out)
