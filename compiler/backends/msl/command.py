"""The subcommand `着色器 金属 文件` (LANGUAGE.md §8, seed 着七): MSL on
standard output, the entry table on standard error."""

from __future__ import annotations

from ...cli import Command, _file_argument, print_translation
from .writer import LENGTHS_SLOT


def _metal(args) -> int:
    return print_translation(args.文件, "msl", lambda e: e.table_line())


METAL = Command(
    "金属", ["msl"], "把着色源译成 MSL（金属着色语言）：MSL 写到标准输出，入口表写到标准错误",
    "把一个着色源（名。着色器。豫）连同它导入的着色源译成 MSL（着九），打印到标准输出；入口表每行一个入口项："
    "入口项名<TAB>函数名<TAB>阶段，打印到标准错误。入口用到「数组长度」时该行另有第四列 "
    f"数组长度缓冲={LENGTHS_SLOT}：序号=资源名，…：宿主在 [[buffer({LENGTHS_SLOT})]] 放一个 uint 数组，"
    "其第 n 个元素是 [[buffer(n)]] 上运行期数组的元素个数。缓冲、纹理、采样器的序号为 组号×16＋绑定号。"
    "有错误时退出码为 1。",
    _file_argument, _metal)
