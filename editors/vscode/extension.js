// @ts-check
"use strict";
/**
 * The 着色 extension: starts the Python language server (`python -m
 * zhuose.server` with the configured interpreter) and shows the generated
 * WGSL / MSL / PTX in a side editor that follows every save.
 */

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");
const { SCHEME, previewUri, parsePreviewQuery, previewText, failureText } = require("./preview");

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

async function activate(context) {
  const previews = new PreviewProvider();
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, previews),
    vscode.workspace.onDidSaveTextDocument((doc) => previews.refresh(doc.uri)),
    vscode.workspace.onDidCloseTextDocument((doc) => previews.open.delete(doc.uri.toString())),
    vscode.commands.registerCommand("zhuose.preview", () => showPreview(undefined)),
    vscode.commands.registerCommand("zhuose.previewWgsl", () => showPreview("wgsl")),
    vscode.commands.registerCommand("zhuose.previewMsl", () => showPreview("msl")),
    vscode.commands.registerCommand("zhuose.previewPtx", () => showPreview("ptx")),
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
