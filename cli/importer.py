"""The `导入` subcommand: `着色器 导入 文件.wgsl [--输出 文件。着色器。豫] [--尽量]`.

Brings a WGSL module into 着色 (compiler/importer/): the 着色 text goes to
--输出 or stdout; each construct it cannot express exactly is reported as
`文件:行:列: 导入：不支持 …` and nothing is written, unless --尽量 writes
the rest with a comment where each refused declaration was."""

from __future__ import annotations

import sys
from pathlib import Path

from ..compiler.generate.output import os_error_text, write_if_changed
from ..compiler.importer import import_wgsl
from ..compiler.source import SourceFile, decode_source
from .common import Command

HELP = "把 WGSL 导入成着色源（--输出 写进文件，--尽量 略去不支持的部分）"
DESCRIPTION = ("读一个 WGSL 文件，写出同样计算（逐位相同）的着色源，格式与 `着色器 格式化` 一致：名字照旧写成「名」，"
               "var 写成 令 或格，循环写成局部尾递归函数，switch 写成 若 链，资源保留组号与绑定号，入口保留工作组大小。"
               "着色写不出的构造各报一条 文件:行:列: 导入：不支持 …，并且不写输出（退出码 1）；加 --尽量 时照样写出其余部分，"
               "每个略去的声明留一行注释。")


def _arguments(p) -> None:
    p.add_argument("文件", help="WGSL 文件（名.wgsl）")
    p.add_argument("--输出", "--output", dest="输出", help="写进这个文件（名。着色器。豫），不给时印到标准输出")
    p.add_argument("--尽量", "--best-effort", dest="尽量", action="store_true",
                   help="有不支持的构造时也写出其余部分，每个略去的声明留一行注释")


def _run(args) -> int:
    try:
        text, bad = decode_source(Path(args.文件).read_bytes())
    except OSError as err:
        sys.stderr.write(f"着色器：读不了「{args.文件}」：{os_error_text(err)}\n")
        return 2
    source = SourceFile(args.文件, text)
    if bad is not None:
        pos = source.position(bad)
        sys.stderr.write(f"{args.文件}:{pos.line + 1}:{pos.column + 1}: 文件不是有效的 UTF-8\n")
        return 1
    result = import_wgsl(text, best_effort=args.尽量)
    for problem in result.problems:
        pos = source.position(problem.offset)
        sys.stderr.write(f"{args.文件}:{pos.line + 1}:{pos.column + 1}: {problem.message}\n")
    if result.text is None:
        return 1
    if args.输出:
        try:
            write_if_changed(Path(args.输出), result.text)
        except OSError as err:
            sys.stderr.write(f"着色器：写不了「{args.输出}」：{os_error_text(err)}\n")
            return 1
    else:
        sys.stdout.write(result.text)
    return 1 if result.problems else 0


IMPORT = Command("导入", ["import"], HELP, DESCRIPTION, _arguments, _run)
