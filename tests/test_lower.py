"""The lowering middle (compiler/lower/): resolved types, the one effects
analysis the three writers read, and the lowering of local functions
(Inline, Loop, Next) that they print, tested on the IR directly."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from support.frontend import LANGUAGE_SUM, check_text
from zhuose.compiler import ir
from zhuose.compiler.backends import TARGETS, translate
from zhuose.compiler.lower.effects import Effects, Facts, builtin_facts
from zhuose.compiler.lower.loops import Lowering, lowering
from zhuose.compiler.lower.types import CONCRETE, Scalar, concrete, scalar
from zhuose.compiler.types import TCon, TFamily, TTuple, scalar as checker_scalar
from zhuose.compiler.valid import registry

BUFFER = """「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
"""


def checked(tmp_path: Path, text: str):
    ws, errors = check_text(tmp_path, text)
    assert errors == []
    module = ws.check(tmp_path / "测。着色器。豫").module
    return module, {d.name: d for d in module.decls if isinstance(d, ir.Function)}


def calls(e: ir.Expr, kind: str, name: str | None = None) -> list[ir.Call]:
    return [n for n in ir.walk(e) if isinstance(n, ir.Call) and n.kind == kind and name in (None, n.name)]


# ---------------------------------------------------------------- types


def test_scalars_are_an_enum_of_the_checker_types():
    assert scalar(checker_scalar("定长小数", 32)) is Scalar.F32
    assert scalar(checker_scalar("定长小数", 16)) is Scalar.F16
    assert scalar(checker_scalar("定长整数", 32)) is Scalar.I32
    assert scalar(checker_scalar("定长无符号", 32)) is Scalar.U32
    assert scalar(TCon("爻", (), "爻")) is Scalar.BOOL
    assert scalar(TCon("整数", (), "整数")) is Scalar.ABSTRACT_INT
    assert scalar(checker_scalar("定长小数", 64)) is None           # no target has it
    assert scalar(TTuple((checker_scalar("定长小数", 32),) * 3)) is None
    assert Scalar.ABSTRACT_FLOAT not in CONCRETE and len(CONCRETE) == 5


def test_concrete_reduces_type_families():
    f32 = checker_scalar("定长小数", 32)
    vector = TTuple((f32,) * 3)
    assert concrete(TFamily("元素", (vector,))) == f32
    assert concrete(TTuple((TFamily("元素", (vector,)), f32))) == TTuple((f32, f32))


# ---------------------------------------------------------------- the builtin facts (from the registry)


def test_pure_is_what_may_stand_in_a_constant():
    """Every builtin the registry knows: pure (computed eagerly by PTX) exactly
    when a constant may hold it, and then it neither writes, reads nor needs
    its neighbours."""
    for name in registry.TABLE:
        f = builtin_facts(name)
        assert f.pure == registry.allowed_in_constant(name), name
        if f.pure:
            assert f == Facts(pure=True), name


def test_what_touches_memory_or_neighbours_is_never_a_constant():
    for name in registry.TABLE:
        f = builtin_facts(name)
        if f.effect or f.reads or f.neighbours:
            assert not registry.allowed_in_constant(name), name


def test_every_kind_that_writes_reads_or_needs_neighbours_has_such_a_builtin():
    """The kind table's new columns are used: no kind claims an effect or a
    read that none of its rows has."""
    for kind, spec in registry.KINDS.items():
        names = registry.of_kind(kind)
        assert names, kind
        if spec.effect:
            assert any(builtin_facts(n).effect for n in names), kind
        if spec.reads:
            assert any(builtin_facts(n).reads for n in names), kind


@pytest.mark.parametrize("name, effect, reads, neighbours", [
    ("加", False, False, False), ("读数组", False, True, False), ("写数组", True, False, False),
    ("原子读", False, True, False), ("原子加", True, False, False), ("工作组屏障", True, False, True),
    ("横差", False, False, True), ("子组求和", False, False, True), ("子组选一", False, False, True),
    ("采样纹理", False, True, True), ("比较采样", False, True, True), ("按层采样纹理", False, True, False),
    ("读纹素", False, True, False), ("纹理尺寸", False, False, False), ("舍弃", True, False, False),
    ("矩阵片乘加", True, True, True), ("满矩阵片累", True, True, True), ("存矩阵片累到存储", True, True, True),
    ("新格", True, False, False), ("写格", True, False, False), ("读格", False, True, False),
    ("数组长度", False, False, False), ("绑定", False, False, False),
])
def test_builtin_facts(name, effect, reads, neighbours):
    f = builtin_facts(name)
    assert (f.effect, f.reads, f.neighbours) == (effect, reads, neighbours)


def test_a_value_the_registry_does_not_know_is_neither_an_effect_nor_pure():
    assert builtin_facts("最大") == Facts(pure=True)
    assert builtin_facts("自家内建") == Facts()


# ---------------------------------------------------------------- speculation


def test_a_local_call_is_an_effect_exactly_when_its_body_is(tmp_path):
    module, functions = checked(tmp_path, BUFFER + """
「纯」乃化「无三二」为「无三二」者也。
「纯」者得「甲」而
　令「倍」为得「乙」而「乙」加「乙」
　而「倍」于「甲」
也。

「写」乃化「无三二」为「有」者也。
「写」者得「甲」而
　令「存」为得「乙」而「写数组」于「数据」于「乙」于「乙」
　而「存」于「甲」
也。
""")
    effects = Effects([module])
    (pure,) = calls(functions["纯"].body, "local")
    (write,) = calls(functions["写"].body, "local")
    assert not effects.effect(pure) and not effects.must_run(pure) and not effects.reads(pure)
    assert effects.effect(write) and effects.must_run(write) and effects.touches_memory(write)
    assert effects.calls(pure) and not effects.eager(pure)


def test_a_function_call_has_its_bodys_facts(tmp_path):
    module, functions = checked(tmp_path, BUFFER + """
「读」乃化「无三二」为「无三二」者也。
「读」者得「甲」而「读数组」于「数据」于「甲」也。

「用」乃化「无三二」为「无三二」者也。
「用」者得「甲」而（「读」于「甲」）加「甲」也。
""")
    effects = Effects([module])
    (call,) = calls(functions["用"].body, "function", "读")
    assert effects.reads(call) and not effects.effect(call) and not effects.must_run(call)


def test_tail_recursion_terminates_the_analysis(tmp_path):
    module, functions = checked(tmp_path, LANGUAGE_SUM)
    effects = Effects([module])
    loops = calls(functions["求和"].body, "local")     # the first call and the tail call inside
    assert len(loops) == 2 and all(c.local.recursive for c in loops)
    assert not any(effects.effect(c) or effects.must_run(c) or effects.reads(c) for c in loops)


def test_eager_values_are_constant_like(tmp_path):
    module, functions = checked(tmp_path, BUFFER + """
「试」乃化「无三二」为「爻」者也。
「试」者得「甲」而
　（「甲」小于（「新无三二」于「三」））且（（「读数组」于「数据」于「甲」）小于「甲」）
也。
""")
    effects = Effects([module])
    (both,) = calls(functions["试"].body, "builtin", "且")
    left, right = both.args
    assert effects.eager(left) and not effects.eager(right)
    assert not effects.must_run(right)          # a read may be speculated, not computed eagerly


# ---------------------------------------------------------------- evaluation order


ORDER = BUFFER + """「计数」乃「存储缓冲」于（「数组」于（「原子」于「无三二」））也。
「计数」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。

「试」乃化「无三二」为「无三二」者也。
「试」者得「甲」而
　（（「读数组」于「数据」于「甲」）加（「甲」乘「甲」））加（「原子加」于「计数」于「甲」于「甲」）
也。
"""


def lowered(tmp_path, text: str, name: str) -> ir.Expr:
    module, functions = checked(tmp_path, text)
    return Lowering([module]).body(functions[name].body)


def bindings(body: ir.Expr) -> list[ir.Let]:
    """The 令s a lowered body runs before its value, outermost first."""
    out = []
    while isinstance(body, ir.Let):
        out.append(body)
        body = body.body
    return out


def test_an_effect_is_bound_before_its_operation_after_the_reads_left_of_it(tmp_path):
    """Left to right: the read of 「数据」 runs before the atomic that a later
    operand holds, the atomic before the sum; the pure 甲 × 甲 stays in place."""
    body = lowered(tmp_path, ORDER, "试")
    first, second = bindings(body)
    assert calls(first.value, "builtin", "读数组") and calls(first.value, "builtin", "乘")
    assert calls(second.value, "builtin", "原子加") == [second.value]
    total = second.body
    assert isinstance(total, ir.Call) and total.name == "加"
    assert [type(a) for a in total.args] == [ir.LocalRef, ir.LocalRef]
    assert [a.var for a in total.args] == [first.var, second.var]


def test_a_plain_body_is_kept_as_checked(tmp_path):
    module, functions = checked(tmp_path, BUFFER + """
「试」乃化「无三二」为「无三二」者也。
「试」者得「甲」而（「读数组」于「数据」于「甲」）加（若「甲」小于（「新无三二」于「三」）则「甲」否则（「甲」乘「甲」））也。
""")
    body = functions["试"].body
    assert Lowering([module]).body(body) is body


def test_and_whose_right_side_writes_becomes_a_statement_if(tmp_path):
    body = lowered(tmp_path, BUFFER + """
「试」乃化「无三二」为「爻」者也。
「试」者得「甲」而（「甲」小于（「新无三二」于「三」））且（「写数组」于「数据」于「甲」于「甲」；「阳」）也。
""", "试")
    assert isinstance(body, ir.If) and isinstance(body.otherwise, ir.BuiltinValue) and body.otherwise.name == "阴"
    assert isinstance(body.then, ir.Seq) and calls(body.then, "builtin", "写数组")
    assert not calls(body, "builtin", "且")


def test_a_choice_of_select_that_needs_its_neighbours_is_bound_first(tmp_path):
    """选择 runs every operand; a target may print it as a conditional (C++ ?:)."""
    body = lowered(tmp_path, BUFFER + """
「试」乃化「无三二」为「无三二」者也。
「试」者得「甲」而「选择」于「甲」于（「子组求和」于「甲」）于（「甲」小于（「新无三二」于「三」））也。
""", "试")
    (bound,) = bindings(body)
    assert calls(bound.value, "builtin", "子组求和") == [bound.value]
    assert isinstance(bound.body, ir.Call) and bound.body.args[1].var is bound.var


# ---------------------------------------------------------------- local functions lowered


TWICE = BUFFER + """
「两次」乃化「无三二」为「无三二」者也。
「两次」者得「甲」而
　令「倍」为得「乙」而「乙」加「乙」
　而（「倍」于「甲」）加（「倍」于（「读数组」于「数据」于「甲」））
也。
"""

NESTED = BUFFER + """
「表」乃化「无三二」为「无三二」者也。
「表」者得「n」而
　令「壹」为「新无三二」于「一」而
　令「行」为得「r」又得「s」而
　　若「r」不小于「n」则「s」
　　否则
　　　令「列」为得「c」又得「t」而
　　　　若「c」大于「r」则「t」否则「列」于（「c」加「壹」）于（「t」加「c」）
　　　而「行」于（「r」加「壹」）于（「列」于「壹」于「s」）
　而「行」于「壹」于「壹」
也。
"""


def kinds(e: ir.Expr) -> list[type]:
    return [type(n) for n in ir.walk(e)]


def test_a_tail_recursive_local_function_lowers_to_one_loop(tmp_path):
    module, functions = checked(tmp_path, LANGUAGE_SUM)
    body = Lowering([module]).body(functions["求和"].body)
    (loop,) = [n for n in ir.walk(body) if isinstance(n, ir.Loop)]
    (next_round,) = [n for n in ir.walk(loop.body) if isinstance(n, ir.Next)]
    assert loop.fun is next_round.fun and loop.fun.name == "环"
    assert len(loop.args) == len(next_round.args) == len(loop.fun.params) == 2
    assert kinds(body).count(ir.Loop) == kinds(body).count(ir.Next) == 1
    assert not calls(body, "local") and ir.LetFun not in kinds(body)


def test_an_inlined_call_leaves_no_local_call_and_shares_its_body(tmp_path):
    module, functions = checked(tmp_path, TWICE)
    checked_body = functions["两次"].body
    body = Lowering([module]).body(checked_body)
    inlined = [n for n in ir.walk(body) if isinstance(n, ir.Inline)]
    assert len(inlined) == 2 and all(i.fun.name == "倍" for i in inlined)
    assert inlined[0].body is inlined[1].body is inlined[0].fun.body     # no local call inside: kept as checked
    assert [p.name for p in inlined[0].fun.params] == ["乙"] and len(inlined[1].args) == 1
    assert calls(inlined[1].args[0], "builtin", "读数组")
    assert not calls(body, "local") and ir.LetFun not in kinds(body)
    assert ir.Loop not in kinds(body) and ir.Next not in kinds(body)
    assert calls(checked_body, "local")                                  # the checked IR is left alone


def test_each_next_round_belongs_to_its_own_loop(tmp_path):
    module, functions = checked(tmp_path, NESTED)
    body = Lowering([module]).body(functions["表"].body)
    loops = {n.fun.name: n for n in ir.walk(body) if isinstance(n, ir.Loop)}
    assert set(loops) == {"行", "列"}
    outer, inner = loops["行"], loops["列"]
    assert inner in list(ir.walk(outer.body))
    assert [n.fun.name for n in ir.walk(inner.body) if isinstance(n, ir.Next)] == ["列"]
    outer_nexts = [n for n in ir.walk(outer.body) if isinstance(n, ir.Next) and n.fun is outer.fun]
    assert len(outer_nexts) == 1
    # the inner loop is the new s: a loop is a statement, bound to a temporary before the next round
    (bound,) = [n for n in ir.walk(outer.body) if isinstance(n, ir.Let) and n.value is inner]
    assert isinstance(outer_nexts[0].args[1], ir.LocalRef) and outer_nexts[0].args[1].var is bound.var
    assert outer_nexts[0] in list(ir.walk(bound.body))


def test_nodes_without_a_local_call_stay_the_checked_ones(tmp_path):
    module, functions = checked(tmp_path, BUFFER + """
「平」乃化「无三二」为「无三二」者也。
「平」者得「甲」而（「甲」乘「甲」）加（「读数组」于「数据」于「甲」）也。
""")
    body = functions["平"].body
    assert Lowering([module]).body(body) is body


def test_lowered_once_per_module_for_every_writer(tmp_path):
    """The three writers print the one lowering kept on the module's info;
    each prints exactly one loop for the one Loop node."""
    ws, errors = check_text(tmp_path, BUFFER + LANGUAGE_SUM + """
「核」乃化「全局调用号」为「有」者也。
「核」者得「号」而「写数组」于「数据」于「号」中「零」于（「求和」于（「号」中「零」））也。

「核入口」乃「计算入口」也。
「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。
""")
    assert errors == []
    path = tmp_path / "测。着色器。豫"
    info = ws.validate(path)
    texts = {t: translate(ws, path, t).text for t in ("wgsl", "msl", "ptx")}
    assert lowering(info) is lowering(ws.validate(path))
    assert texts["wgsl"].count("loop {") == 1 and texts["wgsl"].count("continue;") == 1
    assert texts["msl"].count("while (true)") == 1 and texts["msl"].count("continue;") == 1
    assert texts["ptx"].count("_loop:") == 1


def test_no_lowered_body_of_a_sample_holds_a_local_call_or_its_definition():
    """Whether a call is inlined, starts a loop or continues one is the
    lowering's (compiler/lower/loops.py): the bodies every writer prints and the
    reference interpreter executes hold no local call and no 令 of a local
    function, only Inline, Loop, Next and Block (a behaviour test in place of
    searching the writers' source)."""
    from support.references import SAMPLES, translatable
    from zhuose.compiler.workspace import Workspace
    ws = Workspace(SAMPLES)
    lowered_forms = 0
    for path in translatable(ws):
        info = ws.validate(path)
        for m in info.modules:
            for d in m.decls:
                if isinstance(d, ir.Function) and d.body is not None:
                    body = lowering(info).body(d.body)
                    assert not calls(body, "local") and ir.LetFun not in kinds(body), (path.name, d.name)
                    lowered_forms += sum(isinstance(n, (ir.Inline, ir.Loop, ir.Next)) for n in ir.walk(body))
    assert lowered_forms > 20


def test_projections_tuples_and_records_are_printed_once_for_wgsl_and_msl():
    """The C-like writers share these printers (backends/text.py); what differs
    is a table entry (RECORD) and the hooks each writer supplies.  WGSL only
    adds, before the shared projection, the fields of an entry struct that it
    passes as parameters of their own, and MSL, after it, the conversion of a
    buffer struct's packed 3-vector."""
    from zhuose.compiler.backends.msl.writer import MslWriter
    from zhuose.compiler.backends.text import StatementWriter
    from zhuose.compiler.backends.wgsl.writer import Writer
    shared = {(MslWriter, "_expr_MakeTuple"), (MslWriter, "_expr_MakeRecord"),
              (Writer, "_expr_MakeTuple"), (Writer, "_expr_MakeRecord")}
    for writer, name in shared:
        assert getattr(writer, name) is getattr(StatementWriter, name), (writer, name)
    for writer in (Writer, MslWriter):
        assert "super()._expr_Project(e)" in inspect.getsource(writer._expr_Project)
    assert (Writer.RECORD.format("点", "1u, 2u"), MslWriter.RECORD.format("点", "1u, 2u")) == ("点(1u, 2u)", "点{1u, 2u}")


# ---------------------------------------------------------------- module


def test_an_entry_runs_its_own_modules_function_else_the_nearest_imports():
    def module(path, *names):
        return ir.Module(path, path, "包", False, decls=[ir.Function(n) for n in names])
    modules = [module("甲", "核", "辅"), module("乙", "辅"), module("丙", "主")]
    assert ir.function_key(modules, "主") == ("丙", "主")
    assert ir.function_key(modules, "辅") == ("乙", "辅")
    assert ir.function_key(modules, "核") == ("甲", "核")
    assert ir.function_key(modules, "无") == ("丙", "无")     # the entry's own module names the missing one
