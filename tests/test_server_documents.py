"""The server's open documents (server/documents.py) apply an editor's
incremental changes by slicing at offsets from a shifted line table; they
must end with the very text pygls's own document makes of the same changes."""

import random

from lsprotocol import types as lsp
from pygls.workspace import TextDocument

from zhuose.compiler.source import line_starts
from zhuose.server.documents import EditedDocument, EditedWorkspace

#: lines end at \n, as everywhere in the server (compiler/source.py); pygls also
#: breaks lines at a lone \r and other separators, so the pieces leave those out
PIECES = ["「甲」", "者", "也。", "\n", "\n\n", "𝑥", "𝑥𝑥\n", "　", "a", "", "「：注\n释：」"]


def utf16_position(text: str, offset: int) -> lsp.Position:
    line_start = text.rfind("\n", 0, offset) + 1
    column = sum(2 if ord(c) > 0xFFFF else 1 for c in text[line_start:offset])
    return lsp.Position(line=text.count("\n", 0, offset), character=column)


def random_change(rng: random.Random, text: str) -> lsp.TextDocumentContentChangePartial:
    a, b = sorted(rng.randrange(len(text) + 1) for _ in range(2))
    inserted = "".join(rng.choice(PIECES) for _ in range(rng.randrange(4)))
    return lsp.TextDocumentContentChangePartial(
        range=lsp.Range(start=utf16_position(text, a), end=utf16_position(text, b)), text=inserted)


def test_random_incremental_changes_give_pygls_text():
    rng = random.Random(11)
    for _ in range(40):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 30)))
        ours = EditedDocument("file:///a", text)
        theirs = TextDocument("file:///a", text)
        for _ in range(25):
            change = random_change(rng, ours.source)
            ours.apply_change(change)
            theirs.apply_change(change)
            assert ours.source == theirs.source
            assert ours._table[0] is ours.source and ours._table[1] == line_starts(ours.source)


def test_positions_past_a_line_or_the_text_clamp_to_its_end():
    doc = EditedDocument("file:///a", "「甲」者\n也。")
    far = lsp.Position(line=0, character=99)
    doc.apply_change(lsp.TextDocumentContentChangePartial(range=lsp.Range(start=far, end=far), text="！"))
    assert doc.source == "「甲」者！\n也。"
    beyond = lsp.Position(line=9, character=0)
    doc.apply_change(lsp.TextDocumentContentChangePartial(range=lsp.Range(start=beyond, end=beyond), text="\n末"))
    assert doc.source == "「甲」者！\n也。\n末"


def test_a_full_replacement_between_incremental_changes_makes_a_new_line_table():
    doc = EditedDocument("file:///a", "一\n二\n")
    at = lsp.Position(line=1, character=0)
    doc.apply_change(lsp.TextDocumentContentChangePartial(range=lsp.Range(start=at, end=at), text="甲"))
    doc.apply_change(lsp.TextDocumentContentChangeWholeDocument(text="\n\n\n三"))
    end = lsp.Position(line=3, character=1)
    doc.apply_change(lsp.TextDocumentContentChangePartial(range=lsp.Range(start=end, end=end), text="四"))
    assert doc.source == "\n\n\n三四"


def test_the_workspace_makes_edited_documents():
    ws = EditedWorkspace(None, lsp.TextDocumentSyncKind.Incremental)
    ws.put_text_document(lsp.TextDocumentItem(uri="file:///a", language_id="zhuose", version=1, text="甲"))
    assert isinstance(ws.get_text_document("file:///a"), EditedDocument)
