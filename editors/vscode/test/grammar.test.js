// The TextMate grammar, tokenized by the same engine VS Code uses
// (vscode-textmate + vscode-oniguruma), on representative lines.
"use strict";

const { test, before } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const GRAMMAR = path.join(__dirname, "..", "syntaxes", "zhuose.tmLanguage.json");
let grammar;

before(async () => {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, "utf8"), GRAMMAR),
  });
  grammar = await registry.loadGrammar("source.zhuose");
});

/** [text, innermost scope] of every token of `lines` (the rule stack carries over lines). */
function tokenize(...lines) {
  let stack = vsctm.INITIAL;
  const out = [];
  for (const line of lines) {
    const result = grammar.tokenizeLine(line, stack);
    for (const t of result.tokens) {
      out.push([line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]]);
    }
    stack = result.ruleStack;
  }
  return out;
}

/** The scope of the token whose text is exactly `text` (the first such). */
function scopeOf(tokens, text) {
  const found = tokens.find(([t]) => t === text);
  assert.ok(found, `no token ${text} in ${JSON.stringify(tokens)}`);
  return found[1];
}

test("an import: keywords, names, the terminator", () => {
  const tokens = tokenize("寻观「点染」之「点染本」之书。");
  assert.equal(scopeOf(tokens, "寻观"), "keyword.control.import.zhuose");
  assert.equal(scopeOf(tokens, "「点染」"), "variable.other.zhuose");
  assert.equal(scopeOf(tokens, "之"), "keyword.other.zhuose");
  assert.equal(scopeOf(tokens, "之书"), "keyword.control.import.zhuose");
  assert.equal(scopeOf(tokens, "。"), "punctuation.terminator.zhuose");
});

test("a signature names a value; a type definition names a type", () => {
  const sig = tokenize("「加倍」乃化「全局调用号」为「有」者也。");
  assert.equal(scopeOf(sig, "「加倍」"), "entity.name.function.zhuose");
  assert.equal(scopeOf(sig, "乃"), "keyword.other.zhuose");
  assert.equal(scopeOf(sig, "化"), "storage.type.zhuose");
  assert.equal(scopeOf(sig, "为"), "keyword.control.zhuose");
  assert.equal(scopeOf(sig, "「全局调用号」"), "variable.other.zhuose");
  const def = tokenize("「粒子」即「组类」【「位置」乃「三维浮」也】也。");
  assert.equal(scopeOf(def, "「粒子」"), "entity.name.type.zhuose");
  assert.equal(scopeOf(def, "【"), "punctuation.section.record.zhuose");
  assert.equal(scopeOf(def, "「位置」"), "variable.other.zhuose");
});

test("numerals in names are numbers, other names are not", () => {
  const tokens = tokenize("「甲」者（「三二」加「三点五」）乘「0x1F」加「三维浮」也。");
  for (const n of ["「三二」", "「三点五」", "「0x1F」"]) {
    assert.equal(scopeOf(tokens, n), "constant.numeric.zhuose", n);
  }
  assert.equal(scopeOf(tokens, "「三维浮」"), "variable.other.zhuose");
});

test("operators are matched longest first, and whole", () => {
  const tokens = tokenize("「甲」不等于「乙」且「丙」按位与「丁」异或「戊」或非「己」");
  assert.equal(scopeOf(tokens, "不等于"), "keyword.operator.zhuose");
  assert.equal(scopeOf(tokens, "按位与"), "keyword.operator.zhuose");
  assert.equal(scopeOf(tokens, "异或"), "keyword.operator.zhuose");
  assert.equal(scopeOf(tokens, "且"), "keyword.operator.zhuose");
  assert.ok(!tokens.some(([t]) => t === "与" || t === "等于"), JSON.stringify(tokens));
});

test("否则 and 又得 are single keywords", () => {
  const tokens = tokenize("若「甲」则「乙」否则得「丙」又得「丁」而「戊」");
  assert.equal(scopeOf(tokens, "否则"), "keyword.control.zhuose");
  assert.equal(scopeOf(tokens, "又得"), "keyword.control.zhuose");
  assert.equal(tokens.filter(([t]) => t === "则").length, 1);
});

test("keywords inside a name stay part of the name", () => {
  const tokens = tokenize("「令为而加」者「若则」也。");
  assert.equal(scopeOf(tokens, "「令为而加」"), "entity.name.function.zhuose");
  assert.equal(scopeOf(tokens, "「若则」"), "variable.other.zhuose");
});

test("comments nest and span lines", () => {
  const tokens = tokenize("「：外「：内：」仍是注释", "还是注释：」「甲」加「乙」");
  const comment = tokens.filter(([, scope]) => scope === "comment.block.zhuose").map(([t]) => t).join("");
  assert.equal(comment, "「：外「：内：」仍是注释还是注释：」");
  assert.equal(scopeOf(tokens, "「甲」"), "variable.other.zhuose");
  assert.equal(scopeOf(tokens, "加"), "keyword.operator.zhuose");
});

test("strings", () => {
  const tokens = tokenize("「甲」者『你好，世界』也。");
  assert.equal(tokens.filter(([, s]) => s === "string.quoted.zhuose").map(([t]) => t).join(""), "『你好，世界』");
});
