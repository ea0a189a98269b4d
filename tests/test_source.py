"""Positions: lines, columns in characters and in UTF-16 code units."""

from zhuose.compiler.source import SourceFile, decode_source, utf16_length


def test_columns_in_characters_and_utf16_units():
    text = "「甲」者「𝒙」加\n「乙」"
    src = SourceFile("x", text)
    after_astral = text.index("」加") + 1
    pos = src.position(after_astral)
    assert (pos.line, pos.column) == (0, 7)
    assert pos.column_utf16 == 8  # 𝒙 is two UTF-16 code units
    assert src.position(text.index("「乙」")) .line == 1
    assert src.offset(0, 8) == after_astral
    assert utf16_length("𝒙甲") == 3


def test_offset_clamps_past_the_end():
    src = SourceFile("x", "「甲」\n")
    assert src.offset(9, 0) == len(src.text)
    assert src.offset(0, 99) == 3


def test_decode_reports_first_bad_byte_and_strips_bom():
    text, bad = decode_source("\ufeff「甲」".encode())
    assert text == "「甲」" and bad is None
    text, bad = decode_source("「甲」".encode() + b"\xff")
    assert bad == 3 and text.endswith("\ufffd")
