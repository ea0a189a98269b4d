"""Benchmark of the language server on the generated 2,000-line package
(bench_frontend.py's), through its real stdio protocol.

Measures, over N edits of a function body (each a different literal in a
different function, sent as an editor sends it — an incremental change of
the literal's range — and typed at a human pace: the next edit follows the
previous diagnostics after a pause longer than the server's throttle):

- didChange → the publishDiagnostics of that version;
- hover and go-to-definition round trips (a local name, a cross-module name);

and, for comparison, a cold in-process check of the same package.  The
issue's target: the median diagnostics latency after a body edit is at most
a tenth of the cold check.

    python bench/bench_server.py [--行数 2000] [--次数 100]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_frontend import function, make_package  # noqa: E402

from zhuose.compiler.workspace import Workspace  # noqa: E402

#: a pause between edits longer than the server's default 100 ms throttle
TYPING_PAUSE = 0.15


class Client(LanguageClient):
    """Resolves a future when the diagnostics of a given version arrive,
    stamped the moment the notification is read."""

    def __init__(self) -> None:
        super().__init__("bench", "1")
        self.waiting: dict[tuple[str, int], asyncio.Future] = {}

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: lsp.PublishDiagnosticsParams) -> None:
            future = self.waiting.pop((params.uri, params.version), None)
            if future is not None and not future.done():
                future.set_result((time.perf_counter(), params.diagnostics))

    def expect(self, uri: str, version: int) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self.waiting[(uri, version)] = future
        return future


def position_of(text: str, needle: str, delta: int = 1) -> lsp.Position:
    return position_at(text, text.index(needle) + delta)


def position_at(text: str, at: int) -> lsp.Position:
    """The LSP position of an offset (the generated text is all in the BMP: a
    character is one UTF-16 unit)."""
    return lsp.Position(line=text.count("\n", 0, at), character=at - (text.rfind("\n", 0, at) + 1))


def summary(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"中位数 {statistics.median(ms):.1f} ms，p95 {p95:.1f} ms（{len(ms)} 次）"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def cold_check(root: Path, path: Path) -> float:
    times = []
    for _ in range(3):
        ws = Workspace(root)
        began = time.perf_counter()
        ws.check(path)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


async def measure(root: Path, path: Path, edits: int) -> dict[str, list[float]]:
    client = Client()
    await client.start_io(sys.executable, "-m", "zhuose.server")
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(root)),
        initialization_options={"naga校验": False}))
    client.initialized(lsp.InitializedParams())
    uri = from_fs_path(str(path))
    text = path.read_text(encoding="utf-8")
    opened = client.expect(uri, 1)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="zhuose", version=1, text=text)))
    _, diagnostics = await asyncio.wait_for(opened, 60)
    assert not diagnostics, diagnostics[:3]
    await asyncio.sleep(1.0)  # let the translation after open finish

    results: dict[str, list[float]] = {"diagnostics": [], "hover": [], "definition": []}
    functions = text.count("」乃化「无三二」为「无三二」者也。") - 1  # the generated 函数0 … 函数N
    current = text
    for k in range(edits):
        i = k % functions
        # the literal of 函数i's body, retyped: an incremental change, as an editor sends it
        digits = current.index(f"「新无三二」于「{i}」", current.index(f"「函数{i}」者得")) + len("「新无三二」于「")
        typed, end = str(i + 1000 + k), digits + len(str(i))
        change = lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=position_at(current, digits), end=position_at(current, end)), text=typed)
        current = current[:digits] + typed + current[end:]
        started, version = time.perf_counter(), k + 2
        done = client.expect(uri, version)
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[change]))
        arrived, diagnostics = await asyncio.wait_for(done, 60)
        assert not diagnostics, diagnostics[:3]
        results["diagnostics"].append(arrived - started)
        doc = lsp.TextDocumentIdentifier(uri=uri)
        where = position_of(current, f"「函数{i}」者得「x」而\n　令「y」为", len(f"「函数{i}」者得「x」而\n　令"))
        began = time.perf_counter()
        hover = await client.text_document_hover_async(lsp.HoverParams(text_document=doc, position=where))
        results["hover"].append(time.perf_counter() - began)
        assert hover is not None and "「y」乃「无三二」" in hover.contents.value
        call = position_of(current, f"「函数{i}」者得「x」而\n　令「y」为「加步」", len(f"「函数{i}」者得「x」而\n　令「y」为"))
        began = time.perf_counter()
        found = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc, position=call))
        results["definition"].append(time.perf_counter() - began)
        assert found and found[0].uri.endswith(from_fs_path(str(root / "公用。着色器。豫")).rsplit("/", 1)[-1])
        await asyncio.sleep(TYPING_PAUSE)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return results


def main() -> int:
    sys.setrecursionlimit(20000)
    ap = argparse.ArgumentParser(description="着色语言服务基准：改函数体后的诊断延迟、悬停与跳转延迟")
    ap.add_argument("--行数", type=int, default=2000, dest="lines")
    ap.add_argument("--次数", type=int, default=100, dest="edits")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        path = make_package(root, args.lines)
        text = path.read_text(encoding="utf-8")
        print(f"机器：{cpu_model()}，{os.cpu_count()} 核，Python {platform.python_version()}，{platform.platform()}")
        print(f"生成的包：{text.count(chr(10)) + 1} 行，{len(text)} 字符")
        cold = cold_check(root, path)
        print(f"冷启动检查（进程内，含内建声明与导入模块）：中位数 {cold * 1000:.1f} ms")
        results = asyncio.run(measure(root, path, args.edits))
        median = statistics.median(results["diagnostics"])
        print(f"didChange → publishDiagnostics（改函数体）：{summary(results['diagnostics'])}")
        print(f"悬停（局部名字）：{summary(results['hover'])}")
        print(f"跳转到定义（另一模块的函数）：{summary(results['definition'])}")
        verdict = "达到" if median <= cold / 10 else "未达到"
        print(f"目标（诊断中位数 ≤ 冷启动的十分之一 = {cold * 100:.1f} ms）：{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
