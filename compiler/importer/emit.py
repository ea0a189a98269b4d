"""The importer's writer: a parsed WGSL module as 着色 text.

What WGSL writes as mutation the language writes as bindings: each
assignment of a `var` is another 令 of the same name, and an if that only
chooses values is 令 x 为 若 … 则 … 否则 x.  A loop becomes a local
tail-recursive function 「环」 whose parameters are the loop's state (a
`for` counter and the variables the loop assigns); an if in the loop that
assigns the state takes the statements after it into its branches, each
path that continues ends in the next call with the new values, and `break`
gives the loop's value.  Only what none of that expresses is a cell
(「新格」/「读格」/「写格」); `mutated_deeper` decides which.  A statement
list becomes one expression: 令 … 而 for bindings, ；for effects, and an
`if` whose branch jumps (return, break, continue) takes the statements
after it into its other branch.  Operands are parenthesised only where the
grammar needs it.

Nothing is regrouped or folded: each WGSL operation is one 着色 operation on
the same operands in the same order, so the result is bit-identical.
Whatever has no exact counterpart raises `Refusal` at its WGSL offset."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, localcontext

from lark import Token, Tree

from . import builtins as B
from .refusal import Refusal, Skipped
from .types import (AFLOAT, AINT, BOOL, CONSTRUCTOR, DIGIT, F32, I32, IO_TEXTURE_NAMES, SHORT_SUFFIX, U32,
                    concrete, is_abstract, number, scalar_of, spell, with_scalar)

# 着色 precedence levels (higher binds tighter); see /work/shared/spec §5
ATOM, PROJ, APP, UNARY = 100, 90, 80, 70
TUPLE, BRANCH = 5, 3
#: an item of a tuple below this is parenthesised (an item is an or-expression: only 若 and tuples)
ITEM = 11
#: an argument below this is parenthesised (an application, an operation)
OPERAND = 81

BINARY = {  # WGSL operator → (着色 operator, level)
    "*": ("乘", 60), "/": ("除", 60), "%": ("余", 60), "+": ("加", 50), "-": ("减", 50),
    "<<": ("左移", 40), ">>": ("右移", 40),
    "==": ("等于", 30), "!=": ("不等于", 30), "<": ("小于", 30), ">": ("大于", 30), "<=": ("不大于", 30), ">=": ("不小于", 30),
    "&": ("按位与", 23), "^": ("异或", 22), "|": ("按位或", 21), "&&": ("且", 12), "||": ("或", 11),
}
COMPARISONS = {"==", "!=", "<", ">", "<=", ">="}
BINARY_RULES = {"arith", "shift", "compare", "bit_and", "bit_or", "bit_xor", "logic_and", "logic_or"}
COMPOUND = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "&=": "&", "|=": "|", "^=": "^",
            "<<=": "<<", ">>=": ">>"}
SWIZZLE = set("xyzw") | set("rgba")
COMPONENTS = "xyzw"


@dataclass
class Ex:
    text: str
    prec: int
    ty: tuple | None


def wrap(x: Ex, least: int) -> str:
    return x.text if x.prec >= least else f"（{x.text}）"


def operation(x: Ex, word: str, level: int, y: Ex, comparison: bool = False) -> str:
    """`x word y` with only the parentheses the grammar needs: operators group to the left
    (a right operand at the same level keeps its parentheses, so nothing is regrouped) and
    comparisons do not chain (either operand at their level keeps them)."""
    return f"{wrap(x, level + comparison)}{word}{wrap(y, level + 1)}"


class NotAVector(Exception):
    """A loop's several values are not all of one scalar type, so they make no vector: the
    function is written again with them as cells."""

    def __init__(self, loop: int):
        super().__init__(loop)
        self.loop = loop


@dataclass
class Resource:
    kind: str            # storage uniform workgroup handle
    ty: tuple
    field: str | None = None   # a storage struct whose one member is the runtime array read through it
    single: bool = False       # one value (a scalar, an atomic) held as the only element of an array
    header: bool = False       # a storage struct with header fields before its runtime array: 「缓冲」中「字段」


@dataclass
class Local:
    ty: tuple
    cell: bool = False
    refused: bool = False      # bound by a refused statement: what uses it is skipped, not refused again


@dataclass
class Flow:
    """Where control goes at the end of a statement list and at each jump."""
    fall: list[str]
    on_break: list[str] | None = None
    on_continue: list[str] | None = None
    in_loop: bool = False
    returns: bool = False     # a return inside the loop is the loop function's value (see `loop`)


def node_at(node) -> int:
    if isinstance(node, Token):
        return node.start_pos or 0
    meta = getattr(node, "meta", None)
    return getattr(meta, "start_pos", 0) if meta is not None and not meta.empty else 0


def kids(tree: Tree) -> list:
    return list(tree.children)


def subtrees(tree: Tree, name: str) -> list[Tree]:
    return [c for c in tree.children if isinstance(c, Tree) and c.data == name]


def tokens(tree: Tree, kind: str | None = None) -> list[Token]:
    return [c for c in tree.children if isinstance(c, Token) and (kind is None or c.type == kind)]


def attributes(tree: Tree) -> dict[str, Tree]:
    out = {}
    for a in subtrees(tree, "attribute"):
        name = str(a.children[0].children[0])
        out[name] = a
    return out


def attribute_args(a: Tree) -> list:
    args = subtrees(a, "args")
    return kids(args[0]) if args else []


class Importer:
    def __init__(self):
        self.structs: dict[str, list[tuple[str, tuple]]] = {}
        self.struct_members: dict[str, list[tuple]] = {}   # name → (field, type, attributes, offset)
        self.aliases: dict[str, tuple] = {}
        self.consts: dict[str, tuple] = {}
        self.const_values: dict[str, int] = {}
        self.abstract_uses: dict[str, set] = {}
        self.resources: dict[str, Resource] = {}
        self.functions: dict[str, tuple[list[tuple], tuple | None]] = {}
        self.locals: list[dict[str, Local]] = []
        self.loop_depth = 0
        self.overrides = 0
        self.struct_roles: dict[str, str] = {}
        self.bodies: dict[str, Tree] = {}
        self.peeking = False
        self.comments: list = []       # the module's comments (lexer.Comment), for function bodies
        self.pending: dict = {}        # id(statement) → the comments just before it, until written
        self.cells: set[str] = set()
        self.loop_states: dict = {}    # id(loop) → LoopState
        self.selects: dict = {}        # id(if) → the names it chooses values for
        self.threaded: set = set()     # id(if) whose following statements go into its branches
        self.mixed: set = set()        # id(loop) whose several values are not one scalar type (no vector)
        self.initial: dict = {}        # a loop state's value, written as the loop's first argument (`starts_loop`)
        self.current = (None, None)
        self.discovering = False
        self.hoisted: list[str] | None = None    # 令 lines a statement needs before it (None: none allowed here)
        self.refused: dict[str, str] = {}         # a refused declaration's name → its construct (said again at each use)
        self.expected: set[int] = set()
        self.collected: list[Refusal] | None = None   # a function body's refusals, each statement's own          # ids of expressions written where 着色 expects their type

    # ---- types ----------------------------------------------------------------------------

    def type_of(self, t: Tree) -> tuple:
        name = str(t.children[0])
        template = subtrees(t, "template")
        args = [c for c in template[0].children if isinstance(c, Tree)] if template else []
        return self.named_type(name, args, node_at(t))

    def type_arg(self, e) -> tuple:
        if isinstance(e, Tree) and e.data == "name":
            return self.type_of(e)
        raise Refusal(node_at(e), "类型参数里的表达式")

    def named_type(self, name: str, args: list, at: int) -> tuple:
        if name in ("f32", "f16", "i32", "u32", "bool"):
            return ("scalar", name)
        if name in self.aliases:
            return self.aliases[name]
        if name in self.structs:
            return ("struct", name)
        if name[:3] == "vec" and len(name) >= 4 and name[3] in "234":
            n = int(name[3])
            if len(name) == 5 and name[4] in SHORT_SUFFIX:
                return ("vec", n, SHORT_SUFFIX[name[4]])
            if len(name) == 4 and len(args) == 1:
                return ("vec", n, scalar_of(self.type_arg(args[0])))
        if name[:3] == "mat" and len(name) >= 6 and name[3] in "234" and name[5] in "234":
            c, r = int(name[3]), int(name[5])
            if len(name) == 7 and name[6] in SHORT_SUFFIX:
                return ("mat", c, r, SHORT_SUFFIX[name[6]])
            if len(name) == 6 and len(args) == 1:
                return ("mat", c, r, scalar_of(self.type_arg(args[0])))
        if name == "array" and args:
            element = self.type_arg(args[0])
            if len(args) == 1:
                return ("array", element, None)
            return ("array", element, self.constant_int(args[1]))
        if name == "atomic" and len(args) == 1:
            return ("atomic", scalar_of(self.type_arg(args[0])))
        if name in IO_TEXTURE_NAMES:
            return ("named", IO_TEXTURE_NAMES[name](self, args, at))
        if name == "ptr":
            raise Refusal(at, "指针类型 ptr<…>（着色没有指针：把缓冲或值直接传给函数）")
        raise Refusal(at, f"类型「{name}」")

    def constant_int(self, e) -> int:
        if isinstance(e, Tree) and e.data == "literal":
            text = str(e.children[0]).rstrip("iu")
            if e.children[0].type == "INT":
                return int(text, 0)
        if isinstance(e, Tree) and e.data == "name" and str(e.children[0]) in self.const_values:
            return self.const_values[str(e.children[0])]
        raise Refusal(node_at(e), "不是整数字面量的长度或工作组大小（着色要求写成字面量）")

    # ---- module ---------------------------------------------------------------------------

    def directive(self, d: Tree) -> list[str]:
        words = [str(t) for t in d.children[1].children] if len(d.children) > 1 and isinstance(d.children[1], Tree) else []
        if d.children[0].type == "ENABLE" and set(words) <= {"f16", "subgroups"}:
            return []       # the translator writes `enable` itself where a program needs it
        raise Refusal(node_at(d), f"指令「{d.children[0]}」（着色的译文自己决定启用什么）")

    def decl_struct(self, d: Tree):
        name = str(tokens(d, "IDENT")[0])
        members = []
        for m in subtrees(subtrees(d, "members")[0], "member"):
            attrs = attributes(m)
            field_name = str(tokens(m, "IDENT")[0])
            ty = self.type_of(subtrees(m, "type")[0])
            members.append((field_name, ty, attrs, node_at(m)))
        self.structs[name] = [(f, t) for f, t, _, _ in members]
        self.struct_members[name] = members

        def write():
            role = self.struct_roles.get(name)
            locations: list = []
            fields = [f"「{f}」乃{self.member_type(ty, attrs, at, role, locations)}也" for f, ty, attrs, at in members]
            return [f"「{name}」即「组类」【" + "，".join(fields) + "】也。"]
        return write

    def member_type(self, ty, attrs, at, role, locations: list) -> str:
        """A field's or an entry parameter's type: a builtin's alias where WGSL names a builtin."""
        for a in attrs:
            if a not in ("builtin", "align", "size", "location", "interpolate", "invariant"):
                raise Refusal(at, f"属性 @{a}")
        if "align" in attrs or "size" in attrs:
            raise Refusal(at, "结构字段的 @align/@size（着色按 WGSL 的默认布局排字段）")
        if "invariant" in attrs:
            raise Refusal(at, "@invariant")
        if "builtin" in attrs:
            return self.io_builtin(attrs["builtin"], role)
        spelled = text = spell(ty, at)
        if "interpolate" in attrs:
            text = interpolated(text, ty, attrs["interpolate"])
        if "location" in attrs:
            n = self.constant_int(attribute_args(attrs["location"])[0])
            if n != (locations[-1] + 1 if locations else 0):     # 着色 numbers the others on from the one before
                text = f"「定位」于{number(n)}于{text if text == spelled else f'（{text}）'}"
            locations.append(n)
        return text

    def io_builtin(self, a: Tree, role) -> str:
        which = str(attribute_args(a)[0].children[0])
        if which == "position":
            return "「片元坐标」" if role == "fragment_in" else "「裁剪位置」"
        if which not in B.IO_BUILTINS:
            raise Refusal(node_at(a), f"内建量 @builtin({which})")
        return f"「{B.IO_BUILTINS[which]}」"

    def decl_alias(self, d: Tree):
        name = str(tokens(d, "IDENT")[0])
        ty = self.type_of(subtrees(d, "type")[0])
        self.aliases[name] = ty
        return lambda: [f"「{name}」即{spell(ty, node_at(d))}也。"]

    def decl_const_assert(self, d: Tree):
        raise Refusal(node_at(d), "const_assert（着色没有编译期断言）")

    def decl_global_const(self, d: Tree):
        name = str(tokens(d, "IDENT")[0])
        value = [c for c in d.children if isinstance(c, Tree) and c.data != "type"][-1]
        declared = subtrees(d, "type")
        ty = self.type_of(declared[0]) if declared else self.peek(value)
        if ty[0] not in ("scalar", "vec", "array", "mat"):
            raise Refusal(node_at(d), "结构常量（着色的顶层常量是标量、向量、矩阵或定长数组）")
        if ty[0] == "array":
            ty = ("array", concrete(ty[1]), ty[2])
        self.consts[name] = ty
        if ty[0] == "scalar" and value.data == "literal" and value.children[0].type == "INT":
            self.const_values[name] = int(str(value.children[0]).rstrip("iu"), 0)
        if is_abstract(ty):
            self.abstract_uses[name] = set()

        def write():
            final = self.settled(name, d)
            return [f"「{name}」乃{spell(final, node_at(d))}也。",
                    f"「{name}」者{self.expr(self.expecting(value), final).text}也。"]
        return write

    def settled(self, name: str, d) -> tuple:
        """An abstract constant's type: the one type every use gives it (WGSL concretizes at each use)."""
        ty = self.consts[name]
        if not is_abstract(ty) or self.discovering:
            return ty
        uses = self.abstract_uses.get(name) or {None}
        wants = {concrete(u if u is not None else ty) for u in uses}
        if len(wants) > 1:
            raise Refusal(node_at(d), f"抽象常量「{name}」在不同地方用作不同的类型（着色的常量只有一个类型）")
        final = wants.pop()
        self.consts[name] = final
        return final

    def decl_override(self, d: Tree):
        name = str(tokens(d, "IDENT")[0])
        attrs = attributes(d)
        declared = subtrees(d, "type")
        values = [c for c in d.children if isinstance(c, Tree) and c.data not in ("type", "attribute")]
        if not values:
            raise Refusal(node_at(d), "没有默认值的 override（着色的可覆盖常量须有默认值）")
        ty = self.type_of(declared[0]) if declared else concrete(self.peek(values[0]))
        if "id" in attrs and self.constant_int(attribute_args(attrs["id"])[0]) != self.overrides:
            raise Refusal(node_at(d), "override 的 @id 不按次序（着色按出现次序从 0 编号）")
        self.overrides += 1
        self.consts[name] = ty
        return lambda: [f"「{name}」乃{spell(ty, node_at(d))}也。",
                        f"「{name}」者「可覆盖」于{wrap(self.expr(values[0], ty), OPERAND)}也。"]

    def decl_global_var(self, d: Tree):
        name = str(tokens(d, "IDENT")[0])
        attrs = attributes(d)
        template = subtrees(d, "template")
        space = [str(c.children[0]) for c in template[0].children if isinstance(c, Tree)] if template else []
        ty = self.type_of(subtrees(d, "type")[0])
        at = node_at(d)
        if [c for c in d.children if isinstance(c, Tree) and c.data not in ("type", "attribute", "template")]:
            raise Refusal(at, "带初值的模块级变量")
        if space[:1] == ["workgroup"]:
            single = ty[0] in ("scalar", "vec", "atomic")
            if not single and (ty[0] != "array" or ty[2] is None):
                raise Refusal(at, "不是定长数组、标量、向量或原子的工作组变量（着色的工作组变量按元素读写）")
            ty = ("array", ty, 1) if single else ty     # one value: the only element of an array
            self.resources[name] = Resource("workgroup", ty, single=single)
            return lambda: [f"「{name}」乃「工作组变量」于{spell(ty, at)}也。", f"「{name}」者「工作组共享」于「元」也。"]
        if space[:1] == ["private"]:
            raise Refusal(at, "var<private>（着色没有模块级的可变变量）")
        group = self.constant_int(attribute_args(attrs["group"])[0]) if "group" in attrs else None
        binding = self.constant_int(attribute_args(attrs["binding"])[0]) if "binding" in attrs else None
        if group is None or binding is None:
            raise Refusal(at, "没有 @group/@binding 的资源")
        slot = f"「组」者{number(group)}也，「号」者{number(binding)}也"
        if space[:1] == ["storage"]:
            access = "读写" if space[1:] == ["read_write"] else "只读"
            if space[1:] == ["write"]:
                raise Refusal(at, "只写的存储缓冲")
            res = self.storage_resource(ty, at)
            self.resources[name] = res
            return lambda: [f"「{name}」乃「存储缓冲」于{spell(res.ty, at)}也。",
                            f"「{name}」者「绑定」于（「组值」【{slot}，「访问」者「{access}」也】）也。"]
        if space[:1] == ["uniform"]:
            self.resources[name] = Resource("uniform", ty)
            return lambda: [f"「{name}」乃「均匀缓冲」于{spell(ty, at)}也。",
                            f"「{name}」者「均匀绑定」于（「组值」【{slot}】）也。"]
        if ty[0] == "named":
            self.resources[name] = Resource("handle", ty)
            word = handle_binding(ty[1])
            return lambda: [f"「{name}」乃{ty[1]}也。", f"「{name}」者「{word}」于（「组值」【{slot}】）也。"]
        raise Refusal(at, f"地址空间 {space}")

    def storage_resource(self, ty, at) -> Resource:
        """A storage buffer; a struct whose only member is a runtime array is read as that array
        (the same bytes: the member sits at offset 0)."""
        if ty[0] == "atomic":      # one atomic: the only element of a runtime array (the same bytes)
            return Resource("storage", ("array", ty, None), single=True)
        if ty[0] == "struct":
            members = self.structs[ty[1]]
            if len(members) == 1 and members[0][1][0] == "array" and members[0][1][2] is None:
                return Resource("storage", members[0][1], field=members[0][0])
            if any(m[1][0] == "array" and m[1][2] is None for m in members):
                return Resource("storage", ty, header=True)
        return Resource("storage", ty)

    # ---- functions ------------------------------------------------------------------------

    def decl_function(self, d: Tree):
        name = str(tokens(d, "IDENT")[0])
        attrs = attributes(d)
        params = [(str(tokens(p, "IDENT")[0]), self.type_of(subtrees(p, "type")[0]), attributes(p), node_at(p))
                  for p in subtrees(subtrees(d, "params")[0], "param")]
        ret = subtrees(d, "return_type")
        ret_ty = self.type_of(subtrees(ret[0], "type")[0]) if ret else None
        ret_attrs = attributes(ret[0]) if ret else {}
        self.functions[name] = ([t for _, t, _, _ in params], ret_ty)
        body = subtrees(d, "compound")[0]
        self.bodies[name] = body
        stage = next((s for s in ("compute", "vertex", "fragment") if s in attrs), None)
        if stage:
            for _, t, _, _ in params:
                if t[0] == "struct":
                    self.struct_roles.setdefault(t[1], {"fragment": "fragment_in"}.get(stage, "in"))
            if ret_ty and ret_ty[0] == "struct":
                self.struct_roles[ret_ty[1]] = "vertex_out" if stage == "vertex" else "out"

        def write():
            """The function, or its first refusal carrying the others (each statement is read);
            written again when a loop's several values turn out not to make a vector."""
            while True:
                self.collected = None if self.discovering else []
                try:
                    lines = written()
                    break
                except NotAVector as mixed:
                    self.mixed.add(mixed.loop)
                except Refusal as refusal:
                    collected, self.collected = self.collected or [], None
                    refusal.more = [r for r in collected if (r.offset, r.what) != (refusal.offset, refusal.what)]
                    raise
            collected, self.collected = self.collected, None
            if collected:
                collected[0].more = collected[1:]
                raise collected[0]
            return lines

        def written():
            self.locals = [{}]
            self.initial = {}
            self.current = (name, ret_ty)
            shapes = mutated_deeper(body, self.has_effects, self.wants_uniformity, self.switch_or_none, self.mixed)
            self.cells, self.loop_states, self.selects, self.threaded = \
                shapes.cells, shapes.loops, shapes.selects, shapes.threaded
            out: list[str] = []
            if stage:
                head, bind = self.entry_head(name, stage, params, ret_ty, ret_attrs, attrs, node_at(d))
                out += head
            else:
                types = [spell(t, at) for _, t, _, at in params] or ["「有」"]
                result = spell(ret_ty, node_at(d)) if ret_ty else "「有」"
                out.append(f"「{name}」乃化" + "又化".join(types) + f"为{result}者也。")
                bind = []
            for pname, t, _, _ in params:
                self.locals[-1][pname] = Local(t)
            names = "又得".join(f"「{p}」" for p, _, _, _ in params) if params and not bind else None
            if bind:
                names = "「调」"
            out.append(f"「{name}」者得{names or '「无参」'}而")
            fall = ["「元」"] if ret_ty is None else None
            out += bind
            self.pending = comments_before_statements(body, self.comments)
            out += self.block(kids(body), Flow(fall=fall))
            self.pending = {}
            out += [comment_line(c) for c in comments_at_end(body, self.comments)]
            out.append("也。")
            if stage:
                out += self.entry_item(name, stage, attrs, node_at(d))
            return out
        return write

    def entry_head(self, name, stage, params, ret_ty, ret_attrs, attrs, at) -> tuple[list[str], list[str]]:
        """The entry function's signature; several parameters become one struct 「名调用」 passed as 「调」."""
        role_in = {"fragment": "fragment_in"}.get(stage, "in")
        types = [spell(t, pat) if t[0] == "struct" else self.member_type(t, pattrs, pat, role_in, [])
                 for _, t, pattrs, pat in params]
        head: list[str] = []
        bind: list[str] = []
        if len(params) > 1 or params and params[0][1][0] != "struct" and field_only(types[0]):
            fields, bind = self.call_fields(params, role_in, at)
            head.append(f"「{name}调用」即「组类」【" + "，".join(f"「{f}」乃{t}也" for f, t in fields) + "】也。")
            types = [f"「{name}调用」"]
        if ret_ty is None:
            result = "「有」"
        elif ret_ty[0] == "struct":
            result = spell(ret_ty, at)
        elif "location" in ret_attrs:
            if stage != "fragment" or self.constant_int(attribute_args(ret_attrs["location"])[0]) != 0 \
                    or ret_ty != ("vec", 4, "f32"):
                raise Refusal(at, "返回值的 @location（只有片元的 @location(0) vec4<f32> 写得出：「片元颜色」）")
            result = "「片元颜色」"
        else:
            result = self.member_type(ret_ty, ret_attrs, at, "vertex_out" if stage == "vertex" else "out", [])
        head.append(f"「{name}」乃化" + "又化".join(types or ["「有」"]) + f"为{result}者也。")
        return head, bind

    def call_fields(self, params, role_in, at) -> tuple[list, list[str]]:
        """An entry's parameters as the fields of one struct 「名调用」 (着色's entry takes one value):
        a struct parameter's own fields (the parameter is built back from them), a plain one as itself."""
        fields: list[tuple[str, str]] = []
        bind: list[str] = []
        locations: list = []
        for p, t, pattrs, pat in params:
            if t[0] != "struct":
                fields.append((p, self.member_type(t, pattrs, pat, role_in, locations)))
                bind.append(f"令「{p}」为「调」中「{p}」而")
                continue
            parts = []
            for f, ft, fattrs, fat in self.struct_members[t[1]]:
                fields.append((f, self.member_type(ft, fattrs, fat, role_in, locations)))
                parts.append(f"「{f}」者「调」中「{f}」也")
            bind.append(f"令「{p}」为「组值」【" + "，".join(parts) + "】而")
        names = [f for f, _ in fields]
        if len(set(names)) != len(names):
            raise Refusal(at, "入口的几个结构参数有同名字段（着色把它们并成一个结构）")
        return fields, bind

    def workgroup_size(self, items) -> str:
        """@workgroup_size as 「工作组大小」: numbers (a const's value written out), or the names of
        overridable constants as they stand (着色 takes either, not both in one size)."""
        overridable = [isinstance(a, Tree) and a.data == "name" and str(a.children[0]) in self.consts
                       and str(a.children[0]) not in self.const_values for a in items]
        if not any(overridable):
            sizes = [self.constant_int(a) for a in items]
            while len(sizes) > 1 and sizes[-1] == 1:
                sizes.pop()
            return "与".join(number(s) for s in sizes)
        while len(items) > 1 and not overridable[-1] and self.constant_int(items[-1]) == 1:
            items, overridable = items[:-1], overridable[:-1]
        if not all(overridable):
            raise Refusal(node_at(items[0]), "工作组大小里可覆盖常量与数混写（着色要么都写数，要么都写常量名）")
        return "与".join(f"「{a.children[0]}」" for a in items)

    def entry_item(self, name, stage, attrs, at) -> list[str]:
        item = f"「{name}入口」"
        if stage == "compute":
            if "workgroup_size" not in attrs:
                raise Refusal(at, "没有 @workgroup_size 的计算入口")
            size = self.workgroup_size(attribute_args(attrs["workgroup_size"]))
            return ["", f"{item}乃「计算入口」也。",
                    f"{item}者「计算入口项」于「{name}」于（「组值」【「工作组大小」者{size}也】）也。"]
        word = {"vertex": "顶点", "fragment": "片元"}[stage]
        return ["", f"{item}乃「{word}入口」也。", f"{item}者「{word}入口项」于「{name}」也。"]

    # ---- statements -----------------------------------------------------------------------

    def lookup(self, name: str) -> Local | None:
        for scope in reversed(self.locals):
            if name in scope:
                return scope[name]
        return None

    def block(self, stmts: list, flow: Flow) -> list[str]:
        """One expression that runs `stmts` and then goes where `flow.fall` says."""
        self.locals.append({})
        try:
            return self._block(stmts, flow)
        finally:
            self.locals.pop()

    def _block(self, stmts: list, flow: Flow) -> list[str]:
        stmts = [s for s in stmts if not (isinstance(s, Tree) and s.data == "empty")]
        if stmts and id(stmts[0]) in self.pending:
            before = self.pending.pop(id(stmts[0]))
            return [comment_line(c) for c in before] + self._block(stmts, flow)
        if not stmts:
            if flow.fall is None:
                raise Refusal(0, "函数末尾没有 return")
            return list(flow.fall)
        s, rest = stmts[0], stmts[1:]
        if self.collected is None:
            return self._statement(s, rest, flow)
        try:
            return self._statement(s, rest, flow)
        except Exception as refusal:     # said once; the statements after it are still read
            if isinstance(refusal, NotAVector) or not isinstance(refusal, (Refusal, Skipped)) and not self.collected:
                raise       # the importer's own mistake, said as such at the declaration
            if isinstance(refusal, Refusal) and all((r.offset, r.what) != (refusal.offset, refusal.what)
                                                    for r in self.collected):
                self.collected.append(refusal)
            if s.data in ("local_let", "local_const", "local_var"):
                self.locals[-1][str(tokens(s, "IDENT")[0])] = Local(None, refused=True)
            return self._block(rest, flow) if rest else list(flow.fall or ["「元」"])

    def _statement(self, s, rest: list, flow: Flow) -> list[str]:
        kind = s.data
        at = node_at(s)
        if kind == "compound":
            if rest:
                if jumps(kids(s)):
                    raise Refusal(at, "块里跳出后还有语句")
                return self.sequence(self.block(kids(s), Flow(["「元」"])), rest, flow)
            return self.block(kids(s), flow)
        if kind in ("local_let", "local_const", "local_var"):
            return self.binding(s, rest, flow)
        if kind == "return_":
            values = [c for c in s.children if isinstance(c, Tree)]
            if flow.in_loop and not flow.returns:
                raise Refusal(at, "嵌套循环里的 return（着色的循环是局部函数，不能从中返回外层函数）")
            if not values:
                return ["「元」"]
            _, ret = self.current
            value, before = self.statement_value(self.expecting(values[0]), ret)
            return before + [value.text]
        if kind == "break_":
            if flow.on_break is None:
                raise Refusal(at, "循环外的 break")
            return list(flow.on_break)
        if kind == "continue_":
            if flow.on_continue is None:
                raise Refusal(at, "循环外的 continue")
            return list(flow.on_continue)
        if kind == "if_stmt":
            return self.if_statement(s, rest, flow)
        if kind == "switch":
            if self.choice(s):
                return self.chosen(self.switch_as_if(s), self.selects[id(s)], rest, flow)
            return self.if_statement(self.switch_as_if(s), rest, flow)
        if kind in ("for_", "while_", "loop"):
            shape = self.loop_states.get(id(s), LoopState([], None))
            if shape.tail or any(isinstance(x, Tree) and x.data == "return_" for x in _walk(s)):
                return self.loop(s, flow, rest)
            if shape.several:
                return self.vector_result(s, shape.several, flow, rest)
            result = shape.result
            if result is not None:
                ty = self.lookup(result).ty
                lines = self.loop(s, flow)
                self.locals[-1][result] = Local(ty)
                after = self._block(rest, flow)
                return lines if after == [f"「{result}」"] else [f"令「{result}」为（"] + lines + ["）而"] + after
            return self.sequence(self.loop(s, flow), rest, flow)
        if kind in ("assign", "compound_assign", "incdec"):
            return self.assignment(s, rest, flow)
        if kind == "phony":
            value = self.expr(s.children[-1], None)
            return self.sequence([value.text], rest, flow, discards=True)
        if kind == "call_stmt":
            call = s.children[0]
            if not (isinstance(call, Tree) and call.data == "call"):
                raise Refusal(at, "不是调用的表达式语句")
            value, before = self.statement_value(call, None)
            return before + self.sequence([value.text], rest, flow, discards=value.ty is not None)
        if kind == "discard":
            return self.sequence(["「舍弃」于「元」"], rest, flow)
        raise Refusal(at, f"语句 {kind}")

    def vector_result(self, s: Tree, names: list[str], flow: Flow, rest: list) -> list[str]:
        """A loop whose several values are used after it, where those statements cannot go to its
        exit: its value is the vector of them (着色's tuples of one scalar type), taken apart
        again under the first name — 令「a」为（…）而 令「b」为「a」中「y」而 令「a」为「a」中「x」而."""
        types = [self.lookup(v).ty for v in names]
        if types[0][0] != "scalar" or any(t != types[0] for t in types):
            raise NotAVector(id(s))
        lines = self.loop(s, flow)
        first = names[0]
        parts = [f"令「{v}」为「{first}」中「{COMPONENTS[k]}」而" for k, v in enumerate(names) if k] + \
            [f"令「{first}」为「{first}」中「x」而"]
        for v, t in zip(names, types):
            self.locals[-1][v] = Local(t)
        return [f"令「{first}」为（"] + lines + ["）而"] + parts + self._block(rest, flow)

    def block_keep(self, stmts: list) -> list[str]:
        """Statements whose bindings the following code sees (a for loop's init): their lines
        without the closing 「元」."""
        lines = self._block(stmts, Flow(["「元」"]))
        if lines and lines[-1] == "「元」":
            return lines[:-1]
        if lines and lines[-1].endswith("；"):
            return lines
        return [lines[0] + "；"] + lines[1:] if len(lines) == 1 else lines

    def sequence(self, first: list[str], rest: list, flow: Flow, discards: bool = False) -> list[str]:
        """`first；rest`, or just `first` where nothing follows and the flow ends in 「元」
        (unless `first` has a value to discard)."""
        after = self._block(rest, flow) if rest else list(flow.fall or ["「元」"])
        if not rest and after == ["「元」"] and flow.fall == ["「元」"] and not discards:
            return first
        if len(first) == 1 and first[0].startswith("若"):
            first = [f"（{first[0]}）"]
        elif first and first[0].startswith("若"):
            first = ["（"] + first + ["）"]
        first = list(first)
        first[-1] += "；"
        return first + after

    def binding(self, s: Tree, rest: list, flow: Flow) -> list[str]:
        name = str(tokens(s, "IDENT")[0])
        at = node_at(s)
        declared = subtrees(s, "type")
        values = [c for c in s.children if isinstance(c, Tree) and c.data not in ("type", "template")]
        ty = self.type_of(declared[0]) if declared else None
        if values:
            if ty is None:
                ty = concrete(self.peek(values[0]))
            value, before = self.statement_value(values[0], ty)
        else:
            value, before = self.zero(ty, at), []
        if s.data == "local_const" and values[0].data == "literal" and values[0].children[0].type == "INT":
            self.const_values[name] = int(str(values[0].children[0]).rstrip("iu"), 0)   # may size an array
        if s.data == "local_var" and name in self.cells:
            text = f"令「{name}」为「新格」于{wrap(value, OPERAND)}而"
            self.locals[-1][name] = Local(ty, cell=True)
        else:
            if ty[0] == "ptr":
                raise Refusal(at, "指针")
            text = f"令「{name}」为{value.text}而"
            self.locals[-1][name] = Local(ty)
            if not before and self.starts_loop(s, name, values, rest):
                self.initial[name] = wrap(value, OPERAND)
                return self._block(rest, flow)
        after = self._block(rest, flow)
        if s.data == "local_var" and not values and rest and not any(f"「{name}」" in line for line in after):
            return after    # declared for a loop to set as it ends, read nowhere else: its zero is never used
        if values and not before and not self.locals[-1][name].cell and not self.has_effects(values[0]):
            passed_on = passed(name, value, after)
            if passed_on:
                return passed_on
        return before + [text] + after

    def starts_loop(self, s: Tree, name: str, values: list, rest: list) -> bool:
        """Whether a `var`'s value is written as its loop's first argument instead of a 令: the
        var is that loop's state, only bindings without effects stand between (none reading it
        or binding what its value reads), and after the loop it is read only as the loop gives
        it back (its value, or the statements written at its exits)."""
        if s.data != "local_var" or values and self.has_effects(values[0]):
            return False
        reads = names_read(values[0]) if values else set()
        k = 0
        while k < len(rest) and isinstance(rest[k], Tree) and rest[k].data in ("local_var", "local_let", "local_const"):
            between = rest[k]
            if name in names_read(between) or str(tokens(between, "IDENT")[0]) in reads or self.has_effects(between):
                return False
            k += 1
        if k == len(rest) or rest[k].data not in LOOPS:
            return False
        loop, after = rest[k], rest[k + 1:]
        shape = self.loop_states.get(id(loop))
        if shape is None or name not in shape.state:
            return False
        init = [c for c in loop.children if isinstance(c, Tree) and c.data == "for_init"]
        if init and (name in names_read(init[0]) or {str(t) for t in _walk(init[0]) if isinstance(t, Token)
                                                        and t.type == "IDENT"} & reads):
            return False
        gives_back = shape.result == name or name in shape.several or shape.tail or \
            any(isinstance(x, Tree) and x.data == "return_" for x in _walk(loop))
        return gives_back or not any(name in names_read(t) for t in after)

    def zero(self, ty, at) -> Ex:
        if ty[0] == "scalar":
            if ty[1] == "bool":
                return Ex("「阴」", ATOM, ty)
            return Ex(f"「{CONSTRUCTOR[ty[1]]}」于「零」", APP, ty)
        if ty[0] == "vec":
            one = self.zero(("scalar", ty[2]), at)
            return Ex("与".join([wrap(one, ITEM)] * ty[1]), TUPLE, ty)
        if ty[0] == "struct":
            parts = [f"「{f}」者{self.zero(t, at).text}也" for f, t in self.structs[ty[1]]]
            return Ex("「组值」【" + "，".join(parts) + "】", ATOM, ty)
        if ty[0] in ("array", "mat") and ty[-1] is not None:
            element = ty[1] if ty[0] == "array" else ("vec", ty[2], ty[3])
            count = ty[2] if ty[0] == "array" else ty[1]
            return self.typed_tuple(None, [self.zero(element, at)] * count, ty, at)
        raise Refusal(at, "没有初值的运行期数组变量")

    def assignment(self, s: Tree, rest: list, flow: Flow) -> list[str]:
        target = s.children[0]
        at = node_at(s)
        if s.data != "assign" and any(isinstance(x, Tree) and x.data == "index" and self.has_effects(x.children[1])
                                      for x in _walk(target)):
            raise Refusal(at, "下标有副作用的复合赋值（着色要把下标写两遍：读一次、写一次）")
        value_of = lambda ty: self.assigned_value(s, ty)
        before: list[str] = []

        def value_with(ty):
            x, lines = self.statement_value_of(lambda: value_of(ty))
            before.extend(lines)
            return x
        lines = self.assigned(s, target, value_with, rest, flow, at)
        return before + lines

    def assigned(self, s, target, value_of, rest, flow, at) -> list[str]:
        if isinstance(target, Tree) and target.data == "name":
            name = str(target.children[0])
            local = self.lookup(name)
            if local is None:
                res = self.resources.get(name)
                if res is not None and res.single and res.kind == "workgroup" and res.ty[1][0] != "atomic":
                    value = value_of(res.ty[1])
                    return self.sequence([f"「写共享数组」于「{name}」于（「新无三二」于「零」）于{wrap(value, OPERAND)}"],
                                         rest, flow)
                if name in self.resources and self.resources[name].kind == "storage" and self.resources[name].ty[0] != "array":
                    value = value_of(self.resources[name].ty)
                    return self.sequence([f"「写存储」于「{name}」于{wrap(value, OPERAND)}"], rest, flow)
                raise Refusal(at, self.refused.get(name, f"给「{name}」赋值"))
            if local.refused:
                raise Skipped()
            value = value_of(local.ty)
            if local.cell:
                return self.sequence([f"「写格」于「{name}」于{wrap(value, OPERAND)}"], rest, flow)
            self.locals[-1][name] = Local(local.ty)
            after = self._block(rest, flow)
            return (not self.has_effects(s) and passed(name, value, after)) or bound(name, value.text, after)
        if isinstance(target, Tree) and target.data == "index" and self.array_resource(target.children[0])[0]:
            written = self.element_write(target, value_of, at)
            return self.sequence([written], rest, flow)
        root, path = member_path(target)
        local = self.lookup(root) if root else None
        if any(isinstance(x, Tree) and x.data == "deref" for x in _walk(target)):
            raise Refusal(at, "解引用 *（着色没有指针）")
        if root in self.refused:
            raise Refusal(at, self.refused[root])
        if local is None and len(path) == 1 and isinstance(target, Tree) and target.data == "member":
            field = self.header_field(self.resources.get(root), str(target.children[1]))
            if field is not None and not (field[0] == "array" and field[2] is None):
                value = value_of(field)
                return self.sequence([f"「写存储」于（「{root}」中「{target.children[1]}」）于{wrap(value, OPERAND)}"],
                                     rest, flow)
        if local is None:
            raise Refusal(at, "给缓冲里的字段或分量、或经指针赋值（着色整体写回缓冲）")
        current = Ex(f"「读格」于「{root}」", APP, local.ty) if local.cell else Ex(f"「{root}」", ATOM, local.ty)
        whole = self.updated(current, path, value_of, at)
        if local.cell:
            return self.sequence([f"「写格」于「{root}」于{wrap(whole, OPERAND)}"], rest, flow)
        self.locals[-1][root] = Local(local.ty)
        return [f"令「{root}」为{whole.text}而"] + self._block(rest, flow)

    def updated(self, current: Ex, path: list[str], value_of, at) -> Ex:
        """The value `current` with the field or components `path` replaced: WGSL's `v.x = a`
        as a new whole value, every other part read from the old one."""
        ty = current.ty
        first, rest = path[0], path[1:]
        if isinstance(first, Tree):
            return self.element_updated(current, first, rest, value_of, at)
        if ty[0] == "struct":
            fields = self.structs[ty[1]]
            parts = []
            for f, t in fields:
                old = Ex(f"{wrap(current, PROJ)}中「{f}」", PROJ, t)
                new = (self.updated(old, rest, value_of, at) if rest else value_of(t)) if f == first else old
                parts.append(f"「{f}」者{new.text}也")
            return Ex("「组值」【" + "，".join(parts) + "】", ATOM, ty)
        if ty[0] == "vec" and set(first) <= SWIZZLE and not rest:
            letters = "xyzw" if set(first) <= set("xyzw") else "rgba"
            if len(set(first)) != len(first):
                raise Refusal(at, "重复分量的赋值")
            value = value_of(("scalar", ty[2]) if len(first) == 1 else ("vec", len(first), ty[2]))
            if len(first) > 1 and not value.prec >= PROJ:
                raise Refusal(at, "给几个分量赋不是名字的值（着色要逐个分量写出，会重复计算）")
            parts = []
            for k in range(ty[1]):
                letter = letters[k]
                if letter in first:
                    j = first.index(letter)
                    part = value if len(first) == 1 else Ex(f"{wrap(value, PROJ)}中「{'xyzw'[j]}」", PROJ, None)
                else:
                    part = Ex(f"{wrap(current, PROJ)}中「{letter}」", PROJ, None)
                parts.append(wrap(part, ITEM))
            return Ex("与".join(parts), TUPLE, ty)
        raise Refusal(at, "给分量、字段赋值")

    def element_updated(self, current: Ex, index, rest: list, value_of, at) -> Ex:
        """WGSL's `a[i] = v` on a local array, vector or matrix: 「换元素」于 a 于 i 于 v (a new
        whole value).  A deeper path (`a[i].x = v`) reads the element with 「取元素」 first, so
        the index is written twice: only where it has no effect."""
        ty = current.ty
        if ty is None or ty[0] not in ("vec", "array", "mat"):
            raise Refusal(at, "给分量、字段赋值")
        element = ("scalar", ty[2]) if ty[0] == "vec" else ("vec", ty[2], ty[3]) if ty[0] == "mat" else ty[1]
        i = self.index(index)
        if rest:
            if self.has_effects(index):
                raise Refusal(at, "下标有副作用的元素里的字段或分量的赋值（着色要把下标写两遍）")
            old = Ex(f"「取元素」于{wrap(current, OPERAND)}于{wrap(i, OPERAND)}", APP, element)
            value = self.updated(old, rest, value_of, at)
        else:
            value = value_of(element)
        return Ex(f"「换元素」于{wrap(current, OPERAND)}于{wrap(i, OPERAND)}于{wrap(value, OPERAND)}", APP, ty)

    def element_write(self, target: Tree, value_of, at) -> str:
        base, index = target.children
        resource, handle = self.array_resource(base)
        element = resource.ty[1]
        i = self.index(index)
        value = value_of(element)
        word = "写共享数组" if resource.kind == "workgroup" else "写数组"
        return f"「{word}」于{handle}于{wrap(i, OPERAND)}于{wrap(value, OPERAND)}"

    def array_resource(self, base) -> tuple[Resource | None, str | None]:
        """The buffer or workgroup array an index goes into, and how 着色 names it as an operand:
        `a`; `s.data` for a runtime array that is its struct's one member (the buffer itself);
        `s.items` after header fields (（「s」中「items」）), or a fixed array field there."""
        if isinstance(base, Tree) and base.data == "name" and self.lookup(str(base.children[0])) is None:
            name = str(base.children[0])
            res = self.resources.get(name)
            if res and res.kind in ("storage", "workgroup") and res.ty[0] == "array" and res.field is None:
                return res, f"「{name}」"
        if isinstance(base, Tree) and base.data == "member":
            inner, field_name = base.children
            if isinstance(inner, Tree) and inner.data == "name" and self.lookup(str(inner.children[0])) is None:
                res = self.resources.get(str(inner.children[0]))
                if res and res.field == str(field_name):
                    return res, f"「{inner.children[0]}」"
                field = self.header_field(res, str(field_name))
                if field is not None and field[0] == "array":
                    return Resource("storage", field), f"（「{inner.children[0]}」中「{field_name}」）"
        return None, None

    def header_field(self, res: Resource | None, field_name: str) -> tuple | None:
        """The type of a field of a buffer with header fields (None for any other resource)."""
        if res is None or not res.header:
            return None
        return dict(self.structs[res.ty[1]]).get(field_name)

    def index(self, e) -> Ex:
        ty = self.peek(e)
        x = self.expr(e, U32 if is_abstract(ty) else None)
        if scalar_of(x.ty) == "i32":
            return Ex(f"「新无三二」于{wrap(x, OPERAND)}", APP, U32)
        return x

    def if_statement(self, s: Tree, rest: list, flow: Flow) -> list[str]:
        parts = [c for c in s.children if isinstance(c, Tree) and c.data != "attribute"]
        arms = [(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        otherwise = parts[-1] if len(parts) % 2 else None
        branches = [kids(body) for _, body in arms] + [kids(otherwise) if otherwise is not None else []]
        if self.choice(s):
            return self.chosen(s, self.selects[id(s)], rest, flow)
        if id(s) in self.threaded:
            return self.if_lines(arms, otherwise, flow, rest)
        if not any(jumps(b) for b in branches):
            inner = Flow(["「元」"], flow.on_break, flow.on_continue, flow.in_loop)
            return self.sequence(self.if_lines(arms, otherwise, inner, []), rest, flow)
        falling = [b for b in branches if not always_jumps(b)]
        if rest and len(falling) > 1 and not small(rest):
            raise Refusal(node_at(s), "只在部分分支里跳出（return/break/continue）且后面还有多条语句的 if"
                                      "（着色要把其后的语句写进每个不跳出的分支）")
        return self.if_lines(arms, otherwise, flow, rest)

    def choice(self, s: Tree) -> bool:
        """Whether an if or switch is written as a choice of values (none of its names a cell)."""
        return id(s) in self.selects and not set(self.selects[id(s)]) & self.cells

    def chosen(self, s: Tree, names: list[str], rest: list, flow: Flow) -> list[str]:
        """An if that only chooses values: 令「x」为若 c 则 v 否则「x」而 for each name it assigns
        (see `select_names`)."""
        conditions, branches = if_parts(s)
        lines: list[str] = []
        for name in names:
            ty = self.lookup(name).ty
            values = []
            for stmts in branches:
                t = next((t for t in stmts if member_path(t.children[0])[0] == name), None)
                if t is None:
                    values.append(f"「{name}」")
                    continue
                x, before = self.statement_value_of(lambda: self.chosen_value(t, name, ty))
                lines += before
                values.append(x.text)
            arms = [("若" if n == 0 else "否则若") + f"{wrap(self.expr(c, BOOL), TUPLE + 1)}则{v}"
                    for n, (c, v) in enumerate(zip(conditions, values))] + [f"否则{values[-1]}而"]
            one = f"令「{name}」为" + "".join(arms)
            lines += [one] if len(one) <= LINE else [f"令「{name}」为"] + arms
        return lines + self._block(rest, flow)

    def chosen_value(self, t: Tree, name: str, ty) -> Ex:
        """The whole new value of `name` after the assignment `t` (to it, or to a part of it)."""
        path = member_path(t.children[0])[1]
        if not path:
            return self.assigned_value(t, ty)
        return self.updated(Ex(f"「{name}」", ATOM, ty), path, lambda part: self.assigned_value(t, part), node_at(t))

    def assigned_value(self, t: Tree, ty) -> Ex:
        """The new value of an assignment statement (`x = v`, `x += v`, `x++`) of type `ty`."""
        at = node_at(t)
        if t.data == "incdec":
            return self.binary_text("+" if str(t.children[1]) == "++" else "-", t.children[0], None, ty, at,
                                    literal_one=True)
        if t.data == "compound_assign":
            return self.binary_text(COMPOUND[str(t.children[1])], t.children[0], t.children[2], ty, at)
        return self.expr(t.children[-1], ty)

    def if_lines(self, arms, otherwise, flow: Flow, rest: list) -> list[str]:
        out: list[str] = []
        for n, (cond, body) in enumerate(arms):
            c = self.expr(cond, BOOL)
            out += branch(("若" if n == 0 else "否则若") + f"{wrap(c, TUPLE + 1)}则", self.block(kids(body) + rest, flow))
        tail = kids(otherwise) if otherwise is not None else []
        if otherwise is not None or rest or flow.fall != ["「元」"]:
            out += branch("否则", self.block(tail + rest, flow))
        return out

    def switch_or_none(self, s: Tree) -> Tree | None:
        """The switch as an if, or None where it is refused (said when it is written)."""
        try:
            return self.switch_as_if(s)
        except Refusal:
            return None

    def switch_as_if(self, s: Tree) -> Tree:
        selector = s.children[1]
        if self.has_effects(selector):   # a selector without effects is simply read again by each test
            raise Refusal(node_at(selector), "选择子有副作用的 switch（着色的 若 链要把它写进每个条件；先用 let 绑定它）")
        arms, default = [], None
        for case in subtrees(s, "case") + subtrees(s, "default_case"):
            body = subtrees(case, "compound")[0]
            stmts = kids(body)
            if stmts and isinstance(stmts[-1], Tree) and stmts[-1].data == "break_":
                stmts = stmts[:-1]
            body = Tree("compound", stmts, body.meta)
            if case.data == "default_case":
                default = body
                continue
            selectors = kids(subtrees(case, "case_selectors")[0])
            if any(isinstance(x, Tree) and x.data == "default_selector" or isinstance(x, Token) for x in selectors):
                default = body
                continue
            cond = None
            for x in selectors:
                test = Tree("compare", [selector, Token("REL_OP", "=="), x], x.meta)
                cond = test if cond is None else Tree("logic_or", [cond, test], x.meta)
            arms += [cond, body]
        if any(has_break(kids(b)) for b in arms[1::2] + ([default] if default else [])):
            raise Refusal(node_at(s), "case 中间的 break")
        return Tree("if_stmt", arms + ([default] if default is not None else []), s.meta)

    def loop(self, s: Tree, flow: Flow, after: list | None = None) -> list[str]:
        """The loop as 令「环」为得 参数 而 … 而「环」于 初值.  With `after` (the statements after a
        loop that returns, or after one that leaves several values to them), the loop function is
        the rest of its list: a return inside it is that value and leaving the loop runs `after`
        (written at each exit)."""
        at = node_at(s)
        if after is not None and flow.in_loop:
            raise Refusal(at, "嵌套循环里的 return（着色的循环是局部函数，不能从中返回外层函数）")
        self.loop_depth += 1
        name = "「环」" if self.loop_depth == 1 else f"「环{DIGIT.get(self.loop_depth, str(self.loop_depth))}」"
        try:
            self.locals.append({})
            head: list[str] = []
            param, start = "「次」", "「元」"
            cond = update = None
            body: list = []
            continuing: list = []
            break_if = None
            if s.data == "for_":
                init_t, cond_t, update_t, body_t = [c for c in s.children if isinstance(c, Tree)
                                                    and c.data in ("for_init", "for_cond", "for_update", "compound")]
                init = init_t.children[0] if init_t.children else None
                cond = cond_t.children[0] if cond_t.children else None
                update = update_t.children[0] if update_t.children else None
                body = kids(body_t)
                counter = counter_of(init, update, body)
                if counter:
                    ty = self.type_of(subtrees(init, "type")[0]) if subtrees(init, "type") else \
                        concrete(self.peek(init.children[-1]))
                    param = f"「{counter}」"
                    start = wrap(self.expr(init.children[-1], ty), OPERAND)
                    self.locals[-1][counter] = Local(ty)
                elif init is not None:
                    head = self.block_keep([init])
            elif s.data == "while_":
                cond = s.children[-2]
                body = kids(s.children[-1])
            else:
                stmts = [c for c in s.children if isinstance(c, Tree) and c.data != "attribute"]
                if stmts and stmts[-1].data == "continuing":
                    items = list(stmts[-1].children[-1].children)
                    ifs = [k for k, c in enumerate(items) if isinstance(c, Token) and c.type == "IF"]
                    if ifs:
                        break_if, items = items[-1], items[:ifs[0] - 1]
                    continuing = [c for c in items if isinstance(c, Tree)]
                    stmts = stmts[:-1]
                body = stmts
            shape = self.loop_states.get(id(s), LoopState([], None))
            state, result = shape.state, shape.result
            for v in state:
                self.locals[-1][v] = Local(self.lookup(v).ty)
            counted = param != "「次」"
            params = ([param] if counted else []) + [f"「{v}」" for v in state] or ["「次」"]
            starts = ([start] if counted else []) + [self.initial.pop(v, f"「{v}」") for v in state] or ["「元」"]
            firsts = [f"（{self.update_expr(update, param)}）"] if update is not None and counted else \
                [start] if counted else []
            next_call = [f"{name}于" + "于".join(firsts + [f"「{v}」" for v in state] or ["「元」"])]
            leave = ["与".join(f"「{v}」" for v in shape.several)] if shape.several else \
                [f"「{result}」"] if result else ["「元」"]
            if after is not None:
                if param != "「次」" and any(isinstance(x, Tree) and x.data == "name" and f"「{x.children[0]}」" == param
                                           for a in after for x in _walk(a)):
                    raise Refusal(at, "循环之后用到与计数器同名的变量")
                leave = self._block(after, flow) if exits(s, cond is not None) else ["「元」"]
                if len(leave) > 1 and exits(s, cond is not None) > 1:
                    raise Refusal(at, "有 return 的循环有几处出口且之后不止一条语句（着色要在每个出口写一遍）")
            again = next_call
            if break_if is not None:
                again = branch(f"若{wrap(self.expr(break_if, BOOL), TUPLE + 1)}则", leave) + [f"否则{next_call[0]}"]
            if update is not None and param == "「次」":
                again = self.block([update], Flow(next_call))
            if continuing:
                again = self.block(continuing, Flow(again))
            inner = Flow(again, leave, again, True, returns=after is not None)
            lines = [f"令{name}为得" + "又得".join(params) + "而"]
            if cond is not None:
                lines += branch(f"若{wrap(self.expr(cond, BOOL), TUPLE + 1)}则", self.block(body, inner))
                lines += branch("否则", leave)
            else:
                lines += self.block(body, inner)
            lines += ["而", f"{name}于" + "于".join(starts)]
            return head + lines
        finally:
            self.locals.pop()
            self.loop_depth -= 1

    def update_expr(self, update: Tree, param: str) -> str:
        if update.data == "incdec":
            op = "+" if str(update.children[1]) == "++" else "-"
            return self.binary_text(op, update.children[0], None, self.lookup(param[1:-1]).ty, node_at(update),
                                    literal_one=True).text
        if update.data == "compound_assign":
            op = COMPOUND[str(update.children[1])]
            return self.binary_text(op, update.children[0], update.children[2], self.lookup(param[1:-1]).ty,
                                    node_at(update)).text
        return self.expr(update.children[-1], self.lookup(param[1:-1]).ty).text

    # ---- expressions ----------------------------------------------------------------------

    def peek(self, e) -> tuple | None:
        """An expression's type without writing it (abstract for literals)."""
        saved = (self.abstract_uses, self.hoisted, self.peeking)
        self.abstract_uses = {k: set(v) for k, v in self.abstract_uses.items()}
        self.hoisted, self.peeking = None, True
        try:
            return self.expr(e, None, peek=True).ty
        finally:
            self.abstract_uses, self.hoisted, self.peeking = saved

    def statement_value(self, e, want) -> tuple[Ex, list[str]]:
        """An expression of a statement (a binding's value, an assignment's, a call's, a return's),
        with the 令 lines of the vectors it had to name first (see `named_part`)."""
        return self.statement_value_of(lambda: self.expr(e, want))

    def statement_value_of(self, make) -> tuple[Ex, list[str]]:
        self.hoisted = []
        try:
            x = make()
            return x, self.hoisted
        finally:
            self.hoisted = None

    def named_part(self, e, x: Ex, at) -> Ex:
        """A vector argument that must be written per component, named once by a 令 before the
        statement: 「分量」, 「分量二」…  Allowed only where nothing in it has an effect (so running
        it first changes nothing) and in a statement (not a condition)."""
        if self.peeking:
            return x
        if self.hoisted is None or self.has_effects(e):
            raise Refusal(at, "向量构造里不是名字的向量实参，且在条件里或有副作用（着色要逐个分量写出，会重复计算）")
        n = len(self.hoisted) + 1
        name = "分量" + ("" if n == 1 else DIGIT.get(n, str(n)))
        self.hoisted.append(f"令「{name}」为{x.text}而")
        return Ex(f"「{name}」", ATOM, x.ty)

    def has_effects(self, e, seen: frozenset = frozenset()) -> bool:
        """Whether evaluating `e` writes memory, waits at a barrier or talks to other invocations
        (through the functions it calls)."""
        for x in _walk(e):
            if not (isinstance(x, Tree) and x.data in ("call", "call_stmt", "assign", "compound_assign", "incdec")):
                continue
            if x.data != "call":
                target = member_path(x.children[0])[0] if x.data != "call_stmt" else None
                if x.data != "call_stmt" and (target is None or target in self.resources):
                    return True
                continue
            name = str(x.children[0])
            if name in B.ATOMICS or name in B.UNIT_CALLS or name.startswith(("subgroup", "textureStore")):
                return True
            if name in self.bodies and name not in seen and self.has_effects(self.bodies[name], seen | {name}):
                return True
        return False

    def wants_uniformity(self, e, seen: frozenset = frozenset()) -> bool:
        """Whether evaluating `e` reaches a barrier, a derivative or an operation among the
        invocations of a subgroup (through the functions it calls): such statements stay
        where they are, out of the branches of an if."""
        for x in _walk(e):
            if not (isinstance(x, Tree) and x.data == "call"):
                continue
            name = str(x.children[0])
            if name in B.UNIT_CALLS or name == "workgroupUniformLoad" or \
                    name.startswith(("subgroup", "quad", "dpd", "fwidth")) or name in DERIVATIVE_SAMPLING:
                return True
            if name in self.bodies and name not in seen and self.wants_uniformity(self.bodies[name], seen | {name}):
                return True
        return False

    def expr(self, e, want, peek: bool = False) -> Ex:
        kind = e.data if isinstance(e, Tree) else "token"
        method = getattr(self, "e_" + kind, None)
        if method is None:
            raise Refusal(node_at(e), f"表达式 {kind}")
        return method(e, want)

    def e_paren(self, e, want) -> Ex:
        return self.expr(e.children[0], want)

    def e_literal(self, e, want) -> Ex:
        tok = e.children[0]
        text = str(tok)
        if tok.type == "TRUE":
            return Ex("「阳」", ATOM, BOOL)
        if tok.type == "FALSE":
            return Ex("「阴」", ATOM, BOOL)
        if tok.type == "INT":
            suffix = text[-1] if text[-1] in "iu" else ""
            ty = {"i": I32, "u": U32}.get(suffix, AINT)
            digits = text.rstrip("iu")
            if ty == AINT and want is not None and scalar_of(want) not in (None, "bool", "int", "float"):
                ty = ("scalar", scalar_of(want))
            if ty == AINT and (want is None or is_abstract(want)):
                return Ex(digits, ATOM, AFLOAT if scalar_of(want) == "float" else AINT)
            ty = concrete(ty)
            value = int(digits, 0)
            written = f"「{digits}」" if digits.lower().startswith("0x") else number(value)
            if ty[1] in ("f32", "f16"):
                written = number(value)
            return Ex(f"「{CONSTRUCTOR[ty[1]]}」于{written}", APP, ty)
        hexadecimal = text.lower().startswith("0x")
        suffix = text[-1] if text[-1] == "h" or text[-1] == "f" and (not hexadecimal or "p" in text.lower()) else ""
        ty = {"f": F32, "h": ("scalar", "f16")}.get(suffix, AFLOAT)
        if ty == AFLOAT and want is not None and scalar_of(want) in ("f32", "f16"):
            ty = ("scalar", scalar_of(want))
        if ty == AFLOAT and (want is None or is_abstract(want)):
            return Ex(text, ATOM, AFLOAT)
        return Ex(f"「{CONSTRUCTOR[concrete(ty)[1]]}」于{float_text(text[:-1] if suffix else text, node_at(e))}",
                  APP, concrete(ty))

    def e_name(self, e, want) -> Ex:
        name = str(e.children[0])
        at = node_at(e)
        local = self.lookup(name)
        if local is not None:
            if local.refused:
                raise Skipped()
            if local.cell:
                return Ex(f"「读格」于「{name}」", APP, local.ty)
            return Ex(f"「{name}」", ATOM, local.ty)
        if name in self.consts:
            ty = self.consts[name]
            if name in self.abstract_uses and is_abstract(ty):
                use = with_scalar(ty, scalar_of(want)) if want is not None and scalar_of(want) else None
                self.abstract_uses[name].add(use)
                ty = use if use else ty if self.peeking else concrete(ty)
            return Ex(f"「{name}」", ATOM, ty)
        if name in self.resources:
            res = self.resources[name]
            if res.kind == "uniform":
                return Ex(f"「读均匀」于「{name}」", APP, res.ty)
            if res.header:
                raise Refusal(at, f"整个读出带运行期数组的缓冲「{name}」（着色按字段读：「{name}」中「字段」）")
            if res.kind == "storage" and res.ty[0] != "array":
                return Ex(f"「读存储」于「{name}」", APP, res.ty)
            if res.kind == "handle":
                return Ex(f"「{name}」", ATOM, res.ty)
            if res.single and res.kind == "workgroup" and res.ty[1][0] != "atomic":
                return Ex(f"「读共享数组」于「{name}」于（「新无三二」于「零」）", APP, res.ty[1])
            raise Refusal(at, f"整个读出数组「{name}」（着色按元素读）")
        if name in ("true", "false"):
            return Ex("「阳」" if name == "true" else "「阴」", ATOM, BOOL)
        raise Refusal(at, self.refused.get(name, f"名字「{name}」"))

    def e_member(self, e, want) -> Ex:
        base, field_tok = e.children
        field_name = str(field_tok)
        if isinstance(base, Tree) and base.data == "name" and self.lookup(str(base.children[0])) is None:
            field = self.header_field(self.resources.get(str(base.children[0])), field_name)
            if field is not None and not (field[0] == "array" and field[2] is None):
                return Ex(f"「读存储」于（「{base.children[0]}」中「{field_name}」）", APP, field)
        inner = self.expr(base, None)
        ty = inner.ty
        if ty is not None and ty[0] == "struct":
            fields = dict(self.structs[ty[1]])
            if field_name not in fields:
                raise Refusal(node_at(e), f"结构「{ty[1]}」没有的字段「{field_name}」")
            return Ex(f"{wrap(inner, PROJ)}中「{field_name}」", PROJ, fields[field_name])
        if ty is not None and ty[0] == "record" and field_name in B.RECORDS[ty[1]]:
            word, rule = B.RECORDS[ty[1]][field_name]
            result = {"same": ty[2], "i32": with_scalar(ty[2], "i32"), "bool": BOOL}[rule]
            return Ex(f"{wrap(inner, PROJ)}中「{word}」", PROJ, result)
        if ty is not None and ty[0] == "vec" and set(field_name) <= SWIZZLE:
            result = ("scalar", ty[2]) if len(field_name) == 1 else ("vec", len(field_name), ty[2])
            return Ex(f"{wrap(inner, PROJ)}中「{field_name}」", PROJ, result)
        raise Refusal(node_at(e), f"取「{field_name}」")

    def e_index(self, e, want) -> Ex:
        base, index = e.children
        resource, handle = self.array_resource(base)
        if resource is not None:
            i = self.index(index)
            word = "读共享数组" if resource.kind == "workgroup" else "读数组"
            if resource.ty[1][0] == "atomic":
                raise Refusal(node_at(e), "不经 atomicLoad 读原子")
            return Ex(f"「{word}」于{handle}于{wrap(i, OPERAND)}", APP, resource.ty[1])
        inner = self.expr(base, None)
        ty = inner.ty
        if ty is None or ty[0] not in ("vec", "array", "mat"):
            raise Refusal(node_at(e), "下标取值")
        literal = isinstance(index, Tree) and index.data == "literal" and index.children[0].type == "INT"
        if ty[0] == "vec" and literal and int(str(index.children[0]).rstrip("iu"), 0) < ty[1]:
            k = int(str(index.children[0]).rstrip("iu"), 0)
            return Ex(f"{wrap(inner, PROJ)}中「{COMPONENTS[k]}」", PROJ, ("scalar", ty[2]))
        element = ("scalar", ty[2]) if ty[0] == "vec" else ("vec", ty[2], ty[3]) if ty[0] == "mat" else ty[1]
        i = self.index(index)
        return Ex(f"「取元素」于{wrap(inner, OPERAND)}于{wrap(i, OPERAND)}", APP, element)

    def e_neg(self, e, want) -> Ex:
        x = self.expr(e.children[-1], want)
        if scalar_of(x.ty) == "u32":
            raise Refusal(node_at(e), "无符号数取负")
        if x.ty and is_abstract(x.ty):
            return Ex(f"-{x.text}", ATOM, x.ty)
        return Ex(f"负{wrap(x, UNARY)}", UNARY, x.ty)

    def e_not_(self, e, want) -> Ex:
        x = self.expr(e.children[-1], BOOL)
        return Ex(f"非{wrap(x, UNARY)}", UNARY, x.ty)

    def e_complement(self, e, want) -> Ex:
        x = self.expr(e.children[-1], want)
        return Ex(f"「按位非」于{wrap(x, OPERAND)}", APP, x.ty)

    def e_address(self, e, want) -> Ex:
        raise Refusal(node_at(e), "取地址 &（着色没有指针）")

    def e_deref(self, e, want) -> Ex:
        raise Refusal(node_at(e), "解引用 *（着色没有指针）")

    def e_arith(self, e, want) -> Ex:
        left, op, right = e.children
        return self.binary_text(str(op), left, right, want, node_at(e))

    e_compare = e_shift = e_arith

    def e_logic_or(self, e, want) -> Ex:
        return self.binary_text("||", e.children[0], e.children[1], BOOL, node_at(e))

    def e_logic_and(self, e, want) -> Ex:
        return self.binary_text("&&", e.children[0], e.children[1], BOOL, node_at(e))

    def e_bit_or(self, e, want) -> Ex:
        return self.binary_text("|", e.children[0], e.children[-1], want, node_at(e))

    def e_bit_xor(self, e, want) -> Ex:
        return self.binary_text("^", e.children[0], e.children[-1], want, node_at(e))

    def e_bit_and(self, e, want) -> Ex:
        return self.binary_text("&", e.children[0], e.children[-1], want, node_at(e))

    def binary_text(self, op: str, left, right, want, at, literal_one: bool = False) -> Ex:
        word, level = BINARY[op]
        lt = self.peek(left)
        rt = self.peek(right) if right is not None else None
        if op in ("<<", ">>"):
            lw = None if not is_abstract(lt) else want if scalar_of(want) in ("i32", "u32") else \
                None if self.peeking else concrete(lt)     # an abstract left operand is an integer: i32 unless wanted
            x = self.expr(left, lw)
            shift_ty = with_scalar(x.ty, "u32") if x.ty else U32
            y = self.expr(right, shift_ty) if right is not None else self.one(shift_ty)
        else:
            operand_want = None if op in COMPARISONS or op in ("&&", "||") else want
            if scalar_of(lt) == "float" and scalar_of(rt) in ("float", "int") and \
                    any(isinstance(x, Tree) and x.data in BINARY_RULES for x in (strip(left), strip(right))):
                raise Refusal(at, "多步的抽象浮点常量算式（WGSL 以更高精度算它，逐步的 f32 运算可能差一位）")
            lw, rw = operand_types(lt, rt, operand_want, self.peeking)
            if literal_one:
                x = self.expr(left, None)
                y = self.one(("scalar", scalar_of(x.ty)))
            else:
                x = self.expr(left, lw)
                y = self.expr(right, rw)
        if "mat" in (x.ty[0] if x.ty else None, y.ty[0] if y.ty else None):
            return self.matrix_arithmetic(op, x, y, at)
        if op in ("&", "|") and scalar_of(x.ty) == "bool":
            return self.both_evaluated(op, x, y, left, right, at)
        if op == "^" and scalar_of(x.ty) == "bool":
            raise Refusal(at, "爻的 ^")
        if op in ("<<", ">>", "&", "|", "^", "==", "!=", "<", ">", "<=", ">=", "&&", "||") and \
                x.ty and y.ty and x.ty[0] != y.ty[0]:
            raise Refusal(at, f"标量与向量混用的 {op}（着色只在 加减乘除余 里混用）")
        ty = x.ty if x.ty and x.ty[0] == "vec" else y.ty if y.ty and y.ty[0] == "vec" else x.ty
        if op in COMPARISONS:
            ty = with_scalar(ty, "bool")
        return Ex(operation(x, word, level, y, op in COMPARISONS), level, ty)

    def matrix_arithmetic(self, op: str, x: Ex, y: Ex, at) -> Ex:
        """WGSL's matrix operators: m × v and m × m are 「矩阵乘」; m × s, s × m, m ± m are
        「乘」「加」「减」 element by element (docs/扩展.md, the matrix section)."""
        word, level = BINARY[op]
        kinds = (x.ty[0], y.ty[0])
        if op == "*" and kinds in (("mat", "vec"), ("mat", "mat")):
            ty = ("vec", x.ty[2], x.ty[3]) if kinds[1] == "vec" else ("mat", y.ty[1], x.ty[2], x.ty[3])
            return Ex(f"「矩阵乘」于{wrap(x, OPERAND)}于{wrap(y, OPERAND)}", APP, ty)
        if op == "*" and kinds == ("vec", "mat"):
            raise Refusal(at, "向量乘矩阵（着色只有 矩阵乘 向量）")
        if not (op == "*" and "scalar" in kinds or op in "+-" and kinds == ("mat", "mat")):
            raise Refusal(at, f"矩阵的 {op}（WGSL 也没有）")
        ty = x.ty if kinds[0] == "mat" else y.ty
        return Ex(operation(x, word, level, y), level, ty)

    def both_evaluated(self, op: str, x: Ex, y: Ex, left, right, at) -> Ex:
        """WGSL's `a & b` and `a | b` on 爻 evaluate both sides (且、或 short-circuit): written as
        「选择」, which evaluates every argument, when neither side has an effect (a target may
        evaluate arguments in any order)."""
        if self.has_effects(left) or self.has_effects(right):
            raise Refusal(at, f"两边有副作用的爻的 {op}（着色的 且、或 短路，WGSL 的 {op} 两边都算）")
        if x.ty != y.ty:
            raise Refusal(at, f"类型不同的爻的 {op}")
        fixed = "「阴」" if op == "&" else "「阳」"
        if x.ty[0] == "vec":     # 「选择」 chooses per component
            fixed = "（" + "与".join([fixed] * x.ty[1]) + "）"
        # x & y is 「选择」于 阴 于 x 于 y (y ? x : false), x | y is 「选择」于 x 于 阳 于 y: x written first, as in WGSL
        args = [fixed, wrap(x, OPERAND), wrap(y, OPERAND)] if op == "&" else [wrap(x, OPERAND), fixed, wrap(y, OPERAND)]
        return Ex("「选择」于" + "于".join(args), APP, x.ty)

    def one(self, ty) -> Ex:
        s = scalar_of(ty)
        return Ex(f"「{CONSTRUCTOR[s]}」于「一」", APP, ty)

    def e_call(self, e, want, statement: bool = False) -> Ex:
        return self.call(e, want, statement)

    def call(self, e: Tree, want, statement: bool = False) -> Ex:
        name = str(e.children[0])
        at = node_at(e)
        template = subtrees(e, "template")
        targs = [c for c in template[0].children if isinstance(c, Tree)] if template else []
        args = kids(subtrees(e, "args")[0]) if subtrees(e, "args") else []
        if name in self.functions:
            params, ret = self.functions[name]
            texts = [wrap(self.expr(self.expecting(a), t), OPERAND) for a, t in zip(args, params)] or ["「元」"]
            return Ex(f"「{name}」于" + "于".join(texts), APP, ret)
        if name in self.structs:
            fields = self.structs[name]
            parts = [f"「{f}」者{self.expr(a, t).text}也" for (f, t), a in zip(fields, args)]
            return Ex("「组值」【" + "，".join(parts) + "】", ATOM, ("struct", name))
        if name in ("f32", "f16", "i32", "u32"):
            return self.conversion(("scalar", name), args, at)
        if name == "bool":
            raise Refusal(at, "bool(…) 转换")
        if name.startswith("vec") or name in self.aliases:
            ty = self.named_type(name, targs, at) if (targs or len(name) == 5 or name in self.aliases) else None
            return self.vector(name, ty, args, want, at)
        if name.startswith("mat"):
            ty = self.named_type(name, targs, at) if (targs or len(name) == 7) else None
            return self.matrix(e, name, ty, args, want, at)
        if name == "array":
            return self.array_literal(e, targs, args, want, at)
        if name == "bitcast":
            target = self.type_of(Tree("type", [targs[0].children[0]] + targs[0].children[1:], targs[0].meta)) \
                if targs and targs[0].data == "name" else None
            if target is None:
                raise Refusal(at, "bitcast")
            x = self.expr(args[0], None)
            return Ex(f"「位转换」以{spell(target, at)}于{wrap(x, OPERAND)}", APP, target)
        if name in B.UNIT_CALLS:
            return Ex(f"「{B.UNIT_CALLS[name]}」于「元」", APP, BOOL if name == "subgroupElect" else None)
        if name == "arrayLength":
            inner = args[0].children[-1] if args and args[0].data == "address" else None
            res, handle = self.array_resource_of_name(inner)
            if res is None:
                raise Refusal(at, "arrayLength 的实参")
            return Ex(f"「数组长度」于{handle}", APP, U32)
        if name in B.ATOMICS:
            return self.atomic(name, args, at)
        if name.startswith("texture"):
            return self.texture(name, args, at)
        if name in self.refused:
            raise Refusal(at, self.refused[name])
        if name in B.REFUSED:
            raise Refusal(at, f"{name}（{B.REFUSED[name]}）")
        if name not in B.CALLS:
            raise Refusal(at, f"函数「{name}」")
        return self.builtin(name, args, at)

    def array_resource_of_name(self, e):
        if e is None:
            return None, None
        if isinstance(e, Tree) and e.data == "name":
            res = self.resources.get(str(e.children[0]))
            if res and res.ty[0] == "array" and res.ty[2] is None and res.field is None:
                return res, f"「{e.children[0]}」"
            return None, None
        return self.array_resource(e)

    def conversion(self, ty, args, at) -> Ex:
        if not args:
            return self.zero(ty, at)
        if len(args) != 1:
            raise Refusal(at, "多个实参的标量构造")
        inner = self.peek(args[0])
        if is_abstract(inner):
            x = self.expr(args[0], ty)
            if x.ty == ty:
                return x
        x = self.expr(args[0], None)
        if x.ty and x.ty[0] != "scalar":
            raise Refusal(at, "向量转标量")
        return Ex(f"「{CONSTRUCTOR[ty[1]]}」于{wrap(x, OPERAND)}", APP, ty)

    def vector(self, name, ty, args, want, at) -> Ex:
        n = ty[1] if ty else int(name[3])
        if ty is None:
            types = [self.peek(a) for a in args]
            concrete_args = [t for t in types if t and not is_abstract(t)]
            s = scalar_of(concrete_args[0]) if concrete_args else \
                scalar_of(want) if want is not None and not is_abstract(want) else None
            if s is None:   # all abstract: WGSL keeps the vector abstract until its use says
                s = "float" if any(scalar_of(t) == "float" for t in types) or not args else "int"
                if self.peeking:
                    return Ex("", ATOM, ("vec", n, s))
                s = concrete(("scalar", s))[1]
            ty = ("vec", n, s)
        s = ty[2]
        if not args:
            return self.zero(ty, at)
        if len(args) == 1:
            inner = self.peek(args[0])
            if inner and inner[0] == "vec":
                x = self.expr(args[0], ty)
                if x.ty == ty:
                    return x
                return Ex(f"「转换」以{spell(ty, at)}于{wrap(x, OPERAND)}", APP, ty)
            x = self.scalar_as(self.expr(args[0], ("scalar", s)), s, at)
            if not simple(args[0]):
                x = self.named_part(args[0], x, at)
            return Ex("与".join([wrap(x, ITEM)] * n), TUPLE, ty)
        parts: list[str] = []
        for a in args:
            t = self.peek(a)
            if t and t[0] == "vec":
                x = self.expr(a, with_scalar(t, s))
                if not simple(a):
                    x = self.named_part(a, x, node_at(a))
                if scalar_of(x.ty) != s:
                    raise Refusal(node_at(a), "向量构造里分量类型不同的向量")
                parts += [f"{wrap(x, PROJ)}中「{COMPONENTS[k]}」" for k in range(t[1])]
            else:
                x = self.scalar_as(self.expr(a, ("scalar", s)), s, node_at(a))
                parts.append(wrap(x, ITEM))
        if len(parts) != n:
            raise Refusal(at, "分量个数不对的向量构造")
        return Ex("与".join(parts), TUPLE, ty)

    def expecting(self, e):
        """`e`, noted as written where 着色 knows the type it expects (an argument, a return value, a
        constant's value): an array or matrix literal there is a bare tuple."""
        self.expected.add(id(strip(e)))
        return e

    def typed_tuple(self, e, parts: list[Ex], ty, at) -> Ex:
        """A tuple of columns or elements as 着色 writes an array or matrix literal: each item that
        is itself a tuple in parentheses, the last one ascribed (a parenthesised tuple there would
        be flattened into this one); the whole ascribed unless 着色 already expects its type."""
        if len(parts) < 2:
            raise Refusal(at, "一个元素的数组字面量（着色的元组至少两项）")
        texts = [wrap(x, ITEM) for x in parts[:-1]]
        last = parts[-1]
        texts.append(f"（{last.text}也{spell(last.ty, at)}）" if last.prec <= TUPLE else wrap(last, ITEM))
        text = "与".join(texts)
        if id(e) in self.expected:
            return Ex(text, TUPLE, ty)
        return Ex(f"（{text}也{spell(ty, at)}）", ATOM, ty)

    def array_literal(self, e, targs, args, want, at) -> Ex:
        """`array<T, N>(…)` and `array(…)`: a tuple of the elements where a 「定长数组」 is expected."""
        if targs:
            element = self.type_arg(targs[0])
        else:
            types = [self.peek(a) for a in args]
            known = [t for t in types if t is not None and not is_abstract(t)]
            element = known[0] if known else want[1] if want is not None and want[0] == "array" else \
                concrete(types[0]) if types and types[0] is not None else None
            if element is None:
                raise Refusal(at, "类型不明的数组字面量")
        element = concrete(element) if element[0] in ("scalar", "vec") else element
        ty = ("array", element, len(args))
        if not args:
            return self.zero(ty, at)
        parts = [self.expr(a, element) for a in args]
        return self.typed_tuple(e, parts, ty, at)

    def matrix(self, e, name, ty, args, want, at) -> Ex:
        """`matCxR(…)`: the columns' tuple; from C×R scalars each column is the tuple of its R."""
        if ty is None:
            c, r = int(name[3]), int(name[5])
            known = [scalar_of(t) for t in (self.peek(a) for a in args) if t is not None and not is_abstract(t)]
            ty = ("mat", c, r, known[0] if known else "f32")
        c, r, s = ty[1], ty[2], ty[3]
        column = ("vec", r, s)
        if not args:
            return self.zero(ty, at)
        if len(args) == 1:
            x = self.expr(args[0], ty)
            if x.ty != ty:
                raise Refusal(at, "矩阵的类型转换")
            return x
        if len(args) == c:
            parts = [self.expr(a, column) for a in args]
        elif len(args) == c * r:
            parts = []
            for k in range(c):
                items = [self.scalar_as(self.expr(a, ("scalar", s)), s, node_at(a)) for a in args[k * r:(k + 1) * r]]
                parts.append(Ex("与".join(wrap(x, ITEM) for x in items), TUPLE, column))
        else:
            raise Refusal(at, "列数或元素个数不对的矩阵构造")
        return self.typed_tuple(e, parts, ty, at)

    def scalar_as(self, x: Ex, s: str, at) -> Ex:
        if scalar_of(x.ty) == s:
            return x
        if s == "bool":
            raise Refusal(at, "转成爻")
        return Ex(f"「{CONSTRUCTOR[s]}」于{wrap(x, OPERAND)}", APP, ("scalar", s))

    def builtin(self, name, args, at) -> Ex:
        types = [self.peek(a) for a in args]
        fixed = B.FIXED_ARGUMENTS.get(name, {})
        known = [t for i, t in enumerate(types) if t and not is_abstract(t) and i not in fixed]
        base = scalar_of(known[0]) if known else None
        texts, out_types = [], []
        for i, (a, t) in enumerate(zip(args, types)):
            if i in fixed:
                w = with_scalar(t, fixed[i]) if t and t[0] in ("scalar", "vec") else ("scalar", fixed[i])
            elif base:
                w = with_scalar(t, base) if t and t[0] in ("scalar", "vec") else None
            else:
                w = concrete(t) if t else None
            x = self.expr(a, w)
            texts.append(wrap(x, OPERAND))
            out_types.append(x.ty)
        rule = B.RESULT.get(name, B.SAME)
        first = out_types[0] if out_types else None
        result = {"same": first, "second": out_types[1] if len(out_types) > 1 else first,
                  "modf": ("record", name, first), "frexp": ("record", name, first),
                  "scalar": ("scalar", scalar_of(first)) if first else None,
                  "bool": BOOL, "u32": U32, "i32": I32,
                  "vec2f": ("vec", 2, "f32"), "vec4f": ("vec", 4, "f32"), "vec4i": ("vec", 4, "i32"),
                  "vec4u": ("vec", 4, "u32")}[rule]
        return Ex(f"「{B.CALLS[name]}」于" + "于".join(texts), APP, result)

    def atomic(self, name, args, at) -> Ex:
        target = strip(args[0].children[-1]) if args and args[0].data == "address" else None
        single = self.resources.get(str(target.children[0])) if target is not None and target.data == "name" else None
        if single is not None and single.single and single.ty[1][0] == "atomic":
            res, handle, index = single, f"「{target.children[0]}」", Ex("「新无三二」于「零」", APP, U32)
        else:
            if target is not None and target.data == "member":
                raise Refusal(at, "结构字段里的单个原子（着色的原子按下标：写成一个元素的原子定长数组）")
            if target is None or target.data != "index":
                raise Refusal(at, f"{name} 的实参不是 &数组[下标] 或单个原子")
            res, handle = self.array_resource(target.children[0])
            if res is None or res.ty[1][0] != "atomic":
                raise Refusal(at, f"{name} 的数组")
            index = self.index(target.children[1])
        element = ("scalar", res.ty[1][1])
        parts = [handle, wrap(index, OPERAND)]
        parts += [wrap(self.expr(a, element), OPERAND) for a in args[1:]]
        result = None if name == "atomicStore" else ("record", name, element) if name in B.RECORDS else element
        return Ex(f"「{B.ATOMICS[name]}」于" + "于".join(parts), APP, result)

    def texture(self, name, args, at) -> Ex:
        """A texture builtin: the 着色 name chosen by the texture's kind and the number of arguments
        (docs/扩展.md〈纹理的其余内建〉); textureGather's component comes before the texture."""
        component = []
        if name == "textureGather" and args and not self.is_texture(args[0]):
            component, args = [wrap(self.expr(args[0], I32 if is_abstract(self.peek(args[0])) else None), OPERAND)], args[1:]
        if not args:
            raise Refusal(at, name)
        tex = self.expr(args[0], None)
        spelled = tex.ty[1] if tex.ty and tex.ty[0] == "named" else ""
        chosen = texture_builtin(name, spelled, len(args))
        if chosen is None:
            raise Refusal(at, f"{name} 的这种写法（{len(args)} 个实参）")
        word, result = chosen
        floats = {3 + ("数组" in spelled)} if name in FLOAT_AFTER_COORDINATES else set()
        texts = component + [wrap(tex, OPERAND)]
        for k, a in enumerate(args[1:], 1):
            want = (F32 if k in floats else I32) if is_abstract(self.peek(a)) else None
            texts.append(wrap(self.expr(a, want), OPERAND))
        return Ex(f"「{word}」于" + "于".join(texts), APP, result(spelled))

    def is_texture(self, e) -> bool:
        ty = self.peek(e)
        return ty is not None and ty[0] == "named" and "纹理" in ty[1]


def comments_before_statements(body: Tree, comments: list) -> dict:
    """Each statement's comments: those between the statement before it in the same list (or the
    list's opening brace) and it.  Comments after a nested list's last statement are not kept
    (those of the function body are, see `comments_at_end`)."""
    inside = [c for c in comments if body.meta.start_pos < c.start < body.meta.end_pos]
    out: dict = {}
    if not inside:
        return out
    for node in body.iter_subtrees():
        statements = [c for c in node.children if isinstance(c, Tree) and not c.meta.empty]
        previous = node.meta.start_pos if not node.meta.empty else 0
        for stmt in statements:
            mine = [c for c in inside if previous <= c.start < stmt.meta.start_pos]
            if mine:
                out[id(stmt)] = mine
            previous = stmt.meta.end_pos
    return out


def comments_at_end(body: Tree, comments: list) -> list:
    """The comments after a function body's last statement (kept before the 也 that ends it)."""
    statements = [c for c in body.children if isinstance(c, Tree) and not c.meta.empty]
    after = statements[-1].meta.end_pos if statements else body.meta.start_pos
    return [c for c in comments if after <= c.start < body.meta.end_pos and c.text.strip()]


def comment_line(c) -> str:
    """A WGSL comment inside a function as a 着色 comment before the statement it precedes."""
    text = c.text.strip().replace("「", "『").replace("」", "』")
    return f"「：{text}：」"


#: characters of a 令 that chooses a value beyond which each choice is on its own line
LINE = 60

#: a line that is only the call of a loop function (the next iteration)
LOOP_CALL = re.compile(r"^「环[二三四五六七八九十]*」于[^；]*$")


def passed(name: str, value: Ex, after: list[str]) -> list[str] | None:
    """`令「n」为 v 而「环」于「n」于 …` as「环」于 v 于 …: the new value passed straight to the
    next iteration, where the call is all that follows and reads the name once, as an argument
    (`v` has no effect, so evaluating it among the arguments changes nothing)."""
    token = f"「{name}」"
    if len(after) != 1 or not LOOP_CALL.match(after[0]) or after[0].count(token) != 1:
        return None
    line = after[0]
    k = line.index(token)
    end = k + len(token)
    if line[k - 1] != "于" or not (end == len(line) or line.startswith("于", end)):
        return None
    return [line[:k] + wrap(value, OPERAND) + line[end:]]


def bound(name: str, text: str, after: list[str]) -> list[str]:
    """`令「x」为 v 而 …`; when what follows is just「x」 (a value set as the loop is left), v itself."""
    if after == [f"「{name}」"]:
        return [text]
    return [f"令「{name}」为{text}而"] + after


def branch(head: str, lines: list[str]) -> list[str]:
    """A branch of 若: on the same line when it is one plain expression, else in （…）."""
    if len(lines) == 1 and not lines[0].endswith("；") and not lines[0].startswith(("令", "若")):
        return [head + lines[0]]
    if head == "否则" and lines[0].startswith("若"):     # a block that is one 若 (a sequenced one is in （…）)
        return ["否则" + lines[0]] + lines[1:]
    return [head + "（"] + lines + ["）"]


#: WGSL's @interpolate(type[, sampling]) → the 着色 wrapper (docs/扩展.md〈字段的位置与插值方式〉)
INTERPOLATION = {
    ("flat",): "平直", ("flat", "first"): "平直", ("flat", "either"): "平直",
    ("perspective",): "透视", ("perspective", "center"): "透视", ("perspective", "centroid"): "透视质心",
    ("perspective", "sample"): "透视逐采样", ("linear",): "线性", ("linear", "center"): "线性",
    ("linear", "centroid"): "线性质心", ("linear", "sample"): "线性逐采样",
}


def field_only(text: str) -> bool:
    """Whether a parameter's type text has 「定位」 or an interpolation, written only on struct fields."""
    return any(f"「{word}」于" in text for word in ("定位", *INTERPOLATION.values()))


def interpolated(text: str, ty, attribute: Tree) -> str:
    """A field's type in its interpolation wrapper; an integer's flat is left implicit (着色 adds it)."""
    how = tuple(str(a.children[0]) for a in attribute_args(attribute))
    if how not in INTERPOLATION:
        raise Refusal(node_at(attribute), f"@interpolate{how}")
    if how[0] == "flat" and scalar_of(ty) in ("i32", "u32"):
        return text
    return f"「{INTERPOLATION[how]}」于{text}"


def handle_binding(spelled: str) -> str:
    if "存储纹理" in spelled:
        return "存储纹理绑定"
    if "比较采样器" in spelled:
        return "比较采样器绑定"
    if "采样器" in spelled:
        return "采样器绑定"
    if "深度" in spelled:
        return "深度纹理绑定"
    return "纹理绑定"


def _texel(spelled: str):
    if "深度" in spelled:
        return F32
    if "整" in spelled:      # 「整三二」 texels, or an integer storage format (「四整八」…)
        return ("vec", 4, "i32")
    if "无" in spelled:
        return ("vec", 4, "u32")
    return ("vec", 4, "f32")


def _size(spelled: str):
    if "一维" in spelled:
        return U32
    if "三维" in spelled:
        return ("vec", 3, "u32")
    return ("vec", 2, "u32")


#: texture builtins that take implicit derivatives (uniform control flow only)
DERIVATIVE_SAMPLING = {"textureSample", "textureSampleBias", "textureSampleCompare"}

#: texture builtins whose argument after the coordinates (and layer) is a float: level, bias, depth reference
FLOAT_AFTER_COORDINATES = {"textureSampleLevel", "textureSampleBias", "textureSampleCompare", "textureSampleCompareLevel",
                           "textureGatherCompare"}


def _gathered(spelled: str):
    return ("vec", 4, "f32") if "深度" in spelled else _texel(spelled)


def texture_builtin(name: str, spelled: str, count: int):
    layered = "数组" in spelled
    storage = "存储" in spelled
    multi = "多重采样" in spelled
    depth = "深度" in spelled
    张 = "张" if layered else ""
    table = {
        ("textureSample", 3 + layered): ("采样张纹理" if layered else "采样纹理", _texel),
        ("textureSample", 4 + layered): (f"偏移采样{张}纹理", _texel),
        ("textureSampleLevel", 4 + layered): ("按层采样张纹理" if layered else "按层采样纹理", _texel),
        ("textureSampleLevel", 5 + layered): (f"偏移按层采样{张}纹理", _texel),
        ("textureSampleBias", 4 + layered): (f"偏层采样{张}纹理", _texel),
        ("textureSampleBias", 5 + layered): (f"偏移偏层采样{张}纹理", _texel),
        ("textureSampleGrad", 5 + layered): (f"按梯度采样{张}纹理", _texel),
        ("textureSampleGrad", 6 + layered): (f"偏移按梯度采样{张}纹理", _texel),
        ("textureSampleCompare", 4 + layered): ("比较采样张纹理" if layered else "比较采样", lambda s: F32),
        ("textureSampleCompare", 5 + layered): ("偏移比较采样张纹理" if layered else "偏移比较采样", lambda s: F32),
        ("textureSampleCompareLevel", 4 + layered): (f"零层比较采样{张 and '张纹理'}", lambda s: F32),
        ("textureSampleCompareLevel", 5 + layered): (f"偏移零层比较采样{张 and '张纹理'}", lambda s: F32),
        ("textureGather", 3 + layered): (f"聚集{张}{'深度' if depth else ''}纹素", _gathered),
        ("textureGather", 4 + layered): (f"偏移聚集{张}{'深度' if depth else ''}纹素", _gathered),
        ("textureGatherCompare", 4 + layered): (f"比较聚集{张}纹素", lambda s: ("vec", 4, "f32")),
        ("textureGatherCompare", 5 + layered): (f"偏移比较聚集{张}纹素", lambda s: ("vec", 4, "f32")),
        ("textureSampleBaseClampToEdge", 3): ("夹边采样纹理", _texel),
        ("textureDimensions", 1): ("纹理尺寸", _size),
        ("textureDimensions", 2): ("按层纹理尺寸", _size),
        ("textureNumLevels", 1): ("纹理层级数", lambda s: U32),
        ("textureNumLayers", 1): ("纹理张数", lambda s: U32),
        ("textureNumSamples", 1): ("纹理样本数", lambda s: U32),
        ("textureStore", 3 + layered): ("写张纹素" if layered else "写纹素", lambda s: None),
    }
    if name == "textureLoad":
        if storage:
            return ("读存储张纹素" if layered else "读存储纹素", _texel) if count == 2 + layered else None
        if multi:
            return ("读样本纹素", _texel) if count == 3 else None
        return ("读张纹素" if layered else "读纹素", _texel) if count == 3 + layered else None
    return table.get((name, count))


def operand_types(lt, rt, want, peeking: bool = False):
    """What each operand of an operation is written as: an abstract side takes the other side's
    scalar, else the wanted one, else WGSL's default (float when either is a float)."""
    def fit(t, other):
        if not is_abstract(t):
            return None
        if other is not None and not is_abstract(other) and scalar_of(other) != "bool":
            s = scalar_of(other)
        elif want is not None and not is_abstract(want) and scalar_of(want) != "bool":
            s = scalar_of(want)
        else:
            s = "float" if "float" in (scalar_of(t), scalar_of(other)) else "int"
            return with_scalar(t, s) if peeking else concrete(with_scalar(t, s))
        return with_scalar(t, s)
    return fit(lt, rt), fit(rt, lt)


def strip(e):
    while isinstance(e, Tree) and e.data == "paren":
        e = e.children[0]
    return e


def simple(e) -> bool:
    """A name or literal, maybe with member accesses: writing it twice computes nothing twice."""
    while isinstance(e, Tree) and e.data in ("member", "paren"):
        e = e.children[0]
    return isinstance(e, Tree) and e.data in ("name", "literal")


def float_text(text: str, at: int) -> str:
    """A WGSL float literal's exact decimal value as a 着色 number (no exponent there)."""
    value = hex_float(text) if text.lower().startswith("0x") else Decimal(text)
    plain = format(value, "f")
    if "." not in plain:
        plain += ".0"
    whole, frac = plain.split(".")
    frac = frac.rstrip("0")
    digits = "零一二三四五六七八九"
    if len(whole) + len(frac) > 6:
        return f"「{whole}.{frac or '0'}」"
    written = "".join(digits[int(d)] for d in whole)
    return "「" + written + ("点" + "".join(digits[int(d)] for d in frac) if frac else "") + "」"


def hex_float(text: str) -> Decimal:
    """A hexadecimal float literal's exact value (a finite decimal: its denominator is a power of two)."""
    body = text[2:]
    mantissa, _, exponent = body.lower().partition("p")
    whole, _, fraction = mantissa.partition(".")
    digits = int((whole + fraction) or "0", 16)
    power = int(exponent or "0") - 4 * len(fraction)
    with localcontext() as ctx:
        ctx.prec = 2000
        return Decimal(digits) * (Decimal(2) ** power)


# ---- whole-function analyses -------------------------------------------------------------------

def _walk(node):
    yield node
    if isinstance(node, Tree):
        for c in node.children:
            yield from _walk(c)


def member_path(target) -> tuple[str | None, list]:
    """`a.b[i].c` as ("a", ["b", <i>, "c"]) (an index step is its expression's tree); (None, [])
    for anything through a pointer."""
    path: list = []
    while isinstance(target, Tree) and target.data in ("member", "paren", "index"):
        if target.data == "member":
            path.insert(0, str(target.children[1]))
        elif target.data == "index":
            path.insert(0, target.children[1])
        target = target.children[0]
    if isinstance(target, Tree) and target.data == "name":
        return str(target.children[0]), path
    return None, []


def _assigned_name(stmt) -> str | None:
    if isinstance(stmt, Tree) and stmt.data in ("assign", "compound_assign", "incdec"):
        target = stmt.children[0]
        while isinstance(target, Tree) and target.data in ("member", "index", "paren"):
            target = target.children[0]
        if isinstance(target, Tree) and target.data == "name":
            return str(target.children[0])
    return None


LOOPS = ("for_", "while_", "loop")


def loop_lists(loop: Tree) -> list[list]:
    """The statement lists of a loop whose statements run once per iteration at its top level:
    the body, `continuing` and a for loop's update."""
    if loop.data == "loop":
        own = [c for c in loop.children if isinstance(c, Tree) and c.data not in ("attribute", "continuing")]
        cont = [kids(c.children[-1]) for c in loop.children if isinstance(c, Tree) and c.data == "continuing"]
        return [own] + cont
    if loop.data == "while_":
        return [kids(loop.children[-1])]
    parts = {c.data: c for c in loop.children if isinstance(c, Tree)}
    return [kids(parts["compound"]), kids(parts["for_update"])]


def assigned_anywhere(stmts: list) -> set[str]:
    """Names any statement of these lists assigns, however deep."""
    return {name for t in stmts for x in _walk(t) if (name := _assigned_name(x)) is not None}


def names_read(node) -> set[str]:
    """Names a statement reads: all but the plain target of an `=`."""
    skip = {id(x.children[0]) for x in _walk(node) if isinstance(x, Tree) and x.data == "assign"}
    return {str(x.children[0]) for x in _walk(node)
            if isinstance(x, Tree) and x.data == "name" and id(x) not in skip}


def assigned_just_before_break(stmts: list, name: str) -> bool:
    """Whether every assignment of `name` in these statements (and their blocks) is in a list
    that ends with `break`: the value leaves the loop and never reaches the next iteration."""
    real = [t for t in stmts if isinstance(t, Tree) and t.data != "empty"]
    ends_in_break = bool(real) and real[-1].data == "break_"
    for t in real:
        if _assigned_name(t) == name and not ends_in_break:
            return False
        if t.data in (*LOOPS, "switch") and name in assigned_anywhere([t]):    # a switch's break is its own
            return False
        if any(not assigned_just_before_break(kids(c), name) for c in blocks(t)):
            return False
    return True


def blocks(node: Tree):
    """The outermost blocks inside a statement (an if's branches, a nested block)."""
    for c in node.children:
        if isinstance(c, Tree) and c.data == "compound":
            yield c
        elif isinstance(c, Tree) and c.data not in LOOPS:
            yield from blocks(c)


def one_line(stmts: list) -> bool:
    """Statements written as one line wherever they go: a lone return of a value that names
    no vector part first (see `named_part`), which a loop with several exits writes at each."""
    return len(stmts) == 1 and isinstance(stmts[0], Tree) and stmts[0].data == "return_" and not any(
        isinstance(x, Tree) and x.data == "call" and str(x.children[0]).startswith(("vec", "mat", "array"))
        for x in _walk(stmts[0]))


def small(rest: list) -> bool:
    """Statements short and plain enough to be written again in each branch of an if before them."""
    return len(rest) <= 2 and not any(isinstance(x, Tree) and x.data in ("for_", "while_", "loop", "if_stmt", "switch")
                                      for r in rest for x in _walk(r))


def if_parts(s: Tree) -> tuple[list, list[list]]:
    """An if statement's conditions and its branches' statement lists (an absent else is empty)."""
    parts = [c for c in s.children if isinstance(c, Tree) and c.data != "attribute"]
    conditions = parts[0:len(parts) - 1:2] if len(parts) % 2 else parts[0::2]
    bodies = parts[1::2] + ([parts[-1]] if len(parts) % 2 else [])
    branches = [kids(b) for b in bodies] + ([] if len(parts) % 2 else [[]])
    return conditions, branches


def threadable(s: Tree, rest: list) -> bool:
    """Whether the statements after an if can be written into each branch that does not jump
    (how a branch's own re-bindings reach them): few of them, or only one branch falls through."""
    _, branches = if_parts(s)
    return not rest or small(rest) or sum(not always_jumps(b) for b in branches) <= 1


def select_names(s: Tree, has_effects) -> list[str] | None:
    """The variables an if assigns when it is only a choice of values: each branch plain
    assignments to distinct variables (or to a field or component of one), nothing with an effect,
    no value reading another assigned name and, where there are several, no condition reading
    one.  Written `令 x 为 若 c 则 v 否则 x 而` per name (the conditions are read again for
    each: the same value, nothing they read has changed)."""
    conditions, branches = if_parts(s)
    order: list[str] = []
    for stmts in branches:
        mine: list[str] = []
        for t in stmts:
            if not (isinstance(t, Tree) and t.data in ("assign", "compound_assign", "incdec")):
                return None
            root = member_path(t.children[0])[0]
            if root is None or root in mine:
                return None
            mine.append(root)
            order += [n for n in mine if n not in order]
    if not order:
        return None
    read = lambda e: {str(x.children[0]) for x in _walk(e) if isinstance(x, Tree) and x.data == "name"}
    for c in conditions:
        if read(c) & set(order if len(order) > 1 else ()) or has_effects(c):
            return None
    for stmts in branches:
        for t in stmts:
            target = member_path(t.children[0])[0]
            if t.data != "incdec" and (read(t.children[-1]) & (set(order) - {target}) or has_effects(t.children[-1])):
                return None
    return order


@dataclass
class Shapes:
    """What `mutated_deeper` found: which variables are cells, each loop's state, and how
    each if that assigns loop state or is a choice of values is written."""
    cells: set
    loops: dict       # id(loop) → LoopState
    selects: dict     # id(if or switch) → names chosen (see `select_names`)
    threaded: set     # id(if) whose following statements go into its branches


@dataclass
class LoopState:
    state: list            # the parameters after a for loop's counter, in order of declaration
    #                        (not those only set just before a break: the loop's value, not its state)
    result: str | None     # the one of them used after the loop: the loop's value
    tail: bool = False     # several used after: the statements after it are written at its exit
    several: list = field(default_factory=list)   # several used after, where that cannot be: a vector of them


def mutated_deeper(body: Tree, has_effects, wants_uniformity, switch_as_if, mixed: set) -> Shapes:
    """Variables assigned other than by a statement of the list that declares them: those
    become cells (the rest are re-bound with 令).  A variable declared before a loop in the
    same list and assigned in it (outside a nested loop) is the loop's state, a parameter of
    「环」: an if in the loop that assigns it takes the statements after it into its branches
    (where few enough), or is a choice of values.  Of the state, one used after the loop is
    its value; several make the loop the last thing of its list, with the statements after it
    at its one exit (only outside other loops).  What none of these reach is a cell (so does a
    variable whose if would take a barrier or a derivative into its branches)."""
    cells: set[str] = set()
    candidates: dict[int, tuple] = {}
    shapes = Shapes(cells, {}, {}, set())

    def visit(stmts: list, allowed: tuple, tail: list, in_loop: bool):
        here: list[str] = []
        for k, s in enumerate(stmts):
            if not isinstance(s, Tree):
                continue
            rest = stmts[k + 1:] + tail
            if s.data == "local_var":
                here.append(str(tokens(s, "IDENT")[0]))
            mine = allowed + tuple(v for v in here if v not in allowed)
            name = _assigned_name(s)
            if name is not None and (member_path(s.children[0])[0] is None or name not in mine):
                cells.add(name)
            if s.data in LOOPS:
                loop_state(s, stmts[k + 1:], here, allowed, in_loop)
                continue
            if s.data == "switch" and (written := switch_as_if(s)) is not None:
                chosen = select_names(written, has_effects)
                if chosen is not None and set(chosen) <= set(mine):
                    shapes.selects[id(s)] = chosen
                    continue
            if s.data == "if_stmt":
                chosen = select_names(s, has_effects)
                if chosen is not None and set(chosen) <= set(mine):
                    shapes.selects[id(s)] = chosen
                    continue
                if in_loop and assigned_anywhere(sum(if_parts(s)[1], [])) & set(mine) and threadable(s, rest) \
                        and not any(wants_uniformity(t) for t in rest):
                    shapes.threaded.add(id(s))
                    for c in if_parts(s)[0]:
                        nested(c)
                    for b in if_parts(s)[1]:
                        visit(b, mine, rest, in_loop)
                    continue
            for child in s.children:
                nested(child)

    def loop_state(s: Tree, after_stmts: list, here: list, outer: tuple, in_loop: bool):
        lists = loop_lists(s)
        changed = assigned_anywhere([t for lst in lists for t in lst])
        read = names_read(s)
        leaving = [v for v in here if v in changed and v not in read and all(assigned_just_before_break(lst, v)
                                                                            for lst in lists)]
        outer = [v for v in outer if v not in here]      # an enclosing loop's state, passed on by its next call
        state = [v for v in outer + here if v in changed and v not in leaving]
        init = next((c.children[0] for c in s.children if isinstance(c, Tree) and c.data == "for_init" and c.children), None)
        counter = None
        if s.data == "for_":
            parts = {c.data: c for c in s.children if isinstance(c, Tree)}
            update = parts["for_update"].children[0] if parts["for_update"].children else None
            counter = counter_of(init, update, kids(parts["compound"]))
            if init is not None and init.data == "local_var" and counter is None:
                state.insert(0, str(tokens(init, "IDENT")[0]))
        after = {str(x.children[0]) for t in after_stmts for x in _walk(t) if isinstance(x, Tree) and x.data == "name"}
        after |= set(outer)
        returns = any(isinstance(x, Tree) and x.data == "return_" for x in _walk(s))
        conditioned = s.data == "while_" or s.data == "for_" and bool(
            next(c for c in s.children if isinstance(c, Tree) and c.data == "for_cond").children)
        may_tail = not in_loop and (exits(s, conditioned) == 1 or one_line(after_stmts)) and \
            (counter is None or counter not in after)
        candidates[id(s)] = (state, leaving, after, returns, may_tail)
        inside = tuple(state + leaving) + ((counter,) if counter else ())
        for lst in lists:
            visit(lst, inside, [], True)
        for child in s.children:
            if isinstance(child, Tree) and child.data in ("for_init", "for_cond"):
                nested(child)
            if s.data == "while_" and child is s.children[-2]:
                nested(child)

    def nested(node):
        if not isinstance(node, Tree):
            return
        if node.data in ("compound", "compound_break"):
            visit(kids(node), (), [], False)
            return
        if node.data in ("for_init", "for_update"):
            visit(kids(node), (), [], False)
            return
        name = _assigned_name(node)
        if name is not None:
            cells.add(name)
        for child in node.children:
            nested(child)
    visit(kids(body), (), [], False)
    changed = True
    while changed:
        changed = False
        for key, chosen in shapes.selects.items():     # a choice is all re-bindings or all cells
            if set(chosen) & cells and not set(chosen) <= cells:
                cells.update(chosen)
                changed = True
        for key, (state, leaving, after, returns, may_tail) in candidates.items():
            live = [v for v in state if v not in cells]
            used = [v for v in live + leaving if v in after and v not in cells]
            tail = len(used) > 1 and not returns
            several = []
            if tail and not may_tail:
                if len(used) <= 4 and key not in mixed:
                    several, tail = used, False
                else:       # only these: the rest of the state stays parameters
                    cells.update(used)
                    changed = True
                    live, used, tail = [v for v in live if v not in used], [], False
            shapes.loops[key] = LoopState(live, used[0] if len(used) == 1 and not returns else None, tail, several)
    return shapes


def jumps(stmts: list) -> bool:
    """Whether any statement jumps out of this list (not counting loops nested in it)."""
    for s in stmts:
        if not isinstance(s, Tree):
            continue
        if s.data in ("return_", "break_", "continue_"):
            return True
        if s.data in ("if_stmt", "compound", "switch") and any(
                jumps(kids(c) if c.data == "compound" else [c]) for c in s.children
                if isinstance(c, Tree) and c.data in ("compound", "case", "default_case")):
            return True
        if s.data in ("case", "default_case") and jumps(kids(subtrees(s, "compound")[0])):
            return True
        if s.data in ("for_", "while_", "loop") and any(x.data == "return_" for x in _walk(s) if isinstance(x, Tree)):
            return True
    return False


def always_jumps(stmts: list) -> bool:
    real = [s for s in stmts if isinstance(s, Tree) and s.data != "empty"]
    if not real:
        return False
    last = real[-1]
    if last.data in ("return_", "break_", "continue_"):
        return True
    if last.data == "compound":
        return always_jumps(kids(last))
    if last.data == "if_stmt":
        parts = [c for c in last.children if isinstance(c, Tree) and c.data != "attribute"]
        if len(parts) % 2 == 0:
            return False
        return all(always_jumps(kids(b)) for b in parts[1::2] + [parts[-1]])
    return False


def has_break(stmts: list) -> bool:
    for s in stmts:
        for x in _walk(s):
            if isinstance(x, Tree) and x.data in ("for_", "while_", "loop"):
                break
            if isinstance(x, Tree) and x.data == "break_":
                return True
    return False


def exits(loop: Tree, conditioned: bool) -> int:
    """How many places leave a loop: its condition and each break of its own."""
    count = int(conditioned)

    def visit(node):
        nonlocal count
        for c in node.children:
            if isinstance(c, Tree):
                if c.data == "break_":
                    count += 1
                elif c.data not in ("for_", "while_", "loop", "switch"):
                    visit(c)
    visit(loop)
    return count


def counter_of(init, update, body) -> str | None:
    """The `for` loop's counter when the loop state is just it: declared by the init, changed only
    by the update, never assigned in the body."""
    if init is None or init.data != "local_var" or update is None:
        return None
    name = str(tokens(init, "IDENT")[0])
    if _assigned_name(update) != name or not isinstance(update.children[0], Tree) or update.children[0].data != "name":
        return None
    if any(_assigned_name(x) == name for s in body for x in _walk(s)):
        return None
    if not [c for c in init.children if isinstance(c, Tree) and c.data != "type"]:
        return None
    return name


