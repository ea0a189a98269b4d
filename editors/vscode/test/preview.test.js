// The preview's URIs and text, without VS Code.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { previewUri, parsePreviewQuery, previewText, failureText } = require("../preview");

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
