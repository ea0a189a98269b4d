"""The command line: `着色器 子命令 文件` (LANGUAGE.md §8).

Exit status: 0 clean, 1 when the file has errors, 2 on misuse.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..server.cli import serve, serve_arguments
from .backends.ptx import command as ptx_command
from .diagnostics import Diagnostic
from .generate import command as generate_command
from .packages import is_shader_file
from .workspace import Workspace

DESCRIPTION = "着色器：豫言着色方言（着色）的工具链。在仓库根目录运行：工具在当前目录发现包。"
EPILOG = "报错写到标准错误，格式为 文件:行:列: 消息（消息里带顶层定义名）；有错误时退出码为 1，用法错误为 2。"


class _Formatter(argparse.RawDescriptionHelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, "用法：" if prefix is None else prefix)


_ARGPARSE_MESSAGES = [("the following arguments are required", "缺少参数"),
                      ("invalid choice", "无效的选择"), ("choose from", "可选"),
                      ("unrecognized arguments", "无法识别的参数"), ("argument", "参数"),
                      ("expected one argument", "需要一个值")]


class _Parser(argparse.ArgumentParser):
    """argparse speaking Chinese: usage line, section titles and errors."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = "位置参数"
        self._optionals.title = "选项"

    def error(self, message: str):
        for en, zh in _ARGPARSE_MESSAGES:
            message = message.replace(en, zh)
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}：用法错误：{message}\n")


@dataclass
class Command:
    """One subcommand: its Chinese name, ASCII aliases, help and handler."""

    name: str
    aliases: list[str]
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def _file_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("文件", help="着色源文件（名。着色器。豫）")


def _parser(commands: list[Command]) -> argparse.ArgumentParser:
    parser = _Parser(prog="着色器", description=DESCRIPTION, epilog=EPILOG, add_help=False)
    parser.add_argument("-h", "--help", action="help", help="显示本帮助并退出")
    sub = parser.add_subparsers(dest="command", metavar="子命令", parser_class=_Parser)
    for c in commands:
        p = sub.add_parser(c.name, aliases=c.aliases, add_help=False, help=c.help,
                           description=c.description)
        p.add_argument("-h", "--help", action="help", help="显示本帮助并退出")
        c.add_arguments(p)
        p.set_defaults(run=c.run)
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


def usage_problem(path: str) -> str | None:
    """Why a path given on the command line cannot be used (exit status 2)."""
    if Path(path).is_dir():
        return f"「{path}」是文件夹，不是着色文件"
    if not Path(path).is_file():
        return f"找不到文件「{path}」"
    if not is_shader_file(path):
        return f"「{path}」不是着色文件：后缀须是「。着色器。豫」或「。着色器。接口。豫」"
    return None


def checked_or_report(ws: Workspace, path: str) -> list[Diagnostic]:
    """Check a file; print and return its errors (and those of its imports)."""
    diags = [d for d in ws.diagnostics(path) if d.severity == "错误"]
    print_diagnostics(ws, diags)
    return diags


def translated(path: str, target: str):
    """(workspace, translation) of a file, or (None, exit status) after
    printing why not: the shared first half of 译, 金属, 千手 and 运行."""
    from .backends import translate
    problem = usage_problem(path)
    if problem:
        sys.stderr.write(f"着色器：{problem}\n")
        return None, 2
    ws = Workspace(".")
    result = translate(ws, path, target)
    if result.text is None:
        print_diagnostics(ws, result.diagnostics)
        return None, 1
    return (ws, result), 0


def print_translation(path: str, target: str, details: Callable | None = None) -> int:
    """Target text on stdout; on stderr one entry-table line per entry,
    `入口项名<TAB>函数名<TAB>阶段` as LANGUAGE.md §8 pins it, plus a fourth
    column of host details when `details` is given (the --详细 option)."""
    done, status = translated(path, target)
    if done is None:
        return status
    _, result = done
    sys.stdout.write(result.text)
    for entry in result.entries:
        extra = details(entry) if details else ""
        sys.stderr.write(f"{entry.item}\t{entry.function}\t{entry.stage}" + (f"\t{extra}" if extra else "") + "\n")
    return 0


def details_argument(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--详细", action="store_true", help=f"入口表每行另加第四列：{what}")


def _check(args) -> int:
    problem = usage_problem(args.文件)
    if problem:
        sys.stderr.write(f"着色器：{problem}\n")
        return 2
    return 1 if checked_or_report(Workspace("."), args.文件) else 0


def commands() -> list[Command]:
    """Every subcommand; back ends add theirs here."""
    from .backends.msl.command import METAL
    from .backends.wgsl import commands as wgsl_commands
    return [
        Command("检查", ["check"], "只做语法分析、名称解析与类型检查，报告所有错误",
                "检查一个着色源（名。着色器。豫）或着色内建声明（名。着色器。接口。豫）及它导入的模块："
                "语法、名称、类型与顶层定义的分类规则。没有错误时退出码为 0。",
                _file_argument, _check),
        Command("生成", ["generate"], generate_command.HELP, generate_command.DESCRIPTION,
                generate_command.add_arguments, generate_command.run),
        wgsl_commands.TRANSLATE,
        wgsl_commands.RUN,
        METAL,
        Command("千手", ["ptx"], ptx_command.HELP, ptx_command.DESCRIPTION, ptx_command.add_arguments,
                ptx_command.run),
        Command("服务", ["serve"], "启动语言服务（LSP，经标准输入输出），供编辑器使用",
                "启动着色的语言服务：诊断、悬停、跳转、引用、改名、补全、签名提示、语义着色、"
                "类型提示与快速修复，以及预览生成的代码（请求 着色/预览）。经标准输入输出说 LSP，"
                "工作区根目录取自编辑器，否则为当前目录。",
                serve_arguments, serve),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = _parser(commands())
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except RecursionError:
        sys.stderr.write("着色器：输入嵌套太深，超出了分析器的能力：请把表达式分成几步（用 令）\n")
        return 1
    except Exception as err:  # a bug in this tool: still no traceback for the user
        sys.stderr.write(f"着色器：内部错误（{type(err).__name__}：{err}）。请把输入文件与这行消息报告给维护者。\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
