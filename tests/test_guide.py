"""Every example of docs/指南.md, run as the guide says (its opening section
explains the block labels):

- `豫 程序 文件` — a whole program: checked clean, translated to WGSL, naga
  accepts it (tests/support/wgpu_device.validate);
- `豫 片段` — top-level items after the import line: checked clean;
- `豫 表达式 「类型」` — an expression of that type: checked clean;
- `豫 错误 标记 [文件]` — a deliberate mistake: exactly one message, whose code
  is (or starts with) the marker, or whose text contains it;
- `json 文件 路径` / `豫 文件 路径` — the files of the package example: every
  shader source in it checks clean and translates;
- `text 消息` after a mistake — that mistake's message, exactly;
- `wgsl 译文 文件`, `text 入口表 文件` — what `译` prints for that program;
- `sh 运行 文件` followed by `text 输出` — the command's standard output.

And docs/ stands alone: no page points at a file outside the repository."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.frontend import PRELUDE, write
from support.wgpu_device import adapter_info, validate
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "指南.md"
BLOCK = re.compile(r"^```([^\n`]*)\n(.*?)^```$", re.S | re.M)


def blocks() -> list[tuple[str, list[str], str]]:
    """(language, label words, body) of every fenced block of the guide."""
    out = []
    for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8")):
        words = m.group(1).split()
        out.append((words[0] if words else "", words[1:], m.group(2)))
    return out


def labelled(kind: str) -> list[tuple[list[str], str]]:
    return [(words[1:], body) for lang, words, body in blocks() if words and words[0] == kind]


def ids(cases) -> list[str]:
    return [f"{i}:{body.splitlines()[0][:24]}" for i, (_, body) in enumerate(cases)]


def diagnostics(root: Path, name: str, text: str | None = None, files: dict | None = None):
    write(root, {**(files or {}), **({name: text} if text is not None else {})})
    ws = Workspace(root)
    return ws, ws.diagnostics(root / name)


def shown(ws, diags) -> list[str]:
    return [d.format(ws.source(d.path)) for d in diags]


def wgsl_of(tmp_path: Path, name: str, text: str) -> str:
    ws, diags = diagnostics(tmp_path, name, text)
    assert diags == [], shown(ws, diags)
    result = translate(ws, tmp_path / name, "wgsl")
    assert result.diagnostics == [] and result.text, shown(ws, result.diagnostics)
    return result


def programs() -> dict[str, str]:
    """The last program of each file name (a later block is the one the text builds on)."""
    return {words[0]: body for words, body in labelled("程序")}


def package_files() -> dict[str, str]:
    return {words[0]: body for words, body in labelled("文件")}


# ---------------------------------------------------------------- the guide has what it promises


def test_the_guide_has_examples_of_every_kind():
    kinds = {words[0] for _, words, _ in blocks() if words}
    assert {"程序", "片段", "表达式", "错误", "文件", "译文", "入口表", "运行", "输出"} <= kinds
    body = GUIDE.read_text(encoding="utf-8")
    for topic in ("令", "得", "又得", "若", "否则", "中", "于", "以", "与", "；", "也", "「一六」", "0x", "「：",
                  "优先级", "局部递归", "二维派发", "归约", "扫描", "半精度", "渲染", "包.json"):
        assert topic in body, topic


PROGRAMS = labelled("程序")


@pytest.mark.parametrize("words, body", PROGRAMS, ids=ids(PROGRAMS))
def test_every_program_checks_and_translates_to_wgsl_naga_accepts(tmp_path, words, body):
    result = wgsl_of(tmp_path, words[0], body)
    validate(result.text)


FRAGMENTS = labelled("片段")


@pytest.mark.parametrize("words, body", FRAGMENTS, ids=ids(FRAGMENTS))
def test_every_fragment_checks(tmp_path, words, body):
    ws, diags = diagnostics(tmp_path, "例。着色器。豫", PRELUDE + body)
    assert diags == [], shown(ws, diags)


EXPRESSIONS = labelled("表达式")


@pytest.mark.parametrize("words, body", EXPRESSIONS, ids=ids(EXPRESSIONS))
def test_every_expression_has_its_type(tmp_path, words, body):
    text = PRELUDE + f"「例」乃{words[0]}也。\n「例」者 {body.strip()} 也。\n"
    ws, diags = diagnostics(tmp_path, "例。着色器。豫", text)
    assert diags == [], shown(ws, diags)


MISTAKES = labelled("错误")


@pytest.mark.parametrize("words, body", MISTAKES, ids=ids(MISTAKES))
def test_every_deliberate_mistake_is_one_message_of_its_code(tmp_path, words, body):
    marker, name = words[0], (words[1] if len(words) > 1 else "例。着色器。豫")
    files = package_files() if len(words) > 1 else {}
    ws, diags = diagnostics(tmp_path, name, PRELUDE + body, files)
    assert len(diags) == 1, shown(ws, diags)
    (d,) = diags
    assert d.code == marker or (d.code and d.code.startswith(marker)) or marker in d.message, shown(ws, diags)
    quoted = MESSAGES.get(body)
    assert quoted is None or d.full_message() == quoted.strip()


def quoted_messages() -> dict[str, str]:
    """The 错误 block each `text 消息` block follows, and the message it shows."""
    all_blocks = blocks()
    return {before[2]: body for before, (lang, words, body) in zip(all_blocks, all_blocks[1:])
            if words[:1] == ["消息"] and before[1][:1] == ["错误"]}


MESSAGES = quoted_messages()


def test_every_message_shown_follows_its_mistake():
    assert len(MESSAGES) == sum(1 for _, words, _ in blocks() if words[:1] == ["消息"]) >= 2


def test_the_package_example_checks_and_translates(tmp_path):
    files = package_files()
    assert any(p.endswith("包.json") for p in files) and len(files) >= 4
    write(tmp_path, files)
    ws = Workspace(tmp_path)
    for name in files:
        if name.endswith("。着色器。豫"):
            assert ws.diagnostics(tmp_path / name) == [], shown(ws, ws.diagnostics(tmp_path / name))
            result = translate(ws, tmp_path / name, "wgsl")
            assert result.diagnostics == []
            if result.text:
                validate(result.text)


# ---------------------------------------------------------------- outputs the guide shows


def test_the_wgsl_shown_is_what_yi_prints(tmp_path):
    shown_texts = labelled("译文")
    assert shown_texts
    for words, body in shown_texts:
        result = wgsl_of(tmp_path, words[0], programs()[words[0]])
        assert result.text == body


def test_the_entry_table_shown_is_what_yi_prints(tmp_path):
    for words, body in labelled("入口表"):
        write(tmp_path, {words[0]: programs()[words[0]]})
        done = cli(tmp_path, "译", words[0])
        assert done.returncode == 0 and done.stderr == body


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)


def runs() -> list[tuple[str, str, str]]:
    """(file, command line, the output block after it) of every 运行 example."""
    out, all_blocks = [], blocks()
    for (lang, words, body), after in zip(all_blocks, all_blocks[1:] + [("", [], "")]):
        if words[:1] == ["运行"]:
            assert after[1][:1] == ["输出"], f"运行 {words[1]} 后面没有输出块"
            out.append((words[1], body.strip(), after[2]))
    return out


RUNS = runs()


@pytest.mark.parametrize("name, command, output", RUNS, ids=[r[0] for r in RUNS])
def test_every_run_prints_what_the_guide_shows(tmp_path, name, command, output):
    adapter_info()      # skips (or fails on CI) without a WebGPU adapter, like every wgpu test
    write(tmp_path, {name: programs()[name]})
    words = command.split()
    assert words[0] == "着色器"
    done = cli(tmp_path, *words[1:])
    assert (done.returncode, done.stdout) == (0, output), done.stderr


# ---------------------------------------------------------------- docs/ stands alone


#: the specification files and paths out of the checkout (种子 alone is also a random seed: 调度种子)
OUTSIDE = re.compile(r"LANGUAGE\.md|\bseeds?\b|种子(?:文本|原文|着|的|：)|/work/|\.\./|shared/spec")


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md")))
def test_docs_point_at_nothing_outside_the_repository(page):
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert not OUTSIDE.findall(text), OUTSIDE.findall(text)
    for link in re.findall(r"`((?:docs|compiler|server|tests|samples|editors)/[^`\s]*)`", text):
        if not re.search(r"[|*…]", link):
            assert (ROOT / link.split("（")[0]).exists(), link


def test_the_readme_links_to_the_guide():
    assert "docs/指南.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_number_table_gives_what_the_lexer_reads():
    from zhuose.compiler.syntax.parser import number_value
    text = GUIDE.read_text(encoding="utf-8")
    table = text[text.index("| 写法 | 值 | 类型 |"):]
    rows = [line.split("|")[1:4] for line in table.splitlines()[2:] if line.startswith("| 「")]
    assert len(rows) >= 5
    for written, values, kind in rows:
        names = re.findall(r"「([^」]+)」", written)
        values = [float(v) for v in values.strip().split("、")]
        values = values * len(names) if len(values) == 1 else values
        assert len(values) == len(names), written
        for name, value in zip(names, values):
            assert number_value(name) == (value, kind.strip() == "小数"), name
