"""PNG files of 8-bit RGBA pixels, written with zlib and struct only (the
PNG specification's IHDR, IDAT and IEND chunks), so showing a rendered or
computed image needs no imaging library."""

from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
RGBA8 = (8, 6)          # bit depth 8, colour type 6: red, green, blue, alpha
NO_FILTER = b"\x00"     # each scanline's filter-type byte


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One chunk: length, type, data, and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(rgba: bytes, width: int, height: int) -> bytes:
    """The PNG file of `height` rows of `width` RGBA pixels, top row first."""
    stride = width * 4
    if len(rgba) != stride * height or width < 1 or height < 1:
        raise ValueError(f"{width}×{height} 的 RGBA 图要 {stride * height} 字节，给了 {len(rgba)}")
    header = struct.pack(">IIBBBBB", width, height, *RGBA8, 0, 0, 0)
    rows = b"".join(NO_FILTER + rgba[y * stride:(y + 1) * stride] for y in range(height))
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, 6)) + _chunk(b"IEND", b"")


class PngError(Exception):
    """A file that is not a PNG this reader understands: the message says why, in Chinese."""


#: colour type → (name, channels): grey, RGB, palette, grey + alpha, RGBA
COLOUR_TYPES = {0: ("灰度", 1), 2: ("RGB", 3), 3: ("调色板", 1), 4: ("灰度加透明", 2), 6: ("RGBA", 4)}


def decode_png(data: bytes) -> tuple[bytes, int, int, int]:
    """(pixels, width, height, channels) of a non-interlaced PNG of bit depth 8
    or 16 (16-bit samples keep their high byte); a palette image comes back as
    RGB, or RGBA when it has a tRNS chunk."""
    if not data.startswith(SIGNATURE):
        raise PngError("不是 PNG 文件（开头没有 PNG 签名）")
    chunks = _chunks(data)
    if not chunks or chunks[0][0] != b"IHDR" or len(chunks[0][1]) != 13:
        raise PngError("PNG 文件缺 IHDR 块")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if colour not in COLOUR_TYPES or depth not in (8, 16) or (colour == 3 and depth != 8):
        raise PngError(f"只读位深 8 或 16 的 PNG（调色板图只读 8 位），这个文件位深 {depth}、颜色类型 {colour}")
    if interlace:
        raise PngError("不读隔行扫描（Adam7）的 PNG：请存成非隔行的")
    if width < 1 or height < 1:
        raise PngError("PNG 的宽或高是 0")
    try:
        raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    except zlib.error as err:
        raise PngError(f"PNG 的图像数据解压失败：{err}") from err
    channels = COLOUR_TYPES[colour][1]
    samples = _unfilter(raw, width, height, channels * depth // 8)
    if depth == 16:
        samples = samples[::2]
    if colour == 3:
        return _palette(samples, chunks, width, height)
    return bytes(samples), width, height, channels


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """Every chunk's (type, data), checked against its CRC."""
    out, at = [], len(SIGNATURE)
    while at + 12 <= len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if len(body) != length or at + 12 + length > len(data):
            raise PngError(f"PNG 的「{kind.decode('latin-1')}」块被截断")
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise PngError(f"PNG 的「{kind.decode('latin-1')}」块校验和不对（文件已损坏）")
        out.append((kind, body))
        at += 12 + length
        if kind == b"IEND":
            break
    return out


def _unfilter(raw: bytes, width: int, height: int, step: int) -> bytearray:
    """The scanlines with their filters (none, sub, up, average, Paeth) undone."""
    stride = width * step
    if len(raw) < (stride + 1) * height:
        raise PngError(f"PNG 的图像数据不足：{width}×{height} 要 {(stride + 1) * height} 字节，只有 {len(raw)}")
    out, previous = bytearray(), bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind > 4:
            raise PngError(f"PNG 第 {y + 1} 行的过滤类型是 {kind}（只有 0 至 4）")
        for i in range(stride) if kind else ():
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            else:
                line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
        out += line
        previous = line
    return out


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def _palette(indices: bytearray, chunks, width: int, height: int) -> tuple[bytes, int, int, int]:
    """A palette image's pixels as RGB, or RGBA when tRNS gives entries an alpha."""
    found = dict(chunks)
    palette, alpha = found.get(b"PLTE"), found.get(b"tRNS", b"")
    if palette is None or len(palette) % 3:
        raise PngError("调色板 PNG 缺 PLTE 块")
    colours = [palette[i:i + 3] for i in range(0, len(palette), 3)]
    if max(indices, default=0) >= len(colours):
        raise PngError("PNG 的像素引用了调色板之外的颜色")
    if alpha:
        entries = [c + bytes([alpha[i] if i < len(alpha) else 255]) for i, c in enumerate(colours)]
        return b"".join(entries[i] for i in indices), width, height, 4
    return b"".join(colours[i] for i in indices), width, height, 3
