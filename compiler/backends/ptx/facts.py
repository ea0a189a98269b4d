"""What the PTX writer knows of registers, and what a 若's test proves in
the branch it guards: bounds below which a register lies (`below`), multiples
and sums that cannot wrap (element root 加 k at a constant offset), counters of
four rounds at a time, clamped indices, and the array elements a test proves
inside (no bounds check there).  Facts a test proves are held while its branch
is written and forgotten after (`Facts._holding`).  A mixin of `Writer`
(writer.py), which it shares its state with."""

from __future__ import annotations

from contextlib import contextmanager

from ... import ir
from .scalars import U32, is_immediate, leaves
from .values import immediate_integer


@contextmanager
def held_in(facts: set, fact) -> None:
    """`fact` is among `facts` while the body is written."""
    facts.add(fact)
    try:
        yield
    finally:
        facts.discard(fact)


class Facts:
    """The register facts of `Writer`."""

    @contextmanager
    def _holding(self, cond: ir.Expr, env: dict):
        """While the branch that `cond` guards is written, the bound it proves
        holds — and what is derived from it there is forgotten after: op()
        may hand the branch a register computed before it, so a bound learnt
        for that register inside must not outlive the branch."""
        saved = dict(self.below)
        try:
            with self._held(cond, env):
                yield
        finally:
            self.below = saved

    @contextmanager
    def _held(self, cond: ir.Expr, env: dict):
        if isinstance(cond, ir.Call) and cond.kind == "builtin" and cond.name == "且":
            with self._held(cond.args[0], env), self._held(cond.args[1], env):   # both sides hold
                yield
            return
        for find, facts in ((self._held_quotient, self.scaled_inside), (self._held_length, self.below_length),
                            (self._held_floor, self.at_least)):
            fact = find(cond, env)
            if fact is not None and fact not in facts:
                with held_in(facts, fact), self._held(cond, env):   # and what else the test proves
                    yield
                return
        held = self._held_bound(cond, env)
        if held is None:
            yield
            return
        register, bound = held
        self.below[register] = bound    # `_holding` restores the bounds after
        yield

    def _held_length(self, cond: ir.Expr, env: dict) -> tuple[str, str] | None:
        """(index register, length register) where a test is 「变量」小于 a runtime
        array's length — 「数组长度」于 数组 itself, or a 令 of it (顺序统计's loop):
        inside the branch it guards, element 变量 of that array needs no bounds check."""
        compared = self._compared_local(cond, "小于", env) or (None, None)
        if compared[1] is None:
            compared = self._compared_to_length(cond, env)
        if compared is None or compared[1] not in {use.length for use in self.buffers.values()}:
            return None
        return compared

    def _compared_to_length(self, cond: ir.Expr, env: dict) -> tuple[str, str] | None:
        """(the register of 「变量」, the array's length register) where `cond` is
        「变量」小于（「数组长度」于 数组）."""
        if not _local_test(cond, "小于"):
            return None
        length = cond.args[1]
        if not (isinstance(length, ir.Call) and length.kind == "builtin" and length.name == "数组长度"
                and isinstance(length.args[0], ir.GlobalRef)):
            return None
        (register,) = env[id(cond.args[0].var)].parts
        resource = self.value(length.args[0], env).resource
        return None if resource is None or is_immediate(register) else (register, self.buffer_length(resource))

    def _held_quotient(self, cond: ir.Expr, env: dict) -> tuple[str, str, int] | None:
        """(x, length, c) where a test is 「变量」小于 ⌊length / c⌋ (a 令 of 数组长度 除 c, 序列与格's
        行数): inside the branch it guards, x·c 加 k for k < c lies inside an array `length` long (`inside`)."""
        compared = self._compared_local(cond, "小于", env)
        if compared is None or compared[1] not in self.quotients:
            return None
        return (compared[0], *self.quotients[compared[1]])

    def _held_floor(self, cond: ir.Expr, env: dict) -> tuple[str, str] | None:
        """(register, operand) where a test is 「变量」不小于 something: inside the
        branch it guards, 变量 减 that cannot wrap, so it stays below 变量's bound."""
        compared = self._compared_local(cond, "不小于", env)
        return None if compared is None or compared[1] is None else compared

    def _held_bound(self, cond: ir.Expr, env: dict) -> tuple[str, int] | None:
        """(register, bound) where a test is 「变量」小于 a known bound, tighter
        than what is known of it: inside the branch it guards (a rotated loop's
        round, a 若's then) the variable is below it (a loop variable's register
        changes only in the moves that end the round), which `inside` uses.
        「变量」加 c 小于 it, with 变量 known small enough that the sum cannot
        wrap, puts 变量 below bound − c."""
        compared, c = self._compared_local(cond, "小于", env), 0
        if compared is None:
            compared, c = self._compared_offset(cond, env)
        if compared is None or compared[1] is None:
            return None
        register, operand = compared
        bound = self._below(operand)
        if bound is None:
            return None
        bound = (bound - 1 if operand.isdigit() else bound) - c
        return (register, bound) if 0 < bound < self.below.get(register, 2 ** 32 + 1) else None

    def _compared_offset(self, cond: ir.Expr, env: dict) -> tuple[tuple[str, str | None] | None, int]:
        """((the register of 「变量」, the other side as in `_compared_local`), c) where `cond`
        is the unsigned test 「变量」加 c 小于 …, c a constant and 变量 below B with
        B − 1 + c < 2³² (the sum is exact, so 变量 + c < N gives 变量 < N − c)."""
        if not (isinstance(cond, ir.Call) and cond.kind == "builtin" and cond.name == "小于"):
            return None, 0
        total = cond.args[0]
        if not (isinstance(total, ir.Call) and total.kind == "builtin" and total.name == "加"
                and isinstance(total.args[0], ir.LocalRef) and leaves(total.type) == [U32]):
            return None, 0
        known = self._constant(total.args[1])
        c = immediate_integer(known.parts[0]) if known is not None else None
        compared = self._compared(total.args[0], cond.args[1], env)
        if c is None or compared is None or self.below.get(compared[0], 2 ** 32 + 1) - 1 + c >= 2 ** 32:
            return None, 0
        return compared, c

    def _compared_local(self, cond: ir.Expr, name: str, env: dict) -> tuple[str, str | None] | None:
        """(the register of 「变量」, the other side as a constant or a local's register, else None)
        where `cond` is the unsigned test 「变量」<name> …, 变量 a local in a register."""
        return self._compared(cond.args[0], cond.args[1], env) if _local_test(cond, name) else None

    def _compared(self, local: ir.LocalRef, limit: ir.Expr, env: dict) -> tuple[str, str | None] | None:
        (register,) = env[id(local.var)].parts
        known = self._constant(limit)
        operand = known.parts[0] if known else env[id(limit.var)].parts[0] if isinstance(limit, ir.LocalRef) else None
        return None if is_immediate(register) else (register, operand)

    def _below(self, operand: str) -> int | None:
        """A number an unsigned operand is known to be less than, or None."""
        return int(operand) + 1 if operand.isdigit() else self.below.get(operand)

    def _bound(self, name: str, result: str, operands: list[str]) -> None:
        """What an unsigned 余/除/乘/加/减/最小 of operands with known bounds is
        below (where it cannot wrap): an index computed from the local
        invocation index, such as 序 除 16 乘 16 加 序 余 16, then needs no
        bounds check against an array as long as the workgroup."""
        if result in self.below or result in operands or is_immediate(result):
            return        # only a fresh register, written once, keeps its bound
        if name == "除" and not is_immediate(operands[0]) and (immediate_integer(operands[1]) or 0) > 0:
            self.quotients[result] = (operands[0], immediate_integer(operands[1]))
        self._clamp(name, result, operands)
        self._step(name, result, operands)
        a, b = (self._below(x) for x in operands)
        divisor = int(operands[1]) if operands[1].isdigit() and int(operands[1]) > 0 else None
        if name == "余":            # x % 0 is x (WGSL): only a nonzero constant divisor bounds it
            bound = min(x for x in (a, divisor, 2 ** 32) if x is not None)
        elif name == "除":          # x / 0 is x (WGSL)
            bound = None if a is None else (a - 1) // (divisor or 1) + 1
        elif name == "最小":
            bound = min(x for x in (a, b, 2 ** 32) if x is not None)
        elif name == "减":          # no wrap only where a test proved the minuend not below the subtrahend
            bound = a if tuple(operands) in self.at_least else None
        elif a is None or b is None:
            return
        else:
            bound = (a - 1) * (b - 1) + 1 if name == "乘" else a + b - 1
        if bound is not None and bound <= 2 ** 32:
            self.below[result] = bound

    def _sum(self, name: str, result: str, operands: list[str]) -> None:
        """What a 32-bit 乘/左移/加 (u32 or i32: the same bits) is a multiple
        of, and x 加 k (k a constant) as (x, k) where it cannot wrap, so that
        element x 加 k lies k elements after element x (one address, constant
        offsets: a[i·8 加 k]).  Wrapping arithmetic keeps a multiple of 2ʲ a
        multiple of 2ʲ (2ʲ divides 2³²): x·y for x a multiple of 2ⁱ and y of 2ʲ
        is one of 2^min(i+j, 32), x << s (s a constant) one of 2ⁱ⁺ˢ, x + y one
        of 2^min(i, j).  (Not so for other m: 2³² − 1 is a multiple of 3 that
        3 times a number can wrap to, and adding 1 to it wraps.)  A multiple x
        of 2ʲ is at most 2³² − 2ʲ, so x + k with k < 2ʲ stays below 2³²; x known
        below B (`below`) gives the same for B − 1 + k < 2³²."""
        if result in operands or is_immediate(result) or result in self.multiples or result in self.sums:
            return        # only a fresh register, written once, keeps what is known of it
        a, b = operands
        if name == "乘":
            multiple = self._multiple(a) * self._multiple(b)
            x, c = (b, immediate_integer(a)) if is_immediate(a) else (a, immediate_integer(b))
            if not is_immediate(x) and c is not None and 0 < c % 2 ** 32:
                self.products[result] = (x, c % 2 ** 32)
        elif name == "左移":
            multiple = self._multiple(a) << (immediate_integer(b) & 31) if immediate_integer(b) is not None else 1
        else:
            multiple = min(self._multiple(a), self._multiple(b))
        if multiple > 1:
            self.multiples[result] = min(multiple, 2 ** 32)
        x, k = (b, immediate_integer(a)) if is_immediate(a) else (a, immediate_integer(b))
        if name == "加" and not is_immediate(x) and k is not None:
            root, before = self.sums.get(x, (x, 0))
            k = before + k % 2 ** 32
            below = self._below(root)
            if 0 < k and (k < self._multiple(root) or below is not None and below - 1 + k < 2 ** 32):
                self.sums[result] = (root, k)

    def sum(self, a: str, b: str) -> str:
        """a + b in u32 for a register a and a register or immediate b (a itself
        for 0), with what `_sum` knows of it (fragments.py's element indices)."""
        if b == "0":
            return a
        result = self.op("add.u32", U32, a, b)
        self._sum("加", result, [a, b])
        return result

    def _multiple(self, operand: str) -> int:
        """A power of two the 32-bit value of `operand` is a multiple of (2³² for 0)."""
        if is_immediate(operand):
            n = immediate_integer(operand)
            return 1 if n is None else n % 2 ** 32 & -(n % 2 ** 32) or 2 ** 32
        return self.multiples.get(operand, 1)

    def _step(self, name: str, result: str, operands: list[str]) -> None:
        """counter 加 k inside four rounds at a time: counter is below N − 3, so
        up to counter 加 4 nothing wraps and element counter 加 k lies k
        elements after element counter (one address, a constant offset)."""
        if name == "加" and operands[0] in self.steps and operands[1].isdigit():
            root, k = self.steps[operands[0]]
            if k + int(operands[1]) <= self.counted_by:
                self.steps[result] = (root, k + int(operands[1]))
        elif name == "加" and operands[1] in self.steps and operands[0] not in self.steps:
            self.offsets[result] = (operands[0], *self.steps[operands[1]])

    def _clamp(self, name: str, result: str, operands: list[str]) -> None:
        """最小 于 i 于 （长 减 1） is below 长 unless 长 is 0 (then 长 减 1 wraps
        to the largest number): its bounds check against an array 长 long is
        长 ≠ 0, once, whatever i is (归约's and 子组归约's clamped read)."""
        if name == "减" and operands[1] == "1" and not is_immediate(operands[0]):
            self.one_less[result] = operands[0]
        elif name == "最小":
            lengths = [self.one_less[x] for x in operands if x in self.one_less]
            if lengths:
                self.clamped[result] = lengths[0]


def _local_test(cond: ir.Expr, name: str) -> bool:
    """Whether `cond` is the unsigned test 「变量」<name> …, 变量 a local."""
    return (isinstance(cond, ir.Call) and cond.kind == "builtin" and cond.name == name
            and isinstance(cond.args[0], ir.LocalRef) and leaves(cond.args[0].type) == [U32])
