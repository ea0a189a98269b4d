"""Name resolution and type checking: unification, class bounds, families,
aliases, classification (seed 着四) and every rejection (着四.6, 着五)."""

import random

import pytest

from zhuose.compiler import ir
from zhuose.compiler.types import Printer, TTuple, resolve
from support.frontend import LANGUAGE_SUM, check_text, messages

FN = "「f」乃化「无三二」为「无三二」者也。\n"


def ok(tmp_path, text):
    msgs = messages(tmp_path, text)
    assert msgs == [], msgs


def one(tmp_path, text) -> str:
    msgs = messages(tmp_path, text)
    assert len(msgs) == 1, msgs
    return msgs[0]


# ---------------------------------------------------------------- acceptance

def test_seed_example_checks_and_keeps_aliases(tmp_path):
    text = """「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「加倍」乃化「全局调用号」为「有」者也。
「加倍」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「数据」于「序」于（（「读数组」于「数据」于「序」）乘（「新无三二」于「二」））
也。
「加倍入口」乃「计算入口」也。
「加倍入口」者「计算入口项」于「加倍」于（「组值」【「工作组大小」者「四」也】）也。
"""
    ws, msgs = check_text(tmp_path, text)
    assert msgs == []
    module = ws.check(tmp_path / "测。着色器。豫").module
    kinds = [type(d).__name__ for d in module.decls]
    assert kinds == ["Resource", "Function", "Entry"]
    res, fn, entry = module.decls
    assert (res.kind, res.group, res.binding, res.access) == ("storage", 0, 0, "读写")
    assert fn.params[0].type.alias == "全局调用号"
    assert isinstance(resolve(fn.params[0].type), TTuple)
    assert (entry.stage, entry.function, entry.workgroup_size) == ("计算", "加倍", 4)
    let = fn.body
    assert isinstance(let, ir.Let) and let.var.name == "序"
    assert Printer()(let.var.type) == "「无三二」"


def test_local_tail_loop_of_language_md(tmp_path):
    ok(tmp_path, LANGUAGE_SUM)


def test_local_function_parameter_types_come_from_the_first_call(tmp_path):
    ws, msgs = check_text(tmp_path, FN + "「f」者得「x」而 令「g」为得「y」而「y」中「零」 而「g」于（「x」与「x」）也。")
    assert msgs == []
    fn = ws.check(tmp_path / "测。着色器。豫").module.decls[0]
    assert Printer({})(fn.body.fun.params[0].type) == "「无三二」与「无三二」"


def test_implicit_parameters_from_expected_type_and_explicit_type_argument(tmp_path):
    ok(tmp_path, """「g」乃化「浮三二」为「无三二」者也。
「g」者得「x」而「转换」以「无三二」于「x」也。
「h」乃化「三维浮」为「三维无」者也。
「h」者得「v」而「转换」以「三维无」于「v」也。
「k」乃化「浮三二」为「无三二」者也。
「k」者得「x」而「位转换」于「x」也。""")


def test_vectors_matrices_and_families(tmp_path):
    ok(tmp_path, """「m」乃化「三阶浮」又化「三维浮」为「浮三二」者也。
「m」者得「a」又得「v」而
　令「w」为「矩阵乘」于「a」于「v」而
　令「c」为「a」中「一」而
　（「点积」于「w」于「c」）加（「长度」于「v」）加（「取元素」于「w」于（「新无三二」于「二」））
也。
「lt」乃化「三维浮」为「三维爻」者也。
「lt」者得「v」而「v」小于「v」也。
「sh」乃化「二维无」为「二维无」者也。
「sh」者得「v」而「v」左移「v」也。""")


def test_records_are_structural_and_named_structs_keep_their_name(tmp_path):
    ws, msgs = check_text(tmp_path, """「点」即「组类」【「x」乃「浮三二」也，「y」乃「浮三二」也】也。
「原点」乃「点」也。
「原点」者「组值」【「y」者「新浮三二」于「零」也，「x」者「新浮三二」于「一」也】也。
「取x」乃化「点」为「浮三二」者也。
「取x」者得「p」而「p」中「x」也。""")
    assert msgs == []
    module = ws.check(tmp_path / "测。着色器。豫").module
    struct, const, fn = module.decls
    assert isinstance(struct, ir.Struct) and struct.type.alias == "点"
    assert [n for n, _ in const.value.fields] == ["x", "y"]  # reordered to the struct's order


def test_cells_sequences_and_both_ifs(tmp_path):
    ok(tmp_path, FN + """「f」者得「x」而
　令「格子」为「新格」于「x」而
　若「x」大于（「新无三二」于「三」）则「写格」于「格子」于（「新无三二」于「零」）；
　「读格」于「格子」
也。""")


def test_unsigned_constants_are_inferred_in_dependency_order(tmp_path):
    ws, msgs = check_text(tmp_path, "「乙」者「甲」加「甲」也。\n「甲」者「新整三二」于「三」也。")
    assert msgs == []
    decls = ws.check(tmp_path / "测。着色器。豫").module.decls
    assert [Printer()(d.type) for d in decls] == ["「定长整数」于「三二」"] * 2 or \
        all(resolve(d.type).name == "定长整数" for d in decls)


def test_qualified_and_opened_imports(tmp_path):
    from support.frontend import write
    write(tmp_path, {
        "包.json": '{"名": "试", "依赖": ["点染"]}',
        "库/公用。着色器。豫": "寻观「点染」之「点染本」之书。\n「二倍」乃化「无三二」为「无三二」者也。\n「二倍」者得「x」而「x」加「x」也。",
    })
    ok(tmp_path, "寻「试」之「库」之「公用」之书。\n" + FN + "「f」者得「x」而「公用」之「二倍」于「x」也。")
    ok(tmp_path, "寻观「试」之「库」之「公用」之书。\n" + FN + "「f」者得「x」而「二倍」于「x」也。")
    ok(tmp_path, "寻「试」之「库」之「公用」之书。\n观「试」之「库」之「公用」之书。\n" + FN + "「f」者得「x」而「二倍」于「x」也。")
    assert "未知的名字「二倍」" in one(tmp_path, "寻「试」之「库」之「公用」之书。\n" + FN + "「f」者得「x」而「二倍」于「x」也。")


# ---------------------------------------------------------------- errors

def test_literal_where_a_sized_scalar_is_expected_suggests_the_constructor(tmp_path):
    m = one(tmp_path, FN + "「f」者得「x」而「x」加「一」也。")
    assert m.startswith("2:14: 在「f」中：类型不符：应为「无三二」，实为「整数」")
    assert "「新无三二」" in m


def test_mismatch_prints_types_with_alias_names(tmp_path):
    m = one(tmp_path, "「g」乃化「全局调用号」为「浮三二」者也。\n「g」者得「号」而「号」也。")
    assert "应为「浮三二」，实为「全局调用号」" in m


def test_class_bounds_are_enforced(tmp_path):
    m = one(tmp_path, "「g」乃化「爻」为「爻」者也。\n「g」者得「b」而「b」加「b」也。")
    assert "「爻」不是数值标量或数值向量" in m
    m = one(tmp_path, "「g」乃化「浮三二」为「浮三二」者也。\n「g」者得「x」而「x」左移「x」也。")
    assert "不是整数标量或整数向量" in m
    m = one(tmp_path, "「g」乃化「无三二」为「无三二」者也。\n「g」者得「x」而负「x」也。")
    assert "有符号" in m


def test_float_matrices_meet_scalars_in_乘_and_matrices_in_加_减(tmp_path):
    """WGSL's m * s, s * m, m + m, m − m; m * m is 「矩阵乘」 and m / s, m + s do not exist."""
    fn = "「f」乃化「二阶浮」又化「浮三二」为「二阶浮」者也。\n「f」者得「m」又得「s」而{}也。"
    for body in ("「m」乘「s」", "「s」乘「m」", "「m」加「m」", "「m」减「m」乘「s」"):
        ok(tmp_path, fn.format(body))
    assert "矩阵的积用「矩阵乘」" in one(tmp_path, fn.format("「m」乘「m」"))
    assert "「二阶浮」不是数值标量或数值向量" in one(tmp_path, fn.format("「m」除「s」"))
    assert "应为「二阶浮」，实为「浮三二」" in one(tmp_path, fn.format("「m」加「s」"))
    assert "应为「二阶浮」，实为「浮十六」" in one(tmp_path, fn.format("「m」乘「新浮十六」于「一」"))
    assert "「爻」不是数值标量或数值向量" in one(tmp_path, fn.format("「阳」乘「m」"))


def test_a_tuple_where_a_fixed_size_array_is_expected_is_its_literal(tmp_path):
    one_f = "「新浮三二」于「一」"
    table = "「表」乃「定长数组」于「浮三二」于「三」也。\n「表」者{}也。"
    ok(tmp_path, table.format("与".join([one_f] * 3)))
    assert "类型不符" in one(tmp_path, table.format("与".join([one_f] * 2)))
    assert "字面量须经「新浮三二」构造" in one(tmp_path, table.format("「一」与" + "与".join([one_f] * 2)))
    fn = "「f」乃化「浮三二」为「浮三二」者也。\n「f」者得「x」而「取元素」于（「换元素」于（「x」与「x」）于（「新无三二」于「一」）于「x」）于（「新无三二」于「零」）也。"
    ok(tmp_path, fn)


def test_undetermined_implicit_parameter_uses_the_seed_message(tmp_path):
    m = one(tmp_path, "「常」者「转换」于「一」也。")
    assert "函数应用的隐式参数无法完全确定" in m and m.startswith("1:5:")


@pytest.mark.parametrize("text, fragment", [
    ("「丙」立「有」也。", "立"),
    ("「一」加「二」。", "裸表达式"),
    ("「g」乃凡「甲」而化「甲」而「甲」也。\n「g」者得「x」而「x」也。", "多态函数（凡）不能翻译"),
    (FN + "「f」者得「x」而「f」于「x」也。", "不能调用自身"),
    ("「f」乃化「无三二」为「无三二」者也。\n「f」者得「x」而「g」于「x」也。\n"
     "「g」乃化「无三二」为「无三二」者也。\n「g」者得「x」而「f」于「x」也。", "顶层函数不能递归调用"),
    (FN + "「f」者得「x」而 令「h」为得「n」而（「h」于「n」）加「n」 而「h」于「x」也。", "只能在尾位置"),
    (FN + "「f」者得「x」而（得「y」而「y」）于「x」也。", "只能应用具名的函数"),
    (FN + "「f」者得「x」而 令「h」为得「y」而「y」而「h」也。", "不能当作值"),
    ("「常」者得「x」而「x」也。", "缺少签名"),
    (FN + "「g」乃化「无三二」为「无三二」者也。\n「g」者得「x」而「f」于「f」也。", "不能当作值"),
    ("「串」者『字』也。", "字符串"),
    ("「g」乃化「无三二」为「无三二」者也。\n「g」者「g」也。", "的定义须是 得"),
    (FN + "「f」者得「x」又得「y」而「x」也。", "签名有 1 个参数，定义有 2 个"),
    (FN + "「f」者得「x」而「最大」于「x」也。", "部分应用"),
    (FN + "「f」者得「x」而「x」于「x」也。", "不是函数"),
    ("「v」乃化「三维浮」为「浮三二」者也。\n「v」者得「a」而「a」中「三」也。", "超出范围"),
    ("「点」即「组类」【「x」乃「浮三二」也】也。\n「v」乃化「点」为「浮三二」者也。\n「v」者得「p」而「p」中「y」也。", "没有字段「y」"),
    ("「常」者「新无三二」于「五零零零零零零零零零零」也。", "超出「新无三二」的范围"),
    ("「常」者「新整三二」于「0.5」也。", "须是整数"),
    ("「常」者「新浮十六」于「七零零零零」也。", "超出「新浮十六」的范围"),
    ("「g」乃「无三二」也。", "只有签名，没有定义"),
    ("「共」乃「工作组变量」于（「定长数组」于「浮十六」于「二五六」）也。\n「共」者「工作组共享」于「元」也。\n"
     "「f」乃化「无三二」为「子组矩阵片甲」者也。\n"
     "「f」者得「x」而「载入矩阵片甲」于「共」于（「新无三二」于「四」）于「x」也。", "的起须是 8 的倍数"),
    ("「常」者（「新无三二」于「一」）与「阳」也。", "元组须是向量"),
    ("「常」者「新无三二」于「一」也。\n「常」者「新无三二」于「二」也。", "重复定义"),
    ("「常」者「未知」也。", "未知的名字「未知」"),
    ("「常」者「浮三二」也。", "是类型，不能当作值"),
    ("「宽」即「定长整数」于「七」也。", "标量宽度只能是"),
    ("「n」乃「整数」也。\n「n」者「八」也。\n「数组甲」即「定长数组」于「浮三二」于「n」也。", "整数字面量"),
    ("「常」者若「阳」则「一」否则「阴」也。", "类型不符"),
    ("「常」者若「一」则「一」否则「二」也。", "应为「爻」"),
    ("「界」乃「无三二」也。\n「界」者「新无三二」于「界」也。", "常量定义成环：「界」 → 「界」"),
    ("「常」乃「无三二」也。\n「常」者「位转换」于（「新浮十六」于「一」与「新浮十六」于「二」与「新浮十六」于「三」与「新浮十六」于「四」）也。",
     "「位转换」两边的位数须相同：「四维半」是 64 位，「无三二」是 32 位"),
    ("「甲」乃「无三二」也。\n「甲」者「乙」也。\n「乙」乃「无三二」也。\n「乙」者「甲」也。", "常量定义成环"),
])
def test_each_rejection(tmp_path, text, fragment):
    msgs = messages(tmp_path, text)
    assert msgs and any(fragment in m for m in msgs), msgs


def test_resource_rules(tmp_path):
    res = "「数据」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
    bind = "「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「{}」也】）也。\n"
    write_fn = "「f」乃化「无三二」为「有」者也。\n「f」者得「x」而「写数组」于「数据」于「x」于「x」也。"
    assert "是只读存储缓冲" in one(tmp_path, res + bind.format("只读") + write_fn)
    ok(tmp_path, res + bind.format("读写") + write_fn)
    twice = res + bind.format("读写") + res.replace("数据", "其它") + bind.format("读写").replace("数据", "其它")
    ok(tmp_path, twice)                 # one slot, two resources: fine while no entry binds both
    both = ("「k」乃化「全局调用号」为「有」者也。\n「k」者得「号」而「写数组」于「其它」于（「号」中「零」）于"
            "（「读数组」于「数据」于（「号」中「零」））也。\n「e」乃「计算入口」也。\n"
            "「e」者「计算入口项」于「k」于（「组值」【「工作组大小」者「四」也】）也。\n")
    assert "「数据」与「其它」都绑定在组 0 号 0" in one(tmp_path, twice + both)
    assert "只能作资源的顶层定义" in one(tmp_path, FN + "「f」者得「x」而 令「b」为「工作组共享」于「元」而「x」也。")
    nonlit = res + "「零号」者「零」也。\n" + bind.format("读写").replace("「组」者「零」", "「组」者「零号」")
    assert "整数字面量" in one(tmp_path, nonlit)


def test_entry_rules(tmp_path):
    fn = "「主」乃化「无三二」为「有」者也。\n「主」者得「x」而「元」也。\n"
    entry = "「口」乃「计算入口」也。\n「口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「{}」也】）也。"
    msgs = messages(tmp_path, fn + entry.format("六四"))
    assert any("不是内建输入" in m for m in msgs), msgs
    good = fn.replace("化「无三二」", "化「局部调用序」")
    ok(tmp_path, good + entry.format("六四"))
    assert "工作组大小须在" in one(tmp_path, good + entry.format("四零九六"))
    vert = ("「顶」乃化「顶点序号」为「四维浮」者也。\n「顶」者得「i」而（「新浮三二」于「零」）与（「新浮三二」于「零」）与（「新浮三二」于「零」）与（「新浮三二」于「一」）也。\n"
            "「顶口」乃「顶点入口」也。\n「顶口」者「顶点入口项」于「顶」也。")
    assert "须返回「裁剪位置」" in one(tmp_path, vert)
    ok(tmp_path, vert.replace("为「四维浮」者", "为「裁剪位置」者"))


def test_a_constant_cycle_is_one_message(tmp_path):
    msgs = messages(tmp_path, "「甲」乃「无三二」也。\n「甲」者「乙」也。\n「乙」乃「无三二」也。\n「乙」者「甲」也。")
    assert len(msgs) == 1 and "「甲」 → 「乙」 → 「甲」" in msgs[0], msgs


def test_errors_are_not_repeated_for_one_mistake(tmp_path):
    msgs = messages(tmp_path, FN + "「f」者得「x」而「未知」于「x」加「x」也。")
    assert len(msgs) == 1


def test_a_broken_item_keeps_its_name_known(tmp_path):
    msgs = messages(tmp_path, FN + "「f」者得「x」而「x」加也。\n「g」乃化「无三二」为「无三二」者也。\n「g」者得「x」而「f」于「x」也。")
    assert len(msgs) == 1 and "语法错误" in msgs[0]


def test_call_results_meet_the_expected_type(tmp_path):
    text = FN + "「f」者得「x」而「x」也。\n「g」乃化「无三二」为「浮三二」者也。\n「g」者得「x」而「f」于「x」也。"
    assert "应为「浮三二」，实为「无三二」" in one(tmp_path, text)
    local = FN + "「f」者得「x」而 令「h」为得「y」而「y」而（「h」于「x」也「浮三二」）也。"
    assert any("类型不符" in m for m in messages(tmp_path, local))


def test_aliases_of_builtin_inputs_and_structs_keep_their_meaning(tmp_path):
    ws, msgs = check_text(tmp_path, """「编号」即「全局调用号」也。
「主」乃化「编号」为「有」者也。
「主」者得「号」而「元」也。
「口」乃「计算入口」也。
「口」者「计算入口项」于「主」于（「组值」【「工作组大小」者「一」也】）也。
「点」即「组类」【「x」乃「浮三二」也】也。
「又名」即「点」也。
「取」乃化「又名」为「浮三二」者也。
「取」者得「p」而「p」中「x」也。""")
    assert msgs == []
    decls = ws.check(tmp_path / "测。着色器。豫").module.decls
    fn = next(d for d in decls if d.name == "取")
    assert fn.type.params[0].alias == "点"


def test_parentheses_only_group_in_applications(tmp_path):
    ok(tmp_path, "「g」乃化「无三二」又化「无三二」为「无三二」者也。\n「g」者得「a」又得「b」而（「最大」于「a」）于「b」也。")


def test_numerals_cannot_be_names(tmp_path):
    msgs = messages(tmp_path, FN + "「f」者得「一」而 令「二」为「新无三二」于「三」而「二」也。")
    assert sum("是数字字面量，不能作名字" in m for m in msgs) == 2


def test_select_takes_a_condition_of_the_values_shape(tmp_path):
    ok(tmp_path, "「s」乃化「二维浮」又化「二维浮」为「二维浮」者也。\n「s」者得「a」又得「b」而「选择」于「a」于「b」于（「a」小于「b」）也。")
    ok(tmp_path, "「s」乃化「二维浮」又化「二维浮」为「二维浮」者也。\n「s」者得「a」又得「b」而「选择」于「a」于「b」于「阳」也。")
    m = one(tmp_path, "「s」乃化「浮三二」又化「浮三二」为「浮三二」者也。\n"
                      "「s」者得「a」又得「b」而「选择」于「a」于「b」于（「阳」与「阴」）也。")
    assert "「选择」的条件应为「爻」或与值同样长的爻向量" in m


def test_a_vertex_output_struct_may_be_the_fragment_input(tmp_path):
    ok(tmp_path, """「变」即「组类」【「位置」乃「裁剪位置」也，「色」乃「四维浮」也】也。
「片」乃化「变」为「片元颜色」者也。
「片」者得「v」而「v」中「色」也。
「片口」乃「片元入口」也。
「片口」者「片元入口项」于「片」也。""")


def test_a_misspelt_name_suggests_the_fewest_edits_nearest_first(tmp_path):
    """「加部」 is one edit from the user's 「加步」 and from the builtin 「加」: the
    user's name wins (the quick fix ranks the same way, compiler/check/closest.py)."""
    message = one(tmp_path, "「加步」乃化「无三二」为「无三二」者也。\n「加步」者得「x」而「x」也。\n"
                            "「用」乃「无三二」也。\n「用」者「加部」于（「新无三二」于「一」）也。\n")
    assert "「加部」" in message and "是不是「加步」" in message, message


def test_subgroup_values_are_32_bit_scalars_f16_and_their_vectors(tmp_path):
    """Issue 12: every subgroup operation takes 浮十六 and vectors; 爻, and
    floats for the bitwise ones, are refused with the bound's description."""
    ok(tmp_path, """「s」乃化「二维半」又化「三维无」又化「爻」为「有」者也。
「s」者得「h」又得「u」又得「b」而
　令「甲」为「子组前缀和」于「h」而
　令「乙」为「子组按位异或」于「u」而
　令「丙」为「子组上移洗牌」于「h」于（「新无三二」于「一」）而
　令「丁」为「子组投票」于「b」而
　令「戊」为「子组选一」于「元」而
　「元」
也。""")
    said = messages(tmp_path, """「t」乃化「爻」又化「浮三二」为「有」者也。
「t」者得「b」又得「x」而
　令「甲」为「子组求和」于「b」而
　令「乙」为「子组按位与」于「x」而
　「元」
也。""")
    assert len(said) == 2, said
    assert "「爻」不是32 位标量（浮三二、无三二、整三二）、浮十六，或它们的向量（爻与其他位宽不行）" in said[0]
    assert "「浮三二」不是无三二、整三二或它们的向量" in said[1] and "在「t」中" in said[1]


def _cycle_by_searching_everything(start: str, calls: dict[str, set[str]]) -> list[str] | None:
    """The search the checker made from every function before it looked only
    inside strongly connected components: the reference its messages keep."""
    stack, seen = [(start, [start])], set()
    while stack:
        name, path = stack.pop()
        for callee in sorted(calls.get(name, ())):
            if callee == start:
                return path + [start]
            if callee not in seen:
                seen.add(callee)
                stack.append((callee, path + [callee]))
    return None


def test_recursion_messages_on_random_call_graphs_name_the_same_cycles(tmp_path):
    rng = random.Random(8)
    cycles = 0
    for round_ in range(20):
        names = [f"f{k}" for k in range(8)]
        calls = {n: set(rng.sample(names, rng.randrange(1, 4))) for n in names}
        text = "".join(f"「{n}」乃化「无三二」为「无三二」者也。\n「{n}」者得「x」而"
                       + "".join(f"（「{c}」于" for c in sorted(calls[n])) + "「x」" + "）" * len(calls[n]) + "也。\n"
                       for n in names)
        expected, reported = [], set()
        for n in names:
            path = _cycle_by_searching_everything(n, calls)
            if path and len(path) > 2 and n not in reported:
                reported.update(path)
                expected.append("顶层函数不能递归调用（着四.6）：" + " → ".join(f"「{p}」" for p in path))
        found = [m.split("：", 1)[1] for m in messages(tmp_path, text) if "不能递归调用" in m]
        assert found == expected, (round_, calls)
        cycles += len(found)
    assert cycles > 20       # most graphs have cycles, several of them more than one
