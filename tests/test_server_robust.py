"""The server never dies and never hangs: a malformed request, an unknown
URI or method, a half-typed file, a 5 MB file and a deeply nested file each
get an answer, and the next ordinary request is still served.

Also: under a burst of edits, diagnostics are never published for an older
version after a newer one, and the last version is always published.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.protocol import JsonRPCProtocol
from pytest_lsp import LanguageClient

from support.lsp import (MAIN, SERVER, document, open_document, position, published, replace_document,
                            start, uri, write_workspace)

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: every wait here is bounded: a hang fails the test instead of stalling it
PROMPT = 20.0


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return write_workspace(tmp_path_factory.mktemp("ws"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, root: Path):
    await start(lsp_client, root, **{"naga校验": False})
    await published(lsp_client, open_document(lsp_client, root / "应用/主。着色器。豫"), 1)
    yield
    await lsp_client.shutdown_session()


async def still_serving(client: LanguageClient, root: Path) -> None:
    """An ordinary hover on the healthy file is answered correctly."""
    result = await asyncio.wait_for(client.text_document_hover_async(lsp.HoverParams(
        text_document=document(uri(root / "应用/主。着色器。豫")), position=position(MAIN, "「序」为", 1))), PROMPT)
    assert "「序」乃「无三二」" in result.contents.value


async def request(client: LanguageClient, method: str, params):
    """Send `params` exactly as given, even where they do not fit the method
    (the client would otherwise refuse to serialise them)."""
    protocol = client.protocol
    typed = protocol.get_message_type
    protocol.get_message_type = lambda method: None
    try:  # pygls' own (synchronous) send, not pytest-lsp's checking wrapper
        answer = JsonRPCProtocol.send_request_async(protocol, method, params)
    finally:
        protocol.get_message_type = typed
    return await asyncio.wait_for(answer, PROMPT)


async def test_malformed_parameters_get_an_invalid_params_error(client, root):
    with pytest.raises(JsonRpcException) as err:
        await request(client, "textDocument/hover", {"textDocument": 5, "position": "这里"})
    assert err.value.code == -32602
    await still_serving(client, root)


async def test_positions_outside_the_document_get_answers(client, root):
    doc_uri = uri(root / "应用/主。着色器。豫")
    methods = ("textDocument/hover", "textDocument/completion", "textDocument/definition",
               "textDocument/signatureHelp", "textDocument/references")

    def at(method, line, character):
        params = {"textDocument": {"uri": doc_uri}, "position": {"line": line, "character": character}}
        return {**params, "context": {"includeDeclaration": True}} if method.endswith("references") else params

    for line, character in ((10_000_000, 3), (2, 10_000_000)):
        for method in methods:
            await request(client, method, at(method, line, character))
    for method in methods:   # negative: not a position at all
        with pytest.raises(JsonRpcException) as err:
            await request(client, method, at(method, -1, -5))
        assert err.value.code == -32602
    await still_serving(client, root)


async def test_an_unknown_method_gets_method_not_found(client, root):
    with pytest.raises(JsonRpcException) as err:
        await request(client, "着色/没有这个请求", {})
    assert err.value.code == -32601
    await still_serving(client, root)


async def test_preview_without_its_parameters_is_refused(client, root):
    with pytest.raises(JsonRpcException) as err:
        await request(client, "着色/预览", {"target": "wgsl"})
    assert "uri" in err.value.message
    await still_serving(client, root)


@pytest.mark.parametrize("doc_uri", ["file:///没有/这个。着色器。豫", "untitled:Untitled-1", "不是网址"],
                         ids=["missing-file", "untitled", "not-a-uri"])
async def test_unknown_documents_get_empty_answers(client, root, doc_uri):
    where = dict(text_document=document(doc_uri), position=lsp.Position(line=3, character=4))
    assert await client.text_document_hover_async(lsp.HoverParams(**where)) is None
    assert await client.text_document_definition_async(lsp.DefinitionParams(**where)) is None
    assert await client.text_document_references_async(lsp.ReferenceParams(
        **where, context=lsp.ReferenceContext(include_declaration=True))) in ([], ())
    assert await client.text_document_completion_async(lsp.CompletionParams(**where)) is None
    tokens = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=document(doc_uri)))
    assert list(tokens.data) == []
    await still_serving(client, root)


HALF_TYPED = """寻观「点染」之「点染本」之书。
「甲」乃化「无三二」为
「乙」者得「x」而 令「y」为「x」中
"""


async def test_a_half_typed_file_answers_every_request(client, root):
    path = root / "应用/半。着色器。豫"
    doc_uri = open_document(client, path, HALF_TYPED)
    first = await published(client, doc_uri, 1)
    assert first.diagnostics, "the broken items are reported"
    lines = HALF_TYPED.split("\n")
    for line, text in enumerate(lines):
        for character in range(0, len(text) + 1, 3):
            where = dict(text_document=document(doc_uri), position=lsp.Position(line=line, character=character))
            await client.text_document_hover_async(lsp.HoverParams(**where))
            await client.text_document_completion_async(lsp.CompletionParams(**where))
            await client.text_document_signature_help_async(lsp.SignatureHelpParams(**where))
            await client.text_document_definition_async(lsp.DefinitionParams(**where))
    await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=document(doc_uri)))
    await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=document(doc_uri), range=lsp.Range(start=lsp.Position(line=0, character=0),
                                                         end=lsp.Position(line=len(lines), character=0))))
    await still_serving(client, root)


async def test_a_five_megabyte_file_is_answered_promptly(client, root):
    path = root / "应用/大。着色器。豫"
    body = "「：填充：」\n" + "「常{}」者「新无三二」于「七」也。\n"
    text = "寻观「点染」之「点染本」之书。\n" + "".join(body.format(i) for i in range(130_000))
    assert len(text.encode("utf-8")) > 5_000_000
    loop = asyncio.get_running_loop()
    began = loop.time()
    doc_uri = open_document(client, path, text)
    first = await published(client, doc_uri, 1, timeout=PROMPT)
    assert any("文件太大" in d.message for d in first.diagnostics)
    where = dict(text_document=document(doc_uri), position=lsp.Position(line=5, character=2))
    assert await client.text_document_hover_async(lsp.HoverParams(**where)) is None
    assert list((await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=document(doc_uri)))).data) == []
    await still_serving(client, root)
    assert loop.time() - began < PROMPT


DEEP = {
    "parentheses": "「甲」者" + "（" * 5000 + "「一」" + "）" * 5000 + "也。\n",
    "operators": "「甲」者" + "「一」加" * 8000 + "「一」也。\n",
    "applications": "「甲」者" + "「负」于（" * 3000 + "「一」" + "）" * 3000 + "也。\n",
}


@pytest.mark.parametrize("shape", DEEP)
async def test_a_deeply_nested_file_is_answered(client, root, shape):
    path = root / f"应用/深{shape}。着色器。豫"
    text = "寻观「点染」之「点染本」之书。\n" + DEEP[shape]
    doc_uri = open_document(client, path, text)
    first = await published(client, doc_uri, 1, timeout=PROMPT)
    assert first.diagnostics, "a file this deep gets a diagnostic, not silence"
    where = dict(text_document=document(doc_uri), position=lsp.Position(line=1, character=4000))
    await asyncio.wait_for(client.text_document_hover_async(lsp.HoverParams(**where)), PROMPT)
    await asyncio.wait_for(client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=document(doc_uri))), PROMPT)
    await still_serving(client, root)


async def test_a_burst_of_edits_never_publishes_an_older_version_last(client, root):
    path = root / "应用/旁。着色器。豫"
    original = path.read_text(encoding="utf-8")
    doc_uri = open_document(client, path)
    await published(client, doc_uri, 1)
    since = len(client.published)
    for version in range(2, 42):
        # alternate a broken and a fixed text, so each version's diagnostics differ
        text = original if version % 2 else original.replace("「子」中「速度」", "「子」中「重量」")
        replace_document(client, doc_uri, text, version)
    last = await published(client, doc_uri, 41, since)
    assert last.diagnostics == [] or all("重量" not in d.message for d in last.diagnostics)
    versions = [p.version for p in client.published[since:] if p.uri == doc_uri]
    assert versions == sorted(versions), versions
    assert len(versions) < 40, "edits that arrive together are checked together"
    await still_serving(client, root)
