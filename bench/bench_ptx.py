"""Our PTX beside nvcc's, without a GPU (issue 27): for each sample in
CUDA below, the kernel we write and a hand-written CUDA C++ kernel of the same
algorithm (bench/cuda/名.cu, idiomatic: __restrict__ const inputs,
__launch_bounds__ of the same block) are both built for sm_80 — ours by
ptxas from our PTX, the CUDA one by nvcc — and compared by what ptxas reports
(registers, spills, shared memory) and the static SASS size of the cubin
(compiler/backends/ptx/profile.py).  The figures are printed for our PTX as it is, with
the bounds checks off (`千手 --不查界`, `Options(bounds=False)`), and,
with --基线 REV, for the golden PTX of an earlier revision (its samples/名。千手),
each as a ratio to nvcc's; the last line is the geometric mean.

    python bench/bench_ptx.py [--基线 REV] [--写入README]

Needs nvcc and ptxas on PATH (no GPU).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / ".shim"))

from zhuose.compiler.backends.ptx.profile import assemble, sass_counts  # noqa: E402
from zhuose.compiler.backends.ptx.writer import Writer  # noqa: E402
from zhuose.compiler.backends.targets import Options  # noqa: E402
from zhuose.compiler.workspace import Workspace  # noqa: E402

SAMPLES = ROOT / "samples"
CUDA = Path(__file__).resolve().parent / "cuda"
#: sample → its entry item (the kernel compared); the CUDA file is bench/cuda/名.cu with one kernel
KERNELS = {"加倍": "加倍入口", "乘加": "乘加入口", "归约": "归约入口", "前缀和": "扫描入口",
           "分块矩阵乘": "分块乘入口", "模糊": "模糊入口", "矩阵向量积": "行积入口",
           "共享直方图": "统计入口", "子组归约": "子组归约入口"}
ARCH = "sm_80"
MARKERS = ("<!-- bench_ptx:begin -->", "<!-- bench_ptx:end -->")


def nvcc_kernel(name: str) -> tuple[int, int, int]:
    """(registers, spill bytes, SASS instructions) of bench/cuda/名.cu built by nvcc -O3."""
    with tempfile.TemporaryDirectory() as folder:
        cubin = Path(folder) / "k.cubin"
        done = subprocess.run(["nvcc", f"-arch={ARCH}", "-O3", "-cubin", "-Xptxas", "-v", "-o", str(cubin),
                               str(CUDA / f"{name}.cu")], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        registers = int(re.search(r"Used (\d+) registers", done.stderr).group(1))
        spills = sum(int(v) for v in re.findall(r"(\d+) bytes spill", done.stderr))
        (sass,) = sass_counts(cubin.read_bytes()).values()
    return registers, spills, sass


def ours(ws: Workspace, name: str, bounds: bool = True) -> str:
    path = SAMPLES / f"{name}。着色器。豫"
    result = Writer(ws.validate(path), Options(bounds=bounds)).translate()
    assert result.text is not None, result.diagnostics
    return result.text


def function_of(ws: Workspace, name: str) -> str:
    path = SAMPLES / f"{name}。着色器。豫"
    entries = Writer(ws.validate(path)).translate().entries
    return next(e.function for e in entries if e.item == KERNELS[name])


def baseline(revision: str, name: str) -> str | None:
    done = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:samples/{name}。千手"],
                          capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def figures(ptx: str, function: str) -> tuple[int, int, int]:
    k = assemble(ptx, ARCH)[function]
    return k.registers, k.spills, k.sass


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def table(revision: str | None) -> str:
    ws = Workspace(SAMPLES)
    head = ["样例", "nvcc 寄存器/SASS", "我们 寄存器/SASS", "比", "不查界 SASS", "比"]
    if revision:
        head += [f"基线 {revision[:7]} SASS", "比"]
    rows, ratios = [], {"now": [], "unchecked": [], "base": []}
    for name in KERNELS:
        regs, spills, sass = nvcc_kernel(name)
        function = function_of(ws, name)
        r, s, n = figures(ours(ws, name), function)
        _, _, unchecked = figures(ours(ws, name, bounds=False), function)
        assert s == 0 and spills == 0, f"{name} 溢出了寄存器"
        ratios["now"].append(n / sass)
        ratios["unchecked"].append(unchecked / sass)
        row = [name, f"{regs} / {sass}", f"{r} / {n}", f"{n / sass:.2f}", str(unchecked), f"{unchecked / sass:.2f}"]
        if revision:
            old = baseline(revision, name)
            _, _, b = figures(old, function) if old else (0, 0, 0)
            ratios["base"].append(b / sass)
            row += [str(b), f"{b / sass:.2f}"]
        rows.append(row)
    mean = ["几何平均", "", "", f"{geometric_mean(ratios['now']):.2f}", "",
            f"{geometric_mean(ratios['unchecked']):.2f}"]
    if revision:
        mean += ["", f"{geometric_mean(ratios['base']):.2f}"]
    rows.append(mean)
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
