"""How the PTX writer writes a lowered loop (`ir.Loop`, seed 着五): its
variables in registers rewritten before the jump back; rotated (bottom-tested)
where the body is one 若; written out round by round where the constant
evaluator follows every round (unroll.py); counted loops several rounds as one
straight line, the rest after; invariants computed once before it.  A mixin of
`Writer` (writer.py), which it shares its state with."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from ... import ir
from ...lower.types import concrete
from ...types import TCon
from ...valid import registry
from .scalars import PRED, S32, U32, Scalar, Unsupported, is_immediate, leaves
from .unroll import bind, known_rounds, round_evaluator, taken
from .values import Value, immediate_integer, refuse_reference_value

#: a counted loop (`Writer._counted`) runs this many rounds as one straight line while it can …
COUNTED_BY = 4
#: … or this many, where the round is one 下一轮 of register arithmetic with at most WIDE_NODES IR nodes
WIDE_BY, WIDE_NODES = 16, 12
#: … a counted loop's round with at most this many IR nodes
COUNTED_NODES = 48
#: the builtins whose second argument indexes the array that is their first (bounds-checked by `Writer.inside`)
ELEMENT_ACCESSES = frozenset({"读数组", "写数组", "读共享数组", "写共享数组"})


@dataclass
class Loop:
    """The registers and labels of a lowered loop being written."""

    params: list[list[str]]          # the loop variables' registers
    kinds: list[list[Scalar]]
    result: list[str]                # where the loop's value leaves
    result_kinds: list[Scalar]
    start: str
    exit: str
    test: ir.Expr | None = None      # a rotated loop's condition, tested again after each round
    env: dict | None = None          # the loop variables' values the test reads
    other: str | None = None         # where a rotated loop goes when the test fails


class LoopWriting:
    """The loop half of `Writer`."""

    def _Loop(self, e: ir.Loop, env) -> Value:
        """The loop's variables become registers that its next round rewrites
        before jumping back to the top — or, when the constant evaluator can
        follow its few rounds (unroll.py), each round is written out with the
        variables it knows as immediates."""
        fun = e.fun
        for p in fun.params:
            refuse_reference_value(concrete(p.type), f"局部递归函数「{fun.name}」的参数「{p.name}」")
        result_type = concrete(fun.result)
        refuse_reference_value(result_type, f"局部递归函数「{fun.name}」的值")
        rounds = known_rounds(e, self.known.global_value, self.round_locals, self.written_out)
        if rounds is not None:
            return self._unrolled(e, rounds, env)
        args = [self.value(a, env) for a in e.args]
        kinds = [leaves(p.type) for p in fun.params]
        params = [[self.copy(k, part) for k, part in zip(ks, a.parts)] for ks, a in zip(kinds, args)]
        result_kinds = leaves(result_type)
        result = [self.reg(k) for k in result_kinds]
        start, exit_ = self.new_labels("loop", "exit")
        loop = Loop(params, kinds, result, result_kinds, start, exit_)
        env = {**env, **{id(p): Value(concrete(p.type), regs) for p, regs in zip(fun.params, params)}}
        test = self._rotatable(e.body)
        if test is None:
            self.label(start)
            self._tail(e.body, env, loop)
        else:
            counted = self._counted(test, fun.params)
            if counted is None:
                self._rotated(test, env, loop)
            else:
                with self._hoisting(test.then, env, fun.params, counted[0]) as accesses:
                    if not self._four_at_a_time(e, test, env, loop, *counted, accesses):
                        self._rotated(test, env, loop, rolled=True)
                    elif test.otherwise is not None:    # the counter is N: the loop's value
                        self._tail(test.otherwise, env, loop)
        self.label(exit_)
        return Value(result_type, result)

    def _unrolled(self, e: ir.Loop, rounds: list[list], env: dict) -> Value:
        """Each round's body, its tail 若 decided here so only the branch the
        round takes is written; a variable the evaluator knows is an immediate
        (its value in `round_values`), one it does not is the register its
        last round computed."""
        result_type = concrete(e.fun.result)
        result = [self.reg(k) for k in leaves(result_type)]
        outer = self.round_locals, self.round_values
        values = [self.value(a, env) for a in e.args]
        self.written_out *= len(rounds)
        try:
            for known in rounds:
                evaluator = round_evaluator(e, known, self.known.global_value, outer[0])
                evaluator.value(e.body)
                self.round_locals, self.round_values = evaluator.locals, {**outer[1], **evaluator.known}
                round_env = {**env, **{id(p): v for p, v in zip(e.fun.params, values)}}
                values = self._round(e.body, round_env, evaluator, result)
        finally:
            self.round_locals, self.round_values = outer
            self.written_out //= len(rounds)
        return Value(result_type, result)

    def _round(self, e: ir.Expr | None, env: dict, evaluator, result: list[str]) -> list[Value] | None:
        """One written-out round: the next round's values, or None after the loop's value is moved out."""
        while e is not None:
            if isinstance(e, ir.If):
                e = taken(e, evaluator)
            elif isinstance(e, ir.Let):
                bind(e, evaluator)
                env = {**env, id(e.var): self.value(e.value, env)}
                e = e.body
            elif isinstance(e, ir.Block):
                e = e.body
            elif isinstance(e, ir.Seq):
                for item in e.items[:-1]:
                    self.value(item, env)
                e = e.items[-1]
            elif isinstance(e, ir.Next):
                return [self.value(a, env) for a in e.args]
            else:
                value = self.value(e, env)
                self._move_all(leaves(value.type), result, value.parts)
                return None
        return None

    def _rotatable(self, body: ir.Expr) -> ir.If | None:
        """A loop whose body is one 若 with a condition that can be computed
        twice (no memory access, no effects) is written bottom-tested."""
        while isinstance(body, ir.Block):
            body = body.body
        return body if isinstance(body, ir.If) and self._repeatable(body.cond) else None

    def _repeatable(self, e: ir.Expr) -> bool:
        """Computed twice, the same: eager (lower/effects.py), or pure builtins
        over such values and 数组长度 — which here reads the register its
        parameter is loaded into once per entry (`buffer_length`), so 鸟群's
        若 i 小于（数组长度 于 旧群）loop is bottom-tested too."""
        if isinstance(e, ir.Call) and e.kind == "builtin" and e.name == "数组长度":
            return self.effects.eager(e.args[0])
        if isinstance(e, ir.Call) and e.kind == "builtin" and registry.is_pure(e.name):
            return all(self._repeatable(a) for a in e.args)
        return self.effects.eager(e)

    def _counted(self, test: ir.If, params: list) -> tuple[int, ir.Expr] | None:
        """(which variable counts, its limit N) where the loop is 若 i 小于 N 则（…；环 于 … i 加 1 …）
        with N the same in every round (no loop variable, no memory access), a
        round that is one straight line to its next round, and a small body."""
        cond, ids = test.cond, [id(p) for p in params]
        if not (isinstance(cond, ir.Call) and cond.kind == "builtin" and cond.name == "小于"
                and isinstance(cond.args[0], ir.LocalRef) and id(cond.args[0].var) in ids
                and leaves(cond.args[0].type) == [U32]):
            return None
        limit, index = cond.args[1], ids.index(id(cond.args[0].var))
        if any(isinstance(n, ir.LocalRef) and id(n.var) in ids for n in ir.walk(limit)):
            return None
        tail = test.then
        while isinstance(tail, (ir.Let, ir.Block, ir.Seq)):
            tail = tail.items[-1] if isinstance(tail, ir.Seq) else tail.body
        if not isinstance(tail, ir.Next) or sum(1 for _ in ir.walk(test.then)) > COUNTED_NODES \
                or any(isinstance(n, ir.Loop) for n in ir.walk(test.then)):
            return None
        step = tail.args[index]
        if not (isinstance(step, ir.Call) and step.kind == "builtin" and step.name == "加"
                and isinstance(step.args[0], ir.LocalRef) and step.args[0].var is params[index]):
            return None
        one = self._constant(step.args[1])
        return (index, limit) if one is not None and one.parts == ["1"] else None

    @contextmanager
    def _hoisting(self, body: ir.Expr, env: dict, params: list, index: int):
        """The arrays a counted loop indexes by its counter or by base 加 counter,
        as (resource, base register or None): each base that reads no loop
        variable and no memory is computed once before the loop (矩阵向量积's
        row start 行 乘 列数, a mad per round before); so is every other
        integer or bool the round computes from such values alone (`_invariants`)."""
        outer, self.hoisted = self.hoisted, dict(self.hoisted)
        counter, variables = params[index], {id(p) for p in params}
        accesses = []
        for n in ir.walk(body):
            if not (isinstance(n, ir.Call) and n.kind == "builtin" and n.name in ELEMENT_ACCESSES
                    and isinstance(n.args[0], ir.GlobalRef)):
                continue
            index = n.args[1]
            if isinstance(index, ir.LocalRef) and index.var is counter:
                base = None
            elif isinstance(index, ir.Call) and index.kind == "builtin" and index.name == "加" \
                    and isinstance(index.args[1], ir.LocalRef) and index.args[1].var is counter \
                    and self._invariant(index.args[0], env, variables):
                base = index.args[0]
            else:
                continue
            resource = self.value(n.args[0], env).resource
            if resource is None:
                continue
            if base is not None and id(base) not in self.hoisted:
                self.hoisted[id(base)] = self.value(base, env)
            accesses.append((resource, None if base is None else self.hoisted[id(base)].parts[0]))
        for n in self._invariants(body, env, variables):
            if id(n) not in self.hoisted:
                self.hoisted[id(n)] = self.value(n, env)
        try:
            yield accesses
        finally:
            self.hoisted = outer

    def _invariant(self, e: ir.Expr, env: dict, variables: set[int]) -> bool:
        """An unsigned value the same in every round: only variables bound
        before the loop other than its own, no memory, no effects."""
        return leaves(e.type) == [U32] and self.effects.eager(e) and all(
            id(n.var) not in variables and id(n.var) in env for n in ir.walk(e) if isinstance(n, ir.LocalRef))

    def _invariants(self, e: ir.Expr, env: dict, variables: set[int]):
        """The largest computed integers and bools of a round that read no loop
        variable, nothing bound inside the loop and no memory (奇偶排序's 局 按位与 1,
        局 加 1 小于 块长): computed once before the loop, where ptxas, with
        barriers between rounds, computed them every round.  Pure builtins only
        (no subgroup or memory operation), so computing them where the round
        would not changes nothing but the time."""
        if isinstance(e, ir.Call) and e.kind == "builtin" and leaves(concrete(e.type)) in ([U32], [S32], [PRED]) \
                and self._constant(e) is None and self.effects.eager(e) and all(
                    id(n.var) not in variables and id(n.var) in env for n in ir.walk(e) if isinstance(n, ir.LocalRef)):
            yield e
            return
        for child in ir.children(e):
            yield from self._invariants(child, env, variables)

    def _room(self, n: str, accesses: list) -> str:
        """N lowered to where every array the loop indexes by (base 加) counter
        still holds the element: four rounds at a time then need no bounds
        checks (tested here once), the rolled loop after them checks the rest.
        Without bounds checks, lowered to where base 加 counter 加 3 does not wrap."""
        for resource, base in accesses:
            array = concrete(resource.inner)
            if not self.options.bounds:   # base 加 counter 加 3 must not wrap for one address per four rounds
                if base is not None:
                    n = self.op("min.u32", U32, n, self.op("not.b32", U32, self.in_register(U32, base)))
                    self.unchecked.add((id(resource), base))
                continue
            if not (isinstance(array, TCon) and array.name == "数组"):
                continue
            length = self.buffer_length(resource)
            if base is not None:      # length − base, or 0 where base is past the end
                start = self.in_register(U32, base)
                length = self.op("sub.u32", U32, self.op("max.u32", U32, length, start), start)
            n = self.op("min.u32", U32, n, length)
            self.unchecked.add((id(resource), base))
        return n

    def _four_at_a_time(self, e: ir.Loop, test: ir.If, env: dict, loop: Loop, index: int, limit: ir.Expr,
                        accesses: list) -> bool:
        """While i 加 3 is still below N, four rounds are one straight line
        (each round's values feed the next in registers), then the loop as
        written takes the last zero to three rounds: what nvcc's unroller
        writes.  Left to ptxas, the counted loop comes back peeled and
        unrolled with three kinds of remainder (矩阵向量积: 132 SASS for nvcc's 75).
        With bounds checks, the four rounds run only while the arrays they
        index by the counter hold the elements (`_room`), unchecked.
        True where the rounds are a known number, a multiple of four (奇偶排序's
        256 from 0): no test before the first pass, and none are left after."""
        counter = loop.params[index][0]
        self.counted_by = self._rounds_at_a_time(test.then)
        limit_value = self.value(limit, env).parts[0]
        n = self.in_register(U32, limit_value)
        lowered = self._room(n, accesses)
        trips = self._known_trips(e, index, limit_value) if lowered == n else None
        exact = trips is not None and trips >= self.counted_by and trips % self.counted_by == 0 \
            and not (test.otherwise is not None and any(isinstance(x, ir.Next) for x in ir.walk(test.otherwise)))
        main, rest = self.new_labels("by4", "rest")
        if not exact:
            room = self.op("setp.gt.u32", PRED, lowered, str(self.counted_by - 1))
            last = self.op("sub.u32", U32, lowered, str(self.counted_by - 1))
            self.emit(f"@!{self.op('and.pred', PRED, room, self.op('setp.lt.u32', PRED, counter, last))} bra {rest}")
        self.label(main)
        values = [Value(concrete(p.type), regs) for p, regs in zip(e.fun.params, loop.params)]
        evaluator = round_evaluator(e, [None] * len(values), self.known.global_value, self.round_locals)
        self.steps = {counter: (counter, 0)}
        start = self._constant(e.args[index])
        self.step_start = immediate_integer(start.parts[0]) if start is not None else None
        try:
            for _ in range(self.counted_by):
                values = self._round(test.then, {**env, **{id(p): v for p, v in zip(e.fun.params, values)}},
                                     evaluator, [])
        finally:
            self.steps, self.offsets, self.unchecked, self.step_start = {}, {}, set(), None
            by, self.counted_by = self.counted_by, COUNTED_BY
        self._assign(loop, [v.parts for v in values])
        if exact:
            more = self.op("setp.lt.u32", PRED, counter, str(int(limit_value) - (by - 1)))
        else:
            more = self.op("and.pred", PRED, room, self.op("setp.lt.u32", PRED, counter, last))
        self.emit(f"@{more} bra {main}")
        if not exact:
            self.label(rest)
        return exact

    def _known_trips(self, e: ir.Loop, index: int, limit: str) -> int | None:
        """How many rounds a counted loop runs when its counter starts at a
        constant s and its limit N is one: N − s (0 from s ≥ N on)."""
        start = self._constant(e.args[index])
        s, n = immediate_integer(start.parts[0]) if start is not None else None, immediate_integer(limit)
        return None if s is None or n is None or not is_immediate(limit) else max(n - s, 0)

    def _rounds_at_a_time(self, then: ir.Expr) -> int:
        """How many rounds `_four_at_a_time` writes as one line: 16 where the
        round only computes its next values from registers (局部循环's 和 加 序,
        which nvcc unrolls by 16 and ptxas adds three at a time), else 4."""
        if isinstance(then, ir.Next) and all(self.effects.eager(a) for a in then.args) \
                and sum(1 for _ in ir.walk(then)) <= WIDE_NODES:
            return WIDE_BY
        return COUNTED_BY

    def _rotated(self, test: ir.If, env: dict, loop: Loop, rolled: bool = False) -> None:
        """Test once before the loop, then at the bottom of every round (in
        `_next_round`): the shape ptxas unrolls and software-pipelines, where a
        test at the top with a branch to the exit stops it.  `rolled`: the
        loop only finishes what `_four_at_a_time` left, and ptxas is told not to unroll it."""
        (other,) = self.new_labels("else")
        loop.test, loop.env, loop.other = test.cond, env, other if test.otherwise is not None else loop.exit
        self.emit(f"@!{self.condition(test.cond, env)} bra {loop.other}")
        self.label(loop.start)
        if rolled:
            self.emit('.pragma "nounroll"')
        with self._holding(test.cond, env):
            self._tail(test.then, env, loop)
        if test.otherwise is not None:
            self.label(other)
            self._tail(test.otherwise, env, loop)

    def _tail(self, e: ir.Expr, env: dict, loop: Loop) -> None:
        """Write `e` in tail position of a loop body: its value leaves the loop,
        a `Next` starts the next round."""
        try:
            self._tail_form(e, env, loop)
        except Unsupported as err:
            if getattr(err, "site", None) is None:
                err.site, err.span = self.site, err.span or (e.start, e.end)
            raise

    def _tail_form(self, e: ir.Expr, env: dict, loop: Loop) -> None:
        if isinstance(e, ir.If) and self._joined_rounds(e, env, loop):
            return
        if isinstance(e, ir.If):
            cond = self.condition(e.cond, env)
            (other,) = self.new_labels("else")
            self.emit(f"@!{cond} bra {other}")
            with self._holding(e.cond, env):    # what the test proves holds in its branch
                self._tail(e.then, env, loop)
            self.label(other)
            if e.otherwise is None:
                self.emit(f"bra {loop.exit}")
            else:
                self._tail(e.otherwise, env, loop)
        elif isinstance(e, ir.Let):
            self._tail(e.body, {**env, id(e.var): self.value(e.value, env)}, loop)
        elif isinstance(e, ir.Block):
            self._tail(e.body, env, loop)
        elif isinstance(e, ir.Seq):
            for item in e.items[:-1]:
                self.value(item, env)
            self._tail(e.items[-1], env, loop)
        elif isinstance(e, ir.Next):
            self._next_round(e, env, loop)
        else:
            self._move_all(loop.result_kinds, loop.result, self.value(e, env).parts)
            self.emit(f"bra {loop.exit}")

    def _joined_rounds(self, e: ir.If, env: dict, loop: Loop) -> bool:
        """若 c 则 下一轮(a…) 否则 下一轮(b…): one jump back.  Two ends of a
        round are two latches ptxas keeps apart, each with its own test
        (考拉兹: 16 SASS a round against nvcc's 8, which selects and updates
        in place).  With small effect-free arguments both sets are computed
        and each variable's next value is a selp; otherwise each branch sets
        the variables and they meet before the one test (鸟群 skipping itself:
        a second exit test and break a round)."""
        if not (isinstance(e.then, ir.Next) and isinstance(e.otherwise, ir.Next)):
            return False
        pairs = list(zip(e.then.args, e.otherwise.args))
        cond = self.condition(e.cond, env)
        if all(PRED not in leaves(concrete(a.type)) and self._speculable(a) and self._speculable(b)
               for a, b in pairs):
            self._assign(loop, [self._selected(ir.If(a.start, b.end, a.type, e.cond, a, b), cond, env).parts
                                for a, b in pairs])
        else:
            other, join = self.new_labels("else", "join")
            self.emit(f"@!{cond} bra {other}")
            with self._holding(e.cond, env):
                self._assign(loop, [self.value(a, env).parts for a in e.then.args])
            self.emit(f"bra {join}")
            self.label(other)
            self._assign(loop, [self.value(a, env).parts for a in e.otherwise.args])
            self.label(join)
        self._jump_back(loop)
        return True

    def _next_round(self, e: ir.Next, env: dict, loop: Loop) -> None:
        """New values are computed first; a variable's register passed on to
        another variable is staged through a temporary, then all are moved."""
        self._assign(loop, [self.value(a, env).parts for a in e.args])
        self._jump_back(loop)

    def _jump_back(self, loop: Loop) -> None:
        if loop.test is None:
            self.emit(f"bra {loop.start}")
            return
        self.emit(f"@{self.condition(loop.test, loop.env)} bra {loop.start}")
        self.emit(f"bra {loop.other}")


    def _assign(self, loop: Loop, args: list[list[str]]) -> None:
        """The loop variables take their next values; a variable's register
        passed on to another variable is staged through a temporary first."""
        param_registers = {r for regs in loop.params for r in regs}
        staged = [[self.copy(k, part) if part in param_registers and part != dest else part
                   for k, part, dest in zip(ks, parts, regs)]
                  for ks, parts, regs in zip(loop.kinds, args, loop.params)]
        for ks, parts, regs in zip(loop.kinds, staged, loop.params):
            self._move_all(ks, regs, parts)
