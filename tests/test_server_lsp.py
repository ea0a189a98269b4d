"""End-to-end tests of the language server over stdio (pytest-lsp), on a
workspace of two packages: 「应用」 imports 「库」之「几何」.

Every expectation is written from the source text (which line a name is
defined on, what its type is in the program), not copied from the server.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from support.lsp import (ALONE, GEOMETRY, MAIN, SERVER, document, open_document, position, published,
                            replace_document, start, text_at, uri, write_workspace)
from zhuose.compiler.packages import builtin_interface_path

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return write_workspace(tmp_path_factory.mktemp("ws"))


@pytest.fixture(scope="module")
def paths(root: Path) -> dict[str, Path]:
    return {"main": root / "应用/主。着色器。豫", "geometry": root / "库/几何。着色器。豫",
            "side": root / "应用/旁。着色器。豫", "alone": root / "应用/独立。着色器。豫"}


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, root: Path, paths):
    """A server with all four files open."""
    await start(lsp_client, root, **{"naga校验": False})
    for path in paths.values():
        await published(lsp_client, open_document(lsp_client, path), 1)
    yield
    await lsp_client.shutdown_session()


class Versions:
    """Each test that edits a document continues its version numbers."""

    def __init__(self) -> None:
        self.by_uri: dict[str, int] = {}

    def next(self, doc_uri: str) -> int:
        self.by_uri[doc_uri] = self.by_uri.get(doc_uri, 1) + 1
        return self.by_uri[doc_uri]


VERSIONS = Versions()


async def edit(client: LanguageClient, doc_uri: str, text: str) -> lsp.PublishDiagnosticsParams:
    since = len(client.published)
    version = VERSIONS.next(doc_uri)
    replace_document(client, doc_uri, text, version)
    return await published(client, doc_uri, version, since)


def errors(diagnostics) -> list[lsp.Diagnostic]:
    return [d for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error]


async def counters(client: LanguageClient) -> dict:
    result = await client.protocol.send_request_async("着色/计数", {})
    return dict(result._asdict()) if hasattr(result, "_asdict") else dict(result)


# ---------------------------------------------------------------- diagnostics


async def test_open_publishes_diagnostics_for_every_document(client: LanguageClient, paths):
    for key in ("main", "geometry", "side", "alone"):
        first = await published(client, uri(paths[key]), 1)
        assert errors(first.diagnostics) == [], (key, first.diagnostics)


OVERFLOW = """寻观「点染」之「点染本」之书。

「大」乃「无三二」也。
「大」者（「新无三二」于「四二九四九六七二九五」）加（「新无三二」于「一」）也。
"""


async def test_wgsl_translation_errors_are_published_on_open_and_save(client, root):
    """The checker accepts this constant; the WGSL back end's const-evaluation
    does not (4294967295u + 1u overflows), and the server shows it."""
    path = root / "应用/溢出。着色器。豫"
    path.write_text(OVERFLOW, encoding="utf-8")
    since = len(client.published)
    doc_uri = open_document(client, path)
    first = await published(client, doc_uri, 1, since)
    assert errors(first.diagnostics) == []          # the checker's own verdict comes first …
    translated = await published(client, doc_uri, 1, since, where=lambda p: errors(p.diagnostics))
    (overflow,) = errors(translated.diagnostics)   # … then the translation's
    assert "超出「无三二」的范围" in overflow.message and "「大」" in overflow.message
    assert overflow.range.start.line == 3


async def test_editing_an_imported_module_changes_the_importers_diagnostics(client, paths):
    geometry, main = uri(paths["geometry"]), uri(paths["main"])
    since = len(client.published)
    broken = GEOMETRY.replace("「步长」乃「无三二」也。", "「步长」乃「整三二」也。").replace(
        "「新无三二」于「三」", "「新整三二」于「三」")
    await edit(client, geometry, broken)
    importer = await published(client, main, None, since)
    messages = [d.message for d in errors(importer.diagnostics)]
    # 「几何」之「步长」 is now 整三二 where 「环」 takes 无三二 …
    assert any("「求和」" in m and "类型不符" in m and "「整三二」" in m for m in messages), messages
    # … and the import line says that 几何 itself has an error (甲 加 步长 mixes 无三二 and 整三二)
    imported = [d for d in errors(importer.diagnostics) if "导入的模块有" in d.message]
    assert imported and imported[0].range.start.line == 1
    since = len(client.published)
    await edit(client, geometry, GEOMETRY)
    # main's version does not change, and a later stage of the broken state (the translation's
    # publication) may still arrive after this edit: the heal is the publication that comes after
    # it with no errors, within the timeout
    await published(client, main, None, since, where=lambda p: errors(p.diagnostics) == [])


# ---------------------------------------------------------------- hover


async def hover_text(client, path: Path, text: str, needle: str, delta: int = 1, occurrence: int = 0) -> str:
    result = await client.text_document_hover_async(lsp.HoverParams(
        text_document=document(uri(path)), position=position(text, needle, delta, occurrence)))
    assert result is not None, needle
    return result.contents.value


async def test_hover_shows_a_parameters_type_with_its_alias(client, paths):
    shown = await hover_text(client, paths["main"], MAIN, "「号」中")
    assert "「号」乃「全局调用号」" in shown


async def test_hover_shows_the_type_of_a_local_binding(client, paths):
    shown = await hover_text(client, paths["main"], MAIN, "「序」为")
    assert "「序」乃「无三二」" in shown


async def test_hover_on_an_operator_shows_the_builtin_and_its_type_here(client, paths):
    shown = await hover_text(client, paths["main"], MAIN, "乘（", delta=0)
    assert "「乘」乃凡「甲：数」而化「甲」又化「甲」为「甲」者" in shown
    assert "化「无三二」又化「无三二」为「无三二」者" in shown   # 甲 solved to 无三二 at this use
    # what each back end's table says 乘 becomes
    assert "| WGSL | `甲 * 乙` |" in shown and "| MSL | `甲 * 乙；整三二 时 as_type<int>(uint(甲) * uint(乙))` |" in shown
    assert "| PTX | `mul.lo.s32 / mul.lo.u32 / mul.rn.f16 / mul.rn.f32` |" in shown


async def test_hover_on_a_keyword_shows_the_sub_expression_type(client, paths):
    # 中 in 「号」中「零」: the projection is the x component, a 无三二
    shown = await hover_text(client, paths["main"], MAIN, "中「零」", delta=0)
    assert "「无三二」" in shown and "表达式的类型" in shown


async def test_hover_on_a_builtin_shows_its_documentation(client, paths):
    shown = await hover_text(client, paths["main"], MAIN, "「读数组」")
    assert "读存储缓冲里运行期数组的元素" in shown
    assert "「读数组」乃凡「甲」而化（「存储缓冲」于（「数组」于「甲」））又化「无三二」为「甲」者" in shown


async def test_hover_on_an_imported_function_names_its_module(client, paths):
    shown = await hover_text(client, paths["main"], MAIN, "「加步」于")
    assert "「加步」乃化「无三二」而「无三二」" in shown and "几何" in shown and "加上步长" in shown


# ---------------------------------------------------------------- definition


async def definition(client, path: Path, text: str, needle: str, delta: int = 1, occurrence: int = 0,
                     declaration: bool = False) -> lsp.Location:
    params = dict(text_document=document(uri(path)), position=position(text, needle, delta, occurrence))
    if declaration:
        result = await client.text_document_declaration_async(lsp.DeclarationParams(**params))
    else:
        result = await client.text_document_definition_async(lsp.DefinitionParams(**params))
    assert result, needle
    return result[0]


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n")


@pytest.mark.parametrize("needle, occurrence, target", [
    ("「序」于（「加步」", 0, "令「序」为"),                # a 令 binding
    ("「个数」\n", 0, "得「个数」而"),                      # a parameter
    ("「环」于（「新无三二」于「零」）", 0, "令「环」为"),   # a local function
    ("「加倍」于（", 0, "「加倍」者"),                       # a top-level function (its definition)
])
async def test_definition_within_the_file(client, paths, needle, occurrence, target):
    loc = await definition(client, paths["main"], MAIN, needle, occurrence=occurrence)
    assert loc.uri == uri(paths["main"])
    assert loc.range.start.line == line_of(MAIN, target)
    name = needle[:needle.index("」") + 1]
    assert text_at(MAIN, loc.range) == name


async def test_definition_across_packages(client, paths):
    loc = await definition(client, paths["main"], MAIN, "「加步」于")
    assert loc.uri == uri(paths["geometry"])
    assert loc.range.start.line == line_of(GEOMETRY, "「加步」者")
    loc = await definition(client, paths["main"], MAIN, "「加步」于", declaration=True)
    assert loc.range.start.line == line_of(GEOMETRY, "「加步」乃")


async def test_definition_of_a_field_and_a_struct(client, paths):
    loc = await definition(client, paths["main"], MAIN, "「速度」也")
    assert loc.uri == uri(paths["geometry"]) and text_at(GEOMETRY, loc.range) == "「速度」"
    assert loc.range.start.line == line_of(GEOMETRY, "「粒子」即")
    loc = await definition(client, paths["main"], MAIN, "「粒子」为")
    assert loc.uri == uri(paths["geometry"]) and text_at(GEOMETRY, loc.range) == "「粒子」"


async def test_definition_of_a_builtin_goes_into_the_shipped_interface_file(client, paths):
    loc = await definition(client, paths["main"], MAIN, "「读数组」")
    builtin = builtin_interface_path()
    assert loc.uri == uri(builtin.resolve())
    builtin_text = builtin.read_text(encoding="utf-8")
    assert loc.range.start.line == line_of(builtin_text, "「读数组」乃")
    assert text_at(builtin_text, loc.range) == "「读数组」"


async def test_definition_of_module_paths(client, paths):
    for needle in ("「几何」之书", "「几何」之「步长」"):
        loc = await definition(client, paths["main"], MAIN, needle)
        assert loc.uri == uri(paths["geometry"])


# ---------------------------------------------------------------- references and rename


async def test_references_across_files_include_files_not_open(client, paths, root):
    found = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=document(uri(paths["main"])), position=position(MAIN, "「加步」于", 1),
        context=lsp.ReferenceContext(include_declaration=True)))
    by_file = {}
    for loc in found:
        by_file.setdefault(loc.uri, []).append(loc.range.start.line)
    assert sorted(by_file[uri(paths["geometry"])]) == [line_of(GEOMETRY, "「加步」乃"), line_of(GEOMETRY, "「加步」者")]
    assert by_file[uri(paths["main"])] == [line_of(MAIN, "「加步」于")]
    assert len(by_file[uri(paths["side"])]) == 1
    without = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=document(uri(paths["main"])), position=position(MAIN, "「加步」于", 1),
        context=lsp.ReferenceContext(include_declaration=False)))
    assert len(without) == len(found) - 2


async def test_rename_edits_every_file_that_uses_the_name(client, paths):
    edit_ = await client.text_document_rename_async(lsp.RenameParams(
        text_document=document(uri(paths["main"])), position=position(MAIN, "「加步」于", 1), new_name="加一步"))
    texts = {uri(paths["main"]): MAIN, uri(paths["geometry"]): GEOMETRY,
             uri(paths["side"]): paths["side"].read_text(encoding="utf-8")}
    assert set(edit_.changes) == set(texts)
    for doc_uri, edits in edit_.changes.items():
        for e in edits:
            assert text_at(texts[doc_uri], e.range) == "「加步」" and e.new_text == "「加一步」"
    assert len(edit_.changes[uri(paths["geometry"])]) == 2   # its signature and its definition


async def test_rename_of_a_local_stays_in_its_item(client, paths):
    edit_ = await client.text_document_rename_async(lsp.RenameParams(
        text_document=document(uri(paths["main"])), position=position(MAIN, "令「序」为", 2), new_name="「下标」"))
    edits = edit_.changes[uri(paths["main"])]
    assert len(edits) == 3 and all(text_at(MAIN, e.range) == "「序」" for e in edits)
    assert {e.range.start.line for e in edits} == {line_of(MAIN, "令「序」为"), line_of(MAIN, "「写数组」")}


async def test_rename_refuses_a_new_name_that_changes_what_a_name_means(client, paths):
    main = uri(paths["main"])
    cases = [("「加步」于", "数据", r"应用/主。着色器。豫:\d+ 处的「加步」改名后会指模块「主。着色器。豫」的「数据」"),
             ("「和」而", "个数", "处的「个数」原指参数「个数」"),     # would shadow the outer parameter
             ("「序」加（", "和", "改名后会指参数「和」")]              # would be captured by the sibling
    for needle, new, why in cases:
        with pytest.raises(Exception, match=why):
            await client.text_document_rename_async(lsp.RenameParams(
                text_document=document(main), position=position(MAIN, needle, 1), new_name=new))
    # a local may shadow a builtin nothing in its scope uses as a name (operators always mean the builtin)
    edit_ = await client.text_document_rename_async(lsp.RenameParams(
        text_document=document(main), position=position(MAIN, "「和」而", 1), new_name="加"))
    assert len(edit_.changes[main]) == 3


async def test_prepare_rename_gives_the_names_span_or_refuses(client, paths):
    main = uri(paths["main"])
    rng = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(
        text_document=document(main), position=position(MAIN, "「个数」\n", 2)))
    assert text_at(MAIN, rng) == "「个数」"
    with pytest.raises(Exception, match="模块名与包名"):
        await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(
            text_document=document(main), position=position(MAIN, "「几何」之书", 1)))


async def test_document_highlight_marks_definitions_and_uses(client, paths):
    found = await client.text_document_document_highlight_async(lsp.DocumentHighlightParams(
        text_document=document(uri(paths["main"])), position=position(MAIN, "「数据」于「序」于（", 1)))
    kinds = sorted((h.range.start.line, h.kind) for h in found)
    write, read = lsp.DocumentHighlightKind.Write, lsp.DocumentHighlightKind.Read
    assert kinds == [(line_of(MAIN, "「数据」乃"), write), (line_of(MAIN, "「数据」者"), write),
                     (line_of(MAIN, "「写数组」"), read), (line_of(MAIN, "「写数组」"), read)]


async def test_rename_of_a_builtin_is_refused(client, paths):
    with pytest.raises(Exception, match="不能改名"):
        await client.text_document_rename_async(lsp.RenameParams(
            text_document=document(uri(paths["main"])), position=position(MAIN, "「读数组」", 1), new_name="读"))


# ---------------------------------------------------------------- completion and signature help


async def complete(client, path: Path, text: str, needle: str, delta: int) -> dict[str, lsp.CompletionItem]:
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=document(uri(path)), position=position(text, needle, delta)))
    items = result.items if isinstance(result, lsp.CompletionList) else result
    return {i.label: i for i in items}


async def test_completion_offers_locals_imports_and_builtins_with_types(client, paths):
    items = await complete(client, paths["main"], MAIN, "「写数组」于「数据」于「序」于", len("「写数组」于"))
    assert items["序"].detail == "「无三二」" and items["号"].detail == "「全局调用号」"
    assert items["加步"].detail == "化「无三二」而「无三二」"
    assert items["读数组"].detail.startswith("凡「甲」而化")
    assert items["几何"].kind == lsp.CompletionItemKind.Module
    assert items["序"].sort_text < items["数据"].sort_text < items["加步"].sort_text < items["读数组"].sort_text
    assert items["序"].text_edit.new_text == "「序」"


async def test_completion_after_zhong_offers_the_record_fields(client, paths):
    main = uri(paths["main"])
    typing = MAIN.replace("「子」中「速度」", "「子」中「」")
    await edit(client, main, typing)
    try:
        items = await complete(client, paths["main"], typing, "「子」中「」", len("「子」中「"))
        assert {n: i.detail for n, i in items.items()} == {"位置": "「三维浮」", "速度": "「无三二」"}
        # the edit replaces the half-typed 「」 as a whole
        assert text_at(typing, items["速度"].text_edit.range) == "「」"
    finally:
        await edit(client, main, MAIN)


async def test_completion_after_zhong_on_a_vector_offers_its_components(client, paths):
    items = await complete(client, paths["main"], MAIN, "「号」中「零」", len("「号」中"))
    assert list(items) == ["零", "一", "二"] and items["一"].detail == "「无三二」"


async def test_completion_after_a_module_name_offers_its_names(client, paths):
    items = await complete(client, paths["main"], MAIN, "「几何」之「步长」", len("「几何」之"))
    assert set(items) == {"粒子", "步长", "加步"}


async def test_signature_help_follows_the_yu_chain(client, paths):
    help_ = await client.text_document_signature_help_async(lsp.SignatureHelpParams(
        text_document=document(uri(paths["main"])),
        position=position(MAIN, "「读数组」于「数据」于", len("「读数组」于「数据」于"))))
    sig = help_.signatures[0]
    assert sig.label.startswith("「读数组」乃凡「甲」而化")
    assert help_.active_parameter == 1
    start, end = sig.parameters[1].label
    assert sig.label[start:end] == "「无三二」"   # the index parameter (labels are BMP: UTF-16 = characters)


# ---------------------------------------------------------------- outline, colours, hints


async def test_document_symbols_list_each_top_level_name_once(client, paths):
    found = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=document(uri(paths["main"]))))
    names = [s.name for s in found]
    assert names == ["寻观「点染」之「点染本」", "寻观「库」之「几何」", "「数据」", "「取速」", "「加倍」",
                     "「加倍入口」", "「求和」"]
    kinds = {s.name: s.kind for s in found}
    assert kinds["「取速」"] == lsp.SymbolKind.Function and kinds["「数据」"] == lsp.SymbolKind.Variable
    geometry = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=document(uri(paths["geometry"]))))
    particle = next(s for s in geometry if s.name == "「粒子」")
    assert particle.kind == lsp.SymbolKind.Struct and [c.name for c in particle.children] == ["「位置」", "「速度」"]


def decode(client, data: list[int]) -> dict[tuple[int, int], tuple[str, set]]:
    """(line, column) → (token type, modifiers), by the legend the server announced."""
    legend = client.server_info.capabilities.semantic_tokens_provider.legend
    out, line, col = {}, 0, 0
    for i in range(0, len(data), 5):
        dl, dc, _, kind, mods = data[i:i + 5]
        line, col = line + dl, (col + dc if dl == 0 else dc)
        out[(line, col)] = (legend.token_types[kind], {m for b, m in enumerate(legend.token_modifiers) if mods >> b & 1})
    return out


async def test_semantic_tokens_colour_names_by_what_they_denote(client, paths):
    result = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=document(uri(paths["main"]))))
    tokens = decode(client, result.data)

    def at(needle, delta=0, occurrence=0):
        p = position(MAIN, needle, delta, occurrence)
        return tokens[(p.line, p.character)]

    assert at("「号」中") == ("parameter", set())
    assert at("令「序」", 1) == ("variable", {"declaration"})
    assert at("令", 0) == ("keyword", set())
    assert at("乘（") == ("operator", set())
    assert at("「加步」于") == ("function", set())
    assert at("「读数组」") == ("function", {"defaultLibrary"})
    assert at("「粒子」为") == ("struct", set())
    assert at("「速度」也") == ("property", set())
    assert at("「零」也") == ("number", set())
    assert at("「几何」之「步长」", len("「几何」之")) == ("variable", {"readonly"})
    assert at("「几何」之「步长」") == ("namespace", set())
    assert at("「读写」") == ("variable", {"readonly", "defaultLibrary"})


async def test_semantic_tokens_of_a_range_are_those_of_the_whole_file_in_it(client, paths):
    doc = document(uri(paths["main"]))
    whole = decode(client, (await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=doc))).data)
    first, last = line_of(MAIN, "「加倍」乃"), line_of(MAIN, "「加倍入口」者")
    part = decode(client, (await client.text_document_semantic_tokens_range_async(lsp.SemanticTokensRangeParams(
        text_document=doc, range=lsp.Range(start=lsp.Position(line=first, character=0),
                                           end=lsp.Position(line=last, character=0))))).data)
    assert part == {k: v for k, v in whole.items() if first <= k[0] < last}


async def test_semantic_tokens_cut_comments_per_line(client, paths):
    result = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=document(uri(paths["geometry"]))))
    tokens = decode(client, result.data)
    p = position(GEOMETRY, "「：一个粒子")
    assert tokens[(p.line, p.character)][0] == "comment"


async def test_inlay_hints_give_the_type_of_each_ling_binding(client, paths):
    lines = MAIN.count("\n")
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=document(uri(paths["main"])),
        range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=lines, character=0))))
    def key(p: lsp.Position) -> tuple[int, int]:
        return p.line, p.character

    by_position = {key(h.position): h.label for h in hints}
    assert by_position[key(position(MAIN, "令「序」", 4))] == "乃「无三二」"
    assert by_position[key(position(MAIN, "令「环」", 4))] == "乃化「无三二」又化「无三二」为「无三二」者"
    assert len(hints) == 2


# ---------------------------------------------------------------- quick fixes


async def quick_fixes_for(client, doc_uri: str, wrong: str, pick) -> tuple[lsp.Diagnostic, list[lsp.CodeAction]]:
    """Publish `wrong`, take the error `pick` chooses by its code and data (the
    structured fields), and ask for its quick fixes."""
    diagnostics = (await edit(client, doc_uri, wrong)).diagnostics
    mistake = next(d for d in errors(diagnostics) if pick(d.code, d.data or {}))
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=document(doc_uri), range=mistake.range, context=lsp.CodeActionContext(diagnostics=[mistake])))
    return mistake, actions


async def test_quick_fix_wraps_a_bare_literal_and_the_error_goes_away(client, paths):
    main = uri(paths["main"])
    wrong = MAIN + "\n「限」乃「无三二」也。\n「限」者「八」也。\n"
    try:
        mistake, actions = await quick_fixes_for(client, main, wrong,
                                                  lambda code, data: code == "wrap-literal" and data["构造"] == "新无三二")
        assert text_at(wrong, mistake.range) == "「八」"
        (change,) = next(a for a in actions if "新无三二" in a.title).edit.changes[main]
        assert change.new_text == "（「新无三二」于「八」）"
        lines = wrong.split("\n")
        line = lines[change.range.start.line]
        lines[change.range.start.line] = (line[:change.range.start.character] + change.new_text
                                          + line[change.range.end.character:])
        assert errors((await edit(client, main, "\n".join(lines))).diagnostics) == []
    finally:
        await edit(client, main, MAIN)


async def test_quick_fix_uses_the_checkers_guess_for_a_misspelt_name(client, paths):
    main = uri(paths["main"])
    wrong = MAIN.replace("「写数组」于「数据」", "「写数组」于「数剧」")
    try:
        mistake, actions = await quick_fixes_for(client, main, wrong,
                                                  lambda code, data: code == "unknown-name" and data["名字"] == "数剧")
        assert text_at(wrong, mistake.range) == "「数剧」"
        assert [a.edit.changes[main][0].new_text for a in actions] == ["「数据」"]
    finally:
        await edit(client, main, MAIN)


async def test_quick_fix_for_a_misspelt_name_prefers_the_users_names_to_builtins(client, paths):
    """「加部」 is one edit from the builtin 「加」 and from the user's 「加步」/「加倍」: the user's
    names come first, this module's before an import's (the checker's own guess is 「加」)."""
    side, main = uri(paths["side"]), uri(paths["main"])
    side_text = paths["side"].read_text(encoding="utf-8")
    try:
        wrong = side_text.replace("「加步」于", "「加部」于")
        mistake, actions = await quick_fixes_for(client, side, wrong,
                                                  lambda code, data: code == "unknown-name" and data["名字"] == "加部")
        assert [a.edit.changes[side][0].new_text for a in actions] == ["「加步」"]
    finally:
        await edit(client, side, side_text)
    wrong = (MAIN.replace("「加步」于（", "「加部」于（")
             + "\n「负一」乃「无三二」也。\n「负一」者「新无三二」于「一」也。\n"
             + "「用」乃「无三二」也。\n「用」者「负二」加「负一」也。\n")
    try:
        for unknown, meant in (("加部", "「加倍」"), ("负二", "「负一」")):
            mistake, actions = await quick_fixes_for(
                client, main, wrong, lambda code, data: code == "unknown-name" and data["名字"] == unknown)
            assert [a.edit.changes[main][0].new_text for a in actions] == [meant]
    finally:
        await edit(client, main, MAIN)


async def test_quick_fix_makes_a_read_only_buffer_writable(client, paths):
    main = uri(paths["main"])
    wrong = MAIN.replace("「访问」者「读写」也", "「访问」者「只读」也")
    try:
        _, actions = await quick_fixes_for(client, main, wrong,
                                           lambda code, data: code == "read-only" and data["缓冲"] == "数据")
        (change,) = next(a for a in actions if "读写" in a.title).edit.changes[main]
        assert text_at(wrong, change.range) == "「只读」" and change.new_text == "「读写」"
        assert change.range.start.line == line_of(MAIN, "「数据」者")
    finally:
        await edit(client, main, MAIN)


# ---------------------------------------------------------------- files changed on disk


async def test_a_module_changed_on_disk_reaches_its_open_importer(client, root):
    helper, user = root / "应用/辅。着色器。豫", root / "应用/用辅。着色器。豫"
    helper.write_text("寻观「点染」之「点染本」之书。\n「倍」乃「无三二」也。\n「倍」者「新无三二」于「二」也。\n",
                      encoding="utf-8")
    user.write_text("寻观「点染」之「点染本」之书。\n寻观「应用」之「辅」之书。\n"
                    "「平方」乃「无三二」也。\n「平方」者「倍」乘「倍」也。\n", encoding="utf-8")
    since = len(client.published)
    doc_uri = open_document(client, user)
    assert errors((await published(client, doc_uri, 1, since)).diagnostics) == []
    helper.write_text(helper.read_text(encoding="utf-8").replace("「无三二」", "「整三二」").replace(
        "「新无三二」", "「新整三二」"), encoding="utf-8")
    since = len(client.published)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
        changes=[lsp.FileEvent(uri=uri(helper), type=lsp.FileChangeType.Changed)]))
    # the translation started on open may still publish the old result first:
    # wait for the publication that reflects the change on disk
    after = await published(client, doc_uri, 1, since, where=lambda p: errors(p.diagnostics))
    assert any("「整三二」" in d.message for d in errors(after.diagnostics))


# ---------------------------------------------------------------- preview


async def preview(client, doc_uri: str, target: str):
    return await client.protocol.send_request_async("着色/预览", {"uri": doc_uri, "target": target})


async def test_preview_of_wgsl_gives_the_text_and_the_entry_table(client, paths):
    result = await preview(client, uri(paths["main"]), "wgsl")
    assert "@compute @workgroup_size(64)" in result.text and "fn 加倍(" in result.text
    assert "fn 加步(" in result.text   # the imported module comes first
    assert [tuple(e) for e in result.entries] == [("加倍入口", "加倍", "计算")]
    assert result.errors == []


async def test_preview_of_msl_and_ptx_gives_their_text_and_entry_names(client, paths):
    msl = await preview(client, uri(paths["main"]), "msl")
    assert "kernel void 加倍(" in msl.text
    assert [tuple(e) for e in msl.entries] == [("加倍入口", "加倍", "计算")]
    ptx = await preview(client, uri(paths["main"]), "ptx")
    # seed 着二: PTX entry names are the UTF-8 bytes of the name, in hex, after yy
    ascii_name = "yy_" + "_".join(f"{b:02x}" for b in "加倍".encode())
    assert f".entry {ascii_name}(" in ptx.text
    assert [tuple(e) for e in ptx.entries] == [("加倍入口", ascii_name, "计算")]


async def test_preview_of_a_file_with_errors_gives_the_errors(client, paths):
    main = uri(paths["main"])
    await edit(client, main, MAIN.replace("「子」中「速度」也", "「子」中「重量」也"))
    try:
        result = await preview(client, main, "wgsl")
        assert result.text is None
        (error,) = result.errors
        assert "重量" in error.message and error.range.start.line == line_of(MAIN, "「取速」者")
    finally:
        await edit(client, main, MAIN)


async def test_preview_of_an_unknown_target_is_a_clear_error(client, paths):
    with pytest.raises(Exception, match="未知的目标「glsl」"):
        await preview(client, uri(paths["main"]), "glsl")


# ---------------------------------------------------------------- incrementality, seen through the server


async def test_a_body_edit_rechecks_one_module_and_one_item(client, paths):
    main = uri(paths["main"])
    before = await counters(client)
    await edit(client, main, MAIN.replace("（「新无三二」于「二」）", "（「新无三二」于「三」）"))
    after = await counters(client)
    await edit(client, main, MAIN)
    assert after["module_checks"] - before["module_checks"] == 1
    assert after["item_checks"] - before["item_checks"] == 1
    assert after["item_parses"] - before["item_parses"] == 1


async def test_an_interface_edit_rechecks_exactly_its_dependents(client, paths):
    geometry = uri(paths["geometry"])
    before = await counters(client)
    since = len(client.published)
    await edit(client, geometry, GEOMETRY.replace("「加步」乃化「无三二」为「无三二」者也。",
                                                  "「加步」乃化「无三二」为「无三二」者也。\n「新」乃「无三二」也。\n"
                                                  "「新」者「新无三二」于「一」也。"))
    await published(client, uri(paths["main"]), None, since)
    await published(client, uri(paths["side"]), None, since)
    after = await counters(client)
    # 几何 itself, then 主 and 旁 which import it; 独立 (also open) is not re-checked
    assert after["module_checks"] - before["module_checks"] == 3
    assert not [p for p in client.published[since:] if p.uri == uri(paths["alone"])]
    await edit(client, geometry, GEOMETRY)


# ---------------------------------------------------------------- formatting


async def test_formatting_requests_answer_with_edits_to_the_canonical_layout(client, paths):
    alone = uri(paths["alone"])
    messy = ALONE.replace("也。\n「常」者", "也 。\n\n\n\n「常」者")
    expected = ALONE.replace("也。\n「常」者", "也。\n\n「常」者")   # one blank line at most; 。 glued
    await edit(client, alone, messy)
    assert client.server_info.capabilities.document_formatting_provider
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=document(alone), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits
    lines = messy.split("\n")
    for e in sorted(edits, key=lambda e: e.range.start.line, reverse=True):
        head = "\n".join(lines[:e.range.start.line] + [lines[e.range.start.line][:e.range.start.character]])
        tail = "\n".join([lines[e.range.end.line][e.range.end.character:]] + lines[e.range.end.line + 1:])
        lines = (head + e.new_text + tail).split("\n")
    assert "\n".join(lines) == expected
    ranged = await client.text_document_range_formatting_async(lsp.DocumentRangeFormattingParams(
        text_document=document(alone), range=lsp.Range(start=lsp.Position(line=0, character=0),
                                                       end=lsp.Position(line=1, character=0)),
        options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert not ranged     # the first lines are already canonical
    await edit(client, alone, ALONE)


# ---------------------------------------------------------------- importing WGSL (着色/导入)


async def test_import_request_answers_the_imported_text_and_the_refusals(client, paths):
    wgsl = ("var<private> seed: u32;\n"
            "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
            "@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
            "  data[id.x] = data[id.x] + 1u;\n}\n")
    strict = await client.protocol.send_request_async("着色/导入", {"uri": "file:///tmp/甲.wgsl", "text": wgsl})
    assert strict.text is None
    assert [(p.range.start.line, p.range.start.character, p.message) for p in strict.problems] == [
        (0, 0, "导入：不支持 var<private>（着色没有模块级的可变变量）")]
    best = await client.protocol.send_request_async("着色/导入", {"uri": "file:///tmp/甲.wgsl", "text": wgsl, "尽量": True})
    assert best.text.startswith("寻观「点染」之「点染本」之书。") and "「写数组」于「data」" in best.text
    assert len(best.problems) == 1
