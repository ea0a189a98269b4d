"""Bad input never raises: it gets positioned Chinese messages (issue 2 §6),
and random bytes or token soups never crash the front end (hypothesis)."""

import random

import pytest

from hypothesis import HealthCheck, given, settings, strategies as st

from zhuose.compiler.syntax.lexer import KEYWORDS, PUNCTUATION
from zhuose.compiler.syntax.parser import ItemCache, parse_file
from zhuose.compiler.workspace import Workspace
from support.frontend import write

PRELUDE = "寻观「点染」之「点染本」之书。\n"


def check_file(root, name, content):
    write(root, {name: content})
    ws = Workspace(root)
    return ws, ws.diagnostics(root / name)


def test_invalid_utf8_is_reported_at_the_bad_byte(tmp_path):
    content = ("「甲」者「一」也。\n「乙」者『".encode() + b"\xff\xfe" + "』也。".encode())
    ws, diags = check_file(tmp_path, "坏。着色器。豫", content)
    bad = [d for d in diags if "UTF-8" in d.message]
    assert len(bad) == 1
    pos = ws.source(tmp_path / "坏。着色器。豫").position(bad[0].start)
    assert (pos.line, pos.column) == (1, 5)  # 「乙」者『 is five characters


def test_unterminated_name_and_comment(tmp_path):
    _, diags = check_file(tmp_path, "名。着色器。豫", PRELUDE + "「甲」者「一\n「乙」者「二」也。")
    assert any("名字没有结束" in d.message for d in diags)
    _, diags = check_file(tmp_path, "注。着色器。豫", PRELUDE + "「：没有结束\n「乙」者「二」也。")
    assert [d.message for d in diags] == ["注释没有结束：缺少与此「：对应的「：」」"]


def test_empty_and_blank_files_are_clean(tmp_path):
    assert check_file(tmp_path, "空。着色器。豫", "")[1] == []
    assert check_file(tmp_path, "白。着色器。豫", "\n　\n「：只有注释：」\n")[1] == []


def test_deep_nesting_is_an_error_not_a_crash(tmp_path):
    for body in ["（" * 20000 + "「一」" + "）" * 20000, "负" * 20000 + "「一」",
                 "令「y」为「一」而" * 5000 + "「y」"]:
        _, diags = check_file(tmp_path, "深。着色器。豫", PRELUDE + f"「甲」者{body}也。")
        assert len(diags) == 1 and "嵌套过深" in diags[0].message


def test_long_sequences_do_not_nest(tmp_path):
    body = "（「写格」于「格」于「一」）；" * 20000 + "「元」"
    text = PRELUDE + f"「甲」乃化「有」为「有」者也。\n「甲」者得「_」而 令「格」为「新格」于「零」而 {body}也。"
    assert check_file(tmp_path, "长。着色器。豫", text)[1] == []


def test_a_five_megabyte_file_is_checked(tmp_path):
    one = "「常{0}」乃「无三二」也。\n「常{0}」者「新无三二」于「{1}」也。\n"
    parts, size, i = [PRELUDE], 0, 0
    while size < 5_000_000:
        parts.append(one.format(i, i % 997))
        size += len(parts[-1].encode())
        i += 1
    parts.append("「坏」者「未知」也。\n")
    _, diags = check_file(tmp_path, "大。着色器。豫", "".join(parts))
    assert [d.message for d in diags] == ["未知的名字「未知」"]


TOKENS = list(KEYWORDS) + list(PUNCTUATION) + [
    "「甲」", "「乙」", "「一」", "「三点五」", "「新无三二」", "「读数组」", "「：注：」", "『串』",
    "「", "」", "「：", "：」", "『", " ", "\n", "x", "「组值」【", "「组类」【", "「点染」之「点染本」"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_never_crash(data):
    from zhuose.compiler.source import decode_source
    text, _ = decode_source(data)
    parse_file(text, ItemCache())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_random_token_soups_never_crash(tmp_path, tokens):
    write(tmp_path, {"汤。着色器。豫": PRELUDE + "".join(tokens)})
    ws = Workspace(tmp_path)
    for d in ws.diagnostics(tmp_path / "汤。着色器。豫"):
        assert d.message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=40), st.randoms(use_true_random=False))
def test_incremental_parse_equals_a_fresh_parse(tokens, rnd):
    """Re-lexing from an edit gives the same items as parsing from scratch."""
    base = ("「甲」者「一」也。\n「乙」乃化「无三二」为「无三二」者也。\n「乙」者得「x」而「x」也。\n"
            "「：注释。：」\n「丙」者「二」与「三」也。\n寻观「点染」之「点染本」之书。\n") * 3
    old = parse_file(base, ItemCache())
    at = rnd.randrange(len(base) + 1)
    cut = rnd.randrange(0, 8)
    new_text = base[:at] + "".join(tokens) + base[at + cut:]
    incremental = parse_file(new_text, ItemCache(), old, base)
    fresh = parse_file(new_text, ItemCache())
    shape = lambda f: [(i.start, i.text, i.name, [e.message for e in i.errors], i.doc) for i in f.items]  # noqa: E731
    assert shape(incremental) == shape(fresh)
    assert [(c.start, c.text) for c in incremental.comments] == [(c.start, c.text) for c in fresh.comments]
    assert [(i.start, i.text) for i in incremental.imports] == [(i.start, i.text) for i in fresh.imports]


def test_random_edits_of_a_real_file_keep_diagnostics_identical(tmp_path):
    """The incremental workspace answers exactly like a fresh one."""
    rnd = random.Random(7)
    text = PRELUDE + "".join(
        f"「f{i}」乃化「无三二」为「无三二」者也。\n「f{i}」者得「x」而「x」加（「新无三二」于「{i}」）也。\n" for i in range(30))
    write(tmp_path, {"改。着色器。豫": text})
    path = tmp_path / "改。着色器。豫"
    ws = Workspace(tmp_path)
    for _ in range(40):
        at = rnd.randrange(len(text))
        text = text[:at] + rnd.choice(["「一」", "加", "。", "也", "", "「：", "：」", "」"]) + text[at + rnd.randrange(3):]
        ws.set_document(path, text)
        got = [(d.start, d.message) for d in ws.diagnostics(path)]
        fresh = Workspace(tmp_path)
        fresh.set_document(path, text)
        assert got == [(d.start, d.message) for d in fresh.diagnostics(path)]


def test_long_operator_chains_are_an_error_not_a_crash(tmp_path):
    _, diags = check_file(tmp_path, "链。着色器。豫", PRELUDE + "「甲」者" + "「一」加" * 8000 + "「一」也。")
    assert len(diags) == 1 and "嵌套过深" in diags[0].message


@pytest.mark.parametrize("body", [
    "（" * 398 + "「新无三二」于「一」" + "）" * 398,
    "负" * 397 + "（「新整三二」于「一」）",
    "非" * 399 + "「阳」",
], ids=["parentheses", "negations", "nots"])
def test_nesting_just_under_the_documented_limit_is_a_program(tmp_path, body):
    """docs/语言.md: nesting is refused only beyond 400 levels, whatever the kind."""
    from zhuose.compiler.backends import translate
    path = tmp_path / "深。着色器。豫"
    path.write_text("寻观「点染」之「点染本」之书。\n「c」者" + body + "也。\n", encoding="utf-8")
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    for target in ("wgsl", "msl", "ptx"):
        assert translate(ws, path, target).diagnostics == [], target


def test_the_largest_f32_literal_is_accepted(tmp_path):
    """3.4028235e38 rounds to the largest f32 (docs/语言.md); one more ulp's worth is infinity."""
    path = tmp_path / "大。着色器。豫"
    path.write_text("寻观「点染」之「点染本」之书。\n「c」者「新浮三二」于「340282350000000000000000000000000000000」也。\n"
                    "「d」者「新浮三二」于「340282370000000000000000000000000000000」也。\n", encoding="utf-8")
    (error,) = Workspace(tmp_path).diagnostics(path)
    assert error.definition == "d" and "绝对值至多 3.4028235e38" in error.message
