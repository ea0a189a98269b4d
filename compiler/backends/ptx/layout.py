"""Memory layout of buffer and workgroup contents for PTX (seed 着十): the
shared layout (compiler/layout.py, WGSL §14.4) with PTX's scalars — a bool
is stored as four bytes, in workgroup memory only — and its refusals as
`Unsupported`; `memory_leaves` places each register of a value in memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...layout import field_offsets as shared_offsets, round_up, size_align, stride, trailing_array
from ...lower.types import concrete
from ...types import TCon, TRecord, TTuple, Type
from .scalars import PRED, Scalar, Unsupported, scalar_of


@dataclass(frozen=True)
class Layout:
    size: int
    align: int


def _scalar_size(t: Type) -> int | None:
    scalar = scalar_of(t)
    return None if scalar is None else scalar.size


def _refuse(t: Type) -> None:
    if isinstance(t, TCon) and t.name == "数组":
        raise Unsupported("运行期数组（「数组」）只能是存储缓冲的内容，不能作为整个值读写")
    raise Unsupported(f"「{getattr(t, 'alias', None) or getattr(t, 'name', '？')}」不能放进缓冲或工作组内存", type=t)


def layout_of(t: Type) -> Layout:
    """Size and alignment of a fixed-size type."""
    return Layout(*size_align(concrete(t), _scalar_size, _refuse))


def field_offsets(t: TRecord) -> list[int]:
    """Byte offset of every field of a struct, in field order."""
    return shared_offsets(concrete(t), _scalar_size, _refuse)


def stride_of(element: Type) -> int:
    """The stride of an array of `element`."""
    return stride(concrete(element), _scalar_size, _refuse)


def array_place(t: Type) -> tuple[int, int]:
    """(byte offset, stride) of the runtime-sized array a buffer of type t holds (after a header's fields)."""
    return trailing_array(concrete(t), _scalar_size, _refuse)


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
        step = stride_of(t.args[0])
        return [leaf for i in range(t.args[1]) for leaf in memory_leaves(t.args[0], base + i * step)]
    if isinstance(t, TCon) and t.name == "原子":
        return memory_leaves(t.args[0], base)
    layout_of(t)  # raises the reason
    return []


def vector_runs(leaves: list[tuple[int, Scalar]], offset: int, align: int) -> list[list[tuple[int, Scalar]]]:
    """`memory_leaves` grouped into the accesses ld/st make: four or two
    adjacent scalars of one kind (never a 爻, stored as a word of its own) are
    one .v4 or .v2 access where their first lies at a multiple of their total
    size.  The value starts at a multiple of its alignment `align` (the WGSL
    layout places every value so, at `offset` from the address operand), so a
    run of n bytes, n dividing `align`, is aligned when (its offset − offset) is
    a multiple of n."""
    runs, i = [], 0
    while i < len(leaves):
        for width in (4, 2, 1):
            run = leaves[i:i + width]
            first, kind = run[0]
            size = width * kind.size
            if width == 1 or (len(run) == width and kind is not PRED and align % size == 0
                              and (first - offset) % size == 0
                              and all(k is kind and o == first + j * kind.size for j, (o, k) in enumerate(run))):
                runs.append(run)
                i += width
                break
    return runs
