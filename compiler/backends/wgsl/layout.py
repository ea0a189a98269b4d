"""What WGSL refuses in a buffer beyond the shared memory layout
(compiler/layout.py, WGSL §14.4): no 爻, and a uniform buffer's 16-byte
rules."""

from __future__ import annotations

from ...layout import head_name, round_up, size_align, stride
from ...types import TCon, TRecord, deep_resolve, vector_parts


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
        element = stride(t.args[0])
        if uniform and t.name == "定长数组" and element is not None and element % 16:
            return (f"均匀缓冲里数组的每个元素须占 16 字节的倍数，这里占 {element} 字节："
                    "改用「四维浮」等四分量的元素，或改用存储缓冲")
        return buffer_problem(t.args[0], uniform)
    if isinstance(t, TRecord):
        offset = 0
        for name, ft in t.fields:
            field = size_align(ft)
            problem = buffer_problem(ft, uniform)
            if problem or field is None:
                return problem
            offset = round_up(offset, field[1])
            if uniform and isinstance(deep_resolve(ft), TRecord) and offset % 16:
                return f"均匀缓冲里，结构类型的字段须从 16 字节的倍数处开始，「{name}」在第 {offset} 字节：在它前面补字段"
            offset += field[0]
    return None

