"""`着色器 运行 … --后端 参照`: the options and the call the 运行 handler
makes; arguments, buffers and printing stay the WebGPU run's."""

from __future__ import annotations

from ..compiler.interp import WIDTHS, Fault, Unsupported, run
from ..compiler.runtime.wgpu import WebGPUError
from .common import print_diagnostics


class ReferenceFault(WebGPUError):
    """A fault found by the interpreter, already printed as a diagnostic (exit status 1)."""


def add_reference_options(p) -> None:
    p.add_argument("--子组宽", type=int, default=32, choices=WIDTHS, metavar="N",
                   help="参照解释器的子组宽：4、8、16、32（默认）、64 或 128")
    p.add_argument("--调度种子", type=int, default=None, metavar="种子",
                   help="参照解释器按这个种子打乱子组的调度次序（影响原子运算的先后），用来暴露依赖次序的结果")


#: the most invocations one dispatch runs on the interpreter (each value is a NumPy vector of them)
MAX_INVOCATIONS = 1 << 24


def run_reference(ws, args, entry, buffers, groups, overrides: dict | None = None) -> dict:
    """The dispatch on the reference interpreter; a fault is printed as `文件:行:列: 消息`."""
    invocations = groups[0] * groups[1] * groups[2] * (entry.workgroup_size or 1)
    if invocations > MAX_INVOCATIONS:
        raise WebGPUError(f"参照解释器一次至多运行 {MAX_INVOCATIONS} 个调用（{MAX_INVOCATIONS >> 20} 兆），"
                          f"这次派发有 {invocations} 个：请减小 --组数，或用默认的 网页图算 后端")
    data = {(b.group, b.binding): b.data for b in buffers}
    try:
        return run(ws, args.文件, entry.name, data, groups, subgroup_width=args.子组宽,
                   schedule_seed=args.调度种子, overrides=overrides)
    except Fault as fault:
        print_diagnostics(ws, [fault.diagnostic])
        raise ReferenceFault("参照解释器发现上面的错误，没有写回任何缓冲") from fault
    except Unsupported as err:
        raise WebGPUError(f"参照解释器：{err}") from err
