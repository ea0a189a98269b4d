"""The PTX back end as a real NVIDIA driver would see it.

ptxas (tests/test_ptx_programs.py) and the emulator (tests/support/ptx_emulator.py)
accept things a GPU does not: the emulator zero-fills shared memory, lets a
partial warp run past bar.sync, and the stand-in libcuda never fails.  These
tests check, from the seed (着十, 着十一, 着十二) and the PTX ISA / CUDA driver
API, what would go wrong on a GPU:

- the PTX text of every sample: .reqntid equals the launch block, declared
  parameters equal the entry's parameter list, shfl.sync membermasks come from
  activemask with the whole-warp clamp, ldmatrix and .v2 accesses go to 16-byte
  aligned shared arrays or to a buffer base, atomics are .global with
  ld/st.relaxed.gpu, static shared memory fits the 48 KiB a kernel may declare;
- programs written for these tests: workgroup memory larger than 48 KiB,
  workgroup variables read before written (WGSL zero-initialises them; a GPU's
  shared memory holds the previous block's bytes), subgroup matrices in an entry
  whose workgroup is not whole warps, a barrier in non-uniform control flow;
- runtime/cuda.py behind a recording stand-in for libcuda: kernelParams storage and
  types, launch shape, synchronise before read-back, the JIT error log, the
  Chinese message of every failing call, and cleanup on every error path.

Bugs are strict xfails (reason starts with BUG)."""

from __future__ import annotations

import ctypes
import math
import re
import tempfile
from pathlib import Path

import numpy as np
import pytest

import support.ptx_emulator as emulator
from support.references import SAMPLES
from support.ptx_runner import HEAD, compile_, entry, execute, storage
from support.ptx_runner import WS, FakeCuda
from support.ptx_emulator import Memory
from zhuose.compiler.backends import translate
from zhuose.compiler.backends.ptx.subgroups import QUAD_SEGMENT
from zhuose.compiler.runtime import cuda as runtime
from zhuose.compiler.workspace import Workspace

STATIC_SHARED_LIMIT = 48 * 1024          # bytes of .shared a kernel may declare statically (0xc000)
PTX_SAMPLES = sorted(SAMPLES.rglob("*。千手"))


def _source(ptx_file: Path) -> Path:
    return ptx_file.with_name(ptx_file.name.replace("。千手", "。着色器。豫"))


_TRANSLATIONS: dict[Path, object] = {}


def translated(ptx_file: Path):
    if ptx_file not in _TRANSLATIONS:
        result = translate(WS, _source(ptx_file), "ptx")
        assert result.text is not None, [d.message for d in result.diagnostics]
        _TRANSLATIONS[ptx_file] = result
    return _TRANSLATIONS[ptx_file]


def kernels(text: str) -> dict[str, str]:
    """Entry name → its whole text (head, .reqntid and body)."""
    out = {}
    for m in re.finditer(r"\.visible \.entry (\w+)\((?:.|\n)*?\n\}\n", text):
        out[m.group(1)] = m.group(0)
    return out


def definitions(body: str) -> dict[str, str]:
    """Register → the instruction line that sets it (the writer sets most registers once)."""
    defs = {}
    for line in body.splitlines():
        m = re.match(r"\s*(?:@!?%p\d+\s+)?([\w.]+)\s+(%\w+)\s*[,;]", line)
        if m:
            defs.setdefault(m.group(2), line.strip())
    return defs


def ids(paths):
    return [p.name.replace("。千手", "") for p in paths]


# ---------------------------------------------------------------- the samples' PTX text


@pytest.mark.parametrize("ptx_file", PTX_SAMPLES, ids=ids(PTX_SAMPLES))
def test_reqntid_and_parameters_match_what_the_host_launches(ptx_file):
    """着十: .reqntid X, Y, Z is the workgroup size the host launches as the
    block; the .param list is the entry's parameter list (u64 pointers, then u32
    element counts) in the order runtime.kernel_arguments fills kernelParams."""
    result = translated(ptx_file)
    bodies = kernels(result.text)
    assert sorted(bodies) == sorted(e.function for e in result.entries)
    for info in result.entries:
        body = bodies[info.function]
        (reqntid,) = re.findall(r"\.reqntid (\d+), (\d+), (\d+)", body)
        assert tuple(map(int, reqntid)) == info.block
        assert 1 <= math.prod(info.block) <= 1024
        declared = re.findall(r"\.param \.(u64|u32) (\w+)", body)
        assert declared == [("u64" if p.kind == "buffer" else "u32", p.name) for p in info.params]
        values = runtime.kernel_arguments(info, runtime.resolve_aliases(
            {(p.group, p.binding): bytes(64) for p in info.params if p.resource is not None}), {})
        assert [type(v) for v in values] == [ctypes.c_uint64 if p.kind == "buffer" else ctypes.c_uint32
                                             for p in info.params]
        # every parameter is read with ld.param of its own width; buffers go through cvta.to.global
        for p in info.params:
            loads = re.findall(rf"ld\.param\.(u64|u32) (%\w+), \[{p.name}\];", body)
            assert all(kind == ("u64" if p.kind == "buffer" else "u32") for kind, _ in loads)
            if p.kind == "buffer" and loads:
                assert "cvta.to.global.u64" in body


@pytest.mark.parametrize("ptx_file", PTX_SAMPLES, ids=ids(PTX_SAMPLES))
def test_static_shared_memory_fits_a_kernel(ptx_file):
    for name, body in kernels(translated(ptx_file).text).items():
        total = 0
        for align, size in re.findall(r"\.shared \.align (\d+) \.b8 \w+\[(\d+)\];", body):
            total = (total + int(align) - 1) // int(align) * int(align) + int(size)
        assert total <= STATIC_SHARED_LIMIT, name


@pytest.mark.parametrize("ptx_file", PTX_SAMPLES, ids=ids(PTX_SAMPLES))
def test_warp_instructions_are_well_formed(ptx_file):
    """着十一: shfl.sync takes the static member mask of the lanes that exist
    (0xffffffff, or a selp between it and the partial last warp's lanes) and
    the clamp 31 (one 32-lane segment; the quad operations' segments of 4 lanes:
    0x1c03), never activemask: every subgroup call
    is in uniform control flow (valid/uniformity.py); 着十二: ldmatrix / mma
    are the .sync.aligned sm_80 forms."""
    for name, body in kernels(translated(ptx_file).text).items():
        defs = definitions(body)
        for m in re.finditer(r"shfl\.sync\.(idx|bfly)\.b32 %\w+, [^,]+, [^,]+, (\w+), (%?\w+);", body):
            assert m.group(2) in ("31", QUAD_SEGMENT), (name, m.group(0))
            assert m.group(3) == "0xffffffff" or defs[m.group(3)].startswith("selp.b32"), (name, m.group(0))
        assert "activemask" not in body, name
        for line in body.splitlines():
            if "ldmatrix" in line:
                assert line.strip().startswith("ldmatrix.sync.aligned.m8n8.x4.shared.b16")
            if "mma." in line:
                assert line.strip().startswith(("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                                                "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"))


def _base_of(defs: dict[str, str], register: str) -> str:
    """Follow add.s64 / mov.u64 back to a .shared symbol or a cvta'd buffer base
    (a 32-bit .shared address: mad.lo.u32 index, stride, base; mov.u32 symbol)."""
    seen = 0
    while register in defs and seen < 20:
        line = defs[register]
        seen += 1
        if line.startswith("cvta.to.global.u64"):
            return "global"
        m = re.match(r"mov\.u(?:64|32) %\w+, (ys_\w+);", line)
        if m:
            return m.group(1)
        m = re.match(r"add\.s64 %\w+, (%\w+), (%\w+);", line) or \
            re.match(r"mad\.lo\.u32 %\w+, %\w+, \d+, (%\w+);", line)
        if not m:
            return "?"
        register = m.group(1)
    return "?"


@pytest.mark.parametrize("ptx_file", PTX_SAMPLES, ids=ids(PTX_SAMPLES))
def test_vector_and_ldmatrix_addresses_are_aligned_bases(ptx_file):
    """ldmatrix wants 16-byte aligned rows, .v2/.v4 accesses addresses aligned to
    their whole size: their bases are .shared arrays declared .align 16 or a buffer
    base (cuMemAlloc returns 256-byte aligned memory), and their offsets multiples
    of that size."""
    sizes = {"f32": 4, "u32": 4, "s32": 4, "b32": 4, "b16": 2}
    for name, body in kernels(translated(ptx_file).text).items():
        defs = definitions(body)
        aligns = dict((s, int(a)) for a, s in re.findall(r"\.shared \.align (\d+) \.b8 (\w+)\[", body))
        pattern = r"(ldmatrix\S*|[ls]t\.(?:shared|global)(?:\.nc)?\.v(\d)\.(\w+))[^\[]*\[(%\w+)(?:\+(\d+))?\]"
        for m in re.finditer(pattern, body):
            size = 16 if m.group(1).startswith("ldmatrix") else int(m.group(2)) * sizes[m.group(3)]
            base = _base_of(defs, m.group(4))
            assert base == "global" or aligns.get(base, 0) >= size, (name, m.group(0), base)
            assert int(m.group(5) or 0) % size == 0, (name, m.group(0))


def test_atomics_are_global_and_relaxed_at_gpu_scope():
    """着十: 原子加/最大/最小 are atom.global, 原子读/原子存 ld/st.relaxed.gpu."""
    text = translated(SAMPLES / "原子最值。千手").text
    atomics = re.findall(r"\b(atom\.\S+|ld\.relaxed\.\S+|st\.relaxed\.\S+)", text)
    assert atomics
    for op in atomics:
        assert op.startswith(("atom.global.", "ld.relaxed.gpu.global.", "st.relaxed.gpu.global."))


# ---------------------------------------------------------------- programs written for this QA


def _compile(source: str):
    folder = Path(tempfile.mkdtemp(prefix="qa_g3_"))
    return compile_(folder, source)


BIG_SHARED = storage("出", "浮三二", 0) + """
「甲」乃「工作组变量」于（「定长数组」于「浮三二」于「八一九二」）也。
「甲」者「工作组共享」于「元」也。
「乙」乃「工作组变量」于（「定长数组」于「浮三二」于「八一九二」）也。
「乙」者「工作组共享」于「元」也。
「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　「写共享数组」于「甲」于「序」于（「新浮三二」于「一」）；
　「写共享数组」于「乙」于「序」于（「新浮三二」于「二」）；
　「工作组屏障」于「元」；
　「写数组」于「出」于「序」于（（「读共享数组」于「甲」于「序」）加（「读共享数组」于「乙」于「序」））
也。
""" + entry("核", "六四")


def test_workgroup_memory_over_48k_is_refused_when_translating():
    _, _, result = _compile(BIG_SHARED)
    assert result.text is None
    assert any("工作组" in d.message or "共享" in d.message for d in result.diagnostics)


UNWRITTEN = storage("出", "无三二", 0) + """
「计」乃「工作组变量」于「无三二」也。
「计」者「工作组共享」于「元」也。
「格子」乃「工作组变量」于（「定长数组」于「无三二」于「四」）也。
「格子」者「工作组共享」于「元」也。
「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　若「序」等于（「新无三二」于「零」）则（
　　「写数组」于「出」于（「新无三二」于「零」）于（「读共享」于「计」）；
　　「写数组」于「出」于（「新无三二」于「一」）于（「读共享数组」于「格子」于（「新无三二」于「三」））
　）
也。
""" + entry("核", "三二")


def _poison_shared(monkeypatch):
    """A GPU's shared memory holds whatever the previous block left there."""
    original = Memory.layout_shared

    def poisoned(self, shared):
        original(self, shared)
        self.shared[:] = b"\xa5" * len(self.shared)
    monkeypatch.setattr(emulator.Memory, "layout_shared", poisoned)


def test_workgroup_variables_start_at_zero_like_wgsl(monkeypatch):
    _, _, result = _compile(UNWRITTEN)
    assert result.text is not None
    _poison_shared(monkeypatch)
    out = execute(result, {(0, 0): np.full(2, 7, np.uint32)}, 1)
    np.testing.assert_array_equal(out[(0, 0)], [0, 0])          # WGSL: the zero value of u32


def test_poisoned_shared_memory_does_not_matter_when_written_first(monkeypatch):
    """The poisoning above is fair: a sample that writes before it reads
    (前缀和: every cell written, barrier, then read) still computes NumPy's result."""
    from support.references import REFERENCES
    from support.ptx_runner import emulated, ptx_run
    _poison_shared(monkeypatch)
    REFERENCES["前缀和"](ptx_run(emulated))


FRAGMENT = storage("出", "浮三二", 0) + """
「甲共」乃「工作组变量」于（「定长数组」于「浮十六」于「二五六」）也。
「甲共」者「工作组共享」于「元」也。
「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「搬」为得「i」而
　　若「i」小于（「新无三二」于「二五六」）则（
　　　「写共享数组」于「甲共」于「i」于（「新浮十六」于（若「i」小于（「新无三二」于「三二」）则「新浮三二」于「一」否则「新浮三二」于「零」））；
　　　「搬」于（「i」加（「新无三二」于「三二」））
　　）
　而
　「搬」于「序」；
　「工作组屏障」于「元」；
　令「积」为「矩阵片乘加」于（「载入矩阵片甲」于「甲共」于（「新无三二」于「零」）于（「新无三二」于「一六」））\
于（「载入矩阵片乙」于「甲共」于（「新无三二」于「零」）于（「新无三二」于「一六」））\
于（「满矩阵片累」于（「新浮三二」于「零」））而
　「存矩阵片累到存储」于「出」于（「新无三二」于「零」）于（「新无三二」于「一六」）于「积」
也。
""".replace("\\\n", "")


def test_fragments_in_a_whole_warp_compute_the_product():
    """32 threads (one warp): 甲共 holds 1 in its first 32 halves and 0 in the
    rest, so 甲 = 乙 has ones in rows 0 and 1; 丙 = 甲 · 乙ᵀ (NumPy) has 16 at
    (0,0), (0,1), (1,0), (1,1) and 0 elsewhere."""
    _, _, result = _compile(FRAGMENT + entry("核", "三二"))
    out = execute(result, {(0, 0): np.zeros(256, np.float32)}, 1)[(0, 0)].reshape(16, 16)
    a = np.zeros((16, 16), np.float32)
    a.flat[:32] = 1
    np.testing.assert_array_equal(out, a @ a.T)


@pytest.mark.parametrize("size", ["一六", "四八"])
def test_fragments_need_whole_warps(size):
    # a validation rule (compiler/valid/stages.py): 检查 refuses it, and so does the translation
    folder = Path(tempfile.mkdtemp(prefix="qa_g3_"))
    path = folder / "程序。着色器。豫"
    path.write_text(HEAD + FRAGMENT + entry("核", size), encoding="utf-8")
    ws = Workspace(folder)
    result = translate(ws, path, "ptx")
    assert result.text is None
    assert any("32" in d.message or "线程束" in d.message or "子组" in d.message for d in result.diagnostics)
    assert [d.message for d in ws.diagnostics(path) if d.severity == "错误"] == [d.message for d in result.diagnostics]


DIVERGENT_BARRIER = storage("出", "浮三二", 0) + """
「共」乃「工作组变量」于（「定长数组」于「浮三二」于「六四」）也。
「共」者「工作组共享」于「元」也。
「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　若「序」小于（「新无三二」于「三二」）则（
　　「写共享数组」于「共」于「序」于（「新浮三二」于「一」）；
　　「工作组屏障」于「元」；
　　「写数组」于「出」于「序」于（「读共享数组」于「共」于（「序」加（「新无三二」于「一」）））
　）
也。
""" + entry("核", "六四")


def test_barrier_in_non_uniform_control_flow_is_refused():
    """工作组屏障 inside 若 on 局部调用序 (half the workgroup) would be bar.sync 0 behind a
    divergent branch, undefined on a GPU: 检查 refuses it at the barrier (docs/语言.md)."""
    folder = Path(tempfile.mkdtemp(prefix="qa_g3_"))
    path = folder / "程序。着色器。豫"
    path.write_text("寻观「点染」之「点染本」之书。\n\n" + DIVERGENT_BARRIER, encoding="utf-8")
    from zhuose.compiler.workspace import Workspace
    ws = Workspace(folder)
    errors = [d for d in ws.diagnostics(path) if d.severity == "错误"]
    assert len(errors) == 1 and "「工作组屏障」须在一致控制流中执行" in errors[0].message
    assert "局部调用序" in errors[0].message and "条件“「序」小于" in errors[0].message
    position = ws.source(path).position(errors[0].start)
    assert (position.line, position.column) == (DIVERGENT_BARRIER.count("\n", 0, DIVERGENT_BARRIER.index("「工作组屏障」")) + 2,
                                               DIVERGENT_BARRIER.index("「工作组屏障」")
                                               - DIVERGENT_BARRIER.rindex("\n", 0, DIVERGENT_BARRIER.index("「工作组屏障」")) - 1)
    assert translate(ws, path, "ptx").text is None


# ---------------------------------------------------------------- runtime/cuda.py behind a recording libcuda


class RecordingCuda(FakeCuda):
    """FakeCuda that notes every call, what the launch received, what was
    loaded, allocated, freed and unloaded; `fail` makes one step fail on its
    `at`-th call with `status`."""

    def __init__(self, fail: str | None = None, at: int = 1, status: int = 1) -> None:
        self.calls: list[str] = []
        self.counts: dict[str, int] = {}
        self.allocated: list[int] = []
        self.unloaded: list[int] = []
        self.raw_launch: dict = {}
        self.fail, self.at, self.status = fail, at, status
        super().__init__()
        for name in dir(self):
            if name.startswith("cu"):
                setattr(self, name, self._noting(name, getattr(self, name)))

    def _noting(self, name, method):
        def call(*args):
            self.calls.append(name)
            self.counts[name] = self.counts.get(name, 0) + 1
            if name == self.fail and self.counts[name] == self.at:
                return self.status
            return method(*args)
        return call

    def cuMemAlloc_v2(self, address, size):
        status = super().cuMemAlloc_v2(address, size)
        self.allocated.append(address._obj.value)
        return status

    def cuModuleUnload(self, module):
        self.unloaded.append(module.value if hasattr(module, "value") else module)
        return 0

    def cuLaunchKernel(self, function, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        # kernelParams[i] points at parameter i's storage, read while it is alive (the helper's
        # ctypes values are gone after launch returns): a u64 pointer and a u32 count
        kinds = [kind for _, kind in emulator.parse(self.functions[function.value][0])[
            self.functions[function.value][1]].params]
        values = [(ctypes.c_uint64 if kind == "u64" else ctypes.c_uint32).from_address(params[i]).value
                  for i, kind in enumerate(kinds)]
        self.raw_launch = {"grid": (gx, gy, gz), "block": (bx, by, bz), "shared": shared, "stream": stream,
                           "extra": extra, "values": values}
        return super().cuLaunchKernel(function, gx, gy, gz, bx, by, bz, shared, stream, params, extra)

    def cuGetErrorName(self, status, name):
        names = {1: b"CUDA_ERROR_INVALID_VALUE", 2: b"CUDA_ERROR_OUT_OF_MEMORY", 218: b"CUDA_ERROR_INVALID_PTX",
                 500: b"CUDA_ERROR_NOT_FOUND", 700: b"CUDA_ERROR_ILLEGAL_ADDRESS"}
        name._obj.value = names.get(status, b"CUDA_ERROR_UNKNOWN")
        return 0


def _two_buffer_entry():
    """原子最值's 重置入口: a placeholder binding 0 and two buffers."""
    result = translate(WS, SAMPLES / "原子最值。着色器。豫", "ptx")
    return result.text, next(e for e in result.entries if e.item == "重置入口")


def test_kernel_params_point_at_u64_pointers_and_u32_counts():
    result = translate(WS, SAMPLES / "局部循环。着色器。豫", "ptx")
    info = result.entries[0]
    fake = RecordingCuda()
    runtime.Driver(fake).launch(result.text, info, {(0, 0): bytes(4 * 70)}, (2, 1, 1))
    launch = fake.raw_launch
    assert launch["block"] == info.block and launch["grid"] == (2, 1, 1)
    assert launch["shared"] == 0 and launch["stream"] is None and launch["extra"] is None
    kinds = [p.kind for p in info.params]
    assert kinds == ["buffer", "length"]
    assert launch["values"] == [fake.allocated[0], 70]


def test_synchronises_before_reading_back_and_cleans_up():
    text, info = _two_buffer_entry()
    fake = RecordingCuda()
    runtime.Driver(fake).launch(text, info, {(0, 1): bytes(8), (0, 2): bytes(4)}, (1, 1, 1))
    calls = fake.calls
    launch, sync = calls.index("cuLaunchKernel"), calls.index("cuCtxSynchronize")
    assert launch < sync < calls.index("cuMemcpyDtoH_v2")
    assert calls.index("cuCtxSetCurrent") < calls.index("cuModuleLoadDataEx")
    assert sorted(fake.freed) == sorted(fake.allocated) and len(fake.allocated) == 2
    assert len(fake.unloaded) == 1


def test_the_jit_error_log_reaches_the_user():
    fake = RecordingCuda()

    def refuse(module, image, count, options, values):
        assert count == 2 and list(options[:2]) == [5, 6]          # CU_JIT_ERROR_LOG_BUFFER(_SIZE_BYTES)
        assert values[1] >= 1024
        message = b"ptxas application ptx input, line 12; error   : Unknown symbol 'ys_x'"
        ctypes.memmove(values[0], message + b"\0", len(message) + 1)
        return 218
    fake.cuModuleLoadDataEx = refuse
    text, info = _two_buffer_entry()
    with pytest.raises(runtime.CudaError) as err:
        runtime.Driver(fake).launch(text, info, {(0, 1): bytes(8), (0, 2): bytes(4)}, (1, 1, 1))
    assert str(err.value).startswith("千手运行失败：cuModuleLoadDataEx")
    assert "Unknown symbol 'ys_x'" in str(err.value) and "CUDA_ERROR_INVALID_PTX" in str(err.value)
    assert fake.allocated == []


STEPS = [("cuModuleGetFunction", 1, "cuModuleGetFunction"), ("cuMemAlloc_v2", 2, "cuMemAlloc"),
         ("cuMemcpyHtoD_v2", 2, "cuMemcpyHtoD"), ("cuLaunchKernel", 1, "cuLaunchKernel"),
         ("cuCtxSynchronize", 1, "cuCtxSynchronize"), ("cuMemcpyDtoH_v2", 2, "cuMemcpyDtoH")]


@pytest.mark.parametrize("step,at,shown", STEPS, ids=[s[0] for s in STEPS])
def test_every_failing_call_is_named_in_chinese(step, at, shown):
    text, info = _two_buffer_entry()
    fake = RecordingCuda(fail=step, at=at, status=700 if step == "cuCtxSynchronize" else 1)
    with pytest.raises(runtime.CudaError) as err:
        runtime.Driver(fake).launch(text, info, {(0, 1): bytes(8), (0, 2): bytes(4)}, (1, 1, 1))
    message = str(err.value)
    assert message.startswith("千手运行失败：") and shown in message
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in message if step == "cuCtxSynchronize" else "CUDA_ERROR_INVALID_VALUE" in message


def _cleanup_params():
    out = []
    for step, at, _ in STEPS:
        out.append(pytest.param(step, at, id=step))
    return out


@pytest.mark.parametrize("step,at", _cleanup_params())
def test_every_error_path_frees_memory_and_unloads_the_module(step, at):
    text, info = _two_buffer_entry()
    fake = RecordingCuda(fail=step, at=at)
    with pytest.raises(runtime.CudaError):
        runtime.Driver(fake).launch(text, info, {(0, 1): bytes(8), (0, 2): bytes(4)}, (1, 1, 1))
    assert sorted(fake.freed) == sorted(fake.allocated)
    assert len(fake.unloaded) == 1


def test_without_a_device_the_driver_says_skip():
    fake = RecordingCuda(fail="cuInit", status=100)               # CUDA_ERROR_NO_DEVICE
    with pytest.raises(runtime.CudaUnavailable, match="^跳过：CUDA 驱动不可用（cuInit"):
        runtime.Driver(fake)
    fake = RecordingCuda()
    fake.cuDeviceGetCount = lambda count: FakeCuda._out(count, 0)
    with pytest.raises(runtime.CudaUnavailable, match="^跳过：没有 NVIDIA 设备"):
        runtime.Driver(fake)


def _read_only_and_writable_entry():
    """归约's entry: 输入 (0, 0) is read-only (ld.global.nc), 和 (0, 1) and 最大 (0, 2) are written."""
    result = translate(WS, SAMPLES / "归约。着色器。豫", "ptx")
    info = result.entries[0]
    assert [(p.binding, p.read_only) for p in info.params if p.kind == "buffer"] == [(0, True), (1, False), (2, False)]
    assert "ld.global.nc" in result.text
    return result.text, info


def test_one_buffer_bound_read_only_and_writable_is_refused_before_anything_runs():
    text, info = _read_only_and_writable_entry()
    fake = RecordingCuda()
    with pytest.raises(runtime.CudaError, match="同一缓冲绑在 组 0 号 0、组 0 号 1，其中组 0 号 1 可写"):
        runtime.Driver(fake).launch(text, info, {(0, 0): bytes(1024), (0, 1): runtime.Same(0, 0),
                                                 (0, 2): bytes(16)}, (1, 1, 1))
    assert "cuMemAlloc_v2" not in fake.calls and "cuLaunchKernel" not in fake.calls


def test_one_buffer_at_two_writable_slots_is_refused_too():
    text, info = _read_only_and_writable_entry()
    with pytest.raises(runtime.CudaError, match="可写"):
        runtime.Driver(RecordingCuda()).launch(text, info, {(0, 0): bytes(1024), (0, 1): bytes(16),
                                                            (0, 2): runtime.Same(0, 1)}, (1, 1, 1))


def test_a_same_naming_a_slot_without_data_is_refused():
    text, info = _read_only_and_writable_entry()
    with pytest.raises(runtime.CudaError, match="那里没有给出数据"):
        runtime.Driver(RecordingCuda()).launch(text, info, {(0, 0): runtime.Same(0, 3), (0, 1): bytes(16),
                                                            (0, 2): bytes(16)}, (1, 1, 1))


def test_read_only_slots_may_share_one_allocation():
    """A·A: the tiled multiply's two read-only matrices bound to one buffer — one allocation, equal pointers."""
    result = translate(WS, SAMPLES / "分块矩阵乘。着色器。豫", "ptx")
    info = result.entries[0]
    readers = [p for p in info.params if p.kind == "buffer" and p.read_only]
    assert len(readers) == 3, [(p.binding, p.read_only) for p in info.params]    # the sizes, A, B
    first, second = readers[1:]
    buffers = {(p.group, p.binding): bytes(64) for p in info.params if p.kind == "buffer" and p.resource}
    buffers[(second.group, second.binding)] = runtime.Same(first.group, first.binding)
    fake = RecordingCuda()
    out = runtime.Driver(fake).launch(result.text, info, buffers, (1, 1, 1))
    assert (second.group, second.binding) not in out
    values = dict(zip([p.name for p in info.params], fake.raw_launch["values"]))
    assert values[first.name] == values[second.name] != 0
    assert len(fake.allocated) == len(buffers) - 1
