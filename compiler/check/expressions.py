"""Type checking of expressions, producing the checked IR.

One `ItemChecker` checks one top-level item.  Implicit type parameters (凡)
become unification variables solved from argument and expected types; what
stays unsolved when the item is done is reported at the application that
introduced it (seed 着八).  Local functions are checked at their first call,
when their parameter types are known, and may call themselves only in tail
position (seed 着五).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..syntax import ast
from ..syntax.parser import number_value
from ..types import (BOOL, ERROR, FLOAT_LIT, INT_LIT, UNIT, Printer, TCon, TError, TFamily, TFun,
                     TMeta, TRecord, TTuple, TVar, Type, TypeOrIndex, contains_meta, is_scalar,
                     map_parts, matrix_parts, resolve, SWIZZLE_SETS, swizzle_components,
                     vector_parts)
from ..diagnostics import (ARITY, ARRAY_PROJECTION, BAD_VALUE, CALL_PARENS, CLASS_BOUND, CONVERT, DUPLICATE,
                           FUNCTION_AS_VALUE, FUNCTION_EXPECTED, IF_WITHOUT_ELSE, LITERAL_RANGE,
                           NOT_A_FUNCTION, NOT_A_MODULE, NOT_IN_MODULE, NOT_TRANSLATABLE, NO_FIELD,
                           NO_OPERATOR, NUMBER_SPELLING, NUMERAL_NAME, READ_ONLY, RECURSION, TOP_LEVEL,
                           TYPE_ARGUMENTS, TYPE_AS_VALUE, TYPE_MISMATCH, UNKNOWN_NAME, UNSOLVED, WRAP_LITERAL,
                           TEXEL_VALUE, TEXTURE_CONSTANT, WRITE_ONLY_TEXTURE, WRONG_RESOURCE, LocalDiagnostic)
from ..builtin.textures import GATHER_COMPONENT, TEXTURES
from ..valid import registry
from ..valid.consteval import written_number
from .closest import number_spelling, ranked, scope_candidates
from .classes import CLASSES, FAMILIES, bit_size, satisfies
from .scope import Scope, ValueEntry
from .typeexpr import TypeResolver

#: Resource constructors and entry constructors: only as a whole top-level definition.
RESOURCE_CONSTRUCTORS = {
    "绑定": "storage", "均匀绑定": "uniform", "纹理绑定": "texture", "采样器绑定": "sampler",
    "深度纹理绑定": "depth_texture", "比较采样器绑定": "comparison_sampler", "存储纹理绑定": "storage_texture",
    "工作组共享": "workgroup",
}
ENTRY_CONSTRUCTORS = {"计算入口项": "计算", "顶点入口项": "顶点", "片元入口项": "片元"}

#: Builtins that write through their first argument: it must not be 只读.
WRITING_BUILTINS = frozenset(registry.having("writes_through"))

#: A builtin used on the wrong kind of resource, and what to write instead.
RESOURCE_HINTS = {
    ("读数组", "工作组变量"): "用「读共享数组」", ("写数组", "工作组变量"): "用「写共享数组」",
    ("读存储", "工作组变量"): "用「读共享」", ("写存储", "工作组变量"): "用「写共享」",
    ("读共享数组", "存储缓冲"): "用「读数组」", ("写共享数组", "存储缓冲"): "用「写数组」",
    ("读共享", "存储缓冲"): "用「读存储」", ("写共享", "存储缓冲"): "用「写存储」",
    ("读数组", "均匀缓冲"): "用「读均匀」取它的值", ("读存储", "均匀缓冲"): "用「读均匀」取它的值",
    ("写数组", "均匀缓冲"): "均匀缓冲在着色器里只读：要写就声明成「读写」的存储缓冲",
    ("写存储", "均匀缓冲"): "均匀缓冲在着色器里只读：要写就声明成「读写」的存储缓冲",
    ("读均匀", "存储缓冲"): "用「读存储」或「读数组」", ("读均匀", "工作组变量"): "用「读共享」",
}
#: builtins that read a texture: a write-only storage texture has no texels to read
TEXTURE_READS = frozenset(registry.having("reads_texture"))

#: Typed-literal constructors: (scalar kind, width) for the range check.
LITERAL_CONSTRUCTORS = registry.having("scalar")
#: integers: (lowest, highest); floats: (the largest finite value as written in
#: messages, the magnitude from which a literal rounds to infinity)
LITERAL_LIMITS = {("float", 32): ("3.4028235e38", 2.0 ** 128 * (1 - 2.0 ** -25)),
                  ("float", 16): ("65504", 65520.0),
                  ("int", 32): (-(2 ** 31), 2 ** 31 - 1), ("uint", 32): (0, 2 ** 32 - 1)}

#: integer fragment loads count s8 elements: 16 of them make ldmatrix's 16-byte row (other
#: fragment loads and stores: multiples of 8)
INTEGER_FRAGMENT_LOADS = frozenset("载入整矩阵片甲 载入整矩阵片乙".split())

#: each rule a builtin's call must satisfy beyond its type (its registry column `call_rule`) → ItemChecker method
RULE_METHODS = {"literal range": "_literal_range", "writable": "_writable",
                "fragment offsets": "_fragment_offsets", "select shape": "_select_shape",
                "quad lane": "_quad_lane", "texture constants": "_texture_constants"}
#: WGSL's bounds of a texel offset's components (textureSample* and textureGather* `offset`)
TEXEL_OFFSETS = range(-8, 8)
#: builtin name → the ItemChecker method checking its call
CALL_RULES = {name: RULE_METHODS[rule] for name, rule in registry.having("call_rule").items()}
#: resources read only whole, by the builtin that reads them (「缓冲」中「字段」 is the storage buffer's)
WHOLE_READS = {"均匀缓冲": "读均匀", "工作组变量": "读共享"}
#: builtins that hold a whole buffer as one value (the registry's whole_value)
WHOLE_VALUE = frozenset(registry.having("whole_value"))
#: arithmetic operators whose operands may be a vector and a scalar (the registry's mixes_scalar)
MIXES_SCALAR = frozenset(registry.having("mixes_scalar"))
#: operators that also take float matrices: matrix ± matrix, matrix × scalar (the registry's mixes_matrix)
MIXES_MATRIX = frozenset(registry.having("mixes_matrix"))


@dataclass(eq=False)
class _PendingFun:
    """A 令-bound local function whose body is checked at its first call."""

    node: ast.Lambda
    env: dict
    fun: ir.LocalFun
    state: str = "pending"  # pending → checking → done
    misused: bool = False   # used as a value or applied partially: reported once, nothing more


class ItemChecker:
    def __init__(self, scope: Scope, printer: Printer, *, function: str | None = None,
                 allow_intrinsic: bool = False) -> None:
        self.scope = scope
        self.show = printer
        self.diags: list[LocalDiagnostic] = []
        self.types = TypeResolver(scope, self.error, allow_intrinsic)
        self.function = function          # the top-level function being checked
        self.allow_constructors = False   # true for a resource's or entry's own definition
        self.allow_override = False       # true for a top-level constant's value (module.py `_const_rules` says where)
        self.calls: set[str] = set()      # top-level functions it calls
        self._call_metas: list[tuple[TMeta, ast.Node, str]] = []
        self._deferred: list[tuple[TypeOrIndex, TypeOrIndex, ast.Node]] = []
        self._adopted: dict[tuple[str, ...], TRecord] = {}   # anonymous record's field names → struct
        self._bound_checks: list[tuple[TypeOrIndex, str, ast.Node, str]] = []
        self._bitcasts: list[ir.Call] = []     # checked once their types are settled
        self._failure: str | None = None

    # ------------------------------------------------------------ reporting

    def error(self, node, message: str, code: str, **fields: str) -> None:
        start, end = (node.start, node.end) if not isinstance(node, tuple) else node
        self.diags.append(LocalDiagnostic(start, end, message, code, fields=fields))

    def mismatch(self, node, expected, actual) -> None:
        if self._failure:
            self.error(node, self._failure, CLASS_BOUND)
            self._failure = None
            return
        expected, actual = self.reduce(expected), self.reduce(actual)
        message = f"类型不符：应为{self.show(expected)}，实为{self.show(actual)}"
        code, fields = TYPE_MISMATCH, {"应为": self.show(expected), "实为": self.show(actual)}
        exp, act = resolve(expected), resolve(actual)
        ctor = _literal_constructor_for(exp)
        abstract = (INT_LIT, FLOAT_LIT)
        bare = _bare_literal(node) if ctor and act in abstract else None
        if bare is not None:
            if bare is not node:    # 「二」减 n: the literal made it abstract; n's message follows from that
                self.diags[:] = [d for d in self.diags if not (node.start <= d.start <= d.end <= node.end
                                                               and d.fields.get("应为") == self.show(act))]
            message = f"类型不符：应为{fields['应为']}，实为{self.show(act)}"
            message += f"；字面量须经「{ctor}」构造，写成（「{ctor}」于「{_literal_text(bare)}」）"
            code, fields, node = WRAP_LITERAL, {"构造": ctor, "应为": fields["应为"]}, bare
        elif exp in abstract and act not in abstract and _numeric(act):
            if self.diags and self.diags[-1].code == WRAP_LITERAL:
                return                  # 「二」减 n: the bare literal before it has its message
            ctor = _literal_constructor_for(act)
            message += f"；与它同算的字面量须经「{ctor}」构造" if ctor else ""
        elif _numeric(exp) and _numeric(act) and _same_shape(exp, act):
            message += f"；不同的数值类型要先转换：「转换」以{self.show(exp)}于 …"
            code = CONVERT
        elif _numeric(exp) and _numeric(act):
            message += "；分量个数不同：「转换」只换元素的类型，不改变分量个数"
        self.error(node, message, code, **fields)

    # ------------------------------------------------------------ unification

    def unify(self, expected: TypeOrIndex, actual: TypeOrIndex, node) -> bool:
        return self._unify(expected, actual, node)

    def _unify(self, a, b, node) -> bool:
        a, b = resolve(a), resolve(b)
        if a is b:
            return True
        if isinstance(a, TError) or isinstance(b, TError):
            for side in (a, b):  # an erroneous value settles what it meets: no follow-on messages
                if isinstance(side, TMeta):
                    side.ref = ERROR
            return True
        if isinstance(a, TMeta):
            return self._bind(a, b, node)
        if isinstance(b, TMeta):
            return self._bind(b, a, node)
        if isinstance(a, int) or isinstance(b, int):
            return a == b
        if isinstance(a, TFamily) or isinstance(b, TFamily):
            ra, rb = self.reduce(a), self.reduce(b)
            if isinstance(ra, TFamily) or isinstance(rb, TFamily):
                self._deferred.append((ra, rb, node))
                return True
            return self._unify(ra, rb, node)
        if type(a) is not type(b):
            return False
        if isinstance(a, TCon):
            return a.name == b.name and len(a.args) == len(b.args) and all(
                self._unify(x, y, node) for x, y in zip(a.args, b.args))
        if isinstance(a, TTuple):
            return len(a.items) == len(b.items) and all(
                self._unify(x, y, node) for x, y in zip(a.items, b.items))
        if isinstance(a, TRecord):
            return self._adopt(a, b, node)
        if isinstance(a, TFun):
            return len(a.params) == len(b.params) and all(
                self._unify(x, y, node) for x, y in zip(a.params, b.params)) and self._unify(
                a.result, b.result, node)
        if isinstance(a, TVar):
            return a.name == b.name
        return False

    def _adopt(self, a: TRecord, b: TRecord, node) -> bool:
        """Two records unify field by field.  An anonymous record (a 组值 bound by
        令 before it met its struct) and a struct with the same fields, in any
        order, are the same type: the record takes the struct's name and field
        order when the item is done."""
        names = [n for n, _ in a.fields]
        if names == [n for n, _ in b.fields] and (a.alias is None) == (b.alias is None):
            return all(self._unify(x, y, node) for (_, x), (_, y) in zip(a.fields, b.fields))
        if sorted(names) != sorted(n for n, _ in b.fields) or (a.alias is None) == (b.alias is None):
            return False
        named, anonymous = (a, b) if a.alias is not None else (b, a)
        if not all(self._unify(named.field_type(n), t, node) for n, t in anonymous.fields):
            return False
        self._adopted[tuple(n for n, _ in anonymous.fields)] = named
        return True

    def adopt_records(self, root: ir.Expr | None, params=()) -> None:
        """Give every anonymous record adopted by a struct (see _adopt) the
        struct's type, and its 组值 the struct's field order, in this item's IR."""
        if not self._adopted or root is None:
            return

        def retyped(t):
            t = resolve(t)
            if isinstance(t, TRecord) and t.alias is None and tuple(n for n, _ in t.fields) in self._adopted:
                return self._adopted[tuple(n for n, _ in t.fields)]
            return map_parts(t, retyped)

        variables = list(params)
        for node in ir.walk(root):
            node.type = retyped(node.type)
            if isinstance(node, ir.MakeRecord) and isinstance(resolve(node.type), TRecord):
                given = dict(node.fields)  # (a record ascribed a wrong type keeps its error type)
                node.fields = [(n, given[n]) for n, _ in resolve(node.type).fields if n in given]
            if isinstance(node, ir.Let):
                variables.append(node.var)
            if isinstance(node, ir.LetFun):
                variables.extend(node.fun.params)
                node.fun.result = retyped(node.fun.result)
        for var in variables:
            var.type = retyped(var.type)

    def _bind(self, meta: TMeta, t, node) -> bool:
        t = self.reduce(t)
        if isinstance(t, TMeta):
            t.bounds = tuple(dict.fromkeys(t.bounds + meta.bounds))
            meta.ref = t
            return True
        if not isinstance(t, int) and self._occurs(meta, t):
            return False
        for bound in meta.bounds:
            ok = satisfies(t, bound)
            if ok is False:
                self._failure = self._bound_message(t, bound, meta.hint)
                meta.ref = ERROR  # one message per mistake
                return False
            if ok is None:
                self._bound_checks.append((t, bound, node, meta.hint))
        meta.ref = t
        return True

    def _bound_message(self, t, bound: str, who: str) -> str:
        desc = CLASSES[bound][1] if bound in CLASSES else bound
        return f"类型不符：{self.show(t)}不是{desc}（「{who}」须满足「{bound}」）"

    def _occurs(self, meta: TMeta, t) -> bool:
        t = resolve(t)
        if t is meta:
            return True
        if isinstance(t, (TCon, TFamily)):
            return any(self._occurs(meta, a) for a in t.args if not isinstance(a, int))
        if isinstance(t, TTuple):
            return any(self._occurs(meta, a) for a in t.items)
        if isinstance(t, TRecord):
            return any(self._occurs(meta, a) for _, a in t.fields)
        if isinstance(t, TFun):
            return any(self._occurs(meta, a) for a in t.params) or self._occurs(meta, t.result)
        return False

    def reduce(self, t):
        """Compute a type family application once its arguments are known."""
        t = resolve(t)
        if not isinstance(t, TFamily):
            return t
        args = tuple(self.reduce(a) if not isinstance(a, int) else a for a in t.args)
        if any(isinstance(a, TError) for a in args):
            return ERROR
        result = FAMILIES[t.name][1](args)
        return t if result is None else resolve(result)

    def finish(self) -> None:
        """Settle deferred constraints and report what stayed undetermined."""
        progress = True
        while progress and (self._deferred or self._bound_checks):
            progress = False
            deferred, self._deferred = self._deferred, []
            for a, b, node in deferred:
                ra, rb = self.reduce(a), self.reduce(b)
                if isinstance(ra, TFamily) or isinstance(rb, TFamily):
                    self._deferred.append((ra, rb, node))
                    continue
                progress = True
                if not self._unify(ra, rb, node):
                    self.mismatch(node, ra, rb)
            checks, self._bound_checks = self._bound_checks, []
            for t, bound, node, who in checks:
                ok = satisfies(t, bound)
                if ok is None:
                    self._bound_checks.append((t, bound, node, who))
                    continue
                progress = True
                if not ok:
                    self.error(node, self._bound_message(t, bound, who), CLASS_BOUND)
        # a call whose other implicit parameter was already wrong has had its message
        reported: set[int] = {id(node) for meta, node, _ in self._call_metas if isinstance(resolve(meta), TError)}
        for meta, node, callee in self._call_metas:
            root = resolve(meta)
            if isinstance(root, TMeta) and id(node) not in reported and id(root) not in reported:
                reported.update((id(node), id(root)))
                self.error(node, f"函数应用的隐式参数无法完全确定：「{callee}」的「{meta.hint}」"
                                 "；先用 令 绑定子表达式，或用（表达式 也 类型）标注，"
                                 "只在返回类型里的参数用 以 给出", UNSOLVED)
        for a, b, node in self._deferred:
            if id(node) not in reported and not contains_meta(a) and not contains_meta(b):
                reported.add(id(node))
                self.mismatch(node, a, b)
        for call in self._bitcasts:
            self._bitcast_sizes(call)

    # ------------------------------------------------------------ schemes

    def instantiate(self, entry: ValueEntry, node, callee: str) -> tuple[Type, list[TMeta]]:
        metas = [TMeta(bounds=(v.bound,) if v.bound else (), origin=(node.start, node.end),
                       hint=v.name, shown=v.name) for v in entry.type_params]
        for m in metas:
            self._call_metas.append((m, node, callee))
        mapping = {v.name: m for v, m in zip(entry.type_params, metas)}
        return substitute(entry.type, mapping), metas

    # ------------------------------------------------------------ expressions

    def check(self, node: ast.Expr, expected: Type | None, env: dict,
              tail: ir.LocalFun | None = None) -> ir.Expr:
        method = getattr(self, "_" + type(node).__name__)
        result = method(node, expected, env, tail)
        if expected is not None and not isinstance(node, _PROPAGATING):
            if not self.unify(expected, result.type, node):
                self.mismatch(node, expected, result.type)
                result.type = ERROR
        return result

    def _Paren(self, node, expected, env, tail):
        inner = self.check(node.inner, expected, env, tail)
        return inner

    def _Number(self, node: ast.Number, expected, env, tail):
        if node.text in env:    # a local wrongly named by a numeral: reported at its binder only
            return _error_expr(node)
        return ir.Literal(node.start, node.end, FLOAT_LIT if node.is_float else INT_LIT,
                          node.value, node.is_float, node.text)

    def _String(self, node, expected, env, tail):
        self.error(node, "着色源不能用字符串（着五）", NOT_TRANSLATABLE)
        return ir.Literal(node.start, node.end, ERROR, 0, False, "")

    def _Name(self, node: ast.Name, expected, env, tail):
        local = env.get(node.name)
        if isinstance(local, ir.LocalVar):
            return ir.LocalRef(node.start, node.end, local.type, local)
        if isinstance(local, _PendingFun):
            self.error(node, f"局部函数「{node.name}」不能当作值使用（着五）：只能直接调用，如「{node.name}」于 实参", FUNCTION_AS_VALUE, 名字=node.name)
            local.misused = True
            return _error_expr(node)
        return self._global_value(node, node.name, self.scope.value(node.name), node.name, env)

    def _Qualified(self, node: ast.Qualified, expected, env, tail):
        entry = self._qualified_entry(node)
        if entry is None:
            return _error_expr(node)
        return self._global_value(node, node.name, entry, f"{node.module}之{node.name}")

    def _qualified_entry(self, node: ast.Qualified) -> ValueEntry | None:
        module = self.scope.modules.get(node.module)
        if module is None:
            self.error((node.start, node.module_end), f"「{node.module}」不是已导入的模块：先写 寻「包」之…之「{node.module}」之书。",
                       NOT_A_MODULE, 模块=node.module)
            return None
        entry = module.values.get(node.name)
        if entry is None and not module.failed:
            hint = _closest(node.name, [*module.values, *module.types])
            self.error((node.name_start, node.end), f"模块「{node.module}」里没有「{node.name}」{hint}",
                       NOT_IN_MODULE, 模块=node.module, 名字=node.name)
        return entry

    def _global_value(self, node, name: str, entry: ValueEntry | None, shown: str, env: dict | None = None):
        if entry is None:
            if self.scope.type(name) is not None:
                self.error(node, f"「{shown}」是类型，不能当作值", TYPE_AS_VALUE, 名字=shown)
            elif number_spelling(name) is not None:
                self.error(node, f"「{shown}」不是数字的写法{number_spelling(name)}", NUMBER_SPELLING, 写法=shown)
            elif not self.scope.incomplete:
                guess = self._guess(name, env)
                self.error(node, f"未知的名字「{shown}」{self._suggest(name, env)}", UNKNOWN_NAME, 名字=shown, **guess)
            return _error_expr(node)
        if isinstance(resolve(entry.type), TFun) or entry.kind == "function":
            self.error(node, f"函数「{shown}」不能当作值使用（着五）：只能直接调用，如「{shown}」于 实参", FUNCTION_AS_VALUE, 名字=shown)
            return _error_expr(node)
        if entry.kind == "entry":
            self.error(node, f"入口项「{shown}」不能在表达式里使用", FUNCTION_AS_VALUE, 名字=shown)
            return _error_expr(node)
        if entry.kind == "builtin":
            t, _ = self.instantiate(entry, node, name)
            return ir.BuiltinValue(node.start, node.end, t, name)
        return ir.GlobalRef(node.start, node.end, entry.type, entry.module, name)

    def _guess(self, name: str, env: dict | None = None) -> dict[str, str]:
        """The checker's guess as a field (absent when nothing is close)."""
        best = ranked(name, scope_candidates(self.scope, env or {}))
        return {"猜测": best[0]} if best else {}

    def _suggest(self, name: str, env: dict | None = None) -> str:
        """The closest known name (the ranking the quick fix uses), as a hint."""
        if any("０" <= c <= "９" for c in name):
            ascii_digits = name.translate({ord("０") + i: str(i) for i in range(10)})
            return f"；数字写作 0–9 或 〇零一二三四五六七八九，不用全角数字：写成「{ascii_digits}」"
        guess = self._guess(name, env).get("猜测")
        return f"；是不是「{guess}」？" if guess else ""

    def _Project(self, node: ast.Project, expected, env, tail):
        base = self.check(node.base, None, env)
        t = self.reduce(base.type)
        label_span = (node.label_start, node.end)
        if isinstance(t, TError):
            return ir.Project(node.start, node.end, ERROR, base, None, None)
        if isinstance(t, TCon) and t.name == "存储缓冲" and t.args:
            return self._buffer_field(node, t, base, label_span)
        number = number_value(node.label)
        swizzle = swizzle_components(node.label)
        if swizzle is not None and vector_parts(t) is not None:
            return self._swizzle(node, t, base, swizzle)
        if number is not None and not number[1]:
            index = number[0]
            if isinstance(t, TTuple):
                if index < len(t.items) and isinstance(base, ir.Project) and base.components is not None:
                    return self._swizzle(node, t, base, (index,))
                if index < len(t.items):
                    return ir.Project(node.start, node.end, t.items[index], base, index, None)
                self.error(label_span, f"分量序号 {index} 超出范围：{self.show(t)}只有 {len(t.items)} 个分量（从「零」数起）",
                           NO_FIELD, 类型=self.show(t), 字段=node.label)
                return ir.Project(node.start, node.end, ERROR, base, index, None)
        elif isinstance(t, TRecord):
            ft = t.field_type(node.label)
            if ft is not None:
                return ir.Project(node.start, node.end, ft, base, None, node.label)
            names = "、".join(f"「{n}」" for n, _ in t.fields)
            self.error(label_span, f"{self.show(t)}没有字段「{node.label}」；它的字段有 {names}",
                       NO_FIELD, 类型=self.show(t), 字段=node.label)
            return ir.Project(node.start, node.end, ERROR, base, None, node.label)
        if isinstance(t, TMeta):
            self.error(node.base, "无法确定此处的类型，不能取分量：先用（表达式 也 类型）标注", UNSOLVED)
        else:
            what = "分量" if number is not None else f"字段「{node.label}」"
            hint = "：元组的分量写成 中「零」、中「一」……" if isinstance(t, TTuple) and number is None else ""
            if hint and vector_parts(t) is not None:
                hint += "；向量的分量也可按字母取：中「x」、中「xy」、中「bgr」……"
            if isinstance(t, TCon) and t.name in WHOLE_READS:
                hint = f"：{t.name}不能按字段取，先整个读出再取：（「{WHOLE_READS[t.name]}」于 {t.name}）中「{node.label}」"
            if isinstance(t, TCon) and t.name == "定长数组":
                hint = "：中 只取向量的分量与结构的字段；数组的元素用「取元素」于 数组 于 序号（序号是「无三二」）"
                self.error(label_span, f"{self.show(t)}没有{what}{hint}", ARRAY_PROJECTION, 类型=self.show(t))
                return ir.Project(node.start, node.end, ERROR, base, None, None)
            self.error(label_span, f"{self.show(t)}没有{what}{hint}", NO_FIELD, 类型=self.show(t), 字段=node.label)
        return ir.Project(node.start, node.end, ERROR, base, None, None)

    def _buffer_field(self, node: ast.Project, buffer: TCon, base: ir.Expr, label_span) -> ir.Project:
        """「缓冲」中「字段」: a field of the record a storage buffer holds is a
        storage buffer of the field's type (WGSL's `&缓冲.字段`), so every
        buffer builtin applies to it unchanged — a header field read by
        「读存储」, the trailing 「数组」 indexed and measured (docs/扩展.md)."""
        record = resolve(buffer.args[0])
        ft = record.field_type(node.label) if isinstance(record, TRecord) else None
        if ft is not None:
            return ir.Project(node.start, node.end, TCon("存储缓冲", (ft,)), base, None, node.label)
        if isinstance(record, TRecord):
            names = "、".join(f"「{n}」" for n, _ in record.fields)
            self.error(label_span, f"存储缓冲里的{self.show(record)}没有字段「{node.label}」；它的字段有 {names}",
                       NO_FIELD, 类型=self.show(record), 字段=node.label)
        elif not isinstance(record, TError):
            self.error(label_span, f"{self.show(buffer)}里装的不是记录，没有字段「{node.label}」：中 只取存储缓冲里记录的字段；"
                                   f"要取读出的值的分量，先读再取：（「读存储」于 缓冲）中「{node.label}」",
                       NO_FIELD, 类型=self.show(buffer), 字段=node.label)
        return ir.Project(node.start, node.end, ERROR, base, None, node.label)

    def _swizzle(self, node: ast.Project, t: TTuple, base: ir.Expr, components: tuple[int, ...]) -> ir.Project:
        """「v」中「xy」: one letter is that component, several a vector of them (WGSL's swizzle)."""
        if max(components) >= len(t.items):
            letter = node.label[components.index(max(components))]
            where = f"「{letter}」" if len(node.label) == 1 else f"「{node.label}」里的「{letter}」"
            letters = next(s for s in SWIZZLE_SETS if letter in s)[:len(t.items)]
            self.error((node.label_start, node.end), f"{self.show(t)}只有 {len(t.items)} 个分量（{' '.join(letters)}），"
                       f"没有{where}", NO_FIELD, 类型=self.show(t), 字段=node.label)
            return ir.Project(node.start, node.end, ERROR, base, None, None)
        element = t.items[0]          # a vector's components share one type
        if isinstance(base, ir.Project) and base.components is not None:   # 「v」中「xxy」中「yx」 is 「v」中「xx」
            components, base = tuple(base.components[i] for i in components), base.base
        if len(components) == 1:
            return ir.Project(node.start, node.end, element, base, components[0], None)
        return ir.Project(node.start, node.end, TTuple((element,) * len(components)), base, None, None, components)

    def _Tuple(self, node: ast.Tuple, expected, env, tail):
        exp = resolve(expected) if expected is not None else None
        if _array_of(exp, len(node.items)):
            # an array literal: the items of a 定长数组 written out where one is expected
            items = [self.check(i, exp.args[0], env) for i in node.items]
            return ir.MakeTuple(node.start, node.end, exp, items)
        if isinstance(exp, TTuple) and len(exp.items) == len(node.items):
            items = [self.check(i, t, env) for i, t in zip(node.items, exp.items)]
            t = exp
        else:
            items = [self.check(i, None, env) for i in node.items]
            t = TTuple(tuple(i.type for i in items))
            if expected is not None and not self.unify(expected, t, node):
                self.mismatch(node, expected, t)
                return ir.MakeTuple(node.start, node.end, ERROR, items)
        self._check_tuple_shape(node, t)
        return ir.MakeTuple(node.start, node.end, t, items)

    def _check_tuple_shape(self, node, t) -> None:
        t = resolve(t)
        if not isinstance(t, TTuple) or contains_meta(t) or any(isinstance(resolve(i), TError) for i in t.items):
            return
        if vector_parts(t) is None and matrix_parts(t) is None:
            self.error(node, f"元组须是向量（2 至 4 个同类标量）或矩阵（2 至 4 个同样的浮点向量列），这里是{self.show(t)}", BAD_VALUE)

    def _Record(self, node: ast.Record, expected, env, tail):
        if node.head != "组值":
            self.error(node, f"记录值须写作「组值」【…】，这里写的是「{node.head}」", BAD_VALUE)
        exp = resolve(expected) if expected is not None else None
        written = {}
        for f in node.fields:
            if f.name in written:
                self.error(f, f"字段「{f.name}」重复", DUPLICATE)
            written[f.name] = f
        if isinstance(exp, TRecord):
            missing = [n for n, _ in exp.fields if n not in written]
            extra = [n for n in written if n not in dict(exp.fields)]
            for name, f in list(written.items()):
                if name not in dict(exp.fields):
                    one_each = len(missing) == 1 and len(extra) == 1
                    meant = _closest_name(name, missing) or (missing[0] if one_each else None)
                    if meant:  # a misspelt field: one message, not 'missing' plus 'unknown'
                        missing.remove(meant)
                    hint = f"；是不是「{meant}」？" if meant else ""
                    self.error(f, f"{self.show(exp)}没有字段「{name}」{hint}", NO_FIELD, 类型=self.show(exp), 字段=name)
                    del written[name]
            for name in missing:
                self.error(node, f"{self.show(exp)}的字段「{name}」没有给出", NO_FIELD, 类型=self.show(exp), 字段=name)
            fields = [(name, self.check(written[name].value, ft, env)) for name, ft in exp.fields if name in written]
            return ir.MakeRecord(node.start, node.end, exp, fields)
        fields = [(f.name, self.check(f.value, None, env)) for f in written.values()]
        t = TRecord(tuple((n, e.type) for n, e in fields))
        if expected is not None and not self.unify(expected, t, node):
            self.mismatch(node, expected, t)
        return ir.MakeRecord(node.start, node.end, t, fields)

    def _If(self, node: ast.If, expected, env, tail):
        cond = self.check(node.cond, BOOL, env)
        if node.otherwise is None:
            if expected is not None and not self.unify(expected, UNIT, node):
                self.error(node, f"没有「否则」的「若」的值是「有」，这里应为{self.show(expected)}：补上「否则」分支",
                           IF_WITHOUT_ELSE)
                then = self.check(node.then, None, env, tail)
                return ir.If(node.start, node.end, ERROR, cond, then, None)
            then = self.check(node.then, None if expected is None else UNIT, env, tail)
            if expected is None and not self.unify(UNIT, then.type, node.then):
                self.error(node.then, f"没有「否则」的「若」的「则」分支须是「有」，这里是{self.show(self.reduce(then.type))}"
                                      "：要用它的值就补上「否则」分支", IF_WITHOUT_ELSE)
                return ir.If(node.start, node.end, ERROR, cond, then, None)
            return ir.If(node.start, node.end, UNIT, cond, then, None)
        result = expected if expected is not None else TMeta(hint="若的值")
        then = self.check(node.then, result, env, tail)
        otherwise = self.check(node.otherwise, result, env, tail)
        return ir.If(node.start, node.end, result, cond, then, otherwise)

    def _Sequence(self, node: ast.Sequence, expected, env, tail):
        items = [self.check(i, None, env) for i in node.items[:-1]]
        last = self.check(node.items[-1], expected, env, tail)
        return ir.Seq(node.start, node.end, last.type, items + [last])

    def _Ascribe(self, node: ast.Ascribe, expected, env, tail):
        t = self.types.resolve(node.type)
        inner = self.check(node.expr, t, env, tail)
        inner.type = t if not isinstance(resolve(inner.type), TError) else inner.type
        if expected is not None and not self.unify(expected, t, node):   # the ascribed type fixes the expected one
            self.mismatch(node, expected, t)
            inner.type = ERROR
        return inner

    def _Lambda(self, node: ast.Lambda, expected, env, tail):
        self.error(node, "匿名函数与闭包不能翻译（着五）：局部函数用 令「名」为 得…而… 绑定后直接调用", NOT_TRANSLATABLE)
        return _error_expr(node)

    def binder_name(self, name: str, span) -> None:
        """Numerals are literals, never names (「二」 is 2)."""
        if number_value(name) is not None:
            self.error(span, f"「{name}」是数字字面量，不能作名字：换一个名字，如「{name}号」", NUMERAL_NAME,
                       名字=name, 建议=f"{name}号")

    def _Let(self, node: ast.Let, expected, env, tail):
        self.binder_name(node.name, (node.name_start, node.name_end))
        if isinstance(node.value, ast.Lambda):
            return self._let_function(node, expected, env, tail)
        value = self.check(node.value, None, env)
        var = ir.LocalVar(node.name, value.type, node.name_start, node.name_end)
        body = self.check(node.body, expected, {**env, node.name: var}, tail)
        return ir.Let(node.start, node.end, body.type, var, value, body)

    def _let_function(self, node: ast.Let, expected, env, tail):
        lam: ast.Lambda = node.value
        for p in lam.params:
            self.binder_name(p.name, p)
        params = [ir.LocalVar(p.name, TMeta(hint=p.name), p.start, p.end) for p in lam.params]
        fun = ir.LocalFun(node.name, params, None, TMeta(hint=f"{node.name}的值"), node.name_start, node.name_end)
        pending = _PendingFun(lam, env, fun)
        pending.env = {**env, node.name: pending}
        body = self.check(node.body, expected, pending.env, tail)
        if pending.state == "pending" and not pending.misused:
            self._check_local_body(pending)
        for p in params:
            if isinstance(resolve(p.type), TMeta):
                if not pending.misused:     # its misuse was the message; the unknown types follow from it
                    self.error((p.start, p.end),
                               f"无法确定局部函数「{node.name}」的参数「{p.name}」的类型：用（表达式 也 类型）标注", UNSOLVED)
                p.type = ERROR
        return ir.LetFun(node.start, node.end, body.type, fun, body)

    def _check_local_body(self, pending: _PendingFun) -> None:
        pending.state = "checking"
        fun = pending.fun
        inner = dict(pending.env)
        for p in fun.params:
            inner[p.name] = p
        fun.body = self.check(pending.node.body, fun.result, inner, fun)
        pending.state = "done"

    # ------------------------------------------------------------ applications

    def _Operator(self, node: ast.Operator, expected, env, tail):
        entry = self.scope.builtin_value(node.op)
        if entry is None:
            self.error((node.op_start, node.op_start + len(node.op)), f"运算符「{node.op}」没有内建声明", NO_OPERATOR, 运算符=node.op)
            return _error_expr(node)
        name_span = (node.op_start, node.op_start + len(node.op))
        return self._builtin_call(node, node.op, entry, list(node.operands), [], expected, env, name_span)

    def _Apply(self, node, expected, env, tail):
        return self._application(node, expected, env, tail)

    _TypeArg = _Apply

    def _application(self, node, expected, env, tail):
        head, args, type_args = _spine(node)
        name_span = (head.start, head.end)
        if isinstance(head, ast.Paren):
            head = _strip_parens(head)
        if isinstance(head, ast.Name):
            local = env.get(head.name)
            if isinstance(local, _PendingFun):
                return self._local_call(node, head, local, args, type_args, expected, env, tail)
            if isinstance(local, ir.LocalVar):
                if not isinstance(resolve(local.type), TError):
                    self.error(head, f"「{head.name}」是值，不是函数，不能应用", NOT_A_FUNCTION, 名字=head.name)
                return self._error_call(node, args, env)
            entry = self.scope.value(head.name)
            callee = head.name
        elif isinstance(head, ast.Qualified):
            entry = self._qualified_entry(head)
            callee = head.name
            if entry is None:
                return self._error_call(node, args, env)
        else:
            self.error(head, "只能应用具名的函数（函数不能当作值，着五）", NOT_A_FUNCTION)
            return self._error_call(node, args, env)
        if entry is None:
            self._global_value(head, head.name, None, head.name, env)
            return self._error_call(node, args, env)
        if isinstance(resolve(entry.type), TError):  # already reported where it is defined
            return self._error_call(node, args, env)
        if entry.kind == "builtin":
            return self._builtin_call(node, callee, entry, args, type_args, expected, env, name_span)
        if entry.kind == "function":
            return self._function_call(node, callee, entry, args, type_args, expected, env, name_span)
        self.error(head, f"「{callee}」不是函数，不能应用", NOT_A_FUNCTION, 名字=callee)
        return self._error_call(node, args, env)

    def _error_call(self, node, args, env):
        for a in args:
            self.check(a, None, env)
        return _error_expr(node)

    def _arity(self, node, callee: str, params, args, env: dict | None = None) -> bool:
        if len(args) == len(params):
            return True
        if len(args) > len(params) and self._unparenthesised_call(args, env or {}):
            return False
        if len(args) < len(params):
            self.error(node, f"「{callee}」需要 {len(params)} 个实参，这里只有 {len(args)} 个（函数不能部分应用，着五）",
                       ARITY, 名字=callee, 应有=str(len(params)), 实有=str(len(args)))
        else:
            self.error(node, f"「{callee}」只收 {len(params)} 个实参，这里给了 {len(args)} 个",
                       ARITY, 名字=callee, 应有=str(len(params)), 实有=str(len(args)))
        return False

    def _unparenthesised_call(self, args, env: dict) -> bool:
        """「f」于「x」于「新无三二」于「一」: an argument that is itself a call
        needs parentheses; say so once instead of 'too many arguments'."""
        for k, arg in enumerate(args[:-1]):
            name = arg.name if isinstance(arg, ast.Name) else None
            if name is None:
                continue
            local = env.get(name)
            entry = self.scope.value(name) if local is None else None
            is_function = isinstance(local, _PendingFun) or (
                entry is not None and isinstance(resolve(entry.type), TFun))
            if is_function:
                after = args[k + 1]
                shown = f"「{name}」于{_source_text(after)}"
                self.error((arg.start, after.end), f"作实参的调用须加括号：写成（{shown}）", CALL_PARENS)
                return True
        return False

    def _check_args(self, params, args, env) -> list[ir.Expr]:
        out = []
        for p, a in zip(params, args):
            out.append(self.check(a, p, env))
        return out

    def _builtin_call(self, node, callee, entry, args, type_args, expected, env, name_span):
        if (callee in RESOURCE_CONSTRUCTORS or callee in ENTRY_CONSTRUCTORS) and not self.allow_constructors:
            what = "资源" if callee in RESOURCE_CONSTRUCTORS else "入口项"
            self.error(name_span, f"「{callee}」只能作{what}的顶层定义（着四）", TOP_LEVEL)
            return self._error_call(node, args, env)
        if callee == ir.OVERRIDE and not self.allow_override:
            self.error(name_span, f"「{callee}」只能是顶层常量的整个值：「名」者「{callee}」于 默认值 也", TOP_LEVEL)
            return self._error_call(node, args, env)
        if args and self._wrong_resource(callee, args[0], env):
            return _error_expr(node)
        t, metas = self.instantiate(entry, node, callee)
        self._apply_type_args(node, callee, metas, type_args)
        if not isinstance(t, TFun):
            self.error(node, f"「{callee}」不是函数，不能应用", NOT_A_FUNCTION, 名字=callee)
            return self._error_call(node, args, env)
        if not self._arity(node, callee, t.params, args, env):
            for m in metas:
                m.ref = ERROR
            return _error_expr(node)
        out, mixed = [], None
        settled = len(self.diags)
        held = self._hold_bounds(metas[0]) if callee in MIXES_MATRIX else None
        for p, a in zip(t.params, args):
            if held is not None and len(out) == 1:
                if matrix_parts(self.reduce(out[0].type)) is None:
                    self._bound_again(metas[0], held, out[0], args[0])
                    held = None
            if isinstance(resolve(p), TFun):
                out.append(self._function_argument(a, resolve(p), env))
            elif len(self.diags) > settled:  # after one wrong argument the rest add no messages
                out.append(self.check(a, None, env))
            elif callee == "写纹素" and len(out) == 2:
                out.append(self._texel_value(a, self.reduce(p), out[0], env))
            elif callee in MIXES_SCALAR and len(out) == 1:
                mixed = self._mixed_operands(out, a, self.reduce(p), env, callee)
            else:
                out.append(self.check(a, self.reduce(p), env))
        if len(self.diags) > settled:   # nor does an implicit parameter only the rest would have fixed
            for m in metas:
                if isinstance(resolve(m), TMeta):
                    resolve(m).ref = ERROR
        result = self._result(node, mixed or self.reduce(t.result), expected)
        call = ir.Call(node.start, node.end, result, "builtin", callee, out,
                       type_args={v.name: m for v, m in zip(entry.type_params, metas)},
                       name_start=name_span[0], name_end=name_span[1])
        rule = CALL_RULES.get(callee)
        if rule is not None:
            getattr(self, rule)(callee, out, name_span)
        if callee in WHOLE_VALUE and out:
            self._whole_value(callee, out[0], name_span)
        if callee == "位转换":          # its target type may come from the context: checked in finish
            self._bitcasts.append(call)
        return call

    def _hold_bounds(self, meta: TMeta) -> tuple[str, ...]:
        """加 减 乘's 「数」 waits until the left operand is known: a float matrix does not satisfy it."""
        held, meta.bounds = meta.bounds, ()
        return held

    def _bound_again(self, meta: TMeta, held: tuple[str, ...], left: ir.Expr, arg: ast.Expr) -> None:
        """The held bound on a left operand that is no matrix, as binding it would have checked it."""
        meta.bounds = held
        t = self.reduce(meta)
        if isinstance(t, TError):     # already reported where it arose
            return
        if isinstance(t, TMeta):
            t.bounds = tuple(dict.fromkeys(t.bounds + held))
            return
        for bound in held:
            ok = satisfies(t, bound)
            if ok is False:
                self.error(_strip_parens(arg), self._bound_message(t, bound, meta.hint), CLASS_BOUND)
                left.type = ERROR
                meta.ref = ERROR
                return
            if ok is None:
                self._bound_checks.append((t, bound, arg, meta.hint))

    def _matrix_operands(self, callee: str, out: list[ir.Expr], left: ir.Expr, right: ir.Expr) -> Type | None:
        """WGSL's matrix arithmetic: a float matrix 加 减 a matrix of its shape,
        乘 a scalar of its component (either side: the scalar is splat into
        every column, ir.Splat of an ir.Splat); two matrices are never 乘 (that
        is 「矩阵乘」).  None when neither operand is a matrix or they do not fit."""
        types = self.reduce(left.type), self.reduce(right.type)
        shapes = [matrix_parts(t) for t in types]
        if shapes == [None, None]:
            return None
        if None not in shapes:
            if callee == "乘":
                self.error(right, "「乘」不让两个矩阵相乘：矩阵的积用「矩阵乘」", TYPE_MISMATCH,
                           应为="标量", 实为=self.show(types[1]))
                right.type = ERROR
                return ERROR
            return types[0] if resolve(types[0]) == resolve(types[1]) else None
        matrix = 0 if shapes[0] is not None else 1
        scalar = (left, right)[1 - matrix]
        if callee != "乘" or not is_scalar(scalar.type, include_literals=False) or \
                resolve(scalar.type) != resolve(shapes[matrix][0]):
            return None
        matrix_type = types[matrix]
        column = ir.Splat(scalar.start, scalar.end, resolve(matrix_type).items[0], scalar)
        splat = ir.Splat(scalar.start, scalar.end, matrix_type, column)
        out[:] = [left, splat] if matrix == 0 else [splat, right]
        return matrix_type

    def _mixed_operands(self, out: list[ir.Expr], arg: ast.Expr, wanted: Type, env, callee: str) -> Type | None:
        """The right operand of 加 减 乘 除 余, checked on its own: a scalar
        beside a vector of that scalar (or a vector beside such a scalar) is
        splat (ir.Splat), and the vector type is the result's; a float matrix
        meets what `_matrix_operands` allows; otherwise it must have the left
        operand's type, as without mixing."""
        value = self.check(arg, None, env)
        left, right = out[0], value
        if callee in MIXES_MATRIX:
            matrix = self._matrix_operands(callee, out, left, right)
            if matrix is not None:
                if len(out) == 1:
                    out.append(value)
                return matrix
        for vector, scalar in ((left, right), (right, left)):
            vector_type = self.reduce(vector.type)
            parts = vector_parts(vector_type)
            if parts is not None and is_scalar(scalar.type, include_literals=False) and \
                    resolve(scalar.type) == resolve(parts[0]):
                splat = ir.Splat(scalar.start, scalar.end, vector_type, scalar)
                out[:] = [splat, value] if scalar is left else [left, splat]
                return vector_type
        out.append(value)
        if not self.unify(wanted, value.type, arg):
            self.mismatch(_strip_parens(arg), wanted, value.type)   # where `check` would say it
            value.type = ERROR
        return None

    def _whole_value(self, callee: str, buffer: ir.Expr, name_span) -> None:
        """WGSL cannot hold a runtime-sized array as a value, so a buffer whose
        type has one inside (a header before a 「数组」) is never read or
        written whole (`let h = 缓冲;` is no valid WGSL)."""
        t = resolve(buffer.type)
        if isinstance(t, TCon) and t.args and holds_runtime_array(t.args[0]):
            self.error(name_span, f"「{callee}」不能整体读写{self.show(t.args[0])}：它含运行期数组（「数组」），"
                                  "目标语言不能把它当作一个值；头部字段用「读存储」于（缓冲 中「字段」）一个一个读写，数组用「读数组」于（缓冲 中「数组字段」）",
                       NOT_TRANSLATABLE)

    def _select_shape(self, callee: str, args: list[ir.Expr], name_span) -> None:
        """WGSL's select: a 爻 condition, or a 爻 vector as long as the values."""
        value, cond = resolve(args[0].type), resolve(args[2].type)
        if isinstance(cond, TTuple) and not (isinstance(value, TTuple) and len(value.items) == len(cond.items)):
            self.error(args[2], f"「选择」的条件应为「爻」或与值同样长的爻向量，这里值是{self.show(value)}，"
                                f"条件是{self.show(cond)}", TYPE_MISMATCH)

    def _bitcast_sizes(self, call: ir.Call) -> None:
        """位转换 keeps the bits, so both sides must have as many (WGSL's bitcast)."""
        source, target = bit_size(call.args[0].type), bit_size(call.type)
        if source is not None and target is not None and source != target:
            self.error((call.name_start, call.name_end),
                       f"「位转换」两边的位数须相同：{self.show(call.args[0].type)}是 {source} 位，"
                       f"{self.show(call.type)}是 {target} 位", BAD_VALUE)

    def _fragment_offsets(self, callee: str, args: list[ir.Expr], name_span) -> None:
        """A constant 起 or 步 of a fragment load or store that is not a multiple of 8 (16 for s8 loads)."""
        multiple = 16 if callee in INTEGER_FRAGMENT_LOADS else 8
        for what, arg in zip(("起", "步"), args[1:3]):
            value = written_number(arg)
            if isinstance(value, int) and value % multiple:
                self.error(arg, f"「{callee}」的{what}须是 {multiple} 的倍数（按元素计，着十二），这里是 {value}",
                           LITERAL_RANGE, 名字=callee, 值=str(value))

    def _quad_lane(self, callee: str, args: list[ir.Expr], name_span) -> None:
        """WGSL's quadBroadcast takes its lane as a const-expression: a written number 0 to 3."""
        value = written_number(args[1])
        if not (isinstance(value, int) and 0 <= value <= 3):
            shown = "不是写出的数" if value is None else f"是 {value}"
            self.error(args[1], f"「{callee}」的序须写成 0 至 3 的「无三二」字面量（WGSL 要常量），这里{shown}",
                       LITERAL_RANGE, 名字=callee, 值=str(value))

    def _texture_constants(self, callee: str, args: list[ir.Expr], name_span) -> None:
        """A gather's component (0 to 3) and a texel offset (each component −8 to 7) are
        const-expressions in WGSL: here they are numbers written at the call, which every
        target can write as they are."""
        if callee in GATHER_COMPONENT:
            value = written_number(args[0])
            if not (isinstance(value, int) and 0 <= value <= 3):
                self.error(args[0], f"「{callee}」的分量须是直接写出的 0 至 3（x、y、z、w），"
                                    f"这里是{'「' + str(value) + '」' if value is not None else '算出来的值'}",
                           TEXTURE_CONSTANT, 名字=callee, 值="" if value is None else str(value))
        if not callee.startswith("偏移"):
            return
        offset = args[-1]
        items = offset.items if isinstance(offset, ir.MakeTuple) else [offset]
        values = [_signed_number(i) for i in items]
        if not isinstance(offset, ir.MakeTuple) or not all(isinstance(v, int) and v in TEXEL_OFFSETS for v in values):
            shown = "、".join("算出来的值" if v is None else str(v) for v in values)
            self.error(offset, f"「{callee}」的偏移须是直接写出的整数，每个分量在 −8 至 7 之间"
                               f"（如（「新整三二」于「一」与 负（「新整三二」于「二」））），这里是 {shown}",
                       TEXTURE_CONSTANT, 名字=callee, 值=shown)

    def _writable(self, callee: str, args: list[ir.Expr], name_span) -> None:
        """A builtin that writes memory needs a buffer declared 读写."""
        target = ir.buffer_root(args[0])
        if isinstance(target, ir.GlobalRef):
            entry = self.scope.value(target.name)
            if entry is not None and entry.access == "只读":
                self.error(name_span, f"「{target.name}」是只读存储缓冲，不能「{callee}」：把它的访问方式改为「读写」", READ_ONLY,
                           缓冲=target.name, 函数=callee)

    def _texel_value(self, arg: ast.Expr, wanted, texture: ir.Expr, env) -> ir.Expr:
        """「写纹素」's value: one message naming the texture's format rather than one per component."""
        value = self.check(arg, None, env)
        actual = self.show(value.type)
        fmt = resolve(texture.type)
        if not self.unify(wanted, value.type, arg) and isinstance(fmt, TCon) and fmt.args:
            name, shown = resolve(fmt.args[0]).name, self.show(wanted)
            self.error(arg, f"「写纹素」写进「{name}」格式的存储纹理的值须是{shown}，实为{actual}", TEXEL_VALUE,
                       格式=name, 应为=shown, 实为=actual)
        return value

    def _wrong_resource(self, callee: str, arg: ast.Expr, env: dict) -> bool:
        """A resource of another kind than the builtin works on: say which builtin fits."""
        arg = _strip_parens(arg)
        entry = self.scope.value(arg.name) if isinstance(arg, ast.Name) and arg.name not in env else None
        if entry is None or entry.kind != "resource":
            return False
        kind = resolve(entry.type).name
        if kind in TEXTURES and TEXTURES[kind].access == "write" and callee in TEXTURE_READS:
            self.error(arg, f"「{arg.name}」是只写的存储纹理，不能「{callee}」：只写的存储纹理只能「写纹素」与「纹理尺寸」；"
                            f"要读就声明为「读写{kind}」或「只读{kind}」，或另绑一个纹理", WRITE_ONLY_TEXTURE,
                       资源=arg.name, 函数=callee)
            return True
        hint = RESOURCE_HINTS.get((callee, kind))
        if hint is None:
            return False
        self.error(arg, f"「{arg.name}」是「{kind}」，「{callee}」不能用在它上面：{hint}", WRONG_RESOURCE,
                   资源=arg.name, 种类=kind, 函数=callee)
        return True

    def _function_argument(self, arg: ast.Expr, param: TFun, env) -> ir.Expr:
        """The function argument of an entry constructor: a top-level function name."""
        arg = _strip_parens(arg)
        entry = self.scope.value(arg.name) if isinstance(arg, ast.Name) and arg.name not in env else None
        if entry is None or entry.kind != "function":
            if isinstance(arg, ast.Name) and entry is None and arg.name not in env:
                self.error(arg, f"未知的名字「{arg.name}」{self._suggest(arg.name)}：此处应为顶层函数的名字", UNKNOWN_NAME,
                           名字=arg.name, 应为="顶层函数", **self._guess(arg.name))
            else:
                self.error(arg, "此处应为顶层函数的名字", FUNCTION_EXPECTED)
            _poison(param)
            return _error_expr(arg)
        ft = resolve(entry.type)
        if isinstance(ft, TFun):
            self.unify(param.params[0], ft.params[0], arg)
            if not self.unify(param.result, ft.result, arg):
                self.error(arg, f"函数「{arg.name}」的返回类型应为{self.show(param.result)}，实为{self.show(ft.result)}",
                           TYPE_MISMATCH)
        self.calls.add(arg.name)
        return ir.GlobalRef(arg.start, arg.end, entry.type, entry.module, arg.name)

    def _apply_type_args(self, node, callee, metas, type_args) -> None:
        for i, targ in enumerate(type_args):
            if i >= len(metas):
                self.error(targ, f"「{callee}」没有更多的隐式类型参数可由 以 给出", TYPE_ARGUMENTS, 名字=callee)
                return
            t = self.types.resolve(targ)
            if not self.unify(metas[i], t, targ):
                self.mismatch(targ, metas[i], t)

    def _literal_range(self, callee: str, args: list[ir.Expr], name_span) -> None:
        """A typed literal (「新无三二」于「三」) must fit its type."""
        arg = args[0]
        value = ir.literal_value(arg) if not isinstance(resolve(arg.type), TError) else None
        if value is None:
            return
        kind, width = LITERAL_CONSTRUCTORS[callee]
        if kind != "float" and isinstance(value, float):
            self.error(arg, f"「{callee}」的字面量须是整数，这里是 {value}", LITERAL_RANGE, 名字=callee, 值=str(value))
            return
        limit = LITERAL_LIMITS[(kind, width)]
        if kind == "float":
            shown, overflow = limit
            if abs(value) >= overflow:
                self.error(arg, f"字面量 {value} 超出「{callee}」的范围（绝对值至多 {shown}）", LITERAL_RANGE, 名字=callee, 值=str(value))
        elif not limit[0] <= value <= limit[1]:
            shown = value if abs(value) < 10 ** 40 else "（超过四十位的整数）"
            self.error(arg, f"字面量 {shown} 超出「{callee}」的范围（{limit[0]} 至 {limit[1]}）",
                       LITERAL_RANGE, 名字=callee, 值=str(shown))

    def _function_call(self, node, callee, entry, args, type_args, expected, env, name_span):
        t = resolve(self.instantiate(entry, node, callee)[0] if entry.type_params else entry.type)
        if type_args:
            self.error(type_args[0], f"「{callee}」没有隐式类型参数，不能用 以", TYPE_ARGUMENTS, 名字=callee)
        if callee == self.function:
            self.error(name_span, f"顶层函数「{callee}」不能调用自身（着四.6）：改写成局部尾递归函数", RECURSION, 名字=callee)
        self.calls.add(callee)
        if not isinstance(t, TFun) or not self._arity(node, callee, t.params, args, env):
            return _error_expr(node)
        out = self._check_args(t.params, args, env)
        return ir.Call(node.start, node.end, self._result(node, t.result, expected), "function", callee, out,
                       module=entry.module, name_start=name_span[0], name_end=name_span[1])

    def _result(self, node, result, expected):
        """A call's type, checked against what the context expects."""
        if expected is not None and not self.unify(expected, result, node):
            self.mismatch(node, expected, result)
            return ERROR
        return result

    def _local_call(self, node, head, pending: _PendingFun, args, type_args, expected, env, tail):
        fun = pending.fun
        if type_args:
            self.error(type_args[0], f"局部函数「{fun.name}」没有隐式类型参数，不能用 以", TYPE_ARGUMENTS, 名字=fun.name)
        if pending.state == "checking":
            fun.recursive = True
            if tail is not fun:
                self.error(head, f"局部函数「{fun.name}」递归调用自己只能在尾位置（着五）：这里的结果还要再用", RECURSION, 名字=fun.name)
        if not self._arity(node, fun.name, fun.params, args, env):
            pending.misused = True
            return _error_expr(node)
        out = self._check_args([p.type for p in fun.params], args, env)
        if pending.state == "pending":
            self._check_local_body(pending)
        return ir.Call(node.start, node.end, self._result(node, fun.result, expected), "local", fun.name, out,
                       local=fun, name_start=head.start, name_end=head.end)


_PROPAGATING = (ast.Paren, ast.Tuple, ast.Record, ast.If, ast.Sequence, ast.Let, ast.Ascribe,
                ast.Apply, ast.TypeArg, ast.Operator)


def _literal_text(node) -> str | None:
    """How a bare number is written (「二」, 0x1F), or None for any other expression."""
    if isinstance(node, ast.Number):
        return node.text
    if isinstance(node, ast.Name) and number_value(node.name) is not None:
        return node.name
    return None


def _bare_literal(node):
    """The bare number that made `node` an abstract number: itself, or an
    operand of the operator it is; None when there is none to wrap."""
    if _literal_text(node) is not None:
        return node
    if isinstance(node, ast.Operator):
        return next((o for o in node.operands if _literal_text(o) is not None), None)
    return None


def _same_shape(a, b) -> bool:
    """Both scalars, or vectors of as many components (what 「转换」 can convert between)."""
    pa, pb = vector_parts(a), vector_parts(b)
    return (pa is None) == (pb is None) and (pa is None or pa[1] == pb[1])


def _numeric(t) -> bool:
    """A numeric scalar or a vector of one (where 「转换」 helps)."""
    parts = vector_parts(t)
    scalar = parts[0] if parts else t
    return is_scalar(scalar) and resolve(scalar) != BOOL


def _closest_name(name: str, candidates) -> str | None:
    """The candidate most like name (ties: the earlier one), if any is close."""
    best = ranked(name, ((n, 0) for n in candidates))
    return best[0] if best else None


def _closest(name: str, candidates) -> str:
    best = _closest_name(name, candidates)
    return f"；是不是「{best}」？" if best else ""


def _poison(t) -> None:
    """Settle every unsolved variable in t as already reported."""
    t = resolve(t)
    if isinstance(t, TMeta):
        t.ref = ERROR
    elif isinstance(t, TFun):
        for p in (*t.params, t.result):
            _poison(p)
    elif isinstance(t, (TCon, TFamily)):
        for a in t.args:
            if not isinstance(a, int):
                _poison(a)
    elif isinstance(t, TTuple):
        for a in t.items:
            _poison(a)


def _source_text(node) -> str:
    """A short rendering of a simple argument for a suggested fix."""
    if isinstance(node, ast.Number):
        return f"「{node.text}」"
    if isinstance(node, ast.Name):
        return f"「{node.name}」"
    return "…"


def _error_expr(node) -> ir.Expr:
    return ir.Literal(node.start, node.end, ERROR, 0, False, "")


def _array_of(t, length: int) -> bool:
    """Whether t is a 定长数组 of `length` elements (a tuple written where it is expected is its literal)."""
    return isinstance(t, TCon) and t.name == "定长数组" and len(t.args) == 2 and t.args[1] == length


def _strip_parens(node):
    while isinstance(node, ast.Paren):
        node = node.inner
    return node


def holds_runtime_array(t) -> bool:
    """Whether type t is or contains a runtime-sized 「数组」."""
    t = resolve(t)
    if isinstance(t, TCon):
        return t.name == "数组" or any(holds_runtime_array(a) for a in t.args if not isinstance(a, int))
    if isinstance(t, TRecord):
        return any(holds_runtime_array(ft) for _, ft in t.fields)
    if isinstance(t, TTuple):
        return any(holds_runtime_array(i) for i in t.items)
    return False


def _spine(node):
    """f 于 a 以 T 于 b → (f, [a, b], [T])."""
    args, type_args = [], []
    while isinstance(node, (ast.Apply, ast.TypeArg)):
        if isinstance(node, ast.Apply):
            args.append(node.arg)
        else:
            type_args.append(node.type)
        node = _strip_parens(node.fn)  # parentheses only group (LANGUAGE.md §5)
    args.reverse()
    type_args.reverse()
    return node, args, type_args


def _literal_constructor_for(t) -> str | None:
    t = resolve(t)
    for name, (kind, width) in LITERAL_CONSTRUCTORS.items():
        head = {"float": "定长小数", "int": "定长整数", "uint": "定长无符号"}[kind]
        if isinstance(t, TCon) and t.name == head and t.args == (width,):
            return name
    return None


def substitute(t, mapping: dict[str, Type]):
    """A scheme's body with its type variables replaced."""
    if not mapping or isinstance(t, int):
        return t
    if isinstance(t, TVar):
        return mapping.get(t.name, t)
    return map_parts(t, lambda a: substitute(a, mapping))


def _signed_number(e: ir.Expr) -> int | float | None:
    """A written number, typed or not, or 负 of one (a negative texel offset)."""
    if isinstance(e, ir.Call) and e.kind == "builtin" and e.name == "负" and len(e.args) == 1:
        inner = written_number(e.args[0])
        return None if inner is None else -inner
    return written_number(e)
