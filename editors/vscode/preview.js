// @ts-check
"use strict";
/**
 * The preview of generated code, apart from VS Code so it can be tested with
 * plain Node: which URI shows which target of which file, and the text shown
 * for the server's answer to the `着色/预览` request.
 */

const SCHEME = "zhuose-preview";

/** File suffix of each target, so the side editor picks a fitting highlighter. */
const SUFFIX = { wgsl: "wgsl", msl: "metal", ptx: "ptx" };

/** The preview URI (as a string) of `sourceUri` for `target`. */
function previewUri(sourceUri, target) {
  const name = decodeURIComponent(sourceUri.split("/").pop() || "预览");
  return `${SCHEME}:/${encodeURIComponent(name)}.${SUFFIX[target] || target}` +
    `?${encodeURIComponent(JSON.stringify({ uri: sourceUri, target }))}`;
}

/** The source URI and target a preview URI's query names. */
function parsePreviewQuery(query) {
  const { uri, target } = JSON.parse(decodeURIComponent(query));
  return { uri, target };
}

/** The generated text followed by the entry table, or the errors, as comments. */
function previewText(result) {
  const lines = [];
  if (result.errors && result.errors.length) {
    lines.push(`// 有 ${result.errors.length} 个错误，没有生成代码：`);
    for (const e of result.errors) {
      const file = decodeURIComponent(e.uri.split("/").pop());
      lines.push(`// ${file}:${e.range.start.line + 1}:${e.range.start.character + 1}: ${e.message}`);
    }
    return lines.join("\n") + "\n";
  }
  lines.push(result.text.replace(/\n$/, ""), "", "// 入口表：入口项名\t函数名\t阶段");
  for (const e of result.entries) {
    lines.push(`// ${e.item}\t${e.function}\t${e.stage}`);
  }
  return lines.join("\n") + "\n";
}

/** What the side editor shows when the server refused (e.g. a target not yet built). */
function failureText(error) {
  const message = (error && error.message) || String(error);
  return `// 无法预览：${message}\n`;
}

module.exports = { SCHEME, previewUri, parsePreviewQuery, previewText, failureText };
