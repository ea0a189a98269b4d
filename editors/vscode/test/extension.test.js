// The extension's render preview, wired to a fake VS Code and a fake language client (the
// server's entry table), drawing with the real `着色器 渲染`: the command opens a side webview with
// the picture, a save redraws it, and a file without a vertex + fragment pair or a refused
// command shows why.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const Module = require("node:module");
const path = require("node:path");
const { ROOT, PYTHON, toolchainMissing } = require("./toolchain");

const settings = { python: PYTHON, renderSize: "24,12", renderVertexCount: 3, renderBuffers: [] };
const handlers = { commands: {}, saved: [] };
const panels = [];
let answer = { text: "", entries: [], errors: [] };

class EventEmitter {
  constructor() {
    this.event = () => ({ dispose() {} });
  }

  fire() {}
}

function fileUri(fsPath) {
  return { fsPath, toString: () => `file://${encodeURI(fsPath)}` };
}

const vscode = {
  EventEmitter,
  ViewColumn: { Beside: -2 },
  Uri: { parse: (text) => ({ query: text.split("?")[1] || "", toString: () => text }), file: (p) => fileUri(p) },
  workspace: {
    workspaceFolders: [{ uri: fileUri(ROOT) }],
    getConfiguration: () => ({ get: (key, fallback) => (key in settings ? settings[key] : fallback) }),
    getWorkspaceFolder: () => ({ uri: fileUri(ROOT) }),
    createFileSystemWatcher: () => ({ dispose() {} }),
    registerTextDocumentContentProvider: () => ({ dispose() {} }),
    onDidSaveTextDocument: (listener) => handlers.saved.push(listener),
    onDidCloseTextDocument: () => ({ dispose() {} }),
    fs: { writeFile: async (uri, bytes) => { handlers.written = { path: uri.fsPath, text: Buffer.from(bytes).toString("utf8") }; } },
    openTextDocument: async (uri) => ({ uri }),
  },
  window: {
    activeTextEditor: undefined,
    showInformationMessage: (text) => { handlers.information = text; },
    showWarningMessage: (text) => { handlers.warning = text; },
    showErrorMessage: (text) => { handlers.error = text; },
    showTextDocument: async (doc) => { handlers.shown = doc.uri.fsPath; },
    createWebviewPanel: (viewType, title, showOptions, options) => {
      const panel = { viewType, title, showOptions, options, webview: { html: "" }, revealed: 0,
        reveal() { this.revealed += 1; }, onDidDispose() {} };
      panels.push(panel);
      return panel;
    },
  },
  commands: { registerCommand: (name, run) => { handlers.commands[name] = run; } },
};

class LanguageClient {
  start() {
    return Promise.resolve();
  }

  sendRequest(method, params) {
    handlers.request = { method, params };
    return Promise.resolve(answer);
  }
}

const stubs = { vscode, "vscode-languageclient/node": { LanguageClient, TransportKind: { stdio: 0 } } };
const load = Module._load;
Module._load = function (request, ...rest) {
  return request in stubs ? stubs[request] : load.call(this, request, ...rest);
};
const extension = require("../extension");

const TRIANGLE = path.join(ROOT, "samples", "三角形。着色器。豫");
const document = { uri: fileUri(TRIANGLE), languageId: "zhuose", isDirty: false };
const PAIR = [{ item: "三角形顶点", function: "顶点", stage: "顶点" }, { item: "三角形片元", function: "片元", stage: "片元" }];

/** Wait until the panel's drawing in progress has landed. */
async function drawn(panel) {
  for (let waited = 0; panel.webview.html.includes("正在渲染……"); waited += 50) {
    assert.ok(waited < 120000, "渲染图没有画完");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("the render preview shows the picture beside the source and redraws it on save",
  { skip: toolchainMissing() }, async () => {
    await extension.activate({ subscriptions: [] });
    vscode.window.activeTextEditor = { document };
    answer = { text: "…", entries: PAIR, errors: [] };
    await handlers.commands["zhuose.previewRender"]();
    assert.deepEqual(handlers.request, { method: "着色/预览", params: { uri: document.uri.toString(), target: "wgsl" } });
    assert.equal(panels.length, 1);
    const [panel] = panels;
    assert.equal(panel.title, "渲染：三角形。着色器。豫");
    assert.deepEqual([panel.showOptions.viewColumn, panel.options.enableScripts], [-2, false]);
    const png = Buffer.from(panel.webview.html.match(/base64,([A-Za-z0-9+/=]+)"/)[1], "base64");
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [24, 12]);
    assert.match(panel.webview.html, /三角形顶点 ＋ 三角形片元/);

    settings.renderSize = "0,12";      // the next save draws with a size 渲染 refuses
    handlers.saved.forEach((listener) => listener(document));
    assert.match(panel.webview.html, /正在渲染……/);
    await drawn(panel);
    assert.match(panel.webview.html, /<pre>着色器：--尺寸「0,12」的宽高须在 1 至 8192 之间<\/pre>/);

    answer = { text: "…", entries: [{ item: "加倍入口", function: "加倍", stage: "计算" }], errors: [] };
    await handlers.commands["zhuose.previewRender"]();
    assert.equal(panels.length, 1);
    assert.equal(panel.revealed, 1);
    assert.match(panel.webview.html, /没有一对顶点入口项与片元入口项/);

    answer = { text: null, entries: [], errors: [{ uri: document.uri.toString(),
      range: { start: { line: 2, character: 0 }, end: { line: 2, character: 1 } }, message: "在「顶点」中：类型不符" }] };
    await handlers.commands["zhuose.previewRender"]();
    assert.match(panel.webview.html, /有 1 个错误，没有生成代码[\s\S]*三角形。着色器。豫:3:1: 在「顶点」中：类型不符/);
  });

test("「着色：从 WGSL 导入」 asks the server, writes 名。着色器。豫 beside the WGSL file and opens it", async () => {
  await extension.activate({ subscriptions: [] });
  const wgsl = path.join(ROOT, "tests", "importer", "甲.wgsl");
  vscode.window.activeTextEditor = { document: { uri: fileUri(wgsl), getText: () => "fn f() {}" } };
  answer = { text: "寻观「点染」之「点染本」之书。\n", problems: [
    { range: { start: { line: 0, character: 0 } }, message: "导入：不支持 var<private>（着色没有模块级的可变变量）" }] };
  await handlers.commands["zhuose.importWgsl"]();
  assert.equal(handlers.request.method, "着色/导入");
  assert.deepEqual(handlers.request.params, { uri: fileUri(wgsl).toString(), text: "fn f() {}", 尽量: true });
  const target = path.join(ROOT, "tests", "importer", "甲。着色器。豫");
  assert.deepEqual(handlers.written, { path: target, text: "寻观「点染」之「点染本」之书。\n" });
  assert.equal(handlers.shown, target);
  assert.equal(handlers.warning, "导入时略去了 1 个声明：第 1 行第 1 列：导入：不支持 var<private>（着色没有模块级的可变变量）");
  vscode.window.activeTextEditor = { document: { uri: fileUri(path.join(ROOT, "samples", "加倍。着色器。豫")) } };
  await handlers.commands["zhuose.importWgsl"]();
  assert.equal(handlers.information, "先打开一个 WGSL 文件（名.wgsl）");
});
