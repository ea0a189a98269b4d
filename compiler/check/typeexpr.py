"""Turning written types (syntax) into types, with Chinese errors."""

from __future__ import annotations

from typing import Callable

from ..builtin.formats import READ_WRITE_FORMATS, STORAGE_FORMATS
from ..builtin.textures import STORAGE
from ..builtin.io import BUILTIN_IO, FIELD_WRAPPERS, INTERPOLATIONS, LOCATION
from ..diagnostics import ARRAY_LENGTH, BAD_TYPE, DUPLICATE, INTERFACE_ONLY_KIND, SCALAR_WIDTH, TEXEL_FORMAT
from ..syntax import ast
from ..types import ERROR, FieldIO, TCon, TFamily, TFun, TRecord, TTuple, TVar, Type, TypeOrIndex, is_scalar, resolve, \
    vector_parts
from .classes import CLASSES, FAMILIES, format_name
from .closest import number_spelling
from .scope import Scope

_LITERAL_INDEX = "「{}」的这个实参须是整数字面量（如「三二」），定长长度与标量宽度只能写成字面量（着八）"
#: WGSL's array element count is a u32 greater than zero
MAX_ARRAY_LENGTH = 2 ** 32 - 1

INTRINSIC_PREFIX = "《《内建类型："
VALID_WIDTHS = (8, 16, 32, 64)
SCALAR_HEADS = ("定长小数", "定长整数", "定长无符号")

Report = Callable[..., None]   # (node, message, code, **fields)


def split_bound(name: str) -> tuple[str, str | None]:
    """「甲：数」 → ("甲", "数")."""
    if "：" in name:
        var, bound = name.split("：", 1)
        return var, bound
    return name, None


def renamed(t: Type, name: str) -> Type:
    """t under a new alias, except that a struct's name and a builtin input's
    name survive user aliases: the translators need them (seed 着四.1: other
    aliases are only expanded)."""
    if t.alias in BUILTIN_IO or (isinstance(t, TRecord) and t.alias is not None):
        return t
    return t.named(name)


def _is_format(t: TypeOrIndex) -> bool:
    """A storage texture's format argument: a format type, or a type variable (interface file)."""
    return isinstance(resolve(t), TVar) or format_name(t) is not None


def _written(node: ast.TypeExpr) -> str:
    return node.name if isinstance(node, ast.TypeName) else "…"


def intrinsic_name(name: str) -> str | None:
    if name.startswith(INTRINSIC_PREFIX) and name.endswith("》》"):
        return name[len(INTRINSIC_PREFIX):-2]
    return None


class TypeResolver:
    """Resolves type syntax in one module's scope.  `tvars` are the 凡-bound
    variables in force; `allow_intrinsic` only in interface files."""

    def __init__(self, scope: Scope, report: Report, allow_intrinsic: bool = False) -> None:
        self.scope = scope
        self.report = report
        self.allow_intrinsic = allow_intrinsic

    def scheme(self, node: ast.TypeExpr) -> tuple[tuple[TVar, ...], Type]:
        """A signature's type: leading 凡 binders and the body."""
        tvars: list[TVar] = []
        while isinstance(node, ast.TypeForall):
            var, bound = split_bound(node.var)
            if bound is not None and bound not in CLASSES:
                self.report(node, f"未知的类约束「{bound}」：可用的有 {'、'.join(CLASSES)}", BAD_TYPE)
                bound = None
            tvars.append(TVar(var, bound))
            node = node.body
        return tuple(tvars), self.resolve(node, {v.name: v for v in tvars})

    def resolve(self, node: ast.TypeExpr, tvars: dict[str, TVar] | None = None) -> Type:
        result = self._resolve(node, tvars or {})
        if isinstance(result, int):
            self.report(node, "此处应为类型，实为整数索引：整数索引只能作类型构造的实参（如「定长数组」于「浮三二」于「八」）", BAD_TYPE)
            return ERROR
        return result

    def _resolve(self, node: ast.TypeExpr, tvars: dict[str, TVar]) -> TypeOrIndex:
        if isinstance(node, ast.TypeIndex):
            return node.value
        if isinstance(node, ast.TypeName):
            return self._name(node, tvars)
        if isinstance(node, ast.TypeApp):
            return self._application(node, tvars)
        if isinstance(node, ast.TypeTuple):
            return TTuple(tuple(self.resolve(i, tvars) for i in node.items))
        if isinstance(node, ast.TypeFun):
            params = [self.resolve(p, tvars) for p in node.params]
            result = self.resolve(node.result, tvars)
            if isinstance(result, TFun):  # curried: 化甲而化乙而丙 is 化甲又化乙为丙者
                params += list(result.params)
                result = result.result
            return TFun(tuple(params), result)
        if isinstance(node, ast.TypeRecord):
            return self._record(node, tvars)
        if isinstance(node, ast.TypeForall):
            self.report(node, "「凡」只能写在签名的最外层", BAD_TYPE)
            return ERROR
        return ERROR

    def _record(self, node: ast.TypeRecord, tvars) -> Type:
        if node.head != "组类":
            self.report(node, f"记录类型须写作「组类」【…】，这里写的是「{node.head}」", BAD_TYPE)
        seen: set[str] = set()
        fields, attributes = [], []
        for f in node.fields:
            if f.name in seen:
                self.report(f, f"字段「{f.name}」重复", DUPLICATE)
                continue
            seen.add(f.name)
            t, io = self._field(f.value, tvars)
            fields.append((f.name, t))
            if io is not None:
                attributes.append((f.name, io))
        return TRecord(tuple(fields), io=tuple(attributes))

    def _field(self, node: ast.TypeExpr, tvars) -> tuple[Type, FieldIO | None]:
        """A field's type with the attribute wrappers around it (「定位」于 N 于 T,
        「平直」于 T …, in either order, each kind once) taken off and returned apart."""
        location = interpolation = None
        while (wrapper := self._wrapper(node)) is not None:
            name, args = wrapper
            wanted = 2 if name == LOCATION else 1
            if len(args) != wanted:
                self.report(node, f"「{name}」须带 {wanted} 个实参，这里有 {len(args)} 个（如「色」乃"
                                  f"{'「定位」于「五」于「四维浮」' if name == LOCATION else f'「{name}」于「四维浮」'}也）", BAD_TYPE)
                return ERROR, None
            if name == LOCATION and location is None and isinstance(args[0], ast.TypeIndex):
                location, node = args[0].value, args[1]
            elif name == LOCATION:
                twice = location is not None
                self.report(args[0], "「定位」写了两次" if twice else "「定位」的编号须是整数字面量（如「五」）", BAD_TYPE)
                return ERROR, None
            elif interpolation is None:
                interpolation, node = name, args[0]
            else:
                self.report(node, f"插值方式只能写一个：已有「{interpolation}」，又写了「{name}」", BAD_TYPE)
                return ERROR, None
        t = self.resolve(node, tvars)
        if location is None and interpolation is None:
            return t, None
        if t.alias in BUILTIN_IO:
            self.report(node, f"内建值「{t.alias}」不占位置，不能写「定位」或插值方式", BAD_TYPE)
            return t, None
        if interpolation is not None and not INTERPOLATIONS[interpolation].flat and _integer(t):
            self.report(node, f"整数插值量不能「{interpolation}」插值，只能「平直」（不写也是平直）", BAD_TYPE)
            interpolation = None
        return t, FieldIO(location, interpolation)

    def _wrapper(self, node: ast.TypeExpr) -> tuple[str, list[ast.TypeExpr]] | None:
        """(name, arguments) when node applies a field attribute (builtin/io.py's FIELD_WRAPPERS)."""
        args: list[ast.TypeExpr] = []
        while isinstance(node, ast.TypeApp):
            args.insert(0, node.arg)
            node = node.fn
        if not (isinstance(node, ast.TypeName) and node.name in FIELD_WRAPPERS and self._is_wrapper(node.name)):
            return None
        return node.name, args

    def _is_wrapper(self, name: str) -> bool:
        entry = self.scope.type(name)
        return entry is not None and entry.kind == "constructor"

    def _name(self, node: ast.TypeName, tvars) -> TypeOrIndex:
        name = node.name
        var, _ = split_bound(name)
        if var in tvars:
            return tvars[var]
        intrinsic = intrinsic_name(name)
        if intrinsic is not None:
            if not self.allow_intrinsic:
                self.report(node, "「《《内建类型：…》》」只能写在着色内建声明文件（名。着色器。接口。豫）里", INTERFACE_ONLY_KIND)
                return ERROR
            if intrinsic in FAMILIES:
                self.report(node, f"类型族「{intrinsic}」须带实参", BAD_TYPE)
                return ERROR
            return TCon(intrinsic, (), intrinsic)
        entry = self.scope.type(name)
        if entry is None:
            value = self.scope.value(name)
            if value is not None or not self.scope.incomplete:
                self.report(node, f"「{name}」{'是值，不是类型' if value is not None else '不是已知的类型'}", BAD_TYPE)
            return ERROR
        if entry.kind == "alias":
            return renamed(entry.type, name) if entry.type is not None else ERROR
        if entry.kind == "constructor":
            if entry.params:
                self.report(node, f"类型构造「{name}」须带 {len(entry.params)} 个实参", BAD_TYPE)
                return ERROR
            return TCon(name, (), name)
        if entry.kind == "family":
            self.report(node, f"类型族「{name}」须带实参", BAD_TYPE)
            return ERROR
        return ERROR

    def _application(self, node: ast.TypeApp, tvars) -> Type:
        args_nodes: list[ast.TypeExpr] = []
        head = node
        while isinstance(head, ast.TypeApp):
            args_nodes.append(head.arg)
            head = head.fn
        args_nodes.reverse()
        if not isinstance(head, ast.TypeName):
            self.report(head, "类型应用的头须是类型构造的名字", BAD_TYPE)
            return ERROR
        entry = self.scope.type(head.name)
        if head.name in FIELD_WRAPPERS and entry is not None and entry.kind == "constructor":
            self.report(head, f"「{head.name}」是字段的接口属性，只能包住结构字段的类型"
                              f"（如「色」乃「{head.name}」于{'「零」于' if head.name == LOCATION else ''}「四维浮」也）", BAD_TYPE)
            return ERROR
        for a, kind in zip(args_nodes, entry.params if entry is not None and entry.kind == "constructor" else ()):
            if kind == "index" and isinstance(a, ast.TypeName) and split_bound(a.name)[0] not in tvars:
                self.report(a, _LITERAL_INDEX.format(head.name) + (number_spelling(a.name) or ""),
                            BAD_TYPE)   # not also 'unknown type'
                return ERROR
        args = [self._resolve(a, tvars) for a in args_nodes]
        family = self._family_name(head.name, entry)
        if family is not None:
            arity = FAMILIES[family][0]
            if len(args) != arity:
                self.report(node, f"类型族「{head.name}」须带 {arity} 个实参，这里有 {len(args)} 个", BAD_TYPE)
                return ERROR
            return TFamily(family, tuple(args))
        if entry is None or entry.kind != "constructor":
            what = "不是类型构造" if entry is not None else "不是已知的类型构造"
            self.report(head, f"「{head.name}」{what}，不能带实参", BAD_TYPE)
            return ERROR
        if len(args) != len(entry.params):
            self.report(node, f"类型构造「{head.name}」须带 {len(entry.params)} 个实参，这里有 {len(args)} 个", BAD_TYPE)
            return ERROR
        for kind, arg, arg_node in zip(entry.params, args, args_nodes):
            if kind == "index" and not isinstance(arg, (int, TVar)):
                self.report(arg_node, _LITERAL_INDEX.format(head.name), BAD_TYPE)
                return ERROR
            if kind == "type" and isinstance(arg, int):
                self.report(arg_node, f"「{head.name}」的这个实参须是类型，实为整数索引", BAD_TYPE)
                return ERROR
        if head.name in SCALAR_HEADS and isinstance(args[0], int) and args[0] not in VALID_WIDTHS:
            self.report(args_nodes[0], f"标量宽度只能是 8、16、32 或 64，这里是 {args[0]}", SCALAR_WIDTH, 宽度=str(args[0]))
            return ERROR
        if head.name == "定长数组" and isinstance(args[1], int) and not 1 <= args[1] <= MAX_ARRAY_LENGTH:
            self.report(args_nodes[1], f"定长数组的长度须在 1 到 {MAX_ARRAY_LENGTH} 之间，这里是 {args[1]}",
                        ARRAY_LENGTH, 长度=str(args[1]))
            return ERROR
        if head.name in STORAGE and not _is_format(args[0]):
            names = "、".join(f"「{n}」" for n in STORAGE_FORMATS)
            self.report(args_nodes[0], f"存储纹理的格式须是{names}之一（扩展），这里是「{_written(args_nodes[0])}」",
                        TEXEL_FORMAT, 类型=_written(args_nodes[0]))
            return ERROR
        if head.name in STORAGE and STORAGE[head.name].access == "read_write" and format_name(args[0]) is not None \
                and format_name(args[0]) not in READ_WRITE_FORMATS:
            names = "、".join(f"「{n}」" for n in READ_WRITE_FORMATS)
            self.report(args_nodes[0], f"读写存储纹理的格式须是{names}之一（WebGPU 只许这三种可读可写），"
                                       f"这里是「{format_name(args[0])}」：只读或只写就去掉「读写」或改成「只读」",
                        TEXEL_FORMAT, 类型=format_name(args[0]))
            return ERROR
        return TCon(head.name, tuple(args))

    def _family_name(self, name: str, entry) -> str | None:
        if entry is not None and entry.kind == "family":
            return entry.type.name
        return None


def _integer(t: Type) -> bool:
    """An integer scalar or vector (WGSL passes these between stages only flat)."""
    parts = vector_parts(resolve(t))
    scalar = resolve(parts[0]) if parts is not None else resolve(t)
    return is_scalar(scalar, include_literals=False) and isinstance(scalar, TCon) and scalar.name in SCALAR_HEADS[1:]
