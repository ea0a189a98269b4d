"""What a name denotes: the entries of a module's interface, and the lookup
order of seed 着四 (locals, this module's top level, opened imports, builtins).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..types import TVar, Type


@dataclass(eq=False)
class TypeEntry:
    """A type-level name.  kind: alias (即, a struct when type is a record),
    constructor (乃 … 元类型: `params` lists each parameter's kind, "type" or
    "index"), family, or intrinsic (「《《内建类型：…》》」)."""

    name: str
    kind: str
    module: str
    type: Type | None = None
    params: tuple[str, ...] = ()
    start: int = 0        # absolute offset of the declaring item
    name_end: int = 0     # relative to start
    doc: str = ""
    is_struct: bool = False


@dataclass(eq=False)
class ValueEntry:
    """A value-level name.  kind: builtin (declared in an interface file),
    function, const, resource, entry."""

    name: str
    kind: str
    module: str
    type: Type
    type_params: tuple[TVar, ...] = ()
    start: int = 0
    name_end: int = 0
    doc: str = ""
    access: str | None = None     # 只读 / 读写 for storage buffers
    resource: str | None = None   # the resource kind, for resources
    type_text: str = ""           # repr of the type, kept from the signature cache for fingerprints
    overridable: bool = False     # a constant whose value is 「可覆盖」于 默认值 (set when the pipeline is made)


@dataclass(eq=False)
class Exports:
    """A module's interface as seen by importers."""

    path: str
    name: str
    types: dict[str, TypeEntry] = field(default_factory=dict)
    values: dict[str, ValueEntry] = field(default_factory=dict)
    fingerprint: str = ""
    failed: bool = False    # stands for an import that failed: its names are unknown, not missing


class Scope:
    """Top-level lookup for one module: itself, then opened imports, then the
    builtins.  Qualified lookups go through `modules` (寻 and 寻观 imports)."""

    def __init__(self, own: Exports, opened: list[Exports], modules: dict[str, Exports],
                 builtins: Exports | None) -> None:
        self.own = own
        self.layers = [own] + opened + ([builtins] if builtins is not None else [])
        self.modules = modules
        self.builtins = builtins

    def value(self, name: str) -> ValueEntry | None:
        for layer in self.layers:
            entry = layer.values.get(name)
            if entry is not None:
                return entry
        return None

    def type(self, name: str) -> TypeEntry | None:
        for layer in self.layers:
            entry = layer.types.get(name)
            if entry is not None:
                return entry
        return None

    @property
    def incomplete(self) -> bool:
        """An opened import failed: a name not found may be one of its names,
        so it is not reported (the import's own message says what is wrong)."""
        return any(layer.failed for layer in self.layers)

    def builtin_value(self, name: str) -> ValueEntry | None:
        return self.builtins.values.get(name) if self.builtins else None

    def all_names(self) -> list[str]:
        names: list[str] = []
        for layer in self.layers:
            names.extend(layer.values)
            names.extend(layer.types)
        return names
