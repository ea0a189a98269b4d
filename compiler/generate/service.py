"""The build service: `着色器 服务 --构建` reads one JSON request per line and
answers each with one JSON line, keeping the incremental core warm between
requests (docs/生成.md).

Request:  {"文件": "应用/加倍。着色器。豫", "输出目录": "产物", "编号": 7}
          (输出目录 and 编号 optional; relative paths are from the workspace root,
          and both must stay inside it)
Reply:    {"编号": 7, "文件": …, "模块": text or null, "错误": ["文件:行:列: 消息", …],
           "警告": […], "改动": bool, "输出": written path or null}

改动 is whether the output file was (re)written; without 输出目录, whether the
text differs from this service's previous answer for the same file.

A request with "协议": 2 (what the Vite plugin and other integrations send)
gets a reply that also carries "协议": 2, "依赖" (every file the answer
depends on, absolute: what a watcher watches), "导出" (the module's
definitions by name, the strings read back; null on errors) and "错误位置"
([{"文件": absolute path, "行", "列" (1-based), "消息"}]), "已取消".
Protocol 2 also takes "目标" ("wgsl", "msl", "ptx"; default the module) with
"输出" (one file: that target's text is written there, as `着色器 译 -o`), "包" (the
包.json files of packages the root's walk cannot find: declared inputs in
folders reached through links, as in Bazel's execroot), and
{"取消": 编号}, which answers that request with "已取消": true if it has not
been answered yet (the cancel itself gets no reply).

The service is safe to call from many threads (one lock around the warm core
and its records); `serve_build` reads the next requests, cancellations among
them, while one is being answered.  Several services on one workspace share
the user cache safely (atomic replacement), which is how builds run requests
in parallel (Bazel starts several workers).
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import stat
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .. import ledger
from ..backends.targets import BY_NAME as TARGETS      # what a protocol-2 request's 目标 may name
from ..packages import SHADER_SUFFIX
from . import remembered
from .escape import definitions, failure_note_start
from .output import os_error_text, write_if_changed

if TYPE_CHECKING:   # the checker and back ends load at the first request the ledger cannot answer
    from ..ledger import Ledger
    from ..workspace import Workspace
    from .api import Generator

#: the protocol versions a request may name ("协议"); 1 is a request without it
PROTOCOLS = (1, 2)

#: the ledger is written at most this often (and at the end of input): a killed
#: service loses only the last records, which are then misses
SAVE_EVERY_S = 1.0


class BuildService:
    """Answers build requests from the ledger of earlier runs (as `生成`
    does), else against one warm Generator."""

    def __init__(self, workspace: Workspace | str | Path) -> None:
        self._gen: Generator | None = None
        if isinstance(workspace, (str, os.PathLike)):
            self.root = Path(workspace).resolve()
        else:
            self._gen = self._generator(workspace)
            self.root = workspace.root
        self._answered: dict[str, str | None] = {}
        self._books: dict[str | None, Ledger] = {}
        self._unsaved: set[str | None] = set()
        self._saved_at = time.monotonic()
        self._lock = threading.RLock()     # the warm core and the records are not thread-safe

    @staticmethod
    def _generator(workspace) -> Generator:
        from .api import Generator
        return Generator(workspace)

    @property
    def gen(self) -> Generator:
        """The warm Generator, made at the first request the ledger cannot answer."""
        if self._gen is None:
            self._gen = self._generator(str(self.root))
        return self._gen

    def answer(self, line: str, cancelled: threading.Event | None = None) -> dict:
        """One reply; it carries the request's 编号 whenever the line had one.
        A request whose `cancelled` is set before its output is written is
        answered 已取消 and writes nothing."""
        try:
            request = json.loads(line, parse_int=_integer)
        except json.JSONDecodeError as err:
            return _error(_salvaged_number(line), None, f"请求不是合法的 JSON：{err.msg}（第 {err.colno} 列）")
        except RecursionError:
            return _error(_salvaged_number(line), None, "请求的 JSON 嵌套过深")
        if not isinstance(request, dict):
            return _error(None, None, "请求须是 JSON 对象：{\"文件\": …, \"输出目录\": …}")
        number, file, out_dir = request.get("编号"), request.get("文件"), request.get("输出目录")
        if not _is_number(number):
            return _error(None, _json_safe(file), "「编号」须是字符串、整数或有限的小数")
        version = request.get("协议", 1)
        if version not in PROTOCOLS or isinstance(version, bool):
            return _error(number, _json_safe(file), f"不认识的「协议」{json.dumps(version, ensure_ascii=False)}：可选 "
                          + "、".join(map(str, PROTOCOLS)))
        target, output, manifests = request.get("目标"), request.get("输出"), request.get("包", [])
        problem = _target_problem(version, target, output, out_dir) or _manifests_problem(version, manifests)
        if problem:
            return _error(number, _json_safe(file), problem)
        reply = self._answer(number, file, out_dir, cancelled or threading.Event(), target, output, manifests)
        return self._versioned(reply, version) if version >= 2 else _public(reply)

    def _answer(self, number, file, out_dir, cancelled: threading.Event, target=None, output=None,
                manifests=()) -> dict:
        problem = _request_problem(file, out_dir)
        if problem:
            return _error(number, _json_safe(file), problem)
        path, out = _inside(self.root, file), out_dir and _inside(self.root, out_dir)
        problem = _path_problem(self.root, file, out_dir, path, out)
        if problem:
            return _error(number, file, problem)
        target_file = output and _inside(self.root, output)
        if output and target_file is None:
            return _error(number, file, f"「输出」「{output}」在工作区根目录 {self.root} 之外")
        manifest_files = [_inside(self.root, m) for m in manifests]
        if None in manifest_files:
            outside = manifests[manifest_files.index(None)]
            return _error(number, file, f"「包」「{outside}」在工作区根目录 {self.root} 之外")
        try:
            with self._lock:
                if cancelled.is_set():
                    return _cancelled(number, file)
                reply = (self._recalled(number, file, path, out)
                         or self._generate(number, file, path, out, cancelled, manifest_files))
                return self._written(reply, target, target_file, cancelled) if target else reply
        except Exception as err:  # noqa: BLE001 — one bad request must not end the service
            return _error(number, file, f"内部错误（{type(err).__name__}：{err}）")

    @staticmethod
    def _written(reply: dict, target: str, output: Path | None, cancelled: threading.Event) -> dict:
        """A target's text (read from the module) as the reply's 模块, written to `output`."""
        if reply["模块"] is None:
            return reply
        title = TARGETS[target].title
        text = definitions(reply["模块"]).get(TARGETS[target].export, "")
        if text.startswith(failure_note_start(title)):      # the note the module holds in its place
            return {**reply, "模块": None, "错误": [f"{reply['文件']}: {text.removeprefix('// 着色生成：')}"],
                    "警告": [], "改动": False}
        if cancelled.is_set():
            return _cancelled(reply["编号"], reply["文件"], reply["_依赖"])
        try:
            changed = write_if_changed(output, text) if output else reply["改动"]
        except OSError as err:
            return _error(reply["编号"], reply["文件"], f"写不了输出：{os_error_text(err)}（{err.filename or output}）")
        return {**reply, "模块": text, "警告": [], "改动": changed, "输出": str(output) if output else None,
                "_目标": target}      # the module's warnings are about the other targets

    def _versioned(self, reply: dict, version: int) -> dict:
        """Protocol 2's fields (the private 依赖 and 错误位置 a reply was made with
        become public; 导出 is read back from the module's text)."""
        dependencies = reply.pop("_依赖", [])
        places = reply.pop("_错误位置", None)
        text = reply["模块"]
        cancelled = reply.pop("_已取消", False)
        module = text if not reply.pop("_目标", None) else None      # a target's text has no definitions
        return {"协议": version, **reply, "依赖": dependencies, "已取消": cancelled,
                "导出": definitions(module) if module is not None else None,
                "错误位置": places if places is not None else [{"文件": None, "行": 1, "列": 1, "消息": m} for m in reply["错误"]]}

    def flush(self) -> None:
        """Write the ledger records not yet saved."""
        for out_dir in self._unsaved:
            self._book(out_dir).save()
        self._unsaved.clear()
        self._saved_at = time.monotonic()

    def _book(self, out_dir: Path | str | None) -> Ledger:
        key = str(out_dir) if out_dir else None
        if key not in self._books:
            self._books[key] = remembered.book(key, self.root)
        return self._books[key]

    def _recalled(self, number, file: str, path: Path, out_dir: Path | None) -> dict | None:
        """The answer when an earlier run made this module from the same inputs (None: generate)."""
        source = os.path.realpath(path)
        last = remembered.recall(self._book(out_dir), source)
        text = last and last.text()
        if text is None:
            return None
        changed = out_dir is None and self._answered.get(source) != text
        self._answered[source] = text
        return {"编号": number, "文件": file, "模块": text, "错误": [], "警告": last.warnings,
                "改动": changed, "输出": last.output, "_依赖": last.inputs, "_错误位置": []}

    def _generate(self, number, file: str, path: Path, out_dir: Path | None, cancelled: threading.Event,
                  manifests=()) -> dict:
        for manifest in manifests:
            self.gen.ws.packages.add_manifest(manifest)
        generated = self.gen.generate(path)
        if cancelled.is_set():      # checked after the work that takes time, before anything is written
            return _cancelled(number, file, ledger.present(ledger.workspace_inputs(self.gen.ws, generated.source)))
        try:
            result = self.gen.write(path, out_dir) if out_dir else None
        except OSError as err:
            return _error(number, file, f"写不了生成模块：{os_error_text(err)}（{err.filename or out_dir}）")
        generated = result.generated if result else generated
        ws = self.gen.ws
        if result is None:
            changed = self._answered.get(generated.source, None) != generated.text
        else:
            changed = result.changed
        self._answered[generated.source] = generated.text     # every answer is the previous one of the next
        if generated.text is not None:
            self._record(generated, out_dir, result and result.output)
        return {"编号": number, "文件": file, "模块": generated.text,
                "错误": [d.format(ws.source(d.path), _shown(ws, d.path)) for d in generated.diagnostics],
                "警告": generated.warnings, "改动": changed,
                "输出": str(result.output) if result and result.output else None,
                "_依赖": ledger.present(ledger.workspace_inputs(ws, generated.source)),
                "_错误位置": [_place(ws, d) for d in generated.diagnostics]}

    def _record(self, generated, out_dir: Path | None, output: Path | None) -> None:
        remembered.remember(self._book(out_dir), self.gen.ws, generated, output)
        self._unsaved.add(str(out_dir) if out_dir else None)
        if time.monotonic() - self._saved_at >= SAVE_EVERY_S:
            self.flush()


def _public(reply: dict) -> dict:
    """A protocol-1 reply: without what only protocol 2 shows."""
    return {k: v for k, v in reply.items() if not k.startswith("_")}


def _place(ws: Workspace, d) -> dict:
    """A diagnostic for an editor or an error overlay: absolute file, 1-based line and column."""
    pos = ws.source(d.path).position(d.start)
    return {"文件": d.path, "行": pos.line + 1, "列": pos.column + 1, "消息": d.full_message()}


def _shown(ws: Workspace, path: str) -> str:
    try:
        return Path(path).relative_to(ws.root).as_posix()
    except ValueError:
        from .module import display_path
        return display_path(ws, path)


class RawNumber(str):
    """An integer too long for Python to read (over 4,300 digits), kept as its
    digits so the reply echoes the request's 编号 exactly (`_line`)."""


def _integer(digits: str):
    return int(digits) if len(digits) <= 4000 else RawNumber(digits)


def _is_number(value) -> bool:
    """编号 is echoed back, so it must be JSON: no NaN, no Infinity."""
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, int))


def _salvaged_number(line: str):
    """The 编号 of a line that is not JSON as a whole, when it is plainly there."""
    found = _NUMBER_FIELD.search(line)
    if not found:
        return None
    try:
        value = json.loads(found.group(1), parse_int=_integer)
    except (ValueError, RecursionError):
        return None
    return value if _is_number(value) else None


_NUMBER_FIELD = re.compile(r'"编号"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"(?:[^"\\]|\\.)*")')


def _request_problem(file, out_dir) -> str | None:
    if not isinstance(file, str) or not file:
        return "请求缺少「文件」（着色源的路径，字符串）"
    if out_dir is not None and not isinstance(out_dir, str):
        return "「输出目录」须是字符串"
    if out_dir == "":
        return "「输出目录」是空字符串：不写文件就省掉这一项"
    for key, value in (("文件", file), ("输出目录", out_dir)):
        if value is not None and not _usable(value):
            return f"「{key}」含有不能用在路径里的字符（NUL 或单独的代理码位）"
    if not file.endswith(SHADER_SUFFIX):
        return f"「{file}」不是着色源：只有「名{SHADER_SUFFIX}」生成模块"
    return None


def _path_problem(root: Path, file: str, out_dir: str | None, path: Path | None, out: Path | None) -> str | None:
    """The rules of docs/生成.md: both paths inside the workspace root (`path`
    and `out` are None outside it), the source a regular file."""
    for key, value, inside in (("文件", file, path), ("输出目录", out_dir, out)):
        if value is not None and inside is None:
            return f"「{key}」「{value}」在工作区根目录 {root} 之外"
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return f"找不到文件「{file}」"
    except OSError as err:
        return f"读不了「{file}」：{os_error_text(err)}"
    if stat.S_ISDIR(mode):
        return f"「{file}」是文件夹，不是着色源文件"
    if not stat.S_ISREG(mode):
        return f"「{file}」不是普通文件（管道、设备或套接字），不能作着色源"
    return None


def _inside(root: Path, value: str) -> Path | None:
    """root/value with . and .. resolved as written; None when it leaves root."""
    top = str(root)
    path = os.path.normpath(os.path.join(top, value))
    return Path(path) if path == top or path.startswith(top.rstrip(os.sep) + os.sep) else None


def _usable(value: str) -> bool:
    return "\0" not in value and not any("\ud800" <= c <= "\udfff" for c in value)


def _json_safe(value):
    return value if isinstance(value, str) or value is None else None


def _target_problem(version, target, output, out_dir) -> str | None:
    if target is None and output is None:
        return None
    if version < 2:
        return "「目标」与「输出」要协议 2（请求加 \"协议\": 2）"
    if not isinstance(target, str) or target not in TARGETS:
        return f"不认识的「目标」{json.dumps(target, ensure_ascii=False)}：可选 " + "、".join(TARGETS)
    if output is not None and (not isinstance(output, str) or not output or not _usable(output)):
        return "「输出」须是非空的文件路径（字符串）"
    if out_dir is not None:
        return "「输出」与「输出目录」不能同用：目标的文字写进一个文件"
    return None


def _manifests_problem(version, manifests) -> str | None:
    if manifests == []:
        return None
    if version < 2:
        return "「包」要协议 2（请求加 \"协议\": 2）"
    if not isinstance(manifests, list) or not all(isinstance(m, str) and m and _usable(m) for m in manifests):
        return "「包」须是 包.json 路径（字符串）的列表"
    return None


def _cancelled(number, file, dependencies=()) -> dict:
    return {**_error(number, file, "请求已取消"), "_已取消": True, "_依赖": list(dependencies)}


def _error(number, file, message: str) -> dict:
    return {"编号": number, "文件": file, "模块": None, "错误": [message], "警告": [], "改动": False, "输出": None}


def _line(reply: dict) -> str:
    """The reply as one JSON line; a lone surrogate echoed from the request is
    written escaped (it cannot be UTF-8)."""
    text = json.dumps(reply, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(reply, allow_nan=False)
    number = reply.get("编号")
    if isinstance(number, RawNumber):        # written as the number it was, not as a string
        text = text.replace(json.dumps(number), number, 1)
    return text + "\n"


def _lines(stdin: TextIO):
    """Text lines; bytes that are not UTF-8 become U+FFFD instead of ending the service."""
    raw = getattr(stdin, "buffer", None)
    if raw is None:
        yield from stdin
        return
    for data in raw:
        yield data.decode("utf-8", errors="replace")


class Requests:
    """Requests answered one at a time in arrival order on a thread of their
    own, so that the reader sees the next lines (a cancellation of a waiting or
    running request among them) while one is answered."""

    def __init__(self, answer, write) -> None:
        self._answer, self._write = answer, write        # answer(request, cancelled) -> reply
        self._queue: queue.Queue = queue.Queue()
        self._pending: dict[object, list[threading.Event]] = {}
        self._guard = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="着色构建服务", daemon=True)
        self._thread.start()

    def submit(self, key, request) -> None:
        """Queue a request; `key` (its 编号, None: not cancellable) is what a cancellation names."""
        cancelled = threading.Event()
        with self._guard:
            self._pending.setdefault(key, []).append(cancelled)
        self._queue.put((key, request, cancelled))

    def cancel(self, key) -> None:
        """Cancel every request with this key not yet answered (one already answered stays answered)."""
        with self._guard:
            for cancelled in self._pending.get(key, ()):
                cancelled.set()

    def close(self) -> None:
        """Answer what is queued, then stop."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            key, request, cancelled = job
            try:
                self._write(self._answer(request, cancelled))
            finally:
                with self._guard:
                    waiting = self._pending[key]
                    waiting.remove(cancelled)
                    if not waiting:
                        del self._pending[key]


def serve_build(stdin: TextIO, stdout: TextIO, workspace: Workspace | str | Path) -> int:
    """Answer JSON-lines requests from `stdin` on `stdout` until end of input; returns 0."""
    service = BuildService(workspace)
    writing = threading.Lock()

    def write(reply: dict) -> None:
        with writing:
            stdout.write(_line(reply))
            stdout.flush()

    requests = Requests(lambda line, cancelled: _safe_answer(service, line, cancelled), write)
    try:
        for line in _lines(stdin):
            if not line.strip():
                continue
            cancel = _cancellation(line)
            if cancel is None:
                requests.submit(_salvaged_number(line), line)
            elif isinstance(cancel, dict):
                write(cancel)
            else:
                requests.cancel(cancel[0])
    finally:
        requests.close()
        service.flush()
    return 0


def _safe_answer(service: BuildService, line: str, cancelled: threading.Event) -> dict:
    try:
        return service.answer(line, cancelled)
    except Exception as err:  # noqa: BLE001 — one bad request must not end the service
        return _error(None, None, f"内部错误（{type(err).__name__}：{err}）")


def _cancellation(line: str) -> tuple | dict | None:
    """(编号,) when the line is a cancellation {"取消": 编号}, an error reply when
    it is a malformed one, None when it is a request."""
    try:
        request = json.loads(line, parse_int=_integer)
    except (ValueError, RecursionError):
        return None
    if not isinstance(request, dict) or "取消" not in request:
        return None
    number = request["取消"]
    if number is None or not _is_number(number):
        return _error(None, None, "「取消」须是要取消的请求的「编号」（字符串、整数或有限的小数）")
    return (number,)
