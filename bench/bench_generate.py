"""Benchmark of build-time generation (seed 着二) on a 200-module tree.

Measures, on the tree of tests/support/generate_fakes.make_tree (40 library
modules, 160 kernels, one package):

- `着色器 生成 … --输出目录` over the whole tree: cold (writes every file),
  again with nothing changed (rewrites nothing), and after editing one
  imported module;
- eight such processes at once on a fresh output folder, then checks that
  the files are complete and that no temporary file is left;
- the build service (serve_build, JSON lines over pipes): the first request
  per module, then the warm answer for an unchanged module, next to the cost
  of merely reading and sha256-hashing that module's input files.

    python bench/bench_generate.py [--模块数 200]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.generate_fakes import make_tree  # noqa: E402

from zhuose.compiler.generate.output import TEMPORARY_MARK  # noqa: E402
from zhuose.compiler.generate.service import BuildService  # noqa: E402
from zhuose.compiler.workspace import Workspace  # noqa: E402

CLI = [sys.executable, "-m", "zhuose.cli", "生成"]
SERVICE = [sys.executable, "-c", "import sys; from zhuose.compiler.generate.service import serve_build; "
           "from zhuose.compiler.workspace import Workspace; sys.exit(serve_build(sys.stdin, sys.stdout, Workspace('.')))"]
EDITED = "库/库03。着色器。豫"


def timed_cli(root: Path, files: list[str], out: str, workers: int = 1) -> tuple[float, list[str]]:
    start = time.perf_counter()
    procs = [subprocess.Popen([*CLI, *files, "--输出目录", out], cwd=root, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, encoding="utf-8") for _ in range(workers)]
    outputs = [p.communicate()[0] for p in procs]
    elapsed = time.perf_counter() - start
    if any(p.returncode for p in procs):
        sys.exit("生成失败")
    return elapsed, [line.split("\t")[1] for line in outputs[0].splitlines()]


def edit(root: Path) -> None:
    path = root / EDITED
    path.write_text(path.read_text(encoding="utf-8") + "「：改动：」\n", encoding="utf-8")


def read_and_hash(inputs: list[str]) -> str:
    h = hashlib.sha256()
    for p in inputs:
        h.update(Path(p).read_bytes())
    return h.hexdigest()


class Service:
    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(SERVICE, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, encoding="utf-8")

    def ask(self, file: str, out: str) -> tuple[float, dict]:
        start = time.perf_counter()
        self.proc.stdin.write(json.dumps({"文件": file, "输出目录": out}, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        return time.perf_counter() - start, reply

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs"


def bench_cli(root: Path, files: list[str]) -> None:
    cold, states = timed_cli(root, files, "产物")
    print(f"CLI 冷（写出 {states.count('已更新')} 个文件）：{cold:.2f} s")
    again, states = timed_cli(root, files, "产物")
    print(f"CLI 再跑一遍（未改动 {states.count('未改动')} 个）：{again:.2f} s")
    edit(root)
    after, states = timed_cli(root, files, "产物")
    print(f"CLI 改一个被导入的模块后（改写 {states.count('已更新')} 个）：{after:.2f} s")
    parallel, _ = timed_cli(root, files, "并行产物", workers=8)
    written = [p for p in (root / "并行产物").rglob("*") if p.is_file()]
    leftovers = [p for p in written if TEMPORARY_MARK in p.name]
    same = all((root / "并行产物" / p.relative_to(root / "产物")).read_bytes() == p.read_bytes()
               for p in (root / "产物").rglob("*") if p.is_file())
    print(f"8 个进程同时生成：{parallel:.2f} s；文件 {len(written)} 个，临时文件 {len(leftovers)} 个，"
          f"与单进程产物{'相同' if same else '不同'}")


def bench_service(root: Path, files: list[str]) -> None:
    service = Service(root)
    cold = [service.ask(f, "服务产物")[0] for f in files]
    warm = []
    for f in files:
        elapsed, reply = service.ask(f, "服务产物")
        assert reply["改动"] is False and reply["模块"], reply
        warm.append(elapsed)
    edit(root)
    edited = [service.ask(f, "服务产物") for f in files]
    service.close()
    print(f"服务 冷：共 {sum(cold):.2f} s（每个模块中位数 {ms(statistics.median(cold))}）")
    print(f"服务 热（未改动）：共 {ms(sum(warm))}，每个请求中位数 {us(statistics.median(warm))}"
          f"（含 JSON 与管道往返）")
    print(f"服务 改一个被导入的模块后：共 {sum(t for t, _ in edited):.2f} s，"
          f"改写 {sum(r['改动'] for _, r in edited)} 个")

    service = BuildService(Workspace(root))
    requests = {f: json.dumps({"文件": f, "输出目录": "服务产物"}, ensure_ascii=False) for f in files}
    for f in files:
        service.answer(requests[f])
    inputs = {f: service.gen.generate(root / f).inputs for f in files}
    hot, baseline = [], []
    for f in files:
        start = time.perf_counter()
        service.answer(requests[f])
        hot.append(time.perf_counter() - start)
        start = time.perf_counter()
        read_and_hash(inputs[f])
        baseline.append(time.perf_counter() - start)
    print(f"服务进程内的热回答（不含管道）每个模块中位数 {us(statistics.median(hot))}；"
          f"只读入并 sha256 它的 {len(inputs[files[-1]])} 个输入文件 {us(statistics.median(baseline))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--模块数", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = sorted(make_tree(root, args.模块数))
        bench_cli(root, files)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = sorted(make_tree(root, args.模块数))
        bench_service(root, files)


if __name__ == "__main__":
    main()
