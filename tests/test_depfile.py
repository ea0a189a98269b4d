"""Depfiles (`--输出`, `--依赖文件`, `-MD` on 译/金属/千手/生成; docs/生成.md):
Makefile syntax that Make and Ninja read back as the same paths, every file
the result depends on, written atomically and left alone when unchanged."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.frontend import PRELUDE, SEED_DOUBLE, write
from zhuose.compiler.generate import depfile
from zhuose.compiler.packages import builtin_interface_path

GEOMETRY = PRELUDE + """
「平方长」乃化「三维浮」为「浮三二」者也。
「平方长」者得「v」而「点积」于「v」于「v」也。
"""

MAIN = PRELUDE + """寻观「数学」之「几何」之「向量」之书。

「点」乃「存储缓冲」于（「数组」于「四维浮」）也。
「点」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「只读」也】）也。
「结果」乃「存储缓冲」于（「数组」于「浮三二」）也。
「结果」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。

「量」乃化「全局调用号」为「有」者也。
「量」者得「号」而
　令「序」为「号」中「零」而
　令「p」为「读数组」于「点」于「序」而
　「写数组」于「结果」于「序」于（「平方长」于（「p」中「零」与「p」中「一」与「p」中「二」））
也。

「量入口」乃「计算入口」也。
「量入口」者「计算入口项」于「量」于（「组值」【「工作组大小」者「六四」也】）也。
"""

#: two packages, the library's folder with a space in its name
TREE = {"数 学/包.json": '{"名": "数学", "依赖": ["点染"]}',
        "数 学/几何/向量。着色器。豫": GEOMETRY,
        "应用/包.json": '{"名": "应用", "依赖": ["点染", "数学"]}',
        "应用/主。着色器。豫": MAIN}


def run(cwd: Path, *args):
    env = dict(os.environ, ZHUOSE_CACHE_DIR=str(cwd / ".缓存"))
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd, env=env,
                       capture_output=True, text=True, encoding="utf-8")
    return p.returncode, p.stdout, p.stderr


def rule_of(text: str) -> tuple[str, list[str]]:
    """The first rule of a depfile read back: (target, dependencies), unescaped as Make reads them."""
    head = text.split("\n\n")[0].replace("\\\n", " ")
    target, _, deps = head.partition(": ")
    words, word, chars = [], "", iter(deps.strip())
    for c in chars:
        if c == "\\":
            word += next(chars)
        elif c == "$":
            word += next(chars)
        elif c == " ":
            words.append(word) if word else None
            word = ""
        else:
            word += c
    return target, words + ([word] if word else [])


# ---------------------------------------------------------------- the syntax


@pytest.mark.parametrize(("path", "written"), [
    ("产物/加倍.wgsl", "产物/加倍.wgsl"),
    ("有 空格/甲 乙.wgsl", "有\\ 空格/甲\\ 乙.wgsl"),
    ("井#号", "井\\#号"),
    ("钱$币", "钱$$币"),
    ("反斜\\ 杠", "反斜\\\\\\ 杠"),     # a backslash before a space is doubled, then the space escaped
    ("反\\斜", "反\\斜"),             # elsewhere a backslash is itself
])
def test_a_path_is_one_makefile_word(path, written):
    assert depfile.escaped(path) == written


@pytest.mark.parametrize("path", ["换\n行", "制\t表", "空\0字"])
def test_a_path_make_cannot_carry_is_refused(path):
    with pytest.raises(depfile.UnwritablePath):
        depfile.escaped(path)


def test_each_dependency_is_also_a_target_without_a_rule():
    text = depfile.text("出.wgsl", ["/甲/乙。着色器。豫", "/甲/乙。着色器。豫", "/丙 丁/包.json"])
    assert text == ("出.wgsl: \\\n  /甲/乙。着色器。豫 \\\n  /丙\\ 丁/包.json\n"
                    "\n/甲/乙。着色器。豫:\n\n/丙\\ 丁/包.json:\n")


# ---------------------------------------------------------------- the commands


@pytest.mark.parametrize(("command", "suffix"), [("译", ".wgsl"), ("金属", ".metal"), ("千手", ".ptx"),
                                                 ("生成", "。着色生成。豫")])
def test_every_translating_command_writes_output_and_depfile(tmp_path, command, suffix):
    write(tmp_path, TREE)
    output = f"产 物/主{suffix}"
    code, out, err = run(tmp_path, command, "应用/主。着色器。豫", "--输出", output, "--依赖文件", "产 物/主.d")
    assert (code, out, err) == (0, "", "")
    target, deps = rule_of((tmp_path / "产 物/主.d").read_text(encoding="utf-8"))
    assert target == "产\\ 物/主" + suffix
    real = tmp_path.resolve()
    assert deps[0] == os.path.realpath(builtin_interface_path())
    assert set(deps) == {deps[0], str(real / "数 学/几何/向量。着色器。豫"), str(real / "应用/主。着色器。豫"),
                         str(real / "应用/包.json"), str(real / "数 学/包.json"),
                         str(builtin_interface_path().parent / "包.json")}
    printed = run(tmp_path, command, "应用/主。着色器。豫")[1]
    assert (tmp_path / output).read_text(encoding="utf-8") == printed


@pytest.mark.parametrize("remembered", [True, False])
def test_unchanged_output_and_depfile_are_left_alone(tmp_path, remembered):
    """From the ledger (a repeated run) or translated afresh (the cache gone), alike."""
    write(tmp_path, TREE)
    args = ("译", "应用/主。着色器。豫", "--输出", "出/主.wgsl", "-MD")
    assert run(tmp_path, *args)[0] == 0
    files = [tmp_path / "出/主.wgsl", tmp_path / "出/主.wgsl.d"]
    before = [f.stat().st_mtime_ns for f in files]
    if not remembered:
        shutil.rmtree(tmp_path / ".缓存")
    (tmp_path / "数 学/几何/向量。着色器。豫").write_text(GEOMETRY + "「：只是注释：」\n", encoding="utf-8")
    assert run(tmp_path, *args) == (0, "", "")
    assert [f.stat().st_mtime_ns for f in files] == before


def test_a_changed_import_list_rewrites_the_depfile(tmp_path):
    write(tmp_path, {**TREE, "应用/单。着色器。豫": SEED_DOUBLE})
    assert run(tmp_path, "译", "应用/单。着色器。豫", "-o", "单.wgsl", "-MD")[0] == 0
    assert "向量" not in (tmp_path / "单.wgsl.d").read_text(encoding="utf-8")
    write(tmp_path, {"应用/单。着色器。豫": SEED_DOUBLE.replace(PRELUDE, PRELUDE + "寻「数学」之「几何」之「向量」之书。\n")})
    assert run(tmp_path, "译", "应用/单。着色器。豫", "-o", "单.wgsl", "-MD")[0] == 0
    assert "数\\ 学/几何/向量。着色器。豫" in (tmp_path / "单.wgsl.d").read_text(encoding="utf-8")


def test_a_file_outside_any_package_names_no_missing_manifest(tmp_path):
    """The 包.json looked for and absent is no dependency: Ninja would rerun the command on every build."""
    write(tmp_path, {"单。着色器。豫": SEED_DOUBLE})
    assert run(tmp_path, "千手", "单。着色器。豫", "-o", "单.ptx", "-MD")[0] == 0
    _, deps = rule_of((tmp_path / "单.ptx.d").read_text(encoding="utf-8"))
    assert all(Path(d).exists() for d in deps) and str(tmp_path.resolve() / "单。着色器。豫") in deps


def test_misuse_of_the_depfile_options_exits_two(tmp_path):
    write(tmp_path, TREE)
    code, _, err = run(tmp_path, "译", "应用/主。着色器。豫", "--依赖文件", "主.d")
    assert code == 2 and "须与 --输出" in err and not (tmp_path / "主.d").exists()
    code, _, err = run(tmp_path, "生成", "应用/主。着色器。豫", "--输出", "主。着色生成。豫", "--输出目录", "产物")
    assert code == 2 and "只能选一个" in err
    (tmp_path / "目录").mkdir()
    code, _, err = run(tmp_path, "金属", "应用/主。着色器。豫", "--输出", "目录")
    assert code == 2 and "是文件夹" in err


def test_errors_write_neither_output_nor_depfile(tmp_path):
    write(tmp_path, {**TREE, "应用/主。着色器。豫": MAIN.replace("「平方长」于", "「平方短」于")})
    code, out, err = run(tmp_path, "译", "应用/主。着色器。豫", "-o", "主.wgsl", "-MD")
    assert code == 1 and "平方短" in err
    assert not (tmp_path / "主.wgsl").exists() and not (tmp_path / "主.wgsl.d").exists()


def _tool(cwd: Path, *args, check: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ, ZHUOSE_CACHE_DIR=str(cwd / ".缓存"))
    return subprocess.run(args, cwd=cwd, env=env, check=check, capture_output=True, text=True, encoding="utf-8")


def _age_then_touch(root: Path, name: str) -> None:
    """Make `name` newer than anything built, without waiting for the clock
    to tick: every file is dated ten seconds back, then `name` now."""
    for p in root.rglob("*"):
        if p.is_file() and ".缓存" not in p.parts:
            st = p.stat()
            os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns - 10**10))
    os.utime(root / name)


@pytest.mark.skipif(shutil.which("make") is None, reason="没有 make")
def test_make_rebuilds_on_an_imported_module_and_not_on_a_no_op(tmp_path):
    """Make has no restat: the rule touches its output, as the guide says."""
    write(tmp_path, TREE)
    (tmp_path / "Makefile").write_text(
        f"出/主.wgsl: 应用/主。着色器。豫\n\t{sys.executable} -m zhuose.cli 译 $< -o $@ -MD && touch $@\n"
        "-include 出/主.wgsl.d\n", encoding="utf-8")
    _tool(tmp_path, "make")
    assert _tool(tmp_path, "make", "-q", check=False).returncode == 0        # up to date
    _age_then_touch(tmp_path, "数 学/几何/向量。着色器。豫")
    assert _tool(tmp_path, "make", "-q", check=False).returncode == 1        # the import is newer
    _tool(tmp_path, "make")
    assert _tool(tmp_path, "make", "-q", check=False).returncode == 0
    (tmp_path / "数 学/几何/向量。着色器。豫").unlink()
    failed = _tool(tmp_path, "make", check=False)
    assert failed.returncode != 0 and "No rule" not in failed.stderr and "向量" in failed.stderr


@pytest.mark.skipif(shutil.which("ninja") is None, reason="没有 ninja")
def test_ninja_reads_the_depfile_back_and_rebuilds_exactly_on_change(tmp_path):
    write(tmp_path, TREE)
    (tmp_path / "build.ninja").write_text(
        f"rule translate\n  command = {sys.executable} -m zhuose.cli 译 $in -o $out -MD\n"
        "  depfile = $out.d\n  deps = gcc\n  restat = 1\n"
        "build 出/主.wgsl: translate 应用/主。着色器。豫\n", encoding="utf-8")
    _tool(tmp_path, "ninja")
    deps = _tool(tmp_path, "ninja", "-t", "deps").stdout
    assert str(tmp_path.resolve() / "数 学/几何/向量。着色器。豫") in deps and "(VALID)" in deps
    assert "no work to do" in _tool(tmp_path, "ninja").stdout
    _age_then_touch(tmp_path, "数 学/包.json")
    assert "主.wgsl" in _tool(tmp_path, "ninja").stdout
    assert "no work to do" in _tool(tmp_path, "ninja").stdout      # restat: the unchanged output is clean
