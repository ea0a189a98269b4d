"""The command line: `着色器 子命令 文件` (LANGUAGE.md §8).

`COMMANDS` is the dispatch table; each group of subcommands lives in its own
module of this package.  Exit status: 0 clean, 1 when the file has errors,
2 on misuse.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass

from ..compiler.classcode import remembered
from .version import version_line

DESCRIPTION = "着色器：豫言着色方言（着色）的工具链。在仓库根目录运行：工具在当前目录发现包。"
EPILOG = "报错写到标准错误，格式为 文件:行:列: 消息（消息里带顶层定义名）；有错误时退出码为 1，用法错误为 2。"


@dataclass(frozen=True)
class CommandRef:
    """Where a subcommand lives, so a run imports only the module of the
    command it names (the translating path never loads wgpu, NumPy or the
    language server)."""

    name: str
    aliases: tuple[str, ...]
    module: str
    attribute: str

    def load(self):
        return getattr(importlib.import_module(f".{self.module}", __package__), self.attribute)


#: every subcommand, in the order `--help` lists them
COMMANDS: list[CommandRef] = [
    CommandRef("检查", ("check",), "check", "CHECK"),
    CommandRef("生成", ("generate",), "generate", "GENERATE"),
    CommandRef("格式化", ("format",), "format", "FORMAT"),
    CommandRef("导入", ("import",), "importer", "IMPORT"),
    CommandRef("译", ("wgsl",), "translate", "WGSL_COMMAND"),
    CommandRef("运行", ("run",), "run", "RUN"),
    CommandRef("渲染", ("render",), "render", "RENDER"),
    CommandRef("金属", ("msl",), "translate", "MSL_COMMAND"),
    CommandRef("千手", ("ptx",), "translate", "PTX_COMMAND"),
    CommandRef("剖析", ("profile",), "profile", "PROFILE"),
    CommandRef("服务", ("serve",), "serve", "SERVE"),
    CommandRef("版本", ("version",), "version", "VERSION"),
]


def _named(argv: list[str]) -> list[CommandRef]:
    """The commands the parser needs: just the one named first, else all (for --help and errors)."""
    first = argv[0] if argv else None
    named = [c for c in COMMANDS if first == c.name or first in c.aliases]
    return named or COMMANDS


class _VersionAction(argparse.Action):
    """--version, looking the version up only when asked (importlib.metadata
    costs more than the rest of an unchanged 译)."""

    def __init__(self, option_strings, dest, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(version_line() + "\n")
        parser.exit(0)


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


def _parser(refs: list[CommandRef]) -> argparse.ArgumentParser:
    parser = _Parser(prog="着色器", description=DESCRIPTION, epilog=EPILOG, add_help=False)
    parser.add_argument("-h", "--help", action="help", help="显示本帮助并退出")
    parser.add_argument("--version", action=_VersionAction, help="打印版本号并退出")
    sub = parser.add_subparsers(dest="command", metavar="子命令", parser_class=_Parser)
    for c in (ref.load() for ref in refs):
        p = sub.add_parser(c.name, aliases=c.aliases, add_help=False, help=c.help,
                           description=c.description)
        p.add_argument("-h", "--help", action="help", help="显示本帮助并退出")
        c.add_arguments(p)
        p.set_defaults(run=c.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    with remembered():
        return _main(sys.argv[1:] if argv is None else argv)


def _main(argv: list[str]) -> int:
    parser = _parser(_named(argv))
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
