"""The build service as a Bazel persistent worker (integrations/bazel):
`着色器 serve --build --persistent_worker` speaks Bazel's JSON worker
protocol, and `着色器 serve --build @参数文件` does one request the same way
when workers are off (a plain action).

A request's arguments (what the rule writes into the parameter file):

    --target wgsl|msl|ptx --output bazel-out/…/加倍.wgsl [--package 数学/包.json]… 应用/加倍。着色器。豫

They become one protocol-2 request to the BuildService (目标, 输出, 包, 文件), whose
warm core and user cache answer it.  A WorkRequest is
{"arguments": […], "inputs": [{"path", "digest"}…], "requestId": n} (Bazel
sends no newline between messages); {"requestId": n, "cancel": true} cancels
one not yet answered; each answer is {"exitCode", "output", "requestId"} and
"wasCancelled" for a cancelled one.  The inputs and their digests are Bazel's
declared inputs: the workspace notices changed files by itself (stamps, then
contents), so the worker needs only the arguments.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import TextIO

from ..backends.targets import BY_NAME as TARGETS
from .service import BuildService, Requests

#: the flags of one request's arguments and the service request field each fills
FLAGS = {"--target": "目标", "--output": "输出"}
#: the flag that may be repeated: each package manifest among the inputs
PACKAGE_FLAG = "--package"


def bazel_text(text: str) -> str:
    """A path as Bazel wrote it: Bazel keeps strings as Latin-1 internally and
    writes the UTF-8 bytes of a non-ASCII path as one character each, so those
    characters are turned back into the bytes and read as UTF-8 (text that is
    not such a sequence is left alone)."""
    try:
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


def request_of(arguments: list[str]) -> dict | str:
    """The service request for a worker request's arguments, or why they are wrong."""
    request: dict = {"协议": 2}
    words = [bazel_text(a) for a in arguments]
    while words:
        word = words.pop(0)
        if word in FLAGS and words:
            request[FLAGS[word]] = words.pop(0)
        elif word == PACKAGE_FLAG and words:
            request.setdefault("包", []).append(words.pop(0))
        elif not word.startswith("--") and "文件" not in request:
            request["文件"] = word
        else:
            return f"看不懂的参数「{word}」：应为 --target {'|'.join(TARGETS)} --output 文件 [--package 包.json]… 着色源"
    if "文件" not in request or "输出" not in request:
        return "参数须有着色源与 --output 文件"
    return request


def work(service: BuildService, arguments: list[str], cancelled: threading.Event) -> tuple[int, str, bool]:
    """(exit code, what to show, whether it was cancelled) for one request's arguments."""
    request = request_of(arguments)
    if isinstance(request, str):
        return 2, request, False
    reply = service.answer(json.dumps(request, ensure_ascii=False), cancelled)
    shown = "\n".join(reply["错误"] + reply["警告"])
    return (1 if reply["错误"] else 0), shown, reply.get("已取消", False)


def _response(service: BuildService, request: dict, cancelled: threading.Event) -> dict:
    arguments = request.get("arguments", [])
    if not (isinstance(arguments, list) and all(isinstance(a, str) for a in arguments)):
        code, shown, was_cancelled = 2, "「arguments」须是字符串的列表", False
    else:
        code, shown, was_cancelled = work(service, arguments, cancelled)
    response = {"exitCode": code, "output": shown, "requestId": _request_id(request)}
    return {**response, "wasCancelled": True} if was_cancelled else response


def messages(stdin: int):
    """JSON objects read from a file descriptor as they arrive (one read may hold
    part of one, or several) until end of input; text that never completes a
    JSON value is left unanswered (Bazel writes only whole messages)."""
    decoder, pending = json.JSONDecoder(), ""
    raw = b""
    while data := os.read(stdin, 1 << 16):
        raw += data
        try:
            pending += raw.decode("utf-8")
            raw = b""
        except UnicodeDecodeError:      # a character split between two reads
            continue
        while pending.strip():
            try:
                message, end = decoder.raw_decode(pending.lstrip())
            except json.JSONDecodeError:
                break
            pending = pending.lstrip()[end:]
            yield message


def serve_worker(stdin: int, stdout: TextIO, root: str | Path) -> int:
    """Answer Bazel work requests until end of input; returns 0."""
    service = BuildService(root)
    writing = threading.Lock()

    def write(response: dict) -> None:
        with writing:
            stdout.write(json.dumps(response) + "\n")
            stdout.flush()

    requests = Requests(lambda request, cancelled: _response(service, request, cancelled), write)
    try:
        for message in messages(stdin):
            if not isinstance(message, dict):
                write({"exitCode": 2, "output": "工作请求须是 JSON 对象", "requestId": 0})
            elif message.get("cancel"):
                requests.cancel(_request_id(message))
            else:
                requests.submit(_request_id(message), message)
    finally:
        requests.close()
        service.flush()
    return 0


def _request_id(message: dict) -> int:
    """Bazel's requestId (0 for a singleplex worker, also when it is not an integer)."""
    value = message.get("requestId", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def run_once(flagfile: str, stderr: TextIO, root: str | Path) -> int:
    """One request from a parameter file (one argument a line): the plain action."""
    try:
        text = Path(flagfile).read_text(encoding="utf-8")
        arguments = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")   # not splitlines: \x85 is
        # a line break to it, and Bazel writes 包 (E5 8C 85) as three characters, the last \x85
    except OSError as err:
        stderr.write(f"读不了参数文件「{flagfile}」：{err.strerror}\n")
        return 2
    service = BuildService(root)
    code, shown, _ = work(service, arguments, threading.Event())
    service.flush()
    if shown:
        stderr.write(shown + "\n")
    return code
