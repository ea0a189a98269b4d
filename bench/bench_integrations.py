"""Benchmark of the build integrations on a 200-module tree (40 library
modules, 160 kernels: tests/support/generate_fakes.make_tree): CMake + Ninja
(integrations/cmake, one WGSL command per kernel with its depfile) and
`vite build` of an app importing every kernel (integrations/vite, one build
service).  Each is timed cold (fresh user cache), with nothing changed, and
after a comment is added to one imported library module.

    python bench/bench_integrations.py [--模块数 200]

Needs cmake and ninja on PATH, and integrations/vite/example's npm packages
for the Vite rows (a row is left out without them)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from support.generate_fakes import make_tree  # noqa: E402

EDITED = "库/库03。着色器。豫"
VITE_PACKAGES = ROOT / "integrations" / "vite" / "example" / "node_modules"


def edit(root: Path) -> None:
    path = root / EDITED
    path.write_text(path.read_text(encoding="utf-8") + "「：改动：」\n", encoding="utf-8")


def timed(args: list[str], cwd: Path, env: dict) -> tuple[float, str]:
    start = time.perf_counter()
    p = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8")
    if p.returncode:
        sys.exit(p.stdout[-2000:] + p.stderr[-2000:])
    return time.perf_counter() - start, p.stdout


def bench_ninja(root: Path, kernels: list[str], env: dict) -> list[tuple[str, float, str]]:
    sources = " ".join(kernels)
    (root / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(bench NONE)\n"
        f'list(APPEND CMAKE_MODULE_PATH "{ROOT / "integrations" / "cmake"}")\ninclude(ZhuoseShaders)\n'
        f"zhuose_add_shaders(kernels SOURCES {sources})\n", encoding="utf-8")
    build = root / "构建"
    build.mkdir()
    command = ";".join([sys.executable, "-m", "zhuose.cli"])
    timed(["cmake", "-G", "Ninja", str(root), f"-DZHUOSE_COMMAND={command}"], build, env)
    rows = []
    for what in ("冷", "什么都没改", "改一个被导入的模块（注释）"):
        if what.startswith("改"):
            edit(root)
        seconds, out = timed(["ninja"], build, env)
        ran = len(re.findall(r"^\[\d+/\d+\]", out, re.M))
        rows.append((f"CMake + Ninja：{what}", seconds, f"{ran} 条命令"))
    return rows


def bench_vite(root: Path, kernels: list[str], env: dict) -> list[tuple[str, float, str]]:
    vite = VITE_PACKAGES / ".bin" / "vite"
    if not vite.exists():
        return []
    (root / "vite.config.mjs").write_text(
        f'import {{ defineConfig }} from "{VITE_PACKAGES / "vite" / "dist" / "node" / "index.js"}";\n'
        f'import zhuose from "{ROOT / "integrations" / "vite" / "index.js"}";\n'
        "export default defineConfig({ plugins: [zhuose()], logLevel: 'warn' });\n", encoding="utf-8")
    (root / "main.js").write_text("".join(f'import 核{i} from "./{k}";\n' for i, k in enumerate(kernels))
                                  + f"console.log([{', '.join(f'核{i}.着色源' for i in range(len(kernels)))}]);\n",
                                  encoding="utf-8")
    (root / "index.html").write_text('<script type="module" src="./main.js"></script>\n', encoding="utf-8")
    rows = []
    for what in ("冷", "什么都没改", "改一个被导入的模块（注释）"):
        if what.startswith("改"):
            edit(root)
        seconds, _ = timed([str(vite), "build", "--config", "vite.config.mjs", "--outDir", "dist"], root, env)
        rows.append((f"vite build：{what}", seconds, f"{len(kernels)} 个着色源"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--模块数", type=int, default=200)
    args = parser.parse_args()
    if not (shutil.which("cmake") and shutil.which("ninja")):
        sys.exit("没有 cmake 或 ninja")
    rows = []
    for bench in (bench_ninja, bench_vite):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            kernels = sorted(k for k in make_tree(root, args.模块数) if not k.startswith("库/"))
            env = dict(os.environ, ZHUOSE_CACHE_DIR=str(root / ".缓存"),
                       ZHUOSE_COMMAND=f"{sys.executable} -m zhuose.cli")
            rows += bench(root, kernels, env)
    print("| 测量 | 墙钟 | 做了什么 |\n| --- | --- | --- |")
    for name, seconds, note in rows:
        print(f"| {name} | {seconds:.2f} s | {note} |")


if __name__ == "__main__":
    main()
