"""WGSL memory layout of buffer contents (WGSL §14.4), so the host side can
size buffers and read .npy data of the right element type."""

from __future__ import annotations

from ...types import TCon, TRecord, TTuple, deep_resolve, matrix_parts, vector_parts

#: scalar type → (NumPy dtype name, bytes)
SCALAR_DTYPES = {("定长小数", 32): ("float32", 4), ("定长小数", 16): ("float16", 2),
                 ("定长整数", 32): ("int32", 4), ("定长无符号", 32): ("uint32", 4)}


def head_name(t) -> str | None:
    t = deep_resolve(t)
    return t.name if isinstance(t, TCon) else None


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
        for name, ft in t.fields:
            field = size_align(ft)
            if field is None:
                return None
            offset = _round_up(offset, field[1]) + field[0]
            align = max(align, field[1])
        return _round_up(offset, align), align
    return None


def buffer_problem(t, uniform: bool) -> str | None:
    """Why WGSL rejects t as a buffer's contents, if it does: no 爻 in
    buffers; a uniform buffer has no runtime-sized array, array elements of
    a multiple of 16 bytes and nested structs at offsets of 16 (WGSL §14.4)."""
    t = deep_resolve(t)
    vector = vector_parts(t)
    if head_name(vector[0] if vector else t) == "爻":
        return "WGSL 的缓冲里不能存「爻」：改用「无三二」（0 与 1）"
    if isinstance(t, TCon) and t.name == "数组" and uniform:
        return "均匀缓冲里不能有运行期数组（「数组」）：改用「定长数组」或存储缓冲"
    if isinstance(t, TCon) and t.name in ("数组", "定长数组", "原子"):
        stride = size_align(t.args[0])
        if uniform and t.name == "定长数组" and stride is not None and _round_up(*stride) % 16:
            return (f"均匀缓冲里数组的每个元素须占 16 字节的倍数，这里占 {_round_up(*stride)} 字节："
                    "改用「四维浮」等四分量的元素，或改用存储缓冲")
        return buffer_problem(t.args[0], uniform)
    if isinstance(t, TRecord):
        offset = 0
        for name, ft in t.fields:
            field = size_align(ft)
            problem = buffer_problem(ft, uniform)
            if problem or field is None:
                return problem
            offset = _round_up(offset, field[1])
            if uniform and isinstance(deep_resolve(ft), TRecord) and offset % 16:
                return f"均匀缓冲里，结构类型的字段须从 16 字节的倍数处开始，「{name}」在第 {offset} 字节：在它前面补字段"
            offset += field[0]
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
