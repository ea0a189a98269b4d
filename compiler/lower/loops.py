"""Local functions lowered once for every writer: each call of a local
function becomes an explicit form of the IR (compiler/ir.py, "lowered forms").

* A call of a function that does not call itself is an `ir.Inline`: its
  parameters bound to the arguments, then its body.
* A call of a tail-recursive function from outside its body is an `ir.Loop`:
  the parameters are loop variables started at the arguments, and the body's
  value leaves the loop.
* The tail call inside that body is an `ir.Next`: new values for the loop
  variables, then the next round.

The 令 that defines a local function is gone from the lowered tree (an
`ir.Block` keeps the rest of its scope a block of its own, so the text around
it does not change): the function's body appears where it is called.  A
checked node without a local call or 令 of a local function in it is
kept as it is (the same object), so facts that the validation pass and the
constant evaluator attach to checked nodes by identity still apply.  How the
forms are printed (WGSL `loop {}`, MSL `while (true)`, PTX labels, which
loop variables are staged through temporaries) stays each writer's own.
"""

from __future__ import annotations


from .. import ir
from ..types import UNIT, TCon
from .types import concrete
from ..valid.registry import COMPUTE
from .effects import Effects
from .rebuild import rebuilt
from .statements import Statements
from ..valid.uniformity import load_proof


class Lowering:
    """The lowered bodies of one translation.  A subtree is lowered once per
    set of enclosing loops, so a function inlined at several calls shares its
    lowered body between them."""

    def __init__(self, modules: list[ir.Module], proofs: frozenset | set = frozenset(),
                 workgroup: dict[str, list] | None = None) -> None:
        self._memo: dict[tuple, ir.Expr] = {}
        self.modules = modules
        self.decls = {(m.path, d.name): d for m in modules for d in m.decls}
        self._entries: dict[tuple, ir.Expr] = {}
        self.effects = Effects(modules)
        self.statements = Statements(self.effects)
        self.proofs = proofs            # the uniformity analysis's (valid/uniformity.py): which loads are uniform
        self.workgroup = workgroup or {}   # entry name → the workgroup variables it uses (valid/ `ModuleInfo`)
        self._at: tuple[str, int] | None = None

    def body(self, e: ir.Expr, at: tuple[str, int] | None = None) -> ir.Expr:
        """A definition body or constant value, lowered: local calls in their
        lowered forms, a workgroup read proved uniform as an `ir.UniformLoad`
        (`at`: the body's file and item start, where the proofs are), then in
        the statement-level form (statements.py)."""
        self._at = at
        return self.statements.statement(self._lower(e, frozenset()))

    def entry(self, entry: ir.Entry, e: ir.Expr, at: tuple[str, int]) -> ir.Expr:
        """The body of the function an entry runs, as that entry runs it: a
        compute entry first clears the workgroup variables it uses and waits
        (`ir.ZeroWorkgroup`), here and not in each writer, so every target
        and the interpreter start the body at the same barrier."""
        key = (entry.name, id(e), at)
        if key not in self._entries:    # every writer and the interpreter ask for the same entry
            self._entries[key] = self._entry(entry, e, at)
        return self._entries[key]

    def _entry(self, entry: ir.Entry, e: ir.Expr, at: tuple[str, int]) -> ir.Expr:
        body = self.body(e, at)
        variables = tuple(self.workgroup.get(entry.name, ())) if entry.stage == COMPUTE else ()
        function = self.decls.get(ir.function_key(self.modules, entry.function))
        params = {id(p) for p in getattr(function, "params", ())}
        variables = tuple(v for v in variables if not self._written_first(v, body, entry, params))
        if not variables:
            return body
        return ir.Seq(e.start, e.end, body.type, [ir.ZeroWorkgroup(e.start, e.start, UNIT, variables), body])

    def _written_first(self, key: tuple[str, str], body: ir.Expr, entry: ir.Entry, params: set[int]) -> bool:
        """Whether clearing workgroup variable `key` is provably useless (a
        conservative proof): along the body's straight-line statements, every
        one that touches it before the first 「工作组屏障」 statement is a write
        whose value does not read it (`_written_elements`), those writes
        together cover every element, and the barrier comes before any other
        touch, so no invocation reads an element before its writer has written
        it (模糊: each invocation writes 局 加 1, invocation 0 the two ends).
        Or the one statement that touches it is a loop each round of which
        does so before its first barrier (`_written_each_round`).  A loop
        among the writes may be one the invocations share out (`_shared_out`).
        `params`: the entry function's parameters (by id), where 「局部调用序」 comes in;
        a 令 that names it on the way (令「局」为「调」中「局」) names it too."""
        length = _fixed_length(self.decls.get(key))
        if length is None or not entry.workgroup_size:
            return False
        statements = list(_straight_line(body))
        indices = set(params)
        for at, statement in enumerate(statements):
            if isinstance(statement, ir.Let):
                _name_index(statement, indices, self.decls)
            if not _mentions(_own(statement), key):
                continue
            if isinstance(_own(statement), ir.Loop) and not any(_mentions(_own(s), key) for s in statements[at + 1:]) \
                    and self._written_each_round(_own(statement), key, indices, entry, length):
                return True     # the first statement that touches it
            break
        return self._covered_before_barrier(statements, key, set(params), entry, length)

    def _covered_before_barrier(self, statements: list, key: tuple[str, str], indices: set, entry: ir.Entry,
                                length: int) -> bool:
        """Whether the writes among `statements` before the first barrier cover
        every element of `key` and nothing else touches it before that barrier.
        `indices` gathers the variables the 令 on the way bind to 「局部调用序」 (`_name_index`)."""
        covered: set[int] = set()
        for statement in statements:
            if isinstance(statement, ir.Let):
                _name_index(statement, indices, self.decls)
                statement = statement.value
            if covered and _is_call(statement, "工作组屏障"):
                return covered >= set(range(length))
            if not _mentions(statement, key):
                continue
            elements = _written_elements(statement, key, indices, entry.workgroup_size, length)
            if elements is None:
                return False
            covered |= elements
        return False

    def _written_each_round(self, loop: ir.Loop, key: tuple[str, str], indices: set, entry: ir.Entry,
                            length: int) -> bool:
        """A loop whose every round (its body one 若, the test not touching the
        variable) covers every element before its first barrier (分块矩阵乘's
        tiles, written at ty 乘 边 加 tx): no round reads an element before this
        round's writer has written it.  The barrier is in uniform control flow
        (the validator's rule), so every invocation runs the same rounds."""
        body = _round_test(loop, key)
        return body is not None and self._covered_before_barrier(list(_straight_line(body.then)), key, indices,
                                                                 entry, length)

    def _lower(self, e: ir.Expr, loops: frozenset[int]) -> ir.Expr:
        key = (id(e), loops, self._at)
        if key not in self._memo:
            self._memo[key] = self._rewrite(e, loops)
        return self._memo[key]

    def _rewrite(self, e: ir.Expr, loops: frozenset[int]) -> ir.Expr:
        if isinstance(e, ir.Call) and e.kind == "local":
            return self._local_call(e, loops)
        if isinstance(e, ir.LetFun):
            return ir.Block(e.start, e.end, e.type, self._lower(e.body, loops))
        parts = ir.children(e)
        lowered = [self._lower(c, loops) for c in parts]
        same = e if all(a is b for a, b in zip(parts, lowered)) else rebuilt(e, lowered)
        if isinstance(e, ir.Call) and self._at is not None and self.proofs and \
                load_proof(self._at[0], self._at[1] + e.start, self._at[1] + e.end) in self.proofs:
            return ir.UniformLoad(e.start, e.end, e.type, same)
        return same

    def _local_call(self, call: ir.Call, loops: frozenset[int]) -> ir.Expr:
        fun = call.local
        args = [self._lower(a, loops) for a in call.args]
        if id(fun) in loops:
            return ir.Next(call.start, call.end, call.type, fun, args)
        if fun.recursive:
            body = self._lower(fun.body, loops | {id(fun)})
            return ir.Loop(call.start, call.end, call.type, fun, args, body)
        return ir.Inline(call.start, call.end, call.type, fun, args, self._lower(fun.body, loops))


def _straight_line(e: ir.Expr):
    """The statements run one after another from the start of a body: the
    items of a sequence, a 令 (its value is the statement) then its body;
    anything else is one statement."""
    if isinstance(e, ir.Seq):
        for item in e.items:
            yield from _straight_line(item)
    elif isinstance(e, ir.Let):
        yield e
        yield from _straight_line(e.body)
    elif isinstance(e, ir.Block):
        yield from _straight_line(e.body)
    else:
        yield e


def _own(statement: ir.Expr) -> ir.Expr:
    """What a statement of `_straight_line` runs itself: a 令's value (its body follows as further statements)."""
    return statement.value if isinstance(statement, ir.Let) else statement


def _name_index(let: ir.Let, indices: set, decls: dict) -> None:
    """Record what a 令 binds: 「局部调用序」 itself (its id), its quotient or
    remainder by a nonzero constant c (("商" or "余", id, c)), or 商 乘 c 加 余
    of the same c, which is 「局部调用序」 again (("同", id)): 分块矩阵乘's
    瓦序 为 ty 乘 边 加 tx with ty 为 序 除 边, tx 为 序 余 边."""
    v = let.value
    if _is_local_index(v, indices):
        indices.add(id(let.var))
        return
    for name, part in (("除", "商"), ("余", "余")):
        if _is_call(v, name) and len(v.args) == 2 and _is_local_index(v.args[0], indices) \
                and _constant_u32(v.args[1], decls):
            indices.add((part, id(let.var), _constant_u32(v.args[1], decls)))
            return
    if _is_call(v, "加") and len(v.args) == 2 and _is_call(v.args[0], "乘") and len(v.args[0].args) == 2:
        (quotient, c), remainder = v.args[0].args, v.args[1]
        c = _constant_u32(c, decls)
        if c and isinstance(quotient, ir.LocalRef) and isinstance(remainder, ir.LocalRef) \
                and ("商", id(quotient.var), c) in indices and ("余", id(remainder.var), c) in indices:
            indices.add(("同", id(let.var)))


def _mentions(e: ir.Expr, key: tuple[str, str]) -> bool:
    return _is_variable(e, key) or any(_mentions(c, key) for c in ir.children(e))


def _is_call(e: ir.Expr, name: str) -> bool:
    return isinstance(e, ir.Call) and e.kind == "builtin" and e.name == name


def _is_variable(e: ir.Expr, key: tuple[str, str]) -> bool:
    return isinstance(e, ir.GlobalRef) and (e.module, e.name) == key


def _written_elements(e: ir.Expr, key: tuple[str, str], indices: set, size: int, length: int) -> set[int] | None:
    """The elements of `key` a statement run by every invocation of a
    workgroup of `size` surely writes without reading it: 写共享 of the whole
    variable, 写共享数组 at 「局部调用序」 加 a constant c (c … c + size − 1)
    or at a constant, and such writes at a constant index or of the whole
    variable under 若「局部调用序」等于 j (j < size: invocation j runs them;
    工作组广播's invocation 0 writing what the block reads after the barrier);
    None for anything else that touches it."""
    if _is_call(e, "写共享"):
        return set(range(length)) if _is_variable(e.args[0], key) and not _mentions(e.args[1], key) else None
    if _is_call(e, "写共享数组"):
        if not _is_variable(e.args[0], key) or _mentions(e.args[1], key) or _mentions(e.args[2], key):
            return None
        start = _local_offset(e.args[1], indices)
        if start is not None:
            return set(range(start, start + size))
        constant = _constant_u32(e.args[1])
        return None if constant is None else {constant}
    if isinstance(e, ir.Loop):
        return _shared_out(e, key, indices, size)
    if isinstance(e, ir.If) and e.otherwise is None and _one_invocation(e.cond, indices, size) \
            and not _mentions(e.cond, key):
        elements: set[int] = set()
        for statement in map(_own, _straight_line(e.then)):
            if not _mentions(statement, key):
                continue
            if not (_is_call(statement, "写共享") or
                    _is_call(statement, "写共享数组") and _constant_u32(statement.args[1]) is not None):
                return None
            written = _written_elements(statement, key, indices, size, length)
            if written is None:
                return None
            elements |= written
        return elements
    return None


def _shared_out(loop: ir.Loop, key: tuple[str, str], indices: set, size: int) -> set[int] | None:
    """The elements of `key` a loop run by every invocation of a workgroup of
    `size` surely writes without reading it, where the invocations share its
    rounds out: the counter starts at 「局部调用序」, the body is 若 i 小于 N
    则（…；next round with i 加 S）, 1 ≤ S ≤ size, N and S constants, and each
    round writes 写共享数组 at i 乘 a 加 b (constants, `_strided`) and
    touches the variable nowhere else (子组矩阵片's 搬, as nvcc's
    for (i = tid; i < N; i += S)).  Invocation e mod S (< S ≤ size) starts at
    e mod S and steps by S through every smaller value to e < N, all of which
    pass the test: together the rounds take every i below N, so the writes
    cover a·i + b for each (None where that could pass 2³² − 1)."""
    body = _round_test(loop, key)
    if body is None:
        return None
    cond, params = body.cond, loop.fun.params
    if not (_is_call(cond, "小于") and isinstance(cond.args[0], ir.LocalRef)
            and any(p is cond.args[0].var for p in params)):
        return None
    counter = cond.args[0].var
    at = next(i for i, p in enumerate(params) if p is counter)
    limit = _constant_u32(cond.args[1])
    statements = list(_straight_line(body.then))
    tail = statements[-1]
    if limit is None or not _is_local_index(loop.args[at], indices) or not isinstance(tail, ir.Next) \
            or sum(isinstance(n, ir.Next) for n in ir.walk(body.then)) != 1 or _mentions(tail, key):
        return None
    step = tail.args[at]
    if not (_is_call(step, "加") and isinstance(step.args[0], ir.LocalRef) and step.args[0].var is counter
            and 1 <= (_constant_u32(step.args[1]) or 0) <= size):
        return None
    elements: set[int] = set()
    for statement in statements[:-1]:
        own = _own(statement)
        if not _mentions(own, key):
            continue
        if not (_is_call(own, "写共享数组") and _is_variable(own.args[0], key) and not _mentions(own.args[2], key)):
            return None
        strided = _strided(own.args[1], counter)
        if strided is None or strided[0] * max(limit - 1, 0) + strided[1] >= 2 ** 32:
            return None
        elements |= {strided[0] * i + strided[1] for i in range(limit)}
    return elements


def _round_test(loop: ir.Loop, key: tuple[str, str]) -> ir.If | None:
    """The loop's body when it is one 若 whose test and 否则, and the loop's
    first arguments, do not touch `key` (so only its 则 may write it); else None."""
    body = loop.body
    while isinstance(body, ir.Block):
        body = body.body
    if not isinstance(body, ir.If) or _mentions(body.cond, key) or any(_mentions(a, key) for a in loop.args) \
            or (body.otherwise is not None and _mentions(body.otherwise, key)):
        return None
    return body


def _strided(e: ir.Expr, counter: ir.LocalVar) -> tuple[int, int] | None:
    """(a, b) where an index is counter, counter 乘 a, or either 加 b (constants; either side)."""
    if isinstance(e, ir.LocalRef) and e.var is counter:
        return 1, 0
    for name in ("乘", "加"):
        if _is_call(e, name) and len(e.args) == 2:
            for inner, other in (e.args, e.args[::-1]):
                c = _constant_u32(other)
                if c is None:
                    continue
                if name == "乘" and isinstance(inner, ir.LocalRef) and inner.var is counter:
                    return c, 0
                if name == "加" and _strided(inner, counter) is not None:
                    a, b = _strided(inner, counter)
                    return a, b + c
    return None


def _local_offset(e: ir.Expr, indices: set) -> int | None:
    """c where an index is 「局部调用序」 (c = 0) or 「局部调用序」加 a constant c, else None."""
    if _is_local_index(e, indices):
        return 0
    if _is_call(e, "加") and len(e.args) == 2:
        for local, other in (e.args, e.args[::-1]):
            c = _constant_u32(other)
            if _is_local_index(local, indices) and c is not None:
                return c
    return None


def _one_invocation(cond: ir.Expr, indices: set, size: int) -> bool:
    """「局部调用序」等于 j with j < size: the one invocation j passes it."""
    if not (_is_call(cond, "等于") and len(cond.args) == 2):
        return False
    return any(_is_local_index(local, indices) and (_constant_u32(other) or 0) < size and _constant_u32(other) is not None
               for local, other in (cond.args, cond.args[::-1]))


def _constant_u32(e: ir.Expr, decls: dict | None = None) -> int | None:
    """An unsigned index written as a literal or 「新无三二」于 a literal, or a
    top-level constant (in `decls`) whose value is one (not an overridable one)."""
    if isinstance(e, ir.GlobalRef) and decls is not None:
        decl = decls.get((e.module, e.name))
        return _constant_u32(decl.value) if isinstance(decl, ir.Const) and decl.value is not None else None
    if _is_call(e, "新无三二") and len(e.args) == 1:
        e = e.args[0]
    if isinstance(e, ir.Literal) and not e.is_float and isinstance(e.value, int) and 0 <= e.value < 2 ** 32:
        return e.value
    return None


def _is_local_index(e: ir.Expr, indices: set) -> bool:
    """The entry's own 「局部调用序」 input — a parameter, a field of a struct parameter, or a
    variable bound to one (`indices`) — and not merely a value of that type: 「最小」于「序」于 3
    carries the alias too but misses elements."""
    if isinstance(e, ir.LocalRef) and ("同", id(e.var)) in indices:
        return True
    if getattr(e.type, "alias", None) != "局部调用序":
        return False
    base = e.base if isinstance(e, ir.Project) and e.field is not None else e
    return isinstance(base, ir.LocalRef) and id(base.var) in indices


def _fixed_length(decl) -> int | None:
    """The element count a covering write must reach: a fixed-size array's length, 1 for any other value."""
    if not isinstance(decl, ir.Resource):
        return None
    inner = concrete(decl.inner)
    if isinstance(inner, TCon) and inner.name == "定长数组":
        return inner.args[1] if isinstance(inner.args[1], int) else None
    return 1


def changed_variables(e: ir.Next) -> list[int]:
    """The loop variables a next round gives a new value (by position): every
    one whose new value is not the variable itself.  The writers assign only
    these; the others keep their value."""
    return [i for i, (p, a) in enumerate(zip(e.fun.params, e.args)) if not (isinstance(a, ir.LocalRef) and a.var is p)]


def lowering(info) -> Lowering:
    """The one `Lowering` of a validated module (compiler/valid/ `ModuleInfo`),
    made on first use: the three writers share it, and the known values
    evaluated over lowered nodes stay valid as long as the info does."""
    if info.lowered is None:
        info.lowered = Lowering(info.modules, info.uniform_proofs, info.workgroup)
    return info.lowered
