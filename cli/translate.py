"""The subcommands `着色器 译|金属|千手 文件` (LANGUAGE.md §8, seed 着七): the
target text on standard output, the entry table on standard error.

Each entry line is `入口项名<TAB>函数名<TAB>阶段`; for PTX the function name is
the PTX name and only compute entries appear.  With --详细, MSL adds the
array-length buffer an entry reads, PTX the block the host must launch with
and the kernel's parameters in order, including the element counts that
「数组长度」 reads.
"""

from __future__ import annotations

from ..compiler.backends.targets import LENGTHS_SLOT, MSL, PTX, WGSL, Target
from .common import (Command, Destination, bounds_argument, details_argument, fast_math_argument, file_argument,
                     output_arguments, print_translation, translation_options)


def _wgsl_arguments(p) -> None:
    file_argument(p)
    output_arguments(p, "WGSL")
    fast_math_argument(p, "WGSL 没有办法要求或禁止合成（由驱动决定），所以译文不变")


def _wgsl(args) -> int:
    return print_translation(args.文件, WGSL.name, destination=Destination.of(args), options=translation_options(args))


def _metal_arguments(p) -> None:
    file_argument(p)
    output_arguments(p, "MSL")
    details_argument(p, f"入口用到「数组长度」时，数组长度缓冲的序号与各元素对应的资源（数组长度缓冲={LENGTHS_SLOT}：序号=资源名，…）")
    fast_math_argument(p, "浮点的 甲 乘 乙 加 丙 写成 fma(甲, 乙, 丙)")
    bounds_argument(p)


def _host_details(entry) -> str:
    """The --详细 column: what the host needs besides the text (`MslEntry`, `PtxEntryInfo`)."""
    return entry.host_details()


def _metal(args) -> int:
    return print_translation(args.文件, MSL.name, _host_details if args.详细 else None, Destination.of(args),
                             translation_options(args))


def _ptx_arguments(p) -> None:
    file_argument(p)
    output_arguments(p, "PTX")
    details_argument(p, "宿主发射时的块维与参数次序（块 X×Y×Z；参数 …）")
    fast_math_argument(p, "浮点的乘积喂给加减时写成一条 fma.rn")
    bounds_argument(p)


def _ptx(args) -> int:
    return print_translation(args.文件, PTX.name, _host_details if args.详细 else None, Destination.of(args),
                             translation_options(args))


def _command(target: Target, *rest) -> Command:
    """A translating subcommand: named after its target, the target's name its ASCII alias."""
    return Command(target.command, [target.name], *rest)


WGSL_COMMAND = _command(
    WGSL, "把着色源译成 WGSL：WGSL 写到标准输出，入口表写到标准错误",
    "把一个着色源（名。着色器。豫）连同它导入的着色源译成 WGSL（着三至着六），打印到标准输出；"
    "入口表每行一个入口项：入口项名<TAB>函数名<TAB>阶段，打印到标准错误。有错误时退出码为 1。",
    _wgsl_arguments, _wgsl)

MSL_COMMAND = _command(
    MSL, "把着色源译成 MSL（金属着色语言）：MSL 写到标准输出，入口表写到标准错误",
    "把一个着色源（名。着色器。豫）连同它导入的着色源译成 MSL（着九），打印到标准输出；入口表每行一个入口项："
    "入口项名<TAB>函数名<TAB>阶段，打印到标准错误。加 --详细 时，入口用到「数组长度」的行另有第四列 "
    f"数组长度缓冲={LENGTHS_SLOT}：序号=资源名，…：宿主在 [[buffer({LENGTHS_SLOT})]] 放一个 uint 数组，"
    "其第 n 个元素是 [[buffer(n)]] 上运行期数组的元素个数（资源名后写着（（字节数－偏移）÷步长）时，数组在头部字段之后，照此计算）。缓冲、纹理、采样器的序号为 组号×16＋绑定号。"
    "有错误时退出码为 1。",
    _metal_arguments, _metal)

PTX_COMMAND = _command(
    PTX, "把着色源的计算入口译成 PTX：PTX 写到标准输出，入口表写到标准错误",
    "把一个着色源（名。着色器。豫）的计算入口译成 PTX（着十），打印到标准输出；顶点、片元入口写成一行注释略去，"
    "只有顶点、片元入口的文件报错。入口表每行一个计算入口项：入口项名<TAB>PTX 名<TAB>计算，"
    "写到标准错误；加 --详细 时另有第四列块与参数：宿主发射时块维须恰为工作组大小（一个数 N 时是 N×1×1），参数依次是各缓冲的设备指针"
    "（全在组 0 时绑定 0 至所用最大号各占一位）与「数组长度」所读的元素个数（.u32）。有错误时退出码为 1。",
    _ptx_arguments, _ptx)
