"""Effects inside operands run where the language says (docs/语言.md: operands
left to right, the right side of 「且」/「或」 only when the left does not
decide), on all four executors.  Each program was once computed wrongly by
one of them; the expected buffers follow from the language's rules, worked
out by hand beside each program.  Every program starts from a buffer of
nines and runs one workgroup of eight invocations."""

from __future__ import annotations

import numpy as np
import pytest

from support.executors import run_all
from support.interp_runner import HEADER, buffer, entry

KERNEL = "「核」乃化「局部调用序」为「有」者也。\n「核」者得「序」而\n"
BELOW_FOUR = "（「序」小于（「新无三二」于「四」））"
WRITE_ONE = "「写数组」于「数据」于「序」于（「新无三二」于「一」）"

PROGRAMS = {
    # a local helper that writes 7 on the right of 且: it runs only where 序 < 4, then 1 overwrites it
    "且的右边调用写内存的局部函数": (
        KERNEL + "　令「记」为得「i」而（「写数组」于「数据」于「i」于（「新无三二」于「七」）；「阳」）而\n"
        f"　若{BELOW_FOUR}且（「记」于「序」）\n　则{WRITE_ONE}\n也。\n",
        [1, 1, 1, 1, 9, 9, 9, 9]),
    # the same with a sequence written in place
    "且的右边是序列": (
        KERNEL + f"　若{BELOW_FOUR}且（「写数组」于「数据」于「序」于（「新无三二」于「七」）；「阳」）\n"
        f"　则{WRITE_ONE}\n也。\n",
        [1, 1, 1, 1, 9, 9, 9, 9]),
    # a sequence bound by 令 runs once for every invocation (7), then 1 where 序 < 4
    "令绑定的序列在且的左边": (
        KERNEL + "　令「b」为（「写数组」于「数据」于「序」于（「新无三二」于「七」）；「阳」）而\n"
        f"　若「b」且{BELOW_FOUR}\n　则{WRITE_ONE}\n也。\n",
        [1, 1, 1, 1, 7, 7, 7, 7]),
    # 「助」 writes 7 and returns the constant 0: the index (序 + 0) is computed first, writing 7,
    # then the value reads that 7 and adds 1
    "写内存后返回常量的函数": (
        "「助」乃化「无三二」为「无三二」者也。\n"
        "「助」者得「i」而（「写数组」于「数据」于「i」于（「新无三二」于「七」））；（「新无三二」于「零」）也。\n\n"
        + KERNEL + "　「写数组」于「数据」于（「序」加（「助」于「序」））于"
        "（（「读数组」于「数据」于「序」）加（「新无三二」于「一」））\n也。\n",
        [8, 8, 8, 8, 8, 8, 8, 8]),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_effects_inside_operands_run_where_the_language_says(name):
    text, expected = PROGRAMS[name]
    source = HEADER + buffer("数据", "零") + text + entry("核", "八")
    outputs = run_all(source, "核入口", {"数据": np.full(8, 9, np.uint32)}, groups=1)
    assert {executor: out["数据"].tolist() for executor, out in outputs.items()} == dict.fromkeys(outputs, expected)


# ---------------------------------------------------------------- the statement-level form

def _operands(e):
    """The operand positions directly under e: what a writer prints inside an expression."""
    from zhuose.compiler import ir
    if isinstance(e, (ir.Call, ir.Project, ir.MakeTuple, ir.MakeRecord)):
        return ir.children(e)
    if isinstance(e, ir.If):
        return [e.cond]
    if isinstance(e, (ir.Loop, ir.Next)):
        return list(e.args)
    return []


def _lowered_bodies(ws, path):
    """(the translation's statement pass, the lowered body of every function it reaches)."""
    from zhuose.compiler import ir
    from zhuose.compiler.lower.loops import lowering
    info = ws.validate(path)
    lowered = lowering(info)
    return [(lowered.statements, lowered.body(d.body)) for m in info.modules for d in m.decls
            if isinstance(d, ir.Function) and d.body is not None]


def test_no_operand_holds_an_effect_or_a_statement(tmp_path):
    """The invariant every writer relies on (compiler/lower/statements.py): in the
    lowered bodies of every sample and of the programs above, an operand is
    plain — no statement form, nothing that runs in place, no 「若」 that is no
    plain choice — so no writer decides when an effect runs."""
    from support.references import SAMPLES, translatable
    from zhuose.compiler import ir
    from zhuose.compiler.workspace import Workspace
    ws = Workspace(SAMPLES)
    bodies = [b for p in translatable(ws) for b in _lowered_bodies(ws, p)]
    for name, (text, _) in PROGRAMS.items():
        path = tmp_path / f"{name}。着色器。豫"
        path.write_text(HEADER + buffer("数据", "零") + text + entry("核", "八"), encoding="utf-8")
        bodies += _lowered_bodies(Workspace(tmp_path), path)
    checked = 0
    for statements, body in bodies:
        for node in ir.walk(body):
            for operand in _operands(node):
                assert statements.plain(operand), (type(node).__name__, type(operand).__name__)
                checked += 1
    assert checked > 1000


def test_a_uniform_workgroup_read_waits_at_the_same_barrier_on_every_executor():
    """A workgroup read the uniformity analysis proves uniform is lowered once as an ir.UniformLoad:
    WGSL workgroupUniformLoad, MSL and PTX a barrier after the read, and the interpreter runs that
    barrier too.  Before, the interpreter ran no barrier there and reported a data race (invocation 0
    writes 「单」 right after the others read it) in a program every target runs race-free.
    Expected: 「单」 is 5 when read, so each of the 8 invocations writes 子组求和 of 5 over 8 lanes."""
    text = HEADER + buffer("数据", "零") + """「单」乃「工作组变量」于「无三二」也。
「单」者「工作组共享」于「元」也。

「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　（若「序」等于（「新无三二」于「零」）则「写共享」于「单」于（「新无三二」于「五」））；
　「工作组屏障」于「元」；
　令「n」为「读共享」于「单」而
　（若「序」等于（「新无三二」于「零」）则「写共享」于「单」于（「新无三二」于「零」））；
　若「n」大于（「新无三二」于「零」）则「写数组」于「数据」于「序」于（「子组求和」于「n」）
也。
""" + entry("核", "八")
    outputs = run_all(text, "核入口", {"数据": np.zeros(8, np.uint32)}, groups=1, width=8)
    # lavapipe's subgroups are 8 wide here, the shim's and the emulator's 32 (one partial subgroup of 8)
    assert {executor: out["数据"].tolist() for executor, out in outputs.items()} == dict.fromkeys(outputs, [40] * 8)


def test_workgroup_memory_reads_zero_before_any_write_on_every_executor():
    """Workgroup memory starts zeroed (WGSL's rule).  lavapipe under wgpu-native, Metal and PTX leave
    what the previous workgroup wrote, so the lowering starts every compute entry that uses workgroup
    memory with one ir.ZeroWorkgroup (clear, then a barrier) that every writer prints and the
    interpreter runs.  Each invocation reads its element before writing its global number + 1 there:
    four workgroups in a row, every read must still be 0."""
    text = HEADER + buffer("数据", "零") + """「共」乃「工作组变量」于（「定长数组」于「无三二」于「八」）也。
「共」者「工作组共享」于「元」也。

「核」乃化「全局调用号」为「有」者也。
「核」者得「号」而
　令「g」为「号」中「零」而
　令「l」为「g」余（「新无三二」于「八」）而
　「写数组」于「数据」于「g」于（「读共享数组」于「共」于「l」）；
　「写共享数组」于「共」于「l」于（「g」加（「新无三二」于「一」））
也。
""" + entry("核", "八")
    outputs = run_all(text, "核入口", {"数据": np.full(32, 9, np.uint32)}, groups=4)
    assert {executor: out["数据"].tolist() for executor, out in outputs.items()} == dict.fromkeys(outputs, [0] * 32)


def test_only_compute_entries_with_workgroup_memory_start_by_clearing_it():
    """The one place the clearing is decided: Lowering.entry puts ir.ZeroWorkgroup first exactly when
    the entry uses workgroup variables (valid/ ModuleInfo.workgroup) that it cannot prove each
    invocation writes before anyone reads (前缀和 writes its element, then meets; 分块矩阵乘 each
    round of its loop; 共享直方图's atomics cannot be proved), and names those variables in the order the entry uses them."""
    from support.references import SAMPLES, translatable
    from zhuose.compiler import ir
    from zhuose.compiler.lower.loops import lowering
    from zhuose.compiler.workspace import Workspace
    ws = Workspace(SAMPLES)
    cleared: dict[str, bool] = {}
    for path in translatable(ws):
        info = ws.validate(path)
        for e in (d for d in info.module.decls if isinstance(d, ir.Entry)):
            key = ir.function_key(info.modules, e.function)
            body = lowering(info).entry(e, info.decls[key].body, None)
            zeroed = [n for n in ir.walk(body) if isinstance(n, ir.ZeroWorkgroup)]
            used = list(info.workgroup.get(e.name, ())) if e.stage == "计算" else []
            assert len(zeroed) <= 1 and (not zeroed or used), (path.name, e.name)
            if zeroed:
                assert isinstance(body, ir.Seq) and body.items[0] is zeroed[0]
                assert [v for v in used if v in zeroed[0].variables] == list(zeroed[0].variables)
            if used:
                cleared[path.name.split("。")[0]] = bool(zeroed)
    assert cleared["前缀和"] is False and cleared["分块矩阵乘"] is False and cleared["共享直方图"] is True
    assert cleared["模糊"] is False     # 局 加 1 by everyone, the two ends by invocation 0


LOOP = """　令「ty」为「序」除「边」而
　令「tx」为「序」余「边」而
　令「瓦序」为「ty」乘「边」加「tx」而
　令「环」为得「i」而
　　若「i」小于（「新无三二」于「三」）则（
　　　「写共享数组」于「共」于{index}于「i」；
　　　「工作组屏障」于「元」；
　　　「写数组」于「数据」于「序」于（「读共享数组」于「共」于（「新无三二」于「七」减「序」））；
　　　「工作组屏障」于「元」；
　　　「环」于（「i」加（「新无三二」于「一」））
　　）
　而
　「环」于（「新无三二」于「零」）{after}"""


@pytest.mark.parametrize("index, after, cleared", [
    ("「瓦序」", "", False),                                   # ty 乘 边 加 tx is 序 again
    ("「序」", "", False),
    ("「tx」", "", True),                                      # 序 余 边 misses elements
    ("「瓦序」", "；\n　「写数组」于「数据」于「序」于（「读共享数组」于「共」于「序」）", True),   # read after a loop of no rounds
])
def test_a_loop_that_writes_every_element_before_its_barrier_each_round_is_not_cleared(tmp_path, index, after, cleared):
    """分块矩阵乘's tiles: each round writes element ty 乘 边 加 tx (= 序) before its barrier."""
    text = HEADER + buffer("数据", "零") + """「共」乃「工作组变量」于（「定长数组」于「无三二」于「八」）也。
「共」者「工作组共享」于「元」也。
「边」乃「无三二」也。
「边」者「新无三二」于「四」也。

「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
""" + LOOP.format(index=index, after=after) + """
也。
""" + entry("核", "八")
    assert _clears(tmp_path, text) is cleared


@pytest.mark.parametrize("writes, cleared", [
    ("「写共享数组」于「共」于（「序」加（「新无三二」于「一」））于「五」；\n"
     "　（若「序」等于（「新无三二」于「零」）则「写共享数组」于「共」于（「新无三二」于「零」）于「五」）；", False),
    ("「写共享数组」于「共」于（「序」加（「新无三二」于「一」））于「五」；", True),     # element 0 unwritten
    ("「写共享数组」于「共」于（「序」加（「新无三二」于「一」））于「五」；\n"
     "　（若「序」等于（「新无三二」于「八」）则「写共享数组」于「共」于（「新无三二」于「零」）于「五」）；", True),  # no invocation 8
    ("「写共享数组」于「共」于（「序」加（「新无三二」于「一」））于「五」；\n"
     "　（若「序」小于（「新无三二」于「一」）则「写共享数组」于「共」于（「新无三二」于「零」）于「五」）；", True),  # not proved
    ("「写共享数组」于「共」于（「序」加（「新无三二」于「一」））于（「读共享数组」于「共」于「序」）；\n"
     "　「写共享数组」于「共」于（「新无三二」于「零」）于「五」；", True),                # reads before the barrier
])
def test_the_clearing_is_skipped_where_the_writes_before_the_barrier_cover_every_element(tmp_path, writes, cleared):
    """Writes before the first barrier, none reading the variable, may share
    the work: each invocation 序 加 1, invocation 0 the first element (模糊's tile)."""
    text = HEADER + buffer("数据", "零") + f"""「共」乃「工作组变量」于（「定长数组」于「无三二」于「九」）也。
「共」者「工作组共享」于「元」也。

「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「五」为「新无三二」于「五」而
　{writes}
　「工作组屏障」于「元」；
　「写数组」于「数据」于「序」于（「读共享数组」于「共」于「序」）
也。
""" + entry("核", "八")
    assert _clears(tmp_path, text) is cleared


@pytest.mark.parametrize("then, cleared", [
    ("令「v」为「读数组」于「数据」于「零」而\n　　「写共享」于「单」于「v」", False),      # invocation 0 writes it all
    ("「写共享」于「单」于（「读共享」于「单」加「五」）", True),                        # reads it first
    ("令「v」为「读共享」于「单」而\n　　「写共享」于「单」于「五」", True),               # reads it in a 令 first
])
@pytest.mark.parametrize("who", ["（「新无三二」于「零」）", "（「新无三二」于「八」）"])
def test_the_clearing_is_skipped_where_one_invocation_writes_the_whole_variable_before_the_barrier(
        tmp_path, then, cleared, who):
    """工作组广播: invocation 0 writes the whole workgroup variable, the block meets, everyone reads
    it.  There is no invocation 8 in a workgroup of 8, so nothing would write it then."""
    text = HEADER + buffer("数据", "零") + f"""「单」乃「工作组变量」于「无三二」也。
「单」者「工作组共享」于「元」也。

「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「零」为「新无三二」于「零」而
　令「五」为「新无三二」于「五」而
　（若「序」等于{who}则（
　　{then}
　））；
　「工作组屏障」于「元」；
　「写数组」于「数据」于「序」于（「读共享」于「单」）
也。
""" + entry("核", "八")
    assert _clears(tmp_path, text) is (cleared or "八" in who)


@pytest.mark.parametrize("index, cleared", [
    ("「序」", False),
    ("「局」", False),                                          # 令「局」为「序」
    ("（「序」乘（「新无三二」于「二」））", True),                 # a value of the index's type, not the index
    ("（「最小」于「序」于（「新无三二」于「三」））", True),
])
def test_the_clearing_is_skipped_only_where_each_invocation_writes_its_own_element(tmp_path, index, cleared):
    """「序」乘 2 still has the type 「局部调用序」 but leaves the odd elements unwritten: only the
    entry's own index (or a 令 naming it) proves that the workgroup writes every element."""
    text = HEADER + buffer("数据", "零") + f"""「共」乃「工作组变量」于（「定长数组」于「无三二」于「八」）也。
「共」者「工作组共享」于「元」也。

「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「局」为「序」而
　「写共享数组」于「共」于{index}于（「新无三二」于「五」）；
　「工作组屏障」于「元」；
　「写数组」于「数据」于「序」于（「读共享数组」于「共」于「序」）
也。
""" + entry("核", "八")
    assert _clears(tmp_path, text) is cleared


def _clears(tmp_path, text: str) -> bool:
    """Whether the lowering starts the file's one compute entry by clearing its workgroup variables."""
    from zhuose.compiler import ir
    from zhuose.compiler.lower.loops import lowering
    from zhuose.compiler.workspace import Workspace
    path = tmp_path / "核。着色器。豫"
    path.write_text(text, encoding="utf-8")
    info = Workspace(tmp_path).validate(path)
    e = next(d for d in info.module.decls if isinstance(d, ir.Entry))
    body = lowering(info).entry(e, info.decls[ir.function_key(info.modules, e.function)].body, None)
    return any(isinstance(n, ir.ZeroWorkgroup) for n in ir.walk(body))


def _shared_out(writes: str, limit: str = "一六", step: str = "八", start: str = "「序」") -> str:
    return HEADER + buffer("数据", "零") + f"""「共」乃「工作组变量」于（「定长数组」于「无三二」于「一六」）也。
「共」者「工作组共享」于「元」也。

「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「搬」为得「i」而
　　若「i」小于（「新无三二」于「{limit}」）则（
　　　{writes}；
　　　「搬」于（「i」加（「新无三二」于「{step}」））
　　）
　而
　「搬」于{start}；
　「工作组屏障」于「元」；
　「写数组」于「数据」于「序」于（「读共享数组」于「共」于（「序」加（「新无三二」于「八」）））
也。
""" + entry("核", "八")


ONE = "「写共享数组」于「共」于「i」于「i」"
PAIR = ("「写共享数组」于「共」于（「i」乘（「新无三二」于「二」））于「i」；\n"
        "　　　「写共享数组」于「共」于（「i」乘（「新无三二」于「二」）加（「新无三二」于「一」））于「i」")


@pytest.mark.parametrize("program, cleared", [
    (_shared_out(ONE), False),                                  # i = 序, 序 + 8 below 16
    (_shared_out(PAIR, limit="八"), False),                      # 2i and 2i + 1 for i below 8
    (_shared_out(ONE, limit="一五"), True),                       # element 15 unwritten
    (_shared_out(ONE, step="九"), True),                          # invocations 0 … 7 miss element 8
    (_shared_out(ONE, start="（「序」加（「新无三二」于「一」））"), True),  # element 0 unwritten
    (_shared_out(PAIR.split("；")[0], limit="八"), True),          # the odd elements unwritten
    (_shared_out("「写共享数组」于「共」于「i」于（「读共享数组」于「共」于「i」）"), True),   # reads before the barrier
])
def test_a_loop_the_invocations_share_out_covers_every_element(tmp_path, program, cleared):
    """for (i = 序; i < N; i += S), S at most the workgroup size (子组矩阵片's 搬): together the
    invocations run every i below N, so writes at i 乘 a 加 b cover those elements."""
    assert _clears(tmp_path, program) is cleared


def test_a_shared_out_loop_without_clearing_computes_the_same_everywhere():
    outputs = run_all(_shared_out(PAIR, limit="八"), "核入口", {"数据": np.full(8, 99, np.uint32)}, groups=1)
    expected = [(8 + j) // 2 for j in range(8)]
    assert {executor: out["数据"].tolist() for executor, out in outputs.items()} == dict.fromkeys(outputs, expected)
