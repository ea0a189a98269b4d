// @ts-check
"use strict";
/**
 * The previews, apart from VS Code so they can be tested with plain Node:
 * which URI shows which target of which file, the text shown for the
 * server's answer to the `着色/预览` request, and for the rendered picture
 * which entries are drawn, the `着色器 渲染` command line and the page.
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

/** The first vertex entry and the first fragment entry of a file's entry table, or null when it lacks either. */
function renderPair(entries) {
  const vertex = (entries || []).find((e) => e.stage === "顶点");
  const fragment = (entries || []).find((e) => e.stage === "片元");
  return vertex && fragment ? { vertex: vertex.item, fragment: fragment.item } : null;
}

/**
 * The interpreter arguments of `着色器 渲染` for the preview: the pair, the
 * buffers from the settings (given as for 运行), size, vertex count, output.
 */
function renderArguments(file, pair, settings, output) {
  return ["-m", "zhuose.cli", "渲染", file, pair.vertex, pair.fragment, ...(settings.buffers || []),
    "--尺寸", settings.size, "--顶点数", String(settings.vertexCount), "--输出", output];
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The webview page for { pair, png } (base64) or { pair, message }: the picture
 * on a checkerboard, so transparent pixels show as such, under the pair that
 * drew it; or the message (why there is no picture, or that one is coming);
 * without a pair nor a message, that the file has nothing to draw.
 * The page runs no script and loads nothing but its inline data image.
 */
function renderHtml(result) {
  const head = "<!DOCTYPE html><html><head><meta charset=\"utf-8\">" +
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline';\">" +
    "<style>body{font-family:sans-serif} img{image-rendering:pixelated;max-width:100%;" +
    "background:repeating-conic-gradient(#bbb 0 25%,#eee 0 50%) 0 0/16px 16px} pre{white-space:pre-wrap}</style></head><body>";
  const caption = result.pair ? `<p>${escapeHtml(`${result.pair.vertex} ＋ ${result.pair.fragment}`)}</p>` : "";
  if (result.png) {
    return `${head}${caption}<img alt="渲染图" src="data:image/png;base64,${result.png}"></body></html>`;
  }
  const why = result.message || "这个文件没有一对顶点入口项与片元入口项，没有可渲染的图。";
  return `${head}${caption}<pre>${escapeHtml(why)}</pre></body></html>`;
}

/**
 * Run `着色器 渲染` with the configured interpreter into a private temporary
 * PNG; resolves to { pair, png } (base64) or { pair, message } (the command's
 * Chinese message), never rejects.  The temporary file is always removed.
 */
function renderPicture({ python, cwd, file, pair, settings, timeoutMs = 120000 }) {
  const { execFile } = require("node:child_process");
  const fs = require("node:fs");
  const os = require("node:os");
  const path = require("node:path");
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "zhuose-render-"));
  const output = path.join(folder, "图.png");
  return new Promise((resolve) => {
    execFile(python, renderArguments(file, pair, settings, output), { cwd, timeout: timeoutMs, encoding: "utf8" },
      (error, _stdout, stderr) => {
        let result;
        if (error) {
          result = { pair, message: (stderr || "").trim() || `无法运行 ${python}：${error.message}` };
        } else {
          result = { pair, png: fs.readFileSync(output).toString("base64") };
        }
        fs.rmSync(folder, { recursive: true, force: true });
        resolve(result);
      });
  });
}

module.exports = {
  SCHEME, previewUri, parsePreviewQuery, previewText, failureText, renderPair, renderArguments, renderHtml,
  renderPicture,
};
