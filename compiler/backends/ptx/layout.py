"""Memory layout of buffer and workgroup contents (seed 着十, WGSL §14.4).

f16 aligns to 2, every other scalar to 4; a two-component vector aligns to
twice its component, three and four components to four times; a matrix is
an array of its column vectors; a struct aligns to its largest field and
pads its size to that; an array's stride is its element's size rounded up to
the element's alignment.  Uniform buffers use the same layout (WGSL's extra
16-byte rule for uniform buffers is not applied, seed 着十).  A bool is
stored as four bytes, in workgroup memory only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...lower.types import concrete
from ...types import TCon, TRecord, TTuple, Type
from .scalars import Scalar, Unsupported, scalar_of


@dataclass(frozen=True)
class Layout:
    size: int
    align: int


def round_up(n: int, align: int) -> int:
    return (n + align - 1) // align * align


def layout_of(t: Type) -> Layout:
    """Size and alignment of a fixed-size type."""
    t = concrete(t)
    scalar = scalar_of(t)
    if scalar is not None:
        return Layout(scalar.size, scalar.size)
    if isinstance(t, TTuple):
        return _tuple_layout(t)
    if isinstance(t, TRecord):
        return _record_layout(t)[1]
    if isinstance(t, TCon) and t.name == "定长数组":
        element = layout_of(t.args[0])
        return Layout(stride_of(t.args[0]) * t.args[1], element.align)
    if isinstance(t, TCon) and t.name == "原子":
        return layout_of(t.args[0])
    if isinstance(t, TCon) and t.name == "数组":
        raise Unsupported("运行期数组（「数组」）只能是存储缓冲的内容，不能作为整个值读写")
    raise Unsupported(f"「{getattr(t, 'alias', None) or getattr(t, 'name', '？')}」不能放进缓冲或工作组内存")


def _tuple_layout(t: TTuple) -> Layout:
    """A vector (items are scalars) or a matrix (items are column vectors)."""
    first = layout_of(t.items[0])
    n = len(t.items)
    if scalar_of(t.items[0]) is not None:
        return Layout(first.size * n, first.size * (2 if n == 2 else 4))
    return Layout(round_up(first.size, first.align) * n, first.align)


def _record_layout(t: TRecord) -> tuple[list[int], Layout]:
    offsets, end, align = [], 0, 1
    for _, field in t.fields:
        fl = layout_of(field)
        offset = round_up(end, fl.align)
        offsets.append(offset)
        end = offset + fl.size
        align = max(align, fl.align)
    return offsets, Layout(round_up(end, align), align)


def field_offsets(t: TRecord) -> list[int]:
    """Byte offset of every field of a struct, in field order."""
    return _record_layout(concrete(t))[0]


def stride_of(element: Type) -> int:
    """The stride of an array of `element`."""
    layout = layout_of(element)
    return round_up(layout.size, layout.align)


def memory_leaves(t: Type, base: int = 0) -> list[tuple[int, Scalar]]:
    """(byte offset, scalar kind) of every scalar in a value of type t, in
    the register order of scalars.leaves."""
    t = concrete(t)
    scalar = scalar_of(t)
    if scalar is not None:
        return [(base, scalar)]
    if isinstance(t, TTuple):
        step = layout_of(t.items[0])
        step_size = step.size if scalar_of(t.items[0]) is not None else round_up(step.size, step.align)
        return [leaf for i, item in enumerate(t.items) for leaf in memory_leaves(item, base + i * step_size)]
    if isinstance(t, TRecord):
        offsets = field_offsets(t)
        return [leaf for (_, field), off in zip(t.fields, offsets) for leaf in memory_leaves(field, base + off)]
    if isinstance(t, TCon) and t.name == "定长数组":
        stride = stride_of(t.args[0])
        return [leaf for i in range(t.args[1]) for leaf in memory_leaves(t.args[0], base + i * stride)]
    if isinstance(t, TCon) and t.name == "原子":
        return memory_leaves(t.args[0], base)
    layout_of(t)  # raises the reason
    return []
