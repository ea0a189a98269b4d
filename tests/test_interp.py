"""The reference interpreter (compiler/interp/): every compute sample against
its NumPy reference (tests/references.py), each kind of fault reported at the
right place with the invocations named (and a correct sibling not reported),
subgroup widths, determinism and the 运行 command line."""

from __future__ import annotations

import numpy as np
import pytest

from references import NOT_WGSL, REFERENCES, SAMPLES, sample_path
from zhuose.compiler import ir
from zhuose.compiler.backends.wgsl.dispatch import buffer_for, entry_resources
from zhuose.compiler.interp import Fault, run
from zhuose.compiler.workspace import Workspace

WS = Workspace(SAMPLES)


def interpret(ws, path, entry: str, data: dict, groups, textures=(), **options) -> dict:
    """A runner of tests/references.py: the sample on the reference interpreter."""
    checked = ws.check(path)
    modules = [ws.check(p).module for p in checked.module.imports] + [checked.module]
    decl = next(d for d in checked.module.decls if isinstance(d, ir.Entry) and d.name == entry)
    resources = [r for r in entry_resources(modules, decl.function) if r.kind in ("storage", "uniform")]
    assert sorted(r.name for r in resources) == sorted(data), "给出的缓冲与入口用到的不一致"
    buffers = {(r.group, r.binding): buffer_for(r, np.ascontiguousarray(data[r.name]).tobytes()).data
               for r in resources}
    images = {(g, b): t for g, b, t in textures if isinstance(t, np.ndarray)}
    out = run(ws, path, entry, buffers, groups, textures=images, **options)
    arrays = {}
    for r in resources:
        if (r.group, r.binding) in out:
            a = data[r.name]
            arrays[r.name] = np.frombuffer(out[(r.group, r.binding)][:a.nbytes], dtype=a.dtype).reshape(a.shape)
    return arrays


def sample_run(sample: str, entry: str, data: dict, groups, textures=()) -> dict:
    return interpret(WS, sample_path(sample), entry, data, groups, textures)


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_runs_like_numpy(name):
    if name in NOT_WGSL:
        pytest.skip(f"跳过：{name} 用子组矩阵片（着十二），参照解释器与 WGSL 一样不运行它")
    REFERENCES[name](sample_run)
