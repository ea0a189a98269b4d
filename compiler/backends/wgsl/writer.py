"""The WGSL writer: checked IR of a shader source and its imports → WGSL text
(seed 着三–着六).

Top-level definitions are written in source order, imported shader sources
first.  Bodies are expressions; they become statements by "delivering" each
expression's value to a destination: the function's return, a variable, a
discarded `_ = …;`, or the exit of a loop.  Bodies arrive lowered
(compiler/lower/loops.py): an inlined local function's parameters become
lets, a loop `loop {}` with its variables as vars; a 若 whose branches are
plain values of a scalar or vector type becomes select.
"""

from __future__ import annotations

from ... import ir
from ...builtin.formats import storage_format
from ...builtin.textures import TEXTURES
from ...builtin.io import BUILTIN_IO, INTERPOLATIONS, located_fields, next_location
from ...diagnostics import TARGET_BUILTIN, TARGET_CONST, TARGET_TYPE, TRANSLATION, Diagnostic
from ...types import (TCon, TError, TRecord, TTuple, deep_resolve, is_scalar, is_unit, matrix_parts, resolve,
                      vector_parts)
from .. import EntryInfo, Translation
from ..names import NameAllocator
from ..targets import WGSL
from ..text import (DISCARD, INDENT, RETURN, Assign, Code, Discard, LoopExit, StatementWriter, float_text,
                    narrow_float_text)
from .builtins import BUILTINS, SPLIT_MEMBERS, UNAVAILABLE_TYPES
from ...valid import registry
from ...valid.limits import workgroup_problem
from ...valid.uniformity import field_proof
from ...valid.consteval import ConstEvaluator, KnownValues, is_abstract, scalar_of
from .layout import buffer_problem
from ..records import COMPARE_EXCHANGE_FIELDS, builtin_record
from ...lower.loops import changed_variables, lowering
from ...lower.types import Scalar, head, scalar

SCALARS = {Scalar.F32: "f32", Scalar.F16: "f16", Scalar.I32: "i32", Scalar.U32: "u32"}
HANDLES = {"采样器": "sampler", "比较采样器": "sampler_comparison"}
STAGE_ATTRIBUTE = {"顶点": "@vertex", "片元": "@fragment"}
UNNAMED_RECORD = "WGSL 写不出没有名字的记录类型"
RESOURCE_TYPES = {"存储缓冲", "均匀缓冲", "工作组变量", "采样器", "比较采样器", *TEXTURES}
SUBGROUP_IO = {"子组调用序", "子组大小", "子组数", "子组号"}
SUBGROUP_BUILTINS = registry.of_kind("subgroup")     # each needs `enable subgroups;`
NOT_PARAMETERS = {"存储缓冲", "均匀缓冲", "工作组变量", "格"}   # textures and samplers may be parameters



# ---------------------------------------------------------------- literals


def typed_literal(value, scalar: str) -> str:
    if scalar == "u32":
        return f"{value}u"
    if scalar == "i32":
        return f"{value}i" if value != -2 ** 31 else "i32(-2147483648)"
    if scalar == "f32":
        return float_text(value) + "f"
    return f"f16({float_text(value)})"


# ---------------------------------------------------------------- IR helpers

#: WebGPU's default maxComputeWorkgroupStorageSize (what a device gives without asking for more)
WORKGROUP_BYTES = 16384
#: builtins WGSL allows in const-expressions that naga does not evaluate there
NOT_CONST_IN_NAGA = frozenset(registry.having("naga_not_const"))


def _uses(e: ir.Expr, builtins) -> bool:
    return any(isinstance(n, ir.Call) and n.kind == "builtin" and n.name in builtins for n in ir.walk(e))


def half_lanes(t) -> int:
    """The lanes of a vector of f16 (二维半 2, 四维半 4); 0 for any other type."""
    parts = vector_parts(deep_resolve(t))
    s = scalar_of(t)
    return parts[1] if parts and s is not None and (s.kind, s.bits) == ("float", 16) else 0


def is_integer(t) -> bool:
    s = scalar_of(t)
    return s is not None and s.kind in ("int", "uint")


# ---------------------------------------------------------------- the writer


class Writer(StatementWriter):
    """Writes one shader source (with its imported shader sources) as WGSL."""

    DISCARDED = "_ = {};"

    def __init__(self, info) -> None:
        self.info = info
        self.modules = info.modules            # from the validation pass (compiler/valid/)
        self.own = info.module
        self.lowered = lowering(info)          # bodies as printed (compiler/lower/loops.py)
        self.override_ids = ir.override_ids(info.modules)
        self.show = info.show                  # types in 豫言 syntax, for messages
        self.proofs = info.uniform_proofs      # uniform values Tint must be shown (valid/uniformity.py)
        self.diagnostics: list[Diagnostic] = []
        self.uses_f16 = False
        self.uses_subgroups = False
        self.globals: dict[tuple[str, str], str] = {}
        self.decls: dict[tuple[str, str], ir.Decl] = {}
        self.structs: dict[tuple[str, str], tuple[ir.Struct, str, dict[str, str]]] = {}
        self.builtin_structs: list[str] = []   # structs declared for records builtins return (backends/records.py)
        self.entries = info.entry_functions    # an entry's function → the entry (one each: valid/entries.py)
        self.io_uses: dict[tuple[str, str], set[tuple[str, str]]] = {}
        self.global_names = NameAllocator(WGSL.reserved)
        self.effects = self.lowered.effects
        self.constants = KnownValues(self.decls)       # top-level constants' values
        # where we are: module path, item offset, definition name
        self.path = ""
        self.base = 0
        self.definition = ""
        # the function being written
        self.lines: list[str] = []
        self.depth = 0
        self.scope = NameAllocator(WGSL.reserved)
        self.bound: dict[int, Code | None] = {}
        self.loops: dict[int, list[tuple[ir.LocalVar, object]]] = {}
        self.known: dict[int, object] = {}
        self.split: dict[int, dict[str, Code]] = {}     # entry struct parameter → its fields' own parameters

    # ------------------------------------------------------------ output

    def captured(self, emit) -> list[str]:
        """The lines `emit` writes one level deeper, not yet placed."""
        saved, self.lines = self.lines, []
        with self.block():
            emit()
        lines, self.lines = self.lines, saved
        return lines

    def error(self, span, message: str, code: str = TRANSLATION, **fields: str) -> None:
        start, end = span
        d = Diagnostic(self.path, self.base + start, self.base + end, message, self.definition,
                       code=code, fields={"目标": "WGSL", **fields})
        if not any((x.path, x.definition, x.message) == (d.path, d.definition, d.message) for x in self.diagnostics):
            self.diagnostics.append(d)

    def _reported(self, prefix: str) -> bool:
        return any((x.path, x.definition) == (self.path, self.definition) and x.message.startswith(prefix)
                   for x in self.diagnostics)

    def at_name(self, decl: ir.Decl):
        return (0, decl.name_end)

    # ------------------------------------------------------------ module

    def run(self) -> Translation:
        self._declare_globals()
        self._note_entry_io()
        chunks = []
        for module in self.modules:
            for decl in module.decls:
                self.path, self.base, self.definition = module.path, module.starts[decl.name], decl.name
                chunk = self._decl(module, decl)
                if chunk:
                    chunks.append(chunk)
        chunks[:0] = self.builtin_structs
        enables = (["enable f16;"] if self.uses_f16 else []) + (["enable subgroups;"] if self.uses_subgroups else [])
        if enables:
            chunks.insert(0, "\n".join(enables))
        entries = [EntryInfo(e.name, self.globals.get(self._function_key(e), e.function), e.stage)
                   for e in self.own.decls if isinstance(e, ir.Entry)]
        if self.diagnostics:
            return Translation(None, entries, self.diagnostics)
        return Translation("\n\n".join(chunks) + "\n" if chunks else "", entries, [])

    def _declare_globals(self) -> None:
        for module in self.modules:
            for decl in module.decls:
                if isinstance(decl, (ir.Struct, ir.Resource, ir.Function, ir.Const)):
                    key = (module.path, decl.name)
                    self.globals[key] = self.global_names.claim(decl.name, entry=key in self.entries)
                    self.decls[key] = decl
                if isinstance(decl, ir.Struct) and decl.type is not None:
                    fields = NameAllocator(WGSL.reserved)
                    names = {n: fields.claim(n) for n, _ in decl.type.fields}
                    self.structs[key] = (decl, self.globals[key], names)

    def _function_key(self, entry: ir.Entry) -> tuple[str, str]:
        return ir.function_key(self.modules, entry.function)

    def _note_entry_io(self) -> None:
        for key, entry in self.entries.items():
            function = self.decls.get(key)
            if isinstance(function, ir.Function) and function.type is not None:
                for p in function.type.params:
                    self._note_io(p, entry.stage, "入")
                self._note_io(function.type.result, entry.stage, "出")

    def _note_io(self, t, stage: str, direction: str) -> None:
        struct = self._struct_key(t)
        if struct is not None:
            self.io_uses.setdefault(struct, set()).add((stage, direction))

    def _decl(self, module: ir.Module, decl: ir.Decl) -> str | None:
        if isinstance(decl, ir.Struct):
            return self._struct(module, decl)
        if isinstance(decl, ir.Resource):
            return self._resource(module, decl)
        if isinstance(decl, ir.Function):
            return self._function(module, decl)
        if isinstance(decl, ir.Const):
            return self._const(module, decl)
        return None

    # ------------------------------------------------------------ types

    def type_text(self, t, span) -> str | None:
        """The WGSL spelling of a type; None for WGSL's abstract numbers, which
        are never written.  What WGSL cannot express is reported at `span`."""
        shallow = resolve(t)
        if isinstance(shallow, TRecord) and shallow.alias is None and self._reported(UNNAMED_RECORD):
            return "?"   # this item fails already; resolving every nested record again was quadratic
        t = deep_resolve(shallow)
        if isinstance(t, TError):
            return "?"
        if isinstance(t, TTuple):
            return self._tuple_type(t, span)
        if isinstance(t, TRecord):
            name = self._struct_key(t)
            if name is None:
                if not self._reported(UNNAMED_RECORD):   # one message per item, not one per nested record
                    self.error(span, f"{UNNAMED_RECORD}{self.show(t)}：先用「名」即「组类」【…】也 定义结构",
                               TARGET_TYPE, 类型=self.show(t))
                return "?"
            return self.structs[name][1]
        if not isinstance(t, TCon):
            self.error(span, f"WGSL 写不出类型{self.show(t)}", TARGET_TYPE, 类型=self.show(t))
            return "?"
        if t.name in ("定长小数", "定长整数", "定长无符号"):
            return self._scalar_type(t, span)
        if t.name in ("整数", "小数"):
            return None
        if t.name == "爻":
            return "bool"
        if t.name in HANDLES:
            return HANDLES[t.name]
        if t.name == "格":
            return self.type_text(t.args[0], span)
        if t.name in TEXTURES:
            return self._texture_type(t, TEXTURES[t.name], span)
        if t.name in ("数组", "原子"):
            inner = self.type_text(t.args[0], span) or "?"
            return {"数组": "array", "原子": "atomic"}[t.name] + f"<{inner}>"
        if t.name == "定长数组":
            inner = self.type_text(t.args[0], span) or "?"
            return f"array<{inner}, {t.args[1]}>"
        message = UNAVAILABLE_TYPES.get(t.name, f"WGSL 写不出类型{self.show(t)}")
        self.error(span, message, TARGET_TYPE, 类型=self.show(t))
        return "?"

    def _texture_type(self, t: TCon, shape, span) -> str:
        """texture_depth_2d, texture_2d_array<f32>, texture_storage_3d<r32float, read_write> …"""
        if shape.depth:
            return shape.wgsl
        if shape.storage:
            return f"{shape.wgsl}<{storage_format(t).wgsl}, {shape.access}>"
        return f"{shape.wgsl}<{self.type_text(t.args[0], span) or '?'}>"

    def _scalar_type(self, t: TCon, span) -> str:
        text = SCALARS.get(scalar(t))
        if text is None:
            written, plain = self.show(t), self.show(TCon(t.name, t.args))
            shown = written if written == plain else f"{written}（即{plain}）"
            self.error(span, f"WGSL 没有{shown}：标量只有「浮三二」「浮十六」「整三二」「无三二」（着三）", TARGET_TYPE, 类型=written)
            return "?"
        self.uses_f16 |= text == "f16"
        return text

    def _tuple_type(self, t: TTuple, span) -> str | None:
        matrix = matrix_parts(t)
        if matrix is not None:
            comp, cols, rows = matrix
            inner = self.type_text(comp, span)
            return f"mat{cols}x{rows}<{inner}>" if inner else None
        vector = vector_parts(t)
        if vector is None:
            self.error(span, f"WGSL 写不出元组类型{self.show(t)}", TARGET_TYPE, 类型=self.show(t))
            return "?"
        comp, n = vector
        inner = self.type_text(comp, span)
        return f"vec{n}<{inner}>" if inner else None

    def concrete_type(self, t, span) -> str | None:
        """A type for a `var`: abstract numbers become what WGSL makes of them."""
        text = self.type_text(t, span)
        if text is not None:
            return text
        s = scalar_of(t)
        comp = "f32" if s is not None and s.kind == "float" else "i32"
        parts = vector_parts(deep_resolve(t))
        return f"vec{parts[1]}<{comp}>" if parts else comp

    def constructor(self, t, span) -> str:
        """The name that constructs a value of type t (vec2 for abstract vectors)."""
        text = self.type_text(t, span)
        if text is not None:
            return text
        t = deep_resolve(t)
        matrix = matrix_parts(t)
        if matrix is not None:
            return f"mat{matrix[1]}x{matrix[2]}"
        if isinstance(t, TTuple):
            return f"vec{len(t.items)}"
        return self.concrete_type(t, span)      # 「转换」以「整数」: a runtime value is i32 (f32 for 小数)

    def _struct_key(self, t) -> tuple[str, str] | None:
        """The struct a record type is: one of its name and shape, else the
        first of its shape (records are structural, seed 着三)."""
        t = resolve(t)
        if not isinstance(t, TRecord):
            return None
        plain = deep_resolve(t)
        named = [k for k in self.structs if k[1] == t.alias]
        for key in named + list(self.structs):
            if deep_resolve(self.structs[key][0].type) == plain:
                return key
        return self._builtin_struct(plain)

    def _builtin_struct(self, plain: TRecord) -> tuple[str, str] | None:
        """The struct declared, on first use, for a record a builtin returns
        that no struct of the program has the shape of (backends/records.py)."""
        name = builtin_record(plain)
        if name is None:
            return None
        text, fields = self.global_names.claim(name), NameAllocator(WGSL.reserved)
        names = {n: fields.claim(n) for n, _ in plain.fields}
        self.structs[("", name)] = (ir.Struct(name, type=plain), text, names)
        lines = [f"{INDENT}{names[n]}: {self.type_text(t, (0, 0))}," for n, t in plain.fields]
        self.builtin_structs.append("\n".join([f"struct {text} {{", *lines, "}"]))
        return ("", name)

    # ------------------------------------------------------------ declarations

    def _struct(self, module: ir.Module, decl: ir.Struct) -> str | None:
        key = (module.path, decl.name)
        if key not in self.structs:
            return None
        _, name, fields = self.structs[key]
        uses = self.io_uses.get(key, set())
        lines = [f"struct {name} {{"]
        locations = {field: location for field, _, location in located_fields(decl.type)}
        for field, t in decl.type.fields:
            text = self.type_text(t, self.at_name(decl))
            attrs = ""
            if uses:
                attrs = self._io_attributes(t, uses, locations.get(field), decl.type.field_io(field).interpolation)
            lines.append(f"{INDENT}{attrs}{fields[field]}: {text},")
        lines.append("}")
        return "\n".join(lines)

    def _io_attributes(self, t, uses: set[tuple[str, str]], location: int | None,
                       interpolation: str | None = None) -> str:
        """Attributes of an entry input or output of type t (seed 着四.1, 着四.3):
        @builtin by its alias, else its @location, with the interpolation
        written (扩展) or flat for integers between stages."""
        alias = t.alias
        if alias in BUILTIN_IO:
            self.uses_subgroups |= alias in SUBGROUP_IO
            return f"@builtin({BUILTIN_IO[alias].wgsl}) "
        between = bool(uses & {("顶点", "出"), ("片元", "入")})
        how = INTERPOLATIONS[interpolation].wgsl if interpolation else "flat" if is_integer(t) else None
        return f"@location({location}) " + (f"@interpolate({how}) " if how and between else "")

    def _resource(self, module: ir.Module, decl: ir.Resource) -> str:
        name = self.globals[(module.path, decl.name)]
        span = self.at_name(decl)
        if decl.kind == "workgroup":
            if head(decl.inner) == "数组":
                self.error(span, "工作组变量不能是运行期数组（「数组」）：改用「定长数组」")
            return f"var<workgroup> {name}: {self.type_text(decl.inner, span)};"
        binding = f"@group({decl.group}) @binding({decl.binding}) "
        if decl.kind in ("storage", "uniform"):
            problem = buffer_problem(decl.inner, decl.kind == "uniform")
            if problem:
                self.error(span, problem)
            space = "uniform" if decl.kind == "uniform" else (
                "storage, read" if decl.access == "只读" else "storage, read_write")
            return f"{binding}var<{space}> {name}: {self.type_text(decl.inner, span)};"
        return f"{binding}var {name}: {self.type_text(decl.type, span)};"

    def _const(self, module: ir.Module, decl: ir.Const) -> str | None:
        if decl.value is None or is_unit(decl.type):
            return None
        self._begin_item()
        default = ir.override_default(decl)
        if default is not None:
            return self._override(module, decl, default)
        value = self.lowered.body(decl.value)
        self._evaluate(decl.value, value)
        code = self._folded(decl) if _uses(decl.value, NOT_CONST_IN_NAGA) else self.expr(value)
        if self.lines:
            self.error(self.at_name(decl), "常量的值须是一个 WGSL 常量表达式（着四.5）", TARGET_CONST)
        if code is None:
            return None
        t = self.type_text(decl.type, self.at_name(decl))
        typed = f": {t}" if t else ""
        return f"const {self.globals[(module.path, decl.name)]}{typed} = {code.text};"

    def _override(self, module: ir.Module, decl: ir.Const, default: ir.Expr) -> str:
        """A pipeline-overridable constant, numbered (@id) as every target numbers it."""
        key = (module.path, decl.name)
        value = self.lowered.body(default)
        self._evaluate(default, value)
        t = self.type_text(decl.type, self.at_name(decl))
        return f"@id({self.override_ids[key]}) override {self.globals[key]}: {t} = {self.expr(value).text};"

    def _folded(self, decl: ir.Const) -> Code | None:
        """The value of a constant naga cannot evaluate (seed 着八 allows these
        builtins in const-expressions), written as the literal it evaluates to."""
        value = self.known.get(id(decl.value))
        scalar = scalar_of(deep_resolve(decl.type))
        if value is None or scalar is None or scalar.kind == "bool":
            names = "、".join(f"「{n}」" for n in sorted(NOT_CONST_IN_NAGA) if _uses(decl.value, {n}))
            self.error(self.at_name(decl), f"WebGPU（naga）不能在常量表达式里求值{names}，这里也算不出它的值："
                                           "把它移进函数体（令）", TARGET_CONST)
            return None
        wgsl_scalar = {("float", 32): "f32", ("float", 16): "f16", ("int", 32): "i32", ("uint", 32): "u32"}.get(
            (scalar.kind, scalar.bits))
        if wgsl_scalar is None:
            return self.expr(decl.value)
        values = value if isinstance(value, tuple) else (value,)
        if scalar.kind == "float":
            values = [float(narrow_float_text(v, scalar.bits)) for v in values]
        items = [typed_literal(v, wgsl_scalar) for v in values]
        if not isinstance(value, tuple):
            return Code(items[0], atomic=not items[0].startswith("-"))
        return Code(f"{self.type_text(decl.type, self.at_name(decl))}({', '.join(items)})")

    def _function(self, module: ir.Module, decl: ir.Function) -> str | None:
        if decl.body is None or decl.type is None:
            return None
        key = (module.path, decl.name)
        entry = self.entries.get(key)
        self._begin_item()
        params = self._parameters(decl, entry)
        result = self._result(decl, entry)
        at = (self.path, self.base)
        body = self.lowered.body(decl.body, at) if entry is None else self.lowered.entry(entry, decl.body, at)
        self._evaluate(decl.body, body)
        self.depth = 1
        if entry is not None and entry.stage == "计算":
            problem = workgroup_problem(self.info, entry, WORKGROUP_BYTES, " WebGPU 默认上限（maxComputeWorkgroupStorageSize）")
            if problem:
                self.error(self.at_name(decl), problem)
        self.entry_item = (decl, entry, params)
        self.into(body, RETURN)
        header = []
        if entry is not None:
            header.append(f"@compute @workgroup_size({self._workgroup_size(entry)})" if entry.stage == "计算"
                          else STAGE_ATTRIBUTE[entry.stage])
        header.append(f"fn {self.globals[key]}({', '.join(params)}){result} {{")
        return "\n".join(header + self.lines + ["}"])

    def _workgroup_size(self, entry: ir.Entry) -> str:
        """As written: numbers, or the names of the constants that give them
        (an overridable one stays overridable when the pipeline is made; the
        checker lets names and numbers not mix)."""
        names = self._workgroup_names(entry)
        return ", ".join(names) if names else _workgroup_size(entry.workgroup_shape)

    def _workgroup_step(self, entry: ir.Entry) -> str:
        """Invocations per workgroup as a u32: a number, or the product of the
        named sizes when an overridable constant gives one (it may be set otherwise)."""
        items = ir.workgroup_items(entry)
        if not any(isinstance(i, ir.GlobalRef) and ir.override_default(self.decls.get((i.module, i.name)))
                   for i in items):
            return f"{entry.workgroup_size}u"
        unsigned = resolve(items[0].type) == TCon("定长无符号", (32,))
        return " * ".join(name if unsigned else f"u32({name})" for name in self._workgroup_names(entry))

    def _workgroup_names(self, entry: ir.Entry) -> list[str]:
        """The constants' names a compute entry's size is given by, as WGSL spells them; none for numbers."""
        return [self.globals.get((i.module, i.name), i.name) for i in ir.workgroup_items(entry)
                if isinstance(i, ir.GlobalRef)]

    def _begin_item(self) -> None:
        self.lines, self.depth = [], 0
        self.scope = self.global_names.fork()
        self.bound, self.loops, self.known, self.split = {}, {}, {}, {}
        self.entry_item = None      # (function, entry, parameters) while writing an entry's function

    def _evaluate(self, checked: ir.Expr, lowered: ir.Expr) -> None:
        """Report const-expressions WebGPU would reject (in every local
        function, called or not); remember the known values of the lowered
        body's nodes too."""
        evaluator = ConstEvaluator(self.constants.global_value, lambda node, message: self.error(
            (node.start, node.end), f"常量表达式在 WGSL 建模块时就求值：{message}，WebGPU 会拒绝这个着色模块",
            TARGET_CONST))
        evaluator.value(checked)
        evaluator.value(lowered)
        self.known = evaluator.known

    def zero_workgroup(self, e: ir.ZeroWorkgroup) -> None:
        """Each invocation clears every N-th element of each variable (a
        single one the first invocation), then the workgroup meets."""
        decl, entry, params = self.entry_item
        index = self._local_index(decl, params)
        for key in e.variables:
            name, inner = self.globals[key], self.decls[key].inner
            t = resolve(inner)
            if isinstance(t, TCon) and t.name == "定长数组":
                i = self.scope.claim("yy_i")
                self.line(f"for (var {i} = {index}; {i} < {t.args[1]}u; {i} += {self._workgroup_step(entry)}) {{")
                place, t = f"{name}[{i}]", t.args[0]
            else:
                self.line(f"if {index} == 0u {{")
                place, t = name, inner
            with self.block():
                self.line(self._zero_statement(place, t))
            self.line("}")
        self.line("workgroupBarrier();")

    def _zero_statement(self, place: str, t) -> str:
        r = resolve(t)
        if isinstance(r, TCon) and r.name == "原子":
            return f"atomicStore(&{place}, {self.type_text(r.args[0], (0, 0))}());"
        return f"{place} = {self.type_text(t, (0, 0))}();"

    def _local_index(self, decl: ir.Function, params: list[str]) -> str:
        """The entry's local_invocation_index: its own parameter or struct field, else a new parameter."""
        for p in decl.params:
            bound = self.bound.get(id(p))
            if p.type.alias == "局部调用序" and bound is not None:
                return bound.text
            r = resolve(p.type)
            key = self._struct_key(p.type) if isinstance(r, TRecord) else None
            for field, ft in r.fields if key is not None and bound is not None else ():
                if ft.alias == "局部调用序":
                    own = self.split.get(id(p), {}).get(field)
                    return own.text if own is not None else f"{bound.text}.{self.structs[key][2][field]}"
        name = self.scope.claim("yy_序")
        params.append(f"@builtin(local_invocation_index) {name}: u32")
        return name

    def _parameters(self, decl: ir.Function, entry: ir.Entry | None) -> list[str]:
        out = []
        location = next_location(self._records(decl.params)) if entry else 0
        for index, p in enumerate(decl.params):
            if is_unit(p.type):
                self.bound[id(p)] = None
                continue
            if entry is not None and self._relies_on_a_field(decl, index, p):
                out += self._field_parameters(p)
                continue
            span = (p.start, p.end)
            if head(p.type) in NOT_PARAMETERS:
                self.error(span, f"WGSL 的函数参数不能是{self.show(p.type)}：缓冲、工作组变量与格只能直接使用")
            t = self.type_text(p.type, span)
            if t is None:
                self.error(span, f"WGSL 的函数参数须有具体类型，这里是{self.show(p.type)}：用「新整三二」等构造")
            name = self.scope.claim(p.name)
            self.bound[id(p)] = Code(name)
            attrs = ""
            if entry is not None and self._struct_key(p.type) is None:
                attrs = self._io_attributes(p.type, {(entry.stage, "入")}, location)
                location += p.type.alias not in BUILTIN_IO
            out.append(f"{attrs}{name}: {t}")
        return out

    def _relies_on_a_field(self, decl: ir.Function, index: int, p: ir.LocalVar) -> bool:
        """Whether uniformity relies on a uniform field of this entry struct parameter,
        which WGSL would judge varying with the struct's varying fields."""
        key = self._struct_key(p.type)
        return key is not None and any(field_proof(self.path, decl.name, index, name) in self.proofs
                                       for name, _ in self.structs[key][0].type.fields)

    def _field_parameters(self, p: ir.LocalVar) -> list[str]:
        """An entry struct's fields as parameters of their own (all are builtins: a
        compute entry's), the struct rebuilt from them where it is used whole."""
        key = self._struct_key(p.type)
        decl, name, fields = self.structs[key]
        own = {field: Code(self.scope.claim(fields[field])) for field, _ in decl.type.fields}
        self.split[id(p)] = own
        self.bound[id(p)] = Code(f"{name}({', '.join(c.argument() for c in own.values())})")
        out = []
        for field, t in decl.type.fields:
            attrs = self._io_attributes(t, {("计算", "入")}, None)
            out.append(f"{attrs}{own[field].text}: {self.type_text(t, (p.start, p.end))}")
        return out

    def _records(self, params) -> list[TRecord]:
        """The struct types among an entry's parameters (their fields hold locations)."""
        keys = (self._struct_key(p.type) for p in params)
        return [self.structs[key][0].type for key in keys if key is not None]

    def _result(self, decl: ir.Function, entry: ir.Entry | None) -> str:
        t = decl.type.result
        if is_unit(t):
            return ""
        text = self.type_text(t, self.at_name(decl))
        if text is None:
            self.error(self.at_name(decl), f"WGSL 的函数须返回具体类型，这里是{self.show(t)}")
        attrs = ""
        if entry is not None and self._struct_key(t) is None:
            attrs = self._io_attributes(t, {(entry.stage, "出")}, 0)
        return f" -> {attrs}{text}"

    # ------------------------------------------------------------ analysis

    def selectable(self, e: ir.If) -> bool:
        """A 「若」 the lowering left a plain choice (lower/statements.py
        `speculatable`) is written as select(否, 是, 条件)."""
        return e.otherwise is not None and self.lowered.statements.speculatable(e)

    # ------------------------------------------------------------ statements

    def is_statement_if(self, e: ir.If) -> bool:
        return not self.selectable(e)

    def if_into(self, e: ir.If, dest) -> None:
        cond = self.expr(e.cond)
        self.line(f"if {cond.text} {{")
        with self.block():
            self.into(e.then, dest)
        rest = e.otherwise
        while isinstance(rest, ir.If) and not self.selectable(rest):
            cond = self.expr(rest.cond)
            self.line(f"}} else if {cond.text} {{")
            with self.block():
                self.into(rest.then, dest)
            rest = rest.otherwise
        lines = self.captured(lambda: self.into(rest, dest) if rest is not None else self.deliver(dest, None))
        if lines:
            self.line("} else {")
            self.lines.extend(lines)
        self.line("}")

    def bind(self, var: ir.LocalVar, value: ir.Expr) -> None:
        """令: a let, a const (abstract numbers), a var (cells), or just another
        name for a resource or cell."""
        t = deep_resolve(var.type)
        span = (var.start, var.end)
        if is_unit(t):
            self.into(value, DISCARD)
            self.bound[id(var)] = None
        elif head(t) == "格" and isinstance(value, ir.Call) and value.name == "新格":
            init = self.expr(value.args[0])
            name = self.scope.claim(var.name)
            self.line(f"var {name}: {self.concrete_type(t, span)} = {init.text};")
            self.bound[id(var)] = Code(name)
        elif head(t) == "格" or head(t) in RESOURCE_TYPES:
            self.bound[id(var)] = self._reference(value)
        elif isinstance(value, ir.If) and not self.selectable(value) or isinstance(value, (ir.Inline, ir.Loop)):
            name = self.scope.claim(var.name)
            self.line(f"var {name}: {self.concrete_type(t, span)};")
            self.into(value, Assign(name))
            self.bound[id(var)] = Code(name)
        else:
            self.type_text(t, span)
            code = self.expr(value)
            keyword = "const" if is_abstract(t) and self.known.get(id(value)) is not None else "let"
            name = self.scope.claim(var.name)
            self.line(f"{keyword} {name} = {code.text};")
            self.bound[id(var)] = Code(name)

    def _reference(self, e: ir.Expr) -> Code:
        """A cell or resource named again: WGSL has no such values, only the
        variable itself, so it must be a name (or a field of a buffer so named)."""
        if not isinstance(ir.buffer_root(e), (ir.LocalRef, ir.GlobalRef)):
            self.error((e.start, e.end), f"WGSL 里{self.show(e.type)}不是能复制或选择的值：这里只能直接写它的名字")
            return Code("?")
        return self.expr(e)

    def inline_into(self, e: ir.Inline, dest) -> None:
        for p, a in zip(e.fun.params, e.args):
            self.bind(p, a)
        self.into(e.body, dest)

    def loop_into(self, e: ir.Loop, dest) -> None:
        """A loop's variables are vars; `next_round` reassigns them and
        continues (seed 着五).  Cells and resources stay references."""
        fun = e.fun
        slots = []
        for p, a, code in zip(fun.params, e.args, self.operands(e.args)):
            if code is None or head(p.type) in RESOURCE_TYPES or head(p.type) == "格":
                self.bound[id(p)] = code if code is None else self._reference(a)
                slots.append((p, None))
                continue
            name = self.scope.claim(p.name)
            self.line(f"var {name}: {self.concrete_type(p.type, (p.start, p.end))} = {code.text};")
            self.bound[id(p)] = Code(name)
            slots.append((p, name))
        exit, after = self._loop_exit(e, dest)
        self.loops[id(fun)] = slots
        self.line("loop {")
        with self.block():
            self.into(e.body, exit)
        self.line("}")
        del self.loops[id(fun)]
        after()

    def _loop_exit(self, e: ir.Loop, dest):
        """Where a loop's value goes, and what follows the loop.  Every exit
        breaks out of the loop: naga wants a function to end in a return."""
        if isinstance(dest, (Assign, Discard)):
            return LoopExit(dest), lambda: None
        if isinstance(dest, LoopExit):       # then the enclosing loop ends too
            return LoopExit(dest.inner), lambda: self.line("break;")
        if is_unit(e.fun.result):
            return LoopExit(DISCARD), lambda: None
        name = self.scope.claim("值")
        self.line(f"var {name}: {self.concrete_type(e.fun.result, (e.start, e.end))};")
        return LoopExit(Assign(name)), lambda: self.deliver(dest, Code(name))

    def next_round(self, e: ir.Next) -> None:
        """New values into temporaries, then into the loop's vars, then the
        next round; an unchanged variable is left alone."""
        slots = self.loops[id(e.fun)]
        changed = [(*slots[i], e.args[i]) for i in changed_variables(e)]
        codes = self.operands([a for _, _, a in changed])
        updates = []
        for (p, name, a), code in zip(changed, codes):
            if name is None:
                if code is not None and code.text != self.bound[id(p)].text:
                    self.error((a.start, a.end), f"局部递归函数「{e.fun.name}」的参数「{p.name}」"
                                                 "是格或资源，递归调用时须原样传入")
                continue
            updates.append((p, name, code))
        if len(updates) == 1:
            self.line(f"{updates[0][1]} = {updates[0][2].text};")
        else:
            temps = []
            for p, name, code in updates:
                temp = self.scope.claim("新" + p.name)
                self.line(f"let {temp} = {code.text};")
                temps.append((name, temp))
            for name, temp in temps:
                self.line(f"{name} = {temp};")
        self.line("continue;")

    # ------------------------------------------------------------ expressions

    def expr(self, e: ir.Expr) -> Code | None:
        """The WGSL expression for a plain operand (lower/statements.py), or
        for a 令's value: an inlined call, a loop or a 「若」 that is no plain
        choice goes through a variable.  None for a value of type 有."""
        if isinstance(e, (ir.Inline, ir.Loop)) or (isinstance(e, ir.If) and not self.selectable(e)):
            return self._through_variable(e)
        return getattr(self, "_expr_" + type(e).__name__)(e)

    def _through_variable(self, e: ir.Expr) -> Code | None:
        if is_unit(e.type):
            self.into(e, DISCARD)
            return None
        name = self.scope.claim("值")
        self.line(f"var {name}: {self.concrete_type(e.type, (e.start, e.end))};")
        self.into(e, Assign(name))
        return Code(name)

    def operands(self, args: list[ir.Expr]) -> list[Code | None]:
        """Plain operands (lower/statements.py), in order."""
        return [self.expr(a) for a in args]

    def _expr_Literal(self, e: ir.Literal) -> Code:
        text = float_text(e.value) if e.is_float else str(e.value)
        return Code(text, atomic=not text.startswith("-"))

    def _expr_LocalRef(self, e: ir.LocalRef) -> Code | None:
        return self.bound.get(id(e.var))

    def _expr_GlobalRef(self, e: ir.GlobalRef) -> Code | None:
        if is_unit(e.type):
            return None
        return Code(self.globals.get((e.module, e.name), e.name))

    def _expr_BuiltinValue(self, e: ir.BuiltinValue) -> Code | None:
        if e.name in ("阳", "阴"):
            return Code("true" if e.name == "阳" else "false")
        if e.name != "元":
            self.error((e.start, e.end), f"WGSL 的表达式里不能用「{e.name}」", TARGET_BUILTIN, 内建=e.name)
        return None

    def _expr_Project(self, e: ir.Project) -> Code:
        """A field of an entry struct passed as parameters of their own (for a
        uniformity proof, valid/uniformity.py) is that parameter."""
        if isinstance(e.base, ir.LocalRef) and id(e.base.var) in self.split:
            return self.split[id(e.base.var)][e.field]
        return super()._expr_Project(e)

    def field_names(self, e: ir.Project) -> dict[str, str] | None:
        t = deep_resolve(ir.field_owner(e))
        struct = self._struct_key(t)
        if struct is None:
            self.type_text(t, (e.base.start, e.base.end))
            return None
        return self.structs[struct][2]

    def record_values(self, e: ir.MakeRecord) -> list[ir.Expr]:
        """As written: the checker orders a record of a known type by its fields."""
        return [v for _, v in e.fields]

    def _expr_If(self, e: ir.If) -> Code:
        cond, then, otherwise = self.operands([e.cond, e.then, e.otherwise])
        return Code(f"select({otherwise.argument()}, {then.argument()}, {cond.argument()})")

    def _expr_Call(self, e: ir.Call) -> Code | None:
        if e.kind == "function":
            return self._user_call(e)
        spec = BUILTINS.get(e.name)
        if spec is None:
            self.error((e.name_start, e.name_end), f"「{e.name}」在 WGSL 里没有对应的写法", TARGET_BUILTIN, 内建=e.name)
            return Code("?")
        self.uses_subgroups |= e.name in SUBGROUP_BUILTINS
        return getattr(self, "_form_" + spec.form)(e, spec)

    def _user_call(self, e: ir.Call) -> Code | None:
        key = (e.module, e.name)
        codes = self.operands(e.args)
        text = f"{self.globals.get(key, e.name)}({', '.join(c.argument() for c in codes if c is not None)})"
        return self._value_or_statement(e, text)

    def _value_or_statement(self, e: ir.Call, text: str) -> Code | None:
        if is_unit(e.type):
            self.line(text + ";")
            return None
        return Code(text)

    # ------------------------------------------------------------ builtin forms

    def _form_infix(self, e, spec) -> Code:
        """A splat scalar beside a vector or matrix is written bare: WGSL's v * s and m * s do the same."""
        a, b = self.operands([ir.splat_scalar(x) for x in e.args])
        eager = self.effects.neighbours(e.args[1]) and not self.effects.effect(e.args[1])
        return Code(f"{a.operand()} {_EAGER.get(spec.text, spec.text) if eager else spec.text} {b.operand()}",
                    atomic=False, angled=spec.text == "<")

    def _form_prefix(self, e, spec) -> Code:
        (a,) = self.operands(e.args)
        return Code(f"{spec.text}{a.operand()}", atomic=False)

    def _form_call(self, e, spec) -> Code | None:
        codes = self.operands(e.args)
        return self._value_or_statement(e, f"{spec.text}({', '.join(c.argument() for c in codes if c is not None)})")

    def _form_clamp(self, e, spec) -> Code:
        """clamp(x, lo, hi) is min(max(x, lo), hi) by WGSL's definition, and
        that form is written when both bounds are constant and some lo > hi,
        which WGSL (Tint) refuses as a clamp but the language defines."""
        x, lo, hi = self.operands(e.args)
        if _inverted(self.known.get(id(e.args[1])), self.known.get(id(e.args[2]))):
            return Code(f"min(max({x.argument()}, {lo.argument()}), {hi.argument()})")
        return Code(f"clamp({x.argument()}, {lo.argument()}, {hi.argument()})")

    def _form_bits(self, e, spec) -> Code:
        """extractBits and insertBits clamp offset and count to 32 bits at run
        time, but WGSL (Tint) refuses constant ones beyond 32; the language
        clamps constants too, so they are written clamped."""
        codes = self.operands(e.args)
        offset, count = (self.known.get(id(a)) for a in e.args[-2:])
        if isinstance(offset, int) and isinstance(count, int) and offset + count > 32:
            offset = min(offset, 32)
            codes[-2:] = [Code(f"{offset}u"), Code(f"{min(count, 32 - offset)}u")]
        return Code(f"{spec.text}({', '.join(c.argument() for c in codes)})")

    def _form_index(self, e, spec) -> Code:
        a, i = self.operands(e.args)
        return Code(f"{a.operand()}[{i.text}]")

    def _form_store_index(self, e, spec) -> None:
        a, i, v = self.operands(e.args)
        self.line(f"{a.operand()}[{i.text}] = {v.text};")

    def _form_load(self, e, spec) -> Code:
        (a,) = self.operands(e.args)
        return a

    def _expr_UniformLoad(self, e: ir.UniformLoad) -> Code:
        """A workgroup read proved uniform (lowered as such: lower/loops.py):
        workgroupUniformLoad, whose value Tint knows to be uniform."""
        return Code(f"workgroupUniformLoad(&{self.expr(e.load).operand()})")

    def _form_store(self, e, spec) -> None:
        a, v = self.operands(e.args)
        self.line(f"{a.operand()} = {v.text};")

    def _form_atomic(self, e, spec) -> Code | None:
        a, i, *rest = self.operands(e.args)
        args = ", ".join([f"&{a.operand()}[{i.argument()}]"] + [c.argument() for c in rest])
        return self._value_or_statement(e, f"{spec.text}({args})")

    def _form_compare_exchange(self, e, spec) -> Code:
        """atomicCompareExchangeWeak's result is a type no program can name: it is
        bound, and its old_value and exchanged make the record's struct."""
        a, i, compare, value = self.operands(e.args)
        result = self.scope.claim("yy_换")
        self.line(f"let {result} = {spec.text}(&{a.operand()}[{i.argument()}], {compare.argument()}, {value.argument()});")
        members = dict(zip(COMPARE_EXCHANGE_FIELDS, ("old_value", "exchanged")))
        parts = [f"{result}.{members[n]}" for n, _ in deep_resolve(e.type).fields]
        return Code(f"{self.type_text(e.type, (e.start, e.end))}({', '.join(parts)})")

    def _form_replace(self, e, spec) -> Code:
        """A new value with one element replaced: a copy in a var, written once."""
        whole, index, value = self.operands(e.args)
        copy = self.scope.claim("yy_新")
        self.line(f"var {copy} = {whole.text};")
        self.line(f"{copy}[{index.text}] = {value.text};")
        return Code(copy)

    def _form_split(self, e, spec) -> Code:
        """modf and frexp return a struct no program can name: it is bound, and
        its members make the record's struct."""
        (x,) = self.operands(e.args)
        result = self.scope.claim("yy_分")
        self.line(f"let {result} = {spec.text}({x.argument()});")
        members = SPLIT_MEMBERS[spec.text]
        parts = [f"{result}.{members[n]}" for n, _ in deep_resolve(e.type).fields]
        return Code(f"{self.type_text(e.type, (e.start, e.end))}({', '.join(parts)})")

    def _form_address(self, e, spec) -> Code:
        (a,) = self.operands(e.args)
        return Code(f"{spec.text}(&{a.operand()})")

    def _form_discard(self, e, spec) -> None:
        self.line("discard;")

    def _form_cell_new(self, e, spec) -> Code:
        (init,) = self.operands(e.args)
        name = self.scope.claim("格")
        self.line(f"var {name}: {self.concrete_type(e.type, (e.start, e.end))} = {init.text};")
        return Code(name)

    def _form_literal(self, e, spec) -> Code:
        value = ir.literal_value(e.args[0])
        if value is not None:
            self.type_text(e.type, (e.start, e.end))
            text = typed_literal(value, spec.text)
            return Code(text, atomic=not text.startswith("-"))
        return self._form_convert(e, spec)

    def _form_convert(self, e, spec) -> Code:
        (a,) = self.operands(e.args)
        return Code(f"{self.constructor(e.type, (e.start, e.end))}({a.argument()})")

    def _form_bitcast(self, e, spec) -> Code:
        (a,) = self.operands(e.args)
        target = self.type_text(e.type, (e.start, e.end))
        source_halves, target_halves = half_lanes(e.args[0].type), half_lanes(e.type)
        if source_halves and target_halves:
            return a
        if source_halves:
            return self._halves_to_words(a, source_halves, target)
        if target_halves:
            return self._words_to_halves(a, target_halves)
        return Code(f"bitcast<{target}>({a.argument()})")

    def _halves_to_words(self, a: Code, halves: int, target: str) -> Code:
        """naga has no bitcast from a vector of f16 (Tint has): each pair of halves is
        packed into a u32 through f32, which holds every f16 exactly."""
        if halves == 2:
            words = f"pack2x16float(vec2<f32>({a.argument()}))"
        else:
            name = self.scope.claim("yy_半")
            self.line(f"let {name} = vec4<f32>({a.argument()});")
            words = f"vec2<u32>(pack2x16float({name}.xy), pack2x16float({name}.zw))"
        unsigned = "u32" if halves == 2 else "vec2<u32>"
        return Code(words if target == unsigned else f"bitcast<{target}>({words})")

    def _words_to_halves(self, a: Code, halves: int) -> Code:
        """The other way: each u32 unpacked to two halves through f32."""
        if halves == 2:
            return Code(f"vec2<f16>(unpack2x16float(bitcast<u32>({a.argument()})))")
        name = self.scope.claim("yy_字")
        self.line(f"let {name} = bitcast<vec2<u32>>({a.argument()});")
        return Code(f"vec4<f16>(vec4<f32>(unpack2x16float({name}.x), unpack2x16float({name}.y)))")

    def _form_unavailable(self, e, spec) -> None:
        self.error((e.name_start, e.name_end), spec.text, TARGET_BUILTIN, 内建=e.name)
        return Code("?") if not is_unit(e.type) else None


#: 且/或 whose right operand needs its neighbours (a builtin that must run in uniform
#: control flow, directly or in a function it calls) and writes nothing: `&`/`|`
#: evaluate it always, where `&&`/`||` would put it behind the left operand (a
#: branch, for Tint); a right side that writes or needs statements is already a 若
#: (lower/statements.py), so it runs only when needed
_EAGER = {"&&": "&", "||": "|"}


def _workgroup_size(shape: tuple[int, int, int]) -> str:
    """`x`, `x, y` or `x, y, z`: trailing 1s left out, as they were written."""
    parts = list(shape)
    while len(parts) > 1 and parts[-1] == 1:
        parts.pop()
    return ", ".join(map(str, parts))


def _inverted(low, high) -> bool:
    """Whether known constant bounds have some component with low > high."""
    if low is None or high is None:
        return False
    if isinstance(low, tuple) and isinstance(high, tuple):
        return any(_inverted(a, b) for a, b in zip(low, high))
    if isinstance(low, tuple) or isinstance(high, tuple):
        return False
    return bool(low > high)

