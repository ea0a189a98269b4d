// The previews' URIs, text and rendered picture, without VS Code (the picture through the real 着色器 渲染).
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const {
  previewUri, parsePreviewQuery, previewText, failureText, renderPair, renderArguments, renderHtml, renderPicture,
} = require("../preview");
const { ROOT, PYTHON, toolchainMissing } = require("./toolchain");

const SOURCE = "file:///工作区/应用/%E4%B8%BB%E3%80%82%E7%9D%80%E8%89%B2%E5%99%A8%E3%80%82%E8%B1%AB";

test("a preview URI names the target's suffix and finds its source again", () => {
  const uri = previewUri(SOURCE, "msl");
  assert.ok(uri.startsWith("zhuose-preview:/"));
  const [pathPart, query] = uri.split("?");
  assert.ok(decodeURIComponent(pathPart).endsWith("主。着色器。豫.metal"));
  assert.deepEqual(parsePreviewQuery(query), { uri: SOURCE, target: "msl" });
});

test("generated text is followed by the entry table", () => {
  const text = previewText({
    text: "@compute @workgroup_size(4)\nfn 加倍() {}\n",
    entries: [{ item: "加倍入口", function: "加倍", stage: "计算" }],
    errors: [],
  });
  assert.equal(text, "@compute @workgroup_size(4)\nfn 加倍() {}\n\n// 入口表：入口项名\t函数名\t阶段\n// 加倍入口\t加倍\t计算\n");
});

test("errors are listed with file, line and column counted from one", () => {
  const text = previewText({
    text: null,
    entries: [],
    errors: [{ uri: SOURCE, range: { start: { line: 6, character: 2 }, end: { line: 6, character: 5 } },
               message: "在「加倍」中：类型不符" }],
  });
  assert.equal(text, "// 有 1 个错误，没有生成代码：\n// 主。着色器。豫:7:3: 在「加倍」中：类型不符\n");
});

test("a refused request says why", () => {
  assert.equal(failureText({ message: "目标「ptx」的翻译器尚未实现" }), "// 无法预览：目标「ptx」的翻译器尚未实现\n");
});

// ---------------------------------------------------------------- the rendered picture

const ENTRIES = [
  { item: "加倍入口", function: "加倍", stage: "计算" },
  { item: "三角形顶点", function: "顶点", stage: "顶点" },
  { item: "三角形片元", function: "片元", stage: "片元" },
  { item: "另一片元", function: "另", stage: "片元" },
];

test("the first vertex entry and the first fragment entry are drawn; a file lacking either has no picture", () => {
  assert.deepEqual(renderPair(ENTRIES), { vertex: "三角形顶点", fragment: "三角形片元" });
  assert.equal(renderPair(ENTRIES.slice(0, 1)), null);
  assert.equal(renderPair(ENTRIES.slice(0, 2)), null);
  assert.equal(renderPair(undefined), null);
});

test("the render command line carries the settings and the output", () => {
  const args = renderArguments("/工作区/三角形。着色器。豫", { vertex: "顶", fragment: "片" },
    { size: "64,32", vertexCount: 6, buffers: ["0:0=1,2"] }, "/tmp/图.png");
  assert.deepEqual(args, ["-m", "zhuose.cli", "渲染", "/工作区/三角形。着色器。豫", "顶", "片", "0:0=1,2",
    "--尺寸", "64,32", "--顶点数", "6", "--输出", "/tmp/图.png"]);
});

test("the page shows the picture inline, or the message escaped, and runs no script", () => {
  const shown = renderHtml({ pair: { vertex: "顶", fragment: "片" }, png: "iVBORw0KGgo=" });
  assert.match(shown, /<img alt="渲染图" src="data:image\/png;base64,iVBORw0KGgo=">/);
  assert.match(shown, /<p>顶 ＋ 片<\/p>/);
  assert.match(shown, /default-src 'none'; img-src data:/);
  assert.doesNotMatch(shown, /<script/);
  const failed = renderHtml({ pair: { vertex: "顶", fragment: "片" }, message: "着色器：--尺寸「0,1」<坏>" });
  assert.match(failed, /<pre>着色器：--尺寸「0,1」&#60;坏&#62;<\/pre>/);
  assert.doesNotMatch(failed, /<img/);
  assert.match(renderHtml({ pair: null }), /没有一对顶点入口项与片元入口项/);
});

test("the preview runs 着色器 渲染 on the triangle sample and gets its PNG", { skip: toolchainMissing() }, async () => {
  const file = path.join(ROOT, "samples", "三角形。着色器。豫");
  const pair = { vertex: "三角形顶点", fragment: "三角形片元" };
  const result = await renderPicture({ python: PYTHON, cwd: ROOT, file, pair,
    settings: { size: "40,20", vertexCount: 3, buffers: [] } });
  assert.equal(result.message, undefined);
  const png = Buffer.from(result.png, "base64");
  assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
  assert.equal(png.subarray(12, 16).toString("latin1"), "IHDR");
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [40, 20]);

  const refused = await renderPicture({ python: PYTHON, cwd: ROOT, file, pair,
    settings: { size: "0,20", vertexCount: 3, buffers: [] } });
  assert.equal(refused.png, undefined);
  assert.equal(refused.message, "着色器：--尺寸「0,20」的宽高须在 1 至 8192 之间");
});
