"""WGSL memory layout of buffer contents (WGSL §14.4), so the host side can
size buffers and read .npy data of the right element type."""

from __future__ import annotations

from ...types import TCon, TRecord, TTuple, deep_resolve, matrix_parts, vector_parts

#: scalar type → (NumPy dtype name, bytes)
SCALAR_DTYPES = {("定长小数", 32): ("float32", 4), ("定长小数", 16): ("float16", 2),
                 ("定长整数", 32): ("int32", 4), ("定长无符号", 32): ("uint32", 4)}


def _round_up(n: int, align: int) -> int:
    return (n + align - 1) // align * align


def size_align(t) -> tuple[int, int] | None:
    """(size, alignment) in bytes of a host-shareable type; None for a
    runtime-sized array or what is not host-shareable."""
    t = deep_resolve(t)
    if isinstance(t, TCon) and (t.name, t.args[0] if t.args else None) in SCALAR_DTYPES:
        size = SCALAR_DTYPES[(t.name, t.args[0])][1]
        return size, size
    if isinstance(t, TCon) and t.name == "原子":
        return 4, 4
    if isinstance(t, TCon) and t.name == "定长数组":
        element = size_align(t.args[0])
        if element is None:
            return None
        return _round_up(*element) * t.args[1], element[1]
    matrix = matrix_parts(t)
    if matrix is not None:
        column = size_align(TTuple(tuple(matrix[0] for _ in range(matrix[2]))))
        return _round_up(*column) * matrix[1], column[1]
    vector = vector_parts(t)
    if vector is not None:
        scalar = size_align(vector[0])
        if scalar is None:
            return None
        n = vector[1]
        return scalar[0] * n, scalar[0] * (2 if n == 2 else 4)
    if isinstance(t, TRecord):
        offset, align = 0, 1
        for _, ft in t.fields:
            field = size_align(ft)
            if field is None:
                return None
            offset = _round_up(offset, field[1]) + field[0]
            align = max(align, field[1])
        return _round_up(offset, align), align
    return None


def padded(data: bytes, t, uniform: bool) -> bytes:
    """A buffer's bytes as uploaded: at least the type's fixed size, a multiple
    of 4 (of 16 for a uniform buffer, whose layout rounds structs up to 16)."""
    fixed = size_align(t)
    unit = 16 if uniform else 4
    size = max(len(data), fixed[0] if fixed else 0, 4)
    size = (size + unit - 1) // unit * unit
    return data + bytes(size - len(data))


def element_stride(t) -> int | None:
    """The stride of a runtime-sized array 「数组」于 T, else None."""
    t = deep_resolve(t)
    if isinstance(t, TCon) and t.name == "数组":
        element = size_align(t.args[0])
        return None if element is None else _round_up(*element)
    return None


def leaf_dtype(t) -> str | None:
    """The NumPy dtype of every scalar inside t, when they are all the same."""
    found = set()

    def visit(u) -> None:
        u = deep_resolve(u)
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
