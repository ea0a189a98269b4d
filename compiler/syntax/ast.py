"""The syntax tree of one top-level item.

Offsets (`start`, `end`) are in characters relative to the start of the item's
first token, so that a parsed item can be reused unchanged when an edit
elsewhere moves it: where each item starts is the parse's table, `ParsedFile.starts`.
Names are kept as written (alias names included): the translator needs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(slots=True, eq=False)
class Node:
    """Every node: its span, relative to its item's first token."""

    start: int
    end: int


# ---------------------------------------------------------------- types


@dataclass(slots=True, eq=False)
class TypeName(Node):
    """A type named: 「无三二」, an alias, a type variable."""

    name: str


@dataclass(slots=True, eq=False)
class TypeIndex(Node):
    """An integer literal used as a type index: 「三二」 in 「定长小数」于「三二」."""

    value: int


@dataclass(slots=True, eq=False)
class TypeApp(Node):
    """A type applied to an argument: 「数组」于「无三二」."""

    fn: "TypeExpr"
    arg: "TypeExpr"


@dataclass(slots=True, eq=False)
class TypeTuple(Node):
    """A tuple type: 「浮三二」与「浮三二」."""

    items: list["TypeExpr"]


@dataclass(slots=True, eq=False)
class TypeFun(Node):
    """A function type: 化 参数 而 结果, or 化 甲 又化 乙 为 结果 者."""

    params: list["TypeExpr"]
    result: "TypeExpr"


@dataclass(slots=True, eq=False)
class TypeForall(Node):
    """A type variable bound over a type: 凡「甲」而 …, 凡「甲：数」而 … (a bounded one)."""

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
    """A record type: 「组类」【「x」乃「浮三二」也，…】."""

    head: str
    fields: list[Field]


TypeExpr = Union[TypeName, TypeIndex, TypeApp, TypeTuple, TypeFun, TypeForall, TypeRecord]

# ---------------------------------------------------------------- expressions


@dataclass(slots=True, eq=False)
class Name(Node):
    """A name in 「」: a local, a top-level definition, a builtin."""

    name: str


@dataclass(slots=True, eq=False)
class Number(Node):
    """A numeric literal as written (「三二」, 「一点五」, 0x1F) and its value."""

    value: int | float
    is_float: bool
    text: str


@dataclass(slots=True, eq=False)
class String(Node):
    """A string literal 『…』, without its quotes."""

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
    """A field or component read: 表达式 中「名」, 表达式 中「零」."""

    base: "Expr"
    label: str
    label_start: int


@dataclass(slots=True, eq=False)
class Apply(Node):
    """A function applied to one argument: 「f」于 x (several arguments curry)."""

    fn: "Expr"
    arg: "Expr"


@dataclass(slots=True, eq=False)
class TypeArg(Node):
    """A type passed explicitly: 「f」以 类型."""

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
    """A tuple: 甲 与 乙 (flattened: seed 着八)."""

    items: list["Expr"]


@dataclass(slots=True, eq=False)
class Record(Node):
    """A record value: 「组值」【「x」者 表达式 也，…】."""

    head: str
    fields: list[Field]


@dataclass(slots=True, eq=False)
class If(Node):
    """若 条件 则 甲 否则 乙 (a value), or 若 条件 则 甲 (type 「有」)."""

    cond: "Expr"
    then: "Expr"
    otherwise: "Expr | None"


@dataclass(slots=True, eq=False)
class Let(Node):
    """令「名」为 值 而 主体."""

    name: str
    name_start: int
    name_end: int
    value: "Expr"
    body: "Expr"


@dataclass(slots=True, eq=False)
class Param(Node):
    """A parameter of a lambda: 得「名」."""

    name: str


@dataclass(slots=True, eq=False)
class Lambda(Node):
    """得「x」又得「y」而 主体: a local function."""

    params: list[Param]
    body: "Expr"


@dataclass(slots=True, eq=False)
class Sequence(Node):
    """甲；乙: 甲 for its effects, then the value of 乙."""

    items: list["Expr"]


@dataclass(slots=True, eq=False)
class Ascribe(Node):
    """（表达式 也 类型）: an expression with its type written."""

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
    """「名」乃 类型 也。: a definition's, resource's or entry's type."""

    name: str
    name_end: int
    type: TypeExpr


@dataclass(slots=True, eq=False)
class Definition(Node):
    """「名」者 表达式 也。: a value, a function, a resource or an entry."""

    name: str
    name_end: int
    value: Expr


@dataclass(slots=True, eq=False)
class TypeDef(Node):
    """「名」即 类型 也。: a type alias or a struct (组类)."""

    name: str
    name_end: int
    type: TypeExpr


@dataclass(slots=True, eq=False)
class CtorDecl(Node):
    """「名」立 类型 也。: a constructor (refused in a shader source: 着四.6)."""

    name: str
    name_end: int
    type: TypeExpr


@dataclass(slots=True, eq=False)
class BareExpr(Node):
    """An expression with no name around it (refused: a top-level item needs one)."""

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
