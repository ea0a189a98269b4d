"""Programs that combine constructs the samples do not (tests/programs/): valid programs written from
LANGUAGE.md and the seed that combine constructs the samples do not.  Each
must check clean, translate with all three back ends, and — for compute
programs — compute NumPy's numbers on WebGPU (lavapipe), on the MSL CPU shim
and on the PTX emulator.  The references below are written from each
program's first comment, never from a program's output."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from support.references import close, grid, rng
from support.ptx_runner import PTXAS
from support.ptx_runner import emulated, upload
from support.wgpu_device import run_entry, validate
from zhuose.compiler import ir
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace
from support.metal_shim.host import prepare, results  # noqa: E402
from support.metal_shim.runner import Kernel, Runner, check as clang_check, require_clang  # noqa: E402

QA = Path(__file__).resolve().parent / "programs"
WS = Workspace(QA)
PROGRAMS = sorted(p for p in QA.rglob("*。着色器。豫"))
CHECKS: dict[str, callable] = {}


def name_of(path: Path) -> str:
    return str(path.relative_to(QA)).replace("。着色器。豫", "")


def path_of(name: str) -> Path:
    return QA / f"{name}。着色器。豫"


def program(check):
    """Registers the NumPy check of the program it is named after (「/」 written 「__」)."""
    CHECKS[check.__name__.replace("__", "/")] = check
    return check


# ---------------------------------------------------------------- every program, every target


@pytest.mark.parametrize("path", PROGRAMS, ids=name_of)
def test_checks_clean(path):
    assert [d.format(WS.source(d.path)) for d in WS.diagnostics(path)] == []


@pytest.mark.parametrize("target", ["wgsl", "msl", "ptx"])
@pytest.mark.parametrize("path", PROGRAMS, ids=name_of)
def test_translates(path, target, tmp_path):
    result = translate(WS, path, target)
    if target == "ptx" and render_only(path):
        assert result.text is None and "千手目标只支持计算入口" in result.diagnostics[0].message
        return
    assert result.diagnostics == [] and result.text is not None, [d.message for d in result.diagnostics]
    if target == "wgsl":
        validate(result.text)
    elif target == "msl":
        require_clang(pytest)
        assert clang_check({name_of(path): result.text}) == {}
    else:
        assert result.text.isascii()
        assembles(result.text, tmp_path)


def assembles(ptx: str, folder: Path) -> None:
    """ptxas accepts the PTX without a warning (skipped where ptxas is missing)."""
    if PTXAS is None:
        return
    (folder / "k.ptx").write_text(ptx, encoding="ascii")
    done = subprocess.run([PTXAS, "-arch=sm_80", "--warning-as-error", str(folder / "k.ptx"), "-o",
                           str(folder / "k.cubin")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def render_only(path: Path) -> bool:
    """A program whose entries are all vertex or fragment entries (PTX refuses it, 着十)."""
    stages = {e.stage for e in translate(WS, path, "wgsl").entries}
    return bool(stages) and "计算" not in stages


def test_every_compute_program_has_a_check():
    for path in PROGRAMS:
        if any(e.stage == "计算" for e in translate(WS, path, "wgsl").entries):
            assert name_of(path) in CHECKS, name_of(path)


# ---------------------------------------------------------------- runners


def wgsl_runner(name, entry, data, groups):
    return run_entry(WS, path_of(name), entry, data, groups)


def msl_runner(tmp_path_factory):
    def run(name, entry, data, groups):
        require_clang(pytest)
        prepared = prepare(WS, path_of(name), entry, data, groups)
        kernel = Kernel(f"{name}/{entry}", prepared.msl, prepared.entry)
        runner = Runner([kernel], tmp_path_factory.mktemp("qa_metal"))
        return results(prepared, runner.dispatch(kernel.key, prepared.groups, prepared.buffers))
    return run


def ptx_runner(name, entry, data, groups):
    path = path_of(name)
    result = translate(WS, path, "ptx")
    assert result.text is not None, [d.message for d in result.diagnostics]
    info = next(e for e in result.entries if e.item == entry)
    used = {p.resource: (p.group, p.binding) for p in info.params if p.kind == "buffer" and p.resource}
    assert sorted(used) == sorted(data)
    checked = WS.check(path)
    modules = [WS.check(p).module for p in checked.module.imports] + [checked.module]
    resources = {d.name: d for m in modules for d in m.decls if isinstance(d, ir.Resource)}
    out = emulated(result.text, info, {key: upload(data[n], resources[n]) for n, key in used.items()}, grid(groups))
    return {n: np.frombuffer(out[key][:data[n].nbytes], dtype=data[n].dtype).reshape(data[n].shape)
            for n, key in used.items() if resources[n].kind == "storage" and resources[n].access != "只读"}


@pytest.fixture(params=["wgsl", "msl", "ptx"])
def run(request, tmp_path_factory):
    return {"wgsl": wgsl_runner, "msl": msl_runner(tmp_path_factory), "ptx": ptx_runner}[request.param]


# ---------------------------------------------------------------- the NumPy checks


@program
def 尾递归记录(run):
    n = np.concatenate([np.arange(0, 40), rng(3).integers(0, 3000, 60)]).astype(np.uint32)
    def expected(v):
        s, p = sum(k * k for k in range(1, v + 1)), 1
        for k in range(1, v + 1):
            p = (p * (k | 1)) & 0xFFFFFFFF
        return [(s + bin(p).count("1")) & 0xFFFFFFFF, p, v + 1 + bin(v).count("1"), v * v]
    out = run("尾递归记录", "主入口", {"入": n, "出": np.zeros((len(n), 4), np.uint32)}, 2)["出"]
    np.testing.assert_array_equal(out, np.array([expected(int(v)) for v in n], np.uint32))



@program
def 记录次序(run):
    x = np.concatenate([np.arange(0, 20), rng(7).integers(0, 2 ** 30, 44)]).astype(np.uint32)
    out = run("记录次序", "主入口", {"入": x, "出": np.zeros((len(x), 2), np.uint32),
                                   "出二": np.zeros(len(x), np.uint32)}, 2)
    np.testing.assert_array_equal(out["出"], np.stack([x, x * np.uint32(3) + np.uint32(1)], 1))   # 乙, then 甲
    np.testing.assert_array_equal(out["出二"], x + x % np.uint32(4))


@program
def 工作组初值(run):
    out = run("工作组初值", "读初值入口", {"出": np.full(128, 0xDEADBEEF, np.uint32)}, 2)["出"]
    np.testing.assert_array_equal(out, np.zeros(128, np.uint32))


@program
def 矩阵杂项(run):
    table = (rng(5).integers(-32, 32, (4, 4)) / 4).astype(np.float32)       # exact in f32, so bits compare
    offset = np.array([3, -2, 5, -9], np.int32)
    uniform = np.concatenate([table.view(np.uint8).ravel(), offset.view(np.uint8)])
    n = 32
    out, ints = np.zeros((4 * n, 4), np.float32), np.zeros((4 * n, 4), np.uint32)
    for i in range(n):
        k, j, f = i & 3, (i >> 2) & 3, np.float32(i)
        rows = [table[(k + r) & 3] for r in range(4)]
        m = np.stack(rows, axis=1)                                   # the rows are M's columns
        out[4 * i] = m @ np.array([f, 1, -2, 0.25], np.float32)
        out[4 * i + 1] = rows[j]
        out[4 * i + 2] = [-1, -1, -f, -f]                            # P = R·R = −I for the quarter turn R
        out[4 * i + 3] = (rows[0] < rows[1]).astype(np.float32)
        ints[4 * i] = out[4 * i].view(np.uint32)
        ints[4 * i + 1] = np.array([-1024 >> 1, i >> 2, -7 >> 3, 1 >> j], np.int32).view(np.uint32)
        ints[4 * i + 2] = np.trunc(rows[0] - offset).astype(np.int32).view(np.uint32)
        ints[4 * i + 3] = (offset.astype(np.int64) << np.array([k, 1, 2, 3])).astype(np.int32).view(np.uint32)
    got = run("矩阵杂项", "主入口", {"参": uniform, "出": np.zeros_like(out), "整出": np.zeros_like(ints)}, 2)
    np.testing.assert_array_equal(got["出"], out)
    np.testing.assert_array_equal(got["整出"], ints)


@program
def 怪名与格(run):
    n, size = 40, 8
    expected = [[5 + sum(7 * t for t in range(g + 1)), sum(3 * t if t & 1 else t for t in range(g + 1)),
                 g % size + (g // size) * 100, g % size] for g in range(n)]
    got = run("怪名与格", "主入口", {"kernel": np.zeros((n, 4), np.uint32)}, n // size)["kernel"]
    np.testing.assert_array_equal(got, np.array(expected, np.uint32))


@program
def 质甲__主(run):
    n = 70
    table = rng(7).integers(0, 2**32, n + 1, dtype=np.uint64)
    look = (table * 3 + 11) & 0xFFFFFFFF
    got = run("质甲/主", "主入口", {"表": table.astype(np.uint32), "出": np.zeros(n, np.uint32)}, 3)["出"]
    np.testing.assert_array_equal(got, ((look[:-1] + look[1:]) & 0xFFFFFFFF).astype(np.uint32))


@program
def 质甲__同名(run):
    i = np.arange(24, dtype=np.uint64)
    got = run("质甲/同名", "主入口", {"出": np.zeros(24, np.uint32)}, 3)["出"]
    np.testing.assert_array_equal(got, (2 * i + (i + 10) * 1000 + (i + 7) * 10**6).astype(np.uint32))


def bits(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


@program
def 字面量边界(run):
    expected = [0x80000000, 0xFFFFFFFF, 0xDEADBEEF, 2**32 - 3, 2**32 - 1, 1, bits(-1.5), 7, bits(1.5), bits(-0.25),
                0xFFFFFFFF, 0x80000000, 0x80000000, 0, 0xFFFFFFFF, 0x80000000]
    data = {"入": np.array([-2**31, 2**31 - 1], np.int32), "出": np.zeros(16, np.uint32)}
    np.testing.assert_array_equal(run("字面量边界", "主入口", data, 1)["出"], np.array(expected, np.uint32))


def wgsl_int(x: np.ndarray, kind) -> np.ndarray:
    """WGSL's float → integer: toward zero, clamped to the integers both types hold."""
    low, high = {np.uint32: (0.0, 4294967040.0), np.int32: (-2147483648.0, 2147483520.0)}[kind]
    return np.trunc(np.clip(x.astype(np.float64), low, high)).astype(kind)


@program
def 转换饱和(run):
    x = np.array([-5.7, -0.5, 0, 0.9, 1.5, 123.99, 3e9, 5e9, -3e9, 2147483520.0, 4294967040.0, 16777217.0,
                  1e30, -1e30, 7.0, 2.5], np.float32)
    i = np.arange(16, dtype=np.uint64)
    scaled = ((i * 2654435761) & 0xFFFFFFFF).astype(np.uint32).astype(np.float32)   # round to nearest even
    expected = np.stack([wgsl_int(x, np.uint32), wgsl_int(x, np.int32).view(np.uint32), scaled.view(np.uint32),
                         (-i.astype(np.int64)).astype(np.int32).view(np.uint32)], axis=1)
    vectors = np.stack([wgsl_int(x, np.uint32), wgsl_int(-x, np.uint32),
                        wgsl_int(x, np.int32).view(np.uint32), wgsl_int(-x, np.int32).view(np.uint32)], axis=1)
    got = run("转换饱和", "主入口", {"入": x, "出": np.zeros(64, np.uint32), "向": np.zeros((16, 4), np.uint32)}, 1)
    np.testing.assert_array_equal(got["出"].reshape(16, 4), expected)
    np.testing.assert_array_equal(got["向"], vectors)


@program
def 嵌套循环(run):
    n = np.concatenate([np.arange(12), rng(9).integers(12, 300, 52)]).astype(np.uint32)
    def table(v):
        total = sum((r * c) ^ (r + c) for r in range(v) for c in range(r + 1))
        return (total * 31 + v) & 0xFFFFFFFF
    got = run("嵌套循环", "主入口", {"入": n, "出": np.zeros(len(n), np.uint32)}, 2)["出"]
    np.testing.assert_array_equal(got, np.array([table(int(v)) for v in n], np.uint32))

# ---------------------------------------------------------------- (after every check is registered)


@program
def 向量选择(run):
    n = 16
    data = np.concatenate([(rng(11).integers(-50, 50, n) / 2).astype(np.float32), np.zeros(1, np.float32)])
    expected = np.zeros(4 * n, np.float32)
    for i in range(n):
        x, y = data[i], data[i + 1]
        expected[4 * i:4 * i + 2] = [max(x, y), max(y, x)]
        expected[4 * i + 2] = y if x < y else x
        expected[4 * i + 3] = min(x, y)
    out = run("向量选择", "选入口", {"入": data, "出": np.zeros(4 * n, np.float32)}, n // 8)["出"]
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_computes_like_numpy(name, run):
    CHECKS[name](run)
