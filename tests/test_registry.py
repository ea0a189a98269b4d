"""The builtin registry (compiler/valid/registry.py) and the validation pass.

Exhaustiveness: every builtin the interface file declares has a registry row,
and every target of compiler/backends/targets.py either writes it (a row of
its own table, gathered by compiler/backends/tables.py) or says why not; no
table names a builtin that does not exist.  Then, for every kind, `检查`
(the command line and the Workspace the language server reads) refuses a use
where the registry forbids it — in a constant, in a stage — with a Chinese
message at the use's line and column, naming the definition and the entry;
the allowed siblings pass.  Which stage forbids what was confirmed with naga
(tests/support/wgpu_device.validate): barriers, subgroup operations and
textureSampleCompare in a vertex shader are "operations forbidden at this
stage"; storage writes and atomics in a vertex shader are accepted.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from zhuose.compiler.backends import tables
from zhuose.compiler.backends.targets import TARGETS
from zhuose.compiler.valid import STEPS, registry
from zhuose.compiler.workspace import Workspace

HEAD = "寻观「点染」之「点染本」之书。\n"
RESOURCES = """「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「计数」乃「存储缓冲」于（「数组」于（「原子」于「无三二」））也。
「计数」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。
「共」乃「工作组变量」于（「定长数组」于「浮三二」于「二五六」）也。
「共」者「工作组共享」于「元」也。
「图」乃「纹理二维」于「浮三二」也。
「图」者「纹理绑定」于（「组值」【「组」者「一」也，「号」者「零」也】）也。
「样」乃「采样器」也。
「样」者「采样器绑定」于（「组值」【「组」者「一」也，「号」者「一」也】）也。
"""
ONE, ZERO = "（「新无三二」于「一」）", "（「新无三二」于「零」）"
CLIP = "「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」"


# ---------------------------------------------------------------- exhaustiveness


@pytest.fixture(scope="module")
def declared():
    return registry.declared(Workspace(Path(__file__).parent))


def test_every_declared_builtin_has_a_registry_row(declared):
    assert [n for n in declared if n not in registry.TABLE] == []
    assert [n for n in registry.TABLE if n not in declared] == []        # no row for a builtin that is gone
    assert all(registry.TABLE[n].kind in registry.KINDS for n in declared)


#: the one list of targets (compiler/backends/targets.py): a new target is judged here without a word changed
TARGET_NAMES = [t.name for t in TARGETS]


def test_every_target_has_a_builtin_table():
    assert list(tables.TABLES) == list(TARGETS)


@pytest.mark.parametrize("target", TARGET_NAMES)
def test_every_target_writes_each_builtin_or_says_why_not(declared, target):
    missing, unexplained = [], []
    for name in declared:
        found = tables.on_target(target, name)
        if found.entry is None and found.reason is None:
            missing.append(name)
        elif found.entry is None and not re.search(r"[\u4e00-\u9fff]", found.reason):
            unexplained.append(name)
    assert missing == [] and unexplained == []


@pytest.mark.parametrize("target", TARGET_NAMES)
def test_no_target_table_names_a_builtin_that_does_not_exist(declared, target):
    assert sorted(tables.table_names(target) - set(declared)) == []


def test_the_missing_check_can_fail(monkeypatch):
    """A builtin added to the interface but not to a table is caught."""
    from zhuose.compiler.backends.wgsl import builtins as wgsl
    monkeypatch.delitem(wgsl.BUILTINS, "子组求和")
    assert tables.on_target("wgsl", "子组求和") == tables.OnTarget(None, None)


def test_what_the_registry_says():
    assert registry.get("子组求和").uniform and registry.stages("子组求和") == {"计算", "片元"}
    assert not registry.allowed_in_constant("子组求和") and registry.allowed_in_constant("最大")
    assert registry.stages("按层采样纹理") == registry.ALL_STAGES and registry.stages("采样纹理") == {"片元"}
    assert registry.needs_uniform_control("横差") and registry.needs_uniform_control("工作组屏障")
    assert not registry.needs_uniform_control("舍弃") and registry.is_pure("加") and not registry.is_pure("读数组")
    assert tables.on_target("wgsl", "满矩阵片累").reason and tables.on_target("ptx", "横差").reason
    assert tables.on_target("msl", "新格").entry and tables.on_target("ptx", "加").entry


def test_the_validation_pass_is_a_list_of_steps():
    assert [s.__name__ for s in STEPS][:3] == ["call_graph", "workgroup_sizes", "stage_rules"]


# ---------------------------------------------------------------- constants

#: kind → (type, value) of a constant whose value uses a builtin of that kind
RUNTIME_CONSTANTS = {
    "cell": ("无三二", "「读格」于（「新格」于" + ONE + "）"),
    "load": ("无三二", "「读数组」于「数据」于" + ZERO),
    "store": ("有", "「写数组」于「数据」于" + ZERO + "于" + ONE),
    "atomic": ("无三二", "「原子加」于「计数」于" + ZERO + "于" + ONE),
    "barrier": ("有", "「工作组屏障」于「元」"),
    "subgroup": ("无三二", "「子组求和」于" + ONE),
    "fragment": ("有", "「舍弃」于「元」"),
    "derivative": ("浮三二", "「横差」于（「新浮三二」于「一」）"),
    "texture": ("二维无", "「纹理尺寸」于「图」"),
    "matrix": ("子组矩阵片累", "「满矩阵片累」于（「新浮三二」于「零」）"),
    "matrix-memory": ("子组矩阵片累", "「载入矩阵片累」于「共」于" + ZERO + "于（「新无三二」于「一六」）"),
    "tensor": ("张量片累", "「满张量片累」于（「新浮三二」于「零」）"),
}
#: kinds whose constructors may only be whole top-level definitions
CONSTRUCTOR_CONSTANTS = {
    # refused nested in a constant (its own value may be only 「可覆盖」于 默认值: tests/test_overrides.py)
    "override": ("无三二", "「最大」于（「可覆盖」于" + ONE + "）于" + ONE),
    "resource": ("无三二", "「数组长度」于（「绑定」于（「组值」【「组」者「二」也，「号」者「零」也，「访问」者「读写」也】））"),
    "entry": ("无三二", "「最大」于（「计算入口项」于「常」）于" + ONE),
}
CONSTANT_OK = {
    "pure": ("无三二", "「最大」于" + ONE + "于（「新无三二」于「二」）"),
    "literal": ("浮十六", "「新浮十六」于「一点五」"),
    "value": ("爻", "「阳」"),
}


def test_every_kind_is_tried_in_a_constant():
    assert set(RUNTIME_CONSTANTS) | set(CONSTRUCTOR_CONSTANTS) | set(CONSTANT_OK) == set(registry.KINDS)
    assert all(not registry.KINDS[k].constant for k in RUNTIME_CONSTANTS)


def constant_program(type_name: str, value: str) -> str:
    return HEAD + RESOURCES + f"「常」乃「{type_name}」也。\n「常」者{value}也。\n"


def where(text: str, marker: str, line_marker: str | None = None) -> str:
    """line:column (1-based) of `marker` on the first line holding `line_marker` (default: `marker`)."""
    line = next(i for i, line in enumerate(text.splitlines()) if (line_marker or marker) in line)
    return f"{line + 1}:{text.splitlines()[line].index(marker) + 1}"


def shown(ws: Workspace, path: Path) -> list[str]:
    return [d.format(ws.source(d.path), Path(d.path).name) for d in ws.diagnostics(path) if d.severity == "错误"]


@pytest.mark.parametrize("kind", sorted(RUNTIME_CONSTANTS))
def test_a_runtime_builtin_in_a_constant_is_refused(tmp_path, kind):
    type_name, value = RUNTIME_CONSTANTS[kind]
    text = constant_program(type_name, value)
    path = tmp_path / "常。着色器。豫"
    path.write_text(text, encoding="utf-8")
    name = re.match(r"「([^」]+)」", value).group(1)
    at = where(text, value, "「常」者")
    assert shown(Workspace(tmp_path), path) == [
        f"常。着色器。豫:{at}: 在「常」中：常量的值须是常量表达式：不能调用「{name}」"
        f"（{registry.KINDS[kind].what}，只在运行时可用）"]


@pytest.mark.parametrize("kind", sorted(CONSTRUCTOR_CONSTANTS))
def test_a_resource_or_entry_constructor_in_a_constant_is_refused(tmp_path, kind):
    type_name, value = CONSTRUCTOR_CONSTANTS[kind]
    text = constant_program(type_name, value)
    path = tmp_path / "常。着色器。豫"
    path.write_text(text, encoding="utf-8")
    name, rule = {"resource": ("绑定", "只能作资源的顶层定义（着四）"), "entry": ("计算入口项", "只能作入口项的顶层定义（着四）"),
                  "override": ("可覆盖", "只能是顶层常量的整个值")}[kind]
    assert any(line.startswith(f"常。着色器。豫:{where(text, f'「{name}」于', '「常」者')}: 在「常」中：「{name}」{rule}")
               for line in shown(Workspace(tmp_path), path))


@pytest.mark.parametrize("kind", sorted(CONSTANT_OK))
def test_constant_builtins_are_accepted_in_a_constant(tmp_path, kind):
    path = tmp_path / "常。着色器。豫"
    path.write_text(constant_program(*CONSTANT_OK[kind]), encoding="utf-8")
    assert shown(Workspace(tmp_path), path) == []


def test_the_command_line_refuses_a_subgroup_operation_in_a_constant(tmp_path):
    text = constant_program(*RUNTIME_CONSTANTS["subgroup"])
    path = tmp_path / "常。着色器。豫"
    path.write_text(text, encoding="utf-8")
    out = run_cli(tmp_path, path)
    assert out.returncode == 1
    assert f"常。着色器。豫:{where(text, '「子组求和」', '「常」者')}: 在「常」中：常量的值须是常量表达式：" \
           "不能调用「子组求和」（子组运算，只在运行时可用）" in out.stderr


def run_cli(cwd: Path, path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-m", "zhuose.cli", "检查", str(path)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


# ---------------------------------------------------------------- stages

ENTRIES = {
    "计算": ("「算」乃化「全局调用号」为「有」者也。\n「算」者得「号」而{use}；「元」也。\n"
             "「入口」乃「计算入口」也。\n「入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「三二」也】）也。\n"),
    "顶点": ("「顶」乃化「顶点序号」为「裁剪位置」者也。\n「顶」者得「序」而{use}；" + CLIP + "也。\n"
             "「入口」乃「顶点入口」也。\n「入口」者「顶点入口项」于「顶」也。\n"),
    "片元": ("「片」乃化「片元坐标」为「片元颜色」者也。\n「片」者得「p」而{use}；「p」也。\n"
             "「入口」乃「片元入口」也。\n「入口」者「片元入口项」于「片」也。\n"),
}
FUNCTION = {"计算": "算", "顶点": "顶", "片元": "片"}

#: kind → (a statement using a builtin of that kind, a stage that forbids it, the stages the message allows)
STAGE_USES = {
    "barrier": ("「工作组屏障」于「元」", "顶点", "计算"),
    "subgroup": ("令「x」为「子组求和」于" + ONE + "而「元」", "顶点", "计算、片元"),
    "fragment": ("「舍弃」于「元」", "计算", "片元"),
    "derivative": ("令「x」为「横差」于（「新浮三二」于「一」）而「元」", "计算", "片元"),
    "texture": ("令「x」为「采样纹理」于「图」于「样」于（「新浮三二」于「零」与「新浮三二」于「零」）而「元」", "顶点", "片元"),
    "matrix": ("令「m」为「满矩阵片累」于（「新浮三二」于「零」）而「元」", "片元", "计算"),
    "matrix-memory": ("令「m」为「载矩阵片甲自存储」于「数据」于" + ZERO + "于（「新无三二」于「八」）而「元」", "顶点", "计算"),
    "tensor": ("令「m」为「满张量片累」于（「新浮三二」于「零」）而「元」", "片元", "计算"),
}
#: kinds every stage may use, each with a use
EVERY_STAGE = {
    "pure": "令「x」为「最大」于" + ONE + "于" + ZERO + "而「元」",
    "literal": "令「x」为「新浮十六」于「一」而「元」",
    "cell": "令「c」为「新格」于" + ONE + "而「写格」于「c」于" + ZERO,
    "load": "令「x」为「读数组」于「数据」于" + ZERO + "而「元」",
    "store": "「写数组」于「数据」于" + ZERO + "于" + ONE,
    "atomic": "令「x」为「原子加」于「计数」于" + ZERO + "于" + ONE + "而「元」",
    "texture": "令「x」为「按层采样纹理」于「图」于「样」于（「新浮三二」于「零」与「新浮三二」于「零」）于（「新浮三二」于「零」）而「元」",
}


def test_every_kind_is_tried_in_a_stage():
    # the last four: no call in a body
    tried = set(STAGE_USES) | set(EVERY_STAGE) | {"value", "resource", "entry", "override"}
    assert tried == set(registry.KINDS)
    assert all(registry.stages(next(iter(re.findall(r"「([^」]+)」于", use)))) != registry.ALL_STAGES
               for use, _, _ in STAGE_USES.values())


def stage_program(stage: str, use: str) -> str:
    text = HEAD + RESOURCES + ENTRIES[stage].format(use=use)
    # tensor fragments need a workgroup of exactly 128 invocations (着十三)
    return text.replace("「工作组大小」者「三二」", "「工作组大小」者「一二八」") if "张量片" in use else text


def builtin_of(use: str) -> str:
    return next(n for n in re.findall(r"「([^」]+)」于", use) if n in registry.TABLE)


@pytest.mark.parametrize("kind", sorted(STAGE_USES))
def test_a_builtin_reached_from_a_forbidden_stage_is_refused(tmp_path, kind):
    use, stage, allowed = STAGE_USES[kind]
    text = stage_program(stage, use)
    path = tmp_path / "段。着色器。豫"
    path.write_text(text, encoding="utf-8")
    name = builtin_of(use)
    assert shown(Workspace(tmp_path), path) == [
        f"段。着色器。豫:{where(text, f'「{name}」于')}: 在「{FUNCTION[stage]}」中：「{name}」只能用在{allowed}入口里："
        f"{stage}入口「入口」经函数「{FUNCTION[stage]}」用到了它"]


@pytest.mark.parametrize("kind", sorted(STAGE_USES))
def test_the_same_builtin_in_an_allowed_stage_is_accepted(tmp_path, kind):
    use, _, allowed = STAGE_USES[kind]
    stage = allowed.split("、")[-1]
    path = tmp_path / "段。着色器。豫"
    path.write_text(stage_program(stage, use), encoding="utf-8")
    assert shown(Workspace(tmp_path), path) == []


@pytest.mark.parametrize("kind", sorted(EVERY_STAGE))
@pytest.mark.parametrize("stage", sorted(ENTRIES))
def test_unrestricted_kinds_are_accepted_in_every_stage(tmp_path, kind, stage):
    path = tmp_path / "段。着色器。豫"
    path.write_text(stage_program(stage, EVERY_STAGE[kind]), encoding="utf-8")
    assert shown(Workspace(tmp_path), path) == []


def test_the_command_line_refuses_a_barrier_in_a_vertex_shader(tmp_path):
    use, stage, _ = STAGE_USES["barrier"]
    text = stage_program(stage, use)
    path = tmp_path / "段。着色器。豫"
    path.write_text(text, encoding="utf-8")
    out = run_cli(tmp_path, path)
    assert out.returncode == 1
    assert out.stderr.strip() == (f"段。着色器。豫:{where(text, '「工作组屏障」于')}: 在「顶」中：「工作组屏障」只能用在计算入口里："
                                  "顶点入口「入口」经函数「顶」用到了它")


# ---------------------------------------------------------------- across modules, incrementally

LIBRARY = HEAD + "「斜」乃化「浮三二」为「浮三二」者也。\n「斜」者得「v」而{body}也。\n"
USER = (HEAD + "寻观「例」之「库」之书。\n"
        "「算」乃化「全局调用号」为「有」者也。\n「算」者得「号」而令「x」为「斜」于（「新浮三二」于「一」）而「元」也。\n"
        "「入口」乃「计算入口」也。\n「入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「一」也】）也。\n")


def test_a_body_edit_in_an_imported_module_is_validated_again(tmp_path):
    """The importer's check is kept (the library's interface did not change),
    but its validation follows the call into the new body."""
    (tmp_path / "包.json").write_text('{"名": "例", "依赖": ["点染"]}', encoding="utf-8")
    lib, user = tmp_path / "库。着色器。豫", tmp_path / "主。着色器。豫"
    lib.write_text(LIBRARY.format(body="「v」"), encoding="utf-8")
    user.write_text(USER, encoding="utf-8")
    ws = Workspace(tmp_path)
    assert shown(ws, user) == []
    checks = ws.counters["module_checks"]
    assert shown(ws, user) == [] and ws.counters["module_checks"] == checks   # nothing re-run
    text = LIBRARY.format(body="「横差」于「v」")
    ws.set_document(lib, text)
    assert shown(ws, user) == [f"库。着色器。豫:{where(text, '「横差」')}: 在「斜」中：「横差」只能用在片元入口里："
                               "计算入口「入口」经函数「算」用到了它"]
    assert ws.counters["module_checks"] == checks + 1                           # the library only
    assert shown(ws, lib) == []                                                  # no entry of its own reaches it
    ws.set_document(lib, LIBRARY.format(body="「v」"))
    assert shown(ws, user) == []


# ---------------------------------------------------------------- entry rules (valid/entries.py)

KERNEL = ("「算」乃化「全局调用号」为「有」者也。\n「算」者得「号」而「写数组」于「数据」于（「号」中「零」）于" + ONE + "也。\n"
          "「入口」乃「计算入口」也。\n「入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「一」也】）也。\n")
SECOND_ENTRY = "「又入口」乃「计算入口」也。\n「又入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「八」也】）也。\n"
CALLER = "「再」乃化「全局调用号」为「有」者也。\n「再」者得「号」而「算」于「号」也。\n"


@pytest.mark.parametrize("extra, marker, line_marker, message", [
    (SECOND_ENTRY, "「又入口」", "「又入口」者", "在「又入口」中：函数「算」已是入口项「入口」的函数：一个函数只能作一个入口"),
    (CALLER, "「算」于「号」", None, "在「再」中：「算」是入口函数，不能再调用：把函数体提成另一个函数，两处都调用它"),
], ids=["two entries, one function", "an entry function called"])
def test_entry_rules_are_checked_once_for_every_target(tmp_path, extra, marker, line_marker, message):
    """检查 refuses them at the right place, and so does every target (the writers no longer judge them)."""
    from zhuose.compiler.backends import translate
    from zhuose.compiler.diagnostics import ENTRY
    text = HEAD + RESOURCES + KERNEL + extra
    path = tmp_path / "口。着色器。豫"
    path.write_text(text, encoding="utf-8")
    ws = Workspace(tmp_path)
    assert shown(ws, path) == [f"口。着色器。豫:{where(text, marker, line_marker)}: {message}"]
    assert [d.code for d in ws.diagnostics(path)] == [ENTRY]
    for target in TARGET_NAMES:
        result = translate(ws, path, target)
        assert result.text is None and [d.code for d in result.diagnostics] == [ENTRY], target
    path.write_text(HEAD + RESOURCES + KERNEL, encoding="utf-8")
    assert shown(Workspace(tmp_path), path) == []


# ---------------------------------------------------------------- one source of truth


def test_the_checkers_constructor_tables_agree_with_the_registry():
    from zhuose.compiler.check.expressions import ENTRY_CONSTRUCTORS, LITERAL_CONSTRUCTORS, RESOURCE_CONSTRUCTORS
    assert set(LITERAL_CONSTRUCTORS) == registry.of_kind("literal")
    assert set(RESOURCE_CONSTRUCTORS) == registry.of_kind("resource")
    assert set(ENTRY_CONSTRUCTORS) == registry.of_kind("entry")


def test_back_ends_import_nothing_from_the_checker():
    backends = Path(registry.__file__).parents[1] / "backends"
    importing = [p.name for p in backends.rglob("*.py")
                 if re.search(r"^\s*(from\s+(\.+check\b|zhuose\.compiler\.check)|import\s+zhuose\.compiler\.check)",
                              p.read_text(encoding="utf-8"), re.M)]
    assert importing == []


def test_the_interpreter_runs_each_builtin_or_says_why_not(declared):
    """Issue 23: the exhaustiveness covers the reference interpreter too (compiler/interp/)."""
    from zhuose.compiler.interp import machine, ops
    values = registry.of_kind("value")
    missing = [n for n in declared if n not in machine.BUILTINS and n not in ops.PURE
               and n not in machine.UNAVAILABLE and n not in values]
    both = [n for n in machine.UNAVAILABLE if n in machine.BUILTINS or n in ops.PURE]
    assert missing == [] and both == []
    assert all(re.search(r"[\u4e00-\u9fff]", reason) for reason in machine.UNAVAILABLE.values())


def test_the_constant_evaluator_evaluates_each_constant_builtin_or_says_why_not(declared):
    """… and the constant evaluator (compiler/valid/consteval.py): a builtin allowed in a constant
    is evaluated at compile time as WGSL does, or listed with its reason."""
    from zhuose.compiler.valid import consteval as c
    evaluated = (set(c.COMPARE) | set(c.BINARY) | set(c.FLOAT_FUNCTIONS) | set(c.UNARY) | set(c.CONVERSIONS)
                 | {"转换", "位转换", "半精度打包", "半精度解包"})
    constant = [n for n in declared if registry.get(n) is not None and registry.get(n).constant]
    assert [n for n in constant if n not in evaluated and n not in c.NOT_EVALUATED] == []
    assert [n for n in c.NOT_EVALUATED if n in evaluated or n not in constant] == []
