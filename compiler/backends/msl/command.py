"""The subcommand `着色器 金属 文件` (LANGUAGE.md §8, seed 着七): MSL on
standard output, the entry table on standard error."""

from __future__ import annotations

from ...cli import Command, _file_argument, details_argument, print_translation
from .writer import LENGTHS_SLOT


def _arguments(p) -> None:
    _file_argument(p)
    details_argument(p, f"入口用到「数组长度」时，数组长度缓冲的序号与各元素对应的资源（数组长度缓冲={LENGTHS_SLOT}：序号=资源名，…）")


def _metal(args) -> int:
    return print_translation(args.文件, "msl", (lambda e: e.host_details()) if args.详细 else None)


METAL = Command(
    "金属", ["msl"], "把着色源译成 MSL（金属着色语言）：MSL 写到标准输出，入口表写到标准错误",
    "把一个着色源（名。着色器。豫）连同它导入的着色源译成 MSL（着九），打印到标准输出；入口表每行一个入口项："
    "入口项名<TAB>函数名<TAB>阶段，打印到标准错误。加 --详细 时，入口用到「数组长度」的行另有第四列 "
    f"数组长度缓冲={LENGTHS_SLOT}：序号=资源名，…：宿主在 [[buffer({LENGTHS_SLOT})]] 放一个 uint 数组，"
    "其第 n 个元素是 [[buffer(n)]] 上运行期数组的元素个数。缓冲、纹理、采样器的序号为 组号×16＋绑定号。"
    "有错误时退出码为 1。",
    _arguments, _metal)
