"""The command line (LANGUAGE.md §8): exit status 0 clean, 1 errors, 2 misuse;
Chinese help; messages as 文件:行:列: 消息."""

import subprocess
import sys

from frontend_util import write

PRELUDE = "寻观「点染」之「点染本」之书。\n"


def run(cwd, *args):
    p = subprocess.run([sys.executable, "-m", "zhuose.compiler.cli", *args], cwd=cwd,
                       capture_output=True, text=True, encoding="utf-8")
    return p.returncode, p.stdout, p.stderr


def test_clean_file_exits_zero(tmp_path):
    write(tmp_path, {"好。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。"})
    assert run(tmp_path, "检查", "好。着色器。豫") == (0, "", "")
    assert run(tmp_path, "check", "好。着色器。豫")[0] == 0


def test_errors_exit_one_with_positions_and_definition_names(tmp_path):
    write(tmp_path, {"坏。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。\n「错」者「未知」也。"})
    code, out, err = run(tmp_path, "检查", "坏。着色器。豫")
    assert code == 1 and out == ""
    assert err == "坏。着色器。豫:3:5: 在「错」中：未知的名字「未知」\n"


def test_misuse_exits_two(tmp_path):
    assert run(tmp_path, "检查", "没有。着色器。豫")[0] == 2
    write(tmp_path, {"x.txt": ""})
    code, _, err = run(tmp_path, "检查", "x.txt")
    assert code == 2 and "不是着色文件" in err
    assert run(tmp_path)[0] == 2
    code, _, err = run(tmp_path, "乱来")
    assert code == 2 and "用法错误" in err


def test_help_is_chinese_for_every_subcommand(tmp_path):
    code, out, _ = run(tmp_path, "--help")
    assert code == 0 and "用法：" in out and "子命令" in out
    names = [line.split()[0] for line in out.splitlines()
             if len(line) > 4 and line.startswith("    ") and line[4] != " " and not line[4] == "-"]
    assert "检查" in names
    for name in names:
        code, sub, _ = run(tmp_path, name, "--help")
        assert code == 0 and "用法：" in sub and "显示本帮助" in sub


def test_no_traceback_on_a_directory_or_unreadable_input(tmp_path):
    (tmp_path / "夹。着色器。豫").mkdir()
    code, _, err = run(tmp_path, "检查", "夹。着色器。豫")
    assert code == 2 and "Traceback" not in err
