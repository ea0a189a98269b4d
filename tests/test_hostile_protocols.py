"""The build service and the language server under hostile input (issue 18):
real processes, fed malformed lines and frames, must keep answering, and every
build reply is strict JSON carrying the request's 编号 whenever it had one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from support.frontend import SEED_DOUBLE, write


def strict(line: str):
    def refuse(constant):
        raise ValueError(f"不是 JSON：{constant}")
    return json.loads(line, parse_constant=refuse)


def build_service(root, lines: list[bytes]) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "zhuose.cli", "服务", "--构建"], cwd=root,
                          input=b"\n".join(lines) + b"\n", capture_output=True, timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")
    return [strict(line) for line in proc.stdout.decode("utf-8").splitlines()]


def test_build_service_answers_hostile_lines_with_their_numbers(tmp_path):
    write(tmp_path, {"工作区/加倍。着色器。豫": SEED_DOUBLE, "外。着色器。豫": SEED_DOUBLE})
    root = tmp_path / "工作区"
    os.mkfifo(root / "管。着色器。豫")
    os.symlink("环。着色器。豫", root / "环。着色器。豫")
    good = "加倍。着色器。豫"
    hostile = [  # (request line, the 编号 the reply must carry, the start of its error)
        ('{"文件": "\\ud800。着色器。豫", "编号": 1}', 1, "「文件」含有不能用在路径里的字符"),
        ('{"文件": "%s", "编号": "\\ud800"}' % good, "\ud800", None),
        ('{"文件": "%s", "编号": NaN}' % good, None, "「编号」须是"),
        ('{"文件": "%s", "编号": 1e999}' % good, None, "「编号」须是"),
        (json.dumps({"文件": "长" * 5000 + "。着色器。豫", "编号": 5}), 5, "读不了"),
        (json.dumps({"文件": good, "输出目录": "产\0物", "编号": 6}), 6, "「输出目录」含有不能用在路径里的字符"),
        ('{"编号": 7, "文件": ' + "[" * 100000 + "]" * 100000 + "}", 7, "请求的 JSON 嵌套过深"),
        (json.dumps({"文件": "../外。着色器。豫", "编号": 8}), 8, "「文件」「../外。着色器。豫」在工作区根目录"),
        (json.dumps({"文件": good, "输出目录": "产物/../../外", "编号": 9}), 9, "「输出目录」「产物/../../外」在工作区根目录"),
        (json.dumps({"文件": "管。着色器。豫", "编号": 10}), 10, "「管。着色器。豫」不是普通文件"),
        (json.dumps({"文件": "环。着色器。豫", "编号": 11}), 11, "读不了「环。着色器。豫」"),
        (json.dumps({"文件": good, "输出目录": "", "编号": 12}), 12, "「输出目录」是空字符串"),
        ('{"编号": 13, "文件": 不是 JSON', 13, "请求不是合法的 JSON"),
    ]
    lines = [h[0].encode("utf-8", "surrogatepass") for h in hostile]
    lines += [b'{"\xff": 1, "\xe7\xbc\x96\xe5\x8f\xb7": 14}',   # not UTF-8 (编号 14)
              json.dumps({"文件": "./产物/../加倍。着色器。豫", "输出目录": "产物/./", "编号": 15}).encode()]
    replies = build_service(root, lines)
    assert len(replies) == len(lines)
    for (_, number, error), reply in zip(hostile, replies):
        assert reply["编号"] == number
        if error:
            assert reply["模块"] is None and reply["错误"][0].startswith(error), reply["错误"]
    assert replies[1]["错误"] == [] and replies[1]["模块"]
    assert replies[13]["编号"] == 14 and replies[13]["错误"] == ["请求缺少「文件」（着色源的路径，字符串）"]
    assert replies[14]["输出"] == str(root / "产物" / "加倍。着色生成。豫")   # normalised
    assert not (tmp_path / "外。着色生成。豫").exists()


# ---------------------------------------------------------------- the language server


class Lsp:
    """A raw LSP connection to `python -m zhuose.server`: bytes in, messages out."""

    def __init__(self, root):
        import queue
        import threading
        self.proc = subprocess.Popen([sys.executable, "-m", "zhuose.server"], cwd=root, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.replies: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                elif line == b"\r\n":
                    break
            self.replies.put(json.loads(out.read(length)))

    def send(self, raw: bytes):
        self.proc.stdin.write(raw)
        self.proc.stdin.flush()

    def frame(self, message) -> bytes:
        body = message if isinstance(message, bytes) else json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def request(self, number, method, params) -> bytes:
        return self.frame({"jsonrpc": "2.0", "id": number, "method": method, "params": params})

    def answer(self, number, timeout=30.0):
        """The reply to request `number` (replies to id null are collected on the way)."""
        import time
        deadline = time.monotonic() + timeout
        while True:
            reply = self.replies.get(timeout=max(0.1, deadline - time.monotonic()))
            if reply.get("id") == number:
                return reply
            self.anonymous.append(reply)

    anonymous: list = []

    def close(self) -> str:
        self.send(self.request(99, "shutdown", None))
        self.answer(99)
        self.send(self.frame({"jsonrpc": "2.0", "method": "exit"}))
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        return self.proc.stderr.read().decode("utf-8", errors="replace")


def initialized(root) -> Lsp:
    """A server started in `root`, initialized (request 1) and told so."""
    server = Lsp(root)
    server.anonymous = []
    server.send(server.request(1, "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}))
    assert "capabilities" in server.answer(1)["result"]
    server.send(server.frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    return server


def test_language_server_keeps_answering_after_malformed_frames_and_bodies(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": SEED_DOUBLE})
    doc = (tmp_path / "加倍。着色器。豫").as_uri()
    server = initialized(tmp_path)
    hover = {"textDocument": {"uri": doc}, "position": {"line": 3, "character": 2}}
    # a frame larger than the cap, then a short body with no newline that swallows part of the next frame
    server.send(b"Content-Length: 999999999999\r\n\r\n")
    server.send(b"Content-Length: 40\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 2")
    server.send(server.request(3, "textDocument/hover", hover))    # eaten by the short frame
    server.send(server.request(4, "textDocument/hover", hover))
    assert "result" in server.answer(4)
    for body in (b"[]", b"123", b"null", b"{", b'{"jsonrpc": "2.0", "id": 5}'):
        server.send(server.frame(body))
    server.send(server.request(6, "textDocument/hover", {**hover, "textDocument": {"uri": "file:///a%00b"}}))
    assert server.answer(6)["result"] is None
    server.send(server.request(7, "着色/预览", {"uri": 3, "target": "wgsl"}))
    assert server.answer(7)["error"]["code"] == -32602
    server.send(server.request(8, "textDocument/hover", {"textDocument": {"uri": doc}, "position": {"line": -5}}))
    assert server.answer(8)["error"]["code"] == -32602
    server.send(server.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                              "params": {"textDocument": {"uri": "file:///x%00y", "languageId": "zhuose",
                                                          "version": 1, "text": "「"}}}))
    server.send(server.request(10, "着色/预览", {"uri": doc, "target": "wgsl"}))
    assert "@compute" in server.answer(10)["result"]["text"]
    errors = server.close()
    codes = [r["error"]["code"] for r in server.anonymous if r.get("id") is None]
    assert codes[0] == -32600 and "999999999999" in server.anonymous[0]["error"]["message"]   # oversized
    assert codes.count(-32700) >= 2 and codes.count(-32600) >= 4     # bad JSON; [] 123 null, no method
    assert "Traceback" not in errors, errors


def test_rename_refuses_names_that_are_not_valid_in_brackets():
    import pytest
    from zhuose.server.navigation import RenameRefused, check_new_name
    for bad in (" ", "\u3000", "\x00", "「 」", "甲\x07"):
        with pytest.raises(RenameRefused):
            check_new_name(bad)
    assert check_new_name("「新 名」") == "新 名"


def test_language_server_refuses_ids_it_cannot_echo_and_answers_after_shutdown(tmp_path):
    """Fuzzing round 3: ids NaN and Infinity were echoed as non-JSON ({"id": Infinity, "method":
    "shutdown"} shut the server down), object and list ids were dropped without a word, requests
    after a real shutdown got no answer, and a 包.json opened by the client was analysed as a shader."""
    write(tmp_path, {"加倍。着色器。豫": SEED_DOUBLE, "包.json": '{"名": "试", "依赖": ["点染"]}'})
    doc = (tmp_path / "加倍。着色器。豫").as_uri()
    server = initialized(tmp_path)
    server.send(server.frame(b'{"jsonrpc": "2.0", "id": Infinity, "method": "shutdown"}'))
    server.send(server.frame(b'{"jsonrpc": "2.0", "id": NaN, "method": "shutdown"}'))
    server.send(server.frame({"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}))
    server.send(server.frame({"jsonrpc": "2.0", "id": [2], "method": "shutdown"}))
    manifest = (tmp_path / "包.json").as_uri()
    server.send(server.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": manifest, "languageId": "json", "version": 1, "text": '{"名": "试", "依赖": ["点染"]}'}}}))
    hover = {"textDocument": {"uri": doc}, "position": {"line": 3, "character": 2}}
    server.send(server.request(2, "textDocument/hover", hover))
    assert "result" in server.answer(2)              # still running: none of the shutdowns counted
    server.send(server.request(3, "shutdown", None))
    assert server.answer(3)["result"] is None
    server.send(server.request(4, "textDocument/hover", hover))
    assert server.answer(4)["error"]["code"] == -32600
    server.send(server.frame({"jsonrpc": "2.0", "method": "exit"}))
    server.proc.stdin.close()
    server.proc.wait(timeout=30)
    errors = server.proc.stderr.read().decode("utf-8", errors="replace")
    codes = [r["error"]["code"] for r in server.anonymous if r.get("id") is None and "error" in r]
    assert codes.count(-32700) == 2 and codes.count(-32600) == 2, server.anonymous
    published = [r for r in server.anonymous if r.get("method") == "textDocument/publishDiagnostics"]
    assert all(p["params"]["uri"] != manifest for p in published), published
    assert "Traceback" not in errors, errors


def test_a_document_with_thousands_of_errors_publishes_a_thousand_and_a_count(tmp_path):
    """A one-line document with 100,000 errors held the server for over a minute."""
    write(tmp_path, {"加倍。着色器。豫": SEED_DOUBLE})
    server = initialized(tmp_path)
    uri = (tmp_path / "错。着色器。豫").as_uri()
    text = "「未」者「无」也。" * 5000
    server.send(server.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "zhuose", "version": 1, "text": text}}}))
    server.send(server.request(2, "shutdown", None))
    server.answer(2, timeout=60)
    published = [r for r in server.anonymous if r.get("method") == "textDocument/publishDiagnostics"
                 and r["params"]["uri"] == uri]
    diagnostics = published[-1]["params"]["diagnostics"]
    assert len(diagnostics) == 1001 and "还有 4000 条问题没有列出" in diagnostics[-1]["message"]
    assert diagnostics[-1]["code"] == "too-many"
    server.send(server.frame({"jsonrpc": "2.0", "method": "exit"}))
    server.proc.stdin.close()
    server.proc.wait(timeout=30)
