"""Positions: lines, columns in characters and in UTF-16 code units."""

import random

from zhuose.compiler.source import SourceFile, decode_source, line_starts, utf16_length


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


def test_an_edited_file_shifts_a_built_line_table_to_the_one_built_afresh():
    rng = random.Random(3)
    pieces = ["「甲」", "\n", "\n\n", "𝑥", "也。\n", "", "　"]
    source = SourceFile("甲", "".join(rng.choice(pieces) for _ in range(40)))
    for k in range(200):
        if k % 3:
            source.line_starts     # built (a position was asked for), or left unbuilt
        text = source.text
        a, b = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        source = source.edited(text[:a] + "".join(rng.choice(pieces) for _ in range(rng.randrange(4))) + text[b:])
        assert source.line_starts == line_starts(source.text)
