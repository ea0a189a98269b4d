"""The memory layout of values in buffers and workgroup memory (WGSL §14.4),
one rule for every target, the host side and the reference interpreter:
size, alignment, field offsets and array strides.

f16 aligns to 2, every other scalar to 4; a two-component vector aligns to
twice its component, three and four components to four times; a matrix is
an array of its column vectors; a struct aligns to its largest field and
pads its size to that; an array's stride is its element's size rounded up to
the element's alignment.  Uniform buffers use the same layout (WGSL's extra
16-byte rules for uniform buffers are a WGSL refusal,
compiler/backends/wgsl/layout.py, not another layout).

The scalars laid out are the host-shareable ones (`SCALAR_DTYPES`) unless a
caller says otherwise: PTX also stores 爻 (four bytes, in workgroup memory
only), compiler/backends/ptx/layout.py.  MSL writes its buffer structs to
this layout (`PACKED_ALIGN` in its writer).
"""

from __future__ import annotations

from typing import Callable

from .types import TCon, TRecord, TTuple, deep_resolve, matrix_parts, resolve, vector_parts

#: scalar type → (NumPy dtype name, bytes)
SCALAR_DTYPES = {("定长小数", 32): ("float32", 4), ("定长小数", 16): ("float16", 2),
                 ("定长整数", 32): ("int32", 4), ("定长无符号", 32): ("uint32", 4)}

ScalarSize = Callable[[object], "int | None"]
Refuse = Callable[[object], None]


def head_name(t) -> str | None:
    t = deep_resolve(t)
    return t.name if isinstance(t, TCon) else None


def round_up(n: int, align: int) -> int:
    return (n + align - 1) // align * align


def host_scalar_size(t) -> int | None:
    """Bytes of a host-shareable scalar (f32, f16, i32, u32); None for any other type."""
    t = resolve(t)
    if isinstance(t, TCon):
        found = SCALAR_DTYPES.get((t.name, t.args[0] if t.args else None))
        if found is not None:
            return found[1]
    return None


def size_align(t, scalar_size: ScalarSize = host_scalar_size, refuse: Refuse | None = None) -> tuple[int, int] | None:
    """(size, alignment) in bytes of a type with a fixed size; None for a
    runtime-sized array or a part `scalar_size` does not size (by default
    what is not host-shareable).  `refuse`, when given, is called with the
    innermost part that has no layout (to raise the caller's reason)."""
    return _size_align(deep_resolve(t), scalar_size, refuse)


def _size_align(t, scalar_size: ScalarSize, refuse: Refuse | None) -> tuple[int, int] | None:
    size = scalar_size(t)
    if size is not None:
        return size, size
    if isinstance(t, TCon) and t.name == "原子":
        return _size_align(t.args[0], scalar_size, refuse)
    if isinstance(t, TCon) and t.name == "定长数组":
        element = _size_align(t.args[0], scalar_size, refuse)
        return None if element is None else (round_up(*element) * t.args[1], element[1])
    if matrix_parts(t) is not None:
        column = _size_align(t.items[0], scalar_size, refuse)
        return None if column is None else (round_up(*column) * len(t.items), column[1])
    vector = vector_parts(t)
    if vector is not None:
        scalar = _size_align(vector[0], scalar_size, refuse)
        if scalar is None:
            return None
        n = vector[1]
        return scalar[0] * n, scalar[0] * (2 if n == 2 else 4)
    if isinstance(t, TRecord):
        offsets = _field_offsets(t, scalar_size, refuse)
        if offsets is not None and offsets[1] is None and refuse is not None:
            refuse(deep_resolve(t.fields[-1][1]))    # a header before a runtime-sized array has no size
        return None if offsets is None else offsets[1]
    if refuse is not None:
        refuse(t)
    return None


def _field_offsets(t: TRecord, scalar_size: ScalarSize, refuse: Refuse | None):
    """([offset of each field], (size, alignment)) of a struct, or None.  A
    runtime-sized array may end it (a buffer's header fields before it): its
    offset is rounded up to its element's alignment, and the struct has no
    size, (offsets, None)."""
    offsets, end, align = [], 0, 1
    for i, (_, ft) in enumerate(t.fields):
        element = _runtime_element(ft)
        if element is not None and i == len(t.fields) - 1:
            field = _size_align(element, scalar_size, refuse)
            if field is None:
                return None
            offsets.append(round_up(end, field[1]))
            return offsets, None
        field = _size_align(ft, scalar_size, refuse)
        if field is None:
            return None
        offset = round_up(end, field[1])
        offsets.append(offset)
        end = offset + field[0]
        align = max(align, field[1])
    return offsets, (round_up(end, align), align)


def field_offsets(t, scalar_size: ScalarSize = host_scalar_size, refuse: Refuse | None = None) -> list[int] | None:
    """The byte offset of every field of a struct, in field order; None when a field has no layout."""
    found = _field_offsets(deep_resolve(t), scalar_size, refuse)
    return None if found is None else found[0]


def stride(element, scalar_size: ScalarSize = host_scalar_size, refuse: Refuse | None = None) -> int | None:
    """The stride of an array of `element`: its size rounded up to its alignment."""
    found = size_align(element, scalar_size, refuse)
    return None if found is None else round_up(*found)


def _runtime_element(t):
    t = deep_resolve(t)
    return t.args[0] if isinstance(t, TCon) and t.name == "数组" else None


def trailing_array(t, scalar_size: ScalarSize = host_scalar_size, refuse: Refuse | None = None) -> tuple[int, int] | None:
    """(byte offset, stride) of the runtime-sized array a buffer holds: at 0
    when the buffer is that array, after the header fields when a struct
    ends in one; None when there is none.  Its length is (buffer size −
    offset) ÷ stride, for every host (WebGPU's arrayLength)."""
    t = deep_resolve(t)
    element = _runtime_element(t)
    if element is not None:
        return 0, stride(element, scalar_size, refuse)
    if isinstance(t, TRecord) and t.fields and _runtime_element(t.fields[-1][1]) is not None:
        offsets = field_offsets(t, scalar_size, refuse)
        return None if offsets is None else (offsets[-1], stride(_runtime_element(t.fields[-1][1]), scalar_size, refuse))
    return None


def array_length(size: int, t) -> int:
    """The element count of the runtime-sized array in a buffer of `size` bytes holding t."""
    offset, step = trailing_array(t)
    return max(size - offset, 0) // step


def element_stride(t) -> int | None:
    """The stride of a runtime-sized array 「数组」于 T, else None."""
    t = deep_resolve(t)
    if isinstance(t, TCon) and t.name == "数组":
        return stride(t.args[0])
    return None


def padded(data: bytes, t, uniform: bool) -> bytes:
    """A buffer's bytes as uploaded: at least the type's fixed size, a multiple
    of 4 (of 16 for a uniform buffer, whose layout rounds structs up to 16)."""
    fixed = size_align(t)
    unit = 16 if uniform else 4
    size = max(len(data), fixed[0] if fixed else 0, 4)
    size = (size + unit - 1) // unit * unit
    return data + bytes(size - len(data))


def leaf_dtype(t) -> str | None:
    """The NumPy dtype of every scalar inside t, when they are all the same."""
    found = set()

    def visit(u) -> None:
        u = resolve(u)
        if isinstance(u, TCon) and (u.name, u.args[0] if u.args else None) in SCALAR_DTYPES:
            found.add(SCALAR_DTYPES[(u.name, u.args[0])][0])
        elif isinstance(u, TCon):
            for a in u.args:
                if not isinstance(a, int):
                    visit(a)
        elif isinstance(u, TTuple):
            for i in u.items:
                visit(i)
        elif isinstance(u, TRecord):
            for _, ft in u.fields:
                visit(ft)
        else:
            found.add(None)
    visit(t)
    return found.pop() if len(found) == 1 else None
