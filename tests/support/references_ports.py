"""NumPy references of the ports in samples/移植/: real public shaders written
again in 着色 (see bench/bench_ports.py, which compares each port with its
original on lavapipe).  Each reference is computed here from the inputs, by
the rule the port's first comment states, never from either program's output."""

from __future__ import annotations

import numpy as np

from support.references import StorageTexture, close, f32, reference, rng, same

U32 = 2 ** 32


@reference
def 移植_生命游戏(run):
    w, h = 24, 16                     # 宽 not a power of two: x − 1 at x = 0 wraps to 2³² − 1, then mod 宽
    cells = rng().integers(0, 2, w * h, dtype=np.uint32)
    out = run("移植/生命游戏", "生命入口", {"尺寸": np.array([w, h], np.uint32), "现在": cells,
                                       "下一步": np.zeros(w * h, np.uint32)}, (w // 8, h // 8))
    grid = cells.reshape(h, w)
    expected = np.zeros((h, w), np.uint32)
    for y in range(h):
        for x in range(w):
            n = sum(int(grid[(y + dy) % U32 % h, (x + dx) % U32 % w])
                    for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))
            expected[y, x] = n in (2, 3) if grid[y, x] == 1 else n == 3
    same(out["下一步"], expected.ravel())


def _collatz(n: int) -> int:
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n //= 2
        elif n >= 1431655765:
            return U32 - 1
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@reference
def 移植_科拉茨(run):
    x = np.concatenate([np.array([0, 1, 2, 3, 27, 97, 1431655764, 1431655765, U32 - 1], np.uint32),
                        rng().integers(1, 10 ** 6, 23, dtype=np.uint32)])
    out = run("移植/科拉茨", "科拉茨入口", {"数": x}, len(x))
    same(out["数"], np.array([_collatz(int(n)) for n in x], np.uint32))


@reference
def 移植_工作组计数(run):
    a = np.concatenate([np.array([2 ** 31 - 1, -1], np.int32), rng().integers(-1000, 1000, 14, dtype=np.int32)])
    b = np.concatenate([np.array([-2 ** 31, 0], np.int32), rng(2).integers(-1000, 1000, 14, dtype=np.int32)])
    out = run("移植/工作组计数", "计数入口", {"甲": a, "乙": b}, len(a))
    same(out["甲"], (a.astype(np.int64) + 1).astype(np.uint32).view(np.int32))
    same(out["乙"], (b.astype(np.int64) + 1).astype(np.uint32).view(np.int32))


@reference
def 移植_耐心计数(run):
    out = run("移植/耐心计数", "耐心入口", {"输出": np.zeros(5, np.uint32)}, 5)
    same(out["输出"], np.full(5, 16, np.uint32))


def _escape(cx: np.float32, cy: np.float32, most: int = 50) -> int:
    zx, zy = cx, cy
    for i in range(most):
        zx, zy = (zx * zx - zy * zy) + cx, (np.float32(2) * zx) * zy + cy
        if np.sqrt(zx * zx + zy * zy) > np.float32(4):
            return i
    return most


@reference
def 移植_曼德布罗(run):
    w, h = 48, 32
    out = run("移植/曼德布罗", "曼德布罗入口", {}, (w, h), textures=[StorageTexture("图", "rgba8unorm", w, h)])
    texels = out["图"]
    assert texels.shape == (h, w, 4) and texels.dtype == np.uint8
    with np.errstate(over="ignore", invalid="ignore"):
        counts = np.array([[_escape(np.float32(x) / np.float32(w) * np.float32(3) - np.float32(2.25),
                                    np.float32(y) / np.float32(h) * np.float32(3) - np.float32(1.5))
                            for x in range(w)] for y in range(h)])
    expected = np.rint(counts / 50 * 255)
    grey = texels[..., :3].astype(np.float64)
    same(grey[..., 0], grey[..., 1])
    same(grey[..., 0], grey[..., 2])
    same(texels[..., 3], np.full((h, w), 255, np.uint8))
    # |z| crosses 4 within an ulp of the threshold at a few pixels; a target's sqrt may decide those otherwise
    differ = np.abs(grey[..., 0] - expected) > 0.51
    assert differ.sum() <= 3, np.argwhere(differ)
    assert len(np.unique(counts)) > 5


@reference
def 移植_鸟群(run):
    n = 200
    birds = np.column_stack([rng().uniform(-1, 1, (n, 2)), rng(2).uniform(-0.1, 0.1, (n, 2))]).astype(np.float32)
    birds[0, :2] = (0.999, -0.999)     # near the edges: the wrap sends them round
    birds[0, 2:] = (0.05, -0.05)
    rules = f32(0.04, 0.1, 0.025, 0.025, 0.02, 0.05, 0.005)
    dt, d1, d2, d3, s1, s2, s3 = rules
    out = run("移植/鸟群", "鸟群入口", {"参数": rules, "旧群": birds, "新群": np.zeros_like(birds)}, (n + 63) // 64)
    pos, vel = birds[:, :2], birds[:, 2:]
    expected = np.zeros_like(birds)
    for i in range(n):
        others = np.arange(n) != i
        d = np.sqrt(((pos - pos[i]) ** 2).sum(1))
        near, crowd, flock = others & (d < d1), others & (d < d2), others & (d < d3)
        mass = pos[near].sum(0) / np.float32(near.sum()) - pos[i] if near.any() else np.zeros(2, np.float32)
        avoid = -(pos[crowd] - pos[i]).sum(0)
        mean_vel = vel[flock].sum(0) / np.float32(flock.sum()) if flock.any() else np.zeros(2, np.float32)
        v = vel[i] + (mass * s1 + avoid * s2 + mean_vel * s3)
        speed = np.sqrt((v * v).sum())
        v = v / speed * np.clip(speed, 0, 0.1)
        p = pos[i] + v * dt
        p = np.where(p < -1, 1, p)
        p = np.where(p > 1, -1, p)
        expected[i] = np.concatenate([p, v])
    close(out["新群"], expected, atol=2e-6)
    assert (np.abs(expected[:, :2]) == 1).any()     # the wrap happened


@reference
def 移植_灯光下落(run):
    n, live = 100, 90
    lights = rng().uniform(-50, 50, (n, 8)).astype(np.float32)
    extent = f32(-50, -40, -50, 0, 50, 45, 50, 0)
    out = run("移植/灯光下落", "下落入口", {"灯群": lights, "配置": np.array([live], np.uint32), "范围": extent},
              (n + 63) // 64)
    f = np.arange(n, dtype=np.float32)
    y = lights[:, 1] - np.float32(0.5) - np.float32(0.003) * (f - np.float32(64) * np.floor(f / np.float32(64)))
    y = np.where(y < extent[1], extent[5], y)
    expected = lights.copy()
    expected[:live, 1] = y[:live]
    close(out["灯群"], expected, atol=1e-5)
    assert (y[:live] == extent[5]).any()
