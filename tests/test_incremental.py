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


# ---------------------------------------------------------------- the validation pass after an edit

UNIFORMITY_HEAD = PRELUDE + """
「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「表」乃「存储缓冲」于（「数组」于「无三二」）也。
「表」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「只读」也】）也。
「界」乃「无三二」也。
「界」者「新无三二」于「三」也。
"""


def uniformity_program(filler=(0, 0), buffer="数据", guard="「n」", callers=2, top="") -> str:
    """「读」 reads `buffer` (read-write: varying); 「等」 waits at a barrier
    under a condition on `guard` (its parameter: its argument must be
    uniform); each caller 「调k」 passes 「读」's value to 「等」 — refused,
    with the cause inside 「读」, while both hold.  Filler functions above
    and between them move them when their literals change length."""
    def fill(name, n):
        return f"「{name}」乃化「无三二」为「无三二」者也。\n「{name}」者得「x」而「x」加（「新无三二」于「{n}」）也。\n"
    helpers = (f"「读」乃化「无三二」为「无三二」者也。\n「读」者得「i」而「读数组」于「{buffer}」于「i」也。\n"
               + fill("填甲", filler[1])
               + f"「等」乃化「无三二」为「有」者也。\n「等」者得「n」而若{guard}大于「界」则「工作组屏障」于「元」否则「元」也。\n")
    calls = "".join(f"「调{k}」乃化「无三二」为「有」者也。\n「调{k}」者得「v」而「等」于（「读」于「v」）也。\n"
                    for k in range(callers))
    kernel = ("「核」乃化「工作组号」为「有」者也。\n「核」者得「号」而「等」于（「号」中「零」）也。\n"
              "「核入口」乃「计算入口」也。\n"
              "「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。\n")
    return top + UNIFORMITY_HEAD + fill("填零", filler[0]) + helpers + calls + kernel


def shown(diagnostics) -> list:
    return [(d.path, d.start, d.end, d.message, d.definition, d.code, d.related) for d in diagnostics]


def fresh_diagnostics(root, path, text) -> list:
    fresh = Workspace(root)
    fresh.set_document(path, text)
    return shown(fresh.diagnostics(path))


def test_an_edit_above_moves_the_cached_uniformity_diagnostics(tmp_path):
    path = tmp_path / "模。着色器。豫"
    text = uniformity_program()
    write(tmp_path, {"模。着色器。豫": text})
    ws = Workspace(tmp_path)
    before = shown(ws.diagnostics(path))
    assert [d[4] for d in before] == ["调0", "调1"] and all(len(d[6]) == 1 for d in before)
    walked = ws.uniformity_cache.walked
    for filler in [(12345, 0), (12345, 987654), (1, 2)]:   # moves 「读」 and the callers, then the callers only
        edited = uniformity_program(filler)
        ws.set_document(path, edited)
        after = shown(ws.diagnostics(path))
        assert after == fresh_diagnostics(tmp_path, path, edited)
        call = edited.index("「读」于「v」")   # each message is at the argument, its cause inside 「读」
        read = edited.index("「读数组」于「数据」于「i」")
        assert after[0][1] == call and after[0][6][0][1] == read
    assert ws.uniformity_cache.walked - walked <= 3 * 2   # only the edited filler function, per edit and module
    ws.set_document(path, "\n\n「：注：」\n" + text)        # everything moves
    moved = shown(ws.diagnostics(path))
    assert moved == fresh_diagnostics(tmp_path, path, "\n\n「：注：」\n" + text)
    assert [d[1] - b[1] for d, b in zip(moved, before)] == [len("\n\n「：注：」\n")] * 2


def test_a_callee_whose_summary_changes_is_reported_again_in_its_callers(tmp_path):
    path = tmp_path / "模。着色器。豫"
    write(tmp_path, {"模。着色器。豫": uniformity_program()})
    ws = Workspace(tmp_path)
    assert len(ws.diagnostics(path)) == 2
    for buffer, guard, count in [("表", "「n」", 0),       # 「读」's result becomes uniform
                                 ("数据", "「n」", 2),     # and varying again
                                 ("数据", "「界」", 0),    # 「等」 no longer needs a uniform argument
                                 ("数据", "「n」", 2)]:
        text = uniformity_program(buffer=buffer, guard=guard)
        ws.set_document(path, text)
        got = shown(ws.diagnostics(path))
        assert len(got) == count and got == fresh_diagnostics(tmp_path, path, text), (buffer, guard)


def test_edits_in_any_order_give_a_fresh_workspaces_diagnostics(tmp_path):
    import random
    rng = random.Random(1717)
    path = tmp_path / "模。着色器。豫"
    write(tmp_path, {"模。着色器。豫": uniformity_program()})
    ws = Workspace(tmp_path)
    ws.diagnostics(path)
    state = {"filler": (0, 0), "buffer": "数据", "guard": "「n」", "callers": 2, "top": ""}
    choices = {"filler": lambda: (rng.choice([0, 7, 123456]), rng.choice([0, 9, 98765])),
               "buffer": lambda: rng.choice(["数据", "表"]), "guard": lambda: rng.choice(["「n」", "「界」"]),
               "callers": lambda: rng.randint(0, 3), "top": lambda: rng.choice(["", "\n", "「：注释：」\n\n"])}
    for _ in range(30):
        name = rng.choice(sorted(choices))
        state[name] = choices[name]()
        text = uniformity_program(**state)
        ws.set_document(path, text)
        assert shown(ws.diagnostics(path)) == fresh_diagnostics(tmp_path, path, text), state


def test_a_moved_item_leaves_the_older_modules_declaration_where_it_was(tmp_path):
    """The checker reuses an unchanged item's IR; a module checked before an
    edit above it (a translation still running, say) keeps its offsets."""
    path = tmp_path / "模。着色器。豫"
    write(tmp_path, {"模。着色器。豫": PRELUDE + functions(3)})
    ws = Workspace(tmp_path)
    old = ws.check(path).module
    starts = [old.starts[d.name] for d in old.decls]
    ws.set_document(path, "\n\n" + PRELUDE + functions(3))
    new = ws.check(path).module
    assert [old.starts[d.name] for d in old.decls] == starts
    assert [new.starts[d.name] for d in new.decls] == [s + 2 for s in starts]
    assert all(a.body is b.body for a, b in zip(old.decls, new.decls))   # the checked bodies are reused


def test_two_files_importing_an_edited_library_each_see_its_new_summary(tmp_path):
    """The walks are shared by every file of the workspace: a library edit
    validated through one importer must still reach the other's callers."""
    def library(buffer):
        return UNIFORMITY_HEAD + (f"「读」乃化「无三二」为「无三二」者也。\n「读」者得「i」而「读数组」于「{buffer}」于「i」也。\n"
                                  "「等」乃化「无三二」为「有」者也。\n"
                                  "「等」者得「n」而若「n」大于「界」则「工作组屏障」于「元」否则「元」也。\n")
    user = (PRELUDE + "寻观「试」之「库」之书。\n"
            "「调」乃化「无三二」为「有」者也。\n「调」者得「v」而「等」于（「读」于「v」）也。\n")
    write(tmp_path, {"包.json": '{"名": "试", "依赖": ["点染"]}', "库。着色器。豫": library("数据"),
                     "甲。着色器。豫": user, "乙。着色器。豫": user.replace("「调」", "「用」")})
    ws = Workspace(tmp_path)
    a, b, lib = (tmp_path / f"{n}。着色器。豫" for n in "甲乙库")
    assert [d.definition for d in ws.diagnostics(a)] == ["调"]
    assert [d.definition for d in ws.diagnostics(b)] == ["用"]
    for buffer, names in [("表", []), ("数据", ["调"])]:
        ws.set_document(lib, library(buffer))
        assert [d.definition for d in ws.diagnostics(b)] == [n.replace("调", "用") for n in names]
        assert [d.definition for d in ws.diagnostics(a)] == names
        fresh = Workspace(tmp_path)
        fresh.set_document(lib, library(buffer))
        assert shown(ws.diagnostics(a)) == shown(fresh.diagnostics(a))


# ---------------------------------------------------------------- the module check after a body edit

def varied_program(values: dict) -> str:
    """Functions, a struct, a constant, a resource and an entry; `values`
    picks each function's body and the texts around them."""
    parts = [values["top"], PRELUDE,
             "「对」即「组类」【「甲」乃「无三二」也，「乙」乃「无三二」也】也。\n",
             "「数据」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
             "「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n",
             f"「常」者「新无三二」于「{values['const']}」也。\n"]
    for i in range(6):
        parts.append(f"{values['doc'] if i == 3 else ''}「f{i}」乃化「无三二」为「无三二」者也。\n"
                     f"「f{i}」者得「x」而{values[i]}也。\n")
    parts.append("「核」乃化「全局调用号」为「有」者也。\n"
                 "「核」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「f5」于（「号」中「零」））也。\n"
                 "「核入口」乃「计算入口」也。\n"
                 "「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。\n")
    return "".join(parts)


BODIES = ["「x」加（「新无三二」于「{n}」）", "「x」乘「常」加（「新无三二」于「{n}」）",
          "「f0」于「x」加（「新无三二」于「{n}」）",                      # calls another function
          "（「组值」【「甲」者「x」也，「乙」者「x」也】）中「甲」",
          "「x」加（「新整三二」于「{n}」）",                                  # a type error
          "「x」加（「未知」于「{n}」）",                                       # an unknown name
          "「x」加（「新无三二」于「{n}」"]                                     # a syntax error


def checked_shape(ws, path) -> tuple:
    checked = ws.check(path)
    decls = [(type(d).__name__, d.name, checked.module.starts[d.name], d.name_end, d.doc) for d in checked.module.decls]
    exports = [(n, e.kind, e.start, e.name_end, e.doc) for table in (checked.exports.types, checked.exports.values)
               for n, e in table.items()]
    items = [(item.start, item.text, checked.module.starts.get(result.decl.name) if result and result.decl else None)
             for item, result in checked.items]
    return shown(ws.diagnostics(path)), decls, exports, items, checked.exports.fingerprint


def test_body_edits_reuse_the_module_check_and_equal_a_fresh_one(tmp_path):
    import random
    rng = random.Random(17)
    path = tmp_path / "模。着色器。豫"
    values = {"top": "", "const": 3, "doc": "", **{i: BODIES[0].format(n=i) for i in range(6)}}
    write(tmp_path, {"模。着色器。豫": varied_program(values)})
    ws = Workspace(tmp_path)
    ws.check(path)
    for step in range(60):
        what = rng.choice(["body"] * 6 + ["top", "const", "doc"])
        if what == "body":
            values[rng.randrange(6)] = rng.choice(BODIES[:4] * 6 + BODIES[4:]).format(n=rng.choice([1, 22, 3333]))
        elif what == "top":
            values["top"] = rng.choice(["", "\n", "「：注：」\n\n"])
        elif what == "const":
            values["const"] = rng.choice([3, 44])
        else:
            values["doc"] = rng.choice(["", "「：它：」\n"])
        text = varied_program(values)
        ws.set_document(path, text)
        fresh = Workspace(tmp_path)
        fresh.set_document(path, text)
        assert checked_shape(ws, path) == checked_shape(fresh, path), (step, values)
    assert ws.counters["body_rechecks"] >= 5, ws.counters     # the reuse ran (9 times with this seed)


def test_unread_interfaces_of_body_edits_compose_their_moves(tmp_path):
    """A body edit's interface places its moved entries when first read; edits
    in between that nobody reads chain their moves: read after many, every
    entry is where a fresh check puts it."""
    import random
    rng = random.Random(1717)
    path = tmp_path / "模。着色器。豫"
    values = {"top": "", "const": 3, "doc": "", **{i: BODIES[0].format(n=i) for i in range(6)}}
    write(tmp_path, {"模。着色器。豫": varied_program(values)})
    ws = Workspace(tmp_path)
    ws.check(path)
    for rounds in range(4):
        for step in range(8):
            values[rng.randrange(6)] = rng.choice([BODIES[0], BODIES[1], BODIES[3]]).format(n=rng.choice([1, 22, 4444444]))
            ws.set_document(path, varied_program(values))
            assert ws.diagnostics(path) == []
        fresh = Workspace(tmp_path)
        fresh.set_document(path, varied_program(values))
        assert checked_shape(ws, path) == checked_shape(fresh, path), rounds
    assert ws.counters["body_rechecks"] >= 20, ws.counters


def test_a_body_edit_that_adds_a_call_cycle_is_checked_in_full(tmp_path):
    path = tmp_path / "模。着色器。豫"
    values = {"top": "", "const": 3, "doc": "", **{i: BODIES[0].format(n=i) for i in range(6)}}
    write(tmp_path, {"模。着色器。豫": varied_program(values)})
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    values[0] = "「f1」于「x」"
    ws.set_document(path, varied_program(values))
    assert ws.diagnostics(path) == [] and ws.counters["body_rechecks"] == 0   # a new call: the full check
    values[1] = "「f0」于「x」"
    ws.set_document(path, varied_program(values))
    assert [d.code for d in ws.diagnostics(path)] == ["recursion"]


def test_incremental_parses_after_random_edits_equal_fresh_ones():
    """The parse after an edit reuses the old groups before and after it
    (found by bisection); every item, doc and comment must be as a fresh
    parse of the new text has them."""
    import random
    from pathlib import Path
    from zhuose.compiler.syntax.parser import ItemCache, parse_file
    rng = random.Random(170)
    text = (Path(__file__).resolve().parent.parent / "samples" / "加倍。着色器。豫").read_text(encoding="utf-8")
    text = text + "\n「：尾注：」\n" + functions(8)
    cache = ItemCache()
    parsed = parse_file(text, cache)
    pieces = ["。", "「：注：」", "「", "」", "\n", "也。", "「新」者「一」也。", "x"]
    for _ in range(300):
        at = rng.randrange(len(text) + 1)
        if rng.random() < 0.5 and at < len(text):
            new = text[:at] + text[at + rng.randint(1, 6):]
        else:
            new = text[:at] + rng.choice(pieces) + text[at:]
        parsed = parse_file(new, cache, parsed, text)
        fresh = parse_file(new, ItemCache())
        assert [(i.start, i.text, i.doc, i.name) for i in parsed.items] == \
               [(i.start, i.text, i.doc, i.name) for i in fresh.items]
        assert [(c.start, c.end, c.text) for c in parsed.comments] == [(c.start, c.end, c.text) for c in fresh.comments]
        assert (parsed.ends, parsed.sizes, parsed.closed) == (fresh.ends, fresh.sizes, fresh.closed)
        text = new


def test_a_cached_walks_load_proof_follows_its_function_when_it_moves(tmp_path):
    """A workgroup read right after a barrier is uniform by a proof the WGSL
    writer acts on (workgroupUniformLoad); a walk taken from the cache after
    an edit above it must hand over the proof at the read's new offset."""
    from zhuose.compiler.backends import translate
    barrier = "「工作组屏障」于「元」"
    body = ("　「写共享数组」于「共」于「号」于（「读数组」于「数据」于「号」）；\n"
            f"　{barrier}；\n"
            "　若「读共享数组」于「共」于「界」大于「界」\n"
            f"　则（{barrier}；「写数组」于「数据」于「号」于（「读共享数组」于「共」于「界」加「号」））\n"
            "　否则「写数组」于「数据」于「号」于「界」")

    def program(n):
        return (UNIFORMITY_HEAD + "「共」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。\n"
                "「共」者「工作组共享」于「元」也。\n"
                f"「填」乃化「无三二」为「无三二」者也。\n「填」者得「x」而「x」加（「新无三二」于「{n}」）也。\n"
                f"「核」乃化「局部调用序」为「有」者也。\n「核」者得「号」而\n{body}\n也。\n"
                "「核入口」乃「计算入口」也。\n"
                "「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。\n")
    path = tmp_path / "模。着色器。豫"
    write(tmp_path, {"模。着色器。豫": program(1)})
    ws = Workspace(tmp_path)
    assert "workgroupUniformLoad(&共[界])" in translate(ws, path, "wgsl").text
    for n in (123456, 7, 98765432):
        ws.set_document(path, program(n))
        fresh = Workspace(tmp_path)
        fresh.set_document(path, program(n))
        ours, theirs = translate(ws, path, "wgsl"), translate(fresh, path, "wgsl")
        assert ours.text == theirs.text and "workgroupUniformLoad(&共[界])" in ours.text
        assert translate(ws, path, "msl").text == translate(fresh, path, "msl").text
    assert ws.counters["body_rechecks"] == 3


def test_a_check_keys_its_module_on_the_text_it_parsed(tmp_path):
    """The language server translates in a worker thread while the editor's
    next keystroke sets a newer text: a check must parse the text it read,
    or the newer text's module is kept under the older text (a burst of
    edits then published a fixed file's old error)."""
    path = tmp_path / "模。着色器。豫"
    fixed = PRELUDE + functions(4)
    broken = fixed.replace("「x」加（「新无三二」于「2」）", "「x」加「未知」")
    write(tmp_path, {"模。着色器。豫": broken})
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path)
    ws.set_document(path, fixed)
    load = ws.load

    def keystroke_during_the_check(p):
        loaded = load(p)
        if loaded.source.text == fixed:
            ws.set_document(path, broken)      # what the server's main thread may do meanwhile
        return loaded
    ws.load = keystroke_during_the_check
    ws.check(path)
    ws.load = load
    ws.set_document(path, fixed)
    assert ws.diagnostics(path) == []


def test_body_edits_that_add_and_remove_problems_and_proofs_equal_a_fresh_workspace(tmp_path):
    """A body edit whose functions' summaries stay the same patches the
    previous validation (valid.BodyEdit, uniformity's known changes):
    problems that appear and vanish in several functions, in source order,
    and a workgroup read's proof that comes and goes must match a fresh
    workspace's diagnostics and WGSL after every keystroke.  Each variant
    keeps its function's text length and calls, and an unconditional barrier
    keeps each summary's requirement, so no edit falls back to the full pass."""
    import random
    from zhuose.compiler.backends import translate
    rng = random.Random(5)
    barrier = "「工作组屏障」于「元」"
    condition = {True: "（「读数组」于「数据」于「界」）大于「界」", False: "（「读数组」于「数表」于「界」）大于「界」"}
    write_shared = "「写共享数组」于「共」于「号」于（「读数组」于「数据」于「号」）"
    before_read = {True: f"　{write_shared}；\n　{barrier}；\n", False: f"　{barrier}；\n　{write_shared}；\n"}

    def program(bad: list[bool], proven: bool) -> str:
        waits = "".join(f"「甲{k}」乃化「无三二」为「有」者也。\n"
                        f"「甲{k}」者得「x」而（若{condition[b]}则{barrier}否则「元」）；{barrier}也。\n"
                        for k, b in enumerate(bad))
        return (UNIFORMITY_HEAD + "「数表」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
                "「数表」者「绑定」于（「组值」【「组」者「零」也，「号」者「二」也，「访问」者「只读」也】）也。\n"
                "「共」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。\n"
                "「共」者「工作组共享」于「元」也。\n" + waits +
                "「核」乃化「局部调用序」为「有」者也。\n「核」者得「号」而\n" + before_read[proven] +
                f"　（若「读共享数组」于「共」于「界」大于「界」则（{barrier}；「写数组」于「数据」于「号」于「界」）否则「元」）；\n"
                f"　{barrier}\n也。\n"
                "「核入口」乃「计算入口」也。\n"
                "「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。\n")
    path = tmp_path / "模。着色器。豫"
    bad, proven = [False, False, False], True
    write(tmp_path, {"模。着色器。豫": program(bad, proven)})
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    seen = set()
    for _ in range(24):
        which = rng.randrange(len(bad) + 1)
        if which < len(bad):
            bad[which] = not bad[which]
        else:
            proven = not proven
        text = program(bad, proven)
        walked = ws.uniformity_cache.walked
        ws.set_document(path, text)
        ours = shown(ws.diagnostics(path))
        assert ours == fresh_diagnostics(tmp_path, path, text), (bad, proven)
        assert ws.uniformity_cache.walked == walked + 1     # the edited function only
        seen.add((len(ours), proven))
        fresh = Workspace(tmp_path)
        fresh.set_document(path, text)
        assert ws.validate(path).uniform_proofs == fresh.validate(path).uniform_proofs
        if not ours:
            ours_wgsl = translate(ws, path, "wgsl").text
            assert ours_wgsl == translate(fresh, path, "wgsl").text and "workgroupUniformLoad" in ours_wgsl
    assert ws.counters["body_rechecks"] == 24
    assert {n for n, _ in seen} >= {0, 1, 2, 3} and (1, False) in seen, seen


def test_body_edits_under_an_entry_that_reaches_every_function_equal_a_fresh_workspace(tmp_path):
    """A compute entry runs a chain of functions; random body edits reorder
    their calls (the entry's reached functions change order), name a
    workgroup variable (its workgroup variables change) or discard (a stage
    problem in a function it reaches).  The patched validation must equal a
    fresh one: messages, reached functions, workgroup variables, WGSL."""
    import random
    from zhuose.compiler.backends import translate
    rng = random.Random(41)
    inner = {"order": "「乙」于（「丙」于（{x}））", "swapped": "「丙」于（「乙」于（{x}））",
             "shared": "「乙」于（「丙」于（（{x}）加（「读共享数组」于「共」于「界」）））",
             "discard": "（「舍弃」于「元」）；「乙」于（「丙」于（{x}））"}

    def program(variants: list[str]) -> str:
        leaves = "".join(f"「{n}」乃化「无三二」为「无三二」者也。\n「{n}」者得「x」而「x」也。\n" for n in "乙丙")
        chain = "".join(f"「甲{k}」乃化「无三二」为「无三二」者也。\n「甲{k}」者得「x」而"
                        + inner[v].format(x=f"「甲{k - 1}」于「x」" if k else "「x」") + "也。\n"
                        for k, v in enumerate(variants))
        return (UNIFORMITY_HEAD + "「共」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。\n"
                "「共」者「工作组共享」于「元」也。\n" + leaves + chain +
                "「核」乃化「全局调用号」为「有」者也。\n「核」者得「号」而\n"
                f"　「写数组」于「数据」于（「号」中「零」）于（「甲{len(variants) - 1}」于（「号」中「零」））\n也。\n"
                "「核入口」乃「计算入口」也。\n"
                "「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。\n")
    path = tmp_path / "模。着色器。豫"
    variants = ["order"] * 5
    write(tmp_path, {"模。着色器。豫": program(variants)})
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    seen, changes, text = set(), 0, program(variants)
    for _ in range(30):
        variants[rng.randrange(len(variants))] = rng.choice(sorted(inner))
        changes += program(variants) != text
        text = program(variants)
        ws.set_document(path, text)
        ours = shown(ws.diagnostics(path))
        assert ours == fresh_diagnostics(tmp_path, path, text), variants
        fresh = Workspace(tmp_path)
        fresh.set_document(path, text)
        mine, theirs = ws.validate(path), fresh.validate(path)
        assert (mine.reached, mine.workgroup) == (theirs.reached, theirs.workgroup), variants
        seen.add((bool(ours), bool(mine.workgroup["核入口"])))
        if not ours:
            assert translate(ws, path, "wgsl").text == translate(fresh, path, "wgsl").text
    assert ws.counters["body_rechecks"] == changes > 20
    assert seen == {(False, False), (False, True), (True, False), (True, True)}, seen


def test_body_edits_that_add_and_remove_resource_uses_equal_a_fresh_workspace(tmp_path):
    """Each function's resources (valid/stages.py `Uses`: named, passed to
    MSL, measured by 「数组长度」) follow random body edits in a chain of
    functions that two entries reach: a buffer read, a length, a length
    through a 令, a workgroup variable appear and vanish.  The patched
    validation must equal a fresh one function by function, and so must each
    entry's resources, its workgroup variables and the MSL and PTX text; an
    edit that changes no function's uses keeps the previous table's sums."""
    import random
    from zhuose.compiler.backends import translate
    rng = random.Random(23)
    inner = {"none": "{x}", "zero": "（{x}）加（「新无三二」于「零」）",
             "read": "（{x}）加（「读数组」于「表」于「界」）", "read again": "（「读数组」于「表」于「界」）加（{x}）",
             "length": "（{x}）加（「数组长度」于「表」）", "both": "（{x}）加（「数组长度」于「数据」）加（「读数组」于「表」于「界」）",
             "let": "令「缓」为「数据」而（{x}）加（「数组长度」于「缓」）",
             "shared": "（{x}）加（「读共享数组」于「共」于「界」）"}
    same = {"none": "none", "zero": "none", "read": "read", "read again": "read"}

    def program(variants: list[str]) -> str:
        chain = "".join(f"「甲{k}」乃化「无三二」为「无三二」者也。\n「甲{k}」者得「x」而"
                        + inner[v].format(x=f"「甲{k - 1}」于「x」" if k else "「x」") + "也。\n"
                        for k, v in enumerate(variants))
        entries = "".join(f"「{name}」乃化「全局调用号」为「有」者也。\n「{name}」者得「号」而\n"
                          f"　「写数组」于「数据」于（「号」中「零」）于（「{top}」于（「号」中「零」））\n也。\n"
                          f"「{name}入口」乃「计算入口」也。\n"
                          f"「{name}入口」者「计算入口项」于「{name}」于（「组值」【「工作组大小」者「六四」也】）也。\n"
                          for name, top in (("核", f"甲{len(variants) - 1}"), ("辅", "甲1")))
        return (UNIFORMITY_HEAD + "「共」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。\n"
                "「共」者「工作组共享」于「元」也。\n" + chain + entries)

    def uses(info) -> dict:
        keys = [k for k, d in info.decls.items() if getattr(d, "body", None) is not None]
        return {k: (u.resources, u.passed, u.lengths, u.unknown_length) for k in keys for u in [info.uses.of(k)]}

    def translated(ws, target: str):
        result = translate(ws, path, target)
        return result.text, [d.message for d in result.diagnostics], [getattr(e, "params", None) for e in result.entries]

    path = tmp_path / "模。着色器。豫"
    variants = ["none"] * 4
    text = program(variants)
    write(tmp_path, {"模。着色器。豫": text})
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    seen, kept = set(), 0
    for _ in range(40):
        which, was = rng.randrange(len(variants)), list(variants)
        variants[which] = rng.choice(sorted(inner))
        if variants == was:
            continue
        before = ws.validate(path)
        text = program(variants)
        ws.set_document(path, text)
        assert ws.diagnostics(path) == [], variants
        fresh = Workspace(tmp_path)
        fresh.set_document(path, text)
        mine, theirs = ws.validate(path), fresh.validate(path)
        assert uses(mine) == uses(theirs), variants
        for entry in ("核", "辅"):
            assert [(p, r.name) for p, r in mine.entry_resources(entry)] == \
                [(p, r.name) for p, r in theirs.entry_resources(entry)]
        assert mine.workgroup == theirs.workgroup
        unchanged = same.get(was[which], was[which]) == same.get(variants[which], variants[which])
        assert (mine.uses.known is before.uses.known) == unchanged, (was, variants)
        kept += unchanged
        for target in ("msl", "ptx"):
            assert translated(ws, target) == translated(fresh, target), (target, variants)
        core = mine.entry_uses("核")
        seen.add((bool(core.lengths), any(mine.decls[k].kind == "workgroup" for k in core.resources),
                  core.passed != core.resources))
    assert kept and ws.counters["body_rechecks"] >= 30
    assert [{s[i] for s in seen} for i in range(3)] == [{False, True}] * 3, seen
