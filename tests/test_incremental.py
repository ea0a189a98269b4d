"""The incremental core: its counters prove that an edit costs what it changed."""

from zhuose.compiler.workspace import Workspace
from support.frontend import write

PRELUDE = "寻观「点染」之「点染本」之书。\n"


def functions(n: int, k: int = 0) -> str:
    return "".join(f"「f{i}」乃化「无三二」为「无三二」者也。\n"
                   f"「f{i}」者得「x」而「x」加（「新无三二」于「{i + (k if i == 5 else 0)}」）也。\n" for i in range(n))


def delta(ws, before):
    return {k: ws.counters[k] - before.get(k, 0) for k in ws.counters}


def test_a_body_edit_reparses_and_rechecks_one_item(tmp_path):
    write(tmp_path, {"模。着色器。豫": PRELUDE + functions(50)})
    path = tmp_path / "模。着色器。豫"
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    before = dict(ws.counters)
    ws.set_document(path, PRELUDE + functions(50, k=100))
    assert ws.diagnostics(path) == []
    d = delta(ws, before)
    assert d["item_parses"] == 1 and d["item_checks"] == 1 and d["module_checks"] == 1


def test_an_unchanged_file_is_not_rechecked(tmp_path):
    write(tmp_path, {"模。着色器。豫": PRELUDE + functions(5)})
    ws = Workspace(tmp_path)
    ws.check(tmp_path / "模。着色器。豫")
    before = dict(ws.counters)
    ws.check(tmp_path / "模。着色器。豫")
    assert all(v == 0 for v in delta(ws, before).values())


def test_interface_edits_recheck_exactly_the_dependents(tmp_path):
    lib = "「步」乃「无三二」也。\n「步」者「新无三二」于「三」也。\n"
    user = "寻观「试」之「库」之书。\n" + PRELUDE + "「g」乃化「无三二」为「无三二」者也。\n「g」者得「x」而「x」加「步」也。\n"
    other = PRELUDE + functions(3)
    write(tmp_path, {"包.json": '{"名": "试", "依赖": ["点染"]}', "库。着色器。豫": PRELUDE + lib,
                     "用。着色器。豫": user, "别。着色器。豫": other})
    ws = Workspace(tmp_path)
    for name in ["用", "别"]:
        assert ws.diagnostics(tmp_path / f"{name}。着色器。豫") == []
    # a body (value) edit in the library: the importer is not re-checked
    before = dict(ws.counters)
    ws.set_document(tmp_path / "库。着色器。豫", PRELUDE + lib.replace("「三」", "「四」"))
    ws.check(tmp_path / "用。着色器。豫")
    ws.check(tmp_path / "别。着色器。豫")
    assert delta(ws, before)["module_checks"] == 1  # the library only
    # an interface edit: the importer is re-checked (and now has an error); the other file is not
    before = dict(ws.counters)
    ws.set_document(tmp_path / "库。着色器。豫", PRELUDE + lib.replace("乃「无三二」", "乃「整三二」").replace("新无三二", "新整三二"))
    msgs = [d.message for d in ws.diagnostics(tmp_path / "用。着色器。豫") if d.path.endswith("用。着色器。豫")]
    ws.check(tmp_path / "别。着色器。豫")
    assert delta(ws, before)["module_checks"] == 2
    assert any("类型不符" in m for m in msgs)


def test_open_documents_override_the_disk(tmp_path):
    write(tmp_path, {"模。着色器。豫": PRELUDE + "「常」者「一」也。"})
    path = tmp_path / "模。着色器。豫"
    ws = Workspace(tmp_path)
    ws.set_document(path, PRELUDE + "「常」者「未知」也。")
    assert [d.message for d in ws.diagnostics(path)] == ["未知的名字「未知」"]
    ws.close_document(path)
    assert ws.diagnostics(path) == []


def test_moving_items_reuses_their_parse(tmp_path):
    write(tmp_path, {"模。着色器。豫": PRELUDE + functions(20)})
    path = tmp_path / "模。着色器。豫"
    ws = Workspace(tmp_path)
    ws.check(path)
    before = dict(ws.counters)
    ws.set_document(path, "\n\n" + PRELUDE + functions(20))  # everything moves down two lines
    assert ws.diagnostics(path) == []
    assert delta(ws, before)["item_parses"] == 0


def test_an_import_that_resolves_to_another_file_is_followed(tmp_path):
    write(tmp_path, {"包.json": '{"名": "试", "依赖": ["点染"]}',
                     "库/常量。着色器。豫": PRELUDE + "「倍数」者「新无三二」于「二」也。",
                     "主。着色器。豫": PRELUDE + "寻观「试」之「库」之「常量」之书。\n「乙」者「倍数」也。"})
    ws = Workspace(tmp_path)
    main = tmp_path / "主。着色器。豫"
    assert any(p.endswith("常量。着色器。豫") for p in ws.check(main).module.imports)
    (tmp_path / "库/常量。着色器。豫").rename(tmp_path / "库/常量。着色器。接口。豫")
    (tmp_path / "库/常量。着色器。接口。豫").write_text("「倍数」乃「无三二」也。", encoding="utf-8")
    imports = ws.check(main).module.imports
    assert any(p.endswith("常量。着色器。接口。豫") for p in imports)
    assert not any(p.endswith("常量。着色器。豫") for p in imports)


def test_typing_at_the_end_of_an_unclosed_last_item_relexes_it(tmp_path):
    """The last group of a file may lack its 。: an edit that extends it must
    lex it again from its start (found by the server's typing fuzz test)."""
    path = tmp_path / "甲。着色器。豫"
    ws = Workspace(tmp_path)
    for text in ["「甲」者「一」也。", "「甲」者「一", "「甲」者「一」也。", "「甲", "「甲乙」者「二」也。", "「：甲", "「：甲：」"]:
        ws.set_document(path, text)
        fresh = Workspace(tmp_path)
        fresh.set_document(path, text)
        assert [d.message for d in ws.diagnostics(path)] == [d.message for d in fresh.diagnostics(path)], text


def test_a_same_size_rewrite_is_seen_once_the_watcher_reports_it(tmp_path):
    import os
    path = tmp_path / "模。着色器。豫"
    write(tmp_path, {"模。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。"})
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    st = os.stat(path)
    path.write_text(PRELUDE + "「常」者「新无三二」于「未」也。", encoding="utf-8")  # same length
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the same modification time
    ws.file_changed(path)
    assert [d.message for d in ws.diagnostics(path)] == ["未知的名字「未」"]
