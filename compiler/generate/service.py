"""The build service: `着色器 服务 --构建` reads one JSON request per line and
answers each with one JSON line, keeping the incremental core warm between
requests (docs/生成.md).

Request:  {"文件": "应用/加倍。着色器。豫", "输出目录": "产物", "编号": 7}
          (输出目录 and 编号 optional; relative paths are from the workspace root)
Reply:    {"编号": 7, "文件": …, "模块": text or null, "错误": ["文件:行:列: 消息", …],
           "警告": […], "改动": bool, "输出": written path or null}

改动 is whether the output file was (re)written; without 输出目录, whether the
text differs from this service's previous answer for the same file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from ..packages import SHADER_SUFFIX
from ..workspace import Workspace
from .api import Generator
from .module import display_path
from .output import os_error_text


class BuildService:
    """Answers build requests against one warm Generator."""

    def __init__(self, workspace: Workspace) -> None:
        self.gen = Generator(workspace)
        self._answered: dict[str, str | None] = {}

    def _path(self, value: str) -> Path:
        path = Path(value)
        return path if path.is_absolute() else self.gen.ws.root / path

    def answer(self, line: str) -> dict:
        try:
            request = json.loads(line)
        except json.JSONDecodeError as err:
            return _error(None, None, f"请求不是合法的 JSON：{err.msg}（第 {err.colno} 列）")
        if not isinstance(request, dict):
            return _error(None, None, "请求须是 JSON 对象：{\"文件\": …, \"输出目录\": …}")
        number, file, out_dir = request.get("编号"), request.get("文件"), request.get("输出目录")
        problem = _request_problem(file, out_dir, self._path(file) if isinstance(file, str) else None)
        if problem:
            return _error(number, file, problem)
        return self._generate(number, file, self._path(file), out_dir and self._path(out_dir))

    def _generate(self, number, file: str, path: Path, out_dir: Path | None) -> dict:
        try:
            result = self.gen.write(path, out_dir) if out_dir else None
        except OSError as err:
            return _error(number, file, f"写不了生成模块：{os_error_text(err)}（{err.filename or out_dir}）")
        generated = result.generated if result else self.gen.generate(path)
        ws = self.gen.ws
        if result is None:
            changed = self._answered.get(generated.source, None) != generated.text
        else:
            changed = result.changed
        self._answered[generated.source] = generated.text     # every answer is the previous one of the next
        return {"编号": number, "文件": file, "模块": generated.text,
                "错误": [d.format(ws.source(d.path), _shown(ws, d.path)) for d in generated.diagnostics],
                "警告": generated.warnings, "改动": changed,
                "输出": str(result.output) if result and result.output else None}


def _shown(ws: Workspace, path: str) -> str:
    try:
        return Path(path).relative_to(ws.root).as_posix()
    except ValueError:
        return display_path(ws, path)


def _request_problem(file, out_dir, path: Path | None) -> str | None:
    if not isinstance(file, str) or not file:
        return "请求缺少「文件」（着色源的路径，字符串）"
    if out_dir is not None and not isinstance(out_dir, str):
        return "「输出目录」须是字符串"
    if not path.name.endswith(SHADER_SUFFIX):
        return f"「{file}」不是着色源：只有「名{SHADER_SUFFIX}」生成模块"
    if path.is_dir():
        return f"「{file}」是文件夹，不是着色源文件"
    if not path.is_file():
        return f"找不到文件「{file}」"
    return None


def _error(number, file, message: str) -> dict:
    return {"编号": number, "文件": file, "模块": None, "错误": [message], "警告": [], "改动": False, "输出": None}


def serve_build(stdin: TextIO, stdout: TextIO, workspace: Workspace) -> int:
    """Answer JSON-lines requests from `stdin` on `stdout` until end of input; returns 0."""
    service = BuildService(workspace)
    for line in stdin:
        if not line.strip():
            continue
        try:
            reply = service.answer(line)
        except Exception as err:  # noqa: BLE001 — one bad request must not end the service
            reply = _error(None, None, f"内部错误（{type(err).__name__}：{err}）")
        stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
