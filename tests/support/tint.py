"""Tint (Dawn's WGSL compiler, the one inside Chrome) as the tests' second WGSL
judge, next to naga: tests/tint/check.mjs runs Dawn's null backend in one node
process per test session and answers each shader with Tint's messages.

Tint runs the WGSL uniformity analysis naga lacks.  Without node or
`(cd tests/tint && npm ci)` the check fails when CI=true and is otherwise
announced on stderr once and left out (naga still judges).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1] / "tint"
_process: subprocess.Popen | None = None
_missing: str | None = None


def _start() -> subprocess.Popen | None:
    global _process, _missing
    if _process is not None and _process.poll() is None:
        return _process
    node = shutil.which("node")
    reason = ("没有 node" if node is None else
              "没有 tests/tint/node_modules（先运行 (cd tests/tint && npm ci)）"
              if not (HERE / "node_modules" / "webgpu").is_dir() else None)
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI 上必须能用 Tint 校验 WGSL：{reason}")
        if _missing is None:
            sys.stderr.write(f"跳过 Tint 校验：{reason}\n")
        _missing = reason
        return None
    _process = subprocess.Popen([node, str(HERE / "check.mjs")], cwd=HERE, text=True, encoding="utf-8",
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    atexit.register(_process.kill)
    return _process


def tint_messages(wgsl: str) -> list[dict] | None:
    """Tint's messages for `wgsl` ({type, line, column, message}), or None where
    Tint is not installed (outside CI)."""
    process = _start()
    if process is None:
        return None
    process.stdin.write(json.dumps({"wgsl": wgsl}) + "\n")
    process.stdin.flush()
    line = process.stdout.readline()
    if not line:
        pytest.fail(f"Tint 的 node 进程意外退出（退出码 {process.wait()}）")
    answer = json.loads(line)
    if "error" in answer:
        pytest.fail(f"Tint 校验出错：{answer['error']}")
    return answer["messages"]


def tint_errors(wgsl: str) -> list[str] | None:
    """Tint's error messages as 'line:column message' (notes joined under their error)."""
    messages = tint_messages(wgsl)
    if messages is None:
        return None
    errors: list[str] = []
    for m in messages:
        text = f"{m['line']}:{m['column']} {m['message']}"
        if m["type"] == "error":
            errors.append(text)
        elif errors and m["type"] == "info":
            errors[-1] += f"\n  注：{text}"
    return errors


def tint_accepts(wgsl: str) -> bool:
    errors = tint_errors(wgsl)
    return errors is None or not errors


def tint_validate(wgsl: str) -> None:
    """Fail the test with Tint's messages if Tint rejects the WGSL."""
    errors = tint_errors(wgsl)
    if errors:
        pytest.fail("Tint 拒绝了生成的 WGSL：\n" + "\n".join(errors) + f"\n--- WGSL ---\n{wgsl}")
