"""The parser: items, the precedence table of LANGUAGE.md §5, tuple flattening
(seed 着八), error recovery and positions."""

import pytest

from zhuose.compiler.syntax import ast
from zhuose.compiler.syntax.parser import ItemCache, parse_file


def sexpr(n) -> str:
    """A compact rendering of an expression tree."""
    if isinstance(n, ast.Name):
        return n.name
    if isinstance(n, ast.Number):
        return str(n.value)
    if isinstance(n, ast.Paren):
        return sexpr(n.inner)
    if isinstance(n, ast.Operator):
        return "(" + " ".join([n.op] + [sexpr(o) for o in n.operands]) + ")"
    if isinstance(n, ast.Apply):
        return f"({sexpr(n.fn)} {sexpr(n.arg)})"
    if isinstance(n, ast.TypeArg):
        return f"({sexpr(n.fn)} 以 {stype(n.type)})"
    if isinstance(n, ast.Project):
        return f"{sexpr(n.base)}.{n.label}"
    if isinstance(n, ast.Qualified):
        return f"{n.module}之{n.name}"
    if isinstance(n, ast.Tuple):
        return "<" + ", ".join(sexpr(i) for i in n.items) + ">"
    if isinstance(n, ast.If):
        tail = f" 否则 {sexpr(n.otherwise)}" if n.otherwise is not None else ""
        return f"(若 {sexpr(n.cond)} 则 {sexpr(n.then)}{tail})"
    if isinstance(n, ast.Let):
        return f"(令 {n.name} {sexpr(n.value)} {sexpr(n.body)})"
    if isinstance(n, ast.Lambda):
        return f"(得 {' '.join(p.name for p in n.params)} {sexpr(n.body)})"
    if isinstance(n, ast.Sequence):
        return "{" + "; ".join(sexpr(i) for i in n.items) + "}"
    if isinstance(n, ast.Ascribe):
        return f"({sexpr(n.expr)} : {stype(n.type)})"
    if isinstance(n, ast.Record):
        return n.head + "{" + ", ".join(f"{f.name}={sexpr(f.value)}" for f in n.fields) + "}"
    raise AssertionError(type(n))


def stype(t) -> str:
    if isinstance(t, ast.TypeName):
        return t.name
    if isinstance(t, ast.TypeIndex):
        return f"#{t.value}"
    if isinstance(t, ast.TypeApp):
        return f"({stype(t.fn)} {stype(t.arg)})"
    if isinstance(t, ast.TypeTuple):
        return "<" + ", ".join(stype(i) for i in t.items) + ">"
    if isinstance(t, ast.TypeFun):
        return "(" + " -> ".join(stype(p) for p in t.params + [t.result]) + ")"
    if isinstance(t, ast.TypeForall):
        return f"(∀{t.var}. {stype(t.body)})"
    if isinstance(t, ast.TypeRecord):
        return "{" + ", ".join(f"{f.name}:{stype(f.value)}" for f in t.fields) + "}"
    raise AssertionError(type(t))


def expr(text: str) -> str:
    f = parse_file(f"「测」者{text}也。", ItemCache())
    (item,) = f.items
    assert not item.errors, item.errors
    return sexpr(item.node.value)


def typ(text: str) -> str:
    f = parse_file(f"「测」乃{text}也。", ItemCache())
    (item,) = f.items
    assert not item.errors, item.errors
    return stype(item.node.type)


@pytest.mark.parametrize("text, tree", [
    ("「a」加「b」乘「c」", "(加 a (乘 b c))"),
    ("「a」乘「b」加「c」", "(加 (乘 a b) c)"),
    ("「a」减「b」减「c」", "(减 (减 a b) c)"),
    ("「a」除「b」余「c」", "(余 (除 a b) c)"),
    ("「a」左移「b」加「c」", "(左移 a (加 b c))"),
    ("「a」小于「b」左移「c」", "(小于 a (左移 b c))"),
    ("「a」等于「b」按位与「c」", "(按位与 (等于 a b) c)"),
    ("「a」按位与「b」异或「c」按位或「d」", "(按位或 (异或 (按位与 a b) c) d)"),
    ("「a」按位或「b」且「c」", "(且 (按位或 a b) c)"),
    ("「a」且「b」或「c」且「d」", "(或 (且 a b) (且 c d))"),
    ("非「a」且「b」", "(且 (非 a) b)"),
    ("负「a」乘「b」", "(乘 (负 a) b)"),
    ("负「f」于「x」", "(负 (f x))"),
    ("「f」于「a」于「b」", "((f a) b)"),
    ("「f」于「v」中「零」", "(f v.零)"),
    ("「转换」以「浮三二」于「x」", "((转换 以 浮三二) x)"),
    ("「m」之「f」于「x」", "(m之f x)"),
    ("「a」加「b」与「c」", "<(加 a b), c>"),
    ("「a」与「b」与「c」", "<a, b, c>"),
    ("「a」与（「b」与「c」）", "<a, b, c>"),
    ("（「a」与「b」）与「c」", "<<a, b>, c>"),
    ("（「x」也「浮三二」）", "(x : 浮三二)"),
    ("「组值」【「组」者「零」也，「号」者「一」也】", "组值{组=0, 号=1}"),
])
def test_precedence_and_associativity(text, tree):
    assert expr(text) == tree


def test_binders_extend_right_and_sequences_nest():
    assert expr("令「x」为「a」而「x」；「y」") == "(令 x a {x; y})"
    assert expr("「a」；「b」；「c」") == "{a; b; c}"
    assert expr("若「c」则「a」否则「b」；「d」") == "{(若 c 则 a 否则 b); d}"
    assert expr("得「x」又得「y」而「x」加「y」") == "(得 x y (加 x y))"
    assert expr("令「f」为得「n」而「n」而「f」于「一」") == "(令 f (得 n n) (f 1))"


def test_dangling_else_goes_to_the_nearest_if():
    assert expr("若「a」则若「b」则「x」否则「y」") == "(若 a 则 (若 b 则 x 否则 y))"
    assert expr("若「a」则「x」否则若「b」则「y」否则「z」") == "(若 a 则 x 否则 (若 b 则 y 否则 z))"


def test_types():
    assert typ("「定长数组」于「浮三二」于「八一九二」") == "((定长数组 浮三二) #8192)"
    assert typ("化「甲」而化「乙」而「丙」") == "(甲 -> (乙 -> 丙))"
    assert typ("化「全局调用号」为「有」者") == "(全局调用号 -> 有)"
    assert typ("化「甲」又化「乙」又化「丙」为「丁」者") == "(甲 -> 乙 -> 丙 -> 丁)"
    assert typ("凡「甲」而化（化「甲」而「有」）又化「计算选项」为「计算入口」者") == \
        "(∀甲. ((甲 -> 有) -> 计算选项 -> 计算入口))"
    assert typ("「浮三二」与（「浮三二」与「浮三二」）") == "<浮三二, 浮三二, 浮三二>"
    assert typ("「组类」【「组」乃「整数」也，「号」乃「整数」也】") == "{组:整数, 号:整数}"
    assert typ("「存储缓冲」于（「数组」于「无三二」）") == "(存储缓冲 (数组 无三二))"


def test_items_of_every_kind():
    text = ("寻观「点染」之「点染本」之书。寻「包」之「模」之书。观「包」之「模」之书。"
            "「甲」乃「无三二」也。「甲」者「一」也。「乙」即「无三二」也。「丙」立「有」也。「一」加「二」。")
    f = parse_file(text, ItemCache())
    kinds = [type(i.node).__name__ for i in f.items]
    assert kinds == ["Import", "Import", "Import", "Signature", "Definition", "TypeDef", "CtorDecl", "BareExpr"]
    assert [i.node.kind for i in f.items[:3]] == ["寻观", "寻", "观"]
    assert [n.name for n in f.items[0].node.path] == ["点染", "点染本"]


def test_every_broken_item_is_reported_and_the_rest_parse():
    text = "「甲」者「一」加也。\n「乙」者「二」也。\n「丙」者（「三」也。\n「丁」者「四」也。"
    f = parse_file(text, ItemCache())
    assert [(i.name, bool(i.errors), i.node is not None) for i in f.items] == [
        ("甲", True, False), ("乙", False, True), ("丙", True, False), ("丁", False, True)]


def test_a_missing_period_is_recovered_at_the_next_line_that_starts_a_definition():
    text = "「甲」者「一」也\n「乙」者「二」也。"
    f = parse_file(text, ItemCache())
    assert [i.name for i in f.items] == ["甲", "乙"]
    assert "缺少「。」" in f.items[0].errors[0].message
    assert f.items[0].node is not None and f.items[1].node is not None and not f.items[1].errors


def test_spans_are_relative_to_the_item_and_items_know_their_start():
    text = "「甲」者「一」也。\n「乙」者「二」加「三」也。"
    f = parse_file(text, ItemCache())
    second = f.items[1]
    assert second.start == text.index("「乙」")
    op = second.node.value
    assert text[second.start + op.start: second.start + op.end] == "「二」加「三」"


def test_doc_comment_attaches_to_the_next_item():
    f = parse_file("「：说明：」\n「甲」者「一」也。「乙」者「二」也。", ItemCache())
    assert f.items[0].doc == "说明" and f.items[1].doc == ""


def test_error_message_names_what_was_expected():
    f = parse_file("「甲」者 也。", ItemCache())
    msg = f.items[0].errors[0].message
    assert "语法错误" in msg and "名字" in msg and "「也」" in msg


def test_expected_tokens_are_the_ones_that_really_fit():
    f = parse_file("「甲」者「组值」【「乙」者「一」与「二」，「丙」者「三」也】也。", ItemCache())
    msg = f.items[0].errors[0].message
    assert "应为「也」" in msg and "「。」" not in msg


def test_the_table_loop_builds_the_trees_lark_builds(monkeypatch):
    """parser._Tables runs a plain copy of lark's table itself; every item of
    the samples and of the builtin interface gets lark's own tree, and an
    item with a syntax error is left to lark (None)."""
    from pathlib import Path
    from zhuose.compiler.syntax import lalr, parser

    tables, lark_parser = parser._tables(), parser._lark()
    seen = {"tree": 0, "error": 0}

    def both(stream):
        ours = tables.__class__.parse(tables, stream)
        theirs, _ = lalr.parse_or_error(lark_parser, stream)
        assert repr(ours) == repr(theirs)
        seen["tree" if ours is not None else "error"] += 1
        return ours

    monkeypatch.setattr(tables, "parse", both)
    root = Path(__file__).resolve().parent.parent
    sources = [*(root / "samples").glob("*。豫"), *(root / "compiler" / "builtin").rglob("*。豫")]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        parse_file(text, ItemCache())
        parse_file(text.replace("也。", "也也。").replace("「零」", "「零」于"), ItemCache())   # broken items
    assert seen["tree"] > 500 and seen["error"] > 50
