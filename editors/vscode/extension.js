// @ts-check
"use strict";
/**
 * The 着色 extension: starts the Python language server (`python -m
 * zhuose.server` with the configured interpreter), shows the generated
 * WGSL / MSL / PTX in a side editor, and the picture a vertex + fragment pair
 * renders (`着色器 渲染`) in a side webview; both follow every save.
 */

const path = require("node:path");
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");
const {
  SCHEME, previewUri, parsePreviewQuery, previewText, failureText, renderPair, renderHtml, renderPicture,
} = require("./preview");
const { importedPath, importSummary } = require("./importing");

/** @type {LanguageClient | undefined} */
let client;

function startClient(context) {
  const config = vscode.workspace.getConfiguration("zhuose");
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  const run = {
    command: config.get("python", "python3"),
    args: config.get("serverArguments", ["-m", "zhuose.server"]),
    transport: TransportKind.stdio,
    options: folder ? { cwd: folder.uri.fsPath } : undefined,
  };
  client = new LanguageClient("zhuose", "着色语言服务", { run, debug: run }, {
    documentSelector: [{ scheme: "file", language: "zhuose" }],
    initializationOptions: {
      "诊断间隔毫秒": config.get("diagnosticsIntervalMs", 100),
      "naga校验": config.get("nagaValidation", true),
    },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{*。着色器。豫,*。着色器。接口。豫,包.json}"),
    },
  });
  context.subscriptions.push(client);
  return client.start();
}

/** Serves `zhuose-preview:` documents by asking the server, and refreshes them on save. */
class PreviewProvider {
  constructor() {
    this.changed = new vscode.EventEmitter();
    this.onDidChange = this.changed.event;
    /** @type {Set<string>} preview URIs that are open */
    this.open = new Set();
  }

  async provideTextDocumentContent(uri) {
    this.open.add(uri.toString());
    const { uri: source, target } = parsePreviewQuery(uri.query);
    if (!client) {
      return failureText("语言服务没有运行");
    }
    try {
      return previewText(await client.sendRequest("着色/预览", { uri: source, target }));
    } catch (error) {
      return failureText(error);
    }
  }

  refresh(savedUri) {
    for (const shown of this.open) {
      const uri = vscode.Uri.parse(shown);
      if (parsePreviewQuery(uri.query).uri === savedUri.toString()) {
        this.changed.fire(uri);
      }
    }
  }
}

/** Side webviews with each source's rendered picture, redrawn from the saved file on every save. */
class RenderPreviews {
  constructor() {
    /** @type {Map<string, {panel: vscode.WebviewPanel, drawing: number}>} by source URI */
    this.panels = new Map();
  }

  show(document) {
    const key = document.uri.toString();
    let shown = this.panels.get(key);
    if (shown) {
      shown.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      const name = decodeURIComponent(key.split("/").pop() || "");
      const panel = vscode.window.createWebviewPanel("zhuoseRender", `渲染：${name}`,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false });
      shown = { panel, drawing: 0 };
      this.panels.set(key, shown);
      panel.onDidDispose(() => this.panels.delete(key));
    }
    return this.draw(document.uri, shown);
  }

  refresh(savedUri) {
    const shown = this.panels.get(savedUri.toString());
    return shown ? this.draw(savedUri, shown) : undefined;
  }

  /** Ask the server for the entry table, then run 渲染; a newer draw wins over a slower older one. */
  async draw(uri, shown) {
    const drawing = ++shown.drawing;
    const put = (result) => {
      if (drawing === shown.drawing && this.panels.get(uri.toString()) === shown) {
        shown.panel.webview.html = renderHtml(result);
      }
    };
    put({ pair: null, message: "正在渲染……" });
    if (!client) {
      put({ pair: null, message: "语言服务没有运行" });
      return;
    }
    let answer;
    try {
      answer = await client.sendRequest("着色/预览", { uri: uri.toString(), target: "wgsl" });
    } catch (error) {
      put({ pair: null, message: failureText(error) });
      return;
    }
    const pair = renderPair(answer.entries);
    if (answer.errors && answer.errors.length) {
      put({ pair, message: previewText(answer) });
      return;
    }
    if (!pair) {
      put({ pair: null });
      return;
    }
    const config = vscode.workspace.getConfiguration("zhuose");
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    put(await renderPicture({
      python: config.get("python", "python3"),
      cwd: folder ? folder.uri.fsPath : path.dirname(uri.fsPath),
      file: uri.fsPath,
      pair,
      settings: {
        size: config.get("renderSize", "256,256"),
        vertexCount: config.get("renderVertexCount", 3),
        buffers: config.get("renderBuffers", []),
      },
    }));
  }
}

async function showRender(renders) {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "zhuose") {
    vscode.window.showInformationMessage("先打开一个着色源文件（名。着色器。豫）");
    return;
  }
  if (editor.document.isDirty) {
    await editor.document.save();   // 渲染 reads the file on disk
  }
  await renders.show(editor.document);
}

async function showPreview(target) {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "zhuose") {
    vscode.window.showInformationMessage("先打开一个着色源文件（名。着色器。豫）");
    return;
  }
  const chosen = target || vscode.workspace.getConfiguration("zhuose").get("previewTarget", "wgsl");
  const uri = vscode.Uri.parse(previewUri(editor.document.uri.toString(), chosen));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
}

/** 「着色：从 WGSL 导入」: the open .wgsl file through the server's 着色/导入 (what cannot be
 * imported is left out with a comment), written beside it as 名。着色器。豫 and opened. */
async function importWgsl() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !editor.document.uri.fsPath.toLowerCase().endsWith(".wgsl")) {
    vscode.window.showInformationMessage("先打开一个 WGSL 文件（名.wgsl）");
    return;
  }
  if (!client) {
    vscode.window.showErrorMessage("导入失败：语言服务没有运行");
    return;
  }
  let answer;
  try {
    answer = await client.sendRequest("着色/导入", {
      uri: editor.document.uri.toString(), text: editor.document.getText(), 尽量: true,
    });
  } catch (error) {
    vscode.window.showErrorMessage(`导入失败：${(error && error.message) || String(error)}`);
    return;
  }
  if (!answer || typeof answer.text !== "string") {
    vscode.window.showErrorMessage(importSummary(answer && answer.problems) || "导入失败");
    return;
  }
  const target = vscode.Uri.file(importedPath(editor.document.uri.fsPath));
  await vscode.workspace.fs.writeFile(target, Buffer.from(answer.text, "utf8"));
  const doc = await vscode.workspace.openTextDocument(target);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  if (answer.problems && answer.problems.length) {
    vscode.window.showWarningMessage(importSummary(answer.problems));
  }
}

async function activate(context) {
  const previews = new PreviewProvider();
  const renders = new RenderPreviews();
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, previews),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      previews.refresh(doc.uri);
      renders.refresh(doc.uri);
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => previews.open.delete(doc.uri.toString())),
    vscode.commands.registerCommand("zhuose.preview", () => showPreview(undefined)),
    vscode.commands.registerCommand("zhuose.previewWgsl", () => showPreview("wgsl")),
    vscode.commands.registerCommand("zhuose.previewMsl", () => showPreview("msl")),
    vscode.commands.registerCommand("zhuose.previewPtx", () => showPreview("ptx")),
    vscode.commands.registerCommand("zhuose.previewRender", () => showRender(renders)),
    vscode.commands.registerCommand("zhuose.importWgsl", importWgsl),
    vscode.commands.registerCommand("zhuose.restartServer", async () => {
      if (client) {
        await client.restart();
      }
    }),
  );
  await startClient(context);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
