"""The subcommand `着色器 剖析 文件 [入口项]` (ASCII alias `profile`, issue 27):
what a CUDA engineer looks at in each compute entry's kernel, measured by
ptxas without a GPU (compiler/backends/ptx/profile.py): registers, spills,
stack, shared memory, static SASS instructions, and the occupancy on sm_80
and sm_90 (resident warps per SM of 64, and what limits it)."""

from __future__ import annotations

import sys

from .common import Command, file_argument, translated

ARCHES = ("sm_80", "sm_90")


def _arguments(p) -> None:
    file_argument(p)
    p.add_argument("入口项", nargs="?", help="只剖析这个计算入口项（默认全部）")


def _run(args) -> int:
    from ..compiler.backends.ptx.profile import PtxasMissing, profile_entries
    done, status = translated(args.文件, "ptx")
    if done is None:
        return status
    _, result = done
    entries = [e for e in result.entries if args.入口项 in (None, e.item)]
    if not entries:
        sys.stderr.write(f"着色器：没有名为「{args.入口项}」的计算入口项\n")
        return 2
    try:
        by_arch = {arch: profile_entries(result.text, entries, arch) for arch in ARCHES}
    except PtxasMissing as err:
        sys.stderr.write(f"着色器：{err}\n")
        return 1
    for i, entry in enumerate(entries):
        sys.stdout.write(f"{entry.item}（{entry.function}，块 {'×'.join(map(str, entry.block))}）\n")
        for arch in ARCHES:
            sys.stdout.write(f"  {by_arch[arch][i].summary()}\n")
    return 0


PROFILE = Command(
    "剖析", ["profile"], "用 ptxas 剖析各计算入口的内核：寄存器、溢出、共享内存、SASS 条数、占用（不需要 GPU）",
    "把着色源的计算入口译成 PTX，交给 CUDA 工具包的 ptxas 为 sm_80 与 sm_90 汇编，逐个入口打印：寄存器数、"
    "寄存器溢出、栈、静态共享内存、SASS 指令条数，以及每个 SM 上驻留的线程束数（满 64）和限制它的资源。"
    "给出入口项时只剖析它。找不到 ptxas 时报错，退出码 1。",
    _arguments, _run)
