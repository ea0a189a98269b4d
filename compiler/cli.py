"""The command line: `着色器 子命令 文件` (LANGUAGE.md §8).

Exit status: 0 clean, 1 when the file has errors, 2 on misuse.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .diagnostics import Diagnostic
from .packages import is_shader_file
from .workspace import Workspace

DESCRIPTION = "着色器：豫言着色方言（着色）的工具链。在仓库根目录运行：工具在当前目录发现包。"
EPILOG = "报错写到标准错误，格式为 文件:行:列: 消息（消息里带顶层定义名）；有错误时退出码为 1，用法错误为 2。"


class _Parser(argparse.ArgumentParser):
    """argparse with Chinese usage errors."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}：用法错误：{message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="着色器", description=DESCRIPTION, epilog=EPILOG, add_help=False,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-h", "--help", action="help", help="显示本帮助并退出")
    sub = parser.add_subparsers(dest="command", metavar="子命令", parser_class=_Parser)
    check = sub.add_parser("检查", aliases=["check"], add_help=False,
                           help="只做语法分析、名称解析与类型检查，报告所有错误",
                           description="检查一个着色源（名。着色器。豫）或着色内建声明（名。着色器。接口。豫）"
                                       "及它导入的模块：语法、名称、类型与顶层定义的分类规则。")
    check.add_argument("-h", "--help", action="help", help="显示本帮助并退出")
    check.add_argument("文件", help="着色源文件")
    return parser


def shown_path(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def print_diagnostics(ws: Workspace, diags: list[Diagnostic], stream=None) -> None:
    stream = stream or sys.stderr
    for d in sorted(diags, key=lambda d: (d.path, d.start)):
        stream.write(d.format(ws.source(d.path), shown_path(d.path)) + "\n")


def _check(args) -> int:
    path = args.文件
    if not Path(path).is_file():
        sys.stderr.write(f"着色器：找不到文件「{path}」\n")
        return 2
    if not is_shader_file(path):
        sys.stderr.write(f"着色器：「{path}」不是着色文件：后缀须是「。着色器。豫」或「。着色器。接口。豫」\n")
        return 2
    ws = Workspace(".")
    diags = [d for d in ws.diagnostics(path) if d.severity == "错误"]
    print_diagnostics(ws, diags)
    return 1 if diags else 0


COMMANDS = {"检查": _check, "check": _check}


def main(argv: list[str] | None = None) -> int:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    return COMMANDS[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
