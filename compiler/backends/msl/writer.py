"""The MSL writer: checked IR of a shader source and its imports → Metal
Shading Language (seed 着九).

It reads the same checked IR as the WGSL writer; only the writing differs.
Bodies are expressions; they become statements by delivering each value to a
destination (the return, a variable, a discarded `(void)(…);`, or the exit of
a `while (true)` loop).  Bodies arrive lowered (compiler/lower/loops.py):
an inlined local function's parameters become consts, a loop a `while
(true)` with its variables.  MSL has no module-level resources:
every function takes the resources it uses, directly or through calls (the
validation pass's `uses`, compiler/valid/stages.py), as trailing parameters, and entry functions bind them with [[buffer(n)]],
[[texture(n)]] and [[sampler(n)]], n = group × 16 + binding.

Beyond the seed: 「数组长度」 reads element n of a `constant uint*` at
[[buffer(30)]] that the host fills with the element count of the array bound
at [[buffer(n)]] (the entry table says which n); samplers outside group 0,
groups other than 0 and 1, and buffer slots past 30 are reported.

Subgroup matrices (seed 着十二) are structs of simdgroup_matrix blocks with
one inline function per builtin, declared after the header only when the
source uses them (the 金矩阵片序幕, fragments.py).  A 若 whose value is a
fragment is always an if statement, never a `?:`.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from ... import ir
from ...builtin.formats import storage_format
from ...layout import trailing_array
from ...builtin.textures import GATHER_COMPONENT, TEXTURES
from ...builtin.io import BUILTIN_IO, INTERPOLATIONS, located_fields, next_location
from ...diagnostics import TARGET_BINDING, TARGET_BUILTIN, TARGET_TYPE, TRANSLATION, Diagnostic
from ...types import TCon, TError, TRecord, TTuple, deep_resolve, is_unit, matrix_parts, resolve, vector_parts
from .. import EntryInfo, Translation
from ..targets import DEFAULT_OPTIONS, Options
from ...valid.consteval import KnownValues, is_abstract, scalar_of as const_scalar, written_number
from ..names import NameAllocator
from ..records import COMPARE_EXCHANGE_FIELDS, MODF_FIELDS, builtin_record
from ..targets import LENGTHS_SLOT, MSL
from ..text import DISCARD, INDENT, RETURN, Assign, Code, LoopExit, StatementWriter, float_text, narrow_float_text
from ...lower.loops import changed_variables, lowering
from ...valid.limits import workgroup_problem
from ...lower.types import Scalar, head, scalar
from . import fragments
from .builtins import GUARDED, MEMORY_ORDER, BUILTINS, CELL, Special, Template

HEADER = "#include <metal_stdlib>\nusing namespace metal;"
SCALARS = {Scalar.F32: "float", Scalar.F16: "half", Scalar.I32: "int", Scalar.U32: "uint"}
ABSTRACT = {"整数": "int", "小数": "float"}   # what a declared abstract number becomes
HANDLES = {"采样器": "sampler", "比较采样器": "sampler"}
#: a storage format's texel scalar → Metal's texture component type
TEXEL_TYPES = {"float": "float", "int": "int", "uint": "uint"}
#: the getters of textureDimensions' components
SIZE_GETTERS = ("get_width", "get_height", "get_depth")
SLOT_KIND = {"storage": "buffer", "uniform": "buffer", "texture": "texture",
             "depth_texture": "texture", "sampler": "sampler", "comparison_sampler": "sampler",
             "storage_texture": "texture"}
MAX_BUFFER_SLOT = 30      # Metal binds at most 31 buffers per function
STAGE_KEYWORD = {"计算": "kernel", "顶点": "vertex", "片元": "fragment"}
LINE_LIMIT = 100
THREADGROUP_BYTES = 32768     # threadgroup memory every Apple GPU family gives a kernel
#: a three-component member of a struct in a buffer → its WGSL alignment (WGSL §14.4:
#: vec3<f32> takes 12 bytes aligned to 16, Metal's float3 16), written as Metal's
#: packed vector (12 bytes aligned to 4) with alignas; half3 → packed_half3, 6 aligned to 8
PACKED_ALIGN = {"float3": 16, "int3": 16, "uint3": 16, "half3": 8}



class TranslationFailure(Exception):
    """What MSL cannot express, at a span of the current definition, with its
    diagnostic code and fields (a builtin or type MSL lacks: `missing_builtin`,
    `missing_type`)."""

    def __init__(self, span: tuple[int, int], message: str, code: str = TRANSLATION, **fields: str) -> None:
        super().__init__(message)
        self.span = span
        self.message = message
        self.code = code
        self.fields = fields


def missing_builtin(span, message: str, name: str) -> TranslationFailure:
    return TranslationFailure(span, message, TARGET_BUILTIN, 内建=name)



def _written_amount(e: ir.Expr):
    """The number a shift amount is written as (「新无三二」于「三」, or a vector of one), else None."""
    if isinstance(e, ir.MakeTuple):
        amounts = {_written_amount(i) for i in e.items}
        return amounts.pop() if len(amounts) == 1 else None
    return written_number(e)


def _named(e: ir.Expr) -> set[int]:
    """The local variables an expression's text may name: not those of an
    inlined call's or a loop's body, whose value is a temporary written before."""
    found, stack = set(), [e]
    while stack:
        n = stack.pop()
        if isinstance(n, ir.LocalRef):
            found.add(id(n.var))
        stack.extend(n.args if isinstance(n, (ir.Inline, ir.Loop)) else ir.children(n))
    return found


def constant_text(value, scalar) -> str | None:
    """An MSL literal for one known component; an abstract integer beyond 32
    bits is a long (WGSL keeps it exact until it meets a concrete type)."""
    if scalar.kind == "bool":
        return "true" if value else "false"
    if scalar.kind == "float":
        return narrow_float_text(value, scalar.bits) + ("h" if scalar.bits == 16 else "f")
    if scalar.kind == "uint":
        return f"{value}u"
    if scalar.bits == 32:
        return f"int({value})" if value != -2 ** 31 else "int(-2147483647 - 1)"
    if -2 ** 31 < value < 2 ** 31:
        return str(value)
    return f"{value}L"          # an abstract integer beyond int: a long

@dataclass
class MslEntry(EntryInfo):
    """An entry as the host sees it: `parameters` are (type, name, attribute)
    of the MSL function; `lengths` the (buffer slot, resource) pairs whose
    element counts the host writes into [[buffer(30)]] for 「数组长度」 —
    (bytes − offset) ÷ stride where `header_arrays` names an array after
    header fields, bytes ÷ stride otherwise."""

    workgroup_size: int | None = None
    parameters: list[tuple[str, str, str]] = field(default_factory=list)
    lengths: list[tuple[int, str]] = field(default_factory=list)
    workgroup_shape: tuple[int, int, int] = (1, 1, 1)
    header_arrays: dict[int, tuple[int, int]] = field(default_factory=dict)   # slot → (offset, stride) after a header

    def host_details(self) -> str:
        """The threadgroup shape the host dispatches with when it is not
        (N, 1, 1), and where the host puts the array lengths, if the entry
        reads any."""
        parts = []
        if self.workgroup_shape[1:] != (1, 1):
            parts.append("线程组=" + "×".join(map(str, self.workgroup_shape)))
        if self.lengths:
            pairs = "，".join(f"{slot}={name}" + ("（（字节数－{}）÷{}）".format(*self.header_arrays[slot])
                                                  if slot in self.header_arrays else "") for slot, name in self.lengths)
            parts.append(f"数组长度缓冲={LENGTHS_SLOT}：{pairs}")
        return "；".join(parts)


# ---------------------------------------------------------------- IR helpers


_WRAPPING = {"加": "+", "减": "-", "乘": "*"}


def runtime_sized(resource: ir.Resource) -> bool:
    """A storage buffer holding a runtime-sized 数组 (its count comes from the host)."""
    inner = deep_resolve(resource.inner) if resource.inner is not None else None
    return resource.kind == "storage" and isinstance(inner, TCon) and inner.name == "数组"


def scalar_kind(t) -> str | None:
    """'float', 'int', 'uint' or 'bool' for a scalar or a vector of them."""
    t = deep_resolve(t)
    parts = vector_parts(t)
    comp = parts[0] if parts else t
    return {"定长小数": "float", "小数": "float", "定长整数": "int", "整数": "int",
            "定长无符号": "uint", "爻": "bool"}.get(head(comp))


def float_width(t) -> int | None:
    """16 or 32 for a sized float scalar or vector, None for anything else."""
    t = deep_resolve(t)
    parts = vector_parts(t)
    comp = parts[0] if parts else t
    return comp.args[0] if head(comp) == "定长小数" and comp.args else None


#: (integer kind, float width) → the range WGSL clamps a converted float to:
#: the integers both types hold
INT_FROM_FLOAT = {
    ("int", 32): ("-2147483648.0", "2147483520.0"), ("uint", 32): ("0.0", "4294967040.0"),
    ("int", 16): ("-65504.0", "65504.0"), ("uint", 16): ("0.0", "65504.0"),
}


def storage_array(decl: ir.Resource):
    """The element type when a storage buffer holds a runtime array."""
    return runtime_element(decl.inner)


def runtime_element(t):
    """The element type of a runtime-sized 「数组」 type, else None."""
    t = deep_resolve(t)
    return t.args[0] if head(t) == "数组" else None


def holds_atomics(t) -> bool:
    t = deep_resolve(t)
    if isinstance(t, TCon):
        return t.name == "原子" or any(holds_atomics(a) for a in t.args if not isinstance(a, int))
    if isinstance(t, TRecord):
        return any(holds_atomics(ft) for _, ft in t.fields)
    return False


# ---------------------------------------------------------------- the writer


class MslWriter(StatementWriter):
    """Writes one shader source (with its imported shader sources) as MSL."""

    DISCARDED = "(void)({});"
    RECORD = "{}{{{}}}"
    ARRAY = "{}{{{}}}"

    def __init__(self, info, options: Options = DEFAULT_OPTIONS) -> None:
        self.info = info
        self.options = options
        self.modules = modules = info.modules   # from the validation pass (compiler/valid/)
        self.override_ids = ir.override_ids(modules)
        self.own = info.module
        self.lowered = lowering(info)          # bodies as printed (compiler/lower/loops.py)
        self.show = info.show
        self.diagnostics: list[Diagnostic] = []
        self.globals: dict[tuple[str, str], str] = {}
        self.decls: dict[tuple[str, str], ir.Decl] = {}
        self.structs: dict[str, tuple[ir.Struct, str, dict[str, str], tuple[str, str]]] = {}
        self.module_of = {m.path: m for m in modules}
        self.emitted: set[tuple[str, str]] = set()
        self.resources: list[tuple[str, str]] = []       # keys in declaration order
        self.entries = info.entry_functions    # an entry's function → the entry (one each: valid/entries.py)
        self.outputs: dict[str, set[str]] = {}           # struct → stages it is the output of
        self.buffer_structs: set[str] = set()            # structs laid out as WGSL lays out buffers
        self.builtin_structs: list[str] = []             # structs for records builtins return (backends/records.py)
        self.global_names = NameAllocator(MSL.reserved)
        self.lengths_name = ""
        self.known = KnownValues(self.decls)
        self.uses = info.uses                  # the resources each function uses (valid/stages.py)
        self.table: list[MslEntry] = []
        self.prelude_names: dict[str, str] = {}          # fragments.NAMES → the names claimed
        self.prelude_used: set[str] = set()              # fragment builtins called
        self.fragment_types: set[str] = set()            # fragment and tensor types written
        self.path, self.base, self.definition = "", 0, ""
        self._begin_item()

    # ------------------------------------------------------------ output

    @contextmanager
    def capture(self):
        """Collect the lines written inside, at the current depth."""
        saved, self.lines = self.lines, []
        captured: list[str] = []
        try:
            yield captured
        finally:
            captured.extend(self.lines)
            self.lines = saved

    def report(self, span, message: str, code: str = TRANSLATION, **fields: str) -> None:
        start, end = span
        d = Diagnostic(self.path, self.base + start, self.base + end, message, self.definition,
                       code=code, fields={"目标": "MSL", **fields})
        if not any(x.start == d.start and x.message == d.message for x in self.diagnostics):
            self.diagnostics.append(d)

    @staticmethod
    def at_name(decl: ir.Decl) -> tuple[int, int]:
        return (0, decl.name_end)

    def _at(self, module: ir.Module, decl: ir.Decl) -> None:
        self.path, self.base, self.definition = module.path, module.starts[decl.name], decl.name

    # ------------------------------------------------------------ module

    def run(self) -> Translation:
        self._declare_globals()
        self._note_buffer_structs()
        self._note_entry_outputs()
        chunks = []
        for module in self.modules:
            for decl in module.decls:
                self._emit(module, decl, chunks)
        if self.diagnostics:
            return Translation(None, self._entry_table(), self.diagnostics)
        chunks[:0] = self.builtin_structs
        used = self.prelude_used | self.fragment_types
        if used:
            chunks.insert(0, fragments.prelude(used, self.prelude_names))
        chunks.insert(0, fragments.header(HEADER, used))
        return Translation("\n\n".join(chunks) + "\n", self._entry_table(), [])

    def _entry_table(self) -> list[EntryInfo]:
        """Every entry item in source order (written ones with their host details)."""
        written = {e.item: e for e in self.table}
        return [written.get(d.name) or EntryInfo(d.name, self.globals.get(self._function_key(d), d.function), d.stage)
                for d in self.own.decls if isinstance(d, ir.Entry)]

    def _emit(self, module: ir.Module, decl: ir.Decl, chunks: list[str]) -> None:
        """Write a declaration in source order, after what it uses that comes
        later in the source (C++ declares before use; WGSL does not care)."""
        key = (module.path, decl.name)
        if key in self.decls:
            if key in self.emitted:
                return
            self.emitted.add(key)
            for dep in self._dependencies(decl):
                self._emit(self.module_of[dep[0]], self.decls[dep], chunks)
        self._at(module, decl)
        try:
            chunk = self._decl(module, decl)
        except TranslationFailure as failure:
            self.report(failure.span, failure.message, failure.code, **failure.fields)
            return
        if chunk:
            chunks.append(chunk)

    def _dependencies(self, decl: ir.Decl) -> list[tuple[str, str]]:
        """Structs, constants and functions a declaration names, in source order."""
        found: dict[tuple[str, str], None] = {}
        types = []
        if isinstance(decl, ir.Struct) and decl.type is not None:
            types += [t for _, t in decl.type.fields]
        if isinstance(decl, ir.Const):
            types.append(decl.type)
        if isinstance(decl, ir.Function) and decl.type is not None:
            types += [*decl.type.params, decl.type.result]
        body = decl.value if isinstance(decl, ir.Const) else getattr(decl, "body", None)
        for e in ir.walk(self.lowered.body(body)) if body is not None else ():
            types.append(e.type)
            if isinstance(e, ir.GlobalRef) and isinstance(self.decls.get((e.module, e.name)), ir.Const):
                found[(e.module, e.name)] = None
            elif isinstance(e, ir.Call) and e.kind == "function":
                found[(e.module, e.name)] = None
            elif isinstance(e, (ir.Inline, ir.Loop)):
                types += [p.type for p in e.fun.params]
        for t in types:
            for struct in self._structs_in(t):
                if self.structs[struct][3] is not None:     # not a struct declared for a builtin
                    found[self.structs[struct][3]] = None
        order = [m.path for m in self.modules]
        return sorted(found, key=lambda k: (order.index(k[0]), ir.item_start(self.modules, k)))

    def _structs_in(self, t) -> list[str]:
        t = resolve(t)   # the recursion resolves the parts (deep_resolve at each level was cubic in the nesting)
        if isinstance(t, TRecord):
            name = self._struct_name(t)
            inner = [s for _, ft in t.fields for s in self._structs_in(ft)]
            return inner + ([name] if name is not None else [])
        if isinstance(t, TTuple):
            return [s for item in t.items for s in self._structs_in(item)]
        if isinstance(t, TCon):
            return [s for a in t.args if not isinstance(a, int) for s in self._structs_in(a)]
        return []

    def _declare_globals(self) -> None:
        for module in self.modules:
            for decl in module.decls:
                if not isinstance(decl, (ir.Struct, ir.Resource, ir.Function, ir.Const)):
                    continue
                key = (module.path, decl.name)
                self.globals[key] = self.global_names.claim(decl.name, entry=key in self.entries)
                self.decls[key] = decl
                if isinstance(decl, ir.Resource):
                    self.resources.append(key)
                if isinstance(decl, ir.Struct) and decl.type is not None:
                    fields = NameAllocator(MSL.reserved)
                    names = {n: fields.claim(n) for n, _ in decl.type.fields}
                    self.structs.setdefault(decl.name, (decl, self.globals[key], names, key))
        self.lengths_name = self.global_names.claim("数组长度")
        self.prelude_names = {name: self.global_names.claim(name) for name in fragments.NAMES}

    def _function_key(self, entry: ir.Entry) -> tuple[str, str]:
        return ir.function_key(self.modules, entry.function)

    def _note_entry_outputs(self) -> None:
        for key, entry in self.entries.items():
            function = self.decls.get(key)
            if isinstance(function, ir.Function) and function.type is not None:
                struct = self._struct_name(function.type.result)
                if struct is not None:
                    self.outputs.setdefault(struct, set()).add(entry.stage)

    def _note_buffer_structs(self) -> None:
        """The structs a storage or uniform buffer holds, nested ones and array
        elements included: their members follow WGSL's layout (`_struct`)."""
        for key in self.resources:
            resource = self.decls[key]
            if resource.kind in ("storage", "uniform") and resource.inner is not None:
                self.buffer_structs.update(self._structs_in(resource.inner))

    def _decl(self, module: ir.Module, decl: ir.Decl) -> str | None:
        if isinstance(decl, ir.Struct):
            return self._struct(decl)
        if isinstance(decl, ir.Resource):
            self._check_slot(decl)
            return None
        if isinstance(decl, ir.Const):
            return self._const(module, decl)
        if isinstance(decl, ir.Function) and decl.body is not None and decl.type is not None:
            key = (module.path, decl.name)
            if key in self.entries:
                return self._entry_function(key, decl, self.entries[key])
            return self._helper_function(key, decl)
        return None

    # ------------------------------------------------------------ types

    def missing_type(self, span, message: str, t) -> TranslationFailure:
        return TranslationFailure(span, message, TARGET_TYPE, 类型=self.show(t))

    def type_text(self, t, span) -> str:
        """The MSL spelling of a value's type; abstract numbers become int and float."""
        t = deep_resolve(t)
        if isinstance(t, TError):
            raise TranslationFailure(span, "类型未知")
        if isinstance(t, TTuple):
            return self._tuple_type(t, span)
        if isinstance(t, TRecord):
            name = self._struct_name(t)
            if name is None:
                raise self.missing_type(span, f"金属写不出没有名字的记录类型{self.show(t)}：先用「名」即「组类」【…】也 定义结构", t)
            return self.structs[name][1]
        name = head(t)
        if name in ("定长小数", "定长整数", "定长无符号"):
            text = SCALARS.get(scalar(t))
            if text is None:
                raise self.missing_type(span, f"金属目标没有{self.show(t)}：标量只有「浮三二」「浮十六」「整三二」「无三二」（着三）", t)
            return text
        if name in ABSTRACT:
            return ABSTRACT[name]
        if name == "爻":
            return "bool"
        if name in HANDLES:
            return HANDLES[name]
        if name == "原子":
            return {"int": "atomic_int", "uint": "atomic_uint"}[scalar_kind(t.args[0])]
        if name in TEXTURES:
            return self._texture_type(t, TEXTURES[name], span)
        if name == "定长数组" and isinstance(t.args[1], int):
            return f"array<{self.type_text(t.args[0], span)}, {t.args[1]}>"
        if name == "格":
            return self.type_text(t.args[0], span)
        if name in fragments.TYPES or name in fragments.TENSOR_TYPES:
            self.fragment_types.add(name)
            return self.prelude_names[{**fragments.TYPES, **fragments.TENSOR_TYPES}[name]]
        raise self.missing_type(span, fragments.UNAVAILABLE.get(name) or f"金属写不出类型{self.show(t)}", t)

    def _tuple_type(self, t: TTuple, span) -> str:
        matrix = matrix_parts(t)
        if matrix is not None:
            comp, cols, rows = matrix
            return f"{self.type_text(comp, span)}{cols}x{rows}"
        vector = vector_parts(t)
        if vector is None:
            raise self.missing_type(span, f"金属写不出元组类型{self.show(t)}", t)
        comp, n = vector
        return f"{self.type_text(comp, span)}{n}"

    def _struct_name(self, t) -> str | None:
        """The struct a record type is: by its alias, else the first of the same shape."""
        t = resolve(t)
        if not isinstance(t, TRecord):
            return None
        if t.alias in self.structs:
            return t.alias
        names = [n for n, _ in t.fields]
        plain = None
        for name, (decl, *_) in self.structs.items():
            if [n for n, _ in decl.type.fields] != names:
                continue   # (cheap: resolving deeply at every level of nested records was cubic)
            plain = plain or deep_resolve(t)
            if deep_resolve(decl.type) == plain:
                return name
        return self._builtin_struct(plain or t)

    def _builtin_struct(self, plain: TRecord) -> str | None:
        """The struct declared, before everything else, for a record a builtin
        returns that no struct of the program has the shape of (backends/records.py)."""
        name = builtin_record(plain)
        if name is None:
            return None
        plain = deep_resolve(plain)
        text, fields = self.global_names.claim(name), NameAllocator(MSL.reserved)
        names = {n: fields.claim(n) for n, _ in plain.fields}
        self.structs[name] = (ir.Struct(name, type=plain), text, names, None)
        lines = [f"{INDENT}{self.type_text(t, (0, 0))} {names[n]};" for n, t in plain.fields]
        self.builtin_structs.append("\n".join([f"struct {text} {{", *lines, "};"]))
        return name

    def _resource_type(self, decl: ir.Resource, span) -> str:
        """How a function parameter holds a resource (seed 着九)."""
        if decl.kind == "storage":
            space = "const device" if decl.access == "只读" and not holds_atomics(decl.inner) else "device"
            element = storage_array(decl)
            if element is not None:
                return f"{space} {self.type_text(element, span)}*"
            return f"{space} {self.type_text(decl.inner, span)}&"
        if decl.kind == "uniform":
            return f"constant {self.type_text(decl.inner, span)}&"
        if decl.kind == "workgroup":
            return f"threadgroup {self.type_text(decl.inner, span)}&"
        return self.type_text(decl.type, span)

    # ------------------------------------------------------------ declarations

    def _struct(self, decl: ir.Struct) -> str | None:
        entry = self.structs.get(decl.name)
        if entry is None or entry[0] is not decl:
            return None
        _, name, fields, _ = entry
        # one stage at most: a vertex output holds 裁剪位置, which no fragment outputs (the checker's rule)
        stage = next(iter(self.outputs.get(decl.name, set())), None)
        lines = [f"struct {name} {{"]
        locations = {field: location for field, _, location in located_fields(decl.type)}
        for field_name, t in decl.type.fields:
            element = runtime_element(t)
            if element is not None:     # a buffer's trailing array: SPIRV-Cross's one-element member, indexed past its end
                lines.append(f"{INDENT}{self.type_text(element, self.at_name(decl))} {fields[field_name]}[1];")
                continue
            text = self.type_text(t, self.at_name(decl))
            if text in PACKED_ALIGN and decl.name in self.buffer_structs:
                text = f"alignas({PACKED_ALIGN[text]}) packed_{text}"
            attribute = ""
            if stage is not None:
                attribute = self._output_attribute(t, stage, locations.get(field_name))
            lines.append(f"{INDENT}{text} {fields[field_name]}{attribute};")
        lines.append("};")
        return "\n".join(lines)

    @staticmethod
    def _output_attribute(t, stage: str, location: int | None) -> str:
        """The stage attribute of a vertex or fragment output field (the checker
        has made sure it is a builtin output of the stage or a numeric value);
        Metal reads the interpolation at the fragment input."""
        if t.alias in BUILTIN_IO:
            return f" [[{BUILTIN_IO[t.alias].msl}]]"
        return f" [[user(loc{location})]]" if stage == "顶点" else f" [[color({location})]]"

    def _check_slot(self, decl: ir.Resource) -> None:
        """Metal's argument tables: 31 buffers, 16 samplers (seed 着九's 待办)."""
        if decl.kind == "workgroup" or decl.group is None or decl.binding is None:
            return
        span = self.at_name(decl)
        if decl.group not in (0, 1):
            self.report(span, f"金属目标只能用组 0 与组 1（序号＝组号×16＋绑定号，一个函数最多 31 个缓冲），这里是组 {decl.group}", TARGET_BINDING)
        elif decl.binding >= 16:
            self.report(span, f"金属目标的绑定号须小于 16（序号＝组号×16＋绑定号），这里是 {decl.binding}", TARGET_BINDING)
        elif SLOT_KIND[decl.kind] == "sampler" and decl.group != 0:
            self.report(span, "金属的采样器序号只到 15：采样器与比较采样器只能放在组 0", TARGET_BINDING)
        elif SLOT_KIND[decl.kind] == "buffer" and self._slot(decl) > MAX_BUFFER_SLOT:
            self.report(span, f"金属的缓冲序号至多 {MAX_BUFFER_SLOT}，组 1 号 15 得 31：换一个绑定号", TARGET_BINDING)

    @staticmethod
    def _slot(decl: ir.Resource) -> int:
        return decl.group * 16 + decl.binding

    def _const(self, module: ir.Module, decl: ir.Const) -> str | None:
        if decl.value is None or is_unit(decl.type):
            return None
        self._begin_item()
        default = ir.override_default(decl)
        if default is not None:
            return self._override(module, decl, default)
        value = self.lowered.body(decl.value)
        self.known.evaluate(value)
        code = self.expr(value)
        if self.lines:
            raise TranslationFailure(self.at_name(decl), "常量的值须是一个常量表达式（着四.5）")
        t = "long" if code.text.endswith("L") else self.type_text(decl.type, self.at_name(decl))
        return f"constant {t} {self.globals[(module.path, decl.name)]} = {code.text};"

    def _override(self, module: ir.Module, decl: ir.Const, default: ir.Expr) -> str:
        """A pipeline-overridable constant: Metal's function constant of the
        same number as WGSL's @id, its default where the pipeline gives none."""
        key = (module.path, decl.name)
        name, t = self.globals[key], self.type_text(decl.type, self.at_name(decl))
        given = self.global_names.claim(f"{name}_覆")
        value = self.lowered.body(default)
        self.known.evaluate(value)
        return (f"constant {t} {given} [[function_constant({self.override_ids[key]})]];\n"
                f"constant {t} {name} = is_function_constant_defined({given}) ? {given} : {self.expr(value).text};")

    def _begin_item(self) -> None:
        self.lines: list[str] = []
        self.depth = 0
        self.loop_depth = 0
        self.entry_item = None      # (entry, parameters) while writing an entry's function
        self.scope = self.global_names.fork()
        self.bound: dict[int, Code | None] = {}
        self.loops: dict[int, list[tuple[ir.LocalVar, str | None]]] = {}

    def _resource_names(self, key) -> list[str]:
        """The resources a function takes, in declaration order, then the lengths buffer."""
        uses = self.uses.of(key)
        names = [self.globals[r] for r in self.resources if r in uses.passed]
        return names + ([self.lengths_name] if self._counted(uses) else [])

    def _counted(self, uses) -> frozenset:
        """The runtime-sized buffers whose element counts a function takes in the
        lengths buffer: those 「数组长度」 reads and, with bounds checks on, every
        one it uses (its indices are checked against them, docs/后端.md〈翻译选项〉)."""
        if not self.options.bounds:
            return uses.lengths
        return uses.lengths | {k for k in uses.resources if runtime_sized(self.decls[k])}

    def _helper_function(self, key, decl: ir.Function) -> str:
        self._begin_item()
        params = []
        for p in decl.params:
            if is_unit(p.type):
                self.bound[id(p)] = None
                continue
            if head(p.type) == "格":
                raise TranslationFailure((p.start, p.end), f"函数参数不能是{self.show(p.type)}：格只能在定义它的函数里使用")
            name = self.scope.claim(p.name)
            self.bound[id(p)] = Code(name)
            params.append(f"{self.type_text(p.type, (p.start, p.end))} {name}")
        uses = self.uses.of(key)
        for r in self.resources:
            if r in uses.passed:
                params.append(f"{self._resource_type(self.decls[r], self.at_name(decl))} {self.globals[r]}")
        if self._counted(uses):
            params.append(f"constant uint* {self.lengths_name}")
        result = "void" if is_unit(decl.type.result) else self.type_text(decl.type.result, self.at_name(decl))
        self.depth = 1
        body = self.lowered.body(decl.body, (self.path, self.base))
        self.known.evaluate(body)
        self.into(body, RETURN)
        return "\n".join([self._signature(f"{result} {self.globals[key]}", params)] + self.lines + ["}"])

    @staticmethod
    def _signature(head_text: str, params: list[str]) -> str:
        flat = f"{head_text}({', '.join(params)}) {{"
        if len(flat) <= LINE_LIMIT or not params:
            return flat
        return f"{head_text}(\n" + ",\n".join(INDENT * 2 + p for p in params) + ") {"

    # ------------------------------------------------------------ entries

    def _entry_function(self, key, decl: ir.Function, entry: ir.Entry) -> str:
        self._begin_item()
        self.depth = 1
        name = self.globals[key]
        stage_in_name = self.scope.claim("yy_入") if entry.stage != "计算" else ""
        params: list[tuple[str, str, str]] = []     # (type, name, attribute)
        stage_in: list[tuple[str, str, list[str]]] = []
        self._entry_inputs(decl, entry, stage_in_name, params, stage_in)
        stage_in_struct = None
        if stage_in:
            stage_in_struct = self.global_names.claim(f"yy_{name}_入")
            params.append((stage_in_struct, stage_in_name, "stage_in"))
        lengths = self._entry_resources(key, decl, entry, params)
        result = self._entry_result(decl, entry)
        body = self.lowered.entry(entry, decl.body, (self.path, self.base))
        self.known.evaluate(body)
        self.entry_item = (entry, params)
        self.into(body, RETURN)
        text_params = [f"{t} {n} [[{a}]]" for t, n, a in params]
        header = f"{STAGE_KEYWORD[entry.stage]} {result} {name}"
        lines = [self._signature(header, text_params)] + self.lines + ["}"]
        if entry.stage == "计算":
            lines.insert(0, f"[[max_total_threads_per_threadgroup({entry.workgroup_size})]]")
        if stage_in_struct is not None:
            lines[:0] = self._stage_in_struct(stage_in_struct, stage_in) + [""]
        self.table.append(MslEntry(entry.name, name, entry.stage, entry.workgroup_size, params, lengths,
                                   entry.workgroup_shape, self._header_arrays(lengths)))
        return "\n".join(lines)

    def _entry_inputs(self, decl: ir.Function, entry: ir.Entry, stage_in_name: str, params, stage_in) -> None:
        """Builtin inputs become attributed parameters; the rest (vertex
        attributes, interpolated fragment inputs) fields of the stage-in
        struct; struct parameters are expanded field by field and rebuilt at
        the top of the body.  Locations follow WGSL: struct fields from 0,
        plain parameters after all of them."""
        location = next_location(self._records(decl.params))
        for p in decl.params:
            if is_unit(p.type):
                self.bound[id(p)] = None
                continue
            span = (p.start, p.end)
            name = self.scope.claim(p.name)
            self.bound[id(p)] = Code(name)
            struct = self._struct_name(p.type)
            if struct is not None:
                self._expand_struct_input(struct, name, entry, stage_in_name, span, params, stage_in)
            elif p.type.alias in BUILTIN_IO:
                params.append((self.type_text(p.type, span), name, BUILTIN_IO[p.type.alias].msl))
            else:
                stage_in.append((self.type_text(p.type, span), name, self._input_attributes(p.type, entry, location)))
                self.line(f"const auto {name} = {stage_in_name}.{name};")
                location += 1

    def _expand_struct_input(self, struct: str, name: str, entry, stage_in_name: str, span, params, stage_in) -> None:
        decl, struct_text, _, _ = self.structs[struct]
        values, locations = [], {field: location for field, _, location in located_fields(decl.type)}
        for field_name, t in decl.type.fields:
            flat = self.scope.claim(f"{name}_{field_name}")
            if t.alias in BUILTIN_IO:
                params.append((self.type_text(t, span), flat, BUILTIN_IO[t.alias].msl))
                values.append(flat)
                continue
            interpolation = decl.type.field_io(field_name).interpolation
            stage_in.append((self.type_text(t, span), flat,
                             self._input_attributes(t, entry, locations[field_name], interpolation)))
            values.append(f"{stage_in_name}.{flat}")
        self.line(f"const {struct_text} {name} = {struct_text}{{{', '.join(values)}}};")

    def _records(self, params) -> list:
        """The struct types among an entry's parameters (their fields hold locations)."""
        names = (self._struct_name(p.type) for p in params)
        return [self.structs[name][0].type for name in names if name is not None]

    @staticmethod
    def _input_attributes(t, entry: ir.Entry, location: int, interpolation: str | None = None) -> list[str]:
        """A vertex attribute, or a fragment input with its interpolation (written, or flat for integers)."""
        if entry.stage == "顶点":
            return [f"attribute({location})"]
        if interpolation is not None:
            return [f"user(loc{location})", INTERPOLATIONS[interpolation].msl]
        return [f"user(loc{location})"] + (["flat"] if scalar_kind(t) in ("int", "uint") else [])

    @staticmethod
    def _stage_in_struct(name: str, fields) -> list[str]:
        body = [f"{INDENT}{t} {n} " + " ".join(f"[[{a}]]" for a in attributes) + ";"
                for t, n, attributes in fields]
        return [f"struct {name} {{"] + body + ["};"]

    def _entry_resources(self, key, decl: ir.Function, entry: ir.Entry, params) -> list[tuple[int, str]]:
        """Bound resources become attributed parameters; workgroup variables
        are declared at the top of a kernel."""
        uses = self.uses.of(key)
        shared = []
        for r in self.resources:
            if r not in uses.passed:
                continue
            resource: ir.Resource = self.decls[r]
            name = self.globals[r]
            if resource.kind == "workgroup":      # compute entries only (valid/stages.py)
                shared.append((self.type_text(resource.inner, self.at_name(decl)), name))
                continue
            if resource.group is None or resource.binding is None:
                continue
            slot = self._slot(resource)
            params.append((self._resource_type(resource, self.at_name(decl)), name, f"{SLOT_KIND[resource.kind]}({slot})"))
        problem = workgroup_problem(self.info, entry, THREADGROUP_BYTES, "金属每个线程组的上限（32 KiB）")
        if problem:
            raise TranslationFailure(self.at_name(decl), problem)
        self.lines[:0] = [f"{INDENT}threadgroup {t} {name};" for t, name in shared]
        counted = self._counted(uses)
        if not counted:
            return []
        lengths = [(self._slot(self.decls[r]), r[1]) for r in self.resources if r in counted]
        if any(a == f"buffer({LENGTHS_SLOT})" for _, _, a in params):
            raise TranslationFailure(self.at_name(decl), f"「数组长度」要用缓冲序号 {LENGTHS_SLOT}，"
                                                         f"它已绑定给别的缓冲（组 1 号 14）：换一个绑定号")
        params.append(("constant uint*", self.lengths_name, f"buffer({LENGTHS_SLOT})"))
        return lengths

    def _header_arrays(self, lengths: list[tuple[int, str]]) -> dict[int, tuple[int, int]]:
        """Buffer slot → (byte offset, stride) of each measured array that
        follows header fields (the struct's layout is WGSL's, layout.py)."""
        places = {}
        for slot, name in lengths:
            inner = next(self.decls[r].inner for r in self.resources if r[1] == name)
            offset, stride = trailing_array(inner)
            if offset:
                places[slot] = (offset, stride)
        return places

    def zero_workgroup(self, e: ir.ZeroWorkgroup) -> None:
        """Each thread clears every N-th byte of every threadgroup variable,
        then the group meets."""
        entry, params = self.entry_item
        index = next((n for _, n, a in params if a == "thread_index_in_threadgroup"), None)
        if index is None:
            index = self.scope.claim("yy_序")
            params.append(("uint", index, "thread_index_in_threadgroup"))
        step = entry.workgroup_size or 1
        for key in e.variables:
            name, i = self.globals[key], self.scope.claim("yy_i")
            self.line(f"for (uint {i} = {index}; {i} < sizeof({name}); {i} += {step}u) "
                      f"reinterpret_cast<threadgroup uchar*>(&{name})[{i}] = 0;")
        self.line("threadgroup_barrier(mem_flags::mem_threadgroup);")

    def _entry_result(self, decl: ir.Function, entry: ir.Entry) -> str:
        t = decl.type.result
        span = self.at_name(decl)
        if is_unit(t):
            return "void"
        if self._struct_name(t) is not None:
            return self.type_text(t, span)
        if entry.stage == "顶点":
            if t.alias != "裁剪位置":
                raise TranslationFailure(span, f"顶点入口「{decl.name}」须返回「裁剪位置」或结构，这里是{self.show(t)}")
            return "float4"
        if t.alias in BUILTIN_IO:
            raise TranslationFailure(span, f"金属的片元函数不能单独返回{self.show(t)}：把它放进返回的结构")
        return self.type_text(t, span)

    # ------------------------------------------------------------ statements

    def is_statement_if(self, e: ir.If) -> bool:
        return True

    def if_into(self, e: ir.If, dest) -> None:
        self._if_statement(self.expr(e.cond), e, dest)

    def value_into(self, e: ir.Expr, dest) -> None:
        if is_unit(e.type):
            self._unit_statement(e)
            self.deliver(dest, None)
        else:
            self.deliver(dest, self.expr(e))

    def return_nothing(self) -> None:
        """Inside a loop, a function of type 有 leaves with `return;`."""
        if self.loop_depth:
            self.line("return;")

    def _unit_statement(self, e: ir.Expr) -> None:
        if isinstance(e, (ir.BuiltinValue, ir.LocalRef, ir.GlobalRef, ir.Literal)):
            return
        self.line(f"{self.expr(e).text};")

    def _if_statement(self, cond: Code, e: ir.If, dest) -> None:
        self.line(f"if ({cond.text}) {{")
        while True:
            with self.block():
                self.into(e.then, dest)
            other = e.otherwise
            if isinstance(other, ir.If):
                with self.capture() as lines:
                    cond = self.expr(other.cond)
                if not lines:
                    self.line(f"}} else if ({cond.text}) {{")
                    e = other
                    continue
                self.line("} else {")
                with self.block():
                    self.lines.extend(INDENT + x for x in lines)
                    self._if_statement(cond, other, dest)
            elif other is not None:
                self.line("} else {")
                with self.block():
                    self.into(other, dest)
            else:
                with self.capture() as lines:
                    with self.block():
                        self.deliver(dest, None)
                if lines:
                    self.line("} else {")
                    self.lines.extend(lines)
            break
        self.line("}")

    def bind(self, var: ir.LocalVar, value: ir.Expr) -> None:
        """令: a const, a mutable variable for a cell, nothing for 有."""
        if is_unit(value.type):
            self.into(value, DISCARD)
            self.bound[id(var)] = None
            return
        if isinstance(value, ir.Call) and value.kind == "builtin" and value.name == CELL:
            init = self.expr(value.args[0])
            name = self.scope.claim(var.name)
            self.line(f"{self.type_text(var.type, (var.start, var.end))} {name} = {init.text};")
            self.bound[id(var)] = Code(name)
            return
        if head(var.type) == "格":
            if not isinstance(value, ir.LocalRef):
                raise TranslationFailure((value.start, value.end), "格只能由「新格」创建，再用 令 绑定")
            self.bound[id(var)] = self.bound[id(value.var)]
            return
        if ir.is_buffer_field(value):      # 「缓冲」中「字段」 names the field again: a const copy could not be written
            self.bound[id(var)] = self.expr(value)
            return
        code = self.expr(value)
        name = self.scope.claim(var.name)
        self.line(f"const auto {name} = {code.text};")
        self.bound[id(var)] = Code(name)

    def _temp(self, t, span, base: str) -> str:
        name = self.scope.claim(base)
        self.line(f"{self.type_text(t, span)} {name};")
        return name

    # ------------------------------------------------------------ local functions

    def inline_into(self, e: ir.Inline, dest) -> None:
        for p, code, arg in zip(e.fun.params, self.operands(e.args), e.args):
            self._bind_parameter(p, code, arg)
        self.into(e.body, dest)

    def loop_into(self, e: ir.Loop, dest) -> None:
        """A `while (true)` whose variables start at the arguments."""
        fun = e.fun
        if isinstance(dest, LoopExit):
            # `break` inside the new loop would leave only that loop
            if is_unit(e.type):
                self.loop_into(e, DISCARD)
                self.deliver(dest, None)
            else:
                result = self._temp(e.type, (e.start, e.end), f"{fun.name}值")
                self.loop_into(e, Assign(result))
                self.deliver(dest, Code(result))
            return
        args = self.operands(e.args)
        state = []
        for p, code in zip(fun.params, args):
            if code is None or head(p.type) == "格":
                self.bound[id(p)] = code
                state.append((p, None))
                continue
            name = self.scope.claim(p.name)
            self.line(f"{self.type_text(p.type, (p.start, p.end))} {name} = {code.text};")
            self.bound[id(p)] = Code(name)
            state.append((p, name))
        self.loops[id(fun)] = state
        self.line("while (true) {")
        self.loop_depth += 1
        with self.block():
            self.into(e.body, LoopExit(dest))
        self.loop_depth -= 1
        self.line("}")

    def _bind_parameter(self, p: ir.LocalVar, code: Code | None, arg: ir.Expr) -> None:
        """A parameter of an inlined function: the argument's own name when it
        names a value that cannot change meanwhile (not a cell's contents)."""
        if code is None or head(p.type) == "格" or (isinstance(arg, ir.LocalRef) and head(arg.var.type) != "格"):
            self.bound[id(p)] = code
            return
        name = self.scope.claim(p.name)
        self.line(f"const auto {name} = {code.text};")
        self.bound[id(p)] = Code(name)

    def next_round(self, e: ir.Next) -> None:
        """New values for the loop's variables, assigned in an order that
        needs a temporary only for a cycle, then continue."""
        state = self.loops[id(e.fun)]
        changed = changed_variables(e)
        pending = []
        for i, code in zip(changed, self.operands([e.args[i] for i in changed])):
            (p, name), arg = state[i], e.args[i]
            if name is None:
                if code is not None and self.bound[id(p)] is not None and code.text != self.bound[id(p)].text:
                    raise TranslationFailure((arg.start, arg.end), f"局部函数「{e.fun.name}」递归调用时须传同一个格")
                continue
            if code.text != name:
                pending.append([name, code, _named(arg), p])
        while pending:
            ready = next((item for item in pending
                          if not any(id(item[3]) in other[2] for other in pending if other is not item)), None)
            if ready is None:
                for item in pending:
                    item[1], item[2] = self._spill(item[1]), set()
                continue
            self.line(f"{ready[0]} = {ready[1].text};")
            pending.remove(ready)
        self.line("continue;")

    def _spill(self, code: Code) -> Code:
        name = self.scope.claim("临时")
        self.line(f"const auto {name} = {code.text};")
        return Code(name)

    # ------------------------------------------------------------ expressions

    def expr(self, e: ir.Expr) -> Code:
        known = self._constant(e)
        if known is not None:
            return known
        method = getattr(self, "_expr_" + type(e).__name__)
        return method(e)

    def _constant(self, e: ir.Expr) -> Code | None:
        """An abstract (「整数」, 「小数」) const-expression, written as its value:
        C++ would compute it in 32 bits where WGSL uses 64 (LANGUAGE.md §5)."""
        if isinstance(e, (ir.LocalRef, ir.GlobalRef)) or not is_abstract(e.type):
            return None                 # a named constant keeps its name; C++ computes typed values like WGSL
        value = self.known.of(e)
        scalar = const_scalar(deep_resolve(e.type)) if value is not None else None
        if scalar is None:
            return None
        texts = [constant_text(v, scalar) for v in (value if isinstance(value, tuple) else (value,))]
        if None in texts:
            return None
        if isinstance(value, tuple):
            return Code(f"{self.type_text(e.type, (e.start, e.end))}({', '.join(texts)})")
        return Code(texts[0], atomic=not texts[0].startswith("-"))

    def _expr_Literal(self, e: ir.Literal) -> Code:
        if isinstance(resolve(e.type), TError):
            raise TranslationFailure((e.start, e.end), "类型未知")
        return Code(float_text(e.value) + "f" if e.is_float else str(e.value))

    def _expr_LocalRef(self, e: ir.LocalRef) -> Code:
        code = self.bound.get(id(e.var))
        if code is None:
            raise TranslationFailure((e.start, e.end), f"「{e.var.name}」的值是「有」，不能当作值使用")
        return code

    def _expr_GlobalRef(self, e: ir.GlobalRef) -> Code:
        return Code(self.globals[(e.module, e.name)])

    def _expr_BuiltinValue(self, e: ir.BuiltinValue) -> Code:
        texts = {"阳": "true", "阴": "false"}
        if e.name not in texts:
            raise missing_builtin((e.start, e.end), f"「{e.name}」不能当作值使用", e.name)
        return Code(texts[e.name])

    def field_names(self, e: ir.Project) -> dict[str, str]:
        struct = self._struct_name(ir.field_owner(e))
        if struct is None:
            raise self.missing_type((e.start, e.end), f"金属写不出没有名字的记录类型{self.show(e.base.type)}", e.base.type)
        return self.structs[struct][2]

    def _expr_Project(self, e: ir.Project) -> Code:
        """A packed member (a buffer struct's 3-vector, `_struct`) is read as
        its aligned vector: Metal has no .xyz and few functions for packed ones."""
        code = super()._expr_Project(e)
        if e.field is not None and self._struct_name(e.base.type) in self.buffer_structs:
            text = self.type_text(e.type, (e.start, e.end))
            if text in PACKED_ALIGN:
                return Code(f"{text}({code.text})")
        return code

    def record_values(self, e: ir.MakeRecord) -> list[ir.Expr]:
        """In the order of the struct's fields (aggregate initialisation)."""
        given = dict(e.fields)
        return [given[name] for name, _ in self.structs[self._struct_name(e.type)][0].type.fields]

    def constructor(self, t, span) -> str:
        return self.type_text(t, span)

    def _expr_If(self, e: ir.If) -> Code:
        """A plain choice (lower/statements.py `speculatable`) is C++'s ?:; a
        「若」 bound by 令 goes through a variable."""
        if e.otherwise is not None and self.lowered.statements.speculatable(e):
            cond, then, other = self.operands([e.cond, e.then, e.otherwise])
            return Code(f"{cond.operand()} ? {then.operand()} : {other.operand()}", atomic=False)
        result = self._temp(e.type, (e.start, e.end), "若值")
        self._if_statement(self.expr(e.cond), e, Assign(result))
        return Code(result)

    def _expr_Let(self, e: ir.Let) -> Code:
        self.bind(e.var, e.value)
        return self.expr(e.body)

    def _expr_Block(self, e: ir.Block) -> Code:
        return self.expr(e.body)

    def _expr_Seq(self, e: ir.Seq) -> Code:
        for item in e.items[:-1]:
            self.into(item, DISCARD)
        return self.expr(e.items[-1])

    def _expr_Inline(self, e: ir.Inline | ir.Loop) -> Code:
        result = self._temp(e.type, (e.start, e.end), f"{e.fun.name}值")
        self.into(e, Assign(result))
        return Code(result)

    _expr_Loop = _expr_Inline

    def _expr_Call(self, e: ir.Call) -> Code:
        if e.kind == "function":
            args = [c for c in self.operands(e.args) if c is not None]
            key = (e.module, e.name)
            args += [Code(n) for n in self._resource_names(key)]
            return Code(f"{self.globals[key]}({', '.join(c.text for c in args)})")
        spec = BUILTINS.get(e.name)
        if spec is None:
            raise missing_builtin((e.name_start, e.name_end),
                                  fragments.UNAVAILABLE.get(e.name) or f"金属目标没有「{e.name}」的写法", e.name)
        if isinstance(spec, Special):
            return getattr(self, "_builtin_" + spec.method)(e)
        args = self.operands(e.args)
        code = self.apply(spec, e, args)
        guard = self._inside(e, args[1]) if e.name in GUARDED else None
        if guard is None:
            return code
        if is_unit(e.type):
            return Code(f"if ({guard}) {code.text}", atomic=False)
        return Code(f"{guard} ? {code.operand()} : {self.type_text(e.type, (e.start, e.end))}{{}}", atomic=False)

    def _inside(self, call: ir.Call, i: Code) -> str | None:
        """Bounds safety (docs/后端.md〈翻译选项〉): the condition that the element
        call.args[1] (written `i`) of array call.args[0] exists — a runtime-sized
        array's count is in the lengths buffer, a fixed one's is its size — or
        None where no check is written (--不查界, or an index known to be inside)."""
        if not self.options.bounds:
            return None
        array, index = call.args[0], call.args[1]
        resource = self.decls.get((array.module, array.name)) if isinstance(array, ir.GlobalRef) else None
        t = deep_resolve(resource.inner) if isinstance(resource, ir.Resource) and resource.inner is not None else None
        if not (isinstance(t, TCon) and t.name in ("数组", "定长数组")):
            return None
        known = written_number(index)
        known = self.known.of(index) if known is None else known
        if t.name == "定长数组":
            if isinstance(known, int) and 0 <= known < t.args[1]:
                return None
            count = f"{t.args[1]}u"
        else:
            count = f"{self.lengths_name}[{self._slot(resource)}]"
        text = f"uint({i.text})" if scalar_kind(index.type) == "int" else i.operand()
        return f"{text} < {count}"

    def _expr_UniformLoad(self, e: ir.UniformLoad) -> Code:
        """A workgroup read proved uniform (lower/loops.py): read, then wait at a
        barrier, so no one writes before all have read and the value stays uniform."""
        code = self._spill(self.expr(e.load))
        self.line(f"{BUILTINS['工作组屏障'].text};")
        return code

    def apply(self, template: Template, call: ir.Call, args: list[Code | None]) -> Code:
        result = self.type_text(call.type, (call.start, call.end)) if "{R}" in template.text else ""
        function = ""
        if template.prelude is not None:
            self.prelude_used.add(template.prelude)
            function = self.prelude_names[fragments.function_name(template.prelude)]
        return Code(template.text.format(*[a for a in args if a is not None], R=result, F=function), template.atomic)

    def operands(self, exprs: list[ir.Expr]) -> list[Code | None]:
        """Plain operands (lower/statements.py), in order; None for one of type 有."""
        return [None if is_unit(a.type) else self.expr(a) for a in exprs]

    # ------------------------------------------------------------ special builtins

    def _builtin_compare_exchange(self, call: ir.Call) -> Code:
        """atomic_compare_exchange_weak_explicit leaves the value it found in
        `expected` (unchanged when it replaced it) and says whether it did."""
        a, i, compare, value = self.operands(call.args)
        guard = self._inside(call, i)    # out of bounds: nothing replaced, 原值 0, 已换 false
        element = self.type_text(call.args[2].type, (call.start, call.end))
        old = self.scope.claim("原值")
        start = compare.text if guard is None else f"{guard} ? {compare.operand()} : {element}{{}}"
        self.line(f"{element} {old} = {start};")
        done = self.scope.claim("已换")
        self.line(f"const bool {done} = {'' if guard is None else guard + ' && '}"
                  f"atomic_compare_exchange_weak_explicit(&{a.operand()}[{i.text}], &{old}, "
                  f"{value.text}, {MEMORY_ORDER}, {MEMORY_ORDER});")
        parts = dict(zip(COMPARE_EXCHANGE_FIELDS, (old, done)))
        values = ", ".join(parts[n] for n, _ in deep_resolve(call.type).fields)
        return Code(f"{self.type_text(call.type, (call.start, call.end))}{{{values}}}")

    def _builtin_replace(self, call: ir.Call) -> Code:
        """A copy with one element replaced, only where the index is inside (C++ would write past the end)."""
        whole, index, value = self.operands(call.args)
        copy = self.scope.claim("新值")
        self.line(f"auto {copy} = {whole.text};")
        t = deep_resolve(call.type)
        length = len(t.items) if isinstance(t, TTuple) else t.args[1]     # a vector or matrix, else a 定长数组
        self.line(f"if ({index.operand()} < {length}u) {copy}[{index.text}] = {value.text};")
        return Code(copy)

    def _builtin_split(self, call: ir.Call) -> Code:
        """modf(x, whole) and frexp(x, exponent) return the fraction and write
        the record's other field through a reference."""
        (x,) = self.operands(call.args)
        span = (call.start, call.end)
        (fraction, fraction_type), (other, other_type) = deep_resolve(call.type).fields
        parts = {other: self.scope.claim(other)}
        self.line(f"{self.type_text(other_type, span)} {parts[other]};")
        parts[fraction] = self.scope.claim(fraction)
        function = "modf" if other == MODF_FIELDS[1] else "frexp"
        self.line(f"const {self.type_text(fraction_type, span)} {parts[fraction]} = {function}({x.text}, {parts[other]});")
        values = ", ".join(parts[n] for n, _ in deep_resolve(call.type).fields)
        return Code(f"{self.type_text(call.type, span)}{{{values}}}")

    def _builtin_typed_literal(self, call: ir.Call) -> Code:
        """新浮三二 and friends: a typed literal (40.0f, 1.0h, int(3), 2u) or a conversion."""
        result = self.type_text(call.type, (call.start, call.end))
        value = ir.literal_value(call.args[0])
        if value is None:
            return self._builtin_convert(call)
        if result in ("float", "half"):
            text = float_text(value) + ("f" if result == "float" else "h")
            return Code(text, atomic=not text.startswith("-"))
        return Code(f"int({value})" if result == "int" else f"{value}u")

    def _builtin_convert(self, call: ir.Call) -> Code:
        """T(x); a float becoming an integer is clamped first, as WGSL does (C++ leaves it undefined)."""
        (x,) = self.operands(call.args)
        result = self.type_text(call.type, (call.start, call.end))
        bounds = INT_FROM_FLOAT.get((scalar_kind(call.type), float_width(call.args[0].type)))
        if bounds is None:
            return Code(f"{result}({x.text})")
        source = self.type_text(call.args[0].type, (call.start, call.end))
        suffix = "h" if float_width(call.args[0].type) == 16 else "f"
        vector = vector_parts(deep_resolve(call.args[0].type)) is not None
        low, high = (f"{source}({bound}{suffix})" if vector else f"{bound}{suffix}" for bound in bounds)
        return Code(f"{result}(clamp({x.text}, {low}, {high}))")

    def _builtin_wrapping(self, call: ir.Call) -> Code:
        """+ - * of 整三二 (and its vectors) wrap as WGSL says; C++ signed
        overflow is undefined and clang folds on that assumption, so the
        operands are converted to uint (defined modulo 2³²) and the result
        reinterpreted.  A scalar splat into a matrix is written bare (Metal's m * s)."""
        fused = self._fused(call) if self.options.fast_math else None
        if fused is not None:
            return fused
        a, b = self.operands([ir.splat_scalar(x) if matrix_parts(x.type) else x for x in call.args])
        symbol = _WRAPPING[call.name]
        if scalar_kind(call.type) != "int" or is_abstract(call.type):
            return Code(f"{a.operand()} {symbol} {b.operand()}", atomic=False)
        span = (call.start, call.end)
        ua, ub = (f"{self._unsigned_type(arg.type, span)}({code.text})" for arg, code in zip(call.args, (a, b)))
        return Code(f"as_type<{self.type_text(call.type, span)}>({ua} {symbol} {ub})")

    def _fused(self, call: ir.Call) -> Code | None:
        """With --快速数学, a float 加/减 with an operand that is a float 乘 of the
        same type is written as one fma (rounded once); None where it is not."""
        if call.name == "乘" or scalar_kind(call.type) != "float" or is_abstract(call.type):
            return None
        span = (call.start, call.end)
        shape = self.type_text(call.type, span)
        side = next((i for i, a in enumerate(call.args)
                     if isinstance(a, ir.Call) and a.kind == "builtin" and a.name == "乘"
                     and all(self.type_text(f.type, span) == shape for f in a.args)), None)
        if side is None:
            return None
        x, y = self.operands(call.args[side].args)
        (other,) = self.operands([call.args[1 - side]])
        if call.name == "减":   # p − c is fma(x, y, −c); c − p is fma(−x, y, c)
            if side == 0:
                return Code(f"fma({x.text}, {y.text}, -{other.operand()})")
            return Code(f"fma(-{x.operand()}, {y.text}, {other.text})")
        return Code(f"fma({x.text}, {y.text}, {other.text})")

    def _builtin_negate(self, call: ir.Call) -> Code:
        """−x of 整三二 wraps (−(−2³¹) is −2³¹ in WGSL); C++ leaves it undefined, so
        a value that is not a written number goes through uint."""
        (a,) = self.operands(call.args)
        if scalar_kind(call.type) != "int" or is_abstract(call.type) or written_number(call.args[0]) is not None:
            return Code(f"-{a.operand()}", atomic=False)
        span = (call.start, call.end)
        return Code(f"as_type<{self.type_text(call.type, span)}>(0u - {self._unsigned_type(call.type, span)}({a.text}))")

    def _builtin_absolute(self, call: ir.Call) -> Code:
        """abs of 整三二 (and its vectors) is |x| modulo 2³², so abs(−2³¹) is −2³¹
        as in WGSL; C++'s abs overflows there, and clang folds max(0, abs(x))
        to abs(x) on that assumption.  Two's complement through uint instead."""
        (a,) = self.operands(call.args)
        if scalar_kind(call.type) != "int" or is_abstract(call.type):
            return Code(f"abs({a.text})")
        span = (call.start, call.end)
        unsigned, sign = self._unsigned_type(call.type, span), f"{a.operand()} >> 31"
        return Code(f"as_type<{self.type_text(call.type, span)}>(({unsigned}({a.text}) ^ {unsigned}({sign})) - "
                    f"{unsigned}({sign}))")

    def _unsigned_type(self, t, span) -> str:
        """The uint type of an int scalar or vector's MSL spelling (int4 → uint4)."""
        return "u" + self.type_text(t, span)

    def _builtin_remainder(self, call: ir.Call) -> Code:
        a, b = self.operands(call.args)
        if scalar_kind(call.type) == "float":
            return Code(f"fmod({a.text}, {b.text})")
        return Code(f"{a.operand()} % {b.operand()}", atomic=False)

    def _builtin_clamp(self, call: ir.Call) -> Code:
        """Integers clamp as WGSL defines it, min(max(e, low), high); Metal's
        clamp is undefined when low > high."""
        x, low, high = self.operands(call.args)
        if scalar_kind(call.type) == "float":
            return Code(f"clamp({x.text}, {low.text}, {high.text})")
        return Code(f"min(max({x.text}, {low.text}), {high.text})")

    def _builtin_shift(self, call: ir.Call) -> Code:
        """WGSL shifts by the amount mod 32 (C++ leaves 32 or more undefined),
        so an amount that is not a literal below 32 is masked; a signed vector
        shifts by a vector of its own type in MSL."""
        a, b = self.operands(call.args)
        symbol = "<<" if call.name == "左移" else ">>"
        amount = _written_amount(call.args[1])
        if amount is None or not 0 <= amount < 32:
            b = Code(f"{b.operand()} & 31u", atomic=False)
        if scalar_kind(call.type) == "int" and vector_parts(deep_resolve(call.type)) is not None:
            b = Code(f"{self.type_text(call.type, (call.start, call.end))}({b.text})")
        return Code(f"{a.operand()} {symbol} {b.operand()}", atomic=False)

    def _builtin_bitwise(self, call: ir.Call) -> Code:
        """& and | of 爻 are not short-circuit; C++ promotes them to int, so convert back."""
        a, b = self.operands(call.args)
        text = f"{a.operand()} {'&' if call.name == '按位与' else '|'} {b.operand()}"
        if scalar_kind(call.type) == "bool":
            return Code(f"{self.type_text(call.type, (call.start, call.end))}({text})")
        return Code(text, atomic=False)

    def _builtin_logical(self, call: ir.Call) -> Code:
        """&& and ||: a right side that needs statements is already a 「若」 (lower/statements.py)."""
        left, right = self.operands(call.args)
        return Code(f"{left.operand()} {'&&' if call.name == '且' else '||'} {right.operand()}", atomic=False)

    def _builtin_sign(self, call: ir.Call) -> Code:
        """MSL's sign is for floats; an integer's is (x > 0) − (x < 0)."""
        (x,) = self.operands(call.args)
        if scalar_kind(call.type) == "float":
            return Code(f"sign({x.text})")
        if not (x.atomic and x.text.isidentifier()):
            x = self._spill(x)
        t = self.type_text(call.type, (call.start, call.end))
        return Code(f"{t}({x.text} > {t}(0)) - {t}({x.text} < {t}(0))", atomic=False)

    def _plain(self, code: Code) -> Code:
        """An operand named once, so it can be written twice."""
        return code if code.atomic and code.text.isidentifier() else self._spill(code)

    def _builtin_first_leading_bit(self, call: ir.Call) -> Code:
        """31 − clz: clz(0) is 32, so 0 gives all ones (uint wraps, int is −1); a
        negative int counts on its complement (x ^ (x >> 31)), so −1 gives −1 too."""
        (x,) = self.operands(call.args)
        if scalar_kind(call.type) == "uint":
            return Code(f"31u - clz({x.text})", atomic=False)
        x = self._plain(x)
        return Code(f"31 - clz({x.text} ^ ({x.text} >> 31))", atomic=False)

    def _builtin_first_trailing_bit(self, call: ir.Call) -> Code:
        """ctz, except that 0 has no bit set: all ones."""
        x = self._plain(self.operands(call.args)[0])
        t = self.type_text(call.type, (call.start, call.end))
        return Code(f"select(ctz({x.text}), ~{t}(0), {x.text} == {t}(0))")

    def _builtin_bit_field(self, call: ir.Call) -> Code:
        """extract_bits/insert_bits with WGSL's o = min(offset, 32), c = min(count, 32 − o):
        Metal leaves offset + count > 32 undefined.  Constants are clamped here."""
        *values, offset, count = self.operands(call.args)
        known = [self.known.of(a) for a in call.args[-2:]]
        if all(isinstance(k, int) for k in known):
            o = min(known[0], 32)
            offset, count = Code(f"{o}u"), Code(f"{min(known[1], 32 - o)}u")
        else:
            offset = self._spill(Code(f"min({offset.text}, 32u)"))
            count = Code(f"min({count.text}, 32u - {offset.text})")
        function = "extract_bits" if call.name == "取位段" else "insert_bits"
        return Code(f"{function}({', '.join(c.text for c in values)}, {offset.text}, {count.text})")

    def _builtin_quantize(self, call: ir.Call) -> Code:
        """Through half and back: float(half(x)), float3(half3(v))."""
        (x,) = self.operands(call.args)
        t = self.type_text(call.type, (call.start, call.end))
        return Code(f"{t}({t.replace('float', 'half')}({x.text}))")

    def _builtin_dot_bytes(self, call: ir.Call) -> Code:
        """Metal's dot is for floats: the four byte products are summed (at most 4 × 255², no overflow)."""
        a, b = self.operands(call.args)
        vector, byte = ("int4", "char4") if call.name == "四字节整点积" else ("uint4", "uchar4")
        p = self._spill(Code(f"{vector}(as_type<{byte}>({a.text})) * {vector}(as_type<{byte}>({b.text}))"))
        return Code(f"{p.text}.x + {p.text}.y + {p.text}.z + {p.text}.w", atomic=False)

    def _builtin_all_any(self, call: ir.Call) -> Code:
        """all/any of a bool vector; of a bool, the bool itself (WGSL's all(e: bool) is e)."""
        (x,) = self.operands(call.args)
        if vector_parts(deep_resolve(call.args[0].type)) is None:
            return x
        return Code(f"{'all' if call.name == '全都' else 'any'}({x.text})")

    def _builtin_select(self, call: ir.Call) -> Code:
        """选择 evaluates all three arguments, the ternary only one branch (a
        branch that must run is bound before it: lower/statements.py); a
        vector condition selects per component (metal::select)."""
        otherwise, then, cond = self.operands(call.args)
        if isinstance(resolve(call.args[2].type), TTuple):
            return Code(f"select({otherwise.text}, {then.text}, {cond.text})")
        return Code(f"{cond.operand()} ? {then.operand()} : {otherwise.operand()}", atomic=False)

    def _builtin_texel(self, call: ir.Call) -> Code:
        """read takes uint coordinates, layer, level and sample; int ones (and abstract literals) are converted."""
        texture, *rest = self.operands(call.args)
        rest = [_unsigned(arg, code) for arg, code in zip(call.args[1:], rest)]
        return Code(f"{texture.operand()}.read({', '.join(c.text for c in rest)})")

    def _builtin_store_texel(self, call: ir.Call) -> Code:
        """write takes the value first, then uint coordinates (and layer)."""
        texture, *rest, value = self.operands(call.args)
        rest = [_unsigned(arg, code) for arg, code in zip(call.args[1:], rest)]
        return Code(f"{texture.operand()}.write({', '.join(c.text for c in [value, *rest])})")

    def _builtin_texture_size(self, call: ir.Call) -> Code:
        """One getter per component of textureDimensions (a cube's faces are 2-D), at a uint level when given."""
        texture, *level = self.operands(call.args)
        level = [_unsigned(call.args[1], level[0]).text] if level else []
        dims = TEXTURES[head(call.args[0].type)].dims
        getters = [f"{texture.operand()}.{getter}({', '.join(level)})" for getter in SIZE_GETTERS[:dims]]
        return Code(getters[0] if dims == 1 else f"uint{dims}({', '.join(getters)})")

    def _builtin_gradient(self, call: ir.Call) -> Code:
        """textureSampleGrad: sample with the gradients wrapped in gradient2d, gradient3d or gradientcube."""
        texture, sampler, coords, *rest = self.operands(call.args)
        shape = TEXTURES[head(call.args[0].type)]
        offset = [rest.pop().text] if call.name.startswith("偏移") else []
        layer = [rest.pop(0).text] if shape.arrayed else []
        kind = "cube" if shape.cube else f"{shape.dims}d"
        gradient = f"gradient{kind}({rest[0].text}, {rest[1].text})"
        return Code(f"{texture.operand()}.sample({', '.join([sampler.text, coords.text, *layer, gradient, *offset])})")

    def _builtin_gather(self, call: ir.Call) -> Code:
        """textureGather: gather(sampler, coords[, layer][, offset], component) — the component a written
        number (the checker's rule), the offset int2(0) when a 2-D colour texture's component follows it."""
        shape = TEXTURES[head(call.args[1 if call.name in GATHER_COMPONENT else 0].type)]
        args = self.operands(call.args)
        component = []
        if call.name in GATHER_COMPONENT:
            component = [f"component::{'xyzw'[written_number(call.args[0])]}"]
            args = args[1:]
        texture, sampler, coords, *rest = args
        offset = [rest.pop().text] if call.name.startswith("偏移") else (
            ["int2(0)"] if component and not shape.cube else [])
        layer = [rest[0].text] if shape.arrayed else []
        return Code(f"{texture.operand()}.gather({', '.join([sampler.text, coords.text, *layer, *offset, *component])})")

    def _texture_type(self, t: TCon, shape, span) -> str:
        """texture2d_array<float>, depthcube<float>, texture3d<uint, access::read_write> …"""
        if shape.depth:
            return f"{shape.msl}<float>"
        if shape.storage:
            return f"{shape.msl}<{TEXEL_TYPES[storage_format(t).texel]}, access::{shape.access}>"
        return f"{shape.msl}<{self.type_text(t.args[0], span)}>"

    def _builtin_array_length(self, call: ir.Call) -> Code:
        """Element n of the lengths buffer is the length of the array at [[buffer(n)]]."""
        target = ir.buffer_root(call.args[0])    # of a header buffer's array: the host subtracts the header
        resource = self.decls.get((target.module, target.name)) if isinstance(target, ir.GlobalRef) else None
        if not isinstance(resource, ir.Resource) or resource.group is None or resource.binding is None:
            raise TranslationFailure((call.start, call.end), "「数组长度」的实参须是绑定的存储缓冲")
        return Code(f"{self.lengths_name}[{self._slot(resource)}]")


def _unsigned(arg: ir.Expr, code: Code) -> Code:
    """A texture coordinate, layer, level or sample as Metal's uint, uint2 or uint3 (int ones converted)."""
    t = deep_resolve(arg.type)
    items = t.items if isinstance(t, TTuple) else (t,)
    if all(resolve(i) == TCon("定长无符号", (32,)) for i in items):
        return code
    return Code(f"uint{len(items) if len(items) > 1 else ''}({code.text})")
