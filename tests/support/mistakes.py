"""Typical user mistakes as data, shared by the suites that judge the messages
(test_messages.py: one clear message per mistake; test_recovery.py: the items
after a broken one still check; test_diagnostic_codes.py: every message has a
code).  Each case states the CORRECT expectation; where the checker falls short
today the case is a strict xfail whose reason says what is missing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from support.frontend import PRELUDE

BUFFER = ("「数据」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
          "「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n")
READ_ONLY = ("「入」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
             "「入」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「只读」也】）也。\n")
FN = "「g」乃化「无三二」为「无三二」者也。\n"
KERNEL = "「k」乃化「全局调用号」为「有」者也。\n"
COMPUTE_ENTRY = ("「e」乃「计算入口」也。\n"
                 "「e」者「计算入口项」于「k」于（「组值」【「工作组大小」者「四」也】）也。\n")


@dataclass(frozen=True)
class Expect:
    """One expected message: position, definition (None: none applies) and
    fragments that must all occur ('甲|乙' accepts either)."""
    at: str
    definition: str | None
    fragments: tuple[str, ...]


def case(name, text, *expected, prelude=True, short_of=None):
    marks = [pytest.mark.xfail(strict=True, reason=short_of)] if short_of else []
    return pytest.param(text, expected, prelude, id=name, marks=marks)


CASES = [
    # ---- syntax
    case("forgot_ye", FN + "「g」者得「i」而「i」。\n",
         Expect("2:13", "g", ("「也」",))),
    case("forgot_full_stop", FN + "「g」者得「i」而「i」也\n「h」乃化「无三二」为「无三二」者也。\n「h」者得「i」而「i」也。\n",
         Expect("2:14", "g", ("缺少「。」",))),
    case("ascii_period_ends_item", FN + "「g」者得「i」而「i」也.\n",
         Expect("2:14", "g", ("「.」", "「。」"))),
    case("unclosed_name", FN + "「g」者得「i而「i」也。\n",
         Expect("2:6", "g", ("名字没有结束", "对应的「」」"))),
    case("sequence_in_if_branch_unparenthesised",
         "「g」乃化「无三二」为「无三二」者也。\n「g」者得「i」而若「i」小于「i」则「i」；「i」否则「i」也。\n",
         Expect("2:27", "g", ("「否则」", "括号|（"))),
    case("typed_literal_argument_without_parentheses",
         "「g」乃化「无三二」为「无三二」者也。\n「g」者得「i」而「最大」于「i」于「新无三二」于「一」也。\n",
         Expect("2:19", "g", ("「新无三二」", "括号|（「新无三二」于「一」）"))),
    case("invalid_utf8", b"\xff\xfe", Expect("1:1", None, ("UTF-8",)), prelude=False),
    # ---- literals and numeric types
    case("integer_literal_where_float_needed", "「c」乃「浮三二」也。\n「c」者「一」也。\n",
         Expect("2:5", "c", ("应为「浮三二」", "实为「整数」", "「新浮三二」"))),
    case("fix_suggestion_uses_the_written_literal",
         "「g」乃化「浮三二」为「浮三二」者也。\n「g」者得「x」而「x」加「一」也。\n",
         Expect("2:14", "g", ("应为「浮三二」", "「新浮三二」于「一」"))),
    case("index_without_typed_literal", BUFFER + FN + "「g」者得「i」而「读数组」于「数据」于「零」也。\n",
         Expect("4:21", "g", ("应为「无三二」", "实为「整数」", "「新无三二」"))),
    case("float32_plus_float16",
         "「g」乃化「浮三二」又化「浮十六」为「浮三二」者也。\n「g」者得「a」又得「b」而「a」加「b」也。\n",
         Expect("2:19", "g", ("应为「浮三二」", "实为「浮十六」", "「转换」"))),
    case("constant_overflows_u32", "「c」乃「无三二」也。\n「c」者「新无三二」于「四二九四九六七二九六」也。\n",
         Expect("2:12", "c", ("超出", "4294967295"))),
    # ---- projections
    case("field_name_on_vector", "「g」乃化「三维浮」为「浮三二」者也。\n「g」者得「v」而「v」中「长」也。\n",
         Expect("2:14", "g", ("「长」", "「零」", "「xy」"))),
    # a header before a runtime-sized array: `let h = 缓冲;` would be no valid WGSL (issue 25)
    case("whole_read_of_a_buffer_with_a_runtime_array",
         "「带头」即「组类」【「个数」乃「无三二」也，「值」乃「数组」于「浮三二」也】也。\n"
         "「头」乃「存储缓冲」于「带头」也。\n"
         "「头」者「绑定」于（「组值」【「组」者「零」也，「号」者「三」也，「访问」者「读写」也】）也。\n"
         "「g」乃化「无三二」为「无三二」者也。\n「g」者得「i」而（「读存储」于「头」）中「个数」也。\n",
         Expect("5:11", "g", ("「读存储」", "运行期数组", "中「字段」"))),
    case("swizzle_beyond_the_vector", "「g」乃化「三维浮」为「二维浮」者也。\n「g」者得「v」而「v」中「xw」也。\n",
         Expect("2:14", "g", ("「w」", "3 个分量", "x y z"))),
    # ---- application
    case("apply_a_non_name", FN + "「g」者得「i」而（「i」加「i」）于「i」也。\n",
         Expect("2:11", "g", ("具名",))),
    case("read_array_arguments_swapped", BUFFER + FN + "「g」者得「i」而「读数组」于「i」于「数据」也。\n",
         Expect("4:16", "g", ("「存储缓冲」", "实为「无三二」"))),
    case("read_array_on_workgroup_variable",
         "「块」乃「工作组变量」于（「定长数组」于「无三二」于「四」）也。\n「块」者「工作组共享」于「元」也。\n"
         + FN + "「g」者得「i」而「读数组」于「块」于「i」也。\n",
         Expect("4:16", "g", ("「工作组变量」", "「读共享数组」"))),
    case("write_to_uniform_buffer",
         "「参」乃「均匀缓冲」于「无三二」也。\n「参」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。\n"
         "「g」乃化「无三二」为「有」者也。\n「g」者得「i」而「写存储」于「参」于「i」也。\n",
         Expect("4:16", "g", ("「均匀缓冲」", "只读"))),
    case("write_to_read_only_buffer", READ_ONLY + KERNEL
         + "「k」者得「号」而「写数组」于「入」于（「号」中「零」）于（「新无三二」于「一」）也。\n" + COMPUTE_ENTRY,
         Expect("4:10", "k", ("只读", "「读写」"))),
    case("convert_without_target_type", FN + "「g」者得「i」而令「y」为「转换」于「i」而「i」也。\n",
         Expect("2:15", "g", ("隐式参数无法完全确定", "以"))),
    # ---- names
    case("builtins_visible_without_import", FN + "「g」者得「i」而「i」加（「新无三二」于「一」）也。\n", prelude=False),
    case("misspelled_builtin", BUFFER + FN + "「g」者得「i」而「读树组」于「数据」于「i」也。\n",
         Expect("4:10", "g", ("未知的名字「读树组」", "「读数组」"))),
    case("misspelled_name_after_zhi", FN + "「g」者得「i」而「点染本」之「最达」于「i」于「i」也。\n",
         Expect("2:16", "g", ("「最达」", "「最大」"))),
    case("type_used_as_value", FN + "「g」者得「i」而「无三二」也。\n",
         Expect("2:10", "g", ("「无三二」是类型",))),
    case("user_definition_shadows_builtin",
         "「最大」乃化「无三二」为「无三二」者也。\n「最大」者得「i」而「i」也。\n"
         + FN + "「g」者得「i」而「最大」于「i」也。\n"),
    case("unknown_import", "寻观「点染」之「点染木」之书。\n",
         Expect("1:8", None, ("「点染木」", "「点染本」")), prelude=False),
    # ---- records
    case("wrong_field_name_in_record_value",
         "「点」即「组类」【「甲」乃「浮三二」也，「乙」乃「浮三二」也】也。\n"
         "「g」乃化「浮三二」为「点」者也。\n「g」者得「x」而「组值」【「甲」者「x」也，「丙」者「x」也】也。\n",
         Expect("3:24", "g", ("「丙」", "「乙」"))),
    case("duplicate_field", "「点」即「组类」【「甲」乃「浮三二」也，「甲」乃「浮三二」也】也。\n",
         Expect("1:21", "点", ("字段「甲」重复",))),
    # ---- conditions
    case("if_without_else_used_as_value", FN + "「g」者得「i」而若「i」小于「i」则「i」也。\n",
         Expect("2:10", "g", ("「否则」", "「无三二」"))),
    case("vector_comparison_as_condition", "「g」乃化「二维浮」为「二维浮」者也。\n「g」者得「v」而若「v」小于「v」则「v」否则「v」也。\n",
         Expect("2:11", "g", ("应为「爻」", "实为「二维爻」"))),
    # ---- top level, resources, entries
    case("let_in_constant", "「c」乃「无三二」也。\n「c」者令「a」为「新无三二」于「一」而「a」加「a」也。\n",
         Expect("2:5", "c", ("常量", "令"))),
    case("resource_inside_function",
         FN + "「g」者得「i」而令「b」为「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）而「i」也。\n",
         Expect("2:15", "g", ("「绑定」", "顶层"))),
    case("top_level_recursion", FN + "「g」者得「i」而「g」于「i」也。\n",
         Expect("2:10", "g", ("不能调用自身", "局部尾递归"))),
    case("duplicate_binding_slot", BUFFER + "「数二」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
         "「数二」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n" + KERNEL
         + "「k」者得「号」而「写数组」于「数二」于（「号」中「零」）于（「读数组」于「数据」于（「号」中「零」））也。\n"
         + COMPUTE_ENTRY,
         Expect("8:1", "e", ("「数据」与「数二」都绑定在组 0 号 0",))),
    case("workgroup_size_not_a_literal", BUFFER + "「n」乃「整数」也。\n「n」者「四」也。\n" + KERNEL
         + "「k」者得「号」而「元」也。\n「e」乃「计算入口」也。\n"
         "「e」者「计算入口项」于「k」于（「组值」【「工作组大小」者「n」加「一」也】）也。\n",   # a constant's name alone is one
         Expect("8:31", "e", ("工作组大小", "字面量"))),
    case("vertex_entry_returns_plain_vec4",
         "「v」乃化「顶点序号」为「四维浮」者也。\n"
         "「v」者得「i」而「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「零」与（「新浮三二」于「一」）也。\n"
         "「e」乃「顶点入口」也。\n「e」者「顶点入口项」于「v」也。\n",
         Expect("4:13", "e", ("「裁剪位置」", "「四维浮」"))),
    case("entry_names_unknown_function", COMPUTE_ENTRY,
         Expect("2:13", "e", ("「k」",))),
]


# ---------------------------------------------------------------- broken items for error recovery

TAIL = "「h」乃化「无三二」为「无三二」者也。\n「h」者得「i」而「i」加「未」也。\n"

RECOVERY = [
    # name, broken text (after FN), position of the first message, fragments of it
    ("missing_ye", "「g」者得「i」而「i」。", "2:13", "「也」"),
    ("missing_full_stop", "「g」者得「i」而「i」也", "2:14", "缺少「。」"),
    ("missing_ye_and_full_stop", "「g」者得「i」而「i」", "2:13", "「也」"),
    ("unclosed_paren", "「g」者得「i」而（「i」加「i」也。", "2:19", "「）」"),
    ("unclosed_paren_nested", "「g」者得「i」而（（「i」加「i」）也。", "2:21", "「）」"),
    ("extra_close_paren", "「g」者得「i」而「i」加「i」）也。", "2:17", "「）」", "「也」"),
    ("stray_close_paren_after_item", "「g」者得「i」而「i」加「i」也。）", "2:19", "「）」"),
    ("stray_open_bracket", "「g」者得「i」而「i」加【「i」也。", "2:14", "「【」"),
    ("stray_close_bracket", "「g」者得「i」而「i」加「i」也】。", "2:18", "「】」", "「。」"),
    ("record_missing_comma",
     "「数据」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
     "「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」「访问」者「读写」也】）也。",
     "3:33", "名字「访问」", "「也」"),
    ("record_unclosed", "「T」即「组类」【「a」乃「无三二」也，「b」乃「无三二」也也。", "2:31", "「】」"),
    ("unclosed_name", "「g」者得「i」而「i加「i」也。", "2:10", "名字没有结束"),
    ("name_without_opening_bracket", "「g」者得「i」而i」也。", "2:10", "无法识别的文字「i」」", "「」"),
    ("stray_closing_name_bracket", "「g」者得「i」而「i」」也。", "2:13", "无法识别的文字"),
    ("doubled_opening_name_bracket", "「g」者得「i」而「「i」也。", "2:10", "名字没有结束"),
    ("empty_name", "「g」者得「」而「i」也。", "2:6", "名字不能为空"),
    ("ascii_paren", "「g」者得「i」而「i」加(「i」)也。", "2:14", "「(」", "「（」"),
    ("ascii_semicolon", "「g」者得「i」而「i」;「i」也。", "2:13", "「;」", "「；」"),
    ("ascii_colon", "「g」者得「i」而「i」:「i」也。", "2:13", "「:」"),
    ("ascii_comma_in_record",
     "「T」即「组类」【「a」乃「无三二」也,「b」乃「无三二」也】也。", "2:20", "「,」", "「，」"),
    ("else_without_if", "「g」者得「i」而「i」否则「i」也。", "2:13", "「否则」", "「也」"),
    ("another_lambda_without_lambda", "「g」者又得「i」而「i」也。", "2:5", "「又得」"),
    ("er_missing_after_lambda", "「g」者得「i」又得「j」「i」也。", "2:14", "名字「i」", "「而」"),
    ("er_missing_after_let", "「g」者得「i」而令「j」为「i」「j」也。", "2:18", "名字「j」", "「而」"),
    ("wei_missing_in_let", "「g」者得「i」而令「j」「i」而「j」也。", "2:14", "名字「i」", "「为」"),
    ("then_missing", "「g」者得「i」而若「i」小于「i」「i」否则「i」也。", "2:19", "名字「i」", "「则」"),
    ("sequence_in_branch", "「g」者得「i」而若「i」小于「i」则「i」；「i」否则「i」也。", "2:27",
     "「否则」", "括号|（"),
    ("sig_and_def_swapped",
     "「k」者化「无三二」为「无三二」者也。\n「k」乃得「i」而「i」也。", "2:5", "「化」"),
    ("item_cut_while_typing", "「g」者得「i」而若「i」小于", "2:16", "此处应为"),
    ("item_cut_after_er", "「g」者得「i」而", "2:10", ""),
    ("signature_cut", "「k」乃化「无三二」为", "2:12", ""),
    ("keyword_yi_in_brackets_midway", "「g」者得「i」而「i」「加」「i」也。", "2:13", "「加」是关键字"),
    ("bare_expression", "「g」者得「i」而「i」也。\n「i」加「i」。", "3:1", "裸表达式"),
]

BROKEN_FILES = [
    PRELUDE + FN + "「g」者得「i」而（「i」加「i」也。\n" + TAIL + "「：注释「：嵌套：」：」\n「c」者「一」也\n「d」者「c」也。\n",
    PRELUDE + "「T」即「组类」【「a」乃「无三二」也，「b」乃「无三二」也也。\n" + FN + "「g」者得「i」而「i」也.\n" + TAIL,
    PRELUDE + FN + "「g」者得「i」而令「j」为「i」「j」也。\n「k」乃化「无三二」为「无三二」者也。\n"
    "「k」者得「i」而若「i」小于「i」则「i」；「i」否则「i」也。\n" + TAIL + "「e」者『字』也。\n「尾」者得「x」而",
]
