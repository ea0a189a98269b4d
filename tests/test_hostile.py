"""Hostile input (issue 18): each extreme that once escaped as an internal
error, a hang or an output the target rejects gets a positioned Chinese
message instead, quickly."""

from __future__ import annotations

import time

from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace
from support.frontend import PRELUDE, write

NAME = "甲。着色器。豫"


def checked(root, text):
    write(root, {NAME: PRELUDE + text})
    ws = Workspace(root)
    return ws, ws.diagnostics(root / NAME)


def messages(root, text):
    return [d.message for d in checked(root, text)[1]]


def test_a_number_of_thousands_of_digits_is_out_of_range(tmp_path):
    ws, diags = checked(tmp_path, "「甲」乃「无三二」也。\n「甲」者「新无三二」于「" + "九" * 5000 + "」也。")
    assert [d.message for d in diags] == ["字面量 （超过四十位的整数） 超出「新无三二」的范围（0 至 4294967295）"]
    pos = ws.source(tmp_path / NAME).position(diags[0].start)
    assert (pos.line, pos.column) == (2, 11)  # zero-based: the literal after 「新无三二」于


def test_an_import_name_too_long_for_the_file_system_is_not_found(tmp_path):
    found = messages(tmp_path, "寻观「点染」之「" + "长" * 300 + "」之书。\n")
    assert len(found) == 1 and found[0].startswith("包内模块不存在：「点染」之「长长")


ADOPTED = """「S」即「组类」【「a」乃「无三二」也，「b」乃「无三二」也】也。
「h」乃化「S」为「无三二」者也。「h」者得「s」而「s」中「a」也。
「g」乃化「无三二」为「无三二」者也。
「g」者得「q」而 令「r」为「组值」【「b」者「q」也，「a」者「q」也】而（「h」于「r」）加（{}）也。
"""


def test_a_record_ascribed_a_failed_type_next_to_an_adopted_record(tmp_path):
    assert messages(tmp_path, ADOPTED.format("（「组值」【「a」者「q」也】 也「未知类」）")) == ["「未知类」不是已知的类型"]
    wrong = messages(tmp_path, ADOPTED.format("（「组值」【「a」者「q」也】 也「无三二」）"))
    assert wrong == ["类型不符：应为「无三二」，实为「组类」【「a」乃「无三二」也】"]


def test_a_very_long_unknown_name_gets_no_slow_suggestion(tmp_path):
    long = "甲" * 50000
    text = f"「g」乃「无三二」也。\n「g」者「{long}」也。\n「{long}乙」乃「无三二」也。\n「{long}乙」者「{long}」也。\n"
    began = time.perf_counter()
    found = messages(tmp_path, text)
    assert time.perf_counter() - began < 1.0
    assert found == [f"未知的名字「{long}」"] * 2


def bound(group: str, binding: str) -> str:
    return f"""「甲」乃「存储缓冲」于（「数组」于「浮三二」）也。
「甲」者「绑定」于（「组值」【「组」者「{group}」也，「号」者「{binding}」也，「访问」者「读写」也】）也。
「f」乃化「全局调用号」为「有」者也。
「f」者得「号」而「写数组」于「甲」于（「号」中「零」）于（「新浮三二」于「一点五」）也。
「e」乃「计算入口」也。
「e」者「计算入口项」于「f」于（「组值」【「工作组大小」者「六四」也】）也。
"""


def test_group_and_binding_numbers_are_range_checked(tmp_path):
    ws, diags = checked(tmp_path, bound("九", "4294967295"))
    assert [d.message for d in diags] == ["组号须在 0 至 3 之间（WebGPU 保证的上限），这里是 9",
                                          "绑定号须在 0 至 999 之间（WebGPU 保证的上限），这里是 4294967295"]
    pos = ws.source(tmp_path / NAME).position(diags[1].start)
    assert (pos.line, pos.column) == (2, 28)
    assert messages(tmp_path, bound("三", "九九九")) == []


def test_ptx_parameter_space_is_a_translation_error_at_its_exact_limit(tmp_path):
    """543 pointers and the array's element count (bounds safety) are 4348
    bytes and fit; one more pointer makes 4356, past the 4352."""
    ws, _ = checked(tmp_path, bound("零", "五四二"))
    text = translate(ws, tmp_path / NAME, "ptx").text
    assert text.count(".param .u64") == 543 and text.count(".param .u32") == 1
    ws, _ = checked(tmp_path, bound("零", "五四三"))
    result = translate(ws, tmp_path / NAME, "ptx")
    assert result.text is None
    assert [d.message.split("：")[0] for d in result.diagnostics] == ["入口「e」的参数共 4356 字节，超出 PTX 4352 字节的参数空间"]


WRITE = "（「写数组」于「甲」于「x」于「x」）"


def nested_ifs(n: int, inner: str = WRITE) -> str:
    return "若（「x」小于「x」）则 " * n + inner + " 否则「元」" * n


def writer(body: str) -> str:
    return f"""「甲」乃「存储缓冲」于（「数组」于「无三二」）也。
「甲」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「f」乃化「全局调用号」为「有」者也。
「f」者得「号」而 令「x」为「号」中「零」而 {body}也。
「e」乃「计算入口」也。
「e」者「计算入口项」于「f」于（「组值」【「工作组大小」者「六四」也】）也。
"""


def local_fun_inside_ifs(inner: int, outer: int) -> str:
    return writer(f"令「g」为得「y」而 {nested_ifs(inner)} 而（{nested_ifs(outer, '（「g」于「x」）')}）")


def test_what_checks_clean_nests_few_enough_blocks_for_naga(tmp_path):
    from support.wgpu_device import validate
    for program in (writer(nested_ifs(59)), local_fun_inside_ifs(25, 25)):
        ws, diags = checked(tmp_path, program)
        assert diags == []
        validate(translate(ws, tmp_path / NAME, "wgsl").text)


def test_blocks_nested_past_the_limit_are_refused_by_the_checker(tmp_path):
    # 60 nested 若 written out, and 64 + 64 once the local function is inlined (naga: 129 braces)
    for program in (writer(nested_ifs(60)), local_fun_inside_ifs(64, 64)):
        ws, diags = checked(tmp_path, program)
        assert [d.message for d in diags] == ["「若」与局部函数嵌套过深：译成目标语言后超过 60 层块（WGSL 编译器至多 127 层语句嵌套），"
                                              "请把里层拆成顶层函数"]
        assert diags[0].definition == "f"


def test_an_else_if_chain_does_not_nest(tmp_path):
    chain = "若（「x」小于「x」）则" + WRITE + "否则 "
    ws, diags = checked(tmp_path, writer(chain * 300 + WRITE))
    assert diags == []


def test_a_forked_name_scope_refers_to_its_parent_instead_of_copying_it():
    from zhuose.compiler.backends.names import NameAllocator
    top = NameAllocator(frozenset())
    for i in range(1000):
        top.claim(f"常{i}")
    item = top.fork()
    assert item.taken == set() and item.claim("常5") == "常5_2"
    top.claim("后来")
    assert item.claim("后来") == "后来_2"    # a name the parent takes later is still avoided


def test_translation_is_linear_in_the_number_of_items(tmp_path):
    one = "「常{0}」乃「无三二」也。\n「常{0}」者「新无三二」于「{1}」也。\n"
    ws, diags = checked(tmp_path, "".join(one.format(i, "一二三四五六七八九"[i % 9]) for i in range(10000)))
    assert diags == []
    for target in ("wgsl", "msl"):
        began = time.perf_counter()
        assert translate(ws, tmp_path / NAME, target).text
        assert time.perf_counter() - began < 4.0, target   # quadratic: about 6 s here, linear: under 1 s


def test_three_hundred_nested_anonymous_records_fail_fast_with_one_message(tmp_path):
    body = "「组值」【「a」者" * 300 + "（「新无三二」于「一」）" + "也】" * 300
    ws, diags = checked(tmp_path, f"「甲」者{body}也。\n")
    assert diags == [] and len(PRELUDE + body) < 10_000
    for target, said in (("wgsl", "WGSL 写不出没有名字的记录类型"), ("msl", "金属写不出没有名字的记录类型")):
        began = time.perf_counter()
        result = translate(ws, tmp_path / NAME, target)
        assert time.perf_counter() - began < 1.0, target
        assert result.text is None and [d.message[:len(said)] for d in result.diagnostics] == [said]


def test_an_editor_buffer_with_a_lone_surrogate_is_checked(tmp_path):
    write(tmp_path, {NAME: ""})
    ws = Workspace(tmp_path)
    ws.set_document(tmp_path / NAME, PRELUDE + "「甲\ud800」者「一」也。\n「乙」者\ud800也。\n")
    assert [d.message for d in ws.diagnostics(tmp_path / NAME)] == [
        "无法识别的文字「\ufffd」：名字须写在「」里，关键字见语言参考"]


def test_a_lone_surrogate_typed_into_an_open_buffer_is_replaced_wherever_it_lands(tmp_path):
    """Only the span an edit changed is searched for lone surrogates (the rest
    was cleaned when it was set): one typed at the start, in the middle or at
    the end of the buffer, or replacing a character, is still replaced."""
    write(tmp_path, {NAME: ""})
    ws = Workspace(tmp_path)
    path = tmp_path / NAME
    text = PRELUDE + "「甲」者「一」也。\n"
    ws.set_document(path, text)
    middle = text.index("「甲」") + 2
    for edited in ["\ud800" + text, text[:middle] + "\udfff" + text[middle:], text + "\ud800",
                   text[:middle] + "\ud800" + text[middle + 1:]]:
        ws.set_document(path, edited)
        assert ws.source(path).text == edited.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        assert "\ufffd" in ws.source(path).text and not any(0xD800 <= ord(c) <= 0xDFFF for c in ws.source(path).text)
