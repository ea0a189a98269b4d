"""Measurement of `着色器 导入` (issue 26) on a folder of real WGSL files.

For every `*.wgsl` under the folder (recursively): naga must accept the
original on its own (files that are pieces concatenated at run time are
counted apart); then it is imported, translated back with `译` and naga
judges the result; compute entries are run on the adapter (lavapipe) next
to the original with the same random buffers and compared byte for byte
(tests/support/roundtrip.py).  Prints how many import, how many round-trip
to identical results, and the constructs that stop the rest, ranked (one
count per file and construct) in two lists: what 着色 itself cannot say
(compiler/importer/refusal.py LANGUAGE_LACKS) and what the importer does not
yet write.  The rate that counts is over the files that use only what 着色
has: those with no refusal of the first kind.

    python bench/bench_import.py 文件夹 [--详细]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from support.roundtrip import round_trip  # noqa: E402
from zhuose.compiler.importer.refusal import language_lacks  # noqa: E402
from zhuose.compiler.runtime.wgpu import WebGPUError, create_module, open_device, required_features  # noqa: E402


def construct(message: str) -> str:
    """The construct a refusal names: the words after 不支持, without the reason in brackets."""
    text = message.split("不支持", 1)[-1].strip()
    text = re.split(r"[（(]", text, maxsplit=1)[0].strip()
    return re.sub(r"「[^」]*」", "「…」", text)


def valid_alone(text: str) -> bool:
    try:
        create_module(open_device(required_features(text)), text)
        return True
    except WebGPUError:
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("文件夹")
    parser.add_argument("--详细", action="store_true", help="每个文件印一行结果")
    args = parser.parse_args()
    files = sorted(Path(args.文件夹).rglob("*.wgsl"))
    stages: Counter = Counter()
    stops: Counter = Counter()
    lacking: Counter = Counter()
    expressible = expressible_same = 0
    compute_files = compute_same = drawn_files = drawn_same = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if not valid_alone(text):
            stages["原文不能单独通过 naga"] += 1
            continue
        with tempfile.TemporaryDirectory() as folder:
            outcome = round_trip(text, Path(folder))
        stages[outcome.stage] += 1
        if outcome.stage == "refused":
            found = {construct(m) for m in outcome.messages}
        elif outcome.stage in ("untranslatable", "rejected"):
            found = {"译不出或 naga 不收：" + outcome.messages[0][:60]}
        else:
            found = set()
        missing = {c for c in found if language_lacks(c.removeprefix("译不出或 naga 不收："))}
        lacking.update(missing)
        stops.update(found - missing)
        if not missing:
            expressible += 1
            expressible_same += outcome.stage == "same"
        if outcome.entries_run:
            compute_files += 1
            compute_same += outcome.stage == "same"
        if outcome.pictures:
            drawn_files += 1
            drawn_same += outcome.stage == "same"
        if args.详细:
            kind = "着色没有" if missing else "导入器" if found else ""
            print(f"{path.name}\t{outcome.stage}\t{kind}\t{outcome.entries_run}\t{'；'.join(outcome.messages)[:200]}")
    valid = len(files) - stages["原文不能单独通过 naga"]
    imported = stages["same"] + stages["different"]
    print(f"WGSL 文件 {len(files)} 个，能单独通过 naga 的 {valid} 个")
    print(f"导入并译回、naga 接受：{imported}（{_percent(imported, valid)}）")
    print(f"结果逐位相同：{stages['same']}（其中有计算入口、在 lavapipe 上对比过的 {compute_same}/{compute_files}，"
          f"顶点＋片元画图逐像素对比过的 {drawn_same}/{drawn_files}）")
    print(f"结果不同：{stages['different']}；译不出：{stages['untranslatable']}；naga 不收译文：{stages['rejected']}；"
          f"拒绝导入：{stages['refused']}")
    print(f"只用着色已有的构造的：{expressible} 个，导入并逐位相同的 {expressible_same}（{_percent(expressible_same, expressible)}）")
    print("挡住其余文件的构造（按文件数）——着色没有的：")
    for what, count in lacking.most_common():
        print(f"  {count}\t{what}")
    print("——导入器还不会的：")
    for what, count in stops.most_common():
        print(f"  {count}\t{what}")
    return 0


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "—"


if __name__ == "__main__":
    sys.exit(main())
