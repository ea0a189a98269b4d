"""The VS Code extension's data stays in step with the language: its
grammar knows exactly the lexer's keywords, its snippets type-check, and its
manifest claims the two shader suffixes.  (The grammar's tokenization itself
is tested with vscode-textmate by `npm test` in editors/vscode.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from zhuose.compiler.packages import INTERFACE_SUFFIX, SHADER_SUFFIX
from zhuose.compiler.syntax.lexer import KEYWORDS
from zhuose.compiler.workspace import Workspace

EXTENSION = Path(__file__).resolve().parent.parent / "editors" / "vscode"


def load(rel: str):
    return json.loads((EXTENSION / rel).read_text(encoding="utf-8"))


def test_the_grammar_knows_exactly_the_lexers_keywords():
    grammar = load("syntaxes/zhuose.tmLanguage.json")
    words = set()
    for pattern in grammar["repository"]["keyword"]["patterns"]:
        words.update(pattern["match"].split("|"))
    assert words == set(KEYWORDS)


def test_the_manifest_claims_both_shader_suffixes():
    manifest = load("package.json")
    (language,) = manifest["contributes"]["languages"]
    assert set(language["extensions"]) == {SHADER_SUFFIX, INTERFACE_SUFFIX}
    assert manifest["contributes"]["grammars"][0]["scopeName"] == load("syntaxes/zhuose.tmLanguage.json")["scopeName"]


SNIPPETS = load("snippets/zhuose.json")


def expand(body: list[str]) -> str:
    """A snippet as inserted with every placeholder left at its default."""
    text = "\n".join(body)
    text = re.sub(r"\$\{\d+:([^}]*)\}", r"\1", text)
    return re.sub(r"\$\{?\d+\}?", "", text)


@pytest.mark.parametrize("name", SNIPPETS)
def test_each_snippet_type_checks(tmp_path, name):
    text = expand(SNIPPETS[name]["body"])
    if not text.startswith("寻观"):
        text = "寻观「点染」之「点染本」之书。\n\n" + text
    path = tmp_path / ("片段" + SHADER_SUFFIX)
    path.write_text(text, encoding="utf-8")
    ws = Workspace(tmp_path)
    assert [d.format(ws.source(d.path)) for d in ws.diagnostics(path)] == []
