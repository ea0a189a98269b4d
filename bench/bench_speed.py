"""How fast the toolchain starts and translates, beside the compiled WGSL
compilers, all measured in one run so the ratios hold on a loaded machine.

- whole process: `python -m zhuose.cli 译 samples/加倍。着色器。豫` beside `python -c pass`;
- in process, per sample: check + translate to WGSL in a fresh Workspace, and
  again in the warm one (nothing changed), beside naga's create_shader_module
  (wgpu) and Tint's createShaderModule + getCompilationInfo (Dawn's node
  binding on the null backend, as tests/support/tint.py uses it) on the very WGSL
  we produce;
- scaling: check + translate of a generated 1k, 4k and 16k line file, and the
  diagnostics after a body edit (CPU time of this process; the heap frozen
  after the first check, as the language server freezes it once a file is open);
  once more at 16k with every function calling the one before, so the entry
  reaches them all (the stage rule and the workgroup variables follow calls);
- `着色器 生成` of bench_generate's 200-module tree: cold, and with nothing
  changed (into a folder; one module to standard output; a restarted build
  service asked for all 200).

The machine is shared, so besides wall-clock time the figures give CPU time
(user + system of a subprocess; this process's for the fresh workspaces and
the scaling series), which other people's load barely moves.  Subprocesses
keep their byte code in a temporary PYTHONPYCACHEPREFIX, as an
installed package has its .pyc files (PYTHONDONTWRITEBYTECODE is dropped for
them): otherwise every start would compile the whole compiler from source.
The user cache is a temporary folder too, filled by each measurement's first
run, as on a fresh install: a developer's own cache also holds entries of
every earlier version of the code (the dataclass methods of 1,000 versions of
a class, say), which a user's never does.

    nice python bench/bench_speed.py [--写入README]

With --写入README the ratios replace the block between the bench_speed
markers in README.md's performance section.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
from bench_frontend import make_package  # noqa: E402
from support.generate_fakes import make_tree  # noqa: E402

from zhuose.compiler import cache  # noqa: E402
from zhuose.compiler.backends import translate  # noqa: E402
from zhuose.compiler.workspace import Workspace  # noqa: E402
from zhuose.server.publisher import freeze_alive  # noqa: E402

SAMPLES = ROOT / "samples"
DOUBLE = SAMPLES / "加倍。着色器。豫"
TINT = ROOT / "tests" / "tint"
README = ROOT / "README.md"
BEGIN, END = "<!-- bench_speed:begin -->", "<!-- bench_speed:end -->"

# times each shader `repeat` times with a unique trailing comment (Dawn keeps a module per source text)
TINT_TIMER = r"""
import { createInterface } from 'node:readline';
import { create, globals } from 'webgpu';
Object.assign(globalThis, globals);
const gpu = create(['backend=null']);
const adapter = await gpu.requestAdapter();
const device = await adapter.requestDevice({
  requiredFeatures: ['subgroups', 'shader-f16'].filter((f) => adapter.features.has(f)) });
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { wgsl, repeat } = JSON.parse(line);
  const times = [];
  for (let i = 0; i < repeat; i++) {
    const code = wgsl + `\n// ${i} ${Math.random()}\n`;
    const t = process.hrtime.bigint();
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    await device.popErrorScope();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (info.messages.some((m) => m.type === 'error')) { times.length = 0; break; }
  }
  process.stdout.write(JSON.stringify({ times }) + '\n');
}
process.exit(0);
"""


#: the environment of every subprocess; PYTHONPYCACHEPREFIX is set in main()
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, env=ENV, capture_output=True, check=True, **kwargs)


BARE = [sys.executable, "-c", "pass"]


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


def timed(fn, clock=time.perf_counter):
    t = clock()
    result = fn()
    return clock() - t, result


def cpu_timed(fn):
    """This process's CPU time: what our code costs, whatever else the shared machine runs."""
    return timed(fn, time.process_time)


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Runs:
    """Wall-clock and CPU times (user + system) of repeated subprocess runs."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def run(self, cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
        cpu = child_cpu()
        wall, done = timed(lambda: run(cmd, **kwargs))
        self.cpu.append(child_cpu() - cpu)
        self.wall.append(wall)
        return done

    def ms(self) -> str:
        return f"{median_ms(self.wall):.0f} ms（CPU {median_ms(self.cpu):.0f} ms）"

    def s(self) -> str:
        return f"{statistics.median(self.wall):.2f} s（CPU {statistics.median(self.cpu):.2f} s）"

    def over(self, other: "Runs") -> str:
        """The wall-clock ratio (the CPU ratio)."""
        return (f"{statistics.median(self.wall) / statistics.median(other.wall):.1f}×"
                f"（CPU {statistics.median(self.cpu) / statistics.median(other.cpu):.1f}×）")


# ---------------------------------------------------------------- whole process


def whole_process(repeat: int) -> dict:
    """Unchanged input (the ledger answers), an edited copy (checked and
    translated, with the parser tables, the builtin snapshot and dataclasses'
    compiled methods from the cache; lark is not imported),
    and a bare interpreter, interleaved so all three see the same load."""
    ours, edited, bare = Runs(), Runs(), Runs()
    cmd = [sys.executable, "-m", "zhuose.cli", "译", str(DOUBLE)]
    run(cmd, cwd=ROOT)   # fills the user cache and the byte code once
    run(BARE)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / DOUBLE.name
        text = DOUBLE.read_text(encoding="utf-8")
        copy.write_text(text + "「：改动：」\n", encoding="utf-8")
        run([sys.executable, "-m", "zhuose.cli", "译", copy.name], cwd=tmp)   # and what a check adds to it
        for k in range(repeat):
            ours.run(cmd, cwd=ROOT)
            copy.write_text(text + f"「：改动 {k}：」\n", encoding="utf-8")
            edited.run([sys.executable, "-m", "zhuose.cli", "译", copy.name], cwd=tmp)
            bare.run(BARE)
    return {"ours": ours, "edited": edited, "bare": bare}


# ---------------------------------------------------------------- per sample


def samples() -> list[Path]:
    return sorted(SAMPLES.glob("*。着色器。豫"))


def in_process(tries: int = 3) -> tuple[dict[str, str], list[float], list[float], list[float]]:
    """The WGSL of each sample that has one; fresh check+translate CPU and
    wall-clock times and warm wall-clock times: the fastest of `tries` fresh
    workspaces (nothing is kept between them but the imports, the parser and
    the builtin snapshot, which every fresh workspace has) and of 5 repeats
    in the warm one.  Whatever is set beside naga and Tint is wall-clock time,
    as theirs is (wgpu's CPU time counts its other threads too)."""
    texts, fresh, fresh_wall, warm = {}, [], [], []
    translate(Workspace(SAMPLES), DOUBLE, "wgsl")   # imports and the parser, once per process
    for path in samples():
        cpu, wall = [], []
        for _ in range(tries):
            ws = Workspace(SAMPLES)
            t_wall = time.perf_counter()
            t, result = cpu_timed(lambda: translate(ws, path, "wgsl"))
            wall.append(time.perf_counter() - t_wall)
            cpu.append(t)
        if result.text is None:
            continue
        texts[path.name] = result.text
        fresh.append(min(cpu))
        fresh_wall.append(min(wall))
        warm.append(min(timed(lambda: translate(ws, path, "wgsl"))[0] for _ in range(5)))
    return texts, fresh, fresh_wall, warm


def naga_times(texts: dict[str, str], repeat: int) -> list[float] | None:
    try:
        from zhuose.compiler.runtime.wgpu import WebGPUError, for_wgpu, open_device, required_features
    except ImportError:
        return None
    out = []
    for i, wgsl in enumerate(texts.values()):
        try:
            device = open_device(required_features(wgsl))
        except WebGPUError:
            return None
        times = []
        for k in range(repeat):
            code = f"{for_wgpu(wgsl)}\n// {i} {k}\n"   # as the tests hand it to naga
            times.append(timed(lambda: device.create_shader_module(code=code))[0])
        out.append(statistics.median(times))
    return out


def tint_times(texts: dict[str, str], repeat: int) -> list[float] | None:
    node = shutil.which("node")
    if node is None or not (TINT / "node_modules" / "webgpu").is_dir():
        return None
    request = "".join(json.dumps({"wgsl": w, "repeat": repeat}) + "\n" for w in texts.values())
    p = subprocess.run([node, "--input-type=module", "-e", TINT_TIMER], cwd=TINT, input=request,
                       capture_output=True, text=True, encoding="utf-8", timeout=600)
    if p.returncode != 0:
        return None
    answers = [json.loads(line)["times"] for line in p.stdout.splitlines()]
    if len(answers) != len(texts) or not all(answers):
        return None
    return [statistics.median(ts) / 1000 for ts in answers]


# ---------------------------------------------------------------- scaling


def scaling(sizes: list[int], edits: int, chained: bool = False) -> list[dict]:
    rows = []
    for lines in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            path = make_package(Path(tmp), lines, chained)
            text = path.read_text(encoding="utf-8")
            ws = Workspace(tmp)
            t, result = cpu_timed(lambda: translate(ws, path, "wgsl"))
            assert result.text is not None, result.diagnostics[:3]
            freeze_alive()  # what server/publisher.py does once an opened file is checked and translated
            times = []
            for k in range(edits):
                ws.set_document(path, text.replace("「新无三二」于「7」", f"「新无三二」于「{8 + k}」", 1))
                times.append(cpu_timed(lambda: ws.diagnostics(path))[0])
            rows.append({"lines": text.count("\n") + 1, "translate": t * 1000, "edit": median_ms(times)})
    return rows


# ---------------------------------------------------------------- 生成


def generate_figures(modules: int, repeat: int = 3) -> dict:
    """`生成` of the tree into a folder, cold and unchanged; one module to
    standard output, unchanged; a restarted build service asked for every
    module (unchanged, the same folder); each beside `python -c pass`."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = sorted(make_tree(root, modules))
        cmd = [sys.executable, "-m", "zhuose.cli", "生成", *files, "--输出目录", "产物"]
        one = [sys.executable, "-m", "zhuose.cli", "生成", files[-1]]
        service = [sys.executable, "-m", "zhuose.cli", "服务", "--构建"]
        requests = "".join(json.dumps({"文件": f, "输出目录": "产物"}, ensure_ascii=False) + "\n" for f in files)
        cold, again, printed, served, bare = Runs(), Runs(), Runs(), Runs(), Runs()
        cold.run(cmd, cwd=root)
        run(one, cwd=root)
        for _ in range(repeat):
            again.run(cmd, cwd=root)
            printed.run(one, cwd=root)
            p = served.run(service, cwd=root, input=requests.encode("utf-8"))
            assert p.stdout.decode("utf-8").count('"改动": false') == len(files), "服务改写了未改动的模块"
            bare.run(BARE)
        return {"modules": len(files), "cold": cold, "unchanged": again, "stdout": printed, "service": served,
                "bare": bare}


# ---------------------------------------------------------------- report


def report(args) -> list[str]:
    lines = []
    proc = whole_process(args.次数)
    bare = proc["bare"]
    lines.append(f"| `着色器 译 加倍` 未改动，整个进程 | {proc['ours'].ms()} | `python -c pass` {bare.ms()}"
                 f" | {proc['ours'].over(bare)}（目标 ≤ 2×） |")
    lines.append(f"| `着色器 译` 改过的文件（要检查＋译）整个进程 | {proc['edited'].ms()} | `python -c pass`"
                 f" {bare.ms()} | {proc['edited'].over(bare)}（目标 ≤ 3×） |")
    texts, fresh, fresh_wall, warm = in_process()
    lines.append(f"| 新工作区 检查＋译（{len(fresh)} 个样例，中位数，CPU） | {median_ms(fresh):.1f} ms"
                 f"（最大 {max(fresh) * 1000:.0f} ms；墙钟中位数 {median_ms(fresh_wall):.1f} ms） | — | 目标 ≤ 20 ms |")
    naga = naga_times(texts, args.次数)
    tint = tint_times(texts, args.次数)
    total_warm = sum(warm) * 1000
    if naga:
        lines.append(f"| 未改动样例再译（热工作区，{len(warm)} 个合计） | {total_warm:.1f} ms | naga create_shader_module"
                     f" 合计 {sum(naga) * 1000:.1f} ms | {sum(warm) / sum(naga):.1f}×（目标 ≤ 10×） |")
        lines.append(f"| 新工作区 检查＋译（合计，墙钟） | {sum(fresh_wall) * 1000:.0f} ms | naga 合计 {sum(naga) * 1000:.1f} ms"
                     f" | {sum(fresh_wall) / sum(naga):.0f}× |")
    else:
        lines.append(f"| 未改动样例再译（合计） | {total_warm:.1f} ms | naga：没有 WebGPU 适配器，未测 | — |")
    if tint:
        lines.append(f"| 未改动样例再译（合计） | {total_warm:.1f} ms | Tint（Dawn 空后端）合计 {sum(tint) * 1000:.1f} ms"
                     f" | {sum(warm) / sum(tint):.1f}× |")
    else:
        lines.append("| Tint | — | 没有 node 或 tests/tint/node_modules，未测 | — |")
    rows = scaling([1000, 4000, 16000], args.编辑次数) + scaling([16000], args.编辑次数, chained=True)
    for r, shape in zip(rows, ["", "", "", "，入口经过每个函数"]):
        per_k = r["translate"] / (r["lines"] / 1000)
        lines.append(f"| {r['lines']:,} 行{shape}：检查＋译 | {r['translate']:.0f} ms（每千行 {per_k:.0f} ms） | "
                     f"改函数体后诊断 {r['edit']:.1f} ms | 编辑目标 ≤ 10 ms |")
    gen = generate_figures(args.模块数)
    bare = gen["bare"]
    lines.append(f"| `着色器 生成` {gen['modules']} 个模块 冷 | {gen['cold'].s()} | — | — |")
    lines.append(f"| `着色器 生成` 什么都没改 | {gen['unchanged'].s()} | `python -c pass` {bare.s()}"
                 f" | 目标 ≤ 0.3 s |")
    lines.append(f"| `着色器 生成` 一个模块到标准输出，没改 | {gen['stdout'].s()} | `python -c pass` {bare.s()}"
                 f" | {gen['stdout'].over(bare)} |")
    lines.append(f"| 构建服务重新启动，{gen['modules']} 个请求都没改（整个进程） | {gen['service'].s()} |"
                 f" `python -c pass` {bare.s()} | 目标 ≤ 0.3 s |")
    return lines


def write_readme(table: list[str]) -> None:
    block = "\n".join([BEGIN, "| 测量 | 我们 | 对照（同一次运行） | 比值 |", "| --- | --- | --- | --- |", *table, END])
    text = README.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        sys.exit("README.md 里没有 bench_speed 标记：先在「性能」一节放好两行标记")
    README.write_text(pattern.sub(lambda _: block, text), encoding="utf-8")


def main() -> int:
    sys.setrecursionlimit(20000)
    ap = argparse.ArgumentParser(description="启动与翻译速度，与 naga、Tint 在同一次运行里对比")
    ap.add_argument("--次数", type=int, default=7, help="每项重复次数（取中位数）")
    ap.add_argument("--编辑次数", type=int, default=10)
    ap.add_argument("--模块数", type=int, default=200)
    ap.add_argument("--写入README", action="store_true", dest="写入README")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as pycache, tempfile.TemporaryDirectory() as user_cache:
        ENV["PYTHONPYCACHEPREFIX"] = pycache
        ENV[cache.CACHE_ENV] = os.environ[cache.CACHE_ENV] = user_cache   # as a fresh install: no other code's entries
        table = report(args)
    print("\n".join(table))
    if args.写入README:
        write_readme(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
