"""Checking one module: its interface (types and signatures), then each
definition item, classified by seed 着四.

The interface is rebuilt on every check (it is cheap); each definition's
check is cached by (module, item text, interface fingerprint), so editing one
function body re-checks that item only.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

from .. import ir
from ..builtin.io import BUILTIN_IO, located_fields
from ..diagnostics import (CONST_EXPR, CYCLE, DUPLICATE, ENTRY, INTERFACE_ONLY_KIND, LITERAL_TYPE_SIGNATURE,
                           NOT_TRANSLATABLE, NUMERAL_NAME, RECURSION, RESOURCE, TOO_DEEP, TOP_LEVEL,
                           Diagnostic, LocalDiagnostic)
from ..syntax import ast
from ..source import SourceFile
from ..syntax.parser import ParsedFile, ParsedItem, evict_oldest, number_value
from ..types import (BOOL, ERROR, FLOAT_LIT, INT_LIT, UNIT, Printer, TCon, TError, TFun, TRecord, TTuple, Type,
                     deep_resolve, resolve, vector_parts, is_scalar)
from ..builtin.textures import TEXTURES
from ..valid import registry
from .classes import FAMILIES
from .nesting import MESSAGE as NESTING_MESSAGE, too_deep
from .expressions import ENTRY_CONSTRUCTORS, RESOURCE_CONSTRUCTORS, ItemChecker, holds_runtime_array
from .scope import Exports, Scope, TypeEntry, ValueEntry
from ..valid.entries import MAX_WORKGROUP, MAX_WORKGROUP_Z
from .typeexpr import TypeResolver, intrinsic_name, renamed

RESOURCE_TYPES = {"存储缓冲": "storage", "均匀缓冲": "uniform", "工作组变量": "workgroup",
                  "采样器": "sampler", "比较采样器": "comparison_sampler",
                  **{name: shape.kind for name, shape in TEXTURES.items()}}
ENTRY_TYPES = {"计算入口": "计算", "顶点入口": "顶点", "片元入口": "片元"}
#: the largest 组 and 号 of a resource: WebGPU guarantees 4 bind groups of 1000 bindings each
BINDING_LIMITS = {"组": 3, "号": 999}


@dataclass(eq=False)
class ItemResult:
    """What checking one definition item produced (cached)."""

    decl: ir.Decl | None
    diagnostics: list[LocalDiagnostic]
    value_type: Type | None = None     # the inferred type of an unsigned constant


@dataclass(eq=False)
class CheckedModule:
    """A module checked: its IR, interface, diagnostics and each item's result."""

    path: str
    module: ir.Module
    exports: Exports
    diagnostics: list[Diagnostic]
    parsed: ParsedFile | None = None
    results: list[ItemResult | None] = field(default_factory=list)   # one per parsed item
    scope: Scope | None = None

    @property
    def items(self) -> list[tuple[ParsedItem, ItemResult | None]]:
        """Each item placed in the file, with its result."""
        return list(zip(self.parsed.items, self.results)) if self.parsed is not None else []


class CheckCache:
    """Item results keyed by (module path, item text, interface fingerprint),
    and resolved signatures keyed by (module path, item text, types in scope)."""

    def __init__(self) -> None:
        self.results: dict[tuple[str, str, str], ItemResult] = {}
        self.signatures: dict[tuple, tuple] = {}
        self.item_checks = 0

    LIMIT = 40_000      # entries of each table; the least recently used half goes when full

    def signature(self, key, compute) -> tuple:
        hit = self.signatures.pop(key, None)
        if hit is None:
            hit = compute()
            evict_oldest(self.signatures, self.LIMIT)
        self.signatures[key] = hit
        return hit

    def get(self, key, compute) -> ItemResult:
        hit = self.results.pop(key, None)
        if hit is None:
            self.item_checks += 1
            hit = compute()
            evict_oldest(self.results, self.LIMIT)
        self.results[key] = hit
        return hit


@dataclass
class ModuleInput:
    """Everything one module's check reads: its parse, its imports' interfaces, the builtins."""

    path: str
    name: str
    package: str
    is_interface: bool
    parsed: ParsedFile
    opened: list[Exports]
    qualified: dict[str, Exports]
    builtins: Exports | None
    import_diagnostics: list[Diagnostic] = field(default_factory=list)
    import_paths: list[str] = field(default_factory=list)
    source: SourceFile | None = None


def type_names(builtins: Exports | None) -> dict:
    """Builtin alias names by type, so unnamed types print as 「三维无」."""
    names = {}
    if builtins is None:
        return names
    for name, entry in builtins.types.items():
        if entry.kind == "alias" and entry.type is not None and name not in BUILTIN_IO and name != "片元颜色":
            try:
                names.setdefault(entry.type.named(None), name)
            except TypeError:
                pass
    return names


class ModuleChecker:
    def __init__(self, inp: ModuleInput, cache: CheckCache, printer: Printer) -> None:
        self.inp = inp
        self.cache = cache
        self.show = printer
        self.path = inp.path
        self.exports = Exports(inp.path, inp.name)
        self.scope = Scope(self.exports, inp.opened, inp.qualified, inp.builtins)
        self.diags: list[Diagnostic] = list(inp.import_diagnostics)
        self.sigs: dict[str, ParsedItem] = {}
        self.defs: dict[str, ParsedItem] = {}
        self.typedefs: dict[str, ParsedItem] = {}
        self.broken_defs: set[str] = set()  # definitions that did not parse
        self.broken_sigs: set[str] = set()  # signatures that did not parse
        self.results: dict[int, ItemResult] = {}

    # ------------------------------------------------------------ helpers

    def report(self, item: ParsedItem, start: int, end: int, message: str, code: str, **fields: str) -> None:
        self.diags.append(Diagnostic(self.path, item.start + start, item.start + end, message, item.name, code=code,
                                     fields=fields))

    def _item_reporter(self, item: ParsedItem):
        def report(node, message: str, code: str, **fields: str) -> None:
            start, end = (node.start, node.end) if not isinstance(node, tuple) else node
            self.report(item, start, end, message, code, **fields)
        return report

    # ------------------------------------------------------------ main

    def run(self) -> CheckedModule:
        items = self.inp.parsed.items
        self._collect(items)
        self._declare_constructors()
        self._declare_broken(items, types=True)     # before the signatures that use them
        self._declare_typedefs()
        self._declare_signatures()
        self._declare_broken(items, types=False)
        fingerprint = self._check_unsigned()
        self.exports.fingerprint = fingerprint
        for item in items:
            node = item.node
            if isinstance(node, ast.Definition) and node.name in self.sigs and self.defs.get(node.name) is item \
                    and id(item) not in self.results:
                self.results[id(item)] = self._cached(item, fingerprint, lambda it=item: self._check_signed(it))
        self._module_rules(items)
        module = ir.Module(self.path, self.inp.name, self.inp.package, self.inp.is_interface,
                           imports=list(self.inp.import_paths))
        self._assemble(module, items)
        return CheckedModule(self.path, module, self.exports, self.diags, self.inp.parsed,
                             [self.results.get(id(it)) for it in items], self.scope)

    def _cached(self, item: ParsedItem, fingerprint: str, compute) -> ItemResult:
        return self.cache.get((self.path, item.text, fingerprint), compute)

    def recheck_definition(self, item: ParsedItem) -> ItemResult:
        """A signed definition's new text checked against this module's
        interface, cached as `run` caches it (check/bodies.py's body edits)."""
        return self._cached(item, self.exports.fingerprint, lambda: self._check_signed(item))

    def signs_function(self, name: str) -> bool:
        """Whether `name` has a signature here that makes it a top-level function."""
        entry = self.exports.values.get(name)
        return name in self.sigs and entry is not None and entry.kind == "function"

    # ------------------------------------------------------------ collection

    def _collect(self, items: list[ParsedItem]) -> None:
        interface = self.inp.is_interface
        numerals: set[str] = set()
        for item in items:
            for err in item.errors:
                self.report(item, err.start, err.end, err.message, err.code, **err.fields)
            node = item.node
            if node is None:
                if item.kind == "者":
                    self.broken_defs.add(item.name)
                elif item.kind == "乃":
                    self.broken_sigs.add(item.name)
                continue
            if isinstance(node, (ast.Signature, ast.Definition, ast.TypeDef)) and number_value(node.name) is not None:
                if node.name not in numerals:   # its signature and definition: one mistake, one message
                    numerals.add(node.name)
                    self.report(item, node.start, node.name_end,
                                f"「{node.name}」是数字字面量，不能作名字：换一个名字，如「{node.name}号」", NUMERAL_NAME,
                                名字=node.name, 建议=f"{node.name}号")
                continue
            if isinstance(node, ast.Import):
                continue
            if isinstance(node, ast.BareExpr):
                self.report(item, node.start, node.end, "顶层不能写裸表达式（着四.6）：给它起个名字，写成「名」者 表达式 也。", TOP_LEVEL)
                continue
            if isinstance(node, ast.CtorDecl):
                self.report(item, node.start, node.name_end, "着色源不能声明构造器（立，着四.6）", NOT_TRANSLATABLE)
                continue
            table = {ast.Signature: self.sigs, ast.Definition: self.defs, ast.TypeDef: self.typedefs}[type(node)]
            if node.name in table:
                first = table[node.name]
                pos = "签名" if table is self.sigs else "定义"
                line = self.inp.source.position(first.start).line + 1 if self.inp.source else 0
                self.report(item, node.start, node.name_end, f"「{node.name}」重复{pos}：第一个{pos}在第 {line} 行", DUPLICATE)
                continue
            if table is not self.typedefs and node.name in self.typedefs or (
                    table is self.typedefs and (node.name in self.sigs or node.name in self.defs)):
                self.report(item, node.start, node.name_end, f"「{node.name}」既是类型又是值：名字重复", DUPLICATE)
                continue
            table[node.name] = item
            if interface and isinstance(node, ast.Definition):
                self.report(item, node.start, node.name_end,
                            "着色内建声明文件只能写声明（乃、即），不能写定义（者）", INTERFACE_ONLY_KIND)

    # ------------------------------------------------------------ interface

    def _declare_constructors(self) -> None:
        """Signatures of type 元类型 / 化 … 而 元类型 in interface files declare
        type constructors; they must be known before aliases use them."""
        for name, item in list(self.sigs.items()):
            params = _constructor_params(item.node.type)
            if params is None:
                continue
            if not self.inp.is_interface:
                self.report(item, item.node.start, item.node.name_end, "着色源不能声明类型构造（元类型只能出现在着色内建声明里）",
                            INTERFACE_ONLY_KIND)
            self.exports.types[name] = TypeEntry(name, "constructor", self.path, None, params,
                                                 item.start, item.name_end, item.doc)
            del self.sigs[name]

    def _declare_typedefs(self) -> None:
        order = _topological(self.typedefs, lambda item: _names_in(item.node.type, ast.TypeName))
        for name, cycle in order:
            item = self.typedefs[name]
            if cycle:
                self.report(item, item.node.start, item.node.name_end, f"类型定义成环：{' → '.join(cycle)}",
                            CYCLE, 环=' → '.join(cycle))
                self.exports.types[name] = TypeEntry(name, "alias", self.path, ERROR, (), item.start, item.name_end, item.doc)
                continue
            self.exports.types[name] = self._typedef_entry(item)

    def _typedef_entry(self, item: ParsedItem) -> TypeEntry:
        node: ast.TypeDef = item.node
        rhs = node.type
        intrinsic = intrinsic_name(rhs.name) if isinstance(rhs, ast.TypeName) else None
        if intrinsic is not None and self.inp.is_interface:
            kind = "family" if intrinsic in FAMILIES else "alias"
            return TypeEntry(node.name, kind, self.path, TCon(intrinsic, (), intrinsic), (), item.start, item.name_end, item.doc)
        resolver = TypeResolver(self.scope, self._item_reporter(item), self.inp.is_interface)
        t = resolver.resolve(rhs)
        is_struct = isinstance(rhs, ast.TypeRecord)
        t = t.named(node.name) if is_struct else renamed(t, node.name)
        return TypeEntry(node.name, "alias", self.path, t, (), item.start, item.name_end, item.doc, is_struct)

    def _declare_signatures(self) -> None:
        types_fp = self._types_fingerprint()
        for name, item in self.sigs.items():
            key = ("乃", self.path, item.text, types_fp)
            tvars, t, type_text, local = self.cache.signature(key, lambda it=item: self._resolve_signature(it))
            for d in local:
                self.diags.append(d.place(self.path, item.start, item.name))
            if self.inp.is_interface:
                kind = "builtin"
            else:
                kind = _classify(t)
                if tvars:
                    self.report(item, item.node.start, item.node.name_end, f"多态函数（凡）不能翻译（着四.6）：给「{name}」写出具体类型",
                                NOT_TRANSLATABLE)
            entry = ValueEntry(name, kind, self.path, t, tvars, item.start, item.name_end, item.doc,
                               type_text=type_text)
            if kind == "resource":
                entry.resource = RESOURCE_TYPES[resolve(t).name]
                entry.access = _access_of(self.defs.get(name))
            entry.overridable = kind == "const" and _overridable(self.defs.get(name))
            self.exports.values[name] = entry
            if not self.inp.is_interface and name not in self.defs and name not in self.broken_defs:
                self.report(item, item.node.start, item.node.name_end, f"「{name}」只有签名，没有定义：补上「{name}」者 … 也。", TOP_LEVEL)

    def _resolve_signature(self, item: ParsedItem):
        """(type variables, type, its text for fingerprints, diagnostics) of a signature."""
        local: list[LocalDiagnostic] = []

        def report(node, message: str, code: str, **fields: str) -> None:
            start, end = (node.start, node.end) if not isinstance(node, tuple) else node
            local.append(LocalDiagnostic(start, end, message, code, fields=fields))

        tvars, t = TypeResolver(self.scope, report, self.inp.is_interface).scheme(item.node.type)
        return tvars, t, f"{t!r}{tvars!r}", local

    def _types_fingerprint(self) -> str:
        """What signatures can depend on: the type names in scope."""
        h = hashlib.blake2b(digest_size=16)
        # which module each layer is (two modules can share an interface) and by what qualifier
        layers = [("", self.inp.builtins), *(("", m) for m in self.inp.opened), *sorted(self.inp.qualified.items())]
        for qualifier, layer in layers:
            if layer is not None:
                h.update(f"{qualifier}\0{layer.path}\0{layer.fingerprint}\0".encode())
        for name, t in self.exports.types.items():
            h.update(f"T{name}{t.kind}{t.params}{t.type!r}".encode())
        return h.hexdigest()

    def _declare_broken(self, items: list[ParsedItem], types: bool) -> None:
        """Names of items that did not parse stay known (with an unknown type),
        so their uses elsewhere do not add errors."""
        for item in items:
            if item.node is not None or not item.name or (item.kind == "即") != types:
                continue
            if types:
                self.exports.types.setdefault(item.name, TypeEntry(item.name, "alias", self.path, ERROR))
            else:
                self.exports.values.setdefault(item.name, ValueEntry(item.name, "const", self.path, ERROR))

    def _check_unsigned(self) -> str:
        """Infer the unsigned constants in dependency order; returns the
        interface fingerprint with their types included."""
        for name in self.broken_sigs - self.sigs.keys():  # typed unknown: no follow-on errors
            self.exports.values.setdefault(name, ValueEntry(name, "const", self.path, ERROR))
        unsigned = {n: it for n, it in self.defs.items() if n not in self.sigs and n not in self.broken_sigs}
        order = _topological(unsigned, lambda item: _names_in(item.node.value, ast.Name))
        fingerprint = self._fingerprint()
        for name, cycle in order:
            item = unsigned[name]
            if cycle:
                self.report(item, item.node.start, item.node.name_end, f"常量定义成环：{' → '.join(cycle)}",
                            CYCLE, 环=' → '.join(cycle))
                entry = ValueEntry(name, "const", self.path, ERROR, (), item.start, item.name_end)
            else:
                result = self._cached(item, fingerprint, lambda it=item: self._check_unsigned_item(it))
                self.results[id(item)] = result
                entry = ValueEntry(name, "const", self.path, result.value_type or ERROR,
                                   (), item.start, item.name_end, item.doc, overridable=_overridable(item))
            self.exports.values[name] = entry
            # each inferred type extends the fingerprint (linear, not one full rehash per constant)
            fingerprint = hashlib.blake2b(f"{fingerprint}{_entry_key(name, entry)}".encode(),
                                          digest_size=16).hexdigest()
        return fingerprint

    def _fingerprint(self) -> str:
        h = hashlib.blake2b(digest_size=16)
        h.update(self._types_fingerprint().encode())
        for name, v in self.exports.values.items():
            h.update(_entry_key(name, v).encode())
        h.update(repr(sorted(self.defs)).encode())
        return h.hexdigest()

    # ------------------------------------------------------------ definitions

    def _checker(self, function: str | None = None) -> ItemChecker:
        return ItemChecker(self.scope, self.show, function=function)

    def _check_unsigned_item(self, item: ParsedItem) -> ItemResult:
        node: ast.Definition = item.node
        checker = self._checker()
        if isinstance(_strip(node.value), ast.Lambda):
            checker.error((node.start, node.name_end), f"顶层函数「{node.name}」缺少签名：先写「{node.name}」乃化 … 而 … 也。", TOP_LEVEL)
            return ItemResult(None, checker.diags, ERROR)
        checker.allow_override = True
        value = checker.check(node.value, None, {})
        checker.finish()
        checker.adopt_records(value)
        t = deep_resolve(value.type)
        self._const_rules(checker, value)
        decl = ir.Const(node.name, node.name_end, item.doc, t, value)
        return ItemResult(decl, checker.diags, t)

    def _check_signed(self, item: ParsedItem) -> ItemResult:
        node: ast.Definition = item.node
        entry = self.exports.values.get(node.name)
        if entry is None or isinstance(entry.type, TError):
            return ItemResult(None, [])
        kind = entry.kind
        if kind == "function":
            return self._check_function(item, entry)
        if kind == "resource":
            return self._check_resource(item, entry)
        if kind == "entry":
            return self._check_entry(item, entry)
        checker = self._checker()
        checker.allow_override = True
        value = checker.check(node.value, entry.type, {})
        checker.finish()
        checker.adopt_records(value)
        self._const_rules(checker, value)
        return ItemResult(ir.Const(node.name, node.name_end, item.doc, entry.type, value), checker.diags)

    def _check_function(self, item: ParsedItem, entry: ValueEntry) -> ItemResult:
        node: ast.Definition = item.node
        t: TFun = resolve(entry.type)
        checker = self._checker(function=node.name)
        lam = _strip(node.value)
        if not isinstance(lam, ast.Lambda):
            checker.error(node.value, f"函数「{node.name}」的定义须是 得「参数」而 函数体（函数不能当作值，着五）", TOP_LEVEL)
            return ItemResult(None, checker.diags)
        if len(lam.params) != len(t.params):
            checker.error(lam, f"签名有 {len(t.params)} 个参数，定义有 {len(lam.params)} 个", TOP_LEVEL)
            return ItemResult(None, checker.diags)
        for p in lam.params:
            checker.binder_name(p.name, p)
        self._sized_signature(checker, node, lam, t)
        params = [ir.LocalVar(p.name, pt, p.start, p.end) for p, pt in zip(lam.params, t.params)]
        env = {p.name: p for p in params}
        body = checker.check(lam.body, t.result, env)
        checker.finish()
        checker.adopt_records(body, params)
        deep = too_deep(body)
        if deep is not None:
            checker.error(deep, NESTING_MESSAGE, TOO_DEEP)
        decl = ir.Function(node.name, node.name_end, item.doc, t, params, body, set(checker.calls))
        return ItemResult(decl, checker.diags)

    def _sized_signature(self, checker: ItemChecker, node: ast.Definition, lam: ast.Lambda, t: TFun) -> None:
        """No target has a run-time 「整数」 or 「小数」, so a top-level function
        may not take or return one: 检查 refuses what every target refuses.
        One message for the signature: at the name when the result is wrong,
        else at the first wrong parameter."""
        params = [p for p, pt in zip(lam.params, t.params) if _mentions_literal_type(pt)]
        result = _mentions_literal_type(t.result)
        if not params and not result:
            return
        what = "、".join(f"参数「{p.name}」" for p in params) + ("与" if params and result else "") + ("返回值" if result else "")
        at = (node.start, node.name_end) if result else params[0]
        checker.error(at, f"顶层函数的{what}须有定长类型，不能是「整数」「小数」（它们只是字面量的类型，"
                          "没有目标能在运行时表示）：改用「整三二」「浮三二」等", LITERAL_TYPE_SIGNATURE)

    def _constructor_call(self, item: ParsedItem, entry: ValueEntry, table: dict):
        """Check a resource's or entry's definition: a call of its constructor."""
        node: ast.Definition = item.node
        checker = self._checker()
        checker.allow_constructors = True
        call = _strip(node.value)
        head = _call_head(call)
        if head not in table:
            names = "、".join(f"「{n}」" for n in table)
            checker.error(node.value, f"「{node.name}」的定义须是对 {names} 之一的调用（着四）", TOP_LEVEL)
            return checker, None, call
        value = checker.check(node.value, entry.type, {})
        checker.finish()
        return checker, value, call

    def _check_resource(self, item: ParsedItem, entry: ValueEntry) -> ItemResult:
        node: ast.Definition = item.node
        kind = entry.resource
        wanted = {n: k for n, k in RESOURCE_CONSTRUCTORS.items() if k == kind}
        checker, value, call = self._constructor_call(item, entry, wanted)
        if value is None:
            return ItemResult(None, checker.diags)
        t = resolve(entry.type)
        inner = t.args[0] if isinstance(t, TCon) and t.args else None
        decl = ir.Resource(node.name, node.name_end, item.doc, kind, entry.type, inner, value=value)
        if kind != "workgroup":
            record = _record_arg(call)
            fields = {f.name: _strip(f.value) for f in record.fields} if record else {}
            for key, attr in (("组", "group"), ("号", "binding")):
                lit = fields.get(key)
                number = lit.value if isinstance(lit, ast.Number) and not lit.is_float else None
                if lit is not None and number is None:
                    checker.error(lit, "组号与绑定号须是整数字面量（着三）", RESOURCE)
                elif number is not None and number > BINDING_LIMITS[key]:
                    what = "组号" if key == "组" else "绑定号"
                    checker.error(lit, f"{what}须在 0 至 {BINDING_LIMITS[key]} 之间（WebGPU 保证的上限），这里是 {number}", RESOURCE)
                setattr(decl, attr, number)
            access = fields.get("访问")
            decl.access = access.name if isinstance(access, ast.Name) else None
            if kind == "storage" and access is not None and not isinstance(access, ast.Name):
                checker.error(access, "访问方式须直接写「只读」或「读写」", RESOURCE)
        problem = _runtime_array_problem(inner, checker.show) if kind == "storage" and inner is not None else None
        if problem:
            checker.error(node.value, problem, RESOURCE)
        return ItemResult(decl, checker.diags)

    def _check_entry(self, item: ParsedItem, entry: ValueEntry) -> ItemResult:
        node: ast.Definition = item.node
        stage = ENTRY_TYPES[resolve(entry.type).name]
        wanted = {n: s for n, s in ENTRY_CONSTRUCTORS.items() if s == stage}
        checker, value, call = self._constructor_call(item, entry, wanted)
        if value is None or not isinstance(value, ir.Call) or not value.args:
            return ItemResult(None, checker.diags)
        fn_ref = value.args[0]
        function = fn_ref.name if isinstance(fn_ref, ir.GlobalRef) else ""
        decl = ir.Entry(node.name, node.name_end, item.doc, stage, function, value=value)
        if stage == "计算":
            record = _record_arg(call)
            for f in record.fields if record and not checker.diags else []:   # a type error says enough
                if f.name == "工作组大小":
                    shape = _workgroup_shape(checker, _strip(f.value), self.scope)
                    if shape:
                        decl.workgroup_shape = tuple(s or 1 for s in shape)    # a constant's: 1 until validated
                        decl.workgroup_size = math.prod(decl.workgroup_shape)
                elif _entry_flag(checker, f.name, _strip(f.value)):
                    decl.options |= {f.name}
            _name_seed_options(value)
        fn_entry = self.scope.value(function) if function else None
        if fn_entry is not None and isinstance(resolve(fn_entry.type), TFun):
            self._entry_signature(checker, fn_ref, stage, resolve(fn_entry.type), function)
        return ItemResult(decl, checker.diags)

    def _entry_signature(self, checker: ItemChecker, at, stage: str, t: TFun, function: str) -> None:
        """Seed 着四.3: what an entry function may take and return."""
        for p in t.params:
            problem = _entry_input_problem(p, stage)
            if problem:
                checker.error(at, f"入口函数「{function}」的参数{self.show(p)}{problem}", ENTRY)
        if stage == "计算":
            return
        for direction, types in (("输入", t.params), ("输出", (t.result,))):
            problem = _location_problem(types, stage, direction)
            if problem:
                checker.error(at, f"{stage}入口函数「{function}」的{direction}{problem}", ENTRY)
        if stage == "顶点" and not _has_position(t.result):
            checker.error(at, f"顶点入口函数「{function}」须返回「裁剪位置」或含「裁剪位置」字段的结构，这里返回{self.show(t.result)}", ENTRY)
            return
        problem = _entry_output_problem(t.result, stage, self.show)
        if problem:
            checker.error(at, f"{stage}入口函数「{function}」的返回值{problem}", ENTRY)

    def _const_rules(self, checker: ItemChecker, value: ir.Expr) -> None:
        """Constants are WGSL const-expressions (seed 着四.5), and so is an
        overridable constant's default; checked once the value type-checks,
        so one mistake gives one message."""
        if checker.diags:
            return
        default = ir.overridden(value)
        for e in ir.walk(value if default is None else default):
            if isinstance(e, ir.Call) and e.kind == "builtin" and e.name == ir.OVERRIDE:
                checker.error((e.start, e.end), f"「{ir.OVERRIDE}」只能是顶层常量的整个值：「名」者「{ir.OVERRIDE}」于 默认值 也",
                              CONST_EXPR)
                return
            if isinstance(e, ir.Call) and e.kind != "builtin":
                checker.error((e.start, e.end), f"常量的值须是常量表达式：不能调用「{e.name}」", CONST_EXPR)
                return
            if isinstance(e, ir.Call) and not registry.allowed_in_constant(e.name):
                what = registry.get(e.name).what
                checker.error((e.start, e.end), f"常量的值须是常量表达式：不能调用「{e.name}」（{what}，只在运行时可用）", CONST_EXPR)
                return
            if isinstance(e, ir.GlobalRef):
                target = self.scope.value(e.name)
                if target is not None and target.kind == "resource":
                    checker.error((e.start, e.end), f"常量的值须是常量表达式：不能读资源「{e.name}」", CONST_EXPR)
                    return
                if target is not None and target.overridable:
                    checker.error((e.start, e.end), f"常量的值须是常量表达式：「{e.name}」是可覆盖常量，建管线时才定，"
                                                    "只能在函数里读", CONST_EXPR)
                    return
            if isinstance(e, (ir.Let, ir.LetFun)):
                checker.error((e.start, e.end), "常量的值须是常量表达式：不能用 令", CONST_EXPR)
                return

    # ------------------------------------------------------------ module rules

    def _module_rules(self, items: list[ParsedItem]) -> None:
        functions = {}
        for item in items:
            result = self.results.get(id(item))
            if result is None:
                continue
            for d in result.diagnostics:
                self.diags.append(d.place(self.path, item.start, item.name))
            decl = result.decl
            if isinstance(decl, ir.Function):
                functions[decl.name] = (item, decl)
        self._recursion(functions)
        self._constant_cycles(items)

    def _constant_cycles(self, items: list[ParsedItem]) -> None:
        """A declared constant may not be defined through itself (the undeclared
        ones are ordered, cycles included, before they are inferred)."""
        constants = {item.name: item for item in items
                     if isinstance(getattr(self.results.get(id(item)), "decl", None), ir.Const)
                     and item.name in self.sigs}
        for name, cycle in _topological(constants, lambda item: _names_in(item.node.value, ast.Name)):
            if cycle:
                item = constants[name]
                shown = " → ".join(f"「{n}」" for n in cycle)
                self.report(item, item.node.start, item.node.name_end, f"常量定义成环：{shown}：常量不能经由自己定义",
                            CYCLE, 环=" → ".join(cycle))

    def _recursion(self, functions) -> None:
        """Top-level functions may not call themselves, directly or through others."""
        reported: set[str] = set()
        cyclic = _cyclic_groups(functions)
        for name, (item, decl) in functions.items():
            group = cyclic.get(name)
            if group is None or name in reported:     # on no cycle, or on one already reported
                continue
            path = _find_cycle(name, functions, group)
            if path and len(path) > 2:
                reported.update(path)
                self.report(item, 0, item.name_end,
                            f"顶层函数不能递归调用（着四.6）：{' → '.join(f'「{p}」' for p in path)}", RECURSION)

    def _assemble(self, module: ir.Module, items: list[ParsedItem]) -> None:
        for item in items:
            for decl in self._declared_by(item):
                module.decls.append(decl)
                module.starts[decl.name] = item.start

    def _declared_by(self, item: ParsedItem) -> list[ir.Decl]:
        """The declarations one item adds to the module (placed by `Module.starts`)."""
        node, out = item.node, []
        if isinstance(node, ast.TypeDef):
            entry = self.exports.types.get(node.name)
            if entry is None or entry.kind != "alias" or entry.type is None:
                return out
            cls = ir.Struct if entry.is_struct else ir.TypeAlias
            out.append(cls(node.name, item.name_end, item.doc, type=entry.type))
        elif isinstance(node, ast.Signature) and self.inp.is_interface:
            entry = self.exports.values.get(node.name)
            if entry is not None:
                out.append(ir.Declared(node.name, item.name_end, item.doc, entry.type, list(entry.type_params)))
        result = self.results.get(id(item))
        if result is not None and result.decl is not None:
            out.append(result.decl)
        return out


# ---------------------------------------------------------------- helpers


def _entry_key(name: str, v: ValueEntry) -> str:
    return f"V{name}{v.kind}{v.type_text or repr(v.type) + repr(v.type_params)}{v.access}{v.overridable}"


def check_module(inp: ModuleInput, cache: CheckCache, printer: Printer | None = None) -> CheckedModule:
    printer = printer or Printer(type_names(inp.builtins))
    return ModuleChecker(inp, cache, printer).run()


def _name_seed_options(call: ir.Call) -> None:
    """The seed's one-number options record is a 「计算选项」 (so hover and
    navigation find its field); the entry constructor takes any record its
    class bound allows, which leaves the record unnamed."""
    for arg in call.args:
        t = resolve(arg.type)
        if isinstance(arg, ir.MakeRecord) and isinstance(t, TRecord) and t.alias is None \
                and [n for n, _ in t.fields] == ["工作组大小"] and not isinstance(resolve(t.fields[0][1]), TTuple):
            arg.type = t.named("计算选项")


def _entry_flag(checker: ItemChecker, name: str, value) -> bool:
    """A translation option of the entry item (「快速数学」「不查界」, docs/扩展.md): 阳 or 阴, written as such."""
    if isinstance(value, ast.Name) and value.name in ("阳", "阴"):
        return value.name == "阳"
    checker.error(value, f"计算入口项的「{name}」须直接写「阳」或「阴」", ENTRY)
    return False


def _workgroup_shape(checker: ItemChecker, value, scope: Scope) -> tuple[int, int, int] | None:
    """(x, y, z) of 「工作组大小」: one number (the seed's form) or, beyond the
    seed, two or three; each an integer literal, at most MAX_WORKGROUP
    invocations in all and MAX_WORKGROUP_Z along z.  An item may name a
    top-level constant (WGSL's @workgroup_size(块)): its value is the
    validation pass's to fill in (valid/__init__.py `workgroup_sizes`), as it
    may change without this item being checked again."""
    items = [_strip(i) for i in value.items] if isinstance(value, ast.Tuple) else [value]
    sizes = []
    for lit in items:
        if isinstance(lit, ast.Name) and getattr(scope.value(lit.name), "kind", None) == "const":
            sizes.append(None)
            continue
        if not isinstance(lit, ast.Number) or lit.is_float:
            checker.error(lit, "工作组大小须是整数字面量，或值为整数的顶层常量（可覆盖常量取它的默认值）", ENTRY)
            return None
        sizes.append(lit.value)
    if len(sizes) > 3:
        return None     # the type error (「计算选项」) already says so
    if None in sizes:
        return tuple(sizes + [1] * (3 - len(sizes)))       # a named size is filled in by the validation pass
    shape = tuple(sizes + [1] * (3 - len(sizes)))
    total = math.prod(shape)
    if not all(shape) or total > MAX_WORKGROUP:
        where = "" if len(sizes) == 1 else f"（{'×'.join(map(str, sizes))}）"
        checker.error(value, f"工作组大小须在 1 至 {MAX_WORKGROUP} 之间，这里是 {total}{where}", ENTRY)
        return None
    if shape[2] > MAX_WORKGROUP_Z:
        checker.error(items[2], f"工作组的第三维至多 {MAX_WORKGROUP_Z}，这里是 {shape[2]}", ENTRY)
        return None
    return shape


def _strip(node):
    while isinstance(node, ast.Paren):
        node = node.inner
    return node


def _call_head(node) -> str | None:
    node = _strip(node)
    while isinstance(node, (ast.Apply, ast.TypeArg)):
        node = _strip(node.fn)
    return node.name if isinstance(node, ast.Name) else None


def _runtime_array_problem(inner, show) -> str | None:
    """WGSL's rule: a runtime-sized 「数组」 is a storage buffer's whole
    contents or the last field of the record it holds (header fields before
    it, 「缓冲」中「字段」), never inside anything else."""
    t = resolve(inner)
    inside = [t]
    if isinstance(t, TRecord) and t.fields:
        for name, ft in t.fields[:-1]:
            if holds_runtime_array(ft):
                return (f"{show(t)}的字段「{name}」含运行期数组（「数组」），而它后面还有字段：运行期数组只能是"
                        "存储缓冲所装记录的最后一个字段，把头部字段都写在它前面")
        inside = [t.fields[-1][1]]
    last = resolve(inside[0])
    if isinstance(last, TCon) and last.name == "数组":
        inside = [last.args[0]]
    if holds_runtime_array(inside[0]):
        return (f"运行期数组（「数组」）只能是存储缓冲的全部内容或它所装记录的最后一个字段，"
                f"不能放在{show(inside[0])}里面")
    return None


def _record_arg(call) -> ast.Record | None:
    node = _strip(call)
    while isinstance(node, (ast.Apply, ast.TypeArg)):
        if isinstance(node, ast.Apply) and isinstance(_strip(node.arg), ast.Record):
            return _strip(node.arg)
        node = _strip(node.fn)
    return None


def _overridable(item: ParsedItem | None) -> bool:
    """Whether a definition's value is 「可覆盖」于 默认值 (read from the syntax, before checking)."""
    if item is None or not isinstance(item.node, ast.Definition):
        return False
    node = _strip(item.node.value)
    while isinstance(node, (ast.Apply, ast.TypeArg)):
        node = _strip(node.fn)
    return isinstance(node, ast.Name) and node.name == ir.OVERRIDE


def _access_of(item: ParsedItem | None) -> str | None:
    if item is None or not isinstance(item.node, ast.Definition):
        return None
    record = _record_arg(item.node.value)
    for f in record.fields if record else []:
        value = _strip(f.value)
        if f.name == "访问" and isinstance(value, ast.Name):
            return value.name
    return None


def _mentions_literal_type(t) -> bool:
    t = resolve(t)
    if t in (INT_LIT, FLOAT_LIT):
        return True
    if isinstance(t, TCon):
        return any(_mentions_literal_type(a) for a in t.args if not isinstance(a, int))
    if isinstance(t, TTuple):
        return any(_mentions_literal_type(a) for a in t.items)
    if isinstance(t, TRecord):
        return any(_mentions_literal_type(a) for _, a in t.fields)
    return False


def _classify(t: Type) -> str:
    t = resolve(t)
    if isinstance(t, TFun):
        return "function"
    if isinstance(t, TCon) and t.name in RESOURCE_TYPES:
        return "resource"
    if isinstance(t, TCon) and t.name in ENTRY_TYPES:
        return "entry"
    return "const"


def _constructor_params(node) -> tuple[str, ...] | None:
    """('type', 'index', …) when a signature declares a type constructor."""
    def is_kind(n) -> bool:
        return isinstance(n, ast.TypeName) and n.name == "元类型"
    if is_kind(node):
        return ()
    if isinstance(node, ast.TypeFun) and is_kind(node.result):
        params = []
        for p in node.params:
            if is_kind(p):
                params.append("type")
            elif isinstance(p, ast.TypeName) and p.name == "整数":
                params.append("index")
            else:
                return None
        return tuple(params)
    return None


def _names_in(node, cls) -> set[str]:
    """The names of every `cls` node (ast.TypeName or ast.Name) under node."""
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cls):
            out.add(n.name)
        stack.extend(ast.children(n))
    return out


def _topological(items: dict[str, ParsedItem], refs) -> list[tuple[str, list[str] | None]]:
    """Names in dependency order; a name on a cycle comes with the cycle."""
    order: list[tuple[str, list[str] | None]] = []
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for dep in sorted(refs(items[name]) & items.keys()):
            if state.get(dep) == 1:
                cycle = path[path.index(dep):] + [dep] if dep in path else [name, dep]
                state[name] = 2
                order.append((name, cycle))
                return
            if dep not in state:
                visit(dep, path + [dep])
        state[name] = 2
        order.append((name, None))

    for name in items:
        if name not in state:
            visit(name, [name])
    return order


def _find_cycle(start: str, functions, group: frozenset[str]) -> list[str] | None:
    """A path of calls from `start` back to it, through the functions of its
    `group` (a call that leaves the group never comes back: searching only
    the group finds the path a search of every function finds)."""
    stack = [(start, [start])]
    seen = set()
    while stack:
        name, path = stack.pop()
        for callee in sorted(functions[name][1].calls & group):
            if callee == start:
                return path + [start]
            if callee not in seen:
                seen.add(callee)
                stack.append((callee, path + [callee]))
    return None


def _cyclic_groups(functions) -> dict[str, frozenset[str]]:
    """Each function that lies on a cycle of calls through another function
    → the functions of its strongly connected component (Tarjan's algorithm,
    without recursion: one pass, where a search from every function took
    quadratic time on a chain of 1,600 calls)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: dict[str, frozenset[str]] = {}
    for root in functions:
        if root in index:
            continue
        work = [(root, iter(sorted(functions[root][1].calls)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            name, callees = work[-1]
            callee = next((c for c in callees if c in functions and (c not in index or c in on_stack)), None)
            if callee is not None:
                if callee in index:
                    low[name] = min(low[name], index[callee])
                else:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on_stack.add(callee)
                    work.append((callee, iter(sorted(functions[callee][1].calls))))
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[name])
            if low[name] == index[name]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == name:
                        break
                if len(group) > 1:
                    found = frozenset(group)
                    out.update((member, found) for member in group)
    return out


def _entry_input_problem(p: Type, stage: str) -> str | None:
    alias = p.alias
    t = resolve(p)
    if alias in BUILTIN_IO:
        return None if stage in BUILTIN_IO[alias].inputs else f"不是{stage}入口可用的内建输入"
    if isinstance(t, TRecord):
        for name, ft in t.fields:
            problem = _entry_input_problem(ft, stage)
            if problem:
                return f"的字段「{name}」{problem}"
        return None
    if t == UNIT:
        return None
    if stage == "计算":
        return "不是内建输入：计算入口的参数只能是内建输入或由它们组成的结构（着四.3）"
    if _location_value(p):
        return None
    return "不能作入口输入：只能是内建输入、数值标量、数值向量或由它们组成的结构"


def _entry_output_problem(t: Type, stage: str, show) -> str | None:
    """Seed 着四.3: a render entry returns builtin outputs of its stage and
    location values (numeric scalars or vectors), each builtin at most once."""
    r = resolve(t)
    if r == UNIT:
        return None
    fields = r.fields if isinstance(r, TRecord) else (("", t),)
    seen: set[str] = set()
    for name, ft in fields:
        where = f"的字段「{name}」" if name else ""
        alias = ft.alias
        if alias in BUILTIN_IO:
            if stage not in BUILTIN_IO[alias].outputs:
                return f"{where}是{show(ft)}，不能作{stage}入口的输出"
            if alias in seen:
                return f"{where}又是{show(ft)}：每个内建输出只能有一个"
            seen.add(alias)
        elif not _location_value(ft):
            return f"{where}是{show(ft)}：位置输出只能是数值标量或数值向量（不能是爻或结构）"
    return None


#: where values are interpolated: what the vertex stage outputs and the fragment stage takes
INTERPOLATED = {("顶点", "输出"), ("片元", "输入")}


def _location_problem(types, stage: str, direction: str) -> str | None:
    """Two values at one location (「定位」 written, or numbered on from one that
    was), or an interpolation written where nothing is interpolated."""
    seen: dict[int, str] = {}
    for r in (resolve(t) for t in types):
        for name, _, location in located_fields(r) if isinstance(r, TRecord) else ():
            if location in seen:
                return (f"中字段「{seen[location]}」与「{name}」都在位置 {location}：每个位置只能有一个值"
                        "（没写「定位」的字段接着前一个字段编号）")
            seen[location] = name
            interpolation = r.field_io(name).interpolation
            if interpolation and (stage, direction) not in INTERPOLATED:
                return f"中字段「{name}」写了「{interpolation}」：插值方式只能写在顶点输出与片元输入上"
    return None


def _location_value(t: Type) -> bool:
    """A numeric scalar or vector: what a @location input or output may be."""
    r = resolve(t)
    parts = vector_parts(r)
    scalar = resolve(parts[0]) if parts is not None else r
    return is_scalar(scalar, include_literals=False) and scalar != BOOL


def _has_position(t: Type) -> bool:
    if t.alias == "裁剪位置":
        return True
    r = resolve(t)
    return isinstance(r, TRecord) and any(ft.alias == "裁剪位置" for _, ft in r.fields)
