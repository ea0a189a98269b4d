"""The checked IR that every back end reads.

A module is a list of declarations in source order.  Expressions are typed,
names are resolved to what they denote, operators are calls of builtins, and
every node keeps its span (character offsets relative to its item's start).
Where each item starts is the module's table, `Module.starts`, not the
declaration's: an edit above a declaration moves it without copying it.
Types keep their alias names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .types import TCon, TFun, TRecord, Type, resolve

# ---------------------------------------------------------------- expressions


@dataclass(eq=False, slots=True)
class Expr:
    """Every checked expression: its span (relative to its item) and its type."""

    start: int
    end: int
    type: Type


@dataclass(eq=False, slots=True)
class Literal(Expr):
    """A numeric literal: its value and the text it was written as."""

    value: int | float
    is_float: bool
    text: str


@dataclass(eq=False, slots=True)
class LocalVar:
    """A parameter or 令-bound name (or a cell)."""

    name: str
    type: Type
    start: int
    end: int


@dataclass(eq=False, slots=True)
class LocalRef(Expr):
    """A use of a parameter or a 令-bound name."""

    var: LocalVar


@dataclass(eq=False, slots=True)
class GlobalRef(Expr):
    """A top-level constant or resource of this or an imported module."""

    module: str
    name: str


@dataclass(eq=False, slots=True)
class BuiltinValue(Expr):
    """A builtin constant: 阳 阴 元 只读 读写 …"""

    name: str


@dataclass(eq=False, slots=True)
class LocalFun:
    """A local function (得 … 而 …), checked at its first call; `recursive`: it calls itself (in tail position)."""

    name: str
    params: list[LocalVar]
    body: "Expr | None"
    result: Type
    start: int
    end: int
    recursive: bool = False


@dataclass(eq=False, slots=True)
class Call(Expr):
    """A call.  `kind` is "builtin", "function" (top-level, `module` set) or
    "local" (`local` set).  `type_args` are the solved implicit parameters of a
    builtin, by their names in its declaration."""

    kind: str
    name: str
    args: list[Expr]
    module: str = ""
    local: LocalFun | None = None
    type_args: dict[str, "Type | int"] = field(default_factory=dict)
    name_start: int = 0
    name_end: int = 0


@dataclass(eq=False, slots=True)
class Project(Expr):
    """A tuple component (`index`) or a record field (`field`) read, or
    several components of a vector at once (`components`, a swizzle:
    「v」中「zyx」), in the order given."""

    base: Expr
    index: int | None
    field: str | None
    components: tuple[int, ...] | None = None


@dataclass(eq=False, slots=True)
class Splat(Expr):
    """A vector whose every component is `value`, computed once: the scalar
    operand of an arithmetic operator whose other operand is a vector
    (「v」乘「s」, WGSL's v * s; check/expressions.py `_mixed_operands`); a
    matrix's is a Splat of a Splat column (「m」乘「s」, `_matrix_operands`)."""

    value: Expr


def is_buffer_field(e: Expr) -> bool:
    """「缓冲」中「字段」: a field of the record a storage buffer holds, itself
    a storage buffer (check/expressions.py `_buffer_field`, docs/扩展.md)."""
    if not (isinstance(e, Project) and e.field is not None):
        return False
    t = resolve(e.base.type)
    return isinstance(t, TCon) and t.name == "存储缓冲"


def field_owner(e: Project) -> Type:
    """The record type whose field e reads: its base's, or the one its buffer holds."""
    return resolve(e.base.type).args[0] if is_buffer_field(e) else e.base.type


def buffer_root(e: Expr) -> Expr:
    """The buffer itself under any 「缓冲」中「字段」 views of it (e itself when it is none)."""
    while is_buffer_field(e):
        e = e.base
    return e


def splat_scalar(e: Expr) -> Expr:
    """The scalar a Splat repeats, through a matrix's splat of a splat column; any other node itself."""
    while isinstance(e, Splat):
        e = e.value
    return e


@dataclass(eq=False, slots=True)
class MakeTuple(Expr):
    """A tuple built from its components."""

    items: list[Expr]


@dataclass(eq=False, slots=True)
class MakeRecord(Expr):
    """A record (组值) built from its fields, in the type's order."""

    fields: list[tuple[str, Expr]]


@dataclass(eq=False, slots=True)
class If(Expr):
    """若 … 则 … 否则 …, or 若 … 则 … without 否则 (type 有)."""

    cond: Expr
    then: Expr
    otherwise: Expr | None


@dataclass(eq=False, slots=True)
class Let(Expr):
    """令 name 为 value 而 body."""

    var: LocalVar
    value: Expr
    body: Expr


@dataclass(eq=False, slots=True)
class LetFun(Expr):
    """令 binding a local function: the function and the rest of its scope."""

    fun: LocalFun
    body: Expr


@dataclass(eq=False, slots=True)
class Seq(Expr):
    """a；b；c: every item for its effects, the last one's value."""

    items: list[Expr]


# ---------------------------------------------------------------- lowered forms
#
# compiler/lower/loops.py rewrites every call of a local function into one of
# the first three, and the 令 of a local function into a Block; the checker
# never makes them, and a lowered tree has no local call and no LetFun left.


@dataclass(eq=False, slots=True)
class Inline(Expr):
    """A call of a local function that does not call itself: its parameters
    bound to `args` in order, then `body` (the function's lowered body)."""

    fun: LocalFun
    args: list[Expr]
    body: Expr


@dataclass(eq=False, slots=True)
class Loop(Expr):
    """A call of a local tail-recursive function: its parameters are the loop
    variables, `args` their first values; the value of `body` leaves the loop
    unless it is a `Next`."""

    fun: LocalFun
    args: list[Expr]
    body: Expr


@dataclass(eq=False, slots=True)
class Next(Expr):
    """The tail call of a `Loop`'s function in its body: the loop variables
    take `args`, and the next round begins."""

    fun: LocalFun
    args: list[Expr]


@dataclass(eq=False, slots=True)
class Block(Expr):
    """Where a 令 defined a local function: only its `body` is left, still a
    block of its own (it needs statements, and a writer does not join a 若 in
    it to an enclosing else-if chain)."""

    body: Expr


@dataclass(eq=False, slots=True)
class UniformLoad(Expr):
    """A workgroup read the uniformity analysis proved uniform (right after a
    barrier; valid/uniformity.py `load_proof`): every target reads it so that
    the value stays uniform — WGSL workgroupUniformLoad, MSL and PTX a barrier
    after the read — and the reference interpreter runs that barrier too."""

    load: Expr


@dataclass(eq=False, slots=True)
class ZeroWorkgroup(Expr):
    """The start of a compute entry's body (compiler/lower/loops.py
    `Lowering.entry`): WGSL zero-fills workgroup memory when a workgroup
    starts, but lavapipe under wgpu-native, Metal and PTX leave what was there,
    so every target clears `variables` (keys of workgroup resources) and the
    workgroup meets at a barrier before the body runs."""

    variables: tuple


def children(e: Expr) -> list[Expr]:
    """The direct sub-expressions of e, in evaluation order (a local
    function's body comes with its 令)."""
    if isinstance(e, Call):
        return list(e.args)
    if isinstance(e, Project):
        return [e.base]
    if isinstance(e, MakeTuple):
        return list(e.items)
    if isinstance(e, Splat):
        return [e.value]
    if isinstance(e, MakeRecord):
        return [v for _, v in e.fields]
    if isinstance(e, If):
        return [x for x in (e.cond, e.then, e.otherwise) if x is not None]
    if isinstance(e, Let):
        return [e.value, e.body]
    if isinstance(e, LetFun):
        return [x for x in (e.fun.body, e.body) if x is not None]
    if isinstance(e, Seq):
        return list(e.items)
    if isinstance(e, (Inline, Loop)):
        return [*e.args, e.body]
    if isinstance(e, Next):
        return list(e.args)
    if isinstance(e, Block):
        return [e.body]
    if isinstance(e, UniformLoad):
        return [e.load]
    return []


def walk(e: Expr):
    """Every expression under e (e included), without recursion."""
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def literal_value(e: Expr) -> int | float | None:
    """The number of a literal, or of 负 applied to one; None otherwise."""
    if isinstance(e, Literal):
        return e.value
    if isinstance(e, Call) and e.kind == "builtin" and e.name == "负" and len(e.args) == 1:
        inner = literal_value(e.args[0])
        return None if inner is None else -inner
    return None


# ---------------------------------------------------------------- declarations


@dataclass(eq=False)
class Decl:
    """A top-level declaration; where its item starts is the module's table (`Module.starts`)."""

    name: str
    name_end: int = 0       # relative to the item's start
    doc: str = ""


@dataclass(eq=False)
class Struct(Decl):
    """A struct type (「名」即「组类」【…】也。)."""

    type: TRecord | None = None


@dataclass(eq=False)
class TypeAlias(Decl):
    """A type alias (「名」即 类型 也。)."""

    type: Type | None = None


@dataclass(eq=False)
class Resource(Decl):
    """A top-level resource (seed 着四.2).  `kind` is one of storage, uniform,
    workgroup, texture, sampler, depth_texture, comparison_sampler."""

    kind: str = ""
    type: Type | None = None          # the resource's own type (存储缓冲于…)
    inner: Type | None = None         # the stored type
    group: int | None = None
    binding: int | None = None
    access: str | None = None         # 只读 / 读写 for storage buffers
    value: Expr | None = None         # the checked constructor call (for the editor)


@dataclass(eq=False)
class Entry(Decl):
    """An entry item: the stage, the function it runs, its workgroup shape (compute only)."""

    stage: str = ""                   # 计算 顶点 片元
    function: str = ""
    workgroup_size: int | None = None # invocations per workgroup (x·y·z)
    workgroup_shape: tuple[int, int, int] = (1, 1, 1)   # 「工作组大小」 as (x, y, z)
    value: Expr | None = None         # the checked constructor call (for the editor)


@dataclass(eq=False)
class Function(Decl):
    """A top-level function with its checked body and the top-level functions it calls."""

    type: TFun | None = None
    params: list[LocalVar] = field(default_factory=list)
    body: Expr | None = None
    calls: set[str] = field(default_factory=set)  # top-level functions called


@dataclass(eq=False)
class Const(Decl):
    """A top-level constant (「名」者 表达式 也。 without a function type)."""

    type: Type | None = None
    value: Expr | None = None


@dataclass(eq=False)
class Declared(Decl):
    """A declaration in an interface file (builtin or user interface)."""

    type: Type | None = None
    type_params: list = field(default_factory=list)


@dataclass(eq=False)
class Module:
    """A checked module: its declarations in source order, and where each
    declaration's item starts (`starts`: name → absolute offset; names are
    unique in a module without errors)."""

    path: str
    name: str                 # the module path inside its package, e.g. 甲/乙
    package: str
    is_interface: bool
    imports: list[str] = field(default_factory=list)  # file paths, dependencies first
    decls: list[Decl] = field(default_factory=list)
    starts: dict[str, int] = field(default_factory=dict)


def workgroup_items(entry: Entry) -> list[Expr]:
    """The checked items of a compute entry's 「工作组大小」: integer literals,
    or names of top-level constants (WGSL's @workgroup_size(块))."""
    call = entry.value
    options = call.args[1] if isinstance(call, Call) and len(call.args) > 1 else None
    for name, value in options.fields if isinstance(options, MakeRecord) else []:
        if name == "工作组大小":
            return list(value.items) if isinstance(value, MakeTuple) else [value]
    return []


def item_start(modules: list[Module], key: tuple[str, str]) -> int:
    """Where the item of declaration `key` (module path, name) starts in its file."""
    return next(m.starts[key[1]] for m in modules if m.path == key[0])


#: the builtin whose call, as a top-level constant's whole value, makes it pipeline-overridable
OVERRIDE = "可覆盖"


def override_default(decl: Decl) -> Expr | None:
    """The default value of a pipeline-overridable constant (「名」者「可覆盖」于 默认值 也); None for any other."""
    return overridden(decl.value) if isinstance(decl, Const) else None


def overridden(value: Expr | None) -> Expr | None:
    """The default in a constant's value 「可覆盖」于 默认值; None when the value is anything else."""
    if isinstance(value, Call) and value.kind == "builtin" and value.name == OVERRIDE and value.args:
        return value.args[0]
    return None


def override_ids(modules: list[Module]) -> dict[tuple[str, str], int]:
    """Each overridable constant's number (WGSL @id, MSL function_constant, the
    command line's and the generated module's key), in module then file order."""
    keys = [(m.path, d.name) for m in modules for d in m.decls if override_default(d) is not None]
    return {key: n for n, key in enumerate(keys)}


def function_key(modules: list[Module], name: str) -> tuple[str, str]:
    """(module path, name) of the function an entry names: the entry's own
    module (the last), else the nearest import that defines it."""
    for module in reversed(modules):
        if any(isinstance(d, Function) and d.name == name for d in module.decls):
            return (module.path, name)
    return (modules[-1].path, name)
