"""The PTX back end (seed 着十): compute entries to PTX text that ptxas and
the CUDA driver accept, with no C++ and no NVRTC in between;
`builtin_spelling(name)` says what a builtin becomes in PTX."""

from __future__ import annotations

from .. import Translation
from ..targets import DEFAULT_OPTIONS, Options
from . import ops
from .writer import PtxEntryInfo, PtxParam, Writer

__all__ = ["builtin_spelling", "translate", "PtxEntryInfo", "PtxParam"]


def builtin_spelling(name: str) -> str | None:
    """The PTX instructions builtin `name` becomes (T: the operand's scalar
    type), or a description of its instruction sequence, for hover; None
    where the PTX back end has no such builtin."""
    return ops.spelling(name)


def translate(info, options: Options = DEFAULT_OPTIONS) -> Translation:
    return Writer(info, options).translate()
