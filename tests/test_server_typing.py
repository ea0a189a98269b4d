"""Typing fuzz: the server holds whatever half-typed text the editor holds.

A real sample is "typed" into an empty document with incremental
didChange edits (a few characters each, with seeded typos, deletions and
re-insertions), and every few changes the cursor is probed with hover,
completion, definition, signature help, semantic tokens, inlay hints and
document symbols.  Every answer must be well formed (no JSON-RPC error, no
handler failure logged, nothing outside the document), the server must
survive to the end, and the final diagnostics must be those of
`着色器 检查` on the same text.  A whole file pasted into the middle of
another, and the paste undone, is held to the same standard.
"""

from __future__ import annotations

import asyncio
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from support.lsp import SERVER, document, open_document, published, start, uri
from zhuose.server.tokens import TOKEN_TYPES

pytestmark = pytest.mark.asyncio(loop_scope="module")

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
#: one clean sample with comments, nested 若 and local recursion; one with errors
CLEAN = "考拉兹。着色器。豫"
BROKEN = "错误/元组形状。着色器。豫"
HOST = "加倍。着色器。豫"
#: every answer is awaited with a bound: a hang fails instead of stalling
PROMPT = 20.0
PROBE_EVERY = 4
#: characters an impatient typist drops in and takes back out
TYPOS = "「」（）。而于令若则否者乃也中之加x1　\n"


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    """A workspace of plain files (no 包.json, like samples/): the samples
    only import the builtin package."""
    root = tmp_path_factory.mktemp("typing").resolve()
    for name in (CLEAN, BROKEN, HOST):
        shutil.copy(SAMPLES / name, root / Path(name).name)
    return root


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, root: Path):
    await start(lsp_client, root, **{"naga校验": False})
    yield
    assert not handler_failures(lsp_client), "a handler failed and answered its fallback"
    await lsp_client.shutdown_session()


# ---------------------------------------------------------------- the editor's side


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def lsp_position(text: str, offset: int) -> lsp.Position:
    line_start = text.rfind("\n", 0, offset) + 1
    return lsp.Position(line=text.count("\n", 0, offset), character=utf16(text[line_start:offset]))


class Editor:
    """An open document as the editor holds it: its text and version, and
    the incremental changes that keep the server's copy equal to it."""

    def __init__(self, client: LanguageClient, path: Path, text: str) -> None:
        self.client = client
        self.path = path
        self.text = text
        self.version = 1
        self.probes = 0
        self.uri = open_document(client, path, text)

    def replace(self, start: int, end: int, new: str) -> None:
        """Replace characters [start, end) with `new`, as one didChange."""
        rng = lsp.Range(start=lsp_position(self.text, start), end=lsp_position(self.text, end))
        self.text = self.text[:start] + new + self.text[end:]
        self.version += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            content_changes=[lsp.TextDocumentContentChangePartial(range=rng, text=new)]))

    def insert(self, at: int, new: str) -> None:
        self.replace(at, at, new)

    def delete(self, start: int, end: int) -> None:
        self.replace(start, end, "")


# ---------------------------------------------------------------- probing


def inside(text: str, pos: lsp.Position) -> bool:
    lines = text.split("\n")
    return 0 <= pos.line < len(lines) and 0 <= pos.character <= utf16(lines[pos.line])


def range_inside(text: str, rng: lsp.Range) -> bool:
    ordered = (rng.start.line, rng.start.character) <= (rng.end.line, rng.end.character)
    return ordered and inside(text, rng.start) and inside(text, rng.end)


def decoded_tokens(data) -> list[tuple[int, int, int, int]]:
    """(line, UTF-16 column, length, type) of LSP's relative quintuples."""
    data = list(data)
    assert len(data) % 5 == 0, "semantic tokens come in quintuples"
    out, line, column = [], 0, 0
    for i in range(0, len(data), 5):
        delta_line, delta_column, length, kind, _ = data[i:i + 5]
        line += delta_line
        column = column + delta_column if delta_line == 0 else delta_column
        out.append((line, column, length, kind))
    return out


def check_tokens(text: str, result: lsp.SemanticTokens) -> None:
    lines = text.split("\n")
    for line, column, length, kind in decoded_tokens(result.data):
        assert line < len(lines) and length > 0 and column + length <= utf16(lines[line]), (line, column, length)
        assert 0 <= kind < len(TOKEN_TYPES)


def check_symbols(text: str, found) -> None:
    for symbol in found or []:
        assert symbol.name and range_inside(text, symbol.range) and range_inside(text, symbol.selection_range)
        check_symbols(text, symbol.children)


def check_answers(ed: Editor, answers: dict) -> None:
    """Every answer is an empty result or lies within the document it names."""
    text = ed.text
    hover = answers["hover"]
    if hover is not None:
        assert hover.contents.value and (hover.range is None or range_inside(text, hover.range))
    completion = answers["completion"]
    assert completion is None or all(item.label for item in completion.items)
    for loc in answers["definition"] or []:
        assert loc.uri != ed.uri or range_inside(text, loc.range), loc
    signature = answers["signature"]
    if signature is not None:
        assert signature.signatures and 0 <= (signature.active_signature or 0) < len(signature.signatures)
    check_tokens(text, answers["tokens"])
    assert all(inside(text, hint.position) for hint in answers["hints"] or [])
    check_symbols(text, answers["symbols"])


async def probe(ed: Editor, offset: int) -> dict:
    """Ask every reading request at `offset` (they go after the changes
    already sent, so they see the editor's text)."""
    client, doc = ed.client, document(ed.uri)
    where = dict(text_document=doc, position=lsp_position(ed.text, offset))
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp_position(ed.text, len(ed.text)))
    requests = {
        "hover": client.text_document_hover_async(lsp.HoverParams(**where)),
        "completion": client.text_document_completion_async(lsp.CompletionParams(**where)),
        "definition": client.text_document_definition_async(lsp.DefinitionParams(**where)),
        "signature": client.text_document_signature_help_async(lsp.SignatureHelpParams(**where)),
        "tokens": client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(text_document=doc)),
        "hints": client.text_document_inlay_hint_async(lsp.InlayHintParams(text_document=doc, range=whole)),
        "symbols": client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc)),
    }
    answers = await asyncio.wait_for(asyncio.gather(*requests.values()), PROMPT)
    answers = dict(zip(requests, answers))
    check_answers(ed, answers)
    return answers


def handler_failures(client: LanguageClient) -> list[str]:
    """Errors the server logged: a handler that raised answers its empty
    fallback, so only the log shows it."""
    return [m.message for m in client.log_messages if m.type == lsp.MessageType.Error]


# ---------------------------------------------------------------- the reference: 着色器 检查


DIAGNOSTIC_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): (?P<message>.*)$")


def cli_errors(root: Path, name: str, text: str) -> list[tuple[int, int, str]]:
    """(line, character column, message) of each error `着色器 检查` reports
    for `text` saved as `name` in `root` (both zero-based)."""
    (root / name).write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "zhuose.cli", "检查", name], cwd=root,
                         capture_output=True, text=True, encoding="utf-8", timeout=60)
    lines = [m for m in map(DIAGNOSTIC_LINE.match, (run.stdout + run.stderr).splitlines()) if m]
    assert (run.returncode == 0) == (not lines), run.stdout + run.stderr
    return sorted((int(m["line"]) - 1, int(m["column"]) - 1, m["message"]) for m in lines if m["path"] == name)


def character_column(text: str, pos: lsp.Position) -> int:
    """The character column of an LSP (UTF-16) position."""
    line = text.split("\n")[pos.line]
    column = 0
    while utf16(line[:column]) < pos.character:
        column += 1
    return column


def server_errors(text: str, diagnostics: list[lsp.Diagnostic]) -> list[tuple[int, int, str]]:
    assert all(d.code != "internal" for d in diagnostics), "the server failed to analyse the text"
    return sorted((d.range.start.line, character_column(text, d.range.start), d.message)
                  for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error)


async def final_diagnostics(ed: Editor) -> list[lsp.Diagnostic]:
    found = await published(ed.client, ed.uri, ed.version, timeout=PROMPT)
    return found.diagnostics


async def agrees_with_cli(ed: Editor, root: Path, name: str) -> list[tuple[int, int, str]]:
    """The server's errors for the editor's text, checked against the CLI's."""
    mine = server_errors(ed.text, await final_diagnostics(ed))
    assert mine == cli_errors(root, name, ed.text)
    return mine


async def still_serving(client: LanguageClient, root: Path) -> None:
    """A hover on a name in a healthy file still gets its type."""
    host = (root / HOST).read_text(encoding="utf-8")
    healthy = Editor(client, root / f"健康{len(client.published)}。着色器。豫", host)
    answers = await probe(healthy, host.index("「序」为") + 1)
    assert "「序」乃「无三二」" in answers["hover"].contents.value


# ---------------------------------------------------------------- typing


async def type_in(ed: Editor, target: str, seed: int) -> int:
    """Type `target` at the end of the editor's text, a few characters per
    change, with seeded typos and deletions taken back; probe every few
    changes.  Returns the number of probes."""
    rng = random.Random(seed)
    base = len(ed.text)
    typed, changes, probes = 0, 0, 0
    while typed < len(target):
        cursor = base + typed
        roll = rng.random()
        if roll < 0.04 and typed > 0:       # select a stretch behind the cursor, delete it, put it back
            start = base + rng.randrange(typed)
            end = min(cursor, start + rng.randint(1, 16))
            cut = ed.text[start:end]
            ed.delete(start, end)
            await probe(ed, start)
            ed.insert(start, cut)
            probes += 1
        elif roll < 0.08:                   # a typo, then backspace
            ed.insert(cursor, rng.choice(TYPOS))
            ed.delete(cursor, cursor + 1)
        else:
            n = rng.randint(1, 4)
            ed.insert(cursor, target[typed:typed + n])
            typed += n
        changes += 1
        if changes % PROBE_EVERY == 0:
            await probe(ed, base + typed)
            probes += 1
    assert ed.text[base:] == target
    return probes


async def typed(client: LanguageClient, root: Path, name: str, label: str) -> Editor:
    """A new document with sample `name` typed into it (seeded by its length)."""
    target = (SAMPLES / name).read_text(encoding="utf-8")
    ed = Editor(client, root / f"{label}{Path(name).name}", "")
    await published(client, ed.uri, 1, timeout=PROMPT)
    ed.probes = await type_in(ed, target, seed=len(target))
    return ed


@pytest.mark.parametrize("name", [CLEAN, BROKEN], ids=["clean", "broken"])
async def test_typing_a_sample_keeps_every_answer_well_formed(client, root, name):
    ed = await typed(client, root, name, "打字")
    assert ed.probes > len(ed.text) // (4 * PROBE_EVERY), "probed all along the file"
    server_errors(ed.text, await final_diagnostics(ed))  # published for the last version, not an internal error
    assert not handler_failures(client)
    await still_serving(client, root)


@pytest.mark.parametrize("name", [CLEAN, BROKEN], ids=["clean", "broken"])
async def test_typed_text_gets_the_diagnostics_of_the_cli(client, root, name):
    ed = await typed(client, root, name, "核对")
    errors = await agrees_with_cli(ed, root, ed.path.name)
    if name == CLEAN:
        assert errors == [], "the clean sample is clean once fully typed"
    else:  # 元组形状 has one error in each of its two definitions, on lines 4 and 5
        assert [e[0] for e in errors] == [3, 4] and all("元组须是" in e[2] for e in errors), errors


async def test_typed_text_is_analysed_like_the_same_text_opened_fresh(client, root):
    """The incremental path (many small edits) ends where a fresh open of the
    same text starts: same tokens, same symbols."""
    typed_in = await typed(client, root, CLEAN, "逐字")
    target = typed_in.text
    fresh = Editor(client, root / "整篇。着色器。豫", target)
    at = target.index("「走」于「始」")
    typed_answers, fresh_answers = await probe(typed_in, at), await probe(fresh, at)
    assert list(typed_answers["tokens"].data) == list(fresh_answers["tokens"].data)
    assert typed_answers["symbols"] == fresh_answers["symbols"]
    assert "「走」" in typed_answers["hover"].contents.value


# ---------------------------------------------------------------- pasting


def paste_points(host: str) -> dict[str, int]:
    """Where a whole file is pasted: between two definitions, and inside a
    name in the middle of an expression."""
    between = host.index("\n\n「加倍入口」") + 1
    inside_name = host.index("「读数组」") + 2
    return {"between-definitions": between, "inside-a-name": inside_name}


@pytest.mark.parametrize("where", ["between-definitions", "inside-a-name"])
async def test_pasting_a_whole_file_and_undoing_it(client, root, where):
    host = (root / HOST).read_text(encoding="utf-8")
    pasted = (SAMPLES / CLEAN).read_text(encoding="utf-8")
    name = f"粘贴{where}。着色器。豫"
    ed = Editor(client, root / name, host)
    assert server_errors(host, await final_diagnostics(ed)) == []
    before = await probe(ed, host.index("「序」为") + 1)

    at = paste_points(host)[where]
    ed.insert(at, pasted)
    for offset in range(at, at + len(pasted) + 1, 97):
        await probe(ed, offset)
    await agrees_with_cli(ed, root, name)      # both files bind group 0, binding 0 (「数据」, 「起」): fine, as
    # different entries bind them; what the server shows is what 检查 says of the same text

    ed.delete(at, at + len(pasted))
    assert ed.text == host
    after = await probe(ed, host.index("「序」为") + 1)
    assert await agrees_with_cli(ed, root, name) == []
    assert list(after["tokens"].data) == list(before["tokens"].data)
    assert after["symbols"] == before["symbols"] and after["hover"] == before["hover"]
    assert not handler_failures(client)
    await still_serving(client, root)
