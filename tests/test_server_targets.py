"""Hover's per-target spellings come from each back end's public
`builtin_spelling`, which reads that back end's own builtin table."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from zhuose.compiler.backends import msl, ptx, wgsl
from zhuose.compiler.types import TCon, TFun, TTuple, resolve
from zhuose.compiler.workspace import Workspace
from zhuose.server.targets import builtin_spellings

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = ROOT / "compiler" / "backends"

#: Builtins that are no call: constant values and the words of resource and
#: entry declarations, which the WGSL writer spells in its declaration code.
#: values that are not calls: WGSL writes them inline; their spelling comes from the declaration table
VALUE_WORDS = set("元 阳 阴 只读 读写".split())


@pytest.fixture(scope="module")
def interface():
    return Workspace(str(ROOT)).builtins().exports


def type_names(t) -> set[str]:
    """The names of the type constructors in `t` (子组矩阵片甲 in a signature)."""
    t = resolve(t)
    names = {t.alias} if getattr(t, "alias", None) else set()
    if isinstance(t, TCon):
        names.add(t.name)
        parts = [a for a in t.args if not isinstance(a, int)]
    elif isinstance(t, TFun):
        parts = [*t.params, t.result]
    elif isinstance(t, TTuple):
        parts = list(t.items)
    else:
        parts = []
    return names.union(*(type_names(p) for p in parts))


def test_every_builtin_has_a_wgsl_spelling_or_is_documented_as_wgsl_less(interface):
    builtins = {name for name, v in interface.values.items() if v.kind == "builtin"}
    unspelled = {name for name in builtins if wgsl.builtin_spelling(name) is None}
    wgsl_less_types = {name for name, t in interface.types.items() if "WGSL 没有" in (t.doc or "")}
    assert {"子组矩阵片甲", "子组矩阵片乙", "子组矩阵片累"} <= wgsl_less_types
    documented = {name for name in builtins
                  if type_names(interface.values[name].type) & wgsl_less_types}
    assert "矩阵片乘加" in documented and "载入矩阵片甲" in documented
    assert unspelled == documented
    assert wgsl.builtin_spelling("阳") == "true" and VALUE_WORDS <= builtins


def test_spellings_read_like_the_target(interface):
    assert builtin_spellings("原子加") == {
        "wgsl": "atomicAdd(&甲[乙], …)",
        "msl": "atomic_fetch_add_explicit(&甲[乙], 丙, memory_order_relaxed)",
        "ptx": "atom.global.add.T",
    }
    assert builtin_spellings("选择")["msl"] == "丙 ? 乙 : 甲"
    assert builtin_spellings("最大")["wgsl"] == "max(…)"
    assert builtin_spellings("小于")["ptx"] == "setp.lt.T"
    assert builtin_spellings("工作组屏障") == {
        "wgsl": "workgroupBarrier(…)",
        "msl": "threadgroup_barrier(mem_flags::mem_threadgroup)",
        "ptx": "bar.sync 0",
    }
    assert builtin_spellings("矩阵片乘加") == {        # WGSL has no subgroup matrices (seed 着十二)
        "wgsl": None,
        "msl": "yy_矩阵片乘加(甲, 乙, 丙)",
        "ptx": "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32（两次）",
    }


def test_ptx_formulas_show_the_instructions_they_emit():
    # 指数 is ex2(x · log2 e) (ops.FORMULAS): a multiply, then ex2
    assert ptx.builtin_spelling("指数") == "（浮点指令序列：mul.rn.f32、ex2.approx.f32）"
    assert ptx.builtin_spelling("子组最小") == "整数 redux.sync.min.u32 / .s32；浮点 shfl.sync.bfly.b32 与 min.f16x2 / min.f32，五轮"


def test_every_msl_special_says_how_it_is_spelled(interface):
    for name in interface.values:
        spelled = msl.builtin_spelling(name)
        assert spelled != "" and (spelled is None or "{" not in spelled), name


def backend_private_names() -> set[str]:
    """Top-level names of the back ends' modules other than their packages'
    __init__ (the tables, their entry classes, the writers)."""
    names = set()
    for path in BACKENDS.glob("*/*.py"):
        if path.name == "__init__.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names - set(dir(dict)) - set(dir(list)) - set(dir(str))   # .items() is no table read


def names_used(source: str) -> tuple[set[str], set[str]]:
    """(modules imported from, identifiers and identifier-like strings used)."""
    modules, used = set(), set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            modules.add("." * node.level + (node.module or ""))
            used.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            modules.update(a.name for a in node.names)
        elif isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            used.add(node.value)
    return modules, used


def test_targets_uses_only_the_back_ends_public_functions():
    modules, used = names_used((ROOT / "server" / "targets.py").read_text(encoding="utf-8"))
    assert not any(m.split(".")[-1] in ("wgsl", "msl", "ptx") or ".backends." in m for m in modules), modules
    assert "builtin_spelling" in used
    assert used & backend_private_names() == set()


def test_the_private_name_check_catches_a_table_read():
    """The check above fails for a reader of a back end's table."""
    modules, used = names_used("from ..compiler.backends.ptx import ops\nops.INSTRUCTIONS\n")
    assert "..compiler.backends.ptx" in modules and {"INSTRUCTIONS", "ops"} & backend_private_names()


def test_logical_operators_say_how_ptx_short_circuits():
    # writer._logic: and.pred / or.pred, or a branch when the right side has effects
    assert ptx.builtin_spelling("且").startswith("and.pred")
    assert ptx.builtin_spelling("或").startswith("or.pred")


def test_declaration_words_say_what_they_declare_in_each_target():
    assert builtin_spellings("计算入口项") == {
        "wgsl": "@compute @workgroup_size(X[, Y[, Z]]) fn 函数(…)",
        "msl": "[[max_total_threads_per_threadgroup(N)]] kernel void 函数(…)",
        "ptx": ".visible .entry yy_…(…) .reqntid X, Y, Z",
    }
    assert builtin_spellings("纹理绑定")["ptx"] is None        # PTX has no textures (着十)
