"""What the subcommands share: the Command record, the file argument, and
printing paths, diagnostics and translations."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..compiler import LIVE_HEAP_COLLECTOR, ledger
from ..compiler.packages import is_shader_file

if TYPE_CHECKING:   # the checker is imported by the commands that check, not by every command
    from ..compiler.diagnostics import Diagnostic
    from ..compiler.workspace import Workspace


@dataclass
class Command:
    """One subcommand: its Chinese name, ASCII aliases, help and handler."""

    name: str
    aliases: list[str]
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def ascii_integer(text: str) -> int:
    """An integer written in ASCII digits: int() also reads １ and ٣, which the language does not."""
    if not text.strip().isascii():
        raise ValueError(f"not ASCII: {text!r}")
    return int(text)


def file_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("文件", help="着色源文件（名。着色器。豫）")


def details_argument(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--详细", action="store_true", help=f"入口表每行另加第四列：{what}")


def fast_math_argument(p: argparse.ArgumentParser, meaning: str) -> None:
    p.add_argument("--快速数学", "--fast-math", dest="快速数学", action="store_true",
                   help=f"允许把乘积与和合成一次融合乘加（只舍入一次，结果可能与逐步舍入差最后一位）：{meaning}")


def bounds_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--不查界", "--no-bounds-checks", dest="不查界", action="store_true",
                   help="不检查数组下标（默认越界读得 0、越界写丢弃，同 WGSL 的稳健访问）：确知下标都在界内时省下检查")


def translation_options(args: argparse.Namespace):
    """The back-end options (`Options`) the command line asks for."""
    from ..compiler.backends.targets import Options
    return Options(fast_math=getattr(args, "快速数学", False), bounds=not getattr(args, "不查界", False))


def output_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """--输出 and the depfile options a build tool calls with (docs/生成.md, 依赖文件)."""
    p.add_argument("--输出", "--output", "-o", dest="输出", metavar="文件",
                   help=f"把{what}写进这个文件而不印到标准输出（原子替换；内容相同则不动，修改时间也不变）；成功时什么都不印")
    p.add_argument("--依赖文件", "--depfile", dest="依赖文件", metavar="文件.d",
                   help="另写一个 Makefile 语法的依赖文件，列出输出依赖的每个文件（着色源、导入的模块、内建声明、"
                        "这些文件所在包的 包.json），供 Make、Ninja、CMake 判断何时重做；须与 --输出 同用")
    p.add_argument("-MD", dest="依赖文件在旁", action="store_true",
                   help="依赖文件写到输出文件旁边：输出的文件名加 .d（加倍.wgsl → 加倍.wgsl.d）")


@dataclass(frozen=True)
class Destination:
    """Where a result goes: standard output (with the entry table on standard
    error), or the file of --输出 and the depfile of --依赖文件/-MD."""

    output: str | None = None
    depfile: str | None = None

    @classmethod
    def of(cls, args: argparse.Namespace) -> Destination | str:
        """The destination the options ask for, or why they cannot be used together."""
        depfile = args.依赖文件
        if args.依赖文件在旁 and not depfile and args.输出:
            depfile = default_depfile(args.输出)
        if depfile and not args.输出:
            return "依赖文件要写出它的输出：--依赖文件 与 -MD 须与 --输出 文件 同用"
        if args.输出 and Path(args.输出).is_dir():
            return f"--输出「{args.输出}」是文件夹，不是文件"
        return cls(args.输出, depfile)

    def deliver(self, text: str, table: str, dependencies: Callable[[], list[str]]) -> int:
        """Print or write; exit status 1 (after saying why) when a file cannot be written."""
        if self.output is None:
            sys.stdout.write(text)
            sys.stderr.write(table)
            return 0
        from ..compiler.generate.depfile import UnwritablePath, write as write_depfile
        from ..compiler.generate.output import os_error_text, write_if_changed
        try:
            write_if_changed(Path(self.output), text)
            if self.depfile:
                write_depfile(self.depfile, self.output, dependencies())
        except OSError as err:
            where = shown_path(str(err.filename)) if err.filename else self.output
            sys.stderr.write(f"着色器：写不了输出：{os_error_text(err)}（{where}）\n")
            return 1
        except UnwritablePath as err:
            sys.stderr.write(f"着色器：写不了依赖文件「{self.depfile}」：{err}\n")
            return 1
        return 0


def default_depfile(output: str) -> str:
    from ..compiler.generate.depfile import default_path
    return default_path(output)


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


def _refused(path: str) -> bool:
    """Whether `path` cannot be used, after printing why (exit status 2)."""
    problem = usage_problem(path)
    if problem:
        sys.stderr.write(f"着色器：{problem}\n")
    return problem is not None


def translated(path: str, target: str):
    """(workspace, translation) of a file, or (None, exit status) after
    printing why not: the shared first half of 译, 金属, 千手 and 运行."""
    return (None, 2) if _refused(path) else _translation(path, target)


def _translation(path: str, target: str, options=None):
    """`translated` of a path known to be usable (under back-end `options`, the defaults when None)."""
    gc.set_threshold(*LIVE_HEAP_COLLECTOR)   # a command that translates once keeps what it made
    from ..compiler.backends import translate
    from ..compiler.workspace import Workspace
    ws = Workspace(".")
    result = translate(ws, path, target) if options is None else translate(ws, path, target, options)
    if result.text is None:
        print_diagnostics(ws, result.diagnostics)
        return None, 1
    return (ws, result), 0


def print_translation(path: str, target: str, details: Callable | None = None,
                      destination: Destination | str = Destination(), options=None) -> int:
    """Target text on stdout; on stderr one entry-table line per entry,
    `入口项名<TAB>函数名<TAB>阶段` as LANGUAGE.md §8 pins it, plus a fourth
    column of host details when `details` is given (the --详细 option);
    or, with --输出, the text into that file and the depfile beside it.
    When no input changed since the last run (the ledger says), the same
    output is printed again without checking anything."""
    if isinstance(destination, str):
        sys.stderr.write(f"着色器：{destination}\n")
        return 2
    if _refused(path):
        return 2
    book = ledger.Ledger("translate")
    flags = options.flags() if options is not None else ""
    entry_key = f"{target}{' --详细' if details else ''}{flags}\t{os.path.realpath(path)}"
    last = book.current(entry_key)
    if last is not None:
        return destination.deliver(last["text"], last["table"], lambda: ledger.present(last["inputs"]))
    done, status = _translation(path, target, options)
    if done is None:
        return status
    ws, result = done
    table = "".join(f"{e.item}\t{e.function}\t{e.stage}" + (f"\t{extra}" if (extra := details(e) if details else "") else "")
                    + "\n" for e in result.entries)
    inputs = ledger.workspace_inputs(ws, path)
    status = destination.deliver(result.text, table, lambda: ledger.present(inputs))
    book.remember(entry_key, inputs, text=result.text, table=table)
    book.save()
    return status
