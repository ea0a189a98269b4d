"""What the code at an offset means, for the language server: the symbol a
name denotes, the typed expression or binder under a cursor, and the
signature of a local function — answered from the checker's scope and the
checked IR, so the server never resolves names by rules of its own.

Names: one walk over an item's syntax tree records each name occurrence (its
span, the symbol it denotes, whether it defines or uses it, and its semantic
class for colouring), looking every name up in the checker's `Scope` — the
same layers, in the same order, that checking used.  Go-to-definition,
references, rename, highlighting and semantic tokens all read these records.
Symbols of other modules are kept by name (module path + name), never by
position, so an occurrence list stays valid when the other file is edited.

Types: the checked IR of the item, walked with `ir.walk` (no recursion, so a
deeply nested item is fine).  All offsets here are item-relative, like the
AST's and the IR's spans, so results can be cached by the item's text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import ir
from .check.scope import Exports, Scope
from .syntax import ast
from .syntax.parser import ParsedItem, number_value
from .types import TFun, TRecord, Type, buffer_contents, resolve

#: Symbols that live inside one item (compared by their binder's offset).
ITEM_LOCAL = frozenset({"local", "param", "localfun", "typevar"})


@dataclass(frozen=True, slots=True)
class Symbol:
    """What a name denotes.  kind: local param localfun typevar (bound in the
    item, `at` = the binder's item-relative offset); value type field (by
    `path` of the defining module and `name`; a field also by its struct,
    `owner`); module (`path` = its file); package."""

    kind: str
    name: str
    path: str = ""
    owner: str = ""
    at: int = -1
    detail: str = ""   # the entry's kind: function const resource entry builtin, struct alias …


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One 「名」 in an item: the symbol it names and its role there."""

    start: int          # item-relative, the whole 「名」 token
    end: int
    symbol: Symbol | None
    role: str           # def (a binder or definition), decl (a signature), use
    token: str          # semantic token type
    qualified: bool = False  # written 「模块」之「名」 (looked up in that module only)


@dataclass
class Context:
    """What resolving one module's names needs."""

    path: str
    scope: Scope
    resolve_import: Callable[[list[str]], str | None]
    builtin_path: str


def context(ws, checked) -> Context:
    """The name-resolution context of a checked module of the workspace `ws`:
    its scope, and imports found the way the checker finds them."""
    pkg = ws.packages.package_of(checked.path)

    def resolve_import(names: list[str]) -> str | None:
        file, error = ws.packages.find_module(pkg, names)
        return None if error or file is None else ws.key(file)

    return Context(checked.path, checked.scope, resolve_import, ws.builtins().path)


class ItemIndexer:
    """Resolves the names of one item (iteratively: no recursion on depth)."""

    def __init__(self, ctx: Context, item: ParsedItem, decl: ir.Decl | None) -> None:
        self.ctx = ctx
        self.item = item
        self.spans = spans(decl)
        self.calls = call_heads(decl)
        self.out: list[Occurrence] = []

    # ------------------------------------------------------------ recording

    def add(self, start: int, end: int, symbol: Symbol | None, role: str, token: str,
            qualified: bool = False) -> None:
        self.out.append(Occurrence(start, end, symbol, role, token, qualified))

    def value_symbol(self, name: str, layer: Exports | None = None) -> Symbol | None:
        entry = (layer.values.get(name) if layer is not None else self.ctx.scope.value(name))
        if entry is None:
            return None
        return Symbol("value", name, entry.module, detail=value_detail(entry))

    def type_symbol(self, name: str) -> Symbol | None:
        entry = self.ctx.scope.type(name)
        if entry is None:
            return None
        return Symbol("type", name, entry.module, detail="struct" if entry.is_struct else entry.kind)

    def field_symbol(self, record_type, label: str) -> Symbol | None:
        t = buffer_contents(record_type) if record_type is not None else None
        if not isinstance(t, TRecord) or not t.alias or t.field_type(label) is None:
            return None
        owner = self.ctx.scope.type(t.alias)
        return Symbol("field", label, owner.module if owner else "", owner=t.alias) if owner else None

    # ------------------------------------------------------------ items

    def run(self) -> list[Occurrence]:
        node = self.item.node
        if node is None:
            self._broken_head()
        elif isinstance(node, ast.Import):
            self._import(node)
        elif isinstance(node, (ast.Signature, ast.Definition, ast.CtorDecl)):
            own = self.value_symbol(node.name, self.ctx.scope.own) or self._own_type(node.name)
            role = "def" if isinstance(node, ast.Definition) else "decl"
            self.add(node.start, node.name_end, own, role, token_of(own, "variable"))
            body = node.value if isinstance(node, ast.Definition) else node.type
            self.walk(body, {})
        elif isinstance(node, ast.TypeDef):
            own = self._own_type(node.name)
            self.add(node.start, node.name_end, own, "def", token_of(own, "type"))
            self.walk(node.type, {}, struct=node.name if isinstance(node.type, ast.TypeRecord) else None)
        elif isinstance(node, ast.BareExpr):
            self.walk(node.expr, {})
        return self.out

    def _own_type(self, name: str) -> Symbol | None:
        entry = self.ctx.scope.own.types.get(name)
        if entry is None:
            return None
        return Symbol("type", name, self.ctx.path, detail="struct" if entry.is_struct else entry.kind)

    def _broken_head(self) -> None:
        """A definition that did not parse still names what it defines."""
        item = self.item
        if not item.name:
            return
        own = (self._own_type(item.name) if item.kind == "即"
               else self.value_symbol(item.name, self.ctx.scope.own))
        self.add(0, item.name_end, own, "def" if item.kind != "乃" else "decl", token_of(own, "variable"))

    def _import(self, node: ast.Import) -> None:
        names = [n.name for n in node.path]
        for i, n in enumerate(node.path):
            if i == 0:
                symbol = Symbol("package", n.name)
            elif i == len(node.path) - 1:
                target = self.ctx.resolve_import(names)
                symbol = Symbol("module", n.name, target) if target else None
            else:
                symbol = None
            self.add(n.start, n.end, symbol, "use", "namespace")

    # ------------------------------------------------------------ trees

    def walk(self, root, env: dict[str, Symbol], struct: str | None = None) -> None:
        """Visit a tree (expression or type) with the names bound around it."""
        stack: list[tuple[object, dict[str, Symbol]]] = [(root, env)]
        while stack:
            node, env = stack.pop()
            if node is None:
                continue
            visit = getattr(self, "_" + type(node).__name__, None)
            children = visit(node, env, struct) if visit else [(c, env) for c in ast.children(node)]
            stack.extend(reversed(children))

    # expressions

    def _Name(self, node: ast.Name, env, struct):
        symbol = self.checked_symbol(node, env)
        if symbol is None:
            symbol = env.get(node.name) or self.value_symbol(node.name) or self.type_symbol(node.name)
        self.add(node.start, node.end, symbol, "use", token_of(symbol, "variable"))
        return []

    def checked_symbol(self, node: ast.Name, env) -> Symbol | None:
        """What the checker resolved the name to, where the checked IR records
        it (a local, a top-level constant or resource, a called function):
        the checker's answer, never a second lookup that could disagree."""
        e = self.spans.get((node.start, node.end))
        if isinstance(e, ir.LocalRef):
            return self._binder(env, node.name, e.var.start, "local")
        if isinstance(e, ir.GlobalRef) and e.name == node.name:
            return self._global(node.name, e.module)
        call = self.calls.get((node.start, node.end))
        if call is None or call.name != node.name:
            return None
        if call.kind == "local" and call.local is not None:
            return self._binder(env, node.name, call.local.start, "localfun")
        if call.kind == "builtin" and self.ctx.scope.builtins is not None:
            return self.value_symbol(node.name, self.ctx.scope.builtins)
        return self._global(node.name, call.module) if call.kind == "function" else None

    @staticmethod
    def _binder(env, name: str, at: int, kind: str) -> Symbol:
        return next((b for b in env.values() if b.at == at and b.name == name), None) or Symbol(kind, name, at=at)

    def _global(self, name: str, module: str) -> Symbol | None:
        """The value `name` of the module at path `module`, through the layer that holds it."""
        layer = next((x for x in self.ctx.scope.layers
                      if x.values.get(name) is not None and x.values[name].module == module), None)
        return self.value_symbol(name, layer) if layer is not None else None

    def _Number(self, node, env, struct):
        self.add(node.start, node.end, None, "use", "number")
        return []

    def _String(self, node, env, struct):
        self.add(node.start, node.end, None, "use", "string")
        return []

    def _Qualified(self, node: ast.Qualified, env, struct):
        module = self.ctx.scope.modules.get(node.module)
        msym = Symbol("module", node.module, module.path) if module is not None else None
        self.add(node.start, node.module_end, msym, "use", "namespace")
        symbol = self.value_symbol(node.name, module) if module is not None else None
        self.add(node.name_start, node.end, symbol, "use", token_of(symbol, "variable"), qualified=True)
        return []

    def _Project(self, node: ast.Project, env, struct):
        if number_value(node.label) is not None:
            self.add(node.label_start, node.end, None, "use", "number")
        else:
            projected = self.spans.get((node.start, node.end))
            base = projected.base.type if isinstance(projected, ir.Project) else None
            symbol = self.field_symbol(base, node.label)
            self.add(node.label_start, node.end, symbol, "use", "property")
        return [(node.base, env)]

    def _Operator(self, node: ast.Operator, env, struct):
        entry = self.ctx.scope.builtin_value(node.op)
        symbol = Symbol("value", node.op, entry.module, detail=value_detail(entry)) if entry else None
        self.add(node.op_start, node.op_start + len(node.op), symbol, "use", "operator")
        return [(o, env) for o in node.operands]

    def _Record(self, node: ast.Record, env, struct):
        head_end = node.start + len(node.head) + 2
        head = self.type_symbol(node.head) or self.value_symbol(node.head)
        self.add(node.start, head_end, head, "use", token_of(head, "type"))
        made = self.spans.get((node.start, node.end))
        record_type = made.type if isinstance(made, ir.MakeRecord) else None
        out = []
        for f in node.fields:
            symbol = self.field_symbol(record_type, f.name)
            self.add(f.start, f.name_end, symbol, "def", "property")
            out.append((f.value, env))
        return out

    def _Let(self, node: ast.Let, env, struct):
        is_fun = isinstance(node.value, ast.Lambda)
        binder = Symbol("localfun" if is_fun else "local", node.name, at=node.name_start)
        self.add(node.name_start, node.name_end, binder, "def", token_of(binder, "variable"))
        inner = {**env, node.name: binder}
        return [(node.value, inner if is_fun else env), (node.body, inner)]

    def _Lambda(self, node: ast.Lambda, env, struct):
        inner = dict(env)
        for p in node.params:
            binder = Symbol("param", p.name, at=p.start)
            self.add(p.start, p.end, binder, "def", "parameter")
            inner[p.name] = binder
        return [(node.body, inner)]

    def _TypeArg(self, node: ast.TypeArg, env, struct):
        return [(node.fn, env), (node.type, env)]

    def _Ascribe(self, node: ast.Ascribe, env, struct):
        return [(node.expr, env), (node.type, env)]

    # types

    def _TypeName(self, node: ast.TypeName, env, struct):
        local = env.get(node.name)
        symbol = local if local is not None and local.kind == "typevar" else self.type_symbol(node.name)
        self.add(node.start, node.end, symbol, "use", token_of(symbol, "type"))
        return []

    def _TypeIndex(self, node, env, struct):
        self.add(node.start, node.end, None, "use", "number")
        return []

    def _TypeForall(self, node: ast.TypeForall, env, struct):
        binder = Symbol("typevar", node.var.split("：")[0], at=node.var_start)
        self.add(node.var_start, node.var_end, binder, "def", "typeParameter")
        return [(node.body, {**env, binder.name: binder})]

    def _TypeRecord(self, node: ast.TypeRecord, env, struct):
        head = self.type_symbol(node.head)
        self.add(node.start, node.start + len(node.head) + 2, head, "use", token_of(head, "type"))
        out = []
        for f in node.fields:
            symbol = Symbol("field", f.name, self.ctx.path, owner=struct) if struct else None
            self.add(f.start, f.name_end, symbol, "def", "property")
            out.append((f.value, env))
        return out


#: semantic token type by symbol kind, and by the entry kind of values and types
_TOKEN_BY_KIND = {"local": "variable", "param": "parameter", "localfun": "function",
                  "typevar": "typeParameter", "field": "property", "module": "namespace",
                  "package": "namespace"}
_TOKEN_BY_DETAIL = {"function": "function", "builtin": "function", "builtin-value": "variable",
                    "const": "variable", "resource": "variable", "entry": "variable", "struct": "struct",
                    "alias": "type", "constructor": "type", "family": "type", "intrinsic": "type"}


def value_detail(entry) -> str:
    """A value entry's kind, telling builtin functions from builtin constants."""
    if entry.kind == "builtin" and not isinstance(resolve(entry.type), TFun):
        return "builtin-value"
    return entry.kind


def token_of(symbol: Symbol | None, fallback: str) -> str:
    if symbol is None:
        return fallback
    if symbol.kind in _TOKEN_BY_KIND:
        return _TOKEN_BY_KIND[symbol.kind]
    return _TOKEN_BY_DETAIL.get(symbol.detail, fallback)


def index_item(ctx: Context, item: ParsedItem, decl: ir.Decl | None) -> list[Occurrence]:
    return ItemIndexer(ctx, item, decl).run()


@dataclass(frozen=True, slots=True)
class BareName:
    """A name written without a module (looked up through the local names,
    then the module's scope), with the local names bound around it."""

    name: str
    start: int          # item-relative, the whole 「名」 token
    end: int
    env: dict           # name -> Symbol of the enclosing binders (typevars for a type)
    is_type: bool


class _ScopeProbe(ItemIndexer):
    """The indexer's walk, keeping the bound names around each bare name."""

    def __init__(self, ctx: Context, item: ParsedItem, decl: ir.Decl | None) -> None:
        super().__init__(ctx, item, decl)
        self.names: list[BareName] = []

    def _Name(self, node: ast.Name, env, struct):
        self.names.append(BareName(node.name, node.start, node.end, env, False))
        return super()._Name(node, env, struct)

    def _TypeName(self, node: ast.TypeName, env, struct):
        self.names.append(BareName(node.name, node.start, node.end, env, True))
        return super()._TypeName(node, env, struct)


def bare_names(ctx: Context, item: ParsedItem, decl: ir.Decl | None) -> list[BareName]:
    """Every bare name of an item (value or type position) with its local scope."""
    probe = _ScopeProbe(ctx, item, decl)
    probe.run()
    return probe.names


# ---------------------------------------------------------------- the checked IR


def decl_root(decl: ir.Decl | None) -> ir.Expr | None:
    """The expression a declaration carries (a function body, a constant's
    value, the checked constructor call of a resource or an entry)."""
    if isinstance(decl, ir.Function):
        return decl.body
    if isinstance(decl, (ir.Const, ir.Resource, ir.Entry)):
        return decl.value
    return None


def walk(root: ir.Expr | None):
    """Every expression under `root`, parents before children (none for no root)."""
    return ir.walk(root) if root is not None else iter(())


def expression_at(decl: ir.Decl | None, offset: int) -> ir.Expr | None:
    """The smallest expression whose span holds the item-relative `offset`."""
    best = None
    for e in walk(decl_root(decl)):
        if e.start <= offset < e.end and (best is None or e.end - e.start <= best.end - best.start):
            best = e
    return best


def spans(decl: ir.Decl | None) -> dict[tuple[int, int], ir.Expr]:
    """Expressions by span; where spans coincide the outermost is kept
    (so a projection's span finds the projection, not its base)."""
    out: dict[tuple[int, int], ir.Expr] = {}
    for e in walk(decl_root(decl)):
        out.setdefault((e.start, e.end), e)
    return out


def call_heads(decl: ir.Decl | None) -> dict[tuple[int, int], ir.Call]:
    """The item's calls by the span of the name they call."""
    return {(e.name_start, e.name_end): e for e in walk(decl_root(decl)) if isinstance(e, ir.Call) and e.name_end}


def binder_types(decl: ir.Decl | None) -> dict[tuple[int, int], Type]:
    """The type of every name the item binds, by the binder's span."""
    out: dict[tuple[int, int], Type] = {}
    if isinstance(decl, ir.Function):
        for p in decl.params:
            out[(p.start, p.end)] = p.type
    for e in walk(decl_root(decl)):
        if isinstance(e, ir.Let):
            out[(e.var.start, e.var.end)] = e.var.type
        elif isinstance(e, ir.LetFun):
            fun = e.fun
            out[(fun.start, fun.end)] = TFun(tuple(p.type for p in fun.params), fun.result)
            for p in fun.params:
                out[(p.start, p.end)] = p.type
    return out


def local_functions(decl: ir.Decl | None) -> dict[tuple[int, int], ir.LocalFun]:
    return {(e.fun.start, e.fun.end): e.fun for e in walk(decl_root(decl)) if isinstance(e, ir.LetFun)}


# ---------------------------------------------------------------- at an offset


def occurrence_at(occurrences: list[Occurrence], offset: int) -> Occurrence | None:
    """The name occurrence whose span holds the item-relative `offset`."""
    return next((o for o in occurrences if o.start <= offset < o.end), None)


def local_type(decl: ir.Decl | None, occ: Occurrence) -> Type | None:
    """The checked type of the item-local name at `occ`: its binder's type, or
    (a use the binder's table lacks) the type of the expression it spans."""
    symbol = occ.symbol
    if symbol is None or symbol.kind not in ITEM_LOCAL:
        return None
    t = binder_types(decl).get((symbol.at, symbol.at + len(symbol.name) + 2))
    if t is None and occ.role == "use":
        e = spans(decl).get((occ.start, occ.end))
        t = e.type if e is not None else None
    return t


def local_function_before(decl: ir.Decl | None, name: str, offset: int) -> ir.LocalFun | None:
    """The item's local function of that name bound before the item-relative
    `offset` (what a call being typed there can mean), for signature help."""
    return next((f for f in local_functions(decl).values() if f.name == name and f.start < offset), None)


def function_entry(scope: Scope, module: str | None, name: str):
    """The scope entry a call head denotes (「模块」之「名」 when `module` is
    given) when it is a function, else None: the checker's own lookup."""
    layer = scope.modules.get(module) if module else None
    entry = layer.values.get(name) if layer else (None if module else scope.value(name))
    return entry if entry is not None and isinstance(resolve(entry.type), TFun) else None
