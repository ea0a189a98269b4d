// The pure parts of 「着色：从 WGSL 导入」: where the imported file goes and the warning text.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { importedPath, importSummary } = require("../importing");

test("the imported source goes beside the WGSL file with the shader suffix", () => {
  assert.equal(importedPath(path.join("甲", "粒子.wgsl")), path.join("甲", "粒子。着色器。豫"));
  assert.equal(importedPath("SHADER.WGSL"), "SHADER。着色器。豫");
});

test("the warning names how many declarations were left out and the first one", () => {
  assert.equal(importSummary([]), "");
  const problem = (line, message) => ({ range: { start: { line, character: 4 } }, message });
  assert.equal(importSummary([problem(2, "导入：不支持 指针")]), "导入时略去了 1 个声明：第 3 行第 5 列：导入：不支持 指针");
  assert.equal(importSummary([problem(0, "甲"), problem(9, "乙")]),
    "导入时略去了 2 个声明：第 1 行第 5 列：甲（另有 1 处，见导入文件里的注释）");
});
