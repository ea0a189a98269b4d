"""The language server over a workspace made of copies of the samples
(compute, render 三角形/纹理/实例化, 子组归约, 子组矩阵片, 结构与记录, 类型别名, 头部与数组 and the
two packages 包甲/包乙), plus two files written here: 「星」 (names with astral
characters, nested multi-line comments) and 包甲/用射线 (a struct of 包乙 used
after 中 from another package).

Every expectation is written from the source text and LANGUAGE.md, never
copied from the server.  Positions are LSP positions (UTF-16); needles are
searched after each sample's leading comment (the comments mention builtin
names).  One module-scoped server session serves every test.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.uris import to_fs_path
from pytest_lsp import LanguageClient

from support.lsp import SERVER, document, open_document, published, replace_document, start, uri
from zhuose.compiler.packages import builtin_interface_path

pytestmark = pytest.mark.asyncio(loop_scope="module")

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SINGLE = ["三角形", "纹理", "实例化", "子组归约", "子组矩阵片", "结构与记录", "类型别名", "头部与数组"]

STAR = """「：𠀀注「：嵌套
　两行：」
尾：」寻观「点染」之「点染本」之书。「：行尾「：套：」注：」

「𠀀值」乃「无三二」也。
「𠀀值」者「新无三二」于「七」也。

「𠀁函」乃化「无三二」又化「无三二」为「无三二」者也。
「𠀁函」者得「𠀂」又得「乙」而令「𠀃」为「𠀂」加「乙」而「𠀃」加「𠀀值」也。「：注：」
「用二」乃化「无三二」为「无三二」者也。
「用二」者得「n」而「𠀁函」于「n」于（「新无三二」于「四」）也。
"""

RAY_USER = """寻观「点染」之「点染本」之书。
寻观「包乙」之「数学」之「向量」之书。
寻观「包乙」之「类型」之书。

「起」乃化「射线」为「点三」者也。
「起」者得「线」而「线」中「起点」也。
"""

MAIN = "包甲/主。着色器。豫"
VECTOR = "包乙/数学/向量。着色器。豫"
TYPES = "包乙/类型。着色器。接口。豫"
CONSTS = "包甲/内层/常数。着色器。豫"
TOOLS = "包甲/工具。着色器。豫"
RAY = "包甲/用射线。着色器。豫"
STARF = "星。着色器。豫"
BUILTIN = "<builtin>"


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    r = tmp_path_factory.mktemp("qa_ws")
    for name in SINGLE:
        shutil.copy(SAMPLES / f"{name}。着色器。豫", r / f"{name}。着色器。豫")
    shutil.copytree(SAMPLES / "包甲", r / "包甲")
    shutil.copytree(SAMPLES / "包乙", r / "包乙")
    (r / STARF).write_text(STAR, encoding="utf-8")
    (r / RAY).write_text(RAY_USER, encoding="utf-8")
    return r.resolve()


def shader_files(root: Path) -> list[str]:
    """Every shader source of the workspace (the interface file is tested on its own)."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*。着色器。豫") if "接口" not in p.name)


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, root: Path):
    await start(lsp_client, root, **{"naga校验": False})
    for rel in shader_files(root):
        await published(lsp_client, open_document(lsp_client, root / rel), 1)
    yield
    await lsp_client.shutdown_session()


# ---------------------------------------------------------------- helpers


def text_of(root: Path, rel: str) -> str:
    if rel == BUILTIN:
        return builtin_interface_path().read_text(encoding="utf-8")
    return (root / rel).read_text(encoding="utf-8")


def body_start(text: str) -> int:
    """Where the code starts: after a sample's leading comment (its first import)."""
    at = text.find("寻观「点染」")
    return max(at, 0)


def u16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def pos(text: str, needle: str, delta: int = 1, occurrence: int = 0) -> lsp.Position:
    """The LSP (UTF-16) position `delta` characters into the `occurrence`-th
    `needle` after the leading comment."""
    at = body_start(text) - 1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    at += delta
    line = text.count("\n", 0, at)
    line_start = text.rfind("\n", 0, at) + 1
    return lsp.Position(line=line, character=u16(text[line_start:at]))


def at_u16(text: str, rng: lsp.Range) -> str:
    """The text of a single-line range whose columns count UTF-16 units."""
    assert rng.start.line == rng.end.line
    line = text.split("\n")[rng.start.line].encode("utf-16-le")
    return line[2 * rng.start.character:2 * rng.end.character].decode("utf-16-le")


def line_of(text: str, needle: str) -> int:
    return text[:body_start(text) + text[body_start(text):].index(needle)].count("\n")


def rel_of(root: Path, doc_uri: str) -> str:
    path = Path(to_fs_path(doc_uri)).resolve()
    if path == builtin_interface_path().resolve():
        return BUILTIN
    return str(path.relative_to(root))


def errors(diagnostics) -> list[lsp.Diagnostic]:
    return [d for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error]


class Versions:
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


async def hover(client, root, rel, needle, delta=1, occurrence=0) -> lsp.Hover | None:
    text = text_of(root, rel)
    return await client.text_document_hover_async(lsp.HoverParams(
        text_document=document(uri(root / rel)), position=pos(text, needle, delta, occurrence)))


async def definition(client, root, rel, needle, delta=1, occurrence=0) -> list[lsp.Location]:
    text = text_of(root, rel)
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=document(uri(root / rel)), position=pos(text, needle, delta, occurrence)))
    return found or []


# ---------------------------------------------------------------- diagnostics on open


async def test_every_copied_sample_opens_without_errors(client, root):
    for rel in shader_files(root):
        first = await published(client, uri(root / rel), 1)
        assert errors(first.diagnostics) == [], (rel, [d.message for d in first.diagnostics])


async def test_opening_an_interface_file_publishes_no_error(client, root):
    since = len(client.published)
    doc_uri = open_document(client, root / TYPES)
    first = await published(client, doc_uri, 1, since)
    assert errors(first.diagnostics) == []
    # the translation started on open publishes again: it must not bring an error
    try:
        wrong = await published(client, doc_uri, None, since, timeout=3.0, where=lambda p: errors(p.diagnostics))
    except AssertionError:
        return   # nothing with an error within 3 s
    raise AssertionError([d.message for d in wrong.diagnostics])


# ---------------------------------------------------------------- hover, every kind of name

HOVERS = [
    # (file, needle, delta, substrings the hover must contain)
    (MAIN, "「序」为", 1, ["「序」乃「下标」", "局部名字"]),                      # 令, alias from 包乙 kept
    (MAIN, "「号」中", 1, ["「号」乃「全局调用号」", "参数"]),                     # parameter, builtin alias kept
    (MAIN, "「前三」于", 1, ["「前三」乃化「点四」而「点三」", "函数"]),            # top-level function
    (MAIN, "「t」为", 1, ["「t」乃「浮三二」"]),
    ("三角形。着色器。豫", "「半」否则", 1, ["「半」乃「浮三二」", "常量"]),          # constant
    (MAIN, "「步长」乘", 1, ["「步长」乃「浮三二」", "内层/常数"]),               # imported constant without 乃
    (MAIN, "「常数」之「缩放」", 5, ["「缩放」乃「浮三二」", "内层/常数"]),         # qualified
    (MAIN, "「常数」之「缩放」", 1, ["「包甲」之「内层」之「常数」"]),             # the module of a qualified name
    (MAIN, "「向量」之「沿射线」", 5, ["「沿射线」乃化「射线」又化「浮三二」为「点三」者", "数学/向量"]),
    (MAIN, "「向量」之「原点」", 5, ["「原点」乃「点三」", "常量"]),
    (MAIN, "「钳位」于", 1, ["「钳位」乃化「浮三二」而「浮三二」", "工具"]),        # opened import
    (MAIN, "「在界内」于", 1, ["「在界内」乃化「无三二」又化「无三二」为「爻」者"]),
    (MAIN, "「射线」）", 1, ["「射线」即「组类」【「起点」乃「点三」也，「方向」乃「点三」也】", "结构"]),
    (MAIN, "「结果」于", 1, ["「结果」乃「存储缓冲」于「浮数组」", "资源"]),
    (MAIN, "「主入口」乃", 1, ["「主入口」乃「计算入口」", "入口项"]),
    ("结构与记录。着色器。豫", "「重力」）", 1, ["「重力」乃「浮三二」", "结构「步进参数」的字段"]),   # field after 中
    ("三角形。着色器。豫", "「符号」小于", 1, ["「符号」乃「整三二」", "结构「片元入」的字段"]),
    ("纹理。着色器。豫", "「片元」中「零」", 1, ["「片元」乃「片元坐标」", "结构「全屏入」的字段"]),
    ("结构与记录。着色器。豫", "「速度」者「速」中", 1, ["「速度」乃「二维浮」", "结构「粒子」的字段"]),  # field in 组值
    ("头部与数组。着色器。豫", "「步长」）而", 1, ["「步长」乃「浮三二」", "结构「粒子群类」的字段"]),  # 「缓冲」中「字段」
    (RAY, "「起点」也", 1, ["「起点」乃「点三」", "结构「射线」的字段"]),             # field of another package's struct
    (VECTOR, "「起点」乃", 1, ["「起点」乃「点三」", "结构「射线」的字段"]),
    # types in signatures: aliases shown as written
    (MAIN, "「点四」为", 1, ["「点四」即「四维浮」", "类型别名"]),
    (MAIN, "「点三」者", 1, ["「点三」即「三维浮」", "三维点"]),                   # the interface file's doc comment
    (MAIN, "「浮数组」也", 1, ["「浮数组」即「数组」于「浮三二」"]),
    ("类型别名。着色器。豫", "「颜色缓冲」也", 1, ["「颜色缓冲」即「存储缓冲」于「颜色数组」"]),
    ("类型别名。着色器。豫", "「c」中", 1, ["「c」乃「颜色」"]),
    (MAIN, "「全局调用号」为", 1, ["「全局调用号」即「三维无」", "global\\_invocation\\_id"]),
    ("子组矩阵片。着色器。豫", "「累」）", 1, ["「累」乃「子组矩阵片累」"]),
    ("子组归约。着色器。豫", "「一步」于「x」", 1, ["「一步」乃化「浮三二」又化「无三二」为「浮三二」者", "局部函数"]),
    # numeric literals
    (MAIN, "「一〇〇」", 1, ["「整数」", "表达式的类型"]),
    ("三角形。着色器。豫", "「0.5」", 1, ["「小数」"]),
    ("结构与记录。着色器。豫", "「零点五」", 1, ["「小数」"]),
    # keywords: the sub-expression's type
    ("实例化。着色器。豫", "中「三」乘", 0, ["「四维浮」", "表达式的类型"]),
    # builtins: type, the type here, documentation, the three spellings
    ("子组归约。着色器。豫", "「子组求和」", 1, [
        "「子组求和」乃凡「甲：子组值」而化「甲」而「甲」", "化「浮三二」而「浮三二」", "subgroupAdd",
        "| WGSL | `subgroupAdd(…)` |", "| MSL | `simd_sum(甲)` |",
        "| PTX | `整数 redux.sync.add.u32 / .s32；浮点 shfl.sync.bfly.b32"]),
    ("纹理。着色器。豫", "「采样纹理」于", 1, [
        "「采样纹理」乃凡「纹：可采样纹理」而化「纹」又化「采样器」又化（「采样坐标」于「纹」）为「纹素」于「纹」者",
        "| WGSL | `textureSample(…)` |", "| MSL | `甲.sample(乙, 丙)` |", "| PTX | （此目标没有） |"]),
    ("子组矩阵片。着色器。豫", "「矩阵片乘加」", 1, [
        "| WGSL | （此目标没有） |", "| PTX | `mma.sync.aligned.m16n8k16"]),
    ("实例化。着色器。豫", "「取元素」于", 1, ["「取元素」乃凡「组：可索引」而化「组」又化「无三二」为「元素」于「组」者",
                                          "化「三阶浮」又化「无三二」为「元素」于「三阶浮」者"]),
    ("三角形。着色器。豫", "负「半」", 0, ["「负」乃凡「甲：有符号」而化「甲」而「甲」", "| WGSL | `-甲` |"]),
    # declaration words
    (MAIN, "「绑定」", 1, ["「绑定」乃凡「甲」而化「绑定项」而「存储缓冲」于「甲」",
                          "| WGSL | `@group(G) @binding(B) var<storage, read\\|read_write> 名: T;` |"]),
    ("子组矩阵片。着色器。豫", "「工作组共享」", 1, ["「工作组共享」乃凡「甲」而化「有」而「工作组变量」于「甲」",
                                           "| WGSL | `var<workgroup> 名: T;` |"]),
    (MAIN, "「计算入口项」", 1, ["「计算入口项」乃凡「甲」而凡「乙：计算选项」而化（化「甲」而「有」）又化「乙」为「计算入口」者",
                              "| WGSL | `@compute @workgroup_size(X[, Y[, Z]]) fn 函数(…)` |"]),
    ("三角形。着色器。豫", "「顶点入口项」", 1, ["| WGSL | `@vertex fn 函数(…) -> …` |"]),
    (MAIN, "「只读」", 1, ["「只读」乃「访问方式」"]),
    (STARF, "「𠀀值」也。「", 1, ["「𠀀值」乃「无三二」", "常量"]),
    (STARF, "「𠀃」加", 1, ["「𠀃」乃「无三二」", "局部名字"]),
]


@pytest.mark.parametrize("rel, needle, delta, wanted", HOVERS, ids=[f"{h[0][:6]}-{h[1]}" for h in HOVERS])
async def test_hover(client, root, rel, needle, delta, wanted):
    found = await hover(client, root, rel, needle, delta)
    assert found is not None, needle
    for piece in wanted:
        assert piece in found.contents.value, (piece, found.contents.value)


async def test_hover_range_counts_utf16_units(client, root):
    found = await hover(client, root, STARF, "「𠀁函」于")
    assert at_u16(STAR, found.range) == "「𠀁函」"
    assert found.range.start == pos(STAR, "「𠀁函」于", 0)


HOVERS_IN_RESOURCES = [
    # 「点」者「绑定」于（「组值」【「组」者「零」也，…】）也。 — a literal, a record, a field
    (MAIN, "「组」者「零」也，「号」者「零」也，「访问」者「只读」", len("「组」者「"), "「整数」"),
    (MAIN, "「组值」【「组」者「零」也，「号」者「零」也，「访问」", 1, "「绑定项」"),
    (MAIN, "「组」者「零」也，「号」者「零」也，「访问」者「只读」", 1, "「组」乃「整数」"),
    # 「主入口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「六四」也】）也。
    (MAIN, "「工作组大小」", 1, "「工作组大小」乃「整数」"),
    (MAIN, "「六四」", 1, "「整数」"),
]


@pytest.mark.parametrize("rel, needle, delta, wanted", HOVERS_IN_RESOURCES,
                         ids=[h[1][:8] + str(h[2]) for h in HOVERS_IN_RESOURCES])
async def test_hover_inside_resource_and_entry_definitions(client, root, rel, needle, delta, wanted):
    found = await hover(client, root, rel, needle, delta)
    assert found is not None and wanted in found.contents.value


@pytest.mark.parametrize("rel, needle, wanted", [
    ("三角形。着色器。豫", "「四维浮」也", "「四维浮」即「浮三二」与「浮三二」与「浮三二」与「浮三二」"),
    ("纹理。着色器。豫", "以「二维整」", "「二维整」即「整三二」与「整三二」"),
])
async def test_hover_on_a_builtin_vector_alias_shows_what_it_stands_for(client, root, rel, needle, wanted):
    found = await hover(client, root, rel, needle, 1 + needle.index("「"))
    assert wanted in found.contents.value, found.contents.value


# ---------------------------------------------------------------- go to definition

DEFINITIONS = [
    # (file, needle, delta, target file, needle on the target line, name the range covers)
    (MAIN, "「序」于（", 1, MAIN, "令「序」为", "「序」"),                          # 令
    (MAIN, "「号」中", 1, MAIN, "得「号」而", "「号」"),                            # parameter
    (MAIN, "「前三」于", 1, MAIN, "「前三」者", "「前三」"),                          # top-level function
    (MAIN, "「点」于「序」", 1, MAIN, "「点」者", "「点」"),                          # resource
    (MAIN, "「点四」为", 1, MAIN, "「点四」即", "「点四」"),                          # alias in a signature
    (MAIN, "「点三」者", 1, TYPES, "「点三」即", "「点三」"),                         # alias from an interface file
    (MAIN, "「下标」）", 1, TYPES, "「下标」即", "「下标」"),
    (MAIN, "「钳位」于", 1, TOOLS, "「钳位」者", "「钳位」"),                         # opened import
    (MAIN, "「步长」乘", 1, CONSTS, "「步长」者", "「步长」"),                        # constant without 乃
    (MAIN, "「常数」之「缩放」", 5, CONSTS, "「缩放」者", "「缩放」"),                 # qualified
    (MAIN, "「向量」之「沿射线」", 5, VECTOR, "「沿射线」者", "「沿射线」"),
    (MAIN, "「射线」）", 1, VECTOR, "「射线」即", "「射线」"),                        # struct of another package
    (RAY, "「起点」也", 1, VECTOR, "「射线」即", "「起点」"),                         # field after 中, across packages
    ("结构与记录。着色器。豫", "「重力」）", 1, "结构与记录。着色器。豫", "「步进参数」即", "「重力」"),
    ("结构与记录。着色器。豫", "「速度」者「速」中", 1, "结构与记录。着色器。豫", "「粒子」即", "「速度」"),
    ("头部与数组。着色器。豫", "「步长」）而", 1, "头部与数组。着色器。豫", "「粒子群类」即", "「步长」"),
    ("子组归约。着色器。豫", "「一步」于「x」", 1, "子组归约。着色器。豫", "令「一步」为", "「一步」"),
    (MAIN, "「读数组」", 1, BUILTIN, "「读数组」乃", "「读数组」"),                   # builtins
    ("纹理。着色器。豫", "「采样纹理」于", 1, BUILTIN, "「采样纹理」乃", "「采样纹理」"),
    (MAIN, "「绑定」", 1, BUILTIN, "「绑定」乃", "「绑定」"),
    (MAIN, "「全局调用号」为", 1, BUILTIN, "「全局调用号」即", "「全局调用号」"),
    (MAIN, "「存储缓冲」于（", 1, BUILTIN, "「存储缓冲」", "「存储缓冲」"),
    (STARF, "「𠀀值」也。「", 1, STARF, "「𠀀值」者", "「𠀀值」"),                    # astral names
    (STARF, "「𠀃」加", 1, STARF, "令「𠀃」为", "「𠀃」"),
]


@pytest.mark.parametrize("rel, needle, delta, target, target_line, name", DEFINITIONS,
                         ids=[f"{d[0][:6]}-{d[1]}" for d in DEFINITIONS])
async def test_definition(client, root, rel, needle, delta, target, target_line, name):
    found = await definition(client, root, rel, needle, delta)
    assert found, needle
    loc = found[0]
    assert rel_of(root, loc.uri) == target
    target_text = text_of(root, target)
    if target == BUILTIN:
        assert loc.range.start.line == target_text[:target_text.index(target_line)].count("\n")
    else:
        assert loc.range.start.line == line_of(target_text, target_line)
    assert at_u16(target_text, loc.range) == name


async def test_definition_of_module_and_package_names(client, root):
    (loc,) = await definition(client, root, MAIN, "「常数」之「缩放」", 1)
    assert rel_of(root, loc.uri) == CONSTS
    (loc,) = await definition(client, root, MAIN, "「类型」之书", 1)
    assert rel_of(root, loc.uri) == TYPES
    (loc,) = await definition(client, root, MAIN, "「包乙」之「类型」", 1)
    assert rel_of(root, loc.uri) == "包乙/包.json"


async def test_definition_of_a_field_in_a_record_that_becomes_a_struct(client, root):
    # 包甲/主: 令「r」为「组值」【「起点」者 … 也，「方向」者 … 也】 … （「r」也「射线」）
    found = await definition(client, root, MAIN, "「起点」者", 1)
    assert found and rel_of(root, found[0].uri) == VECTOR
    shown = await hover(client, root, MAIN, "「起点」者", 1)
    assert "「起点」乃「点三」" in shown.contents.value


# ---------------------------------------------------------------- references and rename across packages


async def references(client, root, rel, needle, delta=1, declaration=True):
    found = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=document(uri(root / rel)), position=pos(text_of(root, rel), needle, delta),
        context=lsp.ReferenceContext(include_declaration=declaration)))
    return sorted((rel_of(root, loc.uri), loc.range.start.line, at_u16(text_of(root, rel_of(root, loc.uri)), loc.range))
                  for loc in found)


async def test_references_of_a_field_reach_another_package(client, root):
    vector, ray = text_of(root, VECTOR), text_of(root, RAY)
    found = await references(client, root, VECTOR, "「起点」乃")
    assert (VECTOR, line_of(vector, "「射线」即"), "「起点」") in found          # the declaration
    assert (VECTOR, line_of(vector, "「r」中「起点」"), "「起点」") in found     # 「r」中「起点」
    assert (RAY, line_of(ray, "「线」中「起点」"), "「起点」") in found          # 包甲/用射线
    assert all(name == "「起点」" for _, _, name in found)


async def test_rename_of_a_function_used_across_packages(client, root):
    changes = (await client.text_document_rename_async(lsp.RenameParams(
        text_document=document(uri(root / MAIN)), position=pos(text_of(root, MAIN), "「沿射线」于", 1),
        new_name="沿线"))).changes
    by_file = {rel_of(root, k): sorted(e.range.start.line for e in v) for k, v in changes.items()}
    vector, main = text_of(root, VECTOR), text_of(root, MAIN)
    assert by_file == {VECTOR: [line_of(vector, "「沿射线」乃"), line_of(vector, "「沿射线」者")],
                       MAIN: [line_of(main, "「沿射线」于")]}
    for k, v in changes.items():
        for e in v:
            assert at_u16(text_of(root, rel_of(root, k)), e.range) == "「沿射线」" and e.new_text == "「沿线」"


async def test_rename_of_a_field_edits_its_uses_in_other_packages(client, root):
    changes = (await client.text_document_rename_async(lsp.RenameParams(
        text_document=document(uri(root / VECTOR)), position=pos(text_of(root, VECTOR), "「起点」乃", 1),
        new_name="始点"))).changes
    files = {rel_of(root, k) for k in changes}
    assert {VECTOR, RAY} <= files


async def test_rename_of_a_field_keeps_the_program_checking(client, root):
    changes = (await client.text_document_rename_async(lsp.RenameParams(
        text_document=document(uri(root / VECTOR)), position=pos(text_of(root, VECTOR), "「起点」乃", 1),
        new_name="始点"))).changes
    main = text_of(root, MAIN)
    assert line_of(main, "「组值」【「起点」者") in [e.range.start.line for e in changes.get(uri(root / MAIN), [])]


async def test_rename_of_an_astral_name_edits_utf16_spans(client, root):
    changes = (await client.text_document_rename_async(lsp.RenameParams(
        text_document=document(uri(root / STARF)), position=pos(STAR, "「𠀀值」乃", 1), new_name="值"))).changes
    edits = changes[uri(root / STARF)]
    assert sorted((e.range.start.line, e.range.start.character) for e in edits) == sorted(
        (p.line, p.character) for p in (pos(STAR, "「𠀀值」乃", 0), pos(STAR, "「𠀀值」者", 0), pos(STAR, "「𠀀值」也。「", 0)))
    assert all(at_u16(STAR, e.range) == "「𠀀值」" for e in edits)


# ---------------------------------------------------------------- semantic tokens


def decode(client, text: str, data: list[int]) -> list[tuple[int, str, str, set]]:
    """(line, token text, type, modifiers), the text cut by UTF-16 columns."""
    legend = client.server_info.capabilities.semantic_tokens_provider.legend
    lines = text.split("\n")
    out, line, col = [], 0, 0
    for i in range(0, len(data), 5):
        dl, dc, length, kind, mods = data[i:i + 5]
        line, col = line + dl, (col + dc if dl == 0 else dc)
        piece = lines[line].encode("utf-16-le")[2 * col:2 * (col + length)].decode("utf-16-le")
        out.append((line, piece, legend.token_types[kind],
                    {m for b, m in enumerate(legend.token_modifiers) if mods >> b & 1}))
    return out


async def test_semantic_tokens_with_nested_comments_and_astral_names(client, root):
    result = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=document(uri(root / STARF))))
    tokens = decode(client, STAR, result.data)
    kinds = [(line, piece, kind) for line, piece, kind, _ in tokens]
    K, T, F, N = "keyword", "type", "function", "number"
    assert kinds[:9] == [
        (0, "「：𠀀注「：嵌套", "comment"), (1, "　两行：」", "comment"), (2, "尾：」", "comment"),
        (2, "寻观", K), (2, "「点染」", "namespace"), (2, "之", K), (2, "「点染本」", "namespace"), (2, "之书", K),
        (2, "「：行尾「：套：」注：」", "comment")]
    assert [(p, k) for line, p, k in kinds if line == 8] == [
        ("「𠀁函」", F), ("者", K), ("得", K), ("「𠀂」", "parameter"), ("又得", K), ("「乙」", "parameter"),
        ("而", K), ("令", K), ("「𠀃」", "variable"), ("为", K), ("「𠀂」", "parameter"), ("加", "operator"),
        ("「乙」", "parameter"), ("而", K), ("「𠀃」", "variable"), ("加", "operator"), ("「𠀀值」", "variable"),
        ("也", K), ("「：注：」", "comment")]
    assert [(p, k) for line, p, k in kinds if line == 10] == [
        ("「用二」", F), ("者", K), ("得", K), ("「n」", "parameter"), ("而", K), ("「𠀁函」", F), ("于", K),
        ("「n」", "parameter"), ("于", K), ("「新无三二」", F), ("于", K), ("「四」", N), ("也", K)]
    mods = {(line, piece): m for line, piece, _, m in tokens}
    assert mods[(4, "「𠀀值」")] == {"declaration", "readonly"}
    assert mods[(8, "「𠀀值」")] == {"readonly"}
    assert mods[(8, "「𠀃」")] == set() and mods[(7, "「𠀁函」")] == {"declaration"}
    assert mods[(7, "「无三二」")] == {"defaultLibrary"} and mods[(2, "「点染本」")] == {"defaultLibrary"}


async def test_semantic_tokens_of_the_package_sample(client, root):
    main = text_of(root, MAIN)
    result = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=document(uri(root / MAIN))))
    tokens = decode(client, main, result.data)
    by_line: dict[int, list[tuple[str, str]]] = {}
    for line, piece, kind, _ in tokens:
        by_line.setdefault(line, []).append((piece, kind))
    # the leading comment: one comment token per line, five lines
    assert [by_line[i] for i in range(5)] == [[(main.split("\n")[i], "comment")] for i in range(5)]
    assert by_line[line_of(main, "令「序」")] == [
        ("令", "keyword"), ("「序」", "variable"), ("为", "keyword"), ("「号」", "parameter"), ("中", "keyword"),
        ("「零」", "number"), ("也", "keyword"), ("「下标」", "type"), ("而", "keyword")]
    assert by_line[line_of(main, "令「t」")] == [
        ("令", "keyword"), ("「t」", "variable"), ("为", "keyword"), ("「常数」", "namespace"), ("之", "keyword"),
        ("「缩放」", "variable"), ("乘", "operator"), ("「常数」", "namespace"), ("之", "keyword"),
        ("「步长」", "variable"), ("乘", "operator"), ("「新浮三二」", "function"), ("于", "keyword"),
        ("「序」", "variable"), ("而", "keyword")]
    assert by_line[line_of(main, "令「q」")] == [
        ("令", "keyword"), ("「q」", "variable"), ("为", "keyword"), ("「向量」", "namespace"), ("之", "keyword"),
        ("「沿射线」", "function"), ("于", "keyword"), ("「r」", "variable"), ("也", "keyword"),
        ("「射线」", "struct"), ("于", "keyword"), ("「t」", "variable"), ("而", "keyword")]
    assert by_line[line_of(main, "寻「包乙」之「数学」")] == [
        ("寻", "keyword"), ("「包乙」", "namespace"), ("之", "keyword"), ("「数学」", "namespace"), ("之", "keyword"),
        ("「向量」", "namespace"), ("之书", "keyword")]


# ---------------------------------------------------------------- outline and hints


async def test_document_symbols(client, root):
    found = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=document(uri(root / MAIN))))
    assert [s.name for s in found] == [
        "寻观「点染」之「点染本」", "寻观「包甲」之「工具」", "寻「包甲」之「内层」之「常数」", "寻「包乙」之「数学」之「向量」",
        "观「包乙」之「数学」之「向量」", "寻观「包乙」之「类型」", "「点」", "「结果」", "「点四」", "「前三」", "「主」", "「主入口」"]
    kinds = {s.name: s.kind for s in found}
    assert kinds["「前三」"] == kinds["「主」"] == lsp.SymbolKind.Function
    assert kinds["「点」"] == lsp.SymbolKind.Variable
    texture = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=document(uri(root / "纹理。着色器。豫"))))
    struct = next(s for s in texture if s.name == "「全屏入」")
    assert struct.kind == lsp.SymbolKind.Struct and [c.name for c in struct.children] == ["「片元」", "「坐标」"]
    text = text_of(root, "纹理。着色器。豫")
    assert at_u16(text, struct.children[0].selection_range) == "「片元」"
    star = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=document(uri(root / STARF))))
    assert [s.name for s in star] == ["寻观「点染」之「点染本」", "「𠀀值」", "「𠀁函」", "「用二」"]
    value = star[1]
    assert value.selection_range.start == pos(STAR, "「𠀀值」乃", 0) and at_u16(STAR, value.selection_range) == "「𠀀值」"


async def inlay(client, root, rel) -> dict[tuple[int, int], str]:
    text = text_of(root, rel)
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=document(uri(root / rel)),
        range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=text.count("\n") + 1, character=0))))
    return {(h.position.line, h.position.character): h.label for h in hints}


async def test_inlay_hints_give_each_ling_binding_its_type(client, root):
    text = text_of(root, "纹理。着色器。豫")
    hints = await inlay(client, root, "纹理。着色器。豫")
    def after(name):
        p = pos(text, f"令{name}", 1 + len(name))
        return p.line, p.character
    assert hints == {after("「u」"): "乃「浮三二」", after("「v」"): "乃「浮三二」", after("「采」"): "乃「四维浮」",
                     after("「层」"): "乃「四维浮」", after("「尺」"): "乃「二维无」", after("「像素」"): "乃「二维整」",
                     after("「最右」"): "乃「二维整」", after("「素」"): "乃「四维浮」"}
    star = await inlay(client, root, STARF)
    p = pos(STAR, "令「𠀃」", 1 + len("「𠀃」"))
    assert star == {(p.line, p.character): "乃「无三二」"}
    main = text_of(root, MAIN)
    hints = await inlay(client, root, MAIN)
    p = pos(main, "令「序」", len("令「序」"))
    assert hints[(p.line, p.character)] == "乃「下标」"          # the alias the ascription names
    p = pos(main, "令「q」", len("令「q」"))
    assert hints[(p.line, p.character)] == "乃「点三」"


# ---------------------------------------------------------------- signature help


async def signature(client, root, rel, before: str):
    text = text_of(root, rel)
    return await client.text_document_signature_help_async(lsp.SignatureHelpParams(
        text_document=document(uri(root / rel)), position=pos(text, before, len(before))))


def parameter_labels(sig: lsp.SignatureInformation) -> list[str]:
    label = sig.label.encode("utf-16-le")
    return [label[2 * a:2 * b].decode("utf-16-le") for a, b in (p.label for p in sig.parameters)]


@pytest.mark.parametrize("rel, before, head, active, params", [
    (MAIN, "「向量」之「沿射线」于", "「沿射线」乃化「射线」又化「浮三二」为「点三」者", 0, ["「射线」", "「浮三二」"]),
    (MAIN, "「向量」之「沿射线」于（「r」也「射线」）于", "「沿射线」乃", 1, ["「射线」", "「浮三二」"]),
    (MAIN, "「在界内」于「序」于", "「在界内」乃化「无三二」又化「无三二」为「爻」者", 1, ["「无三二」", "「无三二」"]),
    ("子组归约。着色器。豫", "「一步」于「x」于", "「一步」乃化「浮三二」又化「无三二」为「浮三二」者", 1,
     ["「浮三二」", "「无三二」"]),
    ("纹理。着色器。豫", "「采样纹理」于「图」于「样」于", "「采样纹理」乃", 2,
     ["「纹」", "「采样器」", "（「采样坐标」于「纹」）"]),
    ("纹理。着色器。豫", "令「像素」为「转换」以「二维整」于", "「转换」乃", 0, None),
    ("子组矩阵片。着色器。豫", "「矩阵片乘加」于（「载入矩阵片甲」于「甲共」于", "「载入矩阵片甲」乃", 1, None),
    (STARF, "「𠀁函」于「n」于", "「𠀁函」乃化「无三二」又化「无三二」为「无三二」者", 1,
     ["「无三二」", "「无三二」"]),
])
async def test_signature_help_in_yu_chains(client, root, rel, before, head, active, params):
    found = await signature(client, root, rel, before)
    assert found is not None
    sig = found.signatures[found.active_signature or 0]
    assert sig.label.startswith(head) and found.active_parameter == active
    if params is not None:
        assert parameter_labels(sig) == params   # spans in UTF-16 units (the astral name shifts them)


async def test_signature_help_right_after_yi(client, root):
    found = await signature(client, root, "纹理。着色器。豫", "令「像素」为「转换」以")
    assert found is not None and found.signatures[0].label.startswith("「转换」乃")


# ---------------------------------------------------------------- completion after 中


async def complete(client, root, rel, text, needle, delta) -> dict[str, lsp.CompletionItem]:
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=document(uri(root / rel)), position=pos(text, needle, delta)))
    items = result.items if isinstance(result, lsp.CompletionList) else (result or [])
    return {i.label: i for i in items}


async def test_completion_after_zhong_on_records_and_vectors(client, root):
    text = text_of(root, "结构与记录。着色器。豫")
    items = await complete(client, root, "结构与记录。着色器。豫", text, "「参」中「重力」", len("「参」中"))
    assert {k: v.detail for k, v in items.items()} == {"时间步": "「浮三二」", "重力": "「浮三二」"}
    main = text_of(root, MAIN)
    items = await complete(client, root, MAIN, main, "「p」中「零」", len("「p」中"))
    assert list(items) == ["零", "一", "二", "三"] and {i.detail for i in items.values()} == {"「浮三二」"}
    text = text_of(root, "头部与数组。着色器。豫")      # 「缓冲」中: the fields of the record the buffer holds
    items = await complete(client, root, "头部与数组。着色器。豫", text, "「粒子群」中「代」）加", len("「粒子群」中"))
    assert list(items) == ["个数", "步长", "代", "项"]
    text = text_of(root, "实例化。着色器。豫")
    items = await complete(client, root, "实例化。着色器。豫", text, "「vp」中「三」", len("「vp」中"))
    assert list(items) == ["零", "一", "二", "三"] and {i.detail for i in items.values()} == {"「四维浮」"}   # columns


async def test_completion_after_zhong_on_a_struct_of_another_package(client, root):
    ray = uri(root / RAY)
    typing = RAY_USER.replace("「线」中「起点」", "「线」中「」")
    await edit(client, ray, typing)
    try:
        items = await complete(client, root, RAY, typing, "「线」中「」", len("「线」中「"))
        assert {k: v.detail for k, v in items.items()} == {"起点": "「点三」", "方向": "「点三」"}
    finally:
        assert errors((await edit(client, ray, RAY_USER)).diagnostics) == []


# ---------------------------------------------------------------- preview of a subgroup-matrix sample


async def preview(client, doc_uri: str, target: str):
    return await client.protocol.send_request_async("着色/预览", {"uri": doc_uri, "target": target})


async def test_preview_of_subgroup_matrices_per_target(client, root):
    doc_uri = uri(root / "子组矩阵片。着色器。豫")
    wgsl = await preview(client, doc_uri, "wgsl")
    assert wgsl.text is None
    (error,) = wgsl.errors
    assert "WGSL 没有子组矩阵片" in error.message and "「片乘」" in error.message
    msl = await preview(client, doc_uri, "msl")
    assert msl.errors == [] and "kernel void 片乘(" in msl.text and "simdgroup_float8x8" in msl.text
    assert [tuple(e) for e in msl.entries] == [("片乘入口", "片乘", "计算")]
    ptx = await preview(client, doc_uri, "ptx")
    name = "yy_" + "_".join(f"{b:02x}" for b in "片乘".encode())   # seed 着二: the name's UTF-8 bytes
    assert ptx.errors == [] and f".visible .entry {name}(" in ptx.text and "mma.sync.aligned" in ptx.text
    assert [tuple(e) for e in ptx.entries] == [("片乘入口", name, "计算")]


# ---------------------------------------------------------------- an imported module broken, then fixed


async def test_breaking_and_fixing_an_imported_module(client, root):
    vector_uri, main_uri = uri(root / VECTOR), uri(root / MAIN)
    vector, main = text_of(root, VECTOR), text_of(root, MAIN)
    since = len(client.published)
    broken = vector.replace("「沿射线」乃化「射线」又化「浮三二」为「点三」者也。",
                            "「沿射线」乃化「射线」又化「浮三二」为「浮三二」者也。")
    own = await edit(client, vector_uri, broken)
    (mistake,) = errors(own.diagnostics)
    assert "「沿射线」" in mistake.message and mistake.range.start.line == line_of(vector, "「沿射线」者")
    importer = await published(client, main_uri, None, since)
    found = {(d.range.start.line, d.message) for d in errors(importer.diagnostics)}
    # 「q」 is now a 浮三二 where 「平方长度」 takes a 点三 …
    assert any(line == line_of(main, "「平方长度」于「q」") and "类型不符" in m and "「点三」" in m for line, m in found), found
    # … and the import line says that the imported module has an error
    assert any(line == line_of(main, "寻「包乙」之「数学」之「向量」") and "导入的模块有" in m for line, m in found), found
    since = len(client.published)
    assert errors((await edit(client, vector_uri, vector)).diagnostics) == []
    healed = await published(client, main_uri, None, since)
    assert errors(healed.diagnostics) == []
