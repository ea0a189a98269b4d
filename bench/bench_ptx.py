"""Our PTX beside nvcc's, without a GPU (issue 27): for each sample in
CUDA below, the kernel we write and a hand-written CUDA C++ kernel of the same
algorithm (bench/cuda/名.cu, idiomatic: __restrict__ const inputs,
__launch_bounds__ of the same block) are both built for sm_80 — ours by
ptxas from our PTX, the CUDA one by nvcc — and compared by what ptxas reports
(registers, spills, shared memory) and the static SASS size of the cubin
(compiler/backends/ptx/profile.py); ours must keep at least nvcc's occupancy.
The figures are printed for our PTX as it is, with
the bounds checks off (`千手 --不查界`, `Options(bounds=False)`), and,
with --基线 REV, for the golden PTX of an earlier revision (its samples/名。千手),
each as a ratio to nvcc's; the last line is the geometric mean.

When nvdisasm is found (PATH, or the pip package nvidia-cuda-nvdisasm in
site-packages), the instructions a thread executes are counted too: trip
count × body along the path that enters every conditional body
(bench/sass_paths.py), at the launch sizes in LOOPS — for ours as it is, with
the bounds checks off, and with --快速数学 (nvcc contracts a*b+c into FFMA by
default, our default keeps the two roundings).

    python bench/bench_ptx.py [--基线 REV] [--写入README]

Needs nvcc and ptxas on PATH (no GPU).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / ".shim"))

from sass_paths import SourceLoop, executed  # noqa: E402
from zhuose.compiler.backends.ptx.profile import (KernelProfile, assemble, disassemble, nvdisasm,  # noqa: E402
                                                  parse_verbose, profile_entries, sass_counts)
from zhuose.compiler.backends.ptx.writer import Writer  # noqa: E402
from zhuose.compiler.backends.targets import Options  # noqa: E402
from zhuose.compiler.workspace import Workspace  # noqa: E402

SAMPLES = ROOT / "samples"
CUDA = Path(__file__).resolve().parent / "cuda"
#: sample → its entry item (the kernel compared); the CUDA file is bench/cuda/名.cu with one kernel
KERNELS = {"加倍": "加倍入口", "乘加": "乘加入口", "归约": "归约入口", "前缀和": "扫描入口",
           "分块矩阵乘": "分块乘入口", "模糊": "模糊入口", "矩阵向量积": "行积入口",
           "共享直方图": "统计入口", "子组归约": "子组归约入口"}
#: sample → its loops' trip counts at the launch sizes measured, outermost first, each with the SASS
#: instructions one round issues (the marker that tells which SASS loop it is and how far it was unrolled)
LOOPS = {
    "分块矩阵乘": [SourceLoop(64 // 16, ("BAR",), 2), SourceLoop(16, ("FFMA", "FMUL"))],   # M = N = K = 64
    "矩阵向量积": [SourceLoop(64, ("FFMA", "FMUL"))],                                     # 64 columns
    "归约": [SourceLoop(8, ("BAR",))],                                                    # strides 128 … 1
    "前缀和": [SourceLoop(8, ("BAR",), 2)],                                                # offsets 1 … 128
    "子组归约": [SourceLoop(5, ("FMNMX",)), SourceLoop(5, ("SHFL",))],                     # distances 16 … 1
}
ARCH = "sm_80"
MARKERS = ("<!-- bench_ptx:begin -->", "<!-- bench_ptx:end -->")


def nvcc_kernel(name: str) -> tuple[int, int, int, int | None, KernelProfile]:
    """(registers, spill bytes, SASS instructions, executed instructions, ptxas's report) of
    bench/cuda/名.cu built by nvcc -O3."""
    with tempfile.TemporaryDirectory() as folder:
        cubin = Path(folder) / "k.cubin"
        done = subprocess.run(["nvcc", f"-arch={ARCH}", "-O3", "-cubin", "-Xptxas", "-v", "-o", str(cubin),
                               str(CUDA / f"{name}.cu")], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        registers = int(re.search(r"Used (\d+) registers", done.stderr).group(1))
        spills = sum(int(v) for v in re.findall(r"(\d+) bytes spill", done.stderr))
        binary = cubin.read_bytes()
        (sass,) = sass_counts(binary).values()
        listing = disassemble(binary)
    (report,) = parse_verbose(done.stderr, ARCH).values()
    return registers, spills, sass, listing and executed(next(iter(listing.values())), LOOPS.get(name, [])), report


def ours(ws: Workspace, name: str, bounds: bool = True, fast_math: bool = False) -> str:
    path = SAMPLES / f"{name}。着色器。豫"
    result = Writer(ws.validate(path), Options(bounds=bounds, fast_math=fast_math)).translate()
    assert result.text is not None, result.diagnostics
    return result.text


def entry_of(ws: Workspace, name: str):
    path = SAMPLES / f"{name}。着色器。豫"
    entries = Writer(ws.validate(path)).translate().entries
    return next(e for e in entries if e.item == KERNELS[name])


def function_of(ws: Workspace, name: str) -> str:
    return entry_of(ws, name).function


def check_occupancy(ws: Workspace, name: str, report: KernelProfile) -> None:
    """Ours (registers, shared memory, the entry's block) keeps at least as many warps per SM as nvcc's."""
    (mine,) = profile_entries(ours(ws, name), [entry_of(ws, name)], ARCH)
    theirs = dataclasses.replace(report, block=mine.block)
    assert mine.occupancy()[0] >= theirs.occupancy()[0], f"{name} 的占用低于 nvcc：{mine.occupancy()} 对 {theirs.occupancy()}"


def baseline(revision: str, name: str) -> str | None:
    done = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:samples/{name}。千手"],
                          capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def figures(ptx: str, function: str) -> tuple[int, int, int]:
    k = assemble(ptx, ARCH)[function]
    return k.registers, k.spills, k.sass


def executed_ours(ptx: str, function: str, name: str) -> int | None:
    """Executed instructions per thread of our kernel (None without nvdisasm)."""
    with tempfile.TemporaryDirectory() as folder:
        source, cubin = Path(folder) / "k.ptx", Path(folder) / "k.cubin"
        source.write_text(ptx, encoding="ascii")
        subprocess.run(["ptxas", f"-arch={ARCH}", str(source), "-o", str(cubin)], check=True, timeout=300)
        listing = disassemble(cubin.read_bytes())
    return listing and executed(listing[function], LOOPS.get(name, []))


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def table(revision: str | None) -> str:
    ws = Workspace(SAMPLES)
    counted = nvdisasm() is not None
    head = ["样例", "nvcc 寄存器/SASS", "我们 寄存器/SASS", "比", "不查界 SASS", "比"]
    if counted:
        head += ["nvcc 执行", "我们 执行", "比", "不查界 执行", "比", "快速数学 执行", "比"]
    if revision:
        head += [f"基线 {revision[:7]} SASS", "比"]
    rows, ratios = [], {}

    def ratio(key: str, ours_: float, theirs: float) -> str:
        ratios.setdefault(key, []).append(ours_ / theirs)
        return f"{ours_ / theirs:.2f}"

    for name in KERNELS:
        regs, spills, sass, theirs, report = nvcc_kernel(name)
        check_occupancy(ws, name, report)
        function = function_of(ws, name)
        r, s, n = figures(ours(ws, name), function)
        _, _, unchecked = figures(ours(ws, name, bounds=False), function)
        assert s == 0 and spills == 0, f"{name} 溢出了寄存器"
        row = [name, f"{regs} / {sass}", f"{r} / {n}", ratio("now", n, sass),
               str(unchecked), ratio("unchecked", unchecked, sass)]
        if counted:
            mine = executed_ours(ours(ws, name), function, name)
            loose = executed_ours(ours(ws, name, bounds=False), function, name)
            fast = executed_ours(ours(ws, name, fast_math=True), function, name)
            row += [str(theirs), str(mine), ratio("run", mine, theirs),
                    str(loose), ratio("run unchecked", loose, theirs),
                    str(fast), ratio("run fast", fast, theirs)]
        if revision:
            old = baseline(revision, name)
            _, _, b = figures(old, function) if old else (0, 0, 0)
            row += [str(b), ratio("base", b, sass)]
        rows.append(row)
    mean = {key: f"{geometric_mean(values):.2f}" for key, values in ratios.items()}
    last = ["几何平均", "", "", mean["now"], "", mean["unchecked"]]
    if counted:
        last += ["", "", mean["run"], "", mean["run unchecked"], "", mean["run fast"]]
    if revision:
        last += ["", mean["base"]]
    rows.append(last)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def write_readme(text: str) -> None:
    readme = ROOT / "README.md"
    content = readme.read_text(encoding="utf-8")
    begin, end = content.index(MARKERS[0]), content.index(MARKERS[1])
    readme.write_text(content[:begin + len(MARKERS[0])] + "\n" + text + "\n" + content[end:], encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--基线", help="与这个 git 版本的 PTX 金标准比较")
    parser.add_argument("--写入README", action="store_true")
    args = parser.parse_args()
    if not (shutil.which("nvcc") and shutil.which("ptxas")):
        raise SystemExit("要 nvcc 与 ptxas 在 PATH 上（不需要 GPU）")
    text = table(args.基线)
    print(text)
    if args.写入README:
        write_readme(text)


if __name__ == "__main__":
    main()
