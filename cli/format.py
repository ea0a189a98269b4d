"""The `格式化` subcommand: `着色器 格式化 文件… [--检查]`.

Rewrites each file in its canonical layout (compiler/syntax/format.py), or
with --检查 only names the files that would change.  A file with syntax
errors is reported and left untouched.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..compiler.generate.output import os_error_text, write_if_changed
from ..compiler.source import SourceFile, decode_source
from ..compiler.syntax.format import format_text
from .common import Command, usage_problem

HELP = "把着色源改写成统一的格式（原地改写；--检查 时只报告）"
DESCRIPTION = ("按统一的格式改写着色源：缩进（全角空格）按 令、得、若／则／否则、（）与【】的嵌套重算，"
               "换行保留作者的选择，。，；不起新行，项之间至多一个空行，注释原样保留；只改空白，不改意义。"
               "每个文件印一行 路径<TAB>已格式化|未改动。加 --检查 时不改写，只对需要改写的文件印 路径<TAB>需要格式化，"
               "有这样的文件时退出码为 1。有语法错误的文件不改写，报错（文件:行:列）并使退出码为 1；用法错误为 2。")


def _arguments(p) -> None:
    p.add_argument("文件", nargs="+", help="着色源文件（名。着色器。豫 或 名。着色器。接口。豫）")
    p.add_argument("--检查", "--check", dest="检查", action="store_true",
                   help="不改写文件，只报告哪些文件需要格式化（有则退出码为 1）")


def _run(args) -> int:
    for path in args.文件:
        problem = usage_problem(path)
        if problem:
            sys.stderr.write(f"着色器：{problem}\n")
            return 2
    return max(_format_one(path, args.检查) for path in args.文件)


def _format_one(path: str, check_only: bool) -> int:
    try:
        text, bad = decode_source(Path(path).read_bytes())
    except OSError as err:
        sys.stderr.write(f"着色器：读不了「{path}」：{os_error_text(err)}\n")
        return 1
    source = SourceFile(path, text)
    if bad is not None:
        pos = source.position(bad)
        sys.stderr.write(f"{path}:{pos.line + 1}:{pos.column + 1}: 文件不是有效的 UTF-8，未格式化\n")
        return 1
    result = format_text(text)
    if result.text is None:
        for p in result.problems:
            pos = source.position(p.start)
            where = f"在「{p.definition}」中：" if p.definition else ""
            sys.stderr.write(f"{path}:{pos.line + 1}:{pos.column + 1}: {where}{p.message}\n")
        sys.stderr.write(f"着色器：「{path}」有语法错误，未格式化\n")
        return 1
    if check_only:
        if result.text != text:
            print(f"{path}\t需要格式化")
            return 1
        return 0
    try:
        changed = write_if_changed(Path(path), result.text)
    except OSError as err:
        sys.stderr.write(f"着色器：写不了「{path}」：{os_error_text(err)}\n")
        return 1
    print(f"{path}\t{'已格式化' if changed else '未改动'}")
    return 0


FORMAT = Command("格式化", ["format"], HELP, DESCRIPTION, _arguments, _run)
