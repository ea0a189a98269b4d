"""Broken programs and error recovery as an editor sees them.

A user types programs from LANGUAGE.md and makes typical mistakes.  For each
mistake: the broken item gets a syntax error at the mistake (行:列, UTF-16
columns too), in Chinese, saying what was expected (no lark token names); the
items after it still parse and type-check (their own errors are still
reported, the names they define are still known); no message is repeated; and
`着色器 检查` never prints a traceback.  Import errors follow seed 着二.  The
incremental parser gives the same diagnostics after single-character edits as
a parse from scratch.

Each case states the CORRECT expectation; where the toolchain falls short today
the case is a strict xfail whose reason starts with BUG."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.frontend import PRELUDE, messages, write
from support.mistakes import BROKEN_FILES, FN, RECOVERY, TAIL
from zhuose.compiler.syntax.parser import ItemCache, parse_file
from zhuose.compiler.workspace import Workspace

# a later, well-formed function with its own type error: it must still be reported
TAIL_ERROR = "在「h」中：未知的名字「未」"

# lark's own vocabulary must never reach the user
LARK_WORDS = re.compile(r"(?<![A-Za-z])(NAME|PERIOD|RPAR|LPAR|RBRACK|LBRACK|YE|DEF|SIG|SEMI|ELSE|THEN|ER|WEI|STRING|APPLY)"
                        r"(?![A-Za-z])|\$END|Token|Unexpected|Traceback|expected")


def tail_line(text: str) -> int:
    """The line (without the prelude) of 「未」 in TAIL appended to text."""
    return text.count("\n") + 2


def check_recovery(tmp_path, broken: str, at: str, *fragments: str, tail: bool = True) -> list[str]:
    """`broken` (which follows FN) gets a message at `at` holding every
    fragment ('甲|乙' accepts either); TAIL's own error is still reported; no
    message repeats and none uses lark's words."""
    text = FN + broken + ("\n" if not broken.endswith("\n") else "")
    msgs = messages(tmp_path, text + (TAIL if tail else ""))
    assert msgs, "a broken program must get a message"
    hits = [m for m in msgs if m.startswith(at + ":")]
    assert hits, msgs
    first = hits[0]
    for frag in fragments:
        assert any(f in first for f in frag.split("|")), (frag, msgs)
    assert len(set(msgs)) == len(msgs), msgs
    for m in msgs:
        assert not LARK_WORDS.search(_outside_names(m)), m
    if tail:
        assert f"{tail_line(text)}:14: {TAIL_ERROR}" in msgs, msgs
    return msgs


def _outside_names(message: str) -> str:
    """The message without the names it quotes (a user name may be ASCII)."""
    return re.sub(r"「[^「」]*」", "", message)


# ---------------------------------------------------------------- one mistake, then a good item

@pytest.mark.parametrize("broken,at,fragments", [pytest.param(b, a, f, id=n) for n, b, a, *f in RECOVERY])
def test_a_broken_item_is_reported_and_later_items_still_check(tmp_path, broken, at, fragments):
    check_recovery(tmp_path, broken, at, *fragments)


def test_an_unclosed_comment_is_reported_at_its_opening(tmp_path):
    """「： … with no ：」 runs to the end of the file (comments nest and span lines,
    LANGUAGE.md §2): one message, at the opening, saying what closes it."""
    msgs = messages(tmp_path, FN + "「g」者得「i」而「：说明「i」也。\n" + TAIL)
    assert msgs == ["2:10: 在「g」中：注释没有结束：缺少与此「：对应的「：」」"]


def test_a_closed_comment_between_items_costs_nothing(tmp_path):
    assert messages(tmp_path, FN + "「：甲「：嵌套：」乙：」「g」者得「i」而「i」也。\n" + TAIL) == [f"4:14: {TAIL_ERROR}"]


def test_a_broken_definition_still_defines_its_name(tmp_path):
    """The callers of a definition that does not parse get no 「未知的名字」."""
    msgs = messages(tmp_path, "「f」乃化「无三二」为「无三二」者也。\n「f」者得「x」而（「x」也。\n" + TAIL.replace("「i」加「未」", "「f」于「i」加「未」"))
    assert msgs == ["2:15: 在「f」中：语法错误：项在「。」处提前结束，此处应为「）」", "4:18: " + TAIL_ERROR]


def test_a_broken_signature_leaves_its_definition_alone(tmp_path):
    msgs = messages(tmp_path, "「f」乃化「无三二」为者也。\n「f」者得「x」而「x」也。\n"
                    "「h」乃化「无三二」为「无三二」者也。\n「h」者得「i」而「f」于「i」也。\n")
    assert len(msgs) == 1 and msgs[0].startswith("1:12: 在「f」中：语法错误：此处不应出现「者」")


def test_a_type_where_an_expression_belongs(tmp_path):
    check_recovery(tmp_path, "「g」者得「i」而「i」加「无三二」也。", "2:14", "「无三二」是类型")


def test_an_expression_where_a_type_belongs(tmp_path):
    msgs = check_recovery(tmp_path, "「c」乃「新无三二」于「一」也。\n「c」者「新无三二」于「一」也。", "2:5", "「新无三二」")
    assert not any("「c」只有签名" in m for m in msgs), msgs


def test_full_stop_on_the_next_line_is_still_one_item(tmp_path):
    assert messages(tmp_path, FN + "「g」者得「i」而「i」也\n。\n" + TAIL) == [f"5:14: {TAIL_ERROR}"]


def test_utf16_columns_count_astral_characters_twice(tmp_path):
    text = PRELUDE + "「𠀀」乃化「无三二」为「无三二」者也。\n「𠀀」者得「𠀁」而（「𠀁」加「未」也。\n" + TAIL
    write(tmp_path, {"测。着色器。豫": text})
    ws = Workspace(tmp_path)
    path = tmp_path / "测。着色器。豫"
    diags = sorted(ws.diagnostics(path), key=lambda d: d.start)
    src = ws.source(path)
    first = src.position(diags[0].start)
    # 「𠀀」者得「𠀁」而（「𠀁」加「未」也。 : the 。 is character 18 (from 0), UTF-16 unit 21
    assert (first.line, first.column, first.column_utf16) == (2, 18, 21)
    assert src.text[diags[0].start] == "。"
    assert src.offset(2, 21) == diags[0].start
    assert diags[0].format(src, "测").startswith("测:3:19: 在「𠀀」中：")
    assert any(d.message == "未知的名字「未」" for d in diags)


# ---------------------------------------------------------------- bugs found (strict xfail)

def test_ascii_period_does_not_swallow_the_next_item(tmp_path):
    msgs = messages(tmp_path, FN + "「g」者得「i」而「i」也.\n" + TAIL)
    assert msgs == ["2:14: 在「g」中：无法识别的文字「.」：是不是全角的「。」？", f"4:14: {TAIL_ERROR}"]


def test_ascii_comma_at_item_end_does_not_swallow_the_next_item(tmp_path):
    msgs = messages(tmp_path, FN + "「g」者得「i」而「i」也,\n" + TAIL)
    assert not any("缺少签名" in m for m in msgs), msgs
    assert f"4:14: {TAIL_ERROR}" in msgs


def test_items_glued_without_full_stop_are_recovered(tmp_path):
    msgs = messages(tmp_path, FN + "「g」者得「i」而「i」也" + TAIL)
    assert msgs[0].startswith("2:14: 在「g」中：") and "「。」" in msgs[0], msgs
    assert not any("缺少签名" in m for m in msgs), msgs
    assert f"3:14: {TAIL_ERROR}" in msgs


def test_an_indented_item_after_a_missing_full_stop_is_recovered(tmp_path):
    msgs = messages(tmp_path, FN + "「g」者得「i」而「i」也\n\u3000" + TAIL)
    assert not any("缺少签名" in m for m in msgs), msgs
    assert f"4:14: {TAIL_ERROR}" in msgs


@pytest.mark.parametrize("text", ["「g」者得「i」而若「i」小于\n", "「g」者得「i」而若「i」小于\n" + TAIL,
                                  "「g」者得「i」而「i」\n" + TAIL], ids=["at_file_end", "before_next_item", "no_ye"])
def test_an_unfinished_item_is_not_said_to_end_at_a_full_stop(tmp_path, text):
    msgs = messages(tmp_path, FN + text)
    assert "没有写完" in msgs[0] and "「。」处" not in msgs[0], msgs


def test_a_broken_type_definition_still_defines_its_name(tmp_path):
    msgs = messages(tmp_path, "「T」即「组类」【「a」乃「无三二」也，「b」乃 也】也。\n"
                    "「h」乃化「T」为「无三二」者也。\n「h」者得「t」而「t」中「a」加「未」也。\n")
    assert len(msgs) == 2 and msgs[0].startswith("1:26: 在「T」中：语法错误"), msgs
    assert msgs[1] == "3:18: 在「h」中：未知的名字「未」"


def test_keyword_ye_in_brackets_is_explained(tmp_path):
    msgs = messages(tmp_path, "「c」者「一」「也」。\n「d」者「二」也。\n")
    assert len(msgs) == 1 and msgs[0].startswith("1:8:") and "关键字" in msgs[0], msgs


@pytest.mark.parametrize("body", ["「若」「i」小于「i」则「i」否则「i」", "「令」「j」为「i」而「j」"], ids=["ruo", "ling"])
def test_keyword_in_brackets_is_reported_at_the_keyword(tmp_path, body):
    msgs = messages(tmp_path, FN + f"「g」者得「i」而{body}也。\n")
    assert msgs[0].startswith("2:10:") and "关键字" in msgs[0], msgs


def test_a_name_with_a_line_break_gets_one_message(tmp_path):
    msgs = messages(tmp_path, FN + "「g」者得「i」而「i」加「i\nj」也。\n" + TAIL)
    assert msgs == ["2:14: 在「g」中：名字不能跨行：「与」之间有换行", f"5:14: {TAIL_ERROR}"]


def test_full_width_digits_get_a_hint(tmp_path):
    msgs = messages(tmp_path, "「c」乃「无三二」也。\n「c」者「新无三二」于「１２」也。\n")
    assert len(msgs) == 1 and msgs[0].startswith("2:12:") and "全角" in msgs[0], msgs


def test_expected_lists_do_not_show_a_category_as_a_name(tmp_path):
    msgs = messages(tmp_path, FN + "「g」者化「无三二」为「无三二」者也。\n")
    assert "「字符串」" not in msgs[0], msgs


# ---------------------------------------------------------------- imports (seed 着二)

MANIFEST = '{"名": "试", "依赖": ["点染"]}'
NOT_FOUND = "包内模块不存在：{}（着色文件只能导入着色源「名。着色器。豫」与着色内建声明「名。着色器。接口。豫」）"


def ws_messages(root: Path, name: str) -> list[tuple[str, str]]:
    ws = Workspace(root)
    out = []
    for d in ws.diagnostics(root / name):
        src = ws.source(d.path)
        out.append((d.format(src, Path(d.path).name), d.message))
    return out


@pytest.mark.parametrize("other", [None, "普。豫", "普。接口。豫", "普。应用接口。豫"],
                         ids=["missing", "ordinary", "interface", "app_interface"])
def test_import_of_a_missing_or_ordinary_module_uses_the_seed_message(tmp_path, other):
    files = {"包.json": MANIFEST, "主。着色器。豫": PRELUDE + "寻观「试」之「普」之书。\n「d」者「未」也。\n"}
    if other:
        files[other] = "「x」乃「整数」也。\n"
    write(tmp_path, files)
    got = ws_messages(tmp_path, "主。着色器。豫")
    # one message: 「未」 may be a name of the module that was not found, so it is not reported too
    assert got == [("主。着色器。豫:2:7: " + NOT_FOUND.format("「试」之「普」"), NOT_FOUND.format("「试」之「普」"))]


def test_import_of_an_undeclared_dependency_says_so(tmp_path):
    write(tmp_path, {"包.json": MANIFEST, "其/包.json": '{"名": "其他", "依赖": ["点染"]}',
                     "其/库。着色器。豫": PRELUDE + "「x」者「一」也。\n",
                     "主。着色器。豫": PRELUDE + "寻观「其他」之「库」之书。\n「d」者「未」也。\n"})
    got = [m for m, _ in ws_messages(tmp_path, "主。着色器。豫")]
    assert got[0].startswith("主。着色器。豫:2:3: ") and "没有声明依赖「其他」" in got[0] and "包.json" in got[0]
    # the module still resolves: its names are known, the unknown one is reported
    assert got[1:] == ["主。着色器。豫:3:5: 在「d」中：未知的名字「未」"], got


def test_a_name_of_an_undeclared_dependency_resolves_after_its_one_message(tmp_path):
    write(tmp_path, {"包.json": MANIFEST, "其/包.json": '{"名": "其他", "依赖": ["点染"]}',
                     "其/库。着色器。豫": PRELUDE + "「x」者「一」也。\n",
                     "主。着色器。豫": PRELUDE + "寻观「其他」之「库」之书。\n「d」者「x」也。\n「e」者「库」之「x」也。\n"})
    got = [m for m, _ in ws_messages(tmp_path, "主。着色器。豫")]
    assert len(got) == 1 and "没有声明依赖「其他」" in got[0], got


def test_an_import_cycle_is_reported_once_and_not_looped(tmp_path):
    write(tmp_path, {"包.json": MANIFEST,
                     "甲。着色器。豫": PRELUDE + "寻观「试」之「乙」之书。\n「a」者「一」也。\n「a2」者「b」也。\n",
                     "乙。着色器。豫": PRELUDE + "寻观「试」之「甲」之书。\n「b」者「二」也。\n「b3」者「未」也。\n"})
    ws = Workspace(tmp_path)
    for name in ["甲。着色器。豫", "乙。着色器。豫", "甲。着色器。豫"]:
        diags = ws.diagnostics(tmp_path / name)
        cycles = [d for d in diags if d.message.startswith("导入成环：")]
        assert len(cycles) == 1, [d.message for d in diags]
        assert "甲。着色器。豫" in cycles[0].message and "乙。着色器。豫" in cycles[0].message
        assert any(d.message == "未知的名字「未」" for d in diags)
        fresh = Workspace(tmp_path).diagnostics(tmp_path / name)
        assert [(d.path, d.start, d.message) for d in diags] == [(d.path, d.start, d.message) for d in fresh]


def test_a_self_import_is_a_cycle(tmp_path):
    write(tmp_path, {"包.json": MANIFEST, "甲。着色器。豫": PRELUDE + "寻观「试」之「甲」之书。\n「a」者「一」也。\n"})
    assert ws_messages(tmp_path, "甲。着色器。豫") == [
        ("甲。着色器。豫:2:1: 导入成环：甲。着色器。豫 → 甲。着色器。豫", "导入成环：甲。着色器。豫 → 甲。着色器。豫")]


def test_broken_import_lines_recover(tmp_path):
    write(tmp_path, {"包.json": MANIFEST, "库。着色器。豫": PRELUDE + "「x」者「新无三二」于「一」也。\n",
                     "主。着色器。豫": PRELUDE + "寻观「试」之「库」之书\n「d」者「x」加「未」也。\n"
                     "寻观「试」之\n观「试」之「别」之书。\n"})
    got = [m for m, _ in ws_messages(tmp_path, "主。着色器。豫")]
    assert "主。着色器。豫:2:12: 缺少「。」：每个顶层项以「。」结束" in got, got
    assert "主。着色器。豫:3:9: 在「d」中：未知的名字「未」" in got  # 「x」 is known: the import still works
    assert any(m.startswith("主。着色器。豫:4:") and "语法错误" in m for m in got), got
    assert any(m.startswith("主。着色器。豫:5:1: 「观」只能打开已导入的模块") for m in got), got
    assert len(set(got)) == len(got)


# ---------------------------------------------------------------- the command line

def run_cli(cwd, *args):
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd,
                       capture_output=True, text=True, encoding="utf-8")
    return p.returncode, p.stdout, p.stderr


CLI_FILES = {
    "甲。着色器。豫": PRELUDE + FN + "「g」者得「i」而（「i」加「i」也。\n" + TAIL,
    "乙。着色器。豫": PRELUDE + "「：没有关上\n「h」者「一」也。\n",
    "丙。着色器。豫": PRELUDE + "「𠀀」者「𠀁𠀂」加（「一」也。\n「c」者「未」也。\n「」者「一」也。\n",
    "丁。着色器。豫": PRELUDE + "寻观「试」之「无」之书。\n" + FN + "「g」者得「i」而若「i」小于",
}


def test_check_prints_file_line_column_messages_and_no_traceback(tmp_path):
    write(tmp_path, {"包.json": MANIFEST, **CLI_FILES})
    expected = {
        "甲。着色器。豫": ["甲。着色器。豫:3:19: 在「g」中：语法错误：项在「。」处提前结束，此处应为「）」",
                     "甲。着色器。豫:5:14: " + TAIL_ERROR],
        "乙。着色器。豫": ["乙。着色器。豫:2:1: 注释没有结束：缺少与此「：对应的「：」」"],
        "丙。着色器。豫": ["丙。着色器。豫:2:15: 在「𠀀」中：语法错误：项在「。」处提前结束，此处应为「）」",
                     "丙。着色器。豫:3:5: 在「c」中：未知的名字「未」",
                     "丙。着色器。豫:4:1: 名字不能为空：「」里至少要有一个字"],
    }
    for name, lines in expected.items():
        code, out, err = run_cli(tmp_path, "检查", name)
        assert (code, out) == (1, ""), err
        assert err.splitlines() == lines
    code, out, err = run_cli(tmp_path, "检查", "丁。着色器。豫")
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith("丁。着色器。豫:2:7: " + NOT_FOUND.format("「试」之「无」") + "\n")
    assert all(re.match(r"丁。着色器。豫:\d+:\d+: ", line) for line in err.splitlines())


def test_translate_of_a_broken_file_fails_cleanly(tmp_path):
    write(tmp_path, {"包.json": MANIFEST, **CLI_FILES})
    for command in ["译", "金属", "千手"]:
        code, out, err = run_cli(tmp_path, command, "甲。着色器。豫")
        assert code == 1 and out == "" and "Traceback" not in err
        assert "甲。着色器。豫:3:19: " in err


# ---------------------------------------------------------------- incremental re-parsing

EDIT_CHARS = ["。", "也", "「", "」", "（", "）", "【", "】", "「：", "：」", "\n", "，", "否则", "『", "x", "."]


def _diagnostic_key(ws: Workspace, path: Path):
    return [(d.path, d.start, d.end, d.message, d.definition) for d in ws.diagnostics(path)]


@pytest.mark.parametrize("index", range(len(BROKEN_FILES)))
def test_single_character_edits_give_the_same_diagnostics_as_a_fresh_parse(tmp_path, index):
    rnd = random.Random(1000 + index)
    text = BROKEN_FILES[index]
    path = tmp_path / "测。着色器。豫"
    write(tmp_path, {"测。着色器。豫": text})
    ws = Workspace(tmp_path)
    ws.diagnostics(path)
    for _ in range(25):
        i = rnd.randrange(len(text) + 1)
        if rnd.random() < 0.5 and i < len(text):
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + rnd.choice(EDIT_CHARS) + text[i:]
        ws.set_document(path, text)
        fresh = Workspace(tmp_path)
        fresh.set_document(path, text)
        got, want = _diagnostic_key(ws, path), _diagnostic_key(fresh, path)
        assert got == want, text
        assert len({(d[1], d[3]) for d in got}) == len(got), got  # no message repeated


@pytest.mark.parametrize("index", range(len(BROKEN_FILES)))
def test_typing_a_broken_file_character_by_character_parses_like_from_scratch(index):
    text = BROKEN_FILES[index]
    cache = ItemCache()
    old, old_text = None, None

    def key(pf):
        return ([(it.start, it.text, it.name, it.kind, [(e.start, e.end, e.message) for e in it.errors],
                  it.node is not None) for it in pf.items],
                [(c.start, c.end) for c in pf.comments], pf.ends, pf.sizes, pf.closed)

    steps = [text[:i] for i in range(len(text) + 1)]
    steps += [text[:j] + text[j + 1:] for j in range(len(text) - 1, -1, -7)]  # deletions from the end backwards
    for t in steps:
        new = parse_file(t, cache, old, old_text)
        assert key(new) == key(parse_file(t, ItemCache())), t
        old, old_text = new, t
