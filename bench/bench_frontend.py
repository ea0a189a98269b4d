"""Benchmark of the front end on a generated 2,000-line shader package.

Reports the cold parse+check time of the whole package and the time to
re-check after a one-line edit inside a function body (the editor's case),
plus what the incremental core really re-did (its counters).

    python bench/bench_frontend.py [--行数 2000] [--次数 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from zhuose.compiler.workspace import Workspace

HEADER = """寻观「点染」之「点染本」之书。
寻观「基准」之「公用」之书。

「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
"""

COMMON = """寻观「点染」之「点染本」之书。

「步长」乃「无三二」也。
「步长」者「新无三二」于「三」也。

「加步」乃化「无三二」为「无三二」者也。
「加步」者得「甲」而「甲」加「步长」也。
"""


def function(i: int, chained: bool = False) -> str:
    step = f"「加步」于（「x」加（「新无三二」于「{i}」））"
    if chained and i:       # each function calls the one before it: the entry runs them all
        step = f"「函数{i - 1}」于（{step}）"
    return f"""「：第 {i} 个函数：」
「函数{i}」乃化「无三二」为「无三二」者也。
「函数{i}」者得「x」而
　令「y」为{step}而
　令「环」为得「序」又得「和」而
　　若「序」小于「y」
　　则「环」于（「序」加（「新无三二」于「一」））于（「和」加（「序」乘「序」））
　　否则「和」
　而「环」于（「新无三二」于「零」）于（「新无三二」于「零」）
也。
"""


def entry(called: int = 0) -> str:
    return f"""「主」乃化「全局调用号」为「有」者也。
「主」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「数据」于「序」于（「函数{called}」于（「读数组」于「数据」于「序」））
也。
「主入口」乃「计算入口」也。
「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「六四」也】）也。
"""


def make_package(root: Path, lines: int, chained: bool = False) -> Path:
    """A package of about `lines` lines: functions that the entry calls one
    of, or, `chained`, each calling the one before (the entry runs them all)."""
    (root / "包.json").write_text('{"名": "基准", "依赖": ["点染"]}', encoding="utf-8")
    (root / "公用。着色器。豫").write_text(COMMON, encoding="utf-8")
    parts, i = [HEADER], 0
    while sum(p.count("\n") for p in parts) < lines - 8:
        parts.append(function(i, chained))
        i += 1
    parts.append(entry(i - 1 if chained else 0))
    path = root / "大。着色器。豫"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def timed(fn):
    t = time.perf_counter()
    result = fn()
    return time.perf_counter() - t, result


def main() -> int:
    sys.setrecursionlimit(20000)
    ap = argparse.ArgumentParser(description="着色前端基准：冷启动检查与改一行后重新检查的耗时")
    ap.add_argument("--行数", type=int, default=2000, dest="lines")
    ap.add_argument("--次数", type=int, default=20, dest="repeat")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = make_package(root, args.lines)
        text = path.read_text(encoding="utf-8")
        print(f"生成的包：{text.count(chr(10)) + 1} 行，{len(text)} 字符")

        colds = []
        for _ in range(3):
            ws = Workspace(root)
            cold, checked = timed(lambda: ws.check(path))
            colds.append(cold)
        errors = [d for d in checked.diagnostics if d.severity == "错误"]
        assert not errors, errors[:3]
        print(f"冷启动（词法+语法+检查，含内建声明与导入模块）：中位数 {statistics.median(colds) * 1000:.1f} ms")

        edits = []
        before = dict(ws.counters)
        for k in range(args.repeat):
            new = text.replace("「新无三二」于「7」", f"「新无三二」于「{7 + k + 1}」", 1)
            ws.set_document(path, new)
            t, checked = timed(lambda: ws.check(path))
            edits.append(t)
        after = dict(ws.counters)
        per = {k: (after.get(k, 0) - before.get(k, 0)) / args.repeat for k in after}
        print(f"改函数体里一行后重新检查：中位数 {statistics.median(edits) * 1000:.1f} ms，"
              f"最大 {max(edits) * 1000:.1f} ms（{args.repeat} 次）")
        print(f"  每次编辑重做：项解析 {per.get('item_parses', 0):.0f}，项检查 {per.get('item_checks', 0):.0f}，"
              f"模块检查 {per.get('module_checks', 0):.0f}")

        common = root / "公用。着色器。豫"
        ws.set_document(common, COMMON.replace("「三」", "「四」"))
        t, _ = timed(lambda: ws.check(path))
        print(f"改被导入模块的常量值（接口不变）后重新检查：{t * 1000:.1f} ms")
        ws.set_document(common, COMMON.replace("乃「无三二」也", "乃「整三二」也").replace("「新无三二」于「三」", "「新整三二」于「三」"))
        t, checked = timed(lambda: ws.check(path))
        print(f"改被导入模块的接口（常量类型）后重新检查：{t * 1000:.1f} ms，报错 {len(checked.diagnostics)} 条")
    return 0


if __name__ == "__main__":
    sys.exit(main())
