"""The NumPy reference of every compute sample, written once for every target.

A reference makes a sample's inputs, dispatches its entries through the target
runner it is given, and checks the outputs against NumPy.  The runners are
WGSL on wgpu (tests/test_wgsl_samples.py), MSL on the CPU through the Metal
shim (tests/test_msl_run.py) and PTX on the emulator and on CUDA
(tests/test_ptx_runtime.py); each test file parametrizes over REFERENCES with
its own runner, so every target checks exactly the same thing.

A runner is `run(sample, entry, data, groups, textures=()) -> {name: array}`:
`data` gives every buffer the entry uses, by resource name; the result holds
every writable buffer, shaped like the array given for it.  `groups` is a
workgroup count or a tuple of up to three.  `textures` are further bindings
(group, binding, resource): an array of texels shaped as the binding's
texture type needs ((h, w, 4) for 2-D, (w, 4) for 1-D, (layers, h, w, 4) for
a 2-D array, (6, h, w, 4) for a cube, (depth, h, w, 4) for 3-D, (samples, h, w, 4) for a
multisampled texture — on WebGPU drawn into it, each sample its own texel), uploaded as
rgba16float (int32 and uint32 texels as rgba32sint and rgba32uint), a sampler descriptor dict (wgpu's `create_sampler` keywords), or
a `StorageTexture`, which the result holds under its name as the texels the
target stored: (h, w, channels) of the format's type (rgba8unorm: uint8); (w, channels)
for 1-D, (layers or depth, h, w, channels) for a 2-D array or 3-D.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
ERRORS = SAMPLES / "错误"          # error samples and their helpers: 检查's evidence, not ours

Runner = Callable[..., dict]


class StorageTexture(NamedTuple):
    """A storage texture binding of a reference: its resource name, its format's
    WGSL name and its size; created empty or holding `initial` (what a read-only or
    read-write one reads), read back after the dispatch."""

    name: str
    format: str
    width: int
    height: int = 1            # 1 for a 1-D texture
    depth: int = 1             # a 3-D texture's depth or a 2-D array's layers
    initial: object = None     # first texels as stored, shaped as read back, or None (zeros)
REFERENCES: dict[str, Callable[[Runner], None]] = {}


def reference(check: Callable[[Runner], None]) -> Callable[[Runner], None]:
    """Registers the reference of the sample it is named after (a folder's 「/」 written 「_」)."""
    REFERENCES[check.__name__.replace("_", "/")] = check
    return check


# ---------------------------------------------------------------- samples


def sample_name(path: Path) -> str:
    return str(path.relative_to(SAMPLES)).replace("。着色器。豫", "")


def sample_path(name: str) -> Path:
    return SAMPLES / f"{name}。着色器。豫"


def translatable(ws) -> list[Path]:
    """Every sample outside 错误/ that checks without an error, in name order."""
    sources = sorted(p for p in SAMPLES.rglob("*。着色器。豫") if ERRORS not in p.parents)
    return [p for p in sources if not [d for d in ws.diagnostics(p) if d.severity == "错误"]]


def grid(groups) -> tuple[int, int, int]:
    """A runner's `groups` (a count or up to three counts) as three counts."""
    groups = tuple(groups) if isinstance(groups, tuple) else (groups,)
    return groups + (1,) * (3 - len(groups))


# ---------------------------------------------------------------- helpers


def entry_resources(ws, path: Path, entry: str) -> list:
    """(module path, resource) of every resource the entry named `entry` reaches (the validation pass's)."""
    info = ws.validate(path)
    return info.entry_resources(next(e.function for e in info.entries if e.name == entry))


def entry_buffers(ws, path: Path, entry: str, data: dict) -> list:
    """The storage and uniform resources `entry` of the source at `path`
    reaches, in binding order; `data` must give exactly those."""
    resources = [r for _, r in entry_resources(ws, path, entry) if r.kind in ("storage", "uniform")]
    assert sorted(r.name for r in resources) == sorted(data), "给出的缓冲与入口用到的不一致"
    return resources


def storage_bindings(ws, path: Path, entry: str, textures) -> dict:
    """The `StorageTexture`s among a runner's `textures`, by name: (the spec,
    (group, binding)); they must be exactly the storage textures `entry` reaches."""
    found = {r.name: (r.group, r.binding) for _, r in entry_resources(ws, path, entry) if r.kind == "storage_texture"}
    given = {t.name: t for t in textures if isinstance(t, StorageTexture)}
    assert sorted(given) == sorted(found), "给出的存储纹理与入口用到的不一致"
    return {name: (t, found[name]) for name, t in given.items()}


def read_back(resources: list, data: dict, out: dict) -> dict:
    """The buffers a run wrote back, by name, each shaped like its input array."""
    arrays = {}
    for r in resources:
        if (r.group, r.binding) in out:
            a = data[r.name]
            arrays[r.name] = np.frombuffer(out[(r.group, r.binding)][:a.nbytes], dtype=a.dtype).reshape(a.shape)
    return arrays


def rng(seed=1):
    return np.random.default_rng(seed)


def f32(*values):
    return np.array(values, dtype=np.float32)


def u32(*values):
    return np.array(values, dtype=np.uint32)


def close(actual, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


def same(actual, expected):
    np.testing.assert_array_equal(actual, expected)


# ---------------------------------------------------------------- the references


@reference
def 加倍(run):
    x = rng().integers(0, 2 ** 32, 37, dtype=np.uint32)
    out = run("加倍", "加倍入口", {"数据": x}, math.ceil(37 / 4))
    same(out["数据"], x * np.uint32(2))


@reference
def 两种若(run):
    x = np.concatenate([f32(-2, -0.0, 0, 0.25, 0.5, 1, 1.5), rng().uniform(-1, 2, 90).astype(np.float32)])
    n = len(x)
    marks = np.full(n, 7, dtype=np.uint32)
    out = run("两种若", "两种若入口", {"输入": x, "输出": np.zeros(n, np.float32), "标记": marks,
                                  "符号": np.zeros(n, np.int32)}, 2)
    close(out["输出"], np.where(x < 0, 0, np.where(x > 1, 1, x * x * (3 - 2 * x))))
    same(out["标记"], np.where((x < 0) | (x > 1), 1, 7))
    same(out["符号"], np.sign(x).astype(np.int32))


@reference
def 乘加(run):
    x, y = rng().standard_normal(200).astype(np.float32), rng(2).standard_normal(200).astype(np.float32)
    a, n = np.float32(1.75), 150
    params = f32(a).tobytes() + u32(n).tobytes()
    out = run("乘加", "乘加入口", {"参数": np.frombuffer(params, np.uint8), "甲": x, "乙": y}, 4)
    expected = y.copy()
    expected[:n] = a * x[:n] + y[:n]
    close(out["乙"], expected)


@reference
def 位技巧(run):
    x = np.concatenate([u32(0, 1, 2, 3, 0x80000000, 0xFFFFFF00, 1 << 20, 12345),
                        rng().integers(0, 1 << 24, 60, dtype=np.uint32)])
    n = len(x)
    out = run("位技巧", "位技巧入口", {"输入": x, "计数类": np.zeros((n, 4), np.uint32),
                                  "变换类": np.zeros((n, 4), np.uint32)}, 2)
    ones = np.array([bin(v).count("1") for v in x.tolist()], np.uint32)
    reverse = np.array([int(f"{v:032b}"[::-1], 2) for v in x.tolist()], np.uint32)
    same(out["计数类"], np.stack([ones, reverse, x & (~x + np.uint32(1)), x ^ (x >> np.uint32(1))], 1))
    rotl = (x << np.uint32(8)) | (x >> np.uint32(24))
    pow2 = ((x != 0) & ((x & (x - np.uint32(1))) == 0)).astype(np.uint32)
    swap = (x << np.uint32(16)) | (x >> np.uint32(16))
    exponent = (x.astype(np.float32).view(np.uint32) >> np.uint32(23)) & np.uint32(0xFF)
    same(out["变换类"], np.stack([rotl, pow2, swap, exponent], 1))


@reference
def 内建别名(run):
    out = run("内建别名", "只用号入口", {"输出": np.zeros(70, np.uint32)}, 3)
    same(out["输出"], np.arange(70))
    out = run("内建别名", "号与序入口", {"输出": np.zeros(70, np.uint32)}, 3)
    i = np.arange(70)
    same(out["输出"], i * (i % 32))


@reference
def 括号分组(run):
    x = rng().integers(0, 2 ** 32, 100, dtype=np.uint32)
    out = run("括号分组", "三倍加一入口", {"数据": x}, 2)
    same(out["数据"], x * np.uint32(3) + np.uint32(1))


@reference
def 分块矩阵乘(run):
    m, n, k = 20, 24, 36
    a = rng().standard_normal((m, k)).astype(np.float32)
    b = rng(2).standard_normal((k, n)).astype(np.float32)
    out = run("分块矩阵乘", "分块乘入口", {"尺寸": u32(m, n, k), "甲": a.ravel(), "乙": b.ravel(),
                                     "丙": np.full(m * n, -1, np.float32)}, (2, 2))
    close(out["丙"].reshape(m, n), a @ b, rtol=1e-4, atol=1e-4)


@reference
def 前缀和(run):
    x = rng().integers(0, 2 ** 32, 600, dtype=np.uint32)
    out = run("前缀和", "扫描入口", {"输入": x, "输出": np.zeros(600, np.uint32)}, 3)
    blocks = np.concatenate([x, np.zeros(168, np.uint32)]).reshape(-1, 256)
    same(out["输出"], np.cumsum(blocks, axis=1, dtype=np.uint32).ravel()[:600])


@reference
def 半精度(run):
    halves = rng().uniform(-8, 8, 128).astype(np.float16)
    packed = halves.view(np.uint32)
    doubled = rng(2).uniform(-100, 100, 50).astype(np.float16)
    out = run("半精度", "半精度入口", {"打包": packed, "结果": np.zeros(64, np.uint32), "和": np.zeros(64, np.float32),
                                   "半数组": doubled}, 1)
    v = halves.reshape(-1, 2)
    expected = v * np.float16(1.5) + np.float16(0.25)
    got = out["结果"].view(np.float16).reshape(-1, 2)
    ulp = np.spacing(np.abs(expected)).astype(np.float32)  # a fused multiply-add may round once
    assert np.all(np.abs(got.astype(np.float32) - expected.astype(np.float32)) <= ulp)
    same(out["和"], (v[:, 0] + v[:, 1]).astype(np.float32))
    same(out["半数组"], doubled * np.float16(2))


@reference
def 原子最值(run):
    x = rng().integers(-10 ** 9, 10 ** 9, 1000, dtype=np.int32)
    state = {"输入": x, "极值": np.zeros(2, np.int32), "计数": np.zeros(1, np.uint32), "读出": np.zeros(3, np.uint32)}
    state.update(run("原子最值", "重置入口", {k: state[k] for k in ("极值", "计数")}, 1))
    same(state["极值"], np.array([-2 ** 31, 2 ** 31 - 1], np.int32))
    state.update(run("原子最值", "求极值入口", {k: state[k] for k in ("输入", "极值", "计数")}, 8))
    state.update(run("原子最值", "读出入口", {k: state[k] for k in ("极值", "计数", "读出")}, 1))
    same(state["读出"], np.array([x.max(), x.min(), (x > 0).sum()]).astype(np.int32).view(np.uint32))


@reference
def 原子位运算(run):
    x = rng(5).integers(0, 2 ** 32, 256, dtype=np.uint64).astype(np.uint32) | np.uint32(0x00401001)
    x[:3] = (0xFFFFFFFF, 0x00401001, 0x80401001)          # all ones, the bits every value has, the sign bit
    start = np.array([0xFFFFFFFF, 0x100, 0x12345678, 7, 0], np.uint32)
    out = run("原子位运算", "位运算入口", {
        "输入": x, "位": start.copy(), "整": np.array([100], np.int32), "座": np.zeros(16, np.uint32),
        "旧": np.zeros(256, np.uint32), "认领": np.zeros(3 * 256, np.uint32), "组出": np.zeros(8, np.uint32)}, 4)
    bits = out["位"]
    same(bits[:4], np.array([np.bitwise_and.reduce(x), np.bitwise_or.reduce(x) | 0x100,
                             np.bitwise_xor.reduce(x) ^ 0x12345678, (7 - int(x.astype(np.int64).sum())) % 2 ** 32],
                            np.uint32))
    same(np.sort(np.r_[out["旧"], bits[4]]), np.arange(257, dtype=np.uint32))   # a chain of exchanges
    same(out["整"], np.array([100 - int((x & 0xFF).astype(np.int64).sum())], np.int32))
    claims = out["认领"].reshape(256, 3)
    seats, ids = out["座"], np.arange(256)
    for seat in range(16):
        mine = ids % 16 == seat
        (winner,) = ids[mine & (claims[:, 0] == 1)]        # exactly one invocation replaced the 0
        same(seats[seat], winner + 1)
        same(claims[mine, 1], np.where(ids[mine] == winner, 0, winner + 1))
    same(claims[:, 0] <= 1, True)
    groups = out["组出"].reshape(4, 2)
    for g in range(4):
        mine = slice(64 * g, 64 * g + 64)
        same(groups[g, 0], np.bitwise_xor.reduce(x[mine]))
        (winner,) = np.flatnonzero(claims[mine, 2] == 1)
        same(groups[g, 1], winner + 1)
    same(np.isin(claims[:, 2], (0, 1)), True)


@reference
def 子组编号(run):
    x = rng(7).integers(0, 2 ** 20, 6 * 48).astype(np.uint32)
    x[:2] = (0, 2 ** 20 - 1)
    out = run("子组编号", "编号入口", {"输入": x, "编号": np.zeros(6 * 48 * 5, np.uint32),
                                  "部分和": np.zeros(6 * 48, np.uint32)}, (3, 2))
    got = out["编号"].reshape(6 * 48, 5)
    width = int(got[0, 3])
    assert width in (4, 8, 16, 32, 64, 128)
    count = -(-48 // width)
    local = np.tile(np.arange(48), 6)
    same(got, np.stack([local // width, np.full(6 * 48, count), local % width, np.full(6 * 48, width),
                        np.full(6 * 48, 3 + 2 * 10 + 1 * 100)], 1).astype(np.uint32))
    padded = np.zeros((6, count * width), np.uint32)
    padded[:, :48] = x.reshape(6, 48)
    same(out["部分和"][:6 * count], padded.reshape(6 * count, width).sum(1, dtype=np.uint32))
    same(out["部分和"][6 * count:], 0)


@reference
def 向量运算(run):
    a, b = rng().standard_normal((70, 4)).astype(np.float32), rng(2).standard_normal((70, 4)).astype(np.float32)
    zeros = np.zeros((70, 4), np.float32)
    out = run("向量运算", "向量运算入口", {"甲": a, "乙": b, "叉点": zeros, "量度": zeros, "单位": zeros,
                                      "比较": np.zeros((70, 4), np.uint32)}, 2)
    close(out["叉点"], np.column_stack([np.cross(a[:, :3], b[:, :3]), (a * b).sum(1)]), atol=1e-5)
    i = np.arange(70)
    close(out["量度"], np.column_stack([np.linalg.norm(a, axis=1), np.linalg.norm(a - b, axis=1), a[i, i % 4],
                                      a.sum(1)]), atol=1e-5)
    close(out["单位"], a / np.linalg.norm(a, axis=1, keepdims=True), atol=1e-5)
    same(out["比较"], (a < b).astype(np.uint32))


@reference
def 分量与标量(run):
    n = 70
    v = rng(5).standard_normal((n, 4)).astype(np.float32)
    out = run("分量与标量", "分量与标量入口", {"输入": v, "浮出": np.zeros((3 * n, 4), np.float32),
                                        "整出": np.zeros((n, 4), np.uint32)}, 2)
    i = np.arange(n, dtype=np.uint32)
    s = (i.astype(np.float32) + np.float32(1))[:, None]
    floats = out["浮出"].reshape(n, 3, 4)
    same(floats[:, 0], v[:, ::-1])
    # a C++ compiler may contract v·s + … into one fma: the mixed row is compared within rounding
    close(floats[:, 1], v * s + (s - v) / np.float32(2))
    same(floats[:, 2], np.column_stack([v[:, 0] * s[:, 0], v[:, 1] * s[:, 0], v[:, 2], v[:, 0] + v[:, 0]]))
    index = i[:, None] + np.arange(4, dtype=np.uint32)
    same(out["整出"], (index % np.uint32(3)) * (i[:, None] + np.uint32(1)))


@reference
def 可覆盖常量(run):
    """With the constants' defaults (系数 2.0, 步长 1, 翻转 阴); tests/test_overrides.py gives them values."""
    x, y = rng(7).standard_normal(100).astype(np.float32), rng(8).standard_normal(100).astype(np.float32)
    out = run("可覆盖常量", "乘加入口", {"甲": x, "乙": y.copy()}, 2)
    close(out["乙"], np.float32(2.0) * x + y)


@reference
def 多维调用(run):
    g = 5
    out = run("多维调用", "多维入口", {"输出": np.zeros((8 * g, 4), np.uint32)}, g)
    i = np.arange(8 * g)
    same(out["输出"], np.stack([i % 8, i // 8, np.full_like(i, g), np.zeros_like(i)], 1).astype(np.uint32))


@reference
def 奇偶排序(run):
    x = rng().integers(0, 2 ** 32, 300, dtype=np.uint32)
    out = run("奇偶排序", "排序入口", {"数据": x}, 2)
    same(out["数据"], np.concatenate([np.sort(x[:256]), np.sort(x[256:])]))


@reference
def 子组归约(run):
    n = 128
    x = rng().integers(-50, 50, n).astype(np.float32)
    out = run("子组归约", "子组归约入口", {"输入": x, "输出": np.zeros((n, 4), np.float32),
                                      "蝶形和": np.zeros(n, np.float32), "大小": np.zeros(1, np.uint32)}, 2)
    size = int(out["大小"][0])
    assert size in (4, 8, 16, 32, 64, 128)
    s = x.reshape(-1, size)
    lane = np.arange(n) % size
    expected = np.stack([np.repeat(s.sum(1), size), np.repeat(s.max(1), size), np.repeat(s[:, 0], size),
                         x[(np.arange(n) - lane) + (lane ^ 1)]], 1)
    same(out["输出"], expected)
    if size >= 32:
        same(out["蝶形和"], np.repeat(x.reshape(-1, 32).sum(1), 32))
    else:
        print(f"子组大小为 {size}：蝶形归约跨 16 个线程，只在子组不小于 32 时有意义，不核对「蝶形和」")


@reference
def 矩阵与标量(run):
    """m × s, s × m, m ＋ m × s and m − m of 二阶浮 m (columns xy and zw of 甲[i]); small integers are exact."""
    n = 128
    a = rng().integers(-1000, 1000, (n, 4)).astype(np.float32)
    s = rng().integers(-4, 5, n).astype(np.float32)
    a[0], s[0] = (0.0, -0.0, np.finfo(np.float32).max, -1.0), np.float32(1)
    a[1], s[1] = (np.finfo(np.float32).max, 2.0, -3.0, 0.0), np.float32(-1)
    out = run("矩阵与标量", "矩阵与标量入口", {"甲": a, "乙": s, "出": np.zeros((4 * n, 4), np.float32)}, 2)
    product = a * s[:, None]
    with np.errstate(over="ignore"):
        expected = np.stack([product, product, a + product, a - a], 1).reshape(4 * n, 4)
    same(out["出"], expected)


@reference
def 整小与尾阶(run):
    """modf and frexp of x and of (x, 3x); no subnormals (a device may flush them) and nothing that overflows."""
    n = 128
    x = (rng().standard_normal(n) * 1000).astype(np.float32)
    x[:10] = (0.0, -0.0, 1.5, -1.5, -2.0, 0.75, 1e37, -1e-37, np.finfo(np.float32).tiny, 8388607.5)
    out = run("整小与尾阶", "分离入口", {"输入": x, "标量出": np.zeros((n, 4), np.float32), "阶出": np.zeros(n, np.int32),
                                      "向量出": np.zeros((n, 4), np.float32), "向量阶": np.zeros((n, 2), np.int32)}, 2)
    v = np.stack([x, x * np.float32(3)], 1)
    whole, vector_whole = np.trunc(x), np.trunc(v)
    fraction, exponent = np.frexp(x)
    same(out["标量出"], np.stack([x - whole, whole, fraction, np.zeros(n, np.float32)], 1))
    same(out["阶出"], exponent.astype(np.int32))
    same(out["向量出"], np.concatenate([v - vector_whole, vector_whole], 1))
    same(out["向量阶"], np.frexp(v)[1].astype(np.int32))


@reference
def 查表与填表(run):
    """A constant table read at run-time indices, a local array filled in a loop and one element replaced,
    a vector component replaced, and a dot product of two fixed-size arrays (integers: exact)."""
    n = 128
    x = rng().integers(-100, 100, n).astype(np.float32)
    x[:2] = (0.0, -0.0)
    table = rng().integers(-9, 9, (n, 4)).astype(np.float32)
    records = np.column_stack([np.full(n, 7, np.uint32), table.view(np.uint32)])    # 【号，表】: 20 bytes each
    out = run("查表与填表", "查表与填表入口", {"输入": x, "填出": np.zeros((n, 4), np.float32),
                                          "向量出": np.zeros((n, 4), np.float32), "查出": np.zeros((n, 2), np.float32),
                                          "记录": records.copy()}, 2)
    i = np.arange(n)
    weights = np.array([0.0625, 0.25, 0.375, 0.25, 0.0625], np.float32)
    filled = x[:, None] * np.arange(4, dtype=np.float32)
    filled[i, i % 4] = -1
    vector = np.repeat(x[:, None], 4, 1)
    vector[i, i % 4] = 0
    dot = np.zeros(n, np.float32)
    for k in range(4):
        dot = dot + filled[:, k] * np.float32(k + 1)
    same(out["填出"], filled)
    same(out["向量出"], vector)
    same(out["查出"], np.stack([weights[i % 5], dot], 1))
    table[i, i % 4] = x
    same(out["记录"][:, 0], i.astype(np.uint32))
    same(np.ascontiguousarray(out["记录"][:, 1:]).view(np.float32), table)


def frexp_of_subnormals(run):
    """整小与尾阶 on subnormal inputs, for the executors that keep them (the interpreter, the PTX emulator):
    frexp normalises them (2⁻¹⁴⁹ is 0.5 · 2⁻¹⁴⁸)."""
    n = 128
    x = np.linspace(-1e-38, 1e-38, n).astype(np.float32)
    x[:3] = (np.float32(2.0 ** -149), -np.float32(2.0 ** -149), np.float32(3 * 2.0 ** -140))
    out = run("整小与尾阶", "分离入口", {"输入": x, "标量出": np.zeros((n, 4), np.float32), "阶出": np.zeros(n, np.int32),
                                      "向量出": np.zeros((n, 4), np.float32), "向量阶": np.zeros((n, 2), np.int32)}, 2)
    fraction, exponent = np.frexp(x)
    assert (np.abs(x) < np.finfo(np.float32).tiny).sum() > 100
    same(out["标量出"][:, 2], fraction)
    same(out["阶出"], exponent.astype(np.int32))
    same(out["标量出"][:, :2], np.stack([x - np.trunc(x), np.trunc(x)], 1))


@reference
def 四元组(run):
    """Quads are lanes 4k … 4k + 3 of a subgroup; subgroups start at multiples of 4 of the global index here."""
    n = 128
    x = rng().integers(-1000, 1000, n).astype(np.float32)
    x[:4] = (0.0, -0.0, np.finfo(np.float32).max, -np.finfo(np.float32).max)
    out = run("四元组", "四元组入口", {"输入": x, "输出": np.zeros((n, 4), np.float32),
                                    "整出": np.zeros((n, 2), np.int32)}, 2)
    i = np.arange(n)
    q = i & ~3
    same(out["输出"], np.stack([x[q + 2], x[i ^ 1], x[i ^ 2], x[i ^ 3]], 1))
    same(out["整出"], np.stack([q, -q], 1).astype(np.int32))


def subgroups(n: int, workgroup: int, size: int) -> list[np.ndarray]:
    """The global indices of each subgroup: every workgroup's invocations in
    local order, `size` at a time; a workgroup that is not a multiple of the
    size ends in a partial subgroup (its missing lanes are inactive)."""
    return [np.arange(g + first, g + min(first + size, workgroup))
            for g in range(0, n, workgroup) for first in range(0, workgroup, size)]


def _ballot_words(bits: np.ndarray) -> tuple[int, int]:
    mask = sum(1 << i for i, b in enumerate(bits) if b)
    return mask & 0xFFFFFFFF, mask >> 32 & 0xFFFFFFFF


@reference
def 子组投票与前缀(run):
    n, workgroup = 96, 48
    x = rng().integers(1, 8, n).astype(np.uint32)
    x[5] = 0                                   # 全都 is false in the first subgroup only
    out = run("子组投票与前缀", "投票与前缀入口", {"输入": x, "输出": np.zeros((n * 4, 4), np.uint32),
                                           "大小": np.zeros(1, np.uint32)}, 2)
    size = int(out["大小"][0])
    assert size in (4, 8, 16, 32, 64, 128)
    got = out["输出"].reshape(n, 16)
    expected, checked = np.zeros((n, 16), np.uint32), np.ones((n, 16), bool)
    with np.errstate(over="ignore"):
        for lanes in subgroups(n, workgroup, size):
            v, k = x[lanes], len(lanes)
            inclusive_sum, inclusive_product = np.cumsum(v, dtype=np.uint32), np.cumprod(v, dtype=np.uint32)
            columns = [
                np.prod(v, dtype=np.uint32), np.bitwise_and.reduce(v), np.bitwise_or.reduce(v),
                np.bitwise_xor.reduce(v), inclusive_sum, inclusive_product, inclusive_sum - v,
                np.concatenate([[1], inclusive_product[:-1]]).astype(np.uint32),
                np.concatenate([[0], v[:-1]]), np.concatenate([v[1:], [0]]), v[0],
                int((v > 6).any()), int((v > 0).all()), *_ballot_words(v & 1 == 1),
                (np.arange(k) == 0).astype(np.uint32)]
            for c, column in enumerate(columns):
                expected[lanes, c] = column
            checked[lanes[0], 8] = False        # 上移: no invocation below the first
            checked[lanes[-1], 9] = False       # 下移: none above the last active one
    same(got[checked], expected[checked])


@reference
def 流压缩(run):
    x = rng(2).integers(0, 1000, 96).astype(np.uint32)
    out = run("流压缩", "压缩入口", {"输入": x, "输出": np.full(96, 0xFFFFFFFF, np.uint32),
                                 "个数": np.zeros(1, np.uint32)}, 2)
    kept = x[x % 2 == 1]
    same(out["个数"], u32(len(kept)))
    same(np.sort(out["输出"][:len(kept)]), np.sort(kept))
    same(out["输出"][len(kept):], np.full(96 - len(kept), 0xFFFFFFFF, np.uint32))


@reference
def 子组向量与半精度(run):
    n, workgroup = 96, 48
    x = rng(3).integers(0, 8, (n, 4)).astype(np.float32)
    x[:, 0] -= 4                                # negative halves too
    out = run("子组向量与半精度", "向量归约入口", {
        "输入": x, "浮出": np.zeros((n, 4), np.float32), "半出": np.zeros((n, 4), np.float16),
        "无出": np.zeros((n, 4), np.uint32), "大小": np.zeros(1, np.uint32)}, 2)
    size = int(out["大小"][0])
    assert size in (4, 8, 16, 32, 64, 128)
    floats, halves, words = np.zeros((n, 4), np.float32), np.zeros((n, 4), np.float16), np.zeros((n, 4), np.uint32)
    for lanes in subgroups(n, workgroup, size):
        v = x[lanes]
        floats[lanes, :3] = v[:, :3].sum(0)
        floats[lanes, 3] = np.cumsum(v[:, 3])
        halves[lanes, 0], halves[lanes, 1] = v[:, 0].sum(), v[:, 0].max()
        halves[lanes, 2:] = np.cumsum(v[:, 1:3], 0)
        pair = v[:, 2:].astype(np.uint32)
        words[lanes, :2] = np.cumsum(pair, 0)
        words[lanes, 2] = np.bitwise_xor.reduce(pair[:, 0])
        words[lanes, 3] = pair[:, 1].max()
    same(out["浮出"], floats)
    same(out["半出"], halves)
    same(out["无出"], words)


def _halves(shape, seed):
    """Random inputs exactly representable in f16, so f16 loads lose nothing."""
    return rng(seed).integers(-64, 64, shape).astype(np.float32) / np.float32(16)


#: samples WGSL cannot express (seed 着十二): the WGSL runner expects this translation error instead
NOT_WGSL = {"子组矩阵片": "WGSL 没有子组矩阵片", "子组矩阵片存储": "WGSL 没有子组矩阵片"}


@reference
def 子组矩阵片(run):
    a, b = _halves((16, 32), 1), _halves((16, 32), 2)          # b is 乙[n][k]
    c0 = rng(3).standard_normal((16, 16)).astype(np.float32)
    out = run("子组矩阵片", "片乘入口", {"甲": a.ravel(), "乙": b.ravel(), "初": c0.ravel(),
                                    "丙": np.full(256, -1, np.float32), "丁": np.full(256, -1, np.float32)}, 1)
    expected = c0 + a.astype(np.float64) @ b.astype(np.float64).T
    close(out["丙"].reshape(16, 16), expected, rtol=1e-5, atol=1e-4)
    close(out["丁"].reshape(16, 16), expected, rtol=1e-5, atol=1e-4)


@reference
def 子组矩阵片存储(run):
    a, b = _halves((16, 16), 4), _halves((16, 16), 5)           # b is 乙[n][k]
    words = lambda m: np.ascontiguousarray(m.astype(np.float16)).view(np.uint32).ravel()  # low half first
    out = run("子组矩阵片存储", "片存入口", {"甲字": words(a), "乙字": words(b), "乙转": words(b.T),
                                        "出": np.full(768, -1, np.float32)}, 1)
    product = a.astype(np.float64) @ b.astype(np.float64).T
    got = out["出"].reshape(3, 16, 16)
    close(got[0], product, atol=1e-4)
    close(got[1], 1 + product, atol=1e-4)
    close(got[2], np.concatenate([2 + product[:8], np.full((8, 16), 2.0)]), atol=1e-4)


#: samples only the PTX target can translate (seed 着十二's integer fragments): MSL and WGSL refuse them
PTX_ONLY = {"子组整矩阵片": "WGSL 没有整数子组矩阵片"}
NOT_WGSL.update(PTX_ONLY)


@reference
def 子组整矩阵片(run):
    a, b = rng(6).integers(-128, 128, (16, 64)), rng(7).integers(-128, 128, (16, 64))     # b is 乙[n][k]
    a[0, :], b[0, :] = -128, -128            # the largest dot product there is: 64 · 2¹⁴ = 2²⁰
    words = lambda m: np.ascontiguousarray(m.astype(np.int8)).view(np.uint32).ravel()     # low byte first
    out = run("子组整矩阵片", "整片乘入口", {"甲": words(a), "乙": words(b), "丙": np.full(256, -1, np.int32),
                                        "丁": np.full(256, -1, np.float32)}, 1)
    product = a @ b.T
    same(out["丙"].reshape(16, 16), product.astype(np.int32))
    same(out["丁"].reshape(16, 16), product.astype(np.float32))


#: samples only the MSL target can translate (seed 着十三's tensor fragments, Metal 4)
MSL_ONLY = {"张量片": "WGSL 没有张量片"}
NOT_WGSL.update(MSL_ONLY)


@reference
def 张量片(run):
    m, n, k = 100, 90, 96                     # ragged on both edges: 2 × 2 tiles of 64 × 64
    a = rng(8).standard_normal((m, k)).astype(np.float32)
    b = _halves((n, k), 9)                    # b is 乙[n][k], exact in f16
    out = run("张量片", "张量块乘入口", {"尺寸": u32(m, n, k), "甲": a.ravel(), "乙": b.ravel(),
                                     "丙": np.full(m * n, -1, np.float32)}, (2, 2))
    expected = 0.5 + a.astype(np.float64) @ b.astype(np.float64).T
    close(out["丙"].reshape(m, n), expected, rtol=1e-4, atol=1e-4)


@reference
def 字面量与转换(run):
    x = np.array([0, 1, -1, 7, -25, 123456, -2 ** 31, 2 ** 31 - 1], np.int32)
    out = run("字面量与转换", "字面量入口", {"整数": x, "输出": np.zeros(8 * len(x), np.uint32)}, 1)
    fx = np.abs(x.astype(np.float32) / np.float32(10))
    expected = np.stack([x.view(np.uint32), np.trunc(fx).astype(np.uint32), np.full(len(x), 0x3F800000),
                         np.full(len(x), 71), np.full(len(x), 0xFFFFFFFD), np.full(len(x), 7),
                         x.view(np.uint32) + np.uint32(6), np.full(len(x), 3142)], 1).astype(np.uint32)
    same(out["输出"].reshape(-1, 8), expected)


@reference
def 局部循环(run):
    out = run("局部循环", "三角数入口", {"结果": np.zeros(100, np.uint32)}, 2)
    i = np.arange(100, dtype=np.uint32)
    same(out["结果"], i * (i - 1) // 2)


@reference
def 工作组广播(run):
    x = rng().standard_normal(192).astype(np.float32)
    out = run("工作组广播", "广播入口", {"输入": x, "输出": np.zeros(192, np.float32),
                                    "旋转": np.zeros((192, 2), np.float32)}, 3)
    first = np.repeat(x[::64], 64)
    same(out["输出"], x + first)
    same(out["旋转"], np.stack([x * first, np.ones(192, np.float32)], 1))


@reference
def 常量(run):
    x = rng().uniform(-10, 60, 100).astype(np.float32)
    out = run("常量", "常量入口", {"输入": x, "输出": np.zeros(100, np.float32),
                               "白色": np.zeros((100, 4), np.float32)}, 2)
    close(out["输出"], np.minimum(x * np.float32(2.5) + np.float32(0.5), np.float32(100)))
    same(out["白色"], np.repeat(np.arange(100, dtype=np.float32)[:, None], 4, 1))


@reference
def 序列与格(run):
    x = rng().standard_normal((70, 16)).astype(np.float32)
    out = run("序列与格", "行扫描入口", {"输入": x.ravel(), "行前缀": np.zeros(70 * 16, np.float32),
                                    "正数个数": np.zeros(70, np.uint32)}, 2)
    close(out["行前缀"].reshape(70, 16), np.cumsum(x, axis=1), atol=1e-5)
    same(out["正数个数"], (x > 0).sum(1))


@reference
def 归约(run):
    x = rng().standard_normal(700).astype(np.float32)
    out = run("归约", "归约入口", {"输入": x, "块和": np.zeros(3, np.float32), "块最大": np.zeros(3, np.float32)}, 3)
    close(out["块和"], [x[i:i + 256].sum() for i in (0, 256, 512)], atol=1e-4)
    same(out["块最大"], [x[i:i + 256].max() for i in (0, 256, 512)])


@reference
def 数学一元(run):
    x = np.concatenate([f32(-2.5, -1.5, -0.5, -0.0, 0.5, 1.5, 2.5, 0.3, -1), rng().uniform(-1.4, 1.4, 55)]).astype(
        np.float32)
    n = len(x)
    out = run("数学一元", "一元入口", {"输入": x, "输出": np.zeros(21 * n, np.float32)}, 1)["输出"].reshape(21, n)
    a, p, c = np.abs(x), np.abs(x) + 1, np.clip(x, -1, 1)
    e = np.clip(x, -10, 10)
    expected = [a, np.sqrt(a), 1 / np.sqrt(p), np.exp(e), np.exp2(e), np.log(p), np.log2(p), np.sin(x), np.cos(x),
                np.tan(x), np.tanh(x), np.arcsin(c), np.arccos(c), np.arctan(x), np.floor(x), np.ceil(x), np.rint(x),
                np.trunc(x), x - np.floor(x), np.clip(x, 0, 1), np.sign(x)]
    for k, want in enumerate(expected):
        close(out[k], want, rtol=1e-3, atol=1e-3 if k in (7, 8, 9) else 2e-5)


@reference
def 数学多元(run):
    # atan2(0, 0) is undefined in WGSL: no pair is (0, 0)
    a = np.concatenate([f32(2, -2, 0, 5.5, -7.25), rng().uniform(-5, 5, 59)]).astype(np.float32)
    b = np.concatenate([f32(1, -3, 1, -5.5, 2), rng(2).uniform(-5, 5, 59)]).astype(np.float32)
    v = np.concatenate([np.array([0, 1, -1, -7, 7, 100, -101, -2 ** 31, 2 ** 31 - 1], np.int32),
                        rng(3).integers(-2 ** 31, 2 ** 31, 55, dtype=np.int32)])
    n = 64
    out = run("数学多元", "多元入口", {"甲": a, "乙": b, "整数": v, "浮点输出": np.zeros(13 * n, np.float32),
                                   "整数输出": np.zeros(12 * n, np.int32)}, 1)
    t = np.clip((a + 1) / 2, 0, 1)
    floats = [np.maximum(a, b), np.minimum(a, b), np.clip(a, -1, 1), a * 0.75 + b * 0.25, (a >= 0) * 1.0,
              t * t * (3 - 2 * t), np.sqrt(np.abs(a) + 1), np.arctan2(a, b), a * b + 1, np.where(a > b, a, b),
              np.fmod(a, 3), a / (np.abs(b) + 1), np.abs(a - b)]
    got = out["浮点输出"].reshape(13, n)
    for k, want in enumerate(floats):
        close(got[k], want, rtol=1e-4, atol=1e-4)
    with np.errstate(over="ignore"):
        w = v.astype(np.int64)
        bits = v.view(np.uint32)
        ints = [np.abs(w), np.maximum(w, 0), np.clip(w, -100, 100), np.sign(w), np.fmod(w, 7), np.fix(w / 3),
                -w, w >> 2, [bin(u).count("1") for u in bits.tolist()],
                [int(f"{u:032b}"[::-1], 2) for u in bits.tolist()], ~w, w << 3]
    wrap = [np.array(x, dtype=np.int64).astype(np.uint64).astype(np.uint32).view(np.int32) for x in ints]
    same(out["整数输出"].reshape(12, n), np.stack(wrap))


@reference
def 模糊(run):
    x = rng().standard_normal(150).astype(np.float32)
    out = run("模糊", "模糊入口", {"输入": x, "输出": np.zeros(150, np.float32)}, 3)
    p = np.pad(x, 1, mode="edge")
    close(out["输出"], (p[:-2] + p[1:-1] + p[2:]) / np.float32(3))


@reference
def 二维模板(run):
    w, h, d = 21, 13, 6
    sizes = np.array([w, h, d], np.uint32)
    x = rng().standard_normal(w * h).astype(np.float32)
    out = run("二维模板", "模板入口", {"尺寸": sizes, "输入": x, "输出": np.zeros(w * h, np.float32),
                                   "序号": np.zeros(w * h, np.uint32)}, (3, 2))
    g = x.reshape(h, w)
    expected = g.copy()
    expected[1:-1, 1:-1] = (np.float32(4) * g[1:-1, 1:-1] - g[1:-1, :-2] - g[1:-1, 2:] - g[:-2, 1:-1] - g[2:, 1:-1])
    close(out["输出"], expected.ravel(), atol=1e-5)
    ys, xs = np.mgrid[0:h, 0:w]
    same(out["序号"], (xs % 8 + 8 * (ys % 8)).ravel())
    out = run("二维模板", "编号入口", {"尺寸": sizes, "编号": np.zeros(w * h * d, np.uint32)}, (6, 4, 2))
    zs, ys, xs = np.mgrid[0:d, 0:h, 0:w]
    same(out["编号"], ((xs % 4 + 4 * (ys % 4) + 16 * (zs % 4)) * 1025).ravel())


@reference
def 共享直方图(run):
    x = rng().integers(0, 100000, 1000, dtype=np.uint32)
    out = run("共享直方图", "统计入口", {"数据": x, "桶": np.zeros(17, np.uint32)}, 16)
    same(out["桶"], np.concatenate([np.bincount(x % 16, minlength=16), [x.max()]]))


@reference
def 直方图(run):
    x = rng().integers(0, 400, 5000, dtype=np.uint32)
    out = run("直方图", "统计入口", {"数据": x, "桶": np.zeros(256, np.uint32)}, 40)
    same(out["桶"], np.bincount(np.minimum(x, 255), minlength=256))


@reference
def 矩阵变换(run):
    m = rng().standard_normal((4, 4)).astype(np.float32)          # columns
    normal = rng(2).standard_normal((3, 3)).astype(np.float32)    # columns
    uniform = np.concatenate([m.ravel(), np.pad(normal, ((0, 0), (0, 1))).ravel()]).astype(np.float32)
    points = rng(3).standard_normal((10, 4)).astype(np.float32)
    zeros = np.zeros((10, 4), np.float32)
    out = run("矩阵变换", "变换点入口", {"变换": uniform, "点": points, "变换后": zeros, "法线后": zeros,
                                   "矩阵量": np.zeros((5, 4), np.float32)}, 1)
    M, N = m.T, normal.T
    close(out["变换后"], points @ M.T, atol=1e-5)
    turned = points[:, :3] @ N.T
    close(out["法线后"], np.column_stack([turned / np.linalg.norm(turned, axis=1, keepdims=True), np.zeros(10)]),
          atol=1e-5)
    close(out["矩阵量"], [M[:, 1], M[:, 3], (M @ M)[:, 0], M.T[:, 2], [np.linalg.det(N), 0, M[2, 2], 0]],
          rtol=1e-4, atol=1e-4)


@reference
def 矩阵向量积(run):
    a = rng().standard_normal((70, 9)).astype(np.float32)
    x = rng(2).standard_normal(9).astype(np.float32)
    out = run("矩阵向量积", "行积入口", {"尺寸": u32(70, 9), "矩阵": a.ravel(), "向量": x,
                                    "结果": np.zeros(70, np.float32)}, 2)
    close(out["结果"], a @ x, atol=1e-5)


@reference
def 类型别名(run):
    c = rng().uniform(0, 1, (50, 4)).astype(np.float32)
    out = run("类型别名", "去色入口", {"输入": c, "灰色": np.zeros((50, 4), np.float32),
                                   "灰度": np.zeros(50, np.float32)}, 1)
    g = c[:, :3] @ f32(0.299, 0.587, 0.114)
    close(out["灰度"], g)
    close(out["灰色"], np.column_stack([g, g, g, c[:, 3]]))


@reference
def 纹素处理(run):
    h, w = 5, 70
    image = (rng().integers(0, 64, (h, w, 4)) / 64).astype(np.float16)   # exact in f16
    out = run("纹素处理", "纹素处理入口", {"亮度": np.full(h * w, -1, np.float32), "差": np.full(h * w, -1, np.float32)},
              (2, h), textures=[(0, 0, image), (0, 1, {})])
    img = image.astype(np.float32)
    close(out["亮度"].reshape(h, w), 0.25 * (img[..., 0] + 2 * img[..., 1] + img[..., 2]))
    same(out["差"], np.zeros(h * w, np.float32))


#: the cube faces of a direction's major axis (Vulkan's table): (axis, sign) → (face, s from, t from)
#: where s and t are (component, sign) of the direction divided by the major axis' magnitude
CUBE_FACES = {(0, 1): (0, (2, -1), (1, -1)), (0, -1): (1, (2, 1), (1, -1)),
              (1, 1): (2, (0, 1), (2, 1)), (1, -1): (3, (0, 1), (2, -1)),
              (2, 1): (4, (0, 1), (1, -1)), (2, -1): (5, (0, -1), (1, -1))}


def _cube_face_coordinates(direction) -> tuple[int, float, float]:
    """(face, u, v) of a direction on the face of its major axis (Vulkan's table)."""
    axis = int(np.argmax(np.abs(direction)))
    sign = 1 if direction[axis] >= 0 else -1
    face, (sa, ss), (ta, ts) = CUBE_FACES[(axis, sign)]
    major = abs(direction[axis])
    return face, (ss * direction[sa] / major + 1) / 2, (ts * direction[ta] / major + 1) / 2


def cube_texel(direction, edge: int) -> tuple[int, int, int]:
    """(face, row, column) nearest sampling reads for a direction."""
    face, u, v = _cube_face_coordinates(direction)
    return face, min(int(v * edge), edge - 1), min(int(u * edge), edge - 1)


def _cube_directions(g, n: int, edge: int) -> np.ndarray:
    """Directions well inside a face and a texel (no tie between axes, none near a texel border)."""
    found = []
    while len(found) < n:
        d = g.uniform(-1, 1, 3)
        a = np.sort(np.abs(d))
        axis = int(np.argmax(np.abs(d)))
        others = [d[i] / abs(d[axis]) for i in range(3) if i != axis]
        at = [(o + 1) / 2 * edge for o in others]
        if a[2] > 1.1 * a[1] and all(0.15 < t % 1 < 0.85 for t in at):
            found.append(np.append(d, 0))
    return np.array(found, np.float32)


def _linear(texels: np.ndarray, points: list) -> np.ndarray:
    """Texels (…, n_k, …, 4) blended linearly at unnormalized points (one per axis, last axis first
    in `texels`' order reversed: points[0] is along the width), edges clamped."""
    out = 0
    axes = len(points)
    for corner in np.ndindex(*(2,) * axes):
        index, weight = [], 1.0
        for k, (p, c) in enumerate(zip(points, corner)):
            n = texels.shape[axes - 1 - k]
            base = np.floor(p - 0.5)
            f = p - 0.5 - base
            index.append(int(np.clip(base + c, 0, n - 1)))
            weight *= f if c else 1 - f
        out = out + weight * texels[tuple(reversed(index))].astype(np.float64)
    return out


@reference
def 纹理种类(run):
    w, h, layers, depth, width, edge = 5, 4, 3, 3, 37, 4
    g = rng(7)
    texels = lambda *shape: (g.integers(0, 64, shape + (4,)) / 64).astype(np.float16)   # noqa: E731  exact in f16
    line, stack, volume, cube = texels(width), texels(layers, h, w), texels(depth, h, w), texels(6, edge, edge)
    ints = g.integers(-2 ** 31, 2 ** 31, (h, w, 4), dtype=np.int64).astype(np.int32)
    ints[0, 0] = [-2 ** 31, 2 ** 31 - 1, 0, -1]
    n = w * h * layers
    directions = _cube_directions(g, n, edge)
    linear = {"mag_filter": "linear", "min_filter": "linear"}
    out = run("纹理种类", "纹理种类入口", {"方向": directions, "出": np.zeros((6 * n, 4), np.float32),
                                     "整出": np.zeros((n, 4), np.int32), "尺": np.zeros(12, np.uint32)}, 1,
              textures=[(0, 0, line), (0, 1, stack), (0, 2, volume), (0, 3, cube), (0, 4, ints), (0, 5, {}), (0, 6, linear)])
    expected = np.zeros((n, 6, 4))
    for i in range(n):
        x, y, k = i % w, i // w % h, i // (w * h)
        expected[i, 0] = line[i % width]
        expected[i, 1] = stack[k % layers, y, x]
        expected[i, 2] = _linear(stack[k % layers], [x + 0.75, y + 0.25])
        expected[i, 3] = volume[k % depth, y, x]
        expected[i, 4] = _linear(volume, [x + 0.25, y + 0.75, k % depth + 0.5])
        expected[i, 5] = cube[cube_texel(directions[i, :3].astype(np.float64), edge)]
    close(out["出"].reshape(n, 6, 4), expected, atol=2e-3)
    same(out["整出"], ints.reshape(-1, 4)[[(i // w % h) * w + i % w for i in range(n)]])
    same(out["尺"], u32(width, w, h, layers, 1, w, h, depth, 1, edge, w, w))


def _clamped(texels: np.ndarray, y: int, x: int) -> np.ndarray:
    """The texel at (x, y) of (h, w, …) texels, each index clamped to the edge."""
    h, w = texels.shape[:2]
    return texels[min(max(y, 0), h - 1), min(max(x, 0), w - 1)]


def _gathered(texels: np.ndarray, u: float, v: float, offset=(0, 0)) -> list:
    """The four texels linear filtering blends at (u, v) (unnormalized), shifted by `offset`,
    in gather order (u₀v₁, u₁v₁, u₁v₀, u₀v₀); edges clamped."""
    x0, y0 = int(np.floor(u - 0.5)) + offset[0], int(np.floor(v - 0.5)) + offset[1]
    return [_clamped(texels, y0 + dy, x0 + dx) for dx, dy in ((0, 1), (1, 1), (1, 0), (0, 0))]


@reference
def 纹理采样(run):
    w, h, layers = 16, 8, 3
    n = w * h
    g = rng(25)
    texels = lambda *shape: (g.integers(0, 64, shape + (4,)) / 64).astype(np.float16)   # noqa: E731  exact in f16
    image, stack = texels(h, w), texels(layers, h, w)
    ints = g.integers(0, 2 ** 32, (h, w, 4), dtype=np.uint64).astype(np.uint32)
    ints[0, 0] = [0, 2 ** 32 - 1, 2 ** 31, 1]
    depth = (g.integers(0, 256, (h, w, 1)) / 255).astype(np.float32)      # exact in depth16unorm (k · 257 / 65535)
    reference_depth = ((g.integers(0, 255, n) + 0.5) / 255).astype(np.float32)   # never equal to a depth
    linear = {"mag_filter": "linear", "min_filter": "linear"}
    less = {"compare": "less", "mag_filter": "linear", "min_filter": "linear"}
    out = run("纹理采样", "纹理采样入口",
              {"参照": reference_depth, "出": np.zeros((10 * n, 4), np.float32), "整出": np.zeros((n, 4), np.uint32),
               "邻": np.zeros(n, np.int32)}, 2,
              textures=[(0, 0, image), (0, 1, stack), (0, 2, ints), (0, 3, depth), (0, 4, linear), (0, 5, {}),
                        (0, 6, less), StorageTexture("格", "r32sint", w, h)])
    img, d = image.astype(np.float64), depth[..., 0].astype(np.float64)
    expected = np.zeros((n, 10, 4))
    gathered_ints = np.zeros((n, 4), np.uint32)
    for i in range(n):
        x, y = i % w, i // w
        u, v = x + 0.25, y + 0.75                       # in texels
        ref = float(reference_depth[i])
        expected[i, 0] = _linear(img, [u, v])
        expected[i, 1] = _linear(img, [u + 1, v - 2])   # the offset moves the footprint by whole texels
        expected[i, 2] = [t[1] for t in _gathered(img, u, v)]
        expected[i, 3] = [t[3] for t in _gathered(img, u, v, (-1, 2))]
        expected[i, 4] = [t[0] for t in _gathered(stack[i % layers].astype(np.float64), u, v)]
        expected[i, 5] = _linear(stack[i % layers], [u, v])
        cu, cv = np.clip(3 * u / w - 1, 0.5 / w, 1 - 0.5 / w), np.clip(3 * v / h - 1, 0.5 / h, 1 - 0.5 / h)
        expected[i, 6] = _linear(img, [cu * w, cv * h])
        four = _gathered(d, u, v)
        expected[i, 7] = four
        expected[i, 8] = [ref < t for t in four]
        passed = lambda o: [float(ref < t) for t in _gathered(d, u, v, o)]   # noqa: E731
        pcf = lambda p: (p[3] * 0.25 * 0.75 + p[2] * 0.75 * 0.75 + p[0] * 0.25 * 0.25 + p[1] * 0.75 * 0.25)  # noqa: E731
        expected[i, 9] = [pcf(passed((0, 0))), pcf(passed((1, 1))), passed((1, 1))[0], 0]
        gathered_ints[i] = [t[2] for t in _gathered(ints, u, v)]
    close(out["出"].reshape(n, 10, 4), expected, atol=2e-3)
    same(out["整出"], gathered_ints)
    stored = np.array([-3 * i for i in range(n)], np.int32).reshape(h, w)
    same(out["格"][..., 0], stored)
    same(out["邻"], stored[:, np.arange(w) ^ 1].reshape(-1))


@reference
def 存储格式(run):
    w, h = 16, 8
    ys, xs = np.mgrid[0:h, 0:w].astype(np.int64)
    full = lambda v: np.full(xs.shape, v)                 # noqa: E731
    wide = lambda *channels: np.stack(channels, -1)       # noqa: E731
    textures = {
        "窄格式入口": {"符": "rgba8snorm", "无八": "rgba8uint", "整八": "rgba8sint", "无十六": "rgba16uint"},
        "整数格式入口": {"整十六": "rgba16sint", "单整": "r32sint", "双无": "rg32uint", "双整": "rg32sint"},
        "宽格式入口": {"双浮": "rg32float", "四无": "rgba32uint", "四整": "rgba32sint", "蓝序": "bgra8unorm"},
        "原有格式入口": {"四半": "rgba16float", "四浮": "rgba32float", "单浮": "r32float", "单无": "r32uint"},
    }
    f32 = np.float32
    snorm = wide(xs / 8 - 1, ys / 4 - 0.5, full(-0.75), full(2)).astype(f32)
    bgra = wide(xs / 16, ys / 8, full(0.25), full(1)).astype(f32)
    expected = {
        "符": np.rint(np.clip(snorm, -1, 1) * 127).astype(np.int8),
        "无八": wide(16 * xs + ys, xs, ys, full(255)).astype(np.uint8),
        "整八": wide(xs - 8, -16 * ys, xs * ys - 20, full(-128)).astype(np.int8),
        "无十六": wide(4000 * xs + ys, full(65535), ys, xs).astype(np.uint16),
        "整十六": wide(ys - 2000 * xs, full(32767), full(-32768), ys - xs).astype(np.int16),
        "单整": (-(100000 * xs + ys)).astype(np.int32)[..., None],
        "双无": wide((268435456 * xs + ys) % 2 ** 32, 4294967295 - xs).astype(np.uint32),
        "双整": wide(-1000000 * xs, 1000000 * ys + 7).astype(np.int32),
        "双浮": wide(xs.astype(f32) * f32(0.5) - f32(3), ys.astype(f32) / f32(3)),
        "四无": wide(xs, ys, xs * ys, full(4294967295)).astype(np.uint32),
        "四整": wide(-xs, ys, xs * ys - 50, full(-2147483647)).astype(np.int32),
        "蓝序": np.rint(bgra[..., [2, 1, 0, 3]] * 255).astype(np.uint8),   # kept blue first
        "四半": wide(xs / 4 - 1.5, ys * 0.125, full(-2.5), full(1024)).astype(np.float16),
        "四浮": wide(xs.astype(f32) / f32(3), -ys.astype(f32), full(131008), full(0.5)).astype(f32),
        "单浮": (xs * ys - 7.5).astype(f32)[..., None],
        "单无": ((1000 * xs + ys + 4294960000) % 2 ** 32).astype(np.uint32)[..., None],
    }
    for entry, formats in textures.items():
        out = run("存储格式", entry, {}, (2, 1), textures=[StorageTexture(n, f, w, h) for n, f in formats.items()])
        for name in formats:
            assert out[name].dtype == expected[name].dtype, (name, out[name].dtype)
            same(out[name], expected[name])


def _gather_directions(g, n: int, edge: int) -> np.ndarray:
    """Directions whose gather footprint lies inside one face, away from the texels' midlines."""
    found = []
    while len(found) < n:
        d = g.uniform(-1, 1, 3)
        a = np.sort(np.abs(d))
        _, u, v = _cube_face_coordinates(d)
        at = [c * edge - 0.5 for c in (u, v)]
        if a[2] > 1.1 * a[1] and all(0.1 < t < edge - 1.1 and 0.15 < t % 1 < 0.85 for t in at):
            found.append(np.append(d, 0))
    return np.array(found, np.float32)


@reference
def 纹理数组采样(run):
    w, h, layers, depth, edge = 16, 8, 3, 4, 8
    n = w * h
    g = rng(27)
    texels = lambda *shape: (g.integers(0, 64, shape + (4,)) / 64).astype(np.float16)   # noqa: E731  exact in f16
    stack, volume, cube = texels(layers, h, w), texels(depth, h, w), texels(6, edge, edge)
    depths = (g.integers(0, 256, (layers, h, w, 1)) / 255).astype(np.float32)   # exact in depth16unorm
    reference_depth = ((g.integers(0, 255, n) + 0.5) / 255).astype(np.float32)
    directions = _gather_directions(g, n, edge)
    linear = {"mag_filter": "linear", "min_filter": "linear"}
    less = {"compare": "less", "mag_filter": "linear", "min_filter": "linear"}
    out = run("纹理数组采样", "数组采样入口",
              {"方向": directions, "参照": reference_depth, "出": np.zeros((10 * n, 4), np.float32)}, 2,
              textures=[(0, 0, stack), (0, 1, volume), (0, 2, cube), (0, 3, depths), (0, 4, linear), (0, 5, {}),
                        (0, 6, less)])
    expected = np.zeros((n, 10, 4))
    for i in range(n):
        x, y, k = i % w, i // w, i % layers
        u, v = x + 0.25, y + 0.75                       # in texels
        layer, d, ref = stack[k].astype(np.float64), depths[k, ..., 0].astype(np.float64), float(reference_depth[i])
        expected[i, 0] = _linear(layer, [u - 1, v + 1])
        expected[i, 1] = [t[2] for t in _gathered(layer, u, v, (2, -1))]
        expected[i, 2] = _linear(layer, [u + 1, v + 1])
        expected[i, 3] = _linear(volume, [u, v, i % depth + 0.5])
        face, cu, cv = _cube_face_coordinates(directions[i, :3].astype(np.float64))
        expected[i, 4] = [t[1] for t in _gathered(cube[face].astype(np.float64), cu * edge, cv * edge)]
        expected[i, 5] = _gathered(d, u, v)
        expected[i, 6] = _gathered(d, u, v, (1, 0))
        expected[i, 7] = [ref < t for t in _gathered(d, u, v)]
        expected[i, 8] = [ref < t for t in _gathered(d, u, v, (0, -1))]
        passed = lambda o: [float(ref < t) for t in _gathered(d, u, v, o)]   # noqa: E731
        pcf = lambda p: (p[3] * 0.25 * 0.75 + p[2] * 0.75 * 0.75 + p[0] * 0.25 * 0.25 + p[1] * 0.75 * 0.25)  # noqa: E731
        expected[i, 9] = [pcf(passed((0, 0))), pcf(passed((-1, -1))), 0, 0]
    close(out["出"].reshape(n, 10, 4), expected, atol=2e-3)


@reference
def 立方数组采样(run):
    edge, cubes, n = 4, 2, 64
    g = rng(29)
    colour = (g.integers(0, 64, (6 * cubes, edge, edge, 4)) / 64).astype(np.float16)      # exact in f16
    depth = lambda count: (g.integers(0, 256, (6 * count, edge, edge, 1)) / 255).astype(np.float32)   # noqa: E731
    one, many = depth(1), depth(cubes)                                                 # exact in depth16unorm
    reference_depth = ((g.integers(0, 255, n) + 0.5) / 255).astype(np.float32)         # never equal to a depth
    directions = _cube_directions(g, n, edge)
    less = {"compare": "less"}
    out = run("立方数组采样", "立方数组采样入口",
              {"方向": directions, "参照": reference_depth, "出": np.zeros((2 * n, 4), np.float32),
               "尺": np.zeros(4, np.uint32)}, 1,
              textures=[(0, 0, colour), (0, 1, one), (0, 2, many), (0, 3, {}), (0, 4, less)])
    expected = np.zeros((n, 2, 4))
    for i in range(n):
        face, row, column = cube_texel(directions[i, :3].astype(np.float64), edge)
        k, ref = i % cubes, float(reference_depth[i])
        first, layered = one[face, row, column, 0], many[6 * k + face, row, column, 0]
        expected[i, 0] = colour[6 * k + face, row, column]
        expected[i, 1] = [first, layered, ref < first, ref < layered]
    close(out["出"].reshape(n, 2, 4), expected, atol=1e-4)
    same(out["尺"], u32(edge, cubes, edge, cubes))


@reference
def 多重采样读(run):
    w, h, samples = 8, 4, 4
    n = w * h * samples
    g = rng(31)
    colour = (g.integers(-64, 64, (samples, h, w, 4)) / 64).astype(np.float16)     # exact in f16, every sample its own
    depth = (g.integers(0, 2 ** 16, (samples, h, w, 1)) / 2 ** 16).astype(np.float32)   # 0 … 1, exact in depth32float
    depth[:, 0, 0, 0] = [0, 1, 0.5, 2 ** -16]
    out = run("多重采样读", "多重采样读入口",
              {"出": np.zeros((n, 4), np.float32), "深出": np.zeros(n, np.float32), "尺": np.zeros(5, np.uint32)}, 2,
              textures=[(0, 0, colour), (0, 1, depth)])
    same(out["出"], colour.reshape(n, 4).astype(np.float32))       # sample-major, then rows, then columns
    same(out["深出"], depth.reshape(n))
    same(out["尺"], u32(samples, w, h, samples, w))


@reference
def 存储纹理种类(run):
    w, h, layers = 16, 4, 2
    n = w * h * layers
    g = rng(33)
    i = np.arange(n).reshape(layers, h, w)              # i ＝ x ＋ w·y ＋ w·h·k: the texels (k, y, x) in order
    k, y, x = np.indices((layers, h, w))
    source = g.integers(0, 256, (4, 8, 4)).astype(np.uint8)
    source[0, 0], source[0, 1] = [0, 255, 1, 254], [255, 0, 128, 127]
    out = run("存储纹理种类", "写种类入口", {"尺": np.zeros(8, np.uint32)}, 2,
              textures=[StorageTexture("源", "rgba8unorm", 8, 4, initial=source), StorageTexture("线", "rgba32float", w),
                        StorageTexture("叠", "rgba16sint", w, h, layers), StorageTexture("体", "rgba8uint", w, h, layers)])
    close(out["线"], 2 * (source[0, np.arange(w) % 8].astype(np.float32) / np.float32(255)), rtol=1e-6, atol=0)
    same(out["叠"], np.stack([x, -y, k, -i], -1).astype(np.int16))
    same(out["体"], np.stack([i % 256, 255 - i % 256, x * y, np.full_like(i, 7)], -1).astype(np.uint8))
    same(out["尺"], u32(w, w, h, layers, w, h, layers, 8))

    cells, n = (2, 4, 8), 64                           # 读改入口: (layers or depth, h, w) 8 × 4 × 2, 64 invocations
    floats = (g.integers(-256, 256, cells + (1,)) / 64).astype(np.float32)
    words = g.integers(0, 2 ** 32, cells + (1,), dtype=np.uint64).astype(np.uint32)
    words[0, 0, :4, 0] = [0, 1, 2 ** 32 - 1, 1431655765]       # 3 × the last two wraps past 2³²
    ints = g.integers(-2 ** 31, 2 ** 31, (n, 4), dtype=np.int64).astype(np.int32)
    ints[0] = [-2 ** 31, 2 ** 31 - 1, 0, -1]
    halves = (g.integers(-1024, 1024, cells + (4,)) / 16).astype(np.float16)
    d, h, w = cells
    out = run("存储纹理种类", "读改入口", {"出整": np.zeros((n, 4), np.int32), "出浮": np.zeros((n, 4), np.float32)}, 1,
              textures=[StorageTexture("浮叠", "r32float", w, h, d, floats), StorageTexture("无体", "r32uint", w, h, d, words),
                        StorageTexture("整线", "rgba32sint", n, initial=ints),
                        StorageTexture("半体", "rgba16float", w, h, d, halves)])
    same(out["浮叠"], (np.float32(0.5) - 2 * floats).astype(np.float32))
    same(out["无体"], ((3 * words.astype(np.uint64) + 1) % 2 ** 32).astype(np.uint32))
    same(out["出整"], ints)
    same(out["出浮"], halves.reshape(n, 4).astype(np.float32))


def sobel(image: np.ndarray) -> np.ndarray:
    """The Sobel gradient's length of an (h, w, 4) image's luminance, edges clamped (float64)."""
    lum = image[..., :3].astype(np.float64) @ np.array([0.299, 0.587, 0.114])
    p = np.pad(lum, 1, mode="edge")
    h, w = lum.shape
    at = lambda dy, dx: p[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]     # noqa: E731
    gx = at(-1, 1) + 2 * at(0, 1) + at(1, 1) - at(-1, -1) - 2 * at(0, -1) - at(1, -1)
    gy = at(1, -1) + 2 * at(1, 0) + at(1, 1) - at(-1, -1) - 2 * at(-1, 0) - at(-1, 1)
    return np.hypot(gx, gy)


@reference
def 索贝尔(run):
    h, w = 19, 27                                        # ragged against the 8 × 8 workgroups
    image = (rng(3).integers(0, 16, (h, w, 4)) / 64).astype(np.float16)   # exact in f16
    image[5:12, 9:20, :3] += np.float16(0.5)             # a bright block: strong edges, some saturate
    out = run("索贝尔", "索贝尔入口", {}, (math.ceil(w / 8), math.ceil(h / 8)),
              textures=[(0, 0, image), StorageTexture("边", "rgba8unorm", w, h)])
    texels = out["边"]
    assert texels.shape == (h, w, 4) and texels.dtype == np.uint8
    expected = np.clip(sobel(image.astype(np.float32)), 0, 1) * 255
    # unorm8 conversion rounds to nearest; f32 arithmetic differs from float64 far below half a step
    assert np.abs(texels[..., :3].astype(np.float64) - expected[..., None]).max() <= 0.51
    same(texels[..., 3], np.full((h, w), 255, np.uint8))
    assert (expected >= 255).any() and ((expected > 5) & (expected < 250)).any()


@reference
def 头部与数组(run):
    """Header fields before a storage buffer's runtime-sized array (「缓冲」中「字段」): 粒子群's particles
    start at byte 16 (a 12-byte header rounded up to their 8-byte alignment), 权重's floats at byte 4,
    统计's atomic counters at byte 8 after a one-element atomic array; integers and halves keep the float
    arithmetic exact."""
    n, count, counters = 100, 90, 7
    particles = rng().integers(-50, 50, (n, 4)).astype(np.float32)
    weights = rng(2).integers(-8, 8, n).astype(np.float32)
    header = np.concatenate([u32(count), f32(0.5).view(np.uint32), u32(41, 0xDEADBEEF)])   # 个数 步长 代, padding
    group = np.concatenate([header, particles.view(np.uint32).ravel()])
    weighted = np.concatenate([f32(-0.25), weights]).view(np.uint32)
    stats = np.concatenate([u32(0xFFFFFFFF, 0), np.zeros(counters, np.uint32)])    # 长度 总数 计数
    out = run("头部与数组", "步进入口", {"粒子群": group, "权重": weighted, "统计": stats}, 2)
    m = min(count, n)
    moved = particles.copy()
    moved[:m, :2] = (particles[:m, :2] + particles[:m, 2:] * np.float32(0.5)) + (weights[:m] - np.float32(0.25))[:, None]
    same(out["粒子群"][:4], u32(count, header[1], 42, 0xDEADBEEF))
    same(out["粒子群"][4:].view(np.float32).reshape(n, 4), moved)
    same(out["统计"], np.concatenate([u32(n, m), np.bincount(np.arange(m) % counters, minlength=counters).astype(np.uint32)]))


@reference
def 工作组常量(run):
    """A workgroup size given by constants (8 × 4 from an overridable constant's default and a constant):
    each invocation reads its neighbour's local index from workgroup memory."""
    groups = 4
    out = run("工作组常量", "轮转入口", {"输出": np.zeros(32 * groups, np.uint32)}, groups)
    g, local = np.divmod(np.arange(32 * groups), 32)
    same(out["输出"], ((local + 1) % 32 + 100 * g).astype(np.uint32))


@reference
def 结构与记录(run):
    particles = rng().uniform(-1, 1, (100, 4)).astype(np.float32)
    particles[:10, 1] = -0.001       # some reach the ground
    dt, gravity = np.float32(0.1), np.float32(9.8)
    out = run("结构与记录", "步进入口", {"参数": f32(dt, gravity), "粒子群": particles}, 2)
    p, v = particles[:, :2], particles[:, 2:]
    v = v + np.array([0, -gravity], np.float32) * dt
    p = p + v * dt
    ground = p[:, 1] < 0
    p[ground, 1] = 0
    v[ground, 1] *= -0.5
    close(out["粒子群"], np.column_stack([p, v]), atol=1e-6)


@reference
def 考拉兹(run):
    start = np.concatenate([u32(0, 1, 2, 3, 27, 97), rng().integers(1, 100000, 122, dtype=np.uint32)])

    def steps(n):
        count = 0
        while n > 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            count += 1
        return count
    out = run("考拉兹", "考拉兹入口", {"起": start, "步": np.zeros(128, np.uint32)}, 2)
    same(out["步"], [steps(int(n)) for n in start])


@reference
def 顺序统计(run):
    x = rng().integers(0, 2 ** 31, 100, dtype=np.uint32)
    start, step = 3, 7
    out = run("顺序统计", "扫描入口", {"数据": x, "配置": u32(start, step), "统计": np.zeros(4, np.uint32),
                                   "累计": u32(5)}, 1)
    s = x[start::step]
    same(out["统计"], u32(len(s), s.sum(dtype=np.uint32), s.max(), s.min()))
    same(out["累计"], u32(5 + len(s)))


@reference
def 包甲_主(run):
    points = rng().uniform(-3, 3, (90, 4)).astype(np.float32)
    out = run("包甲/主", "主入口", {"点": points, "结果": np.zeros(90, np.float32)}, 2)
    t = np.float32(np.float32(0.5) * np.float32(0.1)) * np.arange(90, dtype=np.float32)
    q = points[:, :3] + t[:, None] * f32(0, 0, 1)
    close(out["结果"], np.clip((q * q).sum(1) / 100, 0, 1))


# ---------------------------------------------------------------- WGSL's bit, packing and geometric builtins


def _signed(v: int, bits: int = 32) -> int:
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def _wgsl_bit_range(offset: int, count: int) -> tuple[int, int]:
    o = min(offset, 32)
    return o, min(count, 32 - o)


def _extract(v: int, offset: int, count: int, signed: bool) -> int:
    """extractBits on the 32 bits of v (as u32 bits)."""
    o, c = _wgsl_bit_range(offset, count)
    if c == 0:
        return 0
    field = (v >> o) & ((1 << c) - 1)
    if signed and field >> (c - 1) & 1:
        field |= (0xFFFFFFFF >> c) << c
    return field


def _insert(v: int, new: int, offset: int, count: int) -> int:
    o, c = _wgsl_bit_range(offset, count)
    mask = ((1 << c) - 1) << o
    return (v & ~mask | (new << o) & mask) & 0xFFFFFFFF


def _first_leading(v: int, signed: bool) -> int:
    """The highest bit set (i32: unlike the sign bit); none: all ones."""
    if signed and v >> 31:
        v = ~v & 0xFFFFFFFF
    return v.bit_length() - 1 & 0xFFFFFFFF if v else 0xFFFFFFFF


def _bit_counts(v: int, signed: bool) -> list[int]:
    leading = 32 - v.bit_length()
    trailing = (v & -v).bit_length() - 1 if v else 32
    lowest = trailing if v else 0xFFFFFFFF
    return [leading, trailing, _first_leading(v, signed), lowest]


@reference
def 位段(run):
    edges = [0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x00F0F000, 0xFFFF0000, 0x12345678]
    x = np.concatenate([u32(*edges), rng().integers(0, 2 ** 32, 56, dtype=np.uint32)])
    ranges = [(0, 0), (0, 32), (31, 1), (28, 8), (40, 5), (4, 100), (16, 16), (32, 0)]
    r = np.concatenate([np.array(ranges, np.uint32), rng(2).integers(0, 41, (56, 2), dtype=np.uint32)])
    n = len(x)
    out = run("位段", "位段入口", {"输入": x, "范围": r, "无位": np.zeros((n, 4), np.uint32),
                                 "整位": np.zeros((n, 4), np.int32), "段": np.zeros((n, 4), np.uint32),
                                 "向量": np.zeros((n, 4), np.uint32)}, 1)
    values, pairs = [int(v) for v in x], [(int(o), int(c)) for o, c in r]
    same(out["无位"], np.array([_bit_counts(v, False) for v in values], np.uint32))
    same(out["整位"], np.array([[_signed(c) for c in _bit_counts(v, True)] for v in values], np.int64).astype(np.int32))
    same(out["段"], np.array([[_extract(v, o, c, False), _extract(v, o, c, True), _insert(v, ~v & 0xFFFFFFFF, o, c),
                                _insert(v, ~v & 0xFFFFFFFF, o, c)] for v, (o, c) in zip(values, pairs)], np.uint32))
    same(out["向量"], np.array([[32 - v.bit_length(), 32 - (~v & 0xFFFFFFFF).bit_length(), v >> 28, (~v & 0xFFFFFFFF) >> 28]
                                for v in values], np.uint32))


def _bytes_of(words: np.ndarray, lanes: int, bits: int, signed: bool) -> np.ndarray:
    """(n, lanes) fields of `bits` bits of u32 words, lowest first, as int64 (sign-extended when signed)."""
    w = words.astype(np.int64)
    fields = np.stack([(w >> (bits * i)) & ((1 << bits) - 1) for i in range(lanes)], 1)
    return np.where(fields >= 1 << (bits - 1), fields - (1 << bits), fields) if signed else fields


def _words_of(fields: np.ndarray, bits: int) -> np.ndarray:
    """Each row's fields (their low `bits` bits) as one u32, the first lowest."""
    f = fields.astype(np.int64) & ((1 << bits) - 1)
    return sum(f[:, i] << (bits * i) for i in range(f.shape[1])).astype(np.uint32)


def _normalized(x: np.ndarray, scale: int, low: float) -> np.ndarray:
    """WGSL's ⌊0.5 + scale · min(1, max(low, x))⌋, in f32 as written."""
    x = x.astype(np.float32)
    return np.floor(np.float32(0.5) + np.float32(scale) * np.minimum(np.float32(1), np.maximum(np.float32(low), x)))


@reference
def 打包(run):
    edges = f32(-2, -1, -0.6, 0, 0.25, 1, 1.5, 0.1, 0.75, -0.25, 0.999, -0.999)
    f = np.concatenate([edges.reshape(3, 4), rng().uniform(-1.3, 1.3, (61, 4)).astype(np.float32)])
    ints = np.array([[-300, -128, 127, 200], [0, -1, 255, 256], [2 ** 31 - 1, -2 ** 31, 1000, -129]], np.int32)
    n = np.concatenate([ints, rng(2).integers(-400, 400, (61, 4), dtype=np.int32)])
    w = np.concatenate([u32(0, 0xFFFFFFFF, 0x80808080, 0x7F7F7F7F, 0x80007FFF, 0x00018001, 0x12345678, 0xFF00FF00),
                        rng(3).integers(0, 2 ** 32, 56, dtype=np.uint32)])
    count = len(w)
    zeros4, floats4 = np.zeros((count, 4), np.uint32), np.zeros((count, 4), np.float32)
    out = run("打包", "打包入口", {"浮": f, "整": n, "字": w, "浮打包": zeros4, "整打包": zeros4,
                                 "归一解包": floats4, "符归一解包": floats4, "半字解包": floats4,
                                 "整解包": np.zeros((count, 4), np.int32), "无解包": zeros4,
                                 "点积": np.zeros((count, 2), np.uint32)}, 1)
    same(out["浮打包"], np.stack([_words_of(_normalized(f, 255, 0), 8), _words_of(_normalized(f, 127, -1), 8),
                                _words_of(_normalized(f[:, :2], 65535, 0), 16),
                                _words_of(_normalized(f[:, 2:], 32767, -1), 16)], 1))
    wide = n.astype(np.int64)
    same(out["整打包"], np.stack([_words_of(wide, 8), _words_of(wide, 8), _words_of(np.clip(wide, -128, 127), 8),
                                _words_of(np.minimum(wide & 0xFFFFFFFF, 255), 8)], 1))
    close(out["归一解包"], _bytes_of(w, 4, 8, False) / np.float32(255))
    close(out["符归一解包"], np.maximum(_bytes_of(w, 4, 8, True) / np.float32(127), -1))
    close(out["半字解包"], np.concatenate([_bytes_of(w, 2, 16, False) / np.float32(65535),
                                          np.maximum(_bytes_of(w, 2, 16, True) / np.float32(32767), -1)], 1))
    same(out["整解包"], _bytes_of(w, 4, 8, True).astype(np.int32))
    same(out["无解包"], _bytes_of(w, 4, 8, False).astype(np.uint32))
    v = np.array([int(f"{x:032b}"[::-1], 2) for x in w.tolist()], np.uint32)
    unsigned = (_bytes_of(w, 4, 8, False) * _bytes_of(v, 4, 8, False)).sum(1)
    signed = (_bytes_of(w, 4, 8, True) * _bytes_of(v, 4, 8, True)).sum(1)
    same(out["点积"], np.stack([unsigned, signed & 0xFFFFFFFF], 1).astype(np.uint32))


def _unit_rows(v: np.ndarray) -> np.ndarray:
    """Rows of (x, y, z) made unit length, with w = 0 (f32)."""
    v = v / np.linalg.norm(v, axis=1, keepdims=True)
    return np.column_stack([v, np.zeros(len(v))]).astype(np.float32)


@reference
def 反射折射(run):
    count = 64
    e, n = _unit_rows(rng().standard_normal((count, 3))), _unit_rows(rng(2).standard_normal((count, 3)))
    eta = rng(3).uniform(0.5, 1.6, count).astype(np.float32)
    d = (e.astype(np.float64) * n).sum(1)
    k = 1 - eta.astype(np.float64) ** 2 * (1 - d * d)
    eta[np.abs(k) < 1e-2] = 0.75          # far from the edge of total internal reflection (k = 0)
    k = 1 - eta.astype(np.float64) ** 2 * (1 - d * d)
    x = np.concatenate([f32(1.5, -0.75, 1.0, 0.1, 70000, -1e5, 65520, 65519, 65504, 1 / 3, 1e-3, -2.5).reshape(3, 4),
                        rng(4).uniform(-4, 4, (count - 3, 4)).astype(np.float32)])
    powers = np.concatenate([np.array([[127, 128, -126, -3], [0, 0, 0, 0], [1, -1, 2, -2]], np.int32),
                             rng(5).integers(-20, 21, (count - 3, 4), dtype=np.int32)])
    floats = np.zeros((count, 4), np.float32)
    out = run("反射折射", "光线入口", {"入射": e, "法线": n, "比": eta, "数": x, "幂": powers, "反射光": floats,
                                     "折射光": floats, "翻转": floats, "二幂": floats, "量化": floats,
                                     "真值": np.zeros((count, 4), np.uint32)}, 1)
    e64, n64, eta64 = e.astype(np.float64), n.astype(np.float64), eta.astype(np.float64)[:, None]
    close(out["反射光"], e64 - 2 * d[:, None] * n64, atol=1e-5)
    refracted = eta64 * e64 - (eta64 * d[:, None] + np.sqrt(np.maximum(k, 0))[:, None]) * n64
    close(out["折射光"], np.where((k < 0)[:, None], 0.0, refracted), atol=1e-5)
    same(out["翻转"], np.where((d < 0)[:, None], n, -n))
    same(out["二幂"], np.ldexp(x, powers).astype(np.float32))
    with np.errstate(over="ignore"):
        same(out["量化"], x.astype(np.float16).astype(np.float32))
    same(out["真值"], np.stack([(e > -0.5).all(1), (e > 0.9).any(1), eta < 1, eta > 1], 1).astype(np.uint32))


# the ports of real shaders (samples/移植/) register their references here too
from support import references_ports  # noqa: E402,F401
