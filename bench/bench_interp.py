"""Benchmark of the reference interpreter (compiler/interp/) next to lavapipe.

Three kernels, each dispatched on the interpreter and on the local WebGPU
adapter (wgpu; lavapipe on a machine without a GPU) from the same checked
source, in the same run: saxpy over 1M elements (samples/乘加), a workgroup
tree reduction over 1M elements (samples/归约, 256 per workgroup, barriers),
and an inclusive subgroup scan over 1M elements built from 子组洗牌 (below).
Prints invocations per second of each and the ratio lavapipe ÷ interpreter,
and checks that both gave the same bytes (integers) or close values (floats).

    python bench/bench_interp.py [--元素数 1048576] [--次数 3]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from support.interp_runner import HEADER, buffer, entry, interpret  # noqa: E402
from support.wgpu_device import run_entry  # noqa: E402

from zhuose.compiler.workspace import Workspace  # noqa: E402

SCAN = HEADER + buffer("值", "零") + """「扫描调用」即「组类」【「全」乃「全局调用号」也，「道」乃「子组调用序」也，「宽」乃「子组大小」也】也。

「扫描」乃化「扫描调用」为「有」者也。
「扫描」者得「调」而
　令「序」为「调」中「全」中「零」而
　令「道」为「调」中「道」而
　令「步」为得「和」又得「跨」而
　　若「跨」不小于（「新无三二」于「一二八」）则「和」
　　否则（
　　　令「够」为「道」不小于「跨」而
　　　令「邻」为「子组洗牌」于「和」于（「选择」于「道」于（「道」减「跨」）于「够」）而
　　　「步」于（「和」加（「选择」于（「新无三二」于「零」）于「邻」于「够」））于（「跨」左移（「新无三二」于「一」））
　　）
　而
　「写数组」于「值」于「序」于（「步」于（「读数组」于「值」于「序」）于（「新无三二」于「一」））
也。
""" + entry("扫描")


def timed(f, times: int):
    f()                                             # warm: device, pipeline, caches
    seconds = []
    for _ in range(times):
        start = time.perf_counter()
        out = f()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), out


def kernels(n: int, folder: Path):
    (folder / "扫描。着色器。豫").write_text(SCAN, encoding="utf-8")
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    params = np.frombuffer(np.float32(1.5).tobytes() + np.uint32(n).tobytes(), np.uint8)
    groups = math.ceil(n / 256)
    return [
        ("saxpy（乘加，64/组）", ROOT / "samples", ROOT / "samples/乘加。着色器。豫", "乘加入口",
         {"参数": params, "甲": x, "乙": y}, math.ceil(n / 64), n),
        ("工作组归约（归约，256/组）", ROOT / "samples", ROOT / "samples/归约。着色器。豫", "归约入口",
         {"输入": x, "块和": np.zeros(groups, np.float32), "块最大": np.zeros(groups, np.float32)}, groups,
         groups * 256),
        ("子组扫描（子组洗牌，64/组）", folder, folder / "扫描。着色器。豫", "扫描入口",
         {"值": rng.integers(0, 1000, n, dtype=np.uint32)}, math.ceil(n / 64), n),
    ]


def lavapipe_subgroup_width() -> int:
    """The adapter's subgroup size, as 子组归约 reports it (the interpreter runs at the same width)."""
    n = 128
    out = run_entry(Workspace(ROOT / "samples"), ROOT / "samples/子组归约。着色器。豫", "子组归约入口",
                    {"输入": np.zeros(n, np.float32), "输出": np.zeros((n, 4), np.float32),
                     "蝶形和": np.zeros(n, np.float32), "大小": np.zeros(1, np.uint32)}, 2)
    return int(out["大小"][0])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--元素数", type=int, default=1 << 20)
    p.add_argument("--次数", type=int, default=3)
    args = p.parse_args()
    width = lavapipe_subgroup_width()
    print(f"子组宽 {width}（与适配器相同）")
    print("| 内核 | 调用数 | 参照解释器 | lavapipe | 比 |")
    print("| --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as temp:
        for name, root, path, entry_name, data, groups, invocations in kernels(args.元素数, Path(temp)):
            ws = Workspace(root)
            ours, got = timed(lambda: interpret(ws, path, entry_name, data, groups, subgroup_width=width), args.次数)
            theirs, want = timed(lambda: run_entry(ws, path, entry_name, data, groups), args.次数)
            for key in want:
                if want[key].dtype.kind == "f":
                    np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-3)
                else:
                    np.testing.assert_array_equal(got[key], want[key])
            print(f"| {name} | {invocations:,} | {invocations / ours / 1e6:.1f} M/s（{ours * 1e3:.0f} ms）"
                  f" | {invocations / theirs / 1e6:.1f} M/s（{theirs * 1e3:.0f} ms） | {ours / theirs:.1f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
