"""The reference interpreter in the tests: `interpret`, the runner the NumPy
references use, and the small programs the fault and differential tests write
(`program` checks one, expecting the uniformity refusal when it is divergent)."""

from __future__ import annotations

import numpy as np

from support.references import StorageTexture, entry_buffers, read_back, storage_bindings
from zhuose.compiler.interp import run
from zhuose.compiler.runtime.wgpu import buffer_for
from zhuose.compiler.workspace import Workspace


def interpret(ws, path, entry: str, data: dict, groups, textures=(), **options) -> dict:
    """A runner of support/references.py: the sample on the reference interpreter."""
    resources = entry_buffers(ws, path, entry, data)
    buffers = {(r.group, r.binding): buffer_for(r, np.ascontiguousarray(data[r.name]).tobytes()).data
               for r in resources}
    storage = storage_bindings(ws, path, entry, textures)
    images = {(g, b): t for g, b, t in (t for t in textures if not isinstance(t, StorageTexture))}   # texels, samplers
    images.update({key: (t.width, t.height, t.depth) if t.initial is None else t.initial for t, key in storage.values()})
    out = run(ws, path, entry, buffers, groups, textures=images, **options)
    return {**read_back(resources, data, out), **{name: out[key] for name, (_, key) in storage.items()}}



HEADER = "寻观「点染」之「点染本」之书。\n\n"


def buffer(name: str, number: str, element: str = "「无三二」", access: str = "读写") -> str:
    return (f"「{name}」乃「存储缓冲」于（「数组」于{element}）也。\n"
            f"「{name}」者「绑定」于（「组值」【「组」者「零」也，「号」者「{number}」也，「访问」者「{access}」也】）也。\n\n")


def entry(function: str, size: str = "六四") -> str:
    return (f"\n「{function}入口」乃「计算入口」也。\n"
            f"「{function}入口」者「计算入口项」于「{function}」于（「组值」【「工作组大小」者「{size}」也】）也。\n")


NOT_UNIFORM = ("须在一致控制流中执行", "须在子组内一致的控制流中执行")   # the workgroup's scope, the subgroup's


def program(tmp_path, name: str, text: str, divergent: bool = False):
    """A checked source; `divergent` ones are refused by 检查's uniformity analysis (and by 运行), and
    the interpreter, which does not trust that analysis, must find the same mistake when it happens."""
    path = tmp_path / f"{name}。着色器。豫"
    path.write_text(text, encoding="utf-8")
    ws = Workspace(tmp_path)
    errors = [d.message for d in ws.diagnostics(path) if d.severity == "错误"]
    if divergent:
        assert errors and all(any(words in m for words in NOT_UNIFORM) for m in errors), errors
    else:
        assert not errors, errors
    return ws, path
