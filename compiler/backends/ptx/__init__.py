"""The PTX back end (seed 着十): compute entries to PTX text that ptxas and
the CUDA driver accept, with no C++ and no NVRTC in between."""

from __future__ import annotations

from .. import Translation
from .writer import PtxEntryInfo, PtxParam, Writer

__all__ = ["translate", "PtxEntryInfo", "PtxParam"]


def translate(ws, checked) -> Translation:
    return Writer(ws, checked).translate()
