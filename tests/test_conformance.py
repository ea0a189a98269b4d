"""Language conformance (LANGUAGE.md §1–§5, §7 and the seed's 着一–着八):
programs written from the pinned syntax, checked clean, translated by all three
back ends (naga validates the WGSL, clang the MSL, ptxas the PTX) and, for the
compute programs, run on lavapipe against NumPy references written from each
program's meaning.  Every rejection listed in 着四/着五/着八 is checked for its
line:column and the top-level definition named in the message.

Cases that state correct behaviour the tool does not have yet are strict
xfails whose reason starts with "BUG:"."""

from __future__ import annotations

import re

import subprocess
from pathlib import Path

import numpy as np
import pytest

from support.frontend import LANGUAGE_SUM, PRELUDE, SEED_DOUBLE, check_text, write
from support.ptx_runner import PTXAS
from support.tint import tint_validate
from support.wgpu_device import device_for, run_entry, validate
from zhuose.compiler.backends import translate
from zhuose.compiler.runtime.wgpu import WebGPUError, create_module
from zhuose.compiler.workspace import Workspace
from support.metal_shim.runner import check as clang_check, require_clang  # noqa: E402

M32 = 0xFFFFFFFF
FN = "「g」乃化「无三二」为「无三二」者也。\n"
NAME = "测。着色器。豫"


def clean(tmp_path: Path, text: str, **kw) -> Workspace:
    kw.setdefault("prelude", not text.startswith(PRELUDE))
    ws, lines = check_text(tmp_path, text, **kw)
    assert lines == []
    return ws


def wgsl_of(tmp_path: Path, text: str) -> str:
    ws = clean(tmp_path, text)
    result = translate(ws, tmp_path / NAME, "wgsl")
    assert result.diagnostics == [] and result.text is not None, [d.message for d in result.diagnostics]
    return result.text


def all_targets(tmp_path: Path, text: str, files: dict | None = None) -> str:
    """Checks clean; WGSL passes naga, MSL clang, PTX ptxas.  Returns the WGSL."""
    if files:
        write(tmp_path, files)
    ws = clean(tmp_path, text)
    path = tmp_path / NAME
    texts = {}
    for target in ("wgsl", "msl", "ptx"):
        result = translate(ws, path, target)
        assert result.diagnostics == [] and result.text is not None, (target, [d.message for d in result.diagnostics])
        texts[target] = result.text
    validate(texts["wgsl"])
    require_clang(pytest)
    assert clang_check({"测": texts["msl"]}) == {}
    assert texts["ptx"].isascii()
    if PTXAS is not None:
        (tmp_path / "k.ptx").write_text(texts["ptx"], encoding="ascii")
        done = subprocess.run([PTXAS, "-arch=sm_80", "--warning-as-error", str(tmp_path / "k.ptx"), "-o",
                               str(tmp_path / "k.cubin")], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    return texts["wgsl"]


def naga_accepts(wgsl: str) -> bool:
    try:
        create_module(device_for(wgsl), wgsl)
    except WebGPUError:
        return False
    return True


def bug(reason: str):
    return pytest.mark.xfail(strict=True, reason=f"BUG: {reason}")


# ---------------------------------------------------------------- §2 numeric literals

CONST = "「c」乃「{t}」也。\n「c」者「{ctor}」于{lit}也。\n"


@pytest.mark.parametrize("t, ctor, lit, wgsl", [
    ("无三二", "新无三二", "「四二九四九六七二九五」", "4294967295u"),          # u32 max
    ("无三二", "新无三二", "「0xFFFFFFFF」", "4294967295u"),
    ("无三二", "新无三二", "「0xabcdef01」", "2882400001u"),                  # lower-case hex digits
    ("整三二", "新整三二", "「0x7FFFFFFF」", "2147483647"),
    ("整三二", "新整三二", "（负「二一四七四八三六四八」）", "-2147483648"),      # i32 min
    ("无三二", "新无三二", "「〇零0」", "0u"),                                # 〇, 零 and 0 are all zero
    ("无三二", "新无三二", "「1二3」", "123u"),                               # mixed digits, positional
    ("无三二", "新无三二", "「四零」", "40u"),
    ("无三二", "新无三二", "（（「三」））", "3u"),                             # parentheses only group
    ("浮三二", "新浮三二", "「三点一四」", "3.14f"),
    ("浮三二", "新浮三二", "「三.一四」", "3.14f"),
    ("浮三二", "新浮三二", "「3点14」", "3.14f"),
    ("浮三二", "新浮三二", "「四零」", "40.0f"),                              # integral float keeps its point
    ("浮十六", "新浮十六", "「六五五零四」", "65504.0"),                       # f16 max
])
def test_literal_at_type_limits(tmp_path, t, ctor, lit, wgsl):
    text = wgsl_of(tmp_path, CONST.format(t=t, ctor=ctor, lit=lit))
    const = next(line for line in text.splitlines() if line.startswith("const c"))
    assert wgsl in const
    validate(text)


@pytest.mark.parametrize("t, ctor, lit, at, fragment", [
    ("无三二", "新无三二", "「四二九四九六七二九六」", "2:12", "4294967296"),
    ("无三二", "新无三二", "「0x100000000」", "2:12", "4294967296"),
    ("整三二", "新整三二", "「二一四七四八三六四八」", "2:12", "2147483648"),
    ("整三二", "新整三二", "「0x80000000」", "2:12", "2147483648"),
    ("整三二", "新整三二", "（负「二一四七四八三六四九」）", "2:13", "-2147483649"),
    ("无三二", "新无三二", "（负「一」）", "2:13", "-1"),
    ("浮十六", "新浮十六", "「六五五二零」", "2:12", "65520"),
    ("无三二", "新无三二", "「一点五」", "2:12", "整数"),
])
def test_literal_out_of_range(tmp_path, t, ctor, lit, at, fragment):
    _, lines = check_text(tmp_path, CONST.format(t=t, ctor=ctor, lit=lit))
    assert len(lines) == 1 and lines[0].startswith(f"{at}: 在「c」中：") and fragment in lines[0], lines


@pytest.mark.parametrize("lit", ["「一点」", "「点五」"])
def test_fraction_needs_digits_on_both_sides(tmp_path, lit):
    _, lines = check_text(tmp_path, CONST.format(t="浮三二", ctor="新浮三二", lit=lit))
    assert len(lines) == 1 and lines[0].startswith("2:12: 在「c」中："), lines


@pytest.mark.parametrize("expr, fragment", [
    ("「新无三二」于「四二九四九六七二九五」加「新无三二」于「一」", "4294967296"),
    ("「新无三二」于「四」除「新无三二」于「零」", "除以零"),
    ("「新无三二」于「一」左移「新无三二」于「三二」", "移位量"),
])
def test_constant_overflow_is_a_translation_error(tmp_path, expr, fragment):
    ws = clean(tmp_path, f"「c」乃「无三二」也。\n「c」者{expr}也。\n")
    result = translate(ws, tmp_path / NAME, "wgsl")
    assert result.text is None and len(result.diagnostics) == 1 and fragment in result.diagnostics[0].message


NAN_BITS = "「c」乃「浮三二」也。\n「c」者「位转换」以「浮三二」于（「新无三二」于「{bits}」）也。\n"


@pytest.mark.parametrize("text", [
    NAN_BITS.format(bits="0x7FC00000"),
    NAN_BITS.format(bits="0x7F800000"),
    FN + "「g」者得「i」而「位转换」以「无三二」于（「位转换」以「浮三二」于（「新无三二」于「0x7FC00000」））也。\n",
], ids=["nan_const", "inf_const", "nan_in_function"])
def test_nan_or_infinite_constant_bitcast_is_an_error(tmp_path, text):
    ws = clean(tmp_path, text)
    result = translate(ws, tmp_path / NAME, "wgsl")
    assert result.text is None and result.diagnostics


def _f16_bits(bits: int) -> float:
    return float(np.array([bits], np.uint16).view(np.float16)[0])


@pytest.mark.parametrize("t, expr, value", [
    ("浮三二", "「位转换」以「浮三二」于（「新无三二」于「0x3F800000」）", 1.0),
    ("无三二", "「半精度打包」于（「新浮三二」于「一」与（「新浮三二」于「二」））",
     int(np.array([1, 2], np.float16).view(np.uint32)[0])),
    ("二维浮", "「半精度解包」于（「新无三二」于「0x40003C01」）", (_f16_bits(0x3C01), 2.0)),
    ("浮三二", "「混合」于（「新浮三二」于「一」）于（「新浮三二」于「三」）于（「新浮三二」于「零点五」）", 2.0),
], ids=["bitcast", "pack", "unpack", "mix"])
def test_constant_builtins_pass_naga(tmp_path, t, expr, value):
    """naga does not evaluate these in a `const`; the translator writes the value
    they evaluate to (checked against NumPy's bit patterns)."""
    text = wgsl_of(tmp_path, f"「c」乃「{t}」也。\n「c」者{expr}也。\n")
    assert naga_accepts(text)
    tint_validate(text)
    written = re.search(r"const c: [^=]+= (.*);", text).group(1)
    numbers = [float(x.rstrip("fu")) for x in re.findall(r"-?[0-9][0-9.e+-]*[fu]?", written.split("(", 1)[-1])]
    expected = value if isinstance(value, tuple) else (value,)
    assert np.array_equal(np.float32(numbers), np.float32(expected)), written   # the same f32 (u32: exact)


@pytest.mark.parametrize("length", ["零", "九九九九九九九九九九九九"])
def test_fixed_array_length_outside_u32_is_rejected(tmp_path, length):
    """No target has an array of length 0 or over 2³²−1 (WGSL: a positive u32):
    检查 says so at the length (docs/语言.md)."""
    _, lines = check_text(tmp_path, f"「块」乃「工作组变量」于（「定长数组」于「浮三二」于「{length}」）也。\n"
                                    "「块」者「工作组共享」于「元」也。\n")
    assert len(lines) == 1 and lines[0].startswith("1:27: 在「块」中：定长数组的长度须在 1 到 4294967295 之间"), lines


def test_parenthesised_width_and_length(tmp_path):
    text = wgsl_of(tmp_path, "「c」乃「定长小数」于（「三二」）也。\n「c」者「新浮三二」于「一」也。\n"
                             "「块」乃「工作组变量」于（「定长数组」于「浮三二」于（「八」））也。\n「块」者「工作组共享」于「元」也。\n")
    assert "const c: f32 = 1.0f;" in text and "array<f32, 8>" in text


def test_width_outside_8_16_32_64(tmp_path):
    _, lines = check_text(tmp_path, "「c」乃「定长小数」于（「三」）也。\n「c」者「新浮三二」于「一」也。\n")
    assert len(lines) == 1 and lines[0].startswith("1:13: 在「c」中：") and "3" in lines[0], lines


def test_fixed_array_length_in_any_literal_spelling(tmp_path):
    text = wgsl_of(tmp_path, "「块」乃「工作组变量」于（「定长数组」于「浮三二」于「0x10」）也。\n「块」者「工作组共享」于「元」也。\n"
                             "「乙」乃「工作组变量」于（「定长数组」于「浮三二」于「1六」）也。\n「乙」者「工作组共享」于「元」也。\n"
                             "「c」乃「定长小数」于「32」也。\n「c」者「新浮三二」于「一」也。\n")
    assert "array<f32, 16>;" in text and text.count("array<f32, 16>") == 2 and "const c: f32" in text
    validate(text)


# ---------------------------------------------------------------- §2 comments, whitespace, keywords

LEXICAL = {
    "nested_comment_across_lines": "「：外「：内：」\n　仍是注释：」" + FN + "「g」者得「i」而「i」也。\n",
    "comment_inside_expression": FN + "「g」者得「i」而「i」「：中间\n：」加「：又「：套：」：」「i」也。\n",
    "comments_between_name_and_ye": "「g」乃「：甲：」化「无三二」「：乙：」为「无三二」者「：丙：」也。\n"
                                    "「g」者「：丁：」得「i」而「i」「：戊：」也「：己：」。\n",
    "ideographic_space_tab_crlf": FN + "「g」者得「i」而\u3000\u3000「i」\t加\r\n「i」也。\n",
    "fouze_before_fou": FN + "「g」者得「i」而若「i」小于「i」则「i」否则「i」也。\n",
    "youhua_before_you": "「g」乃化「无三二」又化「无三二」为「无三二」者也。\n「g」者得「i」又得「j」而「i」加「j」也。\n",
    "hua_er_hua_is_curried": "「g」乃化「无三二」而化「无三二」而「无三二」也。\n「g」者得「i」又得「j」而「i」加「j」也。\n",
    "comment_only_file": "「：只是注释：」\n",
}


@pytest.mark.parametrize("text", LEXICAL.values(), ids=LEXICAL.keys())
def test_lexical_corners(tmp_path, text):
    all_targets(tmp_path, text)


def test_comment_is_not_a_name(tmp_path):
    assert "const c = 1;" in wgsl_of(tmp_path, "「c」者「：注释：」「一」也。\n")


def test_unclosed_comment_reported_at_its_start(tmp_path):
    _, lines = check_text(tmp_path, "「：没有结束\n「c」者「一」也。\n", prelude=False)
    assert len(lines) == 1 and lines[0].startswith("1:1: 注释没有结束"), lines


def test_numeric_literal_cannot_be_bound(tmp_path):
    _, lines = check_text(tmp_path, FN + "「g」者得「i」而令「一」为「i」而「i」也。\n")
    assert len(lines) == 1 and lines[0].startswith("2:11: 在「g」中：") and "「一」" in lines[0], lines


# ---------------------------------------------------------------- §1/§3 imports

LIB = {"包.json": '{"名": "试", "依赖": ["点染"]}',
       "工具/数学。着色器。豫": PRELUDE + "「平方」乃化「无三二」为「无三二」者也。\n「平方」者得「x」而「x」乘「x」也。\n"
                                        "「常」乃「无三二」也。\n「常」者「新无三二」于「七」也。\n"}
USE = "「g」乃化「无三二」为「无三二」者也。\n「g」者得「i」而{body}也。\n"


@pytest.mark.parametrize("imports, body", [
    ("寻观「试」之「工具」之「数学」之书。\n", "「平方」于「i」加「数学」之「平方」于「常」"),
    ("寻「试」之「工具」之「数学」之书。\n", "「数学」之「平方」于「i」加「数学」之「常」"),
    ("寻「试」之「工具」之「数学」之书。\n观「试」之「工具」之「数学」之书。\n", "「平方」于「i」加「常」"),
    ("", "「点染本」之「最大」于「i」于「i」"),
], ids=["xunguan", "xun_qualified", "xun_then_guan", "qualified_builtin"])
def test_import_forms(tmp_path, imports, body):
    text = all_targets(tmp_path, imports + USE.format(body=body), files=LIB)
    assert "fn g(i: u32) -> u32" in text


@pytest.mark.parametrize("imports, at", [
    ("寻「试」之「工具」之「数学」之书。\n", "3:10"),       # 寻 alone does not open
    ("观「试」之「工具」之「数学」之书。\n", "1:1"),         # 观 of a module not imported
])
def test_import_only_does_not_open(tmp_path, imports, at):
    write(tmp_path, LIB)
    _, lines = check_text(tmp_path, imports + USE.format(body="「平方」于「i」"))
    assert lines and lines[0].startswith(f"{at}: "), lines


# ---------------------------------------------------------------- §4 types, records, aliases

TYPES = {
    "type_application_chain": "「块」乃「工作组变量」于（「定长数组」于「浮三二」于「八」）也。\n「块」者「工作组共享」于「元」也。\n"
                              "「c」乃「定长小数」于「三二」也。\n「c」者「新浮三二」于「一」也。\n",
    "tuple_type_is_vector": "「g」乃化「浮三二」与「浮三二」与「浮三二」为「三维浮」者也。\n「g」者得「v」而「v」也。\n",
    "tuple_type_flattened": "「g」乃化「浮三二」与（「浮三二」与「浮三二」）为「三维浮」者也。\n「g」者得「v」而「v」也。\n",
    "tuple_of_vectors_is_matrix": "「g」乃化「三维浮」与「三维浮」为「三维浮」者也。\n「g」者得「v」而「v」中「一」也。\n",
    "flatten_expression": "「g」乃化「浮三二」为「四维浮」者也。\n「g」者得「x」而「x」与（「x」与（「x」与「x」））也。\n",
    "transparent_alias": "「对」即「浮三二」与「浮三二」也。\n「g」乃化「对」为「二维浮」者也。\n「g」者得「v」而「v」也。\n",
    "alias_in_resource": "「浮数组」即「数组」于「浮三二」也。\n「缓」乃「存储缓冲」于「浮数组」也。\n"
                         "「缓」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n",
    "ascription": FN + "「g」者得「i」而令「y」为（「转换」以「浮三二」于「i」也「浮三二」）而「转换」以「无三二」于「y」也。\n",
    "convert_target_from_expected_type": "「g」乃化「无三二」为「浮三二」者也。\n「g」者得「i」而「转换」于「i」也。\n",
    "yi_parenthesised_type": "「g」乃化「无三二」为「二维浮」者也。\n"
                             "「g」者得「i」而「转换」以（「浮三二」与「浮三二」）于（「i」与「i」）也。\n",
    "two_yi": FN + "「g」者得「i」而「位转换」以「无三二」以「整三二」于（「转换」以「整三二」于「i」）也。\n",
    "curried_three": "「g」乃化「无三二」又化「无三二」又化「无三二」为「无三二」者也。\n"
                     "「g」者得「a」又得「b」又得「c」而「a」加「b」乘「c」也。\n",
    "unit_parameter_omitted": "「g」乃化「有」为「无三二」者也。\n「g」者得「u」而「新无三二」于「一」也。\n"
                              "「h」乃化「无三二」为「无三二」者也。\n「h」者得「i」而「g」于「元」也。\n",
}


@pytest.mark.parametrize("text", TYPES.values(), ids=TYPES.keys())
def test_types(tmp_path, text):
    all_targets(tmp_path, text)


def test_struct_field_order_and_nesting(tmp_path):
    text = all_targets(tmp_path,
                       "「点」即「组类」【「甲」乃「浮三二」也，「乙」乃「无三二」也】也。\n"
                       "「线」即「组类」【「始」乃「点」也，「终」乃「点」也，「长」乃「二维浮」也】也。\n"
                       "「g」乃化「浮三二」为「浮三二」者也。\n"
                       "「g」者得「x」而令「p」为（「组值」【「乙」者「新无三二」于「一」也，「甲」者「x」也】也「点」）而"
                       "令「l」为（「组值」【「长」者「x」与「x」也，「终」者「p」也，「始」者「p」也】也「线」）而"
                       "「l」中「终」中「甲」加「l」中「长」中「一」也。\n")
    assert "struct 点 {\n  甲: f32,\n  乙: u32,\n}" in text
    assert "struct 线 {\n  始: 点,\n  终: 点,\n  长: vec2<f32>,\n}" in text
    assert "点(x, 1u)" in text and "线(p, p, vec2<f32>(x, x))" in text


RECORD = ("「对」即「组类」【「乙」乃「无三二」也，「甲」乃「无三二」也】也。\n"
          "「换」乃化「对」为「对」者也。\n「换」者得「p」而「p」也。\n" + FN)


def test_record_fields_in_any_order_as_argument(tmp_path):
    all_targets(tmp_path, RECORD + "「g」者得「n」而（「换」于（「组值」【「甲」者「n」也，「乙」者「n」也】））中「甲」也。\n")


def test_record_fields_in_any_order_through_let(tmp_path):
    """The numbers (stored in the struct's field order) are checked in tests/programs/记录次序."""
    all_targets(tmp_path, RECORD + "「g」者得「n」而令「p」为「组值」【「甲」者「n」也，「乙」者「n」也】而（「换」于「p」）中「甲」也。\n")


NESTED_LAMBDA = {
    "top_level": "「g」乃化「无三二」又化「无三二」为「无三二」者也。\n「g」者得「i」而得「j」而「i」减「j」也。\n",
    "local": FN + "「g」者得「i」而令「f」为得「x」而得「y」而「x」减「y」而「f」于「i」于「i」也。\n",
}


@pytest.mark.parametrize("text", NESTED_LAMBDA.values(), ids=NESTED_LAMBDA.keys())
def test_nested_de_equals_you_de(tmp_path, text):
    all_targets(tmp_path, text)


# ---------------------------------------------------------------- §5 precedence and scopes, run on lavapipe

# 入 = [a, b, c, d]; 出[k] is the k-th expression below (bools as 0/1).  Each is written so that a wrong
# precedence gives another number: 加 before 左移, 按位与 before 异或 before 按位或, 且 before 或, 非/负 bind
# tighter than binary operators but looser than application, comparisons tighter than bitwise operators,
# binders (若) extend right, 否则 belongs to the nearest 若, 令 shadows, sequences inside 若 branches.
PRECEDENCE = """寻观「点染」之「点染本」之书。

「入」乃「存储缓冲」于（「数组」于「无三二」）也。
「入」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「只读」也】）也。
「出」乃「存储缓冲」于（「数组」于「无三二」）也。
「出」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。

「爻值」乃化「爻」为「无三二」者也。
「爻值」者得「p」而若「p」则「新无三二」于「一」否则「新无三二」于「零」也。

「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「写」为得「k」又得「v」而「写数组」于「出」于（「新无三二」于「k」）于「v」而
　令「a」为「读数组」于「入」于（「新无三二」于「零」）而
　令「b」为「读数组」于「入」于（「新无三二」于「一」）而
　令「c」为「读数组」于「入」于（「新无三二」于「二」）而
　令「d」为「读数组」于「入」于（「新无三二」于「三」）而
　令「真」为「a」等于「a」而
　令「假」为「a」不等于「a」而
　令「x」为「转换」以「整三二」于「a」而
　令「y」为「转换」以「整三二」于「b」而
　「写」于「零」于（「a」加「b」左移「c」）；
　「写」于「一」于（「a」左移「b」加「c」）；
　「写」于「二」于（「a」按位与「b」异或「c」）；
　「写」于「三」于（「a」异或「b」按位与「c」）；
　「写」于「四」于（「a」按位或「b」异或「c」）；
　「写」于「五」于（「a」异或「b」按位或「c」）；
　「写」于「六」于（「a」按位与「b」按位或「c」异或「d」）；
　「写」于「七」于（「a」乘「b」加「c」乘「d」）；
　「写」于「八」于（「a」减「b」减「c」）；
　「写」于「九」于（「d」除「b」乘「c」）；
　「写」于「一零」于（「d」余「b」乘「c」）；
　「写」于「一一」于（「位转换」以「无三二」于（负「x」加「y」））；
　「写」于「一二」于（「爻值」于（非「假」且「假」））；
　「写」于「一三」于（「爻值」于（「真」或「假」且「假」））；
　「写」于「一四」于（「爻值」于（「a」加「b」小于「c」））；
　「写」于「一五」于（「爻值」于（「假」按位与「a」等于「a」））；
　「写」于「一六」于（「d」右移「a」左移「b」）；
　「写」于「一七」于（「最大」于「a」于「b」乘「c」）；
　「写」于「一八」于（「位转换」以「无三二」于（负「绝对值」于「x」加「y」））；
　「写」于「一九」于（若「假」则「a」否则「b」加「c」）；
　「写」于「二零」于（「a」加（若「真」则「b」否则「c」）乘「d」）；
　（若「假」则若「真」则「写」于「二一」于「a」否则「写」于「二一」于「b」）；
　（若「真」则若「假」则「写」于「二二」于「a」否则「写」于「二二」于「b」）；
　（若「真」则（「写」于「二三」于「c」；「写」于「二四」于「d」）否则「写」于「二三」于「a」）；
　「写」于「二五」于（令「a」为「a」加「b」而令「a」为「a」乘「a」而「a」）；
　「写」于「二六」于「a」；
　「写」于「二七」于（（「a」与「b」与「c」）中「二」减「a」异或「b」按位或「c」左移「a」）
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「一」也】）也。
"""


def test_precedence_on_lavapipe(tmp_path):
    write(tmp_path, {"优先级。着色器。豫": PRECEDENCE})
    ws = Workspace(tmp_path)
    a, b, c, d = 3, 5, 6, 1000003
    out = run_entry(ws, tmp_path / "优先级。着色器。豫", "主入口",
                    {"入": np.array([a, b, c, d], np.uint32), "出": np.zeros(32, np.uint32)}, 1)["出"]
    expected = [
        (a + b) << c, a << (b + c), (a & b) ^ c, a ^ (b & c), a | (b ^ c), (a ^ b) | c, (a & b) | (c ^ d),
        a * b + c * d, (a - b - c) & M32, (d // b) * c, (d % b) * c,
        (-a + b) & M32,                     # 11: (负 x) 加 y
        0,                                  # 12: (非 假) 且 假
        1,                                  # 13: 真 或 (假 且 假)
        int(a + b < c),                     # 14
        0,                                  # 15: 假 按位与 (a 等于 a)
        (d >> a) << b, max(a, b) * c,
        (-abs(a) + b) & M32,                # 18: (负 (绝对值 x)) 加 y
        b + c,                              # 19: 若 假 则 a 否则 (b 加 c)
        a + b * d,                          # 20
        0,                                  # 21: 若 假 则 (若 …)：nothing written
        b,                                  # 22: the inner 若 takes 否则
        c, d,                               # 23, 24: a parenthesised sequence in a branch
        (a + b) ** 2,                       # 25: 令 a 为 a 加 b 而 令 a 为 a 乘 a 而 a
        a,                                  # 26: the outer a is unchanged
        ((c - a) ^ b) | (c << a),           # 27: 中 before 减 before 左移 before 异或 before 按位或
    ]
    np.testing.assert_array_equal(out[:len(expected)], np.array(expected, np.uint32))


def test_precedence_program_all_targets(tmp_path):
    all_targets(tmp_path, PRECEDENCE)


@pytest.mark.parametrize("text, at", [
    (FN + "「g」者得「i」而若「i」小于「i」等于「i」则「i」否则「i」也。\n", "2:19"),   # comparisons do not chain
    (FN + "「g」者得「i」而令「a」为「i」；「i」而「a」也。\n", "2:18"),              # 令's bound expression is no sequence
], ids=["comparison_chain", "sequence_in_let_binding"])
def test_grammar_rejections(tmp_path, text, at):
    _, lines = check_text(tmp_path, text)
    assert len(lines) == 1 and lines[0].startswith(f"{at}: 在「g」中：语法错误"), lines


# 入 = n per thread (workgroup size 4); 出[i] is eight numbers: 0 Σ_{k=1..n} k² (local tail recursion using the
# outer 「壹」 and 「n」); 1 the product of the odd k ≤ n mod 2³² (a 格 written from a 若 without 否则 inside a
# loop); 2 3n+1 (a local parameter 「n」 shadows the outer one); 3 n−1 (a sequence discards non-「有」 values);
# 4 i·1000+n (record fields in declaration order, ascription reorders a record, nested records); 5 n² (a local
# loop nested in a local function); 6 (2n)² if n < 5 else n (令 inside a 若 branch); 7 the bit length of n
# (a while loop counting in a 格).
LOCALS = """寻观「点染」之「点染本」之书。

「入」乃「存储缓冲」于（「数组」于「无三二」）也。
「入」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「只读」也】）也。
「出」乃「存储缓冲」于（「数组」于「无三二」）也。
「出」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。

「对」即「组类」【「乙」乃「无三二」也，「甲」乃「无三二」也】也。
「双对」即「组类」【「左」乃「对」也，「右」乃「对」也】也。

「换」乃化「对」为「对」者也。
「换」者得「p」而「组值」【「甲」者「p」中「乙」也，「乙」者「p」中「甲」也】也。

「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「i」为「号」中「零」而
　令「n」为「读数组」于「入」于「i」而
　令「壹」为「新无三二」于「一」而
　令「基」为「i」乘（「新无三二」于「八」）而
　令「写」为得「k」又得「v」而「写数组」于「出」于（「基」加「新无三二」于「k」）于「v」而
　「：0：从 1 加到 n 的平方和（局部尾递归，用到外层的「壹」与「n」）：」
　令「环」为得「序」又得「和」而
　　若「序」大于「n」则「和」否则「环」于（「序」加「壹」）于（「和」加「序」乘「序」）
　而「写」于「零」于（「环」于「壹」于（「新无三二」于「零」））；
　「：1：格：累乘 (k|1) 到 n，用 若…则 无否则 跳过偶数步：」
　令「积」为「新格」于「壹」而
　令「走」为得「k」而
　　若「k」不大于「n」则（（若（「k」按位与「壹」）等于「壹」则「写格」于「积」于（「读格」于「积」乘「k」））；「走」于（「k」加「壹」））否则「元」
　而「走」于「壹」；
　「写」于「一」于（「读格」于「积」）；
　「：2：参数遮蔽外层名：局部函数的参数「n」不是外层的「n」：」
　令「加一」为得「n」而「n」加「壹」而
　「写」于「二」于（「加一」于（「n」乘（「新无三二」于「三」）））；
　「：3：丢弃非「有」的值的顺序：」
　「写」于「三」于（「n」加「壹」；「n」乘「n」；「n」减「壹」）；
　「：4：记录字段次序与嵌套：」
　令「p」为「组值」【「乙」者「i」也，「甲」者「n」也】而
　令「q」为（「组值」【「右」者「换」于「p」也，「左」者「p」也】也「双对」）而
　「写」于「四」于（「q」中「右」中「甲」乘（「新无三二」于「一零零零」）加「q」中「左」中「甲」）；
　「：5：两层局部函数，内层只在尾位置调用外层之外的函数：」
　令「外」为得「a」而
　　令「内」为得「b」又得「c」而若「b」等于（「新无三二」于「零」）则「c」否则「内」于（「b」减「壹」）于（「c」加「a」）
　　而「内」于「a」于（「新无三二」于「零」）
　而「写」于「五」于（「外」于「n」）；
　「：6：若 值，分支也是局部定义：」
　「写」于「六」于（若「n」小于（「新无三二」于「五」）则令「t」为「n」加「n」而「t」乘「t」否则「n」）；
　「：7：while 式倒数，在格里数 n 的二进制位数：」
　令「位」为「新格」于（「新无三二」于「零」）而
　令「数」为得「m」而若「m」不等于（「新无三二」于「零」）则（「写格」于「位」于（「读格」于「位」加「壹」）；「数」于（「m」右移「壹」））否则「元」而
　「数」于「n」；
　「写」于「七」于（「读格」于「位」）
也。

「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「四」也】）也。
"""


def locals_expected(i: int, n: int) -> list[int]:
    product = 1
    for k in range(1, n + 1):
        if k & 1:
            product = product * k & M32
    return [sum(k * k for k in range(1, n + 1)) & M32, product, 3 * n + 1, (n - 1) & M32, (i * 1000 + n) & M32,
            n * n & M32, (4 * n * n if n < 5 else n) & M32, n.bit_length()]


def run_locals(tmp_path, values):
    write(tmp_path, {"局部与格。着色器。豫": LOCALS})
    n = np.array(values, np.uint32)
    out = run_entry(Workspace(tmp_path), tmp_path / "局部与格。着色器。豫", "主入口",
                    {"入": n, "出": np.zeros((len(n), 8), np.uint32)}, len(n) // 4)["出"]
    np.testing.assert_array_equal(out, np.array([locals_expected(i, int(v)) for i, v in enumerate(n)], np.uint32))


def test_locals_and_cells_on_lavapipe(tmp_path):
    run_locals(tmp_path, [0, 1, 2, 3, 4, 5, 7, 10])


@pytest.mark.xfail(strict=False, reason="llvmpipe (lavapipe) caps the loop iterations of an invocation group at "
                   "about 65535 in total over all its loops (a hand-written two-loop WGSL shows it: after a first "
                   "loop of 65533 rounds the second runs once); the MSL shim and the PTX emulator agree with NumPy "
                   "(test_locals_and_cells_other_targets) — a limit of the software driver, not of the translation")
def test_locals_and_cells_on_lavapipe_long_loops(tmp_path):
    run_locals(tmp_path, [31, 100, 1000, 65535, 0, 1, 2, 3])


def test_locals_and_cells_other_targets(tmp_path):
    from support.metal_shim.host import prepare, results
    from support.references import grid
    from support.metal_shim.runner import Kernel, Runner
    from support.ptx_runner import emulated, upload
    from zhuose.compiler import ir
    all_targets(tmp_path, LOCALS)
    path = tmp_path / NAME
    n = np.array([31, 100, 1000, 65535, 0, 1, 2, 3], np.uint32)
    data = {"入": n, "出": np.zeros((len(n), 8), np.uint32)}
    expected = np.array([locals_expected(i, int(v)) for i, v in enumerate(n)], np.uint32)
    ws = Workspace(tmp_path)
    prepared = prepare(ws, path, "主入口", data, 2)
    kernel = Kernel("局部与格", prepared.msl, prepared.entry)
    (tmp_path / "metal").mkdir()
    runner = Runner([kernel], tmp_path / "metal")
    np.testing.assert_array_equal(results(prepared, runner.dispatch(kernel.key, prepared.groups,
                                                                     prepared.buffers))["出"], expected)
    result = translate(ws, path, "ptx")
    info = next(e for e in result.entries if e.item == "主入口")
    used = {p.resource: (p.group, p.binding) for p in info.params if p.kind == "buffer" and p.resource}
    resources = {d.name: d for d in ws.check(path).module.decls if isinstance(d, ir.Resource)}
    out = emulated(result.text, info, {key: upload(data[k], resources[k]) for k, key in used.items()}, grid(2))
    np.testing.assert_array_equal(np.frombuffer(out[used["出"]][:expected.nbytes], np.uint32).reshape(8, 8),
                                  expected)


# ---------------------------------------------------------------- 若 of type 有, sequences, scopes

SCOPES = {
    "if_without_else_in_sequence": FN + "「g」者得「i」而（若「i」小于「i」则「元」）；「i」也。\n",
    "else_branch_let_extends_right": FN + "「g」者得「i」而若「i」小于「i」则「i」否则令「a」为「i」而「a」加「a」也。\n",
    "let_body_is_a_sequence": FN + "「g」者得「i」而令「a」为「i」而「a」；「a」加「a」也。\n",
    "tuple_binds_loosest": "「g」乃化「无三二」为「二维无」者也。\n「g」者得「i」而「i」加「i」与「i」乘「i」也。\n",
    "tuples_as_if_branches": "「g」乃化「无三二」为「二维无」者也。\n"
                             "「g」者得「i」而若「i」小于「i」则「i」与「i」否则「i」与「i」也。\n",
    "local_function_uses_enclosing_names": FN + "「g」者得「i」而令「f」为得「x」而「x」加「i」而「f」于「i」也。\n",
    "tail_call_after_sequence": FN + "「g」者得「i」而令「f」为得「n」而"
                                "若「n」等于「n」则「n」否则（「n」；「f」于「n」）而「f」于「i」也。\n",
    "vector_comparison_gives_bool_vector": "「g」乃化「二维浮」为「二维爻」者也。\n「g」者得「v」而「v」小于「v」也。\n",
    "not_on_bool_vector": "「g」乃化「二维爻」为「二维爻」者也。\n「g」者得「v」而非「v」也。\n",
    "vector_shift_amount_is_u32_vector": "「g」乃化「二维整」为「二维整」者也。\n"
                                         "「g」者得「v」而「v」左移（「新无三二」于「一」与（「新无三二」于「二」））也。\n",
}


@pytest.mark.parametrize("text", SCOPES.values(), ids=SCOPES.keys())
def test_scopes_and_sequences(tmp_path, text):
    all_targets(tmp_path, text)


def test_if_without_else_must_be_unit(tmp_path):
    _, lines = check_text(tmp_path, FN + "「g」者得「i」而（若「i」小于「i」则「i」）；「i」也。\n")
    assert len(lines) == 1 and lines[0].startswith("2:21: 在「g」中：") and "「有」" in lines[0], lines


@pytest.mark.parametrize("text, at, fragment", [
    (FN + "「g」者得「i」而负「i」也。\n", "2:11", "有符号"),
    # a vector meets a scalar only of its own component type (「v」乘（「新浮三二」于「二」） is WGSL's v * 2.0f)
    ("「g」乃化「二维浮」为「二维浮」者也。\n「g」者得「v」而「v」乘（「新无三二」于「二」）也。\n", "2:15", "「二维浮」"),
    ("「g」乃化「整三二」为「整三二」者也。\n「g」者得「v」而「v」右移（「新整三二」于「一」）也。\n", "2:16", "「无三二」"),
], ids=["negate_unsigned", "vector_times_other_scalar", "signed_shift_amount"])
def test_operand_type_rules(tmp_path, text, at, fragment):
    _, lines = check_text(tmp_path, text)
    assert len(lines) == 1 and lines[0].startswith(f"{at}: 在「g」中：") and fragment in lines[0], lines


# ---------------------------------------------------------------- seed 着六 and LANGUAGE §7

DOUBLE = SEED_DOUBLE

SUM = LANGUAGE_SUM


def test_seed_example_translates_exactly(tmp_path):
    text = all_targets(tmp_path, DOUBLE)
    assert text.strip() == ("@group(0) @binding(0) var<storage, read_write> 数据: array<u32>;\n\n"
                            "@compute @workgroup_size(4)\n"
                            "fn 加倍(@builtin(global_invocation_id) 号: vec3<u32>) {\n"
                            "  let 序 = 号.x;\n"
                            "  数据[序] = 数据[序] * 2u;\n"
                            "}")


def test_language_local_loop_example(tmp_path):
    all_targets(tmp_path, SUM)


def test_cli_on_a_valid_program(tmp_path):
    write(tmp_path, {NAME: DOUBLE})
    for command in ("检查", "译", "金属", "千手"):
        done = subprocess.run(["着色器", command, NAME], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (command, done.stderr)
        if command != "检查":
            function = "yy_e5_8a_a0_e5_80_8d" if command == "千手" else "加倍"
            assert done.stderr == f"加倍入口\t{function}\t计算\n" and done.stdout


# ---------------------------------------------------------------- seed 着四/着五/着八 rejections

REJECTIONS = [
    ("constructor", "「甲」立「无三二」也。\n", "1:1", "甲", "立"),
    ("polymorphic_function", "「g」乃凡「甲」而化「甲」为「甲」者也。\n「g」者得「a」而「a」也。\n", "1:1", "g", "凡"),
    ("top_level_self_call", FN + "「g」者得「i」而若「i」等于「i」则「i」否则「g」于「i」也。\n", "2:25", "g", "自身"),
    ("non_tail_local_recursion", FN + "「g」者得「i」而令「f」为得「n」而若「n」等于「n」则「n」否则「f」于「n」加「n」"
     "而「f」于「i」也。\n", "2:35", "g", "尾位置"),
    ("recursive_call_as_argument", FN + "「g」者得「i」而令「f」为得「n」而若「n」等于「n」则「n」否则「f」于（「f」于「n」）"
     "而「f」于「i」也。\n", "2:40", "g", "尾位置"),
    ("anonymous_function", FN + "「g」者得「i」而「最大」于（得「x」而「x」）于「i」也。\n", "2:16", "g", "匿名函数"),
    ("top_level_function_as_value", FN + "「g」者得「i」而「i」也。\n「h」乃化「无三二」为「无三二」者也。\n"
     "「h」者得「i」而令「k」为「g」而「k」于「i」也。\n", "4:15", "h", "当作值"),
    ("string_in_function", FN + "「g」者得「i」而令「s」为『文字』而「i」也。\n", "2:15", "g", "字符串"),
    ("string_constant", "「s」者『文字』也。\n", "1:5", "s", "字符串"),
    ("function_without_signature", "「g」者得「i」而「i」也。\n", "1:1", "g", "签名"),
    ("width_not_a_literal", "「n」者「三二」也。\n「c」乃「定长小数」于「n」也。\n「c」者「新浮三二」于「一」也。\n",
     "2:12", "c", "字面量"),
    ("length_not_a_literal", "「n」者「八」也。\n「块」乃「工作组变量」于（「定长数组」于「浮三二」于「n」）也。\n"
     "「块」者「工作组共享」于「元」也。\n", "2:27", "块", "字面量"),
    ("unknown_package", "寻观「标准」之「数学」之书。\n", "1:3", None, "「标准」"),
]


@pytest.mark.parametrize("text, at, definition, fragment", [r[1:] for r in REJECTIONS], ids=[r[0] for r in REJECTIONS])
def test_seed_rejection_position_and_definition(tmp_path, text, at, definition, fragment):
    _, lines = check_text(tmp_path, text)
    assert lines, "accepted"
    first = lines[0]
    assert first.startswith(f"{at}: "), lines
    if definition is not None:
        assert first.startswith(f"{at}: 在「{definition}」中："), lines
    assert any(fragment in line for line in lines), lines


def test_bare_expression_rejected(tmp_path):
    _, lines = check_text(tmp_path, "「新无三二」于「一」。\n")
    assert len(lines) == 1 and lines[0].startswith("1:1: ") and "裸表达式" in lines[0], lines


def test_mutual_recursion_rejected(tmp_path):
    _, lines = check_text(tmp_path, FN + "「g」者得「i」而「h」于「i」也。\n「h」乃化「无三二」为「无三二」者也。\n"
                                         "「h」者得「i」而「g」于「i」也。\n")
    assert len(lines) == 1 and "在「g」中" in lines[0] and "「h」" in lines[0], lines


def test_unsupported_width_is_a_translation_error(tmp_path):
    ws = clean(tmp_path, "「c」乃「定长整数」于「一六」也。\n「c」者「转换」以（「定长整数」于「一六」）于「一」也。\n")
    result = translate(ws, tmp_path / NAME, "wgsl")
    assert result.text is None and "「定长整数」于「一六」" in result.diagnostics[0].message


@pytest.mark.parametrize("text", [
    FN + "「g」者得「i」而令「f」为得「x」而「x」而「最大」于「f」于「i」也。\n",
    FN + "「g」者得「i」而令「f」为得「x」又得「y」而「x」加「y」而令「p」为「f」于「i」而「p」于「i」也。\n",
    "「n」者「三二」也。\n「c」乃「定长小数」于「n」也。\n「c」者「新浮三二」于「一」也。\n",
], ids=["local_function_as_argument", "partial_application", "width_not_a_literal"])
def test_one_message_per_mistake(tmp_path, text):
    _, lines = check_text(tmp_path, text)
    assert len(lines) == 1, lines


# ---------------------------------------------------------------- swizzles and a scalar beside a vector


def test_a_swizzle_of_a_swizzle_picks_from_the_first_vector(tmp_path):
    """「v」中「abg」中「yxx」 is v.zww: indices compose at checking, so every target (and Metal, which
    cannot project a swizzle's swizzle in the shim) reads the original vector once."""
    wgsl = all_targets(tmp_path, "「g」乃化「四维浮」为「二维浮」者也。\n"
                                 "「g」者得「v」而（「v」中「zw」中「y」）与（「v」中「wzyx」中「零」）也。\n"
                                 "「h」乃化「四维浮」为「三维浮」者也。\n「h」者得「v」而「v」中「abg」中「yxx」也。\n")
    assert "return vec2<f32>(v.w, v.w);" in wgsl and "return v.zww;" in wgsl, wgsl


@pytest.mark.parametrize("text, written", [
    ("「g」者得「v」而「v」乘（「新浮三二」于「二」）也。\n", "v * 2.0f"),
    ("「g」者得「v」而（「新浮三二」于「一」）减「v」也。\n", "1.0f - v"),
    ("「g」者得「v」而「v」除（「v」中「x」）也。\n", "v / v.x"),
], ids=["vector_times_scalar", "scalar_minus_vector", "vector_over_its_component"])
def test_a_scalar_beside_a_vector_is_splat(tmp_path, text, written):
    """WGSL's v * s: the scalar meets each component (ir.Splat; WGSL writes it bare, MSL float2(s))."""
    wgsl = all_targets(tmp_path, "「g」乃化「二维浮」为「二维浮」者也。\n" + text)
    assert f"return {written};" in wgsl, wgsl
