"""The lexer: names, numerals, comments, keywords, errors (LANGUAGE.md §2)."""

from zhuose.compiler.syntax.lexer import lex
from zhuose.compiler.syntax.parser import number_value


def types(text):
    tokens, _ = lex(text)
    return [t.type for t in tokens]


def test_chinese_numerals_are_positional():
    assert number_value("四零") == (40, False)
    assert number_value("三二") == (32, False)
    assert number_value("一六") == (16, False)
    assert number_value("八一九二") == (8192, False)
    assert number_value("零") == (0, False)
    assert number_value("〇") == (0, False)


def test_decimal_and_ascii_and_hex_numerals():
    assert number_value("三点五") == (3.5, True)
    assert number_value("0.5") == (0.5, True)
    assert number_value("1.0") == (1.0, True)
    assert number_value("42") == (42, False)
    assert number_value("0x4B400000") == (0x4B400000, False)


def test_names_that_are_not_numbers():
    for text in ["数据", "三维无", "0x", "点", "三点", "x1", "一二三四a"]:
        assert number_value(text) is None, text


def test_keywords_match_longest_first():
    assert types("寻观") == ["IMPORT_OPEN"]
    assert types("寻") == ["IMPORT"]
    assert types("否则") == ["ELSE"]
    assert types("又化") == ["FN_MORE"]
    assert types("又得") == ["LAMBDA_MORE"]
    assert types("不等于") == ["NE"]
    assert types("不大于 不小于 等于") == ["LE", "GE", "EQ"]
    assert types("按位与 按位或 异或 与 或") == ["BAND", "BOR", "BXOR", "WITH", "LOR"]
    assert types("之书 之") == ["BOOK", "OF"]


def test_names_keep_their_text_and_offsets():
    tokens, _ = lex("「加倍」者　「号」")
    assert [(t.type, t.value, t.start, t.end) for t in tokens] == [
        ("NAME", "「加倍」", 0, 4), ("DEF", "者", 4, 5), ("NAME", "「号」", 6, 9)]


def test_comments_nest_and_span_lines():
    tokens, comments = lex("「甲」「：外「：内：」\n仍在注释：」也")
    assert [t.type for t in tokens] == ["NAME", "YE"]
    assert len(comments) == 1 and comments[0].text.startswith("「：外")


def test_a_period_inside_a_name_comment_or_string_is_not_a_period():
    assert types("「甲。乙」") == ["NAME"]
    assert types("「：注释。：」") == []
    assert types("『字。』") == ["STRING"]


def test_unterminated_name_is_an_error_token_up_to_the_line_end():
    tokens, _ = lex("「甲\n「乙」")
    assert tokens[0].type == "ERROR" and "名字没有结束" in tokens[0].message
    assert tokens[1].type == "NAME" and tokens[1].value == "「乙」"


def test_unterminated_comment_and_string_run_to_the_end():
    tokens, _ = lex("「：开「：：」")
    assert [t.type for t in tokens] == ["ERROR"] and "注释没有结束" in tokens[0].message
    tokens, _ = lex("『没有结束")
    assert [t.type for t in tokens] == ["ERROR"] and "字符串没有结束" in tokens[0].message


def test_empty_name_and_unknown_text_are_errors():
    tokens, _ = lex("「」")
    assert tokens[0].type == "ERROR" and "不能为空" in tokens[0].message
    tokens, _ = lex("abc「甲」")
    assert tokens[0].type == "ERROR" and tokens[0].value == "abc"
    assert tokens[1].type == "NAME"


def test_ideographic_space_is_whitespace():
    assert types("　「甲」\t\r\n　也") == ["NAME", "YE"]
