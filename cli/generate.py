"""The `生成` subcommand: `着色器 生成 文件… [--输出目录 目录]`."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..compiler import ledger
from ..compiler.generate import remembered
from ..compiler.packages import SHADER_SUFFIX
from .common import Command, Destination, output_arguments, print_diagnostics, shown_path

if TYPE_CHECKING:
    from ..compiler.generate.api import Generator, WriteResult

HELP = "生成高级代码导入着色源时得到的虚拟模块 名。着色生成。豫（豫言源码）"
DESCRIPTION = ("为着色源生成虚拟模块 名。着色生成。豫：导出「着色源」（WGSL）、「金属源」（MSL）、"
               "「并线汇编源」（PTX），每个入口项的入口函数名与「入口项名并线汇编名」。"
               "不给 --输出目录 时把一个文件的模块源码印到标准输出；给了时把每个文件的模块写进该目录"
               "（按模块在包里的路径），内容未变的文件不改写，并在标准输出每个文件印一行 路径<TAB>已更新|未改动。"
               "某个目标译不出来时该导出是一行说明原因的注释，警告写到标准错误。")


def _arguments(p) -> None:
    p.add_argument("文件", nargs="+", help=f"着色源文件（名{SHADER_SUFFIX}）")
    p.add_argument("--输出目录", "--out-dir", dest="输出目录", metavar="目录",
                   help="把生成的模块写进这个目录（原子替换；内容相同则不动）")
    output_arguments(p, "一个着色源的模块")


def _usage_problem(path: str) -> str | None:
    if Path(path).is_dir():
        return f"「{path}」是文件夹，不是着色源文件"
    if not Path(path).is_file():
        return f"找不到文件「{path}」"
    if not Path(path).name.endswith(SHADER_SUFFIX):
        return f"「{path}」不是着色源：只有「名{SHADER_SUFFIX}」生成模块"
    return None


def _generate(args) -> int:
    """Exit status 0 when every module was generated, 1 on errors, 2 on misuse."""
    problems = [p for p in map(_usage_problem, args.文件) if p]
    destination = Destination.of(args)
    if isinstance(destination, str):
        problems.append(destination)
    elif args.输出 and args.输出目录:
        problems.append("--输出 与 --输出目录 只能选一个：--输出 写一个文件，--输出目录 按模块路径写一批")
    if not args.输出目录 and len(args.文件) > 1:
        problems.append("不给 --输出目录 时只能生成一个文件")
    if problems:
        sys.stderr.write("".join(f"着色器：{p}\n" for p in problems))
        return 2
    unchanged = _print_unchanged(args.文件, args.输出目录, destination)
    if unchanged is not None:
        return unchanged
    from ..compiler.generate.api import Generator   # the checker and back ends: only when there is work
    gen = Generator(".")
    files = _distinct_sources(gen, args.文件)
    if args.输出目录:
        clashes = _output_clashes(gen, files, args.输出目录)
        if clashes:
            sys.stderr.write("".join(f"着色器：{c}\n" for c in clashes))
            return 2
        out_dir = Path(args.输出目录)
        if out_dir.exists() and not out_dir.is_dir():
            sys.stderr.write(f"着色器：写不了生成模块：--输出目录「{args.输出目录}」是一个文件，不是文件夹"
                             "（请换一个目录名；不存在的目录会新建）\n")
            return 1
    done: list[WriteResult] = []
    status = max(_generate_one(gen, path, args.输出目录, done, destination) for path in files)
    _record(gen, args.输出目录, done)
    return status


def _print_unchanged(paths: list[str], out_dir: str | None, destination: Destination) -> int | None:
    """When no source, input or output changed since the last run into
    `out_dir` or to standard output (the ledger says), print (or write to
    --输出) what that run printed and say so: the exit status; None to generate."""
    distinct = dict.fromkeys(os.path.realpath(p) for p in paths)
    records = remembered.book(out_dir)
    current = [remembered.recall(records, real) for real in distinct]
    if not all(current) or len({c.output for c in current}) < len(current):
        return None
    if out_dir is None:
        (only,) = current
        text = only.text()
        if text is None:
            return None
        sys.stderr.write("".join(f"着色器：警告：{w}\n" for w in only.warnings))
        return destination.deliver(text, "", lambda: only.inputs)
    for c in current:
        sys.stderr.write("".join(f"着色器：警告：{w}\n" for w in c.warnings))
        sys.stdout.write(f"{shown_path(c.output)}\t未改动\n")
    return 0


def _record(gen: Generator, out_dir: str | None, done: list[WriteResult]) -> None:
    """Each module written or printed, with the texts it was made from."""
    records = remembered.book(out_dir)
    for r in done:
        remembered.remember(records, gen.ws, r.generated, r.output)
    records.save()


def _distinct_sources(gen: Generator, paths: list[str]) -> list[str]:
    """The files named on the command line, each source once (甲。着色器。豫 and ./甲。着色器。豫 are one)."""
    seen: dict[str, str] = {}
    for path in paths:
        seen.setdefault(gen.ws.key(path), path)
    return list(seen.values())


def _output_clashes(gen: Generator, paths: list[str], out_dir: str) -> list[str]:
    """Two sources whose modules would be written to one output file (lone files of one name in
    different folders, or one module path in two packages): said before anything is written."""
    by_output: dict[Path, list[str]] = {}
    for path in paths:
        by_output.setdefault(gen.output_path(path, out_dir), []).append(path)
    return [f"{'、'.join(f'「{p}」' for p in sources)}的生成模块都会写到「{shown_path(str(output))}」"
            "（输出位置是模块在包里的路径；包外的单独文件就是文件名）：什么都没有写。"
            "请分几次生成到不同的输出目录，或给其中一个改名"
            for output, sources in by_output.items() if len(sources) > 1]


def _generate_one(gen: Generator, path: str, out_dir: str | None, done: list, destination: Destination) -> int:
    """Generate one module, print (or write to --输出) it or its line, and add it to `done` when it succeeded."""
    from ..compiler.generate.api import WriteResult
    from ..compiler.generate.output import os_error_text
    try:
        result = gen.write(path, out_dir) if out_dir else None
    except OSError as err:
        where = shown_path(str(err.filename)) if err.filename else out_dir
        sys.stderr.write(f"着色器：写不了「{path}」的生成模块：{os_error_text(err)}（{where}）\n")
        return 1
    generated = result.generated if result else gen.generate(path)
    sys.stderr.write("".join(f"着色器：警告：{w}\n" for w in generated.warnings))
    if generated.text is None:
        print_diagnostics(gen.ws, generated.diagnostics)
        return 1
    if result is None:
        status = destination.deliver(generated.text, "", lambda: ledger.present(ledger.workspace_inputs(gen.ws, path)))
        done.append(WriteResult(generated, None, False))
        return status
    sys.stdout.write(f"{shown_path(str(result.output))}\t{'已更新' if result.changed else '未改动'}\n")
    done.append(result)
    return 0


GENERATE = Command("生成", ["generate"], HELP, DESCRIPTION, _arguments, _generate)
