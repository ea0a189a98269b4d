"""The formatter (`着色器 格式化`, LSP formatting).

What it must keep is checked independently of how it lays text out: the
token and comment sequence, and the checked IR (a structural dump that
ignores spans, tests/support/formatting.py) of the formatted text against the
original's — on every sample and on hypothesis-generated layouts and
programs.  Idempotence: format(format(x)) == format(x).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.formatting import ir_dump
from support.frontend import PRELUDE, SEED_DOUBLE
from zhuose.compiler.source import SourceFile
from zhuose.compiler.syntax.format import format_text
from zhuose.compiler.syntax.lexer import Comment, Token, iter_lex
from zhuose.compiler.workspace import Workspace
from zhuose.server.formatting import formatting_edits

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CLEAN = sorted(p for p in SAMPLES.rglob("*。着色器。豫") if "错误" not in p.relative_to(SAMPLES).parts)
#: samples that align record fields under their 【 by hand: formatting only re-indents them
HAND_ALIGNED = {"包甲/主。着色器。豫", "顺序统计。着色器。豫"}


def formatted(text: str) -> str:
    result = format_text(text)
    assert result.text is not None, result.problems
    return result.text


def checked_dump(root: Path, rel: str, text: str | None = None):
    ws = Workspace(root)
    if text is not None:
        ws.set_document(str(root / rel), text)
    checked = ws.check(str(root / rel))
    assert not [d for d in checked.diagnostics if d.severity == "错误"], checked.diagnostics
    return ir_dump(checked.module)


def pieces(text: str) -> list[tuple[str, str]]:
    return [("注释", x.text) if isinstance(x, Comment) else (x.type, x.value) for x in iter_lex(text)]


# ---------------------------------------------------------------- samples


@pytest.mark.parametrize("sample", CLEAN, ids=lambda p: p.relative_to(SAMPLES).as_posix())
def test_every_sample_formats_to_a_fixed_point_with_the_same_checked_ir(sample: Path) -> None:
    rel = sample.relative_to(SAMPLES).as_posix()
    text = sample.read_text(encoding="utf-8")
    once = formatted(text)
    assert formatted(once) == once
    assert pieces(once) == pieces(text)
    assert checked_dump(SAMPLES, rel, once) == checked_dump(SAMPLES, rel)
    if rel in HAND_ALIGNED:     # only leading full-width spaces differ
        assert [l.lstrip("\u3000") for l in once.splitlines()] == [l.lstrip("\u3000") for l in text.splitlines()]
        assert once != text
    else:                       # the samples are written in the canonical layout
        assert once == text


# ---------------------------------------------------------------- layout rules

MESSY = PRELUDE + """「：头注释：」
「数据」乃「存储缓冲」于（「数组」于「无三二」）也 。「数据」者「绑定」于（「组值」【「组」者「零」也，
「号」者「零」也
，「访问」者「读写」也】）也。



「加倍」乃化「全局调用号」为「有」者也。「：行尾注释「：嵌套：」：」
「加倍」者得「号」而
        令「序」为「号」中「零」而
令「值」为
「读数组」于「数据」于「序」而   「：中间的注释
　占两行：」
    若「值」大于（「新无三二」于「九」）
  则「写数组」于「数据」于「序」于「值」
     否则（
「写数组」于「数据」于「序」于（「值」乘（「新无三二」于「二」））；
「写数组」于「数据」于「序」于「值」
）
也。
「加倍入口」乃「计算入口」也。
「加倍入口」者「计算入口项」于「加倍」于（「组值」【「工作组大小」者「四」也】）也。
"""

MESSY_FORMATTED = PRELUDE + """「：头注释：」
「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，
　「号」者「零」也，「访问」者「读写」也】）也。

「加倍」乃化「全局调用号」为「有」者也。「：行尾注释「：嵌套：」：」
「加倍」者得「号」而
　令「序」为「号」中「零」而
　令「值」为
　　「读数组」于「数据」于「序」而 「：中间的注释
　占两行：」
　若「值」大于（「新无三二」于「九」）
　则「写数组」于「数据」于「序」于「值」
　否则（
　　「写数组」于「数据」于「序」于（「值」乘（「新无三二」于「二」））；
　　「写数组」于「数据」于「序」于「值」
　）
也。
「加倍入口」乃「计算入口」也。
「加倍入口」者「计算入口项」于「加倍」于（「组值」【「工作组大小」者「四」也】）也。
"""


def test_a_messy_file_gets_the_canonical_layout_written_out_by_hand() -> None:
    """Expected text written by hand from the rules in the module docstring:
    indentation by nesting, 。，； glued to the line before, a new item on a
    new line, one blank line at most, comments verbatim."""
    assert formatted(MESSY) == MESSY_FORMATTED
    assert formatted(MESSY_FORMATTED) == MESSY_FORMATTED


LET_BODY_IN_A_BRANCH = """「步」者得「i」而
　若「i」小于「n」则
　　令「p」为「读数组」于「群」于「i」而
　　「写数组」于「群」于「i」于「p」；
　　「原子加」于「计」于「i」于「p」；
　　「元」
也。
"""


def test_a_let_body_in_a_branch_keeps_its_semicolon_statements_in_the_branch() -> None:
    """着八: 若 c 则 令 x 为 v 而 a；b is 若 c 则 (令 x 为 v 而 (a；b)) — the 令's body takes
    the ；, so the statements after it stay under the 则 (they run only when c holds)."""
    assert formatted(LET_BODY_IN_A_BRANCH) == LET_BODY_IN_A_BRANCH
    flat = LET_BODY_IN_A_BRANCH.replace("\u3000", "")
    assert formatted(flat) == LET_BODY_IN_A_BRANCH
    plain = "「步」者得「c」而\n　若「c」则「甲」于「a」；\n　「乙」于「b」\n也。\n"     # 若 c 则 a；b is (若 c 则 a)；b
    assert formatted(plain) == plain


def test_comments_survive_in_order_with_their_text(tmp_path: Path) -> None:
    out = formatted(MESSY)
    assert [t for k, t in pieces(out) if k == "注释"] == [t for k, t in pieces(MESSY) if k == "注释"]
    (tmp_path / "包.json").write_text('{"名": "试", "依赖": ["点染"]}', encoding="utf-8")
    (tmp_path / "测。着色器。豫").write_text(MESSY, encoding="utf-8")
    assert checked_dump(tmp_path, "测。着色器。豫", out) == checked_dump(tmp_path, "测。着色器。豫")


def test_a_file_with_syntax_errors_is_refused_with_its_errors() -> None:
    result = format_text(PRELUDE + "「甲」者（「新无三二」于「一」也。\n")
    assert result.text is None
    assert result.problems and result.problems[0].definition == "甲"
    assert "语法错误" in result.problems[0].message


def test_empty_and_blank_files() -> None:
    assert formatted("") == ""
    assert formatted("\n\n\u3000\n") == ""


# ---------------------------------------------------------------- hypothesis

BODY = SEED_DOUBLE
GAPS = ["", " ", "\n", "\n\n\n", "\n\u3000\u3000\u3000", "\t", "「：注：」", "\n「：甲\n乙：」\n"]


@pytest.fixture(scope="module")
def seed_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fmt")
    (root / "包.json").write_text('{"名": "试", "依赖": ["点染"]}', encoding="utf-8")
    (root / "测。着色器。豫").write_text(BODY, encoding="utf-8")
    return root


def relaid(text: str, gaps: list[str]) -> str:
    """The same tokens with the drawn whitespace or comment between each two."""
    toks = [t for t in iter_lex(text) if isinstance(t, Token)]
    return "".join(t.value + gaps[i % len(gaps)] for i, t in enumerate(toks))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(GAPS), min_size=1, max_size=80))
def test_any_layout_of_a_program_formats_idempotently_to_the_same_ir(seed_root, gaps) -> None:
    text = relaid(BODY, gaps)
    once = formatted(text)
    assert formatted(once) == once
    assert pieces(once) == pieces(text)
    assert checked_dump(seed_root, "测。着色器。豫", once) == checked_dump(seed_root, "测。着色器。豫", text)


def expressions(depth: int):
    """無三二 expressions over 「x」: literals, operators, 若, 令 and 得-bodies called at once."""
    leaf = st.sampled_from(["「x」", "（「新无三二」于「三」）", "（「新无三二」于「一」）"])
    if depth == 0:
        return leaf
    sub = expressions(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["加", "乘", "减", "按位与", "左移"]), sub).map(lambda t: f"（{t[0]}{t[1]}{t[2]}）"),
        st.tuples(sub, sub, sub).map(lambda t: f"（若{t[0]}小于{t[1]}\n则{t[1]}\n否则{t[2]}）"),
        st.tuples(sub, sub).map(lambda t: f"（令「y」为{t[0]}而\n{t[1]}加「y」）"),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(expressions(3), st.lists(st.sampled_from(GAPS[:6]), min_size=1, max_size=30))
def test_generated_programs_keep_their_checked_ir(tmp_path_factory, expr, gaps) -> None:
    root = tmp_path_factory.mktemp("gen")
    (root / "包.json").write_text('{"名": "试", "依赖": ["点染"]}', encoding="utf-8")
    program = PRELUDE + relaid("「函」乃化「无三二」为「无三二」者也。\n「函」者得「x」而\n" + expr + "\n也。\n", gaps)
    (root / "测。着色器。豫").write_text(program, encoding="utf-8")
    once = formatted(program)
    assert formatted(once) == once
    assert checked_dump(root, "测。着色器。豫", once) == checked_dump(root, "测。着色器。豫")


# ---------------------------------------------------------------- command line


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env=env)


def test_cli_checks_then_formats_in_place(tmp_path: Path) -> None:
    path = tmp_path / "测。着色器。豫"
    path.write_text(MESSY, encoding="utf-8")
    r = cli("格式化", "--检查", path.name, cwd=tmp_path)
    assert (r.returncode, r.stdout) == (1, f"{path.name}\t需要格式化\n")
    assert path.read_text(encoding="utf-8") == MESSY
    r = cli("格式化", path.name, cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, f"{path.name}\t已格式化\n")
    assert path.read_text(encoding="utf-8") == MESSY_FORMATTED
    r = cli("format", "--check", path.name, cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, "")
    r = cli("格式化", path.name, cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, f"{path.name}\t未改动\n")


def test_cli_leaves_a_file_with_syntax_errors_untouched(tmp_path: Path) -> None:
    path = tmp_path / "坏。着色器。豫"
    text = PRELUDE + "「甲」者（「新无三二」于「一」也。\n"
    path.write_text(text, encoding="utf-8")
    r = cli("格式化", path.name, cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith(f"{path.name}:2:") and "在「甲」中：语法错误" in r.stderr and "未格式化" in r.stderr
    assert path.read_text(encoding="utf-8") == text
    assert cli("格式化", "无此文件。着色器。豫", cwd=tmp_path).returncode == 2


# ---------------------------------------------------------------- language server


def applied(text: str, edits) -> str:
    source = SourceFile("x", text)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = source.offset(e.range.start.line, e.range.start.character), source.offset(
            e.range.end.line, e.range.end.character)
        text = text[:start] + e.new_text + text[end:]
    return text


def test_document_formatting_edits_give_the_formatted_text() -> None:
    edits = formatting_edits(SourceFile("x", MESSY))
    assert edits and applied(MESSY, edits) == MESSY_FORMATTED
    assert formatting_edits(SourceFile("x", MESSY_FORMATTED)) == []
    assert formatting_edits(SourceFile("x", PRELUDE + "「甲」者（也。\n")) == []


def test_range_formatting_touches_only_lines_in_the_range() -> None:
    lines = MESSY.split("\n")
    first = next(i for i, l in enumerate(lines) if "令「序」" in l)
    edits = formatting_edits(SourceFile("x", MESSY), first, first)
    assert edits and all(e.range.start.line <= first <= e.range.end.line for e in edits)
    out = applied(MESSY, edits).split("\n")
    assert out[first] == "\u3000令「序」为「号」中「零」而"
    assert out[:first] == lines[:first] and out[first + 1:] == lines[first + 1:]
