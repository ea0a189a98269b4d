"""LSP frames read robustly from a byte stream.

pygls's reader matches a header only when it is a whole line and trusts any
Content-Length: one frame whose body is shorter than announced, or does not
end in a newline, glues the next header to it and no request is read again;
a length of 10¹² is allocated.  Here a header is found anywhere in a line (so
the reader falls back into step at the next one) and a frame over MAX_FRAME
is skipped, reported as Oversized, without reading it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO, Iterator

MAX_FRAME = 64 * 1024 * 1024
_HEADER = re.compile(rb"Content-Length:[ \t]*(\d+)", re.IGNORECASE)
_LINE = 1 << 16     # a header line is read at most this much at a time


@dataclass
class Oversized:
    length: int


def frames(stream: BinaryIO) -> Iterator[bytes | Oversized]:
    """Each frame's body, in order, until the stream ends."""
    length = None
    while True:
        line = stream.readline(_LINE)
        if not line:
            return
        found = _HEADER.findall(line)
        if found:
            digits = found[-1].lstrip(b"0") or b"0"
            length = int(digits) if len(digits) <= 12 else MAX_FRAME + 1
        elif length is not None and line in (b"\r\n", b"\n"):
            if length > MAX_FRAME:
                yield Oversized(length)
            else:
                body = _read(stream, length)
                if len(body) < length:
                    return
                yield body
            length = None


def _read(stream: BinaryIO, length: int) -> bytes:
    parts, left = [], length
    while left:
        part = stream.read(left)
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
