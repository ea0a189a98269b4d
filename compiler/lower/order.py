"""Evaluation order, decided once for every writer: which operands of one
operation are saved into temporaries before the later ones are written.

The source evaluates operands left to right.  A text writer prints the
statements a later operand needs (a 令, a loop, a 若 that is no expression)
before the whole operation, so an operand printed in place would run after
them; and a target whose expressions leave the order of operands unspecified
(C++) may run an operand that reads memory after a later one that writes it.
Such an operand is saved first.  How a target orders operands is a row of
data (`OperandOrder`, in each target's record, backends/targets.py), not a
code path of its own."""

from __future__ import annotations

from enum import Enum
from typing import Sequence

from .. import ir
from .effects import Effects


class OperandOrder(Enum):
    """How a target's text orders the operands of one operation."""

    #: each operand is its own instructions, in order (PTX): nothing is saved
    INSTRUCTIONS = "instructions"
    #: left to right, as WGSL defines it
    LEFT_TO_RIGHT = "left to right"
    #: left unspecified, as C++ does (MSL)
    UNSPECIFIED = "unspecified"


def saved_operands(args: Sequence[ir.Expr], effects: Effects, needs_statements: Sequence[bool],
                   order: OperandOrder, skipped: bool = False) -> set[int]:
    """The positions of `args` to save into a temporary, in order.

    An operand that touches memory (`Effects.touches_memory`: an effect or a
    read) is saved when a later operand takes statements
    (`needs_statements[i]`: printing `args[i]` puts statements before the
    operation), since those would run first; where the order is unspecified,
    also when another operand touches memory and one of them writes.  Nothing
    else can change when it runs: the operands are values of locals, and a
    call's value is its body's (a pure call or a neighbour operation may run
    after the statements).  `skipped`: the printed form evaluates only some
    operands (C++ `?:` printing 选择), so every operand that must run is
    saved too."""
    if order is OperandOrder.INSTRUCTIONS:
        return set()
    touching = [effects.touches_memory(a) for a in args]
    last = max((i for i, needs in enumerate(needs_statements) if needs), default=-1)
    if order is OperandOrder.UNSPECIFIED and sum(touching) >= 2 and any(effects.effect(a) for a in args):
        last = len(args) - 1
    saved = {i for i in range(last) if touching[i]}
    if skipped:
        saved |= {i for i, a in enumerate(args) if effects.must_run(a)}
    return saved
