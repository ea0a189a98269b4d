"""The four executors of a compute entry — the reference interpreter, wgpu on
lavapipe (WGSL), the Metal CPU shim (MSL) and the PTX emulator — with one
signature, and `run_all`, one program on all four (the differential tests,
tests/test_differential.py, and the evaluation-order tests,
tests/test_effect_order.py)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from support.interp_runner import interpret, program


def interp(ws, path, item, data, groups, width=32):
    return interpret(ws, path, item, data, groups, subgroup_width=width)


def lavapipe(ws, path, item, data, groups):
    from support.wgpu_device import run_entry
    return run_entry(ws, path, item, data, groups)


def metal(ws, path, item, data, groups, folder: Path):
    from support.metal_shim.host import prepare, results
    from support.metal_shim.runner import Kernel, Runner, require_clang
    require_clang(pytest)
    d = prepare(ws, path, item, data, groups)
    runner = Runner([Kernel(item, d.msl, d.entry)], folder)
    return results(d, runner.dispatch(item, d.groups, d.buffers))


def ptx(ws, path, item, data, groups):
    from support.references import grid
    from support.ptx_runner import emulated, upload
    from zhuose.compiler import ir
    from zhuose.compiler.backends import translate
    result = translate(ws, path, "ptx")
    assert result.text is not None, [d.message for d in result.diagnostics]
    info = next(e for e in result.entries if e.item == item)
    used = {p.resource: (p.group, p.binding) for p in info.params if p.kind == "buffer" and p.resource}
    checked = ws.check(path)
    resources = {d.name: d for d in checked.module.decls if isinstance(d, ir.Resource)}
    buffers = {key: upload(data[name], resources[name]) for name, key in used.items()}
    out = emulated(result.text, info, buffers, grid(groups))
    return {name: np.frombuffer(out[key][:data[name].nbytes], dtype=data[name].dtype).reshape(data[name].shape)
            for name, key in used.items() if resources[name].access != "只读"}


def _reject_constant_overflow(folder: Path, text: str) -> None:
    """A constant subexpression that overflows (「新无三二」于「0」 减 …) is an error WGSL refuses at
    module creation, and 检查 or 译 with it (a 令-bound constant is known only once lowered): not a
    program to run, so hypothesis draws another."""
    from hypothesis import reject
    from zhuose.compiler.backends import translate
    from zhuose.compiler.workspace import Workspace
    path = folder / "常量。着色器。豫"
    path.write_text(text, encoding="utf-8")
    ws = Workspace(folder)
    if any("常量表达式在 WGSL 建模块时就求值" in d.message
           for d in [*ws.diagnostics(path), *translate(ws, path, "wgsl").diagnostics]):
        reject()
    path.unlink()


def run_all(text: str, item: str, data: dict, groups: int = 2, width: int = 32) -> dict[str, dict]:
    """The program on all four executors: name → output arrays."""
    pytest.importorskip("wgpu")
    with tempfile.TemporaryDirectory() as folder:
        _reject_constant_overflow(Path(folder), text)
        ws, path = program(Path(folder), "随机", text)
        out = {"参照": interp(ws, path, item, data, groups, width),
               "网页图算": lavapipe(ws, path, item, data, groups),
               "千手": ptx(ws, path, item, data, groups),
               "金属": metal(ws, path, item, data, groups, Path(folder))}
        return out
