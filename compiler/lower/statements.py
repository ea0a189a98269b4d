"""The statement-level form: where each effect runs, fixed once for every
writer and the reference interpreter.

After `loops.py` has lowered local calls, a body is still an expression tree
in which an effect (a store, an atomic, a call of a function that writes, a
local function's loop) may sit inside an operand: under the right side of
「且」, inside a 「若」 used as a value, next to an operand that reads the
memory it writes.  Each writer used to decide, while printing, when such an
operand runs; they decided differently, and some wrongly.  This pass
rewrites the tree so that no writer has anything left to decide:

* An operand position (an argument, a projected value, a tuple or record
  item, a condition, a loop's first or next values) holds only a *plain*
  expression: no effect, no statement form (令, ；, a local call, a loop,
  a 「若」 that is not a plain choice).  Whatever an operand needs first is
  bound before the operation, in source order, by `令` (an `ir.Let` of a
  temporary named 值) or run for its effect (an `ir.Seq` item).
* Left to right: when a later operand needs statements, each earlier
  operand that reads memory is bound first, so the statements cannot run
  before it (docs/语言.md: operands are evaluated left to right).  Plain
  operands then hold no effect at all, so the order in which a target
  evaluates them (C++ leaves it unspecified) cannot change a result.
* 「且」/「或」 whose right side needs statements becomes a 「若」 bound to a
  temporary: the right side runs only when the left does not decide.
* A 「若」 stays a value (a target may compute both branches: WGSL's select)
  only when it has both branches, a scalar or vector type, and branches that
  are plain and need no neighbours (`speculatable`); every other 「若」 in
  an operand is a statement whose value goes to a temporary.
* 「选择」 computes all its operands, and a target may print it as a
  conditional (C++ ?:): a choice that must run (one that needs its
  neighbours) is bound first.

Statement positions (a body's value, a 令's value, a sequence's items, a
branch of a statement 「若」, a loop's body, an inlined call's arguments)
keep their forms: the writers place those values (backends/text.py
`StatementWriter`, PTX's registers, the interpreter's masks).  A node that
needs no rewriting is returned as it is, the same object, so the facts
attached to checked nodes by identity (known values, proofs) still apply.
"""

from __future__ import annotations

from dataclasses import replace

from .. import ir
from ..valid import registry
from ..types import deep_resolve, is_scalar, is_unit, vector_parts
from .effects import Effects, builtin_facts
from .rebuild import rebuilt

#: forms that are statements wherever they stand
_STATEMENT_FORMS = (ir.Let, ir.Seq, ir.Block, ir.Inline, ir.Loop, ir.Next)

#: what a temporary is called in every target's text
TEMPORARY = "值"

#: a prefix: what runs before an operation, in order — ("let", var, value) or ("do", expr)
Prefix = list[tuple]


class Statements:
    """The statement-level form of the bodies of one translation (see the
    module docstring), memoised by node: a shared lowered subtree is
    rewritten once."""

    def __init__(self, effects: Effects) -> None:
        self.effects = effects
        self._memo: dict[int, ir.Expr] = {}
        self._plain: dict[int, bool] = {}

    # ------------------------------------------------------------ statement positions

    def statement(self, e: ir.Expr) -> ir.Expr:
        """`e` in a position whose value a writer places (a body, a 令's
        value, a branch): its own form kept, its operands made plain."""
        key = id(e)
        if key not in self._memo:
            self._memo[key] = self._statement(e)
        return self._memo[key]

    def _statement(self, e: ir.Expr) -> ir.Expr:
        if isinstance(e, ir.Seq):
            return _same_or(e, [self.statement(i) for i in e.items], lambda items: replace(e, items=items))
        if isinstance(e, ir.Let):
            prefix, value = self._bound(e.value)
            body = self.statement(e.body)
            if not prefix and value is e.value and body is e.body:
                return e
            return wrap(prefix, replace(e, value=value, body=body))
        if isinstance(e, ir.Block):
            return _same_or(e, [self.statement(e.body)], lambda parts: replace(e, body=parts[0]))
        if isinstance(e, ir.If):
            prefix, cond = self.value(e.cond)
            then = self.statement(e.then)
            otherwise = None if e.otherwise is None else self.statement(e.otherwise)
            if not prefix and cond is e.cond and then is e.then and otherwise is e.otherwise:
                return e
            return wrap(prefix, replace(e, cond=cond, then=then, otherwise=otherwise))
        if isinstance(e, ir.Inline):
            return self._inline(e)
        if isinstance(e, (ir.Loop, ir.Next)):
            prefix, args = self.operands(e.args)
            body = self.statement(e.body) if isinstance(e, ir.Loop) else None
            if not prefix and args == e.args and (body is None or body is e.body):
                return e
            node = replace(e, args=args, body=body) if isinstance(e, ir.Loop) else replace(e, args=args)
            return wrap(prefix, node)
        prefix, node = self._operation(e)
        return wrap(prefix, node)

    def _bound(self, e: ir.Expr) -> tuple[Prefix, ir.Expr]:
        """A value about to be bound by 令: a 「若」, an inlined call or a loop
        stays (the writer puts its value into the variable); a 令 or a
        sequence runs before the binding, which takes its last value; an
        operation keeps its place, its operands made plain before it."""
        if isinstance(e, ir.If):
            prefix, cond = self.value(e.cond)
            then = self.statement(e.then)
            otherwise = None if e.otherwise is None else self.statement(e.otherwise)
            if cond is e.cond and then is e.then and otherwise is e.otherwise:
                return prefix, e
            return prefix, replace(e, cond=cond, then=then, otherwise=otherwise)
        if isinstance(e, (ir.Inline, ir.Loop)):
            node = self.statement(e)
            return ([], node) if not isinstance(node, (ir.Let, ir.Seq)) else self._bound(node)
        if isinstance(e, (ir.Let, ir.Seq, ir.Block)):
            return self._unwrapped(e, self._bound)
        return self._operation(e)

    def _unwrapped(self, e: ir.Expr, last) -> tuple[Prefix, ir.Expr]:
        """A 令, a sequence or a block: its bindings and earlier items run
        first, and `last` makes what its last part is."""
        if isinstance(e, ir.Let):
            before, value = self._bound(e.value)
            prefix, out = self._unwrapped(e.body, last)
            return before + [("let", e.var, value)] + prefix, out
        if isinstance(e, ir.Seq):
            prefix = [("do", self.statement(i)) for i in e.items[:-1]]
            rest, out = self._unwrapped(e.items[-1], last)
            return prefix + rest, out
        if isinstance(e, ir.Block):
            return self._unwrapped(e.body, last)
        return last(e)

    def _inline(self, e: ir.Inline) -> ir.Expr:
        """An inlined call binds its parameters in order.  What an argument
        needs first runs before the call, after each earlier argument that
        is not a plain value free of memory reads (bound to a temporary).
        The call stays one node: its body is shared with the function's other
        calls, and known values are kept by node, so a parameter is never a
        令 whose value one call site would make known for all."""
        bound = [self._bound(a) for a in e.args]
        body = self.statement(e.body)
        last = max((i for i, (p, _) in enumerate(bound) if p), default=-1)
        prefix: Prefix = []
        args = []
        for i, (before, arg) in enumerate(bound):
            prefix += before
            if i < last and not (self.plain(arg) and not self.effects.reads(arg)):
                before, arg = self._hoisted([], arg)
                prefix += before
            args.append(arg)
        if not prefix and args == e.args and body is e.body:
            return e
        return wrap(prefix, replace(e, args=args, body=body))

    # ------------------------------------------------------------ operand positions

    def value(self, e: ir.Expr) -> tuple[Prefix, ir.Expr]:
        """`e` as an operand: what must run first, and a plain expression for its value."""
        if self.plain(e):
            return [], e
        if isinstance(e, (ir.Let, ir.Seq, ir.Block)):
            return self._unwrapped(e, self.value)
        if isinstance(e, (ir.Inline, ir.Loop)):
            before, node = self._bound(e)
            return self._hoisted(before, node)
        if isinstance(e, ir.If):
            return self._choice(e)
        prefix, node = self._operation(e)
        if self._runs_in_place(node) or isinstance(node, ir.If):
            return self._hoisted(prefix, node)
        return prefix, node

    def operands(self, args: list[ir.Expr]) -> tuple[Prefix, list[ir.Expr]]:
        """Operands left to right: each one's prefix, and an earlier operand
        that reads memory bound before a later prefix that could change it."""
        done = [self.value(a) for a in args]
        last = max((i for i, (p, _) in enumerate(done) if p), default=-1)
        prefix: Prefix = []
        out = []
        for i, (before, plain) in enumerate(done):
            prefix += before
            if i < last and self.effects.reads(plain):
                before, plain = self._hoisted([], plain)
                prefix += before
            out.append(plain)
        return prefix, out

    def _operation(self, e: ir.Expr) -> tuple[Prefix, ir.Expr]:
        """A call, projection, tuple or record with plain operands (且/或
        whose right side needs statements: a 「若」)."""
        if isinstance(e, ir.Call) and e.kind == "builtin" and e.name in SHORT_CIRCUIT:
            return self._short_circuit(e)
        parts = ir.children(e)
        if not parts:
            return [], e
        prefix, plain = self.operands(parts)
        if isinstance(e, ir.Call) and e.kind == "builtin" and e.name == SELECT:
            for i, a in enumerate(plain[:2]):        # the condition always runs
                if self.effects.must_run(a):
                    before, plain[i] = self._hoisted([], a)
                    prefix += before
        if all(a is b for a, b in zip(parts, plain)):
            return prefix, e
        return prefix, rebuilt(e, plain)

    def _runs_in_place(self, e: ir.Expr) -> bool:
        """An operation that must run exactly where it is written: a store, an
        atomic, a barrier, a new cell, a call of a function with an effect,
        anything of type 有.  A fragment computed by the whole subgroup
        (`COLLECTIVE_VALUES`) writes nothing: it stays in its operand, which
        is never speculated (its 「若」 is no plain choice)."""
        if not isinstance(e, ir.Call):
            return False
        if is_unit(e.type):
            return True
        if e.kind == "builtin":
            record = registry.get(e.name)
            return builtin_facts(e.name).effect and (record is None or record.kind not in COLLECTIVE_VALUES)
        return self.effects.effect(e)

    def _hoisted(self, prefix: Prefix, node: ir.Expr) -> tuple[Prefix, ir.Expr]:
        """`node` run before the operation: bound to a temporary, or run for
        its effect when it has no value."""
        if is_unit(node.type):
            return prefix + [("do", node)], ir.BuiltinValue(node.start, node.end, node.type, "元")
        var = ir.LocalVar(TEMPORARY, node.type, node.start, node.end)
        return prefix + [("let", var, node)], ir.LocalRef(node.start, node.end, node.type, var)

    def _choice(self, e: ir.If) -> tuple[Prefix, ir.Expr]:
        """A 「若」 as a value: a plain choice when `speculatable`, else a statement."""
        prefix, cond = self.value(e.cond)
        if e.otherwise is not None and self.speculatable(e):     # plain branches: kept as they are
            return prefix, e if cond is e.cond else replace(e, cond=cond)
        then = self.statement(e.then)
        otherwise = None if e.otherwise is None else self.statement(e.otherwise)
        return self._hoisted(prefix, replace(e, cond=cond, then=then, otherwise=otherwise))

    def speculatable(self, e: ir.If) -> bool:
        """Both branches may be computed before the condition is known: a
        scalar or vector value whose branches have no effect, need no
        neighbours and no statements."""
        t = deep_resolve(e.type)
        if not (is_scalar(t) or vector_parts(t) is not None):
            return False
        return all(self.plain(b) and not self.effects.must_run(b) for b in (e.then, e.otherwise))

    def plain(self, e: ir.Expr) -> bool:
        """Already an operand as it is: nothing in it needs statements or runs in place."""
        key = id(e)
        if key not in self._plain:
            here = not (isinstance(e, _STATEMENT_FORMS) or self._runs_in_place(e)
                        or (isinstance(e, ir.If) and (e.otherwise is None or not self.speculatable(e)))
                        or (isinstance(e, ir.Call) and e.kind == "builtin" and e.name == SELECT
                            and any(self.effects.must_run(a) for a in e.args[:2])))
            self._plain[key] = here and all(self.plain(c) for c in ir.children(e))
        return self._plain[key]

    def _short_circuit(self, e: ir.Call) -> tuple[Prefix, ir.Expr]:
        """且/或: the right side runs only when the left does not decide, so
        a right side that needs statements becomes a 「若」 (a statement: an
        operand binds it to a temporary)."""
        prefix, left = self.value(e.args[0])
        if self.plain(e.args[1]):
            return prefix, e if left is e.args[0] else replace(e, args=[left, e.args[1]])
        decided = ir.BuiltinValue(e.start, e.end, e.type, "阴" if e.name == "且" else "阳")
        rest = self.statement(e.args[1])
        return prefix, ir.If(e.start, e.end, e.type, left, *((rest, decided) if e.name == "且" else (decided, rest)))


#: the builtins whose right operand runs only when the left does not decide
SHORT_CIRCUIT = frozenset(registry.having("short_circuit"))
#: the builtin that computes all its operands and picks one
SELECT = "选择"
#: registry kinds whose values a subgroup or workgroup computes together: an
#: effect for speculation, but nothing written (their stores are of type 有)
COLLECTIVE_VALUES = frozenset({"matrix", "matrix-memory", "tensor"})


def wrap(prefix: Prefix, body: ir.Expr) -> ir.Expr:
    """`body` after what `prefix` runs: nested 令s and sequences."""
    for item in reversed(prefix):
        if item[0] == "let":
            _, var, value = item
            body = ir.Let(value.start, body.end, body.type, var, value, body)
        else:
            _, effect = item
            items = [effect, *body.items] if isinstance(body, ir.Seq) else [effect, body]
            body = ir.Seq(effect.start, body.end, body.type, items)
    return body


def _same_or(e: ir.Expr, parts: list[ir.Expr], rebuild):
    """`e` itself when no part changed, else `rebuild(parts)`."""
    old = ir.children(e)
    return e if all(a is b for a, b in zip(old, parts)) else rebuild(parts)
