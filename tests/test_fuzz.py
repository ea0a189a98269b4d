"""A mutational fuzzer over the samples and the extremes of issue 18.

Each input goes through the public API — Workspace.diagnostics, then
translate() to WGSL, MSL and PTX — and must hold the toolchain's promises:
no exception escapes, an input under 10 KB takes at most a second of CPU
(checking and all three translations together, on the calling thread: lavapipe's
threads in the same process, still compiling an earlier input, do not count; an
input over the budget is measured once more after a full collection, so a
collector pass over what earlier tests left behind does not fail it), and whatever checks clean
and translates is accepted by its target: naga and Tint (wgpu_device.validate,
as the WGSL tests use it) and ptxas.  Mutations are seeded, so a failure names the seed and
the input that broke.

The budget is ZHUOSE_FUZZ_SECONDS (default 40): CI runs it bounded, a long
local run sets it higher (README gives the latest figures).
"""

from __future__ import annotations

import gc
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.frontend import PRELUDE
from support.wgpu_device import validate
from zhuose.compiler.backends import translate
from zhuose.compiler.syntax.lexer import KEYWORDS, PUNCTUATION
from zhuose.compiler.workspace import Workspace

BUDGET = float(os.environ.get("ZHUOSE_FUZZ_SECONDS", "40"))
SEED = int(os.environ.get("ZHUOSE_FUZZ_SEED", "18"))
SMALL = 10_000          # bytes: under this, one second of CPU at most
PTXAS = shutil.which("ptxas")
SAMPLES = sorted(Path(__file__).parent.parent.joinpath("samples").glob("*。着色器。豫"))

BINDING = """「甲」乃「存储缓冲」于（「数组」于「浮三二」）也。
「甲」者「绑定」于（「组值」【「组」者「{0}」也，「号」者「{1}」也，「访问」者「读写」也】）也。
「f」乃化「全局调用号」为「有」者也。
「f」者得「号」而{2}也。
「e」乃「计算入口」也。
「e」者「计算入口项」于「f」于（「组值」【「工作组大小」者「六四」也】）也。
"""
WRITE = "「写数组」于「甲」于（「号」中「零」）于（「新浮三二」于「一点五」）"
EXTREMES = [   # issue 18's reproducers, each a seed the mutations start from
    "「甲」乃「无三二」也。\n「甲」者「新无三二」于「" + "九" * 5000 + "」也。\n",
    "寻观「点染」之「" + "长" * 300 + "」之书。\n",
    BINDING.format("零", "4294967295", WRITE), BINDING.format("九", "五四四", WRITE),
    BINDING.format("零", "五四三", WRITE), BINDING.format("三", "九九九", WRITE),
    BINDING.format("零", "零", "令「x」为「号」中「零」而 " + "若（「x」小于「x」）则 " * 127 + f"（{WRITE}）" + " 否则「元」" * 127),
    "「甲」者" + "「组值」【「a」者" * 300 + "「一」" + "也】" * 300 + "也。\n",
    "「甲」者" + "（" * 400 + "「一」" + "）" * 400 + "也。\n",
    "「g」乃「无三二」也。\n「g」者「" + "名" * 3000 + "」也。\n",
    """「S」即「组类」【「a」乃「无三二」也，「b」乃「无三二」也】也。
「h」乃化「S」为「无三二」者也。「h」者得「s」而「s」中「a」也。
「g」乃化「无三二」为「无三二」者也。
「g」者得「q」而 令「r」为「组值」【「b」者「q」也，「a」者「q」也】而（「h」于「r」）加（（「组值」【「a」者「q」也】 也「未知类」））也。
""",
]
VOCABULARY = list(KEYWORDS) + list(PUNCTUATION) + [
    "「甲」", "「x」", "「号」", "「零」", "「一」", "「4294967296」", "「" + "九" * 50 + "」", "「三点五」", "「0xFFFFFFFF」",
    "「新无三二」于", "「新浮三二」于", "「读数组」于", "「写数组」于", "「组值」【", "】", "（", "）", "也", "。", "而",
    "若", "则", "否则", "令", "为", "得", "「元」", "「", "」", "「：", "：」", "『', '』", "\n", "　", "\x00", "\ud800",
    "「点染」之「点染本」之书。", "「工作组大小」者「一〇二五」也", "「号」者「一〇〇〇」也", "「组」者「四」也"]


def mutate(text: str, rng: random.Random) -> str:
    """One to four random edits: delete, duplicate or move a span, insert a word."""
    for _ in range(rng.randint(1, 4)):
        i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        j = min(j, i + rng.choice((1, 4, 16, 64, 400)))
        kind = rng.randrange(5)
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:j] + text[i:j] * rng.choice((1, 2, 30)) + text[j:]
        elif kind == 2:
            k = rng.randrange(len(text) + 1)
            piece, rest = text[i:j], text[:i] + text[j:]
            k = min(k, len(rest))
            text = rest[:k] + piece + rest[k:]
        else:
            k = rng.randrange(len(text) + 1)
            text = text[:k] + rng.choice(VOCABULARY) + text[k:]
    return text


class Failure(AssertionError):
    pass


_validated: set[str] = set()


def _first_time(text: str) -> bool:
    """Whether this target text is new (many mutants translate alike; each is validated once)."""
    if text in _validated:
        return False
    _validated.add(text)
    return True


def _through_the_api(ws: Workspace, path: Path, text: str) -> tuple[list, dict, float]:
    """Check and translate `text`: its errors, the three outputs and the CPU seconds spent."""
    ws.set_document(path, text)
    began = time.thread_time()
    errors = [d for d in ws.diagnostics(path) if d.severity == "错误"]
    outputs = {} if errors else {t: translate(ws, path, t).text for t in ("wgsl", "msl", "ptx")}
    return errors, outputs, time.thread_time() - began


def _cpu_again(path: Path, text: str) -> float:
    """The input's CPU time measured once more, in a warmed fresh workspace after a full
    collection: a collector pass over what earlier tests left in the process can land on
    any one input, an input that is really slow is slow again."""
    fresh = Workspace(path.parent)
    _through_the_api(fresh, path, "")
    gc.collect()
    return _through_the_api(fresh, path, text)[2]


def probe(ws: Workspace, path: Path, text: str, tmp: Path) -> tuple[bool, float]:
    """Run one input through the public API; (accepted, CPU seconds)."""
    errors, outputs, spent = _through_the_api(ws, path, text)
    if len(text.encode("utf-8", "surrogatepass")) < SMALL and spent > 1.0 and (again := _cpu_again(path, text)) > 1.0:
        raise Failure(f"{spent:.2f} 秒（CPU；再量一次 {again:.2f} 秒）")
    if outputs.get("wgsl") and _first_time(outputs["wgsl"]):
        validate(outputs["wgsl"])
    if outputs.get("ptx") and PTXAS and _first_time(outputs["ptx"]):
        source = tmp / "k.ptx"
        source.write_text(outputs["ptx"], encoding="utf-8")
        done = subprocess.run([PTXAS, "-arch=sm_80", str(source), "-o", str(tmp / "k.cubin")],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise Failure(f"ptxas 拒绝：{done.stderr[:500]}")
    return not errors, spent


def test_fuzz_the_public_api(tmp_path):
    if PTXAS is None:
        sys.stderr.write("跳过 ptxas 核对：PATH 上没有 ptxas\n")
    seeds = [s.read_text(encoding="utf-8") for s in SAMPLES] + [PRELUDE + e for e in EXTREMES]
    rng = random.Random(SEED)
    path = tmp_path / "试。着色器。豫"
    path.write_text("", encoding="utf-8")
    ws = Workspace(tmp_path)
    runs = accepted = 0
    began = time.monotonic()
    for text in seeds:   # every seed as it is, then mutations until the budget is spent
        accepted += probe(ws, path, text, tmp_path)[0]
        runs += 1
    while time.monotonic() - began < BUDGET:
        text = mutate(rng.choice(seeds), rng)
        try:
            accepted += probe(ws, path, text, tmp_path)[0]
        except (Exception, pytest.fail.Exception) as err:   # naga's or Tint's refusal arrives as pytest.fail
            (tmp_path / "失败的输入.txt").write_text(text, encoding="utf-8", errors="surrogatepass")
            pytest.fail(f"第 {runs} 个输入（种子 {SEED}）：{type(err).__name__}: {err}\n输入：{text[:2000]!r}")
        runs += 1
    print(f"\n模糊测试：{runs} 个输入（{accepted} 个通过检查并翻译），{time.monotonic() - began:.0f} 秒，无失败")


def _buffers_for(ws, path, entry) -> dict:
    """Data for every buffer the entry uses: 64 elements of zeros for a runtime array (after the
    header fields of a record that ends in one), the WGSL size of anything else (compiler/layout.py)."""
    from zhuose.compiler.layout import size_align, trailing_array
    from zhuose.compiler.types import resolve
    info = ws.validate(path)
    data = {}
    for _, r in info.entry_resources(entry.function):
        if r.kind in ("storage", "uniform"):
            t = resolve(r.inner)
            trailing = trailing_array(t)
            data[(r.group, r.binding)] = bytes(trailing[0] + 64 * trailing[1] if trailing else size_align(t)[0])
    return data


def test_fuzz_the_formatter_and_the_interpreter(tmp_path):
    """Issue 24: the new surfaces under the same mutations.  The formatter either reports syntax
    problems or gives text that formats to itself; the interpreter runs every mutated compute entry
    that checks clean, and only ever stops with its own Fault or Unsupported."""
    from zhuose.compiler import ir
    from zhuose.compiler.interp import Fault, Unsupported, run
    from zhuose.compiler.interp import machine
    from zhuose.compiler.syntax.format import format_text
    seeds = [s.read_text(encoding="utf-8") for s in SAMPLES]
    rng = random.Random(SEED + 1)
    path = tmp_path / "试。着色器。豫"
    budget, began, runs, formatted, ran = BUDGET / 4, time.monotonic(), 0, 0, 0
    old_seconds, machine.MAX_SECONDS = machine.MAX_SECONDS, 2.0
    try:
        while time.monotonic() - began < budget:
            text = mutate(rng.choice(seeds), rng) if runs >= len(seeds) else seeds[runs]
            runs += 1
            try:
                once = format_text(text)
                if once.text is not None:
                    assert format_text(once.text).text == once.text, "格式化两次结果不同"
                    formatted += 1
                path.write_text(text, encoding="utf-8", errors="surrogatepass")
                ws = Workspace(tmp_path)
                if any(d.severity == "错误" for d in ws.diagnostics(path)):
                    continue
                for entry in [d for d in ws.check(path).module.decls if isinstance(d, ir.Entry) and d.stage == "计算"]:
                    try:
                        run(ws, path, entry.name, _buffers_for(ws, path, entry), 1)
                        ran += 1
                    except (Fault, Unsupported):
                        ran += 1
            except Exception as err:   # noqa: BLE001 — reported with the input that broke
                (tmp_path / "失败的输入.txt").write_text(text, encoding="utf-8", errors="surrogatepass")
                pytest.fail(f"第 {runs} 个输入（种子 {SEED + 1}）：{type(err).__name__}: {err}\n输入：{text[:2000]!r}")
    finally:
        machine.MAX_SECONDS = old_seconds
    print(f"\n格式化与解释器的模糊测试：{runs} 个输入，{formatted} 个格式化，{ran} 次派发，无失败")
    assert ran > 0 and formatted > 0


RENDER_SAMPLES = [p for p in SAMPLES if p.name.startswith(("三角形", "片元输入输出"))]


def test_fuzz_render(tmp_path, capsys):
    """渲染 under the same mutations: a mutated vertex + fragment pair that checks clean is drawn
    (8×8) or refused with a Chinese line, never an internal error."""
    pytest.importorskip("wgpu")
    from zhuose.cli.main import main
    from zhuose.compiler import ir
    seeds = [s.read_text(encoding="utf-8") for s in RENDER_SAMPLES]
    assert seeds, "没有顶点与片元的样例"
    rng = random.Random(SEED + 2)
    path, picture = tmp_path / "画。着色器。豫", tmp_path / "图.png"
    budget, began, runs, drawn = BUDGET / 8, time.monotonic(), 0, 0
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        while time.monotonic() - began < budget:
            text = mutate(rng.choice(seeds), rng) if runs >= len(seeds) else seeds[runs]
            runs += 1
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            ws = Workspace(tmp_path)
            if any(d.severity == "错误" for d in ws.diagnostics(path)):
                continue
            entries = [d for d in ws.check(path).module.decls if isinstance(d, ir.Entry)]
            vertex = next((e.name for e in entries if e.stage == "顶点"), "无")
            fragment = next((e.name for e in entries if e.stage == "片元"), "无")
            status = main(["渲染", path.name, vertex, fragment, "--尺寸", "8,8", "--输出", picture.name])
            err = capsys.readouterr().err
            assert status in (0, 1, 2) and "内部错误" not in err and "Traceback" not in err, (text[:2000], err)
            drawn += status == 0
    finally:
        os.chdir(cwd)
    print(f"\n渲染的模糊测试：{runs} 个输入，{drawn} 张图，无失败")
    assert drawn > 0
