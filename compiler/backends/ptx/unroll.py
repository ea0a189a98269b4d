"""Which loops PTX writes out round by round (issue 27): a loop whose rounds
the constant evaluator can follow — every test on the way to the next round
reads only loop variables it knows (they start known and their next values
are known) or constants; other variables are carried from round to round as
the registers that compute them — with few rounds and a small body.  nvcc unrolls such loops (the
strides of a tree reduction, a scan's offsets, a butterfly's distances); ptxas
does not, when the trip count hides behind a shift.  Written out, each round's
variables are immediates and the tests vanish.
"""

from __future__ import annotations

from ... import ir
from ...valid.consteval import ConstEvaluator

ROUNDS = 16          # at most this many rounds are written out …
BUDGET = 1024        # … and at most this many IR nodes, rounds × body

#: what `_round_end` gives when the loop's value leaves instead of a next round
DONE = "done"


def known_rounds(loop: ir.Loop, global_value, outer: dict, scale: int = 1) -> list[list] | None:
    """The loop variables' values in each round (None for one the evaluator
    does not know), or None when the loop is not written out (a test
    unknown, too many rounds, too big a body);
    `outer` holds the variables of loops around it that are written out too,
    `scale` how many times they write this loop (their rounds multiplied),
    which counts against the budget as well."""
    size = sum(1 for _ in ir.walk(loop.body))
    evaluator = ConstEvaluator(global_value, lambda *_: None)
    evaluator.locals.update(outer)
    values = [evaluator.value(a) for a in loop.args]
    rounds: list[list] = []
    while True:
        if len(rounds) > ROUNDS or len(rounds) * size * scale > BUDGET:
            return None
        rounds.append(values)
        following = _round_end(loop.body, round_evaluator(loop, values, global_value, outer))
        if following is None or following == DONE:
            return rounds if following == DONE else None
        values = following


def round_evaluator(loop: ir.Loop, values: list, global_value, outer: dict) -> ConstEvaluator:
    """A constant evaluator that knows one round's loop variables (and those of `outer` loops)."""
    evaluator = ConstEvaluator(global_value, lambda *_: None)
    evaluator.locals.update(outer)
    evaluator.locals.update({id(p): v for p, v in zip(loop.fun.params, values)})
    return evaluator


def taken(e: ir.If, evaluator: ConstEvaluator) -> ir.Expr | None:
    """The branch of a tail 若 a round takes (None: neither, the loop ends), or
    raise LookupError when its condition is unknown."""
    cond = evaluator.value(e.cond)
    if not isinstance(cond, bool):
        raise LookupError
    return e.then if cond else e.otherwise


def bind(e: ir.Let, evaluator: ConstEvaluator) -> None:
    """A 令 on the way to the next round: known to later tests and next values when it is constant."""
    evaluator.locals[id(e.var)] = evaluator.value(e.value)


def _round_end(e: ir.Expr | None, evaluator: ConstEvaluator):
    """The next round's values, DONE when the loop ends this round, None when unknown."""
    while True:
        if e is None:
            return DONE
        if isinstance(e, ir.If):
            try:
                e = taken(e, evaluator)
            except LookupError:
                return None
        elif isinstance(e, ir.Let):
            bind(e, evaluator)
            e = e.body
        elif isinstance(e, ir.Block):
            e = e.body
        elif isinstance(e, ir.Seq):
            e = e.items[-1]
        elif isinstance(e, ir.Next):
            return [evaluator.value(a) for a in e.args]
        else:
            return DONE
