"""What a CUDA engineer looks at in a kernel, without a GPU: ptxas's own
report (`ptxas -v`: registers, spills, stack, shared memory), the static SASS
size read from the cubin ptxas writes, and the occupancy those figures allow.
`着色器 剖析` (cli/profile.py) prints them per compute entry; bench/bench_kernels.py
puts them beside nvcc's for hand-written CUDA C++.

The SASS count is read from the cubin's `.text.<kernel>` sections (sm_70 and
later encode every instruction in 16 bytes); the NOPs that pad a section to
its alignment are not counted.  No nvdisasm is needed for that; when nvdisasm
is found (on PATH, or from the pip package `nvidia-cuda-nvdisasm` in
site-packages) the SASS is also read instruction by instruction, counted by
kind, and split into basic blocks (bench/sass_paths.py walks them).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

INSTRUCTION_BYTES = 16
NOP_OPCODE = 0x918          # the low 12 bits of an sm_70+ NOP


class PtxasMissing(Exception):
    """ptxas is not on PATH: nothing can be measured."""


@dataclass(frozen=True)
class Machine:
    """An SM's limits that decide occupancy (CUDA C++ Programming Guide, compute capabilities table)."""

    registers: int = 65536
    warps: int = 64
    blocks: int = 32
    shared: int = 167936           # bytes a block may use on one SM (sm_80: 164 KiB)
    reserved_shared: int = 1024    # the system's share of shared memory per block


MACHINES = {"sm_80": Machine(), "sm_90": Machine(shared=233472)}
REGISTER_UNIT = 256                # registers are given to a warp in units of 256


@dataclass
class KernelProfile:
    """One kernel: ptxas's figures, its static SASS size, and its occupancy on `arch`."""

    name: str
    arch: str
    registers: int = 0
    spill_stores: int = 0
    spill_loads: int = 0
    stack: int = 0
    shared: int = 0
    barriers: int = 0
    sass: int = 0
    block: int = 1
    kinds: dict[str, int] | None = None    # SASS instructions by kind (KINDS), when nvdisasm is found

    @property
    def spills(self) -> int:
        return self.spill_stores + self.spill_loads

    @property
    def local_memory(self) -> bool:
        """Whether the kernel spills registers or keeps a stack frame: both live in slow local memory."""
        return self.spills > 0 or self.stack > 0

    def summary(self) -> str:
        """One line of what 剖析 and the editor's hover show."""
        warps, limit = self.occupancy()
        spills = f"溢出 {self.spill_stores}+{self.spill_loads} 字节" if self.spills else "无溢出"
        return (f"{self.arch}：寄存器 {self.registers}，{spills}，栈 {self.stack} 字节，共享内存 {self.shared} 字节，"
                f"SASS {self.sass} 条{self.kinds_text()}，占用 {warps}/64 线程束（受{limit}所限）")

    def kinds_text(self) -> str:
        """「（全局读 2、…）」: the kinds present, in KINDS order; nothing without nvdisasm."""
        if not self.kinds:
            return ""
        present = [f"{kind} {self.kinds[kind]}" for kind in KINDS if self.kinds.get(kind)]
        return f"（{'、'.join(present) or '无访存与分支'}）"

    def occupancy(self) -> tuple[int, str]:
        """(resident warps per SM, what limits it) for blocks of `block` threads."""
        m = MACHINES[self.arch]
        warps_per_block = -(-self.block // 32)
        warp_registers = -(-max(self.registers, 1) * 32 // REGISTER_UNIT) * REGISTER_UNIT
        limits = {"线程束数": m.warps // warps_per_block, "块数": m.blocks,
                  "寄存器": m.registers // warp_registers // warps_per_block}
        if self.shared:
            limits["共享内存"] = m.shared // (self.shared + m.reserved_shared)
        limit = min(limits, key=limits.get)
        return limits[limit] * warps_per_block, limit


_KERNEL = re.compile(r"Compiling entry function '(\w+)' for '(sm_\d+)'")
_FIGURES = {"registers": r"Used (\d+) registers", "barriers": r"used (\d+) barriers",
            "shared": r"(\d+) bytes smem", "stack": r"(\d+) bytes stack frame",
            "spill_stores": r"(\d+) bytes spill stores", "spill_loads": r"(\d+) bytes spill loads"}


def _ptxas() -> str:
    found = shutil.which("ptxas")
    if found is None:
        raise PtxasMissing("找不到 ptxas：剖析要用 CUDA 工具包里的 ptxas 汇编 PTX（装上 CUDA 工具包，"
                           "或把它的 bin 目录加进 PATH），不需要 GPU")
    return found


def parse_verbose(text: str, arch: str) -> dict[str, KernelProfile]:
    """ptxas -v's report, kernel by kernel."""
    kernels: dict[str, KernelProfile] = {}
    current = None
    for line in text.splitlines():
        m = _KERNEL.search(line)
        if m:
            current = kernels.setdefault(m.group(1), KernelProfile(m.group(1), arch))
            continue
        if current is None:
            continue
        for field, pattern in _FIGURES.items():
            found = re.search(pattern, line)
            if found:
                setattr(current, field, int(found.group(1)))
    return kernels


#: SASS kind → the opcodes (modifiers dropped) counted under it in 剖析
KINDS = {"全局读": ("LDG",), "全局写": ("STG",), "全局原子": ("ATOMG", "RED", "ATOM"),
         "共享读": ("LDS", "LDSM"), "共享写": ("STS",), "共享原子": ("ATOMS",),
         "局部内存": ("LDL", "STL"), "洗牌": ("SHFL",), "屏障": ("BAR",),
         "分支": ("BRA", "BRX", "JMP", "JMX", "CALL", "RET")}


@dataclass(frozen=True)
class Instruction:
    """One SASS instruction as nvdisasm prints it."""

    offset: int
    opcode: str                 # the mnemonic without modifiers: "LDG" for LDG.E.CONSTANT
    predicated: bool            # guarded by @P/@!P (a BRA or EXIT that may fall through)
    target: int | None          # a branch's destination offset
    text: str


_LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)[^;]*;")
_LABEL = re.compile(r"^(\.L_x_\d+):")
_TARGET = re.compile(r"`\((\.L_x_\d+)\)")
_SECTION = re.compile(r"\.section\s+\.text\.(\w+),")


def nvdisasm() -> str | None:
    """nvdisasm on PATH, or the one the pip package nvidia-cuda-nvdisasm puts under site-packages/nvidia/*/bin."""
    found = shutil.which("nvdisasm")
    if found:
        return found
    for folder in sys.path:
        for candidate in sorted(Path(folder or ".").glob("nvidia/*/bin/nvdisasm")):
            if candidate.is_file():
                return str(candidate)
    return None


def parse_disassembly(text: str) -> dict[str, list[Instruction]]:
    """nvdisasm's listing, kernel by kernel, the alignment NOPs at the end left out."""
    kernels: dict[str, list[tuple[int, str, bool, str | None, str]]] = {}
    labels: dict[str, int] = {}
    current = None
    pending: list[str] = []
    for line in text.splitlines():
        section = _SECTION.search(line)
        if section:
            current = kernels.setdefault(section.group(1), [])
            continue
        label = _LABEL.match(line.strip())
        if label:
            pending.append(label.group(1))
            continue
        m = _LINE.search(line)
        if m is None or current is None:
            continue
        offset = int(m.group(1), 16)
        labels.update((name, offset) for name in pending)
        pending = []
        target = _TARGET.search(line)
        current.append((offset, m.group(3), bool(m.group(2)), target and target.group(1), m.group(0)))
    result = {}
    for name, rows in kernels.items():
        while rows and rows[-1][1] == "NOP":
            rows.pop()
        result[name] = [Instruction(o, op, p, labels.get(t) if t else None, line) for o, op, p, t, line in rows]
    return result


def kinds_of(instructions: list[Instruction]) -> dict[str, int]:
    """SASS instructions counted by KINDS."""
    by_opcode = {op: kind for kind, ops in KINDS.items() for op in ops}
    counts = dict.fromkeys(KINDS, 0)
    for ins in instructions:
        if ins.opcode in by_opcode:
            counts[by_opcode[ins.opcode]] += 1
    return counts


def disassemble(cubin: bytes) -> dict[str, list[Instruction]] | None:
    """The cubin's kernels instruction by instruction, or None without nvdisasm."""
    tool = nvdisasm()
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "k.cubin"
        path.write_bytes(cubin)
        done = subprocess.run([tool, "-c", str(path)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"nvdisasm 失败：{done.stderr.strip()}")
    return parse_disassembly(done.stdout)


def sass_counts(cubin: bytes) -> dict[str, int]:
    """Instructions per kernel in an ELF64 cubin, the alignment NOPs at the end left out."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    entsize, count, names_index = struct.unpack_from("<HHH", cubin, 0x3A)
    sections = [struct.unpack_from("<IIQQQQ", cubin, shoff + i * entsize) for i in range(count)]
    names_offset = sections[names_index][4]

    def name(offset: int) -> str:
        start = names_offset + offset
        return cubin[start:cubin.index(b"\0", start)].decode()

    counts = {}
    for name_offset, _, _, _, offset, size in sections:
        section = name(name_offset)
        if not section.startswith(".text."):
            continue
        words = [struct.unpack_from("<Q", cubin, offset + i)[0] for i in range(0, size, INSTRUCTION_BYTES)]
        while words and words[-1] & 0xFFF == NOP_OPCODE:
            words.pop()
        counts[section[len(".text."):]] = len(words)
    return counts


@functools.lru_cache(maxsize=32)
def _assembled(ptx: str, arch: str) -> dict[str, KernelProfile]:
    """`assemble`, kept for the same text (the editor asks again on every hover)."""
    return assemble(ptx, arch)


def ptxas_build(ptx: str, arch: str = "sm_80") -> tuple[str, bytes]:
    """What `ptxas -v` reports on `ptx` for `arch`, and the cubin it writes."""
    ptxas = _ptxas()
    with tempfile.TemporaryDirectory() as folder:
        source, cubin = Path(folder) / "k.ptx", Path(folder) / "k.cubin"
        source.write_text(ptx, encoding="ascii")
        done = subprocess.run([ptxas, f"-arch={arch}", "-v", str(source), "-o", str(cubin)],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"ptxas 失败：{done.stderr.strip()}")
        return done.stdout + done.stderr, cubin.read_bytes()


def assemble(ptx: str, arch: str = "sm_80") -> dict[str, KernelProfile]:
    """Every kernel of `ptx` as ptxas builds it for `arch`."""
    log, binary = ptxas_build(ptx, arch)
    kernels = parse_verbose(log, arch)
    for name, sass in sass_counts(binary).items():
        if name in kernels:
            kernels[name].sass = sass
    for name, instructions in (disassemble(binary) or {}).items():
        if name in kernels:
            kernels[name].kinds = kinds_of(instructions)
    return kernels


def profile_entries(ptx: str, entries, arch: str = "sm_80") -> list[KernelProfile]:
    """The kernels of a translation's compute entries (PtxEntryInfo), in order, with their block sizes."""
    kernels = _assembled(ptx, arch)
    return [dataclasses.replace(kernels[e.function], block=e.block[0] * e.block[1] * e.block[2]) for e in entries]
