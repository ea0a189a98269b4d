"""Shared by the language-server tests: a two-package workspace written into
a temporary folder, a test client that records every publishDiagnostics,
and helpers that turn "this text in this file" into LSP positions."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

GEOMETRY = """寻观「点染」之「点染本」之书。

「：一个粒子：位置与速度：」
「粒子」即「组类」【「位置」乃「三维浮」也，「速度」乃「无三二」也】也。

「步长」乃「无三二」也。
「步长」者「新无三二」于「三」也。

「：加上步长：」
「加步」乃化「无三二」为「无三二」者也。
「加步」者得「甲」而「甲」加「步长」也。
"""

MAIN = """寻观「点染」之「点染本」之书。
寻观「库」之「几何」之书。

「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。

「取速」乃化「粒子」为「无三二」者也。
「取速」者得「子」而「子」中「速度」也。

「加倍」乃化「全局调用号」为「有」者也。
「加倍」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「数据」于「序」于（「加步」于（「读数组」于「数据」于「序」）乘（「新无三二」于「二」））
也。

「加倍入口」乃「计算入口」也。
「加倍入口」者「计算入口项」于「加倍」于（「组值」【「工作组大小」者「六四」也】）也。

「求和」乃化「无三二」为「无三二」者也。
「求和」者得「个数」而
　令「环」为得「序」又得「和」而
　　若「序」小于「个数」
　　则「环」于（「序」加（「新无三二」于「一」））于（「和」加「序」）
　　否则「和」
　而「环」于（「新无三二」于「零」）于「几何」之「步长」
也。
"""

SIDE = """寻观「点染」之「点染本」之书。
寻观「库」之「几何」之书。

「推」乃化「粒子」为「无三二」者也。
「推」者得「子」而「加步」于（「子」中「速度」）也。
"""

ALONE = """寻观「点染」之「点染本」之书。

「常」乃「无三二」也。
「常」者「新无三二」于「七」也。
"""

FILES = {
    "库/包.json": '{"名": "库", "依赖": ["点染"]}',
    "库/几何。着色器。豫": GEOMETRY,
    "应用/包.json": '{"名": "应用", "依赖": ["点染", "库"]}',
    "应用/主。着色器。豫": MAIN,
    "应用/旁。着色器。豫": SIDE,
    "应用/独立。着色器。豫": ALONE,
}


def write_workspace(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root.resolve()


def uri(path: Path) -> str:
    return from_fs_path(str(path))


def position(text: str, needle: str, delta: int = 0, occurrence: int = 0) -> lsp.Position:
    """The LSP position `delta` characters into the `occurrence`-th `needle`."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    at += delta
    line = text.count("\n", 0, at)
    column = at - (text.rfind("\n", 0, at) + 1)
    prefix = text[at - column:at]
    return lsp.Position(line=line, character=len(prefix.encode("utf-16-le")) // 2)


def text_at(text: str, rng: lsp.Range) -> str:
    lines = text.split("\n")
    assert rng.start.line == rng.end.line, "single-line ranges only (all of ours are)"
    return lines[rng.start.line][rng.start.character:rng.end.character]


# ---------------------------------------------------------------- the client


def recording_client() -> LanguageClient:
    """The pytest-lsp client, keeping every publishDiagnostics in order."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []

    def record(client: LanguageClient, params: lsp.PublishDiagnosticsParams):
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)

    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: record})
    return client


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "zhuose.server"], client_factory=recording_client)


async def start(client: LanguageClient, root: Path, **options) -> lsp.InitializeResult:
    """Initialize; the server's answer is kept as `client.server_info`."""
    client.server_info = await client.initialize_session(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=uri(root), initialization_options=options))
    return client.server_info


async def published(client: LanguageClient, doc_uri: str, version: int | None = None,
                    since: int = 0, timeout: float = 30.0, where=None) -> lsp.PublishDiagnosticsParams:
    """The first diagnostics for `doc_uri` (at `version`, if given; passing
    `where`, if given) published after the `since`-th notification."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        for p in client.published[since:]:
            if p.uri == doc_uri and (version is None or p.version == version) and (where is None or where(p)):
                return p
        await asyncio.sleep(0.005)
    raise AssertionError(f"no diagnostics for {doc_uri} version {version} within {timeout}s")


def open_document(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    doc_uri = uri(path)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=doc_uri, language_id="zhuose", version=version,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    return doc_uri


def replace_document(client: LanguageClient, doc_uri: str, text: str, version: int) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=doc_uri, version=version),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))


def document(doc_uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=doc_uri)
