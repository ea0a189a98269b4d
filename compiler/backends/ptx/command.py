"""The subcommand `着色器 千手 文件` (LANGUAGE.md §8, seed 着七): PTX on
standard output, the entry table on standard error.

Each entry line is `入口项名<TAB>PTX 名<TAB>计算` (LANGUAGE.md §8: the other
targets' table with the PTX name as the function name); with --详细 a fourth
column says the block the host must launch with and the kernel's parameters
in order, including the element counts that 「数组长度」 reads.
"""

from __future__ import annotations

from .writer import PtxEntryInfo

HELP = "把着色源的计算入口译成 PTX：PTX 写到标准输出，入口表写到标准错误"
DESCRIPTION = ("把一个着色源（名。着色器。豫）的计算入口译成 PTX（着十），打印到标准输出；顶点、片元入口写成一行注释略去，"
               "只有顶点、片元入口的文件报错。入口表每行一个计算入口项：入口项名<TAB>PTX 名<TAB>计算，"
               "写到标准错误；加 --详细 时另有第四列块与参数：宿主发射时块维须恰为（工作组大小, 1, 1），参数依次是各缓冲的设备指针"
               "（全在组 0 时绑定 0 至所用最大号各占一位）与「数组长度」所读的元素个数（.u32）。有错误时退出码为 1。")


def add_arguments(p) -> None:
    from ...cli import _file_argument, details_argument
    _file_argument(p)
    details_argument(p, "宿主发射时的块维与参数次序（块 N×1×1；参数 …）")


def host_details(e: PtxEntryInfo) -> str:
    params = "，".join(p.describe() for p in e.params) or "（无）"
    return f"块 {e.block}×1×1；参数 {params}"


def run(args) -> int:
    from ...cli import print_translation
    return print_translation(args.文件, "ptx", host_details if args.详细 else None)
