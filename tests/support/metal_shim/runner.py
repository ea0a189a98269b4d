"""Type-check generated MSL with clang++ against the Metal shim, and run its
compute kernels on the CPU (the Linux stand-in for the seed's 金属运行 test).

`check` runs `clang++ -std=c++17 -fsyntax-only` over MSL texts; `Runner`
compiles compute entries into one executable (each source in a namespace of
its own, dispatched through metal_cpu.h) and `Runner.dispatch` runs one with
buffers by Metal slot.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SHIM = Path(__file__).resolve().parent
CLANG = shutil.which("clang++")
FLAGS = ["-std=c++17", "-Wno-unknown-attributes", "-isystem", str(SHIM), "-x", "c++"]

#: Every attribute the MSL back end may write; clang ignores unknown attributes,
#: so the tests check the spelling against this list.
ATTRIBUTE = re.compile(r"\[\[(.*?)\]\]")
KNOWN_ATTRIBUTES = re.compile(
    r"(max_total_threads_per_threadgroup\(\d+\)|(buffer|texture|sampler)\(\d+\)|attribute\(\d+\)|user\(loc\d+\)"
    r"|color\(\d+\)|depth\(any\)|stage_in|flat|(center|centroid|sample)_(no_)?perspective|position|sample_mask|sample_id|front_facing|vertex_id|instance_id"
    r"|thread_position_in_grid|thread_position_in_threadgroup|thread_index_in_threadgroup"
    r"|threadgroup_position_in_grid|threadgroups_per_grid|thread_index_in_simdgroup|threads_per_simdgroup"
    r"|simdgroup_index_in_threadgroup|simdgroups_per_threadgroup|function_constant\(\d+\))")
#: a function constant's declaration: Metal gives it the pipeline's value, C++ wants an initializer
FUNCTION_CONSTANT = re.compile(r"(\[\[function_constant\(\d+\)\]\]);")
THREADGROUP = re.compile(r"^  threadgroup (.+) (\S+);$", re.M)
TEXTURE_SLOTS = 100   # texture n comes from buffer file 100 + n: width, height, 0, 0, then float4 texels
SAMPLER_SLOTS = 200   # sampler n from buffer file 200 + n: two uints, 1 for a linear filter and the compare function


def require_clang(pytest) -> None:
    """Skip a test without clang++, except on CI, which installs it (.ci/run): fail there."""
    if CLANG is None:
        why = "没有 clang++（Debian 的 clang 包；.ci/run 会安装）"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI 上必须有 clang++：{why}")
        pytest.skip(why)


def unknown_attributes(msl: str) -> list[str]:
    return [a for a in ATTRIBUTE.findall(msl) if not KNOWN_ATTRIBUTES.fullmatch(a)]


def check(sources: dict[str, str]) -> dict[str, str]:
    """clang's complaints about each MSL text that does not type-check (by name)."""
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for i, (name, text) in enumerate(sources.items()):
            path = Path(tmp) / f"s{i}.metal"
            path.write_text(as_cpp(text), encoding="utf-8")
            files[path.name] = name
        done = subprocess.run([CLANG, "-fsyntax-only", *FLAGS, *files], cwd=tmp, capture_output=True,
                              text=True, timeout=300)
    problems: dict[str, str] = {}
    current = None          # clang names the file it compiles before any error in it (or in the shim)
    for line in done.stderr.splitlines():
        m = re.search(r"\b(s\d+\.metal):", line)
        if m:
            current = files[m.group(1)]
        if ": error: " in line and current is not None:
            problems[current] = problems.get(current, "") + line + "\n"
    if done.returncode and not problems:
        problems["(clang)"] = done.stderr
    return problems


@dataclass
class Kernel:
    """One compute entry to run: its MSL source and its entry table row (MslEntry)."""

    key: str
    msl: str
    entry: object


def as_cpp(msl: str) -> str:
    """The MSL as the shim compiles it: a function constant the pipeline did
    not set (the shim sets none; is_function_constant_defined is false) is
    declared with a zero value, which its default then replaces."""
    return FUNCTION_CONSTANT.sub(r"\1 = {};", msl)


def _threadgroup_storage(msl: str) -> str:
    """A kernel's `threadgroup T 名;` becomes a reference to the group's one object."""
    count = iter(range(10 ** 6))
    return THREADGROUP.sub(lambda m: f"  {m.group(1)}& {m.group(2)} = "
                                     f"metal_cpu::threadgroup_storage<{m.group(1)}>({next(count)});", msl)


def _argument(kind_type: str, attribute: str) -> str:
    """How the dispatcher passes one kernel parameter."""
    slot = re.fullmatch(r"(buffer|texture|sampler)\((\d+)\)", attribute)
    if slot is None:
        return f"t.{attribute}"
    kind, n = slot.group(1), int(slot.group(2))
    if kind == "texture":
        return f"metal_cpu::texture_at<{kind_type}>(b.at({TEXTURE_SLOTS + n}))"
    if kind == "sampler":
        return f"metal_cpu::sampler_at(b.at({SAMPLER_SLOTS + n}))"
    if kind_type.endswith("&"):
        return f"*reinterpret_cast<{kind_type[:-1]}*>(b.at({n}))"
    return f"reinterpret_cast<{kind_type}>(b.at({n}))"


def _dispatcher(index: int, kernel: Kernel) -> str:
    e = kernel.entry
    args = ", ".join(_argument(t, a) for t, _, a in e.parameters)
    return (f"namespace yy_k{index} {{\n#include \"k{index}.metal\"\n"
            f"void yy_run(metal_cpu::Buffers& b, metal::uint3 groups) {{\n"
            f"  metal_cpu::dispatch(groups, metal::uint3({', '.join(map(str, e.workgroup_shape))}), [&](const metal_cpu::Thread& t) {{ "
            f"{e.function}({args}); }});\n}}\n}}\n")


class Runner:
    """An executable holding several compute kernels."""

    def __init__(self, kernels: list[Kernel], folder: Path) -> None:
        self.folder = folder
        self.ids = {k.key: f"k{i}" for i, k in enumerate(kernels)}
        parts = ['#include "metal_cpu.h"\n']
        for i, k in enumerate(kernels):
            (folder / f"k{i}.metal").write_text(_threadgroup_storage(as_cpp(k.msl)), encoding="utf-8")
            parts.append(_dispatcher(i, k))
        table = ", ".join(f'{{"k{i}", yy_k{i}::yy_run}}' for i in range(len(kernels)))
        parts.append(f"int main(int argc, char** argv) {{ return metal_cpu::main(argc, argv, {{{table}}}); }}\n")
        main = folder / "runner.cpp"
        main.write_text("".join(parts), encoding="utf-8")
        self.executable = folder / "runner"
        done = subprocess.run([CLANG, *FLAGS, "-I", str(SHIM), "-O1", "-pthread", str(main), "-x", "none",
                               "-o", str(self.executable)], capture_output=True, text=True, timeout=600)
        if done.returncode:
            raise RuntimeError(f"clang++ failed:\n{done.stderr}")

    def dispatch(self, key: str, groups: tuple[int, int, int], buffers: dict[int, bytes],
                 timeout: float = 60) -> dict[int, bytes]:
        """Run one kernel over `groups` threadgroups; every buffer comes back."""
        with tempfile.TemporaryDirectory(dir=self.folder) as tmp:
            args = []
            for slot, data in buffers.items():
                path = Path(tmp) / f"b{slot}.bin"
                path.write_bytes(data)
                args.append(f"{slot}={path}")
            done = subprocess.run([str(self.executable), self.ids[key], *map(str, groups), *args],
                                  capture_output=True, text=True, timeout=timeout)
            if done.returncode:
                raise RuntimeError(f"kernel {key} failed ({done.returncode}): {done.stderr}")
            return {slot: (Path(tmp) / f"b{slot}.bin").read_bytes() for slot in buffers}
