"""Pieces of target text, the statement walk and the printers of
projections, tuples and records that the C-like writers (WGSL, MSL) share."""

from __future__ import annotations

import math
import struct

from contextlib import contextmanager
from dataclasses import dataclass

from .. import ir
from ..types import TCon, deep_resolve, matrix_parts, resolve

INDENT = "  "


@dataclass
class Code:
    """An expression's text; `atomic` when it needs no parentheses as an operand;
    `angled` when its top level is a less-than (WGSL's template-list discovery
    would pair that `<` with a later `>` of the same argument list, so there it
    is parenthesized: `select(a, (b < c), d > e)`)."""

    text: str
    atomic: bool = True
    angled: bool = False

    def operand(self) -> str:
        return self.text if self.atomic else f"({self.text})"

    def argument(self) -> str:
        """The text as one item of a comma-separated list."""
        return self.operand() if self.angled else self.text

    def __format__(self, spec: str) -> str:
        return self.operand() if spec == "p" else self.text


# ---------------------------------------------------------------- destinations
#
# The statement writers (WGSL, MSL) turn a body expression into statements by
# placing each value in a destination: the function's return, a variable, a
# discarded statement, or the exit of a tail-recursive function's loop.


class Return:
    """The function's result."""


class Discard:
    """A value computed for its effects only."""


@dataclass
class Assign:
    """Assignment to a variable."""

    name: str


@dataclass
class LoopExit:
    """Leaving a loop (a lowered `ir.Loop`) with its value, which then goes
    to `inner`."""

    inner: Return | Discard | Assign


RETURN, DISCARD = Return(), Discard()


def projected(base: Code, e: ir.Project, fields: dict[str, str] | None) -> Code:
    """A projection as both C-like targets write it: a struct member by its
    field name in `fields`, a matrix column by index, vector components by
    letter."""
    if e.components is not None:
        return Code(f"{base.operand()}.{''.join('xyzw'[i] for i in e.components)}")
    if e.field is not None:
        return Code(f"{base.operand()}.{fields[e.field]}")
    if matrix_parts(deep_resolve(e.base.type)) is not None:
        return Code(f"{base.operand()}[{e.index}]")
    return Code(f"{base.operand()}.{'xyzw'[e.index]}")


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


class StatementWriter(LineWriter):
    """The walk both statement writers share: a lowered body's value placed
    in a destination.  A writer supplies how 令 binds (`bind`), how a 若 that
    needs statements is written (`if_into`, when `is_statement_if`), how the
    lowered forms of local calls are printed (`inline_into`, `loop_into`,
    `next_round`: compiler/lower/loops.py decided which is which), how an
    entry clears its workgroup memory (`zero_workgroup`), how a
    plain value becomes text (`expr`), and the text of a discarded value
    (`DISCARDED`)."""

    DISCARDED = "{};"
    #: a struct value from its type's name and its fields' values: WGSL T(a, b), MSL T{a, b}
    RECORD = "{}({})"
    #: an array literal from its type and its elements: WGSL array<T, N>(a, b), MSL array<T, N>{a, b}
    ARRAY = "{}({})"

    def into(self, e: ir.Expr, dest) -> None:
        """Write statements that compute e and deliver its value to dest."""
        if isinstance(e, ir.Seq):
            for item in e.items[:-1]:
                self.into(item, DISCARD)
            self.into(e.items[-1], dest)
        elif isinstance(e, ir.Let):
            self.bind(e.var, e.value)
            self.into(e.body, dest)
        elif isinstance(e, ir.Block):
            self.into(e.body, dest)
        elif isinstance(e, ir.If) and self.is_statement_if(e):
            self.if_into(e, dest)
        elif isinstance(e, ir.Inline):
            self.inline_into(e, dest)
        elif isinstance(e, ir.Loop):
            self.loop_into(e, dest)
        elif isinstance(e, ir.Next):
            self.next_round(e)
        elif isinstance(e, ir.ZeroWorkgroup):
            self.zero_workgroup(e)
        else:
            self.value_into(e, dest)

    # ------------------------------------------------------------ values both write alike
    #
    # A writer supplies `operands` (values in order, saved into temporaries
    # where its evaluation order needs it), `constructor` (the name that
    # builds a value of a type), `field_names` (the struct fields of a
    # projected record by their target names; None after reporting that
    # there is no struct) and `record_values` (a record's values in its
    # struct's field order).

    def _expr_Project(self, e: ir.Project) -> Code:
        base = self.expr(e.base)
        if e.field is None:
            return projected(base, e, None)
        fields = self.field_names(e)
        return Code("?") if fields is None else projected(base, e, fields)

    def _expr_Splat(self, e: ir.Splat) -> Code:
        return Code(f"{self.constructor(e.type, (e.start, e.end))}({self.expr(e.value).argument()})")

    def _expr_MakeTuple(self, e: ir.MakeTuple) -> Code:
        items = ", ".join(c.argument() for c in self.operands(e.items))
        t = resolve(e.type)
        if isinstance(t, TCon) and t.name == "定长数组":
            return Code(self.ARRAY.format(self.type_text(e.type, (e.start, e.end)), items))
        return Code(f"{self.constructor(e.type, (e.start, e.end))}({items})")

    def _expr_MakeRecord(self, e: ir.MakeRecord) -> Code:
        name = self.type_text(e.type, (e.start, e.end))
        values = self.operands(self.record_values(e))
        return Code(self.RECORD.format(name, ", ".join(c.argument() for c in values if c is not None)))

    def value_into(self, e: ir.Expr, dest) -> None:
        self.deliver(dest, self.expr(e))

    def deliver(self, dest, code: Code | None) -> None:
        """Place a value (None: of type 有, nothing to place) in dest."""
        if isinstance(dest, LoopExit):
            self.deliver(dest.inner, code)
            if not isinstance(dest.inner, Return):
                self.line("break;")
        elif code is None:
            if isinstance(dest, Return):
                self.return_nothing()
        elif isinstance(dest, Return):
            self.line(f"return {code.text};")
        elif isinstance(dest, Assign):
            self.line(f"{dest.name} = {code.text};")
        else:
            self.line(self.DISCARDED.format(code.text))

    def return_nothing(self) -> None:
        """A function of type 有 ends by falling off its end."""
