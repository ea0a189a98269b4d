"""What the importer cannot express: one refusal per construct, at its WGSL offset."""

from __future__ import annotations


class Refusal(Exception):
    """`导入：不支持 …`: the construct and why, at a WGSL offset."""

    def __init__(self, offset: int, what: str):
        super().__init__(what)
        self.offset = offset
        self.what = what
