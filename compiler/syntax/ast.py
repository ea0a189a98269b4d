"""The syntax tree of one top-level item.

Offsets (`start`, `end`) are in characters relative to the start of the item's
first token, so that a parsed item can be reused unchanged when an edit
elsewhere moves it: the item's absolute start lives on `ParsedItem`.
Names are kept as written (alias names included): the translator needs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(slots=True, eq=False)
class Node:
    start: int
    end: int


# ---------------------------------------------------------------- types


@dataclass(slots=True, eq=False)
class TypeName(Node):
    name: str


@dataclass(slots=True, eq=False)
class TypeIndex(Node):
    """An integer literal used as a type index: 「三二」 in 「定长小数」于「三二」."""

    value: int


@dataclass(slots=True, eq=False)
class TypeApp(Node):
    fn: "TypeExpr"
    arg: "TypeExpr"


@dataclass(slots=True, eq=False)
class TypeTuple(Node):
    items: list["TypeExpr"]


@dataclass(slots=True, eq=False)
class TypeFun(Node):
    params: list["TypeExpr"]
    result: "TypeExpr"


@dataclass(slots=True, eq=False)
class TypeForall(Node):
    var: str
    var_start: int
    var_end: int
    body: "TypeExpr"


@dataclass(slots=True, eq=False)
class Field(Node):
    """「名」乃 类型 也 in a 组类, or 「名」者 表达式 也 in a 组值."""

    name: str
    name_end: int
    value: "TypeExpr | Expr"


@dataclass(slots=True, eq=False)
class TypeRecord(Node):
    head: str
    fields: list[Field]


TypeExpr = Union[TypeName, TypeIndex, TypeApp, TypeTuple, TypeFun, TypeForall, TypeRecord]

# ---------------------------------------------------------------- expressions


@dataclass(slots=True, eq=False)
class Name(Node):
    name: str


@dataclass(slots=True, eq=False)
class Number(Node):
    value: int | float
    is_float: bool
    text: str


@dataclass(slots=True, eq=False)
class String(Node):
    value: str


@dataclass(slots=True, eq=False)
class Qualified(Node):
    """「模块」之「名」."""

    module: str
    module_end: int
    name: str
    name_start: int


@dataclass(slots=True, eq=False)
class Project(Node):
    base: "Expr"
    label: str
    label_start: int


@dataclass(slots=True, eq=False)
class Apply(Node):
    fn: "Expr"
    arg: "Expr"


@dataclass(slots=True, eq=False)
class TypeArg(Node):
    fn: "Expr"
    type: TypeExpr


@dataclass(slots=True, eq=False)
class Operator(Node):
    """An operator: sugar for the builtin function of the same name."""

    op: str
    op_start: int
    operands: list["Expr"]


@dataclass(slots=True, eq=False)
class Tuple(Node):
    items: list["Expr"]


@dataclass(slots=True, eq=False)
class Record(Node):
    head: str
    fields: list[Field]


@dataclass(slots=True, eq=False)
class If(Node):
    cond: "Expr"
    then: "Expr"
    otherwise: "Expr | None"


@dataclass(slots=True, eq=False)
class Let(Node):
    name: str
    name_start: int
    name_end: int
    value: "Expr"
    body: "Expr"


@dataclass(slots=True, eq=False)
class Param(Node):
    name: str


@dataclass(slots=True, eq=False)
class Lambda(Node):
    params: list[Param]
    body: "Expr"


@dataclass(slots=True, eq=False)
class Sequence(Node):
    items: list["Expr"]


@dataclass(slots=True, eq=False)
class Ascribe(Node):
    expr: "Expr"
    type: TypeExpr


@dataclass(slots=True, eq=False)
class Paren(Node):
    """Parentheses, kept only so that tuple flattening (seed 着八) can see them."""

    inner: "Expr"


Expr = Union[Name, Number, String, Qualified, Project, Apply, TypeArg, Operator, Tuple,
             Record, If, Let, Lambda, Sequence, Ascribe, Paren]

# ---------------------------------------------------------------- items


@dataclass(slots=True, eq=False)
class Import(Node):
    """寻观 / 寻 / 观 路径 之书。"""

    kind: str  # "寻观", "寻" or "观"
    path: list[Name]


@dataclass(slots=True, eq=False)
class Signature(Node):
    name: str
    name_end: int
    type: TypeExpr


@dataclass(slots=True, eq=False)
class Definition(Node):
    name: str
    name_end: int
    value: Expr


@dataclass(slots=True, eq=False)
class TypeDef(Node):
    name: str
    name_end: int
    type: TypeExpr


@dataclass(slots=True, eq=False)
class CtorDecl(Node):
    name: str
    name_end: int
    type: TypeExpr


@dataclass(slots=True, eq=False)
class BareExpr(Node):
    expr: Expr


Item = Union[Import, Signature, Definition, TypeDef, CtorDecl, BareExpr]


def children(node: Node) -> list[Node]:
    """The direct sub-nodes, in source order (for walks that find a position)."""
    out: list[Node] = []
    for name in node.__slots__:
        value = getattr(node, name)
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, Node))
    return out
