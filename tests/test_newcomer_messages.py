"""A newcomer's mistakes (issue 15): each gives exactly one message, at the
mistake, with a stable `code` the tests match instead of the wording; and the
weak messages say how to write it right.  Positions are 行:列 of the file as
written (the import line is line 1)."""

from __future__ import annotations

from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace

from support.frontend import PRELUDE, write

BUFFER = ("「数据」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
          "「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n")
ENTRY = ("「入口」乃「计算入口」也。\n"
         "「入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「四」也】）也。\n")


def diagnostics(tmp_path, text: str, name: str = "测。着色器。豫", files: dict | None = None):
    """(行:列, code, definition, message) of every diagnostic of one file."""
    write(tmp_path, {name: text, **(files or {})})
    ws = Workspace(tmp_path)
    path = tmp_path / name
    source = ws.source(path)
    out = []
    for d in sorted(ws.diagnostics(path), key=lambda d: d.start):
        pos = source.position(d.start)
        out.append((f"{pos.line + 1}:{pos.column + 1}", d.code, d.definition, d.message))
    return out


def where(text: str, needle: str, occurrence: int = 0) -> str:
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at)
    return f"{line + 1}:{at - (text.rfind(chr(10), 0, at) + 1) + 1}"


# ---------------------------------------------------------------- one mistake, one message


def test_a_top_level_name_that_is_a_numeral_is_one_message_for_signature_and_definition(tmp_path):
    text = PRELUDE + "「一」乃「浮三二」也。\n「一」者「新浮三二」于「1」也。\n"
    assert [d[:3] for d in diagnostics(tmp_path, text)] == [(where(text, "「一」乃"), "numeral-name", "一")]


def test_a_local_named_by_a_numeral_is_one_message_at_its_binder(tmp_path):
    text = PRELUDE + BUFFER + (
        "「核」乃化「全局调用号」为「有」者也。\n"
        "「核」者得「号」而\n"
        "　令「二」为「号」中「零」而\n"
        "　「写数组」于「数据」于「二」于（（「读数组」于「数据」于「二」）乘（「新无三二」于「二」））\n"
        "也。\n") + ENTRY
    assert [d[:3] for d in diagnostics(tmp_path, text)] == [(where(text, "「二」为"), "numeral-name", "核")]


def test_an_ascii_comma_in_a_multi_line_struct_is_one_message_at_the_comma(tmp_path):
    text = PRELUDE + ("「点」即「组类」【\n"
                      "　「甲」乃「浮三二」也,\n"
                      "　「乙」乃「浮三二」也\n"
                      "】也。\n"
                      "「原点」乃「点」也。\n"
                      "「原点」者「组值」【「甲」者「新浮三二」于「零」也，「乙」者「新浮三二」于「零」也】也。\n")
    (d,) = diagnostics(tmp_path, text)
    assert d[:3] == (where(text, ","), "lex", "点") and "「，」" in d[3]


def test_if_without_else_used_as_a_value_is_one_message(tmp_path):
    text = PRELUDE + BUFFER + (
        "「核」乃化「全局调用号」为「有」者也。\n"
        "「核」者得「号」而\n"
        "　令「序」为「号」中「零」而\n"
        "　令「值」为 若「序」小于（「新无三二」于「四」）则「序」而\n"
        "　「写数组」于「数据」于「序」于「值」\n"
        "也。\n") + ENTRY
    assert [d[:3] for d in diagnostics(tmp_path, text)] == [(where(text, "「序」而\n"), "if-without-else", "核")]


def test_if_without_else_where_a_value_is_expected_is_one_message(tmp_path):
    text = PRELUDE + ("「取」乃化「无三二」为「无三二」者也。\n"
                      "「取」者得「x」而 若「x」小于（「新无三二」于「四」）则「x」也。\n")
    assert [d[:3] for d in diagnostics(tmp_path, text)] == [(where(text, "若"), "if-without-else", "取")]


def test_a_failed_import_is_reported_once_not_again_at_its_uses(tmp_path):
    text = "寻「点染」之「几何」之书。\n" + PRELUDE + "「甲」乃「浮三二」也。\n「甲」者「几何」之「长」也。\n"
    (d,) = diagnostics(tmp_path, text)
    assert d[0] == where(text, "「几何」") and "包内模块不存在" in d[3]


# ---------------------------------------------------------------- messages that say how to write it


def test_number_words_say_numbers_are_written_digit_by_digit(tmp_path):
    text = PRELUDE + "「甲」者「六十四」也。\n「乙」者「二十」也。\n「丙」者「一千」也。\n"
    found = diagnostics(tmp_path, text)
    assert [d[:3] for d in found] == [(where(text, "「六十四」"), "number-spelling", "甲"),
                                      (where(text, "「二十」"), "number-spelling", "乙"),
                                      (where(text, "「一千」"), "number-spelling", "丙")]
    assert ["「六四」" in found[0][3], "「二零」" in found[1][3], "「一零零零」" in found[2][3]] == [True] * 3


def test_a_number_word_as_an_array_length_says_the_same(tmp_path):
    text = PRELUDE + "「表」乃「定长数组」于「浮三二」于「六十四」也。\n「表」者「表」也。\n"
    (d,) = diagnostics(tmp_path, text)
    assert d[0] == where(text, "「六十四」") and "「六四」" in d[3]


def test_a_minus_sign_says_fu(tmp_path):
    text = PRELUDE + "「甲」者「-2」也。\n"
    (d,) = diagnostics(tmp_path, text)
    assert d[:3] == (where(text, "「-2」"), "number-spelling", "甲") and "负「2」" in d[3]
    assert diagnostics(tmp_path, PRELUDE + "「甲」者（负「2」）也。\n") == []


def test_an_exponent_says_what_is_supported(tmp_path):
    text = PRELUDE + "「甲」者「3.0e38」也。\n"
    (d,) = diagnostics(tmp_path, text)
    assert d[:3] == (where(text, "「3.0e38」"), "number-spelling", "甲")
    assert "指数" in d[3] and "「300000000000000000000000000000000000000」" in d[3]


def test_an_unknown_name_of_another_module_names_the_import(tmp_path):
    files = {"包.json": '{"名": "试", "依赖": ["点染"]}',
             "几何/向量。着色器。豫": PRELUDE + "「平方长」乃化「三维浮」为「浮三二」者也。\n"
                                       "「平方长」者得「v」而「点积」于「v」于「v」也。\n"}
    text = PRELUDE + "「长」乃化「三维浮」为「浮三二」者也。\n「长」者得「v」而「平方长」于「v」也。\n"
    (d,) = diagnostics(tmp_path, text, files=files)
    assert d[:3] == (where(text, "「平方长」"), "import", "长")
    assert "寻观「试」之「几何」之「向量」之书。" in d[3]


def test_a_wrong_module_path_suggests_the_existing_one(tmp_path):
    files = {"包.json": '{"名": "试", "依赖": ["点染"]}',
             "几何/向量。着色器。豫": PRELUDE + "「一」者「新浮三二」于「一」也。\n"}
    text = PRELUDE + "寻「试」之「几合」之书。\n"
    (d,) = diagnostics(tmp_path, text, files=files)
    assert d[0] == where(text, "「几合」") and "是不是「试」之「几何」之「向量」？" in d[3]


def test_zhong_on_a_fixed_array_points_to_qu_yuan_su(tmp_path):
    text = PRELUDE + ("「首」乃化（「定长数组」于「浮三二」于「四」）为「浮三二」者也。\n"
                      "「首」者得「a」而「a」中「零」也。\n")
    (d,) = diagnostics(tmp_path, text)
    assert d[:3] == (where(text, "「零」"), "array-projection", "首") and "「取元素」" in d[3]


def test_a_type_wgsl_lacks_named_through_an_alias_shows_what_it_is(tmp_path):
    text = PRELUDE + "「短整」即「定长整数」于「一六」也。\n「恒」乃化「短整」为「短整」者也。\n「恒」者得「x」而「x」也。\n"
    write(tmp_path, {"测。着色器。豫": text})
    ws = Workspace(tmp_path)
    result = translate(ws, tmp_path / "测。着色器。豫", "wgsl")
    assert result.text is None
    messages = [d.message for d in result.diagnostics]
    assert messages and all("「短整」（即「定长整数」于「一六」）" in m for m in messages)


# ---------------------------------------------------------------- bugs


def test_an_ascribed_argument_fixes_the_implicit_parameter(tmp_path):
    text = PRELUDE + ("「平方」乃化「无三二」为「浮三二」者也。\n"
                      "「平方」者得「序」而 令「x」为「新浮三二」于（「序」也「无三二」）而「x」乘「x」也。\n")
    assert diagnostics(tmp_path, text) == []
    wrong = text.replace("（「序」也「无三二」）", "（「序」也「整三二」）")
    (d,) = diagnostics(tmp_path, wrong)
    assert d[0] == where(wrong, "「序」也") and "「整三二」" in d[3]


def test_check_refuses_a_top_level_function_on_literal_types(tmp_path):
    """No target has a run-time 「整数」: 检查 refuses what translation cannot express."""
    text = PRELUDE + "「加一」乃化「整数」为「整数」者也。\n「加一」者得「n」而「n」加「一」也。\n"
    found = diagnostics(tmp_path, text)
    assert [d[:3] for d in found] == [(where(text, "「加一」者"), "literal-type-signature", "加一")]
    assert "参数「n」与返回值" in found[0][3]
    only_param = text.replace("为「整数」者", "为「整三二」者").replace("「n」加「一」", "「新整三二」于「二」")
    assert [d[:3] for d in diagnostics(tmp_path, only_param)] == [
        (where(only_param, "「n」而"), "literal-type-signature", "加一")]
    fixed = text.replace("「整数」", "「整三二」").replace("「一」也", "（「新整三二」于「一」）也")
    assert diagnostics(tmp_path, fixed) == []
