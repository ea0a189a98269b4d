"""Every sample's WGSL: equal to its golden 名.wgsl, accepted by naga on a real
WebGPU device, and — for every compute entry — executed and compared with a
NumPy reference; vertex+fragment pairs render and their pixels are checked."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from wgpu_device import render, run_entry, validate
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
ERRORS = SAMPLES / "错误"          # error samples and their helpers: 检查's evidence, not ours
SOURCES = sorted(p for p in SAMPLES.rglob("*。着色器。豫") if ERRORS not in p.parents)
WS = Workspace(SAMPLES)


def _name(path: Path) -> str:
    return str(path.relative_to(SAMPLES)).replace("。着色器。豫", "")


def _clean(path: Path) -> bool:
    return not [d for d in WS.diagnostics(path) if d.severity == "错误"]


TRANSLATABLE = [p for p in SOURCES if _clean(p)]


def test_samples_are_there():
    assert len(TRANSLATABLE) >= 25, [str(p) for p in TRANSLATABLE]


@pytest.mark.parametrize("path", TRANSLATABLE, ids=_name)
def test_golden_and_naga(path):
    result = translate(WS, path, "wgsl")
    assert result.diagnostics == []
    golden = path.with_name(path.name.replace("。着色器。豫", ".wgsl"))
    assert golden.is_file(), f"缺少期望的 WGSL：{golden}"
    assert result.text == golden.read_text(encoding="utf-8")
    validate(result.text)


# ---------------------------------------------------------------- running


def run(sample: str, entry: str, data: dict[str, np.ndarray], groups, others=()) -> dict[str, np.ndarray]:
    return run_entry(WS, SAMPLES / f"{sample}。着色器。豫", entry, data, groups, others)


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


# ---------------------------------------------------------------- compute references


def test_加倍():
    x = rng().integers(0, 2 ** 32, 37, dtype=np.uint32)
    out = run("加倍", "加倍入口", {"数据": x}, math.ceil(37 / 4))
    same(out["数据"], x * np.uint32(2))


def test_两种若():
    x = np.concatenate([f32(-2, -0.0, 0, 0.25, 0.5, 1, 1.5), rng().uniform(-1, 2, 90).astype(np.float32)])
    n = len(x)
    marks = np.full(n, 7, dtype=np.uint32)
    out = run("两种若", "两种若入口", {"输入": x, "输出": np.zeros(n, np.float32), "标记": marks,
                                  "符号": np.zeros(n, np.int32)}, 2)
    close(out["输出"], np.where(x < 0, 0, np.where(x > 1, 1, x * x * (3 - 2 * x))))
    same(out["标记"], np.where((x < 0) | (x > 1), 1, 7))
    same(out["符号"], np.sign(x).astype(np.int32))


def test_乘加():
    x, y = rng().standard_normal(200).astype(np.float32), rng(2).standard_normal(200).astype(np.float32)
    a, n = np.float32(1.75), 150
    params = f32(a).tobytes() + u32(n).tobytes()
    out = run("乘加", "乘加入口", {"参数": np.frombuffer(params, np.uint8), "甲": x, "乙": y}, 4)
    expected = y.copy()
    expected[:n] = a * x[:n] + y[:n]
    close(out["乙"], expected)


def test_位技巧():
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


def test_内建别名():
    out = run("内建别名", "只用号入口", {"输出": np.zeros(70, np.uint32)}, 3)
    same(out["输出"], np.arange(70))
    out = run("内建别名", "号与序入口", {"输出": np.zeros(70, np.uint32)}, 3)
    i = np.arange(70)
    same(out["输出"], i * (i % 32))


def test_括号分组():
    x = rng().integers(0, 2 ** 32, 100, dtype=np.uint32)
    out = run("括号分组", "三倍加一入口", {"数据": x}, 2)
    same(out["数据"], x * np.uint32(3) + np.uint32(1))


def test_分块矩阵乘():
    m, n, k = 20, 24, 36
    a = rng().standard_normal((m, k)).astype(np.float32)
    b = rng(2).standard_normal((k, n)).astype(np.float32)
    out = run("分块矩阵乘", "分块乘入口", {"尺寸": u32(m, n, k), "甲": a.ravel(), "乙": b.ravel(),
                                     "丙": np.full(m * n, -1, np.float32)}, (2, 2))
    close(out["丙"].reshape(m, n), a @ b, rtol=1e-4, atol=1e-4)


def test_前缀和():
    x = rng().integers(0, 2 ** 32, 600, dtype=np.uint32)
    out = run("前缀和", "扫描入口", {"输入": x, "输出": np.zeros(600, np.uint32)}, 3)
    blocks = np.concatenate([x, np.zeros(168, np.uint32)]).reshape(-1, 256)
    same(out["输出"], np.cumsum(blocks, axis=1, dtype=np.uint32).ravel()[:600])


def test_半精度():
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


def test_原子最值():
    x = rng().integers(-10 ** 9, 10 ** 9, 1000, dtype=np.int32)
    state = {"输入": x, "极值": np.zeros(2, np.int32), "计数": np.zeros(1, np.uint32), "读出": np.zeros(3, np.uint32)}
    state.update(run("原子最值", "重置入口", {k: state[k] for k in ("极值", "计数")}, 1))
    same(state["极值"], np.array([-2 ** 31, 2 ** 31 - 1], np.int32))
    state.update(run("原子最值", "求极值入口", {k: state[k] for k in ("输入", "极值", "计数")}, 8))
    state.update(run("原子最值", "读出入口", {k: state[k] for k in ("极值", "计数", "读出")}, 1))
    same(state["读出"], np.array([x.max(), x.min(), (x > 0).sum()]).astype(np.int32).view(np.uint32))


def test_向量运算():
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


def test_多维调用():
    g = 5
    out = run("多维调用", "多维入口", {"输出": np.zeros((8 * g, 4), np.uint32)}, g)
    i = np.arange(8 * g)
    same(out["输出"], np.stack([i % 8, i // 8, np.full_like(i, g), np.zeros_like(i)], 1).astype(np.uint32))


def test_奇偶排序():
    x = rng().integers(0, 2 ** 32, 300, dtype=np.uint32)
    out = run("奇偶排序", "排序入口", {"数据": x}, 2)
    same(out["数据"], np.concatenate([np.sort(x[:256]), np.sort(x[256:])]))


def test_子组归约():
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


def test_字面量与转换():
    x = np.array([0, 1, -1, 7, -25, 123456, -2 ** 31, 2 ** 31 - 1], np.int32)
    out = run("字面量与转换", "字面量入口", {"整数": x, "输出": np.zeros(8 * len(x), np.uint32)}, 1)
    fx = np.abs(x.astype(np.float32) / np.float32(10))
    expected = np.stack([x.view(np.uint32), np.trunc(fx).astype(np.uint32), np.full(len(x), 0x3F800000),
                         np.full(len(x), 71), np.full(len(x), 0xFFFFFFFD), np.full(len(x), 7),
                         x.view(np.uint32) + np.uint32(6), np.full(len(x), 3142)], 1).astype(np.uint32)
    same(out["输出"].reshape(-1, 8), expected)


def test_局部循环():
    out = run("局部循环", "三角数入口", {"结果": np.zeros(100, np.uint32)}, 2)
    i = np.arange(100, dtype=np.uint32)
    same(out["结果"], i * (i - 1) // 2)


def test_工作组广播():
    x = rng().standard_normal(192).astype(np.float32)
    out = run("工作组广播", "广播入口", {"输入": x, "输出": np.zeros(192, np.float32),
                                    "旋转": np.zeros((192, 2), np.float32)}, 3)
    first = np.repeat(x[::64], 64)
    same(out["输出"], x + first)
    same(out["旋转"], np.stack([x * first, np.ones(192, np.float32)], 1))


def test_常量():
    x = rng().uniform(-10, 60, 100).astype(np.float32)
    out = run("常量", "常量入口", {"输入": x, "输出": np.zeros(100, np.float32),
                               "白色": np.zeros((100, 4), np.float32)}, 2)
    close(out["输出"], np.minimum(x * np.float32(2.5) + np.float32(0.5), np.float32(100)))
    same(out["白色"], np.repeat(np.arange(100, dtype=np.float32)[:, None], 4, 1))


def test_序列与格():
    x = rng().standard_normal((70, 16)).astype(np.float32)
    out = run("序列与格", "行扫描入口", {"输入": x.ravel(), "行前缀": np.zeros(70 * 16, np.float32),
                                    "正数个数": np.zeros(70, np.uint32)}, 2)
    close(out["行前缀"].reshape(70, 16), np.cumsum(x, axis=1), atol=1e-5)
    same(out["正数个数"], (x > 0).sum(1))


def test_归约():
    x = rng().standard_normal(700).astype(np.float32)
    out = run("归约", "归约入口", {"输入": x, "块和": np.zeros(3, np.float32), "块最大": np.zeros(3, np.float32)}, 3)
    close(out["块和"], [x[i:i + 256].sum() for i in (0, 256, 512)], atol=1e-4)
    same(out["块最大"], [x[i:i + 256].max() for i in (0, 256, 512)])


def test_数学一元():
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


def test_数学多元():
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


def test_模糊():
    x = rng().standard_normal(150).astype(np.float32)
    out = run("模糊", "模糊入口", {"输入": x, "输出": np.zeros(150, np.float32)}, 3)
    p = np.pad(x, 1, mode="edge")
    close(out["输出"], (p[:-2] + p[1:-1] + p[2:]) / np.float32(3))


def test_直方图():
    x = rng().integers(0, 400, 5000, dtype=np.uint32)
    out = run("直方图", "统计入口", {"数据": x, "桶": np.zeros(256, np.uint32)}, 40)
    same(out["桶"], np.bincount(np.minimum(x, 255), minlength=256))


def test_矩阵变换():
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


def test_矩阵向量积():
    a = rng().standard_normal((70, 9)).astype(np.float32)
    x = rng(2).standard_normal(9).astype(np.float32)
    out = run("矩阵向量积", "行积入口", {"尺寸": u32(70, 9), "矩阵": a.ravel(), "向量": x,
                                    "结果": np.zeros(70, np.float32)}, 2)
    close(out["结果"], a @ x, atol=1e-5)


def test_类型别名():
    c = rng().uniform(0, 1, (50, 4)).astype(np.float32)
    out = run("类型别名", "去色入口", {"输入": c, "灰色": np.zeros((50, 4), np.float32),
                                   "灰度": np.zeros(50, np.float32)}, 1)
    g = c[:, :3] @ f32(0.299, 0.587, 0.114)
    close(out["灰度"], g)
    close(out["灰色"], np.column_stack([g, g, g, c[:, 3]]))


def test_纹素处理():
    import wgpu
    h, w = 5, 70
    image = (rng().integers(0, 64, (h, w, 4)) / 64).astype(np.float16)   # exact in f16

    def texture(device):
        t = device.create_texture(size=(w, h, 1), format=wgpu.TextureFormat.rgba16float,
                                  usage=wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_DST)
        device.queue.write_texture({"texture": t}, image.tobytes(), {"bytes_per_row": w * 8, "rows_per_image": h},
                                   (w, h, 1))
        return t.create_view()

    others = [(0, 0, texture), (0, 1, lambda device: device.create_sampler())]
    out = run("纹素处理", "纹素处理入口", {"亮度": np.full(h * w, -1, np.float32), "差": np.full(h * w, -1, np.float32)},
              (2, h), others)
    img = image.astype(np.float32)
    close(out["亮度"].reshape(h, w), 0.25 * (img[..., 0] + 2 * img[..., 1] + img[..., 2]))
    same(out["差"], np.zeros(h * w, np.float32))


def test_结构与记录():
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


def test_考拉兹():
    start = np.concatenate([u32(0, 1, 2, 3, 27, 97), rng().integers(1, 100000, 122, dtype=np.uint32)])

    def steps(n):
        count = 0
        while n > 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            count += 1
        return count
    out = run("考拉兹", "考拉兹入口", {"起": start, "步": np.zeros(128, np.uint32)}, 2)
    same(out["步"], [steps(int(n)) for n in start])


def test_顺序统计():
    x = rng().integers(0, 2 ** 31, 100, dtype=np.uint32)
    start, step = 3, 7
    out = run("顺序统计", "扫描入口", {"数据": x, "配置": u32(start, step), "统计": np.zeros(4, np.uint32),
                                   "累计": u32(5)}, 1)
    s = x[start::step]
    same(out["统计"], u32(len(s), s.sum(dtype=np.uint32), s.max(), s.min()))
    same(out["累计"], u32(5 + len(s)))


def test_包甲_主_imports_two_packages():
    points = rng().uniform(-3, 3, (90, 4)).astype(np.float32)
    path = SAMPLES / "包甲" / "主。着色器。豫"
    out = run(str(path.relative_to(SAMPLES)).replace("。着色器。豫", ""), "主入口",
              {"点": points, "结果": np.zeros(90, np.float32)}, 2)
    t = np.float32(np.float32(0.5) * np.float32(0.1)) * np.arange(90, dtype=np.float32)
    q = points[:, :3] + t[:, None] * f32(0, 0, 1)
    close(out["结果"], np.clip((q * q).sum(1) / 100, 0, 1))


def test_every_compute_entry_has_a_reference():
    """A new compute sample must come with a NumPy reference above."""
    tested = {name[len("test_"):] for name in globals() if name.startswith("test_")}
    for path in TRANSLATABLE:
        entries = [e for e in translate(WS, path, "wgsl").entries if e.stage == "计算"]
        name = _name(path)
        if entries:
            assert name in tested or name.replace("/", "_") + "_imports_two_packages" in tested, name


# ---------------------------------------------------------------- rendering


def _barycentric(size, corners):
    """Barycentric weights of every pixel centre of a size×size target."""
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    px, py = xs / size * 2 - 1, 1 - ys / size * 2
    (x0, y0), (x1, y1), (x2, y2) = corners
    d = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2)
    w0 = ((y1 - y2) * (px - x2) + (x2 - x1) * (py - y2)) / d
    w1 = ((y2 - y0) * (px - x2) + (x0 - x2) * (py - y2)) / d
    return np.stack([w0, w1, 1 - w0 - w1], -1)


def test_三角形_renders():
    text = translate(WS, SAMPLES / "三角形。着色器。豫", "wgsl").text
    pixels = render(text, "顶点", "片元", 64, 3)
    w = _barycentric(64, [(-0.5, -0.5), (0.5, -0.5), (0.0, 0.5)])
    inside, outside = w.min(-1) > 0.02, w.min(-1) < -0.02
    red = w[..., 1] * 0.5 + w[..., 2] * 1.0          # 颜色 ＝ 序 × 0.5（插值）
    assert inside.sum() > 400
    close(pixels[inside][:, 0], red[inside], atol=2e-3)
    same(pixels[inside][:, 3], np.ones(inside.sum(), np.float32))
    close(pixels[inside][:, 1:3], np.tile([0.2, 1.0], (inside.sum(), 1)), atol=1e-6)
    same(pixels[outside], np.zeros((outside.sum(), 4), np.float32))


def test_纹理_renders_the_texture():
    text = translate(WS, SAMPLES / "纹理。着色器。豫", "wgsl").text
    image = (rng().integers(0, 32, (16, 16, 4)) / 32).astype(np.float16)
    pixels = render(text, "全屏", "着色", 16, 3,
                    textures=[(0, 0, image), (0, 1, {"mag_filter": "nearest", "min_filter": "nearest"})])
    close(pixels, image.astype(np.float32), atol=1e-6)
