"""compiler/query.py: what the code at an offset means (issue 10 item 5) —
the symbol a name denotes, the type of a local or of an expression, the
function a call head names — asked of the core without the server."""

from support.frontend import SEED_DOUBLE, write

from zhuose.compiler import query
from zhuose.compiler.types import TFun, resolve
from zhuose.compiler.workspace import Workspace


def _item(ws, path, name):
    checked = ws.check(path)
    item, result = next((i, r) for i, r in checked.items if i.name == name and i.kind == "者")
    return checked, item, result


def test_names_types_and_functions_at_offsets(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": SEED_DOUBLE})
    ws = Workspace(str(tmp_path))
    path = str(tmp_path / "加倍。着色器。豫")
    checked, item, result = _item(ws, path, "加倍")
    occs = query.index_item(query.context(ws, checked), item, result.decl)
    text = item.text

    use = text.index("「序」）")                         # the use of 「序」 in 读数组 … 于「序」
    occ = query.occurrence_at(occs, use + 1)
    assert (occ.symbol.kind, occ.symbol.name, occ.role) == ("local", "序", "use")
    assert occ.symbol.at == text.index("「序」为")         # bound by 令
    t = resolve(query.local_type(result.decl, occ))                 # 「号」中「零」: a u32
    assert (t.name, t.args) == ("定长无符号", (32,)), t

    read = query.occurrence_at(occs, text.index("「读数组」") + 1)
    assert (read.symbol.kind, read.symbol.detail, read.symbol.path) == ("value", "builtin", ws.builtins().path)
    data = query.occurrence_at(occs, text.index("「数据」") + 1)
    assert (data.symbol.kind, data.symbol.detail, data.symbol.path) == ("value", "resource", checked.path)
    assert query.occurrence_at(occs, text.index("而")) is None     # a keyword is no name

    e = query.expression_at(result.decl, text.index("「读数组」") + 1)
    assert e is not None and e.start <= text.index("「读数组」") < e.end

    entry = query.function_entry(checked.scope, None, "写数组")
    assert entry is not None and isinstance(resolve(entry.type), TFun)
    assert query.function_entry(checked.scope, None, "数据") is None      # a resource is no function
    assert query.function_entry(checked.scope, "没有这个模块", "写数组") is None


def test_a_local_function_is_found_only_after_its_binding(tmp_path):
    body = SEED_DOUBLE.replace(
        "　令「序」为「号」中「零」而\n",
        "　令「序」为「号」中「零」而\n　令「倍」为得「甲」而「甲」乘（「新无三二」于「二」）而\n").replace(
        "（（「读数组」于「数据」于「序」）乘（「新无三二」于「二」））", "（「倍」于（「读数组」于「数据」于「序」））")
    write(tmp_path, {"局。着色器。豫": body})
    ws = Workspace(str(tmp_path))
    checked, item, result = _item(ws, str(tmp_path / "局。着色器。豫"), "加倍")
    assert checked.diagnostics == []
    bound = item.text.index("「倍」为")
    fun = query.local_function_before(result.decl, "倍", len(item.text))
    assert fun is not None and fun.name == "倍" and [p.name for p in fun.params] == ["甲"]
    assert query.local_function_before(result.decl, "倍", bound) is None
    # the call's head is resolved from the checked IR's call, to the 令 that binds it
    occs = query.index_item(query.context(ws, checked), item, result.decl)
    use = query.occurrence_at(occs, item.text.index("「倍」于") + 1)
    assert (use.symbol.kind, use.symbol.at, use.role) == ("localfun", bound, "use")
    indexer = query.ItemIndexer(query.context(ws, checked), item, result.decl)
    assert (item.text.index("「倍」于"), item.text.index("「倍」于") + 3) in indexer.calls
