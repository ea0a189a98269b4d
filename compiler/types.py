"""Types of the checked language, and how they are printed in 豫言 syntax.

Equality is structural and ignores `alias`: 「全局调用号」 and 「三维无」 are the
same type, but a type remembers the alias it was written with, because the
translator needs it (a 全局调用号 parameter gets @builtin(global_invocation_id))
and messages should show what the user wrote.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Union


class Type:
    __slots__ = ()
    alias: str | None

    def named(self, alias: str | None) -> "Type":
        """The same type remembered under another alias."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class TCon(Type):
    """A named type constructor applied to types and integer indices:
    「整数」, 「定长小数」于「三二」, 「数组」于 T, 「采样器」."""

    name: str
    args: tuple["Type | int", ...] = ()
    alias: str | None = field(default=None, compare=False)

    def named(self, alias):
        return TCon(self.name, self.args, alias)


@dataclass(frozen=True, slots=True)
class TTuple(Type):
    """A tuple; vectors and matrices are tuples (seed 着三)."""

    items: tuple[Type, ...]
    alias: str | None = field(default=None, compare=False)

    def named(self, alias):
        return TTuple(self.items, alias)


@dataclass(frozen=True, slots=True)
class FieldIO:
    """What a struct field's type was wrapped in (「定位」于 N 于 T, 「平直」于 T …):
    its @location number and its interpolation's name (builtin/io.py's
    INTERPOLATIONS).  The wrappers are attributes of the field, not types."""

    location: int | None = None
    interpolation: str | None = None


@dataclass(frozen=True, slots=True)
class TRecord(Type):
    """A structural record (组类); `alias` is the struct name when it has one;
    `io` the fields' written interface attributes, which leave equality alone
    as the alias does."""

    fields: tuple[tuple[str, Type], ...]
    alias: str | None = field(default=None, compare=False)
    io: tuple[tuple[str, FieldIO], ...] = field(default=(), compare=False)

    def named(self, alias):
        return TRecord(self.fields, alias, self.io)

    def field_io(self, name: str) -> FieldIO:
        return dict(self.io).get(name, NO_IO)

    def field_type(self, name: str) -> Type | None:
        for n, t in self.fields:
            if n == name:
                return t
        return None


NO_IO = FieldIO()


@dataclass(frozen=True, slots=True)
class TFun(Type):
    """A function of one or more parameters (curried forms are flattened)."""

    params: tuple[Type, ...]
    result: Type
    alias: str | None = field(default=None, compare=False)

    def named(self, alias):
        return TFun(self.params, self.result, alias)


@dataclass(frozen=True, slots=True)
class TVar(Type):
    """A type variable bound by 凡 in a scheme; `bound` names its class."""

    name: str
    bound: str | None = None
    alias: str | None = field(default=None, compare=False)

    def named(self, alias):
        return TVar(self.name, self.bound, alias)


@dataclass(frozen=True, slots=True)
class TFamily(Type):
    """A type computed from other types once they are known
    (「元素」于 T: the component type; 「同形」于 T 于 S: T's shape over S)."""

    name: str
    args: tuple["Type | int", ...]
    alias: str | None = field(default=None, compare=False)

    def named(self, alias):
        return TFamily(self.name, self.args, alias)


_meta_ids = itertools.count()


@dataclass(eq=False, slots=True)
class TMeta(Type):
    """A unification variable; `ref` is what it was solved to (a type or an
    integer index).  `bounds` are class names it must satisfy, `origin` the
    span where it was created, for the 'cannot determine' message."""

    ref: "Type | int | None" = None
    bounds: tuple[str, ...] = ()
    origin: tuple[int, int] | None = None
    hint: str = ""
    shown: str = ""  # a 凡 variable's own name, for messages (「甲」)
    id: int = field(default_factory=lambda: next(_meta_ids))
    alias: str | None = None

    def named(self, alias):
        return self

    def __eq__(self, other):
        return other is self

    def __hash__(self):
        return id(self)


class TError(Type):
    """The type of something already reported: unifies with anything, so one
    mistake gives one message."""

    __slots__ = ()
    alias = None

    def named(self, alias):
        return self

    def __eq__(self, other):
        return isinstance(other, TError)

    def __hash__(self):
        return 0

    def __repr__(self):
        return "TError()"


ERROR = TError()

TypeOrIndex = Union[Type, int]


# ---------------------------------------------------------------- well-known types

def builtin(name: str) -> TCon:
    return TCon(name, (), name)


INT_LIT = builtin("整数")     # type of integer literals
FLOAT_LIT = builtin("小数")   # type of decimal literals
BOOL = builtin("爻")
UNIT = builtin("有")
KIND = builtin("元类型")

FLOAT, INT, UINT = "定长小数", "定长整数", "定长无符号"
SCALAR_CONSTRUCTORS = (FLOAT, INT, UINT)


def scalar(kind: str, width: int) -> TCon:
    return TCon(kind, (width,))


F32, F16, I32, U32 = scalar(FLOAT, 32), scalar(FLOAT, 16), scalar(INT, 32), scalar(UINT, 32)


def resolve(t: TypeOrIndex) -> TypeOrIndex:
    """Follow solved unification variables (keeping the outermost alias)."""
    while isinstance(t, TMeta) and t.ref is not None:
        t = t.ref
    return t


def map_parts(t: TypeOrIndex, f) -> TypeOrIndex:
    """t rebuilt with f applied to each direct part (arguments, items, fields,
    parameters), keeping its alias: the one traversal that type rewrites share."""
    if isinstance(t, TCon):
        return TCon(t.name, tuple(f(a) for a in t.args), t.alias) if t.args else t
    if isinstance(t, TFamily):
        return TFamily(t.name, tuple(f(a) for a in t.args), t.alias)
    if isinstance(t, TTuple):
        return TTuple(tuple(f(a) for a in t.items), t.alias)
    if isinstance(t, TRecord):
        return TRecord(tuple((n, f(a)) for n, a in t.fields), t.alias, t.io)
    if isinstance(t, TFun):
        return TFun(tuple(f(a) for a in t.params), f(t.result), t.alias)
    return t


def deep_resolve(t: TypeOrIndex) -> TypeOrIndex:
    """Resolve unification variables everywhere inside a type."""
    t = resolve(t)
    if isinstance(t, int):
        return t
    return map_parts(t, deep_resolve)


def buffer_contents(t: TypeOrIndex) -> TypeOrIndex:
    """What a storage buffer type holds — whose fields 「缓冲」中「字段」 takes — or t itself, resolved."""
    r = resolve(t)
    return resolve(r.args[0]) if isinstance(r, TCon) and r.name == "存储缓冲" and r.args else r


def is_unit(t: TypeOrIndex) -> bool:
    """「有」, the type of no value (a function that returns nothing, a 若 without 否则)."""
    t = resolve(t)
    return isinstance(t, TCon) and t.name == "有"


def is_scalar(t: TypeOrIndex, include_literals: bool = True) -> bool:
    t = resolve(t)
    if not isinstance(t, TCon):
        return False
    if t.name in SCALAR_CONSTRUCTORS:
        return True
    if t.name == "爻":
        return True
    return include_literals and t.name in ("整数", "小数")


def vector_parts(t: TypeOrIndex) -> tuple[TCon, int] | None:
    """(component type, width) when t is a vector: a tuple of 2–4 equal scalars."""
    t = resolve(t)
    if not isinstance(t, TTuple) or not 2 <= len(t.items) <= 4:
        return None
    first = resolve(t.items[0])
    if not is_scalar(first) or any(resolve(i) != first for i in t.items[1:]):
        return None
    return first, len(t.items)


#: the letters that name a vector's components in a swizzle (「v」中「xy」, 「c」中「bgr」): one set per swizzle
SWIZZLE_SETS = ("xyzw", "rgba")


def swizzle_components(label: str) -> tuple[int, ...] | None:
    """The component indices a swizzle label names (「zyx」 → (2, 1, 0)); None
    when it is no swizzle: 1 to 4 letters, all of x y z w or all of r g b a."""
    for letters in SWIZZLE_SETS:
        if 1 <= len(label) <= 4 and all(c in letters for c in label):
            return tuple(letters.index(c) for c in label)
    return None


def matrix_parts(t: TypeOrIndex) -> tuple[TCon, int, int] | None:
    """(component, columns, rows) when t is a matrix: 2–4 equal float vectors."""
    t = resolve(t)
    if not isinstance(t, TTuple) or not 2 <= len(t.items) <= 4:
        return None
    column = vector_parts(t.items[0])
    if column is None or any(resolve(i) != resolve(t.items[0]) for i in t.items[1:]):
        return None
    comp, rows = column
    if comp.name not in (FLOAT, "小数"):
        return None
    return comp, len(t.items), rows


def contains_meta(t: TypeOrIndex) -> bool:
    t = resolve(t)
    if isinstance(t, TMeta):
        return True
    if isinstance(t, TCon) or isinstance(t, TFamily):
        return any(contains_meta(a) for a in t.args)
    if isinstance(t, TTuple):
        return any(contains_meta(a) for a in t.items)
    if isinstance(t, TRecord):
        return any(contains_meta(a) for _, a in t.fields)
    if isinstance(t, TFun):
        return any(contains_meta(a) for a in t.params) or contains_meta(t.result)
    return False


# ---------------------------------------------------------------- printing

_CN_DIGITS = "零一二三四五六七八九"


def chinese_number(n: int) -> str:
    """Positional Chinese numeral, one digit per character: 32 → 三二."""
    return "".join(_CN_DIGITS[int(d)] for d in str(n)) if n >= 0 else "负" + chinese_number(-n)


class Printer:
    """Prints types in 豫言 syntax.  `names` maps a type (by equality) to the
    builtin alias that spells it, so an unnamed vec3<u32> prints 「三维无」."""

    def __init__(self, names: dict[Type, str] | None = None) -> None:
        self.names = names or {}

    def __call__(self, t: TypeOrIndex) -> str:
        return self.show(t, top=True)

    def show(self, t: TypeOrIndex, top: bool = False) -> str:
        t = resolve(t)
        if isinstance(t, int):
            return f"「{chinese_number(t)}」"
        if isinstance(t, TError):
            return "「？」"
        if isinstance(t, TMeta):
            return f"「{t.shown}」" if t.shown else "「？」"
        if t.alias:
            return f"「{t.alias}」"
        try:
            known = self.names.get(t)
        except TypeError:
            known = None
        if known:
            return f"「{known}」"
        text = self.structure(t)
        return text if top or not self._needs_parens(t) else f"（{text}）"

    @staticmethod
    def _needs_parens(t: Type) -> bool:
        return (isinstance(t, TCon) and bool(t.args)) or isinstance(t, (TTuple, TFun, TFamily))

    def structure(self, t: Type) -> str:
        """t written out from its parts, never as its own name (what an alias stands for)."""
        if isinstance(t, (TCon, TFamily)):
            return "于".join([f"「{t.name}」"] + [self.show(a) for a in t.args])
        if isinstance(t, TTuple):
            return "与".join(self.show(i) for i in t.items)
        if isinstance(t, TRecord):
            inner = "，".join(f"「{n}」乃{self.show(ft, top=True)}也" for n, ft in t.fields)
            return f"「组类」【{inner}】"
        if isinstance(t, TFun):
            if len(t.params) == 1:
                return f"化{self.show(t.params[0])}而{self.show(t.result, top=True)}"
            rest = "".join(f"又化{self.show(p)}" for p in t.params[1:])
            return f"化{self.show(t.params[0])}{rest}为{self.show(t.result, top=True)}者"
        if isinstance(t, TVar):
            return f"「{t.name}」"
        return "「？」"
