"""Our PTX beside nvcc's, without a GPU (issue 27): for each compute entry
named by a `//@` line in bench/cuda/样例.cu, the kernel we write and the
hand-written CUDA C++ kernel of the same algorithm in that file (idiomatic:
__restrict__ const inputs, __launch_bounds__ of the same block) are both built for sm_80 — ours by
ptxas from our PTX, the CUDA one by nvcc — and compared by what ptxas reports
(registers, spills, shared memory) and the static SASS size of the cubin
(compiler/backends/ptx/profile.py); ours must keep at least nvcc's occupancy.
The figures are printed for our PTX as it is, with
the bounds checks off (`千手 --不查界`, `Options(bounds=False)`), with
--快速数学, with both, and,
with --基线 REV, for the golden PTX of an earlier revision (its samples/名。千手),
each as a ratio to nvcc's; the last line is the geometric mean.

When nvdisasm is found (PATH, or the pip package nvidia-cuda-nvdisasm in
site-packages), the instructions a thread executes are counted too: trip
count × body along the path that enters every conditional body
(bench/sass_paths.py), at the launch sizes in the `//@` lines — for ours as it is, with
the bounds checks off, with --快速数学 (nvcc contracts a*b+c into FFMA by
default, our default keeps the two roundings), and with both (两者: nvcc's
twin has neither the checks nor the two roundings, so this column is what our
code generator itself makes of the same algorithm).

    python bench/bench_kernels.py [--基线 REV] [--写入README] [--样例 名 …]

Needs nvcc and ptxas on PATH (no GPU).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
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
from zhuose.compiler.backends.ptx.profile import (KernelProfile, disassemble, nvdisasm, parse_verbose,  # noqa: E402
                                                  ptxas_build, sass_counts)
from zhuose.compiler.backends.ptx.writer import Writer  # noqa: E402
from zhuose.compiler.backends import Translation  # noqa: E402
from zhuose.compiler.backends.targets import Options  # noqa: E402
from zhuose.compiler.workspace import Workspace  # noqa: E402

SAMPLES = ROOT / "samples"
CUDA = Path(__file__).resolve().parent / "cuda"
#: `//@ 入口项 = 函数 [循环 轮数 标记,标记[/每轮]]…` in bench/cuda/样例.cu: the entry compared with that CUDA
#: kernel, and its loops' trip counts at the launch sizes measured, outermost first, each with the SASS
#: instructions one round issues (the marker that tells which SASS loop it is and how far it was unrolled)
HEADER = re.compile(r"^//@ (\S+) = (\w+)(.*)$", re.MULTILINE)
LOOP = re.compile(r"循环 (\d+) ([\w,]+)(?:/(\d+))?")


@dataclasses.dataclass(frozen=True)
class Pair:
    """One entry of a sample and the hand-written CUDA kernel it is compared with."""
    sample: str
    entry: str
    kernel: str
    loops: tuple[SourceLoop, ...]
    only: bool = True

    @property
    def label(self) -> str:
        return self.sample if self.only else f"{self.sample}·{self.entry}"


def pairs(wanted: list[str] | None = None) -> list[Pair]:
    """Every `//@` line of bench/cuda/**/*.cu (the sample's path under samples/), or of the samples wanted."""
    found = []
    for source in sorted(CUDA.rglob("*.cu")):
        sample = source.relative_to(CUDA).with_suffix("").as_posix()
        if wanted and sample not in wanted:
            continue
        heads = HEADER.findall(source.read_text(encoding="utf-8"))
        for entry, kernel, rest in heads:
            loops = tuple(SourceLoop(int(n), tuple(marker.split(",")), int(per or 1))
                          for n, marker, per in LOOP.findall(rest))
            found.append(Pair(sample, entry, kernel, loops, only=len(heads) == 1))
    return found


ARCH = "sm_80"
MARKERS = ("<!-- bench_kernels:begin -->", "<!-- bench_kernels:end -->")


@functools.cache
def nvcc_build(sample: str, contract: bool = True) -> tuple[str, bytes, dict]:
    """ptxas's report, the cubin and its disassembly of bench/cuda/样例.cu built by nvcc -O3 (with
    -fmad=false when not `contract`)."""
    with tempfile.TemporaryDirectory() as folder:
        cubin = Path(folder) / "k.cubin"
        done = subprocess.run(["nvcc", f"-arch={ARCH}", "-O3", f"-fmad={str(contract).lower()}", "-cubin",
                               "-Xptxas", "-v", "-o", str(cubin),
                               str(CUDA / f"{sample}.cu")], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        binary = cubin.read_bytes()
    return done.stderr, binary, disassemble(binary)


def nvcc_kernel(pair: Pair, contract: bool = True) -> tuple[int, int, int, int | None, KernelProfile]:
    """(registers, spill bytes, SASS instructions, executed instructions, ptxas's report) of the pair's
    CUDA kernel."""
    log, binary, listing = nvcc_build(pair.sample, contract)
    return measured(log, binary, listing, pair.kernel, pair)


def ours_kernel(ptx: str, function: str, pair: Pair) -> tuple[int, int, int, int | None, KernelProfile]:
    """nvcc_kernel's figures for our PTX, assembled once."""
    log, binary = ptxas_build(ptx, ARCH)
    return measured(log, binary, disassemble(binary), function, pair)


def measured(log: str, binary: bytes, listing: dict | None, function: str,
             pair: Pair) -> tuple[int, int, int, int | None, KernelProfile]:
    report = parse_verbose(log, ARCH)[function]
    sass = sass_counts(binary)[function]
    return report.registers, report.spills, sass, listing and executed(listing[function], pair.loops), report


def ours(ws: Workspace, pair: Pair, bounds: bool = True, fast_math: bool = False) -> Translation:
    path = SAMPLES / f"{pair.sample}。着色器。豫"
    result = Writer(ws.validate(path), Options(bounds=bounds, fast_math=fast_math)).translate()
    assert result.text is not None, result.diagnostics
    return result


def entry_of(result: Translation, pair: Pair):
    return next(e for e in result.entries if e.item == pair.entry)


def check_occupancy(ours_: KernelProfile, theirs: KernelProfile, block: tuple[int, int, int], pair: Pair) -> None:
    """Ours (registers, shared memory, the entry's block) keeps at least as many warps per SM as nvcc's."""
    mine, theirs = (dataclasses.replace(k, block=math.prod(block)) for k in (ours_, theirs))
    assert mine.occupancy()[0] >= theirs.occupancy()[0], \
        f"{pair.label} 的占用低于 nvcc：{mine.occupancy()} 对 {theirs.occupancy()}"


def baseline(revision: str, pair: Pair) -> str | None:
    done = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:samples/{pair.sample}。千手"],
                          capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


class Table:
    """Rows of cells; a ratio cell also joins its column's geometric mean on the last line."""

    def __init__(self) -> None:
        self.head: list[str] = []
        self.rows: list[list[str]] = []
        self.ratios: dict[int, list[float]] = {}

    def row(self) -> None:
        self.rows.append([])

    def cell(self, title: str, text: object) -> None:
        self._put(title, str(text))

    def ratio(self, ours_: float, theirs: float, title: str = "比") -> None:
        self.ratios.setdefault(len(self.rows[-1]), []).append(ours_ / theirs)
        self._put(title, f"{ours_ / theirs:.2f}")

    def _put(self, title: str, text: str) -> None:
        if len(self.rows) == 1:
            self.head.append(title)
        self.rows[-1].append(text)

    def markdown(self) -> str:
        last = [f"{geometric_mean(self.ratios[i]):.2f}" if i in self.ratios else "" for i in range(len(self.head))]
        last[0] = "几何平均"
        lines = ["| " + " | ".join(self.head) + " |", "|" + "---|" * len(self.head)]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows + [last]]
        return "\n".join(lines)


def _variants(out: Table, what: str, theirs: int, mine: int, unchecked: int, fast: int, bare: int,
              exact: int) -> None:
    """Ours without bounds checks, with --快速数学, and with both (nvcc's twin has neither checks nor
    the exact rounding: what is left is the code generator's own) against nvcc; ours as it is against
    nvcc -fmad=false."""
    out.cell(f"不查界 {what}", unchecked)
    out.ratio(unchecked, theirs)
    out.cell(f"快速数学 {what}", fast)
    out.ratio(fast, theirs)
    out.cell(f"两者 {what}", bare)
    out.ratio(bare, theirs)
    out.cell(f"nvcc 不合乘加 {what}", exact)
    out.ratio(mine, exact, "我们÷它")


def table(revision: str | None, wanted: list[str] | None = None) -> str:
    """Per entry: nvcc's figures, ours (bounds checks on), ours without them, ours with --快速数学, and
    nvcc -fmad=false (the same rounding as our default: no a*b+c contracted), static and executed."""
    ws = Workspace(SAMPLES)
    counted = nvdisasm() is not None
    out = Table()
    for pair in pairs(wanted):
        regs, spills, sass, theirs, report = nvcc_kernel(pair)
        _, _, sass_exact, theirs_exact, _ = nvcc_kernel(pair, contract=False)
        now = ours(ws, pair)
        entry = entry_of(now, pair)
        function = entry.function
        variants = {"now": now.text, "unchecked": ours(ws, pair, bounds=False).text,
                    "fast": ours(ws, pair, fast_math=True).text,
                    "bare": ours(ws, pair, bounds=False, fast_math=True).text}
        (r, s, n, mine, profile), (_, _, unchecked, loose, _), (_, _, fast, quick, _), (_, _, bare, plain, _) = (
            ours_kernel(variants[k], function, pair) for k in ("now", "unchecked", "fast", "bare"))
        check_occupancy(profile, report, entry.block, pair)
        assert s == 0 and spills == 0, f"{pair.label} 溢出了寄存器"
        out.row()
        out.cell("样例", pair.label)
        out.cell("nvcc 寄存器/SASS", f"{regs} / {sass}")
        out.cell("我们 寄存器/SASS", f"{r} / {n}")
        out.ratio(n, sass)
        _variants(out, "SASS", sass, n, unchecked, fast, bare, sass_exact)
        if counted:
            out.cell("nvcc 执行", theirs)
            out.cell("我们 执行", mine)
            out.ratio(mine, theirs)
            _variants(out, "执行", theirs, mine, loose, quick, plain, theirs_exact)
        if revision:
            old = baseline(revision, pair)
            before = sass_counts(ptxas_build(old, ARCH)[1])[function] if old else 0
            out.cell(f"基线 {revision[:7]} SASS", before)
            out.ratio(before, sass)
    return out.markdown()


def write_readme(text: str) -> None:
    readme = ROOT / "README.md"
    content = readme.read_text(encoding="utf-8")
    begin, end = content.index(MARKERS[0]), content.index(MARKERS[1])
    readme.write_text(content[:begin + len(MARKERS[0])] + "\n" + text + "\n" + content[end:], encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--基线", help="与这个 git 版本的 PTX 金标准比较")
    parser.add_argument("--写入README", action="store_true")
    parser.add_argument("--样例", nargs="+", help="只比这几个样例（samples/ 下的路径，不带后缀）")
    args = parser.parse_args()
    if not (shutil.which("nvcc") and shutil.which("ptxas")):
        raise SystemExit("要 nvcc 与 ptxas 在 PATH 上（不需要 GPU）")
    if args.写入README and args.样例:
        raise SystemExit("--写入README 要比全部样例，不能与 --样例 同用")
    text = table(args.基线, args.样例)
    print(text)
    if args.写入README:
        write_readme(text)


if __name__ == "__main__":
    main()
