"""Memory the interpreter reads and writes: storage and uniform buffers as the
bytes 运行 uploads (WGSL layout), workgroup variables (one copy per workgroup,
zeroed), and the shadow state that finds data races.

An element (of a runtime-sized or fixed-size array, or the whole variable)
is the unit of the race check: each keeps its last writer and its last two
readers with the synchronisation epoch of the access.  An epoch key is
workgroup << 32 | barriers that workgroup has passed; two accesses by
different invocations conflict unless they are in the same workgroup and a
barrier lies between them (different keys), so storage accesses of
different workgroups always conflict within a dispatch.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..layout import SCALAR_DTYPES, field_offsets, head_name, round_up, size_align, stride as array_stride, trailing_array
from ..types import TCon, TRecord, TTuple, deep_resolve, matrix_parts, vector_parts


# ---------------------------------------------------------------- codecs


@dataclass(frozen=True)
class Leaf:
    """A scalar at a byte offset."""

    offset: int
    dtype: np.dtype


def codec(t, offset: int = 0):
    """How a value of type t lies in memory from `offset`: a Leaf for a scalar, a tuple of codecs for a vector, matrix or fixed array, a dict
    for a record."""
    t = deep_resolve(t)
    if isinstance(t, TCon) and t.name == "原子":
        return codec(t.args[0], offset)
    if isinstance(t, TCon) and (t.name, t.args[0] if t.args else None) in SCALAR_DTYPES:
        return Leaf(offset, np.dtype(SCALAR_DTYPES[(t.name, t.args[0])][0]))
    if isinstance(t, TCon) and t.name == "定长数组":
        stride = array_stride(t.args[0])
        return tuple(codec(t.args[0], offset + k * stride) for k in range(t.args[1]))
    matrix = matrix_parts(t)
    if matrix is not None:
        column = TTuple(tuple(matrix[0] for _ in range(matrix[2])))
        stride = array_stride(column)
        return tuple(codec(column, offset + k * stride) for k in range(matrix[1]))
    vector = vector_parts(t)
    if vector is not None:
        size = size_align(vector[0])[0]
        return tuple(codec(vector[0], offset + k * size) for k in range(vector[1]))
    if isinstance(t, TRecord):
        return {name: codec(ft, offset + at) for (name, ft), at in zip(t.fields, field_offsets(t))}
    raise Unsupported(f"参照解释器不能把{t}放进内存")


class Unsupported(Exception):
    """A type or builtin the interpreter does not model (a usage error, not a fault)."""


def word_index(byte_base, leaf: Leaf):
    """The index of a scalar in its dtype's view; `byte_base` is an Elements (or an int) of byte offsets."""
    if isinstance(byte_base, Elements):
        if byte_base.stride == leaf.dtype.itemsize and leaf.offset == 0:
            return byte_base.elems                      # an array of scalars: the element is the index
        byte_base = byte_base.elems * byte_base.stride
    return (byte_base + leaf.offset) // leaf.dtype.itemsize


@dataclass
class Elements:
    """The elements one access touches, by number, and the array's stride in bytes."""

    elems: np.ndarray
    stride: int


def decode(views, c, byte_base):
    """The value at byte offsets `byte_base` (one per lane) as codec c says."""
    if isinstance(c, dict):
        return {k: decode(views, v, byte_base) for k, v in c.items()}
    if isinstance(c, Leaf):
        return views(c.dtype)[word_index(byte_base, c)]
    return tuple(decode(views, part, byte_base) for part in c)


def encode(views, c, byte_base, value) -> None:
    if isinstance(c, dict):
        for k, v in c.items():
            encode(views, v, byte_base, value[k])
        return
    if isinstance(c, Leaf):
        views(c.dtype)[word_index(byte_base, c)] = value
        return
    for part, v in zip(c, value):
        encode(views, part, byte_base, v)


# ---------------------------------------------------------------- memory


@dataclass
class Access:
    """Who touched an element last: invocation, epoch key, site (source position index), and how many
    barriers of the other kind its workgroup had passed (to name the barrier a race lacks)."""

    inv: np.ndarray
    key: np.ndarray
    site: np.ndarray
    other: np.ndarray


def _no_access(total: int) -> Access:
    return Access(np.full(total, -1, np.int64), np.zeros(total, np.int64), np.zeros(total, np.int32),
                  np.zeros(total, np.int64))


class Region:
    """One buffer or workgroup variable: raw bytes, its elements and their shadow."""

    def __init__(self, name: str, kind: str, raw: np.ndarray, element_type, stride: int, count: int,
                 per_group: int = 0, offset: int = 0):
        self.name, self.kind, self.raw = name, kind, raw
        self.type, self.offset = element_type, offset     # offset: where a buffer's field starts in `raw`
        self.stride, self.count = stride, count
        self.per_group = per_group           # workgroup variables: elements per workgroup
        self._views: dict[np.dtype, np.ndarray] = {}
        self._fields: dict[str, Region] = {}

    @cached_property
    def codec(self):
        """Made when first read: a header buffer's whole record (which ends in a runtime-sized array) has none."""
        return codec(self.type, self.offset)

    def field(self, name: str) -> "Region":
        """「缓冲」中「字段」: a field of the record this buffer holds, over the
        same bytes — the trailing runtime-sized array's elements, or the
        field's whole value as one element — with shadows of its own (no two
        fields overlap; a field and a field inside it are not compared)."""
        found = self._fields.get(name)
        if found is None:
            record = deep_resolve(self.type)
            names = [n for n, _ in record.fields]
            at = self.offset + field_offsets(record)[names.index(name)]
            found = self._fields[name] = _region_at(f"{self.name}」中「{name}", self.kind, self.raw,
                                                    record.fields[names.index(name)][1], at)
        return found

    @cached_property
    def write(self) -> Access:
        """The shadow of the last write (made at the first access: read-only buffers never need one)."""
        return _no_access(self.elements)

    @cached_property
    def reads(self) -> list[Access]:
        """The shadows of the last two readers."""
        return [_no_access(self.elements), _no_access(self.elements)]

    @cached_property
    def atomic(self) -> np.ndarray:
        return np.zeros(self.elements, bool)

    @property
    def elements(self) -> int:
        return len(self.raw) // self.stride if self.stride else 0

    def views(self, dtype: np.dtype) -> np.ndarray:
        if dtype not in self._views:
            self._views[dtype] = self.raw.view(dtype)
        return self._views[dtype]


def storage_region(name: str, kind: str, inner, data: bytes) -> Region:
    """A storage or uniform buffer: a runtime-sized array's elements, or the
    whole value as one element; a record whose header fields come before a
    runtime-sized array is read only through its fields (`Region.field`)."""
    t = deep_resolve(inner)
    raw = np.frombuffer(bytearray(data + bytes(-len(data) % 4)), np.uint8)
    trailing = trailing_array(t)
    if isinstance(t, TRecord) and trailing is not None:
        raw = _at_least(raw, trailing[0])
        return Region(name, kind, raw, t, max(len(raw), 4), 1)
    if trailing is None:
        raw = _at_least(raw, size_align(t)[0])
    return _region_at(name, kind, raw, t, 0)


def _at_least(raw: np.ndarray, size: int) -> np.ndarray:
    """A buffer's bytes, zero-padded to `size` (what a host uploads, layout.padded)."""
    return raw if len(raw) >= size else np.concatenate([raw, np.zeros(size - len(raw), np.uint8)])


def _region_at(name: str, kind: str, raw: np.ndarray, t, offset: int) -> Region:
    """A runtime-sized array's elements from `offset` to the end of `raw`, or a value of type t there."""
    t = deep_resolve(t)
    if isinstance(t, TCon) and t.name == "数组":
        stride = array_stride(t.args[0])
        return Region(name, kind, raw, t.args[0], stride, max(len(raw) - offset, 0) // stride, offset=offset)
    if isinstance(t, TCon) and t.name == "定长数组" and head_name(t.args[0]) == "原子":    # never read whole
        return Region(name, kind, raw, t.args[0], array_stride(t.args[0]), t.args[1], offset=offset)
    return Region(name, kind, raw, t, round_up(size_align(t)[0], 4), 1, offset=offset)


def workgroup_region(name: str, inner, groups: int) -> Region:
    """A workgroup variable, zeroed, one copy per workgroup: a fixed array's elements, or the whole value."""
    t = deep_resolve(inner)
    if isinstance(t, TCon) and t.name == "定长数组":
        stride, count = array_stride(t.args[0]), t.args[1]
        element = t.args[0]
    else:
        stride, count, element = round_up(size_align(t)[0], 4), 1, t
    return Region(name, "workgroup", np.zeros(stride * count * groups, np.uint8), element, stride, count, count)
