"""What earlier runs generated, as the ledger (compiler/ledger.py) keeps it,
shared by `着色器 生成` (into a folder or to standard output) and the build
service: a source whose inputs are unchanged is answered from here, without
importing the checker or the back ends.

A module written into a folder is read back from its output file (the ledger
has checked that file's stamp); one printed to standard output keeps its text
in the entry.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from .. import ledger

KIND = "generate"


def book(out_dir: str | os.PathLike | None, here: str | os.PathLike = ".") -> ledger.Ledger:
    """The ledger of runs from `here` into `out_dir` (None: standard output)."""
    return ledger.Ledger(KIND, os.fspath(out_dir) if out_dir else "", os.fspath(here))


class Remembered(NamedTuple):
    """A module an earlier run made from inputs that are still as they were."""

    output: str | None        # the file it was written to, absolute; None when printed
    warnings: list[str]
    stored: str | None        # the text, when printed
    inputs: list[str]         # the files it was made from that were there (what a depfile names)

    def text(self) -> str | None:
        """The module's text (read from the output file when it was written); None when unreadable."""
        if self.output is None:
            return self.stored
        data = ledger.file_bytes(self.output)
        try:
            return None if data is None else data.decode("utf-8")
        except UnicodeDecodeError:
            return None


def recall(records: ledger.Ledger, source: str) -> Remembered | None:
    """The module of `source` (its real path) when nothing it was made from
    changed; None on a miss, also for an entry of the wrong shape."""
    entry = records.current(source)
    if entry is None:
        return None
    output, warnings, text = entry["output"], entry.get("warnings"), entry.get("text")
    if not (isinstance(warnings, list) and all(isinstance(w, str) for w in warnings)):
        return None
    if output is None and not isinstance(text, str) or output is not None and not isinstance(output, str):
        return None
    return Remembered(output, warnings, text if output is None else None, ledger.present(entry["inputs"]))


def remember(records: ledger.Ledger, ws, generated, output: os.PathLike | None) -> None:
    """Record a module just generated (and written to `output`, or printed)."""
    facts = {"warnings": generated.warnings}
    if output is None:
        facts["text"] = generated.text
    records.remember(generated.source, ledger.workspace_inputs(ws, generated.source),
                     os.path.abspath(output) if output is not None else None, **facts)
