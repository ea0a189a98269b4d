"""Benchmark of the build integrations on a 200-module tree (40 library
modules, 160 kernels: tests/support/generate_fakes.make_tree): CMake + Ninja
(integrations/cmake, one WGSL command per kernel with its depfile), `vite
build` of an app importing every kernel (integrations/vite, one build
service) and Bazel (integrations/bazel: a zhuose_library per library module,
a zhuose_shader per kernel, actions on persistent workers).  Each is timed
cold (fresh user cache; for Bazel also a fresh server and output base), with
nothing changed, and after a comment is added to one imported library module.

    python bench/bench_integrations.py [--模块数 200]

Needs cmake and ninja on PATH; the Vite rows need integrations/vite/example's
npm packages and the Bazel rows bazel (Debian's bazel-bootstrap): a row is
left out without them."""

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


def kernels_of(graph: dict[str, list[str]]) -> list[str]:
    return sorted(k for k in graph if not k.startswith("库/"))


def bench_ninja(root: Path, graph: dict[str, list[str]], env: dict) -> list[tuple[str, float, str]]:
    kernels = kernels_of(graph)
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


def bench_vite(root: Path, graph: dict[str, list[str]], env: dict) -> list[tuple[str, float, str]]:
    kernels = kernels_of(graph)
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


def bench_bazel(root: Path, graph: dict[str, list[str]], env: dict) -> list[tuple[str, float, str]]:
    if shutil.which("bazel") is None:
        return []
    kernels = kernels_of(graph)
    names = {f: f"m{i:03d}" for i, f in enumerate(sorted(graph))}
    rules = ['load("@zhuose//:zhuose.bzl", "zhuose_library", "zhuose_shader")\n']
    for file in sorted(graph):
        deps = ", ".join(f'":{names[d]}"' for d in graph[file])
        kind, src = ("zhuose_shader", "src") if file in kernels else ("zhuose_library", "srcs")
        value = f'"{file}"' if src == "src" else f'["{file}"]'
        rules.append(f'{kind}(name = "{names[file]}", {src} = {value}, manifest = "包.json", deps = [{deps}])\n')
    (root / "BUILD").write_text("".join(rules), encoding="utf-8")
    (root / "WORKSPACE").write_text(
        f'local_repository(name = "zhuose", path = "{ROOT / "integrations" / "bazel"}")\n', encoding="utf-8")
    with tempfile.TemporaryDirectory() as output_root:         # outside the workspace that //... walks
        return bazel_rows(root, env, output_root)


def bazel_rows(root: Path, env: dict, output_root: str) -> list[tuple[str, float, str]]:
    startup = ["bazel", "--nosystem_rc", "--nohome_rc", f"--output_user_root={output_root}", "--max_idle_secs=300"]
    if Path("/usr/share/bazel/install_base_key").exists():        # Debian's layout (its system rc says so)
        startup += ["--install_base=/usr/share/bazel", "--trust_install_base"]
    flags = ["--repository_cache=", "--experimental_repository_disable_download",
             "--experimental_worker_allow_json_protocol", f"--action_env=ZHUOSE_PYTHON={sys.executable}",
             f"--action_env=ZHUOSE_CACHE_DIR={env['ZHUOSE_CACHE_DIR']}",
             f"--action_env=PYTHONPATH={os.environ.get('PYTHONPATH', '')}"]
    rows = []
    try:
        for what in ("冷", "什么都没改", "改一个被导入的模块（注释）"):
            if what.startswith("改"):
                edit(root)
            log = Path(output_root) / "execution.json"
            seconds, _ = timed([*startup, "build", "//...", *flags, f"--execution_log_json_file={log}"], root, env)
            spawns = log.read_text(encoding="utf-8").count('"listedOutputs"')
            rows.append((f"Bazel（持久工作进程）：{what}", seconds, f"{spawns} 个动作"))
    finally:
        subprocess.run([*startup, "shutdown"], cwd=root, capture_output=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--模块数", type=int, default=200)
    args = parser.parse_args()
    if not (shutil.which("cmake") and shutil.which("ninja")):
        sys.exit("没有 cmake 或 ninja")
    rows = []
    for bench in (bench_ninja, bench_vite, bench_bazel):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)          # an ASCII path: Bazel 4 starts no server under a non-ASCII one
            graph = make_tree(root, args.模块数)
            env = dict(os.environ, ZHUOSE_CACHE_DIR=str(root / ".缓存"),
                       ZHUOSE_COMMAND=f"{sys.executable} -m zhuose.cli")
            rows += bench(root, graph, env)
    print("| 测量 | 墙钟 | 做了什么 |\n| --- | --- | --- |")
    for name, seconds, note in rows:
        print(f"| {name} | {seconds:.2f} s | {note} |")


if __name__ == "__main__":
    main()
