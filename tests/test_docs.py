"""The documentation as a newcomer reads it.

README.md, ARCHITECTURE.md, docs/*.md, samples/README.md and every `--help`
are read as promises: each inline example is wrapped in a minimal program and
must parse, check and translate as the text claims (error examples must give
the error the text quotes); every builtin name of LANGUAGE.md §6 and of the
interface file is documented in docs/内建.md; every command and option of the
README's table exists; every path and symbol ARCHITECTURE.md names exists and
every module is mentioned there; the benchmarks start.

Each check quotes the doc text it tests (and asserts the doc still says it), so
a rewritten doc shows up here.  Places where the docs (or the tool) are wrong
are strict xfails whose reason starts with "BUG:"."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from support.frontend import LANGUAGE_SUM, PRELUDE, SEED_DOUBLE, check_text, write
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT.parent / "shared" / "spec" / "LANGUAGE.md"
if not SPEC.exists():
    SPEC = Path("/work/shared/spec/LANGUAGE.md")
NAME = "测。着色器。豫"


def doc(rel: str) -> str:
    return (ROOT / rel).read_text(encoding="utf-8")


def says(rel: str, text: str) -> None:
    """The doc still contains the quoted text (so the check below still tests it)."""
    assert text in doc(rel), f"{rel} no longer says {text!r}"


def cli(cwd, *args, stdin=None, timeout=120):
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd, input=stdin,
                       capture_output=True, text=True, encoding="utf-8", timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def messages(tmp_path: Path, text: str) -> list[str]:
    return check_text(tmp_path, text)[1]


def clean(tmp_path: Path, text: str) -> Workspace:
    ws, lines = check_text(tmp_path, text)
    assert lines == []
    return ws


def wgsl(tmp_path: Path, text: str) -> str:
    ws = clean(tmp_path, text)
    r = translate(ws, tmp_path / NAME, "wgsl")
    assert r.diagnostics == [] and r.text is not None, [d.message for d in r.diagnostics]
    return r.text


def target_errors(tmp_path: Path, text: str, target: str) -> list[str]:
    ws = clean(tmp_path, text)
    return [d.message for d in translate(ws, tmp_path / NAME, target).diagnostics]


FN = "「g」乃化「无三二」为「无三二」者也。\n"

# ---------------------------------------------------------------- (1) examples in LANGUAGE.md and docs/语言.md


def test_language_md_worked_examples_check_and_translate(tmp_path):
    spec = SPEC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", spec, re.S | re.M)
    programs = [b for lang, b in blocks if lang == "" and "「" in b]
    assert len(programs) == 2 and programs[1] == LANGUAGE_SUM
    text = programs[0] + "\n" + programs[1]
    write(tmp_path, {NAME: text})
    ws = Workspace(tmp_path)
    assert ws.diagnostics(tmp_path / NAME) == []
    for target in ("wgsl", "msl", "ptx"):
        r = translate(ws, tmp_path / NAME, target)
        assert r.diagnostics == [] and r.text, target


def test_yi_takes_a_parenthesised_type_as_written_in_the_doc(tmp_path):
    # 语言.md 语法: `以` 后面是一个原子类型：名字、整数索引或括号里的类型（x 为「二维整」时，
    # `「转换」以「二维浮」于「x」` 与 `「转换」以（「浮三二」与「浮三二」）于「x」` 相同）
    says("docs/语言.md", "x 为「二维整」时，`「转换」以「二维浮」于「x」` 与\n  `「转换」以（「浮三二」与「浮三二」）于「x」` 相同")
    sig = "「g」乃化「二维整」为「二维浮」者也。\n"
    outs = {wgsl(tmp_path, sig + f"「g」者得「x」而「转换」以{ty}于「x」也。")
            for ty in ("「二维浮」", "（「浮三二」与「浮三二」）")}
    assert outs == {"fn g(x: vec2<i32>) -> vec2<f32> {\n  return vec2<f32>(x);\n}\n"}


def test_yi_doc_example_is_a_valid_program(tmp_path):
    # the example the doc used to give, 「转换」以（「定长数组」于「浮三二」于「四」）于 x, was ill-typed
    says("docs/语言.md", "（「转换」的目标只能是标量或向量）")
    for ty in ("「二维浮」", "（「浮三二」与「浮三二」）"):
        assert messages(tmp_path, f"「g」乃化「二维整」为「二维浮」者也。\n「g」者得「x」而「转换」以{ty}于「x」也。") == []


def test_yi_with_a_parenthesised_type_parses(tmp_path):
    text = ("「g」乃化「四维浮」为「定长数组」于「浮三二」于「四」者也。\n"
            "「g」者得「x」而「转换」以（「定长数组」于「浮三二」于「四」）于「x」也。")
    assert not any("语法" in m or "应为" in m and "记号" in m for m in messages(tmp_path, text))


def test_yi_with_a_type_outside_the_bound_is_one_error(tmp_path):
    text = ("「g」乃化「四维浮」为「定长数组」于「浮三二」于「四」者也。\n"
            "「g」者得「x」而「转换」以（「定长数组」于「浮三二」于「四」）于「x」也。")
    assert len(messages(tmp_path, text)) == 1


def test_untyped_literal_mixed_with_u32_is_the_documented_error(tmp_path):
    # 语言.md 类型: `x 加「一」`（x 为「无三二」）是类型错误，应写 `x 加（「新无三二」于「一」）`
    # 语言.md 报错: 类型按豫言语法打印并保留别名（如「应为「无三二」，实为「整数」」）
    says("docs/语言.md", "`x 加「一」`（x 为「无三二」）是类型错误，应写 `x 加（「新无三二」于「一」）`")
    says("docs/语言.md", "「应为「无三二」，实为「整数」」")
    [m] = messages(tmp_path, FN + "「g」者得「x」而「x」加「一」也。")
    assert m.startswith("2:14: 在「g」中：") and "应为「无三二」，实为「整数」" in m
    assert "x + 1u" in wgsl(tmp_path, FN + "「g」者得「x」而「x」加（「新无三二」于「一」）也。")


def test_two_lambda_forms_are_one_function_and_curried_types_are_one_type(tmp_path):
    # 语言.md: `得「甲」而得「乙」而 主体` 与 `得「甲」又得「乙」而 主体` 是同一个函数；
    #          `化甲而化乙而丙` 即 `化甲又化乙为丙者`
    says("docs/语言.md", "`得「甲」而得「乙」而 主体` 与 `得「甲」又得「乙」而 主体` 是同一个函数")
    says("docs/语言.md", "`化甲而化乙而丙` 即 `化甲又化乙为丙者`")
    outs = set()
    for sig in ("化「无三二」而化「无三二」而「无三二」", "化「无三二」又化「无三二」为「无三二」者"):
        for lam in ("得「甲」而得「乙」而", "得「甲」又得「乙」而"):
            outs.add(wgsl(tmp_path, f"「g」乃{sig}也。\n「g」者{lam}「甲」加「乙」也。"))
    assert outs == {"fn g(甲: u32, 乙: u32) -> u32 {\n  return 甲 + 乙;\n}\n"}


@pytest.mark.parametrize("literal, ok", [
    ("「新无三二」于「4294967295」", True), ("「新无三二」于「4294967296」", False),
    ("「新整三二」于「2147483647」", True), ("「新整三二」于「2147483648」", False),
    ("「新整三二」于（负「2147483648」）", True), ("「新整三二」于（负「2147483649」）", False),
    ("「新浮十六」于「65504」", True), ("「新浮十六」于「65519」", True), ("「新浮十六」于「65520」", False),
    ("「新浮三二」于「340282346638528859811704183484516925440」", True),
    ("「新浮三二」于「340282350000000000000000000000000000000」", True),
    ("「新浮三二」于「340282360000000000000000000000000000000」", False),
    ("「新无三二」于「一点五」", False), ("「新整三二」于「二点五」", False),
])
def test_typed_literal_ranges_as_documented(tmp_path, literal, ok):
    # 语言.md: 字面量实参须在目标类型范围内（u32 为 0 至 4294967295，i32 为 −2³¹ 至 2³¹−1，
    # f16 绝对值至多 65504，f32 至多 3.4028235×10³⁸）；「新无三二」「新整三二」不收小数字面量。
    says("docs/语言.md", "f16 绝对值至多 65504，f32 至多 3.4028235×10³⁸")
    ms = messages(tmp_path, f"「c」者{literal}也。")
    if ok:
        assert ms == []
    else:
        assert len(ms) == 1 and ("超出" in ms[0] or "须是整数" in ms[0]), ms


def test_width_16_integer_checks_and_fails_only_in_translation(tmp_path):
    says("docs/语言.md", "WGSL 没有的组合（如「定长整数」于「一六」）由翻译报错，检查通过")
    text = ("「c」乃「定长整数」于「一六」也。\n"
            "「c」者「转换」以（「定长整数」于「一六」）于（「新整三二」于「一」）也。")
    [m] = target_errors(tmp_path, text, "wgsl")
    assert "「定长整数」于「一六」" in m


def test_fixed_array_length_zero_points_at_the_length(tmp_path):
    says("docs/语言.md", "「定长数组」的长度须在 1 到 4294967295 之间（WGSL 要求正的 u32），否则检查报错，指在长度上")
    [m] = messages(tmp_path, "「c」乃「定长数组」于「浮三二」于「零」也。\n「c」者「c」也。")
    assert m.startswith("1:18: 在「c」中：") and "1 到 4294967295" in m


def test_records_match_by_name_missing_and_extra_fields_are_errors(tmp_path):
    says("docs/语言.md", "次序可以不同，按类型的次序排列")
    text = ("「点」即「组类」【「甲」乃「无三二」也，「乙」乃「浮三二」也】也。\n「c」乃「点」也。\n"
            "「c」者「组值」【「乙」者（「新浮三二」于「一」）也，「甲」者（「新无三二」于「二」）也】也。")
    assert "const c: 点 = 点(2u, 1.0f);" in wgsl(tmp_path, text)
    base = "「点」即「组类」【「甲」乃「无三二」也，「乙」乃「无三二」也】也。\n「c」乃「点」也。\n"
    [m] = messages(tmp_path, base + "「c」者「组值」【「甲」者（「新无三二」于「一」）也】也。")
    assert "「乙」" in m and "没有给出" in m
    [m] = messages(tmp_path, base + "「c」者「组值」【「甲」者（「新无三二」于「一」）也，「乙」者（「新无三二」于「一」）也，"
                   "「丙」者（「新无三二」于「一」）也】也。")
    assert "没有字段「丙」" in m


def test_alias_is_the_same_type_and_keeps_its_builtin(tmp_path):
    says("docs/语言.md", "（「全局调用号」与「三维无」是同一类型）")
    out = wgsl(tmp_path, "「g」乃化「全局调用号」为「无三二」者也。\n「g」者得「号」而「号」中「零」也。\n"
                         "「h」乃化「三维无」为「无三二」者也。\n「h」者得「号」而「g」于「号」也。")
    assert "fn h(号: vec3<u32>) -> u32 {\n  return g(号);" in out


@pytest.mark.parametrize("text, quoted", [
    ("「f」者得「x」而「x」也。", "顶层函数缺少签名"),
    ("「c」者「位转换」于（「新无三二」于「一」）也。", "函数应用的隐式参数无法完全确定"),
    ("「c」者「新无三二」于「一」也\n「d」者「新无三二」于「二」也。", "缺少「。」"),
    ("「c」乃「无三二」也。\n「c」者" + "（" * 401 + "「新无三二」于「一」" + "）" * 401 + "也。", "嵌套过深"),
    ("「甲」者「乙」也。\n「乙」者「甲」也。", "成环"),
], ids=["signature", "implicit", "full-stop", "nesting", "cycle"])
def test_quoted_error_messages_are_what_the_tool_says(tmp_path, text, quoted):
    says("docs/语言.md", quoted if quoted != "成环" else "互相引用时按依赖次序检查，成环报错")
    ms = messages(tmp_path, text)
    assert len(ms) == 1, ms
    # the doc quotes 「顶层函数缺少签名」; the tool says 顶层函数「f」缺少签名
    assert re.search(".*".join(map(re.escape, quoted.split("函数"))) if "缺少签名" in quoted else re.escape(quoted),
                     ms[0]), ms


@pytest.mark.parametrize("inner", ["（" * 400 + "「新无三二」于「一」" + "）" * 400,
                                   "非" * 400 + "「阳」",
                                   "（" * 399 + "「新无三二」于「一」" + "）" * 399],
                         ids=["paren400", "not400", "paren399"])
def test_nesting_of_400_levels_is_accepted(tmp_path, inner):
    says("docs/语言.md", "超过 400 层时报「嵌套过深」")
    assert messages(tmp_path, f"「c」者{inner}也。") == []


def test_sequences_do_not_count_as_nesting(tmp_path):
    says("docs/语言.md", "顺序（；）不算嵌套")
    assert messages(tmp_path, FN + "「g」者得「x」而" + "「x」；" * 1000 + "「x」也。") == []


def test_lexical_rules_empty_bom_bad_utf8_ascii(tmp_path):
    says("docs/语言.md", "空文件、只有注释或空白的文件合法，没有定义")
    says("docs/语言.md", "文件开头的 BOM 被忽略")
    write(tmp_path, {"空。着色器。豫": "", "注。着色器。豫": "「：只有注释：」\n　\n",
                     "码。着色器。豫": "\ufeff" + PRELUDE + "「c」者「新无三二」于「一」也。\n",
                     "坏。着色器。豫": (PRELUDE + "「c」者「新无三二」于「一」也。「：").encode() + b"\xff" + "：」\n".encode()})
    ws = Workspace(tmp_path)
    for n in ("空", "注", "码"):
        assert ws.diagnostics(tmp_path / f"{n}。着色器。豫") == [], n
    assert translate(ws, tmp_path / "空。着色器。豫", "wgsl").text == ""          # 后端.md: 空的着色源译成空文本
    assert len(ws.diagnostics(tmp_path / "坏。着色器。豫")) == 1
    [m] = messages(tmp_path, "「c」者 abc「新无三二」于「一」也。")
    assert "abc" in m


def test_module_rules_of_zhe_si(tmp_path):
    says("docs/语言.md", "一个入口用到的资源里同一组号绑定号只能有一个")
    says("docs/语言.md", "计算入口：工作组大小是 1 至 1024 的整数字面量")
    says("docs/语言.md", "写只读存储缓冲（写数组、写存储、原子操作）报错，提示改为「读写」")
    buf = ("「数」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
           "「数」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「%s」也】）也。\n")
    entry = ("「g」乃化「全局调用号」为「有」者也。\n「g」者得「号」而「写数组」于「数」于（「号」中「零」）于（「号」中「零」）也。\n"
             "「入」乃「计算入口」也。\n「入」者「计算入口项」于「g」于（「组值」【「工作组大小」者「%s」也】）也。")
    assert messages(tmp_path, buf % "读写" + entry % "一零二四") == []
    [m] = messages(tmp_path, buf % "读写" + entry % "一零二五")
    assert "1 至 1024" in m
    [m] = messages(tmp_path, buf % "只读" + entry % "一")
    assert "「读写」" in m
    dup = buf % "读写" + (buf % "读写").replace("「数」", "「乙」")
    assert messages(tmp_path, dup) == []                 # no entry binds both
    both = entry.replace("「写数组」于「数」于（「号」中「零」）于（「号」中「零」）",
                         "「写数组」于「数」于（「号」中「零」）于（「读数组」于「乙」于（「号」中「零」））") % "一"
    [m] = messages(tmp_path, dup + both)
    assert m.startswith("8:1: 在「入」中：") and "「数」与「乙」都绑定在组 0 号 0" in m
    [m] = messages(tmp_path, "「甲」立「无三二」也。")
    assert "立" in m
    [m] = messages(tmp_path, "「新无三二」于「一」。")
    assert "裸表达式" in m


def test_select_takes_a_bool_vector_condition(tmp_path):
    says("docs/语言.md", "「选择」的条件是「爻」，或与向量值同样长的爻向量")
    out = wgsl(tmp_path, "「g」乃化「二维浮」为「二维浮」者也。\n「g」者得「v」而「选择」于「v」于「v」于（「v」小于「v」）也。")
    assert "select(v, v, (v < v))" in out


def test_missing_module_message_is_the_quoted_seed_text(tmp_path):
    says("docs/语言.md", "（着色文件只能导入着色源「名。着色器。豫」与着色内建声明「名。着色器。接口。豫」）")
    [m] = check_text(tmp_path, "寻观「点染」之「没有」之书。\n", prelude=False)[1]
    assert "包内模块不存在：" in m and m.endswith("（着色文件只能导入着色源「名。着色器。豫」与着色内建声明「名。着色器。接口。豫」）")


def test_bounded_type_variable_in_a_user_interface_file(tmp_path):
    # 语言.md 类约束: 内建声明里的类型变量可写成「名：类」，例如 `凡「甲：数」而化「甲」又化「甲」为「甲」者`
    says("docs/语言.md", "`凡「甲：数」而化「甲」又化「甲」为「甲」者`")
    write(tmp_path, {"包.json": '{"名": "试", "依赖": ["点染"]}',
                     "类型。着色器。接口。豫": "「双」乃凡「甲：数」而化「甲」又化「甲」为「甲」者也。\n",
                     NAME: PRELUDE + "寻观「试」之「类型」之书。\n「c」乃「无三二」也。\n"
                                     "「c」者「双」于（「新无三二」于「一」）于（「新无三二」于「二」）也。\n"})
    ws = Workspace(tmp_path)
    assert ws.diagnostics(tmp_path / "类型。着色器。接口。豫") == []
    assert ws.diagnostics(tmp_path / NAME) == []
    write(tmp_path, {NAME: PRELUDE + "寻观「试」之「类型」之书。\n「e」乃「爻」也。\n「e」者「双」于「阳」于「阴」也。\n"})
    ws = Workspace(tmp_path)
    assert any("数" in d.message for d in ws.diagnostics(tmp_path / NAME))


# ---------------------------------------------------------------- (1b) docs/后端.md


def test_renaming_examples_of_the_backends_doc(tmp_path):
    says("docs/后端.md", "（`a b` → `豫_a_20_b`，\n`_` → `豫__5f_`）")
    says("docs/后端.md", "同一函数里重复的局部名字加 `_2`、`_3`")
    says("docs/后端.md", "只在 MSL 里保留的名字（如 `kernel`、`float4`）在 WGSL 里照写")   # tests/test_names.py
    out = wgsl(tmp_path, "「a b」乃化「无三二」为「无三二」者也。\n"
                         "「a b」者得「_」而令「u32」为「_」而令「select」为「u32」而「select」加「u32」也。\n"
                         "「g」乃化「无三二」为「无三二」者也。\n"
                         "「g」者得「x」而令「y」为「x」而令「z」为（令「y」为「y」加「y」而「y」）而「z」也。")
    assert "fn 豫_a_20_b(豫__5f_: u32) -> u32" in out and "let 豫_u32 = 豫__5f_;" in out
    assert "let 豫_select" in out and "let y_2 = y + y;" in out


def test_constant_locals_enable_subgroups_and_msl_groups(tmp_path):
    says("docs/后端.md", "值是常量的「整数」「小数」局部名字写成 `const`")
    says("docs/后端.md", "用到子组运算时开头写 `enable subgroups;`")
    says("docs/后端.md", "只能用组 0 与组 1")
    assert "const k = 2.5;" in wgsl(tmp_path, "「g」乃化「无三二」为「浮三二」者也。\n"
                                              "「g」者得「x」而令「k」为「二点五」而「新浮三二」于「k」也。")
    text = ("「数」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
            "「数」者「绑定」于（「组值」【「组」者「二」也，「号」者「零」也，「访问」者「读写」也】）也。\n"
            "「g」乃化「全局调用号」为「有」者也。\n"
            "「g」者得「号」而「写数组」于「数」于（「号」中「零」）于（「子组求和」于（「号」中「零」））也。\n"
            "「入」乃「计算入口」也。\n「入」者「计算入口项」于「g」于（「组值」【「工作组大小」者「六四」也】）也。")
    assert wgsl(tmp_path, text).startswith("enable subgroups;\n")
    [m] = target_errors(tmp_path, text, "msl")
    assert "组 0 与组 1" in m


def test_verbose_entry_tables_match_the_backends_doc():
    line = "三角数入口\t三角数\t计算\t数组长度缓冲=30：0=结果"
    says("docs/后端.md", line)
    code, _, err = cli(ROOT / "samples", "金属", "--详细", "局部循环。着色器。豫")
    assert code == 0 and err == line + "\n"
    code, _, err = cli(ROOT / "samples", "金属", "局部循环。着色器。豫")
    assert code == 0 and err == "三角数入口\t三角数\t计算\n"
    says("docs/后端.md", "`.param .u32 p_gG_bB_n`")
    code, _, err = cli(ROOT / "samples", "千手", "--详细", "局部循环。着色器。豫")
    cols = err.rstrip("\n").split("\t")
    assert code == 0 and len(cols) == 4 and "p_g0_b0_n" in cols[3]
    code, _, err = cli(ROOT / "samples", "千手", "局部循环。着色器。豫")
    assert code == 0 and len(err.rstrip("\n").split("\t")) == 3


# ---------------------------------------------------------------- (1c) docs/生成.md


def test_generated_module_example_matches_the_tool(tmp_path):
    block = re.search(r"^```\n(「： 由着色源.*?)^```", doc("docs/生成.md"), re.S | re.M).group(1)
    write(tmp_path, {"加倍。着色器。豫": SEED_DOUBLE})
    code, out, err = cli(tmp_path, "生成", "加倍。着色器。豫")
    assert code == 0 and err == ""
    lines = block.splitlines()
    assert out.splitlines()[0] == lines[0]
    assert out.splitlines()[1].startswith(lines[1].split("〈指纹〉")[0])
    for want in lines:
        if want.startswith("「加倍入口"):
            assert want in out.splitlines()
        elif want.startswith("「") and "者『" in want:
            head = want.split("…")[0].rstrip()
            assert any(l.startswith(head) for l in out.splitlines()), head


def test_generate_command_line_as_documented(tmp_path):
    write(tmp_path, {"应用/加倍。着色器。豫": SEED_DOUBLE, "应用/坏。着色器。豫": PRELUDE + "「c」者「未知」也。\n"})
    says("docs/生成.md", "每个文件印一行 路径<TAB>已更新|未改动")
    code, out, _ = cli(tmp_path, "生成", "应用/加倍。着色器。豫", "--输出目录", "产物")
    assert code == 0 and out == "产物/加倍。着色生成。豫\t已更新\n"
    code, out, _ = cli(tmp_path, "generate", "应用/加倍。着色器。豫", "--out-dir", "产物")
    assert code == 0 and out == "产物/加倍。着色生成。豫\t未改动\n"
    assert cli(tmp_path, "生成", "应用/加倍。着色器。豫", "应用/加倍。着色器。豫")[0] == 2   # no --输出目录, 2 files
    assert cli(tmp_path, "生成", "应用/没有。着色器。豫")[0] == 2
    code, _, err = cli(tmp_path, "生成", "应用/坏。着色器。豫")
    assert code == 1 and "坏。着色器。豫:2:5: 在「c」中：" in err


def test_generate_python_api_snippet_runs(tmp_path, monkeypatch):
    says("docs/生成.md", 'gen.find_import("应用/主。豫", ["应用", "加倍"])')
    write(tmp_path, {"应用/包.json": '{"名": "应用", "依赖": ["点染"]}', "应用/加倍。着色器。豫": SEED_DOUBLE})
    monkeypatch.chdir(tmp_path)
    from zhuose.compiler.generate import Generator
    gen = Generator(".")
    result = gen.write("应用/加倍。着色器。豫", "产物")
    assert result.generated.text.startswith("「： 由着色源")
    assert result.generated.diagnostics == [] and result.generated.warnings == []
    assert any(str(p).endswith("加倍。着色器。豫") for p in result.generated.inputs)
    assert result.changed is True and Path(result.output).name == "加倍。着色生成。豫"
    assert gen.generate("应用/加倍。着色器。豫").text == result.generated.text
    resolved, problem = gen.find_import("应用/主。豫", ["应用", "加倍"])
    assert problem is None and resolved.shader_source


def test_build_service_json_lines_as_documented(tmp_path):
    says("docs/生成.md", '{"文件": "应用/加倍。着色器。豫", "输出目录": "产物", "编号": 7}')
    write(tmp_path, {"应用/加倍。着色器。豫": SEED_DOUBLE})
    request = ('{"文件": "应用/加倍。着色器。豫"}\n'
               '{"文件": "应用/加倍。着色器。豫", "输出目录": "产物", "编号": 7}\n'
               'not json\n{"文件": "应用/加倍。着色器。豫"}\n')
    code, out, _ = cli(tmp_path, "服务", "--构建", stdin=request)
    answers = [json.loads(l) for l in out.splitlines()]
    assert code == 0 and len(answers) == 4
    assert answers[0]["改动"] is True and answers[0]["输出"] is None   # no 输出目录: first answer is true
    assert set(answers[1]) == {"编号", "文件", "模块", "错误", "警告", "改动", "输出"}
    assert answers[1]["编号"] == 7 and answers[1]["改动"] is True and answers[1]["错误"] == []
    assert answers[1]["输出"].endswith("产物/加倍。着色生成。豫")
    assert answers[2]["错误"] and not answers[2]["模块"]   # a bad request is answered, the service goes on
    assert answers[3]["改动"] is False and answers[3]["模块"] == answers[0]["模块"]


# ---------------------------------------------------------------- (2) builtin names

SECTION6 = """整数 小数 爻 有 元类型 元 阳 阴 定长小数 定长整数 定长无符号 浮三二 浮十六 整三二 无三二
二维浮 三维浮 四维浮 二维半 三维半 四维半 二维整 三维整 四维整 二维无 三维无 四维无 二维爻 三维爻 四维爻
二阶浮 三阶浮 四阶浮 全局调用号 局部调用号 局部调用序 工作组号 工作组数 顶点序号 实例序号 裁剪位置 片元坐标
正面朝向 片元深度 采样序号 采样掩码 子组调用序 子组大小 片元颜色 存储缓冲 均匀缓冲 工作组变量 数组 定长数组 原子
纹理二维 采样器 深度纹理二维 比较采样器 子组矩阵片甲 子组矩阵片乙 子组矩阵片累 张量片累 绑定项 资源位 访问方式 只读
读写 组类 组值 绑定 均匀绑定 纹理绑定 采样器绑定 深度纹理绑定 比较采样器绑定 工作组共享 计算入口 顶点入口 片元入口
计算选项 计算入口项 顶点入口项 片元入口项 新浮三二 新浮十六 新整三二 新无三二 转换 加 减 乘 除 余 左移 右移 等于
不等于 小于 大于 不大于 不小于 按位与 按位或 异或 且 或 非 负 读数组 写数组 读共享数组 写共享数组 取元素 数组长度
读均匀 读存储 写存储 原子加 原子最大 原子最小 原子读 原子存 格 新格 读格 写格 绝对值 最大 最小 夹紧 混合 阶跃
平滑阶跃 平方根 逆平方根 指数 指数二 对数 对数二 幂 正弦 余弦 正切 双曲正切 反正弦 反余弦 反正切 反正切二
向下取整 向上取整 四舍五入 截断 小数部分 饱和 符号 点积 叉积 长度 距离 归一化 融合乘加 选择 位转换 半精度解包
半精度打包 矩阵乘 工作组屏障 存储屏障 舍弃 采样纹理 按层采样纹理 读纹素 纹理尺寸 比较采样 横差 纵差 子组求和
子组最大 子组最小 子组广播 子组洗牌 子组异或洗牌
子组求积 子组按位与 子组按位或 子组按位异或 子组前缀和 子组前缀积 子组排他前缀和 子组排他前缀积 子组上移洗牌 子组下移洗牌 子组广播首个 子组任一 子组全都 子组投票 子组选一""".split()
# seed 着十二: the subgroup-matrix builtins it names (整八 ones are documented as not yet declared)
SEED_FRAGMENTS = """载入矩阵片累 载矩阵片乙自转置存储 载入矩阵片累前八行 载矩阵片甲自存储 载矩阵片乙自存储
载矩阵片甲前八行 存矩阵片累前八行 存矩阵片累到存储""".split()
INTERFACE = ROOT / "compiler" / "builtin" / "点染" / "点染本。着色器。接口。豫"


def reference_rows() -> dict[str, list[str]]:
    """The rows of the main table (the tables by stage after it are sections of their own)."""
    rows = {}
    for line in doc("docs/内建.md").split("\n## ")[0].splitlines():
        if line.startswith("| 「"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows[cells[0][1:-1]] = cells[1:]
    return rows


def interface_names() -> set[str]:
    text = re.sub(r"「：.*?：」", "", INTERFACE.read_text(encoding="utf-8"), flags=re.S)
    return set(re.findall(r"^「([^」]+)」(?:乃|即)", text, re.M))


def test_section6_names_are_in_the_spec_as_listed():
    spec = SPEC.read_text(encoding="utf-8").split("## 6.")[1].split("## 7.")[0]
    for name in SECTION6:
        assert re.search(rf"(^|[\s「(（,，;；]){name}([\s」)）,，.;；]|$)", spec), name


@pytest.mark.parametrize("name", [n for n in SECTION6 + SEED_FRAGMENTS if n != "组值"])
def test_every_spec_builtin_is_documented_with_kind_and_type(name):
    row = reference_rows().get(name)
    assert row is not None, f"docs/内建.md lacks 「{name}」"
    kind, typ, desc = row
    assert kind in {"类型", "类型构造", "类型族", "值"} and typ and desc


def test_record_value_former_is_documented_in_the_reference_notes(tmp_path):
    # LANGUAGE.md §6 lists 「组值」 next to 「组类」; it is syntax (LANGUAGE.md §5), not a declared name, so
    # docs/内建.md documents it in the notes above the table (reference.py's HEADER), not as a row
    notes = doc("docs/内建.md").split("| 名字 |")[0]
    assert "「组值」不在下表" in notes and "`「组值」【「字段」者 表达式 也，…】`" in notes
    assert "组值" not in interface_names()
    text = ("「项」乃「绑定项」也。\n「项」者「组值」【「访问」者「读写」也，「组」者「零」也，「号」者「一」也】也。\n"
            "「数」乃「存储缓冲」于（「数组」于「无三二」）也。\n「数」者「绑定」于「项」也。")
    assert messages(tmp_path, text) == []


def test_documented_names_are_exactly_the_interface_names():
    assert set(reference_rows()) == interface_names()
    assert len(reference_rows()) == len(interface_names()) > 150


NO_CHINESE = [n for n, (_, _, d) in reference_rows().items() if not re.search(r"[\u4e00-\u9fff]", d)]


def test_some_builtins_have_a_chinese_description():
    rows = reference_rows()
    assert rows["转换"][2].startswith("类型转换") and rows["取元素"][2].startswith("按运行期下标")


def test_every_builtin_has_a_chinese_description():
    assert NO_CHINESE == []


# ---------------------------------------------------------------- (3) README's command table and --help


def test_readme_quick_start_and_npy_example(tmp_path):
    readme = doc("README.md")
    assert "着色器 运行 samples/加倍。着色器。豫 加倍入口 0:0=1,2,3,4,5,6,7,8" in readme
    code, out, _ = cli(ROOT, "运行", "samples/加倍。着色器。豫", "加倍入口", "0:0=1,2,3,4,5,6,7,8")
    assert code == 0 and out == "「数据」（组 0 号 0）：[ 2  4  6  8 10 12 14 16]\n"
    assert out.strip() in readme
    says("README.md", "`着色器 运行 samples/加倍。着色器。豫 加倍入口 0:0=数据.npy`")
    np.save(tmp_path / "数据.npy", np.arange(8, dtype="uint32"))
    code, out, _ = cli(tmp_path, "运行", str(ROOT / "samples/加倍。着色器。豫"), "加倍入口", "0:0=数据.npy")
    assert code == 0
    assert np.array_equal(np.load(tmp_path / "数据.npy"), np.arange(8, dtype="uint32") * 2)  # written back
    # 超出元素类型范围的数是用法错误；每个缓冲只给一次
    assert cli(ROOT, "运行", "samples/加倍。着色器。豫", "加倍入口", "0:0=1,-2")[0] == 2
    assert cli(ROOT, "运行", "samples/加倍。着色器。豫", "加倍入口", "0:0=1", "数据=2")[0] == 2
    code, out, _ = cli(ROOT, "运行", "samples/加倍。着色器。豫", "加倍入口", "数据=1,2,3,4,5,6,7,8", "--组数", "1")
    # --组数 1 with 工作组大小 4: only the first four elements are doubled
    assert code == 0 and out == f"「数据」（组 0 号 0）：{np.array([2, 4, 6, 8, 5, 6, 7, 8], dtype='uint32')}\n"


DEPFILE_OPTIONS = ["--输出", "--依赖文件", "-MD"]
TABLE_OPTIONS = {"检查": [], "译": DEPFILE_OPTIONS, "运行": ["--组数", "--后端", "--子组宽", "--调度种子", "--常量"],
                 "渲染": ["--尺寸", "--顶点数", "--输出", "--常量"], "金属": ["--详细", *DEPFILE_OPTIONS],
                 "千手": ["--详细", *DEPFILE_OPTIONS], "生成": ["--输出目录", *DEPFILE_OPTIONS], "格式化": ["--检查"], "导入": ["--输出", "--尽量"], "服务": ["--构建"], "剖析": [], "版本": []}
ASCII = {"检查": "check", "译": "wgsl", "运行": "run", "渲染": "render", "金属": "msl", "千手": "ptx", "生成": "generate",
         "格式化": "format", "导入": "import", "服务": "serve", "剖析": "profile", "版本": "version"}


def test_readme_command_table_lists_every_command_and_option():
    readme = doc("README.md")
    table = [l for l in readme.splitlines() if l.startswith("| `着色器 ")]
    found = {}
    for row in table:
        words = row.split("`")[1].split()
        found.setdefault(words[1], set()).update(re.findall(r"--?[^\s\]`\-][^\s\]`]*", row.split("|")[1]))
    assert set(found) == set(TABLE_OPTIONS)
    for command, options in TABLE_OPTIONS.items():
        assert set(options) <= found[command] | set()
    says("README.md", "ASCII 别名：`zhuose check|wgsl|run|render|msl|ptx|profile|generate|format|import|serve|version`")


@pytest.mark.parametrize("command", list(TABLE_OPTIONS))
def test_help_of_each_command_mentions_its_options_in_both_spellings(tmp_path, command):
    code, out, _ = cli(tmp_path, command, "--help")
    assert code == 0 and out.startswith(f"用法：着色器 {command}") and "显示本帮助" in out
    for option in TABLE_OPTIONS[command]:
        assert option in out
    code, out2, _ = cli(tmp_path, ASCII[command], "--help")
    assert code == 0 and out2 == out


def test_console_scripts_exist():
    for script in ("着色器", "zhuose"):
        p = subprocess.run([script, "--help"], capture_output=True, text=True, encoding="utf-8")
        assert p.returncode == 0 and "子命令" in p.stdout


def test_exit_codes_and_message_format_as_documented(tmp_path):
    says("README.md", "没有错误时退出码 0，有错误时 1，用法错误 2")
    says("README.md", "格式为 `文件:行:列: 在「定义名」中：消息`")
    write(tmp_path, {"好。着色器。豫": SEED_DOUBLE, "坏。着色器。豫": PRELUDE + "「常」者「未知」也。\n"})
    for command in ("检查", "译", "金属", "千手"):
        assert cli(tmp_path, command, "好。着色器。豫")[0] == 0, command
        code, out, err = cli(tmp_path, command, "坏。着色器。豫")
        assert (code, out, err) == (1, "", "坏。着色器。豫:2:5: 在「常」中：未知的名字「未知」\n"), command
        assert cli(tmp_path, command, "无。着色器。豫")[0] == 2, command
    code, _, err = cli(tmp_path, "译", "好。着色器。豫")
    assert err == "加倍入口\t加倍\t计算\n"                        # 入口项<TAB>函数名<TAB>阶段


def test_ptx_backend_run_without_cuda_says_skip():
    says("docs/后端.md", "没有驱动或设备时报「跳过：……」")
    code, out, err = cli(ROOT, "运行", "samples/加倍。着色器。豫", "加倍入口", "0:0=1,2,3,4", "--后端", "千手")
    if code == 0:
        pytest.skip("this machine has CUDA")
    assert "跳过：" in err and "Traceback" not in err


# ---------------------------------------------------------------- (4) ARCHITECTURE.md


def test_every_path_architecture_names_exists():
    text = doc("ARCHITECTURE.md")
    named = set(re.findall(r"`((?:cli|compiler|server|editors|samples|tests|bench|docs)/[^`\s]*)`", text))
    assert len(named) > 30
    for path in named:
        assert list(ROOT.glob(path)) or (ROOT / path).exists(), path
    # files named inside a folder row: `compiler/backends/wgsl/` (`writer.py`, `builtins.py`, `layout.py`)
    for folder, files in [("compiler/backends/wgsl", ["writer.py", "builtins.py", "layout.py"]),
                          ("compiler/backends/msl", ["fragments.py"]),
                          ("compiler/backends/ptx", ["fragments.py"]),
                          ("compiler/runtime", ["wgpu.py", "cuda.py"]),
                          ("cli", ["main.py", "translate.py", "run.py"])]:
        for f in files:
            assert (ROOT / folder / f).exists(), (folder, f)
    server_table = re.findall(r"^\| `([a-z]+\.py)`(?:, `([a-z]+\.py)`)*", text, re.M)
    for row in re.findall(r"^\| ((?:`[a-z]+\.py`,? ?)+) \|", text, re.M):
        for f in re.findall(r"`([a-z]+\.py)`", row):
            assert (ROOT / "server" / f).exists(), f
    assert server_table


def test_every_symbol_architecture_names_exists():
    from zhuose.cli import main as cli_module
    from zhuose.compiler import backends, ir, source, workspace
    from zhuose.compiler.backends.msl import fragments
    from zhuose.compiler.syntax import lexer, parser
    assert isinstance(lexer.KEYWORDS, dict) and parser._Build and parser.ItemCache
    assert cli_module.COMMANDS and callable(source.decode_source) and source.SourceFile
    assert all(callable(getattr(ir, n)) for n in ("children", "walk", "literal_value"))
    assert hasattr(workspace.Workspace(ROOT / "samples"), "counters")
    assert list(__import__("inspect").signature(backends.translate).parameters) == ["ws", "path", "target", "options"]
    assert {"text", "entries", "diagnostics"} <= set(backends.Translation.__dataclass_fields__)
    for target in ("wgsl", "msl", "ptx"):
        module = __import__(f"zhuose.compiler.backends.{target}", fromlist=["translate"])
        assert list(__import__("inspect").signature(module.translate).parameters) == ["info", "options"]
    assert "金矩阵片序幕" in Path(fragments.__file__).read_text(encoding="utf-8")
    from zhuose.compiler.generate import Generator  # noqa: F401
    from zhuose.compiler.generate.lookup import Resolved, dependencies, find_high_level_import, package_of  # noqa
    from zhuose.compiler.generate.escape import string_value
    assert string_value("〘U+300F〙") == "』"
    from zhuose.compiler.packages import PackageIndex
    assert "self.problems" in Path(sys.modules[PackageIndex.__module__].__file__).read_text(encoding="utf-8")


MODULES = sorted(p.relative_to(ROOT).as_posix() for d in ("cli", "compiler", "server") for p in (ROOT / d).rglob("*.py")
                 if p.name not in ("__init__.py", "__main__.py"))


@pytest.mark.parametrize("module", MODULES)
def test_every_module_is_mentioned_in_architecture(module):
    text = doc("ARCHITECTURE.md")
    assert module in text or re.search(rf"`{re.escape(Path(module).name)}`", text)


# ---------------------------------------------------------------- samples/README.md


def test_samples_readme_names_existing_samples():
    text = doc("samples/README.md")
    table = text.split("## The compute kernels")[1]
    names = set()
    for cell in re.findall(r"^\| ([^|]+) \|", table, re.M):
        names.update(re.findall(r"`([^`/]+)`", cell))
    names.update(re.findall(r"`([^`]+)`", table.split("The render samples")[1].split("cover")[0]))
    names.discard("包甲/主")
    assert len(names) > 30
    for n in names:
        assert (ROOT / "samples" / f"{n}。着色器。豫").exists(), n
    assert (ROOT / "samples/包甲/主。着色器。豫").exists()
    for path in ("空。着色器。豫", "包乙/类型。着色器。接口。豫", "错误/未声明依赖/别包/工具。着色器。豫"):
        assert (ROOT / "samples" / path).exists(), path
    assert list((ROOT / "samples/错误").glob("非法编码*"))


def test_each_compute_sample_states_its_numpy_reference():
    says("samples/README.md", "and the NumPy expression it must agree with")
    missing = []
    for path in sorted((ROOT / "samples").glob("*。着色器。豫")):
        text = path.read_text(encoding="utf-8")
        if "「计算入口项」" in text:
            first = re.match(r"\s*「：(.*?)：」", text, re.S)
            if not first or "NumPy" not in first.group(1):
                missing.append(path.name)
    assert missing == []


def test_vscode_package_name_matches_readme():
    says("README.md", "`zhuose-0.1.0.vsix`")
    package = json.loads((ROOT / "editors/vscode/package.json").read_text(encoding="utf-8"))
    assert (package["name"], package["version"]) == ("zhuose", "0.1.0")


# ---------------------------------------------------------------- (5) README's benchmarks


@pytest.mark.parametrize("script, args", [
    ("bench_frontend.py", ["--行数", "60", "--次数", "2"]),
    ("bench_server.py", ["--行数", "60", "--次数", "2"]),
    ("bench_generate.py", ["--help"]),
    ("bench_integrations.py", ["--help"]),
    ("bench_interp.py", ["--元素数", "4096", "--次数", "1"]),
])
def test_readme_benchmarks_exist_and_start(script, args):
    says("README.md", f"`python bench/{script}`")
    p = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT, capture_output=True,
                       text=True, encoding="utf-8", timeout=120)
    assert p.returncode == 0 and p.stdout.strip() and "Traceback" not in p.stderr, p.stderr[-2000:]


def test_bench_generate_imports_the_tree_it_describes():
    says("README.md", "生成 200 个模块的包（40 个库、160 个内核）")
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_generate
    finally:
        sys.path.remove(str(ROOT / "bench"))
    assert callable(bench_generate.main) and callable(bench_generate.make_tree)
