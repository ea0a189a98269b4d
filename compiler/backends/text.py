"""Pieces of target text that the C-like writers (WGSL, MSL) share."""

from __future__ import annotations

import math
import struct

from contextlib import contextmanager
from dataclasses import dataclass

INDENT = "  "


@dataclass
class Code:
    """An expression's text; `atomic` when it needs no parentheses as an operand."""

    text: str
    atomic: bool = True

    def operand(self) -> str:
        return self.text if self.atomic else f"({self.text})"

    def __format__(self, spec: str) -> str:
        return self.operand() if spec == "p" else self.text


@dataclass
class Assign:
    """A value's destination: assignment to a variable."""

    name: str

    def deliver(self, w, code: Code | None) -> None:
        if code is not None:
            w.line(f"{self.name} = {code.text};")


def float_text(value) -> str:
    """A float literal's digits, always with a decimal point or exponent (40 → 40.0)."""
    if isinstance(value, int):
        return f"{value}.0"
    text = repr(float(value))
    return text if any(c in text for c in ".en") else text + ".0"


def narrow_float_text(value: float, bits: int) -> str:
    """The shortest float literal that is `value` once rounded to a float of
    `bits` bits (0.1f, not the f32 value's 17 digits)."""
    code = {32: "f", 16: "e"}.get(bits)
    if code is not None and math.isfinite(value):
        for digits in range(1, 18):
            text = f"{value:.{digits}g}"
            if struct.unpack(code, struct.pack(code, float(text)))[0] == value:
                return float_text(float(text))
    return float_text(value)


class LineWriter:
    """Indented lines of one function body being written."""

    lines: list[str]
    depth: int

    def line(self, text: str) -> None:
        self.lines.append(INDENT * self.depth + text)

    @contextmanager
    def block(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
