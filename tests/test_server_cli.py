"""`着色器 服务` speaks LSP on stdio; `着色器 服务 --构建` hands over to the
build service of compiler/generate/."""

from __future__ import annotations

import json
import subprocess
import sys

from support.lsp import write_workspace

COMMAND = [sys.executable, "-m", "zhuose.cli"]


def frame(message: dict) -> bytes:
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def replies(stdout: bytes) -> list[dict]:
    out = []
    while stdout:
        header, _, rest = stdout.partition(b"\r\n\r\n")
        fields = dict(line.split(b": ", 1) for line in header.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        out.append(json.loads(rest[:length]))
        stdout = rest[length:]
    return out


def test_serve_answers_initialize_and_shuts_down_cleanly(tmp_path):
    root = write_workspace(tmp_path)
    session = b"".join(frame(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ])
    done = subprocess.run([*COMMAND, "服务"], input=session, capture_output=True, timeout=60, cwd=root)
    assert done.returncode == 0, done.stderr.decode()
    answers = {r["id"]: r for r in replies(done.stdout) if "id" in r}
    capabilities = answers[1]["result"]["capabilities"]
    assert capabilities["hoverProvider"] and capabilities["renameProvider"]
    assert capabilities["semanticTokensProvider"]["legend"]["tokenTypes"][0] == "namespace"
    assert capabilities["completionProvider"]["triggerCharacters"] == ["「", "中", "之"]
    assert answers[2]["result"] is None


def test_serve_build_mode_is_the_build_service(tmp_path):
    root = write_workspace(tmp_path)
    request = json.dumps({"文件": "应用/主。着色器。豫", "编号": 7}, ensure_ascii=False) + "\n"
    done = subprocess.run([*COMMAND, "服务", "--构建"], input=request.encode("utf-8"),
                          capture_output=True, timeout=60, cwd=root)
    assert done.returncode == 0, done.stderr.decode()
    (reply,) = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert reply["编号"] == 7 and reply["错误"] == [] and "加倍入口" in reply["模块"]


def test_help_lists_serve():
    done = subprocess.run([*COMMAND, "--help"], capture_output=True, timeout=60)
    assert "服务" in done.stdout.decode() + done.stderr.decode()


def test_a_refused_rename_is_an_error_answer_without_a_traceback_in_the_log(tmp_path):
    """A refusal is an expected answer (LSP RequestFailed with the reason), not a server failure."""
    root = write_workspace(tmp_path)
    main = root / "应用/主。着色器。豫"
    text = main.read_text(encoding="utf-8")
    line = text.split("\n").index("寻观「库」之「几何」之书。")
    at = {"textDocument": {"uri": main.as_uri()}, "position": {"line": line, "character": 7}}   # on 「几何」
    session = b"".join(frame(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {},
                    "initializationOptions": {"naga校验": False}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": main.as_uri(), "languageId": "zhuose", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/prepareRename", "params": at},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/rename", "params": {**at, "newName": "新"}},
        {"jsonrpc": "2.0", "id": 4, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ])
    done = subprocess.run([*COMMAND, "服务"], input=session, capture_output=True, timeout=60, cwd=root)
    err = done.stderr.decode()
    assert done.returncode == 0, err
    answers = {r["id"]: r for r in replies(done.stdout) if "id" in r}
    for n in (2, 3):
        assert answers[n]["error"]["code"] == -32803 and "模块名与包名" in answers[n]["error"]["message"]
    assert "Traceback" not in err and "ERROR" not in err, err
