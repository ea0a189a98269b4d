"""The subcommand `着色器 千手 文件` (LANGUAGE.md §8, seed 着七): PTX on
standard output, the entry table on standard error.

Each entry line is `入口项名<TAB>PTX 名<TAB>计算<TAB>块与参数`: the first three
columns are the other targets' table with the PTX name as the function name;
the fourth says the block the host must launch with and the kernel's
parameters in order, including the element counts that 「数组长度」 reads.
"""

from __future__ import annotations

from .writer import PtxEntryInfo

HELP = "把着色源的计算入口译成 PTX：PTX 写到标准输出，入口表写到标准错误"
DESCRIPTION = ("把一个着色源（名。着色器。豫）的计算入口译成 PTX（着十），打印到标准输出；顶点、片元入口写成一行注释略去，"
               "只有顶点、片元入口的文件报错。入口表每行一个计算入口项：入口项名<TAB>PTX 名<TAB>计算<TAB>块与参数，"
               "写到标准错误：宿主发射时块维须恰为（工作组大小, 1, 1），参数依次是各缓冲的设备指针"
               "（全在组 0 时绑定 0 至所用最大号各占一位）与「数组长度」所读的元素个数（.u32）。有错误时退出码为 1。")


def add_arguments(p) -> None:
    p.add_argument("文件", help="着色源文件（名。着色器。豫）")


def entry_line(e: PtxEntryInfo) -> str:
    params = "，".join(p.describe() for p in e.params) or "（无）"
    return f"{e.item}\t{e.function}\t{e.stage}\t块 {e.block}×1×1；参数 {params}"


def run(args) -> int:
    from ...cli import print_translation
    return print_translation(args.文件, "ptx", entry_line)
